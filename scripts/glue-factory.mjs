// Turns wasm-bindgen's `--target web` glue into a factory of instances:
//   node scripts/glue-factory.mjs <in.js> <out.js>
// The glue keeps one module-level `wasm` (its `initSync` refuses a second init) and frees
// collected objects through it. agentwire gives new objects a fresh instance when one traps
// (pkg-template/instance.js), so the glue must be able to make more than one, each with its own
// `wasm`, memory views and finalizers. The output exports one function:
//   instantiate(module: WebAssembly.Module, state: { lost: boolean, cause?: unknown }) → { <every glue export> }
// which instantiates `module` synchronously and returns the classes and functions the glue
// exported, bound to that instance. Its finalizers do nothing once `state.lost` is set, and never
// throw (a free that traps marks the instance lost, keeping what it threw as `state.cause`). The
// init functions (`initSync`, the default export, the loader) are dropped: the runtime entries
// compile the module themselves.
// Every piece of the glue this relies on is checked; a change in wasm-bindgen's output fails the
// build here, loudly, instead of producing a package that breaks at run time.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("usage: glue-factory.mjs <in.js> <out.js>");

function fail(what) {
  console.error(`[build] glue-factory: ${input}: ${what} (wasm-bindgen's glue changed shape?)`);
  process.exit(1);
}

let lines = readFileSync(input, "utf8").split("\n");

// 1. The first line names the types; it stays first.
const header = lines.shift();
if (header !== '/* @ts-self-types="./agentwire.d.ts" */') fail(`unexpected first line ${JSON.stringify(header)}`);

// 2. Drop the top-level functions of initialisation: each starts at column 0 and ends at the
// next line that is exactly "}".
function drop(start) {
  const from = lines.findIndex((l) => l.startsWith(start));
  if (from < 0) fail(`no line starting with ${JSON.stringify(start)}`);
  const to = lines.findIndex((l, i) => i > from && l === "}");
  if (to < 0) fail(`${JSON.stringify(start)} never ends`);
  lines.splice(from, to - from + 1);
}
drop("async function __wbg_load(module, imports) {");
drop("function initSync(module) {");
drop("async function __wbg_init(module_or_path) {");
drop("async function __wbg_init_once(module_or_path) {");
for (const line of ["let __wbg_init_promise;", "export { initSync, __wbg_init as default };"]) {
  const at = lines.indexOf(line);
  if (at < 0) fail(`no line ${JSON.stringify(line)}`);
  lines.splice(at, 1);
}

// 3. The exports become locals; their names make the factory's result.
const names = [];
lines = lines.map((line) => {
  const m = /^export (class|function) (\w+)\b/.exec(line);
  if (m === null) return line;
  names.push(m[2]);
  return line.slice("export ".length);
});
if (lines.some((l) => /^export\b/.test(l))) fail("an export this script does not know");
const classes = lines.filter((l) => /^class \w+ \{$/.test(l)).length;
if (classes === 0 || names.length === classes) fail("the glue exports no class or no function");

// 4. Finalizers: nothing once the instance is lost, and never a throw.
let text = lines.join("\n");
const registry = /new FinalizationRegistry\(ptr => wasm\.(__wbg_\w+_free)\(ptr, 1\)\);/g;
let finalizers = 0;
text = text.replace(registry, (_, free) => {
  finalizers++;
  return `new FinalizationRegistry(ptr => { if (!state.lost) try { wasm.${free}(ptr, 1); } catch (e) { state.cause ??= e; state.lost = true; } });`;
});
if (finalizers !== classes) fail(`${finalizers} finalizers for ${classes} classes`);

// 5. What the factory needs: the module-level `wasm`, the imports, the finalization of init.
for (const needed of ["let wasmModule, wasmInstance, wasm;", "function __wbg_get_imports() {",
  "function __wbg_finalize_init(instance, module) {"]) {
  if (!text.includes(`\n${needed}`)) fail(`no ${JSON.stringify(needed)}`);
}
if (text.includes("import.meta")) fail("import.meta is still used");

// (No comment in the output: every byte of the glue ships; this file says what it is.)
const factory = `${header}
export function instantiate(module, state) {
${text.trimEnd()}
const instance = new WebAssembly.Instance(module, __wbg_get_imports());
__wbg_finalize_init(instance, module);
return { ${names.join(", ")} };
}
`;

// 6. It must still parse as a module.
const dir = mkdtempSync(join(tmpdir(), "glue-factory-"));
try {
  writeFileSync(join(dir, "glue.mjs"), factory);
  execFileSync(process.execPath, ["--check", join(dir, "glue.mjs")], { stdio: "inherit" });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(output, factory);
