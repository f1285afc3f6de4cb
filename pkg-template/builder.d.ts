// `Symbol.dispose` (below) is declared by TypeScript's `esnext.disposable` lib, which no ES20xx
// lib includes: the declarations bring it, so that they compile whatever `lib` a project sets.
/// <reference lib="esnext.disposable" />
import type { ReadableStreamOut } from "./translate.js";
import type { StreamAssemblerOptions } from "./assembler.js";
import type { JsonObject, JsonValue, Role } from "./agentwire.js";
import type { Body, Protocol, ToolCall, WarningUpdate } from "./assembler.js";
import type { AbortSignalLike } from "./connect-types.js";

/** The framing of an emitted stream. */
export type Format = "sse" | "ndjson";

/** The type of a content part. */
export type ContentType = "text" | "data" | "image" | "audio" | "file" | "refusal" | "video";

/**
 * Known message types (`Message.type`); any other string is accepted and sent as is.
 * `function_call` / `plugin_call` / `mcp_call` and their `*_output` are what
 * {@link ResponseBuilder.toolCall} and {@link ResponseBuilder.toolOutput} emit.
 */
export type MessageType =
  | "message" | "reasoning" | "function_call" | "function_call_output" | "plugin_call"
  | "plugin_call_output" | "mcp_call" | "mcp_call_output" | "error" | (string & {});

/** The family of a tool call: which message types carry the call and its output. */
export type ToolType = "function" | "plugin" | "mcp";

/**
 * Options of `new ResponseBuilder(options)`. Unknown keys throw `INVALID_OPTION` naming the key.
 * @see reference/agentscope-protocol.md §3.3 (the reference's builder)
 */
export interface ResponseBuilderOptions {
  /** The response's `session_id`. @defaultValue `null` */
  sessionId?: string | null;
  /** The response's `id` (a request's `id` by the reference runner's rule). @defaultValue `response_<uuid4>` */
  responseId?: string | null;
  /** The framing of the returned bytes. @defaultValue `"sse"` */
  format?: Format;
  /**
   * The protocol to emit from the same calls: the Agent API, the OpenAI Responses API
   * streaming events (`event:` lines, tool calls as `function_call` items), or AG-UI 1.0 events
   * (`RUN_STARTED`, `TEXT_MESSAGE_*`, `REASONING_*`, `TOOL_CALL_*`, `TOOL_CALL_RESULT`,
   * `RUN_FINISHED` / `RUN_ERROR`: a run `@ag-ui/client` verifies; see the README's AG-UI section),
   * or A2A (`"a2a"`: 1.0 `SendStreamingMessage` results; `"a2a-0.3"`: `message/stream` results).
   * @defaultValue `"agent-api"`
   */
  protocol?: Protocol;
  /** The `model` an OpenAI Responses stream names (`protocol: "openai-responses"`). @defaultValue `""` */
  model?: string;
  /**
   * The Responses `create` request the stream answers (`protocol: "openai-responses"`): every
   * `response` object repeats its settings (`instructions`, `tools`, `tool_choice`,
   * `temperature`, `top_p`, `text`, `reasoning`, `max_output_tokens`, `store`, `metadata`,
   * `previous_response_id`, `user`, …) as the Responses API does; other keys (`input`, `stream`)
   * are ignored. Throws `INVALID_OPTION` naming `request.<field>` for a field of the wrong type.
   * @defaultValue the API's defaults (`tools: []`, `tool_choice: "auto"`, `temperature: 1`, …)
   */
  request?: Readonly<Record<string, unknown>>;
  /** The JSON-RPC `id` an A2A stream answers (`protocol: "a2a"` or `"a2a-0.3"`). @defaultValue `null` */
  requestId?: string | number | null;
  /** AG-UI's `threadId` (`protocol: "ag-ui"`). @defaultValue `sessionId`, else `thread_<uuid4>` */
  threadId?: string;
  /** AG-UI's `runId` (`protocol: "ag-ui"`). @defaultValue the response id */
  runId?: string;
  /** Drop null fields, like the reference's `model_dump_json(exclude_none=True)`. @defaultValue `false` */
  omitNulls?: boolean;
  /**
   * Every SSE event carries `id: N`, `N` counting the stream's events from 0: the cursor a
   * reader resumes from (`Last-Event-ID`, the assembler's `lastEventId`). SSE only
   * (`format: "ndjson"` throws `INVALID_OPTION`). @defaultValue `false`
   */
  eventIds?: boolean;
}

/** Options of {@link ResponseBuilder.message}. Unknown keys throw `INVALID_OPTION`. */
export interface MessageOptions {
  /** `null` writes `"role": null`. @defaultValue `"assistant"` */
  role?: Role | null;
  /** `"reasoning"` for thinking text. @defaultValue `"message"` */
  type?: MessageType;
  /** The message id; unique within the response. @defaultValue `msg_<uuid4>` */
  id?: string;
  /** The message's `usage`; the run's usage defaults to the last completed message's. */
  usage?: JsonObject;
  /** The message's `metadata`. */
  metadata?: JsonObject;
}

/** Options of {@link ResponseBuilder.completed}. */
export interface CompletedOptions {
  /** The run's `usage`. @defaultValue the last completed message's `usage`, else `null` */
  usage?: JsonObject;
  /**
   * Complete every open part and message first (in creation order) instead of throwing
   * `BUILDER_STATE` while a message is open. @defaultValue `false`
   */
  closeOpen?: boolean;
}

/** The `error` of a failed run. Only `code` and `message` are read, so an `Error` with a `code` fits. */
export interface FailedError {
  /** A machine-readable code, e.g. `"AGENT_ERROR"`, `"MODEL_TIMEOUT"`. */
  code: string;
  /** A message for humans. */
  message: string;
}

/** Options of {@link ResponseBuilder.toolCall}. */
export interface ToolCallOptions {
  /** The tool's name. */
  name: string;
  /** The call id that the output refers to. */
  callId: string;
  /** Message types `function_call` (default), `plugin_call` or `mcp_call`. @defaultValue `"function"` */
  type?: ToolType;
  /** The initial `arguments`; {@link ToolCallBuilder.arguments} appends to it. @defaultValue `""` */
  arguments?: string;
  /** The MCP server (type `"mcp"` only). */
  serverLabel?: string;
  /** The message id. @defaultValue `msg_<uuid4>` */
  id?: string;
}

/** Options of {@link ResponseBuilder.toolOutput}. */
export interface ToolOutputOptions {
  /** The call id of the call this answers. */
  callId: string;
  /** The output: a string is sent as is, any other JSON value as compact JSON text. */
  output: JsonValue;
  /** The tool's name. @defaultValue `null` */
  name?: string;
  /** Message types `function_call_output` (default), `plugin_call_output` or `mcp_call_output`. @defaultValue `"function"` */
  type?: ToolType;
  /** The message id. @defaultValue `msg_<uuid4>` */
  id?: string;
}

/** Options of the stream of {@link ResponseBuilder.stream} and {@link ResponseBuilder.fromText}. */
export interface StreamOptions extends ResponseBuilderOptions {
  /**
   * How many bytes may wait in the stream's queue before `ready()` holds the producer back
   * (and before `fromText` stops pulling tokens). @defaultValue `16384`
   */
  highWaterMark?: number;
  /**
   * Receives the original value thrown by `produce` (or by the token source), unchanged, after
   * the `failed` event was enqueued. Without it, the value is logged with `console.error`.
   */
  onError?: (error: unknown) => void;
}

/** Options of {@link ResponseBuilder.fromText}. */
export interface FromTextOptions extends StreamOptions {
  /** The message's role (the reference's `role` argument). @defaultValue `"assistant"` */
  role?: Role | null;
}

/** Options of {@link ResponseBuilder.pipe}. Unknown keys throw `INVALID_OPTION` naming the key. */
export interface PipeOptions {
  /** The upstream's protocol. @defaultValue `"auto"` (detected); `"openai-responses"` for the openai client's stream */
  protocol?: Protocol | "auto";
  /** Aborting it stops reading, cancels the upstream and rejects with `ABORTED` (e.g. `AbortSignal.timeout(ms)` for a stalled model). */
  signal?: AbortSignal;
  /** The most bytes read from the upstream; more reject with `UPSTREAM_TOO_LARGE`. @defaultValue 64 MiB */
  maxBytes?: number;
  /** The largest upstream event, as {@link StreamAssemblerOptions.maxEventBytes}. @defaultValue 16 MiB, growing with the stream */
  maxEventBytes?: number;
}

/** What {@link ResponseBuilder.pipe} resolves with once the upstream's run ended. */
export interface PipeResult {
  /** How the upstream's run ended: `completed`, `incomplete` (e.g. a token limit, an AG-UI interrupt) or `canceled`. */
  outcome: "completed" | "incomplete" | "canceled";
  /** The upstream's usage as Agent API usage (AG-UI's `TokenUsage[]` summed), or `null`. */
  usage: JsonObject | null;
  /** The upstream's tool calls (ids, names, arguments, parsed): the tools to run before the next model call. */
  toolCalls: ToolCall[];
  /** The first 100 protocol violations the upstream's reader tolerated. */
  warnings: WarningUpdate[];
}

/** An upstream of {@link ResponseBuilder.pipe}: bytes, or the `openai` client's Responses stream (or its promise). */
export type PipeSource = Body | { toReadableStream(): ReadableStream } | PromiseLike<Body | { toReadableStream(): ReadableStream }>;

/** The second argument of a `stream()` producer. */
export interface ProduceContext {
  /**
   * Aborted when the reader cancels the stream (e.g. the HTTP client went away). Pass it on to
   * `fetch()` / timers; after it aborts, every builder call throws `FINISHED`.
   */
  signal: RunSignal;
}

/**
 * The signal agentwire hands a producer or an agent: the runtime's `AbortSignal` where its types
 * are loaded (DOM, @types/node, Deno, Workers), else the part of one every runtime has.
 */
export type RunSignal = "aborted" extends keyof AbortSignal ? AbortSignal : AbortSignalLike;

/** What a paused run waits on: AG-UI's interrupt (`rb.interrupt()`). */
export interface Interrupt {
  /** Unique per pause; answers name it. @defaultValue a fresh `interrupt_<uuid>` */
  id?: string;
  /** `input_required`, `confirmation`, `tool_call` or `<framework>:<name>`. @defaultValue `"input_required"` */
  reason?: string;
  /** What the person is asked, shown to them (A2A: the status message's text). */
  message?: string;
  /** The tool call awaiting approval (reason `tool_call`). */
  toolCallId?: string;
  /** The JSON Schema the answer should follow. */
  responseSchema?: JsonObject;
  /** When the question lapses (ISO 8601). */
  expiresAt?: string;
  metadata?: JsonObject;
}

/** A `stream()` producer: emits events with `rb`, may be async and await between calls. */
export type Producer = (rb: ResponseBuilder, context: ProduceContext) => void | Promise<void>;

/**
 * Builds one Agent API response stream. Every emitting method returns the encoded frame(s) of
 * the event(s) it caused, with `sequence_number` 0, 1, 2, … without gaps. The first emitting
 * call also emits what must precede it (`created`, `in_progress`, a message's start event).
 * A call out of order throws an {@link AgentwireError} with code `BUILDER_STATE` and emits
 * nothing; the builder stays usable.
 * @see reference/agentscope-protocol.md §3 (builders) and §4 (the runner's sequence)
 */
export declare class ResponseBuilder {
  /** @throws {AgentwireError} `INVALID_OPTION` naming the key. */
  constructor(options?: ResponseBuilderOptions);
  /** The response id. */
  readonly id: string;
  /** The number of events emitted so far (the next event's `sequence_number`). */
  readonly sequenceNumber: number;
  /** Whether the run ended: a terminal event was emitted, or the builder was freed or canceled. */
  readonly finished: boolean;
  /** Emits the response, status `created`. @throws {AgentwireError} `BUILDER_STATE` unless first. */
  created(): Uint8Array;
  /** Emits the response, status `in_progress` (after `created` if due). */
  inProgress(): Uint8Array;
  /**
   * Answers the run with one message rather than a task where the protocol has such an answer:
   * A2A, whose `SendMessage` then gets a `Message` result (the output's parts) when the run
   * completes; a run that fails, is canceled or pauses still answers with a task. Changes nothing
   * in the other protocols. Emits nothing; returns this builder.
   * @throws {AgentwireError} `BUILDER_STATE` once the run's first event was emitted.
   */
  asMessage(): this;
  /**
   * Emits the terminal response, status `completed`, with `output` (the completed messages).
   * @throws {AgentwireError} `BUILDER_STATE` while a message is open (unless `closeOpen`).
   */
  completed(options?: CompletedOptions): Uint8Array;
  /** Emits the terminal response, status `failed`, with `error`. Open messages stay open. */
  failed(error: FailedError): Uint8Array;
  /** Emits the terminal response, status `canceled`. Open messages stay open. */
  canceled(): Uint8Array;
  /**
   * Ends the run paused for a person: completes every open message, then emits the terminal
   * response with status `incomplete` and `interrupts` (what the run waits on; none given: one
   * `input_required` interrupt; an interrupt without `id` gets `interrupt_<uuid>`). Each protocol
   * writes the pause its way: AG-UI `RUN_FINISHED` with an interrupt outcome, A2A an
   * input-required task whose status message carries the interrupts, Responses an `incomplete`
   * response. The answer comes in the next run's request (for A2A, a message on the same task).
   * @throws {AgentwireError} `INVALID_OPTION` naming the key (at most 64 interrupts);
   * `BUILDER_STATE` after a terminal event.
   */
  interrupt(interrupts?: Interrupt | Interrupt[]): Uint8Array;
  /** Creates a message; emits nothing (its start event comes with `start()` or its first content). */
  message(options?: MessageOptions): MessageBuilder;
  /**
   * Creates a streamed tool call: a `function_call` (or `plugin_call`, `mcp_call`) message with
   * one data part `{call_id, name, arguments}`; emits nothing.
   */
  toolCall(options: ToolCallOptions): ToolCallBuilder;
  /**
   * Emits a whole tool output at once: a `*_output` message (role `tool`) with its data part
   * `{call_id, name, output}`, started, completed.
   */
  toolOutput(options: ToolOutputOptions): Uint8Array;
  /**
   * Carries an upstream model stream into this run: its messages, text, reasoning, tool calls
   * (call ids, names, streamed arguments) and tool outputs become this builder's own messages
   * and calls (new message ids; call ids kept), so the run's protocol, whatever it is, sends them.
   * - The upstream: an Agent API, AG-UI, OpenAI Responses or A2A stream as a `Response`, a
   *   `ReadableStream` or an async iterable of bytes, or the `openai` client's
   *   `responses.create({ stream: true })` stream (read through its `toReadableStream()`).
   * - Its end does not end the run: call `pipe` again, `toolOutput`, `completed`. The run starts
   *   (`in_progress`) when `pipe` does; `completed()` without `usage` reports the piped usage, summed.
   * - Backpressure: one chunk is read at a time, after {@link ready}. Cancel: when the run's
   *   reader cancels (or `signal` aborts) the upstream is canceled and `pipe` rejects with
   *   `FINISHED` (or `ABORTED`). Reading stops at the upstream's terminal event.
   * - Failure: `UPSTREAM_FAILED` (it failed, or could not be read: a read error, bytes that are no
   *   stream, `EVENT_TOO_LARGE`; `cause` holds the original), `UPSTREAM_TRUNCATED` (it ended before
   *   its terminal event), `UPSTREAM_TOO_LARGE` (`maxBytes`). What it had opened is completed first,
   *   so the run goes on; inside `stream()`, not catching the error ends the run `failed`.
   * - Requires a streaming builder (`stream()`, an `AgentApp` agent; else `BUILDER_STATE`), one pipe at a time.
   */
  pipe(source: PipeSource, options?: PipeOptions): Promise<PipeResult>;
  /**
   * Backpressure for `stream()` producers: resolves when the reader wants more bytes (the
   * stream's queue is below its high-water mark); rejects with `FINISHED` once the reader
   * canceled. Outside `stream()` it resolves at once.
   */
  ready(): Promise<void>;
  /** Releases the wasm memory of the builder and all its children; later calls throw `FINISHED`. */
  free(): void;
  [Symbol.dispose](): void;
  /** The HTTP `Content-Type` of a stream: `text/event-stream; charset=utf-8` or `application/x-ndjson`. */
  static contentType(format?: Format): string;
  /**
   * The reference's `generate_streaming_response(tokens)` sequence as a stream: `created`,
   * `in_progress`, the message's start, one text delta per token, the part, the message and
   * the response `completed`. Tokens are pulled one per read (backpressure); cancelling the
   * stream calls the source's `return()`. A source that throws ends the stream with a
   * `failed` event (code `AGENT_ERROR`, the thrown message).
   * @throws {AgentwireError} `INVALID_OPTION` for bad options or a non-iterable `tokens`.
   */
  static fromText(tokens: Iterable<string> | AsyncIterable<string>, options?: FromTextOptions): ReadableStreamOut;
  /**
   * Runs `produce(rb, { signal })` and streams every frame it emits as it is emitted.
   * - Backpressure: `produce` starts when the stream is first pulled; `await rb.ready()`
   *   between events keeps it at most `highWaterMark` bytes ahead of the reader.
   * - Errors: if `produce` throws (or rejects), the stream ends with a `failed` event, code
   *   `AGENT_ERROR`, message the thrown value's `message`; the value itself goes to `onError`.
   * - End: if `produce` returns without a terminal event, `completed({ closeOpen: true })` is emitted.
   * - Cancel: when the reader cancels, `signal` aborts, `ready()` rejects and every later builder
   *   call throws `FINISHED`, so the producer stops at its next call.
   * @throws {AgentwireError} `INVALID_OPTION` for bad options.
   */
  static stream(produce: Producer, options?: StreamOptions): ReadableStreamOut;
}

/** A message of a {@link ResponseBuilder}, made by {@link ResponseBuilder.message}. */
export declare class MessageBuilder {
  private constructor();
  /** The message id. */
  readonly id: string;
  /** Emits the message's start event (status `in_progress`, `content: null`). Optional. */
  start(): Uint8Array;
  /** Adds a content part (numbered 0, 1, … in creation order); emits nothing. @defaultValue `"text"` */
  content(type?: ContentType): ContentBuilder;
  /** Sets the message's `usage` (shown in its completed event); emits nothing. */
  setUsage(usage: JsonObject): void;
  /**
   * Emits the message's completed event with all its parts.
   * @throws {AgentwireError} `BUILDER_STATE` while a part is open.
   */
  complete(): Uint8Array;
  /** Releases this handle (not the message). */
  free(): void;
  [Symbol.dispose](): void;
}

/** A content part of a message, made by {@link MessageBuilder.content}. */
export declare class ContentBuilder {
  private constructor();
  /** The part's position in its message's `content`. */
  readonly index: number;
  /**
   * Emits a delta (`delta: true`, only the piece): a string for text and refusal parts
   * (appended), a plain object for data parts (deep-merged: strings and lists concatenated,
   * numbers added, objects merged). An object is read as `JSON.stringify` would write it
   * (`undefined` members left out, non-finite numbers `null`).
   * @throws {AgentwireError} `BUILDER_STATE` for a value of the wrong kind or a completed part;
   * `INVALID_OPTION` for a value that is neither a string nor a plain object, or that holds no
   * JSON (a cycle, nesting deeper than 100 levels, a `BigInt`, a function, a `Map`), or when
   * reading it throws (the exception is the error's `cause`).
   */
  delta(value: string | JsonObject): Uint8Array;
  /**
   * Emits the part's whole value (`delta: false`) and replaces it: a string sets the main
   * field (`text`, `image_url`, …), an object sets fields by name (for data: the data).
   */
  set(value: string | JsonObject): Uint8Array;
  /** Emits the part's completed event with its whole value. */
  complete(): Uint8Array;
  /** Releases this handle (not the part). */
  free(): void;
  [Symbol.dispose](): void;
}

/** A streamed tool call, made by {@link ResponseBuilder.toolCall}. */
export declare class ToolCallBuilder {
  private constructor();
  /** The call's message id. */
  readonly id: string;
  /** Emits the call's start event and the snapshot `{call_id, name, arguments}` of its data part. Optional. */
  start(): Uint8Array;
  /** Emits a piece of the arguments' JSON text (a data delta `{"arguments": piece}`). */
  arguments(piece: string): Uint8Array;
  /** Completes the data part (with the whole arguments) and the message. */
  complete(): Uint8Array;
  /** Releases this handle (not the call). */
  free(): void;
  [Symbol.dispose](): void;
}

// The web-platform types the statics use. Node (@types/node), Deno, Workers and the DOM lib all
// declare them; these empty declarations merge with those (an interface, or a class as the
// Workers types declare AbortSignal: a member declared here too would have to repeat theirs
// exactly, getter or property) and only keep a project without any of them compiling. (`R = any`
// is not ours: a merged declaration must repeat lib.dom's type parameters exactly.)
declare global {
  interface ReadableStream<R = any> {}
  interface AbortSignal {}
}
