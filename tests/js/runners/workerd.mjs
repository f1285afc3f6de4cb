// workerd smoke test: runs a worker in miniflare (real workerd, 127.0.0.1 only) that imports the
// installed package through its `workerd` export condition, with the .wasm as a CompiledWasm
// module, and checks (1) a fetch answered with parseRequest and (2) the shared cases in-worker;
// then (3) a worker that is `export default { fetch: app.fetch }` of an AgentApp, read over HTTP
// by the official clients (openai, @ag-ui/client, @a2a-js/sdk) and StreamAssembler.
// Usage: node tests/js/runners/workerd.mjs <project dir with node_modules/agentwire>
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";
import { Miniflare } from "miniflare";
import { resolveEntry } from "./resolve.mjs";
import { checks, report } from "./tap.mjs";

const project = process.argv[2];
if (!project) throw new Error("usage: workerd.mjs <project dir>");
// The conditions wrangler uses for Workers.
const conditions = ["workerd", "worker", "browser", "import", "default"];
const entry = resolveEntry(project, "agentwire", conditions);
const liteEntry = resolveEntry(project, "agentwire/lite", conditions);
const clientEntry = resolveEntry(project, "agentwire/client", conditions);
const pkgDir = dirname(entry);

const workerPath = join(project, "worker.mjs");
writeFileSync(workerPath, `
import * as api from "./${relative(project, entry)}";
import * as lite from "./${relative(project, liteEntry)}";
import * as client from "./${relative(project, clientEntry)}";
import assert from "node:assert/strict";
import { cases } from "./tests/cases.mjs";
import { liteCases } from "./tests/lite-cases.mjs";
import { assemblerCases } from "./tests/assembler-cases.mjs";
import { runCases } from "./tests/runners/tap.mjs";

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === "/process" && request.method === "POST") {
      try {
        const parsed = api.parseRequest(new Uint8Array(await request.arrayBuffer()));
        return Response.json(parsed);
      } catch (e) {
        return Response.json({ name: e.name, code: e.code, field: e.field ?? null }, { status: 400 });
      }
    }
    if (pathname === "/cases") return Response.json(await runCases(cases, api, assert));
    if (pathname === "/lite-cases") return Response.json(await runCases(liteCases, lite, assert));
    if (pathname === "/client-cases") return Response.json(await runCases(assemblerCases, client, assert));
    return new Response("not found", { status: 404 });
  },
};
`);

// The AgentApp worker, exactly as the README writes it, with the scripted agent.
const appWorkerPath = join(project, "app-worker.mjs");
writeFileSync(appWorkerPath, `
import { AgentApp } from "./${relative(project, entry)}";
import { weatherAgent } from "./tests/scripted-agent.mjs";

const app = new AgentApp({ name: "Friday", description: "Weather", version: "1.0.0", agent: weatherAgent });
export default { fetch: app.fetch };
`);

// The shared guarantees' app (tests/js/server-guarantees.mjs), on the memory store.
const guaranteeWorkerPath = join(project, "guarantee-worker.mjs");
writeFileSync(guaranteeWorkerPath, `
import { AgentApp } from "./${relative(project, entry)}";
import { guaranteeApp } from "./tests/server-guarantees.mjs";

const app = guaranteeApp(AgentApp);
export default { fetch: app.fetch };
`);

const esm = (path) => ({ type: "ESModule", path });
function jsFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => /\.(m?js)$/.test(f) && !f.endsWith(".test.mjs"))
    .map((f) => join(dir, f));
}
const mf = new Miniflare({
  host: "127.0.0.1",
  port: 0,
  compatibilityDate: "2025-09-01",
  compatibilityFlags: ["nodejs_compat"],
  modulesRoot: project,
  modules: [
    esm(workerPath),
    // Every module of the package and of the shared tests, as a bundler would include them.
    ...jsFiles(pkgDir).map(esm),
    { type: "CompiledWasm", path: join(pkgDir, "agentwire_bg.wasm") },
    { type: "CompiledWasm", path: join(dirname(liteEntry), "agentwire_bg.wasm") },
    { type: "CompiledWasm", path: join(dirname(clientEntry), "agentwire_bg.wasm") },
    ...jsFiles(join(project, "tests")).map(esm),
  ],
});

const appMf = new Miniflare({
  host: "127.0.0.1",
  port: 0,
  compatibilityDate: "2025-09-01",
  modulesRoot: project,
  modules: [esm(appWorkerPath), esm(join(project, "tests/scripted-agent.mjs")), ...jsFiles(pkgDir).map(esm), { type: "CompiledWasm", path: join(pkgDir, "agentwire_bg.wasm") }],
});

const guaranteeMf = new Miniflare({
  host: "127.0.0.1",
  port: 0,
  compatibilityDate: "2025-09-01",
  // request.signal aborts when the client goes away: how an app in workerd learns a reader left.
  compatibilityFlags: ["enable_request_signal"],
  modulesRoot: project,
  modules: [esm(guaranteeWorkerPath), esm(join(project, "tests/server-guarantees.mjs")), ...jsFiles(pkgDir).map(esm), { type: "CompiledWasm", path: join(pkgDir, "agentwire_bg.wasm") }],
});

const { results, check } = checks();
function expect(actual, expected, what) {
  const a = JSON.stringify(actual), b = JSON.stringify(expected);
  if (a !== b) throw new Error(`${what}: got ${a}, expected ${b}`);
}
const post = (body) => mf.dispatchFetch("http://localhost/process", { method: "POST", body });

try {
  await mf.ready;
  await check("the workerd condition is the entry", () => expect(relative(pkgDir, entry), "workerd.js", "entry"));
  await check("the workerd condition is agentwire/lite's entry",
    () => expect(relative(pkgDir, liteEntry), "lite/workerd.js", "entry"));
  await check("the workerd condition is agentwire/client's entry",
    () => expect(relative(pkgDir, clientEntry), "client/workerd.js", "entry"));
  await check("POST /process answers with the parsed request and its defaults", async () => {
    const res = await post('{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"session_id":"s1"}');
    expect(res.status, 200, "status");
    const body = await res.json();
    expect([body.stream, body.n, body.model, body.session_id, body.input[0].role], [true, 1, null, "s1", "user"], "fields");
  });
  await check("POST /process without input answers INVALID_REQUEST on input", async () => {
    const res = await post('{"stream":true}');
    expect(res.status, 400, "status");
    expect(await res.json(), { name: "AgentwireError", code: "INVALID_REQUEST", field: "input" }, "error");
  });
  await check("POST /process with non-UTF-8 bytes answers INVALID_UTF8", async () => {
    const res = await post(new Uint8Array([0x7b, 0xff, 0x7d]));
    expect((await res.json()).code, "INVALID_UTF8", "code");
  });
  for (const path of ["/cases", "/lite-cases", "/client-cases"]) {
    const res = await mf.dispatchFetch(`http://localhost${path}`);
    if (res.status !== 200) throw new Error(`${path}: status ${res.status}: ${await res.text()}`);
    const label = path === "/client-cases" ? "in-worker, agentwire/client" : "in-worker";
    for (const r of await res.json()) results.push({ ...r, name: `${label}: ${r.name}` });
  }
  const base = (await appMf.ready).origin;
  const { StreamAssembler } = await import(pathToFileURL(resolveEntry(project, "agentwire", ["node", "import", "default"])).href);
  const root = new URL("../../../", import.meta.url);
  await check("AgentApp in workerd: StreamAssembler on /process", async () => {
    const res = await fetch(`${base}/process`, { method: "POST", headers: { "content-type": "application/json" },
      body: '{"input":[{"role":"user","content":[{"type":"text","text":"Weather?"}]}]}' });
    const snapshot = await StreamAssembler.collect(res, { protocol: "agent-api" });
    expect(snapshot.output.map((m) => m.type), ["function_call", "function_call_output", "message"], "messages");
    expect(snapshot.output[0].content[0].data.arguments, '{"city":"Hangzhou"}', "arguments");
    expect(snapshot.output[2].content[0].text, "Sunny in Hangzhou", "text");
  });
  await check("AgentApp in workerd: the openai client, streamed and not", async () => {
    const { default: OpenAI } = await import(new URL("node_modules/openai/index.mjs", root).href);
    const client = new OpenAI({ baseURL: `${base}/compatible-mode/v1`, apiKey: "none" });
    const response = await client.responses.create({ model: "m", input: "Weather?" });
    expect(response.output_text, "Sunny in Hangzhou", "text");
    expect(response.output[0].arguments, '{"city":"Hangzhou"}', "arguments");
    const final = await client.responses.stream({ model: "m", input: "Weather?" }).finalResponse();
    expect(final.output_text, "Sunny in Hangzhou", "streamed text");
  });
  await check("AgentApp in workerd: @ag-ui/client's HttpAgent", async () => {
    const client = await import(new URL("node_modules/@ag-ui/client/dist/index.mjs", root).href);
    const agent = new client.HttpAgent({ url: `${base}/ag-ui`, threadId: "t1" });
    agent.messages = [{ id: "u1", role: "user", content: "Weather?" }];
    const { newMessages } = await agent.runAgent({ runId: "r1" });
    expect(newMessages.filter((m) => m.role === "assistant").flatMap((m) => m.toolCalls ?? []).map((c) => c.function.arguments), ['{"city":"Hangzhou"}'], "tool call");
    expect(newMessages.some((m) => m.role === "assistant" && m.content === "Sunny in Hangzhou"), true, "text");
  });
  await check("AgentApp in workerd: @a2a-js/sdk's client", async () => {
    const { ClientFactory } = await import(new URL("node_modules/@a2a-js/sdk/dist/client/index.js", root).href);
    const { Message } = await import(new URL("node_modules/@a2a-js/sdk/dist/index.js", root).href);
    const client = await new ClientFactory().createFromUrl(base);
    let text = "";
    for await (const event of client.sendMessageStream({ message: Message.fromJSON({ messageId: "u1", role: "ROLE_USER", parts: [{ text: "Weather?" }] }) })) {
      if (event.payload?.$case === "artifactUpdate") {
        for (const part of event.payload.value.artifact.parts) if (part.content?.$case === "text") text += part.content.value;
      }
    }
    expect(text, "Sunny in Hangzhou", "text");
  });
  await check("AgentApp in workerd: the Responses WebSocket mode (a WebSocketPair from app.fetch)", async () => {
    const { default: WebSocket } = await import(new URL("node_modules/ws/wrapper.mjs", root).href);
    const { socketChecks } = await import(pathToFileURL(join(project, "tests/socket-checks.mjs")).href);
    const assert = await import("node:assert/strict");
    await socketChecks({ url: `${base.replace(/^http/, "ws")}/compatible-mode/v1/responses`, WebSocketImpl: WebSocket, assert });
  });
  // The shared guarantees, over real HTTP to workerd with keep-alive (Node's fetch keeps
  // connections open), the memory store.
  const guaranteeBase = (await guaranteeMf.ready).origin;
  const { raw } = await import(pathToFileURL(join(project, "tests/raw-socket.mjs")).href);
  const { runGuarantees } = await import(pathToFileURL(join(project, "tests/server-guarantees.mjs")).href);
  const gaps = {};
  const skip = { "odd Host headers are 4xx, never 500": "workerd answers 500 itself before the worker runs (kj url: invalid hostname)" };
  for (const r of await runGuarantees({ fetch, base: guaranteeBase, assert, raw: (text) => raw(guaranteeBase, text), store: "memory" }, { skip, gaps })) {
    results.push({ ...r, name: `guarantees, memory store: ${r.name}` });
  }
} catch (e) {
  results.push({ name: "the worker runs", ok: false, error: e?.stack ?? String(e) });
} finally {
  await mf.dispose();
  await appMf.dispose();
  await guaranteeMf.dispose();
}
process.exitCode = report("workerd", results) === 0 ? 0 : 1;
