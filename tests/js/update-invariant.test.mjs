// The promise a UI relies on: applying the update batches in order gives exactly what
// `snapshot()` holds (messages, parts, texts, tool calls), for every protocol and every stream,
// faulty ones included. The reducer (update-reducer.mjs) is written from the documented meaning
// of updates. Streams: the reference captures (Agent API `/process`, builder and runner logs),
// a live reference AgentApp's `/process`, `/compatible-mode/v1/responses` and `/ag-ui` streams
// (tests/fixtures/reference/live; its Responses stream repeats reasoning deltas and names wrong
// output indices), the AG-UI conformance corpus (../shared/conformance/ag-ui); each whole, in seeded random chunks, in 1-byte
// chunks, and cut before its end.
import test from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { StreamAssembler, Translator } from "agentwire";
import { randomCuts, referenceStreams } from "./reference-streams.mjs";
import { UpdateReducer, assertHoldsSnapshot } from "./update-reducer.mjs";
import { conformanceUrl } from "./conformance.mjs";

const enc = new TextEncoder();

function liveStreams() {
  const dir = new URL("./reference/live/", import.meta.url);
  const names = readdirSync(dir).filter((n) => n.endsWith(".sse")).sort();
  assert.ok(names.length >= 12, `only ${names.length} live reference streams`);
  return names.map((n) => [`live/${n}`, readFileSync(new URL(n, dir))]);
}

function aguiStreams() {
  const dir = conformanceUrl("ag-ui", "streams");
  return readdirSync(dir).filter((n) => n.endsWith(".json")).sort().map((n) => {
    const fixture = JSON.parse(readFileSync(new URL(n, dir), "utf8"));
    const sse = fixture.stream.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
    return [`ag-ui/${n}`, enc.encode(sse), "ag-ui"];
  });
}

function check(name, bytes, cuts, protocol) {
  const asm = new StreamAssembler(protocol ? { protocol } : undefined);
  // Made once the protocol is known (at the first event; updates come from events).
  let reducer;
  const apply = (batch) => {
    reducer ??= batch.length > 0 ? new UpdateReducer(asm.protocol) : undefined;
    reducer?.apply(batch);
  };
  let start = 0;
  try {
    for (const cut of [...cuts, bytes.length]) {
      apply(asm.push(bytes.subarray(start, cut)));
      start = cut;
    }
    apply(asm.finish());
    reducer ??= new UpdateReducer(asm.protocol);
    assertHoldsSnapshot(reducer, asm.snapshot(), asm.protocol, name);
  } finally {
    asm.free();
  }
}

function chunkings(bytes, seed) {
  const all = [["whole", []], ["random chunks", [...randomCuts(bytes.length, 64, seed)]]];
  if (bytes.length <= 20_000) all.push(["1-byte chunks", Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)]);
  return all;
}

/** A stream in another protocol, as agentwire's translator writes it. */
function translated(bytes, to) {
  const t = new Translator({ from: "agent-api", to });
  try {
    const out = [t.push(bytes), t.finish()];
    const all = new Uint8Array(out[0].length + out[1].length);
    all.set(out[0]);
    all.set(out[1], out[0].length);
    return all;
  } finally {
    t.free();
  }
}

const reference = referenceStreams().map(([n, b]) => [`reference/${n}`, b]);
const streams = [
  ...reference,
  ...["openai-responses", "a2a", "a2a-0.3", "ag-ui"].flatMap((to) =>
    reference.map(([n, b]) => [`${n} → ${to}`, translated(b, to)])),
  ...liveStreams(),
  ...aguiStreams(),
];

for (const [i, [name, bytes, protocol]] of streams.entries()) {
  test(`applying the updates gives the snapshot: ${name}`, () => {
    for (const [how, cuts] of chunkings(bytes, 0x9e3779b9 ^ i)) check(`${name} (${how})`, bytes, cuts, protocol);
    // Cut before its end: a truncated stream keeps the promise too.
    let end = Math.floor(bytes.length * 0.6);
    while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1; // not inside a character
    const cut = bytes.subarray(0, end);
    check(`${name} (cut at 60%)`, cut, [...randomCuts(cut.length, 64, i + 1)], protocol);
  });
}
