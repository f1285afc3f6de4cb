// AgentApp: one agent served over every protocol from a fetch handler (Workers, Deno, Node).
// Request mapping, JSON-RPC and the agent card are the core's (parseRequest, responsesRequest,
// agUiRequest, a2aCall, a2aTask, a2aError, a2aAgentCard); this module routes requests, reads
// bodies within limits, answers errors as JSON, streams runs and keeps A2A tasks.
import { call } from "./instance.js";
import { agentwireError, textOf } from "./values.js";
import { ResponseBuilder } from "./builder.js";
import { StreamAssembler } from "./assembler.js";
import { a2aAgentCard, a2aCall, a2aError, a2aTask } from "./a2a.js";

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
  "iconUrl", "url", "paths", "protocols", "cors", "maxBodyBytes", "authorize", "onError", "maxTasks", "taskTtlMs"];
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
  const maxTasks = o.maxTasks ?? 1000;
  if (!Number.isSafeInteger(maxTasks) || maxTasks < 0) throw fail("maxTasks must be an integer >= 0", "maxTasks");
  const taskTtlMs = o.taskTtlMs ?? 10 * 60 * 1000;
  if (typeof taskTtlMs !== "number" || !(taskTtlMs >= 0)) throw fail("taskTtlMs must be a number >= 0", "taskTtlMs");
  return {
    name: o.name ?? "agentwire agent",
    description: o.description ?? "",
    version: o.version ?? "1.0.0",
    agent: o.agent,
    card: { skills: o.skills, provider: o.provider, documentationUrl: o.documentationUrl, iconUrl: o.iconUrl, url: o.url },
    paths, protocols, cors, maxBodyBytes, maxTasks, taskTtlMs,
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
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** A 400 for an AgentwireError from a request mapping (its code and field). */
function badRequest(error) {
  if (error?.name !== "AgentwireError") throw error;
  return new HttpError(error.code, error.message, error.field);
}

function randomId(prefix) {
  return `${prefix}${crypto.randomUUID()}`;
}

/**
 * One agent served over the Agent API (`POST /process`), OpenAI Responses
 * (`POST /compatible-mode/v1/responses`), AG-UI (`POST /ag-ui`) and A2A 1.0 and 0.3
 * (`POST /a2a`, the card at `/.well-known/agent-card.json`), with `GET /health` and `GET /`.
 * `app.fetch` is a fetch handler (bound): `export default { fetch: app.fetch }` on Workers,
 * `Deno.serve(app.fetch)`, `createServer(app.nodeListener)` on Node.
 */
export class AgentApp {
  #o;
  #routes = new Map();
  #tasks = new Map();

  constructor(options) {
    this.#o = readOptions(options);
    const { paths, protocols } = this.#o;
    const add = (path, method, handler) => {
      const route = this.#routes.get(path) ?? new Map();
      route.set(method, handler);
      this.#routes.set(path, route);
    };
    if (protocols.process) add(paths.process, "POST", (r, c) => this.#process(r, c));
    if (protocols.responses) add(paths.responses, "POST", (r, c) => this.#responses(r, c));
    if (protocols.agUi) add(paths.agUi, "POST", (r, c) => this.#agUi(r, c));
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

  /** Answers one HTTP request. Never rejects: every failure is an answer. */
  async fetch(request, env, ctx) {
    let response;
    try {
      response = await this.#handle(request, ctx);
    } catch (e) {
      if (e instanceof HttpError) response = errorResponse(e);
      else {
        this.#report(e, request);
        response = errorResponse(new HttpError("INTERNAL_ERROR", "The server failed to answer."));
      }
    }
    return this.#withCors(request, response);
  }

  async #handle(request, ctx) {
    const url = new URL(request.url);
    const route = this.#routes.get(url.pathname);
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
    return handler(request, { principal, app: this, ctx });
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
      headers.set("access-control-allow-headers", request.headers.get("access-control-request-headers") ?? "content-type, authorization, a2a-version");
      headers.set("access-control-max-age", String(cors.maxAge));
    } else {
      headers.set("access-control-expose-headers", "content-type");
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

  /** The JSON body of a POST, checked for size and type. */
  async #body(request) {
    if (!isJson(request.headers.get("content-type"))) {
      throw new HttpError("UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON (Content-Type: application/json).");
    }
    return readBody(request, this.#o.maxBodyBytes);
  }

  /** Runs the agent into a builder stream of `protocol`. */
  #run(request, agentRequest, builderOptions, runSignal) {
    const o = this.#o;
    const report = (error) => this.#report(error, request, { agentRequest });
    return ResponseBuilder.stream(async (rb, { signal }) => {
      const both = runSignal ? anySignal([signal, runSignal]) : signal;
      await o.agent(agentRequest, rb, { signal: both });
    }, { ...builderOptions, onError: report });
  }

  async #process(request) {
    const bytes = await this.#body(request);
    let agentRequest;
    try {
      agentRequest = call("parseRequest", textOf(bytes, "parseRequest"));
    } catch (e) {
      throw badRequest(e);
    }
    const stream = this.#run(request, agentRequest, {
      protocol: "agent-api",
      sessionId: agentRequest.session_id ?? undefined,
      responseId: agentRequest.id ?? undefined,
    });
    return new Response(stream, { headers: { "content-type": SSE, "cache-control": "no-cache" } });
  }

  async #responses(request) {
    const bytes = await this.#body(request);
    let agentRequest;
    try {
      agentRequest = call("responsesRequest", textOf(bytes, "responsesRequest"));
    } catch (e) {
      throw badRequest(e);
    }
    const options = {
      protocol: "openai-responses",
      sessionId: agentRequest.session_id ?? undefined,
      model: typeof agentRequest.model === "string" ? agentRequest.model : undefined,
    };
    const stream = this.#run(request, agentRequest, options);
    if (agentRequest.stream) {
      return new Response(stream, { headers: { "content-type": SSE, "cache-control": "no-cache" } });
    }
    // OpenAI's default: the Response object, as `response.completed` (or failed) carries it.
    const { outcome: _outcome, warnings: _warnings, ...response } = await StreamAssembler.collect(stream, { protocol: "openai-responses" });
    return json(response);
  }

  async #agUi(request) {
    const bytes = await this.#body(request);
    let agentRequest;
    try {
      agentRequest = call("agUiRequest", textOf(bytes, "agUiRequest"));
    } catch (e) {
      throw badRequest(e);
    }
    const stream = this.#run(request, agentRequest, {
      protocol: "ag-ui",
      threadId: agentRequest.session_id ?? undefined,
      runId: agentRequest.id ?? undefined,
      sessionId: agentRequest.session_id ?? undefined,
      responseId: agentRequest.id ?? undefined,
    });
    return new Response(stream, { headers: { "content-type": SSE, "cache-control": "no-cache" } });
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

  /** Forgets ended tasks past their time, then ended tasks over the count, oldest first. */
  #pruneTasks() {
    const now = Date.now();
    for (const [id, task] of this.#tasks) {
      if (task.done && now - task.doneAt > this.#o.taskTtlMs) this.#tasks.delete(id);
    }
    for (const [id, task] of this.#tasks) {
      if (this.#tasks.size <= this.#o.maxTasks) break;
      if (task.done) this.#tasks.delete(id);
    }
  }

  async #a2a(request, { ctx }) {
    const bytes = await this.#body(request);
    const { call: rpc, error } = a2aCall(bytes, request.headers.get("a2a-version"));
    if (error) return json(error);
    const errorOf = (reason, message) => json(a2aError(reason, message, { id: rpc.id, version: rpc.version }));
    const answer = (result) => json({ jsonrpc: "2.0", id: rpc.id, result });
    switch (rpc.method) {
      case "SendMessage":
      case "SendStreamingMessage":
        return this.#a2aSend(request, rpc, answer, ctx);
      case "GetTask": {
        const task = this.#tasks.get(rpc.taskId);
        if (!task) return errorOf("TASK_NOT_FOUND", `No task ${rpc.taskId}.`);
        return answer(a2aTask(task.bytes(), { version: rpc.version, historyLength: rpc.historyLength ?? undefined }).task);
      }
      case "CancelTask": {
        const task = this.#tasks.get(rpc.taskId);
        if (!task) return errorOf("TASK_NOT_FOUND", `No task ${rpc.taskId}.`);
        if (task.done) return errorOf("TASK_NOT_CANCELABLE", `Task ${rpc.taskId} has ended.`);
        task.cancel();
        await task.finished;
        return answer(a2aTask(task.bytes(), { version: rpc.version }).task);
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

  /** A send: runs the agent into an A2A stream, kept as the task's log for get and cancel. */
  async #a2aSend(request, rpc, answer, ctx) {
    const agentRequest = rpc.request;
    const taskId = agentRequest.id ?? randomId("task_");
    if (this.#tasks.has(taskId) && !this.#tasks.get(taskId).done) {
      return json(a2aError("UNSUPPORTED_OPERATION", `Task ${taskId} is still running.`, { id: rpc.id, version: rpc.version }));
    }
    const contextId = agentRequest.session_id ?? randomId("ctx_");
    agentRequest.id = taskId;
    agentRequest.session_id = contextId;
    const cancel = new AbortController();
    let rb;
    const chunks = [];
    let size = 0;
    const task = {
      done: false,
      doneAt: 0,
      bytes: () => concat(chunks, size),
      cancel: () => {
        cancel.abort();
        try {
          if (rb && !rb.finished) rb.canceled();
        } catch {
          // The run ended meanwhile.
        }
      },
    };
    const o = this.#o;
    const report = (error) => this.#report(error, request, { agentRequest });
    const stream = ResponseBuilder.stream(async (builder, { signal }) => {
      rb = builder;
      await o.agent(agentRequest, builder, { signal: anySignal([signal, cancel.signal]) });
    }, { protocol: rpc.version === "1.0" ? "a2a" : "a2a-0.3", requestId: rpc.id, responseId: taskId, sessionId: contextId, onError: report });
    this.#tasks.set(taskId, task);
    this.#pruneTasks();
    const [toClient, toLog] = rpc.streaming ? stream.tee() : [null, stream];
    let firstEvent;
    const first = new Promise((resolve) => { firstEvent = resolve; });
    task.finished = (async () => {
      const reader = toLog.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          size += value.byteLength;
          firstEvent();
        }
      } catch (e) {
        report(e);
      } finally {
        task.done = true;
        task.doneAt = Date.now();
        firstEvent();
      }
    })();
    if (rpc.streaming) {
      // A client going away stops the run (it ends canceled in the task's log).
      const reader = toClient.getReader();
      const body = new ReadableStream({
        async pull(c) {
          const { done, value } = await reader.read();
          if (done) c.close();
          else c.enqueue(value);
        },
        cancel(reason) {
          task.cancel();
          return reader.cancel(reason);
        },
      });
      return new Response(body, { headers: { "content-type": SSE, "cache-control": "no-cache" } });
    }
    if (rpc.returnImmediately) {
      ctx?.waitUntil?.(task.finished);
      await first;
    } else {
      await task.finished;
    }
    return answer(a2aTask(task.bytes(), { version: rpc.version, historyLength: rpc.historyLength ?? undefined }).sendMessageResult);
  }
}

function concat(chunks, size) {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function safeCall(f, value) {
  try {
    return Boolean(f(value));
  } catch {
    return false;
  }
}

/** A signal aborted when any of `signals` aborts. */
function anySignal(signals) {
  if (typeof AbortSignal.any === "function") return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener("abort", () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
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
    res.end();
    return;
  }
  const reader = response.body.getReader();
  controller.signal.addEventListener("abort", () => reader.cancel().catch(() => {}), { once: true });
  // Frames written before the event loop turns leave in one TCP write (corked until then).
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!corked && typeof res.cork === "function") {
        corked = true;
        res.cork();
        setImmediate(uncork);
      }
      if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
      if (controller.signal.aborted) break;
    }
  } catch (e) {
    if (!controller.signal.aborted && onError) {
      try { onError(e, { request }); } catch { /* ignored */ }
    }
  } finally {
    res.end();
  }
}
