// agentwire/client against the installed package, run by `node --test` and `deno test`: its
// export list and export condition, the shared assembler cases, and the same results as the full
// package on every reference stream written in every protocol (the full package's translator
// writes them; the full package is itself checked against the reference and the protocols' own
// clients), at seeded random chunkings: the same update batches, snapshot, tool calls and outcome.
import test from "node:test";
import assert from "node:assert/strict";
import * as client from "agentwire/client";
import * as full from "agentwire";
import { assemblerCases } from "./assembler-cases.mjs";
import { assertCyclesKeepMemory, randomCuts, referenceStreams } from "./reference-streams.mjs";

for (const [name, run] of Object.entries(assemblerCases)) {
  test(`client: ${name}`, async () => await run(client, assert));
}

test("client: the entry exports the reading API and no writer", () => {
  assert.deepStrictEqual(Object.keys(client).sort(), ["AgentwireError", "StreamAssembler", "agUiRequest", "answerInterrupts", "convertHistory",
    "fromAgUiMessages", "fromResponsesInput", "nextTurn", "parseEvent", "responsesRequest", "toAgUiMessages", "toResponsesInput", "wasmMemoryBytes"]);
});

test("client: the runtime loads its own entry (export condition)", () => {
  const entry = typeof Deno === "undefined" ? "node.js" : "deno.js";
  assert.ok(import.meta.resolve("agentwire/client").endsWith(`/node_modules/agentwire/client/${entry}`),
    import.meta.resolve("agentwire/client"));
});

function run({ StreamAssembler }, bytes, points, options) {
  const asm = new StreamAssembler(options);
  const batches = [];
  let start = 0;
  try {
    for (const cut of [...points, bytes.length]) {
      batches.push(asm.push(bytes.subarray(start, cut)));
      start = cut;
    }
    batches.push(asm.finish());
  } catch (e) {
    batches.push({ code: e.code, message: e.message, offset: e.offset });
  }
  const result = { batches, snapshot: asm.snapshot(), toolCalls: asm.toolCalls(), outcome: asm.outcome };
  asm.free();
  return result;
}

/** A reference stream in `protocol`, written by the full package's translator. */
function written(bytes, protocol) {
  if (protocol === "agent-api") return bytes;
  const translator = new full.Translator({ from: "agent-api", to: protocol });
  try {
    const head = translator.push(bytes);
    const tail = translator.finish();
    const out = new Uint8Array(head.length + tail.length);
    out.set(head);
    out.set(tail, head.length);
    return out;
  } finally {
    translator.free();
  }
}

for (const protocol of ["agent-api", "ag-ui", "openai-responses", "a2a", "a2a-0.3"]) {
  test(`client: every reference stream written as ${protocol} assembles exactly as the full package does`, () => {
    let streams = 0;
    for (const [name, reference] of referenceStreams()) {
      let bytes;
      try {
        bytes = written(reference, protocol);
      } catch {
        continue; // a reference stream the translator refuses (a malformed one): nothing to compare
      }
      streams++;
      for (const [max, seed] of [[bytes.length, 1], [64, 7], [5, 11]]) {
        for (const options of [{}, { protocol }, { strict: true }]) {
          const points = [...randomCuts(bytes.length, max, seed)];
          assert.deepStrictEqual(run(client, bytes, points, options), run(full, bytes, points, options),
            `${name}: cut every ≤${max} B, ${JSON.stringify(options)}`);
        }
      }
    }
    assert.ok(streams >= 5, `streams compared: ${streams}`);
  });
}

/** `value` with the random message ids the helpers make replaced by one placeholder. */
const unrandom = (value) => JSON.parse(JSON.stringify(value).replace(/msg_[0-9a-f-]{36}/g, "msg_*"));

test("client: parseEvent, the history mappings and nextTurn give what the full package gives", () => {
  const event = '{"sequence_number":3,"object":"content","status":"in_progress","type":"text","index":0,"delta":true,"msg_id":"m1","text":"Hi"}';
  assert.deepStrictEqual(client.parseEvent(event), full.parseEvent(event));
  const history = [
    { role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] },
    { role: "assistant", content: [{ type: "text", text: "Sunny, 3 °C." }] },
  ];
  for (const to of ["ag-ui", "openai-responses"]) {
    assert.deepStrictEqual(unrandom(client.convertHistory(history, { from: "agent-api", to })), unrandom(full.convertHistory(history, { from: "agent-api", to })), to);
  }
  assert.deepStrictEqual(unrandom(client.toAgUiMessages(history)), unrandom(full.toAgUiMessages(history)));
  assert.deepStrictEqual(unrandom(client.toResponsesInput(history)), unrandom(full.toResponsesInput(history)));
  const [, reference] = referenceStreams().find(([n]) => n === "process_agentscope.sse");
  for (const protocol of ["agent-api", "ag-ui", "openai-responses", "a2a"]) {
    const asm = new full.StreamAssembler({ protocol });
    asm.push(written(reference, protocol));
    asm.finish();
    const snapshot = asm.snapshot();
    asm.free();
    const turn = { snapshot, user: "And tomorrow?" };
    assert.deepStrictEqual(unrandom(client.nextTurn(protocol, turn)), unrandom(full.nextTurn(protocol, turn)), protocol);
  }
});

test("client: 10,000 create/push/finish/free cycles do not grow its wasm memory", () => assertCyclesKeepMemory(client));
