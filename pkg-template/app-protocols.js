// The front ends of the streamed protocols, as a table: how a request body becomes an Agent API
// request (the core's mapping), which ids the client may choose and the rules they follow, and
// the builder options of the run. A2A, with JSON-RPC, is app-a2a.js.
import { call } from "./instance.js";
import { textOf } from "./values.js";
import { HttpError, badRequest } from "./app-http.js";

/**
 * The longest id, session or model a request may give: each is echoed in events or used as a
 * key, so its length bounds what a request adds to every event of the answer.
 */
export const MAX_ID_LENGTH = 256;

/** A new server-chosen id. */
export function randomId(prefix) {
  return `${prefix}${crypto.randomUUID()}`;
}

/**
 * Whether `id` can be a run's id: 1 to MAX_ID_LENGTH visible ASCII characters (it goes in a
 * header, `x-agentwire-run-id`, and in the run's URL).
 */
export function isRunId(id) {
  return typeof id === "string" && id.length > 0 && id.length <= MAX_ID_LENGTH && /^[\x21-\x7e]+$/.test(id);
}

/** Checks a client-chosen run or task id (`isRunId`): 400 naming `field` otherwise. */
export function checkRunId(id, field) {
  if (!isRunId(id)) {
    throw new HttpError("INVALID_REQUEST", `${field} must be 1 to ${MAX_ID_LENGTH} visible ASCII characters.`, field);
  }
  return id;
}

/** Checks a string echoed in every event (a session, a model): at most MAX_ID_LENGTH characters. */
export function checkEchoed(value, field) {
  if (typeof value === "string" && value.length > MAX_ID_LENGTH) {
    throw new HttpError("INVALID_REQUEST", `${field} is longer than ${MAX_ID_LENGTH} characters.`, field);
  }
  return value;
}

/** The streamed protocols: route key → how a start request is read and its run written. */
export const FRONT_ENDS = {
  process: {
    protocol: "agent-api",
    mapping: "parseRequest",
    idPrefix: "response_",
    clientId: (request) => request.id,
    idField: "id",
    sessionField: "session_id",
    builderOptions: (request, id) => ({ protocol: "agent-api", sessionId: request.session_id ?? undefined, responseId: id }),
    streamed: () => true,
  },
  responses: {
    protocol: "openai-responses",
    // The Agent API request and what every response object repeats of the body (`echo`).
    mapping: "responsesStart",
    read: ({ request, echo }) => ({ agentRequest: request, echo }),
    idPrefix: "resp_",
    clientId: () => undefined,
    idField: "id",
    sessionField: "conversation",
    builderOptions: (request, id, echo) => ({
      protocol: "openai-responses",
      sessionId: request.session_id ?? undefined,
      responseId: id,
      model: typeof request.model === "string" ? checkEchoed(request.model, "model") : undefined,
      request: echo,
    }),
    streamed: (request) => request.stream === true,
  },
  agUi: {
    protocol: "ag-ui",
    mapping: "agUiRequest",
    idPrefix: "run_",
    clientId: (request) => request.id,
    idField: "runId",
    sessionField: "threadId",
    builderOptions: (request, id) => ({
      protocol: "ag-ui",
      threadId: request.session_id ?? undefined,
      runId: id,
      sessionId: request.session_id ?? undefined,
      responseId: id,
    }),
    streamed: () => true,
  },
};

/**
 * The body read by the core's `mapping` (400 naming the field): `{ agentRequest, echo }`, the
 * Agent API request and, for Responses, what every response object repeats of the body.
 */
export function mapRequest(front, bytes) {
  let mapped;
  try {
    mapped = call(front.mapping, textOf(bytes, front.mapping));
  } catch (e) {
    throw badRequest(e);
  }
  return front.read ? front.read(mapped) : { agentRequest: mapped };
}

/**
 * The run a start request makes (`mapped`: what `mapRequest` read): its Agent API request with
 * `id` set (the client's, checked, or a new one), its session (checked) and builder options.
 * `runId` is an id chosen before (a front instance's, with Durable Objects).
 */
export function runOf(front, { agentRequest, echo }, runId = undefined) {
  const chosen = front.clientId(agentRequest);
  const id = runId ?? (chosen == null ? randomId(front.idPrefix) : checkRunId(chosen, front.idField));
  checkEchoed(agentRequest.session_id, front.sessionField);
  agentRequest.id = id;
  return { id, session: agentRequest.session_id ?? null, builderOptions: front.builderOptions(agentRequest, id, echo) };
}
