// The public types of agentwire/lite: StreamAssembler for Agent API streams, in a WebAssembly
// module a third of the size of the full package (the package README, "agentwire/lite").
// `protocol` may only be "agent-api" or "auto"; other protocols throw INVALID_OPTION, and a
// stream detected as AG-UI, OpenAI Responses or A2A throws PROTOCOL_VIOLATION: import
// StreamAssembler from "agentwire" for those.
// The glue's classes have `[Symbol.dispose]`: see assembler.d.ts.
/// <reference lib="esnext.disposable" />
export { wasmMemoryBytes } from "./agentwire.js";
import type { AgentwireError as AgentwireErrorShape, ErrorCode } from "./agentwire.js";
/**
 * The class of every error agentwire throws. `error instanceof AgentwireError` holds for every
 * one of them, in every runtime and realm and from either build (it tests the name and the
 * code); branch on `code`.
 */
export declare const AgentwireError: {
  new (code: ErrorCode, message: string, options?: { field?: string; offset?: number; cause?: unknown }): AgentwireErrorShape;
  readonly prototype: AgentwireErrorShape;
  [Symbol.hasInstance](value: unknown): value is AgentwireErrorShape;
};
export type AgentwireError = AgentwireErrorShape;
export { StreamAssembler } from "./assembler.js";
export type { AbortSignalLike, ConnectError, ConnectInit, ConnectOptions, FetchResponse, HttpResponseLike, ReconnectUpdate, RunConnection } from "./connect-types.js";
export type {
  AgentApiSnapshot,
  ArgumentsUpdate,
  Body,
  Chunk,
  ContentUpdate,
  MessageUpdate,
  OrderUpdate,
  Outcome,
  ReadableStreamLike,
  ReplaceUpdate,
  ResponseLike,
  ResponseUpdate,
  Snapshot,
  StreamAssemblerOptions,
  TextUpdate,
  ToolCall,
  Update,
  Warning,
  WarningCode,
  WarningUpdate,
} from "./assembler.js";
export type {
  AgentResponse,
  AudioContent,
  Content,
  DataContent,
  ErrorCode,
  FileContent,
  ImageContent,
  JsonObject,
  JsonValue,
  Message,
  RefusalContent,
  Role,
  RunStatus,
  TextContent,
  VideoContent,
} from "./agentwire.js";
