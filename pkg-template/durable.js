// Durable runs on Cloudflare Durable Objects: each run lives in its own object (named by the
// run's id), which runs the agent, so the run outlives the request that started it. The log is
// kept in the object's memory for readers (a MemoryRunStore) and written through to its storage,
// so it survives the object: an object that restarts finds its run "running" in storage with no
// agent behind it, and its readers get the logged events, then RUN_LOST. A session's one running
// run is held by an object of its own (`session:<id>`), asked by the run's object; a store
// without a namespace keeps its runs' sessions itself (one object holding every run).
import { MemoryRunStore } from "./runs.js";
import { splitEvents } from "./store-events.js";
import { agentwireError, concatBytes } from "./values.js";
import { STORE_DEFAULTS, readRun, readStoreOptions, runExists, runLost, sessionBusy, storeUnavailable } from "./store-options.js";

const NAME = "DurableObjectRunStore";
/** Bytes per stored value (a Durable Object value holds at most 128 KiB). */
const SLICE = 120 * 1024;
/** The origin of the requests objects send each other (never reaches the network). */
const INTERNAL_ORIGIN = "https://agentwire.internal";
export const SESSION_PATH = "/__agentwire/session";
export const STATUS_PATH = "/__agentwire/status";
/** A principal's object lists its A2A tasks there (TaskIndex). */
export const TASKS_PATH = "/__agentwire/tasks";
/** A task's object answers its latest turn there (the run and its log, as RUN_PATH). */
export const TASK_PATH = "/__agentwire/task";
/** The most tasks a principal's object lists (the oldest go first). */
export const MAX_INDEXED_TASKS = 1000;
/**
 * The internal path an object answers another run's `get` and `log` on: the body is what `get`
 * gives as JSON text, a line feed, then the log's bytes.
 */
export const RUN_PATH = "/__agentwire/run";

/**
 * Runs kept by a Durable Object: in memory while the object lives, and in its storage
 * (`state.storage`), read back after a restart. `namespace` (the object's binding) lets it ask
 * a session's object for the session's one running run; without it, a session's one running
 * run is kept among this object's runs (SESSION_BUSY while one of them holds it).
 */
export class DurableObjectRunStore {
  #storage;
  #namespace;
  #o;
  #memory;
  /** Runs this object runs now (an agent behind them). */
  #live = new Set();
  /** Stored state of each run loaded: `{meta, slices: [{key, last}]}`. */
  #stored = new Map();
  /** The ended runs of `#stored`, in the order they ended (the memory store forgets them so). */
  #ended = new Set();
  #loading = new Map();

  constructor(storage, options = {}) {
    if (storage === null || typeof storage !== "object" || typeof storage.put !== "function") {
      throw agentwireError("INVALID_OPTION", `${NAME} needs the object's storage (state.storage)`, "storage");
    }
    this.#storage = storage;
    this.#o = readStoreOptions(NAME, options, {
      namespace: { default: null, check: (v) => (v === null || typeof v?.idFromName === "function" ? undefined : "must be a Durable Object namespace") },
    });
    this.#namespace = this.#o.namespace;
    const { namespace: _, ...common } = this.#o;
    this.#memory = new MemoryRunStore(common);
  }

  /** The per-run caps (`{maxEvents, maxBytes}`): how far a run may get ahead of its readers. */
  get limits() {
    return this.#memory.limits;
  }

  /** Registers a run this object runs; with a session, takes the session from its object. */
  async start(run) {
    const { id, protocol, session, principal, exclusive, meta } = readRun(NAME, run);
    await this.#load(id);
    if (this.#stored.has(id)) throw runExists(id);
    if (exclusive && session !== null && this.#namespace) await this.#session(session, "acquire", id);
    // With the session's object holding the session, the memory store does not hold it too.
    await this.#memory.start({ id, protocol, session, principal, meta, exclusive: exclusive && !this.#namespace });
    const stored = {
      meta: { id, protocol, session, principal, meta, exclusive, status: "running", first: 0, next: 0, endedAt: 0, slice: 0 },
      slices: [],
    };
    this.#stored.set(id, stored);
    this.#live.add(id);
    await this.#storage.put(`run:${id}`, stored.meta);
    await this.#prune();
    // A new A2A task (its first turn) is listed by its principal's object (ListTasks).
    if (this.#namespace && protocol.startsWith("a2a") && !(meta?.turn > 1) && typeof meta?.builder?.responseId === "string") {
      await tasksOf(this.#namespace, principal).fetch(`${INTERNAL_ORIGIN}${TASKS_PATH}`, {
        method: "POST", body: JSON.stringify({ op: "add", taskId: meta.builder.responseId, protocol, contextId: meta.builder.sessionId ?? null }),
      }).then((res) => res.body?.cancel(), () => {
        // Not listed: the task itself is kept and answers as any other.
      });
    }
  }

  /** Appends events in memory and in storage (in slices of at most 120 KiB). */
  async append(id, events) {
    if (events.length === 0) return;
    const stored = this.#stored.get(id);
    if (!stored || stored.meta.status !== "running") {
      throw runLost(id, undefined, `Run ${id} is not running (${stored?.meta.status ?? "unknown"}): nothing more is logged.`);
    }
    await this.#memory.append(id, events);
    const info = await this.#memory.get(id);
    const { meta } = stored;
    const entries = {};
    const bytes = concatBytes(events.map((e) => e.bytes));
    const last = events[events.length - 1].id;
    for (let at = 0; at < bytes.length; at += SLICE) {
      const key = `log:${id}:${String(meta.slice++).padStart(12, "0")}`;
      entries[key] = { last, bytes: bytes.slice(at, at + SLICE) };
      stored.slices.push({ key, last });
    }
    meta.first = info.first;
    meta.next = info.next;
    entries[`run:${id}`] = meta;
    // Slices holding only events older than what is kept (the caps) are dropped.
    const dropped = [];
    while (stored.slices.length > 1 && stored.slices[0].last < meta.first) dropped.push(stored.slices.shift().key);
    const keys = Object.keys(entries);
    for (let i = 0; i < keys.length; i += 100) {
      const part = {};
      for (const key of keys.slice(i, i + 100)) part[key] = entries[key];
      await this.#storage.put(part);
    }
    if (dropped.length) await this.#storage.delete(dropped);
  }

  /** Marks a run ended; frees its session; its storage is deleted after twice the retention. */
  async end(id, status = "ended") {
    const stored = this.#stored.get(id);
    if (!stored || stored.meta.status !== "running") return;
    this.#live.delete(id);
    const endedAt = this.#o.now();
    await this.#memory.end(id, status, endedAt);
    stored.meta.status = status;
    stored.meta.endedAt = endedAt;
    this.#ended.add(id);
    await this.#storage.put(`run:${id}`, stored.meta);
    await this.#forget(stored.meta);
  }

  /** What is known of a run (`lost` when this object restarted while it ran), or `null`. */
  async get(id) {
    await this.#load(id);
    return this.#memory.get(id);
  }

  /** As MemoryRunStore's, after loading the run from storage if this object just started. */
  async read(id, after = -1, signal = undefined) {
    await this.#load(id);
    return this.#memory.read(id, after, signal);
  }

  async log(id) {
    await this.#load(id);
    return this.#memory.log(id);
  }

  /** The run is run by this object: stops it here. */
  async cancel(id) {
    await this.#load(id);
    return this.#memory.cancel(id);
  }

  onCancel(id, stop) {
    this.#memory.onCancel(id, stop);
  }

  async running() {
    return (await this.#memory.running()).filter((r) => this.#live.has(r.id));
  }

  /** For the object's alarm: deletes what is past retention. */
  async expire() {
    const now = this.#o.now();
    const runs = await this.#storage.list({ prefix: "run:" });
    let next = Infinity;
    for (const meta of runs.values()) {
      if (meta.status === "running") continue;
      const until = meta.endedAt + 2 * this.#o.retentionMs;
      if (until <= now) {
        await this.#erase(meta.id);
      } else {
        next = Math.min(next, until);
      }
    }
    if (next !== Infinity) await this.#storage.setAlarm(next);
  }

  /** Loads run `id` from storage once (a run of an earlier life of this object). */
  #load(id) {
    if (this.#stored.has(id)) return undefined;
    let loading = this.#loading.get(id);
    if (!loading) {
      loading = this.#read(id).finally(() => this.#loading.delete(id));
      this.#loading.set(id, loading);
    }
    return loading;
  }

  async #read(id) {
    const meta = await this.#storage.get(`run:${id}`);
    if (!meta || this.#stored.has(id)) return;
    const list = await this.#storage.list({ prefix: `log:${id}:` });
    const slices = [...list].map(([key, value]) => ({ key, last: value.last, bytes: value.bytes }));
    const events = splitEvents(concatBytes(slices.map((s) => new Uint8Array(s.bytes))))
      .filter((e) => e.id >= meta.first);
    // Known only once the memory store took it (it may refuse: TOO_MANY_RUNS), not half-loaded.
    await this.#memory.start({ id, protocol: meta.protocol, session: meta.session, principal: meta.principal, meta: meta.meta, exclusive: false });
    this.#stored.set(id, { meta, slices: slices.map(({ key, last }) => ({ key, last })) });
    await this.#memory.append(id, events);
    if (meta.status === "running") {
      // Stored as running, but this object just started: the agent that ran it is gone.
      meta.status = "lost";
      meta.endedAt = this.#o.now();
      await this.#storage.put(`run:${id}`, meta);
      // Not awaited: this load may answer the session's object, asking this run's status while
      // it holds its queue (a new run of the session wants it); waiting for the release queued
      // behind that question would be a cycle. The session's object frees a lost run's session
      // anyway (it asks the status), so the release is only a courtesy.
      this.#forget(meta, false).catch(() => {});
    }
    await this.#memory.end(id, meta.status, meta.endedAt);
    this.#ended.add(id);
    await this.#prune();
  }

  /**
   * More runs known than `maxRuns`: the memory store forgot the oldest ended ones to make room
   * (or past twice the retention), so they go from storage too (a next life must not find them).
   */
  async #prune() {
    for (const id of this.#ended) {
      if (this.#stored.size <= this.#o.maxRuns) return;
      if ((await this.#memory.get(id)) === null) await this.#erase(id);
    }
  }

  /** Deletes run `id` from storage and from what this object knows of it. */
  async #erase(id) {
    this.#stored.delete(id);
    this.#ended.delete(id);
    // The run's key first: a load from now on finds no run (storage answers in order).
    const gone = this.#storage.delete(`run:${id}`);
    const keys = [...(await this.#storage.list({ prefix: `log:${id}:` })).keys()];
    await gone;
    for (let i = 0; i < keys.length; i += 128) await this.#storage.delete(keys.slice(i, i + 128));
  }

  /** A run ended: its session is free, its storage goes after twice the retention. */
  async #forget(meta, wait = true) {
    if (meta.exclusive && meta.session !== null && this.#namespace) {
      const released = this.#session(meta.session, "release", meta.id).catch(() => {});
      if (wait) await released;
    }
    const current = await this.#storage.getAlarm?.();
    const at = meta.endedAt + 2 * this.#o.retentionMs;
    if (current === null || current === undefined || current > at) await this.#storage.setAlarm(at);
  }

  /**
   * Run `id` of another object (its `get`, and its `log` as one chunk), asked of the object
   * named by `id`: `{run, log}`, or `null` when it has none (or no namespace is given). For a
   * run the app names that this object does not hold (Responses `previous_response_id`).
   */
  async elsewhere(id) {
    return this.#namespace ? objectRun(this.#namespace, id) : null;
  }

  /**
   * The id of the run started last in `session`, or `null`: the session's object knows it (its
   * runs are in objects of their own); without a namespace, this object's runs.
   */
  async lastRun(session) {
    if (typeof session !== "string") return null;
    if (!this.#namespace) return this.#memory.lastRun(session);
    const ns = this.#namespace;
    const res = await ns.get(ns.idFromName(`session:${session}`)).fetch(`${INTERNAL_ORIGIN}${SESSION_PATH}`, { method: "POST", body: JSON.stringify({ op: "last" }) });
    if (!res.ok) {
      await res.body?.cancel();
      throw storeUnavailable(NAME, `the session's object answered ${res.status}`);
    }
    // The session's object names the run; whether it is still kept (and this session's) the
    // caller learns from the run's own object.
    const { last } = await res.json();
    return typeof last === "string" ? last : null;
  }

  async #session(session, op, run) {
    const ns = this.#namespace;
    const stub = ns.get(ns.idFromName(`session:${session}`));
    const res = await stub.fetch(`${INTERNAL_ORIGIN}${SESSION_PATH}`, { method: "POST", body: JSON.stringify({ op, run }) });
    if (res.status === 409) {
      await res.body?.cancel();
      throw sessionBusy(session);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw storeUnavailable(NAME, `the session's object answered ${res.status}`);
    }
  }
}

/**
 * The session side of an object (`session:<id>`): which run holds the session, and which run
 * took it last. A run asking for it gets it when the holder's object says the holder is no
 * longer running. One question at a time. What it keeps lasts as long as the runs it names:
 * every `retentionMs` (an alarm) it asks their objects, and forgets the runs they no longer keep.
 */
export class SessionHolder {
  #storage;
  #namespace;
  #retentionMs;
  #queue = Promise.resolve();

  constructor(storage, namespace, retentionMs = STORE_DEFAULTS.retentionMs) {
    this.#storage = storage;
    this.#namespace = namespace;
    this.#retentionMs = retentionMs;
  }

  /** Forgets the runs (holder, last) whose objects no longer keep them; looks again later if any is left. */
  expire() {
    const done = this.#queue.then(async () => {
      const kept = await this.#storage.get(["holder", "last"]);
      const gone = [];
      for (const [key, run] of kept) {
        try {
          if (await runStatus(this.#namespace, run) === null) gone.push(key);
        } catch {
          // Not known now: asked again at the next alarm.
        }
      }
      if (gone.length) await this.#storage.delete(gone);
      if (gone.length < kept.size) await this.#storage.setAlarm(Date.now() + this.#retentionMs);
    });
    this.#queue = done.catch(() => {});
    return done;
  }

  /** Answers a `{op: "acquire" | "release", run}` request. */
  fetch(request) {
    const answer = this.#queue.then(() => this.#answer(request));
    this.#queue = answer.catch(() => {});
    return answer;
  }

  async #answer(request) {
    const { op, run } = await request.json();
    if (op === "last") return Response.json({ last: (await this.#storage.get("last")) ?? null });
    const holder = await this.#storage.get("holder");
    if (op === "release") {
      if (holder === run) await this.#storage.delete("holder");
      return Response.json({ ok: true });
    }
    if (holder !== undefined && holder !== run) {
      if (await runStatus(this.#namespace, holder) === "running") return Response.json({ holder }, { status: 409 });
    }
    // The run started last: the next turn's conversation is read from it.
    await this.#storage.put({ holder: run, last: run });
    if (!(await this.#storage.getAlarm?.())) await this.#storage.setAlarm?.(Date.now() + this.#retentionMs);
    return Response.json({ ok: true });
  }
}

/** The status of run `key` (its store key, which names its object) as its object has it; null for none. */
export async function runStatus(namespace, key) {
  const res = await namespace.get(namespace.idFromName(key)).fetch(`${INTERNAL_ORIGIN}${STATUS_PATH}?id=${encodeURIComponent(key)}`);
  return (await res.json()).status ?? null;
}

/** The object of `principal` (an owner key, null for anonymous callers) that lists its A2A tasks. */
export function tasksOf(namespace, principal) {
  return namespace.get(namespace.idFromName(`tasks:${principal ?? ""}`));
}

/**
 * A principal's A2A tasks, in the order they started (at most MAX_INDEXED_TASKS, the oldest
 * forgotten first), in the storage of an object of its own (`tasks:<owner>`): `add` lists a new
 * task, `page` gives the newest ones before a cursor. One request at a time.
 */
export class TaskIndex {
  #storage;
  #queue = Promise.resolve();

  constructor(storage) {
    this.#storage = storage;
  }

  /** Answers `{op: "add", taskId, protocol, contextId}`, `{op: "page", protocol, contextId, before, limit}` or `{op: "forget", seqs}`. */
  fetch(request) {
    const answer = this.#queue.then(() => this.#answer(request));
    this.#queue = answer.catch(() => {});
    return answer;
  }

  async #answer(request) {
    const body = await request.json();
    if (body.op === "forget") {
      // Tasks whose objects no longer keep them (a listing found them gone).
      const seqs = Array.isArray(body.seqs) ? body.seqs.filter(Number.isSafeInteger).slice(0, MAX_INDEXED_TASKS) : [];
      if (seqs.length) await this.#storage.delete(seqs.map((seq) => `e:${String(seq).padStart(12, "0")}`));
      return Response.json({ forgotten: seqs.length });
    }
    if (body.op === "add") {
      const seq = ((await this.#storage.get("next")) ?? 0) + 1;
      await this.#storage.put({ next: seq, [`e:${String(seq).padStart(12, "0")}`]: { taskId: body.taskId, protocol: body.protocol, contextId: body.contextId } });
      const entries = await this.#storage.list({ prefix: "e:" });
      if (entries.size > MAX_INDEXED_TASKS) await this.#storage.delete([...entries.keys()].slice(0, entries.size - MAX_INDEXED_TASKS));
      return Response.json({ seq });
    }
    // A page, newest first: the tasks of the protocol (and context) before `before`.
    const entries = [...(await this.#storage.list({ prefix: "e:" }))]
      .map(([key, entry]) => ({ seq: Number(key.slice(2)), ...entry }))
      .filter((e) => e.protocol === body.protocol && (body.contextId == null || e.contextId === body.contextId))
      .reverse();
    const before = typeof body.before === "number" ? body.before : Infinity;
    const tasks = entries.filter((e) => e.seq < before).slice(0, Math.max(0, Math.min(Number(body.limit) || 0, MAX_INDEXED_TASKS)));
    return Response.json({ tasks: tasks.map(({ seq, taskId }) => ({ seq, taskId })), total: entries.length });
  }
}

/**
 * Run `key` as the object named `key` answers it at `path` (RUN_PATH: that run; TASK_PATH: the
 * latest turn of the task `key`): `{run, log}`, or `null` when it has none.
 */
export async function objectRun(namespace, key, path = RUN_PATH) {
  const res = await namespace.get(namespace.idFromName(key)).fetch(`${INTERNAL_ORIGIN}${path}?id=${encodeURIComponent(key)}`);
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw storeUnavailable(NAME, `the run's object answered ${res.status}`);
  }
  const body = new Uint8Array(await res.arrayBuffer());
  const end = body.indexOf(10);
  if (end === -1) throw storeUnavailable(NAME, "the run's object answered no run");
  const run = JSON.parse(new TextDecoder().decode(body.subarray(0, end)));
  return run ? { run, log: body.slice(end + 1) } : null;
}

/**
 * A page of `principal`'s A2A tasks from its object (TaskIndex), newest first: `{tasks: [{seq,
 * taskId}], total}` for `{protocol, contextId, before, limit}`.
 */
export async function taskPage(namespace, principal, query) {
  const res = await tasksOf(namespace, principal).fetch(`${INTERNAL_ORIGIN}${TASKS_PATH}`, { method: "POST", body: JSON.stringify({ op: "page", ...query }) });
  return tasksAnswer(res);
}

/** Tells `principal`'s tasks object to forget the tasks `seqs` (their objects no longer keep them). */
export async function forgetTasks(namespace, principal, seqs) {
  const res = await tasksOf(namespace, principal).fetch(`${INTERNAL_ORIGIN}${TASKS_PATH}`, { method: "POST", body: JSON.stringify({ op: "forget", seqs }) });
  return tasksAnswer(res);
}

/** The JSON of a tasks object's answer; STORE_UNAVAILABLE for any other. */
async function tasksAnswer(res) {
  if (!res.ok) {
    await res.body?.cancel();
    throw storeUnavailable(NAME, `the tasks' object answered ${res.status}`);
  }
  return res.json();
}

