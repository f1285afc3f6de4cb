// agentwire/lite against the installed package, run by `node --test` and `deno test`: its shared
// cases (lite-cases.mjs), its export condition, and the same results as the full package on every
// reference stream (tests/fixtures/reference) at seeded random chunkings: the same update batches
// and the same snapshot. The full package is itself checked against the reference
// (assembler-reference.test.mjs), so this carries that check over to the lite build.
import test from "node:test";
import assert from "node:assert/strict";
import * as lite from "agentwire/lite";
import * as full from "agentwire";
import { liteCases } from "./lite-cases.mjs";
import { assertCyclesKeepMemory, randomCuts, referenceStreams } from "./reference-streams.mjs";

for (const [name, run] of Object.entries(liteCases)) {
  test(name, async () => await run(lite, assert));
}

test("lite: the runtime loads its own entry (export condition)", () => {
  const entry = typeof Deno === "undefined" ? "node.js" : "deno.js";
  assert.ok(import.meta.resolve("agentwire/lite").endsWith(`/node_modules/agentwire/lite/${entry}`),
    import.meta.resolve("agentwire/lite"));
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

for (const [name, bytes] of referenceStreams()) {
  test(`lite: reference stream ${name} assembles exactly as the full package does`, () => {
    for (const [max, seed] of [[bytes.length, 1], [64, 7], [7, 11], [1, 13]]) {
      for (const options of [{}, { strict: true }]) {
        const points = [...randomCuts(bytes.length, max, seed)];
        assert.deepStrictEqual(run(lite, bytes, points, options), run(full, bytes, points, options),
          `cut every ≤${max} B, ${JSON.stringify(options)}`);
      }
    }
  });
}

test("lite: 10,000 create/push/finish/free cycles do not grow its wasm memory", () => assertCyclesKeepMemory(lite));
