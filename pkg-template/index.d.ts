// The public types of agentwire, shared by every runtime entry (node, browser, workerd, deno).
// Importing the package instantiates the WebAssembly module: everything here is ready to call.
// The glue's classes have `[Symbol.dispose]`: see assembler.d.ts.
/// <reference lib="esnext.disposable" />
export { a2aRequest, agUiRequest, parseEvent, parseRequest, requestFor, responsesRequest, wasmMemoryBytes } from "./agentwire.js";
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
export { Translator, translate } from "./translate.js";
export type { ReadableStreamOut, TranslateOptions, TranslateStreamOptions } from "./translate.js";
export { StreamAssembler } from "./assembler.js";
export { ContentBuilder, MessageBuilder, ResponseBuilder, ToolCallBuilder } from "./builder.js";
export { convertHistory, fromAgUiMessages, fromResponsesInput, nextTurn, toAgUiMessages, toResponsesInput } from "./conversation.js";
export { answerInterrupts } from "./interrupts.js";
export type { AnswerProtocol, InterruptAnswer, PausedSnapshot } from "./interrupts.js";
export { a2aAgentCard, a2aCall, a2aError, a2aTask } from "./a2a.js";
export { AgentApp } from "./app.js";
export { upstream } from "./upstream.js";
export type { UpstreamHeaders, UpstreamOptions, UpstreamProtocol } from "./upstream.js";
export { MemoryRunStore, RunStoreError } from "./runs.js";
export type { LoggedEvent, MemoryRunStoreOptions, RunInfo, RunListQuery, RunStore } from "./runs.js";
export { RedisRunStore } from "./redis.js";
export type { RedisClient, RedisRunStoreOptions } from "./redis.js";
export type { Agent, AgentAppOptions, AgentAppPaths, AgentContext, AgentRunsObject, CompactedMessage, AgentRunsObjectClass, DurableObjectNamespaceLike, EndpointContext, FetchRequest, FetchResponse, HttpRequestLike, HttpResponseLike } from "./app.js";
export type {
  A2aAgentCard,
  A2aAgentDescription,
  A2aCall,
  A2aCallResult,
  A2aErrorReason,
  A2aErrorResponse,
  A2aMethod,
  A2aSkill,
  A2aTaskFold,
  A2aVersion,
} from "./a2a.js";
export type { A2aUserMessage, AgentApiInput, AgentApiInputMessage, HistoryFrom, HistoryTo, OpenAIResponsesInputItem, Turn } from "./conversation.js";
export type {
  CompletedOptions,
  ContentType,
  FailedError,
  Format,
  FromTextOptions,
  Interrupt,
  MessageOptions,
  MessageType,
  PipeOptions,
  PipeResult,
  PipeSource,
  ProduceContext,
  Producer,
  ResponseBuilderOptions,
  RunSignal,
  StreamOptions,
  ToolCallOptions,
  ToolOutputOptions,
  ToolType,
} from "./builder.js";
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
