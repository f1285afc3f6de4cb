// RedisRunStore: durable runs kept in Redis, shared by every instance of an app. A run's log is
// a list of segments (one per append), its state a hash; the instance running a run holds a
// lease on it, renewed while it runs; readers anywhere follow the log through pub/sub wake-ups
// (and a poll, in case one is missed), and a reader that finds the lease lapsed declares the
// run lost, atomically, so the instance that lost it can append nothing more. Every step that
// reads and writes is one Lua script (store-redis-scripts.js; the log's: store-redis-log.js):
// atomic on one Redis server.
//
// Outages: every command has a deadline (`commandTimeoutMs`), every connection an error
// listener; a Redis down, full or too slow makes calls reject with STORE_UNAVAILABLE, never
// hang or end the process, and the store works again once Redis is back.
import { agentwireError } from "./values.js";
import { AppendPipe, appendArgs, segmentOf } from "./store-redis-log.js";
import { RedisCommands } from "./store-redis-commands.js";
import { LOG_WRITER } from "./store-events.js";
import {
  duration, notFound, readRun, readStoreOptions, runExists, runGone, runLost, sessionBusy, storeUnavailable, tooManyRuns,
} from "./store-options.js";

/** How often a reader of a running run tells Redis it still reads (ms): not on every batch. */
const TOUCH_MS = 100;
const NAME = "RedisRunStore";

/** RedisRunStore's own options (the common ones are in store-options.js). */
const OPTIONS = {
  prefix: { default: "agentwire:", check: (v) => (typeof v === "string" ? undefined : "must be a string") },
  leaseMs: { default: 10_000, check: duration },
  pollMs: { default: 1_000, check: duration },
  commandTimeoutMs: { default: 5_000, check: duration },
  subscriber: {
    default: null,
    check: (v) => (v !== null && typeof v === "object" && typeof v.subscribe === "function" ? undefined : "must be a connected Redis client"),
  },
};

/**
 * Runs kept in Redis (one server, or a primary; not Redis Cluster), shared by every instance
 * given a store on the same server: a run started on one instance can be resumed and canceled
 * from any other. Takes a connected client of the `redis` package (node-redis 4 or later) or
 * anything with its `sendCommand(args)`, `duplicate()` and `subscribe(channel, listener)`.
 */
export class RedisRunStore {
  #client;
  #subscriber = null;
  #ownSubscriber = false;
  #subscribing = null;
  #o;
  #owner;
  /** Commands and scripts, each with a deadline (store-redis-commands.js). */
  #redis;
  /** Connections given an error listener by this store: `[connection, listener]`. */
  #guarded = [];
  /** Runs this instance runs: id → the functions that stop it. */
  #local = new Map();
  /** Pub/sub channel → the functions its messages wake. */
  #channels = new Map();
  #heartbeat = null;
  #beating = false;
  #closed = false;

  constructor(client, options = {}) {
    if (client === null || typeof client !== "object" || typeof client.sendCommand !== "function") {
      throw agentwireError("INVALID_OPTION", `${NAME} needs a Redis client with sendCommand(args) (the \`redis\` package's createClient())`, "client");
    }
    this.#client = client;
    this.#o = readStoreOptions(NAME, options, OPTIONS);
    this.#redis = new RedisCommands(client, this.#o.prefix, this.#o.commandTimeoutMs);
    this.#subscriber = this.#o.subscriber;
    // An 'error' event with no listener ends a Node process: every connection gets one (the
    // client's own listeners, if any, still run). Calls report outages as STORE_UNAVAILABLE.
    this.#guard(client);
    if (this.#subscriber) this.#guard(this.#subscriber);
    const bits = crypto.getRandomValues(new Uint8Array(16));
    this.#owner = Array.from(bits, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /** What a run's log keeps at most (`maxEvents`, `maxBytes`): readers within it never lose an event. */
  get limits() {
    return { maxEvents: this.#o.maxEvents, maxBytes: this.#o.maxBytes };
  }

  /** Registers a run run by this instance, and takes its lease. */
  async start(run) {
    const { id, protocol, session, principal, exclusive, meta } = readRun(NAME, run);
    const o = this.#o;
    const answer = await this.#redis.script("START", [
      id, protocol, session ?? "", principal ?? "", JSON.stringify(meta), exclusive ? "1" : "0", this.#owner,
      o.leaseMs, o.now(), o.retentionMs, session === null ? "0" : "1", principal === null ? "0" : "1", this.#keepMs(), o.maxRuns,
    ]);
    if (answer === "EXISTS") throw runExists(id);
    if (answer === "BUSY") throw sessionBusy(session);
    if (answer === "FULL") throw tooManyRuns(o.maxRuns);
    this.#local.set(id, new Set());
    this.#beat();
    // Cancels reach this instance from its first run on (and the renewals catch a missed one);
    // a subscription that fails now is tried again by the next start.
    await this.#subscribe(`${o.prefix}cancel`, (message) => this.#stop(message), true).catch(() => {});
  }

  /** Appends events to a run this instance runs; `RUN_LOST` when it is not running (ended, lost, unknown). */
  async append(id, events) {
    if (events.length > 0) await this.#append(id, [segmentOf(events)]);
  }

  /** RunLog's way in: run `id`'s segments appended without waiting for each answer (store-redis-log.js). */
  [LOG_WRITER](id, limits) {
    return new AppendPipe((segments) => this.#append(id, segments), limits);
  }

  /** Appends segments that follow one another as one: its bytes by a plain RPUSH, committed by the script right behind it. */
  async #append(id, segments) {
    const o = this.#o;
    const { header, count, size, bytes } = appendArgs(segments);
    const pushed = this.#redis.command(["RPUSH", `${o.prefix}log:${id}`, header, bytes]).then(() => null, (e) => e);
    const answer = await this.#redis.script("APPEND_SEGMENT", [id, this.#owner, o.leaseMs, o.maxEvents, o.maxBytes, this.#keepMs(), header, count, size]);
    if (answer === "gap") throw (await pushed) ?? storeUnavailable(NAME, `append to ${id}: the events before it were not logged`);
    if (answer !== "held") {
      // Declared lost (the lease lapsed), or its keys are gone: this instance no longer holds it.
      this.#local.delete(id);
      throw runLost(id, undefined, `Run ${id} is no longer held by this instance (${answer}).`);
    }
  }

  /** Marks a run this instance runs ended. */
  async end(id, status = "ended") {
    this.#local.delete(id);
    await this.#redis.script("END", [id, this.#owner, status, this.#o.now(), this.#o.retentionMs]);
  }

  /** The id of the run started last in `session` (while that run is kept), or `null`. */
  async lastRun(session) {
    if (typeof session !== "string") return null;
    const id = await this.#redis.command(["GET", `${this.#o.prefix}sessionlast:${session}`]);
    // The run, while it is kept and still this session's (its id may have been taken again).
    return typeof id === "string" && (await this.get(id))?.session === session ? id : null;
  }

  /**
   * The runs of `principal` of `protocol` that `match` (given what `get` gives), newest start
   * first: `{runs, total}`, at most `limit` runs started before `before` (a listed run's `seq`;
   * none: from the newest), `total` every match. Costs O(runs of the principal kept).
   */
  async list({ principal, protocol, match = (_run) => true, before = Infinity, limit = 50 }) {
    const key = `${this.#o.prefix}principalruns:${principal ?? ""}`;
    const reply = await this.#redis.command(["ZREVRANGE", key, "0", "-1", "WITHSCORES"]);
    // RESP3 answers [member, score] pairs, RESP2 a flat list.
    const pairs = Array.isArray(reply[0]) ? reply : Array.from({ length: reply.length / 2 }, (_, k) => [reply[2 * k], reply[2 * k + 1]]);
    const runs = [];
    const gone = [];
    let total = 0;
    // A page of runs at a time, read together (the client pipelines what is sent at once).
    for (let i = 0; i < pairs.length; i += 100) {
      const page = pairs.slice(i, i + 100);
      const found = await Promise.all(page.map(([id]) => this.get(String(id))));
      found.forEach((run, k) => {
        if (!run) return void gone.push(String(page[k][0]));
        const seen = { ...run, seq: Number(page[k][1]) };
        if (run.protocol !== protocol || run.principal !== principal || !match(seen)) return;
        total++;
        if (seen.seq < before && runs.length < limit) runs.push(seen);
      });
    }
    // Runs whose keys expired leave the index as they are met.
    if (gone.length > 0) this.#redis.command(["ZREM", key, ...gone]).catch(() => {});
    return { runs, total };
  }

  /** What is known of a run (`lost` when its instance's lease lapsed), or `null`. */
  async get(id) {
    let h = await this.#fields(id);
    if (h?.lapsed === "1" && (await this.#markLost(id)) !== "running") h = await this.#fields(id);
    if (!h) return null;
    return {
      id, protocol: h.protocol, session: h.session ?? null, principal: h.principal ?? null, meta: JSON.parse(h.meta ?? "{}"),
      status: h.status, first: Number(h.first), next: Number(h.next), readers: 0, lastRead: Number(h.lastRead), gone: h.gone === "1",
    };
  }

  /**
   * The run's events after `after`, then the live ones until it ends (woken by pub/sub, and
   * polled every `pollMs`); throws `RUN_LOST` after the last logged event of a lost run, and
   * `RUN_GONE` when the run is forgotten (or its log dropped) before the reader is done.
   */
  async read(id, after = -1, signal = undefined) {
    const batch = await this.#range(id, after);
    // An ended run needs no wake-ups (and no subscription, which a Redis in trouble may refuse).
    if (batch.status !== "running") return this.#follow(id, after, batch, null, signal);
    const waker = await this.#wake(id);
    waker.dirty(); // what was appended before the subscription: read again before waiting
    return this.#follow(id, after, batch, waker, signal);
  }

  async *#follow(id, after, batch, waker, signal) {
    let cursor = after;
    // When this reader last told Redis it reads (TOUCH, for abandonment): at most every TOUCH_MS.
    let touched = this.#o.now();
    const range = async () => {
      const now = this.#o.now();
      const touch = now - touched >= TOUCH_MS;
      if (touch) touched = now;
      return this.#range(id, cursor, true, touch);
    };
    try {
      for (;;) {
        if (signal?.aborted) return;
        if (batch.events.length) {
          // READ answers GONE when the log no longer starts at or before cursor + 1.
          cursor = batch.next - 1;
          yield new TextEncoder().encode(batch.events.join(""));
          // An ended run's batch runs to its last event: the reader is done (whatever is
          // forgotten meanwhile), but for RUN_LOST.
          batch = batch.status === "running" ? await range() : { ...batch, events: [] };
          continue;
        }
        if (batch.status === "lost") throw runLost(id, batch.next);
        if (batch.status !== "running") return;
        waker ??= await this.#wake(id);
        await waker.wait(this.#o.pollMs, signal);
        if (signal?.aborted) return;
        batch = await range();
      }
    } finally {
      waker?.close();
    }
  }

  /** The events kept now, as one chunk. */
  async log(id) {
    const events = await this.#redis.script("LOG_SEGMENTS", [id, this.#o.now(), this.#o.retentionMs]);
    return new TextEncoder().encode((events ?? []).join(""));
  }

  /** Asks the instance running `id`, wherever it is, to stop it; false when it is not running. */
  async cancel(id) {
    return Number(await this.#redis.script("CANCEL", [id, this.#o.now(), this.#o.retentionMs])) === 1;
  }

  /** `stop` is called when someone, on any instance, cancels run `id` (run by this one). */
  onCancel(id, stop) {
    const stops = this.#local.get(id);
    if (!stops) return;
    stops.add(stop);
    // A cancel sent before this instance listened (or registered `stop`) left its flag.
    this.#redis.command(["HGET", `${this.#o.prefix}run:${id}`, "cancel"])
      .then((flag) => {
        if (flag === "1") this.#stop(id);
      })
      .catch(() => {}); // unreachable now: the next renewal sees the flag
  }

  /** Calls the functions that stop run `id`, if this instance runs it. */
  #stop(id) {
    for (const f of [...(this.#local.get(id) ?? [])]) {
      try {
        f();
      } catch {
        // A failing canceler must not keep the others from running.
      }
    }
  }

  /** The runs this instance runs, with when a reader (on any instance) last read each. */
  async running() {
    const ids = [...this.#local.keys()];
    const reads = await Promise.all(ids.map((id) => this.#redis.command(["HGET", `${this.#o.prefix}run:${id}`, "lastRead"])));
    return ids.map((id, i) => ({ id, readers: 0, lastRead: Number(reads[i] ?? 0) }));
  }

  /** Stops renewing leases and closes the subscriber this store opened (not the client). */
  async close() {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    this.#channels.clear();
    const sub = this.#subscriber;
    if (sub && this.#ownSubscriber) {
      this.#subscriber = null;
      this.#subscribing = null;
      await this.#redis.deadline(Promise.resolve().then(() => sub.close?.() ?? sub.quit?.() ?? sub.disconnect?.()), "closing the subscriber")
        .catch(() => sub.destroy?.());
    }
    for (const [connection, listener] of this.#guarded.splice(0)) (connection.off ?? connection.removeListener)?.call(connection, "error", listener);
  }

  /** How long a running run's keys live without a renewal (a dead instance's runs are dropped). */
  #keepMs() {
    return this.#o.leaseMs + 2 * this.#o.retentionMs;
  }

  /** Gives `connection` an error listener (once): its errors come back as STORE_UNAVAILABLE from calls. */
  #guard(connection) {
    if (typeof connection.on !== "function" || this.#guarded.some(([c]) => c === connection)) return;
    const listener = () => {}; // the connection reconnects by itself; the calls meanwhile reject
    connection.on("error", listener);
    this.#guarded.push([connection, listener]);
  }

  /** Renews, every third of a lease, the leases of the runs this instance runs; stops the lost. */
  #beat() {
    if (this.#heartbeat || this.#closed) return;
    const o = this.#o;
    this.#heartbeat = setInterval(async () => {
      if (this.#local.size === 0) {
        clearInterval(this.#heartbeat);
        this.#heartbeat = null;
        return;
      }
      if (this.#beating) return; // the last renewals still wait for a slow Redis
      this.#beating = true;
      try {
        await Promise.all([...this.#local.keys()].map(async (id) => {
          let held;
          try {
            held = await this.#redis.script("RENEW", [id, this.#owner, o.leaseMs, o.now(), this.#keepMs()]);
          } catch {
            return; // Redis unreachable: the lease may lapse; the next append says so.
          }
          if (held === "cancel") {
            this.#stop(id); // a cancel whose message this instance missed
          } else if (held !== "held" && this.#local.has(id)) {
            // Lost (or its keys gone): stop the agent; its appends are refused anyway.
            this.#stop(id);
            this.#local.delete(id);
          }
        }));
      } finally {
        this.#beating = false;
      }
    }, Math.max(10, Math.floor(o.leaseMs / 3)));
    this.#heartbeat.unref?.();
  }

  /** The fields of run `id` (with `gone` and `lapsed`), or `null`. */
  async #fields(id) {
    const flat = await this.#redis.script("GET", [id, this.#o.now(), this.#o.retentionMs]);
    if (!Array.isArray(flat) || flat.length === 0) return null;
    const h = {};
    for (let i = 0; i + 1 < flat.length; i += 2) h[flat[i]] = String(flat[i + 1]);
    return h;
  }

  /** Marks run `id` lost if its lease lapsed: its status then, or `null` when Redis refused (best-effort). */
  async #markLost(id) {
    return this.#redis.script("LOST", [id, this.#o.now(), this.#o.retentionMs]).catch(() => null);
  }

  /**
   * Events of `id` after `after`: `{status, first, next, events}`; rejects with RUN_GONE,
   * NOT_FOUND (RUN_GONE too when `reading`: the run was known when its reader began).
   */
  async #range(id, after, reading = false, touch = true) {
    let out = await this.#redis.script("READ_SEGMENTS", [id, after, this.#o.now(), this.#o.retentionMs]);
    if (out[0] === "lapsed") {
      // Declaring it lost is a write: should Redis refuse it, the reader waits and looks again.
      const status = await this.#markLost(id);
      if (status !== null && status !== "running") out = await this.#redis.script("READ_SEGMENTS", [id, after, this.#o.now(), this.#o.retentionMs]);
      else out[0] = "running";
    }
    if (out[0] === "NOT_FOUND") throw reading ? runGone(id) : notFound(id);
    if (out[0] === "GONE") {
      const first = Number(out[1]);
      throw first < 0 ? runGone(id) : runGone(id, first, after + 1);
    }
    if (out[0] === "running" && touch) {
      // For abandonment checks; best-effort (a full Redis must not fail the read).
      this.#redis.script("TOUCH", [id, this.#o.now()]).catch(() => {});
    }
    return { status: out[0], first: Number(out[1]), next: Number(out[2]), events: out.slice(3) };
  }

  /** A wake-up for readers of `id`: `wait(ms, signal)` returns on a message, after `ms`, or on abort. */
  async #wake(id) {
    const channel = `${this.#o.prefix}wake:${id}`;
    let dirty = false;
    let resolve = null;
    const listener = () => {
      dirty = true;
      resolve?.();
    };
    await this.#subscribe(channel, listener);
    return {
      dirty: () => {
        dirty = true;
      },
      wait: (ms, signal) => {
        if (dirty) {
          dirty = false;
          return Promise.resolve();
        }
        return new Promise((done) => {
          const timer = setTimeout(finish, ms);
          function finish() {
            clearTimeout(timer);
            signal?.removeEventListener("abort", finish);
            resolve = null;
            dirty = false;
            done();
          }
          resolve = finish;
          signal?.addEventListener("abort", finish, { once: true });
        });
      },
      close: () => this.#unsubscribe(channel, listener),
    };
  }

  async #subscribe(channel, listener, once = false) {
    let entry = this.#channels.get(channel);
    if (entry && once) return entry.ready;
    if (!entry) {
      const listeners = new Set();
      const dispatch = (message) => {
        for (const f of [...listeners]) f(message);
      };
      const made = { listeners, dispatch };
      made.ready = this.#subscriberClient()
        .then((sub) => this.#redis.deadline(Promise.resolve().then(() => sub.subscribe(channel, dispatch)), `subscribing to ${channel}`))
        .catch((e) => {
          // Not subscribed: the next reader of the channel tries again.
          if (this.#channels.get(channel) === made) this.#channels.delete(channel);
          Promise.resolve().then(() => this.#subscriber?.unsubscribe?.(channel, dispatch)).catch(() => {});
          throw e?.code === "STORE_UNAVAILABLE" || e?.code === "INVALID_OPTION" ? e : storeUnavailable(NAME, `subscribing to ${channel}`, e);
        });
      entry = made;
      this.#channels.set(channel, entry);
    }
    entry.listeners.add(listener);
    try {
      await entry.ready;
    } catch (e) {
      entry.listeners.delete(listener);
      throw e;
    }
  }

  #unsubscribe(channel, listener) {
    const entry = this.#channels.get(channel);
    if (!entry) return;
    entry.listeners.delete(listener);
    if (entry.listeners.size > 0) return;
    this.#channels.delete(channel);
    const sub = this.#subscriber;
    // Only this entry's listener: a reader subscribing meanwhile keeps its own.
    if (sub) entry.ready.then(() => sub.unsubscribe(channel, entry.dispatch)).catch(() => {});
  }

  /**
   * The connection pub/sub messages come in on: the `subscriber` option, or a duplicate of the
   * client (connected with a deadline; one that fails is dropped and made again next time).
   */
  #subscriberClient() {
    if (this.#subscriber) return Promise.resolve(this.#subscriber);
    this.#subscribing ??= (async () => {
      if (typeof this.#client.duplicate !== "function") {
        throw agentwireError("INVALID_OPTION", `${NAME}: the client cannot duplicate(); pass a connected \`subscriber\``, "subscriber");
      }
      const sub = this.#client.duplicate();
      this.#guard(sub);
      try {
        if (typeof sub.connect === "function" && !sub.isOpen) await this.#redis.deadline(Promise.resolve().then(() => sub.connect()), "connecting the subscriber");
      } catch (e) {
        this.#subscribing = null;
        try {
          sub.destroy?.();
        } catch {
          // Already closed.
        }
        throw e;
      }
      if (this.#closed) {
        await Promise.resolve().then(() => sub.destroy?.() ?? sub.disconnect?.()).catch(() => {});
        throw storeUnavailable(NAME, "the store is closed");
      }
      this.#subscriber = sub;
      this.#ownSubscriber = true;
      return sub;
    })();
    return this.#subscribing;
  }
}
