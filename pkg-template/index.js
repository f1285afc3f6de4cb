// The public API, shared by every runtime entry. The entries (node.js, browser.js, workerd.js,
// deno.js) compile the wasm and hand it to instance.js first, then re-export this module.
import { call } from "./instance.js";
import { textOf } from "./values.js";
export { wasmMemoryBytes } from "./instance.js";
export { AgentwireError } from "./values.js";
export { StreamAssembler } from "./assembler.js";
export { Translator, translate } from "./translate.js";
export { ContentBuilder, MessageBuilder, ResponseBuilder, ToolCallBuilder } from "./builder.js";
export { convertHistory, fromAgUiMessages, fromResponsesInput, nextTurn, toAgUiMessages, toResponsesInput } from "./conversation.js";
export { answerInterrupts } from "./interrupts.js";
export { a2aAgentCard, a2aCall, a2aError, a2aTask } from "./a2a.js";
export { AgentApp } from "./app.js";
export { requestFor, upstream } from "./upstream.js";
export { MemoryRunStore, RunStoreError } from "./runs.js";
export { RedisRunStore } from "./redis.js";

export function parseRequest(json) {
  return call("parseRequest", textOf(json, "parseRequest"));
}

export function parseEvent(json) {
  return call("parseEvent", textOf(json, "parseEvent"));
}

export function a2aRequest(json) {
  return call("a2aRequest", textOf(json, "a2aRequest"));
}

export function responsesRequest(json) {
  return call("responsesRequest", textOf(json, "responsesRequest"));
}

export function agUiRequest(json) {
  return call("agUiRequest", textOf(json, "agUiRequest"));
}
