/* @ts-self-types="./index.d.ts" */
// Deno: read the wasm next to this file (needs read permission for it) and instantiate it.
import { initSync } from "./agentwire.js";
initSync({ module: Deno.readFileSync(new URL("./agentwire_bg.wasm", import.meta.url)) });
export * from "./index.js";
