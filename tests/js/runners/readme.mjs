// Runs the examples of the package README (the copy shipped in the tarball), each in its runtime:
// the blocks after a `<!-- tested: NAME -->` line are extracted and run as they are written,
// except that the Deno server's port 8787 becomes a free one.
//   browser      the HTML page, served with the package and a POST /process, in headless Chromium
//   node         the quick start, with node
//   protocols    serving and reading AG-UI, OpenAI Responses and A2A, with node
//   a2a          an A2A JSON-RPC endpoint of both versions, exercised in-process, with node
//   app          AgentApp on node:http (port 8080 becomes a free one), read on /process,
//                the Responses route and the agent card
//   deno         the server, with deno run --allow-net --allow-read
//   worker       the Worker, in workerd (miniflare), as Agent API and as OpenAI Responses
//   vite-config  must be the config tests/vite/ builds and serves with
// Usage: node tests/js/runners/readme.mjs <project dir> (agentwire installed in it).
// AGENTWIRE_DENO: the deno binary (the Deno example is skipped without it).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize, relative } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Miniflare } from "miniflare";
import { chromium } from "playwright-core";
import { resolveEntry } from "./resolve.mjs";
import { checks, report } from "./tap.mjs";

const project = process.argv[2];
if (!project) throw new Error("usage: readme.mjs <project dir>");
const pkgDir = join(project, "node_modules", "agentwire");
const { ResponseBuilder, StreamAssembler } = await import(pathToFileURL(resolveEntry(project, "agentwire", ["node", "import", "default"])).href);
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
const blocks = Object.fromEntries([...readme.matchAll(/<!-- tested: (\S+) -->\n```\w+\n([\s\S]*?)\n```/g)].map((m) => [m[1], m[2]]));

const { results, check } = checks();
function equal(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}
/** The text of an Agent API or OpenAI Responses snapshot's messages. */
const textOf = (snapshot) => snapshot.output.filter((m) => m.type === "message")
  .flatMap((m) => m.content.map((c) => c.text)).join("");

await check("the README has the eight tested examples", () => {
  equal(Object.keys(blocks).sort().join(), "a2a,app,browser,deno,node,protocols,vite-config,worker", "tested blocks");
});

await check("README AgentApp example serves the Agent API, OpenAI Responses and the A2A card", async () => {
  const port = await freePort();
  const file = join(project, "readme-app.mjs");
  writeFileSync(file, blocks.app.replace("listen(8080", `listen(${port}`));
  const child = spawn(process.execPath, [file], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => { stderr += d; });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/health`)).ok) break;
      } catch {
        if (i > 200) throw new Error(`the app did not listen: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const body = JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "meaning?" }] }] });
    const snapshot = await StreamAssembler.collect(await fetch(`${base}/process`, { method: "POST", headers: { "content-type": "application/json" }, body }));
    equal(textOf(snapshot), "The answer is 42.", "/process text");
    const response = await (await fetch(`${base}/compatible-mode/v1/responses`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", input: "meaning?" }) })).json();
    equal(response.output.find((i) => i.type === "function_call").arguments, '{"query":"meaning?"}', "Responses arguments");
    equal(textOf(response), "The answer is 42.", "Responses text");
    equal((await (await fetch(`${base}/.well-known/agent-card.json`)).json()).name, "Friday", "card");
  } finally {
    child.kill();
  }
});

await check("README A2A example answers 1.0 and 0.3 requests and refuses a 1.0 method without its header", () => {
  const file = join(project, "readme-a2a.mjs");
  writeFileSync(file, blocks.a2a);
  const r = spawnSync(process.execPath, [file], { cwd: project, encoding: "utf8", timeout: 30_000 });
  equal(r.stdout.trim(), "TASK_STATE_COMPLETED\nYou said: hello\n-32009", `stdout (stderr: ${r.stderr})`);
});

await check("README protocols example serves and reads AG-UI, OpenAI Responses and A2A", () => {
  const file = join(project, "readme-protocols.mjs");
  writeFileSync(file, blocks.protocols);
  const r = spawnSync(process.execPath, [file], { cwd: project, encoding: "utf8", timeout: 30_000 });
  equal(r.stdout.trim(), "Hi\nHi\nHi", `stdout (stderr: ${r.stderr})`);
});

await check("README node example prints the assembled text", () => {
  const file = join(project, "readme-node.mjs");
  writeFileSync(file, blocks.node);
  const r = spawnSync(process.execPath, [file], { cwd: project, encoding: "utf8", timeout: 30_000 });
  equal(r.stdout.trim(), "completed Hello, world", `stdout (stderr: ${r.stderr})`);
});

await check("README deno example serves a stream", async () => {
  const deno = process.env.AGENTWIRE_DENO;
  if (!deno) throw new Error("AGENTWIRE_DENO is not set");
  const port = await freePort();
  const file = join(project, "readme-deno.js");
  writeFileSync(file, blocks.deno.replace("port: 8787", `port: ${port}`));
  const child = spawn(deno, ["run", "--allow-net", "--allow-read", "--allow-env", file],
    { cwd: project, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" } });
  try {
    let output = "";
    await new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`deno did not listen:\n${output}`)), 60_000);
      const onData = (d) => {
        output += d;
        if (output.includes(`:${port}`)) { clearTimeout(timer); ok(); }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.once("exit", (code) => { clearTimeout(timer); fail(new Error(`deno exited with ${code}:\n${output}`)); });
    });
    const snapshot = await StreamAssembler.collect(await fetch(`http://127.0.0.1:${port}/`));
    equal(textOf(snapshot), "Hello from Deno", "text");
  } finally {
    child.removeAllListeners("exit");
    child.kill("SIGTERM");
  }
});

await check("README worker example runs in workerd, in both protocols", async () => {
  const esm = (path, contents) => ({ type: "ESModule", path: join(project, path), contents });
  const mf = new Miniflare({
    compatibilityDate: "2025-09-01",
    modulesRoot: project,
    modules: [
      esm("readme/worker.js", blocks.worker),
      // What wrangler does for "agentwire": the package's workerd entry (resolved beside the worker).
      esm("readme/agentwire", `export * from "../${relative(project, resolveEntry(project, "agentwire", ["workerd"]))}";`),
      ...readdirSync(pkgDir).filter((f) => f.endsWith(".js")).map((f) => esm(relative(project, join(pkgDir, f)), readFileSync(join(pkgDir, f), "utf8"))),
      { type: "CompiledWasm", path: join(pkgDir, "agentwire_bg.wasm"), contents: readFileSync(join(pkgDir, "agentwire_bg.wasm")) },
    ],
  });
  try {
    for (const protocol of ["agent-api", "openai-responses"]) {
      const res = await mf.dispatchFetch(`http://example.test/?protocol=${protocol}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const asm = new StreamAssembler();
      asm.push(bytes);
      asm.finish();
      equal(asm.protocol, protocol, "detected protocol");
      equal(textOf(asm.snapshot()), "Hello from Workers", `${protocol} text`);
      asm.free();
    }
  } finally {
    await mf.dispose();
  }
});

await check("README browser example renders each message and part, reasoning apart, in Chromium", async () => {
  const TYPES = { ".js": "text/javascript", ".wasm": "application/wasm" };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (path === "/") return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">\n${blocks.browser}`);
    if (path === "/process" && req.method === "POST") {
      res.writeHead(200, { "content-type": ResponseBuilder.contentType("sse") });
      const body = ResponseBuilder.stream(async (rb) => {
        const thinking = rb.message({ type: "reasoning" }).content("text");
        thinking.delta("Thinking");
        thinking.delta("…");
        await rb.ready();
        const call = rb.toolCall({ name: "lookup", callId: "c1" });
        call.arguments('{"q":');
        call.arguments('"x"}');
        call.complete();
        const answer = rb.message().content("text");
        for (const token of ["Hello", " browser", " <b>not bold</b>"]) {
          answer.delta(token);
          await rb.ready();
        }
      });
      return Readable.fromWeb(body).pipe(res);
    }
    const file = normalize(join(project, decodeURIComponent(path)));
    if (!file.startsWith(join(project, "node_modules"))) return res.writeHead(404).end();
    try {
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const profile = mkdtempSync(join(tmpdir(), "agentwire-readme-"));
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
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.getElementById("outcome")?.textContent !== "", null, { timeout: 20_000 })
      .catch(() => {});
    const state = await page.evaluate(() => ({
      bubbles: [...document.querySelectorAll("#chat > div")].map((d) => [d.className, [...d.children].map((c) => c.textContent)]),
      bold: document.querySelectorAll("#chat b").length,
      outcome: document.getElementById("outcome").textContent,
    }));
    equal(JSON.stringify(state.bubbles), JSON.stringify([
      ["message reasoning", ["Thinking…"]],
      ["message function_call", ['{"call_id":"c1","name":"lookup","arguments":"{\\"q\\":\\"x\\"}"}']],
      ["message message", ["Hello browser <b>not bold</b>"]],
    ]), `messages and parts (page errors: ${errors.join("; ")})`);
    equal(state.bold, 0, "elements made from the text");
    equal(state.outcome, "completed", "outcome");
  } finally {
    await context?.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

await check("README vite config is the one tests/vite/ runs with", () => {
  const code = (text) => text.split("\n").filter((l) => !l.trim().startsWith("//")).join("\n").trim();
  equal(code(blocks["vite-config"]), code(readFileSync(join(ROOT, "tests/vite/vite.config.js"), "utf8")), "vite.config.js");
});

function freePort() {
  const server = createServer();
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => ok(port));
  }));
}

process.exitCode = report("readme", results) === 0 ? 0 : 1;
