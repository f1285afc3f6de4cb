// Type-checked (never run) by package.test.mjs with `tsc --noEmit --strict --lib
// es2022,esnext.disposable` (no DOM, no @types/node): the package's public types resolve through `exports.types`, are precise
// (no `any`), and narrow as documented.
import { parseEvent, parseRequest, ResponseBuilder, StreamAssembler } from "agentwire";
import type {
  AgentEvent, AgentRequest, AgentwireError, ContentBuilder, ErrorCode, JsonValue, Message, MessageBuilder,
  Outcome, ProduceContext, ResponseBuilderOptions, Snapshot, StreamOptions, ToolCall, ToolCallBuilder, Update,
} from "agentwire";

const request: AgentRequest = parseRequest('{"input":[]}');
const input: Message[] = request.input;
const n: number | null = request.n;
const stream: boolean = parseRequest(new Uint8Array()).stream;

const event: AgentEvent = parseEvent("{}");
if (event.object === "content" && event.type === "text") {
  const text: string | null = event.text;
  void text;
} else if (event.object === "response") {
  const createdAt: number = event.created_at;
  void createdAt;
}

try {
  parseRequest("{");
} catch (e) {
  const error = e as AgentwireError;
  const code: ErrorCode = error.code;
  const field: string | undefined = error.field;
  const cause: unknown = error.cause;
  const lost: boolean = code === "INSTANCE_LOST";
  void code; void field; void cause; void lost;
}

// Wrong argument types are rejected: proof that the parameters are not `any`.
// @ts-expect-error a number is not JSON text
parseRequest(42);
// @ts-expect-error the result is not `any`, so an unknown property of a known field fails
request.input.nope;
// @ts-expect-error init functions are not part of the public entry
import("agentwire").then((m) => m.initSync);

void input; void n; void stream;

// StreamAssembler: updates narrow by `type`; the snapshot and tool calls are typed.
{
  using asm = new StreamAssembler({ protocol: "auto", strict: false, maxEventBytes: 1 << 20 });
  const updates: Update[] = asm.push(new Uint8Array());
  for (const u of updates) {
    if (u.type === "text") {
      const delta: string = u.delta;
      const replace: boolean = u.replace;
      void delta; void replace;
    } else if (u.type === "response") {
      const outcome: Outcome = u.outcome;
      void outcome;
    } else if (u.type === "warning") {
      const code: string = u.code;
      void code;
    }
  }
  const snapshot: Snapshot = asm.snapshot();
  // The snapshot is protocol-native: narrow it (Agent API has `sequence_number`, OpenAI
  // Responses `model`, AG-UI `messages`), or pass `protocol` to get one type.
  const outputs: Message[] = "sequence_number" in snapshot ? snapshot.output : [];
  if ("messages" in snapshot) {
    const ids: string[] = snapshot.messages.map((m) => m.id);
    const state: JsonValue = snapshot.state;
    void ids; void state;
  }
  for (const u of updates) {
    if (u.type === "state") {
      const state: JsonValue = u.state;
      void state;
    } else if (u.type === "replace") {
      const role: string = u.message.role;
      void role;
    }
  }
  const calls: ToolCall[] = asm.toolCalls();
  const raw: string | undefined = calls[0]?.arguments;
  // @ts-expect-error not a protocol
  new StreamAssembler({ protocol: "grpc" });
  // @ts-expect-error push takes bytes or text
  asm.push(42);
  void outputs; void raw;
}
async function readBody(body: AsyncIterable<Uint8Array>): Promise<string> {
  const snapshot = await StreamAssembler.collect(body, { strict: true });
  for await (const batch of StreamAssembler.read(body)) void batch;
  return snapshot.outcome;
}
void readBody;

// Protocol adapters.
import { a2aRequest, translate, Translator } from "agentwire";
import type { TranslateOptions } from "agentwire";
const translateOptions: TranslateOptions = { from: "agent-api", to: "openai-responses", model: "m" };
const translated = translate((async function* () { yield new Uint8Array(); })(), translateOptions);
void translated.getReader();
const translator = new Translator({ from: "openai-responses", to: "a2a", requestId: 1 });
const bytes: Uint8Array = translator.push("data: {}\n\n");
const failed: Uint8Array = translator.fail({ code: "SOURCE_ERROR", message: "the upstream went away" });
void bytes; void failed;
translator.free();
const reported = translate((async function* () { yield "data: {}\n\n"; })(), { ...translateOptions, onError: (error: unknown) => void error });
void reported;
// @ts-expect-error onError is translate()'s, not the Translator's
void new Translator({ ...translateOptions, onError: () => {} });
const a2a: AgentRequest = a2aRequest("{}");
void a2a;
import { agUiRequest } from "agentwire";
const fromRunInput: AgentRequest = agUiRequest('{"threadId":"t","runId":"r","messages":[]}');
void fromRunInput;
const toAgUi: TranslateOptions = { from: "agent-api", to: "ag-ui", threadId: "t", runId: "r" };
void toAgUi;
const agUiBuilder: ResponseBuilderOptions = { protocol: "ag-ui", threadId: "t", runId: "r" };
void agUiBuilder;
// ResponseBuilder: every emitting method returns bytes, children are typed, the statics return
// byte streams, and the options are checked.
{
  const options: ResponseBuilderOptions = { sessionId: "s1", responseId: null, format: "ndjson", protocol: "agent-api" };
  using rb = new ResponseBuilder(options);
  const frames: Uint8Array[] = [rb.created(), rb.inProgress()];
  const m: MessageBuilder = rb.message({ role: "assistant", type: "reasoning", metadata: { a: 1 } });
  const id: string = m.id;
  const c: ContentBuilder = m.content("data");
  const index: number = c.index;
  frames.push(c.delta({ rows: [1] }), c.set("text"), c.complete(), m.complete());
  const call: ToolCallBuilder = rb.toolCall({ name: "f", callId: "c1", type: "mcp", serverLabel: "fs" });
  frames.push(call.arguments("{}"), call.complete());
  frames.push(rb.toolOutput({ callId: "c1", output: { ok: true } }));
  frames.push(rb.completed({ usage: { total_tokens: 3 }, closeOpen: true }));
  const done: boolean = rb.finished;
  const seq: number = rb.sequenceNumber;
  const type: string = ResponseBuilder.contentType("sse");
  // @ts-expect-error not a format
  ResponseBuilder.contentType("xml");
  // @ts-expect-error a delta is a string or an object
  c.delta(42);
  // @ts-expect-error failed needs a code and a message
  rb.failed({ code: "X" });
  // @ts-expect-error children come from their parent
  new (m.constructor as typeof MessageBuilder)();
  // @ts-expect-error toolCall needs a callId
  rb.toolCall({ name: "f" });
  void frames; void id; void index; void done; void seq; void type;
}
async function serve(tokens: AsyncIterable<string>): Promise<void> {
  const streamOptions: StreamOptions = { highWaterMark: 1024, onError: (e: unknown) => void e, sessionId: "s" };
  const body: ReadableStream<Uint8Array> = ResponseBuilder.stream(async (rb: ResponseBuilder, { signal }: ProduceContext) => {
    const text = rb.message().content();
    for await (const token of tokens) {
      if (signal.aborted) return;
      text.delta(token);
      await rb.ready();
    }
  }, streamOptions);
  const fromText: ReadableStream<Uint8Array> = ResponseBuilder.fromText(["a", "b"], { role: "user" });
  // @ts-expect-error tokens are strings
  ResponseBuilder.fromText([1, 2]);
  // @ts-expect-error stream options are checked
  ResponseBuilder.stream(() => {}, { highWaterMark: "big" });
  void body; void fromText;
}
void serve;
// OpenAI Responses snapshots: narrowed by the assembler's protocol; items narrow on `type`.
import type { OpenAIResponsesSnapshot } from "agentwire";
{
  using asm = new StreamAssembler({ protocol: "openai-responses" });
  if (asm.protocol === "openai-responses") {
    const snapshot = asm.snapshot() as unknown as OpenAIResponsesSnapshot;
    const outcome: Outcome = snapshot.outcome;
    const total: number | undefined = snapshot.usage?.total_tokens;
    // @ts-expect-error not an item type agentwire produces
    snapshot.output.filter((item) => item.type === "web_search_call");
    for (const item of snapshot.output) {
      if (item.type === "function_call") {
        const args: string = item.arguments;
        void args;
      } else if (item.type === "message") {
        for (const part of item.content) if (part.type === "output_text") void part.text;
      }
    }
    void outcome; void total;
  }
}

// agentwire/lite: the same StreamAssembler types, from its own entry; nothing else is exported.
import { StreamAssembler as LiteAssembler, wasmMemoryBytes as liteMemory } from "agentwire/lite";
import type { AgentApiSnapshot as LiteSnapshot, Update as LiteUpdate } from "agentwire/lite";
{
  using asm = new LiteAssembler({ protocol: "agent-api", strict: true });
  const updates: LiteUpdate[] = asm.push("data: {}\n\n");
  const snapshot = asm.snapshot() as LiteSnapshot;
  const bytes: number = liteMemory();
  void updates; void snapshot; void bytes;
}
// @ts-expect-error agentwire/lite has no ResponseBuilder
import("agentwire/lite").then((m) => m.ResponseBuilder);

// agentwire/client: StreamAssembler for every protocol, the conversation helpers, no writer.
import { StreamAssembler as ClientAssembler, answerInterrupts as clientAnswer, nextTurn as clientNextTurn, parseEvent as clientParseEvent } from "agentwire/client";
import type { AgUiSnapshot as ClientAgUiSnapshot, OpenAIResponsesSnapshot as ClientResponsesSnapshot, Update as ClientUpdate } from "agentwire/client";
{
  using asm = new ClientAssembler({ protocol: "ag-ui" });
  const updates: ClientUpdate[] = asm.push("data: {}\n\n");
  const snapshot = asm.snapshot() as ClientAgUiSnapshot;
  const next = clientNextTurn("ag-ui", { snapshot, user: "more" });
  const event = clientParseEvent('{"object":"content"}');
  const responses = null as unknown as ClientResponsesSnapshot;
  void updates; void next; void event; void responses; void clientAnswer;
}
// @ts-expect-error agentwire/client has no ResponseBuilder
import("agentwire/client").then((m) => m.ResponseBuilder);
// @ts-expect-error agentwire/client has no AgentApp
import("agentwire/client").then((m) => m.AgentApp);

// AgentApp compiles without the fetch API's types too (its Request and Response are structural).
import { AgentApp } from "agentwire";
export const app = new AgentApp({ agent: (request, rb) => { rb.message().content("text").delta(String(request.input.length)); } });
export const handler = { fetch: app.fetch };
// Responses compaction: a hook from the conversation to its compacted messages.
import type { CompactedMessage } from "agentwire";
const compacted: CompactedMessage[] = [{ role: "system", content: [{ type: "text", text: "summary" }] }];
export const compacting = new AgentApp({
  agent: () => {},
  compact: async (request, { principal }) => (principal === null ? [] : [...compacted, ...request.input.slice(-1)]),
});
// @ts-expect-error a hook's answer is a list of messages with a role
export const badCompacting = new AgentApp({ agent: () => {}, compact: () => [{ content: [] }] });
