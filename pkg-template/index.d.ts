// The public types of agentwire, shared by every runtime entry (node, browser, workerd, deno).
// Importing the package instantiates the WebAssembly module: everything here is ready to call.
export { a2aRequest, parseEvent, parseRequest, wasmMemoryBytes } from "./agentwire.js";
export { Translator, translate } from "./translate.js";
export type { ReadableStreamOut, TranslateOptions } from "./translate.js";
export { StreamAssembler } from "./assembler.js";
export { ContentBuilder, MessageBuilder, ResponseBuilder, ToolCallBuilder } from "./builder.js";
export type {
  CompletedOptions,
  ContentType,
  FailedError,
  Format,
  FromTextOptions,
  MessageOptions,
  MessageType,
  ProduceContext,
  Producer,
  ResponseBuilderOptions,
  StreamOptions,
  ToolCallOptions,
  ToolOutputOptions,
  ToolType,
} from "./builder.js";
export type {
  AgentApiSnapshot,
  ArgumentsUpdate,
  Body,
  ContentUpdate,
  MessageUpdate,
  Outcome,
  Protocol,
  ReadableStreamLike,
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
  AgentEvent,
  AgentRequest,
  AgentResponse,
  AgentwireError,
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
