// RedisRunStore: durable runs kept in Redis, shared by every instance of an app. A run's log is
// a list, its state a hash; the instance running a run holds a lease on it, renewed while it
// runs; readers anywhere follow the log through pub/sub wake-ups (and a poll, in case one is
// missed), and a reader that finds the lease lapsed declares the run lost, atomically, so the
// instance that lost it can append nothing more. Every step that reads and writes is one Lua
// script: atomic on one Redis server.
import { RunStoreError } from "./runs.js";

const DEFAULTS = {
  prefix: "agentwire:",
  leaseMs: 10_000,
  pollMs: 1_000,
  retentionMs: 10 * 60 * 1000,
  maxEvents: 100_000,
  maxBytes: 16 * 1024 * 1024,
};

// Marks run `id` lost when it is running and its lease lapsed; returns its status then.
const LOST_IF_LAPSED = `
local function lost_if_lapsed(p, id, status, now, retention)
  if status == 'running' and redis.call('EXISTS', p .. 'lease:' .. id) == 0 then
    local run = p .. 'run:' .. id
    redis.call('HSET', run, 'status', 'lost', 'endedAt', now)
    redis.call('PEXPIRE', p .. 'log:' .. id, retention)
    redis.call('PEXPIRE', run, 2 * retention)
    redis.call('PUBLISH', p .. 'wake:' .. id, 'lost')
    return 'lost'
  end
  return status
end
`;

// ARGV: prefix, id, protocol, session, principal, meta, exclusive, owner, leaseMs, now,
// retention, hasSession, hasPrincipal, keepMs.
const START = `${LOST_IF_LAPSED}
local p, id = ARGV[1], ARGV[2]
local run = p .. 'run:' .. id
if redis.call('EXISTS', run) == 1 then return 'EXISTS' end
local sessionKey = p .. 'session:' .. ARGV[4]
if ARGV[12] == '1' and ARGV[7] == '1' then
  local other = redis.call('GET', sessionKey)
  if other then
    local status = redis.call('HGET', p .. 'run:' .. other, 'status')
    if lost_if_lapsed(p, other, status, ARGV[10], tonumber(ARGV[11])) == 'running' then return 'BUSY:' .. other end
  end
end
redis.call('HSET', run, 'protocol', ARGV[3], 'meta', ARGV[6], 'status', 'running', 'first', 0, 'next', 0,
  'bytes', 0, 'lastRead', ARGV[10], 'endedAt', 0)
if ARGV[12] == '1' then
  redis.call('HSET', run, 'session', ARGV[4])
  redis.call('SET', sessionKey, id, 'PX', ARGV[14])
end
if ARGV[13] == '1' then redis.call('HSET', run, 'principal', ARGV[5]) end
redis.call('PEXPIRE', run, ARGV[14])
redis.call('SET', p .. 'lease:' .. id, ARGV[8], 'PX', ARGV[9])
return 'OK'
`;

// Whether the caller (ARGV owner) holds run id's lease; takes it back when it lapsed unnoticed.
const HOLDS = `${LOST_IF_LAPSED}
local function holds(p, id, owner, leaseMs, now, retention)
  local status = redis.call('HGET', p .. 'run:' .. id, 'status')
  if status ~= 'running' then return status or 'unknown' end
  local lease = redis.call('GET', p .. 'lease:' .. id)
  if lease == owner then return 'held' end
  if lease then return 'lost' end
  redis.call('SET', p .. 'lease:' .. id, owner, 'PX', leaseMs)
  return 'held'
end
`;

// ARGV: prefix, id, owner, leaseMs, maxEvents, maxBytes, now, retention, keepMs, firstId, events…
const APPEND = `${HOLDS}
local p, id = ARGV[1], ARGV[2]
local held = holds(p, id, ARGV[3], ARGV[4], ARGV[7], tonumber(ARGV[8]))
if held ~= 'held' then return held end
local run, log = p .. 'run:' .. id, p .. 'log:' .. id
local bytes = tonumber(redis.call('HGET', run, 'bytes'))
local first = tonumber(redis.call('HGET', run, 'first'))
local n = #ARGV - 10
for i = 11, #ARGV, 1000 do
  redis.call('RPUSH', log, unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
for i = 11, #ARGV do bytes = bytes + #ARGV[i] end
local len = redis.call('LLEN', log)
local maxEvents, maxBytes = tonumber(ARGV[5]), tonumber(ARGV[6])
while len > 1 and (len > maxEvents or bytes > maxBytes) do
  bytes = bytes - #redis.call('LPOP', log)
  len = len - 1
  first = first + 1
end
redis.call('HSET', run, 'bytes', bytes, 'first', first, 'next', tonumber(ARGV[10]) + n)
redis.call('PEXPIRE', p .. 'lease:' .. id, ARGV[4])
redis.call('PEXPIRE', log, ARGV[9])
redis.call('PUBLISH', p .. 'wake:' .. id, 'e')
return 'held'
`;

// ARGV: prefix, id, owner, status, now, retention.
const END = `${HOLDS}
local p, id = ARGV[1], ARGV[2]
local run = p .. 'run:' .. id
local held = holds(p, id, ARGV[3], 1000, ARGV[5], tonumber(ARGV[6]))
if held ~= 'held' then return held end
local retention = tonumber(ARGV[6])
redis.call('HSET', run, 'status', ARGV[4], 'endedAt', ARGV[5])
redis.call('DEL', p .. 'lease:' .. id)
redis.call('PEXPIRE', p .. 'log:' .. id, retention)
redis.call('PEXPIRE', run, 2 * retention)
local session = redis.call('HGET', run, 'session')
if session and redis.call('GET', p .. 'session:' .. session) == id then redis.call('DEL', p .. 'session:' .. session) end
redis.call('PUBLISH', p .. 'wake:' .. id, 'end')
return 'ended'
`;

// ARGV: prefix, id, owner, leaseMs, now, retention, keepMs.
const RENEW = `${HOLDS}
local p, id = ARGV[1], ARGV[2]
local held = holds(p, id, ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]))
if held ~= 'held' then return held end
if redis.call('HGET', p .. 'run:' .. id, 'cancel') == '1' then held = 'cancel' end
redis.call('PEXPIRE', p .. 'lease:' .. id, ARGV[4])
redis.call('PEXPIRE', p .. 'run:' .. id, ARGV[7])
redis.call('PEXPIRE', p .. 'log:' .. id, ARGV[7])
local session = redis.call('HGET', p .. 'run:' .. id, 'session')
if session then redis.call('PEXPIRE', p .. 'session:' .. session, ARGV[7]) end
return held
`;

// ARGV: prefix, id, after, now, retention. → {status, first, next, events…} or {code, detail}.
const READ = `${LOST_IF_LAPSED}
local p, id = ARGV[1], ARGV[2]
local run, log = p .. 'run:' .. id, p .. 'log:' .. id
local h = redis.call('HMGET', run, 'status', 'first', 'next')
if not h[1] then return {'NOT_FOUND'} end
local status = lost_if_lapsed(p, id, h[1], ARGV[4], tonumber(ARGV[5]))
local first, next = tonumber(h[2]), tonumber(h[3])
if status ~= 'running' and next > 0 and redis.call('EXISTS', log) == 0 then return {'GONE', '-1'} end
local from = tonumber(ARGV[3]) + 1
if from < first then return {'GONE', tostring(first)} end
redis.call('HSET', run, 'lastRead', ARGV[4])
local out = redis.call('LRANGE', log, from - first, -1)
table.insert(out, 1, tostring(next))
table.insert(out, 1, tostring(first))
table.insert(out, 1, status)
return out
`;

// ARGV: prefix, id, now, retention. → {field, value, …, 'gone', 0|1} or {}.
const GET = `${LOST_IF_LAPSED}
local p, id = ARGV[1], ARGV[2]
local run = p .. 'run:' .. id
local status = redis.call('HGET', run, 'status')
if not status then return {} end
status = lost_if_lapsed(p, id, status, ARGV[3], tonumber(ARGV[4]))
local out = redis.call('HGETALL', run)
local gone = 0
if status ~= 'running' and tonumber(redis.call('HGET', run, 'next')) > 0 and redis.call('EXISTS', p .. 'log:' .. id) == 0 then gone = 1 end
table.insert(out, 'gone')
table.insert(out, gone)
return out
`;

// ARGV: prefix, id, now, retention. → 1 when a cancel was sent to the instance running it
// (published, and flagged for its next renewal, should the message be missed).
const CANCEL = `${LOST_IF_LAPSED}
local p, id = ARGV[1], ARGV[2]
local status = redis.call('HGET', p .. 'run:' .. id, 'status')
if lost_if_lapsed(p, id, status, ARGV[3], tonumber(ARGV[4])) ~= 'running' then return 0 end
redis.call('HSET', p .. 'run:' .. id, 'cancel', '1')
redis.call('PUBLISH', p .. 'cancel', id)
return 1
`;

const SCRIPTS = { START, APPEND, END, RENEW, READ, GET, CANCEL };

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
  #shas = new Map();
  /** Runs this instance runs: id → the functions that stop it. */
  #local = new Map();
  /** Pub/sub channel → the functions its messages wake. */
  #channels = new Map();
  #heartbeat = null;
  #closed = false;

  constructor(client, options = {}) {
    if (client === null || typeof client !== "object" || typeof client.sendCommand !== "function") {
      throw new TypeError("RedisRunStore needs a Redis client with sendCommand(args) (the `redis` package's createClient())");
    }
    if (options === null || typeof options !== "object") throw new TypeError("RedisRunStore options must be an object");
    this.#client = client;
    this.#o = { ...DEFAULTS };
    for (const key of Object.keys(options)) {
      const value = options[key];
      if (key === "subscriber") {
        if (value === null || typeof value !== "object" || typeof value.subscribe !== "function") {
          throw new TypeError("RedisRunStore: subscriber must be a connected Redis client");
        }
        this.#subscriber = value;
        continue;
      }
      if (!(key in DEFAULTS)) throw new TypeError(`RedisRunStore: unknown option ${JSON.stringify(key)}`);
      if (key === "prefix") {
        if (typeof value !== "string") throw new TypeError("RedisRunStore: prefix must be a string");
      } else if (!Number.isSafeInteger(value) || value < 1) {
        throw new TypeError(`RedisRunStore: ${key} must be an integer >= 1`);
      }
      this.#o[key] = value;
    }
    const bits = crypto.getRandomValues(new Uint8Array(16));
    this.#owner = Array.from(bits, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /** Registers a run run by this instance, and takes its lease. */
  async start({ id, protocol, session = null, principal = null, exclusive = true, meta = {} }) {
    const o = this.#o;
    const answer = await this.#script("START", [
      id, protocol, session ?? "", principal ?? "", JSON.stringify(meta ?? {}), exclusive ? "1" : "0", this.#owner,
      o.leaseMs, Date.now(), o.retentionMs, session === null ? "0" : "1", principal === null ? "0" : "1", this.#keepMs(),
    ]);
    if (answer === "EXISTS") throw new RunStoreError("SESSION_BUSY", `A run ${id} exists already.`);
    if (typeof answer === "string" && answer.startsWith("BUSY:")) {
      throw new RunStoreError("SESSION_BUSY", `Session ${session} has a run going.`);
    }
    this.#local.set(id, new Set());
    this.#beat();
    // Cancels reach this instance from its first run on (and the renewals catch a missed one).
    await this.#subscribe(`${this.#o.prefix}cancel`, (message) => this.#stop(message), true);
  }

  /** Appends events to a run this instance runs; `RUN_LOST` when it was declared lost. */
  async append(id, events) {
    if (events.length === 0) return;
    const o = this.#o;
    const decoder = new TextDecoder();
    const answer = await this.#script("APPEND", [
      id, this.#owner, o.leaseMs, o.maxEvents, o.maxBytes, Date.now(), o.retentionMs, this.#keepMs(), events[0].id,
      ...events.map((e) => decoder.decode(e.bytes)),
    ]);
    if (answer !== "held") {
      // Declared lost (the lease lapsed), or its keys are gone: this instance no longer holds it.
      this.#local.delete(id);
      throw new RunStoreError("RUN_LOST", `Run ${id} is no longer held by this instance (${answer}).`);
    }
  }

  /** Marks a run this instance runs ended. */
  async end(id, status = "ended") {
    this.#local.delete(id);
    await this.#script("END", [id, this.#owner, status, Date.now(), this.#o.retentionMs]);
  }

  /** What is known of a run (`lost` when its instance's lease lapsed), or `null`. */
  async get(id) {
    const flat = await this.#script("GET", [id, Date.now(), this.#o.retentionMs]);
    if (!Array.isArray(flat) || flat.length === 0) return null;
    const h = {};
    for (let i = 0; i + 1 < flat.length; i += 2) h[flat[i]] = flat[i + 1];
    return {
      id,
      protocol: h.protocol,
      session: h.session ?? null,
      principal: h.principal ?? null,
      meta: JSON.parse(h.meta ?? "{}"),
      status: h.status,
      first: Number(h.first),
      next: Number(h.next),
      readers: 0,
      lastRead: Number(h.lastRead),
      gone: Number(h.gone) === 1,
    };
  }

  /**
   * The run's events after `after`, then the live ones until it ends (woken by pub/sub, and
   * polled every `pollMs`); throws `RUN_LOST` after the last logged event of a lost run.
   */
  async read(id, after = -1, signal = undefined) {
    const waker = await this.#wake(id);
    let batch;
    try {
      batch = await this.#range(id, after);
    } catch (e) {
      waker.close();
      throw e;
    }
    return this.#follow(id, after, batch, waker, signal);
  }

  async *#follow(id, after, batch, waker, signal) {
    let cursor = after;
    try {
      for (;;) {
        if (signal?.aborted) return;
        if (batch.events.length) {
          // READ answers GONE when the log no longer starts at or before cursor + 1.
          cursor += batch.events.length;
          yield new TextEncoder().encode(batch.events.join(""));
        } else if (batch.status === "lost") {
          throw new RunStoreError("RUN_LOST", `The instance running run ${id} went away.`, batch.next);
        } else if (batch.status !== "running") {
          return;
        } else {
          await waker.wait(this.#o.pollMs, signal);
          if (signal?.aborted) return;
        }
        batch = await this.#range(id, cursor);
      }
    } finally {
      waker.close();
    }
  }

  /** The events kept now, as one chunk. */
  async log(id) {
    const events = await this.#command(["LRANGE", `${this.#o.prefix}log:${id}`, "0", "-1"]);
    return new TextEncoder().encode((events ?? []).join(""));
  }

  /** Asks the instance running `id`, wherever it is, to stop it; false when it is not running. */
  async cancel(id) {
    return Number(await this.#script("CANCEL", [id, Date.now(), this.#o.retentionMs])) === 1;
  }

  /** `stop` is called when someone, on any instance, cancels run `id` (run by this one). */
  onCancel(id, stop) {
    const stops = this.#local.get(id);
    if (!stops) return;
    stops.add(stop);
    // A cancel sent before this instance listened (or registered `stop`) left its flag.
    this.#command(["HGET", `${this.#o.prefix}run:${id}`, "cancel"])
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
    const reads = await Promise.all(ids.map((id) => this.#command(["HGET", `${this.#o.prefix}run:${id}`, "lastRead"])));
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
      await (sub.close?.() ?? sub.quit?.() ?? sub.disconnect?.());
    }
  }

  /** How long a running run's keys live without a renewal (a dead instance's runs are dropped). */
  #keepMs() {
    return this.#o.leaseMs + 2 * this.#o.retentionMs;
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
      await Promise.all([...this.#local.keys()].map(async (id) => {
        let held;
        try {
          held = await this.#script("RENEW", [id, this.#owner, o.leaseMs, Date.now(), o.retentionMs, this.#keepMs()]);
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
    }, Math.max(10, Math.floor(o.leaseMs / 3)));
    this.#heartbeat.unref?.();
  }

  /** Events of `id` after `after`: `{status, first, next, events}`, or a RunStoreError. */
  async #range(id, after) {
    const out = await this.#script("READ", [id, after, Date.now(), this.#o.retentionMs]);
    if (out[0] === "NOT_FOUND") throw new RunStoreError("NOT_FOUND", `No run ${id}.`);
    if (out[0] === "GONE") {
      const first = Number(out[1]);
      throw new RunStoreError("RUN_GONE", first < 0
        ? `Run ${id} is no longer kept.`
        : `Run ${id} keeps events from ${first}; ${after + 1} is gone.`);
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
      entry = { listeners, dispatch, ready: this.#subscriberClient().then((sub) => sub.subscribe(channel, dispatch)) };
      this.#channels.set(channel, entry);
    }
    entry.listeners.add(listener);
    await entry.ready;
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

  /** The connection pub/sub messages come in on: the `subscriber` option, or a duplicate of the client. */
  #subscriberClient() {
    if (this.#subscriber) return Promise.resolve(this.#subscriber);
    this.#subscribing ??= (async () => {
      if (typeof this.#client.duplicate !== "function") {
        throw new TypeError("RedisRunStore: the client cannot duplicate(); pass a connected `subscriber`");
      }
      const sub = this.#client.duplicate();
      if (typeof sub.connect === "function" && !sub.isOpen) await sub.connect();
      this.#subscriber = sub;
      this.#ownSubscriber = true;
      return sub;
    })();
    return this.#subscribing;
  }

  /** Runs a script by its SHA, loading it first (again after the server forgot it). */
  async #script(name, args) {
    const argv = [this.#o.prefix, ...args.map(String)];
    let sha = this.#shas.get(name);
    for (let attempt = 0; ; attempt++) {
      if (!sha) {
        sha = await this.#command(["SCRIPT", "LOAD", SCRIPTS[name]]);
        this.#shas.set(name, sha);
      }
      try {
        return await this.#command(["EVALSHA", sha, "0", ...argv]);
      } catch (e) {
        if (attempt > 0 || !String(e?.message).startsWith("NOSCRIPT")) throw e;
        sha = null;
      }
    }
  }

  #command(args) {
    return this.#client.sendCommand(args);
  }
}
