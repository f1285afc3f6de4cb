// The A2A front end: JSON-RPC calls on one route (1.0 and 0.3), tasks as durable runs. Reading
// the call, the answers, the error answers, the task-first frame of a subscription and the
// subscriber's JSON-RPC id in the events are all the core's: this module decides which to give.
import { call } from "./instance.js";
import { a2aCall, a2aError } from "./a2a.js";
import { HttpError, cursorOf, json, jsonText, prepend, sseResponse } from "./app-http.js";
import { MAX_ID_LENGTH, checkEchoed, isRunId, randomId } from "./app-protocols.js";

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
    const options = { id: rpc.id ?? null, version: rpc.version, kind, historyLength: historyLength ?? undefined };
    return jsonText(call("a2aAnswer", log, JSON.stringify(options)));
  };
  if (SEND_METHODS.has(rpc.method)) return send(server, request, rpc, protocol, context, answer, errorOf);
  if (PUSH_METHODS.has(rpc.method)) return errorOf("PUSH_NOTIFICATION_NOT_SUPPORTED", "Push notifications are not supported.");
  if (rpc.method === "GetExtendedAgentCard") return errorOf("EXTENDED_AGENT_CARD_NOT_CONFIGURED", "No extended agent card is configured.");
  if (!TASK_METHODS.has(rpc.method)) return errorOf("UNSUPPORTED_OPERATION", `${rpc.method} is not supported.`);
  const run = await server.own(rpc.taskId, context.principal, protocol);
  if (!run) return errorOf("TASK_NOT_FOUND", `No task ${rpc.taskId}.`);
  const { key } = run;
  if (rpc.method === "GetTask") return answer(key, rpc.taskId, "task", rpc.historyLength);
  if (rpc.method === "CancelTask") {
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
  if (run.status !== "running") return errorOf("UNSUPPORTED_OPERATION", `Task ${rpc.taskId} has ended.`);
  // The task as it stands first (the specification requires it), then what follows.
  const log = await server.runs.store.log(key);
  const { frame, cursor } = call("a2aSubscribeHead", log, JSON.stringify({ id: rpc.id ?? null, version: rpc.version }));
  return sseResponse(prepend(frame, await server.stream(key, cursor, rebind)), rpc.taskId);
}

/** A send: a durable run in A2A, answered as a stream or, not streamed, with the task. */
async function send(server, request, rpc, protocol, context, answer, errorOf) {
  const agentRequest = rpc.request;
  // A message names an existing task by its id (`message.taskId`); a new task's id is the
  // server's to choose.
  const namesTask = agentRequest.id != null;
  if (namesTask && !isRunId(agentRequest.id)) return errorOf("TASK_NOT_FOUND", "No task has the message's taskId.");
  const taskId = context.runId ?? runOfCall(rpc).id;
  checkEchoed(agentRequest.session_id, "message.contextId");
  const contextId = agentRequest.session_id ?? randomId("ctx_");
  agentRequest.id = taskId;
  agentRequest.session_id = contextId;
  if (namesTask && !(await server.own(taskId, context.principal, protocol))) return errorOf("TASK_NOT_FOUND", `No task ${taskId}.`);
  let key;
  try {
    key = await server.start(request, {
      id: taskId, protocol, session: contextId, agentRequest, meta: { rpcId: rpc.id ?? null },
      builderOptions: { protocol, requestId: rpc.id ?? null, responseId: taskId, sessionId: contextId },
    }, context);
  } catch (e) {
    // A task id the caller used before (running or ended), or a busy context.
    if (e instanceof HttpError && (e.code === "SESSION_BUSY" || e.code === "RUN_EXISTS")) return errorOf("UNSUPPORTED_OPERATION", e.message);
    throw e;
  }
  if (rpc.streaming) return sseResponse(await server.stream(key, -1), taskId);
  if (rpc.returnImmediately) {
    // Answer with the task as soon as it exists; the run goes on.
    await server.runs.started(key);
  } else {
    await server.runs.ended(key, request.signal);
  }
  return answer(key, taskId, "send", rpc.historyLength);
}
