// The Agent API endpoint as a fetch-style handler (Request in, Response out), shared by the
// Cloudflare Worker and Deno examples; the Node example reuses its helpers with node:http.
//
//   POST /process   an AgentRequest → an Agent API SSE stream from the scripted agent
//   OPTIONS *       CORS preflight (any origin)
//   GET /_stats     the agent's counters, only when `exposeStats` is set (used by the tests)
//
// A request agentwire's parseRequest rejects is answered with HTTP 400 and
// {"error": {"code", "message", "field"}} (code INVALID_JSON, INVALID_UTF8 or INVALID_REQUEST;
// `field` names the offending field when known), never with a broken stream.
import { parseRequest, ResponseBuilder } from "agentwire";
import { scriptedAgent, stats } from "./agent.js";

/** Headers every response carries (the endpoint is public: any origin may call it). */
export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "content-type",
};

/** Headers of the answer to a CORS preflight; `requested` is its Access-Control-Request-Headers. */
export function preflightHeaders(requested) {
  return {
    ...CORS_HEADERS,
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-allow-headers": requested || "content-type, accept, authorization, cache-control",
    "access-control-max-age": "86400",
  };
}

/** Headers of the event stream (the reference server's, plus CORS). */
export const STREAM_HEADERS = {
  ...CORS_HEADERS,
  "content-type": ResponseBuilder.contentType("sse"),
  "cache-control": "no-cache",
  // Ask reverse proxies (nginx) not to buffer the stream.
  "x-accel-buffering": "no",
};

/** The JSON body of a 400 answer for an error thrown by parseRequest. */
export function errorBody(error) {
  return { error: { code: error.code, message: error.message, field: error.field ?? null } };
}

/** Whether `error` is one agentwire threw (a real Error with a stable `code`). */
export function isAgentwireError(error) {
  return error instanceof Error && error.name === "AgentwireError" && typeof error.code === "string";
}

/**
 * Starts the scripted agent for a parsed AgentRequest and returns the stream of its events.
 * The response id is the request's `id` and the session id its `session_id` (a fresh one if
 * absent), as the reference runner sets them.
 */
export function agentStream(agentRequest, { delayMs } = {}) {
  return ResponseBuilder.stream(
    (rb, { signal }) => scriptedAgent(rb, { signal, request: agentRequest, delayMs }),
    {
      responseId: agentRequest.id ?? undefined,
      sessionId: agentRequest.session_id ?? crypto.randomUUID(),
      onError: (error) => console.error("agent failed (sent as a failed event):", error),
    },
  );
}

const json = (body, status, headers = CORS_HEADERS) =>
  new Response(JSON.stringify(body), { status, headers: { ...headers, "content-type": "application/json" } });

/**
 * Answers one request.
 * @param {Request} request
 * @param {{ exposeStats?: boolean, delayMs?: number }} [options]
 * @returns {Promise<Response>}
 */
export async function handleFetch(request, { exposeStats = false, delayMs } = {}) {
  const { pathname } = new URL(request.url);
  if (request.method === "OPTIONS") {
    return new Response(null, { status: 204, headers: preflightHeaders(request.headers.get("access-control-request-headers")) });
  }
  if (pathname === "/_stats" && exposeStats) return json(stats, 200);
  if (pathname !== "/process") return json({ error: { code: "NOT_FOUND", message: `No route ${pathname}.`, field: null } }, 404);
  if (request.method !== "POST") {
    return json({ error: { code: "METHOD_NOT_ALLOWED", message: "Use POST.", field: null } }, 405,
      { ...CORS_HEADERS, allow: "POST, OPTIONS" });
  }
  let agentRequest;
  try {
    agentRequest = parseRequest(new Uint8Array(await request.arrayBuffer()));
  } catch (error) {
    if (!isAgentwireError(error)) throw error;
    return json(errorBody(error), 400);
  }
  return new Response(agentStream(agentRequest, { delayMs }), { status: 200, headers: STREAM_HEADERS });
}
