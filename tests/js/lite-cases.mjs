// The cases of `agentwire/lite`, run in every runtime like cases.mjs: the full package's
// StreamAssembler cases that concern the Agent API (all but the AG-UI ones), then what sets the
// lite build apart. Each case gets the namespace of `import * as api from "agentwire/lite"`.
import { AGUI_RUN, RUN, assemblerCases, throwsCoded } from "./assembler-cases.mjs";

const RESPONSES_RUN =
  'event: response.created\ndata: {"type":"response.created","sequence_number":0,' +
  '"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}}\n\n';
const A2A_RUN =
  'data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t1","contextId":"c1",' +
  '"status":{"state":"working"}}}\n\n';
const A2A1_RUN =
  'data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t1","contextId":"c1",' +
  '"status":{"state":"TASK_STATE_WORKING"}}}}\n\n';

const agentApiCases = Object.entries(assemblerCases).filter(([name]) => !name.includes("(AG-UI)"));

export const liteCases = {
  ...Object.fromEntries(agentApiCases.map(([name, run]) => [`lite: ${name}`, run])),

  "lite: exports AgentwireError, StreamAssembler and wasmMemoryBytes, nothing else"(api, assert) {
    assert.deepStrictEqual(Object.keys(api).sort(), ["AgentwireError", "StreamAssembler", "wasmMemoryBytes"]);
    assert.ok(api.wasmMemoryBytes() >= 65536);
  },

  "lite: another protocol by name throws INVALID_OPTION on protocol"({ StreamAssembler }, assert) {
    for (const protocol of ["ag-ui", "openai-responses", "a2a"]) {
      const error = throwsCoded(assert, () => new StreamAssembler({ protocol }), "INVALID_OPTION");
      assert.strictEqual(error.field, "protocol");
      assert.ok(error.message.includes('"agentwire"'), error.message);
    }
    const asm = new StreamAssembler({ protocol: "agent-api" });
    asm.push(RUN);
    asm.finish();
    assert.strictEqual(asm.outcome, "completed");
    asm.free();
  },

  "lite: a stream of another protocol throws PROTOCOL_VIOLATION at its first event"(
    { StreamAssembler }, assert,
  ) {
    for (const [name, stream] of [["ag-ui", AGUI_RUN], ["openai-responses", RESPONSES_RUN], ["a2a-0.3", A2A_RUN], ["a2a", A2A1_RUN]]) {
      const asm = new StreamAssembler();
      const error = throwsCoded(assert, () => asm.push(stream), "PROTOCOL_VIOLATION");
      assert.strictEqual(error.offset, 0);
      assert.ok(error.message.includes(`"${name}"`), error.message);
      assert.strictEqual(asm.protocol, name);
      assert.strictEqual(asm.outcome, "truncated");
      asm.free();
    }
  },
};
