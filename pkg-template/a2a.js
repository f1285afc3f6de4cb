// A2A helpers for serving agents: agent cards, reading JSON-RPC requests, error answers, and the
// task a stream folds into. The work is the core's (src/a2a, exported by src/wasm/a2a.rs); this
// module reads JS values safely and passes text.
import { call } from "./instance.js";
import { agentwireError, optionsText, textOf } from "./values.js";

/** The agent card of one agent description, in A2A 1.0 (default), 0.3, or for both. */
export function a2aAgentCard(description, options) {
  if (description === null || typeof description !== "object") {
    throw agentwireError("INVALID_OPTION", "a2aAgentCard expects a description object");
  }
  const version = optionsVersion(options, "a2aAgentCard");
  return call("a2aAgentCard", optionsText(description, "a2aAgentCard"), version);
}

/** Reads a JSON-RPC request body with its `A2A-Version` header: `{call}` or `{error}`. */
export function a2aCall(body, a2aVersion) {
  if (a2aVersion !== undefined && a2aVersion !== null && typeof a2aVersion !== "string") {
    throw agentwireError("INVALID_OPTION", "a2aCall: the A2A-Version must be a string", "a2aVersion");
  }
  return call("a2aCall", textOf(body, "a2aCall"), a2aVersion ?? undefined);
}

/** A JSON-RPC error response of A2A. */
export function a2aError(code, message, options) {
  if (typeof code !== "string" && typeof code !== "number") {
    throw agentwireError("INVALID_OPTION", "a2aError: code must be a reason string or a number", "code");
  }
  if (typeof message !== "string") {
    throw agentwireError("INVALID_OPTION", "a2aError: message must be a string", "message");
  }
  return call("a2aError", code, message, optionsText(options, "a2aError"));
}

/** Folds a whole A2A stream into its task. */
export function a2aTask(stream, options) {
  return call("a2aTask", textOf(stream, "a2aTask"), optionsText(options, "a2aTask"));
}

function optionsVersion(options, what) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== "object") throw agentwireError("INVALID_OPTION", `${what} options must be an object`);
  let version;
  try {
    version = options.version;
  } catch (error) {
    throw agentwireError("INVALID_OPTION", `${what}: version could not be read`, "version", error);
  }
  if (version === undefined || version === null) return undefined;
  if (version !== "1.0" && version !== "0.3" && version !== "both") {
    throw agentwireError("INVALID_OPTION", `${what}: version must be "1.0", "0.3" or "both"`, "version");
  }
  return version;
}
