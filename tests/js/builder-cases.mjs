// ResponseBuilder cases, run in every runtime (Node, Deno, workerd, Chromium) like cases.mjs.
// Every stream built here is decoded event by event and assembled back with StreamAssembler.
const dec = new TextDecoder();
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** The events of SSE bytes (`data: <json>\n\n` frames only), or of NDJSON lines. */
export function events(bytes, format = "sse") {
  const text = typeof bytes === "string" ? bytes : dec.decode(bytes);
  if (format === "ndjson") return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  const frames = text.split("\n\n");
  if (frames.pop() !== "") throw new Error(`SSE text does not end with a blank line: ${JSON.stringify(text.slice(-40))}`);
  return frames.map((f) => {
    if (!f.startsWith("data: ") || f.includes("\n")) throw new Error(`not one data line: ${f.slice(0, 80)}`);
    return JSON.parse(f.slice(6));
  });
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

async function readAll(stream) {
  const chunks = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concat(chunks);
    if (!(value instanceof Uint8Array)) throw new Error(`chunk is not a Uint8Array: ${String(value)}`);
    chunks.push(value);
  }
}

/** Pushes `bytes` one small piece at a time (split inside frames) and returns the snapshot. */
function assemble(StreamAssembler, bytes, step = 7, strict = true) {
  const asm = new StreamAssembler({ strict });
  try {
    for (let i = 0; i < bytes.length; i += step) asm.push(bytes.subarray(i, i + step));
    asm.finish();
    return asm.snapshot();
  } finally {
    asm.free();
  }
}

function caught(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

function throwsCoded(assert, fn, expected) {
  const e = caught(fn);
  assert.ok(e instanceof Error, `expected a thrown Error, got ${String(e)}`);
  assert.strictEqual(e.name, "AgentwireError");
  assert.strictEqual(typeof e.stack, "string");
  for (const [key, value] of Object.entries(expected)) assert.strictEqual(e[key], value, `error.${key}`);
  return e;
}

function seqs(evs) {
  return evs.map((e) => e.sequence_number);
}

function range(from, n) {
  return Array.from({ length: n }, (_, i) => from + i);
}

/** A full run through every method; returns the bytes of each call, by label. */
function fullRun(ResponseBuilder) {
  const rb = new ResponseBuilder({ sessionId: "s1", responseId: "resp_1" });
  const out = [];
  const call = (label, bytes) => {
    out.push([label, bytes]);
    return bytes;
  };
  call("created", rb.created());
  call("inProgress", rb.inProgress());
  const thinking = rb.message({ type: "reasoning", id: "m_think" });
  call("thinking.start", thinking.start());
  const t = thinking.content();
  call("thinking.delta", t.delta("Let me "));
  call("thinking.delta", t.delta("think."));
  call("thinking.part.complete", t.complete());
  call("thinking.complete", thinking.complete());
  const answer = rb.message({ id: "m_answer", metadata: { source: "test" } });
  const text = answer.content("text");
  call("text.delta", text.delta("Héllo "));
  call("text.delta", text.delta("wörld 😀"));
  call("text.complete", text.complete());
  const data = answer.content("data");
  call("data.set", data.set({ rows: [1], label: "a" }));
  call("data.delta", data.delta({ rows: [2], label: "b", n: 1 }));
  call("data.complete", data.complete());
  call("answer.complete", answer.complete());
  const tool = rb.toolCall({ name: "get_weather", callId: "call_1", id: "m_call" });
  call("tool.arguments", tool.arguments('{"city": '));
  call("tool.arguments", tool.arguments('"Hangzhou"}'));
  call("tool.complete", tool.complete());
  call("toolOutput", rb.toolOutput({ callId: "call_1", name: "get_weather", output: { sky: "sunny" }, id: "m_out" }));
  call("completed", rb.completed({ usage: { total_tokens: 9 } }));
  return { rb, out };
}

export const builderCases = {
  "ResponseBuilder: each method's bytes decode to its events, numbered 0..n without gaps"({ ResponseBuilder }, assert) {
    const { rb, out } = fullRun(ResponseBuilder);
    const by = (label) => out.filter(([l]) => l === label).map(([, b]) => events(b));
    const nowSecs = Math.floor(Date.now() / 1000);

    const [created] = by("created")[0];
    assert.deepStrictEqual(Object.keys(created), ["sequence_number", "object", "status", "error", "id",
      "created_at", "completed_at", "output", "usage", "session_id"]);
    assert.deepStrictEqual([created.sequence_number, created.object, created.status, created.id, created.session_id],
      [0, "response", "created", "resp_1", "s1"]);
    assert.ok(Math.abs(created.created_at - nowSecs) <= 5, `created_at ${created.created_at} is Date.now()`);
    assert.deepStrictEqual(by("inProgress")[0].map((e) => [e.sequence_number, e.status]), [[1, "in_progress"]]);

    const [start] = by("thinking.start")[0];
    assert.deepStrictEqual([start.object, start.status, start.id, start.type, start.role, start.content],
      ["message", "in_progress", "m_think", "reasoning", "assistant", null]);
    const [d1] = by("thinking.delta")[0];
    assert.deepStrictEqual(d1, { sequence_number: 3, object: "content", status: "in_progress", error: null,
      type: "text", index: 0, delta: true, msg_id: "m_think", text: "Let me " });
    const [partDone] = by("thinking.part.complete")[0];
    assert.deepStrictEqual([partDone.status, partDone.delta, partDone.text], ["completed", false, "Let me think."]);
    const [msgDone] = by("thinking.complete")[0];
    assert.deepStrictEqual([msgDone.status, msgDone.content.length, msgDone.content[0].text, msgDone.content[0].sequence_number],
      ["completed", 1, "Let me think.", null]);

    // The first content of a message not started yet emits its start event first, in the same bytes.
    const firstText = by("text.delta")[0];
    assert.deepStrictEqual(firstText.map((e) => [e.object, e.status]), [["message", "in_progress"], ["content", "in_progress"]]);
    assert.deepStrictEqual(firstText[0].metadata, { source: "test" });
    assert.strictEqual(by("text.delta")[1][0].text, "wörld 😀");
    assert.strictEqual(by("text.complete")[0][0].text, "Héllo wörld 😀");
    const [set] = by("data.set")[0];
    assert.deepStrictEqual([set.delta, set.status, set.data], [false, "in_progress", { rows: [1], label: "a" }]);
    const [delta] = by("data.delta")[0];
    assert.deepStrictEqual([delta.delta, delta.data], [true, { rows: [2], label: "b", n: 1 }]);
    assert.deepStrictEqual(by("data.complete")[0][0].data, { rows: [1, 2], label: "ab", n: 1 });

    // A tool call: start + snapshot of {call_id, name, arguments: ""} come with the first piece.
    const firstArgs = by("tool.arguments")[0];
    assert.deepStrictEqual(firstArgs.map((e) => [e.object, e.type, e.delta ?? null]),
      [["message", "function_call", null], ["content", "data", false], ["content", "data", true]]);
    assert.deepStrictEqual(firstArgs[1].data, { call_id: "call_1", name: "get_weather", arguments: "" });
    assert.deepStrictEqual(firstArgs[2].data, { arguments: '{"city": ' });
    const toolDone = by("tool.complete")[0];
    assert.deepStrictEqual(toolDone.map((e) => [e.object, e.status]), [["content", "completed"], ["message", "completed"]]);
    assert.deepStrictEqual(toolDone[0].data, { call_id: "call_1", name: "get_weather", arguments: '{"city": "Hangzhou"}' });
    const output = by("toolOutput")[0];
    assert.deepStrictEqual(output.map((e) => [e.object, e.status]),
      [["message", "in_progress"], ["content", "completed"], ["message", "completed"]]);
    assert.deepStrictEqual([output[0].type, output[0].role], ["function_call_output", "tool"]);
    assert.deepStrictEqual(output[1].data, { call_id: "call_1", name: "get_weather", output: '{"sky":"sunny"}' });

    const [done] = by("completed")[0];
    assert.deepStrictEqual([done.status, done.usage, done.output.map((m) => m.id)],
      ["completed", { total_tokens: 9 }, ["m_think", "m_answer", "m_call", "m_out"]]);
    assert.ok(done.completed_at >= done.created_at);

    const all = out.flatMap(([, b]) => events(b));
    assert.deepStrictEqual(seqs(all), range(0, all.length));
    assert.strictEqual(rb.sequenceNumber, all.length);
    assert.strictEqual(rb.finished, true);
    assert.ok(out.every(([, b]) => b instanceof Uint8Array && b.byteLength > 0), "every call returns bytes");
    rb.free();
  },

  "ResponseBuilder: the concatenated bytes assemble back (strict, split every 7 bytes) to the same run"(
    { ResponseBuilder, StreamAssembler }, assert,
  ) {
    const { out } = fullRun(ResponseBuilder);
    const bytes = concat(out.map(([, b]) => b));
    const snap = assemble(StreamAssembler, bytes);
    assert.strictEqual(snap.outcome, "completed");
    assert.deepStrictEqual(snap.warnings, []);
    assert.deepStrictEqual(snap.output.map((m) => [m.id, m.type, m.role, m.status]), [
      ["m_think", "reasoning", "assistant", "completed"], ["m_answer", "message", "assistant", "completed"],
      ["m_call", "function_call", "assistant", "completed"], ["m_out", "function_call_output", "tool", "completed"],
    ]);
    assert.strictEqual(snap.output[0].content[0].text, "Let me think.");
    assert.strictEqual(snap.output[1].content[0].text, "Héllo wörld 😀");
    assert.deepStrictEqual(snap.output[1].content[1].data, { rows: [1, 2], label: "ab", n: 1 });
    assert.strictEqual(snap.output[2].content[0].data.arguments, '{"city": "Hangzhou"}');
    // The final response event equals the assembled snapshot, field for field (except the
    // top-level sequence numbers, which the snapshot keeps and the nested copies null).
    const last = events(out[out.length - 1][1]).pop();
    const unnumbered = (ms) => ms.map((m) => ({ ...m, sequence_number: null }));
    assert.deepStrictEqual(unnumbered(JSON.parse(JSON.stringify(snap.output))), last.output);
    assert.deepStrictEqual([snap.id, snap.session_id, snap.usage], ["resp_1", "s1", { total_tokens: 9 }]);
  },

  "ResponseBuilder: the first emitting call also emits created, in_progress and the message start"({ ResponseBuilder }, assert) {
    const rb = new ResponseBuilder();
    const c = rb.message().content();
    const evs = events(c.delta("Hi"));
    assert.deepStrictEqual(evs.map((e) => [e.sequence_number, e.object, e.status]), [
      [0, "response", "created"], [1, "response", "in_progress"], [2, "message", "in_progress"], [3, "content", "in_progress"],
    ]);
    assert.match(evs[0].id, /^response_[0-9a-f-]{36}$/);
    assert.match(evs[2].id, /^msg_[0-9a-f-]{36}$/);
    assert.strictEqual(evs[3].msg_id, evs[2].id);
    assert.strictEqual(c.index, 0);
    assert.strictEqual(rb.message().content("data").index, 0);
    rb.free();
  },

  "ResponseBuilder: misuse throws BUILDER_STATE, emits nothing, and the next valid call goes on"(
    { ResponseBuilder }, assert,
  ) {
    const rb = new ResponseBuilder();
    rb.created();
    throwsCoded(assert, () => rb.created(), { code: "BUILDER_STATE" });
    const m = rb.message();
    const c = m.content();
    c.delta("a");
    const before = rb.sequenceNumber;
    throwsCoded(assert, () => m.complete(), { code: "BUILDER_STATE" }); // a part is open
    throwsCoded(assert, () => rb.completed(), { code: "BUILDER_STATE" }); // a message is open
    throwsCoded(assert, () => c.delta({ not: "text" }), { code: "BUILDER_STATE" }); // wrong kind
    c.complete();
    throwsCoded(assert, () => c.delta("late"), { code: "BUILDER_STATE" });
    throwsCoded(assert, () => c.complete(), { code: "BUILDER_STATE" });
    const media = m.content("image");
    throwsCoded(assert, () => media.delta("x"), { code: "BUILDER_STATE" });
    media.set("https://example.com/a.png");
    media.complete();
    m.complete();
    throwsCoded(assert, () => m.content(), { code: "BUILDER_STATE" });
    throwsCoded(assert, () => m.start(), { code: "BUILDER_STATE" });
    throwsCoded(assert, () => rb.message({ id: m.id }), { code: "BUILDER_STATE" }); // duplicate id
    assert.strictEqual(rb.sequenceNumber, before + 4, "only the valid calls emitted (complete, set, complete, complete)");
    const done = events(rb.completed());
    assert.strictEqual(done[0].sequence_number, before + 4);
    for (const fn of [() => rb.completed(), () => rb.failed({ code: "X", message: "y" }), () => rb.canceled(),
      () => rb.inProgress(), () => rb.message(), () => rb.toolOutput({ callId: "c", output: "" })]) {
      throwsCoded(assert, fn, { code: "BUILDER_STATE" });
    }
    assert.strictEqual(rb.sequenceNumber, before + 5);
    rb.free();
  },

  "ResponseBuilder: bad options and values throw INVALID_OPTION naming the field"({ ResponseBuilder }, assert) {
    throwsCoded(assert, () => new ResponseBuilder({ sesionId: "s" }), { code: "INVALID_OPTION", field: "sesionId" });
    throwsCoded(assert, () => new ResponseBuilder({ format: "xml" }), { code: "INVALID_OPTION", field: "format" });
    throwsCoded(assert, () => new ResponseBuilder({ sessionId: 7 }), { code: "INVALID_OPTION", field: "sessionId" });
    throwsCoded(assert, () => new ResponseBuilder({ protocol: "grpc" }), { code: "INVALID_OPTION", field: "protocol" });
    throwsCoded(assert, () => new ResponseBuilder({ protocol: "ag-ui", threadId: 1 }), { code: "INVALID_OPTION", field: "threadId" });
    throwsCoded(assert, () => new ResponseBuilder({ protocol: "ag-ui", runId: {} }), { code: "INVALID_OPTION", field: "runId" });
    new ResponseBuilder({ protocol: "agent-api", threadId: "t", runId: "r", omitNulls: false }).free();
    throwsCoded(assert, () => ResponseBuilder.contentType("xml"), { code: "INVALID_OPTION", field: "format" });
    const rb = new ResponseBuilder();
    throwsCoded(assert, () => rb.message({ role: "bot" }), { code: "INVALID_OPTION", field: "role" });
    throwsCoded(assert, () => rb.message({ kind: "x" }), { code: "INVALID_OPTION", field: "kind" });
    throwsCoded(assert, () => rb.message({ usage: [1] }), { code: "INVALID_OPTION", field: "usage" });
    const m = rb.message();
    throwsCoded(assert, () => m.content("bogus"), { code: "INVALID_OPTION", field: "type" });
    const c = m.content("data");
    for (const bad of [42, null, undefined, [1], new Map(), true]) {
      throwsCoded(assert, () => c.delta(bad), { code: "INVALID_OPTION" });
    }
    throwsCoded(assert, () => m.content("image").set({ url: "x" }), { code: "INVALID_OPTION", field: "url" });
    throwsCoded(assert, () => rb.toolCall({ callId: "c" }), { code: "INVALID_OPTION", field: "name" });
    throwsCoded(assert, () => rb.toolCall({ name: "f", callId: "c", type: "rpc" }), { code: "INVALID_OPTION", field: "type" });
    throwsCoded(assert, () => rb.toolCall({ name: "f", callId: "c", serverLabel: "s" }), { code: "INVALID_OPTION", field: "serverLabel" });
    throwsCoded(assert, () => rb.toolCall({ name: "f", callId: "c" }).arguments(1), { code: "INVALID_OPTION" });
    throwsCoded(assert, () => rb.toolOutput({ callId: "c" }), { code: "INVALID_OPTION", field: "output" });
    throwsCoded(assert, () => rb.failed({ code: "X" }), { code: "INVALID_OPTION", field: "message" });
    throwsCoded(assert, () => rb.completed({ usage: "lots" }), { code: "INVALID_OPTION", field: "usage" });
    assert.strictEqual(rb.sequenceNumber, 0, "nothing was emitted");
    // An Error with a code works as failed()'s argument.
    const failed = events(rb.failed(Object.assign(new Error("model timed out"), { code: "MODEL_TIMEOUT" }))).pop();
    assert.deepStrictEqual(failed.error, { code: "MODEL_TIMEOUT", message: "model timed out" });
    rb.free();
  },

  "ResponseBuilder: free() ends the builder and its children with FINISHED; free twice is fine"({ ResponseBuilder }, assert) {
    const rb = new ResponseBuilder();
    const m = rb.message();
    const c = m.content();
    const t = rb.toolCall({ name: "f", callId: "c1" });
    c.delta("x");
    rb.free();
    rb.free();
    for (const fn of [() => rb.created(), () => rb.message(), () => rb.id, () => m.complete(), () => m.id,
      () => c.delta("y"), () => c.complete(), () => t.arguments("{}")]) {
      const e = throwsCoded(assert, fn, { code: "FINISHED" });
      assert.ok(!/null pointer/.test(e.message), e.message);
    }
    assert.strictEqual(rb.finished, true);
    // A freed child handle throws FINISHED too, while its builder goes on.
    const rb2 = new ResponseBuilder();
    const m2 = rb2.message();
    const c2 = m2.content();
    c2.free();
    throwsCoded(assert, () => c2.delta("x"), { code: "FINISHED" });
    m2[Symbol.dispose]();
    throwsCoded(assert, () => m2.start(), { code: "FINISHED" });
    assert.strictEqual(events(rb2.created())[0].status, "created");
    rb2[Symbol.dispose]();
    throwsCoded(assert, () => rb2.inProgress(), { code: "FINISHED" });
  },

  "ResponseBuilder: children cannot be constructed directly"({ MessageBuilder, ContentBuilder, ToolCallBuilder }, assert) {
    for (const C of [MessageBuilder, ContentBuilder, ToolCallBuilder]) {
      throwsCoded(assert, () => new C(), { code: "BUILDER_STATE" });
    }
  },

  "ResponseBuilder: contentType, NDJSON framing and omitNulls"({ ResponseBuilder, StreamAssembler }, assert) {
    assert.strictEqual(ResponseBuilder.contentType(), "text/event-stream; charset=utf-8");
    assert.strictEqual(ResponseBuilder.contentType("sse"), "text/event-stream; charset=utf-8");
    assert.strictEqual(ResponseBuilder.contentType("ndjson"), "application/x-ndjson");
    const rb = new ResponseBuilder({ format: "ndjson", omitNulls: true, responseId: "r" });
    const c = rb.message({ id: "m" }).content();
    const bytes = concat([c.delta("a"), c.delta("b")]);
    const text = dec.decode(bytes);
    assert.ok(!text.includes("data: ") && !text.includes("null"), text);
    assert.strictEqual(text.split("\n").length, 6);
    assert.deepStrictEqual(events(bytes, "ndjson").map((e) => e.sequence_number), [0, 1, 2, 3, 4]);
    const asm = new StreamAssembler({ format: "ndjson" });
    asm.push(bytes);
    assert.strictEqual(asm.snapshot().output[0].content[0].text, "ab");
    asm.free();
    rb.free();
  },

  "ResponseBuilder: tool types plugin and mcp, outputs as strings or JSON"({ ResponseBuilder }, assert) {
    const rb = new ResponseBuilder();
    const p = rb.toolCall({ name: "search", callId: "c2", type: "plugin", arguments: "{}" });
    const pe = events(p.start());
    assert.deepStrictEqual([pe.at(-2).type, pe.at(-1).data], ["plugin_call", { call_id: "c2", name: "search", arguments: "{}" }]);
    assert.strictEqual(events(p.complete())[0].data.arguments, "{}");
    const mcp = rb.toolCall({ name: "read", callId: "c3", type: "mcp", serverLabel: "fs" });
    const me = events(mcp.start());
    assert.deepStrictEqual(Object.keys(me[1].data), ["call_id", "arguments", "name", "server_label"]);
    mcp.complete();
    const out = events(rb.toolOutput({ callId: "c3", type: "mcp", output: "plain text" }));
    assert.deepStrictEqual([out[0].type, out[1].data], ["mcp_call_output", { call_id: "c3", name: null, output: "plain text" }]);
    const arr = events(rb.toolOutput({ callId: "c2", type: "plugin", output: [1, { a: "é" }] }));
    assert.strictEqual(arr[1].data.output, '[1,{"a":"é"}]');
    rb.free();
  },

  async "fromText: the reference's generate_streaming_response sequence, sync and async tokens"(
    { ResponseBuilder, StreamAssembler }, assert,
  ) {
    const tokens = ["Hel", "lo", ", wörld ", "😀"];
    async function* slow() {
      for (const t of tokens) {
        await sleep(1);
        yield t;
      }
    }
    for (const source of [tokens, new Set(tokens), slow()]) {
      const bytes = await readAll(ResponseBuilder.fromText(source, { sessionId: "s1", responseId: "r1", role: "assistant" }));
      const evs = events(bytes);
      assert.deepStrictEqual(evs.map((e) => `${e.object}/${e.status}${e.delta === true ? "+" : ""}`), [
        "response/created", "response/in_progress", "message/in_progress",
        "content/in_progress+", "content/in_progress+", "content/in_progress+", "content/in_progress+",
        "content/completed", "message/completed", "response/completed",
      ]);
      assert.deepStrictEqual(seqs(evs), range(0, 10));
      assert.deepStrictEqual(evs.slice(3, 7).map((e) => e.text), tokens);
      assert.strictEqual(evs[7].text, tokens.join(""));
      assert.deepStrictEqual([evs[9].id, evs[9].session_id, evs[9].output.length], ["r1", "s1", 1]);
      const snap = assemble(StreamAssembler, bytes, 3);
      assert.strictEqual(snap.outcome, "completed");
      assert.strictEqual(snap.output[0].content[0].text, tokens.join(""));
    }
    const empty = events(await readAll(ResponseBuilder.fromText([])));
    assert.deepStrictEqual(empty.map((e) => e.object), ["response", "response", "message", "content", "message", "response"]);
    assert.strictEqual(empty[3].text, null);
    const user = events(await readAll(ResponseBuilder.fromText(["x"], { role: "user" })));
    assert.strictEqual(user[2].role, "user");
    throwsCoded(assert, () => ResponseBuilder.fromText(42), { code: "INVALID_OPTION" });
    throwsCoded(assert, () => ResponseBuilder.fromText("abc"), { code: "INVALID_OPTION" });
    throwsCoded(assert, () => ResponseBuilder.fromText([], { rol: "user" }), { code: "INVALID_OPTION", field: "rol" });
  },

  async "fromText: a failing token source ends with failed/AGENT_ERROR; a non-string token too"({ ResponseBuilder }, assert) {
    const boom = new RangeError("upstream closed");
    async function* failing() {
      yield "partial ";
      throw boom;
    }
    const seen = [];
    const evs = events(await readAll(ResponseBuilder.fromText(failing(), { onError: (e) => seen.push(e) })));
    assert.deepStrictEqual(evs.map((e) => e.object), ["response", "response", "message", "content", "response"]);
    assert.deepStrictEqual([evs[4].status, evs[4].error], ["failed", { code: "AGENT_ERROR", message: "upstream closed" }]);
    assert.deepStrictEqual(seqs(evs), range(0, 5));
    assert.strictEqual(seen[0], boom, "onError gets the thrown value itself");
    const bad = events(await readAll(ResponseBuilder.fromText(["a", 7], { onError: (e) => seen.push(e) })));
    assert.deepStrictEqual([bad.at(-1).status, bad.at(-1).error.code], ["failed", "AGENT_ERROR"]);
    assert.strictEqual(seen[1].code, "INVALID_OPTION");
  },

  async "fromText: pulls one token per read (backpressure) and cancel calls the source's return()"({ ResponseBuilder }, assert) {
    let pulled = 0;
    let returned = false;
    function* endless() {
      try {
        for (;;) {
          pulled++;
          yield "tok ";
        }
      } finally {
        returned = true;
      }
    }
    const reader = ResponseBuilder.fromText(endless(), { highWaterMark: 1 }).getReader();
    let read = 0;
    for (let i = 0; i < 20; i++) {
      await reader.read();
      read++;
      await sleep(0);
      assert.ok(pulled <= read + 2, `pulled ${pulled} tokens for ${read} reads`);
    }
    await reader.cancel("enough");
    assert.strictEqual(returned, true, "the source was closed");
    const after = pulled;
    await sleep(5);
    assert.strictEqual(pulled, after);
  },

  async "stream(): frames reach the reader while produce() is still running"({ ResponseBuilder }, assert) {
    let release;
    const gate = new Promise((ok) => { release = ok; });
    let finished = false;
    const stream = ResponseBuilder.stream(async (rb) => {
      const c = rb.message().content();
      c.delta("first");
      await gate; // held until the test has read the first delta
      c.delta("second");
      finished = true;
    });
    const reader = stream.getReader();
    const seen = [];
    while (!seen.some((e) => e.text === "first")) seen.push(...events((await reader.read()).value));
    assert.strictEqual(finished, false, "the first delta arrived before produce() finished");
    release();
    const rest = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest.push(...events(value));
    }
    assert.strictEqual(finished, true);
    const all = [...seen, ...rest];
    assert.deepStrictEqual(seqs(all), range(0, all.length));
    // produce() returned with the message open: the stream completed it (closeOpen).
    assert.deepStrictEqual(all.slice(-3).map((e) => `${e.object}/${e.status}`),
      ["content/completed", "message/completed", "response/completed"]);
    assert.strictEqual(all.at(-1).output[0].content[0].text, "firstsecond");
  },

  async "stream(): an exception in produce() becomes failed/AGENT_ERROR, the value goes to onError"(
    { ResponseBuilder, StreamAssembler }, assert,
  ) {
    const boom = new TypeError("tool exploded");
    const seen = [];
    const bytes = await readAll(ResponseBuilder.stream(async (rb) => {
      rb.message().content().delta("working");
      await sleep(1);
      throw boom;
    }, { onError: (e) => seen.push(e), responseId: "r9" }));
    const evs = events(bytes);
    const last = evs.at(-1);
    assert.deepStrictEqual([last.object, last.status, last.error, last.id], ["response", "failed",
      { code: "AGENT_ERROR", message: "tool exploded" }, "r9"]);
    assert.deepStrictEqual(seqs(evs), range(0, evs.length));
    assert.strictEqual(seen.length, 1);
    assert.strictEqual(seen[0], boom, "the original value, unchanged");
    // Not strict: a failed run leaves its open message unfinished, as the reference runner does.
    const snap = assemble(StreamAssembler, bytes, 7, false);
    assert.deepStrictEqual([snap.outcome, snap.error.code], ["failed", "AGENT_ERROR"]);
    assert.deepStrictEqual(snap.warnings.map((w) => w.code), ["UNFINISHED_MESSAGE"]);
    // A thrown non-Error and a synchronous throw.
    const sync = events(await readAll(ResponseBuilder.stream(() => { throw "plain string"; }, { onError: (e) => seen.push(e) })));
    assert.deepStrictEqual(sync.map((e) => e.status), ["created", "in_progress", "failed"]);
    assert.deepStrictEqual(sync[2].error, { code: "AGENT_ERROR", message: "plain string" });
    assert.strictEqual(seen[1], "plain string");
    // Misuse inside produce() is an exception like any other: the stream still ends cleanly.
    const misuse = events(await readAll(ResponseBuilder.stream((rb) => { rb.created(); rb.created(); }, { onError: (e) => seen.push(e) })));
    assert.deepStrictEqual(misuse.map((e) => e.status), ["created", "in_progress", "failed"]);
    assert.strictEqual(seen[2].code, "BUILDER_STATE");
    // An exception after the run ended only goes to onError.
    const late = events(await readAll(ResponseBuilder.stream((rb) => { rb.completed(); throw new Error("late"); }, { onError: (e) => seen.push(e) })));
    assert.deepStrictEqual(late.map((e) => e.status), ["created", "in_progress", "completed"]);
    assert.strictEqual(seen[3].message, "late");
    throwsCoded(assert, () => ResponseBuilder.stream("not a function"), { code: "INVALID_OPTION" });
    throwsCoded(assert, () => ResponseBuilder.stream(() => {}, { format: "xml" }), { code: "INVALID_OPTION", field: "format" });
    throwsCoded(assert, () => ResponseBuilder.stream(() => {}, { highWaterMark: -1 }), { code: "INVALID_OPTION", field: "highWaterMark" });
  },

  async "stream(): cancelling the reader aborts the signal and stops the producer"({ ResponseBuilder }, assert) {
    let steps = 0;
    let signal;
    let stoppedBy;
    const errors = [];
    const stream = ResponseBuilder.stream(async (rb, context) => {
      signal = context.signal;
      const c = rb.message().content();
      try {
        for (;;) {
          c.delta("tick ");
          steps++;
          await sleep(1);
        }
      } catch (e) {
        stoppedBy = e;
        throw e;
      }
    }, { onError: (e) => errors.push(e) });
    const reader = stream.getReader();
    for (let i = 0; i < 3; i++) await reader.read();
    await reader.cancel(new Error("client went away"));
    assert.strictEqual(signal.aborted, true);
    assert.strictEqual(signal.reason.message, "client went away");
    const at = steps;
    await sleep(20);
    assert.ok(steps <= at + 1, `the producer went on: ${at} → ${steps}`);
    assert.strictEqual(stoppedBy?.code, "FINISHED", "the next builder call threw FINISHED");
    assert.deepStrictEqual(errors, [], "a canceled run reports nothing");
  },

  async "stream(): a producer awaiting rb.ready() stays within the high-water mark of a slow reader"({ ResponseBuilder }, assert) {
    let produced = 0;
    let done = false;
    const stream = ResponseBuilder.stream(async (rb) => {
      const c = rb.message().content();
      for (let i = 0; i < 200; i++) {
        c.delta("x");
        produced++;
        await rb.ready();
      }
      done = true;
    }, { highWaterMark: 1 });
    const reader = stream.getReader();
    let reads = 0;
    for (let i = 0; i < 30; i++) {
      await reader.read();
      reads++;
      await sleep(1);
      assert.ok(produced <= reads + 2, `produced ${produced} deltas while the reader read ${reads} chunks`);
    }
    assert.strictEqual(done, false);
    await reader.cancel();
    // Outside stream(), ready() resolves at once.
    const rb = new ResponseBuilder();
    await rb.ready();
    rb.free();
    const e = await rb.ready().then(() => null, (err) => err);
    assert.strictEqual(e?.code, "FINISHED");
  },

  "ResponseBuilder: protocol openai-responses emits a Responses stream from the same calls"(
    { ResponseBuilder, StreamAssembler }, assert,
  ) {
    const rb = new ResponseBuilder({ protocol: "openai-responses" });
    const parts = [];
    const text = rb.message({ role: "assistant" }).content("text");
    parts.push(text.delta("Hel"), text.delta("lo"));
    const call = rb.toolCall({ name: "get_weather", callId: "call_1" });
    parts.push(call.arguments('{"city":'), call.arguments('"Paris"}'), call.complete());
    parts.push(rb.completed({ closeOpen: true }));
    rb.free();
    const wire = new TextDecoder().decode(concat(parts));
    const types = [...wire.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    assert.strictEqual(types[0], "response.created");
    assert.strictEqual(types.at(-1), "response.completed");
    assert.ok(types.includes("response.output_text.delta"));
    assert.ok(types.includes("response.function_call_arguments.delta"));
    const asm = new StreamAssembler({ protocol: "openai-responses", strict: true });
    asm.push(wire);
    asm.finish();
    const snap = asm.snapshot();
    assert.strictEqual(asm.outcome, "completed");
    assert.strictEqual(snap.object, "response");
    const message = snap.output.find((item) => item.type === "message");
    assert.strictEqual(message.content[0].text, "Hello");
    const fn = snap.output.find((item) => item.type === "function_call");
    assert.strictEqual(fn.name, "get_weather");
    assert.strictEqual(fn.arguments, '{"city":"Paris"}');
    asm.free();
  },
};
