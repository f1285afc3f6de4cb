// End-to-end test of the demo (`npm start`): starts `node www/serve.mjs` (workerd via miniflare)
// on a free 127.0.0.1 port with the installed package, drives the page in headless Chromium
// (Debian's, through playwright-core) and checks what a user sees:
//   - the answer renders incrementally (several distinct partial texts before the end, counted
//     by a MutationObserver on the turn's data-renders), then completes;
//   - the tool call shows its name, streamed arguments and result; the data part, the image
//     and the file link render; the inspector counts events, bytes, chunks, first token;
//   - a prompt with `<img src=x onerror=…>` comes back as text, never as an element;
//   - the failure scenario ends in an error state (AGENT_ERROR shown, role=alert);
//   - the unsafe-URL scenario shows `javascript:` URLs as inert text;
//   - the protocol switch: OpenAI Responses, AG-UI and A2A (each served by the worker's AgentApp)
//     render the same answer; the inspector shows the agent card;
//     AG-UI is offered exactly when the package supports it;
//   - Stop cancels the stream;
//   - with UPSTREAM_URL the worker proxies to a real Agent API server (the Node example) and
//     still translates.
// Saves test-results/demo.png (git-ignored). Usage: node tests/e2e/demo.mjs <project dir>
// (the packed package installed in it, examples/ copied, as scripts/test.sh prepares).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { resolveEntry } from "../js/runners/resolve.mjs";
import { checks, report } from "../js/runners/tap.mjs";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const project = process.argv[2];
if (!project) throw new Error("usage: demo.mjs <project dir>");
const pkgDir = join(project, "node_modules", "agentwire");
const { StreamAssembler } = await import(pathToFileURL(resolveEntry(project, "agentwire", ["node", "import", "default"])).href);
const SCREENSHOT = join(ROOT, "test-results", "demo.png");
const XSS = `What's the weather in Paris? <img src=x onerror="window.__xss=1">`;

const { results, check } = checks({ progress: true }); // progress on stderr, before the report
function ok(value, what) {
  if (!value) throw new Error(what);
}

/** Starts a process that prints an http://127.0.0.1:<port> URL; resolves with it and a stop(). */
function start(args, env, pattern) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => fail(new Error(`no URL within 60 s:\n${output}`)), 60_000);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    let started = false;
    const onData = (data) => {
      output += data;
      const m = started ? null : pattern.exec(output);
      if (!m) return;
      started = true;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolvePromise({
        url: m[1],
        log: () => output,
        stop: () => new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
          child.once("exit", (code) => done(code));
          child.kill("SIGINT");
        }),
      });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => { output += d; });
    child.once("exit", (code) => fail(new Error(`exited with ${code}:\n${output}`)));
    child.once("error", fail);
  });
}
const startDemo = (env = {}) => start(["www/serve.mjs"],
  { PORT: "0", DELAY_MS: "25", AGENTWIRE_PKG: pkgDir, ...env }, /agentwire demo on (http:\/\/127\.0\.0\.1:\d+)\//);

// ---- In the page ---------------------------------------------------------------------------

/** Sends `prompt` with the given switches; resolves with what the last turn looked like over time. */
async function run(page, { prompt, protocol = "agent-api", scenario = "weather", stopAfterRenders = 0 }) {
  await page.check(`input[name="protocol"][value="${protocol}"]`);
  await page.check(`input[name="scenario"][value="${scenario}"]`);
  await page.fill("#prompt", prompt);
  const before = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
  // Record every render of the new turn: its counter, state and the answer's text so far.
  await page.evaluate(() => {
    window.__trace = [];
    const observer = new MutationObserver(() => {
      const turn = document.querySelector("#transcript > li.agent:last-of-type");
      if (!turn) return;
      const last = window.__trace.at(-1);
      const entry = {
        renders: Number(turn.dataset.renders),
        state: turn.dataset.state,
        answer: turn.querySelector(".msg.answer .part.text")?.textContent ?? "",
      };
      if (!last || last.renders !== entry.renders || last.state !== entry.state) window.__trace.push(entry);
    });
    observer.observe(document.querySelector("#transcript"), { subtree: true, attributes: true, attributeFilter: ["data-renders", "data-state"], childList: true });
    window.__stopTrace = () => observer.disconnect();
  });
  await page.click("#send");
  if (stopAfterRenders > 0) {
    await page.waitForFunction((n) => Number(document.querySelector("#transcript > li.agent:last-of-type")?.dataset.renders) >= n,
      stopAfterRenders, { timeout: 20_000 });
    await page.click("#stop");
  }
  await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n, before, { timeout: 30_000 });
  return page.evaluate(() => {
    window.__stopTrace();
    const turn = document.querySelector("#transcript > li.agent:last-of-type");
    const text = (sel) => turn.querySelector(sel)?.textContent ?? null;
    const stat = (name) => document.querySelector(`[data-stat="${name}"]`).textContent;
    return {
      trace: window.__trace,
      state: turn.dataset.state,
      renders: Number(turn.dataset.renders),
      reasoning: text(".msg.reasoning"),
      answer: text(".msg.answer .part.text"),
      tool: text(".msg.tool-call .name"),
      args: text(".msg.tool-call .args"),
      output: text(".msg.tool-call .output"),
      tableRows: turn.querySelectorAll(".msg.answer table tbody tr").length,
      imageSrc: turn.querySelector(".msg.answer img")?.getAttribute("src") ?? null,
      link: turn.querySelector(".msg.answer a")?.getAttribute("href") ?? null,
      blocked: [...turn.querySelectorAll(".blocked")].map((b) => b.textContent),
      error: text(".error"),
      errorRole: turn.querySelector(".error")?.getAttribute("role") ?? null,
      userText: [...document.querySelectorAll("#transcript > li.user .text")].at(-1)?.textContent ?? null,
      stats: Object.fromEntries(["protocol", "outcome", "events", "bytes", "chunks", "renders", "ttft", "duration"].map((n) => [n, stat(n)])),
      rawEvents: [...document.querySelectorAll("#events li")].map((li) => li.textContent),
      dangerous: document.querySelectorAll('#transcript img[src="x"], #transcript [onerror], a[href^="javascript:" i], img[src^="javascript:" i]').length,
      xss: window.__xss ?? null,
    };
  });
}

/** Distinct non-empty partial answers seen while the turn was still streaming. */
function partials(trace) {
  return new Set(trace.filter((t) => t.state === "streaming" && t.answer !== "").map((t) => t.answer)).size;
}

// ---- The checks ----------------------------------------------------------------------------

const profile = mkdtempSync(join(tmpdir(), "agentwire-e2e-"));
const stagingDirs = () => readdirSync(tmpdir()).filter((f) => f.startsWith("agentwire-demo-"));
const stagedBefore = new Set(stagingDirs());
let demo, upstream, proxied, context;
try {
  demo = await startDemo();
  results.push({ name: `the demo starts and prints its URL (${demo.url})`, ok: true });

  await check("GET / serves the page; GET /info lists the protocols", async () => {
    const page = await fetch(`${demo.url}/`);
    ok(page.ok && (await page.text()).includes('id="transcript"'), "the page");
    const info = await (await fetch(`${demo.url}/info`)).json();
    ok(["agent-api", "openai-responses", "a2a"].every((p) => info.protocols.includes(p)), JSON.stringify(info));
    ok(info.upstream === null, "no upstream");
  });
  await check("the worker is an AgentApp: the A2A card for both versions, /health", async () => {
    const card = await (await fetch(`${demo.url}/.well-known/agent-card.json`)).json();
    ok(card.name === "agentwire demo", card.name);
    ok(JSON.stringify(card.supportedInterfaces.map((i) => i.protocolVersion)) === '["1.0","0.3"]', JSON.stringify(card.supportedInterfaces));
    ok(card.supportedInterfaces[0].url === `${demo.url}/a2a`, card.supportedInterfaces[0].url);
    ok((await (await fetch(`${demo.url}/health`)).json()).status === "healthy", "health");
  });
  await check("POST /process rejects a malformed request with 400 and a coded error", async () => {
    const res = await fetch(`${demo.url}/process`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    ok(res.status === 400, `status ${res.status}`);
    ok((await res.json()).error.code === "INVALID_JSON", "code");
  });

  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    timeout: 60_000,
    viewport: { width: 1280, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.stack ?? String(e)));
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });
  // The page must never reach out: only the demo's own origin and data: URLs.
  const foreign = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(demo.url) || url.startsWith("data:")) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  await page.goto(`${demo.url}/`, { timeout: 30_000 });
  await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 30_000 });

  await check("AG-UI is offered exactly when the package assembles and translates it", async () => {
    const state = await page.evaluate(async () => {
      const { StreamAssembler, Translator } = await import("agentwire");
      let supported = true;
      try {
        new StreamAssembler({ protocol: "ag-ui" }).free();
        new Translator({ from: "agent-api", to: "ag-ui" }).free();
      } catch {
        supported = false;
      }
      return { supported, disabled: document.querySelector('input[value="ag-ui"]').disabled, note: document.querySelector("#ag-ui-note").textContent };
    });
    ok(state.disabled === !state.supported, JSON.stringify(state));
    ok(state.supported || state.note.includes("not in this build"), JSON.stringify(state));
  });

  const weather = await run(page, { prompt: XSS });
  await check("Agent API: the answer renders incrementally, then completes", () => {
    ok(weather.state === "completed", `state ${weather.state} (${weather.error})`);
    ok(partials(weather.trace) >= 5, `distinct partial answers before the end: ${partials(weather.trace)} (${JSON.stringify(weather.trace.slice(0, 8))}…)`);
    ok(weather.renders >= 10, `renders ${weather.renders}`);
    ok(weather.answer.includes("Right now it is") && weather.answer.endsWith("The forecast table and a chart follow."), weather.answer);
  });
  await check("Agent API: reasoning, tool call with arguments and result, table, image, file link", () => {
    ok(weather.reasoning?.includes("I should look up the weather in Paris"), weather.reasoning);
    ok(weather.tool === "get_weather", weather.tool);
    ok(JSON.parse(weather.args).city === "Paris", weather.args);
    ok(JSON.parse(weather.output).days.length === 3, weather.output);
    ok(weather.tableRows === 3, `table rows ${weather.tableRows}`);
    ok(weather.imageSrc?.startsWith("data:image/svg+xml"), weather.imageSrc);
    ok(weather.link === "https://example.com/forecast/Paris.csv", weather.link);
  });
  await check("markup in a message renders as text, never as an element", () => {
    ok(weather.userText === XSS, weather.userText);
    ok(weather.answer.includes(`<img src=x onerror="window.__xss=1">`), weather.answer);
    ok(weather.reasoning.includes("<img src=x"), weather.reasoning);
    ok(weather.dangerous === 0 && weather.xss === null, `dangerous elements ${weather.dangerous}, __xss ${weather.xss}`);
  });
  await check("the inspector shows events, bytes, chunks, first token, duration, outcome", () => {
    const s = weather.stats;
    ok(s.protocol === "agent-api" && s.outcome === "completed", JSON.stringify(s));
    ok(Number(s.events) > 50 && Number(s.bytes) > 10_000 && Number(s.chunks) > 10, JSON.stringify(s));
    ok(/^\d+ ms$/.test(s.ttft) && /^\d+ ms$/.test(s.duration), JSON.stringify(s));
    ok(Number(s.renders) === weather.renders, JSON.stringify(s));
    ok(weather.rawEvents.length === Number(s.events) && weather.rawEvents[0].includes('"status":"created"'), weather.rawEvents[0]);
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });

  const failed = await run(page, { prompt: "Weather in Oslo?", scenario: "fail" });
  await check("failure scenario: the stream fails mid-answer and the turn shows an error", () => {
    ok(failed.state === "failed", `state ${failed.state}`);
    ok(failed.errorRole === "alert" && failed.error.includes("AGENT_ERROR") && failed.error.includes("simulated failure"), failed.error);
    ok(failed.answer.startsWith("You asked:") && !failed.answer.includes("forecast table"), failed.answer);
    ok(partials(failed.trace) >= 3, `partials ${partials(failed.trace)}`);
    ok(failed.stats.outcome === "failed", failed.stats.outcome);
  });

  const unsafe = await run(page, { prompt: "Weather in Lima?", scenario: "unsafe" });
  await check("unsafe URLs: javascript: image and file URLs are shown as inert text", () => {
    ok(unsafe.state === "completed", unsafe.state);
    ok(unsafe.imageSrc === null && unsafe.link === null, `${unsafe.imageSrc} ${unsafe.link}`);
    ok(unsafe.blocked.length === 2 && unsafe.blocked.every((b) => b.includes("javascript:alert(")), JSON.stringify(unsafe.blocked));
    ok(unsafe.dangerous === 0, `dangerous ${unsafe.dangerous}`);
  });

  const responses = await run(page, { prompt: "What's the weather in Paris?", protocol: "openai-responses" });
  await check("protocol switch: OpenAI Responses renders the same answer", () => {
    ok(responses.state === "completed", `state ${responses.state} (${responses.error})`);
    ok(responses.stats.protocol === "openai-responses", responses.stats.protocol);
    ok(responses.rawEvents.some((e) => e.startsWith("response.output_text.delta")), responses.rawEvents.slice(0, 3).join("\n"));
    ok(responses.answer === weather.answer.replace(XSS, "What's the weather in Paris?"), responses.answer);
    ok(responses.tool === "get_weather" && JSON.parse(responses.args).city === "Paris", `${responses.tool} ${responses.args}`);
    ok(partials(responses.trace) >= 5, `partials ${partials(responses.trace)}`);
  });

  if (!(await page.isDisabled('input[value="ag-ui"]'))) {
    const agui = await run(page, { prompt: "What's the weather in Paris?", protocol: "ag-ui" });
    await check("protocol switch: AG-UI renders the same answer, table, chart and file", () => {
      ok(agui.state === "completed", `state ${agui.state} (${agui.error})`);
      ok(agui.answer === responses.answer, agui.answer);
      ok(agui.tool === "get_weather" && JSON.parse(agui.args).city === "Paris", `${agui.tool} ${agui.args}`);
      ok(agui.reasoning?.includes("What's the weather in Paris?"), agui.reasoning);
      ok(agui.tableRows === 3, `table rows ${agui.tableRows}`);
      ok(agui.imageSrc?.startsWith("data:image/svg+xml"), agui.imageSrc);
      ok(agui.link === "https://example.com/forecast/Paris.csv", agui.link);
    });
  }

  const a2a = await run(page, { prompt: "What's the weather in Paris?", protocol: "a2a" });
  await check("protocol switch: A2A renders the same answer; the inspector shows the agent card", async () => {
    ok(a2a.state === "completed", `state ${a2a.state} (${a2a.error})`);
    ok(a2a.stats.protocol === "a2a", a2a.stats.protocol);
    ok(a2a.answer === responses.answer, a2a.answer);
    ok(a2a.tool === "get_weather" && JSON.parse(a2a.args).city === "Paris", `${a2a.tool} ${a2a.args}`);
    const card = await page.textContent("#agent-card");
    ok(card.includes('"supportedInterfaces"') && card.includes('"agentwire demo"'), card.slice(0, 200));
  });

  const stopped = await run(page, { prompt: "Weather in Rome?", stopAfterRenders: 3 });
  await check("Stop cancels the stream", () => {
    ok(stopped.state === "canceled", stopped.state);
    ok(stopped.error === "Stopped by you.", stopped.error);
  });

  await check("no page errors, no request outside the demo's origin", () => {
    ok(pageErrors.length === 0, pageErrors.join("\n"));
    ok(foreign.length === 0, foreign.join("\n"));
  });

  // UPSTREAM_URL: the Node example server as the real Agent API upstream.
  upstream = await start([join(project, "examples/node/server.mjs")], { PORT: "0", DELAY_MS: "5" }, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  proxied = await startDemo({ UPSTREAM_URL: `${upstream.url}/process` });
  const body = JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }] });
  for (const protocol of ["agent-api", "openai-responses"]) {
    await check(`UPSTREAM_URL: /process proxies to the upstream server (${protocol})`, async () => {
      const info = await (await fetch(`${proxied.url}/info`)).json();
      ok(info.upstream === `${upstream.url}/process`, JSON.stringify(info));
      const res = await fetch(`${proxied.url}/process?protocol=${protocol}`, { method: "POST", body, headers: { "content-type": "application/json" } });
      ok(res.ok && res.headers.get("x-agentwire-source") === "upstream", `${res.status} ${res.headers.get("x-agentwire-source")}`);
      const asm = new StreamAssembler({ protocol });
      for await (const chunk of res.body) asm.push(chunk);
      asm.finish();
      const answer = asm.snapshot().output.filter((m) => m.type === "message").flatMap((m) => m.content.map((c) => c.text)).join("");
      ok(asm.outcome === "completed", asm.outcome);
      ok(answer === "It is sunny in Hangzhou, 25 °C ☀️.", answer);
      asm.free();
    });
  }
} catch (e) {
  results.push({ name: "the demo runs", ok: false, error: e?.stack ?? String(e) });
} finally {
  await context?.close().catch(() => {});
  for (const server of [demo, proxied, upstream]) {
    if (!server) continue;
    const code = await server.stop();
    if (server !== demo) continue;
    await check("Ctrl-C (SIGINT) stops the demo: workerd gone, staging folder removed", async () => {
      ok(code === 130, `exit code ${code} (130 is SIGINT's)\n${server.log()}`);
      ok(server.log().includes("[demo] stopped"), server.log());
      const left = await fetch(`${demo.url}/info`).then(() => "still answering", () => null);
      ok(left === null, `${demo.url}: ${left}`);
      const leftovers = stagingDirs().filter((d) => !stagedBefore.has(d));
      ok(leftovers.length <= 1, `staging folders left: ${leftovers}`); // the proxied demo may still be exiting
    });
  }
  rmSync(profile, { recursive: true, force: true });
}
results.push({ name: `screenshot saved to ${SCREENSHOT}`, ok: true });
process.exitCode = report("e2e", results) === 0 ? 0 : 1;
