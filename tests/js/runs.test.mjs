// Durable runs (AgentApp with the in-memory run store) on 127.0.0.1: every event carries its
// cursor; a reader cut at seeded random byte offsets (inside events too) resumes with
// Last-Event-ID and assembles what the uninterrupted run gives, in every protocol; cancel routes
// stop a run for every reader; one running run per session (409); a run is only visible to its
// owner (404); an unread run is abandoned; a cursor past what is kept is 410; the official
// openai client resumes (`responses.retrieve(id, {stream, starting_after})`) and cancels.
import test from "node:test";
import assert from "node:assert/strict";
import { AgentApp, MemoryRunStore, StreamAssembler } from "agentwire";
import { xorshift32 } from "./reference-streams.mjs";
import { listen, post, readWithCuts } from "./http-helpers.mjs";
import { slowAgent } from "./scripted-agent.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

const REQUESTS = {
  "agent-api": { path: "/process", body: (s) => ({ input: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }], session_id: s }) },
  "openai-responses": { path: "/compatible-mode/v1/responses", body: (s) => ({ model: "m", input: "Weather?", stream: true, conversation: s }) },
  "ag-ui": { path: "/ag-ui", body: (s) => ({ threadId: s, runId: `run-${s}`, messages: [{ id: "u1", role: "user", content: "Weather?" }], tools: [], context: [], state: {}, forwardedProps: {} }) },
};

/** What matters of a snapshot across runs (ids and timestamps differ). */
function essence(snapshot) {
  return JSON.stringify(snapshot, (key, value) =>
    ["id", "created_at", "completed_at", "session_id", "msg_id", "threadId", "runId", "timestamp", "sequence_number"].includes(key) ? undefined : value);
}

test("a reader cut anywhere resumes with Last-Event-ID and assembles the uninterrupted run, in every protocol", async () => {
  const app = new AgentApp({ agent: slowAgent(1) });
  const { server, base } = await listen(app);
  const next = xorshift32(2026);
  let n = 0;
  try {
    for (const [protocol, { path, body }] of Object.entries(REQUESTS)) {
      const whole = await StreamAssembler.collect(await post(`${base}${path}`, body(`whole-${protocol}`)), { protocol });
      for (let trial = 0; trial < 12; trial++) {
        const session = `s${++n}`;
        const first = await post(`${base}${path}`, body(session));
        const id = first.headers.get("x-agentwire-run-id");
        // Ids the server makes carry a random UUID (122 bits); AG-UI's runId is the client's.
        assert.ok(protocol === "ag-ui" ? id === `run-${session}` : /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id), id);
        const asm = new StreamAssembler({ protocol });
        await readWithCuts(first, asm, next, (cut) =>
          fetch(`${base}${path}/${id}?stream=true`, { headers: cut.lastEventId === null ? {} : { "last-event-id": cut.lastEventId } }));
        assert.equal(asm.outcome, "completed", `${protocol} trial ${trial}`);
        assert.equal(essence(asm.snapshot()), essence(whole), `${protocol} trial ${trial}`);
        assert.equal(asm.replayed, 0, "a Last-Event-ID resume resends nothing");
        asm.free();
      }
    }
  } finally {
    server.close();
    await app.close();
  }
});

test("cancel routes stop a run for every reader; the agent's signal aborts; a disconnect does not", async () => {
  let aborted = 0;
  const app = new AgentApp({
    agent: async (request, rb, { signal }) => {
      rb.message().content("text").delta("working");
      await new Promise((resolve) => {
        signal.addEventListener("abort", resolve, { once: true });
        setTimeout(resolve, 20_000).unref();
      });
      if (signal.aborted) aborted++;
    },
  });
  const { server, base } = await listen(app);
  try {
    for (const [protocol, { path, body }] of Object.entries(REQUESTS)) {
      const first = await post(`${base}${path}`, body(`cancel-${protocol}`));
      const id = first.headers.get("x-agentwire-run-id");
      // A second reader, attached from the start; the first goes away.
      const second = StreamAssembler.collect(await fetch(`${base}${path}/${id}`, { headers: { accept: "text/event-stream" } }), { protocol });
      await first.body.cancel();
      const canceled = await post(`${base}${path}/${id}/cancel`, {});
      assert.equal(canceled.status, 200);
      const answer = await canceled.json();
      if (protocol === "openai-responses") assert.equal(answer.status, "cancelled");
      else assert.deepEqual(answer, { id, status: "ended" });
      const seen = await second;
      assert.equal(seen.outcome, "canceled", protocol);
    }
    assert.equal(aborted, 3);
  } finally {
    server.close();
    await app.close();
  }
});

test("one running run per session (409 SESSION_BUSY), unless concurrentSessions", async () => {
  for (const concurrentSessions of [false, true]) {
    const app = new AgentApp({ agent: slowAgent(5), runs: { concurrentSessions } });
    const { server, base } = await listen(app);
    try {
      const first = await post(`${base}/process`, REQUESTS["agent-api"].body("busy"));
      const second = await post(`${base}/process`, REQUESTS["agent-api"].body("busy"));
      if (concurrentSessions) {
        assert.equal(second.status, 200);
        await second.body.cancel();
      } else {
        assert.equal(second.status, 409);
        assert.equal((await second.json()).error.code, "SESSION_BUSY");
      }
      await StreamAssembler.collect(first);
      // Once it ended, the session takes a new run.
      const third = await post(`${base}/process`, REQUESTS["agent-api"].body("busy"));
      assert.equal(third.status, 200);
      await StreamAssembler.collect(third);
    } finally {
      server.close();
      await app.close();
    }
  }
});

test("a run belongs to its principal: resume and cancel answer 404 to anyone else", async () => {
  const app = new AgentApp({ agent: slowAgent(1), authorize: (r) => r.headers.get("authorization")?.slice(7) || false });
  const { server, base } = await listen(app);
  try {
    const mine = await post(`${base}/process`, REQUESTS["agent-api"].body("p1"), { authorization: "Bearer alice" });
    const id = mine.headers.get("x-agentwire-run-id");
    assert.equal((await fetch(`${base}/process/${id}`, { headers: { authorization: "Bearer mallory" } })).status, 404);
    assert.equal((await post(`${base}/process/${id}/cancel`, {}, { authorization: "Bearer mallory" })).status, 404);
    assert.equal((await fetch(`${base}/process/${crypto.randomUUID()}`, { headers: { authorization: "Bearer alice" } })).status, 404);
    assert.equal((await StreamAssembler.collect(await fetch(`${base}/process/${id}`, { headers: { authorization: "Bearer alice" } }))).status, "completed");
    await mine.body.cancel();
  } finally {
    server.close();
    await app.close();
  }
});

test("an unread run is abandoned; a cursor before what is kept is 410 RUN_GONE; a bad cursor is 400", async () => {
  let aborted = false;
  const app = new AgentApp({
    runs: { abandonAfterMs: 150, store: new MemoryRunStore({ maxEvents: 5 }) },
    agent: async (request, rb, { signal }) => {
      const text = rb.message().content("text");
      for (let i = 0; i < 20; i++) text.delta(`w${i} `);
      await new Promise((resolve) => {
        signal.addEventListener("abort", resolve, { once: true });
        setTimeout(resolve, 10_000).unref();
      });
      aborted = signal.aborted;
    },
  });
  const { server, base } = await listen(app);
  try {
    const r = await post(`${base}/process`, REQUESTS["agent-api"].body("gone"));
    const id = r.headers.get("x-agentwire-run-id");
    await r.body.cancel();
    for (let i = 0; i < 100 && !aborted; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(aborted, true, "abandoned");
    const gone = await fetch(`${base}/process/${id}`);
    assert.equal(gone.status, 410);
    assert.equal((await gone.json()).error.code, "RUN_GONE");
    const tail = await StreamAssembler.collect(await fetch(`${base}/process/${id}?starting_after=${(await app.runStore.get(id)).next - 3}`), { protocol: "agent-api" });
    assert.equal(tail.outcome, "canceled");
    const bad = await fetch(`${base}/process/${id}`, { headers: { "last-event-id": "x" } });
    assert.equal(bad.status, 400);
  } finally {
    server.close();
    await app.close();
  }
});

test("the official openai client resumes (responses.retrieve with starting_after) and cancels", { skip }, async () => {
  const { default: OpenAI } = await import("openai");
  const app = new AgentApp({ agent: slowAgent(3) });
  const { server, base } = await listen(app);
  try {
    const client = new OpenAI({ baseURL: `${base}/compatible-mode/v1`, apiKey: "none" });
    const stream = await client.responses.create({ model: "m", input: "Weather?", stream: true });
    let id;
    let last = -1;
    let text = "";
    for await (const event of stream) {
      if (event.type === "response.created") id = event.response.id;
      last = event.sequence_number;
      if (event.type === "response.output_text.delta") text += event.delta;
      if (text.length > 20) break; // the connection goes away mid-answer
    }
    const resumed = await client.responses.retrieve(id, { stream: true, starting_after: last });
    let first;
    for await (const event of resumed) {
      first ??= event.sequence_number;
      if (event.type === "response.output_text.delta") text += event.delta;
    }
    assert.equal(first, last + 1, "nothing lost, nothing doubled");
    assert.equal(text, Array.from({ length: 40 }, (_, i) => `w${i}é `).join(""));
    const response = await client.responses.retrieve(id);
    assert.equal(response.status, "completed");
    assert.equal(response.output_text, text);
    // Cancel a run going.
    const running = await client.responses.create({ model: "m", input: "again", stream: true });
    let runningId;
    for await (const event of running) {
      runningId = event.response?.id ?? runningId;
      if (runningId) break;
    }
    const canceled = await client.responses.cancel(runningId);
    assert.equal(canceled.status, "cancelled");
  } finally {
    server.close();
    await app.close();
  }
});

test("@a2a-js/sdk's client resubscribes to a running task (the task first, then the rest) and cancels one", { skip }, async () => {
  const { pathToFileURL } = await import("node:url");
  const sdk = (path) => import(pathToFileURL(`${ROOT}/node_modules/@a2a-js/sdk/dist/${path}`).href);
  const { ClientFactory } = await sdk("client/index.js");
  const { Message, TaskState } = await sdk("index.js");
  const app = new AgentApp({ agent: slowAgent(4) });
  const { server, base } = await listen(app);
  try {
    const client = await new ClientFactory().createFromUrl(base);
    const message = () => ({ message: Message.fromJSON({ messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "Weather?" }] }) });
    let taskId;
    let text = "";
    const textOf = (event) => {
      if (event.payload?.$case !== "artifactUpdate") return "";
      return event.payload.value.artifact.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
    };
    for await (const event of client.sendMessageStream(message())) {
      if (event.payload?.$case === "task") taskId = event.payload.value.id;
      text += textOf(event);
      if (text.length > 10) break; // the connection goes away
    }
    const events = [];
    for await (const event of client.resubscribeTask({ id: taskId })) events.push(event);
    assert.equal(events[0].payload.$case, "task", "the task comes first");
    // The task holds what was sent before; the live events follow from there.
    const before = events[0].payload.value.artifacts.map((a) => a.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("")).join("");
    const after = events.slice(1).map(textOf).join("");
    assert.equal(before + after, Array.from({ length: 40 }, (_, i) => `w${i}é `).join(""));
    assert.equal(events.at(-1).payload.value.status.state, TaskState.TASK_STATE_COMPLETED);
    // Cancel a task that is running.
    let running;
    for await (const event of client.sendMessageStream(message())) {
      running = event.payload.value.id ?? event.payload.value.taskId;
      break;
    }
    const canceled = await client.cancelTask({ id: running });
    assert.equal(canceled.status.state, TaskState.TASK_STATE_CANCELED);
  } finally {
    server.close();
    await app.close();
  }
});

test("1,000 concurrent durable runs on one process (memory store): every one complete, nothing lost", async () => {
  const app = new AgentApp({
    // One principal (no authorize) running a thousand at once: the caps raised to fit.
    runs: { maxRunning: 1000, maxRunningPerPrincipal: 1000 },
    agent: async (request, rb) => {
      const text = rb.message().content("text");
      for (let i = 0; i < 20; i++) {
        text.delta(`${i} `);
        await rb.ready();
      }
    },
  });
  const { server, base } = await listen(app);
  const want = Array.from({ length: 20 }, (_, i) => `${i} `).join("");
  try {
    const snapshots = await Promise.all(Array.from({ length: 1000 }, async (_, i) => {
      const r = await post(`${base}/process`, REQUESTS["agent-api"].body(`load-${i}`));
      return StreamAssembler.collect(r, { protocol: "agent-api" });
    }));
    const complete = snapshots.filter((s) => s.status === "completed" && s.output[0].content[0].text === want);
    assert.equal(complete.length, 1000);
  } finally {
    server.close();
    await app.close();
  }
});

test("MemoryRunStore keeps the newest events within its caps and refuses cursors before them", async () => {
  const store = new MemoryRunStore({ maxEvents: 100 });
  await store.start({ id: "r", protocol: "agent-api" });
  const enc = new TextEncoder();
  for (let i = 0; i < 10_000; i += 10) {
    await store.append("r", Array.from({ length: 10 }, (_, k) => ({ id: i + k, bytes: enc.encode(`id: ${i + k}\ndata: {}\n\n`) })));
  }
  await store.end("r");
  const info = await store.get("r");
  assert.deepEqual([info.first, info.next], [9900, 10_000]);
  await assert.rejects(store.read("r", 9898), (e) => e.code === "RUN_GONE");
  const chunks = [];
  for await (const chunk of await store.read("r", 9949)) chunks.push(new TextDecoder().decode(chunk));
  const ids = chunks.join("").match(/^id: \d+$/gm).map((l) => Number(l.slice(4)));
  assert.deepEqual(ids, Array.from({ length: 50 }, (_, k) => 9950 + k));
  assert.equal(new TextDecoder().decode(await store.log("r")).match(/^id: /gm).length, 100);
});

test("StreamAssembler assembles a SubscribeToTask stream (the task so far, then its appends) to the whole answer", async () => {
  const app = new AgentApp({ agent: slowAgent(3) });
  const { server, base } = await listen(app);
  const headers = { "a2a-version": "1.0" };
  try {
    const sent = await post(`${base}/a2a`, { jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "Weather?" }] } } }, headers);
    const taskId = sent.headers.get("x-agentwire-run-id");
    const reader = sent.body.getReader();
    // Away once some text was sent: the task then holds part of the answer.
    for (let seen = ""; !seen.includes("w3é"); ) seen += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const snapshot = await StreamAssembler.collect(await post(`${base}/a2a`, { jsonrpc: "2.0", id: 2, method: "SubscribeToTask", params: { id: taskId } }, headers), { protocol: "a2a" });
    assert.equal(snapshot.outcome, "completed");
    assert.deepEqual(snapshot.warnings, []);
    assert.equal(snapshot.output.at(-1).content[0].text, Array.from({ length: 40 }, (_, i) => `w${i}é `).join(""));
  } finally {
    server.close();
    await app.close();
  }
});

test("a client waiting for a non-streamed answer reads the run: it is not abandoned", async () => {
  const app = new AgentApp({
    runs: { abandonAfterMs: 150 },
    agent: async (request, rb) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      rb.message().content("text").delta("late but whole");
    },
  });
  try {
    const response = await (await app.fetch(new Request("http://app/compatible-mode/v1/responses", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", input: "hi" }),
    }))).json();
    assert.equal(response.status, "completed");
    const task = await (await app.fetch(new Request("http://app/a2a", {
      method: "POST", headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "hi" }] } } }),
    }))).json();
    assert.equal(task.result.task.status.state, "TASK_STATE_COMPLETED");
  } finally {
    await app.close();
  }
});

test("principals never meet: sessions and client-chosen ids are each principal's own, and a busy session names no run", async () => {
  const app = new AgentApp({
    agent: async (request, rb, { signal }) => {
      rb.message().content("text").delta("working");
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    },
    authorize: (r) => r.headers.get("authorization")?.slice(7) || false,
  });
  const post = (who, body) => app.fetch(new Request("http://app/process", {
    method: "POST", headers: { authorization: `Bearer ${who}`, "content-type": "application/json" }, body: JSON.stringify(body),
  }));
  const input = [{ role: "user", content: [{ type: "text", text: "hi" }] }];
  try {
    const alice = await post("alice", { id: "job-1", input, session_id: "chat" });
    assert.equal(alice.status, 200);
    const aliceBusy = await post("alice", { input, session_id: "chat" });
    assert.equal(aliceBusy.status, 409);
    assert.doesNotMatch(await aliceBusy.text(), /response_|job-1/, "the busy answer names no run");
    // Bob's "chat" and "job-1" are his own: he neither waits for alice nor learns of her run.
    const bob = await post("bob", { id: "job-1", input, session_id: "chat" });
    assert.equal(bob.status, 200);
    assert.equal(bob.headers.get("x-agentwire-run-id"), "job-1");
    for (const who of ["alice", "bob"]) {
      const canceled = await app.fetch(new Request("http://app/process/job-1/cancel", { method: "POST", headers: { authorization: `Bearer ${who}`, "content-type": "application/json" }, body: "{}" }));
      assert.equal(canceled.status, 200, who);
    }
    assert.equal((await StreamAssembler.collect(alice)).outcome, "canceled");
    assert.equal((await StreamAssembler.collect(bob)).outcome, "canceled");
  } finally {
    await app.close();
  }
});

/** A MemoryRunStore whose appends fail after `okAppends` (a store that went away mid-run). */
class FailingStore extends MemoryRunStore {
  appends = 0;
  constructor(okAppends, failRunning = false) {
    super();
    this.okAppends = okAppends;
    this.failRunning = failRunning;
  }

  async append(id, events) {
    if (++this.appends > this.okAppends) throw new Error("the store is unreachable");
    return super.append(id, events);
  }

  async running() {
    if (this.failRunning) throw new Error("the store is unreachable");
    return super.running();
  }
}

test("a store that fails mid-run: the agent stops, readers end with RUN_LOST once (not again on resume), errors are reported", async () => {
  let aborted = false;
  const reported = [];
  const store = new FailingStore(2, true);
  const app = new AgentApp({
    runs: { store, abandonAfterMs: 100 },
    onError: (e) => reported.push(String(e?.message ?? e)),
    agent: async (request, rb, { signal }) => {
      const text = rb.message().content("text");
      for (let i = 0; i < 50 && !signal.aborted; i++) {
        text.delta(`w${i} `);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      aborted = signal.aborted;
    },
  });
  try {
    const res = await app.fetch(new Request("http://app/process", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }),
    }));
    const id = res.headers.get("x-agentwire-run-id");
    const text = await res.text();
    const asm = new StreamAssembler({ protocol: "agent-api" });
    asm.push(new TextEncoder().encode(text));
    asm.finish();
    assert.equal(asm.outcome, "failed");
    assert.equal(asm.snapshot().error.code, "RUN_LOST");
    for (let i = 0; i < 50 && !aborted; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(aborted, true, "the agent stopped");
    const lastId = Number(text.match(/^id: (\d+)$/gm).at(-1).slice(4));
    const after = await app.fetch(new Request(`http://app/process/${id}`, { headers: { "last-event-id": String(lastId) } }));
    assert.equal(await after.text(), "", "nothing after the terminal event");
    // The abandonment check met a failing store: reported, and the process goes on.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(reported.some((m) => m.includes("unreachable")), reported.join("; "));
  } finally {
    await app.close();
  }
});

test("nodeListener releases a run's reader on HEAD and when the client left before the answer", async () => {
  let aborted = 0;
  const app = new AgentApp({
    runs: { abandonAfterMs: 200 },
    authorize: async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return "me";
    },
    agent: async (request, rb, { signal }) => {
      rb.message().content("text").delta("x");
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      aborted++;
    },
  });
  const { server, base } = await listen(app);
  const { connect } = await import("node:net");
  try {
    for (const how of ["HEAD", "gone"]) {
      const first = await post(`${base}/process`, REQUESTS["agent-api"].body(`release-${how}`));
      const id = first.headers.get("x-agentwire-run-id");
      await first.body.cancel();
      if (how === "HEAD") {
        assert.equal((await fetch(`${base}/process/${id}`, { method: "HEAD" })).status, 200);
      } else {
        // Gone during authorize, before the answer exists.
        const socket = connect(Number(new URL(base).port), "127.0.0.1", () => socket.write(`GET /process/${id} HTTP/1.1\r\nHost: x\r\n\r\n`));
        setTimeout(() => socket.destroy(), 30);
      }
      const before = aborted;
      for (let i = 0; i < 150 && aborted === before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(aborted, before + 1, `${how}: the run was abandoned (its reader released)`);
    }
  } finally {
    server.close();
    await app.close();
  }
});

test("a reader slower than the caps gets RUN_GONE, not a stream with a hole", async () => {
  const store = new MemoryRunStore({ maxEvents: 10 });
  await store.start({ id: "r", protocol: "agent-api" });
  const enc = new TextEncoder();
  const events = (from, n) => Array.from({ length: n }, (_, k) => ({ id: from + k, bytes: enc.encode(`id: ${from + k}\ndata: {}\n\n`) }));
  await store.append("r", events(0, 5));
  const reader = (await store.read("r", -1))[Symbol.asyncIterator]();
  assert.match(new TextDecoder().decode((await reader.next()).value), /^id: 0/);
  // 20 more while the reader is away: events 5..14 are dropped before it reads them.
  await store.append("r", events(5, 20));
  await assert.rejects(reader.next(), (e) => e.code === "RUN_GONE");
});

test("store options are the store's own keys: an inherited name (toString, constructor) is refused", () => {
  for (const key of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
    assert.throws(() => new MemoryRunStore(JSON.parse(`{"${key}": 5}`)), (e) => e.code === "INVALID_OPTION" && e.field === key, key);
  }
});
