// Headless Chromium smoke test: serves the project on 127.0.0.1, opens a page whose import map
// points "agentwire" at the package's `browser` entry (resolved from its exports), runs the
// shared cases in the page, and reports them. Usage: node tests/js/runners/browser.mjs <project>
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { extname, join, normalize, relative } from "node:path";
import { tmpdir } from "node:os";
import { chromium } from "playwright-core";
import { resolveEntry } from "./resolve.mjs";
import { report } from "./tap.mjs";

const project = process.argv[2];
if (!project) throw new Error("usage: browser.mjs <project dir>");
const conditions = ["browser", "import", "default"];
const entryUrl = `/${relative(project, resolveEntry(project, "agentwire", conditions))}`;
const liteUrl = `/${relative(project, resolveEntry(project, "agentwire/lite", conditions))}`;
const clientUrl = `/${relative(project, resolveEntry(project, "agentwire/client", conditions))}`;

const PAGE = `<!doctype html><meta charset="utf-8"><title>agentwire</title><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify({ imports: { agentwire: entryUrl, "agentwire/lite": liteUrl, "agentwire/client": clientUrl } })}</script>
<script type="module">
  import * as api from "agentwire";
  import * as lite from "agentwire/lite";
  import * as client from "agentwire/client";
  import assert from "/tests/mini-assert.mjs";
  import { cases } from "/tests/cases.mjs";
  import { liteCases } from "/tests/lite-cases.mjs";
  import { assemblerCases } from "/tests/assembler-cases.mjs";
  import { hostileCases, checkedCases } from "/tests/hostile-cases.mjs";
  import { runCases } from "/tests/runners/tap.mjs";
  const hostile = (await runCases(checkedCases(hostileCases), api, assert)).map((r) => ({ ...r, name: "hostile: " + r.name }));
  const clientResults = (await runCases(assemblerCases, client, assert)).map((r) => ({ ...r, name: "client: " + r.name }));
  window.__results = [...await runCases(cases, api, assert), ...await runCases(liteCases, lite, assert), ...clientResults, ...hostile];
</script>`;
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
  ".json": "application/json", ".html": "text/html" };

const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  if (path === "/") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    return;
  }
  const file = normalize(join(project, decodeURIComponent(path)));
  if (!file.startsWith(project)) return res.writeHead(403).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}`;

const profile = mkdtempSync(join(tmpdir(), "agentwire-chromium-"));
const results = [
  { name: `"agentwire" resolves to the browser entry (${entryUrl})`, ok: entryUrl.endsWith("/agentwire/browser.js") },
  { name: `"agentwire/lite" resolves to its browser entry (${liteUrl})`, ok: liteUrl.endsWith("/agentwire/lite/browser.js") },
  { name: `"agentwire/client" resolves to its browser entry (${clientUrl})`, ok: clientUrl.endsWith("/agentwire/client/browser.js") },
];
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    timeout: 60_000,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.stack ?? String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(origin, { timeout: 30_000 });
  try {
    await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 150_000 });
  } catch (e) {
    throw new Error(`the page did not report results: ${errors.join("\n") || e.message}`);
  }
  for (const r of await page.evaluate(() => window.__results)) results.push({ ...r, name: `in-page: ${r.name}` });
  results.push({ name: "no page errors", ok: errors.length === 0, error: errors.join("\n") });
} catch (e) {
  results.push({ name: "the page runs", ok: false, error: e?.stack ?? String(e) });
} finally {
  await context?.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exitCode = report("browser", results) === 0 ? 0 : 1;
