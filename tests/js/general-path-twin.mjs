// The package namespace with `StreamAssembler` replaced by a class that runs, beside every
// assembler a test makes, a twin made with the same options plus `generalPathOnly: true` (the
// fast reader of content deltas off), feeds it the same input, and fails the test at the first
// call whose result differs: update batches, snapshots, tool calls, outcome, warnings, or the
// code of a thrown error. The fast reader may only read; applying goes through the general
// path's functions, so both must agree on every stream, hostile ones included.
import { types } from "node:util";

/** Whether `value` can be handed to a second assembler without side effects. */
function replayable(value) {
  if (value === undefined || value === null || typeof value === "string") return true;
  if (typeof value !== "object" || types.isProxy(value)) return false;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
  return false;
}

/** Options that can be read again without side effects: plain data, no getters, no proxies. */
function plainOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || types.isProxy(options)) return null;
  if (Object.getPrototypeOf(options) !== Object.prototype) return null;
  const copy = {};
  for (const key of Reflect.ownKeys(options)) {
    const d = Object.getOwnPropertyDescriptor(options, key);
    if (!("value" in d) || typeof key !== "string") return null;
    const v = d.value;
    if (v !== null && typeof v === "object") return null;
    copy[key] = v;
  }
  return copy;
}

function outcomeOf(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

export function withGeneralPathTwin(api, assert) {
  const Base = api.StreamAssembler;
  class TwinnedAssembler extends Base {
    #twin = null;
    #calls = 0;

    constructor(options) {
      super(options);
      const copy = plainOptions(options);
      if (copy !== null && copy.generalPathOnly === undefined) {
        this.#twin = new Base({ ...copy, generalPathOnly: true });
      }
    }

    /** Calls `what` on this assembler and on the twin, and requires the same result. */
    #both(what, args) {
      const mine = outcomeOf(() => super[what](...args));
      if (this.#twin !== null) {
        if (!args.every(replayable)) {
          this.#drop();
        } else {
          this.#compare(what, mine, outcomeOf(() => this.#twin[what](...args)));
        }
      }
      if ("error" in mine) throw mine.error;
      return mine.value;
    }

    #compare(what, mine, theirs) {
      this.#calls += 1;
      const at = `${what}() #${this.#calls}: the general path differs from the fast reader`;
      if ("error" in mine || "error" in theirs) {
        assert.strictEqual(theirs.error?.code, mine.error?.code, `${at} (error code)`);
        if (mine.error?.code === "INSTANCE_LOST" || mine.error?.name !== "AgentwireError") this.#drop();
        return;
      }
      assert.deepStrictEqual(theirs.value, mine.value, at);
    }

    #drop() {
      try { this.#twin?.free(); } catch { /* the twin's own instance may be lost */ }
      this.#twin = null;
    }

    push(chunk) {
      return this.#both("push", [chunk]);
    }

    finish() {
      const batch = this.#both("finish", []);
      // The whole answer too (the batches could agree on a difference they both leave out).
      if (this.#twin !== null) this.#both("snapshot", []);
      return batch;
    }

    snapshot() {
      return this.#both("snapshot", []);
    }

    toolCalls() {
      return this.#both("toolCalls", []);
    }

    get outcome() {
      const mine = super.outcome;
      if (this.#twin !== null) assert.strictEqual(this.#twin.outcome, mine, "outcome: the general path differs");
      return mine;
    }

    free() {
      this.#drop();
      return super.free();
    }

  }
  return { ...api, StreamAssembler: TwinnedAssembler };
}
