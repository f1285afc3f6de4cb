// Browsers and bundlers: fetch and compile the wasm at module load (top-level await); instances
// are made from the compiled module synchronously (instance.js).
// Bundlers (webpack 5, Vite, esbuild, Rollup) pick up `new URL(..., import.meta.url)` as an asset.
import { start } from "./instance.js";
const url = new URL("./agentwire_bg.wasm", import.meta.url);
let module;
try {
  module = await WebAssembly.compileStreaming(fetch(url));
} catch {
  // No compileStreaming, or a server that does not send `application/wasm`.
  const response = await fetch(url);
  if (!response.ok) throw new Error(`failed to fetch ${url}: ${response.status} ${response.statusText}`);
  module = await WebAssembly.compile(await response.arrayBuffer());
}
start(module);
export * from "./index.js";
