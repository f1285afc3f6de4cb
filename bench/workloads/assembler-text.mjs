// StreamAssembler on 100,000 Agent API text deltas (reference wire shape, ~10% multi-byte
// characters, 4 messages), the same bytes cut at seeded points into 4–16 KB chunks (network-like)
// and into 64–512 B chunks, against the JS pipeline a UI would write by hand:
// TextDecoder({stream: true}) + eventsource-parser 3.1.1 + JSON.parse + a Map accumulator.
// Both sides push every chunk, finish, and end with the text of every part: agentwire's by folding
// the text updates push() returns (what a UI renders), the baseline's in its Map. A third row
// reads the text from snapshot() instead (one more crossing of all the text), without a target;
// two more run the first two against agentwire/lite (built for size), without a target. The
// reference's wire shape makes events of ~232 B on average; the last two rows use events of the
// size the benchmark's specification names (mean ~130 B), in the shorter shape the peer
// measurements used (fixtures.mjs, `shortTextDeltaStream`), with the same target.
import assert from "node:assert/strict";
import { createParser } from "eventsource-parser";
import { chunkBytes, shortTextDeltaStream, textDeltaStream } from "../fixtures.mjs";

const EVENTS = 100_000;

function setup(min, max, stream = textDeltaStream) {
  return () => {
    const { sse, texts } = stream(EVENTS);
    const bytes = new TextEncoder().encode(sse);
    return { chunks: chunkBytes(bytes, min, max), texts, bytes: bytes.length };
  };
}

function fold(texts, updates) {
  for (const u of updates) {
    if (u.type === "text") {
      const key = `${u.messageId}#${u.index}`;
      texts.set(key, u.replace ? u.delta : (texts.get(key) ?? "") + u.delta);
    }
  }
}

function ours({ StreamAssembler }, { chunks }) {
  const asm = new StreamAssembler();
  try {
    const texts = new Map();
    for (const chunk of chunks) fold(texts, asm.push(chunk));
    fold(texts, asm.finish());
    return { texts, outcome: asm.outcome };
  } finally {
    asm.free();
  }
}

function oursSnapshot({ StreamAssembler }, { chunks }) {
  const asm = new StreamAssembler();
  try {
    for (const chunk of chunks) asm.push(chunk);
    asm.finish();
    const texts = new Map();
    for (const message of asm.snapshot().output) {
      for (const part of message.content ?? []) {
        if (part.type === "text") texts.set(`${message.id}#${part.index}`, part.text);
      }
    }
    return { texts, outcome: asm.outcome };
  } finally {
    asm.free();
  }
}

function theirs({ chunks }) {
  const texts = new Map();
  let outcome = "truncated";
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      const e = JSON.parse(event.data);
      if (e.object === "content" && e.type === "text") {
        const key = `${e.msg_id}#${e.index}`;
        texts.set(key, e.delta ? (texts.get(key) ?? "") + e.text : e.text);
      } else if (e.object === "response" && e.status === "completed") {
        outcome = "completed";
      }
    },
  });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  parser.reset({ consume: true });
  return { texts, outcome };
}

function verify(a, b, input) {
  assert.equal(a.outcome, "completed");
  assert.equal(b.outcome, "completed");
  assert.deepStrictEqual(a.texts, input.texts);
  assert.deepStrictEqual(b.texts, input.texts);
}

const targets = (r) => {
  const ratio = r.baseline.median / r.agentwire.median;
  return [{ target: "≥ 2× the events/s of the JS pipeline", measured: `${ratio.toFixed(2)}×`, met: ratio >= 2 }];
};

const common = {
  baselineName: "TextDecoder + eventsource-parser 3.1.1 + JSON.parse + Map",
  unit: "events",
  units: EVENTS,
  agentwire: ours,
  baseline: theirs,
  verify,
  targets,
};

export default [
  { ...common, name: "assembler: 100k text deltas, 4–16 KB chunks", setup: setup(4096, 16384) },
  { ...common, name: "assembler: 100k text deltas, 64–512 B chunks", setup: setup(64, 512) },
  {
    ...common,
    name: "assembler: 100k text deltas, 4–16 KB chunks, text read from snapshot()",
    setup: setup(4096, 16384),
    agentwire: oursSnapshot,
    targets: undefined,
  },
  { ...common, name: "assembler (agentwire/lite): 100k text deltas, 4–16 KB chunks", setup: setup(4096, 16384), lite: true, targets: undefined },
  { ...common, name: "assembler (agentwire/lite): 100k text deltas, 64–512 B chunks", setup: setup(64, 512), lite: true, targets: undefined },
  { ...common, name: "assembler: 100k ~130 B text deltas (short shape), 4–16 KB chunks", setup: setup(4096, 16384, shortTextDeltaStream) },
  { ...common, name: "assembler: 100k ~130 B text deltas (short shape), 64–512 B chunks", setup: setup(64, 512, shortTextDeltaStream) },
];
