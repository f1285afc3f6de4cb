import type { Body, Protocol, ReadableStreamLike, Warning } from "./assembler.js";

/** The runtime's `ReadableStream` where its types are loaded (DOM, Workers, Deno), else the part agentwire relies on. */
export type ReadableStreamOut = typeof globalThis extends { ReadableStream: new (...args: never[]) => infer R }
  ? R
  : ReadableStreamLike<Uint8Array>;

/** Options of {@link translate} and {@link Translator}. Unknown keys throw `INVALID_OPTION`. */
export interface TranslateOptions {
  /** The input's protocol. */
  from: Protocol | "a2a";
  /** The output's protocol; `ag-ui` is an output only (from `agent-api`, `openai-responses` or `a2a`). */
  to: Protocol | "a2a";
  /** AG-UI output's `threadId`. @defaultValue the run's `session_id`, else `thread_<uuid4>` */
  threadId?: string;
  /** AG-UI output's `runId`. @defaultValue the response `id`, else `run_<uuid4>` */
  runId?: string;
  /** The `model` named in OpenAI Responses output. @defaultValue `""` */
  model?: string;
  /** The JSON-RPC request id that A2A output answers. @defaultValue `null` */
  requestId?: string | number | null;
  /**
   * The largest input event accepted, in bytes. A value given is kept exactly; without one the
   * limit grows with the stream, as `StreamAssemblerOptions.maxEventBytes` describes.
   * @defaultValue 16 MiB, growing with the stream
   */
  maxEventBytes?: number;
}

/**
 * Translates a stream between protocols, incrementally: `agent-api`, `openai-responses` and
 * `a2a` (A2A `message/stream` results), in any direction, and from any of them to `ag-ui`
 * (AG-UI 1.0 events; an input that ends before its terminal event ends with `RUN_ERROR`
 * `INCOMPLETE_STREAM`). Input split anywhere; output is SSE.
 */
export class Translator {
  /** @throws {AgentwireError} `INVALID_OPTION` for an unknown option or an unsupported pair. */
  constructor(options: TranslateOptions);
  /** Reads a chunk; returns the output bytes it completed (possibly empty). */
  push(chunk: Uint8Array | string): Uint8Array;
  /** Ends the input; returns the last output bytes. */
  finish(): Uint8Array;
  /** Problems tolerated so far (unknown events, invalid payloads, …). */
  readonly warnings: Warning[];
  /** Releases the wasm memory; later calls throw `FINISHED`. */
  free(): void;
  [Symbol.dispose](): void;
}

/**
 * Pipes `body` (a `Response`, a `ReadableStream` or an async iterable of bytes) through a
 * {@link Translator}: the returned stream yields the target protocol's SSE bytes as the input
 * arrives; cancelling it cancels the input.
 *
 * @example
 * const upstream = await fetch(agentUrl, { method: "POST", body });          // Agent API
 * return new Response(translate(upstream, { from: "agent-api", to: "openai-responses" }),
 *   { headers: { "content-type": "text/event-stream" } });
 * @throws {AgentwireError} `INVALID_OPTION` (synchronously) for bad options.
 */
export function translate(body: Body, options: TranslateOptions): ReadableStreamOut;
