// agentwire/lite: StreamAssembler for the Agent API, in a module a third of the size of the full
// package. Shared by the runtime entries of this directory, which instantiate the lite wasm first.
export { wasmMemoryBytes } from "./instance.js";
export { AgentwireError } from "./values.js";
export { StreamAssembler } from "./assembler.js";
