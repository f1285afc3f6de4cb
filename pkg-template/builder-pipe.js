// ResponseBuilder.pipe(): an upstream model stream (Agent API, AG-UI, OpenAI Responses, A2A; bytes,
// or the official `openai` client's stream of Responses events) carried into a builder's run. The
// upstream is read by a StreamAssembler; its updates become the builder's own public calls
// (messages, parts, tool calls, tool outputs), so the run's protocol, whatever it is, writes them
// (the core writes every byte). The upstream's end does not end the run. One chunk is read at a
// time, after `rb.ready()`: the upstream is read as fast as the run's reader takes the run.
import { StreamAssembler } from "./assembler.js";
import { agentwireError, messageOf } from "./values.js";
import { Mirror, addUsage } from "./builder-mirror.js";

/** Default cap on the bytes one pipe() reads from its upstream. */
export const DEFAULT_PIPE_MAX_BYTES = 64 * 1024 * 1024;
const PROTOCOLS = ["auto", "agent-api", "ag-ui", "openai-responses", "a2a", "a2a-0.3"];

// Reads pipe()'s options (unknown keys throw INVALID_OPTION naming the key).
function pipeOptions(options) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== "object") throw agentwireError("INVALID_OPTION", "pipe() options must be an object");
  let protocol, signal, maxBytes, maxEventBytes, rest;
  try {
    ({ protocol, signal, maxBytes = DEFAULT_PIPE_MAX_BYTES, maxEventBytes, ...rest } = options);
  } catch (error) {
    throw agentwireError("INVALID_OPTION", "pipe(): reading the options threw", undefined, error);
  }
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw agentwireError("INVALID_OPTION", `pipe(): unknown option "${unknown}"`, unknown);
  if (protocol !== undefined && !PROTOCOLS.includes(protocol)) {
    throw agentwireError("INVALID_OPTION", `pipe(): protocol must be one of ${PROTOCOLS.join(", ")}`, "protocol");
  }
  if (signal !== undefined && (signal === null || typeof signal.aborted !== "boolean" || typeof signal.addEventListener !== "function")) {
    throw agentwireError("INVALID_OPTION", "pipe(): signal must be an AbortSignal", "signal");
  }
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw agentwireError("INVALID_OPTION", "pipe(): maxBytes must be a whole number of bytes >= 1", "maxBytes");
  }
  return { protocol, signal, maxBytes, maxEventBytes };
}

/**
 * The usage of completed(): `options` as given, or with the usage of the upstreams piped into
 * the run when it names none (a bag that throws when read is left for its reader to report).
 */
export function withPipedUsage(run, options) {
  const usage = run.pipedUsage;
  if (usage === undefined || usage === null) return options;
  if (options === undefined || options === null) return { usage };
  if (typeof options !== "object") return options;
  try {
    return options.usage === undefined ? { ...options, usage } : options;
  } catch {
    return options;
  }
}

/** pipe(): see builder.d.ts. `run` is the builder's run (builder-run.js). */
export async function pipeRun(rb, run, source, options) {
  const { protocol, signal, maxBytes, maxEventBytes } = pipeOptions(options);
  if (run.stopped !== null || rb.finished) throw agentwireError("FINISHED", "pipe(): the run has ended.");
  if (run.sink === null) {
    throw agentwireError("BUILDER_STATE", "pipe() needs a streaming builder: call it in ResponseBuilder.stream(produce) (or an AgentApp agent)");
  }
  if (run.piping) throw agentwireError("BUILDER_STATE", "pipe(): another pipe() is still reading into this run; await it first");
  run.piping = true;
  const stop = stopper(signal, run.signal);
  let input = null;
  let asm = null;
  let mirror = null;
  try {
    if (source !== null && typeof source === "object" && typeof source.then === "function") {
      source = await stop.race(Promise.resolve(source)); // e.g. the openai client's APIPromise
    }
    input = open(source);
    // The run starts now (created, in_progress), not when the model's first token comes.
    if (rb.sequenceNumber === 0) rb.inProgress();
    asm = new StreamAssembler({
      protocol: protocol ?? input.protocol ?? "auto",
      ...(maxEventBytes === undefined ? {} : { maxEventBytes }),
    });
    mirror = new Mirror(rb);
    let bytes = 0;
    for (;;) {
      await stop.race(rb.ready());
      const step = await stop.race(upstream(() => input.read()));
      if (step.done) {
        input.done = true;
        mirror.apply(upstream(() => asm.finish()), asm);
        break;
      }
      const chunk = step.value;
      bytes += chunk?.byteLength ?? (typeof chunk === "string" ? chunk.length : 0);
      if (bytes > maxBytes) {
        throw agentwireError("UPSTREAM_TOO_LARGE", `pipe(): the upstream sent more than maxBytes (${maxBytes}) bytes`, "maxBytes");
      }
      mirror.apply(upstream(() => asm.push(chunk)), asm);
      if (asm.outcome !== "pending") {
        // The upstream's terminal event: what follows it (if anything) is not read.
        mirror.apply(upstream(() => asm.finish()), asm);
        break;
      }
    }
    mirror.close();
    const outcome = asm.outcome;
    if (outcome === "failed" || outcome === "rejected") {
      const e = mirror.error;
      const detail = e === null ? "" : `: ${e.code ?? "ERROR"}: ${e.message ?? ""}`;
      throw agentwireError("UPSTREAM_FAILED", `pipe(): the upstream run ${outcome}${detail}`, undefined, e ?? undefined);
    }
    if (outcome === "truncated" || outcome === "pending") {
      throw agentwireError("UPSTREAM_TRUNCATED", "pipe(): the upstream ended before its terminal event (a dropped connection, or not a stream of a known protocol)");
    }
    run.pipedUsage = addUsage(run.pipedUsage, mirror.usage);
    return { outcome, usage: mirror.usage, toolCalls: [...asm.toolCalls()], warnings: mirror.warnings };
  } catch (thrown) {
    let error = thrown;
    if (run.stopped !== null || rb.finished) {
      error = thrown?.code === "FINISHED" ? thrown : agentwireError("FINISHED", "pipe(): the run ended while piping; the upstream was canceled.", undefined, thrown);
    } else {
      // What the upstream opened is completed: the run goes on (another call, a retry, failed()).
      try {
        mirror?.close();
      } catch {
        // The run takes no more calls; the error thrown says why pipe() stopped.
      }
    }
    input?.cancel(error);
    throw error;
  } finally {
    input?.release();
    asm?.free();
    stop.dispose();
    run.piping = false;
  }
}

// Calls `f` (a read of the upstream or of its bytes); what it throws is the upstream's fault.
function upstream(f) {
  const wrap = (error) => {
    if (error?.code === "INSTANCE_LOST") return error;
    const code = error?.code === undefined ? "" : `${error.code}: `;
    return agentwireError("UPSTREAM_FAILED", `pipe(): the upstream could not be read: ${code}${messageOf(error, "it threw a value without a message")}`, undefined, error);
  };
  let result;
  try {
    result = f();
  } catch (error) {
    throw wrap(error);
  }
  return typeof result?.then === "function" ? result.then(undefined, (error) => { throw wrap(error); }) : result;
}

// Races one pending promise at a time against `signal` (ABORTED) and the run's own signal
// (FINISHED, the reader canceled). No reaction is left behind per race: the upstream may be long.
function stopper(signal, runSignal) {
  let error = null;
  let pending = null;
  const fire = (e) => {
    error ??= e;
    pending?.(error);
  };
  const onUser = () => fire(agentwireError("ABORTED", "pipe(): aborted by its signal; the upstream was canceled.", undefined, signal.reason));
  const onRun = () => fire(agentwireError("FINISHED", "pipe(): the run was canceled; the upstream was canceled.", undefined, runSignal.reason));
  if (signal?.aborted) onUser();
  else signal?.addEventListener("abort", onUser, { once: true });
  if (runSignal?.aborted) onRun();
  else runSignal?.addEventListener("abort", onRun, { once: true });
  return {
    race(promise) {
      if (error !== null) return Promise.reject(error);
      return new Promise((resolve, reject) => {
        pending = reject;
        promise.then((v) => { pending = null; resolve(v); }, (e) => { pending = null; reject(e); });
      });
    },
    dispose() {
      signal?.removeEventListener("abort", onUser);
      runSignal?.removeEventListener("abort", onRun);
    },
  };
}

// The upstream as `{read, cancel, release, protocol}`: a Response, a ReadableStream, the openai
// client's Stream (its `toReadableStream()`: one JSON line per event it parsed) or an async iterable.
function open(source) {
  if (source !== null && typeof source === "object") {
    if ("body" in source && typeof source.arrayBuffer === "function") {
      if (source.body === null) return streamInput(new ReadableStream({ start: (c) => c.close() }));
      return streamInput(source.body);
    }
    if (typeof source.getReader === "function") return streamInput(source);
    if (typeof source.toReadableStream === "function") {
      // The `openai` package's Stream: cancelling its readable stream returns its iterator only
      // after a pending read; its controller aborts the request at once.
      const input = streamInput(source.toReadableStream(), () => source.controller?.abort?.());
      input.protocol = "openai-responses";
      return input;
    }
    if (typeof source[Symbol.asyncIterator] === "function") return iteratorInput(source[Symbol.asyncIterator]());
  }
  throw agentwireError("INVALID_OPTION",
    "pipe() expects a Response, a ReadableStream or an async iterable of Uint8Array, or the openai client's stream");
}

function streamInput(stream, onCancel) {
  const reader = stream.getReader();
  return {
    protocol: undefined,
    done: false,
    read: () => reader.read(),
    cancel(reason) {
      if (this.done) return;
      this.done = true;
      try {
        onCancel?.();
        reader.cancel(reason).catch(() => {});
      } catch {
        // A source that throws while being canceled has nothing more to tell.
      }
    },
    release() {
      try {
        reader.releaseLock();
      } catch {
        // A read still pending (canceled above) keeps the lock until it settles.
      }
    },
  };
}

function iteratorInput(iterator) {
  return {
    protocol: undefined,
    done: false,
    read: () => iterator.next(),
    cancel(reason) {
      if (this.done) return;
      this.done = true;
      // Not awaited: an async generator blocked in next() handles return() only after it.
      try {
        Promise.resolve(iterator.return?.(reason)).catch(() => {});
      } catch {
        // As above.
      }
    },
    release() {},
  };
}
