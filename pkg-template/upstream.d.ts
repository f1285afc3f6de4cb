// upstream(): an AgentApp agent that is another agent, reached over HTTP in its own protocol.
import type { AgentRequest } from "./agentwire.js";
import type { Agent } from "./app.js";

/** The protocols an upstream may speak: `"a2a"` is A2A 1.0, `"a2a-0.3"` 0.3's `message/stream`. */
export type UpstreamProtocol = "agent-api" | "ag-ui" | "openai-responses" | "a2a" | "a2a-0.3";

/** Headers as `fetch` takes them: an object, pairs, or a `Headers` (any iterable of pairs). */
export type UpstreamHeaders = Record<string, string> | [string, string][] | Iterable<readonly [string, string]>;

/** The options of {@link upstream}. */
export interface UpstreamOptions {
  /**
   * The protocol the upstream speaks, at `url`: `agent-api` (`POST /process`), `ag-ui`, `openai-responses`
   * (a Responses `create` endpoint), `a2a` / `a2a-0.3` (its JSON-RPC endpoint). @defaultValue `"agent-api"`
   */
  protocol?: UpstreamProtocol;
  /**
   * Headers sent with every request (`content-type` is always `application/json`), or a
   * function of the run's request giving them (e.g. the caller's credentials passed through).
   */
  headers?: UpstreamHeaders | ((request: AgentRequest) => UpstreamHeaders | Promise<UpstreamHeaders>);
  /** The `fetch` to use. @defaultValue `globalThis.fetch` */
  fetch?: (url: string, init: any) => Promise<any>;
  /** The model named in the request (`agent-api`, `openai-responses`); the run's own otherwise. */
  model?: string;
  /**
   * How long the upstream may take to answer, and then to send each chunk, before the run fails
   * with `UPSTREAM_TIMEOUT` (ms). @defaultValue `300000`
   */
  timeoutMs?: number;
}

/**
 * An AgentApp agent serving the agent at `url`: each run's request is written in the upstream's
 * protocol (`requestFor`), POSTed with the run's signal (a stopped run aborts the request; A2A:
 * `CancelTask` is sent too, best effort), and its answer is piped into the run (`rb.pipe`), so
 * the app serves it in whatever protocol its client speaks. A non-2xx answer, or one that is no
 * event stream, fails the run with `UPSTREAM_FAILED` (the error's `status`, and the start of the
 * upstream's body in its message and `body`); a failed or cut upstream run with pipe()'s codes
 * (`UPSTREAM_FAILED`, `UPSTREAM_TRUNCATED`, `UPSTREAM_TOO_LARGE`); silence past `timeoutMs` with
 * `UPSTREAM_TIMEOUT`.
 *
 * @throws {AgentwireError} `INVALID_OPTION` naming the option (`url` when it is not an http(s) URL).
 */
export function upstream(url: string | { readonly href: string }, options?: UpstreamOptions): Agent;

/** The core's writer of each protocol's request (declared with the wasm exports). */
export { requestFor } from "./agentwire.js";
