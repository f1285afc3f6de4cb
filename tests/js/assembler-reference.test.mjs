// The built package against the real reference (Node): streams that agentscope-runtime's runner
// and builder produced (tests/fixtures/reference, regenerated from the live reference by
// scripts/reference/check.sh) are re-chunked at seeded random points down to 1-byte chunks and
// assembled; `snapshot().output` must equal the reference's final `output` (ignoring the stale
// nested fields it leaves), the outcome must match, and the same stream cut before its terminal
// event must give `truncated` with every message received so far. Plus memory stability.
import test from "node:test";
import assert from "node:assert/strict";
import * as api from "agentwire";
import { assertCyclesKeepMemory, randomCuts, referenceStreams } from "./reference-streams.mjs";

const { StreamAssembler } = api;
const enc = new TextEncoder();

function payloads(bytes) {
  return new TextDecoder().decode(bytes).split("\n\n")
    .filter((e) => e.startsWith("data: ")).map((e) => JSON.parse(e.slice(6)));
}

function assemble(bytes, cuts) {
  const asm = new StreamAssembler();
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    asm.push(bytes.subarray(start, cut));
    start = cut;
  }
  asm.finish();
  const snapshot = asm.snapshot();
  asm.free();
  return snapshot;
}

/** Drops what the reference leaves stale in `output` (DESIGN.md, "Nested stale fields"). */
function normalize(output) {
  return output.map((m) => ({
    ...m,
    content: m.content?.map((p, i) => {
      const { sequence_number, status, delta, msg_id, ...rest } = p;
      return { ...rest, index: p.index ?? i };
    }) ?? null,
  }));
}

function expectedOutcome(last) {
  if (last.object === "response") return last.status === "completed" ? "completed" : last.status;
  if (last.object === undefined && "error" in last) return "failed";
  return "truncated";
}

for (const [name, bytes] of referenceStreams()) {
  test(`reference stream ${name}: same output as the reference at every chunking`, () => {
    const events = payloads(bytes);
    const last = events.at(-1);
    const seeds = [0xc0ffee, 1, 2, 3, 4, 5];
    const chunkings = [[], [...Array(bytes.length - 1).keys()].map((i) => i + 1),
      ...seeds.map((seed, i) => [...randomCuts(bytes.length, 2 + i * 13, seed)])];
    let first;
    for (const cuts of chunkings) {
      const snapshot = assemble(bytes, cuts);
      assert.strictEqual(snapshot.outcome, expectedOutcome(last));
      if (last.object === "response" && last.output) {
        assert.deepStrictEqual(normalize(snapshot.output), normalize(last.output));
      }
      if (first === undefined) first = snapshot;
      else assert.deepStrictEqual(snapshot, first, `${cuts.length} cuts changed the snapshot`);
    }
  });

  test(`reference stream ${name}: cut before its terminal event is truncated, keeping every message`, () => {
    const text = new TextDecoder().decode(bytes);
    const lastStart = text.lastIndexOf("data: ");
    if (lastStart <= 0) return;
    const cut = enc.encode(text.slice(0, lastStart));
    const snapshot = assemble(cut, [...randomCuts(cut.length, 7, 99)]);
    assert.strictEqual(snapshot.outcome, "truncated");
    const ids = new Set(snapshot.output.map((m) => m.id));
    for (const e of payloads(cut)) {
      const id = e.object === "message" ? e.id : e.object === "content" ? e.msg_id : undefined;
      if (id !== undefined) assert.ok(ids.has(id), `message ${id} lost`);
    }
    assert.ok(snapshot.warnings.some((w) => w.code === "TRUNCATED"));
  });
}

test("10,000 create/push/finish/free cycles do not grow the wasm memory", () => assertCyclesKeepMemory(api));
