// The reference streams (tests/fixtures/reference, copied next to the tests by scripts/test.sh)
// and the helpers the Node suites share to re-chunk and assemble them.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { xorshift32 } from "./seeded.mjs";

const dir = new URL("./reference/", import.meta.url);
const enc = new TextEncoder();

/** `[name, bytes]` of every SSE capture and every builder/runner event log (as SSE). */
export function referenceStreams() {
  const streams = [];
  for (const name of readdirSync(new URL("sse/", dir))) {
    if (name.endsWith(".sse")) streams.push([name, readFileSync(new URL(`sse/${name}`, dir))]);
  }
  for (const name of readdirSync(new URL("events/", dir))) {
    if (/^(builder|runner)_.*(?<!\.exclude_none)\.jsonl$/.test(name)) {
      const lines = readFileSync(new URL(`events/${name}`, dir), "utf8").split("\n").filter(Boolean);
      streams.push([name, enc.encode(lines.map((l) => `data: ${l}\n\n`).join(""))]);
    }
  }
  assert.ok(streams.length >= 8, `only ${streams.length} reference streams`);
  return streams;
}

export { xorshift32 };

/** Seeded cut points (`xorshift32`): the same cuts on every run, 1 to `max` bytes apart. */
export function* randomCuts(length, max, seed) {
  const next = xorshift32(seed);
  let at = 0;
  for (;;) {
    at += 1 + (next() % max);
    if (at >= length) return;
    yield at;
  }
}

/**
 * Asserts that 10,000 create/push/finish/free cycles of `api.StreamAssembler` on a reference
 * stream leave `api.wasmMemoryBytes()` where it was (after a warm-up).
 */
export function assertCyclesKeepMemory(api) {
  const [, bytes] = referenceStreams().find(([n]) => n === "process_agentscope.sse");
  const cycle = () => {
    const asm = new api.StreamAssembler();
    asm.push(bytes.subarray(0, 3000));
    asm.push(bytes.subarray(3000));
    asm.finish();
    asm.toolCalls();
    asm.snapshot();
    asm.free();
  };
  for (let i = 0; i < 200; i++) cycle(); // warm up: let the allocator reach its working size
  const before = api.wasmMemoryBytes();
  for (let i = 0; i < 10_000; i++) cycle();
  assert.strictEqual(api.wasmMemoryBytes(), before);
}
