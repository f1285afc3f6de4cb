// parseEvent on the same 100,000 events given as UTF-8 bytes (as a stream would deliver them),
// against TextDecoder + JSON.parse.
import assert from "node:assert/strict";
import { contentEvents } from "../fixtures.mjs";

export default {
  name: "parseEvent ×100k content deltas (Uint8Array)",
  baselineName: "TextDecoder + JSON.parse",
  unit: "events",
  units: 100_000,
  setup: () => {
    const encoder = new TextEncoder();
    return contentEvents(100_000).map((e) => encoder.encode(e));
  },
  agentwire: ({ parseEvent }, events) => events.map((e) => parseEvent(e)),
  baseline: (events) => {
    const decoder = new TextDecoder();
    return events.map((e) => JSON.parse(decoder.decode(e)));
  },
  verify: (ours, theirs) => assert.deepStrictEqual(ours.slice(0, 1000), theirs.slice(0, 1000)),
};
