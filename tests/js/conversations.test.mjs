// Server-kept conversations and answers to a paused run, on AgentApp: Responses
// `previous_response_id` (through the official `openai` client too) gives the agent the earlier
// turns, `store: false` keeps nothing to build on, a response the caller has not is refused; the
// answers to a paused run's interrupts reach the agent in `request.resume` whatever protocol the
// client used (A2A, Responses, AG-UI).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { AgentApp } from "agentwire";
import { listen, post } from "./http-helpers.mjs";

const require = createRequire(import.meta.url);
const textOf = (m) => (m.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
const seenOf = (request) => request.input.map((m) => `${m.role}:${textOf(m) || m.type}`);

/** An agent that records each request and answers "answer <n>", pausing when asked to ("ask"). */
function recorder(seen) {
  return (request, rb) => {
    seen.push(request);
    const said = textOf(request.input.at(-1));
    rb.message().content("text").delta(`answer ${seen.length}`);
    if (said === "ask") rb.interrupt({ id: `ask-${seen.length}`, message: "Approve?", toolCallId: "call-1" });
  };
}

test("Responses previous_response_id: the agent gets the earlier turns, in order, through the openai client too", async () => {
  const seen = [];
  const app = new AgentApp({ agent: recorder(seen) });
  const { server, base } = await listen(app);
  try {
    const first = await (await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: "hello" })).json();
    assert.equal(first.status, "completed");
    const second = await (await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: "and then?", previous_response_id: first.id })).json();
    assert.equal(second.status, "completed", JSON.stringify(second));
    assert.deepEqual(seenOf(seen[1]), ["user:hello", "assistant:answer 1", "user:and then?"]);

    const { default: OpenAI } = await import(require.resolve("openai"));
    const client = new OpenAI({ apiKey: "k", baseURL: `${base}/compatible-mode/v1` });
    const third = await client.responses.create({ model: "m", input: "last", previous_response_id: second.id });
    assert.equal(third.output_text, "answer 3");
    assert.deepEqual(seenOf(seen[2]), ["user:hello", "assistant:answer 1", "user:and then?", "assistant:answer 2", "user:last"]);
  } finally {
    server.close();
  }
});

test("Responses: store false keeps nothing to build on; unknown, another caller's or running responses are refused (400 naming the field)", async () => {
  const seen = [];
  let release;
  let goingId;
  const app = new AgentApp({
    agent: async (request, rb) => {
      if (textOf(request.input.at(-1)) === "wait") {
        goingId = request.id;
        await new Promise((resolve) => { release = resolve; });
      }
      return recorder(seen)(request, rb);
    },
    authorize: (request) => request.headers.get("x-user") ?? false,
  });
  const { server, base } = await listen(app);
  const url = `${base}/compatible-mode/v1/responses`;
  const as = (user) => ({ "x-user": user });
  try {
    const unstored = await (await post(url, { model: "m", input: "secret", store: false }, as("ann"))).json();
    const kept = await (await post(url, { model: "m", input: "hi" }, as("ann"))).json();
    const refusals = [
      [{ previous_response_id: unstored.id }, "ann"],
      [{ previous_response_id: "resp_nope" }, "ann"],
      [{ previous_response_id: kept.id }, "bob"],
      [{ previous_response_id: 7 }, "ann"],
      [{ previous_response_id: "x".repeat(5000) }, "ann"],
    ];
    for (const [body, user] of refusals) {
      const answer = await post(url, { model: "m", input: "next", ...body }, as(user));
      assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 60));
      const error = await answer.json();
      assert.equal(error.error?.param ?? error.field ?? error.error?.field, "previous_response_id", JSON.stringify(error));
    }
    // A response still going (its agent waits): refused until it ended.
    const going = post(url, { model: "m", input: "wait", stream: true }, as("ann"));
    while (!release) await new Promise((resolve) => setTimeout(resolve, 5));
    const early = await post(url, { model: "m", input: "next", previous_response_id: goingId }, as("ann"));
    assert.equal(early.status, 400);
    release();
    await (await going).text();
    assert.equal(seen.length, 3, "no refused request reached the agent");
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("a paused run's answer reaches the agent in request.resume: A2A follow-up, Responses function output, AG-UI resume", async () => {
  const seen = [];
  const app = new AgentApp({ agent: recorder(seen) });
  const { server, base } = await listen(app);
  const V1 = { "a2a-version": "1.0" };
  try {
    // A2A: the follow-up message's text answers the interrupt.
    const paused = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "a1", role: "ROLE_USER", parts: [{ text: "ask" }] } } }, V1)).json();
    assert.equal(paused.result.task.status.state, "TASK_STATE_INPUT_REQUIRED");
    await post(`${base}/a2a`, { jsonrpc: "2.0", id: 2, method: "SendMessage", params: { message: { messageId: "a2", role: "ROLE_USER", parts: [{ text: "yes" }], taskId: paused.result.task.id } } }, V1);
    assert.deepEqual(seen.at(-1).resume, [{ interruptId: "ask-1", status: "resolved", payload: "yes" }]);

    // Responses: a function_call_output for the interrupt's tool call answers it.
    const first = await (await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: "ask" })).json();
    assert.equal(first.status, "incomplete", JSON.stringify(first));
    await post(`${base}/compatible-mode/v1/responses`, {
      model: "m", previous_response_id: first.id,
      input: [{ type: "function_call_output", call_id: "call-1", output: "{\"approved\":true}" }],
    });
    // The interrupt's tool call is answered: its interrupt is.
    assert.deepEqual(seen.at(-1).resume, [{ interruptId: "ask-3", status: "resolved", payload: "{\"approved\":true}" }]);
    assert.ok(seenOf(seen.at(-1)).includes("assistant:answer 3"), "the paused response's answer comes first");

    // Responses: an mcp_approval_response for the pause's approval item answers its interrupt.
    const second = await (await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: "ask" })).json();
    const approval = second.output.find((i) => i.type === "mcp_approval_request");
    assert.equal(approval?.id, "ask-5", JSON.stringify(second.output));
    await post(`${base}/compatible-mode/v1/responses`, {
      model: "m", previous_response_id: second.id,
      input: [{ type: "mcp_approval_response", approval_request_id: approval.id, approve: false, reason: "not now" }],
    });
    assert.deepEqual(seen.at(-1).resume, [{ interruptId: "ask-5", status: "resolved", payload: { approved: false, reason: "not now" } }]);

    // AG-UI: the client's resume entries, as sent, for the thread's paused run.
    const start = { tools: [], context: [], state: {}, forwardedProps: {} };
    await (await post(`${base}/ag-ui`, { threadId: "t", runId: "r-ask", messages: [{ id: "u0", role: "user", content: "ask" }], ...start })).text();
    const resume = [{ interruptId: `ask-${seen.length}`, status: "resolved", payload: { approved: false } }];
    const agui = await post(`${base}/ag-ui`, { threadId: "t", runId: "r-next", messages: [{ id: "u1", role: "user", content: "go" }], tools: [], context: [], state: {}, forwardedProps: {}, resume });
    await agui.text();
    assert.deepEqual(seen.at(-1).resume, resume);
  } finally {
    server.close();
  }
});

/** An Agent API turn of `session` saying `text`, read to its end: the last status. */
async function agentTurn(base, session, text, headers = {}) {
  const res = await post(`${base}/process`, { input: [{ role: "user", content: [{ type: "text", text }] }], session_id: session }, headers);
  const body = await res.text();
  return { status: res.status, last: [...body.matchAll(/"object":"response","status":"(\w+)"/g)].map((m) => m[1]).at(-1), body };
}

test("Agent API sessionHistory: each turn of a session gets the conversation so far; sessions and callers are apart", async () => {
  const seen = [];
  const app = new AgentApp({ agent: recorder(seen), sessionHistory: true, authorize: (request) => request.headers.get("x-user") ?? "anonymous" });
  const { server, base } = await listen(app);
  const alice = { "x-user": "alice" };
  try {
    assert.equal((await agentTurn(base, "s1", "hello", alice)).last, "completed");
    assert.deepEqual(seenOf(seen[0]), ["user:hello"]);
    await agentTurn(base, "s1", "and then?", alice);
    assert.deepEqual(seenOf(seen[1]), ["user:hello", "assistant:answer 1", "user:and then?"]);
    // Another session, and the same session name for another caller: each starts afresh.
    await agentTurn(base, "s2", "other", alice);
    assert.deepEqual(seenOf(seen[2]), ["user:other"]);
    await agentTurn(base, "s1", "bob here", { "x-user": "bob" });
    assert.deepEqual(seenOf(seen[3]), ["user:bob here"]);
    await agentTurn(base, "s1", "third", alice);
    assert.deepEqual(seenOf(seen[4]), ["user:hello", "assistant:answer 1", "user:and then?", "assistant:answer 2", "user:third"]);
    // Without a session_id nothing is added.
    await post(`${base}/process`, { input: [{ role: "user", content: [{ type: "text", text: "alone" }] }] }, alice).then((r) => r.text());
    assert.deepEqual(seenOf(seen[5]), ["user:alone"]);
  } finally {
    server.close();
  }
});

test("Agent API sessionHistory: a paused turn's answer arrives in resume; a turn while one is going is 409; without the option nothing is added", async () => {
  const seen = [];
  let release = null;
  const app = new AgentApp({
    agent: async (request, rb) => {
      if (textOf(request.input.at(-1)) === "wait") await new Promise((resolve) => { release = resolve; });
      return recorder(seen)(request, rb);
    },
    sessionHistory: true,
  });
  const { server, base } = await listen(app);
  try {
    assert.equal((await agentTurn(base, "p", "ask")).last, "incomplete");
    await agentTurn(base, "p", "yes, go");
    assert.deepEqual(seen[1].resume, [{ interruptId: "ask-1", status: "resolved", payload: "yes, go" }]);
    assert.deepEqual(seenOf(seen[1]), ["user:ask", "assistant:answer 1", "user:yes, go"]);
    const going = agentTurn(base, "p", "wait");
    while (release === null) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal((await agentTurn(base, "p", "too soon")).status, 409);
    release();
    assert.equal((await going).last, "completed");
  } finally {
    server.close();
  }
  const plain = [];
  const off = await listen(new AgentApp({ agent: recorder(plain) }));
  try {
    await agentTurn(off.base, "q", "one");
    await agentTurn(off.base, "q", "two");
    assert.deepEqual(seenOf(plain[1]), ["user:two"]);
  } finally {
    off.server.close();
  }
});

test("sessionHistory is checked: a boolean, one run per session, a store that finds a session's last run", () => {
  const agent = () => {};
  const refused = [
    [{ sessionHistory: "yes" }, "sessionHistory"],
    [{ sessionHistory: true, runs: { concurrentSessions: true } }, "sessionHistory"],
  ];
  // A third-party store without lastRun.
  const { lastRun: _, ...storeWithout } = Object.fromEntries(["start", "append", "end", "get", "read", "log", "cancel", "onCancel", "running", "lastRun"].map((k) => [k, async () => null]));
  refused.push([{ sessionHistory: true, runs: { store: storeWithout } }, "sessionHistory"]);
  for (const [options, field] of refused) {
    assert.throws(() => new AgentApp({ agent, ...options }), (e) => e.code === "INVALID_OPTION" && e.field === field, JSON.stringify(options));
  }
  new AgentApp({ agent, sessionHistory: false, runs: { store: storeWithout } }).close();
});

test("GET …/responses/{id}/input_items lists a stored response's input as the openai client pages it; store: false and another caller's are 404", async () => {
  const seen = [];
  const app = new AgentApp({ agent: recorder(seen), authorize: (request) => request.headers.get("x-user") ?? "anonymous" });
  const { server, base } = await listen(app);
  try {
    const { default: OpenAI } = await import(require.resolve("openai"));
    const client = new OpenAI({ apiKey: "k", baseURL: `${base}/compatible-mode/v1`, defaultHeaders: { "x-user": "ann" } });
    const first = await client.responses.create({ model: "m", input: [{ role: "user", content: "hello" }, { role: "user", content: "there" }] });
    const second = await client.responses.create({ model: "m", input: "and then?", previous_response_id: first.id });
    // Newest first by default; the chained response's input is the conversation so far.
    const texts = (items) => items.map((i) => `${i.role}:${i.content.map((c) => c.text).join("")}`);
    const all = [];
    for await (const item of client.responses.inputItems.list(second.id, { limit: 1 })) all.push(item);
    assert.deepEqual(texts(all), ["user:and then?", "assistant:answer 1", "user:there", "user:hello"]);
    assert.equal(new Set(all.map((i) => i.id)).size, 4, "every item has its own id");
    const asc = await client.responses.inputItems.list(first.id, { order: "asc" });
    assert.deepEqual(texts(asc.data), ["user:hello", "user:there"]);
    assert.equal(asc.has_more, false);
    // Refusals: a bad query names its field; store: false, another caller, unknown: 404.
    const bad = await fetch(`${base}/compatible-mode/v1/responses/${first.id}/input_items?limit=500`, { headers: { "x-user": "ann" } });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error.field, "limit");
    const unstored = await client.responses.create({ model: "m", input: "secret", store: false });
    await assert.rejects(client.responses.inputItems.list(unstored.id), (e) => e.status === 404);
    const bob = new OpenAI({ apiKey: "k", baseURL: `${base}/compatible-mode/v1`, defaultHeaders: { "x-user": "bob" } });
    await assert.rejects(bob.responses.inputItems.list(first.id), (e) => e.status === 404);
  } finally {
    server.close();
  }
});
