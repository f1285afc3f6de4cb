// Multi-turn chats: the next request's history from a finished run's snapshot, for each
// protocol, and histories converted between the protocols (the core's mappings). Plain data in, plain data
// out (nothing to free).
import { call } from "./instance.js";
import { agentwireError, ERROR_NAME, optionsText } from "./values.js";

const PROTOCOLS = ["agent-api", "ag-ui", "openai-responses", "a2a", "a2a-0.3"];

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

/**
 * Agent API messages as AG-UI messages, as `@ag-ui/client` holds them after agentwire's AG-UI
 * encoding of the same messages (the core's mapping): text and refusal parts joined into
 * `content` (roles other than `user` and `system` are `assistant`), reasoning as a `reasoning`
 * message, a tool call as an assistant message holding it in `toolCalls`, a tool output as a
 * `tool` message; a message without an id gets a fresh one. Parts AG-UI messages cannot hold
 * (images, files, data in a text message) are left out, as are other types.
 */
export function toAgUiMessages(messages) {
  return reading("toAgUiMessages", () => call("agUiMessages", historyText(messages, "toAgUiMessages")));
}

/**
 * Agent API messages as OpenAI Responses `input` items (the core's mapping): messages with
 * their parts, reasoning summaries, function and custom tool calls and their outputs.
 */
export function toResponsesInput(messages) {
  return reading("toResponsesInput", () => call("responsesInput", historyText(messages, "toResponsesInput")));
}

/** OpenAI Responses `input` (or output) items as Agent API messages, as a Responses `create` request's `input` is read. */
export function fromResponsesInput(items) {
  if (!Array.isArray(items)) throw agentwireError("INVALID_OPTION", "fromResponsesInput expects an array of items");
  return call("responsesRequest", optionsText({ input: items }, "fromResponsesInput")).input;
}

function historyText(messages, what) {
  if (!Array.isArray(messages)) throw agentwireError("INVALID_OPTION", `${what} expects an array of messages`);
  return optionsText({ messages }, what);
}

const HISTORY_FROM = ["agent-api", "a2a", "a2a-0.3", "ag-ui", "openai-responses"];
const HISTORY_TO = ["agent-api", "ag-ui", "openai-responses"];

/**
 * A conversation's messages in another protocol's history form: `from` names what `messages`
 * are (`agent-api`: an Agent API `input` or a snapshot's `output`, `a2a` the same from an A2A
 * run's snapshot; `ag-ui`: AG-UI messages; `openai-responses`: Responses input or output items),
 * `to` the form to return. Through the Agent API, with the core's mappings.
 */
export function convertHistory(messages, options) {
  const { from, to } = options ?? {};
  if (!HISTORY_FROM.includes(from)) {
    throw agentwireError("INVALID_OPTION", `convertHistory: from must be one of ${HISTORY_FROM.join(", ")}`, "from");
  }
  if (to === "a2a" || to === "a2a-0.3") {
    throw agentwireError("INVALID_OPTION", "convertHistory: an A2A server keeps a context's history itself; send the next message in the context with nextTurn(\"a2a\", { snapshot, user })", "to");
  }
  if (!HISTORY_TO.includes(to)) {
    throw agentwireError("INVALID_OPTION", `convertHistory: to must be one of ${HISTORY_TO.join(", ")}`, "to");
  }
  const agentApi = from === "ag-ui" ? fromAgUiMessages(messages)
    : from === "openai-responses" ? fromResponsesInput(messages)
      : historyArray(messages);
  if (to === "ag-ui") return toAgUiMessages(agentApi);
  if (to === "openai-responses") return toResponsesInput(agentApi);
  return agentApi;
}

function historyArray(messages) {
  if (!Array.isArray(messages)) throw agentwireError("INVALID_OPTION", "convertHistory expects an array of messages");
  return messages;
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
