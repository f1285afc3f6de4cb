// The published AG-UI conformance corpus (the `streams` of ../shared/conformance/ag-ui, read where
// it lives: tests/js/conformance.mjs) through the built package:
// each fixture's stream is served as SSE bytes (split into small chunks) to a StreamAssembler,
// and every `expect` key a stream consumer can observe is checked.
//
// Relaxations (README.upstream.md, "If you ever point this corpus at a third-party client"):
// none are needed for `warnings`/`noWarnings` (agentwire reproduces the client's texts) or for
// `unknown-enum-value-role-fatal` (agentwire mirrors @ag-ui/client 1.0's admitted gap). Skipped
// below: the request-side and version-gated era fixtures. `request` keys are checked natively
// (tests/agui_conformance.rs), since the assembler sends no request.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { StreamAssembler } from "agentwire";
import { conformanceUrl } from "./conformance.mjs";
import { writeScore } from "./runners/readme-score.mjs";

const DIR = conformanceUrl("ag-ui", "streams");
const SKIPPED = {
  "current-peer-declares-protocol-version": "request-side only, and pins the 1.1 client's protocolVersion '1.1'; agentwire speaks 1.0",
  "era-0-0-39-flattens-content": "request-side downgrade for a pinned 0.0.39 peer (translation the spec only permits)",
  "era-0-0-57-subagent-dropped-with-warning": "version-gated downgrade for a pinned 0.0.57 peer (translation the spec only permits)",
  "era-pinned-peer-omits-protocol-version": "request-side only: what a pinned client sends",
};

function subset(expected, actual, path) {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${path}: not an array`);
    assert.strictEqual(actual.length, expected.length, `${path}: length`);
    expected.forEach((e, i) => subset(e, actual[i], `${path}[${i}]`));
  } else if (expected !== null && typeof expected === "object") {
    assert.ok(actual !== null && typeof actual === "object", `${path}: not an object`);
    for (const [k, v] of Object.entries(expected)) {
      assert.ok(Object.hasOwn(actual, k), `${path}.${k}: missing`);
      subset(v, actual[k], `${path}.${k}`);
    }
  } else {
    assert.deepStrictEqual(actual, expected, path);
  }
}

function lookup(events, key) {
  const [index, ...rest] = key.split(".");
  let at = events[Number(index)];
  for (const p of rest) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, p)) return undefined;
    at = at[p];
  }
  return at;
}

function run(fixture, step) {
  const bytes = new TextEncoder().encode(
    fixture.stream.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""),
  );
  const asm = new StreamAssembler({ events: true });
  const updates = [];
  for (let i = 0; i < bytes.length; i += step) updates.push(...asm.push(bytes.subarray(i, i + step)));
  updates.push(...asm.finish());
  const snapshot = asm.snapshot();
  const protocol = asm.protocol;
  asm.free();
  return { snapshot, protocol, events: updates.filter((u) => u.type === "event").map((u) => u.event) };
}

function check(fixture, { snapshot, protocol, events }) {
  const expect = fixture.expect;
  assert.strictEqual(protocol, "ag-ui");
  const rejection = snapshot.error?.source === "client" ? snapshot.error.message : undefined;
  // A stream without a terminal event is `truncated` here (DESIGN.md); the corpus never ends so.
  const warnings = snapshot.warnings.map((w) => w.message);
  let checked = 0;
  for (const [key, want] of Object.entries(expect)) {
    checked++;
    switch (key) {
      case "outcome":
        assert.strictEqual(rejection === undefined ? "completed" : "failed", want, `outcome (${rejection})`);
        break;
      case "errorContains":
        assert.ok(rejection?.includes(want), `error ${rejection} lacks ${want}`);
        break;
      case "runError":
        assert.ok(events.some((e) => e.type === "RUN_ERROR" && (want === true || e.message.includes(want))), "RUN_ERROR delivered");
        break;
      case "eventTypes":
        assert.deepStrictEqual(events.map((e) => e.type), want);
        break;
      case "eventTypesAbsent":
        for (const t of want) assert.ok(!events.some((e) => e.type === t), `${t} delivered`);
        break;
      case "eventPaths":
        for (const [path, value] of Object.entries(want)) assert.deepStrictEqual(lookup(events, path), value, path);
        break;
      case "eventAbsentPaths":
        for (const path of want) assert.strictEqual(lookup(events, path), undefined, path);
        break;
      case "warnings":
        for (const needle of want) assert.ok(warnings.some((w) => w.includes(needle)), `no warning has ${needle}: ${warnings}`);
        break;
      case "noWarnings":
        if (want) assert.deepStrictEqual(warnings, []);
        break;
      case "messageCount":
        assert.strictEqual(snapshot.messages.length, want);
        break;
      case "messages":
        subset(want, snapshot.messages, "messages");
        break;
      case "state":
        subset(want, snapshot.state, "state");
        break;
      case "request":
      case "requestAbsentPaths":
        checked--; // checked natively (RunAgentInput); the assembler sends no request
        break;
      default:
        assert.fail(`unknown expect key ${key}`);
    }
  }
  return checked;
}

const names = readdirSync(DIR).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
const tally = { passed: 0, skipped: 0 };

test("the corpus is complete (68 fixtures, as MANIFEST.txt lists)", () => {
  const manifest = readFileSync(new URL("MANIFEST.txt", DIR), "utf8")
    .split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")).map((l) => l.replace(/\.json$/, ""));
  assert.deepStrictEqual([...manifest].sort(), names);
  assert.strictEqual(names.length, 68);
});

for (const name of names) {
  const fixture = JSON.parse(readFileSync(new URL(`${name}.json`, DIR), "utf8"));
  if (SKIPPED[name]) {
    test(`ag-ui conformance: ${name}`, { skip: SKIPPED[name] }, () => {});
    tally.skipped++;
    continue;
  }
  test(`ag-ui conformance: ${name}`, () => {
    assert.strictEqual(fixture.name, name);
    // Whole, and split into 7-byte chunks (through UTF-8 characters and frames).
    const whole = run(fixture, Number.MAX_SAFE_INTEGER);
    check(fixture, whole);
    const split = run(fixture, 7);
    check(fixture, split);
    // THINKING_* translation mints fresh ids, so only id-stable fixtures compare whole runs.
    if (!fixture.stream.some((e) => String(e.type).startsWith("THINKING_"))) {
      assert.deepStrictEqual(split.snapshot, whole.snapshot);
    }
    tally.passed++;
  });
}

test("ag-ui conformance: tally", () => {
  console.log(`# ag-ui conformance: ${tally.passed} passed, ${tally.skipped} skipped of ${names.length}`);
  if (process.env.AGENTWIRE_ROOT) {
    writeScore(process.env.AGENTWIRE_ROOT, "ag-ui", [
      "AG-UI", "AG-UI consumer corpus (`streams/`, `streams-1.0/`), read by `StreamAssembler`", "`ag-ui-protocol/ag-ui` @ 821b8c2",
      `${tally.passed} of ${names.length} fixtures pass, ${names.length - tally.passed - tally.skipped} fail, ${tally.skipped} not for a reader (request-side and version-gated fixtures)`,
    ]);
  }
  assert.strictEqual(tally.passed + tally.skipped, names.length);
});
