// The types of the resuming reader behind StreamAssembler.connect (connect.js): the request it sends, its
// options, the updates and errors it reports, and the connection it returns.
// `Symbol.dispose` (below) is declared by TypeScript's `esnext.disposable` lib, which no ES20xx
// lib includes: the declarations bring it, so that they compile whatever `lib` a project sets.
/// <reference lib="esnext.disposable" />
import type { Protocol, StreamAssembler, StreamAssemblerOptions, Update } from "./assembler.js";

/** The fetch API's `Response` where the runtime's types have one (DOM, `@types/node`, Workers, Deno). */
export type FetchResponse = typeof globalThis extends { Response: { prototype: infer R } } ? R : HttpResponseLike;

/** What a `Response` is, for type settings without the fetch API's types. */
export interface HttpResponseLike {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: unknown;
}

/** The request of {@link StreamAssembler.connect}: `fetch`'s `init` (method, headers, body, signal). */
export interface ConnectInit {
  method?: string;
  headers?: Record<string, string> | [string, string][];
  body?: string | Uint8Array;
  /** Aborts the reader (as {@link RunConnection.abort}), whichever connection it is on. */
  signal?: AbortSignalLike | null;
  [key: string]: unknown;
}

/** The part of an `AbortSignal` {@link StreamAssembler.connect} uses (a DOM, Node or Deno one fits). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** Options of {@link StreamAssembler.connect}: the assembler's, and how to resume. */
export interface ConnectOptions<Q extends Protocol | "auto" = "auto"> extends StreamAssemblerOptions<Q> {
  /** Resume after a dropped connection. @defaultValue `true` */
  resume?: boolean;
  /** Connections in a row without a new event (past the cursor) before giving up. @defaultValue 5 */
  maxAttempts?: number;
  /** The first pause before reconnecting, doubled each time. @defaultValue 250 ms */
  backoffMs?: number;
  /** The longest pause. @defaultValue 10 000 ms */
  maxBackoffMs?: number;
  /** The resume URL of run `runId` started at `url`. @defaultValue AgentApp's `<url>/<runId>` (Responses: `?stream=true`) */
  resumeUrl?: (runId: string, url: string) => string;
  /** The fetch to use. @defaultValue the global `fetch` */
  fetch?: (url: string, init: any) => Promise<any>;
}

/** A reconnect, reported among the updates of {@link StreamAssembler.connect}. */
export interface ReconnectUpdate {
  type: "reconnect";
  /** The reconnects so far. */
  attempt: number;
  /** The cursor the new connection resumes after. */
  lastEventId: string | null;
  /** The pause before it. */
  delayMs: number;
}

/**
 * Why a {@link RunConnection} ended (an `AgentwireError`, `instanceof AgentwireError` holds):
 * - `INVALID_REQUEST`: an error answer (4xx/5xx; for A2A, a JSON-RPC error instead of a
 *   stream), with `status` and `serverCode`;
 * - `RESUME_MISMATCH`: a resume answered by something other than this run's event stream
 *   (another `x-agentwire-run-id`, none, or a content type other than `text/event-stream`),
 *   with `status`; nothing of it was read;
 * - `CONNECTION_LOST`: the connection failed, or its body ended before the run did, and no
 *   resume follows (`maxAttempts` connections in a row without a new event, `resume: false`,
 *   or the run's id unknown), with the fetch's error as `cause` when it failed.
 */
export interface ConnectError extends Error {
  name: "AgentwireError";
  code: "INVALID_REQUEST" | "RESUME_MISMATCH" | "CONNECTION_LOST";
  /** The HTTP status of the answer (`INVALID_REQUEST`, `RESUME_MISMATCH`). */
  status?: number;
  /**
   * `INVALID_REQUEST`: the error body's `error.code` as a string (AgentApp's `RUN_GONE`,
   * `NOT_FOUND`, …; a JSON-RPC error's number), else `HTTP_<status>` (A2A: `A2A_ERROR`).
   */
  serverCode?: string;
  /** `CONNECTION_LOST`: what the fetch or the body's read threw. */
  cause?: unknown;
}

/** A run being read by {@link StreamAssembler.connect}. */
export declare class RunConnection<Q extends Protocol | "auto" = "auto"> {
  /** The assembler: its `snapshot()`, `toolCalls()`, `outcome`, `lastEventId`. */
  readonly assembler: StreamAssembler<Q>;
  /** The run's id (the first answer's `x-agentwire-run-id`), once known. */
  readonly runId: string | null;
  /** How many times the connection was resumed. */
  readonly reconnects: number;
  /** Disconnects this reader only; the run goes on. */
  abort(reason?: unknown): void;
  /**
   * Stops the run on the server (its cancel route, `POST <resume url>/cancel` without a body;
   * A2A: `CancelTask`); every reader gets its canceled end. Resolves with the server's answer (a
   * fetch `Response`, or what the `fetch` option resolves with); rejects with `BUILDER_STATE`
   * before the run's id is known, and with `CONNECTION_LOST` when the request fails.
   */
  stop(): Promise<FetchResponse>;
  /**
   * The update batches of the run, with a {@link ReconnectUpdate} batch before each resume;
   * throws a {@link ConnectError} (or the assembler's error) when the run cannot be read on.
   */
  [Symbol.asyncIterator](): AsyncIterator<Array<Update | ReconnectUpdate>>;
  /** Releases the assembler. Also `[Symbol.dispose]`. */
  free(): void;
  [Symbol.dispose](): void;
}
