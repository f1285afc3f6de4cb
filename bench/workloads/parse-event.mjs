// parseEvent on 100,000 reference-shaped content deltas, against JSON.parse on the same strings.
// One wasm call and one JS object per event: the pattern the assembler avoids, so agentwire is
// expected to lose here; it is the floor later workloads are compared with.
import assert from "node:assert/strict";
import { contentEvents } from "../fixtures.mjs";

export default {
  name: "parseEvent ×100k content deltas",
  baselineName: "JSON.parse",
  unit: "events",
  units: 100_000,
  setup: () => contentEvents(100_000),
  agentwire: ({ parseEvent }, events) => events.map((e) => parseEvent(e)),
  baseline: (events) => events.map((e) => JSON.parse(e)),
  verify: (ours, theirs) => assert.deepStrictEqual(ours.slice(0, 1000), theirs.slice(0, 1000)),
};
