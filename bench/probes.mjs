// Measurements that need a fresh process each, for `npm run bench` (workloads/scale.mjs runs
// them and prints their tables): WebAssembly memory never shrinks, and "first use" means a
// process whose wasm memory has not grown yet.
//   node bench/probes.mjs memory <stage> [numbers]   wasm memory grown by one stage, per input byte
//   node bench/probes.mjs cold [messages]            a builder run, first in the process and again
// Prints one JSON line.
import * as agentwire from "../pkg/node.js";

const [what, arg, count] = process.argv.slice(2);

/** One completed data event holding an array of `n` one-digit numbers (the worst case for a
 * parsed JSON tree: 2 bytes of text per element). */
function dataEvent(n) {
  const numbers = "[" + Array.from({ length: n }, (_, i) => i % 10).join(",") + "]";
  const event = `{"sequence_number":0,"object":"content","type":"data","index":0,"delta":false,"status":"completed","msg_id":"m1","data":{"n":${numbers}}}`;
  return { numbers, event };
}

const MAX = 64 * 1024 * 1024;
const stages = {
  parseEvent: ({ event }) => agentwire.parseEvent(event),
  parseRequest: ({ numbers }) =>
    agentwire.parseRequest(`{"input":[{"role":"user","content":[{"type":"data","data":{"n":${numbers}}}]}]}`),
  "StreamAssembler push": ({ event }) => {
    const asm = new agentwire.StreamAssembler({ maxEventBytes: MAX });
    asm.push(`data: ${event}\n\n`);
    return asm;
  },
  "StreamAssembler push + snapshot()": ({ event }) => {
    const asm = new agentwire.StreamAssembler({ maxEventBytes: MAX });
    asm.push(`data: ${event}\n\n`);
    asm.finish();
    asm.snapshot();
    return asm;
  },
  "Translator agent-api → openai-responses": ({ event }) => {
    const t = new agentwire.Translator({ from: "agent-api", to: "openai-responses", maxEventBytes: MAX });
    t.push(`data: ${event}\n\n`);
    t.finish();
    return t;
  },
  "parseEvent + push + snapshot() (the hostile case)": ({ event }) => {
    agentwire.parseEvent(event);
    const asm = new agentwire.StreamAssembler({ maxEventBytes: MAX });
    asm.push(`data: ${event}\n\n`);
    asm.finish();
    asm.snapshot();
    return asm;
  },
  "ResponseBuilder completed({closeOpen}) after text deltas": () => {
    // `count` is the text's size in MiB here (64 KiB deltas).
    const rb = new agentwire.ResponseBuilder();
    rb.created();
    const part = rb.message().content("text");
    const piece = "x".repeat(64 * 1024);
    const mib = Number(count ?? 16);
    for (let i = 0; i < mib * 16; i++) part.delta(piece);
    const before = agentwire.wasmMemoryBytes();
    rb.completed({ closeOpen: true });
    return { probeInput: mib * 1024 * 1024, probeBefore: before };
  },
};

if (what === "memory") {
  const input = dataEvent(Number(count ?? 2_000_000));
  const before = agentwire.wasmMemoryBytes();
  const result = stages[arg](input);
  const grown = agentwire.wasmMemoryBytes() - (result?.probeBefore ?? before);
  const size = result?.probeInput ?? input.numbers.length;
  console.log(JSON.stringify({ stage: arg, inputBytes: size, grownBytes: grown, perByte: grown / size }));
} else if (what === "cold") {
  const n = Number(arg ?? 100_000);
  const run = () => {
    const t = performance.now();
    const rb = new agentwire.ResponseBuilder();
    rb.created();
    for (let i = 0; i < n; i++) {
      const msg = rb.message();
      msg.start();
      const part = msg.content("text");
      part.delta(`hello world ${i}`);
      part.complete();
      msg.complete();
    }
    rb.completed();
    rb.free();
    return performance.now() - t;
  };
  const cold = run();
  const warm = Math.min(run(), run());
  console.log(JSON.stringify({ messages: n, coldMs: cold, warmMs: warm, memoryBytes: agentwire.wasmMemoryBytes() }));
} else {
  console.log(JSON.stringify({ stages: Object.keys(stages) }));
}
