// What a browser page pays for each entry: a page that imports StreamAssembler from `agentwire`,
// `agentwire/client` or `agentwire/lite`, bundled by esbuild (browser, minified, ESM) from the
// installed package, measured as gzip -9 of its JS plus the wasm file its entry loads. The
// client and lite pages must bundle no server module (AgentApp, the stores, the builder, the
// translator), and each page stays within its ceiling (what it measured when last lowered,
// plus 1%); the budgets the pages aim at are reported beside them.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set (esbuild lives in the workspace)" : false;

/** Per entry: the ceiling of its page (B, gzip -9 of JS + wasm) and the budget it aims at. */
export const PAGES = {
  "agentwire": { ceiling: 436_300, budget: null },
  "agentwire/client": { ceiling: 234_600, budget: 175_000 },
  "agentwire/lite": { ceiling: 105_900, budget: 80_000 },
};
/** Modules of the package only a server uses. */
const SERVER_MODULES = /\/(app|app-[\w-]+|builder|builder-[\w-]+|runs|redis|durable|store-[\w-]+|translate|upstream|a2a)\.js$/;

const gzipped = (bytes) => execFileSync("gzip", ["-9c"], { input: bytes, maxBuffer: 64 << 20 }).length;

async function page(entry) {
  const require = createRequire(join(ROOT, "package.json"));
  const esbuild = await import(require.resolve("esbuild"));
  // The page sits in the project, so `entry` resolves to the installed package.
  const dir = mkdtempSync(join(process.cwd(), ".page-"));
  try {
    const file = join(dir, "page.js");
    writeFileSync(file, `import { StreamAssembler } from "${entry}";\nglobalThis.assembler = new StreamAssembler();\n`);
    const out = await esbuild.build({
      entryPoints: [file], bundle: true, platform: "browser", format: "esm", minify: true, write: false, metafile: true,
      target: "es2022", logLevel: "silent",
    });
    const js = out.outputFiles[0].contents;
    const inputs = Object.keys(out.metafile.inputs);
    // The wasm the page loads: the one next to the runtime entry it bundled.
    const browserEntry = inputs.find((p) => /node_modules\/agentwire\/(?:(lite|client)\/)?browser\.js$/.test(p));
    assert.ok(browserEntry, `${entry}: the page bundles its browser entry (${inputs.join(", ")})`);
    // Metafile paths are relative to esbuild's working directory (this process's).
    const wasm = readFileSync(join(process.cwd(), dirname(browserEntry), "agentwire_bg.wasm"));
    return { inputs, js: gzipped(js), wasm: gzipped(wasm) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const [entry, { ceiling, budget }] of Object.entries(PAGES)) {
  test(`a page importing StreamAssembler from ${entry} stays within its ceiling${entry === "agentwire" ? "" : " and bundles no server module"}`, { skip }, async () => {
    const { inputs, js, wasm } = await page(entry);
    const total = js + wasm;
    const against = budget === null ? "" : `; budget ${budget} B: ${total <= budget ? "met" : `${total - budget} B over`}`;
    console.log(`# page ${entry}: ${total} B (JS ${js} B + wasm ${wasm} B, gzip -9); ceiling ${ceiling} B${against}`);
    assert.ok(total <= ceiling, `${entry}: ${total} B, over its ceiling of ${ceiling} B`);
    if (entry !== "agentwire") {
      const server = inputs.filter((p) => p.includes("node_modules/agentwire/") && SERVER_MODULES.test(p));
      assert.deepStrictEqual(server, [], `${entry}: server modules in the page`);
    }
  });
}
