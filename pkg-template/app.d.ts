import type { AgentRequest, Message } from "./agentwire.js";
import type { ResponseBuilder, RunSignal } from "./builder.js";
import type { FetchResponse, HttpResponseLike } from "./connect-types.js";
import type { A2aSkill } from "./a2a.js";
import type { RunStore } from "./runs.js";

/** The fetch API's `Request` where the runtime's types have one (DOM, `@types/node`, Workers). */
export type FetchRequest = typeof globalThis extends { Request: { prototype: infer R } } ? R : HttpRequestLike;
export type { FetchResponse, HttpResponseLike } from "./connect-types.js";

/** What AgentApp reads of a `Request`, for type settings without the fetch API's types. */
export interface HttpRequestLike {
  readonly url: string;
  readonly method: string;
  readonly headers: { get(name: string): string | null };
  readonly body: unknown;
}

/** What an agent receives besides the request and the builder. */
export interface AgentContext {
  /** Aborted when the run is stopped: a cancel route or A2A `CancelTask`, abandonment (nobody read it for `runs.abandonAfterMs`), `app.close()`, or, with `runs.cancelOnDisconnect`, its reader going away. */
  signal: RunSignal;
}

/**
 * The agent: emits the answer to `request` with `rb`, a `ResponseBuilder` already set to the
 * protocol being served. Returning ends the run (`completed`, open messages closed); throwing
 * ends it with the protocol's failure event (code `AGENT_ERROR`) and reports the error to
 * `onError`.
 */
/** A message of a compacted conversation: an Agent API message (one of the request's, or any object with a `role`). */
export type CompactedMessage = Message | { role: string; content?: unknown[] | null; type?: string; [key: string]: unknown };

export type Agent = (request: AgentRequest, rb: ResponseBuilder, context: AgentContext) => void | Promise<void>;

/** What `authorize` returns: who the caller is (a key, or `{id}`), `true` (anonymous), or falsy (401). */
export type Principal = string | { readonly id: string } | boolean | null | undefined;

/** What `onError` is told besides the error. */
export interface ErrorContext {
  /** The request being answered, when there is one. */
  request?: FetchRequest;
  /** The run's Agent API request, for an error of a run. */
  agentRequest?: AgentRequest;
  /** What the app was doing when there is no request: `"abandonment check"`, `"cancel on disconnect"`. */
  during?: string;
}

/** Where each route is served. */
export interface AgentAppPaths {
  /** @defaultValue `"/process"` */
  process?: string;
  /** @defaultValue `"/compatible-mode/v1/responses"` */
  responses?: string;
  /** @defaultValue `"/ag-ui"` */
  agUi?: string;
  /** Answered with and without a trailing `/` (`/a2a` and `/a2a/`). @defaultValue `"/a2a"` */
  a2a?: string;
  /** @defaultValue `"/.well-known/agent-card.json"` */
  agentCard?: string;
  /** @defaultValue `"/health"` */
  health?: string;
  /** @defaultValue `"/"` */
  root?: string;
}

/** Options of {@link AgentApp}. Unknown keys throw `INVALID_OPTION`. */
export interface AgentAppOptions {
  /** The agent. */
  agent: Agent;
  /** For the agent card and `GET /`. @defaultValue `"agentwire agent"` */
  name?: string;
  /** For the agent card. @defaultValue `""` */
  description?: string;
  /** The agent's version, for the agent card. @defaultValue `"1.0.0"` */
  version?: string;
  /** The agent card's skills. */
  skills?: A2aSkill[];
  /** The agent card's provider. */
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  iconUrl?: string;
  /** The public URL of the A2A endpoint in the card. @defaultValue the request's origin + `paths.a2a` */
  url?: string;
  /**
   * The A2A versions the agent card is written for: `"both"`, one card that 1.0 and 0.3
   * clients read (1.0's `supportedInterfaces` with 0.3's `url`, `protocolVersion` and
   * `preferredTransport` added), or one version's card alone (`"1.0"` passes a strict 1.0
   * schema, which rejects the 0.3 fields). The endpoint serves both versions either way.
   * The card is served with `Cache-Control` and an `ETag` (`If-None-Match` answers 304).
   * @defaultValue `"both"`
   */
  cardVersion?: "both" | "1.0" | "0.3";
  /**
   * Who may call A2A `ListTasks` (each lists only their own tasks): callers `authorize` names;
   * `"all"` also anonymous ones, who are all one principal (everyone sees every anonymous task:
   * one user, or tests); `false`: nobody (-32004).
   * @defaultValue "authorized"
   */
  listTasks?: "authorized" | "all" | false;
  /**
   * Agent API conversations kept by the server: a request with a `session_id` gets, before its
   * own `input`, the session's conversation so far (the input its last run was given and that
   * run's answer, the newest 64 KiB of JSON text), and the answers to that run's interrupts in
   * `resume`; the client sends only the new turn. Principal-scoped, as long as the store keeps
   * the session's last run (`retentionMs`). Needs one run per session (not
   * `runs.concurrentSessions`) and a store with `lastRun`. @defaultValue `false` (the client
   * sends the whole conversation, as to the reference)
   */
  sessionHistory?: boolean;
  /**
   * OpenAI Responses compaction: with it, `POST <responses>/compact` (`{model, input?,
   * previous_response_id?, instructions?}`) calls this with the conversation to compact (the
   * conversation of `previous_response_id`, then the request's input, as Agent API messages in
   * `request.input`) and answers a `response.compaction` whose one `compaction` item carries the
   * messages returned; a later request whose `input` holds that item gives its agent those
   * messages in its place. Without it the route answers 405.
   */
  compact?: (request: AgentRequest, context: { principal: unknown; signal: AbortSignal }) => CompactedMessage[] | Promise<CompactedMessage[]>;
  /** Route paths (the reference's by default). */
  paths?: AgentAppPaths;
  /** Protocols to serve (all by default); a protocol switched off answers 404. */
  protocols?: { process?: boolean; responses?: boolean; agUi?: boolean; a2a?: boolean };
  /**
   * CORS: `false` for none; by default every origin is allowed, without credentials (the
   * reference allows every origin). With `credentials: true`, `origins` must be an explicit
   * list (neither `"*"`, `"null"` nor a function): anything else throws `INVALID_OPTION`.
   * Preflight `OPTIONS` requests are answered on every route.
   */
  cors?: false | { origins?: "*" | string[] | ((origin: string) => boolean); credentials?: boolean; maxAge?: number };
  /** The largest request body, in bytes; more answers 413. @defaultValue 1 MiB */
  maxBodyBytes?: number;
  /**
   * Applied to every request but `GET /health`: returns who the caller is — a string key, or an
   * object with a string `id` (1 to 1024 characters; the rest of the object is the app's) — or
   * `true` for an anonymous caller; a falsy value or a throw answers 401. Runs, sessions and
   * client-chosen ids are each principal's own (keyed by that identity, never by serialising
   * the object). Any other value is the server's fault: 500, reported to `onError`.
   */
  authorize?: (request: FetchRequest) => Principal | Promise<Principal>;
  /** Told of every error the app or the agent raises (the answer is already decided). */
  onError?: (error: unknown, context: ErrorContext) => void;
  /** Durable runs: where they are logged and how long they may go unread. */
  runs?: {
    /** Where runs are logged. @defaultValue a `MemoryRunStore` (this process) */
    store?: RunStore;
    /** A run nobody reads for this long is canceled; 0: never. @defaultValue 60 000 ms */
    abandonAfterMs?: number;
    /**
     * A streamed answer with nothing to send for this long carries an SSE comment
     * (`: keepalive`), which every SSE reader ignores: proxies keep the connection, and a runtime
     * that learns of a departed client only from a failed write (workerd) learns it, so the run
     * can be abandoned. A non-streamed answer whose run takes longer (on Workers: any) starts as
     * a 200 and carries a space of JSON whitespace as often, before its JSON. 0: never;
     * otherwise 10 to 2^31 - 1. @defaultValue 15 000 ms
     */
    keepaliveMs?: number;
    /** Runs going at once on this instance, all principals together; more answer 429 (`TOO_MANY_RUNS`, `Retry-After`). @defaultValue 1000 */
    maxRunning?: number;
    /** Runs going at once on this instance for one principal (all anonymous callers are one); more answer 429. @defaultValue 32 */
    maxRunningPerPrincipal?: number;
    /** Cancel a run when its reader disconnects, instead of letting it run on. @defaultValue `false` */
    cancelOnDisconnect?: boolean;
    /** Allow more than one running run per session (the reference allows one). @defaultValue `false` */
    concurrentSessions?: boolean;
    /**
     * Cloudflare Durable Objects: the namespace of `app.DurableObject` in `env` (e.g.
     * `(env) => env.AGENT_RUNS`). Each run then lives, and its agent runs, in an object named by
     * its id, logged in the object's storage; `app.fetch` routes a run's requests there. Excludes `store`.
     */
    durableObject?: (env: any) => DurableObjectNamespaceLike;
    /** With `durableObject`: how long an ended run's log is kept. @defaultValue 10 minutes */
    retentionMs?: number;
    /** With `durableObject`: events kept per run. @defaultValue 100 000 */
    maxEvents?: number;
    /** With `durableObject`: bytes kept per run. @defaultValue 64 MiB */
    maxBytes?: number;
  };
}

/** What agentwire needs of a Durable Object namespace binding. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string, init?: { method?: string; headers?: Iterable<[string, string]>; body?: Uint8Array }): Promise<FetchResponse> };
}

/** The Durable Object class `app.DurableObject` is (workerd constructs it). */
export interface AgentRunsObjectClass {
  new (state: any, env: any): AgentRunsObject;
}

/** An object of {@link AgentRunsObjectClass}: one run, or a session's running run. */
export interface AgentRunsObject {
  fetch(request: FetchRequest): Promise<FetchResponse>;
  alarm(): Promise<void>;
  /**
   * Never set: the brand the Workers types (`wrangler types`, @cloudflare/workers-types) require
   * of a Durable Object class (`Rpc.DurableObjectBranded`), so that a binding of a class that
   * extends `app.DurableObject` can be typed `DurableObjectNamespace<ThatClass>`.
   */
  readonly __DURABLE_OBJECT_BRAND: never;
}

/** What a custom route's handler receives besides the request. */
export interface EndpointContext {
  /** What `authorize` returned (`undefined` without `authorize`). */
  principal: unknown;
  app: AgentApp;
}

/**
 * One agent served over the Agent API (`POST /process`), OpenAI Responses
 * (`POST /compatible-mode/v1/responses`), AG-UI (`POST /ag-ui`) and A2A 1.0 and 0.3
 * (`POST /a2a`, the card at `/.well-known/agent-card.json`), with `GET /health` and `GET /`.
 * Errors are JSON `{"error": {"code", "message", "field"?}}`: 404, 405, 413, 415, 400 naming
 * the field, 401; on `/a2a`, JSON-RPC errors.
 */
export declare class AgentApp {
  constructor(options: AgentAppOptions);
  /** The fetch handler, bound: `export default { fetch: app.fetch }`, `Deno.serve(app.fetch)`. Never rejects. */
  fetch(request: FetchRequest, env?: unknown, ctx?: { waitUntil?(promise: Promise<unknown>): void }): Promise<FetchResponse>;
  /** The store runs are logged in. */
  readonly runStore: RunStore;
  /**
   * With `runs.durableObject`: the Durable Object class of this app's runs, to export under the
   * binding's class name: `export class AgentRuns extends app.DurableObject {}`.
   */
  readonly DurableObject: AgentRunsObjectClass;
  /** Stops every run this instance runs (each ends canceled) and waits for them: for shutdown. */
  close(): Promise<void>;
  /** A `node:http` request listener: `createServer(app.nodeListener).listen(8080)`. */
  readonly nodeListener: (req: NodeIncomingMessageLike, res: NodeServerResponseLike) => void;
  /**
   * A `node:http` `upgrade` listener serving the OpenAI Responses WebSocket mode on the Responses
   * route: `server.on("upgrade", app.nodeUpgrade)`. Needs the `ws` package (an optional peer
   * dependency); Deno and Workers upgrade from `app.fetch` itself.
   */
  readonly nodeUpgrade: (req: NodeIncomingMessageLike, socket: NodeSocketLike, head: Uint8Array) => void;
  /** Adds a route: `handler(request, context)` answers `method` requests to `path`. */
  addEndpoint(endpoint: {
    method: string;
    path: string;
    handler: (request: FetchRequest, context: EndpointContext) => FetchResponse | Promise<FetchResponse>;
  }): this;
}

/** The parts of `node:http`'s `IncomingMessage` the listener uses. */
export interface NodeIncomingMessageLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  on(event: string, listener: (...args: any[]) => void): unknown;
  destroy(): unknown;
}

/** The parts of a `node:net` socket the upgrade listener uses. */
export interface NodeSocketLike {
  readonly destroyed: boolean;
  on(event: string, listener: (...args: any[]) => void): unknown;
  end(data: string): unknown;
  destroy(): unknown;
}

/** The parts of `node:http`'s `ServerResponse` the listener uses. */
export interface NodeServerResponseLike {
  writableFinished: boolean;
  on(event: string, listener: (...args: any[]) => void): unknown;
  once(event: string, listener: (...args: any[]) => void): NodeServerResponseLike;
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: Uint8Array): boolean;
  end(): unknown;
}
