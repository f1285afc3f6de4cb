// What a ResponseBuilder shares with its children (builder.js, builder-children.js): the run —
// the wasm instance and the core, the stream the frames go to, why the run stopped — and the
// guarded ways to use it.
import { failure, lostError } from "./instance.js";
import { agentwireError } from "./values.js";

/** Children are made by their parent only; the token keeps `new MessageBuilder()` out of reach. */
export const INTERNAL = Symbol("agentwire.builder");

// What a ResponseBuilder shares with its children: the wasm instance and the core, the stream
// the frames go to (if any), and why the run stopped (an error thrown by every later call), if it
// did.
// `take(ptr, len)`, with a sink: copies a frame out of the instance's memory into the stream's
// own buffer and returns it there (ContentBuilder's text deltas, builder.js stream()).
export function newRun(inst, core) {
  return { inst, core, sink: null, take: null, stopped: null, ready: null };
}

export function live(run) {
  if (run.stopped !== null) throw run.stopped;
  if (run.inst.lost) throw lostError(run.inst.cause);
  return run.core;
}

// `f(core)` on the run's live core. An exception that is not agentwire's loses the instance.
export function use(run, f) {
  const core = live(run);
  try {
    return f(core);
  } catch (error) {
    throw failure(run.inst, error);
  }
}

export function emit(run, bytes) {
  if (run.sink !== null) run.sink(bytes);
  return bytes;
}

// Ends the run for the builder and all its children: later calls throw `error`.
export function stop(run, error) {
  if (run.stopped !== null) return;
  run.stopped = error;
  run.sink = null;
  const core = run.core;
  run.core = undefined;
  if (!run.inst.lost) {
    try {
      core.release();
      core.free();
    } catch (error) {
      run.inst.cause ??= error;
      run.inst.lost = true; // a free that fails means a broken instance; free() never throws
    }
  }
}

export function childFreed(what) {
  return agentwireError("FINISHED", `This ${what} has been freed.`);
}
