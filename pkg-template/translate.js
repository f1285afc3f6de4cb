// Translator and translate(): protocol translation around the wasm core. translate() pipes a
// fetch() body (Response, ReadableStream or async iterable) through a Translator and returns a
// ReadableStream of the target protocol's bytes; cancelling it cancels the body.
import { TranslatorCore } from "./agentwire.js";
import { chunks } from "./assembler.js";

const dispose = Symbol.dispose ?? Symbol.for("Symbol.dispose");

export class Translator {
  #core;

  constructor(options) {
    this.#core = new TranslatorCore(options ?? {});
  }

  #live() {
    if (this.#core === undefined) {
      const error = new Error("The translator has been freed; create a new one.");
      error.name = "AgentwireError";
      error.code = "FINISHED";
      throw error;
    }
    return this.#core;
  }

  push(chunk) {
    const core = this.#live();
    return typeof chunk === "string" ? core.pushText(chunk) : core.pushBytes(chunk);
  }

  finish() {
    return this.#live().finish();
  }

  get warnings() {
    return this.#live().warnings;
  }

  free() {
    if (this.#core !== undefined) {
      this.#core.free();
      this.#core = undefined;
    }
  }

  [dispose]() {
    this.free();
  }
}

export function translate(body, options) {
  const translator = new Translator(options); // throws INVALID_OPTION synchronously
  let source;
  return new ReadableStream({
    start() {
      source = chunks(body)[Symbol.asyncIterator]();
    },
    async pull(controller) {
      try {
        for (;;) {
          const next = await source.next();
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
        }
      } catch (error) {
        translator.free();
        controller.error(error);
      }
    },
    async cancel(reason) {
      translator.free();
      await source?.return?.(reason);
    },
  });
}
