// A2A tasks of several turns. A run that pauses for a person (`rb.interrupt()`: the task is
// input-required) is one turn of its task; the next message on the task starts the next turn, a
// new run of the same task id (store id `<task>#<n>` from the second on), whose agent gets the
// conversation so far: the earlier turns' input and output, then the new message. The task as a
// client sees it (GetTask, CancelTask, SubscribeToTask, ListTasks) is its latest turn.
import { StreamAssembler } from "./assembler.js";

/** The most turns a task takes (a message past it is refused). */
export const MAX_TURNS = 100;
/**
 * The most JSON text of conversation a task keeps for its next turn (the oldest messages go
 * first); it is kept with the turn's run, within what every store keeps in one value.
 */
export const MAX_HISTORY_BYTES = 64 * 1024;
/** How long a subscription to a paused task waits for its next turn before it ends. */
export const FOLLOW_MS = 60_000;
/** How often such a subscription looks for the next turn (ms). */
const FOLLOW_POLL_MS = 250;

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
  let missing = MAX_TURNS + 1;
  for (let n = 2; n <= MAX_TURNS; n *= 2) {
    const run = await own(turnId(taskId, n), principal, protocol);
    if (!run) {
      missing = n;
      break;
    }
    found = { run, n };
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
 * How turn `run` ended, read from its log (`runs.wholeLog`): `{status, output}`, the Agent API
 * status (`incomplete` for a pause) and the messages it answered (not the pause's status
 * message); `null` when the log is no longer whole.
 */
export async function turnOutcome(runs, run) {
  const log = await runs.wholeLog(run.key);
  if (log === null) return null;
  const asm = new StreamAssembler({ protocol: "a2a" });
  try {
    asm.push(log);
    const { status, output, interrupts } = asm.snapshot();
    // The pause's status message (id'd by its first interrupt) repeats what the agent asked.
    const asked = new Set((Array.isArray(interrupts) ? interrupts : []).map((i) => i?.id));
    return { status, output: (output ?? []).filter((m) => !asked.has(m.id)) };
  } finally {
    asm.free();
  }
}

/**
 * The input of the next turn: the previous turn's input (`run.meta.input`) and its `output`,
 * the newest of them within MAX_HISTORY_BYTES, then `input`, the new messages (always whole).
 */
export function nextInput(run, output, input) {
  const earlier = [...(Array.isArray(run.meta?.input) ? run.meta.input : []), ...output];
  return [...keptHistory(earlier), ...input];
}

/** The newest of `messages` within MAX_HISTORY_BYTES of JSON text, in order (what a turn keeps). */
export function keptHistory(messages) {
  let bytes = 0;
  let keep = messages.length;
  while (keep > 0) {
    const size = JSON.stringify(messages[keep - 1]).length + 1;
    if (bytes + size > MAX_HISTORY_BYTES) break;
    bytes += size;
    keep--;
  }
  return messages.slice(keep);
}

/**
 * A stream of `head` (the paused task as it stands), then the next turn's events once it starts
 * (`next()`: its stream, or `null` while there is none), polled every FOLLOW_POLL_MS for FOLLOW_MS at
 * most; it ends there, or when the reader cancels.
 */
export function followingTurn(head, next) {
  let reader = null;
  let canceled = false;
  let sent = false;
  return new ReadableStream({
    async pull(c) {
      if (!sent) {
        sent = true;
        c.enqueue(head);
        return;
      }
      const until = Date.now() + FOLLOW_MS;
      while (reader === null) {
        if (canceled || Date.now() >= until) {
          c.close();
          return;
        }
        const stream = await next();
        if (stream) reader = stream.getReader();
        else await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
      }
      const { done, value } = await reader.read();
      if (done) c.close();
      else c.enqueue(value);
    },
    cancel(reason) {
      canceled = true;
      return reader?.cancel(reason);
    },
  });
}
