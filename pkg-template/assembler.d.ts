import type { AgentResponse, JsonObject, JsonValue, Message, RunStatus } from "./agentwire.js";

/** A wire protocol agentwire speaks. */
export type Protocol = "agent-api" | "ag-ui" | "openai-responses";

/** How a stream ended: `pending` until a terminal event or the end of input. */
export type Outcome =
  | "pending" | "completed" | "failed" | "canceled" | "rejected" | "incomplete" | "truncated";

/** Options of {@link StreamAssembler}. Unknown keys throw `INVALID_OPTION`. */
export interface StreamAssemblerOptions {
  /** The stream's protocol, or `"auto"` to detect it from the first event. @defaultValue `"auto"` */
  protocol?: Protocol | "auto";
  /**
   * Turn protocol violations (unannounced messages, content that disagrees with its deltas,
   * events after the end, malformed events, a missing terminal event) into thrown errors
   * instead of warnings. @defaultValue `false`
   */
  strict?: boolean;
  /** The largest event (or line) accepted, in bytes; larger ones throw `EVENT_TOO_LARGE`. @defaultValue 16 MiB */
  maxEventBytes?: number;
  /** The framing: SSE, NDJSON, or detected from the first bytes. @defaultValue `"auto"` */
  format?: "auto" | "sse" | "ndjson";
}

/** Stable codes of tolerated violations (in strict mode they throw instead). */
export type WarningCode =
  | "UNANNOUNCED_MESSAGE" | "DUPLICATE_EVENT" | "SEQUENCE_GAP" | "CONTENT_MISMATCH"
  | "EVENT_AFTER_END" | "UNKNOWN_EVENT" | "INVALID_EVENT" | "TRUNCATED"
  | "UNFINISHED_MESSAGE" | "TOO_MANY_WARNINGS";

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
  error: { code: string; message: string } | null;
  usage: JsonObject | null;
}
/** A message appeared (`created: true`) or its status changed. */
export interface MessageUpdate {
  type: "message";
  id: string;
  role: "assistant" | "user" | "system" | "tool" | null;
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
 */
export interface ContentUpdate {
  type: "content";
  messageId: string;
  index: number;
  /** The whole part, in the protocol's wire shape (`{type, status, data | image_url | …}`). */
  part: JsonObject;
}
/**
 * The raw arguments of a tool call grew (or, with `replace`, changed). They are the part's
 * `data.arguments` in the snapshot: apply the update there too.
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
 * One change caused by a chunk. A batch lists response changes, then message changes, then
 * text appends, other content changes, argument appends and warnings; applying a batch in order
 * gives the state of `snapshot()` after that chunk.
 */
export type Update =
  | ResponseUpdate | MessageUpdate | TextUpdate | ContentUpdate | ArgumentsUpdate | WarningUpdate;

/** The Agent API snapshot: the final response as the reference would serialise it, plus state. */
export interface AgentApiSnapshot extends AgentResponse {
  /** Every message so far; once the final response arrived, its `output`, in its order. */
  output: Message[];
  outcome: Outcome;
  warnings: Warning[];
  /** Messages received but left out of the final `output` (they never completed). */
  incompleteMessages?: Message[];
  /** Events with an unknown `object`, kept verbatim. */
  unknownEvents?: JsonObject[];
}

/** What `snapshot()` returns. */
export type Snapshot = AgentApiSnapshot;

/** One tool call, as {@link StreamAssembler.toolCalls} reports it. */
export interface ToolCall {
  messageId: string;
  index: number;
  /** `function_call`, `plugin_call` or `mcp_call`. */
  messageType: string;
  callId: string | null;
  name: string | null;
  /** The arguments exactly as received: a JSON text, possibly unfinished. */
  arguments: string;
  /**
   * Best-effort parse of `arguments` so far (unfinished strings included, unfinished keys left
   * out). Updated without mutation: a changed value is a new object, an unchanged one keeps its
   * identity.
   */
  parsed: JsonValue | null;
  completed: boolean;
  /** The `output` of the matching `*_output` message, once it arrived. */
  output: JsonValue | null;
}

/** The part of a `ReadableStream` agentwire uses (a real `ReadableStream<Uint8Array>` fits). */
export interface ReadableStreamLike<T> {
  getReader(): {
    read(): Promise<{ done: true; value?: undefined } | { done: false; value: T }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}
/** The part of a fetch `Response` agentwire uses (a real `Response` fits). */
export interface ResponseLike {
  readonly body: ReadableStreamLike<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}
/**
 * A body {@link StreamAssembler.collect} and {@link StreamAssembler.read} accept: a fetch
 * `Response`, a `ReadableStream<Uint8Array>`, or any async iterable of chunks.
 */
export type Body = ResponseLike | ReadableStreamLike<Uint8Array> | AsyncIterable<Uint8Array | string>;

/**
 * Turns the byte stream of an agent endpoint into assembled messages. Push chunks exactly as
 * `fetch()` delivers them, split anywhere; each `push` returns the coalesced updates of that
 * chunk.
 */
export declare class StreamAssembler {
  constructor(options?: StreamAssemblerOptions);
  /**
   * Reads the next chunk and returns what it changed.
   * @throws {AgentwireError} `EVENT_TOO_LARGE`, `INVALID_UTF8`, or (strict mode) a violation;
   * the error's `updates` holds the updates of the events before it. The assembler then stops:
   * later calls throw `FINISHED`; `snapshot()` still works.
   */
  push(chunk: Uint8Array | string): Update[];
  /** Ends the input: flushes, settles the outcome (`truncated` without a terminal event), releases buffers. */
  finish(): Update[];
  /** The run so far, as a plain object, built on demand. */
  snapshot(): Snapshot;
  /** Every tool call so far; cheap to call after every chunk (O(new bytes)). */
  toolCalls(): ToolCall[];
  readonly outcome: Outcome;
  /** The configured or detected protocol; `null` until the first event. */
  readonly protocol: Protocol | null;
  /** Releases the wasm memory; later calls throw `FINISHED`. Also `[Symbol.dispose]`. */
  free(): void;
  [Symbol.dispose](): void;
  /** Reads a whole body, finishes, frees, and returns the snapshot. */
  static collect(body: Body, options?: StreamAssemblerOptions): Promise<Snapshot>;
  /**
   * Yields the update batch of each chunk, then the batch of `finish()`. Stopping early (break,
   * throw) cancels the body.
   */
  static read(body: Body, options?: StreamAssemblerOptions): AsyncGenerator<Update[], void, undefined>;
}
