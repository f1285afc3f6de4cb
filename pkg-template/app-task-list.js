// A2A ListTasks: the caller's tasks, newest first, a page at a time (a `pageToken` cursor),
// each as its latest turn stands; the answer is the core's (a2aListAnswer). It needs a store
// that lists a principal's runs (`list`, as MemoryRunStore has); with another store the method
// is unsupported.
import { call } from "./instance.js";
import { concatBytes } from "./values.js";
import { jsonText } from "./app-http.js";
import { latestTurn, turnOutcome } from "./app-tasks.js";
import { answerOf } from "./app-history.js";

/** The page size when the request gives none, and the largest it may ask for. */
export const PAGE_SIZE = { default: 50, max: 100 };
/** With a status filter, the most tasks one call reads (each task's state is read from its log). */
export const MAX_STATUS_SCAN = 500;

/** A2A's task states (1.0 names) by the Agent API status of a turn's outcome. */
const STATE_OF = {
  completed: "TASK_STATE_COMPLETED", failed: "TASK_STATE_FAILED", canceled: "TASK_STATE_CANCELED",
  rejected: "TASK_STATE_REJECTED", incomplete: "TASK_STATE_INPUT_REQUIRED", in_progress: "TASK_STATE_WORKING",
  created: "TASK_STATE_SUBMITTED",
};

/** `params[name]`, read in its lowerCamelCase or proto (snake_case) spelling. */
function param(params, camel) {
  const snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return params?.[camel] ?? params?.[snake];
}

/** A non-negative integer parameter (ProtoJSON may write it as a decimal string), or undefined; NaN when bad. */
function count(value) {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : value;
  return Number.isInteger(n) && n >= 0 && n <= 0xffff_ffff ? n : NaN;
}

/** Answers ListTasks for the caller (`server` as answerA2a has it). */
export async function listTasks(server, rpc, context, protocol, errorOf) {
  const store = server.runs.store;
  const principal = server.owner(context.principal);
  if (server.listTasks === false || (principal === null && server.listTasks !== "all")) {
    return errorOf("UNSUPPORTED_OPERATION", "ListTasks lists a caller's own tasks: it needs callers `authorize` names (or the listTasks option).");
  }
  const params = rpc.params ?? {};
  const contextId = param(params, "contextId");
  const status = param(params, "status");
  const pageSize = count(param(params, "pageSize")) ?? PAGE_SIZE.default;
  const historyLength = count(param(params, "historyLength"));
  const token = param(params, "pageToken") ?? "";
  const includeArtifacts = param(params, "includeArtifacts") ?? false;
  const before = token === "" ? Infinity : count(token);
  if (Number.isNaN(pageSize) || pageSize < 1 || pageSize > PAGE_SIZE.max) return errorOf("INVALID_PARAMS", `pageSize must be 1 to ${PAGE_SIZE.max}.`);
  if (Number.isNaN(historyLength)) return errorOf("INVALID_PARAMS", "historyLength must be a non-negative integer.");
  if (Number.isNaN(before)) return errorOf("INVALID_PARAMS", "pageToken is not one this server gave.");
  if (contextId != null && typeof contextId !== "string") return errorOf("INVALID_PARAMS", "contextId must be a string.");
  if (status != null && typeof status !== "string") return errorOf("INVALID_PARAMS", "status must be a string.");
  if (typeof includeArtifacts !== "boolean") return errorOf("INVALID_PARAMS", "includeArtifacts must be a boolean.");

  const query = { principal, protocol, contextId, status, before, pageSize };
  // With Durable Objects, the principal's tasks object lists the tasks, each task's own object
  // its latest turn; otherwise the store lists its runs.
  const objects = server.objectTasks?.(context.env) ?? null;
  if (!objects && typeof store.list !== "function") return errorOf("UNSUPPORTED_OPERATION", "ListTasks needs a run store that lists runs (MemoryRunStore).");
  const { page, matched, more, cut } = objects ? await fromObjects(objects, query) : await fromStore(server, context, query);
  const options = {
    id: rpc.id ?? null, historyLength, includeArtifacts, pageSize, totalSize: matched,
    nextPageToken: more ? String(page[page.length - 1].seq) : cut === null ? "" : String(cut),
    // Each task's history starts with the conversation its latest turn was given (as GetTask's).
    histories: page.map((task) => (Array.isArray(task.history) ? task.history : [])),
  };
  const logs = page.map((task) => task.log);
  return jsonText(call("a2aListAnswer", concatBytes(logs), Uint32Array.from(logs, (l) => l.length), JSON.stringify(options)));
}

/** Whether a task at `outcome` (its latest turn's, or null) is in state `status` (none: any). */
function inState(status, run, outcome) {
  if (status == null) return true;
  return STATE_OF[run.status === "running" ? "in_progress" : outcome?.status] === status;
}

/**
 * A page of the caller's tasks from the run store (`list`): `{page: [{seq, log}], matched, more,
 * cut}` (`cut`: where a status filter that read all it may goes on, or null).
 */
async function fromStore(server, context, { principal, protocol, contextId, status, before, pageSize }) {
  // A task is its first turn's run; later turns are found from it.
  const first = (run) => !(run.meta?.turn > 1) && (contextId == null || run.meta?.builder?.sessionId === contextId);
  // A status filter needs each task's state: up to MAX_STATUS_SCAN tasks are read, then paged
  // (`totalSize` then counts the matches among them).
  const { runs, total } = await server.runs.store.list({
    principal, protocol, match: first, before, limit: status == null ? pageSize + 1 : MAX_STATUS_SCAN,
  });
  const page = [];
  let matched = status == null ? total : 0;
  for (const run of runs) {
    const taskId = run.meta?.builder?.responseId;
    const latest = taskId == null ? null : await latestTurn(server.own, taskId, context.principal, protocol);
    if (!latest) continue;
    if (status != null) {
      if (!inState(status, latest.run, latest.run.status === "running" ? null : await turnOutcome(server.runs, latest.run))) continue;
      matched++;
    }
    if (page.length <= pageSize) page.push({ seq: run.seq, key: latest.run.key, log: new Uint8Array(0), history: latest.run.meta?.input });
  }
  const more = page.length > pageSize;
  if (more) page.pop();
  for (const task of page) task.log = (await server.runs.wholeLog(task.key)) ?? task.log;
  const cut = !more && status != null && runs.length === MAX_STATUS_SCAN ? runs[runs.length - 1].seq : null;
  return { page, matched, more, cut };
}

/**
 * The same from Durable Objects (`objects`: `page(principal, query)` of the principal's tasks
 * object, `latest(principal, taskId)` of a task's object: its latest turn, `{run, log}` or
 * null; `forget(principal, seqs)` of the tasks found gone).
 */
async function fromObjects(objects, { principal, protocol, contextId, status, before, pageSize }) {
  const limit = status == null ? pageSize + 1 : MAX_STATUS_SCAN;
  const { tasks, total } = await objects.page(principal, { protocol, contextId: contextId ?? null, before: Number.isFinite(before) ? before : null, limit });
  const page = [];
  const gone = [];
  let matched = status == null ? total : 0;
  for (const { seq, taskId } of tasks) {
    const latest = await objects.latest(principal, taskId);
    if (!latest) {
      gone.push(seq);
      continue;
    }
    if (status != null) {
      if (!inState(status, latest.run, latest.run.status === "running" ? null : answerOf(latest.log, latest.run.protocol))) continue;
      matched++;
    }
    if (page.length <= pageSize) page.push({ seq, log: latest.log, history: latest.run.meta?.input });
  }
  const more = page.length > pageSize;
  if (more) page.pop();
  const cut = !more && status != null && tasks.length === MAX_STATUS_SCAN ? tasks[tasks.length - 1].seq : null;
  if (gone.length) {
    // Past their retention: no longer listed, nor counted.
    await objects.forget(principal, gone);
    if (status == null) matched -= gone.length;
  }
  return { page, matched, more, cut };
}

