// Multi-turn helpers: `toAgUiMessages` against the real @ag-ui/client 1.0.0 (the messages the
// client holds after agentwire's AG-UI encoding of each reference run must equal the conversion
// of the run's Agent API snapshot), `fromAgUiMessages` back, and `nextTurn` for each protocol.
// The three-turn run against the reference server is in the reference suite
// (scripts/reference/three_turns.py).
import test from "node:test";
import assert from "node:assert/strict";
import { fromAgUiMessages, nextTurn, StreamAssembler, toAgUiMessages, Translator } from "agentwire";
import { referenceStreams } from "./reference-streams.mjs";
import { loadClient, replay } from "./agui-client.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

function aguiEvents(bytes) {
  const t = new Translator({ from: "agent-api", to: "ag-ui" });
  try {
    const text = new TextDecoder().decode(Buffer.concat([t.push(bytes), t.finish()]));
    return text.split("\n\n").filter((f) => f.startsWith("data: ")).map((f) => JSON.parse(f.slice(6)));
  } finally {
    t.free();
  }
}

test("toAgUiMessages gives the messages @ag-ui/client holds after the same run in AG-UI", { skip }, async () => {
  const lib = await loadClient(ROOT);
  let compared = 0;
  for (const [name, bytes] of referenceStreams()) {
    const snapshot = await StreamAssembler.collect((async function* () { yield bytes; })(), { protocol: "agent-api" });
    const messages = [...snapshot.output, ...(snapshot.incompleteMessages ?? [])];
    if (messages.length === 0) continue;
    const { messages: expected } = await replay(lib, aguiEvents(bytes));
    const ours = toAgUiMessages(messages);
    // Order: the client lists messages as they started; the snapshot's `output` in its order.
    const byId = (list) => [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    assert.deepStrictEqual(byId(ours), byId(expected), name);
    compared += 1;
  }
  assert.ok(compared >= 6, `only ${compared} runs compared`);
});

test("fromAgUiMessages reads tool calls and results back into Agent API messages", () => {
  const agui = [
    { id: "u1", role: "user", content: "Weather?" },
    { id: "a1", role: "assistant", toolCalls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Hangzhou"}' } }] },
    { id: "t1", role: "tool", toolCallId: "call_1", content: "Sunny" },
    { id: "a2", role: "assistant", content: "It is sunny." },
  ];
  const input = fromAgUiMessages(agui);
  const kinds = input.map((m) => [m.type, m.role]);
  assert.deepStrictEqual(kinds, [["message", "user"], ["function_call", "assistant"], ["function_call_output", "tool"], ["message", "assistant"]]);
  assert.deepStrictEqual(input[1].content[0].data, { call_id: "call_1", name: "get_weather", arguments: '{"city":"Hangzhou"}' });
  assert.strictEqual(input[2].content[0].data.call_id, "call_1");
  // And back: the same AG-UI messages (the user's text, the call, its result, the answer).
  assert.deepStrictEqual(toAgUiMessages(input), agui);
});

test("nextTurn builds each protocol's next history", () => {
  const answer = { id: "m1", type: "message", role: "assistant", status: "completed", content: [{ type: "text", text: "Hi" }] };
  const agentApi = nextTurn("agent-api", { history: [{ role: "user", type: "message", content: [] }], snapshot: { output: [answer] }, user: "Again" });
  assert.deepStrictEqual(agentApi.map((m) => m.role), ["user", "assistant", "user"]);
  assert.deepStrictEqual(agentApi[2].content, [{ type: "text", text: "Again" }]);

  const sent = [{ id: "u1", role: "user", content: "Hi" }];
  const agui = nextTurn("ag-ui", { history: sent, snapshot: { messages: [{ id: "a1", role: "assistant", content: "Hello" }] }, user: "Again" });
  assert.deepStrictEqual(agui.slice(0, 2), [sent[0], { id: "a1", role: "assistant", content: "Hello" }]);
  assert.strictEqual(agui[2].role, "user");
  assert.strictEqual(agui[2].content, "Again");
  // A server that echoes the input messages in a MESSAGES_SNAPSHOT: no duplicates.
  const echoed = nextTurn("ag-ui", { history: sent, snapshot: { messages: [...sent, { id: "a1", role: "assistant", content: "Hello" }] }, user: "x" });
  assert.deepStrictEqual(echoed.map((m) => m.id).slice(0, 2), ["u1", "a1"]);

  const item = { type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Hi", annotations: [] }] };
  const responses = nextTurn("openai-responses", { history: [{ role: "user", content: "Hi" }], snapshot: { output: [item] }, user: "Again" });
  assert.deepStrictEqual(responses.at(-1), { role: "user", content: [{ type: "input_text", text: "Again" }] });
  assert.strictEqual(responses[1], item);

  const waiting = nextTurn("a2a", { snapshot: { id: "task_1", session_id: "ctx_1", status: "incomplete" }, user: "Yes" });
  assert.strictEqual(waiting.contextId, "ctx_1");
  assert.strictEqual(waiting.taskId, "task_1");
  assert.strictEqual(waiting.role, "ROLE_USER");
  assert.deepStrictEqual(waiting.parts, [{ text: "Yes" }]);
  const old = nextTurn("a2a-0.3", { snapshot: { id: "task_1", session_id: "ctx_1", status: "incomplete" }, user: "Yes" });
  assert.deepStrictEqual([old.kind, old.role, old.taskId], ["message", "user", "task_1"]);
  assert.deepStrictEqual(old.parts, [{ kind: "text", text: "Yes" }]);
  const done = nextTurn("a2a", { snapshot: { id: "task_1", session_id: "ctx_1", status: "completed" }, user: "More" });
  assert.strictEqual(done.taskId, undefined);
});

test("conversation helpers refuse hostile values with INVALID_OPTION", () => {
  const hostile = new Proxy([], { get() { throw new Error("boom"); } });
  for (const call of [() => toAgUiMessages(hostile), () => nextTurn("agent-api", { history: hostile, snapshot: {}, user: "x" }),
    () => fromAgUiMessages(hostile), () => nextTurn("grpc", { snapshot: {}, user: "x" })]) {
    assert.throws(call, (e) => e.name === "AgentwireError" && e.code === "INVALID_OPTION");
  }
});
