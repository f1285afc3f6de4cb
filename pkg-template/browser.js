// Browsers and bundlers: fetch and instantiate the wasm at module load (top-level await).
// Bundlers (webpack 5, Vite, esbuild, Rollup) pick up `new URL(..., import.meta.url)` as an asset.
import init from "./agentwire.js";
await init({ module_or_path: new URL("./agentwire_bg.wasm", import.meta.url) });
export * from "./index.js";
