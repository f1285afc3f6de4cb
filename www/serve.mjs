// `npm start`: runs the demo worker (www/worker.js) in workerd, through miniflare, on 127.0.0.1.
// The page (www/public/) and the package's browser files (under /agentwire/) are the worker's
// static assets, as `[assets]` would serve them on Cloudflare; the worker imports the package
// through its `workerd` entry. Runs until Ctrl-C (SIGINT) or SIGTERM, which stop workerd and
// remove the staging folder of the assets.
//
//   PORT=8787            the port (0: any free port); the URL is printed once ready
//   UPSTREAM_URL=…       proxy POST /process to a real Agent API endpoint instead of the
//                        scripted agent (e.g. http://127.0.0.1:8090/process)
//   DELAY_MS=45          the scripted agent's pause per word
//   AGENTWIRE_PKG=dir    the package folder to use (default: pkg/, built by `npm run build`)
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const PKG = resolve(process.env.AGENTWIRE_PKG ?? join(ROOT, "pkg"));
const PORT = Number(process.env.PORT ?? 8787);

if (!existsSync(join(PKG, "workerd.js")) || !existsSync(join(PKG, "agentwire_bg.wasm"))) {
  console.error(`[demo] no built package in ${PKG}: run \`npm start\` (or \`npm run build\` first).`);
  process.exit(1);
}
const pkgFiles = readdirSync(PKG).filter((f) => f.endsWith(".js"));

// The static assets: the page, plus the package under /agentwire/ (the page's import map
// points "agentwire" at /agentwire/browser.js, which fetches agentwire_bg.wasm beside it).
const assets = mkdtempSync(join(tmpdir(), "agentwire-demo-"));
for (const f of readdirSync(join(ROOT, "www/public"))) copyFileSync(join(ROOT, "www/public", f), join(assets, f));
mkdirSync(join(assets, "agentwire"));
for (const f of [...pkgFiles, "agentwire_bg.wasm"]) copyFileSync(join(PKG, f), join(assets, "agentwire", f));

// The worker's modules. workerd resolves the bare "agentwire" next to the importing module, so
// a one-line module www/agentwire re-exports the package's workerd entry (what wrangler's
// bundler does through the `workerd` export condition).
const esm = (path, contents) => ({ type: "ESModule", path: join(ROOT, path), contents: contents ?? readFileSync(join(ROOT, path), "utf8") });
const modules = [
  esm("www/worker.js"),
  esm("www/agent.js"),
  esm("examples/shared/agent.js"),
  esm("www/agentwire", 'export * from "./.agentwire/workerd.js";'),
  ...pkgFiles.map((f) => esm(`www/.agentwire/${f}`, readFileSync(join(PKG, f), "utf8"))),
  { type: "CompiledWasm", path: join(ROOT, "www/.agentwire/agentwire_bg.wasm"), contents: readFileSync(join(PKG, "agentwire_bg.wasm")) },
];

const bindings = {};
if (process.env.UPSTREAM_URL) bindings.UPSTREAM_URL = process.env.UPSTREAM_URL;
if (process.env.DELAY_MS) bindings.DELAY_MS = process.env.DELAY_MS;

const mf = new Miniflare({
  host: "127.0.0.1",
  port: PORT,
  compatibilityDate: "2025-09-01",
  modulesRoot: ROOT,
  modules,
  assets: { directory: assets, routerConfig: { has_user_worker: true } },
  bindings,
});

// Ctrl-C / SIGTERM: miniflare's own exit hook stops workerd and exits (130 / 143, the shell's
// convention for a signal); the staging folder goes with the process.
process.on("exit", () => {
  rmSync(assets, { recursive: true, force: true });
  console.log("[demo] stopped");
});

try {
  const url = await mf.ready;
  console.log(`[demo] agentwire demo on ${url.origin}/ (workerd via miniflare; Ctrl-C to stop)`);
  console.log(process.env.UPSTREAM_URL
    ? `[demo] POST /process proxies to ${process.env.UPSTREAM_URL}`
    : "[demo] POST /process streams from the built-in scripted agent");
} catch (error) {
  console.error(`[demo] could not start workerd on 127.0.0.1:${PORT}: ${error?.message ?? error}`
    + (PORT !== 0 ? " (is the port in use? try PORT=0 for any free port)" : ""));
  await mf.dispose().catch(() => {});
  process.exit(1);
}
