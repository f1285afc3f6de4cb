// AgentApp under Deno (`deno test`, the deno suite): `Deno.serve(app.fetch)` on 127.0.0.1, read
// over HTTP on every protocol's route: the official `openai` client (from the project's
// node_modules) on the Responses route, StreamAssembler and the raw answers elsewhere (the other
// official clients run against Node and workerd: tests/js/app.test.mjs, runners/workerd.mjs).
import assert from "node:assert/strict";

const assertEquals = (actual, expected) => assert.deepStrictEqual(actual, expected);
import { AgentApp, StreamAssembler } from "agentwire";
import { weatherAgent } from "./scripted-agent.mjs";
import { GUARANTEES, guaranteeApp } from "./server-guarantees.mjs";

const scripted = weatherAgent;

Deno.test("AgentApp under Deno.serve answers every protocol's route", async () => {
  const app = new AgentApp({ name: "Friday", agent: scripted });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const post = (path, body, headers = {}) => fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  try {
    const process = await StreamAssembler.collect(await post("/process", { input: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }] }));
    assertEquals(process.output.map((m) => m.type), ["function_call", "function_call_output", "message"]);
    assertEquals(process.output[2].content[0].text, "Sunny in Hangzhou");
    const { default: OpenAI } = await import("openai");
    const client = new OpenAI({ baseURL: `${base}/compatible-mode/v1`, apiKey: "none" });
    const response = await client.responses.create({ model: "m", input: "Weather?" });
    assertEquals(response.status, "completed");
    assertEquals(response.output_text, "Sunny in Hangzhou");
    assertEquals(response.output[0].arguments, '{"city":"Hangzhou"}');
    const streamed = await client.responses.stream({ model: "m", input: "Weather?" }).finalResponse();
    assertEquals(streamed.output_text, "Sunny in Hangzhou");
    const agui = await StreamAssembler.collect(await post("/ag-ui", { threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "Weather?" }], tools: [], context: [], state: {}, forwardedProps: {} }), { protocol: "ag-ui" });
    assertEquals(agui.messages.at(-1).content, "Sunny in Hangzhou");
    const card = await (await fetch(`${base}/.well-known/agent-card.json`)).json();
    assertEquals(card.name, "Friday");
    const sent = await (await post("/a2a", { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: "Weather?" }] } } }, { "A2A-Version": "1.0" })).json();
    assertEquals(sent.result.task.status.state, "TASK_STATE_COMPLETED");
    assertEquals((await fetch(`${base}/nowhere`)).status, 404);
    assertEquals((await fetch(`${base}/health`)).status, 200);
  } finally {
    await server.shutdown();
  }
});

/** Sends raw bytes to `port` on 127.0.0.1; resolves with what came back before it closed or `ms` passed. */
async function raw(port, text, ms = 1500) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  let answer = "";
  const timer = setTimeout(() => conn.close(), ms);
  try {
    await conn.write(new TextEncoder().encode(text));
    const buf = new Uint8Array(4096);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      answer += new TextDecoder().decode(buf.subarray(0, n));
    }
  } catch {
    // Closed: what came back is the answer.
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch {
      // Closed already.
    }
  }
  return answer;
}

Deno.test("the Responses WebSocket mode under Deno.serve (Deno.upgradeWebSocket from app.fetch)", async () => {
  const { socketChecks } = await import("./socket-checks.mjs");
  const app = new AgentApp({ agent: (request, rb) => void rb.message().content("text").delta(`answer ${request.input.length}`) });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  try {
    await socketChecks({ url: `ws://127.0.0.1:${server.addr.port}/compatible-mode/v1/responses`, WebSocketImpl: WebSocket, assert });
  } finally {
    await server.shutdown();
    await app.close();
  }
});

Deno.test("the shared server guarantees under Deno.serve", async (t) => {
  const app = guaranteeApp(AgentApp);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const ctx = { fetch, base, assert, raw: (text) => raw(server.addr.port, text), store: "memory" };
  try {
    for (const [name, check] of Object.entries(GUARANTEES)) await t.step(name, () => check(ctx));
  } finally {
    await app.close();
    await server.shutdown();
  }
});
