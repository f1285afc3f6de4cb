// Type-checked (never run) by package.test.mjs with TypeScript 5.9 and 7, each once with the DOM
// lib and once with @types/node: what a web developer writes with `fetch` compiles as the README
// shows it, and a known protocol gives its own snapshot type.
import { StreamAssembler } from "agentwire";
import type { AgUiSnapshot, AgentApiSnapshot, OpenAIResponsesSnapshot, Snapshot, Update } from "agentwire";

export async function consume(url: string): Promise<void> {
  // A fetch Response, its body (a ReadableStream), and an async iterable are all bodies.
  const res = await fetch(url, { method: "POST", body: "{}" });
  for await (const batch of StreamAssembler.read(res)) {
    const updates: Update[] = batch;
    void updates;
  }
  if (res.body) {
    for await (const batch of StreamAssembler.read(res.body)) void batch;
    const whole: Snapshot = await StreamAssembler.collect(res.body);
    void whole;
  }
  async function* chunks(): AsyncGenerator<Uint8Array | string> {
    yield new TextEncoder().encode("data: {}\n\n");
    yield "data: {}\n\n";
  }
  await StreamAssembler.collect(chunks());

  // The snapshot type follows the protocol option.
  const agentApi: AgentApiSnapshot = await StreamAssembler.collect(res, { protocol: "agent-api" });
  const ids: string[] = agentApi.output.map((m) => m.id);
  const agui: AgUiSnapshot = await StreamAssembler.collect(res, { protocol: "ag-ui" });
  const roles: string[] = agui.messages.map((m) => m.role);
  const responses: OpenAIResponsesSnapshot = await StreamAssembler.collect(res, { protocol: "openai-responses" });
  const items: string[] = responses.output.map((i) => i.type);
  const a2a: AgentApiSnapshot = await StreamAssembler.collect(res, { protocol: "a2a" });
  void ids; void roles; void items; void a2a;

  using asm = new StreamAssembler({ protocol: "ag-ui", strict: true });
  const messages = asm.snapshot().messages;
  void messages;
  using detected = new StreamAssembler();
  // @ts-expect-error the protocol is detected: the snapshot may be any protocol's
  void detected.snapshot().output;
  const any: Snapshot = detected.snapshot();
  void any;
}

// AgentApp: a fetch handler whose types are the runtime's own Request and Response.
import { AgentApp, a2aCall } from "agentwire";
import type { AgentAppOptions } from "agentwire";

const options: AgentAppOptions = {
  name: "Friday",
  agent: async (request, rb, { signal }) => {
    if (signal.aborted) return;
    rb.message().content("text").delta(`${request.input.length} messages`);
  },
  authorize: (request: Request) => request.headers.get("authorization") === "Bearer t",
  onError: (error, { request, during }) => console.error(error, request?.url ?? during),
};
export const app = new AgentApp(options);
export const worker: { fetch(request: Request): Promise<Response> } = { fetch: app.fetch };
app.addEndpoint({ method: "GET", path: "/version", handler: () => Response.json({ version: 1 }) });
export async function answer(request: Request): Promise<Response> {
  const { call, error } = a2aCall(new Uint8Array(await request.arrayBuffer()), request.headers.get("A2A-Version"));
  return error ? Response.json(error) : app.fetch(new Request(request.url, { method: "POST", body: JSON.stringify(call.params) }));
}
