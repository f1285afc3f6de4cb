// Multi-turn chats: the next request's history from a finished run's snapshot, for each
// protocol, and messages converted between the Agent API and AG-UI. Plain data in, plain data
// out (nothing to free).
import { call } from "./instance.js";
import { agentwireError, ERROR_NAME, optionsText } from "./values.js";

const PROTOCOLS = ["agent-api", "ag-ui", "openai-responses", "a2a", "a2a-0.3"];
const CALL_TYPES = new Set(["function_call", "plugin_call", "mcp_call"]);
const OUTPUT_TYPES = new Set(["function_call_output", "plugin_call_output", "mcp_call_output"]);

/** Runs `fn`; an exception from reading the caller's values becomes INVALID_OPTION (cause kept). */
function reading(what, fn) {
  try {
    return fn();
  } catch (error) {
    if (error?.name === ERROR_NAME) throw error;
    throw agentwireError("INVALID_OPTION", `${what}: reading the messages threw`, undefined, error);
  }
}

function newId(prefix) {
  return `${prefix}${globalThis.crypto.randomUUID()}`;
}

/** A JSON value as AG-UI carries it in a string field: a string as is, anything else as JSON. */
function asText(value) {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function userText(user, what) {
  if (typeof user !== "string") throw agentwireError("INVALID_OPTION", `${what}: user must be a string or a message object`, "user");
  return user;
}

/**
 * The next request's history in `protocol`: `history` (what the last request sent), the run's
 * messages from its finished `snapshot` (none for the first turn), then the user's new message (`user`: its text, or a
 * message object of the protocol). For A2A: the next `message` (in the task's context, and in
 * the task itself while it waits for input).
 */
export function nextTurn(protocol, turn) {
  return reading("nextTurn", () => next(protocol, turn ?? {}));
}

function next(protocol, { history = [], snapshot, user }) {
  if (!PROTOCOLS.includes(protocol)) {
    throw agentwireError("INVALID_OPTION", `nextTurn: protocol must be one of ${PROTOCOLS.join(", ")}`, "protocol");
  }
  // The first turn has no run before it.
  snapshot ??= {};
  if (typeof snapshot !== "object") {
    throw agentwireError("INVALID_OPTION", "nextTurn: snapshot must be a StreamAssembler snapshot", "snapshot");
  }
  if (!Array.isArray(history)) throw agentwireError("INVALID_OPTION", "nextTurn: history must be an array", "history");
  const isMessage = user !== null && typeof user === "object";
  switch (protocol) {
    case "agent-api": {
      const message = isMessage ? user
        : { role: "user", type: "message", content: [{ type: "text", text: userText(user, "nextTurn") }] };
      return [...history, ...(snapshot.output ?? []), message];
    }
    case "openai-responses": {
      const message = isMessage ? user
        : { role: "user", content: [{ type: "input_text", text: userText(user, "nextTurn") }] };
      return [...history, ...(snapshot.output ?? []), message];
    }
    case "ag-ui": {
      const message = isMessage ? user : { id: newId("msg_"), role: "user", content: userText(user, "nextTurn") };
      // The run's messages replace sent ones with the same id (a server may echo them in a
      // MESSAGES_SNAPSHOT); new ones follow, in the run's order.
      const run = new Map((snapshot.messages ?? []).map((m) => [m.id, m]));
      const merged = history.map((m) => run.get(m?.id) ?? m);
      const sent = new Set(history.map((m) => m?.id));
      for (const m of snapshot.messages ?? []) if (!sent.has(m.id)) merged.push(m);
      return [...merged, message];
    }
    case "a2a":
    case "a2a-0.3": {
      const text = isMessage ? "" : userText(user, "nextTurn");
      const message = isMessage ? { ...user }
        : protocol === "a2a"
          ? { messageId: newId("msg_"), role: "ROLE_USER", parts: [{ text }] }
          : { kind: "message", role: "user", messageId: newId("msg_"), parts: [{ kind: "text", text }] };
      if (snapshot.session_id) message.contextId ??= snapshot.session_id;
      // A task that waits for input (`input-required`: outcome `incomplete`) goes on.
      if (snapshot.status === "incomplete" && snapshot.id) message.taskId ??= snapshot.id;
      return message;
    }
  }
}

function textOfParts(content) {
  return (content ?? [])
    .filter((c) => c?.type === "text" || c?.type === "refusal")
    .map((c) => (c.type === "text" ? c.text : c.refusal) ?? "");
}

function dataOf(content) {
  return (content ?? []).find((c) => c?.type === "data")?.data ?? null;
}

/**
 * Agent API messages as AG-UI messages, as `@ag-ui/client` holds them after agentwire's AG-UI
 * encoding of the same messages: text and refusal parts joined into `content` (roles other than
 * `user` and `system` are `assistant`), reasoning as a `reasoning` message, a tool call as an
 * assistant message holding it in `toolCalls`, a tool output as a `tool` message. Parts AG-UI
 * messages cannot hold (images, files, data in a text message) are left out, as are other types.
 */
export function toAgUiMessages(messages) {
  return reading("toAgUiMessages", () => toAgUi(messages));
}

function toAgUi(messages) {
  if (!Array.isArray(messages)) throw agentwireError("INVALID_OPTION", "toAgUiMessages expects an array of messages");
  const out = [];
  for (const m of messages) {
    if (m === null || typeof m !== "object") continue;
    const type = m.type ?? "message";
    if (type === "message" || type === "error" || type === "reasoning") {
      const texts = textOfParts(m.content);
      if (texts.length === 0) continue;
      const role = type === "reasoning" ? "reasoning" : m.role === "user" || m.role === "system" ? m.role : "assistant";
      out.push({ id: m.id, role, content: texts.join("") });
    } else if (CALL_TYPES.has(type)) {
      const data = dataOf(m.content);
      if (data === null) continue;
      const name = typeof data.name === "string" ? data.name : "";
      const callId = typeof data.call_id === "string" && data.call_id !== "" ? data.call_id : m.id;
      out.push({
        id: m.id, role: "assistant",
        toolCalls: [{ id: callId, type: "function", function: { name, arguments: asText(data.arguments) } }],
      });
    } else if (OUTPUT_TYPES.has(type)) {
      const data = dataOf(m.content);
      if (data === null) continue;
      out.push({ id: m.id, role: "tool", toolCallId: asText(data.call_id), content: asText(data.output) });
    }
  }
  return out;
}

/**
 * AG-UI messages as Agent API messages, as the reference's AG-UI adapter turns a
 * `RunAgentInput`'s messages into its request's `input` (tool calls and results included).
 */
export function fromAgUiMessages(messages) {
  if (!Array.isArray(messages)) throw agentwireError("INVALID_OPTION", "fromAgUiMessages expects an array of messages");
  const text = optionsText({ threadId: "", runId: "", messages }, "fromAgUiMessages");
  return call("agUiRequest", text).input;
}
