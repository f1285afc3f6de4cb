// Server-kept conversations of the request side: a new turn's agent request gets the
// conversation so far, read from the run it follows, for OpenAI Responses (`previous_response_id`)
// and the Agent API (`session_id`, with the app's `sessionHistory`). A2A tasks of several turns
// are app-tasks.js's.
import { HttpError } from "./app-http.js";
import { principalKey, scoped } from "./app-principal.js";
import { isRunId } from "./app-protocols.js";
import { answerOf, nextInput, resumeOf } from "./app-history.js";

/**
 * `agentRequest` continued from run `run` (its whole `log`, or `null` when no longer whole): the
 * run's kept input and its answer (the newest 64 KiB) go before the request's input, and the
 * answers to its interrupts into `resume`. A log no longer whole gives the kept input only.
 */
function continueFrom(agentRequest, run, log) {
  const input = agentRequest.input ?? [];
  if (log === null) {
    agentRequest.input = nextInput(run.meta?.input, [], input);
    return;
  }
  const { status, output, interrupts } = answerOf(log, run.protocol);
  const resume = resumeOf(interrupts, input, status === "incomplete");
  if (resume) agentRequest.resume = resume;
  agentRequest.input = nextInput(run.meta?.input, output, input);
}

/**
 * The caller's run of `protocol` with store key `key` and its whole log (`null` when no longer
 * whole): from this instance's store, or (Durable Objects, where each run has its object) from
 * the run's object. `{}` when there is none the caller may see.
 * @param {{ store: any, wholeLog(key: string): Promise<Uint8Array | null> }} runs
 */
async function runAndLog(runs, key, owner, protocol) {
  const run = await runs.store.get(key);
  if (run) {
    if (run.principal !== owner || run.protocol !== protocol) return {};
    return { run, log: await runs.wholeLog(key) };
  }
  const found = await runs.store.elsewhere?.(key);
  if (!found || found.run.principal !== owner || found.run.protocol !== protocol) return {};
  return { run: found.run, log: found.run.first > 0 ? null : found.log };
}

/**
 * Responses `previous_response_id`: the conversation so far goes before the request's input
 * (continueFrom). 400 naming the field for a response the caller has not, one made with
 * `store: false`, one still going or one no longer kept whole.
 */
export async function chainResponse(runs, agentRequest, principal) {
  const previous = agentRequest.previous_response_id;
  if (previous == null) return;
  const field = "previous_response_id";
  if (typeof previous !== "string") throw new HttpError("INVALID_REQUEST", "previous_response_id must be a string.", field);
  const owner = principalKey(principal);
  const { run, log } = isRunId(previous) ? await runAndLog(runs, scoped(owner, previous), owner, "openai-responses") : {};
  if (!run || run.meta?.store === false) throw new HttpError("INVALID_REQUEST", `Previous response with id '${previous.slice(0, 64)}' not found.`, field);
  if (run.status === "running") throw new HttpError("INVALID_REQUEST", `Previous response ${previous} is still in progress.`, field);
  if (log === null) throw new HttpError("INVALID_REQUEST", `Previous response ${previous} is no longer kept whole.`, field);
  continueFrom(agentRequest, run, log);
}

/**
 * Agent API `session_id` (the app's `sessionHistory`): the conversation of the session's last
 * run (the caller's, while the store keeps it) goes before the request's input (continueFrom);
 * a first turn is left as it is. 409 `SESSION_BUSY` while that run is going.
 */
export async function continueSession(runs, agentRequest, principal) {
  const session = agentRequest.session_id;
  if (typeof session !== "string") return;
  const owner = principalKey(principal);
  const last = await runs.store.lastRun(scoped(owner, session));
  if (last === null) return;
  const { run, log } = await runAndLog(runs, last, owner, "agent-api");
  if (!run) return;
  if (run.status === "running") throw new HttpError("SESSION_BUSY", `Session ${session} has a run going.`);
  continueFrom(agentRequest, run, log);
}
