// The frames a ResponseBuilder.stream() producer gets back from its emits are the bytes the
// stream carries, in order, and stay as they were: text deltas are copied out of wasm memory
// into buffers the stream shares between frames (a burst leaves as one view of them), so a
// later frame, a new buffer or a frame larger than one must never write over an earlier one.
import test from "node:test";
import assert from "node:assert/strict";
import { ResponseBuilder } from "agentwire";

async function bytesOf(stream) {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Where `needle` is in `haystack` from `from` on, or -1. */
function indexOf(haystack, needle, from) {
  const first = needle[0];
  for (let i = haystack.indexOf(first, from); i !== -1 && i + needle.length <= haystack.length; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

for (const eventIds of [false, true]) {
  test(`stream(): every delta's frame is intact and in the stream, in order (eventIds: ${eventIds})`, async () => {
    const frames = [];
    const copies = [];
    const keep = (frame) => {
      frames.push(frame);
      copies.push(frame.slice());
    };
    const stream = ResponseBuilder.stream(async (rb) => {
      const text = rb.message().content("text");
      for (let i = 0; i < 400; i++) {
        // Small frames, non-ASCII ones, and frames larger than a shared buffer (16 KiB).
        const piece = i % 97 === 50 ? "x".repeat(40_000) : i % 5 === 0 ? `é😀${i} ` : `w${i} `;
        keep(text.delta(piece));
        if (i % 13 === 0) await rb.ready();
      }
      keep(text.complete());
      const data = rb.message().content("data");
      keep(data.delta({ n: 1 })); // an object delta, between text ones
      const more = rb.message().content("text");
      for (let i = 0; i < 50; i++) keep(more.delta(`m${i} `));
    }, { eventIds });
    const bytes = await bytesOf(stream);
    let at = 0;
    frames.forEach((frame, i) => {
      assert.deepStrictEqual(frame, copies[i], `frame ${i} changed after it was returned`);
      const found = indexOf(bytes, frame, at);
      assert.notStrictEqual(found, -1, `frame ${i} is not in the stream after byte ${at}`);
      at = found + frame.length;
    });
    const text = new TextDecoder().decode(bytes);
    assert.ok(text.includes("é😀395 "));
    assert.ok(text.includes("x".repeat(40_000)));
  });
}

test("a delta outside a stream returns its own frame", () => {
  const rb = new ResponseBuilder();
  rb.created();
  const text = rb.message().content("text");
  const a = text.delta("one ");
  const b = text.delta("two ");
  assert.notStrictEqual(a.buffer, b.buffer);
  assert.ok(new TextDecoder().decode(a).includes("one "));
  assert.ok(new TextDecoder().decode(b).includes("two "));
  rb.free();
});
