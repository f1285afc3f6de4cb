import type { AgentRequest, Message } from "./agentwire.js";
import type { AgentApiSnapshot, AgUiMessage, AgUiSnapshot, OpenAIResponsesItem, OpenAIResponsesSnapshot } from "./assembler.js";

/**
 * A user message of A2A (the `message` of `SendMessage` / `SendStreamingMessage` params; 0.3:
 * `message/send` / `message/stream`): 1.0 `{messageId, role: "ROLE_USER", parts: [{text}]}`,
 * 0.3 `{kind: "message", role: "user", messageId, parts: [{kind: "text", text}]}`.
 */
export interface A2aUserMessage {
  kind?: "message";
  role: "ROLE_USER" | "user";
  messageId: string;
  parts: Array<{ [field: string]: unknown }>;
  /** The conversation (the previous run's `session_id`). */
  contextId?: string;
  /** The task, while it waits for input (the previous run's `id`, outcome `incomplete`). */
  taskId?: string;
  [field: string]: unknown;
}

/**
 * A message as a request's `input` carries it: what a client writes (`role`, `type`, `content`);
 * the reference fills in the rest.
 */
export interface AgentApiInputMessage {
  role?: "user" | "assistant" | "system" | "tool" | null;
  type?: string;
  content?: Array<{ type: string; [field: string]: unknown }> | null;
  [field: string]: unknown;
}
/** A message of an Agent API history: one a client wrote, or one a run produced. */
export type AgentApiInput = AgentApiInputMessage | Message;

/** A Responses input item: the previous output items, and the user's message. */
export type OpenAIResponsesInputItem =
  | OpenAIResponsesItem
  | { role: "user" | "system" | "developer" | "assistant"; content: string | Array<{ type: string; [field: string]: unknown }> };

/** What {@link nextTurn} takes: what the last request sent, the finished run, the user's turn. */
export interface Turn<H, S, U> {
  /** What the last request sent (Agent API `input`, AG-UI `messages`, Responses `input`). */
  history?: H[];
  /** The finished run's snapshot (`StreamAssembler.collect`, or `snapshot()` after `finish()`); none for the first turn. */
  snapshot?: S;
  /** The user's new message: its text, or a message of the protocol. */
  user: string | U;
}

/**
 * The next request's history: `history`, the run's messages from its snapshot, then the user's
 * new message. AG-UI: the run's messages replace sent ones with the same id. A2A: the next
 * `message`, in the run's context (and its task while the task waits for input).
 */
export function nextTurn(protocol: "agent-api", turn: Turn<AgentApiInput, AgentApiSnapshot, AgentApiInput>): AgentApiInput[];
export function nextTurn(protocol: "ag-ui", turn: Turn<AgUiMessage, AgUiSnapshot, AgUiMessage>): AgUiMessage[];
export function nextTurn(
  protocol: "openai-responses", turn: Turn<OpenAIResponsesInputItem, OpenAIResponsesSnapshot, OpenAIResponsesInputItem>,
): OpenAIResponsesInputItem[];
export function nextTurn(
  protocol: "a2a" | "a2a-0.3", turn: Omit<Turn<never, AgentApiSnapshot, Partial<A2aUserMessage>>, "history">,
): A2aUserMessage;

/**
 * Agent API messages as AG-UI messages, as `@ag-ui/client` holds them after agentwire's AG-UI
 * encoding of the same run: text and refusal parts joined into `content`, reasoning as a
 * `reasoning` message, a tool call as an assistant message with `toolCalls`, its output as a
 * `tool` message; a message without an id gets a fresh one (AG-UI requires ids). Parts AG-UI
 * messages cannot hold (images, files) are left out.
 */
export function toAgUiMessages(messages: readonly AgentApiInput[]): AgUiMessage[];

/**
 * AG-UI messages as Agent API messages, as the reference's AG-UI adapter reads a
 * `RunAgentInput`'s messages (tool calls and tool results included).
 */
export function fromAgUiMessages(messages: readonly AgUiMessage[]): AgentRequest["input"];

/**
 * Agent API messages as OpenAI Responses `input` items: messages with their parts
 * (`input_text`, `input_image`, `input_file`, `input_audio` from users and systems;
 * `output_text` and `refusal` from the assistant), reasoning summaries, function and custom tool
 * calls and their outputs. Data parts and other message types are left out.
 */
export function toResponsesInput(messages: readonly AgentApiInput[]): OpenAIResponsesInputItem[];

/** OpenAI Responses `input` (or output) items as Agent API messages, as a Responses `create` request's `input` is read. */
export function fromResponsesInput(messages: readonly OpenAIResponsesInputItem[]): AgentRequest["input"];

/** The history forms {@link convertHistory} reads (`a2a`: an A2A run's snapshot `output`, Agent API messages). */
export type HistoryFrom = "agent-api" | "a2a" | "a2a-0.3" | "ag-ui" | "openai-responses";
/** The history forms {@link convertHistory} writes (an A2A server keeps its history itself). */
export type HistoryTo = "agent-api" | "ag-ui" | "openai-responses";

/**
 * A conversation's messages in another protocol's history form, through the Agent API: `from`
 * names what `messages` are, `to` the form returned.
 */
export function convertHistory(messages: readonly AgentApiInput[], options: { from: "agent-api" | "a2a" | "a2a-0.3"; to: "ag-ui" }): AgUiMessage[];
export function convertHistory(messages: readonly AgUiMessage[], options: { from: "ag-ui"; to: "ag-ui" }): AgUiMessage[];
export function convertHistory(messages: readonly OpenAIResponsesInputItem[], options: { from: "openai-responses"; to: "ag-ui" }): AgUiMessage[];
export function convertHistory(messages: readonly unknown[], options: { from: HistoryFrom; to: "openai-responses" }): OpenAIResponsesInputItem[];
export function convertHistory(messages: readonly unknown[], options: { from: HistoryFrom; to: "agent-api" }): AgentApiInput[];
export function convertHistory(messages: readonly unknown[], options: { from: HistoryFrom; to: HistoryTo }): AgentApiInput[] | AgUiMessage[] | OpenAIResponsesInputItem[];
