// The A2A TCK's system under test: `node a2a-tck-sut.mjs PORT` serves an AgentApp on its default
// routes at 127.0.0.1:PORT and prints `listening on <url>` (tests/js/runners/a2a-tck.mjs runs the
// TCK against it; it imports only agentwire and node: modules, so it runs in any project with the
// package installed). Its agent's behaviour is chosen by the
// prefix of the last input message's id (the A2A `messageId`), as the TCK's scenarios
// (`scenarios/*.feature`) and its reference system under test (`sut/a2a-python`) have it.
// An unknown prefix is answered by a task completed with a text that names the id.
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { AgentApp } from "agentwire";

/** How long a TCK client waits for a streamed event (its `_STREAMING_TIMEOUT_S`), in ms. */
export const STREAMING_TIMEOUT_MS = 2000;

const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
});

/** One message with one completed part of `type` set to `value` (text or an object). */
function part(rb, type, value) {
  const message = rb.message();
  const content = message.content(type);
  if (typeof value === "string" && type === "text") content.delta(value);
  else content.set(value);
  content.complete();
  message.complete();
}

/** What each messageId prefix does, longest prefix first (`tck-artifact-file-url` before `tck-artifact-file`). */
const SCENARIOS = [
  ["tck-stream-artifact-chunked", (rb) => {
    rb.inProgress();
    const message = rb.message();
    const text = message.content("text");
    text.delta("chunk-1 ");
    text.delta("chunk-2");
    text.complete();
    message.complete();
  }],
  ["test-resubscribe-message-id", async (rb, signal) => {
    rb.inProgress();
    await sleep(2 * STREAMING_TIMEOUT_MS, signal);
  }],
  ["tck-stream-artifact-text", (rb) => { rb.inProgress(); part(rb, "text", "Streamed text content"); }],
  ["tck-stream-artifact-file", (rb) => {
    rb.inProgress();
    part(rb, "file", { file_data: "data:text/plain;base64,dGNr", filename: "output.txt" });
  }],
  ["tck-stream-ordering-001", (rb) => { rb.inProgress(); part(rb, "text", "Ordered output"); }],
  ["tck-artifact-file-url", (rb) => part(rb, "file", { file_url: "https://example.com/output.txt", filename: "output.txt" })],
  ["tck-complete-task", (rb) => part(rb, "text", "Hello from TCK")],
  // A Message answer, not a task.
  ["tck-message-response", (rb) => part(rb.asMessage(), "text", "Direct message response")],
  ["tck-artifact-text", (rb) => part(rb, "text", "Generated text content")],
  ["tck-artifact-file", (rb) => part(rb, "file", { file_data: "data:text/plain;base64,dGNr", filename: "output.txt" })],
  ["tck-artifact-data", (rb) => part(rb, "data", { key: "value", count: 42 })],
  ["tck-reject-task", () => {
    throw Object.assign(new Error("rejected"), { code: "REJECTED" });
  }],
  ["tck-input-required", (rb) => rb.interrupt({ reason: "input_required", message: "Please provide more input." })],
  ["tck-stream-001", (rb) => { rb.inProgress(); part(rb, "text", "Stream hello from TCK"); }],
  ["tck-stream-002", () => {}],
  ["tck-stream-003", (rb) => { rb.inProgress(); part(rb, "text", "Stream task lifecycle"); }],
];

/** The TCK's agent: `(request, rb, {signal})`, as AgentApp calls it. */
export async function tckAgent(request, rb, { signal } = {}) {
  const input = request.input ?? [];
  const id = String(input[input.length - 1]?.id ?? "");
  const scenario = SCENARIOS.find(([prefix]) => id.startsWith(prefix));
  if (scenario) return scenario[1](rb, signal);
  part(rb, "text", `Unhandled messageId prefix: ${id}`);
}

/**
 * The AgentApp the TCK tests: default options but the card, which the TCK checks against the
 * strict 1.0 schema (it rejects the 0.3 fields of the default card, "both", and requires
 * `skills`: CARD-STRUCT-001 fails without either), and `listTasks: "all"`: the TCK's client
 * sends no credentials, and an app without `authorize` lists tasks only when told that its
 * anonymous callers (all one principal) may see each other's. The skill is the TCK's own SUT's.
 */
export function tckApp() {
  return new AgentApp({
    name: "agentwire TCK agent", agent: tckAgent, cardVersion: "1.0", listTasks: "all",
    skills: [{ id: "tck", name: "TCK Conformance", description: "Handles TCK conformance test messages", tags: ["tck"] }],
  });
}

/** Serves `app` on 127.0.0.1:`port` (0: a free one); prints `listening on <url>` once it does. */
async function serve(app, port) {
  const server = createServer(app.nodeListener);
  await new Promise((ok) => server.listen(port, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${server.address().port}`;
  console.log(`listening on ${url}`);
  const stop = () => server.close(() => app.close().then(() => process.exit(0)));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return { url, server };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await serve(tckApp(), Number(process.argv[2] ?? 0));
}
