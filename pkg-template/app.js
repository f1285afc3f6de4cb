// AgentApp: one agent served over every protocol from a fetch handler (Workers, Deno, Node).
// This module routes requests and ties the server's parts together: options (app-options.js),
// HTTP plumbing (app-http.js), whose runs are whose (app-principal.js), the run manager
// (app-runs.js), the protocols' front ends (app-protocols.js, app-a2a.js) and the runtime
// adapters (app-node.js, app-durable.js).
import { agentwireError } from "./values.js";
import { call } from "./instance.js";
import { ResponseBuilder } from "./builder.js";
import { readOptions } from "./app-options.js";
import {
  HttpError, cursorOf, discardBody, errorResponse, isJsonType, json, nodeRequests, readBody, requestUrl, sseAnswer, sseResponse,
  streamOf, withCors,
} from "./app-http.js";
import { principalKey, scoped } from "./app-principal.js";
import { RunManager } from "./app-runs.js";
import { IN_WORKERD } from "./runs.js";
import { FRONT_ENDS, mapRequest, runOf } from "./app-protocols.js";
import { keptHistory } from "./app-history.js";
import { chainResponse, checkThreadResume, continueSession, keptResume } from "./app-conversations.js";
import { FollowCaps } from "./app-tasks.js";
import { answerA2a, readCall, runOfCall } from "./app-a2a.js";
import { nodeListener } from "./app-node.js";
import { nodeUpgrade } from "./app-node-socket.js";
import { SOCKET_CAPS, acceptSocket, serveSocket } from "./app-socket.js";
import { RunCaps } from "./app-caps.js";
import { ForwardedCaps, durableObjectClass, forward, internalOf, objectTasks, releasingAtEnd } from "./app-durable.js";
import { afterRunEnd } from "./app-wait.js";
import { cardAnswer, serviceInfo } from "./app-card.js";
import { answerCompact, compactOnObject, inputItemList } from "./app-responses.js";

/** Makes an AgentApp the one inside a run's Durable Object (only `app.DurableObject` has it). */
const INSIDE_OBJECT = Symbol("agentwire: inside a Durable Object");

/** The answer to a store's or the run manager's refusal, by its code (`null`: not a client's matter). */
const REFUSALS = {
  RUN_GONE: () => new HttpError("RUN_GONE", "The run, or the part of it asked for, is no longer kept."),
  NOT_FOUND: () => new HttpError("NOT_FOUND", "No such run."),
  STORE_UNAVAILABLE: () => new HttpError("STORE_UNAVAILABLE", "The run store is unavailable; try again shortly.", undefined, { "retry-after": "1" }),
  TOO_MANY_RUNS: (e) => new HttpError("TOO_MANY_RUNS", e.message, undefined, { "retry-after": String(e.retryAfter ?? 1) }),
};

/** The run id of a path segment (percent-decoded), or `null` when empty or badly escaped. */
function runIdOfPath(segment) {
  if (segment === "") return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * One agent served over the Agent API (`POST /process`), OpenAI Responses
 * (`POST /compatible-mode/v1/responses`), AG-UI (`POST /ag-ui`) and A2A 1.0 and 0.3
 * (`POST /a2a`, the card at `/.well-known/agent-card.json`), with `GET /health` and `GET /`.
 * Every run is durable: its events are logged with their cursor in a run store, a client that
 * lost the connection resumes (`GET <route>/<id>` with `Last-Event-ID`), and a run is stopped by
 * its cancel route or A2A `CancelTask`, not by a disconnect.
 * `app.fetch` is a fetch handler (bound): `export default { fetch: app.fetch }` on Workers,
 * `Deno.serve(app.fetch)`, `createServer(app.nodeListener)` on Node.
 */
export class AgentApp {
  #o;
  #routes = new Map();
  #runRoutes = [];
  #runs;
  #options;
  #inside;
  #objectClass = null;
  #forwarded = null;
  #a2aPaths = new Set();
  #compactPath = null;
  #sockets = new RunCaps(SOCKET_CAPS);

  constructor(options, inside = undefined) {
    this.#o = readOptions(options);
    this.#options = options;
    this.#inside = inside === INSIDE_OBJECT;
    this.#runs = new RunManager({ agent: this.#o.agent, runs: this.#o.runs, report: (e, c) => this.#report(e, c) });
    const { paths, protocols } = this.#o;
    for (const key of Object.keys(FRONT_ENDS)) {
      if (!protocols[key]) continue;
      this.#add(paths[key], "POST", (r, c) => this.#startRoute(key, r, c));
      this.#runRoutes.push({ base: paths[key], protocol: FRONT_ENDS[key].protocol });
    }
    // The Responses WebSocket mode: an upgrade of GET on the route (Node: `app.nodeUpgrade`).
    if (protocols.responses) this.#add(paths.responses, "GET", (r, c) => this.#socket(r, c));
    if (protocols.a2a) {
      const server = this.#a2aServer();
      // With and without a trailing "/": clients add one to the card's URL (a route of another
      // protocol there keeps its path).
      const twin = paths.a2a.endsWith("/") ? paths.a2a.slice(0, -1) : `${paths.a2a}/`;
      this.#a2aPaths = new Set([paths.a2a]);
      if (twin !== "" && !this.#routes.get(twin)?.has("POST")) this.#a2aPaths.add(twin);
      for (const path of this.#a2aPaths) this.#add(path, "POST", (r, c) => answerA2a(server, r, c));
      this.#add(paths.agentCard, "GET", (r, c) => cardAnswer(this.#o, r, c.url));
    }
    if (protocols.responses && this.#o.compact) {
      this.#compactPath = `${paths.responses}/compact`;
      this.#add(this.#compactPath, "POST", async (r, c) => answerCompact(this.#o.compact, this.#runs, r, c, await this.#body(r)));
    }
    this.#add(paths.health, "GET", () => json({ status: "healthy", mode: "fetch", runner: "ready" }));
    this.#add(paths.root, "GET", () => json(serviceInfo(this.#o)));
    /** The fetch handler, bound to this app. */
    this.fetch = this.fetch.bind(this);
    /** A `node:http` request listener: `createServer(app.nodeListener)`. */
    this.nodeListener = nodeListener(this.fetch, { maxBodyBytes: this.#o.maxBodyBytes, report: (e, request) => this.#report(e, { request }) });
    /** A `node:http` `upgrade` listener: `server.on("upgrade", app.nodeUpgrade)` (the Responses WebSocket mode; needs `ws`). */
    this.nodeUpgrade = nodeUpgrade({
      accepts: (request) => this.#socketAccepted(request),
      serve: (ws, request, release) => this.#socketServer(request, release)(ws),
      maxBytes: this.#o.maxBodyBytes,
      report: (e) => this.#report(e),
    });
  }

  #add(path, method, handler) {
    const route = this.#routes.get(path) ?? new Map();
    route.set(method, handler);
    this.#routes.set(path, route);
  }

  /** The run store (the `runs.store` option, or the in-memory one). */
  get runStore() {
    return this.#o.runs.store;
  }

  /**
   * Adds a route (a custom adapter): `handler(request, context)` answers `method` requests to
   * `path` with a `Response`; `context` holds `principal` (what `authorize` returned) and
   * `app`. CORS, `authorize`, 404/405 and error answers apply to it as to the built-in routes.
   * @param {{ method?: string, path?: string, handler?: (request: Request, context: object) => Response | Promise<Response> }} [endpoint]
   */
  addEndpoint({ method, path, handler } = {}) {
    const fail = (what, field) => agentwireError("INVALID_OPTION", `AgentApp: addEndpoint: ${what}`, field);
    if (typeof method !== "string" || !/^[A-Z]+$/.test(method)) throw fail("method must be an HTTP method in capitals", "method");
    if (typeof path !== "string" || !path.startsWith("/")) throw fail('path must start with "/"', "path");
    if (typeof handler !== "function") throw fail("handler must be a function", "handler");
    this.#add(path, method, (request, context) => handler(request, context));
    return this;
  }

  /** Stops every run this instance is running (each ends canceled) and waits for them: call it on shutdown. */
  close() {
    return this.#runs.close();
  }

  /**
   * The Durable Object class of this app's runs (with `runs.durableObject`): export it under
   * the class name the binding names (`export class AgentRuns extends app.DurableObject {}`).
   * Each run lives in an object named by its id, which runs the agent, logs the run in its
   * storage and answers its resume and cancel routes; `app.fetch` routes requests there.
   */
  get DurableObject() {
    if (this.#objectClass) return this.#objectClass;
    const { durableObject, objectStore } = this.#o.runs;
    if (!durableObject) throw agentwireError("INVALID_OPTION", "AgentApp: app.DurableObject needs the runs.durableObject option", "runs");
    const options = this.#options;
    const { durableObject: _d, retentionMs: _r, maxEvents: _e, maxBytes: _b, ...runs } = options.runs ?? {};
    this.#objectClass = durableObjectClass({
      makeApp: (store) => new AgentApp({ ...options, runs: { ...runs, store } }, INSIDE_OBJECT),
      namespaceOf: durableObject,
      storeOptions: objectStore,
    });
    return this.#objectClass;
  }

  /** Answers one HTTP request. Never rejects: every failure is an answer. */
  async fetch(request, env, ctx) {
    let response;
    try {
      response = await this.#handle(request, env, ctx);
    } catch (e) {
      response = this.#failure(e, request);
    }
    // What the route did not read of the body is discarded (within a bound), so the client's
    // next request on this connection is not met by a reset.
    try {
      if (request.body && !request.bodyUsed) await discardBody(request, this.#o.maxBodyBytes);
    } catch {
      // The body is the client's: nothing more to do with it.
    }
    try {
      return withCors(this.#o.cors, request, response);
    } catch (e) {
      this.#report(e, { request });
      return response;
    }
  }

  /** The answer to what a request's handling threw: its HttpError, a refusal's, else a 500. */
  #failure(e, request) {
    try {
      if (e instanceof HttpError) return errorResponse(e);
      const refusal = typeof e?.code === "string" && Object.hasOwn(REFUSALS, e.code) ? REFUSALS[e.code](e) : undefined;
      if (refusal) return errorResponse(refusal);
      this.#report(e, { request });
      return errorResponse(new HttpError("INTERNAL_ERROR", "The server failed to answer."));
    } catch (again) {
      this.#report(again, { request });
      return new Response(null, { status: 500 });
    }
  }

  /** The handlers of a path: a fixed route, or a run's resume/cancel route. */
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
      if (rest.length === 2 && rest[1] === "input_items" && protocol === "openai-responses") {
        return new Map([["GET", (r, c) => this.#inputItems(c, id)]]);
      }
    }
    return undefined;
  }

  async #handle(request, env, ctx) {
    const url = requestUrl(request);
    const route = this.#route(url);
    if (this.#inside) {
      // A request a front instance forwarded: it authorized it and chose the run's id.
      const internal = internalOf(request);
      const handler = route?.get(request.method) ?? (request.method === "HEAD" ? route?.get("GET") : undefined);
      if (!handler || !internal) throw new HttpError("NOT_FOUND", `No route ${url.pathname}.`);
      return handler(request, { principal: internal.owner, app: this, ctx, url, runId: internal.runId });
    }
    if (!route) throw new HttpError("NOT_FOUND", `No route ${url.pathname}.`);
    const allow = [...route.keys(), "OPTIONS"].join(", ");
    if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow } });
    const handler = route.get(request.method) ?? (request.method === "HEAD" ? route.get("GET") : undefined);
    if (!handler) throw new HttpError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here.`, undefined, { allow });
    const principal = url.pathname === this.#o.paths.health ? undefined : await this.#principal(request);
    const context = { principal, app: this, ctx, url, env };
    if (this.#o.runs.durableObject) {
      const forwarded = await this.#toObject(request, url, principal, env, context);
      if (forwarded) return forwarded;
    }
    return handler(request, context);
  }

  /** What `authorize` says of `request` (undefined without it); 401 when it refuses. */
  async #principal(request) {
    if (!this.#o.authorize) return undefined;
    let principal;
    try {
      principal = await this.#o.authorize(request);
    } catch (e) {
      this.#report(e, { request });
    }
    if (!principal) throw new HttpError("UNAUTHORIZED", "The request is not authorized.");
    principalKey(principal); // an identity authorize must give: a TypeError (500) otherwise
    return principal;
  }

  /** `GET <responses>` upgraded to a WebSocket where the runtime does it in a fetch handler (app-socket.js). */
  #socket(request, { principal, env, ctx }) {
    const upgrade = request.headers.get("upgrade")?.toLowerCase() === "websocket";
    // Its headers are read before the upgrade (Deno closes the request then).
    const release = upgrade ? this.#sockets.take(principalKey(principal)) : null;
    const accepted = release ? acceptSocket(request, this.#socketServer(request, release, env, ctx)) : null;
    if (accepted) return accepted;
    release?.();
    throw new HttpError("METHOD_NOT_ALLOWED", "GET is not allowed here (a WebSocket upgrade is).", undefined, { allow: "POST, GET, OPTIONS" });
  }

  /** Node's upgrade of `request` (app-node-socket.js): only on the Responses route, authorized. */
  async #socketAccepted(request) {
    const { pathname } = requestUrl(request);
    if (!this.#o.protocols.responses || pathname !== this.#o.paths.responses) throw new HttpError("NOT_FOUND", `No route ${pathname}.`);
    // Its place among the sockets a principal may hold (429 past them), released when it closes.
    return this.#sockets.take(principalKey(await this.#principal(request)));
  }

  /** What serves the Responses WebSocket mode on a socket of `upgrade`: each turn a POST to this app, with the upgrade's headers (and `env`, `ctx`). */
  #socketServer(upgrade, release, env = undefined, ctx = undefined) {
    const { url } = upgrade;
    const headers = new Headers(upgrade.headers);
    for (const name of ["upgrade", "connection", "content-length", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol"]) headers.delete(name);
    headers.set("content-type", "application/json");
    const turn = (body, signal) => this.fetch(new Request(url, { method: "POST", headers, body, signal }), env, ctx);
    return (ws) => serveSocket(ws, { turn, maxBytes: this.#o.maxBodyBytes, closed: release });
  }

  /**
   * With `runs.durableObject`: sends a run's request to the run's object (named by its id): a
   * run's start (its id chosen here), resume, cancel and A2A task calls. Answers the rest here
   * (`null`).
   */
  async #toObject(request, url, principal, env, context) {
    const namespace = this.#o.runs.durableObject(env);
    if (url.pathname === this.#compactPath) {
      return compactOnObject(namespace, request, principal, await this.#body(request), (again) => this.#route(url).get("POST")(again, context));
    }
    const run = this.#runRoutes.find(({ base }) => url.pathname.startsWith(`${base}/`));
    if (run) {
      const id = runIdOfPath(url.pathname.slice(run.base.length + 1).split("/")[0]);
      return id === null ? null : forward(namespace, request, { id, principal });
    }
    const { paths } = this.#o;
    const key = Object.keys(FRONT_ENDS).find((k) => paths[k] === url.pathname && this.#o.protocols[k]);
    if (request.method !== "POST" || (!key && !this.#a2aPaths.has(url.pathname))) return null;
    // A2A's refusal of a body that is not JSON is a JSON-RPC error, answered here.
    if (!key && !isJsonType(request.headers.get("content-type"))) return null;
    const body = await this.#body(request);
    let target;
    if (key) {
      target = { id: runOf(FRONT_ENDS[key], mapRequest(FRONT_ENDS[key], body)).id, starts: true };
    } else {
      const { call: rpc } = readCall(body, request.headers.get("a2a-version"));
      target = rpc ? runOfCall(rpc) : null;
    }
    if (target === null) {
      // Answered here (an A2A call on no task, a task id no run can have): from the bytes read.
      const again = new Request(request.url, { method: "POST", headers: request.headers, body });
      return this.#route(url).get("POST")(again, context);
    }
    const { id, starts } = target;
    if (!starts) return forward(namespace, request, { id, principal, body });
    // Each run counts only itself in its object: the caps on running runs are kept here, a
    // place held until the run's answer ends (app-durable.js).
    this.#forwarded ??= new ForwardedCaps(this.#o.runs);
    const owner = principalKey(principal);
    const place = await this.#forwarded.take(owner, scoped(owner, id), namespace);
    try {
      const response = await forward(namespace, request, { id, principal, body });
      place.answered = true;
      return releasingAtEnd(response, place.release);
    } catch (e) {
      place.release();
      throw e;
    }
  }

  /** The JSON body of a POST, checked for type (415) and size (413). */
  #body(request) {
    if (!isJsonType(request.headers.get("content-type"))) {
      throw new HttpError("UNSUPPORTED_MEDIA_TYPE", "The request body must be JSON (Content-Type: application/json).");
    }
    return readBody(request, this.#o.maxBodyBytes);
  }

  /** What the A2A front end needs of the app (made once). */
  #a2aServer() {
    return {
      runs: this.#runs,
      body: (request) => this.#body(request),
      start: (request, run, context) => this.#start(request, run, context),
      own: (id, principal, protocol) => this.#own(id, principal, protocol),
      stream: (key, after, rebind) => this.#stream(key, after, rebind),
      afterEnd: (request, key, answer) => this.#afterEnd(request, key, answer),
      owner: (principal) => principalKey(principal),
      listTasks: this.#o.listTasks,
      objectTasks: this.#o.runs.durableObject && !this.#inside ? (env) => objectTasks(this.#o.runs.durableObject(env)) : undefined,
      follows: new FollowCaps(),
    };
  }

  /**
   * Starts a durable run for the caller (app-runs.js); returns its store key.
   * @param {Request} request
   * @param {{ id: string, protocol: string, session: string | null, agentRequest: object, builderOptions: object, meta?: object, canceled?: boolean }} run
   * @param {{ principal?: unknown, ctx?: { waitUntil?(promise: Promise<unknown>): void } }} context
   */
  async #start(request, { id, protocol, session, agentRequest, builderOptions, meta, canceled }, context) {
    const owner = principalKey(context.principal);
    const key = scoped(owner, id);
    try {
      await this.#runs.start({
        id: key, protocol, session: scoped(owner, session ?? null), owner, agentRequest, builderOptions, meta, canceled,
        context: { request, agentRequest, ctx: context.ctx },
      });
    } catch (e) {
      // Neither the other run's id nor whose it is: only that this caller must wait.
      if (e?.code === "RUN_EXISTS") throw new HttpError("RUN_EXISTS", `A run ${id} exists already.`);
      if (e?.code === "SESSION_BUSY") {
        throw new HttpError("SESSION_BUSY", session == null ? `A run ${id} exists already.` : `Session ${session} has a run going.`);
      }
      throw e;
    }
    return key;
  }

  /** A reader's stream of run `key` after cursor `after`; `signal`: the request's (its client left). */
  async #stream(key, after, rebind = undefined, signal = undefined) {
    const { iterable, onCancel, keepaliveMs } = await this.#runs.reader(key, after, rebind, signal);
    return streamOf(iterable, onCancel, keepaliveMs);
  }

  /** The streamed answer to `request`: run `key` (`id` to the client) after cursor `after`. */
  async #answer(request, key, after, id) {
    // The Node adapter writes the chunks to its socket and drops them: views of the log will do.
    return sseAnswer(request, await this.#runs.reader(key, after, undefined, request.signal, nodeRequests.has(request)), id);
  }

  /** Run `id` as the caller may see it (`null` for anyone but its owner), with `key`, its store key. */
  async #own(id, principal, protocol) {
    const owner = principalKey(principal);
    const key = scoped(owner, id);
    const run = await this.#runs.store.get(key);
    if (!run || run.principal !== owner || (protocol && run.protocol !== protocol)) return null;
    return { ...run, key };
  }

  /** A start of a streamed protocol's run: the stream, or (Responses, not streamed) the response. */
  async #startRoute(frontKey, request, context) {
    const front = FRONT_ENDS[frontKey];
    const mapped = mapRequest(front, await this.#body(request));
    const { agentRequest } = mapped;
    const { id, session, builderOptions } = runOf(front, mapped, context.runId);
    if (front.protocol === "openai-responses") await chainResponse(this.#runs, agentRequest, context.principal);
    else if (front.protocol === "agent-api" && this.#o.sessionHistory) await continueSession(this.#runs, agentRequest, context.principal);
    else if (front.protocol === "ag-ui") {
      // AG-UI's rules for `resume`: refused with RUN_ERROR (no run), or a replay's earlier answer.
      const held = await checkThreadResume(this.#runs, agentRequest, context.principal);
      if (held?.refusal) return sseResponse(ResponseBuilder.stream((rb) => void rb.failed(held.refusal), builderOptions), id);
      if (held?.replay) return this.#answer(request, held.replay.key, -1, held.replay.id);
    }
    // What the next turn may build on (Responses `store: false`: nothing; AG-UI: its resume too).
    const meta = agentRequest.store === false ? { store: false } : { input: keptHistory(agentRequest.input ?? []), resume: keptResume(agentRequest) };
    const key = await this.#start(request, { id, protocol: front.protocol, session, agentRequest, builderOptions, meta }, context);
    if (front.streamed(agentRequest)) return this.#answer(request, key, -1, id);
    // OpenAI's default: the Response object, as `response.completed` (or failed) carries it.
    // A client that leaves stops waiting, and so stops counting as the run's reader.
    return this.#afterEnd(request, key, async () => json(await this.#responseOf(key)));
  }

  /** The Responses `response` of run `key`; 410 when the log no longer holds all of it. */
  async #responseOf(key) {
    const response = await this.#runs.responseSoFar(key);
    if (response === null) throw new HttpError("RUN_GONE", "The run is larger than the server keeps; its response cannot be given whole.");
    return response;
  }

  /** `GET <route>/<id>`: resume after `Last-Event-ID` / `starting_after`; Responses: the response so far. */
  async #resume(request, { principal, url }, protocol, id) {
    const run = await this.#own(id, principal, protocol);
    if (!run) throw new HttpError("NOT_FOUND", "No such run.");
    if (run.gone) throw new HttpError("RUN_GONE", "The run is no longer kept.");
    // Responses: the response object, unless a stream is asked for (`?stream=true`, as OpenAI's
    // API has it, or a `Last-Event-ID` / `Accept: text/event-stream` of an SSE client).
    const wantsStream = url.searchParams.get("stream") === "true" || request.headers.has("last-event-id")
      || (request.headers.get("accept") ?? "").includes("text/event-stream");
    if (protocol === "openai-responses" && !wantsStream) return json(await this.#responseOf(run.key));
    return this.#answer(request, run.key, cursorOf(request, url), id);
  }

  /**
   * `GET …/responses/{id}/input_items`: the response's input (what its run kept: the
   * conversation so far, the newest 64 KiB) as the Responses API lists input items, written by
   * the core; 404 for a response the caller has not or one made with `store: false`.
   */
  async #inputItems({ principal, url }, id) {
    return inputItemList(await this.#own(id, principal, "openai-responses"), id, url);
  }

  /** `POST <route>/<id>/cancel`: stops the run (wherever it runs), answers once it ended. */
  async #cancelRoute(request, { principal }, protocol, id) {
    const run = await this.#own(id, principal, protocol);
    if (!run) throw new HttpError("NOT_FOUND", "No such run.");
    await this.#runs.cancel(run.key);
    // Its answer says the run ended: sent once it did (a stop writes the end at once).
    await this.#runs.ended(run.key, request.signal);
    if (protocol === "openai-responses") return json(await this.#responseOf(run.key));
    const after = await this.#runs.store.get(run.key);
    return json({ id, status: after?.status ?? "ended" });
  }

  /** `answer()` once run `key` ended, kept alive by whitespace past `runs.keepaliveMs` (app-wait.js). */
  #afterEnd(request, key, answer) {
    const wait = (signal) => this.#runs.ended(key, signal);
    // workerd never tells a request whose client left before its answer started: start at once.
    const timing = { keepaliveMs: this.#o.runs.keepaliveMs, startAfterMs: IN_WORKERD ? 0 : undefined };
    return afterRunEnd(request, timing, wait, answer, (e) => this.#failure(e, request));
  }

  /**
   * Tells `onError` of `error` (context: `request`, `agentRequest`, `during`); never throws.
   * @param {unknown} error
   * @param {{ request?: Request, agentRequest?: object, during?: string }} [context]
   */
  #report(error, { request, agentRequest, during } = {}) {
    const onError = this.#o.onError;
    if (!onError) return;
    const context = { request };
    if (agentRequest !== undefined) context.agentRequest = agentRequest;
    if (during !== undefined) context.during = during;
    try {
      onError(error, context);
    } catch {
      // A failing error reporter must not take the answer down with it.
    }
  }
}
