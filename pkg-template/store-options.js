// The RunStore contract shared by every store (MemoryRunStore, RedisRunStore,
// DurableObjectRunStore): one set of defaults, one reader of options, and the errors a store
// throws (every one an AgentwireError with a stable code, documented in runs.d.ts).
import { agentwireError } from "./values.js";

/** The longest duration an option takes (ms): what a timer can wait (2^31 - 1, about 24.8 days). */
export const MAX_MS = 2 ** 31 - 1;

/** The defaults of every store's common options (runs.d.ts documents them). */
export const STORE_DEFAULTS = Object.freeze({
  /** How long an ended run's log is kept (then `RUN_GONE` for as long again, then unknown). */
  retentionMs: 10 * 60 * 1000,
  /** Events kept per run (the oldest are dropped first). */
  maxEvents: 100_000,
  /** Bytes of events kept per run (likewise). */
  maxBytes: 64 * 1024 * 1024,
  /** Runs kept (running and ended); when full, the oldest ended run is forgotten first. */
  maxRuns: 10_000,
  /** The clock (ms since the epoch) of retention, `lastRead`, `endedAt` and leases. */
  now: Date.now,
});

/**
 * Reads a store's options: the common ones (`STORE_DEFAULTS`) and the store's own (`extra`:
 * name → `{default, check(value) → reason | undefined}`). Unknown keys and bad values throw
 * INVALID_OPTION naming the field. Returns a frozen object with every option set.
 */
export function readStoreOptions(store, options, extra = {}) {
  if (options === undefined) options = {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw agentwireError("INVALID_OPTION", `${store}: options must be an object`, "options");
  }
  /** @type {Record<string, any>} */
  const out = {};
  for (const [key, value] of Object.entries(STORE_DEFAULTS)) out[key] = value;
  for (const [key, rule] of Object.entries(extra)) out[key] = rule.default;
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (value === undefined) continue;
    let reason;
    if (key === "now") {
      if (typeof value !== "function") reason = "must be a function returning ms since the epoch";
    } else if (Object.hasOwn(STORE_DEFAULTS, key)) {
      reason = key === "retentionMs" ? duration(value) : count(value);
    } else if (Object.hasOwn(extra, key)) {
      reason = extra[key].check(value);
    } else {
      throw agentwireError("INVALID_OPTION", `${store}: unknown option ${JSON.stringify(key)}`, key);
    }
    if (reason !== undefined) throw agentwireError("INVALID_OPTION", `${store}: ${key} ${reason}`, key);
    out[key] = value;
  }
  return Object.freeze(out);
}

/** The reason a duration option is refused, or `undefined`: an integer from 1 to MAX_MS. */
export function duration(value) {
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_MS ? undefined : `must be an integer from 1 to ${MAX_MS} (ms)`;
}

/** The reason a count option is refused, or `undefined`: a safe integer >= 1. */
export function count(value) {
  return Number.isSafeInteger(value) && value >= 1 ? undefined : "must be an integer >= 1";
}

/** Reads the run a `start` registers; INVALID_OPTION (naming the field) for a malformed one. */
export function readRun(store, run) {
  if (run === null || typeof run !== "object") throw agentwireError("INVALID_OPTION", `${store}.start: the run must be an object`, "run");
  const { id, protocol, session = null, principal = null, exclusive = true, meta = {} } = run;
  if (typeof id !== "string" || id.length === 0) throw agentwireError("INVALID_OPTION", `${store}.start: id must be a non-empty string`, "id");
  if (typeof protocol !== "string") throw agentwireError("INVALID_OPTION", `${store}.start: protocol must be a string`, "protocol");
  if (session !== null && typeof session !== "string") throw agentwireError("INVALID_OPTION", `${store}.start: session must be a string or null`, "session");
  if (principal !== null && typeof principal !== "string") throw agentwireError("INVALID_OPTION", `${store}.start: principal must be a string or null`, "principal");
  if (meta === null || typeof meta !== "object") throw agentwireError("INVALID_OPTION", `${store}.start: meta must be an object`, "meta");
  return { id, protocol, session, principal, exclusive: exclusive !== false, meta };
}

/** The id is taken (a run with it exists). */
export const runExists = (id) => agentwireError("RUN_EXISTS", `A run ${id} exists already.`);
/** The session has a run going (the other run is not named: it may be someone else's). */
export const sessionBusy = (session) => agentwireError("SESSION_BUSY", `Session ${session} has a run going.`);
/** Every kept run is running: no room for another. */
export const tooManyRuns = (max) => agentwireError("TOO_MANY_RUNS", `The store keeps ${max} runs, all running.`);
/** No such run. */
export const notFound = (id) => agentwireError("NOT_FOUND", `No run ${id}.`);

/** The run's log (or the part of it from `from`) is no longer kept. */
export function runGone(id, first, from) {
  return agentwireError("RUN_GONE", first === undefined ? `Run ${id} is no longer kept.` : `Run ${id} keeps events from ${first}; ${from} is gone.`);
}

/** The instance running the run went away; `next` is the id its terminal event takes. */
export function runLost(id, next, message = `The instance running run ${id} went away.`) {
  /** @type {any} */
  const e = agentwireError("RUN_LOST", message);
  if (next !== undefined) e.next = next;
  return e;
}

/** The store's backend failed, or did not answer in time (`cause`: what it threw). */
export function storeUnavailable(store, what, cause) {
  const detail = cause?.message ?? (cause === undefined ? "" : String(cause));
  return agentwireError("STORE_UNAVAILABLE", `${store}: ${what}${detail ? `: ${detail}` : ""}`, undefined, cause);
}
