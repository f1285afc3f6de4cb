// Cloudflare Workers / workerd: they cannot compile wasm from bytes, so the wasm is imported as a
// module (wrangler's default CompiledWasm rule for *.wasm) and instantiated synchronously.
import module from "./agentwire_bg.wasm";
import { start } from "./instance.js";
start(module);
export * from "./index.js";
