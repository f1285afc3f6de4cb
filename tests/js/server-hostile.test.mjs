// AgentApp on the open internet, tried as an attacker would over node:http on 127.0.0.1: odd
// Host headers and methods, bodies past the limit or sent after the answer, ids that are not
// header values or are megabytes long, principals that serialise alike, cancels racing the
// start, exotic throws, cross-site posts and credentialed CORS, caps on running runs. Each case
// failed before the server wing was hardened; each checks the process is still serving after.
import test from "node:test";
import assert from "node:assert/strict";
import { connect } from "node:net";
import { AgentApp, MemoryRunStore, StreamAssembler } from "agentwire";
import { listen, post } from "./http-helpers.mjs";
import { raw } from "./raw-socket.mjs";
import { weatherAgent } from "./scripted-agent.mjs";

const AGENT_API = (extra = {}) => ({ input: [{ role: "user", content: [{ type: "text", text: "hi" }] }], ...extra });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function stillServes(base) {
  const r = await post(`${base}/process`, AGENT_API());
  assert.equal((await StreamAssembler.collect(r)).status, "completed", "the server still answers");
}

test("odd Host headers and the methods fetch refuses are answered 400/405; the process lives", async () => {
  const app = new AgentApp({ agent: weatherAgent });
  const { server, base } = await listen(app);
  try {
    for (const host of ["a b", "[", "user@evil.example", "x:99999", "[::1", "a/b"]) {
      const answer = await raw(base, `GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 4\d\d /, `Host ${host}: ${answer.slice(0, 40)}`);
    }
    // TRACE reaches the listener (fetch refuses to make a Request of it): 405. TRACK is no
    // method node:http's parser knows: 400 before any listener.
    for (const [method, status] of [["TRACE", /^HTTP\/1\.1 405 /], ["TRACK", /^HTTP\/1\.1 400 /]]) {
      const answer = await raw(base, `${method} /process HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.match(answer, status, `${method}: ${answer.slice(0, 40)}`);
    }
    // CONNECT never reaches a request listener: node:http closes it (no "connect" listener).
    await raw(base, "CONNECT /process HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await stillServes(base);
  } finally {
    server.close();
  }
});

test("a body the route does not read is never buffered: 64 MiB after a 404 leaves memory flat; over the limit is 413 however framed", async () => {
  const app = new AgentApp({ agent: weatherAgent, maxBodyBytes: 64 * 1024 });
  const { server, base } = await listen(app);
  const { port } = new URL(base);
  try {
    globalThis.gc?.();
    const before = process.memoryUsage();
    const chunk = Buffer.alloc(1024 * 1024, 120);
    const status = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      let answer = "";
      socket.on("data", (d) => { answer += d.toString("latin1"); });
      socket.on("error", () => resolve(answer.slice(0, 12)));
      socket.on("close", () => resolve(answer.slice(0, 12)));
      socket.write(`POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`);
      let sent = 0;
      const pump = () => {
        while (sent < 64 && socket.writable) {
          sent++;
          if (!socket.write(chunk)) return socket.once("drain", pump);
        }
        socket.end();
      };
      pump();
    });
    const after = process.memoryUsage();
    assert.match(status, /^HTTP\/1\.1 404/);
    const grew = (after.arrayBuffers + after.heapUsed - before.arrayBuffers - before.heapUsed) / 1024 / 1024;
    assert.ok(grew < 24, `memory grew ${grew.toFixed(1)} MiB for a body nobody read`);
    // Chunked, over the limit: a 413 answer, not a reset.
    for (let i = 0; i < 8; i++) {
      const big = new Uint8Array(200 * 1024).fill(32);
      const r = await fetch(`${base}/process`, {
        method: "POST", headers: { "content-type": "application/json" }, duplex: "half",
        body: new ReadableStream({ pull(c) { c.enqueue(big); c.close(); } }),
      });
      assert.equal(r.status, 413);
      assert.equal((await r.json()).error.code, "BODY_TOO_LARGE");
    }
    await stillServes(base);
  } finally {
    server.close();
  }
});

test("a cross-site post (text/plain, a form, no type) cannot start a run: 415; credentialed CORS needs an explicit list", async () => {
  const started = [];
  const app = new AgentApp({ agent: (request, rb) => { started.push(request); return weatherAgent(request, rb); } });
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", null]) {
    const headers = type === null ? {} : { "content-type": type };
    const r = await app.fetch(new Request("http://app/process", { method: "POST", headers, body: JSON.stringify(AGENT_API()) }));
    assert.equal(r.status, 415, String(type));
  }
  assert.equal(started.length, 0);
  for (const cors of [{ credentials: true }, { origins: "*", credentials: true }, { origins: () => true, credentials: true }, { origins: ["null"], credentials: true }]) {
    assert.throws(() => new AgentApp({ agent: weatherAgent, cors }), (e) => e.code === "INVALID_OPTION" && e.field === "cors");
  }
  const listed = new AgentApp({ agent: weatherAgent, cors: { origins: ["https://ui.example"], credentials: true } });
  for (const origin of ["null", "https://evil.example"]) {
    const r = await listed.fetch(new Request("http://app/health", { headers: { origin } }));
    assert.equal(r.headers.get("access-control-allow-origin"), null, origin);
  }
  const ok = await listed.fetch(new Request("http://app/health", { headers: { origin: "https://ui.example" } }));
  assert.equal(ok.headers.get("access-control-allow-origin"), "https://ui.example");
  assert.equal(ok.headers.get("access-control-allow-credentials"), "true");
});

test("principals are explicit identities: objects that serialise alike never make users one owner", async () => {
  class User {
    #name;
    constructor(name) {
      this.#name = name;
    }
  }
  const errors = [];
  const opaque = new AgentApp({ agent: weatherAgent, authorize: (r) => new User(r.headers.get("authorization")), onError: (e) => errors.push(e) });
  const r = await opaque.fetch(new Request("http://app/process/x", { headers: { authorization: "a" } }));
  assert.equal(r.status, 500, "authorize that names nobody is the server's fault");
  assert.match(errors[0].message, /authorize must return a string/);
  const app = new AgentApp({ agent: weatherAgent, authorize: (r) => ({ id: r.headers.get("authorization"), roles: new Map() }) });
  const start = await app.fetch(new Request("http://app/process", {
    method: "POST", headers: { authorization: "alice", "content-type": "application/json" }, body: JSON.stringify(AGENT_API({ id: "job-1", session_id: "s" })),
  }));
  await StreamAssembler.collect(start);
  const bob = await app.fetch(new Request("http://app/process/job-1", { headers: { authorization: "bob" } }));
  assert.equal(bob.status, 404, "bob does not see alice's run");
  const alice = await app.fetch(new Request("http://app/process/job-1", { headers: { authorization: "alice" } }));
  assert.equal(alice.status, 200);
  await alice.arrayBuffer();
});

test("a cancel at any moment after the start logs the canceled event: no reader ends truncated", async () => {
  const app = new AgentApp({
    agent: async (request, rb, { signal }) => {
      const text = rb.message().content("text");
      for (let i = 0; i < 50 && !signal.aborted; i++) {
        text.delta(`w${i} `);
        await Promise.resolve();
      }
    },
  });
  const outcomes = new Map();
  for (let i = 0; i < 250; i++) {
    const r = await app.fetch(new Request("http://app/process", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(AGENT_API({ id: `c${i}` })) }));
    for (let k = 0; k < i % 12; k++) await Promise.resolve();
    const cancel = await app.fetch(new Request(`http://app/process/c${i}/cancel`, { method: "POST" }));
    assert.equal(cancel.status, 200);
    const seen = await StreamAssembler.collect(r);
    const resumed = await StreamAssembler.collect(await app.fetch(new Request(`http://app/process/c${i}`)), { protocol: "agent-api" });
    assert.notEqual(seen.outcome, "truncated", `run ${i}`);
    assert.equal(resumed.outcome, seen.outcome, `run ${i}: a resume sees the same end`);
    outcomes.set(seen.outcome, (outcomes.get(seen.outcome) ?? 0) + 1);
  }
  assert.ok(outcomes.get("canceled") > 100, [...outcomes].join());
});

test("ids: not a header value, or too long, is 400 before the run starts (its id and session stay free); echoed strings are bounded", async () => {
  const app = new AgentApp({ agent: weatherAgent });
  const bad = [
    ["/process", AGENT_API({ id: "中", session_id: "s1" }), "id"],
    ["/process", AGENT_API({ id: "a\nb", session_id: "s1" }), "id"],
    ["/process", AGENT_API({ id: "x".repeat(300), session_id: "s1" }), "id"],
    ["/process", AGENT_API({ session_id: "s".repeat(200_000) }), "session_id"],
    ["/ag-ui", { threadId: "t".repeat(100_000), runId: "r1", messages: [{ id: "1", role: "user", content: "hi" }], tools: [], context: [], state: {}, forwardedProps: {} }, "threadId"],
    ["/ag-ui", { threadId: "s1", runId: "中", messages: [{ id: "1", role: "user", content: "hi" }], tools: [], context: [], state: {}, forwardedProps: {} }, "runId"],
    ["/compatible-mode/v1/responses", { model: "m".repeat(100_000), input: "hi", stream: true }, "model"],
  ];
  for (const [path, body, field] of bad) {
    const r = await app.fetch(new Request(`http://app${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    assert.equal(r.status, 400, `${path} ${field}`);
    assert.equal((await r.json()).error.field, field);
  }
  // Nothing was taken: the same session starts a run.
  const ok = await app.fetch(new Request("http://app/process", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(AGENT_API({ id: "fine", session_id: "s1" })) }));
  assert.equal(ok.status, 200);
  assert.equal((await StreamAssembler.collect(ok)).status, "completed");
  // A2A: a long contextId or JSON-RPC id (within the body limit) is refused, not echoed in
  // every event: the context as a bad request naming it, the id as JSON-RPC's invalid request
  // (-32600) answered with a null id.
  const a2a = (id, contextId) => app.fetch(new Request("http://app/a2a", {
    method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "SendStreamingMessage", params: { message: { messageId: "m", role: "ROLE_USER", contextId, parts: [{ text: "hi" }] } } }),
  }));
  const longContext = await a2a(1, "c".repeat(200_000));
  assert.equal(longContext.status, 400);
  assert.equal((await longContext.json()).error.field, "message.contextId");
  const longId = await a2a("i".repeat(200_000), "ctx");
  const text = await longId.text();
  assert.ok(text.length < 4096, `answer of ${text.length} bytes to a long id`);
  assert.deepEqual([JSON.parse(text).id, JSON.parse(text).error.code], [null, -32600]);
});

test("caps: one principal's running runs and all of them, answered 429 with Retry-After", async () => {
  const release = [];
  const app = new AgentApp({
    agent: (request, rb) => new Promise((resolve) => release.push(resolve)),
    authorize: (r) => r.headers.get("authorization"),
    runs: { maxRunningPerPrincipal: 3, maxRunning: 5 },
  });
  const start = (who) => app.fetch(new Request("http://app/process", { method: "POST", headers: { authorization: who, "content-type": "application/json" }, body: JSON.stringify(AGENT_API()) }));
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await start("alice")).status);
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  const refused = await start("alice");
  assert.equal(refused.headers.get("retry-after") !== null, true);
  assert.equal((await refused.json()).error.code, "TOO_MANY_RUNS");
  assert.equal((await start("bob")).status, 200);
  assert.equal((await start("carol")).status, 200);
  assert.equal((await start("dave")).status, 429, "all runs together");
  for (const r of release) r();
  await sleep(50);
  assert.equal((await start("alice")).status, 200, "a run that ended frees its place");
  for (const r of release) r();
  await app.close();
});

test("any thrown value is an agent error (not RUN_LOST); a non-streamed request whose client left is abandoned", async () => {
  for (const thrown of [Object.create(null), { get message() { throw new Error("no"); } }, Symbol("s"), undefined]) {
    const app = new AgentApp({ agent: () => { throw thrown; }, onError: () => {} });
    const r = await app.fetch(new Request("http://app/process", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(AGENT_API()) }));
    const seen = await StreamAssembler.collect(r);
    assert.equal(seen.status, "failed");
    assert.equal(seen.error.code, "AGENT_ERROR");
  }
  let aborted = false;
  const app = new AgentApp({
    runs: { abandonAfterMs: 100 },
    agent: async (request, rb, { signal }) => {
      rb.message().content("text").delta("thinking");
      await new Promise((resolve) => {
        signal.addEventListener("abort", resolve, { once: true });
        setTimeout(resolve, 5000).unref();
      });
      aborted = signal.aborted;
    },
  });
  const { server, base } = await listen(app);
  try {
    const leaving = new AbortController();
    const r = fetch(`${base}/compatible-mode/v1/responses`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", input: "hi" }), signal: leaving.signal,
    }).catch(() => null);
    await sleep(100);
    leaving.abort();
    await r;
    for (let i = 0; i < 100 && !aborted; i++) await sleep(20);
    assert.equal(aborted, true, "the run of a client that left is abandoned");
  } finally {
    server.close();
    await app.close();
  }
});

test("a 6 MiB answer fits its own log: the stream is whole and a resume gets it all", async () => {
  const image = "A".repeat(6 * 1024 * 1024);
  const app = new AgentApp({ agent: (request, rb) => { rb.message().content("text").delta(image); } });
  for (const [path, body, protocol] of [
    ["/process", AGENT_API({ id: "big" }), "agent-api"],
    ["/compatible-mode/v1/responses", { model: "m", input: "hi", stream: true }, "openai-responses"],
  ]) {
    const r = await app.fetch(new Request(`http://app${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
    const id = r.headers.get("x-agentwire-run-id");
    const seen = await StreamAssembler.collect(r, { protocol });
    assert.equal(seen.status, "completed", path);
    const again = await app.fetch(new Request(`http://app${path}/${id}`, { headers: { accept: "text/event-stream" } }));
    assert.equal(again.status, 200, `${path}: resume`);
    const resumed = await StreamAssembler.collect(again, { protocol });
    assert.equal(resumed.status, "completed");
  }
});

test("A2A SubscribeToTask: the subscriber's JSON-RPC id is data ($' and a$$b come back exact, the answer no larger)", async () => {
  for (const subscriberId of ["$'", "a$$b", "$&$`"]) {
    let release;
    const app = new AgentApp({
      agent: async (request, rb) => {
        const text = rb.message().content("text");
        text.delta("x".repeat(2000));
        await new Promise((resolve) => { release = resolve; });
        text.delta("y".repeat(2000));
      },
    });
    const a2a = (body) => app.fetch(new Request("http://app/a2a", {
      method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" }, body: JSON.stringify(body),
    }));
    const sent = await a2a({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } } });
    const taskId = sent.headers.get("x-agentwire-run-id");
    const subscribed = await a2a({ jsonrpc: "2.0", id: subscriberId, method: "SubscribeToTask", params: { id: taskId } });
    assert.equal(subscribed.status, 200);
    release();
    const [original, resubscribed] = await Promise.all([sent.text(), subscribed.text()]);
    const events = resubscribed.split("\n").filter((line) => line.startsWith("data: ")).map((line) => JSON.parse(line.slice(6)));
    assert.ok(events.length >= 2, resubscribed.slice(0, 200));
    for (const event of events) assert.equal(event.id, subscriberId);
    assert.ok(resubscribed.length < 2 * original.length + 4096, `${resubscribed.length} bytes for a ${original.length}-byte run`);
  }
});

test("A2A: a send answered at once (returnImmediately) is no reader that leaves: cancelOnDisconnect does not cancel its task", async () => {
  const app = new AgentApp({
    runs: { cancelOnDisconnect: true },
    agent: async (request, rb) => {
      const text = rb.message().content("text");
      text.delta("first ");
      await new Promise((resolve) => setTimeout(resolve, 50));
      text.delta("second");
    },
  });
  const a2a = (body) => app.fetch(new Request("http://app/a2a", {
    method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" }, body: JSON.stringify(body),
  }));
  const sent = await (await a2a({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {
    message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] }, configuration: { returnImmediately: true },
  } })).json();
  const taskId = sent.result.task.id;
  let state;
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    state = (await (await a2a({ jsonrpc: "2.0", id: 2, method: "GetTask", params: { id: taskId } })).json()).result.status.state;
    if (state !== "TASK_STATE_WORKING" && state !== "TASK_STATE_SUBMITTED") break;
  }
  assert.equal(state, "TASK_STATE_COMPLETED");
});

test("a run whose log outgrew the store's caps is not answered as if whole: A2A a JSON-RPC error, Responses 410", async () => {
  const app = new AgentApp({
    runs: { store: new MemoryRunStore({ maxEvents: 5 }) },
    agent: (request, rb) => {
      const text = rb.message().content("text");
      for (let i = 0; i < 20; i++) text.delta(`w${i} `);
    },
  });
  const post = (path, body, headers = {}) => app.fetch(new Request(`http://app${path}`, {
    method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body),
  }));
  const a2a = { "a2a-version": "1.0" };
  const sent = await (await post("/a2a", { jsonrpc: "2.0", id: 1, method: "SendMessage", params: {
    message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } } }, a2a)).json();
  assert.equal(sent.result, undefined, JSON.stringify(sent).slice(0, 200));
  assert.equal(sent.error.code, -32603);
  const [, taskId] = /^Task (\S+) is larger than the server keeps/.exec(sent.error.message);
  const got = await (await post("/a2a", { jsonrpc: "2.0", id: 2, method: "GetTask", params: { id: taskId } }, a2a)).json();
  assert.equal(got.error.code, -32603);
  const response = await post("/compatible-mode/v1/responses", { model: "m", input: "hi" });
  assert.equal(response.status, 410);
  assert.equal((await response.json()).error.code, "RUN_GONE");
});
