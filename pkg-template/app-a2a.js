// The A2A front end: JSON-RPC calls on one route (1.0 and 0.3), tasks as durable runs. Reading
// the call, the answers, the error answers, the task-first frame of a subscription and the
// subscriber's JSON-RPC id in the events are all the core's: this module decides which to give.
import { call } from "./instance.js";
import { a2aCall, a2aError } from "./a2a.js";
import { HttpError, cursorOf, json, jsonText, prepend, sseResponse } from "./app-http.js";
import { MAX_ID_LENGTH, checkEchoed, isRunId, randomId } from "./app-protocols.js";
import { keptHistory, nextInput, resumeOf } from "./app-history.js";
import { MAX_TURNS, followingTurn, latestTurn, turnId, turnOutcome } from "./app-tasks.js";
import { listTasks } from "./app-task-list.js";

/** The push-notification methods (not supported). */
const PUSH_METHODS = new Set(["CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig"]);

/** The methods that name an existing task (the run of `params.id`). */
const TASK_METHODS = new Set(["GetTask", "CancelTask", "SubscribeToTask"]);
/** The methods that start a task (a run). */
const SEND_METHODS = new Set(["SendMessage", "SendStreamingMessage"]);

/** Reads a JSON-RPC call: `{call}` or `{error}` (an answer), the id's length checked. */
export function readCall(bytes, a2aVersion) {
  const read = a2aCall(bytes, a2aVersion);
  if (read.error) return read;
  if (JSON.stringify(read.call.id ?? null).length > MAX_ID_LENGTH) {
    // Not echoed: an id that long would be repeated in every event of the answer.
    return { error: a2aError("INVALID_REQUEST", `The JSON-RPC id is longer than ${MAX_ID_LENGTH} characters.`, { id: null, version: read.call.version }) };
  }
  return read;
}

/**
 * The run a call starts or continues (`{id, starts: true}`: a send's new task id, or the task its
 * message names) or names (`{id, starts: false}`), for routing to a run's object; `null` when
 * none (a call on no task, or a task id no run can have: answered without a run).
 */
export function runOfCall(rpc) {
  if (SEND_METHODS.has(rpc.method)) {
    const named = rpc.request.id;
    if (named == null) return { id: randomId("task_"), starts: true };
    return isRunId(named) ? { id: named, starts: true } : null;
  }
  return TASK_METHODS.has(rpc.method) && isRunId(rpc.taskId) ? { id: rpc.taskId, starts: false } : null;
}

/**
 * Answers the A2A route. `server` is the app's side: `body(request)` (the JSON body, within
 * limits), `runs` (the RunManager), `start(request, run, context)` (a durable run, as the
 * streamed protocols start theirs), `own(id, principal, protocol)` (the caller's run or null).
 */
export async function answerA2a(server, request, context) {
  const versionHeader = request.headers.get("a2a-version");
  let body;
  try {
    body = await server.body(request);
  } catch (e) {
    // A body that is not JSON is refused as the A2A client reads errors: a JSON-RPC error
    // (ContentTypeNotSupported, -32005), with the HTTP status (415).
    if (!(e instanceof HttpError) || e.code !== "UNSUPPORTED_MEDIA_TYPE") throw e;
    const version = versionHeader?.trim() === "1.0" ? "1.0" : "0.3";
    return json(a2aError("CONTENT_TYPE_NOT_SUPPORTED", e.message, { id: null, version }), 415);
  }
  const { call: rpc, error } = readCall(body, versionHeader);
  if (error) return json(error);
  const protocol = rpc.version === "1.0" ? "a2a" : "a2a-0.3";
  const errorOf = (reason, message) => json(a2aError(reason, message, { id: rpc.id, version: rpc.version }));
  const answer = async (key, taskId, kind, historyLength = undefined) => {
    const log = await server.runs.wholeLog(key);
    if (log === null) return errorOf(-32603, `Task ${taskId} is larger than the server keeps; it cannot be answered whole.`);
    // The task's history starts with the conversation its latest turn was given (its earlier
    // turns and the message that started this one: the run's kept input).
    const history = (await server.runs.store.get(key))?.meta?.input;
    const options = { id: rpc.id ?? null, version: rpc.version, kind, historyLength: historyLength ?? undefined, history: Array.isArray(history) ? history : undefined };
    return jsonText(call("a2aAnswer", log, JSON.stringify(options)));
  };
  if (SEND_METHODS.has(rpc.method)) return send(server, request, rpc, protocol, context, answer, errorOf);
  if (PUSH_METHODS.has(rpc.method)) return errorOf("PUSH_NOTIFICATION_NOT_SUPPORTED", "Push notifications are not supported.");
  if (rpc.method === "GetExtendedAgentCard") return errorOf("EXTENDED_AGENT_CARD_NOT_CONFIGURED", "No extended agent card is configured.");
  if (rpc.method === "ListTasks") return listTasks(server, rpc, context, protocol, errorOf);
  if (!TASK_METHODS.has(rpc.method)) return errorOf("UNSUPPORTED_OPERATION", `${rpc.method} is not supported.`);
  const latest = await latestTurn(server.own, rpc.taskId, context.principal, protocol);
  if (!latest) return errorOf("TASK_NOT_FOUND", `No task ${rpc.taskId}.`);
  const { run } = latest;
  const { key } = run;
  if (rpc.method === "GetTask") return answer(key, rpc.taskId, "task", rpc.historyLength);
  // A task whose latest turn ended paused (input-required) is not over: it can be canceled,
  // subscribed to (its next turn follows), and continued by a message.
  const outcome = run.status === "running" ? null : await turnOutcome(server.runs, run);
  const paused = outcome?.status === "incomplete";
  if (rpc.method === "CancelTask") {
    if (paused) {
      // The task's last turn: canceled before its agent runs.
      const next = await startTurn(server, request, context, rpc, protocol, { run, n: latest.n + 1, outcome }, { input: [] }, true);
      if (next.error) return errorOf(next.error, next.message);
      await server.runs.ended(next.key);
      return answer(next.key, rpc.taskId, "task");
    }
    if (run.status !== "running") return errorOf("TASK_NOT_CANCELABLE", `Task ${rpc.taskId} has ended.`);
    await server.runs.cancel(key);
    await server.runs.ended(key);
    return answer(key, rpc.taskId, "task");
  }
  // SubscribeToTask: the events carry the subscriber's JSON-RPC id, not the sender's.
  const from = JSON.stringify(run.meta?.rpcId ?? null);
  const to = JSON.stringify(rpc.id ?? null);
  const rebind = from === to ? undefined : (chunk) => call("a2aRebindId", chunk, from, to);
  if (request.headers.has("last-event-id")) {
    // agentwire's extension: a reader that has events (with their `id:`) resumes after the
    // last one it applied, without the task first, ended or not.
    return sseResponse(await server.stream(key, cursorOf(request, context.url), rebind), rpc.taskId);
  }
  if (run.status !== "running" && !paused) return errorOf("UNSUPPORTED_OPERATION", `Task ${rpc.taskId} has ended.`);
  // The task as it stands first (the specification requires it), then what follows: the rest
  // of the turn going, or the next turn of a paused task once a message starts it.
  const log = await server.runs.store.log(key);
  const { frame, cursor } = call("a2aSubscribeHead", log, JSON.stringify({ id: rpc.id ?? null, version: rpc.version }));
  if (!paused) return sseResponse(prepend(frame, await server.stream(key, cursor, rebind)), rpc.taskId);
  const nextTurn = async () => {
    const next = latest.n <= MAX_TURNS ? await server.own(turnId(rpc.taskId, latest.n + 1), context.principal, protocol) : null;
    if (!next) return null;
    const sender = JSON.stringify(next.meta?.rpcId ?? null);
    // From after its first event, the task as submitted: the subscriber has the task already,
    // and its state does not go back.
    return server.stream(next.key, 0, sender === to ? undefined : (chunk) => call("a2aRebindId", chunk, sender, to));
  };
  // Bounded: a subscription past the caps gets the task as it stands, then the stream ends.
  const release = server.follows.take(server.owner(context.principal)) ?? undefined;
  return sseResponse(followingTurn(frame, nextTurn, release), rpc.taskId);
}

/**
 * Starts turn `n` of the task whose latest turn is `run`, paused with `outcome` (turnOutcome),
 * with `agentRequest` (its `input` the new messages; the conversation so far goes before them);
 * `canceled`: a turn that ends canceled before its agent runs. `{key}`, or `{error, message}`
 * when the turn cannot start.
 */
async function startTurn(server, request, context, rpc, protocol, { run, n, outcome }, agentRequest, canceled = false) {
  // The turn that cancels a paused task may go one past the last.
  if (n > MAX_TURNS + (canceled ? 1 : 0)) return { error: "UNSUPPORTED_OPERATION", message: `Task ${rpc.taskId ?? agentRequest.id} has taken its ${MAX_TURNS} turns.` };
  const taskId = run.meta?.builder?.responseId ?? agentRequest.id;
  const contextId = run.meta?.builder?.sessionId ?? null;
  agentRequest.id = taskId;
  agentRequest.session_id = contextId;
  const resume = resumeOf(outcome.interrupts, agentRequest.input ?? []);
  if (resume) agentRequest.resume = resume;
  agentRequest.input = nextInput(run.meta?.input, outcome.output, agentRequest.input ?? []);
  try {
    const key = await server.start(request, {
      id: turnId(taskId, n), protocol, session: contextId, agentRequest, canceled,
      meta: { rpcId: rpc.id ?? null, turn: n, input: keptHistory(agentRequest.input) },
      builderOptions: { protocol, requestId: rpc.id ?? null, responseId: taskId, sessionId: contextId },
    }, context);
    return { key };
  } catch (e) {
    if (e instanceof HttpError && (e.code === "SESSION_BUSY" || e.code === "RUN_EXISTS")) {
      // Another message (or cancel) got there first.
      return canceled
        ? { error: "TASK_NOT_CANCELABLE", message: `Task ${taskId} went on meanwhile.` }
        : { error: "UNSUPPORTED_OPERATION", message: `Task ${taskId} is going on; send the next message once it asks for one.` };
    }
    throw e;
  }
}

/** A send: a durable run in A2A, answered as a stream or, not streamed, with the task. */
async function send(server, request, rpc, protocol, context, answer, errorOf) {
  const agentRequest = rpc.request;
  // A message names an existing task by its id (`message.taskId`); a new task's id is the
  // server's to choose.
  const namesTask = agentRequest.id != null;
  if (namesTask && !isRunId(agentRequest.id)) return errorOf("TASK_NOT_FOUND", "No task has the message's taskId.");
  if (namesTask) return follow(server, request, rpc, protocol, context, answer, errorOf);
  const taskId = context.runId ?? runOfCall(rpc).id;
  checkEchoed(agentRequest.session_id, "message.contextId");
  const contextId = agentRequest.session_id ?? randomId("ctx_");
  agentRequest.id = taskId;
  agentRequest.session_id = contextId;
  if (namesTask && !(await server.own(taskId, context.principal, protocol))) return errorOf("TASK_NOT_FOUND", `No task ${taskId}.`);
  let key;
  try {
    key = await server.start(request, {
      id: taskId, protocol, session: contextId, agentRequest, meta: { rpcId: rpc.id ?? null, input: keptHistory(agentRequest.input ?? []) },
      builderOptions: { protocol, requestId: rpc.id ?? null, responseId: taskId, sessionId: contextId },
    }, context);
  } catch (e) {
    // A task id the caller used before (running or ended), or a busy context.
    if (e instanceof HttpError && (e.code === "SESSION_BUSY" || e.code === "RUN_EXISTS")) return errorOf("UNSUPPORTED_OPERATION", e.message);
    throw e;
  }
  return sent(server, request, rpc, key, taskId, answer);
}

/** A send's answer once its run started: the stream, or (not streamed) the task. */
async function sent(server, request, rpc, key, taskId, answer) {
  if (rpc.streaming) return sseResponse(await server.stream(key, -1), taskId);
  if (!rpc.returnImmediately) return server.afterEnd(request, key, () => answer(key, taskId, "send", rpc.historyLength));
  // Answer with the task as soon as it exists; the run goes on.
  await server.runs.started(key);
  return answer(key, taskId, "send", rpc.historyLength);
}

/**
 * A message on an existing task (`message.taskId`): the next turn of a paused task, with the
 * conversation so far; a task going on or ended refuses it (UnsupportedOperation), one of
 * another context too.
 */
async function follow(server, request, rpc, protocol, context, answer, errorOf) {
  const agentRequest = rpc.request;
  const taskId = agentRequest.id;
  const latest = await latestTurn(server.own, taskId, context.principal, protocol);
  if (!latest) return errorOf("TASK_NOT_FOUND", `No task ${taskId}.`);
  const { run } = latest;
  const contextId = run.meta?.builder?.sessionId ?? null;
  checkEchoed(agentRequest.session_id, "message.contextId");
  if (agentRequest.session_id != null && agentRequest.session_id !== contextId) {
    return errorOf("INVALID_PARAMS", `Task ${taskId} is of another context than the message's contextId.`);
  }
  if (run.status === "running") return errorOf("UNSUPPORTED_OPERATION", `Task ${taskId} is going on; send the next message once it asks for one.`);
  const outcome = await turnOutcome(server.runs, run);
  if (outcome === null) return errorOf(-32603, "The task is larger than the server keeps; it cannot go on.");
  if (outcome.status !== "incomplete") return errorOf("UNSUPPORTED_OPERATION", `Task ${taskId} has ended; start a new task in its context.`);
  const next = await startTurn(server, request, context, rpc, protocol, { run, n: latest.n + 1, outcome }, agentRequest);
  if (next.error) return errorOf(next.error, next.message);
  return sent(server, request, rpc, next.key, taskId, answer);
}
