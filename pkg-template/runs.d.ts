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
 * Where durable runs live: their logs, who may read them, and how to stop them from anywhere.
 * `MemoryRunStore` is one process's; a store shared by instances (Redis, a Durable Object)
 * implements the same methods.
 */
export interface RunStore {
  /**
   * Registers a run, run by the caller (a store shared by instances holds a lease on it for the
   * caller until `end`); rejects with code `SESSION_BUSY` when `exclusive` and its session has a
   * run going, or when a run `id` exists.
   */
  start(run: { id: string; protocol: string; session?: string | null; principal?: string | null; exclusive?: boolean; meta?: Record<string, unknown> }): Promise<void>;
  /**
   * Appends events (ids consecutive) to a running run. Rejects with `RUN_LOST` when the caller
   * no longer holds the run (its lease lapsed and a reader declared it lost): stop the agent.
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
   * events it had not read were dropped).
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
}

/** Options of {@link MemoryRunStore}. */
export interface MemoryRunStoreOptions {
  /** How long an ended run's log is kept (then `RUN_GONE` for as long again). @defaultValue 10 minutes */
  retentionMs?: number;
  /** Events kept per run; older ones are dropped (a cursor before them is `RUN_GONE`). @defaultValue 100 000 */
  maxEvents?: number;
  /** Bytes kept per run, likewise. @defaultValue 16 MiB */
  maxBytes?: number;
}

/** Runs kept in this process's memory (the default store of `AgentApp`): a {@link RunStore}. */
export declare class MemoryRunStore {
  constructor(options?: MemoryRunStoreOptions);
  /** Marks a run ended, at `endedAt` (ms since the epoch; its retention counts from then). @defaultValue now */
  end(id: string, status?: string, endedAt?: number): Promise<void>;
}
export interface MemoryRunStore extends RunStore {}

/** A store's refusal, with a stable code. */
export declare class RunStoreError extends Error {
  /** A store's refusal `code` (`next`: with `RUN_LOST`, the id of the run's terminal event). */
  constructor(code: RunStoreError["code"], message: string, next?: number);
  readonly code: "SESSION_BUSY" | "RUN_GONE" | "NOT_FOUND" | "RUN_LOST";
  /** With `RUN_LOST`: the id the run's terminal event takes (the events before it are logged). */
  readonly next?: number;
}
