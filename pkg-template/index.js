// The public API, shared by every runtime entry. The entries (node.js, browser.js, workerd.js,
// deno.js) instantiate the wasm first, then re-export this module.
export { a2aRequest, agUiRequest, parseEvent, parseRequest, wasmMemoryBytes } from "./agentwire.js";
export { StreamAssembler } from "./assembler.js";
export { Translator, translate } from "./translate.js";
export { ContentBuilder, MessageBuilder, ResponseBuilder, ToolCallBuilder } from "./builder.js";
