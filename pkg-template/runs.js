// Durable runs: the log of every event a run emitted (each with its cursor, `id: N`), kept so
// that a reader can resume after a dropped connection and anyone can stop the run, apart from
// the connection that started it. `MemoryRunStore` keeps runs in this process; the RunStore
// interface (documented in runs.d.ts) is what other stores implement.
import { concatBytes } from "./values.js";

const DEFAULTS = {
  retentionMs: 10 * 60 * 1000,
  maxEvents: 100_000,
  maxBytes: 16 * 1024 * 1024,
};

/**
 * A store refusal with a stable code: `SESSION_BUSY`, `RUN_GONE`, `NOT_FOUND`, or `RUN_LOST`
 * (the instance running the run stopped renewing its lease; `next` is the id its terminal event
 * takes).
 */
export class RunStoreError extends Error {
  constructor(code, message, next = undefined) {
    super(message);
    this.name = "RunStoreError";
    this.code = code;
    if (next !== undefined) this.next = next;
  }
}

/**
 * Runs kept in this process's memory: one log per run (events in order, each `{id, bytes}`),
 * bounded by `maxEvents` and `maxBytes` (the oldest events are dropped first; a cursor before
 * what is kept is `RUN_GONE`), kept `retentionMs` after the run ends (then `RUN_GONE` until
 * twice that, then unknown).
 */
export class MemoryRunStore {
  #runs = new Map();
  #sessions = new Map();
  #o;

  constructor(options = {}) {
    if (options === null || typeof options !== "object") throw new TypeError("MemoryRunStore options must be an object");
    this.#o = { ...DEFAULTS };
    for (const key of Object.keys(options)) {
      if (!(key in DEFAULTS)) throw new TypeError(`MemoryRunStore: unknown option ${JSON.stringify(key)}`);
      const value = options[key];
      if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`MemoryRunStore: ${key} must be an integer >= 0`);
      this.#o[key] = value;
    }
  }

  /**
   * Registers a new run. With `exclusive`, refuses (`SESSION_BUSY`) while another run of the
   * same session is going.
   */
  async start({ id, protocol, session = null, principal = null, exclusive = true, meta = {} }) {
    this.#sweep();
    if (this.#runs.has(id)) throw new RunStoreError("SESSION_BUSY", `A run ${id} exists already.`);
    if (exclusive && session !== null) {
      const other = this.#sessions.get(session);
      if (other !== undefined && this.#runs.get(other)?.status === "running") {
        throw new RunStoreError("SESSION_BUSY", `Session ${session} has a run going (${other}).`);
      }
    }
    const run = {
      id, protocol, session, principal, meta,
      status: "running",
      endedAt: 0,
      events: [], // the log; events[head] is the oldest kept
      head: 0,
      bytes: 0,
      first: 0, // the id of events[0]
      next: 0, // the id the next event will have
      waiters: new Set(),
      cancelers: new Set(),
      readers: 0,
      lastRead: Date.now(),
    };
    this.#runs.set(id, run);
    if (session !== null) this.#sessions.set(session, id);
  }

  /** Appends events (`{id, bytes}`, ids consecutive) to a running run's log. */
  async append(id, events) {
    const run = this.#runs.get(id);
    if (!run || run.status !== "running") return;
    for (const e of events) {
      run.events.push(e);
      run.bytes += e.bytes.byteLength;
      run.next = e.id + 1;
    }
    // Over the caps: drop the oldest events (a cursor before what is kept is RUN_GONE). The
    // array is compacted once half of it is dropped, so each event costs O(1) however long
    // the run.
    const max = this.#o.maxEvents;
    while (run.events.length - run.head > 1 && (run.events.length - run.head > max || run.bytes > this.#o.maxBytes)) {
      run.bytes -= run.events[run.head].bytes.byteLength;
      run.events[run.head] = undefined;
      run.head++;
    }
    if (run.head > 0 && run.head * 2 >= run.events.length) {
      run.events = run.events.slice(run.head);
      run.head = 0;
    }
    if (run.events.length > run.head) run.first = run.events[run.head].id;
    this.#wake(run);
  }

  /**
   * Marks a run ended (its terminal event is in the log), or `"lost"` (its readers then get
   * `RUN_LOST` after the last event); `endedAt` (ms since the epoch) is when, for retention.
   */
  async end(id, status = "ended", endedAt = Date.now()) {
    const run = this.#runs.get(id);
    if (!run || run.status !== "running") return;
    run.status = status;
    run.endedAt = endedAt;
    run.cancelers.clear();
    this.#wake(run);
  }

  /** What is known of a run, or `null`. `gone` once its log is no longer kept. */
  async get(id) {
    this.#sweep();
    const run = this.#runs.get(id);
    if (!run) return null;
    return {
      id: run.id, protocol: run.protocol, session: run.session, principal: run.principal, meta: run.meta,
      status: run.status, first: run.first, next: run.next, readers: run.readers, lastRead: run.lastRead,
      gone: run.events === null,
    };
  }

  /**
   * The run's events after cursor `after` (-1: from the first), then the live ones until the
   * run ends: an async iterable of byte chunks. Rejects with `RUN_GONE` when the log no longer
   * holds the event after `after`, `NOT_FOUND` for an unknown run. Stops early when `signal`
   * aborts.
   */
  async read(id, after = -1, signal = undefined) {
    const run = this.#runs.get(id);
    if (!run) throw new RunStoreError("NOT_FOUND", `No run ${id}.`);
    if (run.events === null) throw new RunStoreError("RUN_GONE", `Run ${id} is no longer kept.`);
    if (after + 1 < run.first) {
      throw new RunStoreError("RUN_GONE", `Run ${id} keeps events from ${run.first}; ${after + 1} is gone.`);
    }
    return this.#follow(run, after, signal);
  }

  async *#follow(run, after, signal) {
    let cursor = after;
    run.readers++;
    try {
      for (;;) {
        if (signal?.aborted) return;
        if (run.events === null) return;
        const start = run.head + Math.max(0, cursor + 1 - run.first);
        if (start < run.events.length) {
          const batch = run.events.slice(start);
          cursor = batch[batch.length - 1].id;
          run.lastRead = Date.now();
          yield concatBytes(batch.map((e) => e.bytes));
          continue;
        }
        if (run.status === "lost") throw new RunStoreError("RUN_LOST", `The instance running run ${run.id} went away.`, run.next);
        if (run.status !== "running") return;
        await new Promise((resolve) => {
          const wake = () => {
            run.waiters.delete(wake);
            signal?.removeEventListener("abort", wake);
            resolve();
          };
          run.waiters.add(wake);
          signal?.addEventListener("abort", wake, { once: true });
        });
      }
    } finally {
      run.readers--;
      run.lastRead = Date.now();
    }
  }

  /** The events of run `id` kept now, as one chunk (not following the run): empty when unknown or gone. */
  async log(id) {
    const run = this.#runs.get(id);
    if (!run || run.events === null) return new Uint8Array(0);
    const kept = run.events.slice(run.head);
    return kept.length ? concatBytes(kept.map((e) => e.bytes)) : new Uint8Array(0);
  }

  /** Asks the instance running `id` to stop it; false when it is not running. */
  async cancel(id) {
    const run = this.#runs.get(id);
    if (!run || run.status !== "running") return false;
    for (const stop of [...run.cancelers]) {
      try {
        stop();
      } catch {
        // A failing canceler must not keep the others from running.
      }
    }
    return true;
  }

  /** `stop` is called when someone cancels run `id` (the instance running it registers). */
  onCancel(id, stop) {
    this.#runs.get(id)?.cancelers.add(stop);
  }

  /** Runs going, for abandonment checks: `[{id, readers, lastRead}]`. */
  async running() {
    return [...this.#runs.values()].filter((r) => r.status === "running").map((r) => ({ id: r.id, readers: r.readers, lastRead: r.lastRead }));
  }

  #wake(run) {
    for (const wake of [...run.waiters]) wake();
  }

  /** Drops the logs of runs ended more than `retentionMs` ago, and forgets them after twice that. */
  #sweep() {
    const now = Date.now();
    for (const [id, run] of this.#runs) {
      if (run.status === "running") continue;
      if (now - run.endedAt > 2 * this.#o.retentionMs) {
        this.#runs.delete(id);
        if (this.#sessions.get(run.session) === id) this.#sessions.delete(run.session);
      } else if (now - run.endedAt > this.#o.retentionMs && run.events !== null) {
        run.events = null;
        run.head = 0;
        run.bytes = 0;
      }
    }
  }
}


/** Events a run may have waiting for its store before the run waits for the store. */
const LOG_QUEUE = 1024;

/**
 * Logs the chunks of a run's stream (whole events with ids) in `store`, in order, one append
 * at a time: what arrives while an append is in flight goes in the next, so a remote store
 * costs a round trip per batch, not per chunk. `add` waits only when LOG_QUEUE events are
 * waiting (the producer then waits for the store); `flush` waits for everything and returns
 * the store's failure (e.g. `RUN_LOST`), if any, after which nothing more is appended.
 */
export class RunLog {
  #store;
  #id;
  #queued = [];
  #pending = null;
  #draining = false;
  #carry = new Uint8Array(0);
  /** The first append that failed, or `null`. */
  failure = null;

  constructor(store, id) {
    this.#store = store;
    this.#id = id;
  }

  /** Queues the events of `chunk` and starts an append unless one is in flight. */
  add(chunk) {
    const split = splitEvents(chunk, this.#carry);
    this.#carry = split.carry;
    if (split.events.length === 0 || this.failure) return undefined;
    for (const e of split.events) this.#queued.push(e);
    if (!this.#draining) this.#pending = this.#drain();
    return this.#queued.length > LOG_QUEUE ? this.#pending : undefined;
  }

  /** Waits until every queued event is appended (or an append failed): the failure, or `null`. */
  async flush() {
    while (this.#draining) await this.#pending;
    if (this.#queued.length > 0 && this.failure === null) await this.#drain();
    return this.failure;
  }

  async #drain() {
    this.#draining = true;
    try {
      while (this.#queued.length > 0 && this.failure === null) {
        const batch = this.#queued;
        this.#queued = [];
        await this.#store.append(this.#id, batch);
      }
    } catch (e) {
      this.failure = e;
    } finally {
      this.#draining = false;
    }
  }
}

/**
 * Splits SSE events written with ids (`id: N\n…\n\n`) into `{id, bytes}`. `carry` is what the
 * previous chunk left of an unfinished event (never, for a builder's chunks: each holds whole
 * events); the search for the blank line is native (`indexOf`), from where it could start.
 */
export function splitEvents(bytes, carry) {
  const data = carry.length ? concatBytes([carry, bytes]) : bytes;
  const events = [];
  let start = 0;
  let at = Math.max(0, carry.length - 1);
  for (;;) {
    const nl = data.indexOf(10, at);
    if (nl === -1 || nl + 1 >= data.length) break;
    if (data[nl + 1] !== 10) {
      at = nl + 1;
      continue;
    }
    const event = data.subarray(start, nl + 2);
    events.push({ id: idOf(event), bytes: event });
    start = at = nl + 2;
  }
  return { events, carry: data.subarray(start) };
}

/** The number after `id: ` on an event's first line. */
function idOf(event) {
  let n = 0;
  for (let i = 4; i < event.length && event[i] !== 10; i++) n = n * 10 + (event[i] - 48);
  return n;
}
