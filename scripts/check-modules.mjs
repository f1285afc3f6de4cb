// The module graph of src/: which top-level module uses which (from `crate::…` paths in code,
// doc comments and test modules left out), checked against the layers in ARCHITECTURE.md.
// Fails when the graph has a cycle, when a module uses one of its own layer or a layer above,
// or when a module is missing from the map or the map names one that does not exist.
// Usage: node scripts/check-modules.mjs [--print]
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const src = join(root, "src");

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith(".rs") ? [path] : [];
  });
}

/** The top-level module a file belongs to (`lib` for the crate root). */
function moduleOf(path) {
  const parts = relative(src, path).split("/");
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.rs$/, "");
}

/** The code of a file without comments, string-free enough for paths, and without its tests. */
function code(text) {
  const cut = text.search(/#\[cfg\(test\)\]\s*(pub(\([a-z]+\))?\s+)?mod\s+[a-z_]+\s*[{;]/);
  const body = cut >= 0 ? text.slice(0, cut) : text;
  return body.split("\n").filter((line) => !line.trimStart().startsWith("//")).join("\n");
}

const lib = readFileSync(join(src, "lib.rs"), "utf8");
// Names the crate root re-exports: `pub use error::{Error, ErrorCode, Result};` → error.
const rootNames = new Map();
for (const [, module, names] of lib.matchAll(/pub use ([a-z_]+)::(\{[^}]*\}|[A-Za-z_]+);/g)) {
  for (const name of names.replace(/[{}]/g, "").split(",")) rootNames.set(name.trim(), module);
}
// Modules declared inline in lib.rs (kept paths) count as the modules they re-export from.
const inline = new Set([...lib.matchAll(/^pub mod ([a-z_][a-z0-9_]*) \{/gm)].map((m) => m[1]));

const modules = new Set();
const uses = new Map(); // module → Map(used module → first file:line)
for (const path of files(src)) {
  const from = moduleOf(path);
  if (from === "lib") continue;
  // Test modules in files of their own (`#[cfg(test)] mod tests;`) may use anything.
  const file = path.split("/").pop();
  const testFile = file === "tests.rs" || file.endsWith("_tests.rs");
  modules.add(from);
  if (!uses.has(from)) uses.set(from, new Map());
  const text = testFile ? "" : code(readFileSync(path, "utf8"));
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const targets = [];
    for (const [, head, group] of line.matchAll(/crate::(?:([A-Za-z_][A-Za-z0-9_]*)|\{([^}]*)\})/g)) {
      if (head) targets.push(head);
      else for (const item of group.split(",")) targets.push(item.trim().split("::")[0]);
    }
    for (const name of targets) {
      if (!name) continue;
      const to = rootNames.get(name) ?? name;
      if (to === from || !/^[a-z_][a-z0-9_]*$/.test(to)) continue;
      const seen = uses.get(from);
      if (!seen.has(to)) seen.set(to, `${relative(root, path)}:${i + 1}`);
    }
  });
}
for (const name of inline) modules.add(name);
// What an inline module of lib.rs re-exports from.
for (const [, name, body] of lib.matchAll(/^pub mod ([a-z_][a-z0-9_]*) \{([\s\S]*?)^\}/gm)) {
  const seen = new Map();
  for (const [, to] of body.matchAll(/crate::([a-z_][a-z0-9_]*)/g)) if (!seen.has(to)) seen.set(to, "src/lib.rs");
  uses.set(name, seen);
}

// The layers of ARCHITECTURE.md: the fenced block after "## Layers", one line per layer,
// bottom first: `N. name name …` (anything after `—` is a comment).
const map = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
const block = map.match(/## Layers[\s\S]*?```text\n([\s\S]*?)```/);
const problems = [];
const layer = new Map();
if (!block) problems.push("ARCHITECTURE.md has no ```text block under \"## Layers\"");
else {
  for (const line of block[1].split("\n")) {
    const m = line.match(/^\s*(\d+)\.\s+([^—]*)/);
    if (!m) continue;
    for (const name of m[2].trim().split(/[\s,]+/).filter(Boolean)) layer.set(name, Number(m[1]));
  }
}
for (const name of modules) if (!layer.has(name)) problems.push(`module ${name} is not in ARCHITECTURE.md's layers`);
for (const name of layer.keys()) if (!modules.has(name)) problems.push(`ARCHITECTURE.md names ${name}, which src/ does not have`);
for (const [from, seen] of uses) {
  for (const [to, where] of seen) {
    if (!modules.has(to)) continue;
    if (layer.has(from) && layer.has(to) && layer.get(to) >= layer.get(from)) {
      problems.push(`${from} (layer ${layer.get(from)}) uses ${to} (layer ${layer.get(to)}): ${where}`);
    }
  }
}
// Cycles, independently of the map.
const state = new Map();
const stack = [];
function visit(node) {
  state.set(node, 1);
  stack.push(node);
  for (const next of uses.get(node)?.keys() ?? []) {
    if (!modules.has(next)) continue;
    if (state.get(next) === 1) problems.push(`cycle: ${[...stack.slice(stack.indexOf(next)), next].join(" → ")}`);
    else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(node, 2);
}
for (const name of [...modules].sort()) if (!state.has(name)) visit(name);

if (process.argv.includes("--print")) {
  for (const name of [...modules].sort((a, b) => (layer.get(a) ?? 99) - (layer.get(b) ?? 99))) {
    console.log(`${layer.get(name) ?? "?"} ${name} → ${[...(uses.get(name)?.keys() ?? [])].filter((m) => modules.has(m)).join(", ")}`);
  }
}
if (problems.length) {
  console.error(problems.map((p) => `modules: ${p}`).join("\n"));
  process.exit(1);
}
console.log(`modules: ${modules.size} top-level modules, acyclic, every use runs down the layers of ARCHITECTURE.md`);
