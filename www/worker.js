// The demo's worker (workerd): the page and the package's browser files are static assets
// (served before this code runs); this module answers the API with an AgentApp serving the
// scripted agent (agent.js) over every protocol:
//
//   POST /process, /compatible-mode/v1/responses, /ag-ui, /a2a   the Agent API, OpenAI Responses,
//        AG-UI and A2A 1.0/0.3 (`?scenario=S` picks the scripted agent's scenario)
//   GET  /.well-known/agent-card.json, /health, /                 the agent card, health, routes
//   GET  /info                                                    what this worker offers
//
// With UPSTREAM_URL set (a real Agent API endpoint, e.g. http://127.0.0.1:8090/process),
// POST /process?protocol=P proxies to it instead, translating its stream into P on the way.
// DELAY_MS: the scripted agent's pause per word.
import { AgentApp, ResponseBuilder, translate, Translator } from "agentwire";
import { demoAgent, SCENARIOS } from "./agent.js";

const PROTOCOLS = ["agent-api", "openai-responses", "ag-ui", "a2a"];

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

/** The upstream's Agent API stream for this request, or an error answer. */
async function upstreamStream(request, env) {
  const body = new Uint8Array(await request.arrayBuffer());
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

/** One AgentApp per scenario, made on first use (the bindings arrive with the first request). */
const apps = new Map();
function appFor(scenario, env) {
  if (!apps.has(scenario)) {
    apps.set(scenario, new AgentApp({
      name: "agentwire demo",
      description: "A scripted weather agent: reasoning, a tool call, a table, a chart and a file.",
      version: "1.0.0",
      skills: [{ id: "weather", name: "Weather", description: "Three days of made-up weather for a city", tags: ["weather", "demo"], examples: ["What's the weather in Paris?"] }],
      agent: (request, rb, { signal }) => demoAgent(rb, { signal, request, scenario, delayMs: env.DELAY_MS ? Number(env.DELAY_MS) : undefined }),
      // The page sees a failure as the stream's failure event; the log keeps the cause.
      onError: (error) => console.log(`[demo] ${error?.message ?? error}`),
    }));
  }
  return apps.get(scenario);
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/info" && request.method === "GET") {
      return json({
        protocols: env.UPSTREAM_URL ? PROTOCOLS.filter((p) => p !== "a2a" && canServe(p)) : PROTOCOLS.filter(canServe),
        scenarios: SCENARIOS,
        upstream: env.UPSTREAM_URL || null,
      });
    }
    const scenario = url.searchParams.get("scenario") ?? "weather";
    if (!SCENARIOS.includes(scenario)) {
      return fail(400, "INVALID_OPTION", `Unknown scenario ${JSON.stringify(scenario)}.`, "scenario");
    }
    if (!env.UPSTREAM_URL) return appFor(scenario, env).fetch(request);

    // Proxy mode: /process only, in the protocol the page asks for.
    if (url.pathname !== "/process") return fail(404, "NOT_FOUND", `No route ${url.pathname} in proxy mode.`);
    if (request.method !== "POST") return fail(405, "METHOD_NOT_ALLOWED", "Use POST.");
    const protocol = url.searchParams.get("protocol") ?? "agent-api";
    if (!PROTOCOLS.includes(protocol) || protocol === "a2a" || !canServe(protocol)) {
      return fail(400, "INVALID_OPTION", `This worker does not proxy protocol ${JSON.stringify(protocol)}.`, "protocol");
    }
    const source = await upstreamStream(request, env);
    if (source instanceof Response) return source; // an error answer
    const body = protocol === "agent-api"
      ? source
      : translate(source, { from: "agent-api", to: protocol, model: "agentwire-demo" });
    return new Response(body, {
      headers: {
        "content-type": ResponseBuilder.contentType("sse"),
        "cache-control": "no-cache",
        "x-agentwire-protocol": protocol,
        "x-agentwire-source": "upstream",
      },
    });
  },
};
