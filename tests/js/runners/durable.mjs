// Durable runs on Cloudflare Durable Objects, in miniflare (real workerd, 127.0.0.1) with
// persisted storage: a Worker that is `export default { fetch: app.fetch }` and exports
// `app.DurableObject`, so every run lives (and its agent runs) in an object of its own. Checked
// over HTTP: 40 runs through the cutting proxy, read by StreamAssembler.connect in the four
// protocols, each equal to the uninterrupted run; cancel from another request; one running run
// per session across objects (409); principals kept apart (404, their own ids and sessions);
// and miniflare restarted mid-run with the same storage: a
// reader gets the logged events, then the RUN_LOST failure, and the Responses object says failed;
// and a new run of a session whose run was going when it restarted starts (no deadlock); a
// session's object forgets its runs once their objects no longer keep them. Then the
// RunStore contract against DurableObjectRunStore inside objects (runners/durable-contract.mjs).
// Usage: node tests/js/runners/durable.mjs <project dir with node_modules/agentwire>
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { Miniflare } from "miniflare";
import { durableStoreContract } from "./durable-contract.mjs";
import { resolveEntry } from "./resolve.mjs";
import { checks, report } from "./tap.mjs";

const project = process.argv[2];
if (!project) throw new Error("usage: durable.mjs <project dir>");
const entry = resolveEntry(project, "agentwire", ["workerd", "worker", "browser", "import", "default"]);
const pkgDir = dirname(entry);
const { StreamAssembler } = await import(pathToFileURL(resolveEntry(project, "agentwire", ["node", "import", "default"])).href);
const { chaos, essence, ROUTES } = await import(pathToFileURL(join(project, "tests/chaos-helpers.mjs")).href);

const workerPath = join(project, "durable-worker.mjs");
writeFileSync(workerPath, `
import { AgentApp } from "./${relative(project, entry)}";
import { chaosAgent } from "./tests/scripted-agent.mjs";

const words = chaosAgent();
const app = new AgentApp({
  // "wait" in the input: a word, then nothing until stopped; anything else: the chaos answer.
  agent: async (request, rb, context) => {
    if (!JSON.stringify(request.input ?? "").includes("wait")) return words(request, rb, context);
    rb.message().content("text").delta("working on it");
    await new Promise((resolve) => context.signal.addEventListener("abort", resolve, { once: true }));
  },
  // The bearer token is the principal (anyone without one is "anonymous").
  authorize: (request) => request.headers.get("authorization")?.slice(7) || "anonymous",
  runs: { durableObject: (env) => env.RUNS },
  // Responses compaction: the conversation's texts, in order, as one system message.
  compact: (request) => [{ role: "system", content: [{ type: "text", text: request.input.map((m) => (m.content ?? []).map((p) => p.text ?? "").join("")).join(" | ") }] }],
});
export class AgentRuns extends app.DurableObject {}
export default { fetch: app.fetch };
`);

// The shared guarantees' app (tests/js/server-guarantees.mjs), its runs in Durable Objects.
const guaranteeWorkerPath = join(project, "guarantee-durable-worker.mjs");
writeFileSync(guaranteeWorkerPath, `
import { AgentApp } from "./${relative(project, entry)}";
import { guaranteeApp } from "./tests/server-guarantees.mjs";

const app = guaranteeApp(AgentApp, { runs: { durableObject: (env) => env.RUNS } });
export class AgentRuns extends app.DurableObject {}
export default { fetch: app.fetch };
`);

const esm = (path) => ({ type: "ESModule", path });
const persist = mkdtempSync(join(tmpdir(), "agentwire-do-"));
const config = {
  host: "127.0.0.1",
  port: 0,
  compatibilityDate: "2025-09-01",
  modulesRoot: project,
  modules: [
    esm(workerPath),
    esm(join(project, "tests/scripted-agent.mjs")),
    ...readdirSync(pkgDir).filter((f) => f.endsWith(".js")).map((f) => esm(join(pkgDir, f))),
    { type: "CompiledWasm", path: join(pkgDir, "agentwire_bg.wasm") },
  ],
  durableObjects: { RUNS: "AgentRuns" },
  durableObjectsPersist: persist,
};

const { results, check } = checks();
const post = (url, body, headers = {}) => fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const waitBody = (session) => ({ input: [{ role: "user", content: [{ type: "text", text: "wait" }] }], ...(session ? { session_id: session } : {}) });

let mf = new Miniflare(config);
try {
  let base = (await mf.ready).origin;
  await check("40 runs through the cutting proxy, in the four protocols: each equals the uninterrupted run", async () => {
    const { runs, reconnects, cuts } = await chaos(StreamAssembler, [Number(new URL(base).port)], 10, 23);
    assert.ok(runs >= 40, `${runs} runs`);
    assert.ok(cuts > 15 && reconnects > 15, `cuts ${cuts}, reconnects ${reconnects}`);
  });
  await check("a run resumed from the start and after a cursor assembles the uninterrupted run, in every protocol", async () => {
    for (const [protocol, { path, body, headers }] of Object.entries(ROUTES)) {
      if (protocol === "a2a") continue; // resumed by SubscribeToTask: the chaos check
      const first = await fetch(`${base}${path}`, { method: "POST", headers: headers ?? { "content-type": "application/json" }, body: JSON.stringify(body()) });
      const id = first.headers.get("x-agentwire-run-id");
      const whole = await StreamAssembler.collect(first, { protocol });
      const again = await StreamAssembler.collect(await fetch(`${base}${path}/${encodeURIComponent(id)}`, { headers: { accept: "text/event-stream" } }), { protocol });
      assert.equal(essence(again), essence(whole), protocol);
      const tail = await (await fetch(`${base}${path}/${encodeURIComponent(id)}`, { headers: { "last-event-id": "5" } })).text();
      assert.equal(tail.match(/^id: \d+$/m)[0], "id: 6", protocol);
    }
  });
  await check("cancel from another request stops the agent in its object; every reader gets the canceled end", async () => {
    const first = await post(`${base}/process`, waitBody());
    const id = first.headers.get("x-agentwire-run-id");
    const onFirst = StreamAssembler.collect(first, { protocol: "agent-api" });
    const other = StreamAssembler.collect(await fetch(`${base}/process/${id}`, { headers: { accept: "text/event-stream" } }), { protocol: "agent-api" });
    const canceled = await post(`${base}/process/${id}/cancel`, {});
    assert.equal(canceled.status, 200);
    assert.deepEqual(await canceled.json(), { id, status: "ended" });
    assert.equal((await onFirst).outcome, "canceled");
    assert.equal((await other).outcome, "canceled");
  });
  await check("one running run per session across objects (409 SESSION_BUSY); free once it ended", async () => {
    const first = await post(`${base}/process`, waitBody("busy"));
    assert.equal(first.status, 200);
    const id = first.headers.get("x-agentwire-run-id");
    const second = await post(`${base}/process`, waitBody("busy"));
    assert.equal(second.status, 409);
    assert.equal((await second.json()).error.code, "SESSION_BUSY");
    await post(`${base}/process/${id}/cancel`, {});
    await first.body.cancel();
    const third = await post(`${base}/process`, waitBody("busy"));
    assert.equal(third.status, 200);
    await post(`${base}/process/${third.headers.get("x-agentwire-run-id")}/cancel`, {});
    await third.body.cancel();
  });
  await check("principals never meet across objects: another's run is 404, a client-chosen id and a session are each one's own", async () => {
    const as = (who) => ({ authorization: `Bearer ${who}` });
    const alice = await post(`${base}/process`, { ...waitBody("shared"), id: "job-1" }, as("alice"));
    assert.equal(alice.status, 200);
    assert.equal((await fetch(`${base}/process/job-1`, { headers: as("bob") })).status, 404);
    assert.equal((await post(`${base}/process/job-1/cancel`, {}, as("bob"))).status, 404);
    const bob = await post(`${base}/process`, { ...waitBody("shared"), id: "job-1" }, as("bob"));
    assert.equal(bob.status, 200, "bob's job-1 and session are his own");
    for (const who of ["alice", "bob"]) assert.equal((await post(`${base}/process/job-1/cancel`, {}, as(who))).status, 200, who);
    assert.equal((await StreamAssembler.collect(alice, { protocol: "agent-api" })).outcome, "canceled");
    assert.equal((await StreamAssembler.collect(bob, { protocol: "agent-api" })).outcome, "canceled");
  });
  await check("miniflare restarted mid-run (same storage): the logged events, then RUN_LOST; the Responses object says failed", async () => {
    const started = [];
    for (const [protocol, path, body] of [
      ["agent-api", "/process", waitBody()],
      ["agent-api", "/process", waitBody("restarted")],
      ["openai-responses", "/compatible-mode/v1/responses", { model: "m", input: "wait", stream: true }],
    ]) {
      const res = await post(`${base}${path}`, body);
      const id = res.headers.get("x-agentwire-run-id");
      const reader = res.body.getReader();
      for (let seen = ""; !seen.includes("working on it"); ) seen += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      started.push({ protocol, path, id });
    }
    await mf.dispose();
    mf = new Miniflare(config);
    base = (await mf.ready).origin;
    for (const { protocol, path, id } of started) {
      const res = await fetch(`${base}${path}/${id}`, { headers: { accept: "text/event-stream" } });
      assert.equal(res.status, 200, protocol);
      const snapshot = await StreamAssembler.collect(res, { protocol });
      assert.equal(snapshot.outcome, "failed", protocol);
      assert.match(JSON.stringify(snapshot), /working on it/, `${protocol}: the logged events first`);
      if (protocol === "agent-api") assert.equal(snapshot.error.code, "RUN_LOST");
    }
    const response = await (await fetch(`${base}/compatible-mode/v1/responses/${started[2].id}`)).json();
    assert.equal(response.status, "failed");
    assert.equal(response.output[0].content[0].text, "working on it");
  });
  await check("after a restart, a new run of a session whose run was going starts (no cycle between the session's and the old run's objects)", async () => {
    const first = await post(`${base}/process`, waitBody("cycle"));
    const reader = first.body.getReader();
    for (let seen = ""; !seen.includes("working on it"); ) seen += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    await mf.dispose();
    mf = new Miniflare(config);
    base = (await mf.ready).origin;
    // The session's object asks the old run's object, which finds its run lost on loading it.
    const next = await fetch(`${base}/process`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(waitBody("cycle")), signal: AbortSignal.timeout(15_000),
    });
    assert.equal(next.status, 200);
    const id = next.headers.get("x-agentwire-run-id");
    await post(`${base}/process/${id}/cancel`, {});
    await next.body.cancel();
    const old = await (await fetch(`${base}/process/${first.headers.get("x-agentwire-run-id")}`, { headers: { accept: "text/event-stream" } })).text();
    assert.match(old, /RUN_LOST/);
  });
  await check("Responses compaction of a conversation kept in another object (previous_response_id): the hook gets it; the item feeds the next turn", async () => {
    const first = await (await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: "We launch on Tuesday." })).json();
    assert.equal(first.status, "completed");
    const answer = await post(`${base}/compatible-mode/v1/responses/compact`, { model: "m", previous_response_id: first.id, input: "Noted?" });
    assert.equal(answer.status, 200);
    const compacted = await answer.json();
    assert.equal(compacted.object, "response.compaction");
    const summary = JSON.parse(compacted.output[0].encrypted_content)[0].content[0].text;
    assert.match(summary, /^We launch on Tuesday\. \| .+ \| Noted\?$/, summary);
    // Another caller does not reach it; a compaction with no previous response is answered by the front.
    const theirs = await post(`${base}/compatible-mode/v1/responses/compact`, { model: "m", previous_response_id: first.id }, { authorization: "Bearer mallory" });
    assert.equal(theirs.status, 400);
    assert.equal((await post(`${base}/compatible-mode/v1/responses/compact`, { model: "m", input: "x" })).status, 200);
    assert.equal((await post(`${base}/compatible-mode/v1/responses/compact`, { input: "x" })).status, 400);
  });
  await check("a conversation of 6 turns chained by previous_response_id, each run in its own object, reaches the next turn whole and in order", async () => {
    let previous = null;
    const said = [];
    for (let turn = 1; turn <= 6; turn++) {
      said.push(`turn ${turn}`);
      const response = await (await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: `turn ${turn}`, ...(previous ? { previous_response_id: previous } : {}) })).json();
      assert.equal(response.status, "completed", JSON.stringify(response).slice(0, 200));
      previous = response.id;
    }
    // What a next turn would be given, as the compaction hook sees it: every turn's input and
    // answer, oldest first, then the new input.
    const compacted = await (await post(`${base}/compatible-mode/v1/responses/compact`, { model: "m", previous_response_id: previous, input: "next" })).json();
    const texts = JSON.parse(compacted.output[0].encrypted_content)[0].content[0].text.split(" | ");
    // Each turn: the input, the tool call and its output (no text), the answer ("w0…").
    const kept = texts.filter((t) => t !== "").map((t) => (t.startsWith("w0") ? "answer" : t));
    assert.deepEqual(kept, [...said.flatMap((t) => [t, "answer"]), "next"], texts.join(" | "));
  });
  await check("the Responses WebSocket mode in front of Durable Objects: each turn a run in its object", async () => {
    const { default: WebSocket } = await import(new URL("../../../node_modules/ws/wrapper.mjs", import.meta.url).href);
    const { socketChecks } = await import(pathToFileURL(join(project, "tests/socket-checks.mjs")).href);
    await socketChecks({ url: `${base.replace(/^http/, "ws")}/compatible-mode/v1/responses`, WebSocketImpl: WebSocket, assert });
  });
  await check("A2A ListTasks over Durable Objects: the caller's tasks newest first, paged, by context and state; another's none", async () => {
    const who = { authorization: "Bearer lister", "a2a-version": "1.0" };
    const send = async (text, contextId) => (await (await post(`${base}/a2a`, {
      jsonrpc: "2.0", id: text, method: "SendMessage", params: { message: { messageId: `m-${text}`, role: "ROLE_USER", parts: [{ text }], ...(contextId ? { contextId } : {}) } },
    }, who)).json()).result.task;
    const made = [];
    for (const [text, contextId] of [["one", "ctx-a"], ["two", null], ["three", "ctx-a"]]) made.push(await send(text, contextId));
    const list = async (params, headers = who) => (await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 1, method: "ListTasks", params }, headers)).json());
    const first = await list({ pageSize: 2 });
    assert.deepEqual(first.result.tasks.map((t) => t.id), [made[2].id, made[1].id], JSON.stringify(first).slice(0, 300));
    assert.equal(first.result.totalSize, 3);
    assert.notEqual(first.result.nextPageToken, "");
    const second = await list({ pageSize: 2, pageToken: first.result.nextPageToken });
    assert.deepEqual(second.result.tasks.map((t) => t.id), [made[0].id]);
    assert.equal(second.result.nextPageToken, "");
    const inContext = await list({ contextId: "ctx-a" });
    assert.deepEqual(inContext.result.tasks.map((t) => t.id), [made[2].id, made[0].id]);
    const completed = await list({ status: made[0].status.state });
    assert.equal(completed.result.tasks.length, made.filter((t) => t.status.state === made[0].status.state).length);
    const other = await list({}, { authorization: "Bearer stranger", "a2a-version": "1.0" });
    assert.deepEqual(other.result.tasks, []);
  });
  await check("a session's object forgets its last run once the run's object no longer keeps it (its alarm asks); ListTasks forgets expired tasks", async () => {
    const shortPath = join(project, "durable-short-worker.mjs");
    writeFileSync(shortPath, `
import { AgentApp } from "./${relative(project, entry)}";
const app = new AgentApp({
  agent: (request, rb) => void rb.message().content("text").delta("hi"),
  runs: { durableObject: (env) => env.RUNS, retentionMs: 300 },
  listTasks: "all",
});
export class AgentRuns extends app.DurableObject {}
export default { fetch: app.fetch };
`);
    const short = new Miniflare({ ...config, modules: [esm(shortPath), ...config.modules.slice(2)], durableObjectsPersist: false });
    try {
      const shortBase = (await short.ready).origin;
      const res = await post(`${shortBase}/process`, { ...waitBody("short"), input: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      const ns = await short.getDurableObjectNamespace("RUNS");
      const last = async () => {
        const answer = await ns.get(ns.idFromName("session:short")).fetch("https://agentwire.internal/__agentwire/session", { method: "POST", body: JSON.stringify({ op: "last" }) });
        return (await answer.json()).last;
      };
      assert.equal(typeof await last(), "string", "the session names its last run");
      const deadline = Date.now() + 10_000;
      while (await last() !== null) {
        assert.ok(Date.now() < deadline, "the session still names a run its object no longer keeps");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // A task past its retention is no longer listed, nor counted.
      const a2a = (body) => post(`${shortBase}/a2a`, { jsonrpc: "2.0", id: 1, ...body }, { "a2a-version": "1.0" }).then((r) => r.json());
      const task = (await a2a({ method: "SendMessage", params: { message: { messageId: "s1", role: "ROLE_USER", parts: [{ text: "hi" }] } } })).result.task;
      const listed = (await a2a({ method: "ListTasks", params: {} })).result;
      assert.deepEqual([listed.tasks.map((t) => t.id), listed.totalSize], [[task.id], 1]);
      for (let gone = false; !gone; ) {
        assert.ok(Date.now() < deadline + 10_000, "an expired task is still listed");
        await new Promise((resolve) => setTimeout(resolve, 200));
        const again = (await a2a({ method: "ListTasks", params: {} })).result;
        gone = again.tasks.length === 0 && again.totalSize === 0;
      }
    } finally {
      await short.dispose();
    }
  });
  const guaranteeMf = new Miniflare({
    ...config,
    modules: [esm(guaranteeWorkerPath), esm(join(project, "tests/server-guarantees.mjs")), ...config.modules.slice(2)],
    durableObjectsPersist: false,
  });
  try {
    const guaranteeBase = (await guaranteeMf.ready).origin;
    const { raw } = await import(pathToFileURL(join(project, "tests/raw-socket.mjs")).href);
    const { runGuarantees } = await import(pathToFileURL(join(project, "tests/server-guarantees.mjs")).href);
    const skip = { "odd Host headers are 4xx, never 500": "workerd answers 500 itself before the worker runs (kj url: invalid hostname)" };
    const gaps = {};
    for (const r of await runGuarantees({ fetch, base: guaranteeBase, assert, raw: (text) => raw(guaranteeBase, text), store: "durable" }, { skip, gaps })) {
      results.push({ ...r, name: `guarantees, Durable Objects: ${r.name}` });
    }
  } finally {
    await guaranteeMf.dispose();
  }
  const pkgModules = config.modules.slice(2);
  results.push(...await durableStoreContract({ Miniflare, project, entry, pkgModules, persist: join(persist, "contract") }));
} catch (e) {
  results.push({ name: "the worker runs", ok: false, error: e?.stack ?? String(e) });
} finally {
  await mf.dispose();
  rmSync(persist, { recursive: true, force: true });
}
process.exitCode = report("durable objects", results) === 0 ? 0 : 1;
