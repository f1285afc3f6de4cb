// answerInterrupts(): a paused run answered in its own protocol, end to end on AgentApp: the
// agent pauses (rb.interrupt()), the client reads the pause with StreamAssembler, answers it
// with answerInterrupts() in the protocol it speaks, and the agent's next request carries the
// same `resume` whatever the protocol.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AgentApp, StreamAssembler, answerInterrupts } from "agentwire";
import { listen, post } from "./http-helpers.mjs";

const textOf = (m) => (m?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");

/** Pauses on "book it" (an approval, and a tool call's confirmation), answers anything else. */
function agent(seen) {
  return (request, rb) => {
    seen.push(request.resume ?? null);
    if (textOf(request.input.at(-1)) !== "book it") {
      rb.message().content("text").delta("done");
      return;
    }
    const call = rb.toolCall({ name: "book", callId: "call-9" });
    call.arguments("{\"seat\":\"12A\"}");
    call.complete();
    rb.interrupt([
      { id: "approve-1", reason: "confirmation", message: "Book seat 12A?" },
      { id: "tool-1", reason: "tool_call", toolCallId: "call-9", message: "Run book()?" },
    ]);
  };
}

async function snapshotOf(protocol, response) {
  const asm = new StreamAssembler({ protocol });
  try {
    asm.push(new Uint8Array(await response.arrayBuffer()));
    asm.finish();
    return asm.snapshot();
  } finally {
    asm.free();
  }
}

const ANSWERS = { "approve-1": { approved: true }, "tool-1": "ok" };

test("answerInterrupts: AG-UI, OpenAI Responses and A2A clients answer a pause; the agent gets the answers", async () => {
  const seen = [];
  const { server, base } = await listen(new AgentApp({ agent: agent(seen) }));
  try {
    // AG-UI: resume entries as AG-UI has them.
    const paused = await snapshotOf("ag-ui", await post(`${base}/ag-ui`, { threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "book it" }] }));
    assert.equal(paused.outcome, "incomplete");
    const agui = answerInterrupts("ag-ui", paused, ANSWERS);
    assert.deepEqual(agui, { resume: [
      { interruptId: "approve-1", status: "resolved", payload: { approved: true } },
      { interruptId: "tool-1", status: "resolved", payload: "ok" },
    ] });
    await (await post(`${base}/ag-ui`, { threadId: "t1", runId: "r2", messages: [{ id: "u2", role: "user", content: "go on" }], ...agui })).text();
    assert.deepEqual(seen.at(-1), agui.resume);

    // OpenAI Responses: an approval response and a call output, chained.
    const first = await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: "book it", stream: true });
    const responses = answerInterrupts("openai-responses", await snapshotOf("openai-responses", first), ANSWERS);
    assert.deepEqual(responses.input, [
      { type: "mcp_approval_response", approval_request_id: "approve-1", approve: true },
      { type: "function_call_output", call_id: "call-9", output: "ok" },
    ]);
    await (await post(`${base}/compatible-mode/v1/responses`, { model: "m", ...responses })).json();
    assert.deepEqual(seen.at(-1), [
      { interruptId: "approve-1", status: "resolved", payload: { approved: true } },
      { interruptId: "tool-1", status: "resolved", payload: "ok" },
    ]);

    // A2A: one message on the task; with two interrupts, a data part by interrupt id.
    const task = await post(`${base}/a2a`, { jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: { messageId: "a1", role: "ROLE_USER", parts: [{ text: "book it" }] } } }, { "a2a-version": "1.0" });
    const a2aPaused = await snapshotOf("a2a", task);
    const { message } = answerInterrupts("a2a", a2aPaused, ANSWERS);
    assert.equal(message.taskId, a2aPaused.id);
    assert.deepEqual(message.parts, [{ data: ANSWERS }]);
    const done = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 2, method: "SendMessage", params: { message } }, { "a2a-version": "1.0" })).json();
    assert.equal(done.result.task.status.state, "TASK_STATE_COMPLETED", JSON.stringify(done));
    assert.deepEqual(seen.at(-1), [
      { interruptId: "approve-1", status: "resolved", payload: ANSWERS },
      { interruptId: "tool-1", status: "resolved", payload: ANSWERS },
    ]);
  } finally {
    server.close();
  }
});

test("answerInterrupts refuses an unanswered or unknown interrupt, a snapshot with none, and an A2A cancel", () => {
  const snapshot = { id: "t", interrupts: [{ id: "a", reason: "input_required" }, { id: "b", reason: "input_required" }] };
  for (const [protocol, snap, answers] of [
    ["ag-ui", snapshot, { a: 1 }],
    ["ag-ui", snapshot, { a: 1, b: 2, c: 3 }],
    ["ag-ui", { interrupts: [] }, {}],
    ["ag-ui", snapshot, null],
    ["a2a", snapshot, { a: null, b: 1 }],
    ["nope", snapshot, { a: 1, b: 2 }],
  ]) {
    assert.throws(() => answerInterrupts(protocol, snap, answers), (e) => e.code === "INVALID_OPTION", `${protocol} ${JSON.stringify(answers)}`);
  }
  assert.deepEqual(answerInterrupts("agent-api", snapshot, { a: null, b: "x" }).resume, [
    { interruptId: "a", status: "cancelled" }, { interruptId: "b", status: "resolved", payload: "x" },
  ]);
});
