// The hand-written declarations (pkg-template/*.d.ts) agree with the code, and the check that says
// so (scripts/check-types.mjs) fails on drift: each kind of drift planted in a copy of the
// package's sources must fail it, naming what drifted.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

function check(root) {
  return spawnSync(process.execPath, [join(ROOT, "scripts/check-types.mjs"), "--root", root], { encoding: "utf8", timeout: 60_000 });
}

test("the .d.ts files agree with the code: exports, class members, option keys", { skip }, () => {
  const result = check(ROOT);
  assert.equal(result.status, 0, result.stderr);
});

/** A copy of what the check reads, with `edit(copyRoot)` applied. */
function planted(edit) {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-types-"));
  cpSync(join(ROOT, "pkg-template"), join(dir, "pkg-template"), { recursive: true });
  mkdirSync(join(dir, "src"));
  cpSync(join(ROOT, "src/wasm"), join(dir, "src/wasm"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  edit(dir);
  return dir;
}

function replaceIn(path, from, to) {
  const text = readFileSync(path, "utf8");
  assert.ok(text.includes(from), `${path} has ${from}`);
  writeFileSync(path, text.replace(from, to));
}

const DRIFTS = [
  ["a method declared that the code lacks", (d) => replaceIn(`${d}/pkg-template/assembler.d.ts`, "  connectionLost(): void;", "  connectionLost(): void;\n  rewind(): void;"),
    /StreamAssembler .*: rewind is declared, not in the code/],
  ["a public method the declarations lack", (d) => replaceIn(`${d}/pkg-template/connect.js`, "  /** Releases the assembler. */", "  pause() {}\n\n  /** Releases the assembler. */"),
    /RunConnection .*: pause is in the code, not in the declarations/],
  ["a getter declared as a method", (d) => replaceIn(`${d}/pkg-template/assembler.d.ts`, "  readonly replayed: number;", "  replayed(): number;"),
    /StreamAssembler .*: replayed is a value in the code, a method in the declarations/],
  ["a static the declarations lack", (d) => replaceIn(`${d}/pkg-template/assembler.js`, "  static connect(url, init, options) {", "  static open() {}\n\n  static connect(url, init, options) {"),
    /StreamAssembler .*: static open is in the code/],
  ["a parameter the declarations lack", (d) => replaceIn(`${d}/pkg-template/connect.js`, "  async stop() {", "  async stop(reason) {"),
    /RunConnection .*: stop takes 1 parameter\(s\) in the code, 0 in the declarations/],
  ["an export the declarations lack", (d) => replaceIn(`${d}/pkg-template/index.js`, 'export { wasmMemoryBytes } from "./instance.js";', 'export { wasmMemoryBytes } from "./instance.js";\nexport { chunks } from "./assembler.js";'),
    /index\.js exports chunks; index\.d\.ts does not declare it as a value/],
  ["a value declared only as a type", (d) => replaceIn(`${d}/pkg-template/lite/index.d.ts`, 'export { StreamAssembler } from "./assembler.js";', 'export type { StreamAssembler } from "./assembler.js";'),
    /lite\/index\.js exports StreamAssembler; lite\/index\.d\.ts does not declare it as a value/],
  ["an option key the code accepts, undeclared (JS)", (d) => replaceIn(`${d}/pkg-template/store-options.js`, "export const STORE_DEFAULTS = Object.freeze({", "export const STORE_DEFAULTS = Object.freeze({ sweepMs: 1,"),
    /MemoryRunStoreOptions \(runs\.d\.ts\): the code accepts sweepMs, not declared/],
  ["an option key declared, not accepted (JS)", (d) => replaceIn(`${d}/pkg-template/connect-types.d.ts`, "  resume?: boolean;", "  resume?: boolean;\n  jitter?: boolean;"),
    /ConnectOptions \(connect-types\.d\.ts\): jitter is declared, the code does not accept it/],
  ["an option key the core accepts, undeclared (Rust)", (d) => replaceIn(`${d}/src/wasm/options.rs`, '"omitNulls",', '"omitNulls",\n            "compact",'),
    /ResponseBuilderOptions \(builder\.d\.ts\): the code accepts compact, not declared/],
];

for (const [what, edit, message] of DRIFTS) {
  test(`the check fails on drift: ${what}`, { skip }, () => {
    const dir = planted(edit);
    try {
      const result = check(dir);
      assert.equal(result.status, 1, `the check passed:\n${result.stdout}`);
      assert.match(result.stderr, message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

// The JS itself, type-checked (checkJs, not strict) with the declarations of what it imports: a
// module's call into another is checked against that module's .d.ts, so a constructor, a
// parameter or an export used by the code and declared otherwise fails here. Left out: the
// runtime entries (Deno, workerd globals, the wasm import) and the generated glue.
// INTERNAL: exports
// the package's modules share and its public declarations leave out on purpose; NOT_DRIFT:
// diagnostics about the inferred types of a module's own code, not about a declaration.
const INTERNAL = ["RunLog", "splitEvents", "hasExport", "IN_WORKERD", "POLL_MS", "chunkFrames", "chunks", "useNodeBuffer", "instantiate", "QUEUED", "READ_SHARED", "memoryOf"];
const NOT_DRIFT = [
  // durable.js: a promise chain's inferred type (`#queue = Promise.resolve()`).
  /^durable\.js\(\d+,\d+\): error TS2322: Type 'Promise<void \| Response>' is not assignable to type 'Promise<void>'/,
];
const tsc = process.env.AGENTWIRE_TSC;
test("the JS type-checks against the .d.ts of the modules it imports (tsc, checkJs)", { skip: skip || (!tsc && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_TSC is not set" : false) }, () => {
  assert.ok(tsc, "AGENTWIRE_TSC is not set: run through scripts/test.sh (AGENTWIRE_ALLOW_SKIP=1 skips)");
  const dir = mkdtempSync(join(tmpdir(), "agentwire-checkjs-"));
  try {
    cpSync(join(ROOT, "pkg-template"), join(dir, "pkg"), { recursive: true });
    // The glue's declarations, from the built package (generated, not in pkg-template).
    cpSync(join(ROOT, "pkg/agentwire.d.ts"), join(dir, "pkg/agentwire.d.ts"));
    const files = readdirSync(join(dir, "pkg")).filter((f) => f.endsWith(".js") && !/^(node|browser|deno|workerd)\b/.test(f)).map((f) => `pkg/${f}`);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        allowJs: true, checkJs: true, noEmit: true, strict: false, skipLibCheck: true, target: "es2022",
        module: "nodenext", moduleResolution: "nodenext", lib: ["es2022", "esnext.disposable", "dom", "dom.iterable", "dom.asynciterable"],
        types: ["node"], typeRoots: [join(ROOT, "node_modules/@types")],
      },
      files,
    }));
    const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
    const errors = result.stdout.split("\n").filter((line) => /error TS\d+/.test(line)).map((line) => line.replace(/^pkg\//, ""))
      .filter((line) => !(/error TS(2305|2724)/.test(line) && INTERNAL.some((name) => line.includes(`'${name}'`))))
      .filter((line) => !NOT_DRIFT.some((re) => re.test(line)));
    assert.deepEqual(errors, [], result.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
