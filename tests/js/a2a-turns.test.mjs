// A run paused for a person (`rb.interrupt()`) in every protocol, and A2A tasks of several turns
// on AgentApp: an input-required task continued by a message on it (the agent gets the
// conversation so far), canceled while paused, subscribed to while paused (the next turn
// follows), refused when ended or of another context; ListTasks paged, newest first, the
// caller's own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AgentApp, ResponseBuilder, StreamAssembler } from "agentwire";
import { listen, post } from "./http-helpers.mjs";

const V1 = { "a2a-version": "1.0" };
let n = 0;
const message = (text, more = {}) => ({ messageId: `m${++n}`, role: "ROLE_USER", parts: [{ text }], ...more });
const rpc = (method, params) => ({ jsonrpc: "2.0", id: ++n, method, params });

/** Reads SSE `data:` payloads of a response body as JSON. */
async function events(response) {
  const text = await response.text();
  return text.split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)));
}

/** The text of an Agent API message's text parts. */
const textOf = (m) => (m.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");

test("rb.interrupt() pauses a run: Agent API incomplete with interrupts, AG-UI interrupt outcome, A2A input-required", async () => {
  const produce = (rb) => {
    rb.message().content("text").delta("Which city?");
    rb.interrupt({ id: "ask-1", message: "Which city?", responseSchema: { type: "string" } });
  };
  const read = async (protocol) => new TextDecoder().decode(new Uint8Array(await new Response(ResponseBuilder.stream(produce, { protocol })).arrayBuffer()));

  const agentApi = (await read("agent-api")).split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)));
  const last = agentApi.at(-1);
  assert.equal(last.status, "incomplete");
  assert.deepEqual(last.interrupts, [{ id: "ask-1", reason: "input_required", message: "Which city?", responseSchema: { type: "string" } }]);
  assert.equal(textOf(last.output[0]), "Which city?", "the open message is completed into the output");

  const agUi = (await read("ag-ui")).split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)));
  const finished = agUi.at(-1);
  assert.equal(finished.type, "RUN_FINISHED");
  assert.deepEqual(finished.outcome, { type: "interrupt", interrupts: [{ id: "ask-1", reason: "input_required", message: "Which city?", responseSchema: { type: "string" } }] });
  const asm = new StreamAssembler({ protocol: "ag-ui" });
  asm.push(new TextEncoder().encode(await read("ag-ui")));
  assert.equal(asm.finish().outcome ?? asm.snapshot().outcome, "incomplete");

  const a2a = (await read("a2a")).split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)));
  const status = a2a.at(-1).result.statusUpdate.status;
  assert.equal(status.state, "TASK_STATE_INPUT_REQUIRED");
  assert.equal(status.message.role, "ROLE_AGENT");
  assert.deepEqual(status.message.parts, [{ text: "Which city?" }]);
  assert.equal(status.message.metadata.interrupts[0].id, "ask-1");

  // Read back from A2A, the pause keeps its interrupts.
  const back = new StreamAssembler({ protocol: "a2a" });
  back.push(new TextEncoder().encode(await read("a2a")));
  back.finish();
  const snapshot = back.snapshot();
  assert.equal(snapshot.status, "incomplete");
  assert.equal(snapshot.interrupts?.[0]?.id, "ask-1");
});

test("rb.interrupt() refuses bad interrupts with INVALID_OPTION and stays usable; a default interrupt gets an id", async () => {
  // Nested past the depth limit (an object 200 levels deep in `metadata`).
  let deep = {};
  for (let i = 0; i < 200; i++) deep = { deep };
  const bad = [[{ reason: 1 }], [{ nope: true }], [], ["text"], [{ id: "" }], Array.from({ length: 65 }, () => ({})), [{ metadata: deep }], { responseSchema: deep }];
  for (const interrupts of bad) {
    const rb = new ResponseBuilder();
    assert.throws(() => rb.interrupt(interrupts), (e) => e.code === "INVALID_OPTION", JSON.stringify(interrupts).slice(0, 40));
    assert.equal(rb.finished, false);
    rb.free();
  }
  const rb = new ResponseBuilder();
  const text = new TextDecoder().decode(rb.interrupt());
  const last = JSON.parse(text.trim().split("\n").filter((l) => l.startsWith("data:")).at(-1).slice(5));
  assert.equal(last.status, "incomplete");
  assert.match(last.interrupts[0].id, /^interrupt_/);
  assert.equal(last.interrupts[0].reason, "input_required");
  assert.throws(() => rb.interrupt(), (e) => e.code === "BUILDER_STATE");
  rb.free();
});

/** An app whose agent asks for a city until it is given one ("city: X"), then answers. */
function cityApp(seen = []) {
  return new AgentApp({
    agent: (request, rb) => {
      seen.push(request.input.map((m) => `${m.role}:${textOf(m)}`));
      const said = textOf(request.input.at(-1));
      if (!said.startsWith("city:")) {
        rb.message().content("text").delta("Which city?");
        rb.interrupt({ message: "Which city?" });
        return;
      }
      rb.message().content("text").delta(`Weather in ${said.slice(5).trim()}: sunny`);
    },
  });
}

test("an input-required A2A task goes on with a message on it; the agent gets the conversation so far", async () => {
  const seen = [];
  const { server, base } = await listen(cityApp(seen));
  try {
    const first = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("weather?") }), V1)).json();
    const task = first.result.task;
    assert.equal(task.status.state, "TASK_STATE_INPUT_REQUIRED", JSON.stringify(first));
    assert.equal(task.status.message.parts[0].text, "Which city?");

    // The follow-up names only the task: its context is the task's.
    const second = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("city: Oslo", { taskId: task.id }) }), V1)).json();
    assert.equal(second.result.task.id, task.id);
    assert.equal(second.result.task.contextId, task.contextId);
    assert.equal(second.result.task.status.state, "TASK_STATE_COMPLETED", JSON.stringify(second));
    assert.deepEqual(seen[1], ["user:weather?", "assistant:Which city?", "user:city: Oslo"]);

    // GetTask is the latest turn; the ended task takes no more messages.
    const got = await (await post(`${base}/a2a`, rpc("GetTask", { id: task.id }), V1)).json();
    assert.equal(got.result.status.state, "TASK_STATE_COMPLETED");
    const after = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("again", { taskId: task.id }) }), V1)).json();
    assert.equal(after.error?.code, -32004, JSON.stringify(after));
    assert.equal(seen.length, 2);
  } finally {
    server.close();
  }
});

test("three turns: each agent call gets every earlier turn, in order; another context is refused", async () => {
  const seen = [];
  const { server, base } = await listen(cityApp(seen));
  try {
    const first = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("weather?") }), V1)).json();
    const { id, contextId } = first.result.task;
    const wrong = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("x", { taskId: id, contextId: "other" }) }), V1)).json();
    assert.equal(wrong.error?.code, -32602, JSON.stringify(wrong));
    await post(`${base}/a2a`, rpc("SendMessage", { message: message("hmm", { taskId: id, contextId }) }), V1);
    const third = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("city: Rome", { taskId: id }) }), V1)).json();
    assert.equal(third.result.task.status.state, "TASK_STATE_COMPLETED");
    assert.deepEqual(seen.at(-1), ["user:weather?", "assistant:Which city?", "user:hmm", "assistant:Which city?", "user:city: Rome"]);
  } finally {
    server.close();
  }
});

test("GetTask's history is the task's conversation across its turns, oldest first, in 1.0 and 0.3; historyLength keeps the latest", async () => {
  const seen = [];
  const { server, base } = await listen(cityApp(seen));
  try {
    const first = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("weather?") }), V1)).json();
    const { id, contextId } = first.result.task;
    assert.deepEqual(first.result.task.history.map((m) => [m.role, m.parts[0].text]), [["ROLE_USER", "weather?"]]);
    await post(`${base}/a2a`, rpc("SendMessage", { message: message("hmm", { taskId: id }) }), V1);
    await post(`${base}/a2a`, rpc("SendMessage", { message: message("city: Rome", { taskId: id }) }), V1);
    const got = await (await post(`${base}/a2a`, rpc("GetTask", { id, historyLength: 10 }), V1)).json();
    const history = got.result.history;
    assert.deepEqual(history.map((m) => [m.role, m.parts[0].text]), [
      ["ROLE_USER", "weather?"], ["ROLE_AGENT", "Which city?"], ["ROLE_USER", "hmm"], ["ROLE_AGENT", "Which city?"], ["ROLE_USER", "city: Rome"],
    ]);
    for (const m of history) {
      assert.equal(m.taskId, id);
      assert.equal(m.contextId, contextId);
      assert.equal(typeof m.messageId, "string");
    }
    assert.equal(new Set(history.map((m) => m.messageId)).size, history.length, "message ids are distinct");
    const latest = await (await post(`${base}/a2a`, rpc("GetTask", { id, historyLength: 2 }), V1)).json();
    assert.deepEqual(latest.result.history.map((m) => m.parts[0].text), ["Which city?", "city: Rome"]);
    const none = await (await post(`${base}/a2a`, rpc("GetTask", { id, historyLength: 0 }), V1)).json();
    assert.equal(none.result.history, undefined);
    // 0.3: the same conversation in its own shapes.
    const sent = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 8, method: "message/send", params: { message: { kind: "message", messageId: "o1", role: "user", parts: [{ kind: "text", text: "weather?" }] } } })).json();
    await post(`${base}/a2a`, { jsonrpc: "2.0", id: 9, method: "message/send", params: { message: { kind: "message", messageId: "o2", role: "user", taskId: sent.result.id, parts: [{ kind: "text", text: "city: Oslo" }] } } });
    const old = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 10, method: "tasks/get", params: { id: sent.result.id } })).json();
    assert.deepEqual(old.result.history.map((m) => [m.kind, m.role, m.parts[0].kind, m.parts[0].text]), [
      ["message", "user", "text", "weather?"], ["message", "agent", "text", "Which city?"], ["message", "user", "text", "city: Oslo"],
    ]);
  } finally {
    server.close();
  }
});

test("a paused task can be canceled (CANCELED, its agent not called again) and its subscription follows the next turn", async () => {
  const seen = [];
  const { server, base } = await listen(cityApp(seen));
  try {
    const paused = (await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("weather?") }), V1)).json()).result.task;
    const canceled = await (await post(`${base}/a2a`, rpc("CancelTask", { id: paused.id }), V1)).json();
    assert.equal(canceled.result.status.state, "TASK_STATE_CANCELED", JSON.stringify(canceled));
    assert.equal(seen.length, 1);
    const again = await (await post(`${base}/a2a`, rpc("CancelTask", { id: paused.id }), V1)).json();
    assert.equal(again.error?.code, -32002);

    const other = (await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("weather?") }), V1)).json()).result.task;
    const subscription = post(`${base}/a2a`, rpc("SubscribeToTask", { id: other.id }), V1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await post(`${base}/a2a`, rpc("SendMessage", { message: message("city: Lima", { taskId: other.id }) }), V1);
    const got = await events(await subscription);
    assert.equal(got[0].result.task.status.state, "TASK_STATE_INPUT_REQUIRED");
    const states = got.map((e) => e.result.statusUpdate?.status?.state).filter(Boolean);
    assert.equal(states.at(-1), "TASK_STATE_COMPLETED", JSON.stringify(states));
    assert.ok(got.slice(1).every((e) => !e.result.task), "the next turn follows as updates, its state never back to submitted");
    const subscriberId = got[0].id;
    assert.ok(got.every((e) => e.id === subscriberId), "every event answers the subscriber's request");
  } finally {
    server.close();
  }
});

test("ListTasks: the caller's tasks newest first, by context, paged with nextPageToken, artifacts left out by default", async () => {
  const app = new AgentApp({
    agent: (request, rb) => { rb.message().content("text").delta("ok"); },
    authorize: (request) => request.headers.get("x-user") ?? false,
  });
  const { server, base } = await listen(app);
  try {
    const as = (user) => ({ ...V1, "x-user": user });
    const ids = [];
    for (let i = 0; i < 5; i++) {
      const answer = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message(`t${i}`, { contextId: i < 3 ? "ctx-a" : "ctx-b" }) }), as("ann"))).json();
      ids.push(answer.result.task.id);
    }
    await post(`${base}/a2a`, rpc("SendMessage", { message: message("bob's") }), as("bob"));
    const all = (await (await post(`${base}/a2a`, rpc("ListTasks", {}), as("ann"))).json()).result;
    assert.deepEqual(all.tasks.map((t) => t.id), [...ids].reverse());
    assert.equal(all.totalSize, 5);
    assert.equal(all.nextPageToken, "");
    assert.ok(all.tasks.every((t) => !("artifacts" in t)));
    const withArtifacts = (await (await post(`${base}/a2a`, rpc("ListTasks", { includeArtifacts: true }), as("ann"))).json()).result;
    assert.ok(withArtifacts.tasks.every((t) => t.artifacts?.length === 1));
    // Each task's history starts with its conversation, as GetTask's does.
    const listed = (await (await post(`${base}/a2a`, rpc("ListTasks", { historyLength: 10 }), as("ann"))).json()).result;
    assert.deepEqual(listed.tasks.map((t) => t.history?.[0]?.parts[0].text), ["t4", "t3", "t2", "t1", "t0"]);
    const got = (await (await post(`${base}/a2a`, rpc("GetTask", { id: ids[4], historyLength: 10 }), as("ann"))).json()).result;
    assert.deepEqual(listed.tasks[0].history, got.history);
    const short = (await (await post(`${base}/a2a`, rpc("ListTasks", { historyLength: 0 }), as("ann"))).json()).result;
    assert.ok(short.tasks.every((t) => t.history === undefined));

    const pages = [];
    let token = "";
    do {
      const page = (await (await post(`${base}/a2a`, rpc("ListTasks", { context_id: "ctx-a", page_size: 2, page_token: token }), as("ann"))).json()).result;
      pages.push(page.tasks.map((t) => t.id));
      assert.equal(page.totalSize, 3);
      token = page.nextPageToken;
    } while (token !== "");
    assert.deepEqual(pages, [[ids[2], ids[1]], [ids[0]]]);

    for (const params of [{ pageSize: 0 }, { pageSize: "x" }, { historyLength: 1e20 }, { historyLength: -1 }, { includeArtifacts: "yes" }, { contextId: 5 }, { pageToken: 1.5 }]) {
      const bad = await post(`${base}/a2a`, rpc("ListTasks", params), as("ann"));
      assert.equal(bad.status, 200, JSON.stringify(params));
      assert.equal((await bad.json()).error?.code, -32602, JSON.stringify(params));
    }
    const badToken = await (await post(`${base}/a2a`, rpc("ListTasks", { pageToken: "x".repeat(300) }), as("ann"))).json();
    assert.equal(badToken.error?.code, -32602);
  } finally {
    server.close();
  }
});

test("a task keeps at most 64 KiB of conversation for its next turns: the oldest messages go first, the new one always arrives", async () => {
  const seen = [];
  const { server, base } = await listen(cityApp(seen));
  try {
    const big = (c) => c.repeat(40 * 1024);
    const first = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message(big("a")) }), V1)).json();
    const { id } = first.result.task;
    await post(`${base}/a2a`, rpc("SendMessage", { message: message(big("b"), { taskId: id }) }), V1);
    const last = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message(`city: ${big("c")}`, { taskId: id }) }), V1)).json();
    assert.equal(last.result.task.status.state, "TASK_STATE_COMPLETED");
    const turn3 = seen[2];
    assert.equal(turn3.at(-1), `user:city: ${big("c")}`, "the new message arrives whole");
    assert.ok(!turn3.some((m) => m.includes("aaaa")), "the oldest message was left out");
    assert.ok(turn3.includes(`user:${big("b")}`), "the newer one is kept");
    assert.equal(JSON.stringify(turn3.slice(0, -1)).length < 64 * 1024 + 1024, true);
  } finally {
    server.close();
  }
});

test("ListTasks: anonymous callers (one principal without authorize) list nothing unless listTasks is \"all\"; a status filter pages past what one call reads", async () => {
  const agent = (request, rb) => {
    rb.message().content("text").delta("ok");
    if (textOf(request.input.at(-1)) === "pause") rb.interrupt();
  };
  const closed = await listen(new AgentApp({ agent }));
  try {
    await post(`${closed.base}/a2a`, rpc("SendMessage", { message: message("secret") }), V1);
    const refused = await (await post(`${closed.base}/a2a`, rpc("ListTasks", {}), V1)).json();
    assert.equal(refused.error?.code, -32004, JSON.stringify(refused));
  } finally {
    closed.server.close();
  }
  const open = await listen(new AgentApp({ agent, listTasks: "all" }));
  try {
    const paused = [];
    for (let i = 0; i < 3; i++) paused.push((await (await post(`${open.base}/a2a`, rpc("SendMessage", { message: message("pause") }), V1)).json()).result.task.id);
    // More completed tasks after them than one filtered call reads (500).
    await Promise.all(Array.from({ length: 510 }, () => post(`${open.base}/a2a`, rpc("SendMessage", { message: message("x") }), V1).then((r) => r.text())));
    const found = [];
    let token = "";
    let calls = 0;
    do {
      const page = (await (await post(`${open.base}/a2a`, rpc("ListTasks", { status: "TASK_STATE_INPUT_REQUIRED", pageToken: token }), V1)).json()).result;
      found.push(...page.tasks.map((t) => t.id));
      token = page.nextPageToken;
      calls++;
    } while (token !== "" && calls < 10);
    assert.deepEqual(found.sort(), [...paused].sort());
    assert.ok(calls >= 2, "the first call read only the newest 500");
  } finally {
    open.server.close();
  }
});

test("a task paused at its last turn (100) can still be canceled; a message past it is refused", async () => {
  const agent = (request, rb) => { rb.interrupt({ message: "more?" }); };
  const { server, base } = await listen(new AgentApp({ agent }));
  try {
    const first = (await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("go") }), V1)).json()).result.task;
    for (let turn = 2; turn <= 100; turn++) {
      const next = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("go", { taskId: first.id }) }), V1)).json();
      assert.equal(next.result?.task?.status?.state, "TASK_STATE_INPUT_REQUIRED", `turn ${turn}`);
    }
    const past = await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("go", { taskId: first.id }) }), V1)).json();
    assert.equal(past.error?.code, -32004);
    const canceled = await (await post(`${base}/a2a`, rpc("CancelTask", { id: first.id }), V1)).json();
    assert.equal(canceled.result?.status?.state, "TASK_STATE_CANCELED", JSON.stringify(canceled).slice(0, 200));
    const got = await (await post(`${base}/a2a`, rpc("GetTask", { id: first.id }), V1)).json();
    assert.equal(got.result.status.state, "TASK_STATE_CANCELED");
  } finally {
    server.close();
  }
});

test("subscriptions waiting on a paused task are capped per principal (16): past it the task as it stands, then the end; a closed one frees its place", async () => {
  const agent = (request, rb) => { rb.interrupt({ message: "more?" }); };
  const { server, base } = await listen(new AgentApp({ agent }));
  try {
    const task = (await (await post(`${base}/a2a`, rpc("SendMessage", { message: message("go") }), V1)).json()).result.task;
    const controllers = [];
    const open = [];
    for (let i = 0; i < 16; i++) {
      const controller = new AbortController();
      controllers.push(controller);
      const res = await fetch(`${base}/a2a`, { method: "POST", signal: controller.signal, headers: { "content-type": "application/json", ...V1 }, body: JSON.stringify(rpc("SubscribeToTask", { id: task.id })) });
      const reader = res.body.getReader();
      const { value } = await reader.read();
      assert.match(new TextDecoder().decode(value), /TASK_STATE_INPUT_REQUIRED/);
      open.push(reader);
    }
    // The 17th: the task, then the end at once.
    const started = Date.now();
    const past = await events(await post(`${base}/a2a`, rpc("SubscribeToTask", { id: task.id }), V1));
    assert.equal(past.length, 1);
    assert.equal(past[0].result.task.status.state, "TASK_STATE_INPUT_REQUIRED");
    assert.ok(Date.now() - started < 5000);
    // One closes: its place is free again.
    await open[0].cancel();
    controllers[0].abort();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const again = await fetch(`${base}/a2a`, { method: "POST", headers: { "content-type": "application/json", ...V1 }, body: JSON.stringify(rpc("SubscribeToTask", { id: task.id })) });
    const reader = again.body.getReader();
    await reader.read();
    const second = await Promise.race([reader.read().then(() => "more"), new Promise((resolve) => setTimeout(() => resolve("waiting"), 500))]);
    assert.equal(second, "waiting", "it follows the task again");
    await reader.cancel();
    for (const r of open.slice(1)) await r.cancel();
    controllers.forEach((c) => c.abort());
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
