// The one setting agentwire needs in Vite: keep it out of the dev server's dependency
// pre-bundling, which moves the package's modules to node_modules/.vite/deps/ without the .wasm
// file that browser.js loads from `new URL("./agentwire_bg.wasm", import.meta.url)`.
// `vite build` works without it; the dev server fails to instantiate the wasm without it.
export default {
  optimizeDeps: { exclude: ["agentwire"] },
};
