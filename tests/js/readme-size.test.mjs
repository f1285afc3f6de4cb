// The sizes the package README quotes (its `<!-- size -->` span, the npm page's "Size") are the
// ones its own modules measure: scripts/size.mjs writes them when the package is built and
// checks them here, in the packed copy. (The repository README's are checked by the `build`
// suite against the committed file: scripts/build.sh with ENFORCE_SIZE=1.)
import test from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;
const pkgDir = dirname(require.resolve("agentwire/package.json"));

/** Runs scripts/size.mjs on the installed package with `args`. */
function size(...args) {
  assert.ok(ROOT, "AGENTWIRE_ROOT is not set: run through scripts/test.sh (AGENTWIRE_ALLOW_SKIP=1 skips)");
  return spawnSync(process.execPath, [join(ROOT, "scripts/size.mjs"), pkgDir, ...args], { encoding: "utf8", timeout: 60_000 });
}

test("the package README quotes the sizes its modules measure", { skip }, () => {
  const readme = join(pkgDir, "README.md");
  assert.match(readFileSync(readme, "utf8"), /<!-- size -->`agentwire` \d+\.\d KiB, `agentwire\/client` \d+\.\d KiB, `agentwire\/lite` \d+\.\d KiB/);
  const result = size("--check", readme);
  assert.strictEqual(result.status, 0, `${result.stdout}${result.stderr}`);
});

test("a README quoting other sizes, or none, fails the check", { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-size-"));
  try {
    const text = readFileSync(join(pkgDir, "README.md"), "utf8");
    const off = join(dir, "off.md");
    writeFileSync(off, text.replace(/(`agentwire\/lite` )\d+\.\d( KiB)/, (_, a, b) => `${a}1.0${b}`));
    let result = size("--check", off);
    assert.strictEqual(result.status, 1, `${result.stdout}${result.stderr}`);
    assert.match(result.stderr, /off\.md says .* KiB.*; the modules measure/);
    const none = join(dir, "none.md");
    writeFileSync(none, text.replace(/<!-- size -->[\s\S]*?<!-- \/size -->/, "about 100 KB"));
    result = size("--check", none);
    assert.strictEqual(result.status, 1, `${result.stdout}${result.stderr}`);
    assert.match(result.stderr, /no <!-- size --> span/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
