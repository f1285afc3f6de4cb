// Server-kept conversations of the request side: a new turn's agent request gets the
// conversation so far, read from the run it follows, for OpenAI Responses (`previous_response_id`)
// and the Agent API (`session_id`, with the app's `sessionHistory`); an AG-UI thread's `resume`
// is held to AG-UI's rules against the thread's interrupted run. A2A tasks of several turns are
// app-tasks.js's.
import { HttpError } from "./app-http.js";
import { principalKey, scoped, unscoped } from "./app-principal.js";
import { isRunId } from "./app-protocols.js";
import { answerOf, nextInput, resumeOf } from "./app-history.js";

/** The longest `resume` (JSON text) a run keeps to recognise its replay. */
const MAX_KEPT_RESUME = 16 * 1024;

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
 * The caller's last run of `protocol` in `session` and its whole log (runAndLog), with `key`,
 * the session's store key; `{key}` when there is none, or the run found has since been taken
 * by another session (its id given again).
 */
async function lastRunOf(runs, session, owner, protocol) {
  const key = scoped(owner, session);
  const last = await runs.store.lastRun(key);
  const found = last === null ? {} : await runAndLog(runs, last, owner, protocol);
  return found.run?.session === key ? { ...found, key: last } : { key: null };
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
  const { run, log } = await lastRunOf(runs, session, principalKey(principal), "agent-api");
  if (!run) return;
  if (run.status === "running") throw new HttpError("SESSION_BUSY", `Session ${session} has a run going.`);
  continueFrom(agentRequest, run, log);
}

/** What an AG-UI run keeps of its request's `resume` to recognise a replay: its JSON text, when short. */
export function keptResume(agentRequest) {
  const resume = agentRequest.resume;
  if (!Array.isArray(resume) || resume.length === 0) return undefined;
  const text = JSON.stringify(resume);
  return text.length <= MAX_KEPT_RESUME ? text : undefined;
}

/** `{code, message}` of a refused resume. */
const refuse = (code, message) => ({ refusal: { code, message } });

/**
 * AG-UI's rules for a run of thread `session_id` against the thread's last run (the caller's,
 * while kept): while it waits on interrupts, the request must `resume` every one of them (no
 * other id, none expired: `expiresAt`); a `resume` with nothing open is refused, unless it is the
 * one the last run was started with (a replay: `{replay: {key, id}}`, that run's answer again,
 * nothing run twice). Returns `{refusal: {code, message}}` (the run is refused with AG-UI's
 * RUN_ERROR), `{replay}`, or `null` to run the agent.
 */
export async function checkThreadResume(runs, agentRequest, principal, now = Date.now()) {
  const thread = agentRequest.session_id;
  if (typeof thread !== "string" || typeof runs.store.lastRun !== "function") return null;
  const resume = Array.isArray(agentRequest.resume) ? agentRequest.resume : [];
  const owner = principalKey(principal);
  const { run, log, key: last } = await lastRunOf(runs, thread, owner, "ag-ui");
  // A run going: the start is refused as SESSION_BUSY; a log no longer whole: nothing to hold it to.
  if (run?.status === "running" || (run && log === null)) return null;
  const answer = run ? answerOf(log, "ag-ui") : null;
  const open = answer?.status === "incomplete" ? answer.interrupts.filter((i) => typeof i?.id === "string") : [];
  if (open.length === 0) {
    if (resume.length === 0) return null;
    if (run && run.meta?.resume !== undefined && run.meta.resume === JSON.stringify(resume)) {
      return { replay: { key: last, id: unscoped(owner, last) } };
    }
    return refuse("RESUME_UNEXPECTED", `Thread ${thread.slice(0, 64)} has no run waiting on an interrupt: the resume answers nothing.`);
  }
  const ids = open.map((i) => i.id);
  if (resume.length === 0) {
    return refuse("RESUME_REQUIRED", `The thread's last run waits on interrupts (${ids.join(", ").slice(0, 512)}): the next run must resume every one of them.`);
  }
  const answered = new Set();
  for (const entry of resume) {
    const id = entry?.interruptId;
    if (typeof id !== "string" || !ids.includes(id)) {
      return refuse("RESUME_UNKNOWN_INTERRUPT", `The resume names ${JSON.stringify(String(id).slice(0, 64))}, which the thread's run does not wait on.`);
    }
    if (answered.has(id)) return refuse("RESUME_UNKNOWN_INTERRUPT", `The resume answers ${id.slice(0, 64)} twice.`);
    answered.add(id);
  }
  const missing = ids.filter((id) => !answered.has(id));
  if (missing.length > 0) return refuse("RESUME_INCOMPLETE", `The resume leaves interrupts unanswered (${missing.join(", ").slice(0, 512)}): one resume answers every open interrupt.`);
  const expired = open.find((i) => typeof i.expiresAt === "string" && Date.parse(i.expiresAt) <= now);
  if (expired) return refuse("INTERRUPT_EXPIRED", `Interrupt ${String(expired.id).slice(0, 64)} expired at ${String(expired.expiresAt).slice(0, 64)}.`);
  return null;
}
