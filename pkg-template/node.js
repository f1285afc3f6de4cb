// Node ≥ 20: compile the wasm next to this file and instantiate it synchronously.
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { useNodeBuffer } from "./assembler.js";
import { start } from "./instance.js";
start(new WebAssembly.Module(readFileSync(new URL("./agentwire_bg.wasm", import.meta.url))));
// Node makes strings from UTF-16 and Latin-1 fastest through Buffer (see assembler.js).
useNodeBuffer(Buffer);
export * from "./index.js";
