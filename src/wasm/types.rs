//! Hand-written TypeScript declarations of the values that cross the boundary. They are pasted
//! into the generated `.d.ts`, so the public surface has no `any`.
//!
//! Field names, order and nullability follow the reference schema
//! (`agentscope_runtime/engine/schemas/agent_schemas.py`); see `reference/agentscope-protocol.md` §2.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Stable machine-readable error codes; `error.code` is one of these. */
export type ErrorCode =
  | "INVALID_JSON" | "INVALID_UTF8" | "EVENT_TOO_LARGE" | "PROTOCOL_VIOLATION"
  | "INVALID_REQUEST" | "BUILDER_STATE" | "INVALID_OPTION" | "FINISHED" | "INSTANCE_LOST";

/** What every agentwire function throws: a real `Error` with a stable `code`. */
export interface AgentwireError extends Error {
  /** Always `"AgentwireError"`. */
  name: "AgentwireError";
  /** Branch on this, not on the message text. */
  code: ErrorCode;
  /** Dotted path of the offending field (e.g. `"input"`, `"input.0.content"`), when known. */
  field?: string;
  /** Zero-based byte offset in the input where the problem starts, when known. */
  offset?: number;
  /** The JS exception behind the error, when there is one: what a getter or `Proxy` trap threw
   * while agentwire read a value (`INVALID_OPTION`), or the trap that lost the instance
   * (`INSTANCE_LOST`). */
  cause?: unknown;
}

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** Run and message status values of the Agent API. */
export type RunStatus =
  | "created" | "in_progress" | "completed" | "canceled" | "failed"
  | "rejected" | "unknown" | "queued" | "incomplete";
/** Message roles of the Agent API. */
export type Role = "assistant" | "user" | "system" | "tool";
/** The `error` of a failed event. */
export interface EventErrorInfo { code: string; message: string }

/** Fields every Agent API event starts with, in wire order. */
export interface EventBase {
  /** Per-request counter from 0; `null` on nested or un-numbered items. */
  sequence_number: number | null;
  status: RunStatus | string | null;
  error: EventErrorInfo | null;
}

/** Fields shared by every content part. */
export interface ContentBase extends EventBase {
  object: "content";
  /** Position in the parent message's `content` list. */
  index: number | null;
  /** `true`: append/merge into the part; `false`/`null`: the whole current value. */
  delta: boolean | null;
  /** Id of the parent message. */
  msg_id: string | null;
}
/** A text part. */
export interface TextContent extends ContentBase { type: "text"; text: string | null }
/** An image part (URL or `data:` URI). */
export interface ImageContent extends ContentBase { type: "image"; image_url: string | null }
/** A structured data part (tool calls carry `{call_id, name, arguments}` here). */
export interface DataContent extends ContentBase { type: "data"; data: JsonObject | null }
/** An audio part (URL, data URI or base64). */
export interface AudioContent extends ContentBase { type: "audio"; data: string | null; format: string | null }
/** A file part. */
export interface FileContent extends ContentBase {
  type: "file"; file_url: string | null; file_id: string | null;
  filename: string | null; file_data: string | null;
}
/** A refusal part. */
export interface RefusalContent extends ContentBase { type: "refusal"; refusal: string | null }
/** A video part. */
export interface VideoContent extends ContentBase { type: "video"; video_url: string | null }
/** Any content part, discriminated by `type`. */
export type Content =
  | TextContent | ImageContent | DataContent | AudioContent
  | FileContent | RefusalContent | VideoContent;

/** A message: an event of its own, and an item of `input` / `output`. */
export interface Message extends EventBase {
  object: "message";
  id: string;
  /** `"message"`, `"function_call"`, `"function_call_output"`, `"reasoning"`, … (any string). */
  type: string;
  role: Role | null;
  content: Content[] | null;
  code: string | null;
  message: string | null;
  usage: JsonObject | null;
  metadata: JsonObject | null;
}

/** The response event that opens and closes every run. */
export interface AgentResponse extends EventBase {
  object: "response";
  id: string;
  /** Epoch seconds. */
  created_at: number;
  completed_at: number | null;
  output: Message[] | null;
  usage: JsonObject | null;
  session_id: string | null;
}

/** Any Agent API event, discriminated by `object`. */
export type AgentEvent = AgentResponse | Message | Content;

/** A function tool offered to the agent. */
export interface Tool {
  type: string | null;
  function: { name: string; description: string; parameters: JsonObject } | null;
}

/** A validated Agent API request with every default filled in. Unknown top-level keys are kept. */
export interface AgentRequest {
  input: Message[];
  /** Default `true`; `/process` always streams. */
  stream: boolean;
  /** Becomes the response id. */
  id: string | null;
  model: string | null;
  top_p: number | null;
  temperature: number | null;
  frequency_penalty: number | null;
  presence_penalty: number | null;
  max_tokens: number | null;
  stop: string | string[] | null;
  /** 1 to 5; default 1. */
  n: number | null;
  seed: number | null;
  tools: Array<Tool | JsonObject> | null;
  session_id: string | null;
  user_id: string | null;
  [extra: string]: unknown;
}
"#;
