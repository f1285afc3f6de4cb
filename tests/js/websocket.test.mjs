// OpenAI Responses WebSocket mode on AgentApp (node:http with `server.on("upgrade",
// app.nodeUpgrade)`, the optional peer `ws`, 127.0.0.1): the official `openai` client's
// `ResponsesWS` gets the same events as the SSE answer, turn after turn; a `store: false`
// response is continued on its socket only; hostile messages and upgrades get an error event or a
// 4xx and leave the socket (and the process) usable; a client that leaves is abandoned.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { createServer } from "node:http";
import { connect } from "node:net";
import WebSocket from "ws";
import { AgentApp } from "agentwire";

const require = createRequire(import.meta.url);
const RESPONSES = "/compatible-mode/v1/responses";
const textOf = (m) => (m.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
const seenOf = (request) => request.input.map((m) => `${m.role}:${textOf(m) || m.type}`);

async function serve(options) {
  const app = new AgentApp(options);
  const server = createServer(app.nodeListener);
  server.on("upgrade", app.nodeUpgrade);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return { app, port, base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }) };
}

/** A socket to `port`'s Responses route; `turn(event)` sends one and resolves with its messages up to the terminal event or an error. */
async function socketTo(port, headers = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${RESPONSES}`, { headers });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const queue = [];
  let wake = null;
  ws.on("message", (data) => {
    queue.push(JSON.parse(String(data)));
    wake?.();
  });
  const next = async () => {
    while (queue.length === 0) await new Promise((resolve) => (wake = resolve));
    return queue.shift();
  };
  const turn = async (event) => {
    ws.send(typeof event === "string" ? event : JSON.stringify(event));
    const messages = [];
    for (;;) {
      const message = await next();
      messages.push(message);
      if (message.type === "error" || /^response\.(completed|failed|incomplete)$/.test(message.type)) return messages;
    }
  };
  return { ws, turn, next };
}

/** An agent that records each request and answers "answer <n>" in two deltas. */
function recorder(seen) {
  return (request, rb) => {
    seen.push(request);
    const text = rb.message().content("text");
    text.delta("answer ");
    text.delta(String(seen.length));
  };
}

test("the official openai client's ResponsesWS gets each turn's events, the same as the SSE answer's, turn after turn", async () => {
  const seen = [];
  const { port, base, close } = await serve({ agent: recorder(seen) });
  try {
    const { default: OpenAI } = await import(require.resolve("openai"));
    const { ResponsesWS } = await import(require.resolve("openai/resources/responses/ws"));
    const client = new OpenAI({ apiKey: "k", baseURL: `${base}/compatible-mode/v1` });
    const socket = new ResponsesWS(client);
    const events = [];
    const completed = [];
    socket.on("event", (event) => events.push(event));
    socket.on("error", (error) => assert.fail(String(error?.message ?? error)));
    let wake = null;
    socket.on("response.completed", (event) => {
      completed.push(event.response);
      wake?.();
    });
    const done = () => new Promise((resolve) => (wake = resolve));
    let ended = done();
    socket.send({ type: "response.create", model: "m", input: "first" });
    await ended;
    ended = done();
    socket.send({ type: "response.create", model: "m", input: "second", previous_response_id: completed[0].id });
    await ended;
    socket.close();
    assert.deepEqual(completed.map((r) => r.output_text ?? r.output[0].content[0].text), ["answer 1", "answer 2"]);
    // A stored response continues over the socket as over HTTP.
    assert.deepEqual(seenOf(seen[1]), ["user:first", "assistant:answer 1", "user:second"]);
    // The same turn over HTTP (SSE): the same events, in the same order.
    const sse = await (await fetch(`${base}${RESPONSES}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", input: "first", stream: true }) })).text();
    const sseTypes = sse.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)).type);
    const firstTurn = events.slice(0, events.findIndex((e) => e.type === "response.completed") + 1);
    assert.deepEqual(firstTurn.map((e) => e.type), sseTypes);
    assert.deepEqual(firstTurn.map((e) => e.sequence_number), sseTypes.map((_, i) => i));
  } finally {
    await close();
  }
});

test("store: false continues on its socket only; an unmatched tool output fails the turn and forgets the chain", async () => {
  const seen = [];
  const { port, close } = await serve({ agent: recorder(seen) });
  try {
    const a = await socketTo(port);
    const first = (await a.turn({ type: "response.create", model: "m", store: false, input: "remember cobalt" })).at(-1);
    assert.equal(first.type, "response.completed");
    const id = first.response.id;
    const second = (await a.turn({ type: "response.create", model: "m", store: false, previous_response_id: id, input: "the word?" })).at(-1);
    assert.equal(second.type, "response.completed");
    assert.deepEqual(seenOf(seen[1]), ["user:remember cobalt", "assistant:answer 1", "user:the word?"]);
    // Another socket has no such chain.
    const b = await socketTo(port);
    const missing = (await b.turn({ type: "response.create", model: "m", store: false, previous_response_id: second.response.id, input: "again" })).at(-1);
    assert.equal(missing.type, "error");
    assert.equal(missing.status, 400);
    assert.equal(missing.error.code, "previous_response_not_found");
    assert.equal(missing.error.param, "previous_response_id");
    // A tool output for a call the chain never made: the turn fails, and the chain is forgotten.
    const bad = (await a.turn({ type: "response.create", model: "m", store: false, previous_response_id: second.response.id, input: [{ type: "function_call_output", call_id: "call_x", output: "?" }] })).at(-1);
    assert.equal(bad.type, "error");
    assert.equal(bad.error.param, "input");
    const stale = (await a.turn({ type: "response.create", model: "m", store: false, previous_response_id: second.response.id, input: "and now?" })).at(-1);
    assert.equal(stale.error?.code, "previous_response_not_found");
    // A new chain starts on the same socket.
    assert.equal((await a.turn({ type: "response.create", model: "m", store: false, input: "anew" })).at(-1).type, "response.completed");
    a.ws.close();
    b.ws.close();
  } finally {
    await close();
  }
});

test("hostile messages get an error event and leave the socket usable; one turn at a time", async () => {
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const { port, close } = await serve({
    agent: async (request, rb) => {
      const text = rb.message().content("text");
      text.delta("start");
      if (textOf(request.input.at(-1)) === "slow") await gate;
      text.delta(" end");
    },
    maxBodyBytes: 4096,
  });
  try {
    const s = await socketTo(port);
    const cases = [
      ["not json", "invalid_json"],
      ["[]", "invalid_request"],
      ["null", "invalid_request"],
      [JSON.stringify({ type: "session.update" }), "invalid_request"],
      [JSON.stringify({ type: "response.create", model: "m", input: "x".repeat(5000) }), "body_too_large"],
      [JSON.stringify({ type: "response.create", model: "m", input: 42 }), "invalid_request"],
      [JSON.stringify({ type: "response.create", model: "m", previous_response_id: "resp_nope", input: "x" }), "previous_response_not_found"],
    ];
    for (const [message, code] of cases) {
      const [event] = await s.turn(message);
      assert.equal(event.type, "error", message.slice(0, 40));
      assert.equal(event.error.code, code, message.slice(0, 40));
      assert.equal(typeof event.error.message, "string");
    }
    // Far over the limit: the socket is closed (1009, message too big), the server goes on.
    const far = await socketTo(port);
    const closed = new Promise((resolve) => far.ws.once("close", resolve));
    far.ws.send("x".repeat(4096 + 65 * 1024));
    assert.equal(await closed, 1009);
    // A create while one goes: refused; the going one ends as it would.
    s.ws.send(JSON.stringify({ type: "response.create", model: "m", input: "slow" }));
    const created = await s.next();
    assert.equal(created.type, "response.created");
    s.ws.send(JSON.stringify({ type: "response.create", model: "m", input: "meanwhile" }));
    let refused = null;
    const rest = [];
    for (;;) {
      const message = await s.next();
      if (message.type === "error") {
        refused = message;
        release();
        continue;
      }
      rest.push(message);
      if (message.type === "response.completed") break;
    }
    assert.equal(refused.error.code, "response_already_in_flight");
    assert.match(JSON.stringify(rest.at(-1).response.output), /start end/);
    assert.equal((await s.turn({ type: "response.create", model: "m", input: "after" })).at(-1).type, "response.completed");
    s.ws.close();
  } finally {
    await close();
  }
});

/** The status line a raw upgrade request gets (and the body, if any). */
function rawUpgrade(port, { path = RESPONSES, host = "127.0.0.1", extra = "" } = {}) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (d) => (text += d));
    socket.on("close", () => resolve(text));
    socket.on("error", () => resolve(text));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`);
    setTimeout(() => socket.end(), 1500);
  });
}

test("upgrades elsewhere, unauthorized or with a bad Host are refused with the core's 4xx; a plain GET is 405", async () => {
  const { port, base, close } = await serve({
    agent: (request, rb) => void rb.message().content("text").delta("hi"),
    authorize: (request) => (request.headers.get("authorization") === "Bearer ok" ? "ok" : null),
  });
  try {
    assert.match(await rawUpgrade(port, { path: "/process", extra: "Authorization: Bearer ok\r\n" }), /^HTTP\/1\.1 404 /);
    assert.match(await rawUpgrade(port), /^HTTP\/1\.1 401 [^]*"code":"UNAUTHORIZED"/);
    assert.match(await rawUpgrade(port, { host: "a b", extra: "Authorization: Bearer ok\r\n" }), /^HTTP\/1\.1 400 /);
    assert.match(await rawUpgrade(port, { extra: "Authorization: Bearer ok\r\n" }), /^HTTP\/1\.1 101 /);
    const plain = await fetch(`${base}${RESPONSES}`, { headers: { authorization: "Bearer ok" } });
    assert.equal(plain.status, 405);
    assert.match(plain.headers.get("allow"), /POST/);
    const s = await socketTo(port, { authorization: "Bearer ok" });
    assert.equal((await s.turn({ type: "response.create", model: "m", input: "hi" })).at(-1).type, "response.completed");
    s.ws.close();
  } finally {
    await close();
  }
});

test("a client that closes its socket mid-turn: the run, read by nobody, is abandoned", async () => {
  let aborted = false;
  const { port, close } = await serve({
    agent: async (request, rb, { signal }) => {
      rb.message().content("text").delta("thinking");
      await new Promise((resolve) => signal.addEventListener("abort", () => {
        aborted = true;
        resolve();
      }, { once: true }));
    },
    runs: { abandonAfterMs: 100 },
  });
  try {
    const s = await socketTo(port);
    s.ws.send(JSON.stringify({ type: "response.create", model: "m", input: "hi" }));
    for (let m = await s.next(); m.type !== "response.output_text.delta"; m = await s.next());
    s.ws.terminate();
    const deadline = Date.now() + 8000;
    while (!aborted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.ok(aborted, "the agent's signal aborted");
  } finally {
    await close();
  }
});

test("fuzz: 400 seeded hostile messages on one socket, each answered (an error event or a whole turn), the socket usable after", async () => {
  const { xorshift32 } = await import("./seeded.mjs");
  const next = xorshift32(0x5eed);
  const pick = (list) => list[next() % list.length];
  const { port, close } = await serve({ agent: (request, rb) => void rb.message().content("text").delta("ok"), maxBodyBytes: 8192 });
  const values = [null, true, 0, -1, 1e308, "", "x", [], {}, [{}], { type: "message" }, "\u0000", "\ud800", "a".repeat(300)];
  const fields = ["type", "model", "input", "previous_response_id", "store", "tools", "instructions", "stream", "background", "__proto__", "metadata"];
  try {
    const s = await socketTo(port);
    for (let i = 0; i < 400; i++) {
      const kind = next() % 4;
      let message;
      if (kind === 0) message = Buffer.from(Array.from({ length: next() % 64 }, () => next() & 0xff)).toString("latin1");
      else {
        const body = { type: "response.create", model: "m", input: "hi" };
        for (let k = next() % 4; k > 0; k--) body[pick(fields)] = pick(values);
        message = JSON.stringify(body);
        if (kind === 3) message = message.slice(0, next() % (message.length + 1));
      }
      const answer = await s.turn(message);
      const last = answer.at(-1);
      assert.ok(last.type === "error" || /^response\.(completed|failed|incomplete)$/.test(last.type), `${i}: ${JSON.stringify(last).slice(0, 200)}`);
      if (last.type === "error") assert.ok(last.status >= 400 && last.status < 500, `${i}: a client's fault is a 4xx: ${JSON.stringify(last)}`);
    }
    assert.equal((await s.turn({ type: "response.create", model: "m", input: "after" })).at(-1).type, "response.completed");
    s.ws.close();
  } finally {
    await close();
  }
});

test("a socket over its high-water mark (bufferedAmount) is sent nothing more until it drains: a client that does not read holds its run back", async () => {
  // The socket module itself, with a socket whose unsent bytes the test sets, and a turn whose
  // stream counts how far it was read.
  const { serveSocket, SOCKET_HIGH_WATER } = await import(new URL("../node_modules/agentwire/app-socket.js", import.meta.url).href);
  const listeners = {};
  const sent = [];
  const socket = {
    readyState: 1, bufferedAmount: 2 * SOCKET_HIGH_WATER,
    send: (text) => sent.push(JSON.parse(text)), close() {},
    addEventListener: (type, listener) => (listeners[type] = listener),
  };
  let pulled = 0;
  const EVENTS = 100;
  const encoder = new TextEncoder();
  const turn = async () => new Response(new ReadableStream({
    pull(c) {
      if (pulled === EVENTS) return c.close();
      const type = pulled === EVENTS - 1 ? "response.completed" : "response.output_text.delta";
      c.enqueue(encoder.encode(`id: ${pulled}\nevent: ${type}\ndata: ${JSON.stringify({ type, sequence_number: pulled, response: { id: "r", status: "completed", output: [] } })}\n\n`));
      pulled++;
    },
  }, { highWaterMark: 0 }), { headers: { "content-type": "text/event-stream" } });
  serveSocket(socket, { turn, maxBytes: 1 << 20 });
  listeners.message({ data: JSON.stringify({ type: "response.create", model: "m", input: "hi" }) });
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.ok(pulled <= 2 && sent.length <= 2, `read ${pulled} events, sent ${sent.length} while the socket held ${socket.bufferedAmount} bytes`);
  socket.bufferedAmount = 0;
  const deadline = Date.now() + 5000;
  while (sent.length < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(sent.length, EVENTS);
  assert.deepEqual(sent.map((e) => e.sequence_number), [...Array(EVENTS).keys()]);
  listeners.close();
});

test("sockets are capped per principal (16): past it an upgrade is 429; a closed socket frees its place", async () => {
  const { port, close } = await serve({
    agent: (request, rb) => void rb.message().content("text").delta("hi"),
    authorize: (request) => request.headers.get("authorization")?.slice(7) || null,
  });
  try {
    const open = [];
    for (let i = 0; i < 16; i++) open.push(await socketTo(port, { authorization: "Bearer many" }));
    assert.match(await rawUpgrade(port, { extra: "Authorization: Bearer many\r\n" }), /^HTTP\/1\.1 429 [^]*"code":"TOO_MANY_RUNS"/);
    // Another principal is not held back; a closed socket frees its place.
    const other = await socketTo(port, { authorization: "Bearer other" });
    const closed = new Promise((resolve) => open[0].ws.once("close", resolve));
    open[0].ws.close();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await socketTo(port, { authorization: "Bearer many" });
    assert.equal((await again.turn({ type: "response.create", model: "m", input: "hi" })).at(-1).type, "response.completed");
    for (const s of [...open.slice(1), other, again]) s.ws.close();
  } finally {
    await close();
  }
});
