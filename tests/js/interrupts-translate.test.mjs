// A pause read in one protocol and written in another: an interrupt raised by rb.interrupt() in
// A2A reaches an AG-UI client as RUN_FINISHED's interrupt outcome (same id, reason, message), one
// raised in AG-UI reaches an A2A client as an input-required task carrying it, and either reaches
// the Agent API as the response's interrupts; the assembler reports it the same way for each.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ResponseBuilder, StreamAssembler, translate } from "agentwire";

const INTERRUPT = { id: "ask-7", reason: "confirmation", message: "Send the email?", toolCallId: "call-3" };
const produce = (rb) => {
  rb.message().content("text").delta("Drafted.");
  rb.interrupt(INTERRUPT);
};
const bytesOf = async (stream) => new Uint8Array(await new Response(stream).arrayBuffer());
const payloads = (bytes) => new TextDecoder().decode(bytes).split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)));

function interruptsRead(protocol, bytes) {
  const asm = new StreamAssembler({ protocol });
  try {
    asm.push(bytes);
    asm.finish();
    const snapshot = asm.snapshot();
    return { outcome: snapshot.outcome, interrupts: snapshot.interrupts };
  } finally {
    asm.free();
  }
}

const PAIRS = [
  ["a2a", "ag-ui"], ["ag-ui", "a2a"], ["a2a", "agent-api"], ["ag-ui", "agent-api"], ["agent-api", "ag-ui"], ["agent-api", "a2a"],
  ["agent-api", "openai-responses"], ["openai-responses", "a2a"], ["openai-responses", "ag-ui"], ["a2a", "openai-responses"],
];
for (const [from, to] of PAIRS) {
  test(`an interrupt raised in ${from} arrives in ${to} whole`, async () => {
    const source = await bytesOf(ResponseBuilder.stream(produce, { protocol: from }));
    const out = await bytesOf(translate(new Response(source), { from, to }));
    const last = payloads(out).at(-1);
    if (to === "ag-ui") {
      assert.equal(last.type, "RUN_FINISHED");
      assert.deepEqual(last.outcome, { type: "interrupt", interrupts: [INTERRUPT] });
    } else if (to === "a2a") {
      const status = last.result.statusUpdate.status;
      assert.equal(status.state, "TASK_STATE_INPUT_REQUIRED");
      assert.equal(status.message.parts[0].text, INTERRUPT.message);
      assert.deepEqual(status.message.metadata.interrupts, [INTERRUPT]);
    } else if (to === "openai-responses") {
      assert.equal(last.type, "response.incomplete");
      const approval = last.response.output.at(-1);
      assert.deepEqual(
        { ...approval, arguments: JSON.parse(approval.arguments) },
        { id: INTERRUPT.id, type: "mcp_approval_request", arguments: INTERRUPT, name: INTERRUPT.reason, server_label: "agentwire" },
      );
    } else {
      assert.equal(last.status, "incomplete");
      assert.deepEqual(last.interrupts, [INTERRUPT]);
    }
    const read = interruptsRead(to, out);
    assert.equal(read.outcome, "incomplete");
    assert.deepEqual(read.interrupts, [INTERRUPT], JSON.stringify(read));
  });
}

test("interrupts of the wrong shape from an upstream are left out, never written as invalid AG-UI", async () => {
  const status = { state: "TASK_STATE_INPUT_REQUIRED", message: { messageId: "q", role: "ROLE_AGENT", parts: [{ text: "Which?" }],
    metadata: { interrupts: [null, { id: "" , reason: "r" }, { id: "a", reason: "r", message: 5, responseSchema: "x", expiresAt: 7, extra: 1 }] } } };
  const a2a = [
    { jsonrpc: "2.0", id: 1, result: { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_SUBMITTED" } } } },
    { jsonrpc: "2.0", id: 1, result: { statusUpdate: { taskId: "t", contextId: "c", status } } },
  ].map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
  const out = await bytesOf(translate(new Response(a2a), { from: "a2a", to: "ag-ui" }));
  const last = payloads(out).at(-1);
  assert.deepEqual(last.outcome, { type: "interrupt", interrupts: [{ id: "a", reason: "r" }] });
  assert.equal(interruptsRead("ag-ui", out).outcome, "incomplete", "agentwire's own AG-UI reader accepts it");
});

test("a completed OpenAI response with another server's approval request stays completed", async () => {
  const response = { id: "resp_1", object: "response", created_at: 1, status: "completed", model: "m",
    output: [{ id: "mcpr_1", type: "mcp_approval_request", name: "ask", arguments: "{}", server_label: "deepwiki" }] };
  const events = [
    { type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", output: [] } },
    { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: response.output[0] },
    { type: "response.output_item.done", sequence_number: 2, output_index: 0, item: response.output[0] },
    { type: "response.completed", sequence_number: 3, response },
  ].map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
  const read = interruptsRead("openai-responses", new TextEncoder().encode(events));
  assert.equal(read.outcome, "completed");
  assert.equal(read.interrupts, undefined);
});
