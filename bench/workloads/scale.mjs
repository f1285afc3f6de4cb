// Linear time and proportional memory (the hostile-streams issue):
// - StreamAssembler on Agent API streams of 10k, 100k and 1M `message` events with distinct ids
//   and a final `completed` response listing them all, pushed in one chunk (a body read whole:
//   one batch of updates for every message), against the JS pipeline (eventsource-parser +
//   JSON.parse + a Map by id); the targets check that 10× the messages cost at most 12× the
//   time (linear);
// - snapshot() of 200k messages, against JSON.parse of the same snapshot's JSON text;
// - printed by the first workload's setup, each measured in a fresh process
//   (bench/probes.mjs): wasm memory per input byte of each stage that reads a large value, and a
//   100k-message ResponseBuilder run on first use against the same run warm.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createParser } from "eventsource-parser";

const probes = fileURLToPath(new URL("../probes.mjs", import.meta.url));

function probe(...args) {
  const run = spawnSync(process.execPath, [probes, ...args], { encoding: "utf8", timeout: 600_000 });
  if (run.status !== 0) return { error: run.stderr.trim().split("\n").pop() };
  return JSON.parse(run.stdout.trim().split("\n").pop());
}

function printProbes() {
  if (process.env.BENCH_PROBES === "0") return;
  const { stages } = probe("list");
  const rows = [];
  for (const stage of stages ?? []) {
    const r = stage.startsWith("ResponseBuilder") ? probe("memory", stage, "64") : probe("memory", stage);
    rows.push({
      stage,
      input: r.error ?? `${(r.inputBytes / 1e6).toFixed(1)} MB`,
      "wasm memory grown": r.error ? "" : `${(r.grownBytes / 1e6).toFixed(0)} MB`,
      "per input byte": r.error ? "" : `${r.perByte.toFixed(1)}×`,
    });
  }
  console.log("wasm memory per input byte (one data event of 2,000,000 one-digit numbers; the builder: 64 MiB of text deltas), each stage in a fresh process:");
  console.table(rows);
  const cold = probe("cold", "100000");
  if (!cold.error) {
    console.log(`ResponseBuilder, 100k messages: first use ${cold.coldMs.toFixed(0)} ms, warm ${cold.warmMs.toFixed(0)} ms ` +
      `(${(cold.coldMs / cold.warmMs).toFixed(2)}× the warm run; wasm memory ${(cold.memoryBytes / 1e6).toFixed(0)} MB)`);
  }
}

/** `n` message events with distinct ids after a `created` response, then (with `final`) the
 * `completed` response listing every message, as SSE bytes. */
function messageStream(n, final = false) {
  const parts = [`data: {"sequence_number":0,"object":"response","status":"created","error":null,"id":"resp_1","created_at":1700000000,"completed_at":null,"output":null,"usage":null,"session_id":"s1"}\n\n`];
  for (let i = 0; i < n; i++) {
    parts.push(`data: {"sequence_number":${i + 1},"object":"message","status":"completed","error":null,"id":"msg_${i}","type":"message","role":"assistant","content":null,"code":null,"message":null,"usage":null,"metadata":null}\n\n`);
  }
  if (final) {
    const output = Array.from({ length: n }, (_, i) => `{"object":"message","status":"completed","id":"msg_${i}","type":"message","role":"assistant","content":[]}`);
    parts.push(`data: {"sequence_number":${n + 1},"object":"response","status":"completed","error":null,"id":"resp_1","created_at":1700000000,"completed_at":1700000001,"output":[${output.join(",")}],"usage":null,"session_id":"s1"}\n\n`);
  }
  return new TextEncoder().encode(parts.join(""));
}

function messagesSetup(n, first) {
  return () => {
    if (first) printProbes();
    return { chunks: [messageStream(n, true)], n };
  };
}

function oursMessages({ StreamAssembler }, { chunks }) {
  const asm = new StreamAssembler();
  try {
    let created = 0;
    for (const chunk of chunks) {
      for (const u of asm.push(chunk)) if (u.type === "message" && u.created) created++;
    }
    asm.finish();
    return created;
  } finally {
    asm.free();
  }
}

function theirsMessages({ chunks }) {
  const messages = new Map();
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      const e = JSON.parse(event.data);
      if (e.object === "message" && !messages.has(e.id)) messages.set(e.id, e);
    },
  });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return messages.size;
}

/** Linear: 10× the messages in at most 12× the time of the row before. */
function linear(previous) {
  return (r, all) => {
    const before = all.get(previous);
    if (!before) return [];
    const ratio = r.agentwire.median / before.agentwire.median;
    return [{ target: `≤ 12× the time of "${previous}" (10× the messages: linear)`, measured: `${ratio.toFixed(2)}×`, met: ratio <= 12 }];
  };
}

const messages = (n, label, extra) => ({
  name: `scale: ${label} message ids, one chunk`,
  baselineName: "TextDecoder + eventsource-parser 3.1.1 + JSON.parse + Map by id",
  unit: "messages",
  units: n,
  setup: messagesSetup(n, n === 10_000),
  agentwire: oursMessages,
  baseline: theirsMessages,
  verify: (ours, theirs) => {
    assert.equal(ours, n);
    assert.equal(theirs, n);
  },
  ...extra,
});

const SNAPSHOT_MESSAGES = 200_000;

export default [
  messages(10_000, "10k"),
  messages(100_000, "100k", { targets: linear("scale: 10k message ids, one chunk") }),
  // A run takes seconds: a short warm-up and few rounds.
  messages(1_000_000, "1M", { targets: linear("scale: 100k message ids, one chunk"), rounds: 3, warmups: 1 }),
  {
    name: "scale: snapshot() of 200k messages",
    baselineName: "JSON.parse of the snapshot's JSON text",
    unit: "messages",
    units: SNAPSHOT_MESSAGES,
    rounds: 5,
    warmups: 1,
    setup: () => ({ bytes: messageStream(SNAPSHOT_MESSAGES) }),
    // The assembler is built once per API (setup has none); the timed part is snapshot() alone.
    agentwire: (api, input) => {
      if (input.asm === undefined) {
        input.asm = new api.StreamAssembler();
        input.asm.push(input.bytes);
        input.asm.finish();
        input.json = JSON.stringify(input.asm.snapshot());
      }
      return input.asm.snapshot().output.length;
    },
    baseline: (input) => JSON.parse(input.json).output.length,
    verify: (ours, theirs) => {
      assert.equal(ours, SNAPSHOT_MESSAGES);
      assert.equal(theirs, SNAPSHOT_MESSAGES);
    },
  },
];
