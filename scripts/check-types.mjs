// The hand-written declarations of the JS package (pkg-template/*.d.ts) checked against the code
// (pkg-template/*.js, and the option readers of src/wasm/), in both directions:
//   - exports: every value an entry (index.js, lite/index.js) exports is declared by its .d.ts as
//     a value (not only a type), and the .d.ts declares no value the entry lacks;
//   - classes: every class a .d.ts declares exists in the code, with the same public members
//     (methods, getters, setters, fields; static or not; a getter without a setter is `readonly`)
//     and the same number of parameters per method (the longest overload);
//   - options: every option interface lists exactly the keys its code accepts (OPTIONS below: an
//     interface's own keys, or with those of the interfaces it extends).
// Both sides are read with TypeScript's parser (no type checking): the code's option-key lists
// are read from the files (a `const` object or array, a destructuring pattern, `key === "…"`
// comparisons, or a Rust reader's `only_keys(&bag, &[…])` / `match key { "…" => }`).
// Usage: node scripts/check-types.mjs [--root <repo>] [--print]
// Exits 1 listing every disagreement; KNOWN_DRIFT names the ones allowed for now (an allowance
// that no longer matches anything fails too, so the list only shrinks).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const at = process.argv.indexOf("--root");
const root = resolve(at > 0 ? process.argv[at + 1] : fileURLToPath(new URL("..", import.meta.url)));
const pkg = join(root, "pkg-template");
const ts = createRequire(join(root, "package.json"))("typescript");

/**
 * Option interfaces and where the code reads their keys. `own: true` compares only the keys the
 * interface itself declares (those it inherits are checked with their own interface).
 * Sources: `{js, const}` the keys of a top-level const object (or the strings of an array);
 * `{js, destructure}` the keys a function destructures from its options (its rest left out);
 * `{js, fn, compares}` the strings a function compares variable `compares` with; `{rust, fn}` the
 * keys a Rust reader accepts.
 */
const OPTIONS = [
  { dts: "assembler.d.ts", name: "StreamAssemblerOptions", code: [{ rust: "src/wasm/options.rs", fn: "assembler_options" }] },
  { dts: "connect-types.d.ts", name: "ConnectOptions", own: true, code: [{ js: "connect.js", destructure: "readConnectOptions" }] },
  { dts: "builder.d.ts", name: "ResponseBuilderOptions", code: [{ rust: "src/wasm/options.rs", fn: "builder_options" }] },
  { dts: "builder.d.ts", name: "MessageOptions", code: [{ rust: "src/wasm/options.rs", fn: "message_options" }] },
  { dts: "builder.d.ts", name: "CompletedOptions", code: [{ rust: "src/wasm/options.rs", fn: "complete_options" }] },
  { dts: "builder.d.ts", name: "ToolCallOptions", code: [{ rust: "src/wasm/options.rs", fn: "tool_call_options" }] },
  { dts: "builder.d.ts", name: "ToolOutputOptions", code: [{ rust: "src/wasm/options.rs", fn: "tool_output_options" }] },
  { dts: "builder.d.ts", name: "StreamOptions", own: true, code: [{ js: "builder.js", destructure: "streamOptions" }] },
  { dts: "builder.d.ts", name: "PipeOptions", code: [{ js: "builder-pipe.js", destructure: "pipeOptions" }] },
  { dts: "upstream.d.ts", name: "UpstreamOptions", code: [{ js: "upstream.js", destructure: "upstreamOptions" }] },
  { dts: "translate.d.ts", name: "TranslateOptions", code: [{ rust: "src/wasm/translate.rs", fn: "read_options" }] },
  { dts: "translate.d.ts", name: "TranslateStreamOptions", own: true, code: [{ js: "translate.js", destructure: "translate" }] },
  { dts: "runs.d.ts", name: "MemoryRunStoreOptions", code: [{ js: "store-options.js", const: "STORE_DEFAULTS" }] },
  { dts: "redis.d.ts", name: "RedisRunStoreOptions", own: true, code: [{ js: "redis.js", const: "OPTIONS" }] },
  { dts: "app.d.ts", name: "AgentAppOptions", code: [{ js: "app-options.js", const: "OPTION_KEYS" }] },
  { dts: "app.d.ts", name: "AgentAppOptions.runs", code: [{ js: "app-options.js", const: "RUN_KEYS" }] },
  { dts: "app.d.ts", name: "AgentAppOptions.protocols", code: [{ js: "app-options.js", const: "PROTOCOLS" }] },
  { dts: "app.d.ts", name: "AgentAppPaths", code: [{ js: "app-options.js", const: "DEFAULT_PATHS" }] },
];

/** Disagreements allowed for now, each with why (the message must match exactly). */
const KNOWN_DRIFT = new Map([
]);

const problems = [];
const sources = new Map();
function source(path) {
  if (!sources.has(path)) {
    const text = readFileSync(path, "utf8");
    sources.set(path, ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith(".d.ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS));
  }
  return sources.get(path);
}
const has = (node, kind) => (ts.getCombinedModifierFlags?.(node) ?? 0) & kind || node.modifiers?.some((m) => m.kind === kind);
const isStatic = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword) ?? false;
const isPrivate = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword) ?? false;
const isExported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;

/** The value names a module exports: name → {file, local} (where it is defined), or `null` for another package. */
function valueExports(path, seen = new Set()) {
  const out = new Map();
  if (seen.has(path)) return out;
  seen.add(path);
  const dts = path.endsWith(".d.ts");
  const file = source(path);
  for (const st of file.statements) {
    if (ts.isExportDeclaration(st)) {
      if (st.isTypeOnly) continue;
      const target = st.moduleSpecifier ? join(path, "..", st.moduleSpecifier.text.replace(/\.js$/, dts ? ".d.ts" : ".js")) : null;
      const there = target && existsSync(target) ? valueExports(target, seen) : null;
      if (!st.exportClause) {
        for (const [name, where] of there ?? []) out.set(name, where);
        continue;
      }
      for (const el of st.exportClause.elements) {
        if (el.isTypeOnly) continue;
        const local = (el.propertyName ?? el.name).text;
        // A module outside pkg-template (the generated glue, agentwire.js) is taken at its word.
        out.set(el.name.text, target ? (there ? there.get(local) ?? { file: target, local, missing: true } : null) : { file: path, local });
      }
    } else if (isExported(st)) {
      if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) continue;
      if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) out.set(d.name.text, { file: path, local: d.name.text });
      else if (st.name) out.set(st.name.text, { file: path, local: st.name.text });
    }
  }
  return out;
}

/** The top-level declaration of `name` in a file (class, function, const), if any. */
function declaration(path, name) {
  for (const st of source(path).statements) {
    if ((ts.isClassDeclaration(st) || ts.isFunctionDeclaration(st)) && st.name?.text === name) return st;
    if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) if (d.name.text === name) return d;
  }
  return null;
}

/**
 * A member's name: `x`, or `[Symbol.y]` (also through a file's `const dispose = Symbol.dispose ?? …`);
 * `null` for a private one (`#x`, or keyed by a module's own symbol).
 */
function memberName(member, file) {
  const name = member.name;
  if (!name) return null;
  if (ts.isPrivateIdentifier(name)) return null;
  if (ts.isComputedPropertyName(name)) {
    let expr = name.expression;
    if (ts.isIdentifier(expr)) {
      const decl = declaration(file.fileName, expr.text);
      const init = decl?.initializer;
      expr = init && ts.isBinaryExpression(init) ? init.left : init ?? expr;
    }
    // A well-known symbol is public; a module's own `Symbol("…")` is not.
    const text = expr.getText(file);
    return /^Symbol\.[A-Za-z]+$/.test(text) ? `[${text}]` : null;
  }
  return name.text ?? name.getText(file);
}

/** A class's public members: name → {kind: "method" | "value", readonly, params}. */
function members(node, file) {
  const out = new Map();
  const elements = node.members ?? [];
  for (const m of elements) {
    if (ts.isConstructorDeclaration(m) || ts.isClassStaticBlockDeclaration?.(m) || isPrivate(m)) continue;
    const name = memberName(m, file);
    if (name === null || ts.isIndexSignatureDeclaration(m)) continue;
    const key = `${isStatic(m) ? "static " : ""}${name}`;
    const entry = out.get(key) ?? { kind: null, getter: false, setter: false, readonly: false, params: 0 };
    if (ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) {
      entry.kind = "method";
      entry.params = Math.max(entry.params, m.parameters.length);
    } else if (ts.isGetAccessorDeclaration(m)) {
      entry.kind = "value";
      entry.getter = true;
    } else if (ts.isSetAccessorDeclaration(m)) {
      entry.kind = "value";
      entry.setter = true;
    } else if (ts.isPropertyDeclaration(m) || ts.isPropertySignature(m)) {
      // A field whose value is a function is a method to its callers.
      entry.kind = m.initializer && (ts.isArrowFunction(m.initializer) || ts.isFunctionExpression(m.initializer)) ? "method" : "value";
      if (entry.kind === "method") entry.params = m.initializer.parameters.length;
      entry.readonly = m.modifiers?.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword) ?? false;
    } else continue;
    out.set(key, entry);
  }
  // Fields a constructor sets (`this.code = code`): values, written by the code.
  const ctor = elements.find((m) => ts.isConstructorDeclaration(m) && m.body);
  const visit = (n) => {
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(n.left)
      && n.left.expression.kind === ts.SyntaxKind.ThisKeyword && !ts.isPrivateIdentifier(n.left.name) && !out.has(n.left.name.text)) {
      out.set(n.left.name.text, { kind: "value", assigned: true, readonly: false, params: 0 });
    }
    if (!ts.isFunctionLike(n) || n === ctor) ts.forEachChild(n, visit);
  };
  if (ctor) visit(ctor);
  for (const entry of out.values()) if (entry.getter && !entry.setter) entry.readonly = true;
  return out;
}

/** Members of Error.prototype and Error instances, which a class extending Error inherits. */
const ERROR_MEMBERS = ["name", "message", "stack", "cause"];

/**
 * A class's public members with those it inherits: from a class of the same files (JS `extends`,
 * or a .d.ts class), from interfaces merged into it and the interfaces those extend (.d.ts
 * `interface X extends RunStore {}`); Error's own are left out.
 */
function allMembers(node, file, seen = new Set()) {
  const out = members(node, file);
  const bases = [];
  for (const clause of node.heritageClauses ?? []) {
    if (clause.token !== ts.SyntaxKind.ExtendsKeyword) continue;
    for (const t of clause.types) bases.push(t.expression.getText(file));
  }
  if (node.name) {
    // Declaration merging: interfaces of the class's name in the same file.
    for (const st of file.statements) {
      if (ts.isInterfaceDeclaration(st) && st.name.text === node.name.text && st !== node) {
        for (const [k, v] of allMembers(st, file, seen)) if (!out.has(k)) out.set(k, v);
      }
    }
  }
  for (const base of bases) {
    if (base === "Error") {
      for (const k of ERROR_MEMBERS) out.delete(k);
      continue;
    }
    if (seen.has(base)) continue;
    seen.add(base);
    const decl = file.statements.find((s) => (ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name?.text === base)
      ?? importedInterface(file, base);
    if (!decl) {
      problems.push(`${relativeName(file.fileName)}: ${node.name?.text} extends ${base}, which the check cannot find`);
      continue;
    }
    for (const [k, v] of allMembers(decl, decl.getSourceFile(), seen)) if (!out.has(k)) out.set(k, v);
  }
  return out;
}

/** An interface a .d.ts imports by name from another .d.ts of pkg-template (`import type { RunStore } from "./runs.js"`). */
function importedInterface(file, name) {
  for (const st of file.statements) {
    if (!ts.isImportDeclaration(st) || !st.importClause?.namedBindings || !ts.isNamedImports(st.importClause.namedBindings)) continue;
    if (!st.importClause.namedBindings.elements.some((e) => e.name.text === name)) continue;
    const target = join(file.fileName, "..", st.moduleSpecifier.text.replace(/\.js$/, ".d.ts"));
    if (!existsSync(target)) return null;
    return source(target).statements.find((s) => (ts.isInterfaceDeclaration(s) || ts.isClassDeclaration(s)) && s.name?.text === name) ?? null;
  }
  return null;
}

/** Compares a JS class with its declaration. */
function compareClass(name, js, jsFile, dts, dtsFile) {
  const code = allMembers(js, jsFile);
  const declared = allMembers(dts, dtsFile);
  const where = `${name} (${relativeName(jsFile.fileName)} vs ${relativeName(dtsFile.fileName)})`;
  for (const [key, c] of code) {
    const d = declared.get(key);
    if (!d) problems.push(`${where}: ${key} is in the code, not in the declarations`);
    else if (c.kind !== d.kind) problems.push(`${where}: ${key} is a ${c.kind} in the code, a ${d.kind} in the declarations`);
    else if (c.kind === "value" && !c.assigned && c.readonly !== d.readonly) problems.push(`${where}: ${key} is ${c.readonly ? "read-only" : "writable"} in the code, ${d.readonly ? "read-only" : "writable"} in the declarations`);
    else if (c.kind === "method" && c.params !== d.params) problems.push(`${where}: ${key} takes ${c.params} parameter(s) in the code, ${d.params} in the declarations`);
  }
  for (const key of declared.keys()) if (!code.has(key)) problems.push(`${where}: ${key} is declared, not in the code`);
}

const relativeName = (path) => path.slice(root.length + 1);
const jsFiles = readdirSync(pkg).filter((f) => f.endsWith(".js")).map((f) => join(pkg, f));
const dtsFiles = readdirSync(pkg).filter((f) => f.endsWith(".d.ts")).map((f) => join(pkg, f));
const jsClasses = new Map();
for (const path of jsFiles) {
  for (const st of source(path).statements) if (ts.isClassDeclaration(st) && st.name) jsClasses.set(st.name.text, { node: st, file: source(path) });
}

// 1. Each entry's value exports against its declarations', and what they are.
for (const entry of ["index", "lite/index"]) {
  const code = valueExports(join(pkg, `${entry}.js`));
  const declared = valueExports(join(pkg, `${entry}.d.ts`));
  for (const name of code.keys()) if (!declared.has(name)) problems.push(`${entry}.js exports ${name}; ${entry}.d.ts does not declare it as a value`);
  for (const name of declared.keys()) if (!code.has(name)) problems.push(`${entry}.d.ts declares ${name}; ${entry}.js does not export it`);
  for (const [name, where] of declared) {
    if (where?.missing) problems.push(`${entry}.d.ts re-exports ${name} from ${relativeName(where.file)}, which does not declare it`);
    const c = code.get(name);
    if (!where || where.missing || !c || c.missing) continue;
    const d = declaration(where.file, where.local);
    const j = declaration(c.file, c.local);
    if (!d || !j) continue;
    const jsKind = ts.isClassDeclaration(j) ? "class" : ts.isFunctionDeclaration(j) ? "function" : "const";
    const dtsKind = ts.isClassDeclaration(d) ? "class" : ts.isFunctionDeclaration(d) ? "function" : "const";
    if (jsKind === "function" && dtsKind === "function") {
      const overloads = source(where.file).statements.filter((s) => ts.isFunctionDeclaration(s) && s.name?.text === where.local);
      const params = Math.max(...overloads.map((s) => s.parameters.length));
      if (params !== j.parameters.length) problems.push(`${name}: takes ${j.parameters.length} parameter(s) in ${relativeName(c.file)}, ${params} in ${relativeName(where.file)}`);
    } else if (jsKind === "class" && dtsKind === "const" && d.type && ts.isTypeLiteralNode(d.type)) {
      // A class declared as a const of a constructor type: its statics are the type's members.
      const statics = new Map([...members(j, source(c.file))].filter(([k]) => k.startsWith("static ")).map(([k, v]) => [k.slice(7), v]));
      const typed = members(d.type, source(where.file));
      typed.delete("prototype");
      for (const k of statics.keys()) if (!typed.has(k)) problems.push(`${name}: static ${k} is in the code, not in ${relativeName(where.file)}`);
      for (const k of typed.keys()) if (!statics.has(k)) problems.push(`${name}: ${k} is declared in ${relativeName(where.file)}, not in the code`);
    } else if (jsKind !== dtsKind) {
      problems.push(`${name}: a ${jsKind} in ${relativeName(c.file)}, declared as a ${dtsKind} in ${relativeName(where.file)}`);
    }
  }
}

// 2. Every declared class against the code's class of that name (exported or not).
const declaredClasses = new Set();
for (const path of dtsFiles) {
  for (const st of source(path).statements) {
    if (!ts.isClassDeclaration(st) || !st.name) continue;
    declaredClasses.add(st.name.text);
    const js = jsClasses.get(st.name.text);
    if (!js) problems.push(`${relativeName(path)} declares class ${st.name.text}, which no pkg-template/*.js defines`);
    else compareClass(st.name.text, js.node, js.file, st, source(path));
  }
}
for (const [name, { file }] of jsClasses) {
  const exported = [...valueExports(join(pkg, "index.js"))].some(([, w]) => w && w.file === file.fileName && w.local === name);
  if (exported && !declaredClasses.has(name) && name !== "AgentwireError") problems.push(`class ${name} (${relativeName(file.fileName)}) is exported, and no .d.ts declares it as a class`);
}

// 3. Option keys.
/** The keys of interface `name` (`Name.key`: of the object type of its property `key`). */
function interfaceKeys(path, name, own) {
  const file = source(path);
  const [head, property] = name.split(".");
  let node = file.statements.find((s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === head);
  if (node && property) {
    const member = node.members?.find((m) => m.name && memberName(m, file) === property);
    node = member?.type && ts.isTypeLiteralNode(member.type) ? member.type : null;
  }
  if (!node) return null;
  const keys = new Set();
  const body = ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node) ? node.members : node.type.members ?? [];
  for (const m of body) if (m.name) keys.add(memberName(m, file));
  if (!own) {
    for (const clause of node.heritageClauses ?? []) {
      for (const t of clause.types) {
        const parent = t.expression.getText(file);
        const where = file.statements.some((s) => ts.isInterfaceDeclaration(s) && s.name.text === parent) ? path : null;
        for (const k of (where && interfaceKeys(where, parent, false)) ?? []) keys.add(k);
      }
    }
  }
  return keys;
}

function findFunction(file, name) {
  let found = null;
  const visit = (node) => {
    if (found) return;
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name?.text === name) found = node;
    else if (ts.isConstructorDeclaration(node) && name === "constructor") found = node;
    else ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function codeKeys(spec) {
  if (spec.rust) {
    const text = readFileSync(join(root, spec.rust), "utf8");
    const start = text.search(new RegExp(`fn ${spec.fn}\\(`));
    if (start < 0) return null;
    const body = text.slice(start, text.indexOf("\n}\n", start));
    const only = body.match(/only_keys\(\s*&bag,\s*&\[([^\]]*)\]/);
    const list = only ? only[1] : [...body.matchAll(/"[A-Za-z]+"(?=\s*(?:\||=>))|(?<=\|\s*)"[A-Za-z]+"/g)].map((m) => m[0]).join(",");
    return new Set([...list.matchAll(/"([A-Za-z]+)"/g)].map((m) => m[1]));
  }
  const file = source(join(pkg, spec.js));
  const keys = new Set();
  if (spec.const) {
    const decl = declaration(file.fileName, spec.const);
    let init = decl?.initializer;
    // `Object.freeze({…})`: the object inside.
    if (init && ts.isCallExpression(init) && init.arguments.length === 1) init = init.arguments[0];
    if (!init) return null;
    if (ts.isObjectLiteralExpression(init)) for (const p of init.properties) keys.add(memberName(p, file));
    else if (ts.isArrayLiteralExpression(init)) for (const e of init.elements) if (ts.isStringLiteral(e)) keys.add(e.text);
    return keys;
  }
  const fn = findFunction(file, spec.destructure ?? spec.fn);
  if (!fn) return null;
  const visit = (node) => {
    if (spec.destructure && ts.isObjectBindingPattern(node)) {
      for (const el of node.elements) if (!el.dotDotDotToken) keys.add((el.propertyName ?? el.name).getText(file));
    }
    if (spec.destructure && ts.isObjectLiteralExpression(node) && ts.isBinaryExpression(node.parent) && node.parent.left === node) {
      // ({ a, b = 1, ...rest } = options): an assignment pattern.
      for (const p of node.properties) if (!ts.isSpreadAssignment(p)) keys.add(p.name.getText(file));
    }
    if (spec.compares && ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken
      && node.left.getText(file) === spec.compares && ts.isStringLiteral(node.right)) keys.add(node.right.text);
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return keys;
}

for (const { dts, name, own, code } of OPTIONS) {
  const declared = interfaceKeys(join(pkg, dts), name, own);
  if (!declared) {
    problems.push(`${dts} has no interface ${name}${name.includes(".") ? " (an object type)" : ""}`);
    continue;
  }
  const accepted = new Set();
  for (const spec of code) {
    const keys = codeKeys(spec);
    if (!keys) problems.push(`${name}: the code's key list (${JSON.stringify(spec)}) is not where the check looks`);
    for (const k of keys ?? []) accepted.add(k);
  }
  for (const k of accepted) if (!declared.has(k)) problems.push(`${name} (${dts}): the code accepts ${k}, not declared`);
  for (const k of declared) if (!accepted.has(k)) problems.push(`${name} (${dts}): ${k} is declared, the code does not accept it`);
}

const unexplained = problems.filter((p) => !KNOWN_DRIFT.has(p));
const stale = [...KNOWN_DRIFT.keys()].filter((p) => !problems.includes(p));
if (process.argv.includes("--print")) for (const p of problems.filter((p) => KNOWN_DRIFT.has(p))) console.log(`types: known drift: ${p} (${KNOWN_DRIFT.get(p)})`);
if (unexplained.length || stale.length) {
  console.error([...unexplained.map((p) => `types: ${p}`), ...stale.map((p) => `types: KNOWN_DRIFT lists "${p}", which no longer happens: remove it`)].join("\n"));
  process.exit(1);
}
console.log(`types: the declarations of pkg-template agree with the code (exports, ${declaredClasses.size} classes, ${OPTIONS.length} option interfaces${KNOWN_DRIFT.size ? `; ${KNOWN_DRIFT.size} known drift` : ""})`);
