// upstream(): an AgentApp whose agent is another agent, reached over HTTP in that agent's
// protocol. The upstream is another AgentApp on 127.0.0.1 speaking each protocol (agent-api,
// ag-ui, openai-responses, a2a 1.0, a2a 0.3); the front app is read through each of its routes
// by StreamAssembler and by the official clients (openai, @ag-ui/client, @a2a-js/sdk). Also:
// requestFor's bodies read back by today's readers; stopping the front run stops the upstream
// run; an upstream that fails, answers garbage or hangs ends the front run failed, coded.
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath, pathToFileURL } from "node:url";
import { AgentApp, StreamAssembler, a2aRequest, agUiRequest, parseRequest, requestFor, responsesRequest, upstream } from "agentwire";
import { loadClient } from "./agui-client.mjs";
import { listen, post } from "./http-helpers.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

const QUESTION = "Weather in Oslo?";
const TOOL = { type: "function", function: { name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } };
const UPSTREAMS = [
  ["agent-api", "/process"],
  ["ag-ui", "/ag-ui"],
  ["openai-responses", "/compatible-mode/v1/responses"],
  ["a2a", "/a2a"],
  ["a2a-0.3", "/a2a"],
];

/** The upstream's agent: records each request; a tool call in two pieces, its output, the answer. */
function weather(seen) {
  return async (request, rb) => {
    seen.push(request);
    const call = rb.toolCall({ type: "function", callId: "call_1", name: "get_weather" });
    call.arguments('{"city":');
    call.arguments('"Oslo"}');
    call.complete();
    rb.toolOutput({ type: "function", callId: "call_1", name: "get_weather", output: "-3°C" });
    const text = rb.message().content("text");
    text.delta("Cold in ");
    text.delta("Oslo: -3°C");
  };
}

/** Serves the weather agent as the upstream, and a front app serving it through `protocol`. */
async function pair(protocol, path, { upstreamOptions = {}, frontOptions = {}, agent } = {}) {
  const seen = [];
  const up = await listen(new AgentApp({ agent: agent ?? weather(seen), ...upstreamOptions }));
  const front = await listen(new AgentApp({ name: "Front", agent: upstream(`${up.base}${path}`, { protocol, timeoutMs: 5000 }), ...frontOptions }));
  return { seen, up, front, close: () => { front.server.close(); up.server.close(); } };
}

/** What a front route is sent, and the assembler protocol of its answer. */
const FRONTS = {
  "/process": ["agent-api", () => ({ input: [{ role: "user", type: "message", content: [{ type: "text", text: QUESTION }] }], tools: [TOOL], session_id: "s1" }), {}],
  "/ag-ui": ["ag-ui", () => ({ threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: QUESTION }], tools: [{ name: "get_weather", description: "Weather", parameters: TOOL.function.parameters }], state: {}, context: [], forwardedProps: {} }), {}],
  "/compatible-mode/v1/responses": ["openai-responses", () => ({ model: "m", input: QUESTION, stream: true, tools: [{ type: "function", name: "get_weather", description: "Weather", parameters: TOOL.function.parameters }] }), {}],
  "/a2a": ["a2a", () => ({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: { messageId: "u1", role: "ROLE_USER", parts: [{ text: QUESTION }] } } }), { "a2a-version": "1.0" }],
};

/** The answer's text, tool calls `[callId, name, arguments, output]`, outcome and error code. */
async function readAnswer(res, protocol) {
  assert.equal(res.status, 200, await res.clone().text());
  const asm = new StreamAssembler({ protocol });
  for await (const chunk of res.body) asm.push(chunk);
  asm.finish();
  const snapshot = asm.snapshot();
  const calls = asm.toolCalls().map((c) => [c.callId, c.name, c.arguments, c.output]);
  const text = [];
  let error = null;
  if (protocol === "ag-ui") {
    for (const m of snapshot.messages) if (m.role === "assistant" && typeof m.content === "string") text.push(m.content);
  } else {
    for (const m of snapshot.output ?? []) {
      if (protocol === "openai-responses") {
        if (m.type === "message") text.push(...m.content.map((c) => c.text ?? ""));
        continue;
      }
      if (m.type === "message") for (const c of m.content ?? []) if (c.type === "text") text.push(c.text);
    }
    error = snapshot.error ?? null;
  }
  const result = { text: text.join(""), calls, outcome: asm.outcome, error, snapshot };
  asm.free();
  return result;
}

test("requestFor: each protocol's request reads back, by today's reader, as the same conversation", () => {
  const request = parseRequest(JSON.stringify({
    id: "req_1", session_id: "s1", model: "m", tools: [TOOL], input: [
      { id: "m1", type: "message", role: "user", content: [{ type: "text", text: QUESTION }] },
      { id: "m2", type: "function_call", role: "assistant", content: [{ type: "data", data: { call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
      { id: "m3", type: "function_call_output", role: "tool", content: [{ type: "data", data: { call_id: "call_1", output: "-3°C" } }] },
      { id: "m4", type: "message", role: "user", content: [{ type: "text", text: "And tomorrow?" }] },
    ],
  }));
  const shape = (r) => r.input.map((m) => [m.type, m.role, m.content.map((c) => c.text ?? c.data?.arguments ?? c.data?.output).join("")]);
  const readers = { "agent-api": parseRequest, "ag-ui": agUiRequest, "openai-responses": responsesRequest };
  for (const [protocol, read] of Object.entries(readers)) {
    const { body, headers } = requestFor(protocol, request, { model: "gpt-5-mini" });
    assert.equal(typeof body, "string");
    assert.equal(headers.accept, "text/event-stream");
    const back = read(body);
    assert.deepEqual(shape(back), shape(request), protocol);
    assert.deepEqual(back.tools.map((t) => t.function.name), ["get_weather"], protocol);
    assert.equal(back.session_id, "s1", protocol);
    assert.equal(back.stream, true, protocol);
  }
  assert.equal(JSON.parse(requestFor("openai-responses", request, { model: "gpt-5-mini" }).body).model, "gpt-5-mini");
  for (const [protocol, method, version] of [["a2a", "SendStreamingMessage", "1.0"], ["a2a-0.3", "message/stream", undefined]]) {
    const { body, headers } = requestFor(protocol, request, { requestId: "q7" });
    const call = JSON.parse(body);
    assert.deepEqual([call.id, call.method, headers["A2A-Version"]], ["q7", method, version]);
    const back = a2aRequest(body);
    assert.deepEqual(shape(back), [["message", "user", "And tomorrow?"]], protocol);
    assert.equal(back.session_id, "s1");
  }
  // Refusals are coded: an unknown protocol or option, an invalid request, A2A without a user message.
  assert.throws(() => requestFor("grpc", request), { code: "INVALID_OPTION", field: "protocol" });
  assert.throws(() => requestFor("a2a", request, { bogus: 1 }), { code: "INVALID_OPTION", field: "bogus" });
  assert.throws(() => requestFor("ag-ui", { input: 5 }), { code: "INVALID_REQUEST" });
  assert.throws(() => requestFor("a2a", { input: [] }), { code: "INVALID_REQUEST", field: "input" });
});

test("upstream: options are checked when the agent is made", () => {
  assert.throws(() => upstream("not a url"), { code: "INVALID_OPTION", field: "url" });
  assert.throws(() => upstream("file:///etc/passwd"), { code: "INVALID_OPTION", field: "url" });
  assert.throws(() => upstream("http://127.0.0.1:1/", { protocol: "grpc" }), { code: "INVALID_OPTION", field: "protocol" });
  assert.throws(() => upstream("http://127.0.0.1:1/", { timeoutMs: 0 }), { code: "INVALID_OPTION", field: "timeoutMs" });
  assert.throws(() => upstream("http://127.0.0.1:1/", { retries: 3 }), { code: "INVALID_OPTION", field: "retries" });
});

for (const [protocol, path] of UPSTREAMS) {
  test(`upstream ${protocol}: every front route carries its text, tool call, output and outcome`, async () => {
    const { seen, front, close } = await pair(protocol, path);
    try {
      for (const [route, [answers, body, headers]] of Object.entries(FRONTS)) {
        const got = await readAnswer(await post(`${front.base}${route}`, body(), headers), answers);
        assert.equal(got.outcome, "completed", `${route}: ${JSON.stringify(got.error)}`);
        assert.equal(got.text, "Cold in Oslo: -3°C", route);
        assert.deepEqual(got.calls, [["call_1", "get_weather", '{"city":"Oslo"}', "-3°C"]], route);
      }
      // The upstream read the question, and the tools of the fronts that carry them (A2A does not).
      assert.equal(seen.length, 4);
      for (const [i, request] of seen.entries()) {
        assert.equal(request.input.at(-1).content[0].text, QUESTION);
        const tools = (request.tools ?? []).map((t) => t.function.name);
        assert.deepEqual(tools, i < 3 && !protocol.startsWith("a2a") ? ["get_weather"] : [], `${protocol}, front ${i}`);
      }
    } finally {
      close();
    }
  });
}

test("the official clients read a front app serving each upstream", { skip }, async () => {
  const { default: OpenAI } = await import("openai");
  const { client: agui } = await loadClient(ROOT);
  const sdk = (p) => import(pathToFileURL(`${ROOT}/node_modules/@a2a-js/sdk/dist/${p}`).href);
  const { ClientFactory } = await sdk("client/index.js");
  const { Message, TaskState } = await sdk("index.js");
  for (const [protocol, path] of UPSTREAMS) {
    const { front, close } = await pair(protocol, path);
    try {
      const openai = new OpenAI({ baseURL: `${front.base}/compatible-mode/v1`, apiKey: "none" });
      const response = await openai.responses.create({ model: "m", input: QUESTION });
      assert.equal(response.status, "completed", protocol);
      assert.equal(response.output_text, "Cold in Oslo: -3°C", protocol);
      const fc = response.output.find((i) => i.type === "function_call");
      assert.deepEqual([fc.call_id, fc.name, fc.arguments], ["call_1", "get_weather", '{"city":"Oslo"}'], protocol);

      const agent = new agui.HttpAgent({ url: `${front.base}/ag-ui`, threadId: "thread_1" });
      agent.messages = [{ id: "u1", role: "user", content: QUESTION }];
      const { newMessages } = await agent.runAgent({ runId: "run_1" });
      const calls = newMessages.flatMap((m) => m.toolCalls ?? []);
      assert.deepEqual(calls.map((c) => [c.id, c.function.name, c.function.arguments]), [["call_1", "get_weather", '{"city":"Oslo"}']], protocol);
      assert.ok(newMessages.some((m) => m.role === "tool" && m.content === "-3°C" && m.toolCallId === "call_1"), protocol);
      assert.ok(newMessages.some((m) => m.role === "assistant" && m.content === "Cold in Oslo: -3°C"), protocol);

      const a2a = await new ClientFactory().createFromUrl(front.base);
      let text = "";
      const data = [];
      let state;
      for await (const event of a2a.sendMessageStream({ message: Message.fromJSON({ messageId: "u1", role: "ROLE_USER", parts: [{ text: QUESTION }] }) })) {
        const p = event.payload;
        if (p?.$case === "artifactUpdate") {
          for (const part of p.value.artifact.parts) {
            if (part.content?.$case === "text") text += part.content.value;
            if (part.content?.$case === "data") data.push(part.content.value);
          }
        }
        if (p?.$case === "statusUpdate") state = p.value.status.state;
      }
      assert.equal(text, "Cold in Oslo: -3°C", protocol);
      assert.deepEqual(data[0], { call_id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' }, protocol);
      assert.equal(state, TaskState.TASK_STATE_COMPLETED, protocol);
    } finally {
      close();
    }
  }
});

/** An upstream agent that starts answering, then waits for its signal: `aborted` resolves then. */
function stalling() {
  let resolve;
  const aborted = new Promise((r) => { resolve = r; });
  const agent = async (request, rb, { signal }) => {
    rb.message().content("text").delta("Thinking");
    await new Promise((r) => {
      if (signal.aborted) r();
      signal.addEventListener("abort", r, { once: true });
    });
    resolve("aborted");
  };
  return { agent, aborted };
}

const within = (promise, ms, what) => Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

for (const [protocol, path] of UPSTREAMS) {
  test(`upstream ${protocol}: stopping the front run stops the upstream run`, async () => {
    const { agent, aborted } = stalling();
    // HTTP upstreams stop a run whose reader went away (cancelOnDisconnect); A2A's is canceled
    // by CancelTask, so that app does not cancel on disconnect.
    const upstreamOptions = protocol.startsWith("a2a") ? {} : { runs: { cancelOnDisconnect: true } };
    const { front, close } = await pair(protocol, path, { agent, upstreamOptions });
    try {
      const res = await post(`${front.base}/process`, { input: [{ role: "user", content: [{ type: "text", text: QUESTION }] }] });
      const id = res.headers.get("x-agentwire-run-id");
      const asm = new StreamAssembler({ protocol: "agent-api" });
      const reader = res.body.getReader();
      // The upstream's first text reached the front run's reader.
      while (!JSON.stringify(asm.snapshot()?.output ?? []).includes("Thinking")) {
        const { done, value } = await reader.read();
        assert.equal(done, false, "the front run ended before the upstream's text");
        asm.push(value);
      }
      const stopped = await fetch(`${front.base}/process/${encodeURIComponent(id)}/cancel`, { method: "POST" });
      assert.equal(stopped.status, 200);
      assert.equal(await within(aborted, 5000, "the upstream agent's signal"), "aborted");
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        asm.push(value);
      }
      asm.finish();
      assert.equal(asm.outcome, "canceled");
      asm.free();
    } finally {
      close();
    }
  });
}

/** A hostile upstream: `handler(req, res)` on node:http at 127.0.0.1. */
async function hostile(handler) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/process` };
}

const HOSTILE = [
  ["a 500 with a body", (req, res) => res.writeHead(500, { "content-type": "text/plain" }).end(`model overloaded ${"x".repeat(10_000)}`), "UPSTREAM_FAILED", /answered 500: model overloaded x+$/],
  ["JSON instead of a stream", (req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"hello":1}'), "UPSTREAM_FAILED", /not a stream: \{"hello":1\}/],
  ["garbage events", (req, res) => res.writeHead(200, { "content-type": "text/event-stream" }).end("data: not json\n\ndata: {\"x\":\n\n"), "UPSTREAM_TRUNCATED", /ended before its terminal event/],
  ["no answer at all", () => {}, "UPSTREAM_TIMEOUT", /sent nothing for 300 ms/],
  ["headers, then silence", (req, res) => { res.writeHead(200, { "content-type": "text/event-stream" }); res.write(": hi\n\n"); }, "UPSTREAM_TIMEOUT", /sent nothing/],
  ["a cut connection", (req, res) => req.socket.destroy(), "UPSTREAM_FAILED", /POST http:\/\/127\.0\.0\.1:\d+\/process failed/],
];

test("a failing, garbage or hanging upstream ends the front run failed, coded; the app goes on", async () => {
  const errors = [];
  for (const [what, handler, code, message] of HOSTILE) {
    const bad = await hostile(handler);
    const app = new AgentApp({ agent: upstream(bad.url, { timeoutMs: 300 }), onError: (e) => errors.push(e) });
    const front = await listen(app);
    try {
      for (const [route, [answers, body, headers]] of Object.entries(FRONTS)) {
        const got = await readAnswer(await post(`${front.base}${route}`, body(), headers), answers);
        assert.equal(got.outcome, "failed", `${what} via ${route}`);
        if (answers === "agent-api") {
          assert.ok(got.error.code.startsWith(code), `${what}: ${got.error.code}`);
          assert.match(got.error.message, message, what);
          assert.ok(got.error.message.length < 4000, `${what}: the upstream's body is bounded`);
        }
      }
      const health = await fetch(`${front.base}/health`);
      assert.equal(health.status, 200);
    } finally {
      front.server.close();
      bad.server.closeAllConnections();
      bad.server.close();
    }
  }
  assert.ok(errors.length >= HOSTILE.length * 4);
  assert.ok(errors.every((e) => e.code.startsWith("UPSTREAM_")), errors.map((e) => e.code).join());
  // An unreachable upstream (nothing listens): coded too.
  const gone = await hostile(() => {});
  const url = gone.url;
  await new Promise((resolve) => gone.server.close(resolve));
  const front = await listen(new AgentApp({ agent: upstream(url, { timeoutMs: 2000 }), onError: () => {} }));
  try {
    const got = await readAnswer(await post(`${front.base}/process`, FRONTS["/process"][1]()), "agent-api");
    assert.equal(got.outcome, "failed");
    assert.equal(got.error.code, "UPSTREAM_FAILED");
  } finally {
    front.server.close();
  }
});

test("headers: static ones and a function of the request reach the upstream", async () => {
  const got = [];
  const bad = await hostile((req, res) => {
    got.push({ ...req.headers });
    res.writeHead(401, { "content-type": "application/json" }).end('{"error":"no"}');
  });
  const auth = (request) => ({ authorization: `Bearer ${request.user_id}` });
  const app = new AgentApp({ agent: upstream(bad.url, { headers: auth, protocol: "a2a" }), onError: () => {} });
  const front = await listen(app);
  try {
    const failed = await readAnswer(await post(`${front.base}/process`, { ...FRONTS["/process"][1](), user_id: "u7" }), "agent-api");
    assert.equal(failed.error.code, "UPSTREAM_FAILED");
    assert.match(failed.error.message, /answered 401: \{"error":"no"\}/);
    assert.equal(got[0].authorization, "Bearer u7");
    assert.equal(got[0]["a2a-version"], "1.0");
    assert.equal(got[0]["content-type"], "application/json");
  } finally {
    front.server.close();
    bad.server.close();
  }
});

test("a run stopped while the upstream has not answered yet aborts the upstream request", async () => {
  let arrived;
  const request = new Promise((r) => { arrived = r; });
  let closed;
  const gone = new Promise((r) => { closed = r; });
  const silent = await hostile((req, res) => {
    res.on("close", () => closed("closed"));
    arrived();
  });
  const app = new AgentApp({ agent: upstream(silent.url, { timeoutMs: 60_000 }) });
  const front = await listen(app);
  try {
    const answer = post(`${front.base}/process`, FRONTS["/process"][1]()).then((r) => r.text(), () => "");
    await within(request, 5000, "the upstream request");
    await app.close();
    assert.equal(await within(gone, 5000, "the upstream request's end"), "closed");
    await answer;
  } finally {
    front.server.close();
    silent.server.close();
  }
});

// A real AG-UI server (the Python `ag-ui-protocol` SDK's encoder on uvicorn), served over A2A and
// OpenAI Responses. Needs the test virtualenv (scripts/setup.sh) at AGENTWIRE_ROOT/.venv.
const PYTHON = ROOT ? `${ROOT}/.venv/bin/python` : null;
const noPython = !PYTHON || !existsSync(PYTHON) ? (process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "no test virtualenv" : false) : false;

test("a Python ag-ui-protocol server, served over A2A and OpenAI Responses", { skip: noPython }, async () => {
  const probe = await hostile(() => {});
  const port = probe.server.address().port;
  await new Promise((resolve) => probe.server.close(resolve));
  const python = spawn(PYTHON, [fileURLToPath(new URL("./upstream-agui-server.py", import.meta.url)), String(port)], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  python.stderr.on("data", (d) => { stderr += d; });
  try {
    const url = `http://127.0.0.1:${port}/agent`;
    for (let i = 0; ; i++) {
      const up = await fetch(url, { method: "POST" }).then((r) => r.status, () => 0);
      if (up === 422) break; // FastAPI refuses the empty body: the server is up.
      assert.ok(i < 100, `the Python server did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const front = await listen(new AgentApp({ agent: upstream(url, { protocol: "ag-ui", timeoutMs: 10_000 }) }));
    try {
      for (const route of ["/a2a", "/compatible-mode/v1/responses", "/process"]) {
        const [answers, body, headers] = FRONTS[route];
        const got = await readAnswer(await post(`${front.base}${route}`, body(), headers), answers);
        assert.equal(got.outcome, "completed", `${route}: ${JSON.stringify(got.error)} ${stderr}`);
        assert.equal(got.text, `You asked: ${QUESTION}`, route);
        assert.deepEqual(got.calls, [["call_1", "get_weather", '{"city":"Oslo"}', "-3°C"]], route);
      }
    } finally {
      front.server.close();
    }
  } finally {
    python.kill();
  }
});
