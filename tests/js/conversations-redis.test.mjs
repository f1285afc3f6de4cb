// Server-kept conversations across instances: two AgentApps sharing a RedisRunStore (a real
// redis-server on 127.0.0.1) take the turns of one conversation in turn (random, seeded), and
// the agent gets the same history at every turn as one instance alone gives it: A2A tasks of
// several turns, Responses chained by previous_response_id, Agent API sessions (`sessionHistory`),
// and the answers to a pause.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AgentApp, RedisRunStore } from "agentwire";
import { listen, post } from "./http-helpers.mjs";
import { redisForTests } from "./redis-server.mjs";
import { xorshift32 } from "./seeded.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;
const redisHeld = redisForTests(test, ROOT, skip);
const V1 = { "a2a-version": "1.0" };
const textOf = (m) => (m.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");

/** An agent that pauses on every message but "done", recording what it was given. */
function pausing(seen) {
  return (request, rb) => {
    seen.push({ input: request.input.map((m) => `${m.role}:${textOf(m)}`), resume: request.resume ?? null });
    const said = textOf(request.input.at(-1));
    rb.message().content("text").delta(`heard ${said}`);
    if (said !== "done") rb.interrupt({ id: `i-${said}`, message: `more after ${said}?` });
  };
}

/** Runs one conversation of `turns` messages over `bases` (one base URL per turn, chosen by `pick`). */
let conversations = 0;
async function conversation(bases, pick, turns, protocol) {
  let task = null;
  let previous = null;
  const session = `session-${++conversations}`;
  for (let t = 0; t < turns.length; t++) {
    const base = bases[pick()];
    if (protocol === "agent-api") {
      const res = await post(`${base}/process`, { input: [{ role: "user", content: [{ type: "text", text: turns[t] }] }], session_id: session });
      assert.equal(res.status, 200, await res.clone().text());
      await res.text();
    } else if (protocol === "a2a") {
      const message = { messageId: `m${t}`, role: "ROLE_USER", parts: [{ text: turns[t] }], ...(task ? { taskId: task } : {}) };
      const answer = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: t, method: "SendMessage", params: { message } }, V1)).json();
      assert.ok(answer.result?.task, JSON.stringify(answer));
      task = answer.result.task.id;
    } else {
      const answer = await (await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: turns[t], ...(previous ? { previous_response_id: previous } : {}) })).json();
      assert.ok(answer.id, JSON.stringify(answer));
      previous = answer.id;
    }
  }
}

for (const protocol of ["a2a", "openai-responses", "agent-api"]) {
  test(`${protocol}: a conversation whose turns go to either of two instances gives the agent what one instance gives it`, { skip }, async () => {
    const turns = ["a", "b", "c", "d", "done"];
    const alone = [];
    const one = await listen(new AgentApp({ agent: pausing(alone), sessionHistory: true }));
    const shared = [];
    const prefix = `conv-${crypto.randomUUID()}:`;
    const stores = [0, 1].map(() => new RedisRunStore(redisHeld.client, { prefix }));
    const apps = stores.map((store) => new AgentApp({ agent: pausing(shared), sessionHistory: true, runs: { store } }));
    const two = await Promise.all(apps.map((app) => listen(app)));
    try {
      await conversation([one.base], () => 0, turns, protocol);
      for (const seed of [1, 2, 3]) {
        shared.length = 0;
        const next = xorshift32(seed);
        await conversation(two.map((s) => s.base), () => next() % 2, turns, protocol);
        assert.deepEqual(shared, alone, `seed ${seed}`);
      }
      assert.equal(alone.at(-1).input.length, 2 * turns.length - 1, "every earlier message and answer, then the new one");
      assert.deepEqual(alone.at(-1).resume, [{ interruptId: "i-d", status: "resolved", payload: "done" }]);
    } finally {
      one.server.close();
      for (const s of two) s.server.close();
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(stores.map((store) => store.close()));
    }
  });
}

test("ListTasks over a RedisRunStore: tasks started on either instance, the caller's only, newest first, by context, paged", { skip }, async () => {
  const prefix = `list-${crypto.randomUUID()}:`;
  const stores = [0, 1].map(() => new RedisRunStore(redisHeld.client, { prefix }));
  const apps = stores.map((store) => new AgentApp({
    agent: (request, rb) => { rb.message().content("text").delta("ok"); },
    authorize: (request) => request.headers.get("x-user") ?? false,
    runs: { store },
  }));
  const two = await Promise.all(apps.map((app) => listen(app)));
  const rpc = (method, params) => ({ jsonrpc: "2.0", id: 1, method, params });
  const as = (user) => ({ ...V1, "x-user": user });
  try {
    const ids = [];
    for (let i = 0; i < 5; i++) {
      const message = { messageId: `m${i}`, role: "ROLE_USER", parts: [{ text: `t${i}` }], contextId: i < 3 ? "ctx-a" : "ctx-b" };
      const answer = await (await post(`${two[i % 2].base}/a2a`, rpc("SendMessage", { message }), as("ann"))).json();
      ids.push(answer.result.task.id);
    }
    await (await post(`${two[0].base}/a2a`, rpc("SendMessage", { message: { messageId: "b", role: "ROLE_USER", parts: [{ text: "bob's" }] } }), as("bob"))).json();
    for (const { base } of two) {
      const all = (await (await post(`${base}/a2a`, rpc("ListTasks", {}), as("ann"))).json()).result;
      assert.deepEqual(all.tasks.map((t) => t.id), [...ids].reverse());
      assert.equal(all.totalSize, 5);
    }
    const pages = [];
    let token = "";
    do {
      const page = (await (await post(`${two[1].base}/a2a`, rpc("ListTasks", { contextId: "ctx-a", pageSize: 2, pageToken: token }), as("ann"))).json()).result;
      pages.push(page.tasks.map((t) => t.id));
      assert.equal(page.totalSize, 3);
      token = page.nextPageToken;
    } while (token !== "");
    assert.deepEqual(pages, [[ids[2], ids[1]], [ids[0]]]);
    const bob = (await (await post(`${two[1].base}/a2a`, rpc("ListTasks", {}), as("bob"))).json()).result;
    assert.equal(bob.totalSize, 1);
  } finally {
    for (const s of two) s.server.close();
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all(stores.map((store) => store.close()));
  }
});
