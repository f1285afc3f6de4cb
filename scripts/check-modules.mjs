// The module graphs, checked against the layers in ARCHITECTURE.md:
//   - Rust, "## Layers": which top-level module of src/ uses which (from `crate::…` paths in code,
//     doc comments and test modules left out);
//   - JavaScript, "## JavaScript modules": which module of pkg-template/ (`*.js`, and
//     `lite/index.js`) imports which (static `import`/`export … from` and `import("…")` of
//     relative paths; the generated glue and other files are not modules of the map).
// Fails when a graph has a cycle, when a module uses one of its own layer or a layer above,
// or when a module is missing from the map or the map names one that does not exist.
// Usage: node scripts/check-modules.mjs [--root <repo>] [--print]
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const at = process.argv.indexOf("--root");
const root = resolve(at > 0 ? process.argv[at + 1] : fileURLToPath(new URL("..", import.meta.url)));
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

// The layers of a map in ARCHITECTURE.md: the first ```text block after the heading, one line
// per layer, bottom first: `N. name name …` (anything after `—` is a comment).
const map = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");
function layersOf(heading, problems) {
  const block = map.match(new RegExp(`^${heading}\\s*\\n[\\s\\S]*?\`\`\`text\\n([\\s\\S]*?)\`\`\``, "m"));
  const layer = new Map();
  if (!block) problems.push(`ARCHITECTURE.md has no \`\`\`text block under "${heading}"`);
  else {
    for (const line of block[1].split("\n")) {
      const m = line.match(/^\s*(\d+)\.\s+([^—]*)/);
      if (!m) continue;
      for (const name of m[2].trim().split(/[\s,]+/).filter(Boolean)) {
        if (layer.has(name)) problems.push(`ARCHITECTURE.md names ${name} twice under "${heading}"`);
        layer.set(name, Number(m[1]));
      }
    }
  }
  return layer;
}

/**
 * The problems of a graph (`uses`: module → Map(used module → where)) against `layer`: modules
 * missing from the map, names of the map without a module, uses that do not run down the
 * layers, cycles.
 */
function checkGraph(modules, uses, layer, what, problems) {
  for (const name of modules) if (!layer.has(name)) problems.push(`${what} module ${name} is not in ARCHITECTURE.md's layers`);
  for (const name of layer.keys()) if (!modules.has(name)) problems.push(`ARCHITECTURE.md names ${name}, which ${what} does not have`);
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
}

function print(modules, uses, layer) {
  for (const name of [...modules].sort((a, b) => (layer.get(a) ?? 99) - (layer.get(b) ?? 99))) {
    console.log(`${layer.get(name) ?? "?"} ${name} → ${[...(uses.get(name)?.keys() ?? [])].filter((m) => modules.has(m)).join(", ")}`);
  }
}

// The JavaScript package: a module is a file of pkg-template/ without `.js` (`lite/index` and
// `client/index` for those entries, whose imports name the files they are built next to: copies
// of the same modules).
const pkg = join(root, "pkg-template");
const jsModules = new Set();
const jsUses = new Map();
const jsFiles = [
  ...readdirSync(pkg).filter((f) => f.endsWith(".js")),
  ...["lite", "client"].flatMap((dir) => (existsSync(join(pkg, dir)) ? readdirSync(join(pkg, dir)).filter((f) => f.endsWith(".js")).map((f) => `${dir}/${f}`) : [])),
];
for (const file of jsFiles) {
  const name = file.replace(/\.js$/, "");
  jsModules.add(name);
  const seen = new Map();
  jsUses.set(name, seen);
  // Block comments out (line by line, so that line numbers stay); line comments do not start a
  // statement, so the patterns below skip them.
  const text = readFileSync(join(pkg, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "));
  const specifiers = [
    ...text.matchAll(/^[ \t]*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm),
    ...text.matchAll(/^[ \t]*import\s*["']([^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ];
  for (const m of specifiers) {
    const spec = m[1];
    if (!spec.startsWith("./") && !spec.startsWith("../")) continue; // another package, node:…
    const to = spec.replace(/^\.\//, "").replace(/\.js$/, "");
    if (to === name.replace(/^(lite|client)\//, "")) continue;
    const line = text.slice(0, m.index).split("\n").length;
    if (!seen.has(to)) seen.set(to, `pkg-template/${file}:${line}`);
  }
}

const problems = [];
checkGraph(modules, uses, layersOf("## Layers", problems), "src/", problems);
const jsLayer = layersOf("## JavaScript modules", problems);
checkGraph(jsModules, jsUses, jsLayer, "pkg-template/", problems);

if (process.argv.includes("--print")) {
  print(modules, uses, layersOf("## Layers", []));
  console.log("--");
  print(jsModules, jsUses, jsLayer);
}
if (problems.length) {
  console.error(problems.map((p) => `modules: ${p}`).join("\n"));
  process.exit(1);
}
console.log(`modules: ${modules.size} Rust and ${jsModules.size} JavaScript modules, acyclic, every use runs down the layers of ARCHITECTURE.md`);
