// RedisRunStore against a real redis-server on 127.0.0.1 (Debian's, started here): the store's
// rules (caps, retention, sessions, cancel from another store), and two AgentApp instances on
// one Redis: a run started on A is resumed, cut anywhere, on B and assembles the uninterrupted
// run; cancel on B stops the agent on A; the official openai client resumes on B; a session busy
// on A is busy on B. Instance loss: the process running the agent is killed; readers on the
// other instance get the logged events, then a RUN_LOST failure within the lease.
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { AgentApp, RedisRunStore, StreamAssembler } from "agentwire";
import { xorshift32 } from "./reference-streams.mjs";
import { listen, post, readWithCuts } from "./http-helpers.mjs";
import { slowAgent } from "./scripted-agent.mjs";
import { startRedis } from "./redis-server.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;
const redisPackage = () => createRequire(`${ROOT}/package.json`)("redis");

let redis;
const clients = [];
test.before(async () => {
  if (!skip) redis = await startRedis();
});
test.after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await redis?.stop();
});

async function client() {
  const c = redisPackage().createClient({ url: redis.url });
  await c.connect();
  clients.push(c);
  return c;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const enc = new TextEncoder();
const event = (id, data = "{}") => ({ id, bytes: enc.encode(`id: ${id}\ndata: ${data}\n\n`) });
const idsOf = (text) => (text.match(/^id: \d+$/gm) ?? []).map((l) => Number(l.slice(4)));

async function readAll(iterable) {
  let text = "";
  for await (const chunk of iterable) text += new TextDecoder().decode(chunk);
  return text;
}

test("the store keeps the newest events within its caps, refuses cursors before them, and forgets after retention", { skip }, async () => {
  const store = new RedisRunStore(await client(), { prefix: `caps${Date.now()}:`, maxEvents: 100, retentionMs: 300 });
  try {
    await store.start({ id: "r", protocol: "agent-api" });
    for (let i = 0; i < 2_000; i += 10) await store.append("r", Array.from({ length: 10 }, (_, k) => event(i + k)));
    await store.end("r");
    const info = await store.get("r");
    assert.deepEqual([info.first, info.next, info.status, info.gone], [1900, 2000, "ended", false]);
    await assert.rejects(store.read("r", 1898), (e) => e.code === "RUN_GONE");
    assert.deepEqual(idsOf(await readAll(await store.read("r", 1949))), Array.from({ length: 50 }, (_, k) => 1950 + k));
    assert.equal(idsOf(new TextDecoder().decode(await store.log("r"))).length, 100);
    await assert.rejects(store.read("nope"), (e) => e.code === "NOT_FOUND");
    assert.equal(await store.get("nope"), null);
    // Bytes too: 3 events of 1 KB fit in 2.5 KB as 2.
    await store.start({ id: "big", protocol: "agent-api" });
    const bigStore = new RedisRunStore(await client(), { prefix: `caps${Date.now()}b:`, maxBytes: 2500 });
    await bigStore.start({ id: "big", protocol: "agent-api" });
    await bigStore.append("big", [0, 1, 2].map((i) => event(i, "x".repeat(1000))));
    assert.deepEqual(idsOf(new TextDecoder().decode(await bigStore.log("big"))), [1, 2]);
    await bigStore.close();
    // Past retention the log is gone (RUN_GONE), past twice that the run is unknown.
    await sleep(400);
    assert.equal((await store.get("r")).gone, true);
    await assert.rejects(store.read("r", -1), (e) => e.code === "RUN_GONE");
    await sleep(300);
    assert.equal(await store.get("r"), null);
  } finally {
    await store.close();
  }
});

test("two stores on one Redis: sessions are exclusive across them, a cancel reaches the store running the run, readers follow live", { skip }, async () => {
  const prefix = `two${Date.now()}:`;
  const a = new RedisRunStore(await client(), { prefix });
  const b = new RedisRunStore(await client(), { prefix, pollMs: 5_000 });
  try {
    await a.start({ id: "r1", protocol: "agent-api", session: "s" });
    await assert.rejects(b.start({ id: "r2", protocol: "agent-api", session: "s" }), (e) => e.code === "SESSION_BUSY");
    await assert.rejects(b.start({ id: "r1", protocol: "agent-api" }), (e) => e.code === "RUN_EXISTS");
    await b.start({ id: "r3", protocol: "agent-api", session: "s", exclusive: false });
    await b.end("r3");
    let stopped = 0;
    a.onCancel("r1", () => stopped++);
    // A reader on b, waiting: woken by pub/sub (its poll is 5 s), not by polling.
    const read = readAll(await b.read("r1", -1));
    const t0 = Date.now();
    for (let i = 0; i < 50; i++) await a.append("r1", [event(i)]);
    assert.equal(await b.cancel("r1"), true);
    for (let i = 0; i < 100 && stopped === 0; i++) await sleep(10);
    assert.equal(stopped, 1);
    await a.end("r1");
    assert.deepEqual(idsOf(await read), Array.from({ length: 50 }, (_, i) => i));
    assert.ok(Date.now() - t0 < 4_000, "woken by messages");
    assert.equal(await b.cancel("r1"), false, "an ended run is not running");
    // The session is free once its run ended.
    await b.start({ id: "r4", protocol: "agent-api", session: "s" });
    await b.end("r4");
  } finally {
    await a.close();
    await b.close();
  }
});

test("a lapsed lease makes the run lost: readers get RUN_LOST after the logged events, the old owner can append nothing", { skip }, async () => {
  const prefix = `lease${Date.now()}:`;
  const a = new RedisRunStore(await client(), { prefix, leaseMs: 300 });
  const b = new RedisRunStore(await client(), { prefix, pollMs: 50 });
  try {
    await a.start({ id: "r", protocol: "agent-api", session: "s" });
    await a.append("r", [event(0), event(1)]);
    await a.close(); // stops renewing, as a dead instance would
    const t0 = Date.now();
    let text = "";
    await assert.rejects((async () => {
      for await (const chunk of await b.read("r", -1)) text += new TextDecoder().decode(chunk);
    })(), (e) => e.code === "RUN_LOST" && e.next === 2);
    assert.deepEqual(idsOf(text), [0, 1]);
    assert.ok(Date.now() - t0 < 2_000, `${Date.now() - t0} ms`);
    assert.equal((await b.get("r")).status, "lost");
    await assert.rejects(a.append("r", [event(2)]), (e) => e.code === "RUN_LOST");
    // Its session is free again.
    await b.start({ id: "r2", protocol: "agent-api", session: "s" });
    await b.end("r2");
  } finally {
    await b.close();
  }
});

/** Waits until aborted (or 20 s). */
function waitingAgent(counter) {
  return async (request, rb, { signal }) => {
    rb.message().content("text").delta("working");
    await new Promise((resolve) => {
      signal.addEventListener("abort", resolve, { once: true });
      setTimeout(resolve, 20_000).unref();
    });
    if (signal.aborted) counter.aborted++;
  };
}

const REQUESTS = {
  "agent-api": { path: "/process", body: (s) => ({ input: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }], session_id: s }) },
  "openai-responses": { path: "/compatible-mode/v1/responses", body: (s) => ({ model: "m", input: "Weather?", stream: true, conversation: s }) },
  "ag-ui": { path: "/ag-ui", body: (s) => ({ threadId: s, runId: `run-${s}`, messages: [{ id: "u1", role: "user", content: "Weather?" }], tools: [], context: [], state: {}, forwardedProps: {} }) },
};
const a2aSend = (text) => ({ jsonrpc: "2.0", id: 7, method: "SendStreamingMessage", params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text }] } } });
const A2A = { "content-type": "application/json", "a2a-version": "1.0" };

function essence(snapshot) {
  return JSON.stringify(snapshot, (key, value) =>
    ["id", "created_at", "completed_at", "session_id", "msg_id", "threadId", "runId", "timestamp", "sequence_number"].includes(key) ? undefined : value);
}

/** Two AgentApps (A and B) on node:http, each with its own client and store on one Redis. */
async function twoInstances(agent, storeOptions = {}, runOptions = {}) {
  const prefix = `app${crypto.randomUUID()}:`;
  const made = [];
  for (const name of ["A", "B"]) {
    const store = new RedisRunStore(await client(), { prefix, pollMs: 200, ...storeOptions });
    const app = new AgentApp({ agent, runs: { store, ...runOptions } });
    const { server, base } = await listen(app);
    made.push({ name, store, app, server, base });
  }
  return {
    a: made[0],
    b: made[1],
    async close() {
      for (const m of made) {
        m.server.close();
        await m.app.close();
        await m.store.close();
      }
    },
  };
}

test("a run started on instance A, cut anywhere, resumes on instance B with Last-Event-ID, in every protocol", { skip }, async () => {
  const { a, b, close } = await twoInstances(slowAgent(1));
  const next = xorshift32(19);
  let n = 0;
  try {
    for (const [protocol, { path, body }] of Object.entries(REQUESTS)) {
      const whole = await StreamAssembler.collect(await post(`${a.base}${path}`, body(`whole-${protocol}`)), { protocol });
      for (let trial = 0; trial < 6; trial++) {
        const session = `r${++n}`;
        const first = await post(`${a.base}${path}`, body(session));
        const id = first.headers.get("x-agentwire-run-id");
        const asm = new StreamAssembler({ protocol });
        let on = a;
        await readWithCuts(first, asm, next, (cut) => {
          on = on === a ? b : a; // resume on the other instance
          return fetch(`${on.base}${path}/${id}`, { headers: cut.lastEventId === null ? { accept: "text/event-stream" } : { "last-event-id": cut.lastEventId } });
        });
        assert.equal(asm.outcome, "completed", `${protocol} trial ${trial}`);
        assert.equal(essence(asm.snapshot()), essence(whole), `${protocol} trial ${trial}`);
        asm.free();
      }
    }
    // The official client, on B, resumes a Responses run started on A.
    const { default: OpenAI } = await import("openai");
    const onA = new OpenAI({ baseURL: `${a.base}/compatible-mode/v1`, apiKey: "none" });
    const onB = new OpenAI({ baseURL: `${b.base}/compatible-mode/v1`, apiKey: "none" });
    let id;
    let last = -1;
    let text = "";
    for await (const e of await onA.responses.create({ model: "m", input: "Weather?", stream: true })) {
      id ??= e.response?.id;
      last = e.sequence_number;
      if (e.type === "response.output_text.delta") text += e.delta;
      if (text.length > 20) break;
    }
    for await (const e of await onB.responses.retrieve(id, { stream: true, starting_after: last })) {
      if (e.type === "response.output_text.delta") text += e.delta;
    }
    assert.equal(text, Array.from({ length: 40 }, (_, i) => `w${i}é `).join(""));
    assert.equal((await onB.responses.retrieve(id)).status, "completed");
  } finally {
    await close();
  }
});

test("cancel on instance B stops the agent running on A; every reader gets the canceled end; a session busy on A is busy on B", { skip }, async () => {
  const counter = { aborted: 0 };
  const { a, b, close } = await twoInstances(waitingAgent(counter));
  try {
    for (const [protocol, { path, body }] of Object.entries(REQUESTS)) {
      const first = await post(`${a.base}${path}`, body(`cancel-${protocol}`));
      const id = first.headers.get("x-agentwire-run-id");
      const onA = StreamAssembler.collect(first, { protocol });
      const onB = StreamAssembler.collect(await fetch(`${b.base}${path}/${id}`, { headers: { accept: "text/event-stream" } }), { protocol });
      if (protocol === "agent-api") {
        const busy = await post(`${b.base}${path}`, body(`cancel-${protocol}`));
        assert.equal(busy.status, 409);
        assert.equal((await busy.json()).error.code, "SESSION_BUSY");
      }
      const canceled = await post(`${b.base}${path}/${id}/cancel`, {});
      assert.equal(canceled.status, 200);
      if (protocol === "openai-responses") assert.equal((await canceled.json()).status, "cancelled");
      else assert.deepEqual(await canceled.json(), { id, status: "ended" });
      assert.equal((await onA).outcome, "canceled", protocol);
      assert.equal((await onB).outcome, "canceled", protocol);
    }
    // A2A: SubscribeToTask and CancelTask on B for a task running on A.
    const sent = await post(`${a.base}/a2a`, a2aSend("go"), A2A);
    const reader = sent.body.getReader();
    const firstChunk = new TextDecoder().decode((await reader.read()).value);
    const taskId = JSON.parse(firstChunk.split("data: ")[1].split("\n")[0]).result.task.id;
    await reader.cancel();
    const subscribed = StreamAssembler.collect(await post(`${b.base}/a2a`, { jsonrpc: "2.0", id: 8, method: "SubscribeToTask", params: { id: taskId } }, A2A), { protocol: "a2a" });
    const cancel = await (await post(`${b.base}/a2a`, { jsonrpc: "2.0", id: 9, method: "CancelTask", params: { id: taskId } }, A2A)).json();
    assert.equal(cancel.result.status.state, "TASK_STATE_CANCELED");
    assert.equal((await subscribed).outcome, "canceled");
    assert.equal(counter.aborted, 4);
  } finally {
    await close();
  }
});

test("instance loss: the process running the agent is killed; readers on the other instance get RUN_LOST within the lease", { skip }, async () => {
  const leaseMs = 1_000;
  const child = spawn(process.execPath, [fileURLToPath(new URL("./redis-instance.mjs", import.meta.url)), redis.url, String(leaseMs)], {
    stdio: ["ignore", "pipe", "inherit"],
    env: process.env,
  });
  const store = new RedisRunStore(await client(), { pollMs: 100 });
  const b = new AgentApp({ agent: slowAgent(1), runs: { store } });
  const onB = await listen(b);
  try {
    const { port } = await new Promise((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
        if (out.includes("\n")) resolve(JSON.parse(out));
      });
      child.on("exit", (code) => reject(new Error(`the instance exited (${code})`)));
    });
    const onA = `http://127.0.0.1:${port}`;
    const runs = [];
    for (const [protocol, { path, body }] of Object.entries(REQUESTS)) {
      const r = await post(`${onA}${path}`, body(`lost-${protocol}`));
      const id = r.headers.get("x-agentwire-run-id");
      await r.body.cancel(); // the run goes on on A
      const reader = StreamAssembler.collect(await fetch(`${onB.base}${path}/${id}`, { headers: { accept: "text/event-stream" } }), { protocol });
      runs.push({ protocol, path, id, reader });
    }
    const sent = await post(`${onA}/a2a`, a2aSend("go"), A2A);
    const sentReader = sent.body.getReader();
    const taskId = JSON.parse(new TextDecoder().decode((await sentReader.read()).value).split("data: ")[1].split("\n")[0]).result.task.id;
    await sentReader.cancel();
    const a2aReader = StreamAssembler.collect(await post(`${onB.base}/a2a`, { jsonrpc: "2.0", id: 3, method: "SubscribeToTask", params: { id: taskId } }, A2A), { protocol: "a2a" });
    runs.push({ protocol: "a2a", id: taskId, reader: a2aReader });
    await sleep(100);
    const killed = Date.now();
    child.kill("SIGKILL");
    for (const run of runs) {
      const snapshot = await run.reader;
      const after = Date.now() - killed;
      assert.equal(snapshot.outcome, "failed", run.protocol);
      // Within the lease, give or take the poll and a loaded machine.
      assert.ok(after < leaseMs + 3_000, `${run.protocol}: RUN_LOST after ${after} ms`);
      assert.match(JSON.stringify(snapshot), /working/, `${run.protocol}: the logged events came first`);
      assert.match(JSON.stringify(snapshot), run.protocol === "openai-responses" ? /went away/ : /RUN_LOST/, run.protocol);
    }
    // Resumed later, the same end (with the same cursor); the Responses object and the A2A task say failed.
    const process_ = runs[0];
    const again = await fetch(`${onB.base}/process/${process_.id}`, { headers: { accept: "text/event-stream" } });
    const text = await again.text();
    const lostId = Number(text.match(/^id: (\d+)$/gm).at(-1).slice(4));
    const tail = await (await fetch(`${onB.base}/process/${process_.id}`, { headers: { "last-event-id": String(lostId - 1) } })).text();
    assert.equal(tail, text.slice(text.lastIndexOf("id: ")));
    const responses = runs[1];
    const response = await (await fetch(`${onB.base}/compatible-mode/v1/responses/${responses.id}`)).json();
    assert.equal(response.status, "failed");
    assert.equal(response.output[0].content[0].text, "working on it");
    const task = await (await post(`${onB.base}/a2a`, { jsonrpc: "2.0", id: 4, method: "GetTask", params: { id: taskId } }, A2A)).json();
    assert.equal(task.result.status.state, "TASK_STATE_FAILED");
  } finally {
    child.kill("SIGKILL");
    onB.server.close();
    await b.close();
    await store.close();
  }
});

test("a run nobody reads is abandoned by the instance running it; a reader on another instance keeps it going", { skip }, async () => {
  const counter = { aborted: 0 };
  const { a, b, close } = await twoInstances(waitingAgent(counter), { pollMs: 50 }, { abandonAfterMs: 1_000 });
  try {
    const first = await post(`${a.base}/process`, REQUESTS["agent-api"].body("abandon"));
    const id = first.headers.get("x-agentwire-run-id");
    await first.body.cancel();
    // A reader on B: its polls tell A that the run is read.
    const reader = (await fetch(`${b.base}/process/${id}`, { headers: { accept: "text/event-stream" } })).body.getReader();
    await sleep(2_500); // 2.5 abandonment periods, polled every 50 ms from B
    assert.equal(counter.aborted, 0, "read on B: not abandoned");
    await reader.cancel();
    // Abandoned within abandonAfterMs of B's last read, plus a sweep; 8 s leaves a loaded machine room.
    for (let i = 0; i < 400 && counter.aborted === 0; i++) await sleep(20);
    assert.equal(counter.aborted, 1, "unread: abandoned");
    assert.equal((await a.store.get(id)).status, "ended");
  } finally {
    await close();
  }
});

test("a reader joining as another leaves is still woken by messages; a cancel right after the start is not lost", { skip }, async () => {
  const store = new RedisRunStore(await client(), { prefix: `join${Date.now()}:`, pollMs: 30_000 });
  try {
    await store.start({ id: "r", protocol: "agent-api" });
    await store.append("r", [event(0)]);
    const a = (await store.read("r", -1))[Symbol.asyncIterator]();
    await a.next();
    await a.return(); // leaves (its UNSUBSCRIBE on its way)…
    const b = (await store.read("r", 0))[Symbol.asyncIterator](); // …as another joins
    const woken = b.next();
    await sleep(100);
    const t0 = Date.now();
    await store.append("r", [event(1)]);
    const first = await Promise.race([woken.then(() => "woken"), sleep(3_000).then(() => "not woken")]);
    assert.equal(first, "woken", `after ${Date.now() - t0} ms`);
    await b.return();
    await store.end("r");
  } finally {
    await store.close();
  }
  // Cancel sent as soon as the run exists, from another instance, before the first one listens.
  const prefix = `early${Date.now()}:`;
  const a = new RedisRunStore(await client(), { prefix });
  const b = new RedisRunStore(await client(), { prefix });
  let aborted = false;
  const app = new AgentApp({
    runs: { store: a, abandonAfterMs: 0 },
    agent: async (request, rb, { signal }) => {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      aborted = true;
    },
  });
  try {
    const canceled = (async () => {
      for (;;) if (await b.cancel("job-1")) return;
    })();
    const started = app.fetch(new Request("http://app/process", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "job-1", input: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }),
    }));
    await canceled;
    await (await started).body.cancel();
    for (let i = 0; i < 50 && !aborted; i++) await sleep(20);
    assert.equal(aborted, true, "the early cancel stopped the agent");
  } finally {
    await app.close();
    await a.close();
    await b.close();
  }
});
