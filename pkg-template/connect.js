// StreamAssembler.connect: fetch a run and assemble it, resuming after a dropped connection
// (AgentApp's resume routes, or any SSE server that honours Last-Event-ID), with stop() (the
// run's cancel route) apart from abort() (this reader only).
import { AgentwireError, agentwireError, concatBytes, messageOf } from "./values.js";
import { call, hasExport } from "./instance.js";

const DEFAULTS = { resume: true, maxAttempts: 5, backoffMs: 250, maxBackoffMs: 10_000 };

function readConnectOptions(options) {
  if (options === undefined || options === null) return { ...DEFAULTS, assembler: undefined, resumeUrl: undefined, fetch: undefined };
  if (typeof options !== "object") throw agentwireError("INVALID_OPTION", "connect options must be an object");
  const { resume = DEFAULTS.resume, maxAttempts = DEFAULTS.maxAttempts, backoffMs = DEFAULTS.backoffMs,
    maxBackoffMs = DEFAULTS.maxBackoffMs, resumeUrl, fetch: fetchFn, ...assembler } = options;
  if (typeof resume !== "boolean") throw agentwireError("INVALID_OPTION", "connect: resume must be a boolean", "resume");
  for (const [key, value] of [["maxAttempts", maxAttempts], ["backoffMs", backoffMs], ["maxBackoffMs", maxBackoffMs]]) {
    if (!Number.isSafeInteger(value) || value < 0) throw agentwireError("INVALID_OPTION", `connect: ${key} must be an integer >= 0`, key);
  }
  if (resumeUrl !== undefined && typeof resumeUrl !== "function") throw agentwireError("INVALID_OPTION", "connect: resumeUrl must be a function (runId, url) => string", "resumeUrl");
  if (fetchFn !== undefined && typeof fetchFn !== "function") throw agentwireError("INVALID_OPTION", "connect: fetch must be a function", "fetch");
  return { resume, maxAttempts, backoffMs, maxBackoffMs, resumeUrl, fetch: fetchFn, assembler };
}

/** AgentApp's resume route of run `runId` started at `url` (Responses: `?stream=true`). */
function defaultResumeUrl(runId, url) {
  const u = new URL(url);
  u.pathname = `${u.pathname.replace(/\/$/, "")}/${encodeURIComponent(runId)}`;
  u.search = "";
  if (u.pathname.includes("/responses/")) u.searchParams.set("stream", "true");
  return u.href;
}

/**
 * The A2A call of a JSON-RPC streaming send (`SendStreamingMessage`, or 0.3's `message/stream`):
 * its id and the methods that resume and cancel its task; `null` for anything else.
 */
function a2aCallOf(init) {
  // A build without A2A (agentwire/lite) reads no A2A sends.
  if (typeof init.body !== "string" || !hasExport("a2aStreamingSend")) return null;
  return call("a2aStreamingSend", init.body);
}

/** HTTP statuses a resume tries again after (a proxy, or a server between deploys). */
const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);
/** The most of an error answer's body read (the rest is not waited for). */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * The start of an error answer's body as text (at most `limit` bytes); the rest is canceled,
 * never read.
 */
export async function errorText(res, limit = ERROR_BODY_LIMIT) {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body that fails: what came is enough.
  } finally {
    reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(concatBytes(chunks).subarray(0, limit));
}

/** The errors that end the iteration at once (no resume tries again after them). */
const finalErrors = new WeakSet();
function final(error) {
  finalErrors.add(error);
  return error;
}

/**
 * The error of an error answer: `INVALID_REQUEST` with its `status` and `serverCode` (the body's
 * JSON `error.code`, else `fallback`); final unless `transient`.
 */
async function refusal(res, url, fallback, transient) {
  const text = await errorText(res);
  let code = fallback;
  try {
    code = String(JSON.parse(text).error.code ?? fallback);
  } catch {
    // Not JSON, or not an error object: the fallback.
  }
  const error = Object.assign(agentwireError("INVALID_REQUEST", `${url} answered ${res.status}: ${text.slice(0, 500)}`), { status: res.status, serverCode: code });
  return transient ? error : final(error);
}

/** A resume answered by something other than this run's event stream: final, nothing of it read. */
function mismatch(res, url, why) {
  res.body?.cancel().catch(() => {});
  return final(Object.assign(agentwireError("RESUME_MISMATCH", `${url} answered the resume with ${why}`), { status: res.status }));
}

/** Whether a Content-Type is `text/event-stream` (parameters aside). */
function isEventStream(contentType) {
  return (contentType ?? "").split(";")[0].trim().toLowerCase() === "text/event-stream";
}

/** `error` as an AgentwireError: a failed fetch or read (a TypeError, an abort) is `CONNECTION_LOST`. */
function lost(error) {
  if (error instanceof AgentwireError) return error;
  return agentwireError("CONNECTION_LOST", `the connection failed: ${messageOf(error)}`, undefined, error);
}

const sleep = (ms, signal) => new Promise((resolve) => {
  const done = () => {
    clearTimeout(timer);
    signal.removeEventListener("abort", done);
    resolve();
  };
  const timer = setTimeout(done, ms);
  signal.addEventListener("abort", done, { once: true });
});

/**
 * A connection to a run: an async iterable of update batches (as `StreamAssembler.read`), which
 * resumes after a network error. Made by `StreamAssembler.connect`.
 */
export class RunConnection {
  #Assembler;
  #url;
  #init;
  #o;
  #controller = new AbortController();
  #runId = null;
  #reconnects = 0;
  #assembler;
  #a2a;

  constructor(Assembler, url, init, options) {
    this.#Assembler = Assembler;
    this.#url = typeof url === "string" ? url : String(url?.href ?? url);
    this.#init = init ?? {};
    this.#o = readConnectOptions(options);
    this.#a2a = a2aCallOf(this.#init);
    this.#assembler = new Assembler(this.#o.assembler);
  }

  /** The assembler (its `snapshot()`, `toolCalls()`, `outcome`, `lastEventId`). */
  get assembler() {
    return this.#assembler;
  }

  /** The run's id (`x-agentwire-run-id` of the first answer), once known. */
  get runId() {
    return this.#runId;
  }

  /** How many times the connection was resumed. */
  get reconnects() {
    return this.#reconnects;
  }

  /** Disconnects this reader only: the run goes on on the server (resume it later). */
  abort(reason) {
    this.#controller.abort(reason);
  }

  /**
   * Stops the run itself (its cancel route, `POST <resume url>/cancel`, without a body; A2A:
   * `CancelTask`): every reader gets its canceled end, this one included. Resolves with the
   * server's answer; rejects with `BUILDER_STATE` before the run's id is known and
   * `CONNECTION_LOST` when the request fails.
   */
  async stop() {
    if (this.#runId === null) throw agentwireError("BUILDER_STATE", "stop(): the run's id is not known yet");
    const fetchFn = this.#o.fetch ?? fetch;
    let url;
    let init;
    if (this.#a2a) {
      url = this.#url;
      init = this.#a2aInit(this.#a2a.cancel, new Headers(this.#init.headers));
    } else {
      const u = new URL((this.#o.resumeUrl ?? defaultResumeUrl)(this.#runId, this.#url));
      u.pathname = `${u.pathname}/cancel`;
      u.search = "";
      url = u.href;
      // The cancel routes read no body: none is sent (an unread body would be left on a
      // kept-alive connection).
      const headers = new Headers(this.#init.headers);
      headers.delete("content-type");
      headers.delete("content-length");
      init = { method: "POST", headers };
    }
    try {
      return await fetchFn(url, init);
    } catch (error) {
      throw lost(error);
    }
  }

  async *[Symbol.asyncIterator]() {
    const asm = this.#assembler;
    const o = this.#o;
    const fetchFn = o.fetch ?? fetch;
    const controller = this.#controller;
    const signal = controller.signal;
    // The caller's signal (`init.signal`) aborts this reader too: one listener, however many
    // connections follow.
    const outer = this.#init.signal ?? null;
    const onAbort = () => controller.abort(outer.reason);
    if (outer !== null) {
      if (outer.aborted) controller.abort(outer.reason);
      else outer.addEventListener("abort", onAbort, { once: true });
    }
    let attempt = 0;
    let resuming = false;
    let request = { url: this.#url, init: { ...this.#init, signal } };
    try {
      for (;;) {
        // Progress is an event past the cursor this connection started from: bytes, replayed
        // events or an answer of another kind do not count.
        const cursor = asm.lastEventId;
        try {
          if (signal.aborted) return;
          const res = await fetchFn(request.url, request.init);
          if (!res.ok) {
            // A refusal is final (the run is gone, or not ours): no point retrying. A proxy or a
            // server between deploys (408, 429, 500, 502, 503, 504) is tried again.
            throw await refusal(res, request.url, `HTTP_${res.status}`, TRANSIENT.has(res.status));
          }
          const contentType = res.headers.get("content-type");
          if (this.#a2a && !isEventStream(contentType)) {
            // A JSON-RPC error instead of a stream (the task is unknown, or gone): final.
            throw await refusal(res, request.url, "A2A_ERROR", false);
          }
          if (resuming) {
            // Only this run's event stream continues the run: anything else would be merged in.
            if (!isEventStream(contentType)) throw mismatch(res, request.url, `${contentType === null ? "no content type" : JSON.stringify(contentType)}, not an event stream`);
            const id = res.headers.get("x-agentwire-run-id");
            if (id !== this.#runId) throw mismatch(res, request.url, id === null ? "no x-agentwire-run-id" : `another run (${JSON.stringify(id)}, not ${JSON.stringify(this.#runId)})`);
          }
          this.#runId ??= res.headers.get("x-agentwire-run-id");
          if (res.body) {
            const reader = res.body.getReader();
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              let updates;
              try {
                updates = asm.push(value);
              } catch (error) {
                // The stream itself is at fault (too large an event, a violation in strict
                // mode): another connection would not help.
                reader.cancel().catch(() => {});
                throw final(error);
              }
              if (asm.lastEventId !== cursor) attempt = 0;
              if (updates.length > 0) yield updates;
            }
          }
          if (asm.outcome !== "pending" || !o.resume || this.#runId === null) break;
          // The body ended without the run's end: a proxy or the server cut it. Resume.
          throw agentwireError("CONNECTION_LOST", "the stream ended before the run did");
        } catch (error) {
          if (signal.aborted) return;
          if (finalErrors.has(error) || !o.resume || this.#runId === null) throw lost(error);
          if (asm.lastEventId === cursor) attempt++;
          if (attempt >= o.maxAttempts) throw lost(error);
          asm.connectionLost();
          this.#reconnects++;
          const wait = Math.min(o.maxBackoffMs, asm.retry ?? o.backoffMs * 2 ** Math.max(0, attempt - 1));
          yield [{ type: "reconnect", attempt: this.#reconnects, lastEventId: asm.lastEventId, delayMs: wait }];
          await sleep(wait, signal);
          if (signal.aborted) return;
          const headers = new Headers(this.#init.headers);
          if (asm.lastEventId !== null) headers.set("last-event-id", asm.lastEventId);
          // A2A: an empty Last-Event-ID (before any event) replays from the first, not the task.
          else if (this.#a2a) headers.set("last-event-id", "");
          headers.set("accept", "text/event-stream");
          resuming = true;
          request = this.#a2a
            ? { url: this.#url, init: { ...this.#a2aInit(this.#a2a.resume, headers), signal } }
            : { url: (o.resumeUrl ?? defaultResumeUrl)(this.#runId, this.#url), init: { method: "GET", headers, signal } };
        }
      }
      const last = asm.finish();
      if (last.length > 0) yield last;
    } finally {
      outer?.removeEventListener("abort", onAbort);
      if (!signal.aborted) controller.abort();
    }
  }

  /** A JSON-RPC request of `method` on this run's task (its id that of the send). */
  #a2aInit(method, headers) {
    headers.set("content-type", "application/json");
    const body = call("a2aTaskRequest", this.#a2a.id, method, this.#runId);
    return { method: "POST", headers, body };
  }

  /** Releases the assembler. */
  free() {
    this.#assembler.free();
  }

  [Symbol.dispose]() {
    this.free();
  }
}
