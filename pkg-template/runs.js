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
 * A run's log in memory: segments of consecutive events (one per append: their bytes in one
 * array, an end offset per event), so an event costs 4 bytes above its own. The oldest events
 * are dropped one at a time (`dropFirst`), a segment once all of its are.
 */
class EventLog {
  #segments = []; // #segments[#head] is the oldest kept
  #head = 0;
  /** The id of the first event kept, the id the next event takes, events and bytes kept. */
  first = 0;
  next = 0;
  count = 0;
  bytes = 0;

  /** Appends events (`{id, bytes}`, ids consecutive, following the last). */
  push(events) {
    const ends = new Uint32Array(events.length);
    let size = 0;
    events.forEach((e, i) => {
      size += e.bytes.byteLength;
      ends[i] = size;
    });
    // A copy (`slice`) of a lone event not contiguous() lets its large buffer go.
    const bytes = contiguous(events, size) ?? (events.length === 1 ? events[0].bytes.slice() : concatBytes(events.map((e) => e.bytes)));
    if (this.count === 0) this.first = events[0].id;
    this.#segments.push({ first: events[0].id, start: 0, ends, bytes });
    this.count += events.length;
    this.bytes += size;
    this.next = events[events.length - 1].id + 1;
  }

  /** Drops the oldest event kept. */
  dropFirst() {
    const seg = this.#segments[this.#head];
    const { start, ends } = seg;
    this.bytes -= ends[start] - (start === 0 ? 0 : ends[start - 1]);
    this.count--;
    this.first++;
    seg.start++;
    if (seg.start === ends.length) {
      this.#segments[this.#head] = undefined;
      this.#head++;
      if (this.#head * 2 >= this.#segments.length) {
        this.#segments = this.#segments.slice(this.#head);
        this.#head = 0;
      }
    }
  }

  /** The bytes of the events kept from id `from` on (empty when none), as one new array. */
  from(from) {
    from = Math.max(from, this.first);
    if (from >= this.next) return new Uint8Array(0);
    // The segment holding `from`: the last whose first id is at most `from`.
    let lo = this.#head;
    let hi = this.#segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#segments[mid].first <= from) lo = mid;
      else hi = mid - 1;
    }
    const parts = [];
    for (let i = lo; i < this.#segments.length; i++) {
      const { first, ends, bytes } = this.#segments[i];
      const k = i === lo ? from - first : 0;
      parts.push(k === 0 ? bytes : bytes.subarray(ends[k - 1]));
    }
    // A copy: what readers get is theirs.
    return parts.length === 1 ? parts[0].slice() : concatBytes(parts);
  }
}

/**
 * The events' bytes as one view when they lie one after the other in one buffer not much larger
 * than them (a builder's chunk, split): no copy. Otherwise `null`.
 */
function contiguous(events, size) {
  const { buffer, byteOffset } = events[0].bytes;
  if (buffer.byteLength > 2 * size + 64) return null;
  let at = byteOffset;
  for (const e of events) {
    if (e.bytes.buffer !== buffer || e.bytes.byteOffset !== at) return null;
    at += e.bytes.byteLength;
  }
  return new Uint8Array(buffer, byteOffset, size);
}

/**
 * Runs kept in this process's memory: one log per run (an `EventLog`),
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
      log: new EventLog(), // null once past retention
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
    if (!run || run.status !== "running" || events.length === 0) return;
    const { log } = run;
    log.push(events);
    // Over the caps: drop the oldest events (a cursor before what is kept is RUN_GONE), each
    // in O(1) however long the run.
    while (log.count > 1 && (log.count > this.#o.maxEvents || log.bytes > this.#o.maxBytes)) log.dropFirst();
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
    const { first, next } = run.log ?? run.gone;
    return {
      id: run.id, protocol: run.protocol, session: run.session, principal: run.principal, meta: run.meta,
      status: run.status, first, next, readers: run.readers, lastRead: run.lastRead,
      gone: run.log === null,
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
    if (run.log === null) throw new RunStoreError("RUN_GONE", `Run ${id} is no longer kept.`);
    if (after + 1 < run.log.first) {
      throw new RunStoreError("RUN_GONE", `Run ${id} keeps events from ${run.log.first}; ${after + 1} is gone.`);
    }
    return this.#follow(run, after, signal);
  }

  async *#follow(run, after, signal) {
    let cursor = after;
    run.readers++;
    try {
      for (;;) {
        if (signal?.aborted) return;
        const { log } = run;
        if (log === null) return;
        if (cursor + 1 < log.first) {
          // A reader slower than the caps: what it has not read was dropped; it cannot be whole.
          throw new RunStoreError("RUN_GONE", `Run ${run.id} keeps events from ${log.first}; ${cursor + 1} is gone.`);
        }
        if (cursor + 1 < log.next) {
          const chunk = log.from(cursor + 1);
          cursor = log.next - 1;
          run.lastRead = Date.now();
          yield chunk;
          continue;
        }
        if (run.status === "lost") throw new RunStoreError("RUN_LOST", `The instance running run ${run.id} went away.`, log.next);
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
    if (!run || run.log === null) return new Uint8Array(0);
    return run.log.from(run.log.first);
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
      } else if (now - run.endedAt > this.#o.retentionMs && run.log !== null) {
        run.gone = { first: run.log.first, next: run.log.next };
        run.log = null;
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
