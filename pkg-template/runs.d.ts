/** One event of a run's log: its cursor and its whole SSE bytes (`id: N\n…\n\n`). */
export interface LoggedEvent {
  id: number;
  bytes: Uint8Array;
}

/** What a store knows of a run. */
export interface RunInfo {
  id: string;
  /** The protocol it was requested (and is logged and resumed) in. */
  protocol: string;
  session: string | null;
  /** Its owner: what `authorize` returned, as JSON text (`null` without `authorize`). */
  principal: string | null;
  meta: Record<string, unknown>;
  /** `"running"` until its terminal event is logged; `"lost"` when its instance went away first. */
  status: string;
  /** The id of the first event kept. */
  first: number;
  /** The id the next event will have. */
  next: number;
  /** Readers attached now (on this store's view). */
  readers: number;
  /** When a reader last read (ms since the epoch). */
  lastRead: number;
  /** Whether its log is no longer kept (past retention). */
  gone: boolean;
}

/**
 * The codes of a store's refusals (each an `AgentwireError`):
 * - `RUN_EXISTS`: `start` with an id that is taken;
 * - `SESSION_BUSY`: `start` (exclusive) while any other run of the session is going, exclusive or not;
 * - `TOO_MANY_RUNS`: `start` when `maxRuns` runs are kept and every one is running;
 * - `INVALID_OPTION`: a bad option (or a malformed run given to `start`), `field` naming it;
 * - `STORE_UNAVAILABLE`: the store's backend is down, full or did not answer in time;
 * - `RUN_GONE`: the run's log, or the part a cursor asks for, is no longer kept (also to a
 *   reader whose run was forgotten before it was done);
 * - `RUN_LOST`: the instance running the run went away (`next`: its terminal event's id); from
 *   `append`: the run is not running (ended, lost or unknown), the caller no longer holds it;
 * - `NOT_FOUND`: no such run.
 */
export type RunStoreErrorCode =
  | "RUN_EXISTS" | "SESSION_BUSY" | "TOO_MANY_RUNS" | "INVALID_OPTION" | "STORE_UNAVAILABLE" | "RUN_GONE" | "RUN_LOST" | "NOT_FOUND";

/** A store's refusal: an `AgentwireError` (`name` "AgentwireError") with one of {@link RunStoreErrorCode}. */
export interface RunStoreErrorShape extends Error {
  readonly name: "AgentwireError";
  readonly code: RunStoreErrorCode;
  /** With `INVALID_OPTION`: the option (or run field) refused. */
  readonly field?: string;
  /** With `RUN_LOST`: the id the run's terminal event takes (the events before it are logged). */
  readonly next?: number;
}

/**
 * The options every store takes (each store documents its own besides). A bad value or an
 * unknown key throws `INVALID_OPTION` naming it.
 */
export interface RunStoreOptions {
  /** How long an ended run's log is kept (then `RUN_GONE` for as long again, then unknown). 1 to 2^31-1. @defaultValue 10 minutes */
  retentionMs?: number;
  /** Events kept per run; the oldest are dropped first (a cursor before them is `RUN_GONE`). @defaultValue 100 000 */
  maxEvents?: number;
  /** Bytes of events kept per run, likewise. @defaultValue 64 MiB */
  maxBytes?: number;
  /**
   * Runs kept, running and ended: when full, `start` forgets the oldest ended run; when every
   * kept run is running, it refuses with `TOO_MANY_RUNS`. @defaultValue 10 000
   */
  maxRuns?: number;
  /** The clock (ms since the epoch) of retention, `lastRead`, `endedAt` and leases. @defaultValue Date.now */
  now?: () => number;
}

/**
 * Where durable runs live: their logs, who may read them, and how to stop them from anywhere.
 * `MemoryRunStore` is one process's; a store shared by instances (Redis, a Durable Object)
 * implements the same methods. Every refusal is an `AgentwireError` with a
 * {@link RunStoreErrorCode}; any method may reject with `STORE_UNAVAILABLE` when the store's
 * backend fails. A store of your own can run the contract's checks: see
 * `tests/js/store-contract.mjs` in the agentwire repository.
 */
export interface RunStore {
  /**
   * Registers a run, run by the caller (a store shared by instances holds a lease on it for the
   * caller until `end`); rejects with `RUN_EXISTS` when a run `id` exists, `SESSION_BUSY` when
   * `exclusive` and any run of its session is going (exclusive or not: a non-exclusive run
   * shares a session only with non-exclusive ones), `TOO_MANY_RUNS` when the store is full of
   * running runs. When full, it forgets the run that ended first (whatever was read since).
   */
  start(run: { id: string; protocol: string; session?: string | null; principal?: string | null; exclusive?: boolean; meta?: Record<string, unknown> }): Promise<void>;
  /**
   * Appends events (ids consecutive) to a running run. Rejects with `RUN_LOST` when the caller
   * no longer holds the run: it is not running (ended, lost, e.g. its lease lapsed and a reader
   * declared it lost, or unknown); nothing is logged: stop the agent. Every store refuses so
   * (none ignores such an append); an empty append does nothing.
   */
  append(id: string, events: LoggedEvent[]): Promise<void>;
  /** Marks a run ended. */
  end(id: string, status?: string): Promise<void>;
  get(id: string): Promise<RunInfo | null>;
  /**
   * The events after cursor `after` (-1: all), then the live ones until the run ends. Rejects
   * (code `RUN_GONE`) when the log no longer holds the event after `after`, `NOT_FOUND` for an
   * unknown run. The iteration throws `RUN_LOST` (with `next`) after the last logged event of a
   * run whose instance went away, and `RUN_GONE` when the reader fell behind the caps (the
   * events it had not read were dropped) or the run's log was dropped or the run forgotten
   * (retention, `maxRuns`) before the reader had every event: never `NOT_FOUND`, and never an
   * early end that would look complete. A reader that has every event of an ended run ends.
   */
  read(id: string, after?: number, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>>;
  /** The events kept now, as one chunk, without following the run. */
  log(id: string): Promise<Uint8Array>;
  /** Asks whoever runs `id` to stop it; false when it is not running. */
  cancel(id: string): Promise<boolean>;
  /** `stop` is called when someone cancels `id` (the instance running it registers). */
  onCancel(id: string, stop: () => void): void;
  /** The runs going, for abandonment checks. */
  running(): Promise<Array<{ id: string; readers: number; lastRead: number }>>;
  /**
   * The id of the run started last in `session` (while the store keeps that run), or `null`.
   * Optional: AgentApp's `sessionHistory` needs it (every store of the package has it).
   */
  lastRun?(session: string): Promise<string | null>;
  /**
   * What a run's log keeps at most. AgentApp paces a run's log to half of it ahead of its
   * slowest live reader on the instance running it (an agent awaiting `rb.ready()` then waits
   * for that reader); a store that does not tell is taken to keep the defaults.
   */
  readonly limits?: { maxEvents: number; maxBytes: number };
}

/** What {@link MemoryRunStore.list} lists. */
export interface RunListQuery {
  principal: string | null;
  protocol: string;
  match?: (run: RunInfo) => boolean;
  before?: number;
  limit?: number;
}

/** Options of {@link MemoryRunStore}: the common ones. */
export interface MemoryRunStoreOptions extends RunStoreOptions {}

/**
 * Runs kept in this process's memory (the default store of `AgentApp`): a {@link RunStore}.
 * Every call costs O(1) however many runs are kept (ended runs are swept in the order they ended).
 */
export declare class MemoryRunStore {
  /** @throws AgentwireError `INVALID_OPTION` naming the option. */
  constructor(options?: MemoryRunStoreOptions);
  /** Marks a run ended, at `endedAt` (ms since the epoch; its retention counts from then). @defaultValue now */
  end(id: string, status?: string, endedAt?: number): Promise<void>;
  /**
   * The runs of `principal` of `protocol` that `match` (given what `get` gives), newest start
   * first, at most `limit` started before `before` (a listed run's `seq`; none: from the
   * newest); `total` counts every match. Not of the {@link RunStore} contract: AgentApp's A2A
   * `ListTasks` uses it where a store has it (the method is unsupported over a store without
   * it). Costs O(runs of the principal).
   */
  list(query: RunListQuery): Promise<{ runs: Array<RunInfo & { seq: number }>; total: number }>;
}
export interface MemoryRunStore extends RunStore {}

/**
 * The class of a store's errors: `AgentwireError` itself (kept under this name for code that
 * tests `instanceof RunStoreError`).
 */
export declare const RunStoreError: {
  new (code: RunStoreErrorCode, message: string, options?: { field?: string; cause?: unknown }): RunStoreErrorShape;
  [Symbol.hasInstance](value: unknown): value is RunStoreErrorShape;
};
export type RunStoreError = RunStoreErrorShape;
