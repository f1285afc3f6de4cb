import type { JsonValue } from "./agentwire.js";

/** A protocol {@link answerInterrupts} writes for. */
export type AnswerProtocol = "agent-api" | "ag-ui" | "openai-responses" | "a2a" | "a2a-0.3";

/** A paused run's snapshot, as `StreamAssembler` gives it: what it waits on, and where. */
export interface PausedSnapshot {
  /** What the run waits on (`snapshot().interrupts`). */
  interrupts?: Array<{ id: string; reason: string; toolCallId?: string; [key: string]: unknown }>;
  /** The run (Responses: the response to chain to; A2A: the task). */
  id?: string | null;
  /** A2A: the task's context. */
  session_id?: string | null;
  /** OpenAI Responses: the response's output (its approval requests). */
  output?: unknown[] | null;
  [key: string]: unknown;
}

/** What the next request carries (merge it into the request body; A2A: send `message`). */
export interface InterruptAnswer {
  /** AG-UI (`RunAgentInput.resume`) and the Agent API: one entry per interrupt. */
  resume?: Array<{ interruptId: string; status: "resolved" | "cancelled"; payload?: JsonValue }>;
  /** OpenAI Responses: the response answered. */
  previous_response_id?: string;
  /** OpenAI Responses: `mcp_approval_response` and `function_call_output` items. */
  input?: Array<Record<string, JsonValue>>;
  /** A2A: the message on the paused task. */
  message?: Record<string, JsonValue>;
}

/**
 * What the next request carries to answer every interrupt a paused run's `snapshot` waits on,
 * in `protocol`: `answers` maps each interrupt id to its answer (`null` cancels it). AG-UI and
 * the Agent API: `{resume}`; OpenAI Responses: `{previous_response_id, input}`; A2A: `{message}`.
 * An `AgentApp` agent gets the answers in `request.resume`, whatever the protocol.
 * @throws {AgentwireError} `INVALID_OPTION` for an interrupt left unanswered, an unknown id, a
 * snapshot waiting on none, or (A2A) a cancel.
 */
export function answerInterrupts(protocol: AnswerProtocol, snapshot: PausedSnapshot, answers: Record<string, JsonValue | null>): InterruptAnswer;
