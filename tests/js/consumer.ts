// Type-checked (never run) by package.test.mjs with `tsc --noEmit --strict --lib
// es2022,esnext.disposable` (no DOM, no @types/node): the package's public types resolve through `exports.types`, are precise
// (no `any`), and narrow as documented.
import { parseEvent, parseRequest, StreamAssembler } from "agentwire";
import type {
  AgentEvent, AgentRequest, AgentwireError, ErrorCode, JsonValue, Message, Outcome, Snapshot, ToolCall,
  Update,
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
  // The snapshot is protocol-native: narrow it (Agent API has `output`, AG-UI `messages`).
  const outputs: Message[] = "output" in snapshot ? snapshot.output : [];
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
