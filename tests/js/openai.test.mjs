// The official `openai` client (6.x, pinned in the workspace's devDependencies) against
// agentwire's OpenAI Responses support (Node only):
// 1. it consumes the Responses stream agentwire emits (translate() from Agent API streams,
//    served from 127.0.0.1) through responses.stream(), and its finalResponse() holds the same
//    text, function calls, reasoning and usage; it equals what StreamAssembler assembles;
// 2. for streams written to its published event schema, StreamAssembler's snapshot equals the
//    client's accumulated finalResponse(), complete or truncated.
import test from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import OpenAI from "openai";
import { StreamAssembler, translate } from "agentwire";
import { RUN } from "./assembler-cases.mjs";

const utf8 = (s) => new TextEncoder().encode(s);
async function* iter(...chunks) { yield* chunks; }

/** Serves each POST with the next body in `bodies`; returns an OpenAI client pointed at it. */
async function serve(bodies) {
  const server = createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { "content-type": "text/event-stream" });
    const body = bodies.shift();
    const chunk = typeof body === "string" ? utf8(body) : body;
    // Small writes: the client must reassemble events split across reads.
    for (let i = 0; i < chunk.length; i += 37) res.write(chunk.subarray(i, i + 37));
    res.end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = new OpenAI({ apiKey: "test", baseURL: `http://127.0.0.1:${server.address().port}/v1`, maxRetries: 0 });
  return { client, close: () => new Promise((r) => server.close(r)) };
}

/** The client's finalResponse() minus its convenience fields (not part of the wire object). */
function wire(response) {
  const { output_text: _t, output_parsed: _p, ...rest } = response;
  return {
    ...rest,
    output: rest.output.map((item) => {
      const { parsed_arguments: _a, ...i } = item;
      if (Array.isArray(i.content) && i.type === "message") {
        i.content = i.content.map(({ parsed: _x, ...c }) => c);
      }
      return i;
    }),
  };
}

function snapshotOf(bytes) {
  const asm = new StreamAssembler({ protocol: "openai-responses" });
  try {
    for (let i = 0; i < bytes.length; i += 11) asm.push(bytes.subarray(i, i + 11));
    asm.finish();
    return { snapshot: asm.snapshot(), toolCalls: asm.toolCalls(), outcome: asm.outcome };
  } finally {
    asm.free();
  }
}

async function collect(stream) {
  const parts = [];
  for await (const c of stream) parts.push(c);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

async function clientFinal(body) {
  const { client, close } = await serve([body]);
  try {
    const stream = client.responses.stream({ model: "m", input: "hi" });
    const events = [];
    stream.on("event", (e) => events.push(e.type));
    const final = await stream.finalResponse();
    return { final, events };
  } finally {
    await close();
  }
}

test("the client consumes agentwire's Responses stream: text, tool call, output, usage", async () => {
  const bytes = await collect(translate(iter(utf8(RUN)), { from: "agent-api", to: "openai-responses", model: "m" }));
  const { final, events } = await clientFinal(bytes);
  assert.strictEqual(events[0], "response.created");
  assert.strictEqual(events.at(-1), "response.completed");
  assert.ok(events.includes("response.function_call_arguments.delta"));
  assert.strictEqual(final.status, "completed");
  assert.strictEqual(final.output_text, "Héllo 中文 👩‍💻");
  const [message, call, output] = final.output;
  assert.strictEqual(message.content[0].text, "Héllo 中文 👩‍💻");
  assert.deepStrictEqual(
    { type: call.type, call_id: call.call_id, name: call.name, arguments: call.arguments, status: call.status },
    { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city": "Hangzhou"}', status: "completed" },
  );
  assert.deepStrictEqual([output.type, output.call_id, output.output], ["function_call_output", "call_1", "Sunny"]);
  const ours = snapshotOf(bytes);
  assert.strictEqual(ours.outcome, "completed");
  const { outcome: _o, warnings, ...response } = ours.snapshot;
  assert.deepStrictEqual(warnings, []);
  assert.deepStrictEqual(response, wire(final));
  assert.strictEqual(ours.toolCalls[0].arguments, '{"city": "Hangzhou"}');
  assert.deepStrictEqual(ours.toolCalls[0].parsed, { city: "Hangzhou" });
});

test("the client consumes a translated reference capture: reasoning, plugin_call, output, usage", async () => {
  const capture = readFileSync(new URL("./reference/sse/process_agentscope.sse", import.meta.url));
  const bytes = await collect(translate(iter(capture), { from: "agent-api", to: "openai-responses" }));
  const { final } = await clientFinal(bytes);
  assert.strictEqual(final.status, "completed");
  const types = final.output.map((i) => i.type);
  assert.deepStrictEqual(types.filter((t) => t !== "message"), ["reasoning", "function_call", "function_call_output"]);
  assert.ok(final.output.find((i) => i.type === "reasoning").content[0].text.length > 0);
  const call = final.output.find((i) => i.type === "function_call");
  assert.ok(JSON.parse(call.arguments).city === "Hangzhou");
  const { outcome: _o, warnings: _w, ...response } = snapshotOf(bytes).snapshot;
  assert.deepStrictEqual(response, wire(final));
});

// A stream as the Responses API sends it (published event schema): reasoning summary, a message
// with an annotation, a function call, usage.
const RESPONSE = (status, output = [], extra = {}) => ({
  id: "resp_9", object: "response", created_at: 1741290958, status, error: null,
  incomplete_details: null, instructions: null, max_output_tokens: null, model: "gpt-4.1-2025-04-14",
  output, parallel_tool_calls: true, previous_response_id: null, reasoning: { effort: null, summary: null },
  store: true, temperature: 1, text: { format: { type: "text" } }, tool_choice: "auto", tools: [],
  top_p: 1, truncation: "disabled", usage: null, user: null, metadata: {}, ...extra,
});
const REASONING = { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "Think **hard**." }] };
const MESSAGE = {
  id: "msg_1", type: "message", status: "completed", role: "assistant",
  content: [{ type: "output_text", text: "Hi there 😀", annotations: [{ type: "url_citation", start_index: 0, end_index: 2, url: "https://x", title: "X" }], logprobs: [] }],
};
const CALL = { id: "fc_1", type: "function_call", status: "completed", call_id: "call_9", name: "lookup", arguments: '{"q":"é"}' };
const USAGE = { input_tokens: 36, input_tokens_details: { cached_tokens: 0 }, output_tokens: 87, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: 123 };

function published({ complete }) {
  const ev = [];
  const push = (type, body) => ev.push({ type, sequence_number: ev.length, ...body });
  push("response.created", { response: RESPONSE("in_progress") });
  push("response.in_progress", { response: RESPONSE("in_progress") });
  push("response.output_item.added", { output_index: 0, item: { ...REASONING, summary: [] } });
  push("response.reasoning_summary_part.added", { item_id: "rs_1", output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } });
  push("response.reasoning_summary_text.delta", { item_id: "rs_1", output_index: 0, summary_index: 0, delta: "Think " });
  push("response.reasoning_summary_text.delta", { item_id: "rs_1", output_index: 0, summary_index: 0, delta: "**hard**." });
  push("response.reasoning_summary_text.done", { item_id: "rs_1", output_index: 0, summary_index: 0, text: "Think **hard**." });
  push("response.reasoning_summary_part.done", { item_id: "rs_1", output_index: 0, summary_index: 0, part: REASONING.summary[0] });
  push("response.output_item.done", { output_index: 0, item: REASONING });
  push("response.output_item.added", { output_index: 1, item: { ...MESSAGE, status: "in_progress", content: [] } });
  push("response.content_part.added", { item_id: "msg_1", output_index: 1, content_index: 0, part: { type: "output_text", text: "", annotations: [], logprobs: [] } });
  for (const d of ["Hi", " there", " 😀"]) {
    push("response.output_text.delta", { item_id: "msg_1", output_index: 1, content_index: 0, delta: d, logprobs: [] });
  }
  push("response.output_text.annotation.added", { item_id: "msg_1", output_index: 1, content_index: 0, annotation_index: 0, annotation: MESSAGE.content[0].annotations[0] });
  if (!complete) return ev;
  push("response.output_text.done", { item_id: "msg_1", output_index: 1, content_index: 0, text: "Hi there 😀", logprobs: [] });
  push("response.content_part.done", { item_id: "msg_1", output_index: 1, content_index: 0, part: MESSAGE.content[0] });
  push("response.output_item.done", { output_index: 1, item: MESSAGE });
  push("response.output_item.added", { output_index: 2, item: { ...CALL, status: "in_progress", arguments: "" } });
  push("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 2, delta: '{"q":' });
  push("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 2, delta: '"é"}' });
  push("response.function_call_arguments.done", { item_id: "fc_1", output_index: 2, arguments: '{"q":"é"}' });
  push("response.output_item.done", { output_index: 2, item: CALL });
  push("response.completed", { response: RESPONSE("completed", [REASONING, MESSAGE, CALL], { usage: USAGE }) });
  return ev;
}

const sseOf = (events) => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");

for (const complete of [true, false]) {
  test(`a published-schema stream (${complete ? "complete" : "truncated"}) assembles to the client's finalResponse()`, async () => {
    const text = sseOf(published({ complete }));
    const { final } = await clientFinal(text);
    const ours = snapshotOf(utf8(text));
    const { outcome, warnings, ...response } = ours.snapshot;
    assert.deepStrictEqual(response, wire(final));
    assert.strictEqual(outcome, complete ? "completed" : "truncated");
    assert.deepStrictEqual(warnings.map((w) => w.code), complete ? [] : ["TRUNCATED"]);
    if (complete) {
      assert.deepStrictEqual(response.usage, USAGE);
      assert.strictEqual(ours.toolCalls[0].callId, "call_9");
      assert.deepStrictEqual(ours.toolCalls[0].parsed, { q: "é" });
    }
    // Translated to the Agent API and back, the client still reads the same text and call.
    const agent = await collect(translate(iter(utf8(text)), { from: "openai-responses", to: "agent-api" }));
    const again = await collect(translate(iter(agent), { from: "agent-api", to: "openai-responses" }));
    const { final: final2 } = await clientFinal(again);
    assert.strictEqual(final2.output_text, final.output_text);
    if (complete) assert.strictEqual(final2.output.find((i) => i.type === "function_call").arguments, CALL.arguments);
  });
}
