// Node-only checks of the installed package itself: export conditions, package.json export,
// and the TypeScript surface (consumer.ts and consumer-fetch.ts, type-checked with the
// workspace's TypeScript 5.9 and 7, without and with the DOM lib and @types/node).
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

test("package.json is exported and says ESM, Node >= 20, side effects only in the entries", () => {
  const pkg = require("agentwire/package.json");
  assert.strictEqual(pkg.name, "agentwire");
  assert.strictEqual(pkg.type, "module");
  // The entries instantiate the wasm at import: a bundler told they are side-effect free may skip
  // them and bind straight to the glue's re-exported functions, which then run uninitialised.
  const entries = ["node.js", "browser.js", "workerd.js", "deno.js"];
  assert.deepStrictEqual(pkg.sideEffects, [...entries.map((e) => `./${e}`), ...entries.map((e) => `./lite/${e}`), ...entries.map((e) => `./client/${e}`)]);
  assert.strictEqual(pkg.engines.node, ">=20");
  for (const subpath of [".", "./lite", "./client"]) {
    assert.deepStrictEqual(Object.keys(pkg.exports[subpath]),
      ["types", "workerd", "deno", "node", "browser", "default"], subpath);
  }
});

test("the tarball ships the wasm and every entry", () => {
  const dir = dirname(require.resolve("agentwire/package.json"));
  const files = readdirSync(dir).sort();
  assert.deepStrictEqual(files, ["README.md", "a2a.d.ts", "a2a.js", "agentwire.d.ts", "agentwire.js", "agentwire_bg.wasm",
    "app-a2a.js", "app-caps.js", "app-card.js", "app-conversations.js", "app-durable.js", "app-history.js", "app-http.js", "app-node-socket.js", "app-node.js", "app-options.js", "app-principal.js", "app-protocols.js", "app-responses.js", "app-runs.js", "app-socket.js", "app-task-list.js", "app-tasks.js", "app-wait.js",
    "app.d.ts", "app.js", "assembler.d.ts", "assembler.js", "browser.js", "builder-children.js", "builder-mirror.js", "builder-pipe.js", "builder-queue.js", "builder-run.js", "builder.d.ts", "builder.js", "client", "connect-types.d.ts", "connect.js", "conversation.d.ts",
    "conversation.js", "deno.js", "durable.js",
    "index.d.ts", "index.js", "instance.js", "interrupts.d.ts", "interrupts.js", "lite", "node.js", "package.json", "redis.d.ts", "redis.js", "runs.d.ts", "runs.js", "store-events.js", "store-log.js", "store-options.js", "store-redis-commands.js", "store-redis-log.js", "store-redis-scripts.js", "translate.d.ts", "translate.js",
    "upstream.d.ts", "upstream.js", "values.js", "workerd.js"]);
  assert.deepStrictEqual(readdirSync(`${dir}/lite`).sort(), ["agentwire.d.ts", "agentwire.js", "agentwire_bg.wasm",
    "assembler.d.ts", "assembler.js", "browser.js", "connect-types.d.ts", "connect.js", "deno.js", "index.d.ts", "index.js", "instance.js", "node.js",
    "values.js", "workerd.js"]);
  assert.deepStrictEqual(readdirSync(`${dir}/client`).sort(), ["agentwire.d.ts", "agentwire.js", "agentwire_bg.wasm",
    "assembler.d.ts", "assembler.js", "browser.js", "connect-types.d.ts", "connect.js", "conversation.d.ts", "conversation.js", "deno.js",
    "index.d.ts", "index.js", "instance.js", "interrupts.d.ts", "interrupts.js", "node.js", "values.js", "workerd.js"]);
  for (const wasm of ["agentwire_bg.wasm", "lite/agentwire_bg.wasm", "client/agentwire_bg.wasm"]) {
    assert.ok(WebAssembly.validate(readFileSync(`${dir}/${wasm}`)), `${wasm} is a valid module`);
  }
});

// scripts/test.sh sets AGENTWIRE_TSC (TypeScript 5.9), AGENTWIRE_TSC7 (the newest major) and
// AGENTWIRE_ROOT (for @types/node); without them this fails unless AGENTWIRE_ALLOW_SKIP=1.
const tscSkip = !process.env.AGENTWIRE_TSC && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_TSC is not set" : false;
const compilers = [["TypeScript 5.9", process.env.AGENTWIRE_TSC], ["TypeScript 7", process.env.AGENTWIRE_TSC7]];
const BASE = { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext" };
const LIBS = {
  // No DOM, no Node types: the surface stands alone.
  plain: { lib: ["es2022", "esnext.disposable"], types: [] },
  dom: { lib: ["es2022", "esnext.disposable", "dom", "dom.iterable", "dom.asynciterable"], types: [] },
  node: { lib: ["es2022", "esnext.disposable"], types: ["node"] },
};
const CHECKS = [["consumer.ts", "plain"], ["consumer-fetch.ts", "dom"], ["consumer-fetch.ts", "node"]];
for (const [version, tsc] of compilers) {
  for (const [file, libs] of CHECKS) {
    test(`the TypeScript surface type-checks strictly: ${file}, ${version}, ${libs} lib`, { skip: tscSkip }, () => {
      assert.ok(tsc, `the ${version} compiler is not set: run through scripts/test.sh (AGENTWIRE_ALLOW_SKIP=1 skips)`);
      const dir = fileURLToPath(new URL(".", import.meta.url));
      const options = { ...BASE, ...LIBS[libs] };
      if (libs === "node") options.typeRoots = [`${process.env.AGENTWIRE_ROOT}/node_modules/@types`];
      const config = `${dir}tsconfig.${file}.${libs}.json`;
      writeFileSync(config, JSON.stringify({ compilerOptions: options, files: [file] }));
      const result = spawnSync(process.execPath, [tsc, "-p", config], { encoding: "utf8", timeout: 120_000 });
      assert.strictEqual(result.status, 0, `tsc failed:\n${result.stdout}${result.stderr}`);
    });
  }
}

// Every JavaScript block of the package README (and the module script of its HTML page),
// type-checked as a TypeScript user who pastes it gets it checked: `checkJs` with `strict`, except
// what JavaScript cannot write (parameter types, catch-variable types) or what a snippet leaves
// to its page (elements it knows exist). Fragments get the few names they assume (a `res`, a
// `render`, a `model`) from readme-globals.d.ts. Browser code is checked with the DOM lib only,
// code importing `node:` modules with @types/node only.
const README_GLOBALS = `
declare const res: Response;
declare const req: Request;
declare const input: import("agentwire").Message[];
declare function render(update: import("agentwire").Update): void;
declare function model(request: import("agentwire").AgentRequest, options: { signal: AbortSignal }): AsyncIterable<string>;
declare const StreamAssembler: typeof import("agentwire").StreamAssembler;
declare const parseRequest: typeof import("agentwire").parseRequest;
declare const Deno: { serve(options: { hostname: string; port: number }, handler: (request: Request) => Response | Promise<Response>): unknown };
`;
function readmeBlocks() {
  const readme = readFileSync(`${dirname(require.resolve("agentwire/package.json"))}/README.md`, "utf8");
  const blocks = [];
  for (const [i, m] of [...readme.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].entries()) {
    const [, lang, code] = m;
    if (lang === "html") {
      const script = code.match(/<script type="module">\n([\s\S]*?)<\/script>/);
      if (script) blocks.push({ name: `block-${i}.mjs`, code: script[1], browser: true });
    } else if (lang === "js") {
      blocks.push({ name: `block-${i}.mjs`, code, browser: false, node: /from "node:/.test(code) });
    }
  }
  assert.ok(blocks.length >= 10, `only ${blocks.length} README blocks`);
  return blocks;
}
for (const [version, tsc] of compilers) {
  for (const libs of ["dom", "node"]) {
    test(`every README code block type-checks: ${version}, ${libs} lib`, { skip: tscSkip }, () => {
      assert.ok(tsc, `the ${version} compiler is not set: run through scripts/test.sh (AGENTWIRE_ALLOW_SKIP=1 skips)`);
      const dir = fileURLToPath(new URL(`./readme-ts-${libs}/`, import.meta.url));
      mkdirSync(dir, { recursive: true });
      const files = ["readme-globals.d.ts"];
      writeFileSync(`${dir}readme-globals.d.ts`, README_GLOBALS);
      for (const block of readmeBlocks()) {
        if ((block.browser && libs !== "dom") || (block.node && libs !== "node")) continue;
        // `export {}`: each block is a module of its own, as its file would be.
        writeFileSync(`${dir}${block.name}`, `${block.code}\nexport {};\n`);
        files.push(block.name);
      }
      const options = {
        ...BASE, ...LIBS[libs], allowJs: true, checkJs: true,
        noImplicitAny: false, useUnknownInCatchVariables: false, strictNullChecks: false,
      };
      if (libs === "node") options.typeRoots = [`${process.env.AGENTWIRE_ROOT}/node_modules/@types`];
      writeFileSync(`${dir}tsconfig.json`, JSON.stringify({ compilerOptions: options, files }));
      const result = spawnSync(process.execPath, [tsc, "-p", `${dir}tsconfig.json`], { encoding: "utf8", timeout: 120_000 });
      assert.strictEqual(result.status, 0, `tsc failed:\n${result.stdout}${result.stderr}`);
    });
  }
}
