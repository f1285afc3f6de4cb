// The JavaScript module map of ARCHITECTURE.md ("JavaScript modules") holds for the package, and
// scripts/check-modules.mjs fails when it does not: a cycle, an import of the same layer or above,
// a module missing from the map or a name without a module, each planted in a copy, fails it.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

function check(root) {
  return spawnSync(process.execPath, [join(ROOT, "scripts/check-modules.mjs"), "--root", root], { encoding: "utf8", timeout: 60_000 });
}

test("the Rust and JavaScript module graphs run down the layers of ARCHITECTURE.md", { skip }, () => {
  const result = check(ROOT);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /JavaScript modules/);
});

/** A copy of what the check reads, with `edit(copyRoot)` applied. */
function planted(edit) {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-modules-"));
  for (const path of ["ARCHITECTURE.md", "src", "pkg-template"]) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  edit(dir);
  return dir;
}

function prepend(path, line) {
  writeFileSync(path, `${line}\n${readFileSync(path, "utf8")}`);
}

const PLANTED = [
  ["a cycle (values imports instance, which imports values)", (d) => prepend(`${d}/pkg-template/values.js`, 'import { instance } from "./instance.js";'),
    [/cycle: (instance → values → instance|values → instance → values)/, /values \(layer 0\) uses instance \(layer 1\): pkg-template\/values\.js:1/]],
  ["a cycle through a multi-line re-export", (d) => appendFileSync(`${d}/pkg-template/runs.js`, '\nexport {\n  DurableRunStore,\n} from "./durable.js";\n'),
    [/cycle: .*runs → durable|cycle: .*durable → runs/, /runs \(layer \d\) uses durable/]],
  ["an import of the same layer", (d) => prepend(`${d}/pkg-template/a2a.js`, 'import "./connect.js";'),
    [/a2a \(layer 2\) uses connect \(layer 2\)/]],
  ["a dynamic import of a layer above", (d) => appendFileSync(`${d}/pkg-template/builder.js`, '\nexport const later = () => import("./app.js");\n'),
    [/builder \(layer \d+\) uses app \(layer \d+\)/]],
  ["a module missing from the map", (d) => writeFileSync(`${d}/pkg-template/app-routes.js`, 'import { agentwireError } from "./values.js";\nexport const x = agentwireError;\n'),
    [/pkg-template\/ module app-routes is not in ARCHITECTURE\.md's layers/]],
  ["a name of the map without a module", (d) => {
    const path = `${d}/ARCHITECTURE.md`;
    writeFileSync(path, readFileSync(path, "utf8").replace("1. instance ", "1. instance ghost "));
  }, [/ARCHITECTURE\.md names ghost, which pkg-template\/ does not have/]],
];

for (const [what, edit, messages] of PLANTED) {
  test(`the module check fails on ${what}`, { skip }, () => {
    const dir = planted(edit);
    try {
      const result = check(dir);
      assert.equal(result.status, 1, `the check passed:\n${result.stdout}`);
      for (const message of messages) assert.match(result.stderr, message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
