// ResponseBuilder: 100,000 text deltas (`content.delta(token)`, one Uint8Array SSE frame each),
// against a hand-written JS emitter that builds the same reference-shaped event object, calls
// JSON.stringify, frames it and encodes it with TextEncoder. Both produce byte-identical frames
// (checked by verify) and keep them only long enough to count their bytes.
//
// Setup also times the Python reference builder (bench/reference/builder_python.py, with
// .venv/bin/python when it exists; BENCH_PYTHON=0 skips it) on the same tokens and prints its
// events/s, so the table's numbers can be put next to it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { rng, text } from "../fixtures.mjs";

const N = 100_000;
const MSG_ID = "msg_00000000-0000-4000-8000-000000000000";
const root = fileURLToPath(new URL("../../", import.meta.url));

/** Tokens of 1–12 characters, ~10% multi-byte, like model output. */
function tokens(n) {
  const random = rng();
  return Array.from({ length: n }, () => text(random, 1 + Math.floor(random() * 12)));
}

function pythonReference(toks) {
  const python = `${root}.venv/bin/python`;
  if (process.env.BENCH_PYTHON === "0" || !existsSync(python)) return;
  const run = spawnSync(python, [`${root}bench/reference/builder_python.py`, String(toks.length)], {
    input: JSON.stringify(toks), encoding: "utf8", timeout: 300_000,
  });
  if (run.status !== 0) {
    console.log(`python reference builder: failed: ${run.stderr.trim().split("\n").pop()}`);
    return;
  }
  const r = JSON.parse(run.stdout);
  console.log(`python reference builder (agentscope-runtime ContentBuilder.add_text_delta + model_dump_json, ` +
    `${r.events} deltas): best ${r.ms.toFixed(1)} ms wall = ${(r.events / r.ms / 1000).toFixed(3)} M events/s; ` +
    `best ${r.cpu_ms.toFixed(1)} ms CPU = ${(r.events / r.cpu_ms / 1000).toFixed(3)} M events/s`);
}

/**
 * Counts the frames' bytes and a cheap checksum, keeping only the first frames (for verify), so
 * that neither side retains 100k arrays.
 */
function fold(acc, bytes) {
  acc.bytes += bytes.byteLength;
  acc.check = (acc.check * 31 + bytes[bytes.byteLength - 3] + bytes[24]) >>> 0;
  if (acc.first.length < 200) acc.first.push(dec.decode(bytes));
  return acc;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export default {
  name: "ResponseBuilder ×100k text deltas",
  baselineName: "JSON.stringify + TextEncoder",
  unit: "events",
  units: N,
  setup() {
    const toks = tokens(N);
    pythonReference(toks.slice(0, 20_000));
    return toks;
  },
  agentwire({ ResponseBuilder }, toks) {
    const rb = new ResponseBuilder({ responseId: "resp_1" });
    const message = rb.message({ id: MSG_ID });
    const content = message.content("text");
    message.start(); // created, in_progress and the message start: not part of the timing loop
    const acc = { bytes: 0, check: 0, first: [] };
    for (let i = 0; i < toks.length; i++) fold(acc, content.delta(toks[i]));
    rb.free();
    return acc;
  },
  baseline(toks) {
    const acc = { bytes: 0, check: 0, first: [] };
    let seq = 3;
    for (let i = 0; i < toks.length; i++) {
      const event = {
        sequence_number: seq++, object: "content", status: "in_progress", error: null, type: "text",
        index: 0, delta: true, msg_id: MSG_ID, text: toks[i],
      };
      fold(acc, enc.encode(`data: ${JSON.stringify(event)}\n\n`));
    }
    return acc;
  },
  verify(ours, theirs) {
    // Byte-identical frames: the first 200 compared whole, all of them by length and checksum.
    assert.deepStrictEqual(ours, theirs);
    assert.strictEqual(ours.first.length, 200);
  },
};
