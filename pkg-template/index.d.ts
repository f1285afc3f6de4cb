// The public types of agentwire, shared by every runtime entry (node, browser, workerd, deno).
// Importing the package instantiates the WebAssembly module: everything here is ready to call.
export { parseEvent, parseRequest } from "./agentwire.js";
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
