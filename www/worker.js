// The demo's worker (workerd): the page and the package's browser files are static assets
// (served before this code runs); this module answers the API.
//
//   POST /process?protocol=P&scenario=S  an AgentRequest → an event stream in protocol P
//                                         ("agent-api", "openai-responses", or "ag-ui" once the
//                                         package translates to it), from the scripted agent
//                                         (scenario S, see agent.js) or, with UPSTREAM_URL set,
//                                         from that Agent API server, translated on the way
//   GET  /info                            what this worker offers: protocols, scenarios, upstream
//
// Bindings: UPSTREAM_URL (a real Agent API endpoint, e.g. http://127.0.0.1:8090/process),
// DELAY_MS (the scripted agent's pause per word).
import { parseRequest, ResponseBuilder, translate, Translator } from "agentwire";
import { demoAgent, SCENARIOS } from "./agent.js";

const PROTOCOLS = ["agent-api", "openai-responses", "ag-ui"];

/** Whether this package version translates Agent API streams into `protocol`. */
function canServe(protocol) {
  if (protocol === "agent-api") return true;
  try {
    new Translator({ from: "agent-api", to: protocol }).free();
    return true;
  } catch {
    return false;
  }
}

const json = (body, status = 200) => Response.json(body, { status, headers: { "cache-control": "no-store" } });
const fail = (status, code, message, field = null) => json({ error: { code, message, field } }, status);

/** The Agent API stream for this request: the upstream's body, or the scripted agent's. */
async function agentApiStream(request, env, scenario) {
  const body = new Uint8Array(await request.arrayBuffer());
  if (env.UPSTREAM_URL) {
    let upstream;
    try {
      upstream = await fetch(env.UPSTREAM_URL, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body,
        signal: request.signal,
      });
    } catch (error) {
      return fail(502, "UPSTREAM_UNREACHABLE", `${env.UPSTREAM_URL}: ${error.message}`);
    }
    if (!upstream.ok || upstream.body === null) {
      const text = (await upstream.text()).slice(0, 2000);
      return fail(502, "UPSTREAM_ERROR", `${env.UPSTREAM_URL} answered HTTP ${upstream.status}: ${text}`);
    }
    return upstream.body;
  }
  let agentRequest;
  try {
    agentRequest = parseRequest(body);
  } catch (error) {
    if (typeof error?.code !== "string") throw error;
    return fail(400, error.code, error.message, error.field ?? null);
  }
  return ResponseBuilder.stream(
    (rb, { signal }) => demoAgent(rb, { signal, request: agentRequest, scenario, delayMs: env.DELAY_MS ? Number(env.DELAY_MS) : undefined }),
    {
      responseId: agentRequest.id ?? undefined,
      sessionId: agentRequest.session_id ?? crypto.randomUUID(),
      // The page sees the failure as the stream's `failed` event; the log keeps the cause.
      onError: (error) => console.log(`[demo] the agent failed: ${error?.message ?? error}`),
    },
  );
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/info" && request.method === "GET") {
      return json({
        protocols: PROTOCOLS.filter(canServe),
        scenarios: SCENARIOS,
        upstream: env.UPSTREAM_URL || null,
      });
    }
    if (url.pathname !== "/process") return fail(404, "NOT_FOUND", `No route ${url.pathname}.`);
    if (request.method !== "POST") return fail(405, "METHOD_NOT_ALLOWED", "Use POST.");

    const protocol = url.searchParams.get("protocol") ?? "agent-api";
    if (!PROTOCOLS.includes(protocol) || !canServe(protocol)) {
      return fail(400, "INVALID_OPTION", `This worker does not serve protocol ${JSON.stringify(protocol)}.`, "protocol");
    }
    const scenario = url.searchParams.get("scenario") ?? "weather";
    if (!SCENARIOS.includes(scenario)) {
      return fail(400, "INVALID_OPTION", `Unknown scenario ${JSON.stringify(scenario)}.`, "scenario");
    }

    const source = await agentApiStream(request, env, scenario);
    if (source instanceof Response) return source; // an error answer
    const body = protocol === "agent-api"
      ? source
      : translate(source, { from: "agent-api", to: protocol, model: "agentwire-demo" });
    return new Response(body, {
      headers: {
        "content-type": ResponseBuilder.contentType("sse"),
        "cache-control": "no-cache",
        "x-agentwire-protocol": protocol,
        "x-agentwire-source": env.UPSTREAM_URL ? "upstream" : "scripted",
      },
    });
  },
};
