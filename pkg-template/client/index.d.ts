// The public types of agentwire/client, shared by its runtime entries (node, browser, workerd,
// deno): what a browser UI reads with (StreamAssembler for every protocol, connect(), parseEvent,
// the conversation helpers), without any writer. Importing it instantiates its WebAssembly module.
// The glue's classes have `[Symbol.dispose]`: see assembler.d.ts.
/// <reference lib="esnext.disposable" />
export { agUiRequest, parseEvent, responsesRequest, wasmMemoryBytes } from "./agentwire.js";
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
export { convertHistory, fromAgUiMessages, fromResponsesInput, nextTurn, toAgUiMessages, toResponsesInput } from "./conversation.js";
export { answerInterrupts } from "./interrupts.js";
export type { AnswerProtocol, InterruptAnswer, PausedSnapshot } from "./interrupts.js";
export type { A2aUserMessage, AgentApiInput, AgentApiInputMessage, HistoryFrom, HistoryTo, OpenAIResponsesInputItem, Turn } from "./conversation.js";
export type {
  AbortSignalLike,
  ConnectError,
  ConnectInit,
  ConnectOptions,
  ReconnectUpdate,
  RunConnection,
  AgentApiSnapshot,
  AgUiContentPart,
  AgUiError,
  AgUiEvent,
  AgUiInterrupt,
  AgUiMessage,
  AgUiMetadata,
  AgUiPartSource,
  AgUiSnapshot,
  AgUiTokenUsage,
  AgUiToolCall,
  ArgumentsUpdate,
  Body,
  Chunk,
  ContentUpdate,
  EventUpdate,
  MessageUpdate,
  OrderUpdate,
  Outcome,
  Protocol,
  ReadableStreamLike,
  ReplaceUpdate,
  ResponseLike,
  ResponseUpdate,
  Snapshot,
  SnapshotOf,
  StateUpdate,
  StreamAssemblerOptions,
  TextUpdate,
  ToolCall,
  Update,
  Warning,
  WarningCode,
  WarningUpdate,
} from "./assembler.js";
export type {
  AgentEvent,
  AgentRequest,
  AgentResponse,
  AudioContent,
  Content,
  ContentBase,
  DataContent,
  ErrorCode,
  EventBase,
  EventErrorInfo,
  FileContent,
  ImageContent,
  JsonObject,
  JsonValue,
  Message,
  RefusalContent,
  Role,
  RunStatus,
  TextContent,
  Tool,
  VideoContent,
} from "./agentwire.js";
export type { OpenAIResponsesItem, OpenAIResponsesSnapshot } from "./assembler.js";
