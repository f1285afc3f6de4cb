// OpenAI Responses and A2A cases, run in every runtime (Node, Deno, workerd, Chromium) like
// cases.mjs: StreamAssembler with protocol "openai-responses" / "a2a", translate(), Translator,
// a2aRequest.
import { RUN } from "./assembler-cases.mjs";

const utf8 = (s) => new TextEncoder().encode(s);
const text = (bytes) => new TextDecoder().decode(bytes);
async function* iter(...chunks) { yield* chunks; }

const ev = (type, seq, body) => ({ type, sequence_number: seq, ...body });
const RESP = (status, output = []) => ({ id: "resp_1", object: "response", created_at: 1700000000, status, model: "m", output });
/** A Responses stream: a message streamed in deltas (multi-byte text) and a function call. */
export const RESPONSES = [
  ev("response.created", 0, { response: RESP("in_progress") }),
  ev("response.output_item.added", 1, { output_index: 0, item: { id: "m1", type: "message", status: "in_progress", role: "assistant", content: [] } }),
  ev("response.content_part.added", 2, { item_id: "m1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
  ev("response.output_text.delta", 3, { item_id: "m1", output_index: 0, content_index: 0, delta: "Héllo " }),
  ev("response.output_text.delta", 4, { item_id: "m1", output_index: 0, content_index: 0, delta: "中文 👩‍💻" }),
  ev("response.output_item.added", 5, { output_index: 1, item: { id: "fc1", type: "function_call", status: "in_progress", call_id: "call_1", name: "get_weather", arguments: "" } }),
  ev("response.function_call_arguments.delta", 6, { item_id: "fc1", output_index: 1, delta: '{"city": "Hang' }),
  ev("response.function_call_arguments.delta", 7, { item_id: "fc1", output_index: 1, delta: 'zhou"}' }),
].map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
const COMPLETED = `event: response.completed\ndata: ${JSON.stringify(ev("response.completed", 8, {
  response: RESP("completed", [
    { id: "m1", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Héllo 中文 👩‍💻", annotations: [] }] },
    { id: "fc1", type: "function_call", status: "completed", call_id: "call_1", name: "get_weather", arguments: '{"city": "Hangzhou"}' },
  ]),
}))}\n\n`;

async function readAll(stream) {
  const reader = stream.getReader();
  let out = "";
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out + decoder.decode();
    out += decoder.decode(value, { stream: true });
  }
}

export const openaiCases = {
  "StreamAssembler openai-responses: split anywhere, text and arguments updates, snapshot is the response"(
    { StreamAssembler }, assert,
  ) {
    const bytes = utf8(RESPONSES + COMPLETED);
    for (const step of [1, 3, 64, bytes.length]) {
      const asm = new StreamAssembler({ protocol: "openai-responses" });
      const texts = {};
      let args = "";
      for (let i = 0; i < bytes.length; i += step) {
        for (const u of asm.push(bytes.subarray(i, i + step))) {
          if (u.type === "text") texts[`${u.messageId}#${u.index}`] = (u.replace ? "" : texts[`${u.messageId}#${u.index}`] ?? "") + u.delta;
          if (u.type === "arguments") args = (u.replace ? "" : args) + u.delta;
        }
      }
      asm.finish();
      assert.strictEqual(asm.protocol, "openai-responses");
      assert.strictEqual(asm.outcome, "completed");
      assert.deepStrictEqual(texts, { "m1#0": "Héllo 中文 👩‍💻" });
      assert.strictEqual(args, '{"city": "Hangzhou"}');
      const snap = asm.snapshot();
      assert.strictEqual(snap.object, "response");
      assert.strictEqual(snap.status, "completed");
      assert.strictEqual(snap.output[0].content[0].text, "Héllo 中文 👩‍💻");
      assert.strictEqual(snap.output[1].arguments, '{"city": "Hangzhou"}');
      assert.deepStrictEqual(snap.warnings, []);
      const [call] = asm.toolCalls();
      assert.deepStrictEqual([call.callId, call.name, call.parsed], ["call_1", "get_weather", { city: "Hangzhou" }]);
      asm.free();
    }
  },

  "StreamAssembler openai-responses: auto-detected; no response.completed is truncated; unknown events warn"(
    { StreamAssembler }, assert,
  ) {
    const asm = new StreamAssembler();
    asm.push(RESPONSES + 'event: response.mystery\ndata: {"type":"response.mystery","sequence_number":9}\n\n');
    asm.finish();
    assert.strictEqual(asm.protocol, "openai-responses");
    assert.strictEqual(asm.outcome, "truncated");
    const snap = asm.snapshot();
    assert.deepStrictEqual(snap.warnings.map((w) => w.code), ["UNKNOWN_EVENT", "TRUNCATED"]);
    assert.strictEqual(snap.output[0].content[0].text, "Héllo 中文 👩‍💻");
    assert.strictEqual(snap.output[1].arguments, '{"city": "Hangzhou"}');
    asm.free();
  },

  async "translate: Agent API → OpenAI Responses → Agent API keeps the run"({ translate, StreamAssembler }, assert) {
    const responses = await readAll(translate(iter(utf8(RUN)), { from: "agent-api", to: "openai-responses" }));
    assert.ok(responses.startsWith("event: response.created\ndata: "));
    assert.ok(responses.includes("event: response.function_call_arguments.delta\n"));
    const back = await readAll(translate(iter(utf8(responses)), { from: "openai-responses", to: "agent-api" }));
    const snap = await StreamAssembler.collect(iter(utf8(back)), { protocol: "agent-api" });
    assert.strictEqual(snap.outcome, "completed");
    assert.deepStrictEqual(snap.output.map((m) => m.type), ["message", "function_call", "function_call_output"]);
    assert.strictEqual(snap.output[0].content[0].text, "Héllo 中文 👩‍💻");
    assert.strictEqual(snap.output[1].content[0].data.arguments, '{"city": "Hangzhou"}');
    assert.strictEqual(snap.output[2].content[0].data.output, "Sunny");
  },

  async "translate: Agent API → A2A 1.0 streams StreamResponses: a task, artifacts, a terminal status; the assembler reads it back"(
    { translate, StreamAssembler }, assert,
  ) {
    const a2a = await readAll(translate(iter(utf8(RUN)), { from: "agent-api", to: "a2a", requestId: 7 }));
    const results = a2a.split("\n\n").filter(Boolean).map((f) => JSON.parse(f.slice("data: ".length)));
    assert.deepStrictEqual([results[0].jsonrpc, results[0].id, results[0].result.task.status.state], ["2.0", 7, "TASK_STATE_SUBMITTED"]);
    const last = results.at(-1).result;
    assert.deepStrictEqual(Object.keys(last), ["statusUpdate"]);
    assert.strictEqual(last.statusUpdate.status.state, "TASK_STATE_COMPLETED");
    assert.ok(!a2a.includes('"kind"') && !a2a.includes('"final"'), "no 0.3 fields");
    assert.ok(results.some((r) => r.result.artifactUpdate?.append === true));
    const asm = new StreamAssembler();
    asm.push(utf8(a2a));
    asm.finish();
    assert.strictEqual(asm.protocol, "a2a");
    const snap = asm.snapshot();
    assert.strictEqual(snap.outcome, "completed");
    assert.strictEqual(snap.output[0].content[0].text, "Héllo 中文 👩‍💻");
    asm.free();
  },

  async "translate: Agent API → A2A 0.3 streams a task, artifacts and a final status; the assembler reads it back"(
    { translate, StreamAssembler }, assert,
  ) {
    const a2a = await readAll(translate(iter(utf8(RUN)), { from: "agent-api", to: "a2a-0.3", requestId: 7 }));
    const results = a2a.split("\n\n").filter(Boolean).map((f) => JSON.parse(f.slice("data: ".length)));
    assert.deepStrictEqual([results[0].jsonrpc, results[0].id, results[0].result.kind], ["2.0", 7, "task"]);
    const last = results.at(-1).result;
    assert.deepStrictEqual([last.kind, last.final, last.status.state], ["status-update", true, "completed"]);
    assert.ok(results.some((r) => r.result.kind === "artifact-update" && r.result.append === true));
    const snap = await StreamAssembler.collect(iter(utf8(a2a)));
    assert.strictEqual(snap.outcome, "completed");
    assert.strictEqual(snap.output[0].content[0].text, "Héllo 中文 👩‍💻");
  },

  "Translator: pushes bytes split anywhere; bad options throw INVALID_OPTION"({ Translator }, assert) {
    const bytes = utf8(RESPONSES + COMPLETED);
    const t = new Translator({ from: "openai-responses", to: "agent-api" });
    let out = "";
    const decoder = new TextDecoder();
    for (let i = 0; i < bytes.length; i += 5) out += decoder.decode(t.push(bytes.subarray(i, i + 5)), { stream: true });
    out += decoder.decode(t.finish());
    assert.deepStrictEqual(t.warnings, []);
    t.free();
    const events = out.split("\n\n").filter(Boolean).map((f) => JSON.parse(f.slice(6)));
    assert.deepStrictEqual(events.map((e) => e.sequence_number), events.map((_, i) => i));
    assert.strictEqual(events.at(-1).status, "completed");
    for (const [options, field] of [
      [{ from: "nope", to: "agent-api" }, "from"],
      [{ from: "agent-api", to: "nope" }, "to"],
      [{ from: "agent-api", to: "a2a", extra: 1 }, "extra"],
    ]) {
      let caught;
      try { new Translator(options); } catch (e) { caught = e; }
      assert.strictEqual(caught?.code, "INVALID_OPTION");
      assert.strictEqual(caught.field, field);
    }
  },

  "Translator.push accepts every chunk type StreamAssembler.push accepts, with the same result"(
    { Translator, StreamAssembler }, assert,
  ) {
    const text = RESPONSES + COMPLETED;
    const bytes = utf8(text);
    const kinds = {
      string: (b, s) => s,
      Uint8Array: (b) => b,
      ArrayBuffer: (b) => b.slice().buffer,
      DataView: (b) => new DataView(b.slice().buffer),
      Uint16Array: (b) => { const copy = new Uint8Array(b.length + (b.length & 1)); copy.set(b); return new Uint16Array(copy.buffer, 0, copy.length >> 1); },
      Buffer: (b) => (typeof Buffer === "function" ? Buffer.from(b) : b),
    };
    const decoder = new TextDecoder();
    let expected;
    for (const [kind, make] of Object.entries(kinds)) {
      // Uint16Array views carry whole code units: pad the text to an even byte count with a
      // trailing newline (the same stream either way).
      const padded = kind === "Uint16Array" && bytes.length % 2 ? utf8(text + "\n") : bytes;
      const chunk = make(padded, text);
      const t = new Translator({ from: "openai-responses", to: "agent-api" });
      const out = decoder.decode(t.push(chunk)) + decoder.decode(t.finish());
      t.free();
      const asm = new StreamAssembler({ protocol: "openai-responses" });
      asm.push(make(padded, text));
      asm.finish();
      assert.strictEqual(asm.outcome, "completed", `${kind}: the assembler read it`);
      asm.free();
      const normalized = out.replace(/"(msg|response)_[0-9a-f-]{36}"/g, '"$1_x"');
      expected ??= normalized;
      assert.strictEqual(normalized, expected, `${kind}: the same translation`);
    }
    for (const bad of [null, 42, {}, [1, 2]]) {
      const t = new Translator({ from: "openai-responses", to: "agent-api" });
      let caught;
      try { t.push(bad); } catch (e) { caught = e; }
      assert.strictEqual(caught?.code, "INVALID_OPTION", String(bad));
      t.free();
    }
  },

  "a2aRequest: an A2A message/stream request becomes an Agent API request"({ a2aRequest }, assert) {
    const request = a2aRequest(JSON.stringify({
      jsonrpc: "2.0", id: 1, method: "message/stream",
      params: { message: { kind: "message", messageId: "m1", role: "user", contextId: "c1",
        parts: [{ kind: "text", text: "Hi" }, { kind: "data", data: { a: 1 } }] } },
    }));
    assert.strictEqual(request.session_id, "c1");
    assert.strictEqual(request.input[0].id, "m1");
    assert.deepStrictEqual(request.input[0].content.map((c) => c.type), ["text", "data"]);
    let caught;
    try { a2aRequest("{}"); } catch (e) { caught = e; }
    assert.strictEqual(caught?.code, "INVALID_REQUEST");
  },
};
