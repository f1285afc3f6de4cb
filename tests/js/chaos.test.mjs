// Chaos: a TCP proxy on 127.0.0.1 between StreamAssembler.connect and AgentApp cuts connections
// at seeded random byte offsets of the answer (inside events, inside UTF-8 characters, inside
// headers); connect() resumes through the proxy each time. 200 runs with the memory store and 80
// with the Redis store (each connection to either of two instances), across the Agent API,
// OpenAI Responses, AG-UI and A2A: every final snapshot equals the uninterrupted run's: no event
// lost, none doubled. Also: stop() is the cancel route, abort()
// only disconnects, a refusal (410) is final.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { AgentApp, MemoryRunStore, RedisRunStore, StreamAssembler } from "agentwire";
import { chaos, freshFetch, ROUTES } from "./chaos-helpers.mjs";
import { listen as listenOn } from "./http-helpers.mjs";
import { chaosAgent as agent } from "./scripted-agent.mjs";
import { startRedis } from "./redis-server.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

async function listen(app) {
  return (await listenOn(app)).server;
}

test("200 runs through a proxy that cuts connections at random offsets: every snapshot equals the uninterrupted run's", async () => {
  const app = new AgentApp({ agent: agent() });
  const server = await listen(app);
  try {
    const { runs, reconnects, cuts } = await chaos(StreamAssembler, [server.address().port], 50, 7);
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
    const { runs, reconnects, cuts } = await chaos(StreamAssembler, made.map((m) => m.server.address().port), 20, 11);
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
  }, runs: { store: new MemoryRunStore({ retentionMs: 1_000 }) } });
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
    // Resuming a run whose log is no longer kept (past retention): 410, final.
    for (let i = 0; i < 100 && !(await app.runStore.get(left.runId)).gone; i++) await new Promise((resolve) => setTimeout(resolve, 20));
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

test("connect(): reconnecting adds no listener to its signal (none piles up over a flaky link)", async () => {
  const { getEventListeners } = await import("node:events");
  let calls = 0;
  let most = 0;
  const flaky = async (url, init) => {
    most = Math.max(most, getEventListeners(init.signal, "abort").length);
    const i = calls++;
    // One event per connection, then the connection ends early (a cut), 30 times.
    const body = i < 30 ? `id: ${i}\ndata: {"type":"response.created","sequence_number":${i},"response":{"id":"r","object":"response","status":"in_progress","output":[]}}\n\n` : "";
    return new Response(body, { headers: { "content-type": "text/event-stream", "x-agentwire-run-id": "r" } });
  };
  const connection = StreamAssembler.connect("http://app/compatible-mode/v1/responses", { method: "POST", body: "{}" },
    { protocol: "openai-responses", fetch: flaky, backoffMs: 0, maxAttempts: 3 });
  await assert.rejects((async () => {
    for await (const _ of connection) { /* reconnects */ }
  })());
  assert.ok(connection.reconnects >= 30, `${connection.reconnects} reconnects`);
  assert.ok(most <= 2, `${most} abort listeners on the signal at once`);
  connection.free();
});

test("connect(): a resume answered 502/503 is tried again; an error body is read only in part", async () => {
  let calls = 0;
  let pulled = 0;
  const event = (i) => `id: ${i}\ndata: {"type":"response.created","sequence_number":${i},"response":{"id":"r","object":"response","status":"in_progress","output":[]}}\n\n`;
  const flaky = async () => {
    const i = calls++;
    if (i === 0) return new Response(event(0), { headers: { "content-type": "text/event-stream", "x-agentwire-run-id": "r" } });
    if (i === 1) return new Response("bad gateway", { status: 502 });
    if (i === 2) return new Response("unavailable", { status: 503 });
    // Then a refusal whose body never ends: read up to a limit, not waited for.
    return new Response(new ReadableStream({
      pull(c) {
        c.enqueue(new TextEncoder().encode(pulled++ === 0 ? '{"error":{"code":"RUN_GONE"}}' : " ".repeat(16 * 1024)));
      },
    }), { status: 410 });
  };
  const connection = StreamAssembler.connect("http://app/compatible-mode/v1/responses", { method: "POST", body: "{}" },
    { protocol: "openai-responses", fetch: flaky, backoffMs: 0 });
  await assert.rejects((async () => {
    for await (const _ of connection) { /* reconnects */ }
  })(), (e) => e.status === 410 && e.serverCode === "RUN_GONE");
  assert.equal(calls, 4, "the 502 and the 503 were tried again");
  assert.ok(pulled < 10, `${pulled} chunks of an endless error body read`);
  connection.free();
});
