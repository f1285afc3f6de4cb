// A2A 1.0 and 0.3 from JavaScript, judged by the official JS SDK (@a2a-js/sdk 1.3.0, pinned):
// its protobuf JSON types parse every 1.0 event, answer and card agentwire writes, and read them
// back identically; its client (ClientFactory over JSON-RPC, the card fetched first) talks to a
// server on 127.0.0.1 made of agentwire's pieces (a2aAgentCard, a2aCall, translate, a2aTask,
// a2aError) and gets the run's text, tool call and result, the non-streamed task, and typed
// errors. Malformed requests: a seeded corpus never throws and never loses the instance.
import test from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { StreamAssembler, a2aAgentCard, a2aCall, a2aError, a2aTask, translate, wasmMemoryBytes } from "agentwire";
import { referenceStreams, xorshift32 } from "./reference-streams.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;
const sdk = (path) => import(pathToFileURL(`${ROOT}/node_modules/@a2a-js/sdk/dist/${path}`).href);

async function bytesOf(stream) {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function toA2a(bytes, version = "1.0", requestId = 1) {
  const stream = new ReadableStream({ start(c) { c.enqueue(bytes); c.close(); } });
  return bytesOf(translate(stream, { from: "agent-api", to: version === "1.0" ? "a2a" : "a2a-0.3", requestId }));
}

function payloads(bytes) {
  return new TextDecoder().decode(bytes).split("\n\n").filter((f) => f.startsWith("data: ")).map((f) => JSON.parse(f.slice(6)));
}

test("@a2a-js/sdk parses every 1.0 event, answer and card agentwire writes, and reads each back identically", { skip }, async () => {
  const { StreamResponse, SendMessageResponse, AgentCard } = await sdk("index.js");
  let events = 0;
  for (const [name, bytes] of referenceStreams()) {
    const a2a = await toA2a(bytes);
    for (const e of payloads(a2a)) {
      assert.equal(e.jsonrpc, "2.0");
      assert.deepEqual(StreamResponse.toJSON(StreamResponse.fromJSON(e.result)), e.result, `${name}: ${JSON.stringify(e.result)}`);
      events++;
    }
    const { sendMessageResult } = a2aTask(a2a);
    assert.deepEqual(SendMessageResponse.toJSON(SendMessageResponse.fromJSON(sendMessageResult)), sendMessageResult, name);
  }
  assert.ok(events > 100, `${events} events`);
  const card = a2aAgentCard({ name: "Weather", description: "Forecasts", version: "1.0.0", url: "http://127.0.0.1:1/a2a",
    provider: { organization: "Example", url: "https://example.com" },
    skills: [{ id: "forecast", name: "Forecast", description: "Next days", tags: ["weather"], examples: ["Rain?"] }] });
  assert.deepEqual(AgentCard.toJSON(AgentCard.fromJSON(card)), card);
});

test("the 0.3 method names map to the 1.0 ones as @a2a-js/sdk maps them", { skip }, async () => {
  const compat = await sdk("compat/v0_3/index.js");
  const names = ["message/send", "message/stream", "tasks/get", "tasks/cancel", "tasks/resubscribe",
    "tasks/pushNotificationConfig/set", "tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/list",
    "tasks/pushNotificationConfig/delete", "agent/getAuthenticatedExtendedCard"];
  for (const legacy of names) {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: legacy, params: { id: "t", taskId: "t", message: { kind: "message", messageId: "m", role: "user", parts: [] } } });
    const { call, error } = a2aCall(body);
    assert.equal(error, undefined, legacy);
    assert.equal(call.method, compat.legacyJsonRpcToV1Method(legacy), legacy);
    assert.equal(call.version, "0.3");
  }
});

/** A scripted run (reasoning-free): text, a tool call with its result, then the answer. */
function run(id, context) {
  const lines = [
    { object: "response", status: "created", id, session_id: context },
    { object: "response", status: "in_progress", id, session_id: context },
    { object: "message", status: "completed", id: "m_call", type: "function_call", role: "assistant",
      content: [{ object: "content", type: "data", status: "completed", index: 0, msg_id: "m_call",
        data: { call_id: "c1", name: "get_weather", arguments: "{\"city\":\"Hangzhou\"}" } }] },
    { object: "message", status: "completed", id: "m_out", type: "function_call_output", role: "tool",
      content: [{ object: "content", type: "data", status: "completed", index: 0, msg_id: "m_out",
        data: { call_id: "c1", name: "get_weather", output: "Sunny" } }] },
    { object: "message", status: "in_progress", id: "m_text", type: "message", role: "assistant" },
    { object: "content", type: "text", status: "in_progress", delta: true, index: 0, msg_id: "m_text", text: "Sunny in " },
    { object: "content", type: "text", status: "in_progress", delta: true, index: 0, msg_id: "m_text", text: "Hangzhou" },
    { object: "content", type: "text", status: "completed", index: 0, msg_id: "m_text", text: "Sunny in Hangzhou" },
    { object: "message", status: "completed", id: "m_text", type: "message", role: "assistant" },
    { object: "response", status: "completed", id, session_id: context },
  ];
  return new TextEncoder().encode(lines.map((l) => `data: ${JSON.stringify(l)}\n\n`).join(""));
}

/** An A2A server on 127.0.0.1 made of agentwire's pieces; `base` is its URL. */
async function serve() {
  const tasks = new Map();
  let n = 0;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const base = `http://127.0.0.1:${server.address().port}`;
    if (req.method === "GET" && url.pathname === "/.well-known/agent-card.json") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(a2aAgentCard({ name: "Weather", description: "Forecasts", version: "1.0.0", url: `${base}/a2a`,
        skills: [{ id: "forecast", name: "Forecast", description: "Next days", tags: ["weather"] }] })));
      return;
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const { call, error } = a2aCall(new Uint8Array(Buffer.concat(chunks)), req.headers["a2a-version"]);
    const json = (body) => { res.writeHead(200, { "content-type": "application/json" }); res.end(JSON.stringify(body)); };
    if (error) return json(error);
    const answer = (result) => json({ jsonrpc: "2.0", id: call.id, result });
    if (call.method === "SendMessage" || call.method === "SendStreamingMessage") {
      const id = `task_${++n}`;
      const a2a = await toA2a(run(id, call.request.session_id ?? `ctx_${n}`), call.version, call.id);
      const folded = a2aTask(a2a, { version: call.version });
      tasks.set(id, a2a);
      if (!call.streaming) return answer(folded.sendMessageResult);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(a2a);
      return;
    }
    if (call.method === "GetTask") {
      const a2a = tasks.get(call.taskId);
      if (!a2a) return json(a2aError("TASK_NOT_FOUND", `No task ${call.taskId}.`, { id: call.id, version: call.version }));
      return answer(a2aTask(a2a, { version: call.version, historyLength: call.historyLength ?? undefined }).task);
    }
    return json(a2aError("UNSUPPORTED_OPERATION", `${call.method} is not supported.`, { id: call.id, version: call.version }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

test("@a2a-js/sdk's client streams, sends and gets tasks from a server made of agentwire's A2A pieces", { skip }, async () => {
  const { ClientFactory } = await sdk("client/index.js");
  const errors = await sdk("errors/index.js");
  const { server, base } = await serve();
  try {
    const client = await new ClientFactory().createFromUrl(base);
    const { Message } = await sdk("index.js");
    const params = { message: Message.fromJSON({ messageId: "u1", role: "ROLE_USER", parts: [{ text: "Weather?" }], contextId: "ctx_9" }) };
    // Streamed: the SDK's own events, folded by hand.
    const texts = new Map();
    const data = [];
    let last;
    for await (const event of client.sendMessageStream(params)) {
      const p = event.payload;
      if (p?.$case === "artifactUpdate") {
        const a = p.value.artifact;
        for (const part of a.parts) {
          if (part.content?.$case === "text") texts.set(a.artifactId, (texts.get(a.artifactId) ?? "") + part.content.value);
          if (part.content?.$case === "data") data.push(part.content.value);
        }
      }
      if (p?.$case === "statusUpdate") last = p.value.status.state;
    }
    assert.deepEqual([...texts.values()], ["Sunny in Hangzhou"]);
    assert.deepEqual(data, [
      { call_id: "c1", name: "get_weather", arguments: "{\"city\":\"Hangzhou\"}" },
      { call_id: "c1", name: "get_weather", output: "Sunny" },
    ]);
    const { TaskState } = await sdk("index.js");
    assert.equal(last, TaskState.TASK_STATE_COMPLETED);
    // Not streamed: the folded task.
    const sent = await client.sendMessage(params);
    const task = sent.payload?.$case === "task" ? sent.payload.value : sent;
    assert.equal(task.status.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(task.contextId, "ctx_9");
    assert.equal(task.artifacts.length, 3);
    const got = await client.getTask({ id: task.id, historyLength: 0 });
    assert.equal(got.id, task.id);
    assert.equal(got.artifacts.length, 3);
    // Errors arrive as the SDK's typed errors.
    await assert.rejects(client.getTask({ id: "task_missing" }), (e) => e instanceof errors.TaskNotFoundError);
    await assert.rejects(client.cancelTask({ id: task.id }), (e) => e instanceof errors.UnsupportedOperationError);
  } finally {
    server.close();
  }
});

test("a2aCall answers a seeded corpus of 3,000 malformed requests without throwing or losing the instance", () => {
  const valid = [
    '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{"historyLength":2}}}',
    '{"jsonrpc":"2.0","id":"x","method":"tasks/get","params":{"id":"t","historyLength":3}}',
    '{"jsonrpc":"2.0","id":2,"method":"message/stream","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"file","file":{"uri":"https://x/a.png","mimeType":"image/png"}}]}}}',
  ];
  const next = xorshift32(17);
  const junk = ['"', "{", "}", "[", "]", ",", ":", "null", "-1", "1e999", "\\u0000", "\\ud800", "true", '"params"', '"id"', "\u00e9", "\uffff"];
  const codes = new Map();
  const memory = wasmMemoryBytes();
  for (let i = 0; i < 3000; i++) {
    let body = valid[next() % valid.length];
    for (let k = 1 + (next() % 4); k > 0; k--) {
      const at = next() % (body.length + 1);
      const cut = next() % 3;
      body = body.slice(0, at) + (next() % 2 ? junk[next() % junk.length] : "") + body.slice(at + cut);
    }
    const header = [undefined, "1.0", "0.3", "2.0", "", "1.x"][next() % 6];
    const input = next() % 2 ? body : new TextEncoder().encode(body);
    const { call, error } = a2aCall(input, header);
    assert.ok((call === undefined) !== (error === undefined));
    if (error) {
      assert.equal(error.jsonrpc, "2.0");
      assert.ok(Number.isInteger(error.error.code) && error.error.message.length > 0, JSON.stringify(error));
      codes.set(error.error.code, (codes.get(error.error.code) ?? 0) + 1);
    }
  }
  // Deep nesting and a large body: errors, not traps.
  assert.equal(a2aCall("[".repeat(100000), "1.0").error.error.code, -32700);
  assert.equal(a2aCall(`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"${"t".repeat(1 << 20)}"}}`, "1.0").call.taskId.length, 1 << 20);
  for (const code of [-32700, -32600, -32601, -32602, -32009]) assert.ok(codes.get(code) > 0, `no ${code}: ${[...codes]}`);
  assert.ok(wasmMemoryBytes() <= memory + 64 * 1024 * 1024);
  assert.equal(a2aCall(valid[0], "1.0").call.method, "SendMessage");
});

test("a2aError and a2aAgentCard refuse what they cannot write, naming the field", () => {
  assert.deepEqual(a2aError("TASK_NOT_FOUND", "No task t9.", { id: 4, version: "0.3", field: "params.id" }),
    { jsonrpc: "2.0", id: 4, error: { code: -32001, message: "No task t9.", data: { field: "params.id" } } });
  assert.equal(a2aError(-32004, "No.").error.data[0].reason, "UNSUPPORTED_OPERATION");
  for (const [args, field] of [[["NOPE", "x"], "code"], [[-1, "x"], "code"], [["TASK_NOT_FOUND", "x", { id: true }], "id"],
    [["TASK_NOT_FOUND", "x", { version: "2.0" }], "version"], [["TASK_NOT_FOUND", "x", { other: 1 }], "other"]]) {
    assert.throws(() => a2aError(...args), (e) => e.code === "INVALID_OPTION" && e.field === field, JSON.stringify(args));
  }
  const description = { name: "A", description: "B", version: "1", url: "http://x/a2a" };
  for (const [bad, field] of [[{ name: 1 }, "name"], [{ url: undefined }, "url"], [{ skills: [{ id: "s" }] }, "name"],
    [{ skills: {} }, "skills"], [{ streaming: "yes" }, "streaming"], [{ colour: "red" }, "colour"]]) {
    assert.throws(() => a2aAgentCard({ ...description, ...bad }), (e) => e.code === "INVALID_OPTION" && e.field === field, JSON.stringify(bad));
  }
  assert.throws(() => a2aAgentCard(description, { version: "2.0" }), (e) => e.code === "INVALID_OPTION" && e.field === "version");
  assert.equal(a2aAgentCard(description, { version: "0.3" }).protocolVersion, "0.3.0");
  assert.equal(a2aAgentCard(description).supportedInterfaces[0].protocolVersion, "1.0");
  const both = a2aAgentCard(description, { version: "both" });
  assert.deepEqual(both.supportedInterfaces.map((i) => i.protocolVersion), ["1.0", "0.3"]);
  assert.equal(both.protocolVersion, "0.3");
  assert.equal(both.url, "http://x/a2a");
});

/** The text of an Agent API snapshot's output, message by message. */
function outputText(snapshot) {
  return snapshot.output.map((m) => (m.content ?? []).map((c) => c.text ?? "").join(""));
}

function assembled(bytes, protocol) {
  const asm = new StreamAssembler({ protocol });
  try {
    asm.push(bytes);
    asm.finish();
    return { outcome: asm.outcome, snapshot: asm.snapshot() };
  } finally {
    asm.free();
  }
}

test("a stream whose one task event is already completed assembles as complete, in 1.0 and 0.3", async () => {
  let checked = 0;
  for (const version of ["1.0", "0.3"]) {
    const protocol = version === "1.0" ? "a2a" : "a2a-0.3";
    for (const [name, bytes] of referenceStreams()) {
      const run = await toA2a(bytes, version, 5);
      const whole = assembled(run, protocol);
      if (whole.outcome !== "completed") continue;
      // The task the run folds into, sent as the one event of a stream (as a server answering
      // a resubscription to an ended task, or a task fold's answer, sends it).
      const task = a2aTask(run, { version }).task;
      const result = version === "1.0" ? { task } : task;
      const one = new TextEncoder().encode(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 5, result })}\n\n`);
      const single = assembled(one, protocol);
      assert.equal(single.outcome, "completed", `${version} ${name}`);
      assert.equal(single.snapshot.status, "completed", `${version} ${name}`);
      assert.deepEqual(outputText(single.snapshot).join(""), outputText(whole.snapshot).join(""), `${version} ${name}`);
      checked++;
    }
  }
  assert.ok(checked >= 8, `${checked} streams`);
});
