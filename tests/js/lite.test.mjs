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
import { assertCyclesKeepMemory, randomCuts, referenceStreams, xorshift32 } from "./reference-streams.mjs";

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

// The lite build keeps JSON numbers as text and asks the host for doubles where the protocol
// needs one (src/protocol/number.rs); the full build parses them correctly rounded. A stream
// full of numbers must assemble identically in both: data deltas whose numbers add up (floats,
// integers, a sum the reference prints as `1e+16`), completed values that repeat them in
// Python's spelling (no CONTENT_MISMATCH), 17-digit doubles, integers past 2^53, numbers inside
// streamed and non-string tool arguments, and integer fields written as floats (`1.0`).
function numbersStream(seed) {
  const next = xorshift32(seed);
  const random = () => next() / 2 ** 32;
  const doubles = Array.from({ length: 24 }, (_, i) => {
    const x = (random() - 0.5) * 10 ** ((i % 9) * 8 - 32);
    return i % 2 ? x.toPrecision(17) : String(x);
  });
  const lines = [];
  let seq = 0;
  const event = (json) => lines.push(`data: {"sequence_number":${seq++},${json}}\n\n`);
  const dataPart = (msg, index, delta, status, data) =>
    event(`"object":"content","status":"${status}","error":null,"type":"data","index":${index},` +
      `"delta":${delta},"msg_id":"${msg}","data":${data}`);
  event('"object":"response","status":"created","id":"r1","created_at":1700000000');
  event('"object":"message","status":"in_progress","id":"m1","type":"message","role":"assistant"');
  dataPart("m1", 0, true, "in_progress", `{"score":0.1,"n":1e15,"x":1.0,"big":9007199254740993,"list":[1.5]}`);
  dataPart("m1", 0, true, "in_progress", `{"score":0.2,"n":9e15,"x":2,"list":[2.25e-3],"d":[${doubles.join(",")}]}`);
  dataPart("m1", 0, false, "completed",
    `{"score":0.30000000000000004,"n":1e+16,"x":3.0,"big":9007199254740993,"list":[1.5,0.00225],` +
    `"d":[${doubles.join(",")}]}`);
  dataPart("m1", 1.0, false, "completed", `{"half":0.5,"neg":-0.0,"tiny":5e-324,"e":1E2}`);
  event('"object":"message","status":"completed","id":"m1","type":"message","role":"assistant"');
  event('"object":"message","status":"in_progress","id":"c1","type":"function_call","role":"assistant"');
  dataPart("c1", 0, true, "in_progress", '{"call_id":"call_1","name":"plot","arguments":""}');
  for (const piece of ['{"lat": 30.2740', '84, "lon": 1.2', `e2, "r": ${doubles[3]}}`]) {
    dataPart("c1", 0, true, "in_progress", `{"arguments":${JSON.stringify(piece)}}`);
  }
  event('"object":"message","status":"completed","id":"c1","type":"function_call","role":"assistant"');
  event('"object":"message","status":"in_progress","id":"c2","type":"function_call","role":"assistant"');
  dataPart("c2", 0, false, "completed", `{"call_id":"call_2","name":"f","arguments":{"k":${doubles[5]},"n":12345678901234567890}}`);
  event('"object":"message","status":"completed","id":"c2","type":"function_call","role":"assistant"');
  // Arguments with a literal that overflows a double: both builds stop parsing at it.
  event('"object":"message","status":"in_progress","id":"c3","type":"function_call","role":"assistant"');
  for (const piece of ['{"x": 1e4', '00, "y": -0, "z": 1E2}']) {
    dataPart("c3", 0, true, "in_progress", `{"arguments":${JSON.stringify(piece)}}`);
  }
  event('"object":"response","status":"completed","id":"r1","created_at":1700000000');
  return { bytes: new TextEncoder().encode(lines.join("")), doubles };
}

test("lite: numbers assemble exactly as in the full package (text kept, doubles from the host)", () => {
  for (const seed of [1, 2, 3, 4]) {
    const { bytes, doubles } = numbersStream(seed);
    for (const [max, cutSeed] of [[bytes.length, 1], [97, seed], [5, seed + 10]]) {
      for (const options of [{}, { strict: true }]) {
        const points = [...randomCuts(bytes.length, max, cutSeed)];
        const ours = run(lite, bytes, points, options);
        assert.deepStrictEqual(ours, run(full, bytes, points, options),
          `seed ${seed}, cut every ≤${max} B, ${JSON.stringify(options)}`);
        // And both are right: what JSON.parse reads, the sums added, no false mismatch.
        assert.strictEqual(ours.outcome, "completed");
        const warnings = ours.batches.flat().filter((u) => u.type === "warning").map((u) => u.code);
        assert.deepStrictEqual(warnings, [], JSON.stringify(warnings));
        const [first, second] = ours.snapshot.output[0].content;
        assert.deepStrictEqual(first.data.d, doubles.map(Number));
        assert.deepStrictEqual([first.data.score, first.data.n, first.data.x, first.data.big],
          [0.1 + 0.2, 1e16, 3, 9007199254740992]);
        assert.deepStrictEqual(second.data, { half: 0.5, neg: -0, tiny: 5e-324, e: 100 });
        const [plot, f, overflow] = ours.toolCalls;
        assert.strictEqual(overflow.arguments, '{"x": 1e400, "y": -0, "z": 1E2}');
        assert.deepStrictEqual(plot.parsed, { lat: 30.274084, lon: 120, r: Number(doubles[3]) });
        assert.deepStrictEqual(JSON.parse(f.arguments), { k: Number(doubles[5]), n: 12345678901234567890 });
        assert.deepStrictEqual(f.parsed, JSON.parse(f.arguments));
      }
    }
  }
});
