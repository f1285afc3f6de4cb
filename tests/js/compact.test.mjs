// OpenAI Responses compaction on AgentApp (`POST …/responses/compact`, served through the app's
// `compact` hook): the official `openai` client's `responses.compact` gets a `response.compaction`
// whose `compaction` item, sent back as input, gives the agent the hook's messages in its place;
// the hook sees the conversation of `previous_response_id` first; a missing model is 400, a
// hook's bad answer 500 (reported), another caller's previous response 400; no hook: 405.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { AgentApp } from "agentwire";
import { listen, post } from "./http-helpers.mjs";

const require = createRequire(import.meta.url);
const textOf = (m) => (m.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
const seenOf = (request) => request.input.map((m) => `${m.role}:${textOf(m) || m.type}`);
const RESPONSES = "/compatible-mode/v1/responses";

/** A hook that makes one system message of the conversation, recording what it was given. */
function summarizer(given) {
  return (request, context) => {
    given.push({ request, context });
    return [{ type: "message", role: "system", content: [{ type: "text", text: `summary of ${seenOf(request).join(", ")}` }] }];
  };
}

test("responses.compact through the openai client: a compaction item that gives the next turn's agent the hook's messages", async () => {
  const seen = [];
  const given = [];
  const app = new AgentApp({
    agent: (request, rb) => {
      seen.push(request);
      rb.message().content("text").delta(`answer ${seen.length}`);
    },
    compact: summarizer(given),
    authorize: (request) => request.headers.get("authorization")?.slice(7) || null,
  });
  const { server, base } = await listen(app);
  try {
    const { default: OpenAI } = await import(require.resolve("openai"));
    const client = new OpenAI({ apiKey: "alice", baseURL: `${base}/compatible-mode/v1` });
    const first = await client.responses.create({ model: "m", input: "We launch on Tuesday." });
    const compacted = await client.responses.compact({ model: "m", previous_response_id: first.id, input: [{ role: "user", content: "Noted?" }] });
    assert.equal(compacted.object, "response.compaction");
    assert.match(compacted.id, /^cmp_/);
    assert.ok(Number.isInteger(compacted.created_at) && Math.abs(compacted.created_at - Date.now() / 1000) < 60);
    assert.equal(compacted.output.length, 1);
    assert.equal(compacted.output[0].type, "compaction");
    assert.equal(typeof compacted.output[0].encrypted_content, "string");
    assert.equal(compacted.usage.total_tokens, 0);
    // The hook got the earlier turn, then the request's input, and the caller.
    assert.deepEqual(seenOf(given[0].request), ["user:We launch on Tuesday.", "assistant:answer 1", "user:Noted?"]);
    assert.equal(given[0].context.principal, "alice");
    assert.ok(given[0].context.signal instanceof AbortSignal);
    // The compacted window, then a new turn, in a new chain: the agent reads the summary in its place.
    const next = await client.responses.create({ model: "m", input: [...compacted.output, { role: "user", content: "When?" }] });
    assert.equal(next.output_text, "answer 2");
    assert.deepEqual(seenOf(seen[1]), ["system:summary of user:We launch on Tuesday., assistant:answer 1, user:Noted?", "user:When?"]);
  } finally {
    server.close();
  }
});

test("compact: a missing model is 400, a hook's bad answer 500, another caller's response 400; without a hook the route answers 405", async () => {
  const errors = [];
  let answer = [{ role: "system", content: [] }];
  const app = new AgentApp({
    agent: (request, rb) => void rb.message().content("text").delta("hi"),
    compact: () => answer,
    onError: (e) => errors.push(e),
    authorize: (request) => request.headers.get("authorization")?.slice(7) || null,
  });
  const { server, base } = await listen(app);
  const as = (who) => ({ authorization: `Bearer ${who}` });
  try {
    const missing = await post(`${base}${RESPONSES}/compact`, { input: "x" }, as("a"));
    assert.equal(missing.status, 400);
    assert.equal((await missing.json()).error.field, "model");
    assert.equal((await post(`${base}${RESPONSES}/compact`, "{", as("a"))).status, 400);
    const ok = await post(`${base}${RESPONSES}/compact`, { model: "m", input: "x" }, as("a"));
    assert.equal(ok.status, 200);
    for (const bad of [null, "text", [{ content: [] }], [null]]) {
      answer = bad;
      const r = await post(`${base}${RESPONSES}/compact`, { model: "m", input: "x" }, as("a"));
      assert.equal(r.status, 500, JSON.stringify(bad));
      assert.equal((await r.json()).error.code, "INTERNAL_ERROR");
    }
    assert.equal(errors.length, 4);
    answer = [{ role: "system", content: [] }];
    const mine = await (await post(`${base}${RESPONSES}`, { model: "m", input: "hello" }, as("a"))).json();
    const theirs = await post(`${base}${RESPONSES}/compact`, { model: "m", previous_response_id: mine.id }, as("b"));
    assert.equal(theirs.status, 400);
    assert.equal((await theirs.json()).error.field, "previous_response_id");
    assert.equal((await post(`${base}${RESPONSES}/compact`, { model: "m", previous_response_id: mine.id }, as("a"))).status, 200);
  } finally {
    server.close();
  }
  const plain = new AgentApp({ agent: (request, rb) => void rb.message().content("text").delta("hi") });
  const served = await listen(plain);
  try {
    const r = await post(`${served.base}${RESPONSES}/compact`, { model: "m", input: "x" });
    assert.equal(r.status, 405);
    assert.throws(() => new AgentApp({ agent: () => {}, compact: "yes" }), (e) => e.code === "INVALID_OPTION" && e.field === "compact");
  } finally {
    served.server.close();
  }
});
