// A streamed answer that has nothing to send for `runs.keepaliveMs` carries an SSE comment, over
// node:http on 127.0.0.1: every reader skips it (the assembler, the official `openai` client,
// A2A's JSON-RPC stream through the assembler), an answer with a steady flow of events carries
// none, and the option is checked.
import test from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { AgentApp, StreamAssembler } from "agentwire";
import { listen, post } from "./http-helpers.mjs";

const KEEPALIVE_MS = 30;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An agent that writes "first", is quiet for `pauseMs`, then writes " last". */
function pausing(pauseMs) {
  return async (request, rb) => {
    const text = rb.message().content("text");
    text.delta("first");
    await sleep(pauseMs);
    text.delta(" last");
  };
}

async function serve(agent, runs = {}) {
  const app = new AgentApp({ agent, runs: { keepaliveMs: KEEPALIVE_MS, ...runs } });
  const { server, base } = await listen(app);
  return { base, close: () => new Promise((resolve) => server.close(resolve)) };
}

const INPUT = { input: [{ role: "user", content: [{ type: "text", text: "hi" }] }] };
const comments = (body) => body.split(": keepalive\n\n").length - 1;

test("a quiet stream carries keep-alive comments, which the assembler skips", async () => {
  const { base, close } = await serve(pausing(10 * KEEPALIVE_MS));
  try {
    const body = await (await post(`${base}/process`, INPUT)).text();
    assert.ok(comments(body) >= 3, `comments while the agent was quiet: ${comments(body)}`);
    // Each comment stands between whole events.
    assert.match(body, /\n\n: keepalive\n\n/);
    const asm = new StreamAssembler();
    asm.push(new TextEncoder().encode(body));
    asm.finish();
    const snapshot = asm.snapshot();
    assert.equal(snapshot.status, "completed");
    assert.equal(snapshot.output.at(-1).content[0].text, "first last");
    asm.free();
  } finally {
    await close();
  }
});

test("the official openai client reads a stream with keep-alive comments", async () => {
  const { base, close } = await serve(pausing(6 * KEEPALIVE_MS));
  try {
    const client = new OpenAI({ baseURL: `${base}/compatible-mode/v1`, apiKey: "none" });
    const stream = await client.responses.create({ model: "m", input: "hi", stream: true });
    let text = "";
    let completed = null;
    for await (const event of stream) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response;
    }
    assert.equal(text, "first last");
    assert.equal(completed?.status, "completed");
  } finally {
    await close();
  }
});

test("an A2A stream with keep-alive comments assembles as without them", async () => {
  const { base, close } = await serve(pausing(6 * KEEPALIVE_MS));
  try {
    const res = await post(`${base}/a2a`, {
      jsonrpc: "2.0", id: 1, method: "SendStreamingMessage",
      params: { message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }] } },
    }, { "a2a-version": "1.0" });
    const body = await res.text();
    assert.ok(comments(body) >= 2, `comments: ${comments(body)}`);
    const snapshot = await StreamAssembler.collect(new Response(body));
    assert.equal(snapshot.status, "completed");
    assert.match(JSON.stringify(snapshot.output), /first last/);
  } finally {
    await close();
  }
});

test("a stream that keeps flowing carries no comment; keepaliveMs 0 sends none", async () => {
  // A delta every 10 ms against a 250 ms keep-alive: only a stall of the event loop of a whole
  // interval could let a comment through.
  const steady = async (request, rb) => {
    const text = rb.message().content("text");
    for (let i = 0; i < 60; i++) {
      text.delta(`w${i} `);
      await sleep(10);
    }
  };
  const flowing = await serve(steady, { keepaliveMs: 250 });
  try {
    const body = await (await post(`${flowing.base}/process`, INPUT)).text();
    assert.equal(comments(body), 0);
  } finally {
    await flowing.close();
  }
  const off = await serve(pausing(6 * KEEPALIVE_MS), { keepaliveMs: 0 });
  try {
    const body = await (await post(`${off.base}/process`, INPUT)).text();
    assert.equal(comments(body), 0);
    assert.match(body, /first last|" last"/);
  } finally {
    await off.close();
  }
});

test("runs.keepaliveMs is checked", () => {
  const agent = pausing(0);
  for (const keepaliveMs of [-1, 5, 1.5, "15000", 2 ** 31, Number.NaN, null]) {
    assert.throws(() => new AgentApp({ agent, runs: { keepaliveMs } }), (e) => e.code === "INVALID_OPTION" && e.field === "runs", String(keepaliveMs));
  }
  for (const keepaliveMs of [0, 10, 15_000, 2 ** 31 - 1]) new AgentApp({ agent, runs: { keepaliveMs } }).close();
});

test("a non-streamed answer past keepaliveMs starts with JSON whitespace: the official openai client and @a2a-js/sdk read it", async () => {
  const { base, close } = await serve(pausing(8 * KEEPALIVE_MS));
  try {
    // The raw body: spaces while the agent is quiet, then the response object.
    const res = await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: "hi" });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type"), /^application\/json/);
    const body = await res.text();
    const spaces = body.length - body.trimStart().length;
    assert.ok(spaces >= 3, `spaces while the agent was quiet: ${spaces}`);
    assert.match(body, /^ +\{/);
    assert.equal(JSON.parse(body).status, "completed");
    const client = new OpenAI({ baseURL: `${base}/compatible-mode/v1`, apiKey: "none" });
    const response = await client.responses.create({ model: "m", input: "hi" });
    assert.equal(response.status, "completed");
    assert.equal(response.output_text, "first last");
    const { pathToFileURL } = await import("node:url");
    const sdk = (path) => import(pathToFileURL(`${process.env.AGENTWIRE_ROOT}/node_modules/@a2a-js/sdk/dist/${path}`).href);
    const { ClientFactory } = await sdk("client/index.js");
    const { Message } = await sdk("index.js");
    const a2a = await new ClientFactory().createFromUrl(base);
    const answer = await a2a.sendMessage({ message: Message.fromJSON({ messageId: "u1", role: "ROLE_USER", parts: [{ text: "hi" }] }) });
    const task = answer.payload?.$case === "task" ? answer.payload.value : answer;
    assert.equal(task.status?.state, 3 /* TASK_STATE_COMPLETED */, JSON.stringify(answer));
  } finally {
    await close();
  }
});

test("a non-streamed answer within keepaliveMs is sent as it is (no whitespace)", async () => {
  const { base, close } = await serve(pausing(0), { keepaliveMs: 5_000 });
  try {
    const res = await post(`${base}/compatible-mode/v1/responses`, { model: "m", input: "hi" });
    const body = await res.text();
    assert.match(body, /^\{/);
    assert.equal(JSON.parse(body).output_text ?? JSON.parse(body).output[0].content[0].text, "first last");
  } finally {
    await close();
  }
});

test("a client that leaves a whitespace-kept answer stops the run's wait: the run, read by nobody, is abandoned", async () => {
  let aborted = false;
  const agent = async (request, rb, { signal }) => {
    rb.message().content("text").delta("thinking");
    await new Promise((resolve) => {
      signal.addEventListener("abort", () => {
        aborted = true;
        resolve();
      }, { once: true });
    });
  };
  const { base, close } = await serve(agent, { abandonAfterMs: 100 });
  try {
    const leaving = new AbortController();
    const res = await fetch(`${base}/compatible-mode/v1/responses`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", input: "hi" }), signal: leaving.signal,
    });
    const reader = res.body.getReader();
    assert.equal((await reader.read()).value[0], 0x20, "the answer started with a space");
    leaving.abort();
    const deadline = Date.now() + 8_000;
    while (!aborted && Date.now() < deadline) await sleep(20);
    assert.ok(aborted, "the agent was stopped once its only client left");
  } finally {
    await close();
  }
});
