import type { AgentRequest, JsonObject, JsonValue } from "./agentwire.js";

/** An A2A protocol version agentwire speaks. */
export type A2aVersion = "1.0" | "0.3";

/** One thing an agent can do (an A2A `AgentSkill`). */
export interface A2aSkill {
  id: string;
  name: string;
  description?: string;
  tags?: string[];
  examples?: string[];
  /** Media types it accepts, when they differ from the agent's. */
  inputModes?: string[];
  /** Media types it produces, when they differ from the agent's. */
  outputModes?: string[];
}

/** An agent, in the terms both A2A versions' cards share. */
export interface A2aAgentDescription {
  name: string;
  description: string;
  /** The agent's own version. */
  version: string;
  /** The JSON-RPC endpoint, e.g. `https://agent.example/a2a`. */
  url: string;
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  iconUrl?: string;
  /** Default `true`. */
  streaming?: boolean;
  /** Default `false`. */
  pushNotifications?: boolean;
  /** Default `["text/plain"]`. */
  defaultInputModes?: string[];
  /** Default `["text/plain"]`. */
  defaultOutputModes?: string[];
  skills?: A2aSkill[];
}

/**
 * An A2A agent card, as `JSON.parse` gives it: 1.0 lists the endpoint in `supportedInterfaces`;
 * 0.3 has `url`, `preferredTransport` and `protocolVersion`.
 */
export interface A2aAgentCard {
  name: string;
  description: string;
  version: string;
  capabilities: JsonObject;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  supportedInterfaces?: Array<{ url: string; protocolBinding: string; protocolVersion: string }>;
  url?: string;
  protocolVersion?: string;
  preferredTransport?: string;
  [field: string]: JsonValue | undefined;
}

/**
 * The agent card of `description`, in A2A `options.version`: `"1.0"` (the default), `"0.3"`, or
 * `"both"`: the card one endpoint serves to clients of either version, as `a2a-sdk` 1.x serves
 * it (the 1.0 card listing the endpoint for 1.0 and 0.3, plus the 0.3 fields).
 */
export function a2aAgentCard(description: A2aAgentDescription, options?: { version?: A2aVersion | "both" }): A2aAgentCard;

/** A JSON-RPC method of A2A, by its 1.0 name (`SendMessage` is 0.3's `message/send`, …). */
export type A2aMethod =
  | "SendMessage" | "SendStreamingMessage" | "GetTask" | "ListTasks" | "CancelTask" | "SubscribeToTask"
  | "CreateTaskPushNotificationConfig" | "GetTaskPushNotificationConfig"
  | "ListTaskPushNotificationConfigs" | "DeleteTaskPushNotificationConfig" | "GetExtendedAgentCard";

/** A valid A2A JSON-RPC request. */
export interface A2aCall {
  /** The request `id`, for the answer. */
  id: string | number | null;
  method: A2aMethod;
  /** The version it is served in: the shape of every answer to it. */
  version: A2aVersion;
  /** Whether the answer is an SSE stream (`SendStreamingMessage`, `SubscribeToTask`). */
  streaming: boolean;
  /** `params` as sent. */
  params: JsonObject;
  /** The send methods' message as an Agent API request (`stream` true for the streaming one). */
  request: AgentRequest | null;
  /** The task methods' task id. */
  taskId: string | null;
  /** `historyLength`, when given (0.3's 0, "no limit", is `null`). */
  historyLength: number | null;
  /** `SendMessage` only: answer at once rather than when the task ends or needs input. */
  returnImmediately: boolean;
}

/** The `reason` of each A2A JSON-RPC error code. */
export type A2aErrorReason =
  | "PARSE_ERROR" | "INVALID_REQUEST" | "METHOD_NOT_FOUND" | "INVALID_PARAMS" | "INTERNAL_ERROR"
  | "TASK_NOT_FOUND" | "TASK_NOT_CANCELABLE" | "PUSH_NOTIFICATION_NOT_SUPPORTED"
  | "UNSUPPORTED_OPERATION" | "CONTENT_TYPE_NOT_SUPPORTED" | "INVALID_AGENT_RESPONSE"
  | "EXTENDED_AGENT_CARD_NOT_CONFIGURED" | "EXTENSION_SUPPORT_REQUIRED" | "VERSION_NOT_SUPPORTED";

/** A JSON-RPC error response (sent with HTTP 200, as the A2A SDKs do). */
export interface A2aErrorResponse {
  jsonrpc: "2.0";
  id: string | number | null;
  error: {
    code: number;
    message: string;
    /** 1.0: typed details (`google.rpc.ErrorInfo`, `google.rpc.BadRequest`); 0.3: an object. */
    data?: JsonValue;
  };
}

/** What `a2aCall` read: the call, or the error response to send. */
export type A2aCallResult = { call: A2aCall; error?: undefined } | { call?: undefined; error: A2aErrorResponse };

/**
 * Reads a JSON-RPC request body sent to an A2A endpoint, with its `A2A-Version` header (absent:
 * 0.3): routes both versions' method names, refuses a method of the version not asked for
 * (-32009), batches, bad ids and params of the wrong shape with the codes the specification
 * names. A bad body is an answer (`{error}`), never an exception.
 */
export function a2aCall(body: string | Uint8Array, a2aVersion?: string | null): A2aCallResult;

/**
 * A JSON-RPC error response of A2A, e.g. `a2aError("TASK_NOT_FOUND", "No task t9.", {id: 1})`:
 * in 1.0 (default) `data` holds typed details, in 0.3 an object with `field`.
 */
export function a2aError(
  code: A2aErrorReason | number,
  message: string,
  options?: { id?: string | number | null; version?: A2aVersion; field?: string },
): A2aErrorResponse;

/** The task an A2A stream folds into (each `null` when absent). */
export interface A2aTaskFold {
  /** The task, as `a2a-sdk` aggregates its stream. */
  task: JsonObject | null;
  /** The message the stream answered with instead of a task. */
  message: JsonObject | null;
  /** The JSON-RPC `error` object the stream ended with. */
  error: JsonObject | null;
  /** The non-streamed `SendMessage` result: 1.0 `{task}` or `{message}`; 0.3 the object itself. */
  sendMessageResult: JsonObject | null;
}

/**
 * Folds a whole A2A stream (either version; SSE or NDJSON) into its task as `a2a-sdk` does: for
 * the non-streamed `SendMessage` answer and `GetTask`.
 */
export function a2aTask(
  stream: string | Uint8Array,
  options?: { version?: A2aVersion; historyLength?: number },
): A2aTaskFold;
