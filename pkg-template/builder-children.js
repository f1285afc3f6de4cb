// The children of a ResponseBuilder: a message, a content part of it, a streamed tool call.
// Each wraps its wasm core, made only through its parent (builder.js), and stops with the run.
import { failure, release } from "./instance.js";
import { agentwireError, objectText } from "./values.js";
import { INTERNAL, childFreed, emit, live } from "./builder-run.js";

const dispose = Symbol.dispose ?? Symbol.for("Symbol.dispose");

// The run, the live core and a guarded call of a child builder, for its subclasses (not
// reachable from outside the module).
const RUN = Symbol("agentwire.run");
const LIVE = Symbol("agentwire.live");
const CALL = Symbol("agentwire.call");

// What MessageBuilder, ContentBuilder and ToolCallBuilder share: creation only through their
// parent, coded errors once the run stopped or the child was freed, complete(), free() and
// disposal.
class ChildBuilder {
  #run;
  #core;
  #what;

  constructor(token, run, core, what, creator) {
    if (token !== INTERNAL) {
      throw agentwireError("BUILDER_STATE", `${what} is created by ${creator}.`);
    }
    this.#run = run;
    this.#core = core;
    this.#what = what;
  }

  get [RUN]() {
    return this.#run;
  }

  [LIVE]() {
    live(this.#run);
    if (this.#core === undefined) throw childFreed(this.#what);
    return this.#core;
  }

  // `f(core)` on the live core. An exception that is not agentwire's loses the instance.
  [CALL](f) {
    const core = this[LIVE]();
    const inst = this.#run.inst;
    try {
      return f(core);
    } catch (error) {
      throw failure(inst, error);
    }
  }

  complete() {
    return emit(this.#run, this[CALL]((core) => core.complete()));
  }

  free() {
    if (this.#core !== undefined) {
      const core = this.#core;
      this.#core = undefined;
      release(this.#run.inst, core); // never throws
    }
  }

  [dispose]() {
    this.free();
  }
}

/** A message of a ResponseBuilder. */
export class MessageBuilder extends ChildBuilder {
  constructor(token, run, core) {
    super(token, run, core, "MessageBuilder", "ResponseBuilder.message()");
  }

  get id() {
    return this[CALL]((core) => core.id);
  }

  start() {
    return emit(this[RUN], this[CALL]((core) => core.start()));
  }

  content(type) {
    const run = this[RUN];
    return this[CALL]((core) => {
      const content = core.content(type);
      return new ContentBuilder(INTERNAL, run, content, content.index);
    });
  }

  setUsage(usage) {
    this[LIVE]();
    const text = objectText(usage, "setUsage()");
    this[CALL]((core) => core.setUsage(text));
  }
}

/** A content part of a message. */
export class ContentBuilder extends ChildBuilder {
  #index;

  constructor(token, run, core, index) {
    super(token, run, core, "ContentBuilder", "MessageBuilder.content()");
    this.#index = index;
  }

  get index() {
    return this.#index;
  }

  delta(value) {
    const core = this[LIVE]();
    const run = this[RUN];
    // An object crosses as JSON text, read (and checked) in JS first.
    const json = typeof value === "string" ? undefined : objectText(value, "delta()");
    let bytes;
    try {
      if (json !== undefined) bytes = core.deltaJson(json);
      // Into a stream: the frame is copied from wasm memory into the stream's buffer, no array
      // made for it alone (a module without deltaTextOut returns the frame).
      else if (run.sink !== null && run.take !== null && core.deltaTextOut) {
        const length = core.deltaTextOut(value);
        bytes = run.take(core.outPtr(), length);
      } else bytes = core.deltaText(value);
    } catch (error) {
      throw failure(run.inst, error);
    }
    const sink = run.sink;
    if (sink !== null) sink(bytes);
    return bytes;
  }

  set(value) {
    this[LIVE]();
    if (typeof value === "string") return emit(this[RUN], this[CALL]((core) => core.setText(value)));
    const json = objectText(value, "set()");
    return emit(this[RUN], this[CALL]((core) => core.setJson(json)));
  }
}

/** A streamed tool call: a `*_call` message with one data part `{call_id, name, arguments}`. */
export class ToolCallBuilder extends ChildBuilder {
  constructor(token, run, core) {
    super(token, run, core, "ToolCallBuilder", "ResponseBuilder.toolCall()");
  }

  get id() {
    return this[CALL]((core) => core.id);
  }

  start() {
    return emit(this[RUN], this[CALL]((core) => core.start()));
  }

  arguments(piece) {
    if (typeof piece !== "string") {
      throw agentwireError("INVALID_OPTION", "arguments() expects a string (a piece of JSON text)");
    }
    return emit(this[RUN], this[CALL]((core) => core.arguments(piece)));
  }
}
