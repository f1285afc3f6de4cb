// Durable runs: the log of every event a run emitted (each with its cursor, `id: N`), kept so
// that a reader can resume after a dropped connection and anyone can stop the run, apart from
// the connection that started it. `MemoryRunStore` keeps runs in this process; the RunStore
// interface (documented in runs.d.ts) is what other stores implement.
import { AgentwireError, concatBytes } from "./values.js";
import { LOG_WRITER, eventEnds, eventsOf, framedEnds, idAt } from "./store-events.js";
import { chunkFrames } from "./builder.js";
import { EventLog } from "./store-log.js";
import { notFound, readRun, readStoreOptions, runExists, runGone, runLost, sessionBusy, tooManyRuns } from "./store-options.js";

/**
 * workerd lets a request act only on what it made: a promise another request resolves does not
 * count as its pending work (a request waiting only on one is canceled as hung), and it may not
 * abort another's AbortController. There, a waiting reader polls with a timer of its own.
 */
export const IN_WORKERD = globalThis.navigator?.userAgent === "Cloudflare-Workers";
/** How often a waiting reader looks again in workerd (ms). */
export const POLL_MS = 25;
/** A reader that has not polled for this long (ms) no longer waits, in workerd. */
const STALE_MS = 20 * POLL_MS;

/**
 * The class of a store's errors: every store throws AgentwireErrors (codes in runs.d.ts); this
 * name is kept for code that tests `instanceof RunStoreError`.
 */
export const RunStoreError = AgentwireError;

/** MemoryRunStore's append of segments, RunLog's way in (not of the RunStore interface). */
const APPEND_SEGMENTS = Symbol("agentwire.appendSegments");
/**
 * MemoryRunStore's `[READ_SHARED](id, after, signal, true)` (not of the RunStore interface):
 * its chunks are arrays of views of the log (one a segment), not copies, for a reader that
 * neither keeps nor changes them (the Node adapter writing them to a socket).
 */
export const READ_SHARED = Symbol("agentwire.readShared");

/**
 * Events (`{id, bytes}`, ids consecutive) as a segment `{first, bytes, ends}`: their bytes one
 * after the other, the end offset of each. A copy (`slice`) of a lone event not contiguous()
 * lets its large buffer go.
 */
function segmentOf(events) {
  const ends = new Uint32Array(events.length);
  let size = 0;
  events.forEach((e, i) => (ends[i] = size += e.bytes.byteLength));
  const bytes = contiguous(events, size) ?? (events.length === 1 ? events[0].bytes.slice() : concatBytes(events.map((e) => e.bytes)));
  return { first: events[0].id, bytes, ends };
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
 * Runs kept in this process's memory: one log per run (an `EventLog`), bounded by `maxEvents`
 * and `maxBytes` (the oldest events are dropped first; a cursor before what is kept is
 * `RUN_GONE`), kept `retentionMs` after the run ends (then `RUN_GONE` until twice that, then
 * unknown), at most `maxRuns` runs (the oldest ended one is forgotten to make room; when all
 * are running, `start` refuses with `TOO_MANY_RUNS`). Ended runs are swept in the order they
 * ended, a few at a time: every call costs O(1) however many runs are kept.
 */
export class MemoryRunStore {
  #runs = new Map();
  /** Session → how many of its runs are going (exclusive or not). */
  #sessions = new Map();
  /** Runs going. */
  #running = new Set();
  /**
   * Ended runs not yet swept past retention, then those swept: each in the order they ended,
   * every one of `#dropped` before every one of `#kept` (a run moves over only from the front),
   * so the oldest ended run is the first of `#dropped`, or else of `#kept`. A run whose log a
   * call dropped early (`#current`) stays in `#kept` until the sweep gets there.
   */
  #kept = new Map();
  #dropped = new Map();
  /** Session → the id of its run started last (while that run is kept). */
  #lastRuns = new Map();
  /** Principal → its runs (id → run), in the order they started, for `list`. */
  #byPrincipal = new Map();
  #started = 0;
  #o;

  constructor(options = {}) {
    this.#o = readStoreOptions("MemoryRunStore", options);
  }

  /** What a run's log keeps at most (`maxEvents`, `maxBytes`): readers within it never lose an event. */
  get limits() {
    return { maxEvents: this.#o.maxEvents, maxBytes: this.#o.maxBytes };
  }

  /**
   * Registers a new run: `RUN_EXISTS` when its id is taken, `SESSION_BUSY` (with `exclusive`)
   * while another run of its session is going, `TOO_MANY_RUNS` when `maxRuns` runs are going.
   */
  async start(run) {
    const { id, protocol, session, principal, exclusive, meta } = readRun("MemoryRunStore", run);
    const now = this.#o.now();
    this.#sweep(now);
    if (this.#current(id, now)) throw runExists(id);
    // Any run of the session going makes it busy, a non-exclusive one included.
    if (exclusive && session !== null && this.#sessions.has(session)) throw sessionBusy(session);
    if (this.#runs.size >= this.#o.maxRuns) {
      const oldest = firstOf(this.#dropped) ?? firstOf(this.#kept);
      if (oldest === undefined) throw tooManyRuns(this.#o.maxRuns);
      this.#forget(oldest);
    }
    const entry = {
      id, protocol, session, principal, meta,
      status: "running",
      endedAt: 0,
      log: new EventLog(), // null once past retention
      gone: null, // {first, next} once the log is dropped
      waiters: new Set(),
      cancelers: new Set(),
      readers: 0,
      lastRead: now,
      polledAt: now,
    };
    entry.seq = ++this.#started;
    this.#runs.set(id, entry);
    if (!this.#byPrincipal.has(principal)) this.#byPrincipal.set(principal, new Map());
    this.#byPrincipal.get(principal).set(id, entry);
    this.#running.add(entry);
    if (session !== null) {
      this.#sessions.set(session, (this.#sessions.get(session) ?? 0) + 1);
      this.#lastRuns.set(session, id);
    }
  }

  /** The id of the run started last in `session` (while that run is kept), or `null`. */
  async lastRun(session) {
    const id = this.#lastRuns.get(session);
    return id !== undefined && (await this.get(id))?.session === session ? id : null;
  }

  /**
   * Appends events (`{id, bytes}`, ids consecutive) to a running run's log; `RUN_LOST` when the
   * run is not running (ended, lost or unknown): the caller no longer holds it.
   */
  async append(id, events) {
    if (events.length > 0) await this[APPEND_SEGMENTS](id, [segmentOf(events)]);
  }

  /** `append` of segments (segmentOf), as RunLog makes them from a chunk: no object per event. */
  async [APPEND_SEGMENTS](id, segments) {
    const run = this.#runs.get(id);
    if (!run || run.status !== "running") throw runLost(id, undefined, `Run ${id} is not running (${run?.status ?? "unknown"}): nothing more is logged.`);
    const log = run.log;
    segments.forEach((segment) => log.push(segment));
    // Over the caps: drop the oldest events (a cursor before what is kept is RUN_GONE), each
    // in O(1) however long the run.
    while (log.count > 1 && (log.count > this.#o.maxEvents || log.bytes > this.#o.maxBytes)) log.dropFirst();
    this.#wake(run);
  }

  /**
   * Marks a run ended (its terminal event is in the log), or `"lost"` (its readers then get
   * `RUN_LOST` after the last event); `endedAt` (ms since the epoch) is when, for retention.
   */
  async end(id, status = "ended", endedAt = this.#o.now()) {
    const run = this.#runs.get(id);
    if (!run || run.status !== "running") return;
    run.status = status;
    run.endedAt = endedAt;
    run.cancelers.clear();
    this.#running.delete(run);
    if (run.session !== null) {
      const going = this.#sessions.get(run.session) - 1;
      if (going > 0) this.#sessions.set(run.session, going);
      else this.#sessions.delete(run.session);
    }
    this.#kept.set(id, run);
    this.#wake(run);
  }

  /** What is known of a run, or `null`. `gone` once its log is no longer kept. */
  async get(id) {
    const now = this.#o.now();
    this.#sweep(now);
    const run = this.#current(id, now);
    if (!run) return null;
    const { first, next } = run.log ?? run.gone;
    return {
      id: run.id, protocol: run.protocol, session: run.session, principal: run.principal, meta: run.meta,
      status: run.status, first, next, readers: run.readers, lastRead: run.lastRead,
      gone: run.log === null,
    };
  }

  /**
   * The runs of `principal` of `protocol` that `match` (given what `get` gives), newest start
   * first: `{runs, total}`, at most `limit` runs started before `before` (a run's `seq`, as each
   * listed run has it; none: from the newest), `total` all that match.
   */
  async list({ principal, protocol, match = (_run) => true, before = Infinity, limit = 50 }) {
    const now = this.#o.now();
    this.#sweep(now);
    const mine = [...(this.#byPrincipal.get(principal)?.values() ?? [])].reverse();
    const runs = [];
    let total = 0;
    for (const run of mine) {
      if (run.protocol !== protocol || !this.#current(run.id, now)) continue;
      const seen = { ...(await this.get(run.id)), seq: run.seq };
      if (!match(seen)) continue;
      total++;
      if (run.seq < before && runs.length < limit) runs.push(seen);
    }
    return { runs, total };
  }

  /**
   * The run's events after cursor `after` (-1: from the first), then the live ones until the
   * run ends: an async iterable of byte chunks. Rejects with `RUN_GONE` when the log no longer
   * holds the event after `after`, `NOT_FOUND` for an unknown run. Stops early when `signal`
   * aborts.
   */
  async read(id, after = -1, signal = undefined) {
    return this[READ_SHARED](id, after, signal, false);
  }

  /** `read`; with `shared`, chunks are arrays of views of the log (see READ_SHARED). */
  async [READ_SHARED](id, after, signal, shared) {
    const run = this.#current(id, this.#o.now());
    if (!run) throw notFound(id);
    if (run.log === null) throw runGone(id);
    if (after + 1 < run.log.first) throw runGone(id, run.log.first, after + 1);
    return this.#follow(run, after, signal, shared);
  }

  async *#follow(run, after, signal, shared) {
    let cursor = after;
    run.readers++;
    try {
      for (;;) {
        if (signal?.aborted) return;
        const { log } = run;
        if (log === null) {
          // Dropped (past retention) or forgotten before the reader was done: it cannot be whole.
          if (cursor + 1 < run.gone.next) throw runGone(run.id);
        } else if (cursor + 1 < log.first) {
          // A reader slower than the caps: what it has not read was dropped; it cannot be whole.
          throw runGone(run.id, log.first, cursor + 1);
        } else if (cursor + 1 < log.next) {
          const chunk = log.from(cursor + 1, shared);
          cursor = log.next - 1;
          run.lastRead = this.#o.now();
          yield chunk;
          continue;
        }
        if (run.status === "lost") throw runLost(run.id, (log ?? run.gone).next);
        if (run.status !== "running") return;
        await new Promise((resolve) => {
          let timer;
          const wake = () => {
            run.waiters.delete(wake);
            clearTimeout(timer);
            signal?.removeEventListener("abort", wake);
            resolve();
          };
          // workerd: a timer of this request's own, never a wake from the request appending.
          // Its ticks say a reader still waits: a request canceled with its client stops them.
          if (IN_WORKERD) {
            run.polledAt = this.#o.now();
            timer = setTimeout(wake, POLL_MS);
          }
          else run.waiters.add(wake);
          signal?.addEventListener("abort", wake, { once: true });
        });
      }
    } finally {
      run.readers--;
      run.lastRead = this.#o.now();
    }
  }

  /** The events of run `id` kept now, as one chunk (not following the run): empty when unknown or gone. */
  async log(id) {
    const run = this.#current(id, this.#o.now());
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
    const run = this.#runs.get(id);
    if (run?.status === "running") run.cancelers.add(stop);
  }

  /** Runs going, for abandonment checks: `[{id, readers, lastRead}]`. */
  async running() {
    const now = this.#o.now();
    // workerd never ends a reader whose request was canceled: one that stopped polling is gone,
    // and was last read when it last polled.
    return Array.from(this.#running, (r) => {
      const stale = IN_WORKERD && r.readers > 0 && now - r.polledAt >= STALE_MS;
      return { id: r.id, readers: stale ? 0 : r.readers, lastRead: stale ? Math.max(r.lastRead, r.polledAt) : r.lastRead };
    });
  }

  #wake(run) {
    for (const wake of [...run.waiters]) wake();
  }

  /**
   * Run `id` as of `now`, or undefined: an ended run past retention loses its log, past twice
   * that it is forgotten (whatever the order it ended in).
   */
  #current(id, now) {
    const run = this.#runs.get(id);
    if (run === undefined || run.status === "running") return run;
    const age = now - run.endedAt;
    if (age > 2 * this.#o.retentionMs) {
      this.#forget(run);
      return undefined;
    }
    if (age > this.#o.retentionMs) this.#dropLog(run);
    return run;
  }

  /** Drops the logs of the runs that ended first, past retention, and forgets them after twice that. */
  #sweep(now) {
    const retention = this.#o.retentionMs;
    for (const run of this.#kept.values()) {
      if (now - run.endedAt <= retention) break;
      this.#dropLog(run);
      this.#kept.delete(run.id);
      this.#dropped.set(run.id, run);
    }
    for (const run of this.#dropped.values()) {
      if (now - run.endedAt <= 2 * retention) break;
      this.#forget(run);
    }
  }

  /** Drops an ended run's log, if kept (RUN_GONE from now on, for its readers too). */
  #dropLog(run) {
    if (run.log === null) return;
    run.gone = { first: run.log.first, next: run.log.next };
    run.log = null;
  }

  /** Forgets an ended run (unknown from now on). */
  #forget(run) {
    this.#dropLog(run);
    this.#runs.delete(run.id);
    const mine = this.#byPrincipal.get(run.principal);
    mine?.delete(run.id);
    if (mine?.size === 0) this.#byPrincipal.delete(run.principal);
    if (run.session !== null && this.#lastRuns.get(run.session) === run.id) this.#lastRuns.delete(run.session);
    this.#kept.delete(run.id);
    this.#dropped.delete(run.id);
    this.#wake(run);
  }
}

/** The first value of a map (its oldest entry), or undefined. */
function firstOf(map) {
  for (const value of map.values()) return value;
  return undefined;
}

/** Events a run may have waiting for its store before the run waits for the store. */
const LOG_QUEUE = 1024;
/** Bytes likewise. */
const LOG_QUEUE_BYTES = 4 * 1024 * 1024;
/** The most bytes one append to a remote store carries (unless one event is larger). */
const LOG_BATCH_BYTES = 1024 * 1024;

/**
 * Logs the chunks of a run's stream (whole events with ids) in `store`, in order, one append at a
 * time (or through the store's own writer, LOG_WRITER): what arrives while an append is in flight
 * goes in the next (a chunk's events as one segment), so a remote store costs a round trip per
 * batch, not per chunk. `add` waits only when LOG_QUEUE events are waiting (the producer then waits
 * for the store); `flush` waits for everything and returns the store's failure (e.g. `RUN_LOST`).
 */
export class RunLog {
  #store;
  #id;
  #queued = []; // segments, and their events:
  #queuedEvents = 0;
  #queuedBytes = 0;
  #pending = null;
  #draining = false;
  #carry = new Uint8Array(0);
  /** A store that takes `{id, bytes}` events: any but a MemoryRunStore with its own `append`. */
  #remote;
  #writer; // the store's own (LOG_WRITER), which then does the queueing
  #failure = null;

  constructor(store, id) {
    this.#store = store;
    this.#id = id;
    this.#remote = store.append !== MemoryRunStore.prototype.append || typeof store[APPEND_SEGMENTS] !== "function";
    this.#writer = store[LOG_WRITER]?.(id, { maxEvents: LOG_QUEUE, maxBytes: LOG_QUEUE_BYTES, batchBytes: LOG_BATCH_BYTES }) ?? null;
  }

  /** The first append that failed, or `null`. */
  get failure() {
    return this.#writer?.failure ?? this.#failure;
  }

  /** Queues the events of `chunk` and starts an append unless one is in flight. */
  add(chunk) {
    if (this.failure) return undefined;
    const carry = this.#carry;
    const frames = carry.length ? undefined : chunkFrames.get(chunk);
    if (frames) chunkFrames.delete(chunk); // the store may keep the chunk: not its frames
    const data = carry.length ? concatBytes([carry, chunk]) : chunk;
    const ends = new Uint32Array(frames ? framedEnds(data, frames) : eventEnds(data, Math.max(0, carry.length - 1), data.length, []));
    const size = ends.length ? ends[ends.length - 1] : 0;
    this.#carry = data.subarray(size);
    if (size === 0) return undefined;
    // A copy when the events are a small part of a larger buffer, which a kept segment would hold.
    let bytes = size === data.length ? data : data.subarray(0, size);
    if (bytes.buffer.byteLength > 2 * size + 64) bytes = bytes.slice();
    if (this.#writer) return this.#writer.push({ first: idAt(bytes, 0), bytes, ends });
    this.#queued.push({ first: idAt(bytes, 0), bytes, ends });
    this.#queuedEvents += ends.length;
    this.#queuedBytes += size;
    if (!this.#draining) this.#pending = this.#drain();
    return this.#queuedEvents > LOG_QUEUE || this.#queuedBytes > LOG_QUEUE_BYTES ? this.#pending : undefined;
  }

  /** Waits until every queued event is appended (or an append failed): the failure, or `null`. */
  async flush() {
    if (this.#writer) return this.#writer.flush();
    while (this.#draining) await this.#pending;
    if (this.#queued.length > 0 && this.failure === null) await this.#drain();
    return this.failure;
  }

  /**
   * Appends `events` to a remote store in appends of at most LOG_BATCH_BYTES (a larger event
   * alone), so that each command stays small enough to be answered within the store's deadline.
   */
  async #appendRemote(events) {
    for (let start = 0; start < events.length;) {
      let end = start + 1;
      let bytes = events[start].bytes.byteLength;
      while (end < events.length && bytes + events[end].bytes.byteLength <= LOG_BATCH_BYTES) bytes += events[end++].bytes.byteLength;
      await this.#store.append(this.#id, events.slice(start, end));
      start = end;
    }
  }

  async #drain() {
    this.#draining = true;
    try {
      while (this.#queued.length > 0 && this.failure === null) {
        const batch = this.#queued;
        this.#queued = [];
        this.#queuedEvents = 0;
        this.#queuedBytes = 0;
        if (this.#remote) await this.#appendRemote(eventsOf(batch));
        else await this.#store[APPEND_SEGMENTS](this.#id, batch);
      }
    } catch (e) {
      this.#failure = e;
    } finally {
      this.#draining = false;
    }
  }
}
