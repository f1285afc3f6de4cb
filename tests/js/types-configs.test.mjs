// The shipped declarations compile wherever a user puts them, with `--strict` and WITHOUT
// `skipLibCheck` (so every .d.ts of the package, and of the glue, is checked too), under each
// kind of type setting a project has:
//   - dom: the DOM lib only (`lib: ["es2023", "dom"]`: no `esnext.disposable`, which the
//     declarations must bring themselves for `Symbol.dispose`);
//   - node: @types/node only;
//   - workers: `wrangler types` output (tests/fixtures/types/worker/worker-configuration.d.ts,
//     generated, never edited), with the module settings wrangler's template uses.
// Each with TypeScript 5.9 (AGENTWIRE_TSC) and 7 (AGENTWIRE_TSC7). Two programs per setting:
//   - the surface: a Worker whose runs live in Durable Objects (`export class Runs extends
//     app.DurableObject {}`, its binding a `DurableObjectNamespace<Runs>` under the Workers
//     types), both entries ("agentwire", "agentwire/lite") and consumer-fetch.ts, all TypeScript
//     under full `strict`;
//   - the READMEs (the package's and the repository's): every JavaScript block, `checkJs`, with
//     the relaxations JavaScript needs (as package.test.mjs: parameter and catch types, null
//     checks of elements a page knows exist). Browser blocks are checked with the DOM lib only,
//     blocks importing `node:` modules or other packages with @types/node only.
// The compilers run two at a time (each takes seconds).
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const ROOT = process.env.AGENTWIRE_ROOT;
const compilers = [["TypeScript 5.9", process.env.AGENTWIRE_TSC], ["TypeScript 7", process.env.AGENTWIRE_TSC7]];
const skip = (!ROOT || !compilers.every(([, tsc]) => tsc)) && process.env.AGENTWIRE_ALLOW_SKIP === "1"
  ? "AGENTWIRE_ROOT, AGENTWIRE_TSC or AGENTWIRE_TSC7 is not set" : false;
const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURE = ROOT && join(ROOT, "tests/fixtures/types/worker");

// What every program shares: strict, and no skipLibCheck (the default, said out loud).
const BASE = { strict: true, skipLibCheck: false, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext" };
const SETTINGS = {
  dom: { lib: ["es2023", "dom"], types: [] },
  node: { lib: ["es2023"], types: ["node"], typeRoots: ROOT ? [join(ROOT, "node_modules/@types")] : [] },
  // wrangler's template: ES modules resolved as a bundler does, the runtime's types from the file.
  workers: { lib: ["es2023"], types: [], module: "es2022", moduleResolution: "bundler" },
};

// The names the README fragments assume (a `res`, a `render`, a `model`, …).
const README_GLOBALS = `
declare const res: Response;
declare const req: Request;
declare const request: import("agentwire").AgentRequest;
declare const input: import("agentwire").Message[];
declare function render(update: import("agentwire").Update): void;
declare function render(messageId: string, index: number, delta: string, replace: boolean): void;
declare function showMessage(id: string, role: string, messageType: string, status: string): void;
declare function showToolCall(messageId: string, name: string | undefined, delta: string): void;
declare function model(request: unknown, options: { signal: AbortSignal }): AsyncIterable<string>;
declare const StreamAssembler: typeof import("agentwire").StreamAssembler;
declare const parseRequest: typeof import("agentwire").parseRequest;
declare const Deno: { serve(options: { hostname: string; port: number }, handler: (request: Request) => Response | Promise<Response>): unknown };
`;

/** The JavaScript blocks of a README (and the module script of its HTML page). */
function readmeBlocks(path, prefix) {
  const blocks = [];
  for (const [i, [, lang, code]] of [...readFileSync(path, "utf8").matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].entries()) {
    if (lang === "html") {
      const script = code.match(/<script type="module">\n([\s\S]*?)<\/script>/);
      if (script) blocks.push({ name: `${prefix}-${i}.mjs`, code: script[1], browser: true, node: false });
    } else if (lang === "js" || lang === "ts") {
      // Node's: a block importing `node:` modules or another package (the Redis client).
      const node = [...code.matchAll(/from "([^"]+)"/g)].some(([, from]) => !/^agentwire(\/lite)?$/.test(from));
      blocks.push({ name: `${prefix}-${i}.${lang === "ts" ? "mts" : "mjs"}`, code, browser: false, node });
    }
  }
  return blocks;
}

/** The files of one program, written into `dir`; returns its tsconfig.json. */
function writeProgram(dir, setting, program) {
  const files = [];
  const options = { ...BASE, ...SETTINGS[setting] };
  if (program === "surface") {
    const worker = ["worker.ts", "stub.ts", setting === "workers" ? "worker-configuration.d.ts" : "env-like.d.ts"];
    for (const f of worker) cpSync(join(FIXTURE, f), join(dir, f));
    files.push(...worker);
    if (setting === "workers") {
      cpSync(join(FIXTURE, "workers.ts"), join(dir, "workers.ts"));
      files.push("workers.ts");
    }
    // Both entries, whole (lite's declarations are copies of the full ones, loaded on their own).
    writeFileSync(join(dir, "entries.ts"), [
      'import * as full from "agentwire";',
      'import * as lite from "agentwire/lite";',
      "const connection = full.StreamAssembler.connect(\"https://example.com/process\", { method: \"POST\", body: \"{}\" });",
      "export const stopped: Promise<number> = connection.stop().then((res) => res.status);",
      "const liteConnection = lite.StreamAssembler.connect(\"https://example.com/process\");",
      "export const liteStopped: Promise<boolean> = liteConnection.stop().then((res) => res.ok);",
      "{ using asm = new lite.StreamAssembler(); void asm; }",
      "export { full, lite };",
      "",
    ].join("\n"));
    cpSync(join(HERE, "consumer-fetch.ts"), join(dir, "consumer-fetch.ts"));
    files.push("entries.ts", "consumer-fetch.ts");
  } else {
    Object.assign(options, { allowJs: true, checkJs: true, noImplicitAny: false, useUnknownInCatchVariables: false, strictNullChecks: false });
    // `for await (const chunk of res.body)`, as the READMEs write it, needs the DOM's async
    // iterables, a lib of their own before TypeScript 6 (the surface program goes without).
    if (setting === "dom") options.lib = [...options.lib, "dom.iterable", "dom.asynciterable"];
    writeFileSync(join(dir, "readme-globals.d.ts"), README_GLOBALS);
    files.push("readme-globals.d.ts");
    if (setting === "workers") {
      // With the module it names (`typeof import("./worker")`).
      for (const f of ["worker-configuration.d.ts", "worker.ts"]) cpSync(join(FIXTURE, f), join(dir, f));
      files.push("worker-configuration.d.ts");
    }
    const blocks = [
      ...readmeBlocks(join(dirname(require.resolve("agentwire/package.json")), "README.md"), "package"),
      ...readmeBlocks(join(ROOT, "README.md"), "repository"),
    ];
    assert.ok(blocks.length >= 15, `only ${blocks.length} README blocks`);
    for (const block of blocks) {
      if ((block.browser && setting !== "dom") || (block.node && setting !== "node")) continue;
      // `export {}`: each block is a module of its own, as its file would be.
      writeFileSync(join(dir, block.name), `${block.code}\nexport {};\n`);
      files.push(block.name);
    }
    // The README's Redis example imports the real client (the workspace's).
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(ROOT, "node_modules/redis"), join(dir, "node_modules/redis"));
  }
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files }, null, 2));
  return join(dir, "tsconfig.json");
}

// Two compilers at a time (each is one process of a few seconds).
const slots = Math.max(1, Math.min(2, availableParallelism()));
let running = 0;
const waiting = [];
async function slot(run) {
  if (running >= slots) await new Promise((resolve) => waiting.push(resolve));
  running++;
  try {
    return await run();
  } finally {
    running--;
    waiting.shift()?.();
  }
}
function tsc(compiler, config) {
  return slot(() => new Promise((resolve) => {
    const child = spawn(process.execPath, [compiler, "-p", config], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { out += d; });
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, out });
    });
  }));
}

const ready = ROOT && compilers.every(([, tsc]) => tsc);
const WORK = ready ? mkdtempSync(join(HERE, ".types-configs-")) : null;
if (WORK) process.on("exit", () => rmSync(WORK, { recursive: true, force: true }));
const runs = new Map();
if (WORK) {
  for (const [version, compiler] of compilers) {
    for (const setting of Object.keys(SETTINGS)) {
      for (const program of ["surface", "readme"]) {
        const dir = join(WORK, `${version.replace(/\W+/g, "")}-${setting}-${program}`);
        mkdirSync(dir);
        const config = writeProgram(dir, setting, program);
        const result = tsc(compiler, config);
        result.catch(() => {});
        runs.set(`${version} ${setting} ${program}`, result);
      }
    }
  }
}

for (const [version] of compilers) {
  for (const setting of Object.keys(SETTINGS)) {
    for (const program of ["surface", "readme"]) {
      test(`${program === "surface" ? "a Worker with a Durable Object, both entries" : "every README block"} type-check strictly without skipLibCheck: ${setting}, ${version}`, { skip }, async () => {
        assert.ok(ready, "AGENTWIRE_ROOT, AGENTWIRE_TSC and AGENTWIRE_TSC7 must be set: run through scripts/test.sh (AGENTWIRE_ALLOW_SKIP=1 skips)");
        const { status, signal, out } = await runs.get(`${version} ${setting} ${program}`);
        assert.equal(signal, null, `tsc was killed (${signal}):\n${out}`);
        assert.equal(status, 0, `tsc failed:\n${out}`);
      });
    }
  }
}
