// AgentApp on 127.0.0.1 (node:http through app.nodeListener) against real clients: the official
// `openai` Node client (responses.create, streamed and not), @ag-ui/client's HttpAgent.runAgent,
// @a2a-js/sdk's client (1.0, and its 0.3 method names over raw JSON-RPC), and StreamAssembler on
// /process: each receives the scripted agent's text, its tool call with arguments, and the result.
// Then the HTTP surface: errors, CORS, limits, authorize, onError, switches, custom routes,
// cancel and disconnect, and a seeded corpus of malformed requests on every route.
import test from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { AgentApp, StreamAssembler } from "agentwire";
import { xorshift32 } from "./reference-streams.mjs";
import { loadClient } from "./agui-client.mjs";
import { listen, post } from "./http-helpers.mjs";
import { weatherAgent } from "./scripted-agent.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

const scripted = weatherAgent;

test("StreamAssembler on /process gets the tool call, its result and the text", async () => {
  const { server, base } = await listen(new AgentApp({ name: "Friday", agent: scripted }));
  try {
    const r = await post(`${base}/process`, { input: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }], session_id: "s1", id: "req-1" });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const snapshot = await StreamAssembler.collect(r, { protocol: "agent-api" });
    assert.equal(snapshot.status, "completed");
    assert.equal(snapshot.id, "req-1");
    assert.equal(snapshot.session_id, "s1");
    const [call, output, answer] = snapshot.output;
    assert.deepEqual(call.content[0].data, { call_id: "call_1", name: "get_weather", arguments: '{"city":"Hangzhou"}' });
    assert.deepEqual(output.content[0].data, { call_id: "call_1", name: "get_weather", output: "Sunny" });
    assert.equal(answer.content[0].text, "Sunny in Hangzhou");
  } finally {
    server.close();
  }
});

test("the official openai client: responses.create streamed and not", { skip }, async () => {
  const { default: OpenAI } = await import("openai");
  const { server, base } = await listen(new AgentApp({ agent: scripted }));
  try {
    const client = new OpenAI({ baseURL: `${base}/compatible-mode/v1`, apiKey: "none" });
    const response = await client.responses.create({ model: "scripted", input: "Weather in Hangzhou?" });
    assert.equal(response.status, "completed");
    assert.equal(response.model, "scripted");
    assert.equal(response.output_text, "Sunny in Hangzhou");
    const fc = response.output.find((i) => i.type === "function_call");
    assert.equal(fc.name, "get_weather");
    assert.equal(fc.arguments, '{"city":"Hangzhou"}');
    assert.ok(response.output.some((i) => i.type === "function_call_output" && i.output === "Sunny"));
    const stream = await client.responses.create({ model: "scripted", input: [{ role: "user", content: "Weather?" }], stream: true });
    let text = "";
    let args = "";
    let completed;
    for await (const event of stream) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.function_call_arguments.delta") args += event.delta;
      if (event.type === "response.completed") completed = event.response;
    }
    assert.equal(text, "Sunny in Hangzhou");
    assert.equal(args, '{"city":"Hangzhou"}');
    assert.equal(completed.output_text ?? completed.output.at(-1).content[0].text, "Sunny in Hangzhou");
    // The helper that accumulates: responses.stream().finalResponse().
    const final = await client.responses.stream({ model: "scripted", input: "again" }).finalResponse();
    assert.equal(final.output_text, "Sunny in Hangzhou");
  } finally {
    server.close();
  }
});

test("@ag-ui/client's HttpAgent.runAgent", { skip }, async () => {
  const { client } = await loadClient(ROOT);
  const { server, base } = await listen(new AgentApp({ agent: scripted }));
  try {
    const agent = new client.HttpAgent({ url: `${base}/ag-ui`, threadId: "thread_1" });
    agent.messages = [{ id: "u1", role: "user", content: "Weather?" }];
    const { newMessages } = await agent.runAgent({ runId: "run_1" });
    const assistant = newMessages.filter((m) => m.role === "assistant");
    const calls = assistant.flatMap((m) => m.toolCalls ?? []);
    assert.equal(calls.length, 1);
    assert.equal(calls[0].function.name, "get_weather");
    assert.equal(calls[0].function.arguments, '{"city":"Hangzhou"}');
    assert.ok(newMessages.some((m) => m.role === "tool" && m.content === "Sunny" && m.toolCallId === "call_1"));
    assert.ok(assistant.some((m) => m.content === "Sunny in Hangzhou"));
  } finally {
    server.close();
  }
});

test("@a2a-js/sdk's client (1.0) and 0.3 JSON-RPC on /a2a, with the card for both", { skip }, async () => {
  const sdk = (path) => import(pathToFileURL(`${ROOT}/node_modules/@a2a-js/sdk/dist/${path}`).href);
  const { ClientFactory } = await sdk("client/index.js");
  const { Message, TaskState } = await sdk("index.js");
  const errors = await sdk("errors/index.js");
  const { server, base } = await listen(new AgentApp({ name: "Friday", description: "Weather", agent: scripted,
    skills: [{ id: "weather", name: "Weather", description: "Forecasts", tags: ["weather"] }] }));
  try {
    const card = await (await fetch(`${base}/.well-known/agent-card.json`)).json();
    assert.deepEqual(card.supportedInterfaces.map((i) => [i.url, i.protocolVersion]), [[`${base}/a2a`, "1.0"], [`${base}/a2a`, "0.3"]]);
    assert.equal(card.url, `${base}/a2a`);
    const client = await new ClientFactory().createFromUrl(base);
    const params = { message: Message.fromJSON({ messageId: "u1", role: "ROLE_USER", parts: [{ text: "Weather?" }] }) };
    let text = "";
    const data = [];
    let state;
    for await (const event of client.sendMessageStream(params)) {
      const p = event.payload;
      if (p?.$case === "artifactUpdate") {
        for (const part of p.value.artifact.parts) {
          if (part.content?.$case === "text") text += part.content.value;
          if (part.content?.$case === "data") data.push(part.content.value);
        }
      }
      if (p?.$case === "statusUpdate") state = p.value.status.state;
    }
    assert.equal(text, "Sunny in Hangzhou");
    assert.deepEqual(data[0], { call_id: "call_1", name: "get_weather", arguments: '{"city":"Hangzhou"}' });
    assert.deepEqual(data[1], { call_id: "call_1", name: "get_weather", output: "Sunny" });
    assert.equal(state, TaskState.TASK_STATE_COMPLETED);
    const sent = await client.sendMessage(params);
    const task = sent.payload?.$case === "task" ? sent.payload.value : sent;
    assert.equal(task.status.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal((await client.getTask({ id: task.id })).artifacts.length, 3);
    await assert.rejects(client.getTask({ id: "task_unknown" }), (e) => e instanceof errors.TaskNotFoundError);
    await assert.rejects(client.cancelTask({ id: task.id }), (e) => e instanceof errors.TaskNotCancelableError);
    // 0.3: message/send without a header, answered with a bare Task.
    const old = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 9, method: "message/send",
      params: { message: { kind: "message", messageId: "m9", role: "user", parts: [{ kind: "text", text: "Weather?" }] } } })).json();
    assert.equal(old.id, 9);
    assert.equal(old.result.kind, "task");
    assert.equal(old.result.status.state, "completed");
    assert.equal(old.result.artifacts.at(-1).parts.map((p) => p.text).join(""), "Sunny in Hangzhou");
    // A 1.0 method without the header: -32009.
    const refused = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 10, method: "GetTask", params: { id: task.id } })).json();
    assert.equal(refused.error.code, -32009);
  } finally {
    server.close();
  }
});

test("errors: 404, 405, 413, 415, 400 naming the field, JSON-RPC errors on /a2a, never a 500", async () => {
  const { server, base } = await listen(new AgentApp({ agent: scripted, maxBodyBytes: 1000 }));
  try {
    const expect = async (r, status, code, field) => {
      assert.equal(r.status, status);
      assert.equal(r.headers.get("content-type"), "application/json");
      const body = await r.json();
      assert.equal(body.error.code, code);
      if (field) assert.equal(body.error.field, field);
      return r;
    };
    await expect(await fetch(`${base}/nowhere`), 404, "NOT_FOUND");
    const r405 = await expect(await fetch(`${base}/process`), 405, "METHOD_NOT_ALLOWED");
    assert.equal(r405.headers.get("allow"), "POST, OPTIONS");
    await expect(await post(`${base}/process`, "x".repeat(2000)), 413, "BODY_TOO_LARGE");
    await expect(await post(`${base}/process`, "{}", { "content-type": "application/xml" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expect(await post(`${base}/process`, "{"), 400, "INVALID_JSON");
    await expect(await post(`${base}/process`, { input: "hi" }), 400, "INVALID_REQUEST", "input");
    await expect(await post(`${base}/compatible-mode/v1/responses`, { model: "m" }), 400, "INVALID_REQUEST", "input");
    await expect(await post(`${base}/ag-ui`, { messages: [] }), 400, "INVALID_REQUEST", "threadId");
    // `stream: false` on /process still streams, as the reference answers it.
    const unstreamed = await post(`${base}/process`, { input: [{ role: "user", content: [{ type: "text", text: "hi" }] }], stream: false });
    assert.equal(unstreamed.headers.get("content-type"), "text/event-stream; charset=utf-8");
    assert.equal((await StreamAssembler.collect(unstreamed)).status, "completed");
    const rpc = await post(`${base}/a2a`, "[]");
    assert.equal(rpc.status, 200);
    assert.equal((await rpc.json()).error.code, -32600);
    assert.equal((await fetch(`${base}/health`)).status, 200);
  } finally {
    server.close();
  }
});

test("CORS, authorize, onError, switched-off protocols and custom routes", async () => {
  const errors = [];
  const app = new AgentApp({
    agent: async (request, rb) => {
      if (request.input[0]?.content?.[0]?.text === "boom") throw new Error("the tool broke");
      await scripted(request, rb);
    },
    cors: { origins: ["https://ui.example"] },
    authorize: (request) => request.headers.get("authorization") === "Bearer good" && { id: "u1", name: "Ada" },
    onError: (error) => errors.push(error),
    protocols: { agUi: false },
  });
  app.addEndpoint({ method: "GET", path: "/whoami", handler: (request, { principal }) => Response.json(principal) });
  const { server, base } = await listen(app);
  const auth = { authorization: "Bearer good" };
  try {
    const preflight = await fetch(`${base}/process`, { method: "OPTIONS", headers: { origin: "https://ui.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type,authorization" } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "https://ui.example");
    assert.equal(preflight.headers.get("access-control-allow-headers"), "content-type,authorization");
    const other = await fetch(`${base}/health`, { headers: { origin: "https://evil.example" } });
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    assert.equal((await fetch(`${base}/health`)).status, 200, "health is not authorized");
    assert.equal((await fetch(`${base}/`)).status, 401);
    assert.equal((await fetch(`${base}/`, { headers: { authorization: "Bearer bad" } })).status, 401);
    assert.deepEqual(await (await fetch(`${base}/whoami`, { headers: auth })).json(), { id: "u1", name: "Ada" });
    assert.equal((await post(`${base}/ag-ui`, {}, auth)).status, 404);
    const failed = await StreamAssembler.collect(await post(`${base}/process`, { input: [{ role: "user", content: [{ type: "text", text: "boom" }] }] }, auth));
    assert.equal(failed.status, "failed");
    assert.equal(failed.error.code, "AGENT_ERROR");
    assert.equal(failed.error.message, "the tool broke");
    assert.equal(errors.length, 1);
    assert.equal(errors[0].message, "the tool broke");
  } finally {
    server.close();
  }
});

test("a client going away leaves a run going, or stops it with cancelOnDisconnect; A2A CancelTask stops a running task", async () => {
  for (const cancelOnDisconnect of [false, true]) {
    let aborted;
    let finished = false;
    const app = new AgentApp({
      runs: { cancelOnDisconnect },
      agent: async (request, rb, { signal }) => {
        const text = rb.message().content("text");
        text.delta("working");
        await new Promise((resolve) => {
          signal.addEventListener("abort", resolve, { once: true });
          setTimeout(resolve, 300).unref();
        });
        aborted = signal.aborted;
        finished = true;
      },
    });
    const { server, base } = await listen(app);
    try {
      const r = await post(`${base}/process`, { input: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
      const id = r.headers.get("x-agentwire-run-id");
      const reader = r.body.getReader();
      await reader.read();
      await reader.cancel();
      for (let i = 0; i < 100 && !finished; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(aborted, cancelOnDisconnect, `cancelOnDisconnect: ${cancelOnDisconnect}`);
      const run = await app.runStore.get(id);
      assert.equal(run.status, "ended");
      const snapshot = await StreamAssembler.collect(await fetch(`${base}/process/${id}`));
      assert.equal(snapshot.status, cancelOnDisconnect ? "canceled" : "completed");
    } finally {
      server.close();
      await app.close();
    }
  }
  let aborted;
  const app = new AgentApp({
    agent: async (request, rb, { signal }) => {
      rb.message().content("text").delta("working");
      await new Promise((resolve) => {
        signal.addEventListener("abort", resolve, { once: true });
        setTimeout(resolve, 10_000).unref();
      });
      aborted = signal.aborted;
    },
  });
  const { server, base } = await listen(app);
  try {
    // A2A: a returnImmediately send, then CancelTask from another request.
    const send = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 1, method: "SendMessage", params: {
      message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] }, configuration: { returnImmediately: true } } }, { "A2A-Version": "1.0" })).json();
    const taskId = send.result.task.id;
    const canceled = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 2, method: "CancelTask", params: { id: taskId } }, { "A2A-Version": "1.0" })).json();
    assert.equal(canceled.result.status.state, "TASK_STATE_CANCELED");
    assert.equal(aborted, true);
  } finally {
    server.close();
    await app.close();
  }
});

test("a seeded corpus of 1,200 malformed requests on every route (run routes too): 4xx or JSON-RPC errors, never a 500", async () => {
  const app = new AgentApp({ agent: scripted, maxBodyBytes: 64 * 1024 });
  const next = xorshift32(99);
  const routes = ["/process", "/compatible-mode/v1/responses", "/ag-ui", "/a2a", "/", "/health", "/.well-known/agent-card.json", "/x",
    // Run routes with bad escapes, unknown ids and bad cursors.
    "/process/%E0%A4%A", "/process/%/cancel", "/compatible-mode/v1/responses/%ZZ?stream=true", "/ag-ui/x%2Fy", "/ag-ui/%C0%80/cancel",
    "/process/abc?starting_after=-1", "/process/abc?starting_after=99999999999999999999", "/compatible-mode/v1/responses/r?starting_after=1e3"];
  const valid = {
    "/process": '{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}',
    "/compatible-mode/v1/responses": '{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}]}',
    "/ag-ui": '{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"hi"}],"tools":[],"context":[],"state":{},"forwardedProps":{}}',
    "/a2a": '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}',
  };
  const junk = ["{", "}", "[", "]", '"', ",", ":", "null", "1e999", "-", "\\ud800", "\u0000", "é", "[".repeat(300), '"input"', '"messages"', '"params"'];
  const statuses = new Map();
  for (let i = 0; i < 1200; i++) {
    const route = routes[next() % routes.length];
    let body = valid[route] ?? "{}";
    for (let k = 1 + (next() % 3); k > 0; k--) {
      const at = next() % (body.length + 1);
      body = body.slice(0, at) + junk[next() % junk.length] + body.slice(at + (next() % 4));
    }
    if (next() % 20 === 0) body = "x".repeat(70 * 1024);
    const method = ["POST", "POST", "POST", "GET", "PUT", "DELETE"][next() % 6];
    const headers = { "content-type": ["application/json", "text/html", "application/json; charset=utf-8", ""][next() % 4] };
    if (next() % 3 === 0) headers["a2a-version"] = ["1.0", "0.3", "9", "x"][next() % 4];
    if (next() % 4 === 0) headers["last-event-id"] = ["", "-1", "1e3", "x", "99999999999999999999", "7"][next() % 6];
    const request = new Request(`http://app${route}`, { method, headers, body: method === "GET" ? undefined : body });
    const response = await app.fetch(request);
    assert.ok(response.status < 500, `${method} ${route} ${body.slice(0, 80)} → ${response.status}`);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    await response.arrayBuffer();
  }
  for (const status of [400, 404, 405, 413, 415]) assert.ok(statuses.get(status) > 0, `no ${status}: ${[...statuses]}`);
  // A run starts only from a JSON content type: no type (a no-CORS fetch) is 415 too.
  assert.equal((await app.fetch(new Request("http://app/process", { method: "POST", body: valid["/process"] }))).status, 415);
  const after = await app.fetch(new Request("http://app/process", { method: "POST", headers: { "content-type": "application/json" }, body: valid["/process"] }));
  const snapshot = await StreamAssembler.collect(after);
  assert.equal(snapshot.output.at(-1).content[0].text, "Sunny in Hangzhou");
});

test("AgentApp refuses options it cannot use, naming them", () => {
  for (const [options, field] of [[{}, "agent"], [{ agent: scripted, colour: 1 }, "colour"], [{ agent: scripted, maxBodyBytes: 0 }, "maxBodyBytes"],
    [{ agent: scripted, paths: { process: "process" } }, "paths"], [{ agent: scripted, protocols: { grpc: true } }, "protocols"]]) {
    assert.throws(() => new AgentApp(options), (e) => e.code === "INVALID_OPTION" && e.field === field, JSON.stringify(Object.keys(options)));
  }
});
