// StreamAssembler cases, run in every runtime (Node, Deno, workerd, Chromium) like cases.mjs.
const utf8 = (s) => new TextEncoder().encode(s);
const sse = (events) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

const response = (seq, status, extra = {}) => ({
  sequence_number: seq, object: "response", status, error: null, id: "resp_1",
  created_at: 1700000000, completed_at: null, output: null, usage: null, session_id: "s1", ...extra,
});
const message = (seq, id, type, status, content = null) => ({
  sequence_number: seq, object: "message", status, error: null, id, type, role: "assistant",
  content, code: null, message: null, usage: null, metadata: null,
});
const text = (seq, msg, index, delta, status, t) => ({
  sequence_number: seq, object: "content", status, error: null, type: "text", index, delta,
  msg_id: msg, text: t,
});
const data = (seq, msg, delta, status, d) => ({
  sequence_number: seq, object: "content", status, error: null, type: "data", index: 0, delta,
  msg_id: msg, data: d,
});

/** A complete run: text with multi-byte characters, a streamed tool call, its output. */
export const RUN = sse([
  response(0, "created"),
  response(1, "in_progress"),
  message(2, "m1", "message", "in_progress"),
  text(3, "m1", 0, true, "in_progress", "Héllo "),
  text(4, "m1", 0, true, "in_progress", "中文 👩‍💻"),
  text(5, "m1", 0, false, "completed", "Héllo 中文 👩‍💻"),
  message(6, "m1", "message", "completed", [text(null, "m1", 0, false, "completed", "Héllo 中文 👩‍💻")]),
  message(7, "c1", "function_call", "in_progress"),
  data(8, "c1", true, "in_progress", { call_id: "call_1", name: "get_weather", arguments: "" }),
  data(9, "c1", true, "in_progress", { arguments: '{"city": "Hang' }),
  data(10, "c1", true, "in_progress", { arguments: 'zhou"}' }),
  data(11, "c1", false, "completed", { call_id: "call_1", name: "get_weather", arguments: '{"city": "Hangzhou"}' }),
  message(12, "c1", "function_call", "completed"),
  { ...message(13, "o1", "function_call_output", "in_progress"), role: "tool" },
  data(14, "o1", false, "completed", { call_id: "call_1", name: "get_weather", output: "Sunny" }),
  { ...message(15, "o1", "function_call_output", "completed"), role: "tool" },
  response(16, "completed", { completed_at: 1700000001 }),
]);

/** A small AG-UI run: chunked text, a tool call, its result, a state delta. */
export const AGUI_RUN = sse([
  { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
  { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "Héllo " },
  { type: "TEXT_MESSAGE_CHUNK", delta: "中文 👩‍💻" },
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "get_weather", parentMessageId: "m1" },
  { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"city":' },
  { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '"Oslo"}' },
  { type: "TOOL_CALL_END", toolCallId: "c1" },
  { type: "TOOL_CALL_RESULT", messageId: "t1m", toolCallId: "c1", content: "-3°C" },
  { type: "STATE_DELTA", delta: [{ op: "add", path: "/lastCity", value: "Oslo" }] },
  { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
]);

/** Folds text updates into `{messageId#index: text}`. */
function foldText(updates, into = {}) {
  for (const u of updates) {
    if (u.type !== "text") continue;
    const key = `${u.messageId}#${u.index}`;
    into[key] = (u.replace ? "" : (into[key] ?? "")) + u.delta;
  }
  return into;
}

export function throwsCoded(assert, fn, code) {
  let caught;
  try { fn(); } catch (e) { caught = e; }
  assert.ok(caught instanceof Error, `expected a thrown Error, got ${String(caught)}`);
  assert.strictEqual(caught.name, "AgentwireError");
  assert.strictEqual(caught.code, code);
  return caught;
}

/**
 * Calls `call` at every depth of a JS recursion that exhausts the stack, from the deepest up, so
 * that some calls run out of stack inside wasm; returns what the calls threw (an error thrown
 * while the stack is too short to record it is lost). `pad` frames of another size come first,
 * which moves the depths the calls are made at.
 */
export function fromEveryDepth(call, pad = 0) {
  const errors = [];
  const sweep = () => {
    try {
      sweep();
    } catch {
      // the stack is exhausted below this frame
    }
    try {
      call();
    } catch (e) {
      errors.push(e);
    }
  };
  const padded = (n) => (n === 0 ? sweep() : padded(n - 1));
  padded(pad);
  return errors;
}

/** An assembler holding a data part nested 100 levels deep (the deepest value agentwire reads). */
export function deepAssembler(StreamAssembler) {
  const asm = new StreamAssembler();
  asm.push(sse([response(0, "created"), message(1, "d1", "message", "in_progress")]) +
    `data: {"sequence_number":2,"object":"content","status":"completed","error":null,"type":"data","index":0,"delta":false,"msg_id":"d1","data":${'{"a":'.repeat(100)}1${"}".repeat(100)}}\n\n`);
  return asm;
}

function bodyOf(bytes, pieces) {
  let cancelled = false;
  let i = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (i >= pieces.length) return controller.close();
      const [a, b] = pieces[i++];
      controller.enqueue(bytes.subarray(a, b));
    },
    cancel() { cancelled = true; },
  });
  return { stream, cancelled: () => cancelled };
}

export const assemblerCases = {
  "a tool call whose arguments arrive as an object: toolCalls() has its JSON text, parsed"(
    { StreamAssembler }, assert,
  ) {
    // The reference types `arguments` as a string, but a server may send the object itself:
    // the arguments update, the snapshot and toolCalls() must then agree on its JSON text.
    const args = { city: "Oslo", days: 3, units: ["C", 0.5] };
    const stream = sse([
      response(0, "created"),
      message(1, "c1", "function_call", "in_progress"),
      data(2, "c1", false, "completed", { call_id: "call_1", name: "get_weather", arguments: args }),
      message(3, "c1", "function_call", "completed"),
      response(4, "completed"),
    ]);
    for (const lookEarly of [false, true]) {
      const asm = new StreamAssembler();
      if (lookEarly) assert.deepStrictEqual(asm.toolCalls(), []);
      const updates = [...asm.push(stream), ...asm.finish()];
      const appended = updates.filter((u) => u.type === "arguments").map((u) => u.delta).join("");
      assert.deepStrictEqual(JSON.parse(appended), args);
      const [call] = asm.toolCalls();
      assert.strictEqual(call.arguments, appended);
      assert.deepStrictEqual(call.parsed, args);
      assert.strictEqual(call.completed, true);
      asm.free();
    }
  },

  "numbers in a data part read exactly as JSON.parse reads them"({ StreamAssembler }, assert) {
    // Integers past 2^53, 17-digit and extreme doubles: the wasm side must neither throw nor
    // round differently from the JS parser (the value reaches JS as JS reads its JSON text).
    const numbers =
      '{"big":12345678901234567890,"neg":-9007199254740993,"f17":0.12345678901234568,' +
      '"r":0.8444218515250481,"tiny":5e-324,"huge":1.7976931348623157e308,"exp":1E2,"frac":2.5}';
    const stream =
      sse([response(0, "created"), message(1, "d1", "message", "in_progress")]) +
      `data: {"sequence_number":2,"object":"content","status":"completed","error":null,"type":"data",` +
      `"index":0,"delta":false,"msg_id":"d1","data":${numbers}}\n\n` +
      sse([message(3, "d1", "message", "completed"), response(4, "completed")]);
    const asm = new StreamAssembler();
    const updates = asm.push(stream);
    asm.finish();
    const expected = JSON.parse(numbers);
    assert.deepStrictEqual(asm.snapshot().output[0].content[0].data, expected);
    const content = updates.filter((u) => u.type === "content" && u.part.type === "data");
    assert.ok(content.length > 0, JSON.stringify(updates));
    assert.deepStrictEqual(content.at(-1).part.data, expected);
    asm.free();
  },

  "StreamAssembler: any split (even inside a UTF-8 character) gives the same text and snapshot"(
    { StreamAssembler }, assert,
  ) {
    const bytes = utf8(RUN);
    const whole = new StreamAssembler();
    const wholeText = foldText([...whole.push(bytes), ...whole.finish()]);
    const expected = whole.snapshot();
    whole.free();
    assert.strictEqual(wholeText["m1#0"], "Héllo 中文 👩‍💻");
    for (const step of [1, 2, 3, 7, 64]) {
      const asm = new StreamAssembler();
      const folded = {};
      for (let i = 0; i < bytes.length; i += step) foldText(asm.push(bytes.subarray(i, i + step)), folded);
      foldText(asm.finish(), folded);
      assert.deepStrictEqual(folded, wholeText, `step ${step}`);
      assert.deepStrictEqual(asm.snapshot(), expected, `step ${step}`);
      asm.free();
    }
  },

  "StreamAssembler: snapshot is the reference-shaped response with outcome and warnings"(
    { StreamAssembler }, assert,
  ) {
    const asm = new StreamAssembler({ protocol: "agent-api", strict: true });
    asm.push(RUN);
    asm.finish();
    const snap = asm.snapshot();
    assert.strictEqual(asm.outcome, "completed");
    assert.strictEqual(asm.protocol, "agent-api");
    assert.deepStrictEqual(Object.keys(snap), [
      "sequence_number", "object", "status", "error", "id", "created_at", "completed_at",
      "output", "usage", "session_id", "outcome", "warnings",
    ]);
    assert.strictEqual(snap.status, "completed");
    assert.deepStrictEqual(snap.output.map((m) => [m.id, m.type, m.status]), [
      ["m1", "message", "completed"], ["c1", "function_call", "completed"],
      ["o1", "function_call_output", "completed"],
    ]);
    assert.deepStrictEqual(snap.output[0].content[0], {
      sequence_number: null, object: "content", status: "completed", error: null, type: "text",
      index: 0, delta: false, msg_id: "m1", text: "Héllo 中文 👩‍💻",
    });
    assert.deepStrictEqual(snap.warnings, []);
    asm.free();
  },

  "StreamAssembler: updates are plain objects, grouped per chunk"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler();
    const updates = asm.push(RUN);
    // Appends before whole parts: a content update holds its part at the end of the batch.
    assert.deepStrictEqual(updates.map((u) => u.type), [
      "response", "message", "message", "message", "text", "arguments", "content", "content",
      "content",
    ]);
    assert.deepStrictEqual(updates[0], {
      type: "response", status: "completed", id: "resp_1", outcome: "completed", error: null, usage: null,
    });
    assert.deepStrictEqual(updates[1], {
      type: "message", id: "m1", role: "assistant", messageType: "message", status: "completed", created: true,
    });
    assert.deepStrictEqual(updates[5], {
      type: "arguments", messageId: "c1", index: 0, callId: "call_1", name: "get_weather",
      delta: '{"city": "Hangzhou"}', replace: false,
    });
    assert.strictEqual(Object.getPrototypeOf(updates[0]), Object.prototype);
    asm.free();
  },

  "StreamAssembler: text updates keep their ids, order and characters across batches and memory growth"(
    { StreamAssembler }, assert,
  ) {
    const asm = new StreamAssembler();
    // Three messages written in turns: ids repeat across pushes (sent to JS once, then by
    // position), one batch holds appends to several parts, multi-byte text and a U+FEFF at
    // the start of a delta survive, a completed value replaces.
    const events = [];
    let seq = 0;
    for (const id of ["m1", "m2", "m3"]) events.push(message(seq++, id, "message", "in_progress"));
    const expected = { "m1#0": "", "m2#0": "", "m3#0": "", "m2#1": "" };
    for (let round = 0; round < 20; round++) {
      for (const [id, index] of [["m1", 0], ["m2", 0], ["m3", 0], ["m2", 1]]) {
        const piece = `\uFEFF${id}·${round} 中文 👩‍💻 "q" \\ `;
        events.push(text(seq++, id, index, true, "in_progress", piece));
        expected[`${id}#${index}`] += piece;
      }
    }
    events.push(text(seq++, "m3", 0, false, "completed", "replacé 😀"));
    expected["m3#0"] = "replacé 😀";
    // A delta of several MiB in the last push grows the wasm memory while the batch is built.
    const big = "é".repeat(3 << 20);
    events.push(text(seq++, "m1", 0, true, "in_progress", big));
    expected["m1#0"] += big;
    const bytes = utf8(sse(events));
    const got = {};
    const last = bytes.length - utf8(sse(events.slice(-1))).length;
    for (let at = 0; at < last; at += 301) foldText(asm.push(bytes.subarray(at, Math.min(at + 301, last))), got);
    const final = asm.push(bytes.subarray(last));
    assert.deepStrictEqual(final, [{ type: "text", messageId: "m1", index: 0, delta: big, replace: false }]);
    foldText(final, got);
    assert.deepStrictEqual(got, expected);
    const one = new StreamAssembler();
    assert.deepStrictEqual(foldText(one.push(bytes)), expected);
    one.free();
    asm.free();
  },

  "StreamAssembler: toolCalls parses arguments incrementally, new records only for changed calls"(
    { StreamAssembler }, assert,
  ) {
    const asm = new StreamAssembler();
    const bytes = utf8(RUN);
    const cut = utf8(RUN.slice(0, RUN.indexOf("zhou"))).length;
    asm.push(bytes.subarray(0, cut + 2));
    let [call] = asm.toolCalls();
    assert.strictEqual(call.callId, "call_1");
    assert.strictEqual(call.arguments, '{"city": "Hang');
    assert.deepStrictEqual(call.parsed, { city: "Hang" });
    assert.strictEqual(call.completed, false);
    const again = asm.toolCalls()[0];
    assert.strictEqual(again, call, "no change → same object");
    asm.push(bytes.subarray(cut + 2));
    asm.finish();
    const [done] = asm.toolCalls();
    assert.notStrictEqual(done, call);
    assert.deepStrictEqual(done.parsed, { city: "Hangzhou" });
    assert.strictEqual(done.arguments, '{"city": "Hangzhou"}');
    assert.strictEqual(done.completed, true);
    assert.strictEqual(done.output, "Sunny");
    assert.strictEqual(done.argumentsError, null);
    assert.strictEqual(call.arguments, '{"city": "Hang', "an earlier record keeps its raw arguments");
    assert.strictEqual(done.parsed, call.parsed, "parsed is mirrored in place (linear), records change");
    asm.free();
  },

  "StreamAssembler: toolCalls() read after every chunk equals a one-shot read, whatever the split"(
    { StreamAssembler }, assert,
  ) {
    // Two calls (the second appears mid-stream, so the list changes), a name that arrives late,
    // escapes split across deltas, an output, completion, and a third call whose data part a
    // text event tries to replace (refused: a call does not stop being one).
    const stream = utf8(RUN.replace(/data: \{"sequence_number":16,[^\n]*\n\n/, "") + sse([
      message(16, "c2", "plugin_call", "in_progress"),
      data(17, "c2", true, "in_progress", { call_id: "call_2", arguments: '{"q": "a\\' }),
      data(18, "c2", true, "in_progress", { arguments: 'nb é 中文 😀", "n": [1, 2' }),
      data(19, "c2", true, "in_progress", { name: "search", arguments: "]}" }),
      message(20, "c3", "function_call", "in_progress"),
      data(21, "c3", true, "in_progress", { call_id: "call_3", name: "f", arguments: '{"x": 1' }),
      text(22, "c3", 0, false, "in_progress", "not a call any more"),
      message(23, "c2", "plugin_call", "completed"),
      response(24, "completed", { completed_at: 1700000001 }),
    ]));
    const oneShot = new StreamAssembler();
    oneShot.push(stream);
    oneShot.finish();
    const expected = oneShot.toolCalls();
    oneShot.free();
    assert.deepStrictEqual(expected.map((c) => c.callId), ["call_1", "call_2", "call_3"]);
    assert.deepStrictEqual(expected[1].parsed, { q: "a\nb é 中文 😀", n: [1, 2] });
    assert.strictEqual(expected[1].name, "search");
    for (const step of [1, 2, 3, 7, 64, 1000]) {
      const asm = new StreamAssembler();
      let last = [];
      // The `arguments` updates, folded, spell each call's arguments too.
      const appended = {};
      const fold = (updates) => {
        for (const u of updates) {
          if (u.type !== "arguments") continue;
          const key = `${u.messageId}#${u.index}`;
          appended[key] = u.replace ? u.delta : (appended[key] ?? "") + u.delta;
        }
      };
      for (let i = 0; i < stream.length; i += step) {
        fold(asm.push(stream.subarray(i, i + step)));
        last = asm.toolCalls();
      }
      fold(asm.finish());
      last = asm.toolCalls();
      assert.deepStrictEqual(last, expected, `step ${step}`);
      for (const call of expected) {
        assert.strictEqual(appended[`${call.messageId}#${call.index}`], call.arguments, `step ${step}`);
      }
      asm.free();
    }
  },

  "StreamAssembler: strict violations throw coded errors carrying the earlier updates"(
    { StreamAssembler }, assert,
  ) {
    const asm = new StreamAssembler({ strict: true });
    const stream = sse([message(0, "m1", "message", "in_progress"), text(1, "ghost", 0, true, "in_progress", "x")]);
    const error = throwsCoded(assert, () => asm.push(stream), "PROTOCOL_VIOLATION");
    assert.strictEqual(error.offset, stream.indexOf("data: {", 1));
    assert.ok(error.updates.some((u) => u.type === "message" && u.id === "m1"));
    throwsCoded(assert, () => asm.push("data: {}\n\n"), "FINISHED");
    assert.strictEqual(asm.outcome, "truncated");
    asm.free();
  },

  "StreamAssembler: tolerant mode warns and keeps going"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler();
    const updates = asm.push(sse([text(0, "ghost", 0, true, "in_progress", "x")]) + "data: {oops\n\n");
    assert.deepStrictEqual(updates.filter((u) => u.type === "warning").map((u) => u.code),
      ["UNANNOUNCED_MESSAGE", "INVALID_EVENT"]);
    const end = asm.finish();
    assert.strictEqual(asm.outcome, "truncated");
    assert.ok(end.some((u) => u.type === "warning" && u.code === "TRUNCATED"));
    asm.free();
  },

  "StreamAssembler: an event over maxEventBytes throws EVENT_TOO_LARGE"({ StreamAssembler }, assert) {
    const asm = new StreamAssembler({ maxEventBytes: 64 });
    const error = throwsCoded(assert, () => asm.push(`data: ${"x".repeat(100)}\n\n`), "EVENT_TOO_LARGE");
    assert.strictEqual(error.offset, 0);
    asm.free();
  },

  "StreamAssembler: bad options throw INVALID_OPTION naming the key"({ StreamAssembler }, assert) {
    assert.strictEqual(throwsCoded(assert, () => new StreamAssembler({ maxEventByte: 5 }), "INVALID_OPTION").field, "maxEventByte");
    throwsCoded(assert, () => new StreamAssembler({ protocol: "grpc" }), "INVALID_OPTION");
    throwsCoded(assert, () => new StreamAssembler({ strict: "yes" }), "INVALID_OPTION");
    const asm = new StreamAssembler();
    throwsCoded(assert, () => asm.push(42), "INVALID_OPTION");
    asm.free();
  },

  "StreamAssembler: free() and Symbol.dispose release it; later calls throw FINISHED"(
    { StreamAssembler }, assert,
  ) {
    const asm = new StreamAssembler();
    asm.free();
    asm.free();
    throwsCoded(assert, () => asm.push("data: {}\n\n"), "FINISHED");
    throwsCoded(assert, () => asm.snapshot(), "FINISHED");
    const disposable = new StreamAssembler();
    const dispose = Symbol.dispose ?? Symbol.for("Symbol.dispose");
    disposable[dispose]();
    throwsCoded(assert, () => disposable.finish(), "FINISHED");
  },

  "StreamAssembler: a stack overflow inside wasm loses that instance only: its objects throw INSTANCE_LOST, new ones work"(
    { StreamAssembler }, assert,
  ) {
    const old = deepAssembler(StreamAssembler); // made by the instance the overflow will lose
    const current = deepAssembler(StreamAssembler);
    let lost = false;
    const render = () => {
      if (lost) return; // one loss is the point; more would only make instances
      try {
        current.snapshot(); // renders a value 100 levels deep: deep recursion inside wasm
      } catch (e) {
        lost = e.code === "INSTANCE_LOST";
        throw e;
      }
    };
    // Where the stack runs out depends on the engine's frame sizes: the sweep is repeated from
    // a few different starting depths until a call ran out of stack inside wasm.
    for (let pad = 0; pad < 16 && !lost; pad++) {
      for (const e of fromEveryDepth(render, pad)) {
        // Coded (INSTANCE_LOST, or an error of the call's own when the overflow was caught as
        // one), or a RangeError thrown in JS before agentwire was entered.
        assert.ok(e.name === "AgentwireError" || (e instanceof RangeError && e.code === undefined), String(e));
      }
    }
    assert.ok(lost, "the overflow lost the instance");
    for (const call of [() => old.push(RUN), () => old.snapshot(), () => old.finish(), () => old.outcome, () => old.toolCalls()]) {
      const e = throwsCoded(assert, call, "INSTANCE_LOST");
      assert.match(e.message, /create a new object/);
    }
    old.free();
    old.free();
    current.free();
    // New objects get a fresh instance.
    const fresh = new StreamAssembler();
    fresh.push(RUN);
    fresh.finish();
    assert.strictEqual(fresh.outcome, "completed");
    assert.strictEqual(fresh.snapshot().output[0].content[0].text, "Héllo 中文 👩‍💻");
    fresh.free();
    const again = deepAssembler(StreamAssembler);
    assert.strictEqual(JSON.stringify(again.snapshot().output[0].content[0].data).length, 5 * 100 + 1 + 100);
    again.free();
  },

  async "StreamAssembler.collect reads a Response, a ReadableStream and an async iterable"(
    { StreamAssembler }, assert,
  ) {
    const bytes = utf8(RUN);
    const pieces = [];
    for (let i = 0; i < bytes.length; i += 5) pieces.push([i, Math.min(i + 5, bytes.length)]);
    const fromStream = await StreamAssembler.collect(bodyOf(bytes, pieces).stream);
    const fromResponse = await StreamAssembler.collect(new Response(bodyOf(bytes, pieces).stream));
    const fromIterable = await StreamAssembler.collect((async function* () {
      for (const [a, b] of pieces) yield bytes.subarray(a, b);
    })());
    assert.strictEqual(fromStream.outcome, "completed");
    assert.deepStrictEqual(fromResponse, fromStream);
    assert.deepStrictEqual(fromIterable, fromStream);
  },

  async "StreamAssembler.read yields batches and cancels the body when the reader stops"(
    { StreamAssembler }, assert,
  ) {
    const bytes = utf8(RUN);
    const pieces = [];
    for (let i = 0; i < bytes.length; i += 40) pieces.push([i, Math.min(i + 40, bytes.length)]);
    const all = [];
    for await (const batch of StreamAssembler.read(bodyOf(bytes, pieces).stream)) all.push(...batch);
    assert.strictEqual(foldText(all)["m1#0"], "Héllo 中文 👩‍💻");
    assert.strictEqual(all.at(-1).type, "response");
    // Every batch read() yields has updates, and together they are push()'s and finish()'s.
    for (const input of [RUN, "", ": keep-alive\n\n", RUN.slice(0, RUN.length >> 1)]) {
      const whole = utf8(input);
      const batches = [];
      for await (const batch of StreamAssembler.read(bodyOf(whole, [[0, whole.length]]).stream)) batches.push(batch);
      assert.ok(batches.every((batch) => batch.length > 0), "no batch is empty");
      const direct = new StreamAssembler();
      const expected = [direct.push(input), direct.finish()].filter((batch) => batch.length > 0);
      direct.free();
      assert.deepStrictEqual(batches, expected);
    }
    const body = bodyOf(bytes, pieces);
    for await (const batch of StreamAssembler.read(body.stream)) {
      if (batch.some((u) => u.type === "text")) break;
    }
    assert.strictEqual(body.cancelled(), true, "breaking out cancels the body");
  },

  "StreamAssembler (AG-UI): a small stream assembles, any split, snapshot shape"(
    { StreamAssembler }, assert,
  ) {
    const bytes = utf8(AGUI_RUN);
    const expected = {
      threadId: "t1",
      runId: "r1",
      messages: [
        // Key order as serialised (the browser runner's deepStrictEqual compares it).
        { role: "assistant", id: "m1", content: "Héllo 中文 👩‍💻",
          toolCalls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
        { role: "tool", id: "t1m", content: "-3°C", toolCallId: "c1" },
      ],
      state: { lastCity: "Oslo" },
      outcome: "completed",
      warnings: [],
    };
    for (const step of [1, 5, 64, bytes.length]) {
      const asm = new StreamAssembler();
      const updates = [];
      for (let i = 0; i < bytes.length; i += step) updates.push(...asm.push(bytes.subarray(i, i + step)));
      updates.push(...asm.finish());
      assert.strictEqual(asm.protocol, "ag-ui");
      assert.strictEqual(asm.outcome, "completed");
      assert.deepStrictEqual(asm.snapshot(), expected, `step ${step}`);
      const calls = asm.toolCalls();
      assert.strictEqual(calls.length, 1);
      assert.deepStrictEqual(calls[0].parsed, { city: "Oslo" });
      assert.strictEqual(calls[0].output, "-3°C");
      assert.ok(updates.some((u) => u.type === "state"), "a state update");
      assert.strictEqual(updates.at(-1).type === "response" || updates.some((u) => u.type === "response"), true);
      asm.free();
    }
  },

  "StreamAssembler (AG-UI): a sequencing violation fails the run as @ag-ui/client does"(
    { StreamAssembler }, assert,
  ) {
    const asm = new StreamAssembler({ protocol: "ag-ui" });
    const updates = asm.push(sse([
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "ghost", delta: "boo" },
    ]));
    const response = updates.filter((u) => u.type === "response").at(-1);
    assert.strictEqual(response.outcome, "failed");
    const snap = asm.snapshot();
    assert.strictEqual(snap.error.source, "client");
    assert.strictEqual(snap.error.code, "PROTOCOL_VIOLATION");
    assert.ok(snap.error.message.includes("No active text message found with ID 'ghost'"));
    const strict = new StreamAssembler({ protocol: "ag-ui", strict: true });
    throwsCoded(assert, () => strict.push(sse([{ type: "TEXT_MESSAGE_END", messageId: "x" }])), "PROTOCOL_VIOLATION");
    asm.free(); strict.free();
  },
};
