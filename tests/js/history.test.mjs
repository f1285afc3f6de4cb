// One history for every kind of server: a conversation held in one protocol's form, converted
// with convertHistory / toAgUiMessages / toResponsesInput / fromAgUiMessages /
// fromResponsesInput, is sent to AgentApp's route of another protocol, and the agent receives
// the same conversation (roles, texts, tool calls and their outputs) from each. Every ordered
// pair of the history forms (Agent API, AG-UI, Responses; A2A runs give Agent API messages),
// starting from real runs of each protocol.
import test from "node:test";
import assert from "node:assert/strict";
import { AgentApp, MemoryRunStore, StreamAssembler, convertHistory, nextTurn, toAgUiMessages } from "agentwire";
import { listen, post } from "./http-helpers.mjs";
import { weatherAgent } from "./scripted-agent.mjs";

/** The conversation as an agent sees it: what each message says, without ids. */
function said(input) {
  return input.map((m) => {
    const data = (m.content ?? []).find((c) => c.type === "data")?.data ?? {};
    const arg = (v) => (typeof v === "string" ? v : JSON.stringify(v));
    if (m.type?.endsWith("_call")) return { call: data.name, arguments: arg(data.arguments) };
    if (m.type?.endsWith("_call_output")) return { output: arg(data.output) };
    const text = (m.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
    return { role: m.role, text };
  }).filter((m) => m.text !== "");
}

const ROUTE = {
  "agent-api": (history) => ["/process", { input: history, session_id: crypto.randomUUID() }],
  "ag-ui": (history) => ["/ag-ui", { threadId: crypto.randomUUID(), runId: crypto.randomUUID(), messages: history, tools: [], context: [], state: {}, forwardedProps: {} }],
  "openai-responses": (history) => ["/compatible-mode/v1/responses", { model: "m", input: history, stream: true }],
};

test("a history converted between the protocols reaches the agent the same through every route", async () => {
  const seen = [];
  const app = new AgentApp({
    agent: async (request, rb) => {
      seen.push(request.input);
      await weatherAgent(request, rb);
    },
    runs: { store: new MemoryRunStore() },
  });
  const { server, base } = await listen(app);
  const send = async (protocol, history) => {
    const [path, body] = ROUTE[protocol](history);
    const res = await post(`${base}${path}`, body);
    assert.equal(res.status, 200, `${protocol}: ${res.status} ${res.status === 200 ? "" : await res.text()}`);
    const snapshot = await StreamAssembler.collect(res, { protocol });
    return { snapshot, input: seen.at(-1) };
  };
  try {
    // The two-turn conversation, first in the Agent API: what the agent received is the reference.
    const first = nextTurn("agent-api", { user: "Weather in Hangzhou?" });
    const run = await send("agent-api", first);
    const history = nextTurn("agent-api", { history: first, snapshot: run.snapshot, user: "And tomorrow?" });
    const expected = said((await send("agent-api", history)).input);
    assert.deepEqual(expected, [
      { role: "user", text: "Weather in Hangzhou?" },
      { call: "get_weather", arguments: '{"city":"Hangzhou"}' },
      { output: "Sunny" },
      { role: "assistant", text: "Sunny in Hangzhou" },
      { role: "user", text: "And tomorrow?" },
    ]);

    // The same conversation made in each protocol, from its own runs (A2A: its run's snapshot).
    const made = { "agent-api": history };
    {
      const firstAgUi = nextTurn("ag-ui", { user: "Weather in Hangzhou?" });
      const { snapshot } = await send("ag-ui", firstAgUi);
      made["ag-ui"] = nextTurn("ag-ui", { history: firstAgUi, snapshot, user: "And tomorrow?" });
      const firstResponses = nextTurn("openai-responses", { user: "Weather in Hangzhou?" });
      const responses = await send("openai-responses", firstResponses);
      made["openai-responses"] = nextTurn("openai-responses", { history: firstResponses, snapshot: responses.snapshot, user: "And tomorrow?" });
      const a2a = await post(`${base}/a2a`, { jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: { messageId: "u1", role: "ROLE_USER", parts: [{ text: "Weather in Hangzhou?" }] } } }, { "a2a-version": "1.0" });
      const a2aSnapshot = await StreamAssembler.collect(a2a, { protocol: "a2a" });
      made.a2a = [...first, ...a2aSnapshot.output, ...nextTurn("agent-api", { user: "And tomorrow?" })];
    }
    let pairs = 0;
    for (const [from, messages] of Object.entries(made)) {
      for (const to of ["agent-api", "ag-ui", "openai-responses"]) {
        const converted = convertHistory(messages, { from, to });
        if (to === "ag-ui") {
          for (const m of converted) assert.ok(typeof m.id === "string" && m.id !== "", `${from} → ${to}: every AG-UI message has an id`);
        }
        const { input } = await send(to, converted);
        assert.deepEqual(said(input), expected, `${from} → ${to}`);
        pairs += 1;
      }
    }
    assert.equal(pairs, 12);

    // The README's path: the Agent API history made by nextTurn, as AG-UI messages, to /ag-ui.
    const { input } = await send("ag-ui", toAgUiMessages(history));
    assert.deepEqual(said(input), expected, "toAgUiMessages(nextTurn(\"agent-api\")) → /ag-ui");
    assert.throws(() => convertHistory(history, { from: "agent-api", to: "a2a" }), (e) => e.code === "INVALID_OPTION" && e.field === "to");
    assert.throws(() => convertHistory(history, { from: "nope", to: "ag-ui" }), (e) => e.code === "INVALID_OPTION" && e.field === "from");
    assert.throws(() => convertHistory("x", { from: "agent-api", to: "ag-ui" }), (e) => e.code === "INVALID_OPTION");
  } finally {
    server.close();
    await app.close();
  }
});
