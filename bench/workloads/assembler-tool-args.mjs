// Tool-call arguments streamed one character per event (4,000 and 16,000 deltas), one event per
// push, the parsed arguments read after every push, against the AI SDK's pipeline: the same
// events through TextDecoder + eventsource-parser + JSON.parse, the raw arguments accumulated,
// and `parsePartialJson` (ai@6, the newest major on Node 20) after each delta.
import assert from "node:assert/strict";
import { createParser } from "eventsource-parser";
import { parsePartialJson } from "ai";
import { toolArgumentsPieces, toolArgumentsStream } from "../fixtures.mjs";

function encoded({ head, deltas, arguments: args }) {
  const encoder = new TextEncoder();
  return { head: encoder.encode(head), deltas: deltas.map((d) => encoder.encode(d)), arguments: args };
}

function setup(n) {
  return () => encoded(toolArgumentsStream(n));
}

// Large arguments in ~1 KB events, read after every push: an object of `keys` keys, an array of
// `count` numbers, and a flat string holding the 10,000-key object's JSON text (the same
// characters to read, as one string value instead of 10,000 members).
const objectArgs = (keys) => JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`key_${i}`, i])));
const arrayArgs = (count) => JSON.stringify(Array.from({ length: count }, (_, i) => (i * 7919) % 100000));
const stringArgs = (text) => JSON.stringify({ content: text });

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

const NAME_FLAT = "tool args: the 10,000-key object's text as one string, 1 KB per push, parsed after each push";
const NAME_OBJECT = "tool args: an object of 10,000 keys, 1 KB per push, parsed after each push";
const NAME_OBJECT_40K = "tool args: an object of 40,000 keys, 1 KB per push, parsed after each push";
const NAME_ARRAY = "tool args: an array of 50,000 numbers, 1 KB per push, parsed after each push";

/** Targets of a large-arguments row: within 3× of the flat string per byte, and linear. */
function largeTargets(name) {
  return (r, all) => {
    const flat = all.get(NAME_FLAT);
    if (!flat || name === NAME_FLAT) return [];
    const perByte = (row, bytes) => row.agentwire.median / bytes;
    const ratio = perByte(r, sizes[name]) / perByte(flat, sizes[NAME_FLAT]);
    return [{
      target: "within 3× of a flat string, per byte",
      measured: `${ratio.toFixed(2)}×`,
      met: ratio < 3,
    }];
  };
}

const sizes = {
  [NAME_FLAT]: stringArgs(objectArgs(10000)).length,
  [NAME_OBJECT]: objectArgs(10000).length,
  [NAME_OBJECT_40K]: objectArgs(40000).length,
  [NAME_ARRAY]: arrayArgs(50000).length,
};

const large = [
  [NAME_FLAT, () => stringArgs(objectArgs(10000))],
  [NAME_OBJECT, () => objectArgs(10000)],
  [NAME_OBJECT_40K, () => objectArgs(40000)],
  [NAME_ARRAY, () => arrayArgs(50000)],
].map(([name, args]) => ({
  ...common,
  name,
  unit: "KB",
  units: sizes[name] / 1000,
  setup: () => encoded(toolArgumentsPieces(args(), 1000)),
  agentwire: ours,
  baseline: theirs,
  verify,
  // The AI SDK re-parses everything after each push: quadratic, so a few rounds only.
  baselineRounds: 3,
  targets: name === NAME_OBJECT_40K
    ? (r, all) => {
      const small = all.get(NAME_OBJECT);
      if (!small) return [];
      const growth = r.agentwire.median / small.agentwire.median;
      const bytes = sizes[NAME_OBJECT_40K] / sizes[NAME_OBJECT];
      return [...largeTargets(name)(r, all), {
        target: `40,000 keys < 1.2 × ${bytes.toFixed(2)} (the size ratio) × the 10,000-key time (linear)`,
        measured: `${growth.toFixed(2)}×`,
        met: growth < 1.2 * bytes,
      }];
    }
    : largeTargets(name),
}));

export default [
  ...large,
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
