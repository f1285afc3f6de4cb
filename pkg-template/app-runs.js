// The run manager: durable runs over a RunStore, with no HTTP in it. Starts a run (within the
// caps on running runs), runs the agent into a builder with event ids, logs every event, serves
// readers from the log, stops runs (cancel, abandonment, close) and ends them lost when the
// store fails. Every byte of the events is the core's, the lost-run event included. The log
// keeps within reach of the run's slowest live reader on this instance (Pace): an agent that
// awaits rb.ready() never outruns its own reader past what the store keeps.
import { call } from "./instance.js";
import { concatBytes } from "./values.js";
import { lastIdOf } from "./store-events.js";
import { STORE_DEFAULTS } from "./store-options.js";
import { QUEUED, ResponseBuilder } from "./builder.js";
import { StreamAssembler } from "./assembler.js";
import { IN_WORKERD, MemoryRunStore, POLL_MS, READ_SHARED, RunLog } from "./runs.js";
import { RunCaps } from "./app-caps.js";
import { DEFAULT_LIMITS } from "./app-options.js";

/**
 * Runs of one app instance: `agent`, `store` and the `runs` options (app-options.js);
 * `report(error, context)` is told of failures nobody else hears of.
 */
export class RunManager {
  #agent;
  #store;
  #o;
  #report;
  #live = new Map();
  #caps;
  #sweeper = null;

  constructor({ agent, runs, report }) {
    this.#agent = agent;
    this.#store = runs.store;
    this.#o = runs;
    this.#report = report;
    this.#caps = new RunCaps(runs);
  }

  /** The store runs are logged in. */
  get store() {
    return this.#store;
  }

  /**
   * Starts a durable run `id` (a store key) of `protocol` for `owner` (a principal key), in
   * `session` (a store key or null): registers it (one running run per session unless allowed),
   * runs the agent into a builder of `builderOptions` with event ids, and logs every event. The
   * agent's `signal` aborts on cancel, abandonment and `close()`, not on a disconnect; with
   * `canceled` the run ends canceled before the agent is called (a paused A2A task canceled).
   * Resolves once the run started, with `{done}`, which resolves when it ended.
   */
  async start({ id, protocol, session, owner, agentRequest, builderOptions, meta, context, canceled = false }) {
    const release = this.#caps.take(owner);
    try {
      // The builder's options go with the run: any instance can then write its terminal event
      // should the instance running it go away (RUN_LOST).
      await this.#store.start({
        id, protocol, session, principal: owner, exclusive: !this.#o.concurrentSessions,
        meta: { ...meta, builder: builderOptions },
      });
    } catch (e) {
      release();
      throw e;
    }
    const report = (error) => this.#report(error, context);
    const stopper = new AbortController();
    let rb;
    const stopNow = () => {
      stopper.abort();
      // The terminal event is written now, whatever the agent does with its signal.
      try {
        if (rb && !rb.finished) rb.canceled();
      } catch {
        // The run ended meanwhile.
      }
    };
    // workerd: only the request that started the run may abort its signal and write to its
    // builder; a stop from elsewhere (a cancel, abandonment) raises a flag its own timer reads.
    const ownerTimer = IN_WORKERD ? this.#owned(id, stopNow) : null;
    const stop = ownerTimer ? ownerTimer.request : stopNow;
    this.#store.onCancel(id, stop);
    const stream = ResponseBuilder[QUEUED](async (builder) => {
      rb = builder;
      if (stopper.signal.aborted || canceled) {
        builder.canceled();
        return;
      }
      await this.#agent(agentRequest, builder, { signal: stopper.signal });
    }, { ...builderOptions, eventIds: true, onError: report }, true);
    const pace = new Pace(this.#store.limits, this.#o.abandonAfterMs, () => rb);
    const live = { stop, done: null, waiting: 0, waitedAt: 0, over: false, pace };
    live.done = this.#log(id, stream, stopper, report, pace).finally(() => {
      live.over = true;
      ownerTimer?.end();
      this.#live.delete(id);
      release();
    });
    this.#live.set(id, live);
    context?.ctx?.waitUntil?.(live.done);
    if (!IN_WORKERD) this.#watch();
    return { done: live.done };
  }

  /**
   * workerd: the timer of the request that starts run `id`, so the run's stops happen there:
   * `request()` asks for a stop (from any request), the timer calls `stopNow` within
   * POLL_MS; it also checks the run for abandonment (no shared sweeper: its timer would
   * belong to whichever request made it). `end()` stops the timer.
   */
  #owned(id, stopNow) {
    let asked = false;
    let checked = Date.now();
    const every = this.#sweepEvery();
    const timer = setInterval(() => {
      if (asked) {
        asked = false;
        stopNow();
      } else if (every > 0 && Date.now() - checked >= every) {
        checked = Date.now();
        this.#abandonIfUnread([id]).catch(() => {});
      }
    }, POLL_MS);
    return { request: () => { asked = true; }, end: () => clearInterval(timer) };
  }

  /** How often runs are checked for abandonment (ms), 0 for never. */
  #sweepEvery() {
    const { abandonAfterMs } = this.#o;
    return abandonAfterMs > 0 ? Math.max(50, Math.min(1000, abandonAfterMs / 4)) : 0;
  }

  /**
   * Logs `stream` (a builder's, with event ids) into the store to its end; ends the run. It
   * stops pulling from the stream (so the agent's rb.ready() waits) while `pace` says a live
   * reader is too far behind, until the run stops (then its terminal event is logged at once).
   */
  async #log(id, stream, stopper, report, pace) {
    const reader = stream.getReader();
    const log = new RunLog(this.#store, id);
    let held = true;
    let status = "ended";
    try {
      for (;;) {
        if (pace.holds()) await pace.wait(stopper.signal);
        const { done: end, value } = await reader.read();
        if (end) break;
        pace.logged(value);
        await log.add(value);
        if (log.failure) break;
      }
      const failure = await log.flush();
      if (failure) {
        // The store refused events: the run cannot be logged to its end, so it stops. Declared
        // lost elsewhere (RUN_LOST: this instance did not renew its lease in time), readers
        // have its terminal event already; otherwise it is marked lost here, and they get it.
        status = "lost";
        held = failure.code !== "RUN_LOST";
        stopper.abort();
        reader.cancel().catch(() => {});
        if (held) report(failure);
      }
    } catch (e) {
      report(e);
      status = "lost";
      stopper.abort();
      reader.cancel().catch(() => {});
    }
    try {
      if (held) await this.#store.end(id, status);
    } catch (e) {
      report(e);
    }
  }

  /** Asks whoever runs `id` to stop it. */
  async cancel(id) {
    return this.#store.cancel(id);
  }

  /**
   * Resolves once run `id` logged its first event (or ended): the caller waits, it does not
   * read (it is no reader that could go away, whatever `cancelOnDisconnect` says).
   */
  async started(id) {
    const gone = new AbortController();
    try {
      for await (const _ of await this.#store.read(id, -1, gone.signal)) break;
    } finally {
      gone.abort();
    }
  }

  /**
   * Resolves when run `id` has ended (its log holds the terminal event), or when `signal`
   * aborts (the client waiting went away: it no longer counts as a reader of the run).
   */
  async ended(id, signal = undefined) {
    if (signal?.aborted) return;
    const live = this.#live.get(id);
    if (live) {
      live.waiting++;
      let onAbort;
      try {
        // workerd: the run's end resolves a promise of the request running it, which is not
        // this one's pending work; this request waits on timers of its own instead.
        // Its ticks say it still waits (`waitedAt`): workerd cancels a request whose client
        // left without running its `finally`, so `waiting` alone would count it forever.
        if (IN_WORKERD) {
          while (!live.over && !signal?.aborted) {
            live.waitedAt = Date.now();
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          }
          return undefined;
        }
        return await Promise.race([live.done, new Promise((resolve) => {
          onAbort = resolve;
          signal?.addEventListener("abort", onAbort, { once: true });
        })]);
      } finally {
        live.waiting--;
        signal?.removeEventListener("abort", onAbort);
      }
    }
    // Run elsewhere: follow its log to the end.
    const gone = new AbortController();
    const follow = () => gone.abort();
    signal?.addEventListener("abort", follow, { once: true });
    try {
      for await (const _ of await this.#store.read(id, Number.MAX_SAFE_INTEGER - 1, gone.signal)) {
        // Nothing to do with the events: only the end matters.
      }
    } catch {
      // Gone, unknown or unreachable: nothing to wait for.
    } finally {
      signal?.removeEventListener("abort", follow);
    }
  }

  /** Stops every run this instance runs (each ends canceled) and waits for them. */
  async close() {
    const live = [...this.#live.values()];
    for (const run of live) run.stop();
    await Promise.all(live.map((run) => run.done));
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = null;
  }

  /** Cancels, every few seconds, the runs of this instance nobody has read for `abandonAfterMs`. */
  #watch() {
    const every = this.#sweepEvery();
    if (this.#sweeper || every === 0 || typeof setInterval !== "function") return;
    this.#sweeper = setInterval(() => {
      if (this.#live.size === 0) {
        clearInterval(this.#sweeper);
        this.#sweeper = null;
        return;
      }
      this.#abandonIfUnread(null);
    }, every);
    this.#sweeper.unref?.();
  }

  /** Stops the runs of this instance (those of `ids`, or all: `null`) nobody has read for `abandonAfterMs`. */
  async #abandonIfUnread(ids) {
    const now = Date.now();
    let running;
    try {
      running = await this.#store.running();
    } catch (e) {
      this.#report(e, { during: "abandonment check" });
      return; // the store is unreachable: try again at the next tick
    }
    for (const run of running) {
      if (ids && !ids.includes(run.id)) continue;
      const live = this.#live.get(run.id);
      // A client waiting for a run's end (a non-streamed answer) reads it too.
      const waits = live?.waiting > 0 && !(IN_WORKERD && now - live.waitedAt > 20 * POLL_MS);
      if (live && !waits && run.readers === 0 && now - run.lastRead > this.#o.abandonAfterMs) live.stop();
    }
  }

  /**
   * The stream a reader of run `id` gets from cursor `after`, ending with the run's `RUN_LOST`
   * failure when the instance running it went away; `rebind` (bytes → bytes) applies to each
   * chunk; `signal` (the request's) aborts when the reader's client went away, for runtimes
   * that never cancel the answer's stream then (workerd). Its disconnect stops the run only
   * with `cancelOnDisconnect`. `shared`: the reader neither keeps nor changes the chunks (a
   * MemoryRunStore's then are arrays of views of its log, see READ_SHARED). `keepaliveMs`: how
   * long the answer may stay quiet before it carries a comment (`runs.keepaliveMs`).
   */
  async reader(id, after, rebind = undefined, signal = undefined, shared = false) {
    // Aborted when the reader goes away: a read waiting for the next event stops at once.
    const gone = new AbortController();
    signal?.addEventListener("abort", () => gone.abort(), { once: true });
    let iterable = shared && this.#store.read === MemoryRunStore.prototype.read
      ? await this.#store[READ_SHARED](id, after, gone.signal, true)
      : await this.#store.read(id, after, gone.signal);
    // A reader of a run going here paces its log (see Pace); one of another instance cannot.
    const pace = this.#live.get(id)?.pace;
    if (pace) iterable = pace.follow(iterable, after);
    iterable = this.#untilLost(id, after, iterable);
    if (rebind) iterable = mapChunks(iterable, rebind);
    const cancelOnDisconnect = this.#o.cancelOnDisconnect;
    return { iterable, keepaliveMs: this.#o.keepaliveMs, onCancel: () => {
      gone.abort();
      if (cancelOnDisconnect) this.#store.cancel(id).catch((e) => this.#report(e, { during: "cancel on disconnect" }));
    } };
  }

  /** `iterable`, then, if it throws `RUN_LOST`, the run's terminal failure (unless the cursor is past it). */
  async *#untilLost(id, after, iterable) {
    try {
      yield* iterable;
    } catch (e) {
      if (e?.code !== "RUN_LOST") throw e;
      const run = await this.#store.get(id);
      if (!run) throw e;
      const next = e.next ?? run.next;
      if (after < next) yield await this.#lostEvent({ ...run, next });
    }
  }

  /**
   * The terminal event of a run whose instance went away: the failure (code `RUN_LOST`) its own
   * builder writes, numbered after the last logged event; a Responses failure carries the
   * response so far. Written by the core.
   */
  async #lostEvent(run, log = undefined) {
    const builder = run.meta?.builder ?? { protocol: run.protocol };
    return call("lostRunEvent", JSON.stringify(builder), run.next, log ?? await this.#store.log(run.id));
  }

  /** Run `id`'s log, with its `RUN_LOST` terminal event when its instance went away. */
  async wholeLog(id) {
    const run = await this.#store.get(id);
    // Part of the log was dropped (the run outgrew the store's caps): no whole answer to give.
    if (run && run.first > 0) return null;
    const log = await this.#store.log(id);
    return run?.status === "lost" ? concatBytes([log, await this.#lostEvent(run, log)]) : log;
  }

  /** The OpenAI Responses `response` object of run `id` as its log stands. */
  async responseSoFar(id) {
    const log = await this.wholeLog(id);
    if (log === null) return null;
    const asm = new StreamAssembler({ protocol: "openai-responses" });
    try {
      asm.push(log);
      const { outcome: _outcome, warnings: _warnings, ...response } = asm.snapshot();
      return response;
    } finally {
      asm.free();
    }
  }
}

/** The most a run's log goes ahead of its slowest live reader, whatever the store keeps. */
const PACE_MAX = { events: 10_000, bytes: 8 * 1024 * 1024 };
/**
 * Events an agent emits while its log waits that show it does not await rb.ready() (which lets
 * it emit about the stream's high-water mark, 16 KiB): its log then waits no more, so what it
 * emits goes to the store (and its caps) as it comes, not into memory.
 */
const IGNORES_READY = 1024;

/**
 * Backpressure of one run from its live readers on this instance (readers on other instances,
 * through a shared store, are not seen): the log waits while it is more than a window ahead of
 * the cursor some live reader took last: half of what the store keeps of a run (its `limits`,
 * else the default caps), at most PACE_MAX. A reader that takes nothing for abandonAfterMs (60 s
 * when 0) while the log waits for it holds it no longer (until it takes something again); one
 * that left holds nothing. With no reader, nothing waits; nor once the agent showed it does not
 * await rb.ready() (IGNORES_READY; `builder()`: the run's ResponseBuilder, once made).
 */
class Pace {
  /** The live readers: `{cursor, heldSince}` (0: not holding the log). */
  readers = new Set();
  #window;
  #stallMs;
  #builder;
  /** The last event id logged, the bytes logged. */
  #head = -1;
  #bytes = 0;
  /** The chunks logged within the window (and one before): last id and bytes to its end, from `#first`. */
  #ids = [-1];
  #ends = [0];
  #first = 0;
  #wake = null;
  #ignored = false;

  constructor(limits, abandonAfterMs, builder) {
    const { maxEvents, maxBytes } = { ...STORE_DEFAULTS, ...limits };
    const half = (cap, most) => Math.max(1, Math.min(most, Math.floor(cap / 2)));
    this.#window = { events: half(maxEvents, PACE_MAX.events), bytes: half(maxBytes, PACE_MAX.bytes) };
    this.#stallMs = abandonAfterMs > 0 ? abandonAfterMs : DEFAULT_LIMITS.abandonAfterMs;
    this.#builder = builder;
  }

  /** The events the agent emitted so far. */
  #emitted() {
    try {
      return this.#builder()?.sequenceNumber ?? 0;
    } catch {
      return 0; // finished: it emits nothing more
    }
  }

  /** Counts a chunk of whole events the log took. */
  logged(chunk) {
    if (chunk.byteLength === 0) return;
    this.#head = lastIdOf(chunk);
    this.#bytes += chunk.byteLength;
    this.#ids.push(this.#head);
    this.#ends.push(this.#bytes);
    // A chunk whose successor is a window behind is needed no more: a cursor before it is over.
    const { events, bytes } = this.#window;
    const [ids, ends] = [this.#ids, this.#ends];
    while (this.#first + 1 < ids.length - 1 && (ends[this.#first + 1] <= this.#bytes - bytes || ids[this.#first + 1] <= this.#head - events)) this.#first++;
    if (this.#first > 1024 && this.#first * 2 > ids.length) {
      this.#ids = ids.slice(this.#first);
      this.#ends = ends.slice(this.#first);
      this.#first = 0;
    }
  }

  /** Whether the log is more than the window ahead of `cursor`. */
  #over(cursor) {
    if (this.#head - cursor > this.#window.events) return true;
    // The bytes after the last chunk logged wholly at or before `cursor` (a cursor inside a
    // chunk counts the chunk unread); before the first chunk kept: more than the window.
    let [lo, hi] = [this.#first, this.#ids.length - 1];
    if (cursor < this.#ids[lo]) return true;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#ids[mid] <= cursor) lo = mid;
      else hi = mid - 1;
    }
    return this.#bytes - this.#ends[lo] > this.#window.bytes;
  }

  /** Whether some live reader is over the window (else `wait` would return at once). */
  holds() {
    for (const reader of this.readers) if (this.#over(reader.cursor)) return true;
    return false;
  }

  /**
   * Resolves once no live reader is over the window (those stalled past `stallMs` aside), or
   * when `signal` aborts (the run is stopping: its terminal event must be logged at once), or
   * when the agent emitted IGNORES_READY events meanwhile.
   */
  async wait(signal) {
    const from = this.#emitted();
    while (!this.#ignored) {
      if (this.#emitted() - from > IGNORES_READY) this.#ignored = true;
      const now = Date.now();
      let next = Infinity;
      for (const reader of this.readers) {
        if (!this.#over(reader.cursor)) continue;
        if (reader.heldSince === 0) reader.heldSince = now;
        const until = reader.heldSince + this.#stallMs - now;
        if (until > 0) next = Math.min(next, until);
      }
      if (next === Infinity || signal.aborted || this.#ignored) return;
      // A tick every POLL_MS to look at the agent. workerd: no wake from a reader's request.
      await new Promise((resolve) => {
        const timer = setTimeout(this.#wake = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", this.#wake);
          resolve();
        }, Math.min(next, POLL_MS));
        signal.addEventListener("abort", this.#wake, { once: true });
      });
      this.#wake = null;
    }
  }

  /** `iterable` (a store's read of the run after `after`) as a live reader: its cursor paces the log. */
  async *follow(iterable, after) {
    const reader = { cursor: after, heldSince: 0 };
    this.readers.add(reader);
    try {
      for await (const chunk of iterable) {
        yield chunk; // taken: what the store keeps before it no longer matters to this reader
        const last = Array.isArray(chunk) ? chunk[chunk.length - 1] : chunk; // a shared read's
        if (last.byteLength > 0) reader.cursor = lastIdOf(last);
        reader.heldSince = 0;
        if (!IN_WORKERD) this.#wake?.();
      }
    } finally {
      this.readers.delete(reader);
      if (!IN_WORKERD) this.#wake?.();
    }
  }
}

/** `iterable` with `map` applied to each chunk. */
async function* mapChunks(iterable, map) {
  for await (const chunk of iterable) yield map(chunk);
}
