// Node-only checks of the installed package itself: export conditions, package.json export,
// and the TypeScript surface (consumer.ts and consumer-fetch.ts, type-checked with the
// workspace's TypeScript 5.9 and 7, without and with the DOM lib and @types/node).
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
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
  assert.deepStrictEqual(pkg.sideEffects, [...entries.map((e) => `./${e}`), ...entries.map((e) => `./lite/${e}`)]);
  assert.strictEqual(pkg.engines.node, ">=20");
  for (const subpath of [".", "./lite"]) {
    assert.deepStrictEqual(Object.keys(pkg.exports[subpath]),
      ["types", "workerd", "deno", "node", "browser", "default"], subpath);
  }
});

test("the tarball ships the wasm and every entry", () => {
  const dir = dirname(require.resolve("agentwire/package.json"));
  const files = readdirSync(dir).sort();
  assert.deepStrictEqual(files, ["README.md", "agentwire.d.ts", "agentwire.js", "agentwire_bg.wasm",
    "assembler.d.ts", "assembler.js", "browser.js", "builder.d.ts", "builder.js", "deno.js",
    "index.d.ts", "index.js", "instance.js", "lite", "node.js", "package.json", "translate.d.ts", "translate.js",
    "values.js", "workerd.js"]);
  assert.deepStrictEqual(readdirSync(`${dir}/lite`).sort(), ["agentwire.d.ts", "agentwire.js", "agentwire_bg.wasm",
    "assembler.d.ts", "assembler.js", "browser.js", "deno.js", "index.d.ts", "index.js", "instance.js", "node.js",
    "values.js", "workerd.js"]);
  for (const wasm of ["agentwire_bg.wasm", "lite/agentwire_bg.wasm"]) {
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
