// Tool-call arguments streamed one character per event (4,000 and 16,000 deltas), one event per
// push, the parsed arguments read after every push, against the AI SDK's pipeline: the same
// events through TextDecoder + eventsource-parser + JSON.parse, the raw arguments accumulated,
// and `parsePartialJson` (ai@6, the newest major on Node 20) after each delta.
import assert from "node:assert/strict";
import { createParser } from "eventsource-parser";
import { parsePartialJson } from "ai";
import { toolArgumentsStream } from "../fixtures.mjs";

function setup(n) {
  return () => {
    const { head, deltas, arguments: args } = toolArgumentsStream(n);
    const encoder = new TextEncoder();
    return { head: encoder.encode(head), deltas: deltas.map((d) => encoder.encode(d)), arguments: args };
  };
}

function ours({ StreamAssembler }, { head, deltas }) {
  const asm = new StreamAssembler();
  try {
    asm.push(head);
    let parsed;
    for (const delta of deltas) {
      asm.push(delta);
      parsed = asm.toolCalls()[0].parsed;
    }
    return { parsed, raw: asm.toolCalls()[0].arguments };
  } finally {
    asm.free();
  }
}

async function theirs({ head, deltas }) {
  let raw = "";
  let pending = [];
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      const e = JSON.parse(event.data);
      if (e.object === "content" && e.type === "data" && e.data && typeof e.data.arguments === "string") {
        raw = e.delta ? raw + e.data.arguments : e.data.arguments;
        pending.push(raw);
      }
    },
  });
  parser.feed(decoder.decode(head, { stream: true }));
  pending = [];
  let parsed;
  for (const delta of deltas) {
    parser.feed(decoder.decode(delta, { stream: true }));
    for (const text of pending) parsed = (await parsePartialJson(text)).value;
    pending = [];
  }
  return { parsed, raw };
}

function verify(a, b, input) {
  const expected = JSON.parse(input.arguments);
  assert.equal(a.raw, input.arguments);
  assert.equal(b.raw, input.arguments);
  assert.deepStrictEqual(a.parsed, expected);
  assert.deepStrictEqual(b.parsed, expected);
}

const common = {
  baselineName: "eventsource-parser + JSON.parse + ai@6 parsePartialJson per delta",
  unit: "deltas",
};
const NAME_4K = "tool args: 4,000 one-char deltas, parsed after each push";
const NAME_16K = "tool args: 16,000 one-char deltas, parsed after each push";

export default [
  {
    ...common,
    name: NAME_4K,
    units: 4000,
    setup: setup(4000),
    agentwire: ours,
    baseline: theirs,
    verify,
    targets: (r) => [{
      target: "agentwire 4,000 deltas < 20 ms",
      measured: `${r.agentwire.median.toFixed(1)} ms`,
      met: r.agentwire.median < 20,
    }],
  },
  {
    ...common,
    name: NAME_16K,
    units: 16000,
    setup: setup(16000),
    agentwire: ours,
    baseline: theirs,
    verify,
    targets: (r, all) => {
      const small = all.get(NAME_4K);
      if (!small) return [];
      const growth = r.agentwire.median / small.agentwire.median;
      const theirGrowth = r.baseline.median / small.baseline.median;
      return [{
        target: "agentwire 16,000 < 4.5× the 4,000 time (linear)",
        measured: `${growth.toFixed(2)}× (AI SDK: ${theirGrowth.toFixed(2)}×)`,
        met: growth < 4.5,
      }];
    },
  },
];
