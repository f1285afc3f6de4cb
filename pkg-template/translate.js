// Translator and translate(): protocol translation around the wasm core. translate() pipes a
// fetch() body (Response, ReadableStream or async iterable) through a Translator and returns a
// ReadableStream of the target protocol's bytes; cancelling it cancels the body.
import { chunks } from "./assembler.js";
import { failure, instance, lostError, release } from "./instance.js";
import { agentwireError, chunkOf, ERROR_NAME, messageOf, optionsText } from "./values.js";

const dispose = Symbol.dispose ?? Symbol.for("Symbol.dispose");

function isHighSurrogate(code) {
  return code >= 0xd800 && code <= 0xdbff;
}

export class Translator {
  #inst;
  #core;
  #high = ""; // a high surrogate that ended the last string chunk (see assembler.js)

  constructor(options) {
    const text = optionsText(options ?? {}, "translate", "from");
    const inst = instance();
    this.#inst = inst;
    try {
      this.#core = new inst.exports.TranslatorCore(text);
    } catch (error) {
      throw failure(inst, error);
    }
  }

  #live() {
    if (this.#core === undefined) {
      throw agentwireError("FINISHED", "The translator has been freed; create a new one.");
    }
    if (this.#inst.lost) throw lostError(this.#inst.cause);
    return this.#core;
  }

  // `f(core)` on the live core. An exception that is not agentwire's loses the instance.
  #use(f) {
    const core = this.#live();
    const inst = this.#inst;
    try {
      return f(core);
    } catch (error) {
      throw failure(inst, error);
    }
  }

  push(chunk) {
    this.#live();
    let input = chunkOf(chunk, "push");
    if (typeof input === "string") {
      // A character split between two strings stays one character.
      if (this.#high !== "") {
        input = this.#high + input;
        this.#high = "";
      }
      const last = input.length - 1;
      if (last >= 0 && isHighSurrogate(input.charCodeAt(last))) {
        this.#high = input.slice(last);
        input = input.slice(0, last);
      }
      const text = input;
      return this.#use((core) => core.pushText(text));
    }
    const bytes = input;
    if (this.#high === "") return this.#use((core) => core.pushBytes(bytes));
    const high = this.#high; // a lone half: it becomes U+FFFD
    this.#high = "";
    return concat(this.#use((core) => core.pushText(high)), this.#use((core) => core.pushBytes(bytes)));
  }

  finish() {
    this.#live();
    const high = this.#high;
    this.#high = "";
    const before = high === "" ? new Uint8Array(0) : this.#use((core) => core.pushText(high));
    return concat(before, this.#use((core) => core.finish()));
  }

  // The output's last bytes after the input failed: the target protocol's failure event with
  // `{code, message}` (empty when the run already ended).
  fail(error) {
    this.#live();
    let code, message;
    try {
      ({ code, message } = error);
    } catch (e) {
      throw agentwireError("INVALID_OPTION", "fail(): reading the error threw", undefined, e);
    }
    if (typeof code !== "string" || typeof message !== "string") {
      throw agentwireError("INVALID_OPTION", "fail() expects an object {code, message} of strings");
    }
    return this.#use((core) => core.fail(code, message));
  }

  get warnings() {
    return this.#use((core) => core.warnings);
  }

  free() {
    if (this.#core !== undefined) {
      const core = this.#core;
      this.#core = undefined;
      release(this.#inst, core); // never throws
    }
  }

  [dispose]() {
    this.free();
  }
}

function concat(a, b) {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function translate(body, options) {
  let onError;
  let rest = options;
  if (options !== null && typeof options === "object") {
    try {
      ({ onError, ...rest } = options);
    } catch (error) {
      throw agentwireError("INVALID_OPTION", "translate: reading the options threw", undefined, error);
    }
    if (onError !== undefined && typeof onError !== "function") {
      throw agentwireError("INVALID_OPTION", "translate: onError must be a function", "onError");
    }
  }
  const translator = new Translator(rest); // throws INVALID_OPTION synchronously
  let source;
  let pending = null; // the error the stream ends with, after the failure event was read
  // The input stopped early (`error`): the output ends with the target's failure event, so the
  // client sees a failed run rather than a cut stream. A failing source closes the stream (the
  // failure is in the output; onError gets the error); an error of agentwire's (a chunk that is
  // not bytes, an event over maxEventBytes, …) errors it once the failure event was read.
  const stopEarly = (controller, error, fromSource) => {
    let tail = null;
    try {
      const coded = error?.name === ERROR_NAME;
      tail = translator.fail(fromSource
        ? { code: "SOURCE_ERROR", message: `The source stream failed: ${messageOf(error)}` }
        : { code: coded ? error.code : "SOURCE_ERROR", message: messageOf(error) });
    } catch {
      // The translator cannot say more (its instance was lost): the stream just ends.
    }
    translator.free();
    if (tail !== null && tail.length > 0) controller.enqueue(tail);
    if (fromSource) {
      if (onError !== undefined) {
        try {
          onError(error);
        } catch {
          // An onError that throws has nowhere to report to.
        }
      }
      controller.close();
    } else if (tail !== null && tail.length > 0) {
      pending = error;
    } else {
      controller.error(error);
    }
  };
  return new ReadableStream({
    start() {
      source = chunks(body)[Symbol.asyncIterator]();
    },
    async pull(controller) {
      if (pending !== null) {
        controller.error(pending);
        return;
      }
      for (;;) {
        let next;
        try {
          next = await source.next();
        } catch (error) {
          stopEarly(controller, error, !(error?.name === ERROR_NAME));
          return;
        }
        try {
          if (next.done) {
            const last = translator.finish();
            if (last.length > 0) controller.enqueue(last);
            translator.free();
            controller.close();
            return;
          }
          const out = translator.push(next.value);
          if (out.length > 0) {
            controller.enqueue(out);
            return;
          }
        } catch (error) {
          source.return().catch(() => {}); // stop reading the body (not awaited: it may hang)
          stopEarly(controller, error, false);
          return;
        }
      }
    },
    async cancel(reason) {
      translator.free();
      await source?.return?.(reason);
    },
  });
}
