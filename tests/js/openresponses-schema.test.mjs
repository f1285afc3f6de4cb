// AgentApp's Responses route (`/compatible-mode/v1/responses`) and ResponseBuilder's
// `openai-responses` output against the Open Responses schemas (../shared/conformance/
// openresponses, its own zod schemas and SSE parser, run by bun: openresponses-validate.ts):
// every `response` object, in the JSON answer and in `response.created` / `in_progress` /
// `completed`, validates; it repeats the request's settings (`instructions`, `tools`,
// `tool_choice`, `temperature`, …) and the API's defaults for those not sent; a setting of the
// wrong type is refused naming it.
import test from "node:test";
import assert from "node:assert/strict";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ResponseBuilder } from "agentwire";
import { runBun, startApp, suiteCopy, suiteTools } from "./runners/openresponses.mjs";

const ROUTE = "/compatible-mode/v1/responses";
const TOOL = {
  type: "function", name: "get_weather", description: "Get the weather",
  parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
};
const SETTINGS = {
  instructions: "Answer briefly.", temperature: 0.25, top_p: 0.5, max_output_tokens: 64, store: false,
  tool_choice: "required", parallel_tool_calls: false, metadata: { team: "a" }, user: "u-1",
  previous_response_id: "(the earlier response)", truncation: "auto", text: { verbosity: "low" },
  reasoning: { effort: "low" }, service_tier: "flex", background: false,
};
/** What a response to a request with SETTINGS and TOOL repeats. */
const ECHOED = {
  ...SETTINGS, text: { verbosity: "low", format: { type: "text" } }, reasoning: { effort: "low", summary: null },
  tools: [{ ...TOOL, strict: null }],
};
const DEFAULTS = {
  background: false, instructions: null, max_output_tokens: null, max_tool_calls: null, parallel_tool_calls: true,
  previous_response_id: null, prompt_cache_key: null, reasoning: { effort: null, summary: null },
  safety_identifier: null, service_tier: "default", store: true, temperature: 1, presence_penalty: 0,
  frequency_penalty: 0, text: { format: { type: "text" } }, tool_choice: "auto", tools: [], top_logprobs: 0,
  top_p: 1, truncation: "disabled", user: null, metadata: {},
};
const REQUESTS = {
  text: { model: "m", input: "Say hello." },
  "text, streamed": { model: "m", input: "Say hello.", stream: true },
  "tools, streamed": { model: "m", input: "Weather in Paris?", tools: [TOOL], stream: true },
  "tools and settings": { model: "m", input: "Weather in Paris?", tools: [TOOL], ...SETTINGS },
  "tools and settings, streamed": { model: "m", input: "Weather in Paris?", tools: [TOOL], ...SETTINGS, stream: true },
};

async function withApp(fn) {
  const server = await startApp();
  try {
    return await fn(server.base);
  } finally {
    await server.close();
  }
}

async function post(base, body) {
  return fetch(`${base}${ROUTE}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** The answers to REQUESTS: `{ name, kind, body }`, the body as text. */
async function answers(base) {
  // A response to chain to (`previous_response_id` must name one the caller has).
  const earlier = await (await post(base, { model: "m", input: "Earlier." })).json();
  const out = [];
  for (const [name, request] of Object.entries(REQUESTS)) {
    const body = "previous_response_id" in request ? { ...request, previous_response_id: earlier.id } : request;
    const res = await post(base, body);
    assert.strictEqual(res.status, 200, name);
    out.push({ name, kind: body.stream ? "sse" : "json", body: await res.text(), earlier: earlier.id });
  }
  return out;
}

/** The `response` objects of an answer: the JSON answer, or those of a stream's events. */
function responsesOf({ kind, body }) {
  if (kind === "json") return [["answer", JSON.parse(body)]];
  return body.split("\n\n").filter(Boolean).map((frame) => JSON.parse(frame.split("\n").find((l) => l.startsWith("data: ")).slice(6)))
    .filter((e) => e.response).map((e) => [e.type, e.response]);
}

/** Validates `list` with the suite's schemas (bun); returns `{ name, errors, objects }[]`. */
async function validate(list) {
  const tools = suiteTools();
  const copy = suiteCopy(tools);
  try {
    cpSync(new URL("./openresponses-validate.ts", import.meta.url), join(copy.dir, "validate.ts"));
    writeFileSync(join(copy.dir, "answers.json"), JSON.stringify(list));
    const run = await runBun(tools.bun, ["run", "validate.ts", "answers.json"], copy.dir, 60_000);
    assert.strictEqual(run.code, 0, `${run.stdout}\n${run.stderr}`);
    return JSON.parse(run.stdout);
  } finally {
    copy.remove();
  }
}

test("every response object AgentApp's Responses route writes validates against the Open Responses schemas", async () => {
  const list = await withApp(answers);
  const results = await validate(list);
  for (const { name, errors, objects } of results) {
    assert.deepStrictEqual(errors, [], name);
    assert.strictEqual(objects, REQUESTS[name].stream ? 3 : 1, `${name}: response objects validated`);
  }
  // The tool requests were answered with a call.
  for (const answer of list.filter((a) => a.name.startsWith("tools"))) {
    const [, final] = responsesOf(answer).at(-1);
    assert.deepStrictEqual(final.output.map((i) => i.type), ["function_call"], answer.name);
    assert.deepStrictEqual(JSON.parse(final.output[0].arguments), { location: "San Francisco, CA" });
  }
});

test("every response object repeats the request's settings, and the API's defaults for those not sent", async () => {
  const list = await withApp(answers);
  for (const answer of list) {
    const request = REQUESTS[answer.name];
    const expected = { ...DEFAULTS, ...(request.tools ? { tools: [{ ...TOOL, strict: null }] } : {}), ...(request.temperature ? ECHOED : {}) };
    if ("previous_response_id" in request) expected.previous_response_id = answer.earlier;
    const objects = responsesOf(answer);
    assert.strictEqual(objects.length, request.stream ? 3 : 1, answer.name);
    for (const [where, response] of objects) {
      for (const [key, value] of Object.entries(expected)) {
        assert.deepStrictEqual(response[key], value, `${answer.name}, ${where}: ${key}`);
      }
      assert.strictEqual(response.model, "m");
    }
  }
});

test("a setting of the wrong type is refused with 400 naming it, before any run", async () => {
  await withApp(async (base) => {
    for (const [body, field] of [
      [{ input: "hi", tool_choice: 3 }, "tool_choice"],
      [{ input: "hi", store: "yes" }, "store"],
      [{ input: "hi", max_output_tokens: 1.5 }, "max_output_tokens"],
      [{ input: "hi", metadata: [] }, "metadata"],
      [{ input: "hi", tools: [TOOL, 5] }, "tools.1"],
    ]) {
      const res = await post(base, body);
      assert.strictEqual(res.status, 400, JSON.stringify(body));
      const { error } = await res.json();
      assert.deepStrictEqual([error.code, error.field], ["INVALID_REQUEST", field], JSON.stringify(body));
    }
  });
});

test("ResponseBuilder's request option: its settings in every response object; a wrong type is INVALID_OPTION", () => {
  const rb = new ResponseBuilder({ protocol: "openai-responses", responseId: "resp_1", request: { input: "x", tools: [TOOL], temperature: 0.5 } });
  const parts = [rb.message().content("text").delta("Hi"), rb.completed({ closeOpen: true })];
  rb.free();
  const text = parts.map((p) => new TextDecoder().decode(p)).join("");
  const objects = responsesOf({ kind: "sse", body: text });
  assert.deepStrictEqual(objects.map(([type]) => type), ["response.created", "response.in_progress", "response.completed"]);
  for (const [, response] of objects) {
    assert.deepStrictEqual(response.tools, [{ ...TOOL, strict: null }]);
    assert.strictEqual(response.temperature, 0.5);
    assert.strictEqual(response.tool_choice, "auto");
    assert.ok(!("input" in response));
  }
  assert.throws(() => new ResponseBuilder({ protocol: "openai-responses", request: { temperature: "hot" } }),
    (e) => e.code === "INVALID_OPTION" && e.field === "request.temperature");
});
