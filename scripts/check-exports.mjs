// Fails the build when the public entry (index.js / index.d.ts) misses a function or class that
// the wasm-bindgen glue exports, or re-exports something the glue no longer has.
// Usage: node scripts/check-exports.mjs <pkg dir>
// The glue is a factory (scripts/glue-factory.mjs): its exports are what `instantiate` returns.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2] ?? "pkg");
const INTERNAL = new Set(["wasmMemory", "httpError", "lostRunEvent", "sseKeepalive", "responsesInputList", "responsesCompactRequest", "responsesCompaction", "responsesSocketError", "SseDataReader", "a2aAnswer", "a2aListAnswer", "a2aSubscribeHead", "a2aRebindId", "a2aStreamingSend", "a2aTaskRequest", "agUiMessages", "responsesInput", "responsesStart"]); // used by the package's own JS classes only
const JS_ONLY = new Set(["AgentApp", "upstream", "MemoryRunStore", "RedisRunStore", "RunStoreError", "translate", "AgentwireError", "nextTurn", "toAgUiMessages", "fromAgUiMessages", "toResponsesInput", "fromResponsesInput", "convertHistory", "answerInterrupts"]); // plain JS: a function around a glue class, the error class, the conversation helpers (conversation.js, interrupts.js)
// A glue class `XCore` is wrapped by the JS class `X` (e.g. StreamAssemblerCore → StreamAssembler
// in assembler.js): the public name is the wrapper's.
const { instantiate } = await import(pathToFileURL(`${dir}/agentwire.js`).href);
const module = new WebAssembly.Module(readFileSync(`${dir}/agentwire_bg.wasm`));
const glue = Object.keys(instantiate(module, { lost: false }))
  .filter((name) => !INTERNAL.has(name))
  .map((name) => name.replace(/Core$/, ""));
const index = Object.keys(await import(pathToFileURL(`${dir}/index.js`).href));
const dts = readFileSync(`${dir}/index.d.ts`, "utf8");

const problems = [
  ...glue.filter((n) => !index.includes(n)).map((n) => `index.js does not re-export ${n}`),
  ...index.filter((n) => !glue.includes(n) && !JS_ONLY.has(n)).map((n) => `index.js re-exports ${n}, which the glue lacks`),
  ...glue.filter((n) => !new RegExp(`\\b${n}\\b`).test(dts)).map((n) => `index.d.ts does not mention ${n}`),
];
if (problems.length) {
  for (const p of problems) console.error(`[build] export check: ${p}`);
  process.exit(1);
}
