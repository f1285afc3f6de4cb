// ResponseBuilder and its children: JS classes around the wasm cores (src/wasm/builder.rs). The
// JS layer adds what belongs in JS: reading option bags and values (values.js), coded errors
// after free() or cancel, the guard of every call into wasm (instance.js), delivery of every
// emitted frame to a ReadableStream, and the async statics fromText() and stream().
import { failure, instance, lostError } from "./instance.js";
import { agentwireError, concatBytes, errorInfoText, messageOf, objectText, optionsText } from "./values.js";
import { INTERNAL, emit, live, newRun, stop, use } from "./builder-run.js";
import { ContentBuilder, MessageBuilder, ToolCallBuilder } from "./builder-children.js";
import { pipeRun, withPipedUsage } from "./builder-pipe.js";
import { ChunkQueue } from "./builder-queue.js";
import { memoryOf } from "./assembler.js";

/** The most interrupts one pause may carry (the core's limit). */
const MAX_INTERRUPTS = 64;

export { ContentBuilder, MessageBuilder, ToolCallBuilder };

const dispose = Symbol.dispose ?? Symbol.for("Symbol.dispose");

/**
 * The frames of the chunks a stream() with `eventIds` enqueues when a chunk holds more than one:
 * chunk → the end offset of each frame in it (Uint32Array). Each frame is one emit of the
 * builder, whole events with consecutive ids; RunLog (runs.js) cuts events there instead of
 * searching every byte for blank lines.
 */
export const chunkFrames = new WeakMap();

/**
 * `ResponseBuilder[QUEUED](produce, options, true)`: `stream()` on a ChunkQueue (builder-queue.js)
 * instead of a ReadableStream, for agentwire's own reader (the run manager).
 */
export const QUEUED = Symbol("agentwire.queued");

/** The size of the buffers a stream copies text deltas into (a larger frame gets its own). */
const POOL_BYTES = 16 * 1024;

/** Default high-water mark of stream() and fromText(), in bytes. */
const DEFAULT_HIGH_WATER_MARK = 16 * 1024;

/** Builds one Agent API response stream; every emitting method returns the frame bytes. */
export class ResponseBuilder {
  #run;

  constructor(options) {
    const text = optionsText(options, "ResponseBuilder");
    const inst = instance();
    let core;
    try {
      core = new inst.exports.ResponseBuilderCore(text);
    } catch (error) {
      throw failure(inst, error);
    }
    this.#run = newRun(inst, core);
  }

  get id() {
    return use(this.#run, (core) => core.id);
  }

  get sequenceNumber() {
    return use(this.#run, (core) => core.sequenceNumber);
  }

  get finished() {
    const run = this.#run;
    return run.stopped !== null || run.inst.lost || use(run, (core) => core.finished);
  }

  created() {
    const run = this.#run;
    return emit(run, use(run, (core) => core.created()));
  }

  inProgress() {
    const run = this.#run;
    return emit(run, use(run, (core) => core.inProgress()));
  }

  asMessage() {
    use(this.#run, (core) => core.asMessage());
    return this;
  }

  completed(options) {
    const run = this.#run;
    live(run);
    const text = optionsText(withPipedUsage(run, options), "completed()");
    return emit(run, use(run, (core) => core.completed(text)));
  }

  failed(error) {
    const run = this.#run;
    live(run);
    const text = errorInfoText(error);
    return emit(run, use(run, (core) => core.failed(text)));
  }

  canceled() {
    const run = this.#run;
    return emit(run, use(run, (core) => core.canceled()));
  }

  interrupt(interrupts) {
    const run = this.#run;
    live(run);
    let text;
    if (Array.isArray(interrupts)) {
      // The core refuses more than 64; reading more first would only cost time.
      if (interrupts.length > MAX_INTERRUPTS) {
        throw agentwireError("INVALID_OPTION", `interrupt() takes at most ${MAX_INTERRUPTS} interrupts`);
      }
      text = `[${interrupts.map((i) => optionsText(i ?? 0, "interrupt()") ?? "null").join(",")}]`;
    } else {
      text = optionsText(interrupts, "interrupt()");
    }
    return emit(run, use(run, (core) => core.interrupt(text)));
  }

  message(options) {
    const run = this.#run;
    live(run);
    const text = optionsText(options, "message()");
    return new MessageBuilder(INTERNAL, run, use(run, (core) => core.message(text)));
  }

  toolCall(options) {
    const run = this.#run;
    live(run);
    const text = optionsText(options, "toolCall()");
    return new ToolCallBuilder(INTERNAL, run, use(run, (core) => core.toolCall(text)));
  }

  toolOutput(options) {
    const run = this.#run;
    live(run);
    const text = optionsText(options, "toolOutput()");
    return emit(run, use(run, (core) => core.toolOutput(text)));
  }

  pipe(source, options) {
    return pipeRun(this, this.#run, source, options);
  }

  ready() {
    const run = this.#run;
    if (run.stopped !== null) return Promise.reject(run.stopped);
    return run.ready === null ? Promise.resolve() : run.ready();
  }

  free() {
    stop(this.#run, agentwireError("FINISHED", "The ResponseBuilder has been freed; create a new one."));
  }

  [dispose]() {
    this.free();
  }

  static contentType(format) {
    if (format !== undefined && typeof format !== "string") {
      throw agentwireError("INVALID_OPTION", "format must be \"sse\" or \"ndjson\"", "format");
    }
    const inst = instance();
    try {
      return inst.exports.ResponseBuilderCore.contentType(format);
    } catch (error) {
      throw failure(inst, error);
    }
  }

  static fromText(tokens, options) {
    const { highWaterMark, onError, role, rest } = streamOptions(options, "fromText", ["role"]);
    const iterator = tokenIterator(tokens);
    // The event sequence is the core's (`beginText`, `textToken`, `finishText`), as in Rust.
    const rb = new ResponseBuilder(rest);
    const run = rb.#run;
    const messageText = role === undefined ? undefined : optionsText({ role }, "fromText()");
    const end = (controller) => {
      stop(run, agentwireError("FINISHED", "The stream has ended."));
      controller.close();
    };
    const fail = (controller, error) => {
      report(onError, error, "fromText(): the token source threw");
      try {
        controller.enqueue(rb.failed({ code: "AGENT_ERROR", message: messageOf(error) }));
      } catch (e) {
        controller.error(e);
        return;
      }
      end(controller);
    };
    return new ReadableStream({
      start(controller) {
        controller.enqueue(use(run, (core) => core.beginText(messageText)));
      },
      async pull(controller) {
        let step;
        try {
          step = await iterator.next();
        } catch (error) {
          if (run.stopped === null) fail(controller, error);
          return;
        }
        if (run.stopped !== null) return; // canceled while waiting for the token
        if (step.done) {
          controller.enqueue(use(run, (core) => core.finishText()));
          end(controller);
        } else if (typeof step.value !== "string") {
          fail(controller, agentwireError("INVALID_OPTION",
            `fromText expects string tokens, got ${step.value === null ? "null" : typeof step.value}`));
        } else {
          controller.enqueue(use(run, (core) => core.textToken(step.value)));
        }
      },
      cancel(reason) {
        stop(run, agentwireError("FINISHED", "The reader canceled the stream.", undefined, reason));
        // Close the source without waiting: an async generator blocked in a pending next()
        // handles return() only after it, and the reader must not wait for that.
        try {
          Promise.resolve(iterator.return?.(reason)).catch(() => {});
        } catch {
          // The source failed while being closed; the reader is gone, nothing to report to.
        }
      },
    }, { highWaterMark, size: byteLength });
  }

  static stream(produce, options) {
    return ResponseBuilder[QUEUED](produce, options, false);
  }

  /** `stream()`, on a ChunkQueue when `queued` (agentwire's own reader). */
  static [QUEUED](produce, options, queued) {
    if (typeof produce !== "function") {
      throw agentwireError("INVALID_OPTION", "stream expects a function (rb, { signal }) => void | Promise<void>");
    }
    const { highWaterMark, onError, rest } = streamOptions(options, "stream", []);
    const rb = new ResponseBuilder(rest);
    const run = rb.#run;
    const framed = rest?.eventIds === true;
    const abort = new AbortController();
    run.signal = abort.signal; // pipe() stops reading its upstream when the reader cancels
    let controller;
    let waiters = [];
    let started = false;
    let canceled = false;
    const settle = (error) => {
      const pending = waiters;
      waiters = [];
      for (const w of pending) error === undefined ? w.resolve() : w.reject(error);
    };
    const finished = () => agentwireError("FINISHED", "The run has ended; stop producing.");
    run.ready = () => {
      if (closed) return Promise.reject(finished());
      return controller.desiredSize - pendingBytes > 0
        ? Promise.resolve()
        : new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    };
    // Frames emitted in one synchronous burst (between the producer's awaits) leave as one chunk,
    // at the end of the burst: fewer, larger chunks for every stage after (a reader, a socket).
    let pending = [];
    let pendingBytes = 0;
    let flushing = false;
    let closed = false;
    // Text deltas are copied out of wasm memory one after the other into `pool` (run.take): a
    // burst of them is one view of it, no join.
    let pool = new Uint8Array(0);
    let poolAt = 0;
    const flush = () => {
      flushing = false;
      if (pending.length === 0 || canceled || closed) return;
      const chunk = pending.length === 1 ? pending[0] : joined(pending);
      if (framed && pending.length > 1) {
        const ends = new Uint32Array(pending.length);
        let at = 0;
        for (let i = 0; i < pending.length; i++) ends[i] = at += pending[i].byteLength;
        chunkFrames.set(chunk, ends);
      }
      pending = [];
      pendingBytes = 0;
      controller.enqueue(chunk);
      // The terminal event is out: the stream ends with it, whether or not produce() returns
      // (a producer canceled from outside may never look at its signal).
      if (rb.finished) close();
    };
    const close = () => {
      if (closed) return;
      closed = true;
      controller.close();
      // A producer waiting in ready() when the run ended from outside (canceled) is told so.
      if (waiters.length > 0) settle(finished());
    };
    const end = () => {
      flush();
      stop(run, stackless("FINISHED", "The stream has ended; produce() has returned."));
      close();
    };
    // After produce() settles: nothing if the reader canceled; otherwise end the run (failed
    // with AGENT_ERROR if it threw, completed if it returned without ending it) and close.
    const produceAll = async () => {
      let threw = false;
      let thrown;
      try {
        await produce(rb, { signal: abort.signal });
      } catch (error) {
        threw = true;
        thrown = error;
      }
      if (canceled) return;
      // A producer stopped by the end of its run (FINISHED from ready() or an emit) did no wrong.
      if (threw && !(closed && thrown?.code === "FINISHED")) report(onError, thrown, "stream(): produce threw; the stream ends with a failed event (AGENT_ERROR)");
      try {
        if (run.inst.lost) throw lostError(run.inst.cause); // nothing more can be emitted
        if (!rb.finished) {
          if (threw) rb.failed({ code: "AGENT_ERROR", message: messageOf(thrown, "The agent threw a value without a message.") });
          else rb.completed({ closeOpen: true });
        }
      } catch (e) {
        flush();
        stop(run, e);
        if (!closed) controller.error(e);
        closed = true;
        return;
      }
      end();
    };
    const source = {
      start(c) {
        controller = c;
        run.take = (ptr, length) => {
          if (poolAt + length > pool.length) {
            pool = new Uint8Array(Math.max(POOL_BYTES, length));
            poolAt = 0;
          }
          pool.set(memoryOf(run.inst).subarray(ptr, ptr + length), poolAt);
          return pool.subarray(poolAt, (poolAt += length));
        };
        run.sink = (bytes) => {
          pending.push(bytes);
          pendingBytes += bytes.byteLength;
          if (!flushing) {
            flushing = true;
            queueMicrotask(flush);
          }
        };
      },
      pull() {
        // The reader wants more: wake a producer waiting in ready(), or start it.
        settle();
        if (!started) {
          started = true;
          produceAll();
        }
      },
      cancel(reason) {
        canceled = true;
        pending = [];
        const error = agentwireError("FINISHED", "The reader canceled the stream; stop producing.", undefined, reason);
        stop(run, error);
        settle(error);
        abort.abort(reason === undefined ? error : reason);
      },
    };
    // Inside agentwire (QUEUED): the same source on a ChunkQueue, for a reader of its own.
    if (queued) return new ChunkQueue(source, { highWaterMark });
    return new ReadableStream(source, { highWaterMark, size: byteLength });
  }
}

/**
 * An error made now and thrown later, by a call elsewhere (every call after a stream's end):
 * made without a stack trace, which would show only where the stream ended and costs a
 * noticeable part of a short run (async frames included).
 */
function stackless(code, message) {
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 0;
  } catch {
    return agentwireError(code, message); // frozen intrinsics: an ordinary error
  }
  try {
    return agentwireError(code, message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** `parts` as one array: a view when they lie one after the other in one buffer, else a copy. */
function joined(parts) {
  const { buffer, byteOffset } = parts[0];
  let at = byteOffset;
  for (const part of parts) {
    if (part.buffer !== buffer || part.byteOffset !== at) return concatBytes(parts);
    at += part.byteLength;
  }
  return new Uint8Array(buffer, byteOffset, at - byteOffset);
}

function byteLength(chunk) {
  return chunk.byteLength;
}

// Splits the options of stream()/fromText() into the stream's own and the builder's.
function streamOptions(options, what, extra) {
  if (options === undefined || options === null) {
    return { highWaterMark: DEFAULT_HIGH_WATER_MARK, onError: undefined, role: undefined, rest: undefined };
  }
  if (typeof options !== "object") throw agentwireError("INVALID_OPTION", `${what} options must be an object`);
  let highWaterMark, onError, rest;
  try {
    ({ highWaterMark = DEFAULT_HIGH_WATER_MARK, onError, ...rest } = options);
  } catch (error) {
    throw agentwireError("INVALID_OPTION", `${what}: reading the options threw`, undefined, error);
  }
  if (typeof highWaterMark !== "number" || !(highWaterMark >= 0)) {
    throw agentwireError("INVALID_OPTION", `${what}: highWaterMark must be a number of bytes >= 0`, "highWaterMark");
  }
  if (onError !== undefined && typeof onError !== "function") {
    throw agentwireError("INVALID_OPTION", `${what}: onError must be a function`, "onError");
  }
  let role;
  if (extra.includes("role")) {
    role = rest.role;
    delete rest.role;
  }
  return { highWaterMark, onError, role, rest };
}

function tokenIterator(tokens) {
  if (tokens !== null && tokens !== undefined && typeof tokens !== "string") {
    if (typeof tokens[Symbol.asyncIterator] === "function") return tokens[Symbol.asyncIterator]();
    if (typeof tokens[Symbol.iterator] === "function") return tokens[Symbol.iterator]();
  }
  throw agentwireError("INVALID_OPTION", "fromText expects an iterable or async iterable of strings");
}

function report(onError, error, what) {
  if (onError === undefined) {
    console.error(`agentwire: ${what}:`, error);
    return;
  }
  try {
    onError(error);
  } catch {
    // An onError that throws has nowhere to report to; the stream goes on.
  }
}

