// agentwire/lite against the installed package, run by `node --test` and `deno test`: its shared
// cases (lite-cases.mjs), its export condition, and the same results as the full package on every
// reference stream (tests/fixtures/reference) at seeded random chunkings: the same update batches
// and the same snapshot. The full package is itself checked against the reference
// (assembler-reference.test.mjs), so this carries that check over to the lite build.
import test from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as lite from "agentwire/lite";
import * as full from "agentwire";
import { liteCases } from "./lite-cases.mjs";

for (const [name, run] of Object.entries(liteCases)) {
  test(name, async () => await run(lite, assert));
}

test("lite: the runtime loads its own entry (export condition)", () => {
  const entry = typeof Deno === "undefined" ? "node.js" : "deno.js";
  assert.ok(import.meta.resolve("agentwire/lite").endsWith(`/node_modules/agentwire/lite/${entry}`),
    import.meta.resolve("agentwire/lite"));
});

const dir = new URL("./reference/", import.meta.url);
const enc = new TextEncoder();

function referenceStreams() {
  const streams = [];
  for (const name of readdirSync(new URL("sse/", dir))) {
    if (name.endsWith(".sse")) streams.push([name, readFileSync(new URL(`sse/${name}`, dir))]);
  }
  for (const name of readdirSync(new URL("events/", dir))) {
    if (name.endsWith(".jsonl")) {
      const lines = readFileSync(new URL(`events/${name}`, dir), "utf8").split("\n").filter(Boolean);
      streams.push([name, enc.encode(lines.map((l) => `data: ${l}\n\n`).join(""))]);
    }
  }
  assert.ok(streams.length >= 8, `only ${streams.length} reference streams`);
  return streams;
}

/** Seeded cut points (xorshift32), 1 to `max` bytes apart. */
function cuts(length, max, seed) {
  const out = [];
  let state = seed;
  for (let at = 0; ;) {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    at += 1 + (state % max);
    if (at >= length) return out;
    out.push(at);
  }
}

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
        const points = cuts(bytes.length, max, seed);
        assert.deepStrictEqual(run(lite, bytes, points, options), run(full, bytes, points, options),
          `cut every ≤${max} B, ${JSON.stringify(options)}`);
      }
    }
  });
}

test("lite: 10,000 create/push/finish/free cycles do not grow its wasm memory", () => {
  const [, bytes] = referenceStreams().find(([n]) => n === "process_agentscope.sse");
  const cycle = () => {
    const asm = new lite.StreamAssembler();
    asm.push(bytes.subarray(0, 3000));
    asm.push(bytes.subarray(3000));
    asm.finish();
    asm.toolCalls();
    asm.snapshot();
    asm.free();
  };
  for (let i = 0; i < 200; i++) cycle(); // warm up: let the allocator reach its working size
  const before = lite.wasmMemoryBytes();
  for (let i = 0; i < 10_000; i++) cycle();
  assert.strictEqual(lite.wasmMemoryBytes(), before);
});
