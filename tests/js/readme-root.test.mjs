// The repository README's JavaScript examples are written for every Node the package supports
// (engines: node >= 20): each block parses on the Node running the tests (no `using`, which
// Node 20 and 22 lack). They are fragments (they assume a `request`, a `render`), so they are
// parsed, not run; the package README's examples run in tests/js/runners/readme.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

test("every JavaScript block of the repository README parses on this Node", { skip }, () => {
  assert.ok(ROOT, "AGENTWIRE_ROOT is not set: run through scripts/test.sh (AGENTWIRE_ALLOW_SKIP=1 skips)");
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)\n```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 5, `only ${blocks.length} JavaScript blocks in README.md`);
  const dir = mkdtempSync(join(tmpdir(), "agentwire-root-readme-"));
  try {
    for (const [i, code] of blocks.entries()) {
      const file = join(dir, `block-${i}.mjs`);
      writeFileSync(file, code);
      const result = spawnSync(process.execPath, ["--check", file], { encoding: "utf8", timeout: 30_000 });
      assert.strictEqual(result.status, 0, `README.md block ${i} does not parse on Node ${process.version}:\n${result.stderr}\n${code}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
