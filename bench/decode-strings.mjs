// How fast each way of making a JS string from text in wasm memory is (bench/README.md,
// "64–512 B chunks"): 45,000 texts of 80–200 characters, ~10% of them multi-byte, read from a
// WebAssembly.Memory as UTF-8, as UTF-16, and (all-ASCII texts) as Latin-1. Prints ns per string
// (median of 11 runs after 5 warm-up runs). Run: node bench/decode-strings.mjs
import { Buffer } from "node:buffer";
import { rng, text } from "./fixtures.mjs";

const N = 45_000;
const random = rng(7);
const texts = Array.from({ length: 2000 }, () => text(random, 80 + Math.floor(random() * 120)));
const ascii = Array.from({ length: 2000 }, (_, i) => "x".repeat(100 + (i % 100)));
const memory = new WebAssembly.Memory({ initial: 512 });
const bytes = new Uint8Array(memory.buffer);
const units = new Uint16Array(memory.buffer);
const buffer = Buffer.from(memory.buffer);
const encoder = new TextEncoder();

// Lays `list` out from byte `at` as UTF-8 (or from unit `at` as UTF-16); returns [start, end) pairs.
function layUtf8(list, at) {
  return list.map((s) => {
    const encoded = encoder.encode(s);
    bytes.set(encoded, at);
    at += encoded.length;
    return [at - encoded.length, at];
  });
}
function layUtf16(list, at) {
  return list.map((s) => {
    for (let i = 0; i < s.length; i++) units[at + i] = s.charCodeAt(i);
    at += s.length;
    return [at - s.length, at];
  });
}
const utf8 = layUtf8(texts, 1 << 20);
const utf16 = layUtf16(texts, 4 << 20);
const latin1 = layUtf8(ascii, 16 << 20);

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
const decoder16 = new TextDecoder("utf-16le", { ignoreBOM: true });
const loop = (spans, make) => () => {
  let n = 0;
  for (let i = 0; i < N; i++) {
    const [a, b] = spans[i % spans.length];
    n += make(a, b).length;
  }
  return n;
};
const ways = {
  "TextDecoder utf-8": loop(utf8, (a, b) => decoder.decode(bytes.subarray(a, b))),
  "Buffer#toString utf8": loop(utf8, (a, b) => buffer.toString("utf8", a, b)),
  "String.fromCharCode (UTF-16)": loop(utf16, (a, b) => String.fromCharCode.apply(null, units.subarray(a, b))),
  "TextDecoder utf-16le": loop(utf16, (a, b) => decoder16.decode(bytes.subarray(2 * a, 2 * b))),
  "Buffer#toString utf16le": loop(utf16, (a, b) => buffer.toString("utf16le", 2 * a, 2 * b)),
  "ASCII: TextDecoder utf-8": loop(latin1, (a, b) => decoder.decode(bytes.subarray(a, b))),
  "ASCII: Buffer#toString latin1": loop(latin1, (a, b) => buffer.toString("latin1", a, b)),
};
for (const [name, run] of Object.entries(ways)) {
  for (let i = 0; i < 5; i++) run();
  const times = [];
  for (let i = 0; i < 11; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  times.sort((x, y) => x - y);
  console.log(`${name.padEnd(32)} ${((times[5] * 1e6) / N).toFixed(0).padStart(5)} ns/string`);
}
