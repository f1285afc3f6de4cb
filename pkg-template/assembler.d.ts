// `Symbol.dispose` (below) is declared by TypeScript's `esnext.disposable` lib, which no ES20xx
// lib includes: the declarations bring it, so that they compile whatever `lib` a project sets.
/// <reference lib="esnext.disposable" />
import type { AgentResponse, JsonObject, JsonValue, Message, RunStatus } from "./agentwire.js";
import type { ConnectInit, ConnectOptions, RunConnection } from "./connect-types.js";

export type { AbortSignalLike, ConnectError, ConnectInit, ConnectOptions, ReconnectUpdate } from "./connect-types.js";
export { RunConnection } from "./connect-types.js";

/** A wire protocol agentwire speaks. */
/** `"a2a"` is A2A 1.0; `"a2a-0.3"` the A2A 0.3 of `message/stream`. */
export type Protocol = "agent-api" | "ag-ui" | "openai-responses" | "a2a" | "a2a-0.3";

/** How a stream ended: `pending` until a terminal event or the end of input. */
export type Outcome =
  | "pending" | "completed" | "failed" | "canceled" | "rejected" | "incomplete" | "truncated";

/**
 * Options of {@link StreamAssembler}. Unknown keys throw `INVALID_OPTION`. `P` is the `protocol`
 * option's type: a known protocol gives that protocol's snapshot type ({@link SnapshotOf}).
 */
export interface StreamAssemblerOptions<P extends Protocol | "auto" = Protocol | "auto"> {
  /** The stream's protocol, or `"auto"` to detect it from the first event. @defaultValue `"auto"` */
  protocol?: P;
  /**
   * Turn protocol violations (unannounced messages, content that disagrees with its deltas,
   * events after the end, malformed events, a missing terminal event) into thrown errors
   * instead of warnings. @defaultValue `false`
   */
  strict?: boolean;
  /**
   * The largest event (or line) accepted, in bytes; larger ones throw `EVENT_TOO_LARGE`. A whole
   * number from 1 to `Number.MAX_SAFE_INTEGER`, kept exactly. Without one, the limit grows with
   * the stream: 16 MiB, or the bytes the stream carried before the event when that is more. A
   * stream's final events repeat what it carried (a completed part holds all its deltas' text),
   * so agentwire reads the streams it writes however long they are, and a buffered event never
   * exceeds the input read so far.
   * @defaultValue 16 MiB, growing with the stream
   */
  maxEventBytes?: number;
  /** The framing: SSE, NDJSON, or detected from the first bytes. @defaultValue `"auto"` */
  format?: "auto" | "sse" | "ndjson";
  /**
   * AG-UI: also report every event delivered to the reducer (after chunk expansion and
   * verification) as an `{type: "event"}` update, in order. @defaultValue `false`
   */
  events?: boolean;
  /**
   * Read every event with the general parser, bypassing the fast reader of content deltas: the
   * same updates and snapshot, slower. For testing agentwire itself. @defaultValue `false`
   */
  generalPathOnly?: boolean;
}

/** Stable codes of tolerated violations (in strict mode they throw instead). */
export type WarningCode =
  | "UNANNOUNCED_MESSAGE" | "DUPLICATE_EVENT" | "SEQUENCE_GAP" | "CONTENT_MISMATCH"
  | "EVENT_AFTER_END" | "UNKNOWN_EVENT" | "INVALID_EVENT" | "TRUNCATED"
  | "UNFINISHED_MESSAGE" | "TOO_MANY_WARNINGS" | "INVALID_ARGUMENTS"
  // AG-UI
  | "UNKNOWN_FIELD" | "DEPRECATED_SHAPE" | "PATCH_FAILED" | "PROTOCOL_VERSION" | "INCONSISTENT_EVENT"
  | "NOT_CARRIED";

/** A tolerated protocol violation. */
export interface Warning {
  code: WarningCode;
  /** A full sentence for humans. */
  message: string;
  /** Byte offset in the input where the offending event starts. */
  offset?: number;
  /** The offending event's `sequence_number`. */
  sequenceNumber?: number;
}

/** The run's status, error or usage changed (at most one per batch, with the latest values). */
export interface ResponseUpdate {
  type: "response";
  status: RunStatus | string;
  id: string | null;
  /** The outcome after this batch. */
  outcome: Outcome;
  /** Agent API: `{code, message}`. AG-UI: {@link AgUiError}. */
  error: { code: string; message: string } | AgUiError | null;
  /** Agent API: the usage object. AG-UI: the terminal event's `TokenUsage[]`. */
  usage: JsonObject | AgUiTokenUsage[] | null;
}
/** A message appeared (`created: true`) or its status changed. */
export interface MessageUpdate {
  type: "message";
  id: string;
  /** Agent API roles; AG-UI adds `developer`, `activity` and `reasoning`. */
  role: "assistant" | "user" | "system" | "tool" | "developer" | "activity" | "reasoning" | null;
  /** `message`, `reasoning`, `function_call`, `plugin_call`, `mcp_call`, `*_output`, … */
  messageType: string;
  status: RunStatus | string;
  created: boolean;
}
/** Text appended to a text or refusal part: every delta of the chunk for that part, joined. */
export interface TextUpdate {
  type: "text";
  messageId: string;
  index: number;
  /** The appended text; with `replace`, the part's whole text. */
  delta: string;
  /** Discard the part's previous text before appending `delta`. */
  replace: boolean;
}
/**
 * A non-text part was created or changed, or a part's status changed (e.g. completed). A delta
 * that only appends to a tool call's `arguments` is reported by an {@link ArgumentsUpdate} alone.
 * AG-UI: a media or data part of a message, which AG-UI messages cannot hold (agentwire's AG-UI
 * encoder sends it as a `CUSTOM` `agent-api.content` event); it is not in the AG-UI snapshot.
 */
export interface ContentUpdate {
  type: "content";
  messageId: string;
  index: number;
  /**
   * The whole part, in the protocol's wire shape (`{type, status, text | data | image_url | …}`),
   * as it is at the end of the batch. For a text or refusal part, its text replaces what the
   * text updates of the batch built (the part may have been replaced, e.g. by a change of type).
   */
  part: JsonObject;
}
/**
 * The raw arguments of a tool call grew (or, with `replace`, changed). They are the part's
 * `data.arguments` in the snapshot: apply the update there too. A {@link ContentUpdate} for the
 * same part later in the batch already holds them.
 */
export interface ArgumentsUpdate {
  type: "arguments";
  messageId: string;
  index: number;
  callId: string | null;
  name: string | null;
  /** The appended characters; with `replace`, the whole arguments string. */
  delta: string;
  replace: boolean;
}
/** A tolerated violation. */
export interface WarningUpdate extends Warning {
  type: "warning";
}
/**
 * AG-UI: a message's value changed other than by appends (minted whole, replaced by a snapshot,
 * metadata merged, activity patched, a tool call added, an encrypted value attached). Carries the
 * whole message; its text and its calls' arguments also come whole in the same batch, as
 * {@link TextUpdate}s and {@link ArgumentsUpdate}s with `replace: true` (so a renderer that reads
 * only text and arguments updates misses nothing).
 */
export interface ReplaceUpdate {
  type: "replace";
  id: string;
  message: AgUiMessage;
}
/** AG-UI: the message list was reordered or messages were removed; every id, in order. */
export interface OrderUpdate {
  type: "order";
  ids: string[];
}
/** AG-UI: the shared state changed (one per batch, with the whole current state). */
export interface StateUpdate {
  type: "state";
  state: JsonValue;
}
/** AG-UI, with `events: true`: one event as delivered to the reducer, in order. */
export interface EventUpdate {
  type: "event";
  event: AgUiEvent;
}
/**
 * One change caused by a chunk. A batch lists response changes, then message changes, text
 * appends, argument appends, other content changes (a part's whole value at the end of the
 * chunk, replacing what the appends before it built) and warnings; applying a batch in order
 * gives the state of `snapshot()` after that chunk.
 */
export type Update =
  | ResponseUpdate | MessageUpdate | TextUpdate | ContentUpdate | ArgumentsUpdate | WarningUpdate
  | ReplaceUpdate | OrderUpdate | StateUpdate | EventUpdate;

/** The Agent API snapshot: the final response as the reference would serialise it, plus state. */
export interface AgentApiSnapshot extends AgentResponse {
  /** Every message so far; once the final response arrived, its `output`, in its order. */
  output: Message[];
  outcome: Outcome;
  warnings: Warning[];
  /** Messages received but left out of the final `output` (they never completed). */
  incompleteMessages?: Message[];
  /**
   * A run paused for a person (status `incomplete`): what it waits on, each `{id, reason,
   * message?, …}` (AG-UI's interrupt; `rb.interrupt()` writes them; from A2A, an input-required
   * status message's, or one made of its text).
   */
  interrupts?: JsonObject[];
  /** Events with an unknown `object`, kept verbatim. */
  unknownEvents?: JsonObject[];
}

/** AG-UI metadata: a JSON object, merged per key (last write wins). */
export type AgUiMetadata = JsonObject;
/** Where a media part's bytes come from. */
export type AgUiPartSource =
  | { type: "data"; value: string; mimeType: string }
  | { type: "url"; value: string; mimeType?: string }
  | { type: "file"; value: string; provider?: string; mimeType?: string };
/** An AG-UI content part (user messages, tool results). */
export type AgUiContentPart =
  | { type: "text"; text: string; id?: string; metadata?: JsonValue }
  | { type: "image" | "audio" | "video" | "document"; source: AgUiPartSource; id?: string; metadata?: JsonValue };
/** An AG-UI tool call inside an assistant message. */
export interface AgUiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  encryptedValue?: string;
  encryptedValueType?: string;
  metadata?: AgUiMetadata;
}
/** Fields every AG-UI message has. */
interface AgUiMessageBase {
  id: string;
  subagentRunId?: string;
  metadata?: AgUiMetadata;
}
/** An AG-UI message (seven roles), as `@ag-ui/client` holds it: optional fields are absent. */
export type AgUiMessage =
  | (AgUiMessageBase & { role: "developer" | "system"; content: string; name?: string; encryptedValue?: string; encryptedValueType?: string })
  | (AgUiMessageBase & { role: "assistant"; content?: string; toolCalls?: AgUiToolCall[]; name?: string; encryptedValue?: string; encryptedValueType?: string })
  | (AgUiMessageBase & { role: "user"; content: string | AgUiContentPart[]; name?: string; encryptedValue?: string; encryptedValueType?: string })
  | (AgUiMessageBase & { role: "tool"; content: string | AgUiContentPart[]; toolCallId: string; error?: string; encryptedValue?: string; encryptedValueType?: string })
  | (AgUiMessageBase & { role: "activity"; activityType: string; content: JsonObject })
  | (AgUiMessageBase & { role: "reasoning"; content: string; encryptedValue?: string; encryptedValueType?: string });
/** Token counts for one provider and model. */
export interface AgUiTokenUsage {
  provider?: string; model?: string;
  inputTokens?: number; outputTokens?: number; totalTokens?: number;
  reasoningTokens?: number; cachedInputTokens?: number; cacheWriteInputTokens?: number;
}
/** Something a paused run waits for. */
export interface AgUiInterrupt {
  id: string; reason: string; message?: string; toolCallId?: string;
  responseSchema?: JsonObject; expiresAt?: string; metadata?: AgUiMetadata; subagentRunId?: string;
}
/** An AG-UI event as delivered (`type` is one of the 31 AG-UI 1.0 event types). */
export interface AgUiEvent {
  type: string;
  [field: string]: JsonValue | undefined;
}
/**
 * Why an AG-UI run failed: the client rejected the stream (`source: "client"`, with agentwire's
 * `code` and `@ag-ui/client`'s message), or the producer sent `RUN_ERROR` (`source: "run"`).
 */
export interface AgUiError {
  source: "client" | "run";
  code?: string;
  message: string;
}
/**
 * The AG-UI snapshot: `messages` and `state` as `@ag-ui/client` 1.0 holds them after the same
 * events. `outcome`: `completed` (success), `incomplete` (interrupt), `canceled`, `failed`
 * (`RUN_ERROR` or a rejected stream), `truncated` (input ended inside a run), `pending`.
 */
export interface AgUiSnapshot {
  threadId: string | null;
  runId: string | null;
  messages: AgUiMessage[];
  state: JsonValue;
  outcome: Outcome;
  error?: AgUiError;
  warnings: Warning[];
  /** `RUN_FINISHED.result`. */
  result?: JsonValue;
  /** Token usage of the terminal event. */
  usage?: AgUiTokenUsage[];
  /** The interrupts an `interrupt` outcome waits on. */
  interrupts?: AgUiInterrupt[];
  /** Tool calls a successful run left for the application to answer. */
  pendingToolCallIds?: string[];
}

/**
 * What `snapshot()` returns when the protocol is detected: {@link AgentApiSnapshot} (Agent API
 * and A2A), {@link AgUiSnapshot} or {@link OpenAIResponsesSnapshot}. Narrow on
 * `asm.protocol`, or pass `protocol` to get one of them ({@link SnapshotOf}).
 */
export type Snapshot = AgentApiSnapshot | AgUiSnapshot | OpenAIResponsesSnapshot;

/** The snapshot type of a stream of protocol `P` (`"auto"`: any of them, {@link Snapshot}). */
export type SnapshotOf<P extends Protocol | "auto"> =
  P extends "ag-ui" ? AgUiSnapshot
  : P extends "openai-responses" ? OpenAIResponsesSnapshot
  : P extends "agent-api" | "a2a" | "a2a-0.3" ? AgentApiSnapshot
  : Snapshot;

/** One tool call, as {@link StreamAssembler.toolCalls} reports it. */
export interface ToolCall {
  messageId: string;
  index: number;
  /** `function_call`, `plugin_call` or `mcp_call`; `function` for AG-UI tool calls. */
  messageType: string;
  callId: string | null;
  name: string | null;
  /** The arguments exactly as received: a JSON text, possibly unfinished. */
  arguments: string;
  /**
   * Best-effort parse of `arguments` so far, a preview while the call streams (unfinished
   * strings included, unfinished keys left out). Kept up to date in place, in O(new bytes) per
   * read: compare the `ToolCall` records (a changed call is a new, frozen record), not `parsed`.
   * `null` before anything parsed, and for a completed call whose `argumentsError` is set:
   * a repaired preview is never presented as arguments.
   */
  parsed: JsonValue | null;
  /** Whether the producer completed the call (its arguments are final). */
  completed: boolean;
  /**
   * Why a completed call's arguments are unusable: not JSON, or nested deeper than 100 levels
   * (a warning `INVALID_ARGUMENTS` says so too). `null` while the call streams and for valid
   * (or empty) arguments. Run a tool only when `completed` is true and this is `null`.
   */
  argumentsError: string | null;
  /** The `output` of the matching `*_output` message (AG-UI: the tool result's `content`). */
  output: JsonValue | null;
}

/**
 * The part of a `ReadableStream` agentwire uses: a DOM, Node or Deno `ReadableStream` of bytes
 * or text fits (`getReader` may have overloads, as the DOM's has for BYOB readers).
 */
export interface ReadableStreamLike<T = Chunk> {
  getReader(): {
    read(): Promise<{ done: true; value?: unknown } | { done: false; value: T }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}
/** The part of a fetch `Response` agentwire uses (a DOM, Node or Deno `Response` fits). */
export interface ResponseLike {
  readonly body: ReadableStreamLike | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}
/**
 * A body {@link StreamAssembler.collect} and {@link StreamAssembler.read} accept: a fetch
 * `Response`, a `ReadableStream` of bytes (or text), or any async iterable of chunks.
 */
export type Body = ResponseLike | ReadableStreamLike | AsyncIterable<Chunk>;

/**
 * A chunk of a stream: bytes (a `Uint8Array`; another typed array, a `DataView` or an
 * `ArrayBuffer` is read as its bytes) or text. Anything else (`null`, a number, a plain object, a
 * `Blob`) throws `INVALID_OPTION`.
 */
export type Chunk = Uint8Array | ArrayBufferView | ArrayBuffer | string;

/**
 * Turns the byte stream of an agent endpoint into assembled messages. Push chunks exactly as
 * `fetch()` delivers them, split anywhere; each `push` returns the coalesced updates of that
 * chunk.
 */
export declare class StreamAssembler<P extends Protocol | "auto" = "auto"> {
  constructor(options?: StreamAssemblerOptions<P>);
  /**
   * Reads the next chunk and returns what it changed. A string chunk may end inside a surrogate
   * pair: its first half waits for the next chunk.
   * @throws {AgentwireError} `EVENT_TOO_LARGE`, `INVALID_UTF8`, or (strict mode) a violation;
   * the error's `updates` holds the updates of the events before it. The assembler then stops:
   * later calls throw `FINISHED`; `snapshot()` still works. `INVALID_OPTION` for a chunk that is
   * neither bytes nor a string.
   */
  push(chunk: Chunk): Update[];
  /** Ends the input: flushes, settles the outcome (`truncated` without a terminal event), releases buffers. */
  finish(): Update[];
  /** The run so far, as a plain object, built on demand (its type follows `protocol`). */
  snapshot(): SnapshotOf<P>;
  /**
   * Every tool call so far; cheap to call after every chunk (O(what changed)). Returns the same
   * array when nothing changed since the last call, a new one otherwise.
   */
  toolCalls(): ToolCall[];
  readonly outcome: Outcome;
  /** The configured or detected protocol; `null` until the first event. */
  readonly protocol: Protocol | null;
  /**
   * The SSE id of the last event applied (`null` before an event carried one): the cursor to
   * resume from, sent as `Last-Event-ID`. On agentwire's servers, the event's position in the
   * stream (for the Agent API and OpenAI Responses, its `sequence_number`).
   */
  readonly lastEventId: string | null;
  /** How many events a resumed stream resent that were skipped as already applied. */
  readonly replayed: number;
  /** The reconnection time (ms) the stream asked for with an SSE `retry:` field, or `null`. */
  readonly retry: number | null;
  /**
   * The connection the stream came on broke and the stream continues on a new one (resumed
   * from {@link lastEventId}): drops the event half-received at the cut, and skips the new
   * connection's events up to the last one applied (by numeric id), so nothing is lost or
   * doubled at the seam. For any transport: call it between the old bytes and the new.
   */
  connectionLost(): void;
  /** Releases the wasm memory; later calls throw `FINISHED`. Also `[Symbol.dispose]`. */
  free(): void;
  [Symbol.dispose](): void;
  /** Reads a whole body, finishes, frees, and returns the snapshot (its type follows `protocol`). */
  static collect<P extends Protocol | "auto" = "auto">(
    body: Body, options?: StreamAssemblerOptions<P>,
  ): Promise<SnapshotOf<P>>;
  /**
   * Yields the update batch of each chunk that changed something, then the batch of
   * `finish()` when it has updates (never an empty batch). Stopping early (break, throw)
   * cancels the body.
   */
  /**
   * Fetches `url` with `init` and assembles the run, resuming after a network error or a body
   * that ends before the run did: it reconnects to the run's resume route (AgentApp's
   * `<url>/<x-agentwire-run-id>`, or `options.resumeUrl(runId, url)`) with `Last-Event-ID`,
   * backing off (`backoffMs` doubling to `maxBackoffMs`, or the stream's `retry:`); the event
   * half-received at the cut is dropped and events resent at the seam are skipped. Progress is
   * a new event (past the cursor the connection started from): `maxAttempts` connections in a
   * row without one end the iteration (`CONNECTION_LOST`), whatever bytes they carried. Each
   * reconnect is reported as a {@link ReconnectUpdate}. A resume must answer this run's event
   * stream (`text/event-stream`, the same `x-agentwire-run-id`): anything else is refused,
   * unread (`RESUME_MISMATCH`). A 4xx/5xx answer (e.g. 410 `RUN_GONE`) is final, but for 408,
   * 429, 500, 502, 503 and 504 (a proxy, a server between deploys), which a resume tries again.
   * `init.signal` aborts the reader as `abort()` does. `stop()` cancels the run on the server;
   * `abort()` only disconnects. An A2A streaming send (`SendStreamingMessage`, or 0.3's
   * `message/stream`, as a JSON string body) resumes with `SubscribeToTask`
   * (`tasks/resubscribe`) and `Last-Event-ID` on the same URL (AgentApp replays after the
   * cursor, without the task first) and stops with `CancelTask` (`tasks/cancel`); a JSON-RPC
   * error answer is final. The iteration throws a {@link ConnectError}, or the assembler's
   * error (`EVENT_TOO_LARGE`, a violation in strict mode: final).
   */
  static connect<Q extends Protocol | "auto" = "auto">(url: string | { href: string }, init?: ConnectInit, options?: ConnectOptions<Q>): RunConnection<Q>;
  static read(body: Body, options?: StreamAssemblerOptions): AsyncGenerator<Update[], void, undefined>;
}

/** An output item of an OpenAI Responses snapshot (the kinds agentwire's translator and assembler produce). */
export type OpenAIResponsesItem =
  | {
    type: "message"; id: string; status: string; role: "assistant" | "user" | "system" | "developer";
    content: Array<
      | { type: "output_text"; text: string; annotations: JsonValue[]; logprobs?: JsonValue[] }
      | { type: "refusal"; refusal: string }
    >;
  }
  | { type: "reasoning"; id: string; status?: string; summary: Array<{ type: "summary_text"; text: string }>; content?: Array<{ type: "reasoning_text"; text: string }> }
  | { type: "function_call"; id: string; status: string; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; id: string; status?: string; call_id: string; output: string | JsonValue[] };

/**
 * The snapshot of an OpenAI Responses stream (`protocol: "openai-responses"`, or detected): the
 * final `response` object as the Responses API sends it in `response.completed`, plus agentwire's
 * `outcome` and `warnings`. An assembler made with `protocol: "openai-responses"` returns it
 * from `snapshot()`; a detecting one returns {@link Snapshot}, narrowed on `asm.protocol`.
 */
export interface OpenAIResponsesSnapshot {
  id: string;
  object: "response";
  created_at: number;
  status: "completed" | "failed" | "in_progress" | "cancelled" | "queued" | "incomplete";
  completed_at: number | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  model: string;
  output: OpenAIResponsesItem[];
  usage: {
    input_tokens: number; output_tokens: number; total_tokens: number;
    input_tokens_details?: { cached_tokens: number };
    output_tokens_details?: { reasoning_tokens: number };
  } | null;
  metadata: JsonObject | null;
  instructions: JsonValue;
  parallel_tool_calls: boolean;
  tool_choice: JsonValue;
  tools: JsonValue[];
  conversation: JsonObject | null;
  outcome: Outcome;
  warnings: Warning[];
}
