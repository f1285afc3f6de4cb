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
