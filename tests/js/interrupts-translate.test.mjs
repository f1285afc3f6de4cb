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
