// Type-checked (never run) by package.test.mjs with `tsc --noEmit --strict --lib
// es2022,esnext.disposable` (no DOM, no @types/node): the package's public types resolve through `exports.types`, are precise
// (no `any`), and narrow as documented.
import { parseEvent, parseRequest, StreamAssembler } from "agentwire";
import type {
  AgentEvent, AgentRequest, AgentwireError, ErrorCode, Message, Outcome, Snapshot, ToolCall, Update,
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
  void code; void field;
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
  const outputs: Message[] = snapshot.output;
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
void bytes;
translator.free();
const a2a: AgentRequest = a2aRequest("{}");
void a2a;
