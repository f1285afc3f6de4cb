// Resuming in JS: a ResponseBuilder stream with `eventIds: true` (every event carries `id: N`)
// in each protocol, cut at seeded random byte offsets (inside events too); the assembler is told
// `connectionLost()` and gets the stream again from its `lastEventId` (or from earlier: resent
// events are skipped); the final snapshot equals the uninterrupted run's.
import test from "node:test";
import assert from "node:assert/strict";
import { ResponseBuilder, StreamAssembler } from "agentwire";
import { xorshift32 } from "./reference-streams.mjs";

function run(protocol) {
  const rb = new ResponseBuilder({ protocol, eventIds: true, responseId: "r1", sessionId: "s1", threadId: "t", runId: "r" });
  const parts = [rb.created(), rb.inProgress()];
  const call = rb.toolCall({ type: "function", callId: "c1", name: "get_weather" });
  for (const piece of ['{"ci', 'ty": "杭', '州"}']) parts.push(call.arguments(piece));
  parts.push(call.complete());
  const text = rb.message().content("text");
  for (const word of "Sunny with a breeze — é✓ 23 degrees.".split(/(?<= )/)) parts.push(text.delta(word));
  parts.push(text.complete());
  parts.push(rb.completed({ closeOpen: true }));
  return Buffer.concat(parts.flat().filter(Boolean));
}

function eventsOf(bytes) {
  const text = bytes.toString("utf8");
  return text.split(/(?<=\n\n)/).filter(Boolean).map((e) => ({ id: Number(/^id: (\d+)/.exec(e)[1]), bytes: Buffer.from(e) }));
}

for (const protocol of ["agent-api", "openai-responses", "a2a", "a2a-0.3", "ag-ui"]) {
  test(`a ${protocol} stream cut anywhere and resumed from lastEventId assembles as the uninterrupted one`, () => {
    const stream = run(protocol);
    const events = eventsOf(stream);
    const expected = new StreamAssembler({ protocol });
    expected.push(stream);
    expected.finish();
    const want = JSON.stringify(expected.snapshot());
    const next = xorshift32(protocol.length * 7919);
    for (let trial = 0; trial < 60; trial++) {
      const asm = new StreamAssembler({ protocol });
      let connection = stream;
      for (let cuts = 1 + (next() % 4); cuts > 0; cuts--) {
        const at = next() % (connection.length + 1);
        asm.push(connection.subarray(0, at));
        asm.connectionLost();
        const cursor = asm.lastEventId === null ? -1 : Number(asm.lastEventId);
        const from = Math.max(0, cursor + 1 - (next() % 3));
        connection = Buffer.concat(events.filter((e) => e.id >= from).map((e) => e.bytes));
      }
      asm.push(connection);
      asm.finish();
      assert.equal(JSON.stringify(asm.snapshot()), want, `trial ${trial}`);
      assert.equal(asm.lastEventId, String(events.length - 1));
      asm.free();
    }
  });
}
