// Node ≥ 20: read the wasm next to this file and instantiate it synchronously.
import { readFileSync } from "node:fs";
import { initSync } from "./agentwire.js";
initSync({ module: readFileSync(new URL("./agentwire_bg.wasm", import.meta.url)) });
export * from "./index.js";
