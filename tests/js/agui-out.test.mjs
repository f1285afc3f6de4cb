// agentwire's AG-UI output through the real @ag-ui/client 1.0.0 (Node; pinned in the workspace's
// devDependencies), in-process: an AbstractAgent subclass whose run() replays the events runs the
// client's whole pipeline (compatibility boundary → enforcement → chunk expansion → verification
// → apply). Every stream must be accepted with no warning and no error, and the client's messages
// must equal StreamAssembler({protocol: "ag-ui"})'s and the AG-UI mapping of the Agent API run.
// Streams: every reference capture (tests/fixtures/reference: the runner's /process bodies and
// the builder/runner event corpus) translated from the Agent API, the same cut before its
// terminal event, and ResponseBuilder runs with protocol "ag-ui".
import test from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { ResponseBuilder, StreamAssembler, Translator } from "agentwire";
import { agUiMessagesOf } from "./agui-out-cases.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
// Run through scripts/test.sh, which sets AGENTWIRE_ROOT; without it these tests fail (a
// skipped differential would pass unseen) unless AGENTWIRE_ALLOW_SKIP=1 asks to skip them.
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;
const load = async (spec) => {
  if (!ROOT) throw new Error("AGENTWIRE_ROOT is not set: run through scripts/test.sh (AGENTWIRE_ALLOW_SKIP=1 skips)");
  return import(pathToFileURL(`${ROOT}/node_modules/${spec}`).href);
};
const dir = new URL("./reference/", import.meta.url);
const enc = new TextEncoder();
const dec = new TextDecoder();

function agentApiStreams() {
  const streams = [];
  for (const name of readdirSync(new URL("sse/", dir))) {
    if (name.endsWith(".sse")) streams.push([name, readFileSync(new URL(`sse/${name}`, dir))]);
  }
  for (const name of readdirSync(new URL("events/", dir))) {
    if (/^(builder|runner|status)_.*(?<!\.exclude_none)\.jsonl$/.test(name)) {
      const lines = readFileSync(new URL(`events/${name}`, dir), "utf8").split("\n").filter(Boolean);
      streams.push([name, enc.encode(lines.map((l) => `data: ${l}\n\n`).join(""))]);
    }
  }
  return streams;
}

const frames = (bytes) => dec.decode(bytes).split("\n\n").filter(Boolean).map((f) => JSON.parse(f.slice(6)));

function translate(bytes) {
  const t = new Translator({ from: "agent-api", to: "ag-ui" });
  try {
    const out = [...t.push(bytes), ...t.finish()];
    return new Uint8Array(out);
  } finally {
    t.free();
  }
}

function assemble(bytes, protocol) {
  const asm = new StreamAssembler({ protocol, strict: protocol === "ag-ui" });
  try {
    asm.push(bytes);
    asm.finish();
    return asm.snapshot();
  } finally {
    asm.free();
  }
}

async function client(events) {
  const { AbstractAgent } = await load("@ag-ui/client/dist/index.mjs");
  const rxjs = createRequire(`${ROOT}/package.json`)("rxjs");
  class ReplayAgent extends AbstractAgent {
    run() {
      return rxjs.from(events.map((e) => structuredClone(e)))
        .pipe(rxjs.concatMap((e) => rxjs.of(e).pipe(rxjs.delay(0))));
    }
  }
  const agent = new ReplayAgent({});
  const saved = { warn: console.warn, error: console.error };
  const said = [];
  console.warn = (...a) => said.push(["warn", a.map(String).join(" ")]);
  console.error = (...a) => said.push(["error", a.map(String).join(" ")]);
  let error;
  const seen = [];
  try {
    await agent.runAgent({}, { onEvent: ({ event }) => { seen.push(event.type); } });
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  } finally {
    console.warn = saved.warn;
    console.error = saved.error;
  }
  return { messages: JSON.parse(JSON.stringify(agent.messages)), error, said, seen };
}

async function check(name, agUi, expectedMessages) {
  const events = frames(agUi);
  const theirs = await client(events);
  assert.strictEqual(theirs.error, undefined, `${name}: @ag-ui/client rejected the stream`);
  assert.deepStrictEqual(theirs.said, [], `${name}: @ag-ui/client warned`);
  assert.deepStrictEqual(theirs.seen, events.map((e) => e.type), `${name}: events the client delivered`);
  const ours = assemble(agUi, "ag-ui");
  assert.strictEqual(ours.error?.source === "client" ? ours.error.message : undefined, undefined, name);
  assert.deepStrictEqual(ours.messages, theirs.messages, `${name}: StreamAssembler ≠ @ag-ui/client`);
  if (expectedMessages) assert.deepStrictEqual(theirs.messages, expectedMessages, `${name}: messages ≠ the Agent API run's`);
  return events.length;
}

test("@ag-ui/client 1.0.0 accepts every translated reference capture, whole and cut before its end", { skip }, async () => {
  let streams = 0;
  let events = 0;
  for (const [name, bytes] of agentApiStreams()) {
    const agUi = translate(bytes);
    const api = assemble(bytes, "agent-api");
    events += await check(name, agUi, api.outcome === "completed" ? agUiMessagesOf(api.output) : undefined);
    // Cut before the last event: the translation ends with RUN_ERROR INCOMPLETE_STREAM.
    const cut = dec.decode(bytes).split("\n\n").filter(Boolean);
    if (cut.length > 2) {
      const truncated = translate(enc.encode(cut.slice(0, -1).join("\n\n") + "\n\n"));
      events += await check(`${name} (cut)`, truncated);
      const last = frames(truncated).at(-1);
      assert.ok(last.type === "RUN_ERROR", `${name} (cut): ends with ${last.type}`);
    }
    streams++;
  }
  assert.ok(streams >= 12, `only ${streams} streams`);
  assert.ok(events > 200, `only ${events} events`);
});

test("@ag-ui/client 1.0.0 accepts ResponseBuilder runs with protocol ag-ui", { skip }, async () => {
  for (const end of ["completed", "failed", "canceled"]) {
    const build = (protocol) => {
      const rb = new ResponseBuilder({ protocol, sessionId: "t", responseId: "r" });
      const out = [rb.created(), rb.inProgress()];
      const r = rb.message({ type: "reasoning", id: "m_think" });
      const rc = r.content();
      out.push(rc.delta("Hmm, "), rc.delta("weather."), rc.complete(), r.complete());
      for (const [i, type] of ["function", "plugin", "mcp"].entries()) {
        const call = rb.toolCall({ type, name: "get_weather", callId: `call_${i}`, id: `m_call_${i}`, ...(type === "mcp" ? { serverLabel: "w" } : {}) });
        out.push(call.arguments('{"city": '), call.arguments('"Oslo"}'), call.complete());
        out.push(rb.toolOutput({ type, callId: `call_${i}`, output: `-${i}°C`, id: `m_out_${i}` }));
      }
      const m = rb.message({ id: "m_text" });
      const a = m.content();
      out.push(a.delta("Cold "), a.delta("everywhere ❄️"));
      const img = m.content("image");
      out.push(img.set("https://example.com/map.png"), img.complete());
      if (end === "completed") out.push(a.complete(), m.complete(), rb.completed({ usage: { input_tokens: 3, output_tokens: 2 } }));
      else if (end === "failed") out.push(rb.failed({ code: "MODEL_TIMEOUT", message: "timed out" }));
      else out.push(rb.canceled());
      rb.free();
      const bytes = new Uint8Array(out.reduce((n, b) => n + b.byteLength, 0));
      let at = 0;
      for (const b of out) { bytes.set(b, at); at += b.byteLength; }
      return bytes;
    };
    const agUi = build("ag-ui");
    const api = assemble(build("agent-api"), "agent-api");
    // The builder's own AG-UI output equals the translation of its Agent API output.
    assert.deepStrictEqual(frames(agUi), frames(translate(build("agent-api"))), end);
    await check(`builder ${end}`, agUi, end === "completed" ? agUiMessagesOf(api.output) : undefined);
  }
});
