// The WebAssembly instance behind agentwire's objects, and what happens when one is lost.
//
// Nothing agentwire reads should trap (principle 8), but a trap (a stack overflow inside wasm,
// memory exhausted, a RangeError thrown while wasm frames were on the stack) leaves an instance
// half-updated: its stack pointer, its allocator and the borrow flags of the objects in use are
// no longer consistent, and every later call may fail or, worse, misbehave. So any exception
// other than an AgentwireError escaping a call into wasm marks the instance lost: that call and
// every later call on an object made by it throw INSTANCE_LOST, its finalizers do nothing, and
// the next new object gets a fresh instance of the already compiled module (synchronously). The
// lost instance's memory is released when its last object is collected.
import { instantiate } from "./agentwire.js";
import { adopt, agentwireError, ERROR_NAME } from "./values.js";

/** The compiled module (set by the runtime entry) and the instance new objects use. */
let compiled = null;
let current = null;

/** Called once by the runtime entry, with the compiled `WebAssembly.Module`. */
export function start(module) {
  compiled = module;
  current = create();
}

function create() {
  if (compiled === null) {
    throw agentwireError("INSTANCE_LOST", "agentwire is not initialised: import it through the package's entry (\"agentwire\")");
  }
  // `lost` is read by the glue's finalizers, `cause` is what lost the instance (the `cause` of every
  // INSTANCE_LOST error it throws); the views are the assembler's (assembler.js).
  const state = {
    lost: false, cause: undefined, exports: null, bytes: new Uint8Array(0), words: new Uint32Array(0), buffer: null,
  };
  try {
    state.exports = instantiate(compiled, state);
  } catch (error) {
    // Memory exhausted, or a stack too short to instantiate: the next call tries again.
    throw agentwireError("INSTANCE_LOST", "A new WebAssembly instance could not be made; try again.", undefined, error);
  }
  return state;
}

/** The instance for a new object (or a function call): the current one, or a fresh one. */
export function instance() {
  if (current.lost) current = create();
  return current;
}

/** The error every call on an object of a lost instance throws. */
export function lostError(cause) {
  return agentwireError("INSTANCE_LOST",
    "The WebAssembly instance behind this object failed (a trap or a stack overflow inside agentwire) and was discarded; create a new object.",
    undefined, cause);
}

/**
 * What a call into `inst` that threw `error` throws: an AgentwireError as is; anything else
 * loses the instance (INSTANCE_LOST, with what lost it as its cause). The callers mark the
 * instance lost and keep the cause themselves first, inline in their `catch` (no call), in case
 * the stack is too short for this call or for making the error: a later call still says
 * INSTANCE_LOST, with that cause.
 */
export function failure(inst, error) {
  if (!inst.lost && error?.name === ERROR_NAME) return adopt(error);
  if (error?.code !== "INSTANCE_LOST") inst.cause ??= error;
  inst.lost = true;
  return error?.code === "INSTANCE_LOST" ? error : lostError(inst.cause);
}

/**
 * Frees `core`, an object of `inst`, unless the instance is lost (its memory goes with it). A
 * free that fails means a broken instance: it is marked lost, and this never throws.
 */
export function release(inst, core) {
  if (inst.lost) return;
  try {
    core.free();
  } catch (error) {
    inst.cause ??= error;
    inst.lost = true;
  }
}

/** Whether the module has export `name` (agentwire/lite's has fewer than the full one's). */
export function hasExport(name) {
  return typeof instance().exports[name] === "function";
}

/** Calls `name` of the current instance's exports with `args` (a function of the glue). */
export function call(name, ...args) {
  const inst = instance();
  try {
    return inst.exports[name](...args);
  } catch (error) {
    throw failure(inst, error);
  }
}

/**
 * The size of the current WebAssembly memory, in bytes. WebAssembly memory grows but never
 * shrinks: watch this to check that long-lived pages free their objects.
 */
export function wasmMemoryBytes() {
  return call("wasmMemoryBytes");
}
