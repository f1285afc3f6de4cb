// A2A tasks of several turns. A run that pauses for a person (`rb.interrupt()`: the task is
// input-required) is one turn of its task; the next message on the task starts the next turn, a
// new run of the same task id (store id `<task>#<n>` from the second on), whose agent gets the
// conversation so far: the earlier turns' input and output, then the new message. The task as a
// client sees it (GetTask, CancelTask, SubscribeToTask, ListTasks) is its latest turn.
import { answerOf } from "./app-history.js";

/** The most turns a task takes (a message past it is refused). */
export const MAX_TURNS = 100;
/** How long a subscription to a paused task waits for its next turn before it ends. */
export const FOLLOW_MS = 60_000;
/** How often such a subscription looks for the next turn (ms). */
const FOLLOW_POLL_MS = 250;

/** The most subscriptions waiting on paused tasks' next turns, per principal and in all (per app). */
export const MAX_FOLLOWING = { perPrincipal: 16, total: 1000 };

/** Counts the subscriptions waiting on paused tasks: `take(owner)` gives a release, or null when full. */
export class FollowCaps {
  #by = new Map();
  #total = 0;

  take(owner) {
    const mine = this.#by.get(owner) ?? 0;
    if (mine >= MAX_FOLLOWING.perPrincipal || this.#total >= MAX_FOLLOWING.total) return null;
    this.#by.set(owner, mine + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = this.#by.get(owner) - 1;
      if (left > 0) this.#by.set(owner, left);
      else this.#by.delete(owner);
    };
  }
}

/** The store id of turn `n` (1, 2, …) of task `taskId`. */
export function turnId(taskId, n) {
  return n === 1 ? taskId : `${taskId}#${n}`;
}

/**
 * The latest turn of task `taskId` the caller may see: `{run, n}` (`run` as `own` gives it), or
 * `null` for no such task. Turns are numbered without gaps, so a search that doubles then halves
 * finds the last in O(log n) lookups.
 */
export async function latestTurn(own, taskId, principal, protocol) {
  const first = await own(turnId(taskId, 1), principal, protocol);
  if (!first) return null;
  let found = { run: first, n: 1 };
  // A task paused at its last turn can still be canceled: one more turn.
  const last = MAX_TURNS + 1;
  let missing = last + 1;
  for (let n = 2; ; n = Math.min(2 * n, last)) {
    const run = await own(turnId(taskId, n), principal, protocol);
    if (!run) {
      missing = n;
      break;
    }
    found = { run, n };
    if (n === last) break;
  }
  while (missing - found.n > 1) {
    const n = Math.floor((found.n + missing) / 2);
    const run = await own(turnId(taskId, n), principal, protocol);
    if (run) found = { run, n };
    else missing = n;
  }
  return found;
}

/**
 * How turn `run` ended, read from its log (`runs.wholeLog`): `{status, output, interrupts}`
 * (app-history.js `answerOf`); `null` when the log is no longer whole.
 */
export async function turnOutcome(runs, run) {
  const log = await runs.wholeLog(run.key);
  return log === null ? null : answerOf(log, run.protocol);
}

/**
 * A stream of `head` (the paused task as it stands), then the next turn's events once it starts
 * (`next()`: its stream, or `null` while there is none), polled every FOLLOW_POLL_MS for
 * FOLLOW_MS at most; it ends there, or when the reader cancels. `release` is called once it
 * ended, however; without one (the caps are full) the stream ends after `head`.
 */
export function followingTurn(head, next, release) {
  let reader = null;
  let canceled = false;
  let sent = false;
  const end = (c) => {
    release?.();
    c.close();
  };
  return new ReadableStream({
    async pull(c) {
      if (!sent) {
        sent = true;
        c.enqueue(head);
        if (!release) c.close();
        return;
      }
      try {
        const until = Date.now() + FOLLOW_MS;
        while (reader === null) {
          if (canceled || Date.now() >= until) return end(c);
          const stream = await next();
          if (stream) reader = stream.getReader();
          else await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
        }
        const { done, value } = await reader.read();
        if (done) end(c);
        else c.enqueue(value);
      } catch (e) {
        release?.();
        c.error(e);
      }
    },
    cancel(reason) {
      canceled = true;
      release?.();
      return reader?.cancel(reason);
    },
  });
}
