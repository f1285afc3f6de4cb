/* @ts-self-types="./index.d.ts" */
// Deno: read the wasm next to this file (needs read permission for it) and compile it.
import { start } from "./instance.js";
start(new WebAssembly.Module(Deno.readFileSync(new URL("./agentwire_bg.wasm", import.meta.url))));
export * from "./index.js";
