// AgentApp: one agent served over every protocol from a fetch handler (Workers, Deno, Node).
// Request mapping, JSON-RPC and the agent card are the core's (parseRequest, responsesRequest,
// agUiRequest, a2aCall, a2aTask, a2aError, a2aAgentCard); this module routes requests, reads
// bodies within limits, answers errors as JSON, streams runs and keeps A2A tasks.
import { call } from "./instance.js";
import { agentwireError, concatBytes, textOf } from "./values.js";
import { ResponseBuilder } from "./builder.js";
import { StreamAssembler } from "./assembler.js";
import { a2aAgentCard, a2aCall, a2aError, a2aTask } from "./a2a.js";
import { MemoryRunStore, RunLog, splitEvents } from "./runs.js";
import { DurableObjectRunStore, SessionHolder, SESSION_PATH, STATUS_PATH } from "./durable.js";

const DEFAULT_PATHS = {
  process: "/process",
  responses: "/compatible-mode/v1/responses",
  agUi: "/ag-ui",
  a2a: "/a2a",
  agentCard: "/.well-known/agent-card.json",
  health: "/health",
  root: "/",
};
const PROTOCOLS = ["process", "responses", "agUi", "a2a"];
const OPTION_KEYS = ["name", "description", "version", "agent", "skills", "provider", "documentationUrl",
  "iconUrl", "url", "paths", "protocols", "cors", "maxBodyBytes", "authorize", "onError", "runs"];
const RUN_KEYS = ["store", "abandonAfterMs", "cancelOnDisconnect", "concurrentSessions", "durableObject", "retentionMs", "maxEvents", "maxBytes"];
/** The header a front instance tells a run's object the run's id and owner with. */
const INTERNAL_HEADER = "x-agentwire-internal";
/** Makes an AgentApp the one inside a run's Durable Object (only `app.DurableObject` has it). */
const INSIDE_OBJECT = Symbol("agentwire: inside a Durable Object");
const SSE = "text/event-stream; charset=utf-8";
const JSON_TYPE = "application/json";
const MiB = 1024 * 1024;

/** An error answer: `{"error": {"code", "message", "field"?}}`, its status from the code. */
class HttpError extends Error {
  constructor(code, message, field, headers) {
    super(message);
    this.code = code;
    this.field = field;
    this.headers = headers;
  }
}

function json(body, status = 200, headers = {}) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...headers } });
}

/** The answer to an HttpError: status and body as the core writes them (src/app.rs). */
function errorResponse(e) {
  const [status, body] = call("httpError", e.code, e.message, e.field);
  return new Response(body, { status, headers: { "content-type": JSON_TYPE, ...e.headers } });
}

function fail(what, field) {
  return agentwireError("INVALID_OPTION", `AgentApp: ${what}`, field);
}

function readOptions(options) {
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
  for (const key of ["authorize", "onError"]) {
    if (o[key] !== undefined && typeof o[key] !== "function") throw fail(`${key} must be a function`, key);
  }
  const paths = { ...DEFAULT_PATHS };
  if (o.paths !== undefined) {
    if (o.paths === null || typeof o.paths !== "object") throw fail("paths must be an object", "paths");
    for (const [key, path] of Object.entries(o.paths)) {
      if (!(key in DEFAULT_PATHS)) throw fail(`unknown path ${JSON.stringify(key)}`, "paths");
      if (typeof path !== "string" || !path.startsWith("/")) throw fail(`paths.${key} must start with "/"`, "paths");
      paths[key] = path;
    }
  }
  const protocols = Object.fromEntries(PROTOCOLS.map((p) => [p, true]));
  if (o.protocols !== undefined) {
    if (o.protocols === null || typeof o.protocols !== "object") throw fail("protocols must be an object", "protocols");
    for (const [key, on] of Object.entries(o.protocols)) {
      if (!PROTOCOLS.includes(key)) throw fail(`unknown protocol ${JSON.stringify(key)}`, "protocols");
      if (typeof on !== "boolean") throw fail(`protocols.${key} must be a boolean`, "protocols");
      protocols[key] = on;
    }
  }
  let cors = { origins: "*", credentials: false, maxAge: 600 };
  if (o.cors === false) cors = null;
  else if (o.cors !== undefined) {
    if (o.cors === null || typeof o.cors !== "object") throw fail("cors must be an object or false", "cors");
    const { origins = "*", credentials = false, maxAge = 600 } = o.cors;
    if (origins !== "*" && !Array.isArray(origins) && typeof origins !== "function") {
      throw fail('cors.origins must be "*", a list of origins or a function', "cors");
    }
    cors = { origins, credentials: credentials === true, maxAge: Number(maxAge) || 0 };
  }
  const maxBodyBytes = o.maxBodyBytes ?? MiB;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) throw fail("maxBodyBytes must be a positive integer", "maxBodyBytes");
  const runs = { store: undefined, abandonAfterMs: 60_000, cancelOnDisconnect: false, concurrentSessions: false, durableObject: undefined };
  if (o.runs !== undefined) {
    if (o.runs === null || typeof o.runs !== "object") throw fail("runs must be an object", "runs");
    for (const key of Object.keys(o.runs)) {
      if (!RUN_KEYS.includes(key)) throw fail(`unknown runs option ${JSON.stringify(key)}`, "runs");
    }
    Object.assign(runs, o.runs);
    if (runs.store !== undefined && (typeof runs.store?.start !== "function" || typeof runs.store?.read !== "function")) {
      throw fail("runs.store must be a RunStore (start, append, end, get, read, log, cancel, onCancel, running)", "runs");
    }
    if (typeof runs.abandonAfterMs !== "number" || !(runs.abandonAfterMs >= 0)) throw fail("runs.abandonAfterMs must be a number >= 0 (0: never)", "runs");
    runs.cancelOnDisconnect = runs.cancelOnDisconnect === true;
    runs.concurrentSessions = runs.concurrentSessions === true;
    if (runs.durableObject !== undefined && typeof runs.durableObject !== "function") {
      throw fail("runs.durableObject must be a function (env) => the Durable Object namespace of app.DurableObject", "runs");
    }
    if (runs.durableObject && runs.store) throw fail("runs.store and runs.durableObject exclude each other", "runs");
    for (const key of ["retentionMs", "maxEvents", "maxBytes"]) {
      if (runs[key] !== undefined && !runs.durableObject) throw fail(`runs.${key} is an option of runs.durableObject (else of the store)`, "runs");
    }
  }
  runs.store ??= new MemoryRunStore();
  return {
    name: o.name ?? "agentwire agent",
    description: o.description ?? "",
    version: o.version ?? "1.0.0",
    agent: o.agent,
    card: { skills: o.skills, provider: o.provider, documentationUrl: o.documentationUrl, iconUrl: o.iconUrl, url: o.url },
    paths, protocols, cors, maxBodyBytes, runs,
    authorize: o.authorize,
    onError: o.onError,
  };
}

/** Whether a `Content-Type` names JSON (absent is accepted, as FastAPI reads any body). */
function isJson(contentType) {
  if (contentType === null) return true;
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type === "" || type === "application/json" || type.endsWith("+json") || type === "text/plain";
}

/** The body as bytes, refused with 413 past `limit` (read as it arrives: no more is buffered). */
async function readBody(request, limit) {
  const length = request.headers.get("content-length");
  if (length !== null && Number(length) > limit) {
    throw new HttpError("BODY_TOO_LARGE", `The request body is over ${limit} bytes.`);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new HttpError("BODY_TOO_LARGE", `The request body is over ${limit} bytes.`);
    }
    parts.push(value);
  }
  return concatBytes(parts);
}

/** A 400 for an AgentwireError from a request mapping (its code and field). */
function badRequest(error) {
  if (error?.name !== "AgentwireError") throw error;
  return new HttpError(error.code, error.message, error.field);
}

function randomId(prefix) {
  return `${prefix}${crypto.randomUUID()}`;
}

/** An async iterable of byte chunks as a ReadableStream; cancelling it ends the iteration. */
function streamOf(iterable, onCancel) {
  const iterator = iterable[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(c) {
      try {
        const { done, value } = await iterator.next();
        if (done) c.close();
        else c.enqueue(value);
      } catch (e) {
        c.error(e);
      }
    },
    async cancel() {
      onCancel?.();
      await iterator.return?.();
    },
  });
}

/** The cursor a resuming reader sends: `Last-Event-ID`, else `?starting_after=N`; -1 for none. */
function cursorOf(request, url) {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("starting_after");
  if (raw === null || raw === "") return -1;
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError("INVALID_REQUEST", "The cursor (Last-Event-ID or starting_after) must be an event id.", "starting_after");
  return Number(raw);
}

/** A run's owner as stored: what `authorize` returned, as JSON text (null without authorize). */
/**
 * The store key of run (or session) `id` as `principal` names it: the id itself without
 * `authorize`, else the owner's and the id together, so that principals never meet in a store
 * (an id or session of someone else's is as unknown as one nobody used).
 */
function scoped(principal, id) {
  const owner = ownerOf(principal);
  return owner === null || id === null ? id : `${owner.length}:${owner}${id}`;
}

/** The run id of a path segment (percent-decoded), or `null` when empty or badly escaped. */
function runIdOfPath(segment) {
  if (segment === "") return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** An owner as a front instance passed it to a run's object (already `ownerOf`'s text). */
class OwnerText {
  constructor(text) {
    this.text = text;
  }
}

function ownerOf(principal) {
  if (principal instanceof OwnerText) return principal.text;
  if (principal === undefined || principal === null) return null;
  try {
    return JSON.stringify(principal) ?? String(principal);
  } catch {
    return String(principal);
  }
}

/** Replaces the JSON-RPC id of A2A stream events (a subscriber's request has its own). */
function withRpcId(bytes, from, to) {
  if (from === to) return bytes;
  const text = new TextDecoder().decode(bytes).replaceAll(`{"jsonrpc":"2.0","id":${from},`, `{"jsonrpc":"2.0","id":${to},`);
  return new TextEncoder().encode(text);
}

const SSE_HEADERS = { "content-type": SSE, "cache-control": "no-cache" };

/**
 * One agent served over the Agent API (`POST /process`), OpenAI Responses
 * (`POST /compatible-mode/v1/responses`), AG-UI (`POST /ag-ui`) and A2A 1.0 and 0.3
 * (`POST /a2a`, the card at `/.well-known/agent-card.json`), with `GET /health` and `GET /`.
 * Every run is durable: its events are logged with their cursor (`id: N`) in a run store, a
 * client that lost the connection resumes (`GET <route>/<id>` with `Last-Event-ID`), and a run
 * is stopped by its cancel route or A2A `CancelTask`, not by a disconnect.
 * `app.fetch` is a fetch handler (bound): `export default { fetch: app.fetch }` on Workers,
 * `Deno.serve(app.fetch)`, `createServer(app.nodeListener)` on Node.
 */
export class AgentApp {
  #o;
  #routes = new Map();
  #runRoutes = [];
  #live = new Map();
  #sweeper = null;
  #options;
  #inside;
  #objectClass = null;

  constructor(options, inside = undefined) {
    this.#o = readOptions(options);
    this.#options = options;
    this.#inside = inside === INSIDE_OBJECT;
    const { paths, protocols } = this.#o;
    const add = (path, method, handler) => {
      const route = this.#routes.get(path) ?? new Map();
      route.set(method, handler);
      this.#routes.set(path, route);
    };
    const runRoutes = (base, protocol) => {
      this.#runRoutes.push({ base, protocol });
    };
    if (protocols.process) {
      add(paths.process, "POST", (r, c) => this.#process(r, c));
      runRoutes(paths.process, "agent-api");
    }
    if (protocols.responses) {
      add(paths.responses, "POST", (r, c) => this.#responses(r, c));
      runRoutes(paths.responses, "openai-responses");
    }
    if (protocols.agUi) {
      add(paths.agUi, "POST", (r, c) => this.#agUi(r, c));
      runRoutes(paths.agUi, "ag-ui");
    }
    if (protocols.a2a) {
      add(paths.a2a, "POST", (r, c) => this.#a2a(r, c));
      add(paths.agentCard, "GET", (r) => this.#card(r));
    }
    add(paths.health, "GET", () => json({ status: "healthy", mode: "fetch", runner: "ready" }));
    add(paths.root, "GET", () => json(this.#info()));
    /** The fetch handler, bound to this app. */
    this.fetch = this.fetch.bind(this);
    /** A `node:http` request listener: `createServer(app.nodeListener)`. */
    this.nodeListener = (req, res) => nodeListen(this.fetch, req, res, this.#o.onError);
  }

  /** The run store (the `runs.store` option, or the in-memory one). */
  get runStore() {
    return this.#o.runs.store;
  }

  /**
   * Adds a route (a custom adapter): `handler(request, context)` answers `method` requests to
   * `path` with a `Response`; `context` holds `principal` (what `authorize` returned) and
   * `app`. CORS, `authorize`, 404/405 and error answers apply to it as to the built-in routes.
   */
  addEndpoint({ method, path, handler } = {}) {
    if (typeof method !== "string" || !/^[A-Z]+$/.test(method)) throw fail("addEndpoint: method must be an HTTP method in capitals", "method");
    if (typeof path !== "string" || !path.startsWith("/")) throw fail('addEndpoint: path must start with "/"', "path");
    if (typeof handler !== "function") throw fail("addEndpoint: handler must be a function", "handler");
    const route = this.#routes.get(path) ?? new Map();
    route.set(method, (request, context) => handler(request, context));
    this.#routes.set(path, route);
    return this;
  }

  /**
   * Stops every run this instance is running (their agents' `signal` aborts and each ends
   * canceled), and waits for them to end: call it on shutdown.
   */
  async close() {
    const live = [...this.#live.values()];
    for (const run of live) run.stop();
    await Promise.all(live.map((run) => run.done));
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = null;
  }

  /**
   * The Durable Object class of this app's runs (with `runs.durableObject`): export it under
   * the class name the binding names (`export class AgentRuns extends app.DurableObject {}`).
   * Each run lives in an object named by its id, which runs the agent, logs the run in its
   * storage and answers its resume and cancel routes; `app.fetch` routes requests there.
   */
  get DurableObject() {
    if (this.#objectClass) return this.#objectClass;
    const options = this.#options;
    const { durableObject, retentionMs, maxEvents, maxBytes } = this.#o.runs;
    if (!durableObject) throw fail("app.DurableObject needs the runs.durableObject option", "runs");
    const storeOptions = Object.fromEntries(Object.entries({ retentionMs, maxEvents, maxBytes }).filter(([, v]) => v !== undefined));
    this.#objectClass = class AgentRunsObject {
      #state;
      #env;
      #app = null;
      #store = null;
      #session = null;

      constructor(state, env) {
        this.#state = state;
        this.#env = env;
      }

      #runs() {
        if (!this.#app) {
          const namespace = durableObject(this.#env);
          this.#store = new DurableObjectRunStore(this.#state.storage, { namespace, ...storeOptions });
          const { durableObject: _d, retentionMs: _r, maxEvents: _e, maxBytes: _b, ...runs } = options.runs ?? {};
          this.#app = new AgentApp({ ...options, runs: { ...runs, store: this.#store } }, INSIDE_OBJECT);
        }
        return this.#app;
      }

      /** Requests from the app's `fetch` (a run's routes) and from other objects of the app. */
      async fetch(request) {
        const { pathname, searchParams } = new URL(request.url);
        if (pathname === SESSION_PATH) {
          this.#session ??= new SessionHolder(this.#state.storage, durableObject(this.#env));
          return this.#session.fetch(request);
        }
        const app = this.#runs();
        if (pathname === STATUS_PATH) {
          const run = await this.#store.get(searchParams.get("id") ?? "");
          return Response.json({ status: run?.status ?? null });
        }
        return app.fetch(request, this.#env, { waitUntil: (p) => this.#state.waitUntil?.(p) });
      }

      /** Deletes the runs past retention. */
      async alarm() {
        this.#runs();
        await this.#store.expire();
      }
    };
    return this.#objectClass;
  }

  /** Answers one HTTP request. Never rejects: every failure is an answer. */
  async fetch(request, env, ctx) {
    let response;
    try {
      response = await this.#handle(request, env, ctx);
    } catch (e) {
      if (e instanceof HttpError) response = errorResponse(e);
      else {
        this.#report(e, request);
        response = errorResponse(new HttpError("INTERNAL_ERROR", "The server failed to answer."));
      }
    }
    return this.#withCors(request, response);
  }

  /** The handler of a request: a fixed route, or a run's resume/cancel route. */
  #route(url) {
    const fixed = this.#routes.get(url.pathname);
    if (fixed) return fixed;
    for (const { base, protocol } of this.#runRoutes) {
      if (!url.pathname.startsWith(`${base}/`)) continue;
      const rest = url.pathname.slice(base.length + 1).split("/");
      const id = runIdOfPath(rest[0]);
      if (id === null) continue;
      if (rest.length === 1) return new Map([["GET", (r, c) => this.#resume(r, c, protocol, id)]]);
      if (rest.length === 2 && rest[1] === "cancel") return new Map([["POST", (r, c) => this.#cancelRoute(r, c, protocol, id)]]);
    }
    return undefined;
  }

  async #handle(request, env, ctx) {
    const url = new URL(request.url);
    if (this.#inside) {
      // A request a front instance forwarded: it authorized it and chose the run's id.
      const internal = JSON.parse(request.headers.get(INTERNAL_HEADER) ?? "{}");
      const route = this.#route(url);
      const handler = route?.get(request.method) ?? (request.method === "HEAD" ? route?.get("GET") : undefined);
      if (!handler) throw new HttpError("NOT_FOUND", `No route ${url.pathname}.`);
      return handler(request, { principal: new OwnerText(internal.owner ?? null), app: this, ctx, url, runId: internal.runId });
    }
    const route = this.#route(url);
    if (!route) throw new HttpError("NOT_FOUND", `No route ${url.pathname}.`);
    const allow = [...route.keys(), "OPTIONS"].join(", ");
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow } });
    const handler = route.get(request.method) ?? (request.method === "HEAD" ? route.get("GET") : undefined);
    if (!handler) {
      throw new HttpError("METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${url.pathname}.`, undefined, { allow });
    }
    let principal;
    if (this.#o.authorize && url.pathname !== this.#o.paths.health) {
      try {
        principal = await this.#o.authorize(request);
      } catch (e) {
        this.#report(e, request);
        principal = false;
      }
      if (!principal) throw new HttpError("UNAUTHORIZED", "The request is not authorized.");
    }
    if (this.#o.runs.durableObject && request.method !== "OPTIONS") {
      const forwarded = await this.#toObject(request, url, principal, env, ctx);
      if (forwarded) return forwarded;
    }
    return handler(request, { principal, app: this, ctx, url });
  }

  /**
   * With `runs.durableObject`: sends a run's request to the run's object (named by its id): a
   * run's start (its id chosen here), resume, cancel and A2A task calls. Answers the rest here
   * (`null`).
   */
  async #toObject(request, url, principal, env, ctx) {
    const { paths } = this.#o;
    let id = null;
    let body;
    const run = this.#runRoutes.find(({ base }) => url.pathname.startsWith(`${base}/`));
    if (run) {
      id = runIdOfPath(url.pathname.slice(run.base.length + 1).split("/")[0]);
      if (id === null) return null;
    } else if (request.method === "POST" && [paths.process, paths.responses, paths.agUi, paths.a2a].includes(url.pathname)) {
      body = await this.#body(request);
      id = this.#runIdOf(url.pathname, body, request);
      if (id === null) {
        // Answered here (a bad request, an A2A call on no task): from the bytes read.
        const again = new Request(request.url, { method: "POST", headers: request.headers, body });
        return this.#route(url).get("POST")(again, { principal, app: this, ctx, url });
      }
    } else {
      return null;
    }
    const namespace = this.#o.runs.durableObject(env);
    const headers = new Headers(request.headers);
    headers.set(INTERNAL_HEADER, JSON.stringify({ runId: id, owner: ownerOf(principal) }));
    // The object is named by the run's store key (the caller's own: see `scoped`).
    return namespace.get(namespace.idFromName(scoped(principal, id))).fetch(request.url, { method: request.method, headers, body });
  }

  /** The id of the run a start request makes (the client's, or a new one); `null` if none. */
  #runIdOf(pathname, bytes, request) {
    const { paths } = this.#o;
    try {
      if (pathname === paths.process) return call("parseRequest", textOf(bytes, "parseRequest")).id ?? randomId("response_");
      if (pathname === paths.agUi) return call("agUiRequest", textOf(bytes, "agUiRequest")).id ?? randomId("run_");
      if (pathname === paths.responses) return randomId("resp_");
    } catch {
      return null;
    }
    const { call: rpc } = a2aCall(bytes, request.headers.get("a2a-version"));
    if (!rpc) return null;
    if (rpc.method === "SendMessage" || rpc.method === "SendStreamingMessage") return rpc.request.id ?? randomId("task_");
    if (["GetTask", "CancelTask", "SubscribeToTask"].includes(rpc.method)) return rpc.taskId;
    return null;
  }

  #withCors(request, response) {
    const cors = this.#o.cors;
    const origin = request.headers.get("origin");
    if (!cors || origin === null) return response;
    const allowed = cors.origins === "*" || (Array.isArray(cors.origins) ? cors.origins.includes(origin) : safeCall(cors.origins, origin));
    if (!allowed) return response;
    const headers = new Headers(response.headers);
    headers.set("access-control-allow-origin", cors.origins === "*" && !cors.credentials ? "*" : origin);
    if (cors.origins !== "*" || cors.credentials) headers.append("vary", "Origin");
    if (cors.credentials) headers.set("access-control-allow-credentials", "true");
    if (request.method === "OPTIONS") {
      headers.set("access-control-allow-methods", headers.get("allow") ?? "GET, POST, OPTIONS");
      headers.set("access-control-allow-headers", request.headers.get("access-control-request-headers") ?? "content-type, authorization, a2a-version, last-event-id");
      headers.set("access-control-max-age", String(cors.maxAge));
    } else {
      headers.set("access-control-expose-headers", "content-type, x-agentwire-run-id");
    }
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }

  #report(error, request, context) {
    const onError = this.#o.onError;
    if (!onError) return;
    try {
      onError(error, { request, ...context });
    } catch {
      // A failing error reporter must not take the answer down with it.
    }
  }

  /** The body of a POST mapped to an AgentRequest by the core's `mapping` (400 naming the field). */
  async #agentRequest(request, mapping) {
    const bytes = await this.#body(request);
    try {
      return call(mapping, textOf(bytes, mapping));
    } catch (e) {
      throw badRequest(e);
    }
  }

  /** The JSON body of a POST, checked for size and type. */
  async #body(request) {
    if (!isJson(request.headers.get("content-type"))) {
      throw new HttpError("UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON (Content-Type: application/json).");
    }
    return readBody(request, this.#o.maxBodyBytes);
  }

  /**
   * Starts a durable run: registers it (one running run per session unless allowed), runs the
   * agent into a builder stream of `protocol` with event ids, and logs every event. The agent's
   * `signal` aborts on cancel, abandonment and `close()`, not on a disconnect. Returns its id.
   */
  async #startRun(request, { id: visibleId, protocol, session, principal, agentRequest, builderOptions, meta }, ctx) {
    const o = this.#o;
    const store = o.runs.store;
    const id = scoped(principal, visibleId);
    try {
      // The builder's options go with the run: any instance can then write its terminal event
      // should the instance running it go away (RUN_LOST).
      await store.start({
        id, protocol, session: scoped(principal, session ?? null), principal: ownerOf(principal), exclusive: !o.runs.concurrentSessions,
        meta: { ...meta, builder: builderOptions },
      });
    } catch (e) {
      if (e?.code === "SESSION_BUSY") {
        // Neither the other run's id nor whose it is: only that this caller must wait.
        throw new HttpError("SESSION_BUSY", session == null ? `A run ${visibleId} exists already.` : `Session ${session} has a run going.`);
      }
      throw e;
    }
    const report = (error) => this.#report(error, request, { agentRequest });
    const stopper = new AbortController();
    let rb;
    const stop = () => {
      stopper.abort();
      try {
        if (rb && !rb.finished) rb.canceled();
      } catch {
        // The run ended meanwhile.
      }
    };
    store.onCancel(id, stop);
    const stream = ResponseBuilder.stream(async (builder) => {
      rb = builder;
      await o.agent(agentRequest, builder, { signal: stopper.signal });
    }, { ...builderOptions, eventIds: true, onError: report });
    const done = (async () => {
      const reader = stream.getReader();
      const log = new RunLog(store, id);
      let held = true;
      let status = "ended";
      try {
        for (;;) {
          const { done: end, value } = await reader.read();
          if (end) break;
          await log.add(value);
          if (log.failure) break;
          // Canceled while the agent ignores its signal: the log is complete.
          if (rb?.finished && stopper.signal.aborted) {
            reader.cancel().catch(() => {});
            break;
          }
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
      } finally {
        try {
          if (held) await store.end(id, status);
        } catch (e) {
          report(e);
        }
        this.#live.delete(id);
      }
    })();
    this.#live.set(id, { stop, done, waiting: 0 });
    ctx?.waitUntil?.(done);
    this.#watch();
    return { id, done };
  }

  /** Cancels, every few seconds, the runs of this instance nobody has read for `abandonAfterMs`. */
  #watch() {
    const { abandonAfterMs } = this.#o.runs;
    if (this.#sweeper || !(abandonAfterMs > 0) || typeof setInterval !== "function") return;
    this.#sweeper = setInterval(async () => {
      if (this.#live.size === 0) {
        clearInterval(this.#sweeper);
        this.#sweeper = null;
        return;
      }
      const now = Date.now();
      let running;
      try {
        running = await this.#o.runs.store.running();
      } catch (e) {
        this.#report(e, undefined, { during: "abandonment check" });
        return; // the store is unreachable: try again at the next tick
      }
      for (const run of running) {
        const live = this.#live.get(run.id);
        // A client waiting for a run's end (a non-streamed answer) reads it too.
        if (live && live.waiting === 0 && run.readers === 0 && now - run.lastRead > abandonAfterMs) live.stop();
      }
    }, Math.max(50, Math.min(1000, abandonAfterMs / 4)));
    this.#sweeper.unref?.();
  }

  /**
   * The stream a reader of run `id` gets from cursor `after`, ending with a `RUN_LOST` failure
   * when the instance running it went away; its disconnect stops the run only with
   * `cancelOnDisconnect`.
   */
  async #reader(id, after, rewrite) {
    const store = this.#o.runs.store;
    // Aborted when the reader goes away: a read waiting for the next event stops at once.
    const gone = new AbortController();
    let iterable;
    try {
      iterable = await store.read(id, after, gone.signal);
    } catch (e) {
      if (e?.code === "RUN_GONE") throw new HttpError("RUN_GONE", e.message);
      if (e?.code === "NOT_FOUND") throw new HttpError("NOT_FOUND", e.message);
      throw e;
    }
    iterable = this.#untilLost(id, after, iterable);
    if (rewrite) iterable = mapChunks(iterable, rewrite);
    const cancelOnDisconnect = this.#o.runs.cancelOnDisconnect;
    return streamOf(iterable, () => {
      gone.abort();
      if (cancelOnDisconnect) store.cancel(id).catch((e) => this.#report(e, undefined, { during: "cancel on disconnect" }));
    });
  }

  /**
   * `iterable`, then, if it throws `RUN_LOST`, the run's terminal failure event (unless the
   * reader's cursor `after` is past it already).
   */
  async *#untilLost(id, after, iterable) {
    try {
      yield* iterable;
    } catch (e) {
      if (e?.code !== "RUN_LOST") throw e;
      const run = await this.#o.runs.store.get(id);
      if (!run) throw e;
      const next = e.next ?? run.next;
      if (after < next) yield await this.#lostEvent({ ...run, next });
    }
  }

  /**
   * The terminal event of a run whose instance went away: the failure (code `RUN_LOST`) its
   * own builder writes, numbered after the last logged event. A Responses failure carries the
   * response so far, as `response.failed` does.
   */
  async #lostEvent(run, log = undefined) {
    const rb = new ResponseBuilder({ ...(run.meta?.builder ?? { protocol: run.protocol }), eventIds: true });
    let written;
    try {
      written = rb.failed({ code: "RUN_LOST", message: "The instance running this run went away before it ended." });
    } finally {
      rb.free();
    }
    const events = splitEvents(written, new Uint8Array(0)).events;
    const lines = new TextDecoder().decode(events[events.length - 1].bytes).split("\n");
    let out = `id: ${run.next}\n`;
    for (const line of lines.slice(1)) {
      if (!line.startsWith("data: ")) {
        if (line) out += `${line}\n`;
        continue;
      }
      const data = JSON.parse(line.slice(6));
      if (typeof data.sequence_number === "number") data.sequence_number = run.next;
      if (data.type === "response.failed") {
        const soFar = this.#responseOf(log ?? await this.#o.runs.store.log(run.id));
        data.response = { ...data.response, output: soFar.output ?? [], usage: soFar.usage ?? null };
      }
      out += `data: ${JSON.stringify(data)}\n`;
    }
    return new TextEncoder().encode(`${out}\n`);
  }

  /** Run `id`'s log, with its `RUN_LOST` terminal event when its instance went away. */
  async #wholeLog(id) {
    const store = this.#o.runs.store;
    const log = await store.log(id);
    const run = await store.get(id);
    return run?.status === "lost" ? concatBytes([log, await this.#lostEvent(run, log)]) : log;
  }

  /**
   * Run `id` as the caller may see it (404 for anyone but its owner, so existence does not
   * leak), with `key`, its store key.
   */
  async #ownRun(id, principal, protocol) {
    const key = scoped(principal, id);
    const run = await this.#o.runs.store.get(key);
    if (!run || run.principal !== ownerOf(principal) || (protocol && run.protocol !== protocol)) {
      throw new HttpError("NOT_FOUND", `No run ${id}.`);
    }
    return { ...run, key };
  }

  /** `GET <route>/<id>`: resume after `Last-Event-ID` / `starting_after`; Responses: the response so far. */
  async #resume(request, { principal, url }, protocol, id) {
    const run = await this.#ownRun(id, principal, protocol);
    if (run.gone) throw new HttpError("RUN_GONE", `Run ${id} is no longer kept.`);
    // Responses: the response object, unless a stream is asked for (`?stream=true`, as OpenAI's
    // API has it, or a `Last-Event-ID` / `Accept: text/event-stream` of an SSE client).
    const wantsStream = url.searchParams.get("stream") === "true" || request.headers.has("last-event-id")
      || (request.headers.get("accept") ?? "").includes("text/event-stream");
    if (protocol === "openai-responses" && !wantsStream) {
      return json(await this.#responseSoFar(run.key));
    }
    const after = cursorOf(request, url);
    return new Response(await this.#reader(run.key, after), { headers: { ...SSE_HEADERS, "x-agentwire-run-id": id } });
  }

  /** The OpenAI Responses `response` object of run `id` as its log stands. */
  async #responseSoFar(id) {
    return this.#responseOf(await this.#wholeLog(id));
  }

  /** The OpenAI Responses `response` object a Responses log makes. */
  #responseOf(log) {
    const asm = new StreamAssembler({ protocol: "openai-responses" });
    try {
      asm.push(log);
      const { outcome: _outcome, warnings: _warnings, ...response } = asm.snapshot();
      return response;
    } finally {
      asm.free();
    }
  }

  /** `POST <route>/<id>/cancel`: stops the run (wherever it runs), answers once it ended. */
  async #cancelRoute(request, { principal }, protocol, id) {
    const store = this.#o.runs.store;
    const { key } = await this.#ownRun(id, principal, protocol);
    await store.cancel(key);
    await this.#ended(key);
    if (protocol === "openai-responses") return json(await this.#responseSoFar(key));
    const run = await store.get(key);
    return json({ id, status: run?.status ?? "ended" });
  }

  /** Resolves when run `id` has ended (its log holds the terminal event). */
  async #ended(id) {
    const live = this.#live.get(id);
    if (live) {
      live.waiting++;
      try {
        return await live.done;
      } finally {
        live.waiting--;
      }
    }
    // Run elsewhere: follow its log to the end.
    try {
      for await (const _ of await this.#o.runs.store.read(id, Number.MAX_SAFE_INTEGER - 1)) {
        // Nothing to do with the events: only the end matters.
      }
    } catch {
      // Gone or unknown: nothing to wait for.
    }
  }

  async #process(request, { principal, ctx, runId }) {
    const agentRequest = await this.#agentRequest(request, "parseRequest");
    const id = runId ?? agentRequest.id ?? randomId("response_");
    agentRequest.id = id;
    const { id: key } = await this.#startRun(request, {
      id, protocol: "agent-api", session: agentRequest.session_id, principal, agentRequest,
      builderOptions: { protocol: "agent-api", sessionId: agentRequest.session_id ?? undefined, responseId: id },
    }, ctx);
    return new Response(await this.#reader(key, -1), { headers: { ...SSE_HEADERS, "x-agentwire-run-id": id } });
  }

  async #responses(request, { principal, ctx, runId }) {
    const agentRequest = await this.#agentRequest(request, "responsesRequest");
    const id = runId ?? randomId("resp_");
    const { id: key } = await this.#startRun(request, {
      id, protocol: "openai-responses", session: agentRequest.session_id, principal, agentRequest,
      builderOptions: {
        protocol: "openai-responses",
        sessionId: agentRequest.session_id ?? undefined,
        responseId: id,
        model: typeof agentRequest.model === "string" ? agentRequest.model : undefined,
      },
    }, ctx);
    if (agentRequest.stream) {
      return new Response(await this.#reader(key, -1), { headers: { ...SSE_HEADERS, "x-agentwire-run-id": id } });
    }
    // OpenAI's default: the Response object, as `response.completed` (or failed) carries it.
    await this.#ended(key);
    return json(await this.#responseSoFar(key));
  }

  async #agUi(request, { principal, ctx, runId }) {
    const agentRequest = await this.#agentRequest(request, "agUiRequest");
    const id = runId ?? agentRequest.id ?? randomId("run_");
    agentRequest.id = id;
    const { id: key } = await this.#startRun(request, {
      id, protocol: "ag-ui", session: agentRequest.session_id, principal, agentRequest,
      builderOptions: {
        protocol: "ag-ui",
        threadId: agentRequest.session_id ?? undefined,
        runId: id,
        sessionId: agentRequest.session_id ?? undefined,
        responseId: id,
      },
    }, ctx);
    return new Response(await this.#reader(key, -1), { headers: { ...SSE_HEADERS, "x-agentwire-run-id": id } });
  }

  #card(request) {
    const { name, description, version, card } = this.#o;
    const url = card.url ?? `${new URL(request.url).origin}${this.#o.paths.a2a}`;
    const description_ = { name, description, version, url };
    for (const key of ["skills", "provider", "documentationUrl", "iconUrl"]) {
      if (card[key] !== undefined) description_[key] = card[key];
    }
    return json(a2aAgentCard(description_, { version: "both" }));
  }

  #info() {
    const { name, paths, protocols } = this.#o;
    const endpoints = { health: paths.health };
    if (protocols.process) endpoints.process = paths.process;
    if (protocols.responses) endpoints.responses = paths.responses;
    if (protocols.agUi) endpoints.ag_ui = paths.agUi;
    if (protocols.a2a) {
      endpoints.a2a = paths.a2a;
      endpoints.agent_card = paths.agentCard;
    }
    return { service: name, mode: "fetch", endpoints };
  }

  async #a2a(request, { principal, ctx, runId }) {
    const bytes = await this.#body(request);
    const { call: rpc, error } = a2aCall(bytes, request.headers.get("a2a-version"));
    if (error) return json(error);
    const errorOf = (reason, message) => json(a2aError(reason, message, { id: rpc.id, version: rpc.version }));
    const answer = (result) => json({ jsonrpc: "2.0", id: rpc.id, result });
    const protocol = rpc.version === "1.0" ? "a2a" : "a2a-0.3";
    // The task's store key (tasks are the caller's own: see `scoped`).
    const key = scoped(principal, rpc.taskId ?? null);
    const task = async () => {
      const run = await this.#o.runs.store.get(key);
      if (!run || run.principal !== ownerOf(principal) || run.protocol !== protocol || run.gone) return null;
      return run;
    };
    switch (rpc.method) {
      case "SendMessage":
      case "SendStreamingMessage":
        return this.#a2aSend(request, rpc, principal, answer, ctx, runId);
      case "GetTask": {
        if (!(await task())) return errorOf("TASK_NOT_FOUND", `No task ${rpc.taskId}.`);
        return answer(a2aTask(await this.#wholeLog(key), { version: rpc.version, historyLength: rpc.historyLength ?? undefined }).task);
      }
      case "CancelTask": {
        const run = await task();
        if (!run) return errorOf("TASK_NOT_FOUND", `No task ${rpc.taskId}.`);
        if (run.status !== "running") return errorOf("TASK_NOT_CANCELABLE", `Task ${rpc.taskId} has ended.`);
        await this.#o.runs.store.cancel(key);
        await this.#ended(key);
        return answer(a2aTask(await this.#wholeLog(key), { version: rpc.version }).task);
      }
      case "SubscribeToTask": {
        const run = await task();
        if (!run) return errorOf("TASK_NOT_FOUND", `No task ${rpc.taskId}.`);
        const from = JSON.stringify(run.meta.rpcId ?? null);
        const rewrite = (chunk) => withRpcId(chunk, from, JSON.stringify(rpc.id));
        const headers = { ...SSE_HEADERS, "x-agentwire-run-id": rpc.taskId };
        if (request.headers.has("last-event-id")) {
          // agentwire's extension: a reader that has events (with their `id:`) resumes after the
          // last one it applied, without the task first, ended or not.
          return new Response(await this.#reader(key, cursorOf(request, new URL(request.url)), rewrite), { headers });
        }
        if (run.status !== "running") return errorOf("UNSUPPORTED_OPERATION", `Task ${rpc.taskId} has ended.`);
        // The task as it stands first (the specification requires it), then what follows.
        const log = await this.#o.runs.store.log(key);
        const logged = splitEvents(log, new Uint8Array(0)).events;
        const cursor = logged.length ? logged[logged.length - 1].id : -1;
        const folded = a2aTask(log, { version: rpc.version }).task;
        const first = rpc.version === "1.0" ? { task: folded } : folded;
        const head = new TextEncoder().encode(`data: ${JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result: first })}\n\n`);
        const rest = await this.#reader(key, cursor, rewrite);
        return new Response(prepend(head, rest), { headers });
      }
      case "CreateTaskPushNotificationConfig":
      case "GetTaskPushNotificationConfig":
      case "ListTaskPushNotificationConfigs":
      case "DeleteTaskPushNotificationConfig":
        return errorOf("PUSH_NOTIFICATION_NOT_SUPPORTED", "Push notifications are not supported.");
      case "GetExtendedAgentCard":
        return errorOf("EXTENDED_AGENT_CARD_NOT_CONFIGURED", "No extended agent card is configured.");
      default:
        return errorOf("UNSUPPORTED_OPERATION", `${rpc.method} is not supported.`);
    }
  }

  /** A send: a durable run in A2A, answered as a stream or, not streamed, with the task. */
  async #a2aSend(request, rpc, principal, answer, ctx, runId) {
    const agentRequest = rpc.request;
    const taskId = runId ?? agentRequest.id ?? randomId("task_");
    const existing = await this.#o.runs.store.get(scoped(principal, taskId));
    if (existing) {
      const why = existing.status === "running" ? `Task ${taskId} is still running.` : `Task ${taskId} has ended.`;
      return json(a2aError("UNSUPPORTED_OPERATION", why, { id: rpc.id, version: rpc.version }));
    }
    const contextId = agentRequest.session_id ?? randomId("ctx_");
    agentRequest.id = taskId;
    agentRequest.session_id = contextId;
    const protocol = rpc.version === "1.0" ? "a2a" : "a2a-0.3";
    let started;
    try {
      started = await this.#startRun(request, {
        id: taskId, protocol, session: contextId, principal, agentRequest, meta: { rpcId: rpc.id },
        builderOptions: { protocol, requestId: rpc.id, responseId: taskId, sessionId: contextId },
      }, ctx);
    } catch (e) {
      if (e instanceof HttpError && e.code === "SESSION_BUSY") {
        return json(a2aError("UNSUPPORTED_OPERATION", e.message, { id: rpc.id, version: rpc.version }));
      }
      throw e;
    }
    const { id: key } = started;
    if (rpc.streaming) {
      return new Response(await this.#reader(key, -1), { headers: { ...SSE_HEADERS, "x-agentwire-run-id": taskId } });
    }
    if (rpc.returnImmediately) {
      // Answer with the task as soon as it exists; the run goes on.
      for await (const _ of await this.#o.runs.store.read(key, -1)) break;
    } else {
      await this.#ended(key);
    }
    return answer(a2aTask(await this.#wholeLog(key), { version: rpc.version, historyLength: rpc.historyLength ?? undefined }).sendMessageResult);
  }
}

/** `head`, then `rest`, as one stream. */
function prepend(head, rest) {
  const reader = rest.getReader();
  let sent = false;
  return new ReadableStream({
    async pull(c) {
      if (!sent) {
        sent = true;
        c.enqueue(head);
        return;
      }
      const { done, value } = await reader.read();
      if (done) c.close();
      else c.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** `iterable` with `map` applied to each chunk. */
async function* mapChunks(iterable, map) {
  for await (const chunk of iterable) yield map(chunk);
}


function safeCall(f, value) {
  try {
    return Boolean(f(value));
  } catch {
    return false;
  }
}


/**
 * Serves `fetch` to a `node:http` request: the body streamed in, the answer streamed out with
 * backpressure, the request's signal aborted when the client goes away (which cancels the
 * answer's stream, and so the agent's `signal`).
 */
async function nodeListen(fetch, req, res, onError) {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const host = req.headers.host ?? "localhost";
  const url = `http://${host}${req.url}`;
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const body = hasBody
    ? new ReadableStream({
      start(c) {
        req.on("data", (chunk) => c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
        req.on("end", () => c.close());
        req.on("error", (e) => c.error(e));
      },
      cancel() {
        req.destroy();
      },
    })
    : undefined;
  const request = new Request(url, { method: req.method, headers, body, duplex: "half", signal: controller.signal });
  const response = await fetch(request);
  const out = {};
  response.headers.forEach((value, key) => { out[key] = value; });
  res.writeHead(response.status, out);
  if (!response.body || req.method === "HEAD") {
    // A HEAD answer's body (a run's stream, for a resume route) is released, not left pending.
    response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const reader = response.body.getReader();
  let finished = false;
  const release = () => {
    if (!finished) reader.cancel().catch(() => {});
  };
  // The client may have gone before the answer was ready: release it at once.
  if (controller.signal.aborted) release();
  else controller.signal.addEventListener("abort", release, { once: true });
  // Frames written before the event loop turns leave in one TCP write (corked until then).
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  try {
    while (!controller.signal.aborted) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      if (res.destroyed) break;
      if (!corked && typeof res.cork === "function") {
        corked = true;
        res.cork();
        setImmediate(uncork);
      }
      if (!res.write(value) && !res.destroyed) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
    }
  } catch (e) {
    if (!controller.signal.aborted && onError) {
      try { onError(e, { request }); } catch { /* ignored */ }
    }
  } finally {
    release();
    res.end();
  }
}
