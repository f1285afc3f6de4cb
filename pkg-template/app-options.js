// AgentApp's options: every key checked, defaults filled in, in one place. Unknown keys and
// wrong types throw INVALID_OPTION naming the option.
import { agentwireError } from "./values.js";
import { MemoryRunStore } from "./runs.js";

/** Where each route is served, unless `paths` says otherwise. */
export const DEFAULT_PATHS = {
  process: "/process",
  responses: "/compatible-mode/v1/responses",
  agUi: "/ag-ui",
  a2a: "/a2a",
  agentCard: "/.well-known/agent-card.json",
  health: "/health",
  root: "/",
};

/** The protocols AgentApp serves, by the keys of `protocols` and `paths`. */
export const PROTOCOLS = ["process", "responses", "agUi", "a2a"];

/** The options AgentApp takes. */
export const OPTION_KEYS = ["name", "description", "version", "agent", "skills", "provider", "documentationUrl",
  "iconUrl", "url", "cardVersion", "listTasks", "sessionHistory", "compact", "paths", "protocols", "cors", "maxBodyBytes", "authorize", "onError", "runs"];

/**
 * Who may list A2A tasks (`listTasks`): callers `authorize` names (the default: without it every
 * caller is the same anonymous principal, whose tasks would be everyone's), `"all"` (anonymous
 * callers too: one user, or tests), or nobody (`false`).
 */
const LIST_TASKS = ["authorized", "all", false];

/** The agent card's versions (`cardVersion`): both in one card (the default), or one. */
export const CARD_VERSIONS = ["both", "1.0", "0.3"];

/** The keys of `runs`. */
export const RUN_KEYS = ["store", "abandonAfterMs", "keepaliveMs", "cancelOnDisconnect", "concurrentSessions", "durableObject",
  "retentionMs", "maxEvents", "maxBytes", "maxRunning", "maxRunningPerPrincipal"];

/** The caps a client meets, by default. */
export const DEFAULT_LIMITS = {
  /** The largest request body, in bytes. */
  maxBodyBytes: 1024 * 1024,
  /** Runs going at once on one instance, all principals together. */
  maxRunning: 1000,
  /** Runs going at once on one instance for one principal (everyone, without `authorize`). */
  maxRunningPerPrincipal: 32,
  /** A run unread this long is canceled (ms; 0: never). */
  abandonAfterMs: 60_000,
  /** A streamed answer quiet this long carries an SSE comment (ms; 0: never). */
  keepaliveMs: 15_000,
};

function fail(what, field) {
  return agentwireError("INVALID_OPTION", `AgentApp: ${what}`, field);
}

function positiveInteger(value, name, field) {
  if (!Number.isSafeInteger(value) || value < 1) throw fail(`${name} must be a positive integer`, field);
  return value;
}

/** `paths` over the defaults, each starting with "/". */
function readPaths(paths) {
  const out = { ...DEFAULT_PATHS };
  if (paths === undefined) return out;
  if (paths === null || typeof paths !== "object") throw fail("paths must be an object", "paths");
  for (const [key, path] of Object.entries(paths)) {
    if (!(key in DEFAULT_PATHS)) throw fail(`unknown path ${JSON.stringify(key)}`, "paths");
    if (typeof path !== "string" || !path.startsWith("/")) throw fail(`paths.${key} must start with "/"`, "paths");
    out[key] = path;
  }
  return out;
}

/** `protocols` over all on. */
function readProtocols(protocols) {
  const out = Object.fromEntries(PROTOCOLS.map((p) => [p, true]));
  if (protocols === undefined) return out;
  if (protocols === null || typeof protocols !== "object") throw fail("protocols must be an object", "protocols");
  for (const [key, on] of Object.entries(protocols)) {
    if (!PROTOCOLS.includes(key)) throw fail(`unknown protocol ${JSON.stringify(key)}`, "protocols");
    if (typeof on !== "boolean") throw fail(`protocols.${key} must be a boolean`, "protocols");
    out[key] = on;
  }
  return out;
}

/**
 * `cors`: `false` for none; every origin without credentials by default. Credentials need an
 * explicit list of origins (a reflected `*` or a predicate would hand any site the user's
 * cookies), and `"null"` (sandboxed frames, `file:`) is never an origin of that list.
 */
function readCors(cors) {
  if (cors === false) return null;
  if (cors === undefined) return { origins: "*", credentials: false, maxAge: 600 };
  if (cors === null || typeof cors !== "object") throw fail("cors must be an object or false", "cors");
  for (const key of Object.keys(cors)) {
    if (!["origins", "credentials", "maxAge"].includes(key)) throw fail(`unknown cors option ${JSON.stringify(key)}`, "cors");
  }
  const { origins = "*", credentials = false, maxAge = 600 } = cors;
  if (origins !== "*" && !Array.isArray(origins) && typeof origins !== "function") {
    throw fail('cors.origins must be "*", a list of origins or a function', "cors");
  }
  if (Array.isArray(origins) && !origins.every((o) => typeof o === "string")) throw fail("cors.origins must list strings", "cors");
  if (typeof credentials !== "boolean") throw fail("cors.credentials must be a boolean", "cors");
  if (credentials && (!Array.isArray(origins) || origins.some((o) => o === "*" || o === "null"))) {
    throw fail("cors.credentials needs cors.origins, an explicit list of origins (not \"*\", \"null\" or a function)", "cors");
  }
  if (!Number.isSafeInteger(maxAge) || maxAge < 0) throw fail("cors.maxAge must be an integer >= 0 (seconds)", "cors");
  return { origins: Array.isArray(origins) ? new Set(origins) : origins, credentials, maxAge };
}

/** `runs`: the store (or Durable Objects), abandonment, sessions and the caps on running runs. */
function readRuns(runs) {
  const out = {
    store: undefined, durableObject: undefined, cancelOnDisconnect: false, concurrentSessions: false,
    abandonAfterMs: DEFAULT_LIMITS.abandonAfterMs,
    keepaliveMs: DEFAULT_LIMITS.keepaliveMs,
    maxRunning: DEFAULT_LIMITS.maxRunning,
    maxRunningPerPrincipal: DEFAULT_LIMITS.maxRunningPerPrincipal,
    objectStore: {},
  };
  if (runs !== undefined) {
    if (runs === null || typeof runs !== "object") throw fail("runs must be an object", "runs");
    for (const key of Object.keys(runs)) {
      if (!RUN_KEYS.includes(key)) throw fail(`unknown runs option ${JSON.stringify(key)}`, "runs");
    }
    const { store, durableObject, abandonAfterMs, keepaliveMs, cancelOnDisconnect, concurrentSessions, maxRunning, maxRunningPerPrincipal } = runs;
    if (store !== undefined && (typeof store?.start !== "function" || typeof store?.read !== "function")) {
      throw fail("runs.store must be a RunStore (start, append, end, get, read, log, cancel, onCancel, running)", "runs");
    }
    if (durableObject !== undefined && typeof durableObject !== "function") {
      throw fail("runs.durableObject must be a function (env) => the Durable Object namespace of app.DurableObject", "runs");
    }
    if (durableObject && store) throw fail("runs.store and runs.durableObject exclude each other", "runs");
    for (const key of ["retentionMs", "maxEvents", "maxBytes"]) {
      if (runs[key] === undefined) continue;
      if (!durableObject) throw fail(`runs.${key} is an option of runs.durableObject (else of the store)`, "runs");
      out.objectStore[key] = runs[key];
    }
    if (abandonAfterMs !== undefined) {
      if (typeof abandonAfterMs !== "number" || !(abandonAfterMs >= 0)) throw fail("runs.abandonAfterMs must be a number >= 0 (0: never)", "runs");
      out.abandonAfterMs = abandonAfterMs;
    }
    if (keepaliveMs !== undefined) {
      // Below 10 ms a quiet stream would be mostly comments; above 2^31 - 1 a timer fires at once.
      if (keepaliveMs !== 0 && !(Number.isSafeInteger(keepaliveMs) && keepaliveMs >= 10 && keepaliveMs <= 2 ** 31 - 1)) {
        throw fail("runs.keepaliveMs must be 0 (never) or an integer from 10 to 2^31 - 1 (ms)", "runs");
      }
      out.keepaliveMs = keepaliveMs;
    }
    if (maxRunning !== undefined) out.maxRunning = positiveInteger(maxRunning, "runs.maxRunning", "runs");
    if (maxRunningPerPrincipal !== undefined) {
      out.maxRunningPerPrincipal = positiveInteger(maxRunningPerPrincipal, "runs.maxRunningPerPrincipal", "runs");
    }
    Object.assign(out, { store, durableObject, cancelOnDisconnect: cancelOnDisconnect === true, concurrentSessions: concurrentSessions === true });
  }
  out.store ??= new MemoryRunStore();
  return out;
}

/** AgentApp's options, checked, with their defaults. */
export function readOptions(options) {
  if (options === null || typeof options !== "object") throw fail("options must be an object");
  const o = {};
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) throw fail(`unknown option ${JSON.stringify(key)}`, key);
    o[key] = options[key];
  }
  if (typeof o.agent !== "function") throw fail("agent must be a function (request, rb, { signal }) => …", "agent");
  for (const key of ["name", "description", "version", "url", "documentationUrl", "iconUrl"]) {
    if (o[key] !== undefined && typeof o[key] !== "string") throw fail(`${key} must be a string`, key);
  }
  if (o.cardVersion !== undefined && !CARD_VERSIONS.includes(o.cardVersion)) {
    throw fail('cardVersion must be "both", "1.0" or "0.3"', "cardVersion");
  }
  if (o.listTasks !== undefined && !LIST_TASKS.includes(o.listTasks)) {
    throw fail('listTasks must be "authorized", "all" or false', "listTasks");
  }
  for (const key of ["authorize", "onError", "compact"]) {
    if (o[key] !== undefined && typeof o[key] !== "function") throw fail(`${key} must be a function`, key);
  }
  const runs = readRuns(o.runs);
  if (o.sessionHistory !== undefined && typeof o.sessionHistory !== "boolean") throw fail("sessionHistory must be a boolean", "sessionHistory");
  if (o.sessionHistory) {
    // A session's conversation is the line of its runs: one going at a time, each found from the store.
    if (runs.concurrentSessions) throw fail("sessionHistory needs one run per session (runs.concurrentSessions: false)", "sessionHistory");
    if (!runs.durableObject && typeof runs.store.lastRun !== "function") {
      throw fail("sessionHistory needs a store with lastRun(session) (MemoryRunStore, RedisRunStore, Durable Objects)", "sessionHistory");
    }
  }
  return {
    name: o.name ?? "agentwire agent",
    description: o.description ?? "",
    version: o.version ?? "1.0.0",
    agent: o.agent,
    card: { skills: o.skills, provider: o.provider, documentationUrl: o.documentationUrl, iconUrl: o.iconUrl, url: o.url },
    cardVersion: o.cardVersion ?? "both",
    listTasks: o.listTasks ?? "authorized",
    sessionHistory: o.sessionHistory === true,
    paths: readPaths(o.paths),
    protocols: readProtocols(o.protocols),
    cors: readCors(o.cors),
    maxBodyBytes: o.maxBodyBytes === undefined ? DEFAULT_LIMITS.maxBodyBytes : positiveInteger(o.maxBodyBytes, "maxBodyBytes", "maxBodyBytes"),
    runs,
    authorize: o.authorize,
    onError: o.onError,
    compact: o.compact,
  };
}
