// The Vite consumer: copies this folder to a temp project, installs vite (pinned in
// package.json) and the packed agentwire tarball with npm, runs `vite build`, serves dist/ on
// 127.0.0.1 and checks in headless Chromium what main.js rendered; then the same app from the
// dev server (`vite`).
//
// It also rebuilds the app with the package's `sideEffects` forced to `false` and records
// whether that bundle still works: the evidence behind the package's `sideEffects` list (the
// entries initialise the wasm at import; a bundler told they are side-effect free may drop that).
//
// Usage: node tests/vite/run.mjs <tarball>
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { report } from "../js/runners/tap.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const tarball = process.argv[2] && resolve(process.argv[2]);
if (!tarball) throw new Error("usage: run.mjs <agentwire tarball>");

const results = [];
function record(name, fn) {
  return Promise.resolve().then(fn).then(
    () => results.push({ name, ok: true }),
    (e) => results.push({ name, ok: false, error: e?.stack ?? String(e) }),
  );
}
function sh(cwd, command, args) {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 240_000, env: { ...process.env, NO_COLOR: "1" } });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

const TYPES = { ".js": "text/javascript", ".html": "text/html", ".wasm": "application/wasm", ".css": "text/css" };
function serve(dir) {
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const file = normalize(join(dir, path === "/" ? "index.html" : decodeURIComponent(path)));
    if (!file.startsWith(dir)) return res.writeHead(403).end();
    try {
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

/** A free port on 127.0.0.1 (for the dev server, which wants a number). */
function freePort() {
  const server = createServer();
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => ok(port));
  }));
}

/** Starts `vite` (the dev server) on 127.0.0.1; resolves with its origin and a stop(). */
async function devServer(cwd, vite) {
  const port = await freePort();
  const child = spawn(vite, ["--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let output = "";
  await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`vite dev did not start:\n${output}`)), 30_000);
    const onData = (d) => {
      output += d;
      if (output.includes(`127.0.0.1:${port}`)) { clearTimeout(timer); ok(); }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => { clearTimeout(timer); fail(new Error(`vite dev exited with ${code}:\n${output}`)); });
  });
  child.removeAllListeners("exit");
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => new Promise((done) => { child.once("exit", done); child.kill("SIGTERM"); }),
  };
}

/** Opens the built app (a dist folder, or an origin); resolves with what it rendered (or its error). */
async function open(context, dir) {
  const server = dir.startsWith("http") ? null : await serve(dir);
  const origin = server ? `http://127.0.0.1:${server.address().port}` : dir;
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.stack ?? String(e)));
  try {
    await page.goto(`${origin}/`, { timeout: 30_000 });
    await page.waitForFunction(() => document.body.dataset.done || document.body.dataset.error, null, { timeout: 15_000 })
      .catch(() => {});
    return await page.evaluate(() => ({
      done: document.body.dataset.done === "true",
      error: document.body.dataset.error ?? null,
      text: document.getElementById("text").textContent,
      outcome: document.getElementById("outcome").textContent,
      collected: document.getElementById("collected").textContent,
      translated: document.getElementById("translated").textContent,
      lite: document.getElementById("lite").textContent,
    })).then((r) => ({ ...r, pageErrors: errors }));
  } finally {
    await page.close();
    server?.close();
  }
}

const app = mkdtempSync(join(tmpdir(), "agentwire-vite-"));
const profile = mkdtempSync(join(tmpdir(), "agentwire-vite-chromium-"));
let context;
try {
  for (const f of ["package.json", "vite.config.js", "index.html", "main.js"]) cpSync(join(HERE, f), join(app, f));
  await record("npm installs vite 7 and the agentwire tarball", () => {
    sh(app, "npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", tarball]);
  });
  const vite = join(app, "node_modules/.bin/vite");
  const version = sh(app, vite, ["--version"]).trim();
  await record(`vite build succeeds (${version})`, () => {
    if (!version.startsWith("vite/7.")) throw new Error(`expected vite 7, got ${version}`);
    sh(app, vite, ["build", "--outDir", "dist", "--emptyOutDir"]);
    const assets = readdirSync(join(app, "dist/assets"));
    const wasm = assets.filter((f) => f.endsWith(".wasm"));
    if (wasm.length !== 2) throw new Error(`expected two .wasm assets (agentwire, agentwire/lite): ${assets}`);
  });

  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    timeout: 60_000,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  const built = await open(context, join(app, "dist"));
  await record("the built app assembles and renders the stream in Chromium", () => {
    if (!built.done) throw new Error(`the app did not finish: ${built.error ?? built.pageErrors.join("\n")}`);
    if (built.text !== "Hello from Vite ⚡") throw new Error(`text ${JSON.stringify(built.text)}`);
    if (built.outcome !== "completed") throw new Error(`outcome ${built.outcome}`);
  });
  await record("fromText() → collect() and translate() → OpenAI Responses work in the bundle", () => {
    if (built.collected !== "streamed") throw new Error(`collected ${JSON.stringify(built.collected)}`);
    if (built.translated !== "completed: translated") throw new Error(`translated ${JSON.stringify(built.translated)}`);
    if (built.pageErrors.length) throw new Error(built.pageErrors.join("\n"));
  });
  await record("agentwire/lite, imported on demand, assembles the same bytes in the bundle", () => {
    if (built.lite !== "completed: Hello from Vite ⚡") throw new Error(`lite ${JSON.stringify(built.lite)}`);
  });

  // The dev server, with vite.config.js's optimizeDeps.exclude (the README's Vite recipe).
  const dev = await devServer(app, vite);
  try {
    const served = await open(context, dev.origin);
    await record("the dev server (`vite`, optimizeDeps.exclude) serves a working app", () => {
      if (!served.done || served.text !== "Hello from Vite ⚡" || served.lite !== "completed: Hello from Vite ⚡") {
        throw new Error(`dev: ${JSON.stringify(served)}`);
      }
    });
  } finally {
    await dev.stop();
  }

  // The same app with the package claiming `sideEffects: false`.
  const pkgJson = join(app, "node_modules/agentwire/package.json");
  const pkg = JSON.parse(readFileSync(pkgJson, "utf8"));
  await record(`the package's sideEffects lists its entries (${JSON.stringify(pkg.sideEffects)})`, () => {
    if (!Array.isArray(pkg.sideEffects) || !pkg.sideEffects.includes("./browser.js")) throw new Error("sideEffects");
  });
  writeFileSync(pkgJson, JSON.stringify({ ...pkg, sideEffects: false }, null, 2));
  sh(app, vite, ["build", "--outDir", "dist-no-side-effects", "--emptyOutDir"]);
  const treeShaken = await open(context, join(app, "dist-no-side-effects"));
  const broken = !treeShaken.done;
  console.log(`# with "sideEffects": false the bundle ${broken ? "BREAKS" : "still works"}: ${
    broken ? (treeShaken.error ?? treeShaken.pageErrors.join(" ")).split("\n")[0] : "same output"}`);
  await record("evidence: with sideEffects false, Vite drops the wasm initialisation and the app fails", () => {
    if (!broken) throw new Error("the sideEffects:false bundle works now: revisit the package's sideEffects list (and README)");
  });
} catch (e) {
  results.push({ name: "the Vite consumer runs", ok: false, error: e?.stack ?? String(e) });
} finally {
  await context?.close().catch(() => {});
  rmSync(app, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}
process.exitCode = report("vite", results) === 0 ? 0 : 1;
