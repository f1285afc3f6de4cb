// agentwire/client: what a browser UI reads with, in a module without any writer. StreamAssembler
// for all four protocols (detection included) with `connect()`, `parseEvent`, the conversation
// helpers and `answerInterrupts`. Its wasm exports no builder, translator, JSON-RPC answer, agent
// card or server body, so none is linked into it; its JS imports none of the server's modules.
// Shared by the runtime entries of this directory, which instantiate the client wasm first.
import { call } from "./instance.js";
import { textOf } from "./values.js";
export { wasmMemoryBytes } from "./instance.js";
export { AgentwireError } from "./values.js";
export { StreamAssembler } from "./assembler.js";
export { convertHistory, fromAgUiMessages, fromResponsesInput, nextTurn, toAgUiMessages, toResponsesInput } from "./conversation.js";
export { answerInterrupts } from "./interrupts.js";

export function parseEvent(json) {
  return call("parseEvent", textOf(json, "parseEvent"));
}

export function responsesRequest(json) {
  return call("responsesRequest", textOf(json, "responsesRequest"));
}

export function agUiRequest(json) {
  return call("agUiRequest", textOf(json, "agUiRequest"));
}
