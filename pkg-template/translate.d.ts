// `Symbol.dispose` (below) is declared by TypeScript's `esnext.disposable` lib, which no ES20xx
// lib includes: the declarations bring it, so that they compile whatever `lib` a project sets.
/// <reference lib="esnext.disposable" />
import type { Body, Chunk, Protocol, ReadableStreamLike, Warning } from "./assembler.js";

/**
 * A stream of bytes agentwire returns: the runtime's `ReadableStream<Uint8Array>` where its types
 * are loaded (DOM, Node, Workers, Deno: a `Response` body), and at least the part agentwire
 * relies on where none are.
 */
export type ReadableStreamOut = ReadableStream<Uint8Array> & ReadableStreamLike<Uint8Array>;

/** Options of {@link translate} and {@link Translator}. Unknown keys throw `INVALID_OPTION`. */
export interface TranslateOptions {
  /** The input's protocol (`"a2a"` reads A2A 1.0 and 0.3 alike). */
  from: Protocol;
  /** The output's protocol: `"a2a"` writes A2A 1.0, `"a2a-0.3"` A2A 0.3. */
  to: Protocol;
  /** AG-UI output's `threadId`. @defaultValue the run's `session_id`, else `thread_<uuid4>` */
  threadId?: string;
  /** AG-UI output's `runId`. @defaultValue the response `id`, else `run_<uuid4>` */
  runId?: string;
  /** The `model` named in OpenAI Responses output. @defaultValue `""` */
  model?: string;
  /** The JSON-RPC request id that A2A output answers. @defaultValue `null` */
  requestId?: string | number | null;
  /**
   * The largest input event accepted, in bytes: a whole number from 1 to
   * `Number.MAX_SAFE_INTEGER`, kept exactly; without one the limit grows with the stream, as
   * `StreamAssemblerOptions.maxEventBytes` describes.
   * @defaultValue 16 MiB, growing with the stream
   */
  maxEventBytes?: number;
}

/** Options of {@link translate}: the {@link Translator}'s, and what to do when the body fails. */
export interface TranslateStreamOptions extends TranslateOptions {
  /**
   * Receives what the body threw when it failed midway (the output then ends with the target
   * protocol's failure event, code `SOURCE_ERROR`, and closes). @defaultValue nothing is reported
   */
  onError?: (error: unknown) => void;
}

/**
 * Translates a stream between protocols, incrementally: every ordered pair of `agent-api`,
 * `openai-responses`, `a2a`, `a2a-0.3` and `ag-ui` (AG-UI 1.0 events, read through the
 * `@ag-ui/client` pipeline; an AG-UI output whose input ends before its terminal event ends with
 * `RUN_ERROR` `INCOMPLETE_STREAM`). What the Agent API cannot carry (AG-UI state, snapshots,
 * steps, other custom events) is named once per kind in `warnings`. Input split anywhere; output
 * is SSE.
 */
export class Translator {
  /** @throws {AgentwireError} `INVALID_OPTION` for an unknown option or protocol. */
  constructor(options: TranslateOptions);
  /**
   * Reads a chunk; returns the output bytes it completed (possibly empty). A string chunk may
   * end inside a surrogate pair: its first half waits for the next chunk.
   * @throws {AgentwireError} `INVALID_OPTION` for a chunk that is neither bytes nor a string.
   */
  push(chunk: Chunk): Uint8Array;
  /** Ends the input; returns the last output bytes. */
  finish(): Uint8Array;
  /**
   * Ends the output after the input failed (the source broke off): returns the target
   * protocol's failure event carrying `error` (AG-UI `RUN_ERROR`, Responses `response.failed`,
   * an A2A `failed` status, an Agent API `failed` response), or nothing when the run already
   * ended. {@link translate} calls it for you.
   */
  fail(error: { code: string; message: string }): Uint8Array;
  /** Problems tolerated so far (unknown events, invalid payloads, …). */
  readonly warnings: Warning[];
  /** Releases the wasm memory; later calls throw `FINISHED`. */
  free(): void;
  [Symbol.dispose](): void;
}

/**
 * Pipes `body` (a `Response`, a `ReadableStream` or an async iterable of bytes) through a
 * {@link Translator}: the returned stream yields the target protocol's SSE bytes as the input
 * arrives; cancelling it cancels the input. When the input stops early, the output still ends
 * with the target protocol's failure event, so a client sees a failed run, not a cut stream:
 * if the body throws, the event has code `SOURCE_ERROR` and the stream closes (`onError`
 * receives what was thrown); if agentwire refuses the input (a chunk that is not bytes,
 * `EVENT_TOO_LARGE`, …), the event has that code and the stream then errors with it.
 *
 * @example
 * const upstream = await fetch(agentUrl, { method: "POST", body });          // Agent API
 * return new Response(translate(upstream, { from: "agent-api", to: "openai-responses" }),
 *   { headers: { "content-type": "text/event-stream" } });
 * @throws {AgentwireError} `INVALID_OPTION` (synchronously) for bad options.
 */
export function translate(body: Body, options: TranslateStreamOptions): ReadableStreamOut;
