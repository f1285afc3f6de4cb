// Hostile input, tried as an attacker (or a broken server) would: each case feeds agentwire an
// input that once killed the wasm instance, rewrote a finished answer, hid a broken tool call,
// let data replace prototypes, or cost more than linear time or memory. The runner
// (runners/hostile.mjs) runs each case in its own Node process, so a trap is a failure and not a
// crash of the suite, then checks that the instance still works; runners/browser.mjs runs them
// all in one page. Each case gets the package namespace and a node:assert/strict-like object.
const utf8 = (s) => new TextEncoder().encode(s);
const sse = (events) => events.map((e) => `data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`).join("");

const response = (seq, status, extra = {}) => ({
  sequence_number: seq, object: "response", status, error: null, id: "resp_1",
  created_at: 1700000000, completed_at: null, output: null, usage: null, session_id: "s1", ...extra,
});
const message = (seq, id, type, status, content = null, extra = {}) => ({
  sequence_number: seq, object: "message", status, error: null, id, type, role: "assistant",
  content, code: null, message: null, usage: null, metadata: null, ...extra,
});
const text = (seq, msg, index, delta, status, t) => ({
  sequence_number: seq, object: "content", status, error: null, type: "text", index, delta,
  msg_id: msg, text: t,
});
const data = (seq, msg, index, delta, status, d) => ({
  sequence_number: seq, object: "content", status, error: null, type: "data", index, delta,
  msg_id: msg, data: d,
});

/** Asserts that `fn` throws an AgentwireError with code `code`; returns it. */
function throwsCoded(assert, fn, code) {
  let caught;
  try { fn(); } catch (e) { caught = e; }
  assert.ok(caught instanceof Error, `expected a thrown Error, got ${String(caught)}`);
  assert.strictEqual(caught.name, "AgentwireError", `name of ${caught?.stack}`);
  assert.strictEqual(caught.code, code, `code of ${caught?.message}`);
  return caught;
}

async function rejectsCoded(assert, promise, code) {
  let caught;
  try { await promise; } catch (e) { caught = e; }
  assert.ok(caught instanceof Error, `expected a rejection, got ${String(caught)}`);
  assert.strictEqual(caught.code, code, `code of ${caught?.message}`);
  return caught;
}

const codes = (warnings) => warnings.map((w) => w.code);

/** The depth of a JSON value (a scalar is 0). */
function depth(value) {
  let max = 0;
  const stack = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop();
    if (v === null || typeof v !== "object") { max = Math.max(max, d); continue; }
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

const nested = (levels, open, close, inner = "1") => open.repeat(levels) + inner + close.repeat(levels);

/** A JS object nested `levels` deep: {a: {a: … 1}}. */
function deepObject(levels) {
  let v = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

/** A function_call message whose arguments stream in `pieces`, then complete (or not). */
function callStream(pieces, { complete = true, final } = {}) {
  const events = [
    response(0, "created"),
    message(1, "c1", "function_call", "in_progress"),
    data(2, "c1", 0, true, "in_progress", { call_id: "call_1", name: "write_file", arguments: "" }),
  ];
  let seq = 3;
  for (const piece of pieces) events.push(data(seq++, "c1", 0, true, "in_progress", { arguments: piece }));
  if (complete) {
    const args = final ?? pieces.join("");
    events.push(data(seq++, "c1", 0, false, "completed", { call_id: "call_1", name: "write_file", arguments: args }));
    events.push(message(seq++, "c1", "function_call", "completed"));
    events.push(response(seq++, "completed"));
  }
  return sse(events);
}

/** Pushes `stream` in chunks of `size` bytes, reading toolCalls() after each. */
function pushReadingCalls(asm, bytes, size) {
  for (let i = 0; i < bytes.length; i += size) {
    asm.push(bytes.subarray(i, i + size));
    asm.toolCalls();
  }
}

const HELLO_RUN = [
  response(0, "created"),
  message(1, "m1", "message", "in_progress"),
  text(2, "m1", 0, true, "in_progress", "Hello"),
  text(3, "m1", 0, false, "completed", "Hello"),
  message(4, "m1", "message", "completed", [text(null, "m1", 0, false, "completed", "Hello")]),
  response(5, "completed", { output: [message(null, "m1", "message", "completed", [text(null, "m1", 0, false, "completed", "Hello")])] }),
];

/** A Proxy whose every trap throws. */
function throwingProxy() {
  const boom = () => { throw new Error("trap"); };
  return new Proxy({}, { ownKeys: boom, get: boom, getOwnPropertyDescriptor: boom, getPrototypeOf: boom, has: boom });
}

/** An object whose one property is a getter that throws. */
function throwingGetter() {
  return Object.defineProperty({}, "x", { enumerable: true, get() { throw new Error("getter"); } });
}

function cyclic() {
  const a = { name: "a" };
  a.self = a;
  return a;
}

/** What every case is followed by: agentwire still assembles and builds. */
export function stillWorks(api, assert) {
  const rb = new api.ResponseBuilder();
  const frames = [rb.created()];
  const msg = rb.message();
  frames.push(msg.start());
  const part = msg.content("text");
  frames.push(part.delta("still "), part.delta("alive"), part.complete(), msg.complete(), rb.completed());
  rb.free();
  const asm = new api.StreamAssembler();
  for (const f of frames) asm.push(f);
  asm.finish();
  assert.strictEqual(asm.outcome, "completed");
  assert.strictEqual(asm.snapshot().output[0].content[0].text, "still alive");
  asm.free();
}

/** The cases, each followed by the check that agentwire still works (for one-page runs). */
export function checkedCases(cases) {
  return Object.fromEntries(Object.entries(cases).map(([name, run]) => [name, async (api, assert) => {
    await run(api, assert);
    stillWorks(api, assert);
  }]));
}

/** A run built, assembled and translated: agentwire works. */
function stillWorksFull({ ResponseBuilder, StreamAssembler, Translator }, assert) {
  const rb = new ResponseBuilder();
  const frames = [rb.created()];
  const msg = rb.message();
  const part = msg.content("data");
  frames.push(part.delta({ ok: true }), part.complete(), msg.complete(), rb.completed());
  rb.free();
  const asm = new StreamAssembler();
  const t = new Translator({ from: "agent-api", to: "ag-ui" });
  let out = "";
  for (const f of frames) {
    asm.push(f);
    out += new TextDecoder().decode(t.push(f));
  }
  asm.finish();
  assert.strictEqual(asm.outcome, "completed");
  assert.deepStrictEqual(asm.snapshot().output[0].content[0].data, { ok: true });
  assert.match(out, /RUN_FINISHED/);
  asm.free();
  t.free();
}

/**
 * A data event's memory, one case per shape and stage (each case runs in a fresh process, so
 * each measures from an unused instance). Each stage holds the value as a tree of serde_json
 * values (48 B each in wasm32): an array of one-digit numbers, 2 B of JSON per value, is the
 * worst case (~24× once parsed, up to about twice that while an array grows). Before: ~97× (32
 * MB reached the 4 GiB ceiling), and the assembler added a second tree for the content update.
 */
function memoryCases() {
  const shapes = [
    ["one-digit numbers (the worst case)", () => Array.from({ length: 2_000_000 }, (_, i) => i % 10), 56],
    ["objects with strings", () => Array.from({ length: 60_000 }, (_, i) => ({ id: i, name: `item number ${i}`, tags: ["a", "b"], price: i * 1.25 })), 24],
  ];
  const stages = [
    ["parseEvent", ({ parseEvent }, event) => parseEvent(event)],
    ["StreamAssembler push and snapshot()", ({ StreamAssembler }, event) => {
      const asm = new StreamAssembler();
      asm.push(`data: ${event}\n\n`);
      asm.finish();
      asm.snapshot();
      asm.free();
    }],
    ["Translator", ({ Translator }, event) => {
      const t = new Translator({ from: "agent-api", to: "openai-responses" });
      t.push(`data: ${event}\n\n`);
      t.finish();
      t.free();
    }],
  ];
  const cases = {};
  for (const [shape, value, bound] of shapes) {
    for (const [stage, run] of stages) {
      cases[`a data event of ${shape} costs under ${bound}× its JSON in wasm memory: ${stage}`] = (api, assert) => {
        const json = JSON.stringify({ n: value() });
        const event = `{"sequence_number":0,"object":"content","type":"data","index":0,"delta":false,"status":"completed","msg_id":"m1","data":${json}}`;
        const before = api.wasmMemoryBytes();
        run(api, event);
        const grown = api.wasmMemoryBytes() - before;
        assert.ok(grown < bound * json.length, `wasm memory grew ${(grown / json.length).toFixed(1)}× the input`);
      };
    }
  }
  return cases;
}

export const hostileCases = {
  // ---- 1. Nothing traps the instance --------------------------------------------------------

  "AG-UI state deepened by copy patches is refused past the depth limit"({ StreamAssembler }, assert) {
    const events = [{ type: "RUN_STARTED", threadId: "t", runId: "r" }, { type: "STATE_SNAPSHOT", snapshot: { a: 1 } }];
    for (let i = 0; i < 3000; i++) events.push({ type: "STATE_DELTA", delta: [{ op: "copy", from: "", path: "/a" }] });
    events.push({ type: "RUN_FINISHED", threadId: "t", runId: "r" });
    const asm = new StreamAssembler({ protocol: "ag-ui" });
    asm.push(utf8(sse(events)));
    asm.finish();
    const snap = asm.snapshot();
    assert.ok(depth(snap.state) <= 128, `state depth ${depth(snap.state)}`);
    assert.ok(codes(snap.warnings).includes("PATCH_FAILED"));
    assert.strictEqual(snap.outcome, "completed");
    JSON.stringify(snap);
    asm.free();
  },

  "AG-UI state doubled by copy patches is refused before it amplifies memory"({ StreamAssembler, wasmMemoryBytes }, assert) {
    // Each op copies the whole document into a new key: 40 ops would make 2^40 nodes.
    const ops = [];
    for (let i = 0; i < 40; i++) ops.push({ op: "copy", from: "", path: `/k${i}` });
    const events = [{ type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "STATE_SNAPSHOT", snapshot: { a: "x".repeat(100) } },
      { type: "STATE_DELTA", delta: ops },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" }];
    const before = wasmMemoryBytes();
    const asm = new StreamAssembler({ protocol: "ag-ui" });
    asm.push(utf8(sse(events)));
    asm.finish();
    const snap = asm.snapshot();
    assert.deepStrictEqual(snap.state, { a: "x".repeat(100) }, "the patch is refused whole");
    assert.ok(codes(snap.warnings).includes("PATCH_FAILED"));
    assert.ok(wasmMemoryBytes() - before < 64 * 1024 * 1024, `memory grew by ${wasmMemoryBytes() - before}`);
    asm.free();
  },

  "tool-call arguments nested 5,000 levels deep, read through toolCalls() after every chunk"({ StreamAssembler }, assert) {
    for (const [open, close] of [['{"a":', "}"], ["[", "]"]]) {
      const args = nested(5000, open, close);
      const pieces = [];
      for (let i = 0; i < args.length; i += 500) pieces.push(args.slice(i, i + 500));
      const asm = new StreamAssembler();
      pushReadingCalls(asm, utf8(callStream(pieces)), 1024);
      asm.finish();
      const [call] = asm.toolCalls();
      assert.strictEqual(call.arguments, args, "the raw arguments are kept exactly");
      assert.strictEqual(call.completed, true);
      assert.strictEqual(call.parsed, null, "too deep to parse");
      assert.match(call.argumentsError, /deeper than/);
      assert.ok(codes(asm.snapshot().warnings).includes("INVALID_ARGUMENTS"));
      JSON.stringify(asm.snapshot());
      asm.free();
    }
  },

  "tool-call arguments nested deep in an AG-UI stream"({ StreamAssembler }, assert) {
    const args = nested(4000, "[", "]");
    const events = [{ type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", parentMessageId: "m1" }];
    for (let i = 0; i < args.length; i += 300) events.push({ type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: args.slice(i, i + 300) });
    events.push({ type: "TOOL_CALL_END", toolCallId: "c1" }, { type: "RUN_FINISHED", threadId: "t", runId: "r" });
    const asm = new StreamAssembler({ protocol: "ag-ui" });
    pushReadingCalls(asm, utf8(sse(events)), 700);
    asm.finish();
    const [call] = asm.toolCalls();
    assert.strictEqual(call.arguments, args);
    assert.strictEqual(call.parsed, null);
    assert.strictEqual(call.completed, true);
    JSON.stringify(asm.snapshot());
    asm.free();
  },

  "the builder refuses a cyclic value with a coded error, wherever it is given"({ ResponseBuilder }, assert) {
    const rb = new ResponseBuilder();
    rb.created();
    const msg = rb.message();
    msg.start();
    const part = msg.content("data");
    throwsCoded(assert, () => part.delta({ x: cyclic() }), "INVALID_OPTION");
    throwsCoded(assert, () => part.set(cyclic()), "INVALID_OPTION");
    throwsCoded(assert, () => rb.toolOutput({ callId: "c", name: "f", output: cyclic() }), "INVALID_OPTION");
    throwsCoded(assert, () => msg.setUsage(cyclic()), "INVALID_OPTION");
    throwsCoded(assert, () => rb.message({ metadata: cyclic() }), "INVALID_OPTION");
    part.delta({ ok: true });
    part.complete();
    msg.complete();
    throwsCoded(assert, () => rb.completed({ usage: cyclic() }), "INVALID_OPTION");
    const last = new TextDecoder().decode(rb.completed());
    assert.match(last, /"status":"completed"/);
    rb.free();
  },

  "the builder refuses a value nested 3,000 levels deep, and one deeper than its reader accepts"({ ResponseBuilder, StreamAssembler }, assert) {
    for (const levels of [3000, 130]) {
      const rb = new ResponseBuilder();
      rb.created();
      const msg = rb.message();
      msg.start();
      const part = msg.content("data");
      throwsCoded(assert, () => part.delta(deepObject(levels)), "INVALID_OPTION");
      throwsCoded(assert, () => rb.toolOutput({ callId: "c", name: "f", output: deepObject(levels) }), "INVALID_OPTION");
      throwsCoded(assert, () => msg.setUsage(deepObject(levels)), "INVALID_OPTION");
      rb.free();
    }
    // The deepest value the builder accepts is read back whole.
    let frames = "";
    const rb = new ResponseBuilder();
    const dec = new TextDecoder();
    frames += dec.decode(rb.created());
    const msg = rb.message();
    frames += dec.decode(msg.start());
    const part = msg.content("data");
    let levels = 200;
    for (;;) {
      try { frames += dec.decode(part.delta(deepObject(levels))); break; } catch (e) {
        assert.strictEqual(e.code, "INVALID_OPTION");
        levels--;
      }
    }
    assert.ok(levels >= 64, `the builder accepts ${levels} levels`);
    frames += dec.decode(part.complete()) + dec.decode(msg.complete()) + dec.decode(rb.completed());
    const asm = new StreamAssembler({ strict: true });
    asm.push(frames);
    asm.finish();
    assert.strictEqual(asm.outcome, "completed");
    assert.strictEqual(depth(asm.snapshot().output[0].content[0].data), levels);
    asm.free();
  },

  "parseRequest, parseEvent and translate refuse deep documents with a code"({ parseRequest, parseEvent, Translator }, assert) {
    const deep = nested(100000, "[", "]");
    throwsCoded(assert, () => parseEvent(`{"object":"content","type":"data","data":{"a":${deep}}}`), "INVALID_JSON");
    throwsCoded(assert, () => parseRequest(`{"input":${deep}}`), "INVALID_JSON");
    const t = new Translator({ from: "agent-api", to: "ag-ui" });
    t.push(`data: {"object":"content","type":"data","msg_id":"m","data":{"a":${deep}}}\n\n`);
    t.finish();
    t.free();
  },

  // ---- 2. A finished answer stays finished --------------------------------------------------

  "nothing after the terminal response changes the answer or reaches the UI"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler();
    asm.push(sse(HELLO_RUN));
    const before = JSON.stringify(asm.snapshot().output);
    const late = asm.push(sse([
      text(6, "m1", 0, true, "in_progress", " <INJECTED>"),
      message(7, "m2", "message", "in_progress"),
      text(8, "m2", 0, true, "in_progress", "new message"),
      response(9, "in_progress"),
    ]));
    asm.finish();
    const snap = asm.snapshot();
    assert.strictEqual(JSON.stringify(snap.output), before, "the final answer is unchanged");
    assert.strictEqual(snap.status, "completed");
    assert.deepStrictEqual(late.filter((u) => u.type !== "warning"), [], "no update for the UI");
    assert.ok(late.filter((u) => u.type === "warning").every((u) => u.code === "EVENT_AFTER_END"));
    assert.ok(late.length >= 4, "each ignored event is reported");
    asm.free();
  },

  "nothing after the terminal response changes the answer (strict mode: an error)"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler({ strict: true });
    asm.push(sse(HELLO_RUN));
    throwsCoded(assert, () => asm.push(sse([text(6, "m1", 0, true, "in_progress", " <INJECTED>")])), "PROTOCOL_VIOLATION");
    assert.strictEqual(asm.snapshot().output[0].content[0].text, "Hello");
    asm.free();
  },

  "a completed part, message or tool call is not changed by later events"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler();
    asm.push(sse([
      response(0, "created"),
      message(1, "m1", "message", "in_progress"),
      text(2, "m1", 0, false, "completed", "Done."),
      text(3, "m1", 0, true, "in_progress", " More?"),
      message(4, "c1", "function_call", "in_progress"),
      data(5, "c1", 0, false, "completed", { call_id: "call_1", name: "read", arguments: '{"path":"a"}' }),
      data(6, "c1", 0, false, "completed", { call_id: "call_1", name: "delete", arguments: '{"path":"/"}' }),
      data(7, "c1", 0, true, "in_progress", { arguments: "x" }),
      message(8, "m3", "message", "completed", [text(null, "m3", 0, false, "completed", "Final")]),
      message(9, "m3", "message", "in_progress", [text(null, "m3", 0, false, "in_progress", "Rewritten")]),
    ]));
    asm.finish();
    const snap = asm.snapshot();
    const all = [...snap.output, ...(snap.incompleteMessages ?? [])];
    const m1 = all.find((m) => m.id === "m1");
    assert.strictEqual(m1.content[0].text, "Done.");
    const [call] = asm.toolCalls();
    assert.strictEqual(call.name, "read");
    assert.strictEqual(call.arguments, '{"path":"a"}');
    assert.deepStrictEqual(call.parsed, { path: "a" });
    const m3 = all.find((m) => m.id === "m3");
    assert.strictEqual(m3.status, "completed");
    assert.strictEqual(m3.content[0].text, "Final");
    assert.ok(codes(snap.warnings).filter((c) => c === "EVENT_AFTER_END").length >= 4, JSON.stringify(snap.warnings));
    asm.free();
  },

  "an AG-UI run's messages do not change after RUN_FINISHED"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler({ protocol: "ag-ui" });
    asm.push(sse([
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ]));
    const late = asm.push(sse([{ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: " <INJECTED>" }]));
    asm.finish();
    assert.strictEqual(asm.snapshot().messages[0].content, "Hello");
    assert.deepStrictEqual(late.filter((u) => u.type === "text"), []);
    asm.free();
  },

  // ---- 3. A broken tool call is never presented as valid ------------------------------------

  "a completed tool call whose arguments are not JSON has no parsed value and a warning"({ StreamAssembler }, assert) {
    const broken = '{"path": "notes/a.txt", "recursive": tr';
    const asm = new StreamAssembler();
    asm.push(callStream(['{"path": "notes/a.txt",', ' "recursive": tr']));
    const before = asm.toolCalls()[0];
    assert.strictEqual(before.completed, true);
    asm.finish();
    const [call] = asm.toolCalls();
    assert.strictEqual(call.arguments, broken);
    assert.strictEqual(call.completed, true);
    assert.strictEqual(call.parsed, null, "never the repaired preview");
    assert.strictEqual(typeof call.argumentsError, "string");
    assert.ok(codes(asm.snapshot().warnings).includes("INVALID_ARGUMENTS"));
    asm.free();
    // While streaming, the preview is there, and no error.
    const streaming = new StreamAssembler();
    streaming.push(callStream(['{"path": "notes/a.txt",', ' "recursive": tr'], { complete: false }));
    const [open] = streaming.toolCalls();
    assert.strictEqual(open.completed, false);
    assert.deepStrictEqual(open.parsed, { path: "notes/a.txt", recursive: true });
    assert.strictEqual(open.argumentsError, null);
    streaming.free();
  },

  "a valid completed tool call has argumentsError null"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler();
    asm.push(callStream(['{"path": "a"}']));
    const [call] = asm.toolCalls();
    assert.deepStrictEqual(call.parsed, { path: "a" });
    assert.strictEqual(call.argumentsError, null);
    asm.free();
  },

  "AG-UI TOOL_CALL_END and Responses arguments.done with broken arguments"({ StreamAssembler }, assert) {
    const agui = new StreamAssembler({ protocol: "ag-ui" });
    agui.push(sse([
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "rm", parentMessageId: "m1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"path": "/", "force": tr' },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ]));
    agui.finish();
    const [a] = agui.toolCalls();
    assert.strictEqual(a.completed, true);
    assert.strictEqual(a.parsed, null);
    assert.strictEqual(typeof a.argumentsError, "string");
    assert.ok(codes(agui.snapshot().warnings).includes("INVALID_ARGUMENTS"));
    agui.free();

    const oa = new StreamAssembler({ protocol: "openai-responses" });
    const args = '{"path": "/", "force": tr';
    oa.push(sse([
      { type: "response.created", sequence_number: 0, response: { id: "r1", object: "response", status: "in_progress", output: [] } },
      { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { type: "function_call", id: "fc1", call_id: "call_1", name: "rm", arguments: "", status: "in_progress" } },
      { type: "response.function_call_arguments.delta", sequence_number: 2, item_id: "fc1", output_index: 0, delta: args },
      { type: "response.function_call_arguments.done", sequence_number: 3, item_id: "fc1", output_index: 0, arguments: args },
    ]));
    const [b] = oa.toolCalls();
    assert.strictEqual(b.completed, true);
    assert.strictEqual(b.parsed, null);
    assert.strictEqual(typeof b.argumentsError, "string");
    oa.free();
  },

  // ---- 4. Values come out as JSON.parse makes them ------------------------------------------

  "a __proto__ key in data, state, results and metadata stays an own key"({ StreamAssembler }, assert) {
    const evil = '{"__proto__": {"isAdmin": true}, "n": {"__proto__": null}}';
    const asm = new StreamAssembler();
    asm.push(sse([
      response(0, "created"),
      message(1, "d1", "message", "in_progress", null, { metadata: JSON.parse(evil) }),
      `{"sequence_number":2,"object":"content","status":"completed","type":"data","index":0,"delta":false,"msg_id":"d1","data":${evil}}`,
    ]));
    asm.finish();
    const snap = asm.snapshot();
    String(snap);
    const check = (value, where) => {
      assert.strictEqual(Object.getPrototypeOf(value), Object.prototype, `${where}: prototype`);
      assert.ok(Object.prototype.hasOwnProperty.call(value, "__proto__"), `${where}: own __proto__`);
      assert.strictEqual(value.isAdmin, undefined, `${where}: isAdmin`);
      assert.deepStrictEqual(JSON.stringify(value), JSON.stringify(JSON.parse(evil)), `${where}: JSON`);
      String(value.n);
    };
    const msg = snap.incompleteMessages?.[0] ?? snap.output[0];
    check(msg.content[0].data, "data");
    check(msg.metadata, "metadata");
    asm.free();

    const agui = new StreamAssembler({ protocol: "ag-ui" });
    agui.push(sse([
      '{"type":"RUN_STARTED","threadId":"t","runId":"r"}',
      `{"type":"STATE_SNAPSHOT","snapshot":${evil}}`,
      `{"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"x","content":${evil}}`,
      `{"type":"RUN_FINISHED","threadId":"t","runId":"r","result":${evil}}`,
    ]));
    agui.finish();
    const s = agui.snapshot();
    String(s);
    check(s.state, "state");
    check(s.result, "result");
    check(s.messages.find((m) => m.id === "a1").content, "activity content");
    agui.free();
  },

  // ---- 5. Deduplication ---------------------------------------------------------------------

  "one bogus sequence_number does not hide the rest of the stream"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler();
    asm.push(sse([
      response(0, "created"),
      message(1, "m1", "message", "in_progress"),
      text(2, "m1", 0, true, "in_progress", "A"),
      text(1e15, "m1", 0, true, "in_progress", "?"),
      text(3, "m1", 0, true, "in_progress", "B"),
      text(4, "m1", 0, true, "in_progress", "C"),
      text(4, "m1", 0, true, "in_progress", "C"),
      message(5, "m1", "message", "completed"),
      response(6, "completed"),
    ]));
    asm.finish();
    const snap = asm.snapshot();
    assert.strictEqual(asm.outcome, "completed");
    const m = [...snap.output, ...(snap.incompleteMessages ?? [])][0];
    assert.strictEqual(m.content[0].text, "A?BC", "the replayed 4 is dropped, the rest applied");
    assert.ok(codes(snap.warnings).includes("DUPLICATE_EVENT"));
    asm.free();
  },

  // ---- 7. Smaller defects -------------------------------------------------------------------

  "past the warning cap, the TRUNCATED warning is kept and the dropped ones are counted"({ StreamAssembler }, assert) {
    const events = [response(0, "created")];
    for (let i = 0; i < 1500; i++) events.push(`{"object":"mystery_${i}"}`);
    const asm = new StreamAssembler();
    asm.push(sse(events));
    asm.finish();
    const { warnings } = asm.snapshot();
    assert.ok(warnings.length <= 1002, `${warnings.length} warnings`);
    assert.strictEqual(warnings.at(-1).code, "TRUNCATED");
    const dropped = warnings.find((w) => w.code === "TOO_MANY_WARNINGS");
    assert.ok(dropped, "the drop is reported");
    assert.match(dropped.message, /\d+/);
    asm.free();
  },

  "a lone surrogate escape does not drop the event"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler();
    asm.push(sse([response(0, "created"), message(1, "m1", "message", "in_progress")]) +
      'data: {"sequence_number":2,"object":"content","type":"text","index":0,"delta":true,"msg_id":"m1","text":"a\\ud800b"}\n\n');
    asm.finish();
    const m = asm.snapshot().incompleteMessages?.[0] ?? asm.snapshot().output[0];
    assert.strictEqual(m.content[0].text, "a\ufffdb");
    asm.free();
  },

  "a surrogate pair split across two string pushes stays one character"({ StreamAssembler }, assert) {
    const stream = sse([response(0, "created"), message(1, "m1", "message", "in_progress"), text(2, "m1", 0, true, "in_progress", "x😀y")]);
    const cut = stream.indexOf("😀") + 1; // between the two halves
    const asm = new StreamAssembler();
    const updates = [...asm.push(stream.slice(0, cut)), ...asm.push(stream.slice(cut)), ...asm.finish()];
    const textOut = updates.filter((u) => u.type === "text").map((u) => u.delta).join("");
    assert.strictEqual(textOut, "x😀y");
    asm.free();
  },

  "a content event of another type does not replace a tool call's part"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler();
    asm.push(sse([
      response(0, "created"),
      message(1, "c1", "function_call", "in_progress"),
      data(2, "c1", 0, true, "in_progress", { call_id: "call_1", name: "f", arguments: '{"a":1}' }),
      text(3, "c1", 0, true, "in_progress", "hijack"),
    ]));
    asm.finish();
    const calls = asm.toolCalls();
    assert.strictEqual(calls.length, 1, "the tool call is still there");
    assert.strictEqual(calls[0].arguments, '{"a":1}');
    assert.ok(codes(asm.snapshot().warnings).includes("INVALID_EVENT"));
    asm.free();
  },

  "a second response with another id is not adopted silently"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler();
    asm.push(sse([response(0, "created"), response(1, "in_progress", { id: "resp_other" })]));
    asm.finish();
    const snap = asm.snapshot();
    assert.strictEqual(snap.id, "resp_1");
    assert.ok(codes(snap.warnings).includes("INVALID_EVENT"), JSON.stringify(snap.warnings));
    asm.free();
  },

  async "translate() whose source fails midway ends with the target's failure event"({ translate }, assert) {
    const first = utf8(sse([response(0, "created"), message(1, "m1", "message", "in_progress"), text(2, "m1", 0, true, "in_progress", "Hi")]));
    async function* body() {
      yield first;
      throw new Error("connection reset");
    }
    for (const [to, pattern] of [["ag-ui", /"type":"RUN_ERROR"/], ["openai-responses", /response\.failed/], ["agent-api", /"status":"failed"/]]) {
      const out = translate(body(), { from: "agent-api", to });
      const reader = out.getReader();
      let textOut = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        textOut += new TextDecoder().decode(value);
      }
      assert.match(textOut, pattern, `${to}: ${textOut}`);
    }
  },

  "an error message names its offset once"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler({ maxEventBytes: 64 });
    const e = throwsCoded(assert, () => asm.push(`data: ${"x".repeat(200)}\n\n`), "EVENT_TOO_LARGE");
    assert.strictEqual(e.message.split("byte").length - 1 <= 1 || !/at byte \d+.*at byte \d+/.test(e.message), true, e.message);
    assert.ok(!/at byte \d+ at byte \d+/.test(e.message), e.message);
    asm.free();
  },

  // ---- 8. JS values that throw --------------------------------------------------------------

  "JS exceptions while reading options and values give a coded error, however often"({ StreamAssembler, ResponseBuilder, Translator, parseRequest }, assert) {
    for (let i = 0; i < 600; i++) {
      throwsCoded(assert, () => new StreamAssembler(throwingProxy()), "INVALID_OPTION");
      throwsCoded(assert, () => new StreamAssembler(throwingGetter()), "INVALID_OPTION");
      throwsCoded(assert, () => new ResponseBuilder(throwingProxy()), "INVALID_OPTION");
      throwsCoded(assert, () => new Translator(throwingGetter()), "INVALID_OPTION");
      const rb = new ResponseBuilder();
      rb.created();
      const msg = rb.message();
      msg.start();
      const part = msg.content("data");
      throwsCoded(assert, () => part.delta(throwingProxy()), "INVALID_OPTION");
      throwsCoded(assert, () => part.delta({ inner: throwingGetter() }), "INVALID_OPTION");
      throwsCoded(assert, () => msg.setUsage(throwingGetter()), "INVALID_OPTION");
      throwsCoded(assert, () => rb.message(throwingProxy()), "INVALID_OPTION");
      throwsCoded(assert, () => rb.completed(throwingGetter()), "INVALID_OPTION");
      throwsCoded(assert, () => rb.completed({ usage: throwingProxy() }), "INVALID_OPTION");
      part.delta({ fine: i });
      rb.free();
      if (i % 100 === 0) throwsCoded(assert, () => parseRequest(throwingProxy()), "INVALID_OPTION");
    }
    // Everything still works, and free() does not complain.
    const asm = new StreamAssembler();
    asm.push(sse(HELLO_RUN));
    assert.strictEqual(asm.outcome, "completed");
    asm.free();
  },

  // ---- Defence in depth: a trap loses one instance, not the process --------------------------

  async "a stack overflow inside wasm loses only its instance: old objects throw INSTANCE_LOST, new ones work, no finalizer throws"(api, assert) {
    const { StreamAssembler, ResponseBuilder, Translator, parseRequest, wasmMemoryBytes } = api;
    // AG-UI state 100 levels deep: snapshot() builds it in JS from wasm, level by level, so the
    // call needs much more stack inside wasm than outside.
    const deepState = sse([{ type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "STATE_SNAPSHOT", snapshot: deepObject(100) }]);
    const deep = () => {
      const asm = new StreamAssembler({ protocol: "ag-ui" });
      asm.push(deepState);
      return asm;
    };
    // Objects of the instance about to be lost, and many more left to the garbage collector.
    const old = deep();
    const rb = new ResponseBuilder();
    rb.created();
    const msg = rb.message();
    const part = msg.content("data");
    part.delta({ a: 1 });
    const translator = new Translator({ from: "agent-api", to: "ag-ui" });
    let release;
    const gate = new Promise((ok) => { release = ok; });
    const streamed = ResponseBuilder.stream(async (rb2) => {
      rb2.created();
      await gate;
      rb2.message().content("text").delta("after the loss");
    }, { onError: () => {} }).getReader();
    assert.match(new TextDecoder().decode((await streamed.read()).value), /"status":"created"/);
    for (let i = 0; i < 300; i++) deep();
    // Call snapshot() from every depth of a recursion that exhausts the stack, from the deepest
    // up, until a call ran out of stack inside a wasm frame. Each round uses one object (made with
    // the stack to spare), stops at its first loss, and the next round starts one depth above
    // it: at the first depth that fits the JS part of the call, the wasm part may overflow. Where
    // the depths fall depends on the engine's frame sizes, so the walk is repeated with the call
    // given 0, 1, 2, … unused arguments (8 more bytes of stack each).
    const inWasm = (e) => /wasm-function|wasm:\/\//.test(String((e.cause ?? e).stack));
    const errors = [];
    const made = [];
    let asm = null;
    const render = function () {
      return asm.snapshot();
    };
    for (let pad = 0; pad < 64 && !errors.some(inWasm); pad++) {
      const unused = new Array(pad).fill(0);
      let limit = Infinity;
      for (let round = 0; round < 50 && !errors.some(inWasm); round++) {
        asm = deep();
        made.push(asm);
        let state = "calling";
        let lostAt = -1;
        const sweep = (depth) => {
          try { sweep(depth + 1); } catch { /* the stack is exhausted below */ }
          if (state !== "calling" || depth >= limit) return;
          try {
            render.apply(null, unused);
            state = "through";
          } catch (e) {
            // Only what needs no stack here: the stack may be all but exhausted. (A RangeError
            // that escaped, the stack too short even for the coded error, still lost the
            // instance: the next call says INSTANCE_LOST, with the RangeError as its cause.)
            errors.push(e);
            if (e.code === "INSTANCE_LOST") {
              state = "lost";
              lostAt = depth;
            }
          }
        };
        sweep(0);
        if (state !== "lost") break;
        limit = lostAt;
      }
    }
    assert.ok(errors.some(inWasm), `no call overflowed inside wasm: ${errors.length} errors`);
    for (const e of errors) assert.ok(e.code === "INSTANCE_LOST" || (e instanceof RangeError && e.code === undefined), String(e));
    // Every object of the lost instance throws INSTANCE_LOST; free() never throws.
    for (const call of [() => old.push("data: {}\n\n"), () => old.snapshot(), () => old.toolCalls(),
      () => rb.created(), () => rb.message(), () => msg.content(), () => part.delta({ b: 2 }), () => part.complete(),
      () => rb.id, () => translator.push("data: {}\n\n"), () => translator.finish()]) {
      throwsCoded(assert, call, "INSTANCE_LOST");
    }
    assert.strictEqual(rb.finished, true);
    for (const o of [old, part, msg, rb, translator, ...made]) o.free();
    // A stream() whose builder was lost errors with INSTANCE_LOST rather than ending cut.
    release();
    await rejectsCoded(assert, (async () => { for (;;) if ((await streamed.read()).done) return; })(), "INSTANCE_LOST");
    // New objects, and the functions, work.
    stillWorksFull(api, assert);
    assert.strictEqual(parseRequest('{"input":[]}').input.length, 0);
    assert.ok(wasmMemoryBytes() > 0);
    // The lost instance's finalizers run and do nothing.
    globalThis.gc?.();
    await new Promise((ok) => setTimeout(ok, 20));
    globalThis.gc?.();
  },

  // ---- 8. Memory in proportion to the input -------------------------------------------------

  ...memoryCases(),

  "snapshot() of many messages costs memory in proportion to its JSON"({ StreamAssembler, wasmMemoryBytes }, assert) {
    const events = [response(0, "created")];
    for (let i = 0; i < 50_000; i++) events.push(message(i + 1, `msg_${i}`, "message", "in_progress"));
    const asm = new StreamAssembler();
    asm.push(sse(events));
    asm.finish();
    const before = wasmMemoryBytes();
    const snap = asm.snapshot();
    const grown = wasmMemoryBytes() - before;
    assert.strictEqual(snap.output.length, 50_000);
    const json = JSON.stringify(snap).length;
    // The snapshot's JSON text, plus the memory's growth reserve; not a copy of every message
    // and a value tree of the copies (6.6x its JSON).
    assert.ok(grown < 3 * json, `snapshot() grew wasm memory ${(grown / json).toFixed(1)}x its JSON`);
    asm.free();
  },

  "wasm memory grows in a few large steps, not one per allocation"({ ResponseBuilder, wasmMemoryBytes }, assert) {
    // Each memory.grow is new external memory to the JS engine's garbage collector: growing by
    // what each allocation needs made a first 100k-message builder run ~1,000 steps and as
    // many full collections.
    let last = wasmMemoryBytes();
    let steps = 0;
    const rb = new ResponseBuilder();
    rb.created();
    for (let i = 0; i < 20_000; i++) {
      const msg = rb.message();
      msg.start();
      const part = msg.content("text");
      part.delta(`hello world ${i}`);
      part.complete();
      msg.complete();
      const now = wasmMemoryBytes();
      if (now !== last) {
        steps++;
        last = now;
      }
    }
    rb.completed();
    rb.free();
    assert.ok(steps <= 30, `wasm memory grew in ${steps} steps`);
  },

  "the library reads its own output: a 17 MiB answer through collect() and translate()"({ ResponseBuilder, StreamAssembler, Translator }, assert) {
    const piece = "x".repeat(64 * 1024);
    const rb = new ResponseBuilder();
    const frames = [rb.created()];
    const msg = rb.message();
    frames.push(msg.start());
    const part = msg.content("text");
    for (let i = 0; i < 17 * 16; i++) frames.push(part.delta(piece));
    frames.push(part.complete(), msg.complete(), rb.completed());
    const asm = new StreamAssembler();
    for (const f of frames) asm.push(f);
    asm.finish();
    assert.strictEqual(asm.outcome, "completed");
    assert.strictEqual(asm.snapshot().output[0].content[0].text.length, 17 * 1024 * 1024);
    asm.free();
    const t = new Translator({ from: "agent-api", to: "openai-responses" });
    let out = 0;
    for (const f of frames) out += t.push(f).length;
    out += t.finish().length;
    assert.ok(out > 17 * 1024 * 1024);
    assert.ok(!t.warnings.some((w) => w.code === "INVALID_EVENT"), JSON.stringify(t.warnings.slice(0, 3)));
    t.free();
  },

  "content parts past the limit are reported, not dropped silently"({ StreamAssembler }, assert) {
    const content = Array.from({ length: 4100 }, (_, i) => text(null, "m1", i, false, "completed", `p${i}`));
    const asm = new StreamAssembler();
    asm.push(sse([response(0, "created"), message(1, "m1", "message", "completed", content)]));
    asm.finish();
    assert.ok(codes(asm.snapshot().warnings).includes("INVALID_EVENT"));
    asm.free();
    const strict = new StreamAssembler({ strict: true });
    throwsCoded(assert, () => strict.push(sse([response(0, "created"), message(1, "m1", "message", "completed", content)])), "INVALID_JSON");
    strict.free();
  },

  "A2A updates for another task are reported and not merged"({ StreamAssembler }, assert) {
    const status = (taskId, state, final = false) => ({ jsonrpc: "2.0", id: 1, result: { kind: "status-update", taskId, contextId: "ctx", status: { state }, final } });
    const artifact = (taskId, t) => ({ jsonrpc: "2.0", id: 1, result: { kind: "artifact-update", taskId, contextId: "ctx", artifact: { artifactId: "a1", parts: [{ kind: "text", text: t }] }, append: true } });
    const asm = new StreamAssembler({ protocol: "a2a" });
    asm.push(sse([
      { jsonrpc: "2.0", id: 1, result: { kind: "task", id: "task_1", contextId: "ctx", status: { state: "submitted" } } },
      status("task_1", "working"),
      artifact("task_1", "Hello"),
      artifact("task_evil", " <INJECTED>"),
      { jsonrpc: "2.0", id: 1, result: { kind: "task", id: "task_evil", contextId: "ctx", status: { state: "working" } } },
      status("task_1", "completed", true),
    ]));
    asm.finish();
    const snap = asm.snapshot();
    assert.strictEqual(snap.id, "task_1");
    const textOut = JSON.stringify(snap.output);
    assert.ok(!textOut.includes("INJECTED"), textOut);
    assert.ok(snap.warnings.length >= 2, JSON.stringify(snap.warnings));
    asm.free();
  },

  async "translate() refuses bodies that yield null, numbers, objects or Blobs, with a code"({ translate, StreamAssembler }, assert) {
    for (const bad of [null, 42, { a: 1 }, new Blob(["data: {}\n\n"])]) {
      async function* body() { yield bad; }
      const reader = translate(body(), { from: "agent-api", to: "ag-ui" }).getReader();
      await rejectsCoded(assert, (async () => { for (;;) { if ((await reader.read()).done) return; } })(), "INVALID_OPTION");
      await rejectsCoded(assert, StreamAssembler.collect(body()), "INVALID_OPTION");
    }
  },

  "maxEventBytes accepts 2**32 and larger"({ StreamAssembler }, assert) {
    new StreamAssembler({ maxEventBytes: 2 ** 32 }).free();
    new StreamAssembler({ maxEventBytes: Number.MAX_SAFE_INTEGER }).free();
    throwsCoded(assert, () => new StreamAssembler({ maxEventBytes: 0 }), "INVALID_OPTION");
    throwsCoded(assert, () => new StreamAssembler({ maxEventBytes: 1.5 }), "INVALID_OPTION");
  },

  "an unchanged MESSAGES_SNAPSHOT produces no order or replace update"({ StreamAssembler }, assert) {
    const snapshot = { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u1", role: "user", content: "hi" }, { id: "a1", role: "assistant", content: "hello" }] };
    const asm = new StreamAssembler({ protocol: "ag-ui" });
    asm.push(sse([{ type: "RUN_STARTED", threadId: "t", runId: "r" }, snapshot]));
    const again = asm.push(sse([snapshot]));
    assert.deepStrictEqual(again.filter((u) => u.type === "order" || u.type === "replace"), []);
    asm.free();
  },

  "toolCalls() with nothing changed returns the same list"({ StreamAssembler }, assert) {
    const events = [response(0, "created")];
    for (let i = 0; i < 2000; i++) {
      events.push(message(1 + 2 * i, `c${i}`, "function_call", "in_progress"));
      events.push(data(2 + 2 * i, `c${i}`, 0, false, "in_progress", { call_id: `call_${i}`, name: "f", arguments: "{}" }));
    }
    const asm = new StreamAssembler();
    asm.push(sse(events));
    const first = asm.toolCalls();
    assert.strictEqual(first.length, 2000);
    const second = asm.toolCalls();
    assert.strictEqual(second, first, "nothing changed: the same array");
    asm.free();
  },

  "parsed arguments of an object with 10,000 keys, read after every 1 KB chunk, stay exact"({ StreamAssembler }, assert) {
    const obj = {};
    for (let i = 0; i < 10000; i++) obj[`k${i}`] = i;
    const args = JSON.stringify(obj);
    const pieces = [];
    for (let i = 0; i < args.length; i += 1000) pieces.push(args.slice(i, i + 1000));
    const asm = new StreamAssembler();
    pushReadingCalls(asm, utf8(callStream(pieces)), 1024);
    asm.finish();
    const [call] = asm.toolCalls();
    assert.deepStrictEqual(call.parsed, obj);
    asm.free();
  },
};
