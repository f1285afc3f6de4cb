// Answering a paused run in its own protocol: `answerInterrupts(protocol, snapshot, answers)`
// gives what the next request carries so that the server's agent gets the answers (AgentApp:
// `request.resume`). Plain data in, plain data out.
import { agentwireError, ERROR_NAME } from "./values.js";

const PROTOCOLS = ["agent-api", "ag-ui", "openai-responses", "a2a", "a2a-0.3"];

function invalid(message, field) {
  return agentwireError("INVALID_OPTION", `answerInterrupts: ${message}`, field);
}

/** The interrupts of `snapshot` and each one's answer (`null`: cancelled), every one answered. */
function answered(snapshot, answers) {
  const interrupts = Array.isArray(snapshot?.interrupts) ? snapshot.interrupts : [];
  if (interrupts.length === 0) throw invalid("the snapshot waits on no interrupt (snapshot.interrupts)", "snapshot");
  if (answers === null || typeof answers !== "object" || Array.isArray(answers)) {
    throw invalid("answers must be an object mapping each interrupt id to its answer", "answers");
  }
  const ids = new Set(interrupts.map((i) => i?.id));
  for (const id of Object.keys(answers)) {
    if (!ids.has(id)) throw invalid(`no interrupt ${JSON.stringify(id).slice(0, 80)} is open`, "answers");
  }
  // One resume answers every open interrupt (AG-UI's rule, kept for every protocol).
  return interrupts.map((interrupt) => {
    if (!Object.hasOwn(answers, interrupt.id)) throw invalid(`interrupt ${interrupt.id} has no answer`, "answers");
    const payload = answers[interrupt.id];
    if (payload === undefined) throw invalid(`interrupt ${interrupt.id}'s answer is undefined (null cancels)`, "answers");
    return { interrupt, payload };
  });
}

/** AG-UI's resume entries. */
function resumeEntries(list) {
  return list.map(({ interrupt, payload }) => (payload === null
    ? { interruptId: interrupt.id, status: "cancelled" }
    : { interruptId: interrupt.id, status: "resolved", payload }));
}

/** OpenAI Responses input items answering the approval requests and calls of a paused response. */
function responsesItems(snapshot, list) {
  const approvals = new Set((snapshot.output ?? []).filter((i) => i?.type === "mcp_approval_request").map((i) => i.id));
  const items = [];
  for (const { interrupt, payload } of list) {
    if (interrupt.reason === "tool_call" && typeof interrupt.toolCallId === "string") {
      // A client-side tool: its output answers it.
      const output = payload === null ? "cancelled" : typeof payload === "string" ? payload : JSON.stringify(payload);
      items.push({ type: "function_call_output", call_id: interrupt.toolCallId, output });
    } else if (approvals.has(interrupt.id)) {
      const approve = payload === true || typeof payload === "string" || payload?.approved === true;
      const reason = typeof payload === "string" ? payload : typeof payload?.reason === "string" ? payload.reason : undefined;
      items.push({ type: "mcp_approval_response", approval_request_id: interrupt.id, approve, ...(reason === undefined ? {} : { reason }) });
    } else if (typeof interrupt.toolCallId === "string") {
      const output = payload === null ? "cancelled" : typeof payload === "string" ? payload : JSON.stringify(payload);
      items.push({ type: "function_call_output", call_id: interrupt.toolCallId, output });
    } else {
      throw invalid(`interrupt ${interrupt.id} has neither an approval request nor a tool call in the response`, "snapshot");
    }
  }
  return items;
}

/** The A2A message answering a paused task: its text, or a data part. */
function a2aMessage(protocol, snapshot, list) {
  if (list.some(({ payload }) => payload === null)) {
    throw invalid("an A2A task waiting for input is cancelled with CancelTask, not by a message", "answers");
  }
  const [only] = list;
  const value = list.length === 1 ? only.payload : Object.fromEntries(list.map(({ interrupt, payload }) => [interrupt.id, payload]));
  const v1 = protocol === "a2a";
  const part = typeof value === "string"
    ? (v1 ? { text: value } : { kind: "text", text: value })
    : (v1 ? { data: value } : { kind: "data", data: value });
  const message = v1
    ? { messageId: `msg_${globalThis.crypto.randomUUID()}`, role: "ROLE_USER", parts: [part] }
    : { kind: "message", messageId: `msg_${globalThis.crypto.randomUUID()}`, role: "user", parts: [part] };
  if (typeof snapshot.id === "string") message.taskId = snapshot.id;
  if (typeof snapshot.session_id === "string") message.contextId = snapshot.session_id;
  return { message };
}

/**
 * What the next request carries to answer the interrupts a paused run's `snapshot` waits on
 * (`snapshot.interrupts`), in `protocol`: `answers` maps every interrupt's id to its answer
 * (any JSON value; `null` cancels it). AG-UI and the Agent API: `{resume}` (AG-UI's entries);
 * OpenAI Responses: `{previous_response_id, input}` (an `mcp_approval_response` per approval
 * request, a `function_call_output` per tool call); A2A: `{message}` on the task (one answer as
 * its text or data part; several as one data part by interrupt id).
 * @throws {AgentwireError} `INVALID_OPTION` for an interrupt left unanswered, an unknown id, or
 * a snapshot that waits on none.
 */
export function answerInterrupts(protocol, snapshot, answers) {
  if (!PROTOCOLS.includes(protocol)) throw invalid(`protocol must be one of ${PROTOCOLS.join(", ")}`, "protocol");
  try {
    const list = answered(snapshot, answers);
    switch (protocol) {
      case "agent-api":
      case "ag-ui":
        return { resume: resumeEntries(list) };
      case "openai-responses":
        return { previous_response_id: snapshot.id, input: responsesItems(snapshot, list) };
      default:
        return a2aMessage(protocol, snapshot, list);
    }
  } catch (error) {
    if (error?.name === ERROR_NAME) throw error;
    throw agentwireError("INVALID_OPTION", "answerInterrupts: reading the snapshot or answers threw", undefined, error);
  }
}
