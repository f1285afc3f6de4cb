// Type-checked (never run) by package.test.mjs with `tsc --noEmit --strict --lib es2022` (no DOM,
// no @types/node): the package's public types resolve through `exports.types`, are precise
// (no `any`), and narrow as documented.
import { parseEvent, parseRequest } from "agentwire";
import type { AgentEvent, AgentRequest, AgentwireError, ErrorCode, Message } from "agentwire";

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
