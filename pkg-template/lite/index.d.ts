// The public types of agentwire/lite: StreamAssembler for Agent API streams, in a WebAssembly
// module a third of the size of the full package (the package README, "agentwire/lite").
// `protocol` may only be "agent-api" or "auto"; other protocols throw INVALID_OPTION, and a
// stream detected as AG-UI, OpenAI Responses or A2A throws PROTOCOL_VIOLATION: import
// StreamAssembler from "agentwire" for those.
export { wasmMemoryBytes } from "./agentwire.js";
export { StreamAssembler } from "./assembler.js";
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
  AgentwireError,
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
