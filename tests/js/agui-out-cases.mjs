// AG-UI output cases, run in every runtime (Node, Deno, workerd, Chromium) like cases.mjs:
// translate()/Translator to "ag-ui", ResponseBuilder with protocol "ag-ui", agUiRequest. Every
// AG-UI stream made here is assembled back with StreamAssembler({protocol: "ag-ui"}) (the port
// of @ag-ui/client 1.0's pipeline, verifier included) and compared with what went in.
import { RUN } from "./assembler-cases.mjs";
import { events } from "./builder-cases.mjs";

const utf8 = (s) => new TextEncoder().encode(s);
const text = (bytes) => new TextDecoder().decode(bytes);
async function* iter(...chunks) { yield* chunks; }

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
    chunks.push(value);
  }
}

/**
 * The AG-UI messages an Agent API run's messages become (the mapping of AgUiEncoder): text and
 * refusal parts of a message joined, reasoning as a reasoning message, a call as an assistant
 * message holding one tool call, an output as a tool message; media parts leave no message.
 */
export function agUiMessagesOf(output) {
  const out = [];
  for (const m of output) {
    const parts = m.content ?? [];
    const texts = parts.filter((p) => p.type === "text" || p.type === "refusal");
    const joined = texts.map((p) => p.text ?? p.refusal ?? "").join("");
    const data = parts.find((p) => p.type === "data")?.data;
    const json = (v) => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));
    switch (m.type) {
      case "message":
      case "error":
        if (texts.length) out.push({ role: ["user", "system"].includes(m.role) ? m.role : "assistant", id: m.id, content: joined });
        break;
      case "reasoning":
        if (texts.length) out.push({ role: "reasoning", id: m.id, content: joined });
        break;
      case "function_call":
      case "plugin_call":
      case "mcp_call":
        if (data) {
          out.push({ role: "assistant", id: m.id, toolCalls: [{ id: data.call_id || m.id, type: "function",
            function: { name: data.name ?? "", arguments: json(data.arguments) } }] });
        }
        break;
      case "function_call_output":
      case "plugin_call_output":
      case "mcp_call_output":
        if (data) out.push({ role: "tool", id: m.id, content: json(data.output), toolCallId: data.call_id ?? "" });
        break;
      default:
    }
  }
  return out;
}

/** Assembles AG-UI bytes (pushed `step` bytes at a time, strict) and returns the snapshot. */
function assembleAgUi(StreamAssembler, bytes, step = 7) {
  const asm = new StreamAssembler({ protocol: "ag-ui", strict: true });
  try {
    for (let i = 0; i < bytes.length; i += step) asm.push(bytes.subarray(i, i + step));
    asm.finish();
    return asm.snapshot();
  } finally {
    asm.free();
  }
}

function assembleAgentApi(StreamAssembler, bytes) {
  const asm = new StreamAssembler({ protocol: "agent-api" });
  try {
    asm.push(bytes);
    asm.finish();
    return asm.snapshot();
  } finally {
    asm.free();
  }
}

/** The same builder calls for any protocol: reasoning, text, a data part, a streamed call, its output. */
function produce(rb) {
  const out = [rb.created(), rb.inProgress()];
  const thinking = rb.message({ type: "reasoning", id: "m_think" });
  const t = thinking.content();
  out.push(t.delta("Let me "), t.delta("think."), t.complete(), thinking.complete());
  const answer = rb.message({ id: "m_answer" });
  const a = answer.content("text");
  out.push(a.delta("Héllo "), a.delta("wörld 😀"), a.complete());
  const data = answer.content("data");
  out.push(data.set({ rows: [1] }), data.complete());
  const b = answer.content("text");
  out.push(b.delta(" More."), b.complete(), answer.complete());
  const tool = rb.toolCall({ name: "get_weather", callId: "call_1", id: "m_call" });
  out.push(tool.arguments('{"city": '), tool.arguments('"杭州"}'), tool.complete());
  out.push(rb.toolOutput({ callId: "call_1", name: "get_weather", output: { sky: "sunny" }, id: "m_out" }));
  return out;
}

export const aguiOutCases = {
  "translate agent-api → ag-ui: any split gives the same bytes, assembled back as the Agent API run's messages"(
    { Translator, StreamAssembler }, assert,
  ) {
    const bytes = utf8(RUN);
    const one = new Translator({ from: "agent-api", to: "ag-ui" });
    const whole = text(concat([one.push(bytes), one.finish()]));
    one.free();
    for (const step of [1, 2, 7, 64]) {
      const t = new Translator({ from: "agent-api", to: "ag-ui" });
      const parts = [];
      for (let i = 0; i < bytes.length; i += step) parts.push(t.push(bytes.subarray(i, i + step)));
      parts.push(t.finish());
      assert.deepStrictEqual(t.warnings, []);
      t.free();
      assert.strictEqual(text(concat(parts)), whole, `step ${step}`);
    }
    const evs = events(whole);
    assert.deepStrictEqual(evs.map((e) => e.type), ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS", "TOOL_CALL_END",
      "TOOL_CALL_RESULT", "RUN_FINISHED"]);
    assert.deepStrictEqual(evs[0], { type: "RUN_STARTED", threadId: "s1", runId: "resp_1", protocolVersion: "1.0" });
    assert.deepStrictEqual(evs[5], { type: "TOOL_CALL_START", toolCallId: "call_1", toolCallName: "get_weather", parentMessageId: "c1" });
    for (const step of [1, 13, whole.length]) {
      const snap = assembleAgUi(StreamAssembler, utf8(whole), step);
      assert.strictEqual(snap.outcome, "completed");
      assert.strictEqual(snap.error, undefined);
      assert.deepStrictEqual(snap.messages, agUiMessagesOf(assembleAgentApi(StreamAssembler, bytes).output));
    }
  },

  async "translate(): a body to an AG-UI stream, with threadId and runId"({ translate, StreamAssembler }, assert) {
    const bytes = utf8(RUN);
    const out = await readAll(translate(iter(bytes.subarray(0, 100), bytes.subarray(100)),
      { from: "agent-api", to: "ag-ui", threadId: "thr", runId: "run" }));
    const evs = events(out);
    assert.deepStrictEqual(evs[0], { type: "RUN_STARTED", threadId: "thr", runId: "run", protocolVersion: "1.0" });
    assert.deepStrictEqual(evs.at(-1), { type: "RUN_FINISHED", threadId: "thr", runId: "run" });
    assert.strictEqual(assembleAgUi(StreamAssembler, out).threadId, "thr");
  },

  "Translator to ag-ui: failed closes what is open then RUN_ERROR; a truncated input ends with RUN_ERROR"(
    { Translator, StreamAssembler }, assert,
  ) {
    const frames = RUN.split("\n\n").filter(Boolean);
    // Cut inside the text message, then fail the run.
    const failed = `${frames.slice(0, 4).join("\n\n")}\n\ndata: ${JSON.stringify({ sequence_number: 9, object: "response",
      status: "failed", id: "resp_1", error: { code: "MODEL_TIMEOUT", message: "timed out" } })}\n\n`;
    for (const [input, last] of [
      [failed, { type: "RUN_ERROR", message: "timed out", code: "MODEL_TIMEOUT" }],
      [`${frames.slice(0, 4).join("\n\n")}\n\n`, { type: "RUN_ERROR", message: "The stream ended before the run did.", code: "INCOMPLETE_STREAM" }],
    ]) {
      const t = new Translator({ from: "agent-api", to: "ag-ui" });
      const out = concat([t.push(input), t.finish()]);
      t.free();
      const evs = events(out);
      assert.deepStrictEqual(evs.map((e) => e.type).slice(-3), ["TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_ERROR"]);
      assert.deepStrictEqual(evs.at(-1), last);
      const snap = assembleAgUi(StreamAssembler, out);
      assert.strictEqual(snap.outcome, "failed");
      assert.strictEqual(snap.error.source, "run");
      assert.deepStrictEqual(snap.messages, [{ role: "assistant", id: "m1", content: "Héllo " }]);
    }
  },

  "ResponseBuilder protocol ag-ui: the same calls give a verified AG-UI run that assembles back to what was built"(
    { ResponseBuilder, StreamAssembler }, assert,
  ) {
    const rb = new ResponseBuilder({ protocol: "ag-ui", threadId: "t1", runId: "r1" });
    const parts = produce(rb);
    parts.push(rb.completed({ usage: { input_tokens: 5, output_tokens: 4, total_tokens: 9 } }));
    assert.ok(rb.finished);
    rb.free();
    const bytes = concat(parts);
    const evs = events(bytes);
    assert.deepStrictEqual(evs.map((e) => e.type), [
      "RUN_STARTED",
      "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END", "REASONING_END",
      "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "CUSTOM", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
      "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT",
      "RUN_FINISHED",
    ]);
    assert.deepStrictEqual(evs[2], { type: "REASONING_MESSAGE_START", messageId: "m_think", role: "reasoning" });
    assert.deepStrictEqual(evs[10], { type: "CUSTOM", name: "agent-api.content", value: evs[10].value });
    assert.deepStrictEqual([evs[10].value.type, evs[10].value.msg_id, evs[10].value.index, evs[10].value.data],
      ["data", "m_answer", 1, { rows: [1] }]);
    assert.deepStrictEqual(evs.at(-2), { type: "TOOL_CALL_RESULT", messageId: "m_out", toolCallId: "call_1",
      content: '{"sky":"sunny"}', role: "tool" });
    assert.deepStrictEqual(evs.at(-1), { type: "RUN_FINISHED", threadId: "t1", runId: "r1",
      usage: [{ inputTokens: 5, outputTokens: 4, totalTokens: 9 }] });
    // Optional fields are absent, never null.
    assert.ok(!text(bytes).includes("null"));

    const expected = [
      { role: "reasoning", id: "m_think", content: "Let me think." },
      { role: "assistant", id: "m_answer", content: "Héllo wörld 😀 More." },
      { role: "assistant", id: "m_call", toolCalls: [{ id: "call_1", type: "function",
        function: { name: "get_weather", arguments: '{"city": "杭州"}' } }] },
      { role: "tool", id: "m_out", content: '{"sky":"sunny"}', toolCallId: "call_1" },
    ];
    for (const step of [1, 5, bytes.length]) {
      const snap = assembleAgUi(StreamAssembler, bytes, step);
      assert.strictEqual(snap.outcome, "completed");
      assert.deepStrictEqual([snap.threadId, snap.runId], ["t1", "r1"]);
      assert.deepStrictEqual(snap.messages, expected);
    }
    // The same calls with the Agent API, assembled and mapped, give the same messages.
    const api = new ResponseBuilder();
    const apiParts = produce(api);
    apiParts.push(api.completed());
    api.free();
    assert.deepStrictEqual(agUiMessagesOf(assembleAgentApi(StreamAssembler, concat(apiParts)).output), expected);
  },

  "ResponseBuilder protocol ag-ui: failed and canceled end the run as AG-UI allows; ids made per builder"(
    { ResponseBuilder, StreamAssembler }, assert,
  ) {
    const rb = new ResponseBuilder({ protocol: "ag-ui", sessionId: "s9" });
    const m = rb.message();
    const c = m.content();
    const bytes = concat([c.delta("partial"), rb.failed({ code: "MODEL_TIMEOUT", message: "timed out" })]);
    const evs = events(bytes);
    assert.deepStrictEqual(evs.map((e) => e.type), ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END", "RUN_ERROR"]);
    // threadId defaults to the session id, runId to the response id.
    assert.deepStrictEqual([evs[0].threadId, evs[0].runId], ["s9", rb.id]);
    assert.deepStrictEqual(evs.at(-1), { type: "RUN_ERROR", message: "timed out", code: "MODEL_TIMEOUT" });
    assert.strictEqual(assembleAgUi(StreamAssembler, bytes).outcome, "failed");
    rb.free();

    const runIds = new Set();
    for (let i = 0; i < 2; i++) {
      const cb = new ResponseBuilder({ protocol: "ag-ui" });
      const tool = cb.toolCall({ name: "f", callId: "c1" });
      const out = concat([tool.arguments("{"), cb.canceled()]);
      cb.free();
      const ce = events(out);
      assert.deepStrictEqual(ce.map((e) => e.type), ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS",
        "TOOL_CALL_END", "RUN_FINISHED"]);
      assert.ok(ce[0].threadId.startsWith("thread_"), ce[0].threadId);
      runIds.add(ce[0].threadId);
      assert.deepStrictEqual(ce.at(-1).outcome, { type: "cancelled" });
      assert.strictEqual(assembleAgUi(StreamAssembler, out).outcome, "canceled");
    }
    assert.strictEqual(runIds.size, 2);
  },

  async "ResponseBuilder.stream with protocol ag-ui: a handler serves AG-UI unchanged"({ ResponseBuilder, StreamAssembler }, assert) {
    const stream = ResponseBuilder.stream(async (rb) => {
      const m = rb.message();
      const c = m.content();
      c.delta("Hi");
      c.delta(" there");
    }, { protocol: "ag-ui", threadId: "t", runId: "r" });
    const bytes = await readAll(stream);
    const evs = events(bytes);
    assert.deepStrictEqual(evs.map((e) => e.type), ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    const snap = assembleAgUi(StreamAssembler, bytes);
    assert.deepStrictEqual(snap.messages.map((m) => m.content), ["Hi there"]);
  },

  "agUiRequest: a RunAgentInput becomes the Agent API request; errors name the field"({ agUiRequest }, assert) {
    const request = agUiRequest(JSON.stringify({
      threadId: "thr-1", runId: "run-1", state: { n: 1 }, forwardedProps: { user_id: "u1" },
      context: [{ description: "tz", value: "UTC" }],
      tools: [{ name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
      messages: [
        { id: "s", role: "system", content: "Be brief." },
        { id: "u", role: "user", content: [{ type: "text", text: "What is this?" },
          { type: "image", source: { type: "url", value: "https://x/y.png", mimeType: "image/png" } }] },
        { id: "a", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] },
        { id: "t", role: "tool", toolCallId: "c1", content: "-3°C" },
        { id: "x", role: "activity", activityType: "plan", content: {} },
      ],
    }));
    assert.deepStrictEqual([request.id, request.session_id, request.user_id, request.stream], ["run-1", "thr-1", "u1", true]);
    assert.deepStrictEqual(request.input.map((m) => [m.id, m.type, m.role]), [["s", "message", "system"],
      ["u", "message", "user"], ["a", "function_call", "assistant"], ["t", "function_call_output", "tool"]]);
    assert.deepStrictEqual(request.input[1].content.map((c) => [c.type, c.text ?? c.image_url]),
      [["text", "What is this?"], ["image", "https://x/y.png"]]);
    assert.deepStrictEqual(request.input[2].content[0].data, { call_id: "c1", name: "get_weather", arguments: '{"city":"Oslo"}' });
    assert.deepStrictEqual(request.input[3].content[0].data, { call_id: "c1", name: null, output: "-3°C" });
    assert.strictEqual(request.tools[0].function.name, "get_weather");
    assert.deepStrictEqual([request.state, request.forwarded_props, request.parent_run_id, request.context],
      [{ n: 1 }, { user_id: "u1" }, null, [{ description: "tz", value: "UTC" }]]);
    assert.strictEqual(agUiRequest(utf8('{"thread_id":"t","run_id":"r"}')).user_id, "default_user_id");
    for (const [body, code, field] of [
      ['{"runId":"r","messages":[]}', "INVALID_REQUEST", "threadId"],
      ['{"threadId":"t","messages":[]}', "INVALID_REQUEST", "runId"],
      ['{"threadId":"t","runId":"r","messages":[{"id":"m","role":"user"}]}', "INVALID_REQUEST", "messages.0.content"],
      ["{", "INVALID_JSON", undefined],
    ]) {
      let caught;
      try { agUiRequest(body); } catch (e) { caught = e; }
      assert.strictEqual(caught?.name, "AgentwireError", body);
      assert.strictEqual(caught.code, code, body);
      assert.strictEqual(caught.field, field, body);
    }
  },
};
