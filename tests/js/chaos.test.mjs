// Chaos: a TCP proxy on 127.0.0.1 between StreamAssembler.connect and AgentApp cuts connections
// at seeded random byte offsets of the answer (inside events, inside UTF-8 characters, inside
// headers); connect() resumes through the proxy each time. 200 runs with the memory store and 80
// with the Redis store (each connection to either of two instances), across the Agent API,
// OpenAI Responses, AG-UI and A2A: every final snapshot equals the uninterrupted run's: no event
// lost, none doubled. Also: stop() is the cancel route, abort()
// only disconnects, a refusal (410) is final.
import test from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { createServer as createTcpServer, connect as tcpConnect } from "node:net";
import { createRequire } from "node:module";
import { AgentApp, MemoryRunStore, RedisRunStore, StreamAssembler } from "agentwire";
import { xorshift32 } from "./reference-streams.mjs";
import { listen as listenOn } from "./http-helpers.mjs";
import { startRedis } from "./redis-server.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

function agent(words = 30, pause = 1) {
  return async (request, rb, { signal }) => {
    const call = rb.toolCall({ type: "function", callId: "call_1", name: "lookup" });
    call.arguments('{"q":"é✓"}');
    call.complete();
    rb.toolOutput({ type: "function", callId: "call_1", name: "lookup", output: "42" });
    const text = rb.message().content("text");
    for (let i = 0; i < words && !signal.aborted; i++) {
      text.delta(`w${i}—é `);
      if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
}

async function listen(app) {
  return (await listenOn(app)).server;
}

/**
 * A TCP proxy that cuts each connection after a random number of answer bytes (or never); each
 * connection goes to one of `targets` (ports), at random.
 */
async function chaosProxy(targets, seed) {
  const next = xorshift32(seed);
  const stats = { connections: 0, cuts: 0 };
  const proxy = createTcpServer((client) => {
    stats.connections++;
    const upstream = tcpConnect(targets[next() % targets.length], "127.0.0.1");
    // Cut 2 connections in 3, somewhere in the first 6 KB of the answer.
    const cutAt = next() % 3 === 0 ? Infinity : next() % 6000;
    let sent = 0;
    const cut = () => {
      stats.cuts++;
      client.destroy();
      upstream.destroy();
    };
    upstream.on("data", (chunk) => {
      if (sent + chunk.length > cutAt) {
        client.write(chunk.subarray(0, cutAt - sent), cut);
        sent = cutAt;
        upstream.pause();
        return;
      }
      sent += chunk.length;
      client.write(chunk);
    });
    client.on("data", (chunk) => upstream.write(chunk));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return { proxy, stats, port: proxy.address().port };
}

/** fetch over node:http with a new TCP connection per request (so each one meets the proxy). */
function freshFetch(url, init = {}) {
  return new Promise((resolve, reject) => {
    const headers = Object.fromEntries(new Headers(init.headers ?? {}));
    const req = httpRequest(url, { method: init.method ?? "GET", headers, agent: false, signal: init.signal }, (res) => {
      const h = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v);
      const body = Readable.toWeb(res);
      resolve(new Response(res.statusCode === 204 ? null : body, { status: res.statusCode, headers: h }));
    });
    req.on("error", reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

const JSON_HEADERS = { "content-type": "application/json" };
const ROUTES = {
  "agent-api": { path: "/process", body: () => ({ input: [{ role: "user", content: [{ type: "text", text: "go" }] }] }) },
  // A2A resumes with SubscribeToTask and Last-Event-ID (agentwire's extension), on the same URL.
  a2a: {
    path: "/a2a",
    headers: { ...JSON_HEADERS, "a2a-version": "1.0" },
    body: () => ({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "go" }] } } }),
  },
  "openai-responses": { path: "/compatible-mode/v1/responses", body: () => ({ model: "m", input: "go", stream: true }) },
  "ag-ui": { path: "/ag-ui", body: () => ({ threadId: crypto.randomUUID(), runId: crypto.randomUUID(), messages: [{ id: "u", role: "user", content: "go" }], tools: [], context: [], state: {}, forwardedProps: {} }) },
};

function essence(snapshot) {
  return JSON.stringify(snapshot, (key, value) =>
    ["id", "created_at", "completed_at", "session_id", "msg_id", "threadId", "runId", "timestamp", "sequence_number"].includes(key) ? undefined : value);
}

/**
 * `perProtocol` runs of each protocol through a cutting proxy in front of `servers` (one
 * instance, or several sharing a store): every snapshot equals the uninterrupted run's.
 */
async function chaos(servers, perProtocol, seed) {
  const ports = servers.map((s) => s.address().port);
  const { proxy, stats, port } = await chaosProxy(ports, seed);
  const direct = `http://127.0.0.1:${ports[0]}`;
  const viaProxy = `http://127.0.0.1:${port}`;
  let runs = 0;
  let reconnects = 0;
  try {
    for (const [protocol, { path, body, headers = JSON_HEADERS }] of Object.entries(ROUTES)) {
      const want = essence(await StreamAssembler.collect(await fetch(`${direct}${path}`, { method: "POST", headers, body: JSON.stringify(body()) }), { protocol }));
      for (let i = 0; i < perProtocol; i++) {
        const connection = StreamAssembler.connect(`${viaProxy}${path}`, { method: "POST", headers, body: JSON.stringify(body()) },
          { protocol, backoffMs: 1, maxAttempts: 50, fetch: freshFetch });
        let reported = 0;
        try {
          for await (const updates of connection) {
            reported += updates.filter((u) => u.type === "reconnect").length;
          }
        } catch (error) {
          // A cut inside the first answer's headers: the run may not have started, or its id is
          // unknown to the client; start again (a new run), as a client would.
          if (connection.runId !== null) throw error;
          i--;
          connection.free();
          continue;
        }
        assert.equal(reported, connection.reconnects);
        assert.equal(connection.assembler.outcome, "completed", `${protocol} run ${i}`);
        assert.equal(essence(connection.assembler.snapshot()), want, `${protocol} run ${i}`);
        reconnects += connection.reconnects;
        runs++;
        connection.free();
      }
    }
  } finally {
    proxy.close();
  }
  return { runs, reconnects, cuts: stats.cuts };
}

test("200 runs through a proxy that cuts connections at random offsets: every snapshot equals the uninterrupted run's", async () => {
  const app = new AgentApp({ agent: agent() });
  const server = await listen(app);
  try {
    const { runs, reconnects, cuts } = await chaos([server], 50, 7);
    assert.ok(runs >= 200, `${runs} runs`);
    assert.ok(cuts > 100 && reconnects > 100, `cuts ${cuts}, reconnects ${reconnects}`);
  } finally {
    server.close();
    await app.close();
  }
});

test("Redis store: 80 runs through the cutting proxy, each connection to either of two instances", { skip }, async () => {
  const redis = await startRedis();
  const { createClient } = createRequire(`${ROOT}/package.json`)("redis");
  const made = [];
  try {
    const prefix = `chaos${Date.now()}:`;
    for (let i = 0; i < 2; i++) {
      const client = createClient({ url: redis.url });
      await client.connect();
      const store = new RedisRunStore(client, { prefix, pollMs: 200 });
      const app = new AgentApp({ agent: agent(), runs: { store } });
      made.push({ client, store, app, server: await listen(app) });
    }
    const { runs, reconnects, cuts } = await chaos(made.map((m) => m.server), 20, 11);
    assert.ok(runs >= 80, `${runs} runs`);
    assert.ok(cuts > 40 && reconnects > 40, `cuts ${cuts}, reconnects ${reconnects}`);
  } finally {
    for (const m of made) {
      m.server.close();
      await m.app.close();
      await m.store.close();
      await m.client.close();
    }
    await redis.stop();
  }
});

test("stop() cancels the run on the server; abort() only disconnects; a 410 is final", async () => {
  let aborted = 0;
  const app = new AgentApp({ agent: async (request, rb, { signal }) => {
    rb.message().content("text").delta("working");
    await new Promise((resolve) => {
      signal.addEventListener("abort", resolve, { once: true });
      setTimeout(resolve, 500).unref();
    });
    if (signal.aborted) aborted++;
  }, runs: { store: new MemoryRunStore({ maxEvents: 2 }) } });
  const server = await listen(app);
  const base = `http://127.0.0.1:${server.address().port}`;
  const init = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ROUTES["agent-api"].body()) };
  try {
    const stopped = StreamAssembler.connect(`${base}/process`, init, { protocol: "agent-api" });
    for await (const updates of stopped) {
      if (updates.some((u) => u.type === "text")) await stopped.stop();
    }
    assert.equal(stopped.assembler.outcome, "canceled");
    assert.equal(aborted, 1);
    const left = StreamAssembler.connect(`${base}/process`, init, { protocol: "agent-api" });
    for await (const updates of left) {
      if (updates.some((u) => u.type === "text")) left.abort();
    }
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.equal(aborted, 1, "abort() does not stop the run");
    const run = await app.runStore.get(left.runId);
    assert.equal(run.status, "ended");
    // Resuming from the start of a run whose first events are no longer kept: 410, final.
    const gone = StreamAssembler.connect(`${base}/process/${left.runId}`, { headers: { "last-event-id": "0" } }, { protocol: "agent-api" });
    await assert.rejects(async () => { for await (const _ of gone) { /* nothing */ } }, (e) => e.status === 410 && e.serverCode === "RUN_GONE");
    stopped.free();
    left.free();
    gone.free();
  } finally {
    server.close();
    await app.close();
  }
});
