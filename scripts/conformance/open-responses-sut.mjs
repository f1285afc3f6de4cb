// The Open Responses compliance suite's system under test: `node open-responses-sut.mjs PORT`
// serves an AgentApp at 127.0.0.1:PORT (the suite's base URL: <url>/compatible-mode/v1) and
// prints `listening on <url>`; it imports only agentwire and node: modules. Its scripted agent
// (also behind tests/js/runners/openresponses.mjs and openresponses-schema.test.mjs) answers from
// what the request holds, so each of the suite's requests gets an answer of its kind.
//   - tools offered: a call of the first function tool, its required string parameters filled
//     with the last user text (the suite's weather question: `{"location": "..."}`);
//   - otherwise one text message that says what it read: the system instructions, images, the
//     earlier turns (a name given earlier is remembered) and the last user text.
// Compaction (`POST …/responses/compact`): the conversation as one system message (compactOf).

/** The texts of a message's text parts, joined. */
function textOf(message) {
  return (message.content ?? []).filter((p) => p.type === "text").map((p) => p.text).join(" ");
}

import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { AgentApp } from "agentwire";

/** What the agent answers `request` with, in words. */
export function answerOf(request) {
  const messages = (request.input ?? []).filter((m) => m.type === "message");
  const users = messages.filter((m) => m.role === "user");
  const last = users.length ? textOf(users.at(-1)) : "";
  const system = messages.filter((m) => m.role === "system").map(textOf).join(" ");
  const images = users.flatMap((m) => m.content ?? []).filter((p) => p.type === "image").length;
  const name = users.slice(0, -1).map(textOf).map((t) => /my name is (\w+)/i.exec(t)?.[1]).find(Boolean);
  const said = [];
  if (system) said.push(`Following the instructions "${system}".`);
  if (images) said.push(`I see ${images} image${images > 1 ? "s" : ""}.`);
  if (name && /name/i.test(last)) said.push(`Your name is ${name}.`);
  if (messages.length > users.length + (system ? 1 : 0) || users.length > 1) said.push(`We have exchanged ${messages.length} messages.`);
  said.push(`You said: "${last}"`);
  return said.join(" ");
}

/** The call the agent makes when `request` offers function tools (null otherwise). */
export function callOf(request) {
  const tool = (request.tools ?? []).find((t) => t.type === "function" && t.function?.name);
  if (!tool) return null;
  const users = (request.input ?? []).filter((m) => m.type === "message" && m.role === "user");
  const last = users.length ? textOf(users.at(-1)) : "";
  const params = tool.function.parameters ?? {};
  const args = {};
  for (const key of params.required ?? []) {
    if (params.properties?.[key]?.type === "string") args[key] = key === "location" ? "San Francisco, CA" : last;
  }
  return { name: tool.function.name, arguments: JSON.stringify(args) };
}

/** The agent: a tool call when tools are offered, a text answer otherwise, in small deltas. */
export async function openResponsesAgent(request, rb) {
  const call = callOf(request);
  if (call) {
    const tc = rb.toolCall({ type: "function", callId: "call_1", name: call.name });
    const half = Math.ceil(call.arguments.length / 2);
    tc.arguments(call.arguments.slice(0, half));
    tc.arguments(call.arguments.slice(half));
    tc.complete();
    return;
  }
  const text = rb.message().content("text");
  for (const word of answerOf(request).split(/(?<= )/)) text.delta(word);
}

/**
 * The compaction hook: the conversation so far (system instructions aside) as one system message
 * that says who said what, in order.
 */
export function compactOf(request) {
  const said = (request.input ?? []).filter((m) => m.type === "message" && m.role !== "system").map((m) => `${m.role}: ${textOf(m)}`);
  return [{ type: "message", role: "system", content: [{ type: "text", text: `Earlier in this conversation: ${said.join(" | ")}` }] }];
}

/** The AgentApp the suite tests: default options, the scripted agent, the compaction hook. */
export function openResponsesApp() {
  return new AgentApp({ agent: openResponsesAgent, compact: compactOf });
}

/** Serves `app` on 127.0.0.1:`port` (0: a free one); prints `listening on <url>` once it does. */
async function serve(app, port) {
  const server = createServer(app.nodeListener);
  // The Responses WebSocket mode on the same route (agentwire's optional peer `ws`).
  server.on("upgrade", app.nodeUpgrade);
  await new Promise((ok) => server.listen(port, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${server.address().port}`;
  console.log(`listening on ${url}`);
  const stop = () => server.close(() => app.close().then(() => process.exit(0)));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return { url, server };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await serve(openResponsesApp(), Number(process.argv[2] ?? 0));
}
