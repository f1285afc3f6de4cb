// The caps on running runs, per principal and in all: a start takes a place before anything
// else happens (so concurrent starts cannot pass a cap together) and releases it when its run
// ended. The run manager keeps them for the runs of its instance; with Durable Objects, where
// each run counts only itself in its object, the front instance keeps them for the starts it
// forwards.

/** A refusal of a run's start: `code` is an HttpError code, `retryAfter` seconds if any. */
export class RunRefusal extends Error {
  constructor(code, message, retryAfter = undefined) {
    super(message);
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** Places for running runs: `maxRunningPerPrincipal` per owner key, `maxRunning` in all. */
export class RunCaps {
  #counts = new Map();
  #total = 0;
  #perOwner;
  #all;

  constructor({ maxRunningPerPrincipal, maxRunning }) {
    this.#perOwner = maxRunningPerPrincipal;
    this.#all = maxRunning;
  }

  /** Takes a place for a run of `owner`: its release function (idempotent). Throws TOO_MANY_RUNS. */
  take(owner) {
    const count = this.#counts.get(owner) ?? 0;
    if (this.#total >= this.#all) {
      throw new RunRefusal("TOO_MANY_RUNS", "The server runs as many runs as it takes; try again later.", 5);
    }
    if (count >= this.#perOwner) {
      throw new RunRefusal("TOO_MANY_RUNS", `At most ${this.#perOwner} runs may go at once; wait for one to end.`, 1);
    }
    this.#counts.set(owner, count + 1);
    this.#total++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#total--;
      const left = (this.#counts.get(owner) ?? 1) - 1;
      if (left > 0) this.#counts.set(owner, left);
      else this.#counts.delete(owner);
    };
  }
}
