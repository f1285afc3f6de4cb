// The example handlers in real runtimes: starts examples/node/server.mjs (node:http),
// examples/deno/server.ts (Deno.serve) and examples/worker/worker.js (workerd via miniflare),
// each on 127.0.0.1 with the installed package, and checks over HTTP that:
//   - OPTIONS answers the CORS preflight; every answer carries access-control-allow-origin;
//   - a malformed request gets 400 with {"error": {code, message, field}}, never a stream;
//   - POST /process streams: the first event arrives while the agent is still running (its
//     step counter, read from GET /_stats right then, is below the script's total, and the
//     run is not completed), and the body assembles to the expected messages;
//   - an exception in the agent ends the stream with a failed event (AGENT_ERROR);
//   - cancelling the read stops the agent: its `aborted` counter rises and `steps` stops.
// Usage: node tests/js/runners/handlers.mjs <project dir> (examples/ copied into it, agentwire
// installed). AGENTWIRE_DENO: the deno binary (the Deno server is skipped without it).
import { spawn } from "node:child_process";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { readdirSync } from "node:fs";
import { Miniflare } from "miniflare";
import { resolveEntry } from "./resolve.mjs";
import { checks, report } from "./tap.mjs";

const project = process.argv[2];
if (!project) throw new Error("usage: handlers.mjs <project dir>");
const { StreamAssembler } = await import(pathToFileURL(resolveEntry(project, "agentwire", ["node", "import", "default"])).href);
const DELAY_MS = 30;
// The scripted agent's steps (examples/shared/agent.js): 3 thinking pieces, 3 argument pieces,
// the tool output, 5 answer tokens.
const TOTAL_STEPS = 12;
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

const { results, check } = checks();
function expect(actual, expected, what) {
  const a = JSON.stringify(actual), b = JSON.stringify(expected);
  if (a !== b) throw new Error(`${what}: got ${a}, expected ${b}`);
}
function ok(value, what) {
  if (!value) throw new Error(what);
}

/** Spawns a server that prints "listening on <url>"; resolves with its url and a stop(). */
function startProcess(command, args, env) {
  const child = spawn(command, args, { cwd: project, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no "listening on" line within 30 s:\n${output}`)), 30_000);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    const onData = (data) => {
      output += data;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          log: () => output,
          stop: () => new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", done);
            child.kill("SIGTERM");
          }),
        });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => { output += d; });
    child.once("exit", (code) => fail(new Error(`exited with ${code}:\n${output}`)));
    child.once("error", fail);
  });
}

async function startWorkerd() {
  const entry = resolveEntry(project, "agentwire", ["workerd", "worker", "browser", "import", "default"]);
  const pkgDir = join(project, "node_modules", "agentwire");
  const esm = (path, contents) => ({ type: "ESModule", path, ...(contents === undefined ? {} : { contents }) });
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    compatibilityDate: "2025-09-01",
    modulesRoot: project,
    modules: [
      esm(join(project, "examples/worker/worker.js")),
      esm(join(project, "examples/shared/handler.js")),
      esm(join(project, "examples/shared/agent.js")),
      // What wrangler's bundler does for `import ... from "agentwire"`: the package's workerd
      // entry. workerd resolves a bare specifier next to the importing module, so the shim
      // sits beside handler.js.
      esm(join(project, "examples/shared/agentwire"), `export * from "../../${relative(project, entry)}";`),
      ...readdirSync(pkgDir).filter((f) => f.endsWith(".js")).map((f) => esm(join(pkgDir, f))),
      { type: "CompiledWasm", path: join(pkgDir, "agentwire_bg.wasm") },
    ],
    bindings: { EXPOSE_STATS: "1", DELAY_MS: String(DELAY_MS) },
  });
  try {
    const url = (await mf.ready).origin;
    return { url, log: () => "", stop: () => mf.dispose() };
  } catch (e) {
    await mf.dispose().catch(() => {});
    throw e;
  }
}

const REQUEST = {
  input: [{ role: "user", content: [{ type: "text", text: "What is the weather in Hangzhou?" }] }],
  session_id: "s1",
  id: "req-1",
};

async function stats(url) {
  const res = await fetch(`${url}/_stats`);
  return res.json();
}

function post(url, body, init = {}) {
  return fetch(`${url}/process`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", origin: "http://example.test" },
    body: typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body),
    ...init,
  });
}

async function checkServer(runtime, server) {
  const { url } = server;
  const name = (what) => `${runtime}: ${what}`;

  await check(name("OPTIONS /process answers the CORS preflight"), async () => {
    const res = await fetch(`${url}/process`, {
      method: "OPTIONS",
      headers: { origin: "http://example.test", "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization" },
    });
    expect(res.status, 204, "status");
    expect(res.headers.get("access-control-allow-origin"), "*", "allow-origin");
    ok(/\bPOST\b/.test(res.headers.get("access-control-allow-methods") ?? ""), "allow-methods has POST");
    ok(/content-type/.test(res.headers.get("access-control-allow-headers") ?? ""), "allow-headers has content-type");
    ok(Number(res.headers.get("access-control-max-age")) > 0, "max-age");
    await res.arrayBuffer();
  });

  await check(name("malformed requests get 400 with a JSON error naming the field"), async () => {
    const cases = [
      ["{", { code: "INVALID_JSON", field: null }],
      ['{"stream":true}', { code: "INVALID_REQUEST", field: "input" }],
      ['{"input":[],"n":9}', { code: "INVALID_REQUEST", field: "n" }],
      ['{"input":[{"role":"bot","content":[]}]}', { code: "INVALID_REQUEST", field: "input.0.role" }],
      [new Uint8Array([0x7b, 0xff, 0x7d]), { code: "INVALID_UTF8", field: null }],
    ];
    for (const [body, want] of cases) {
      const res = await post(url, body);
      expect(res.status, 400, `status for ${String(body)}`);
      ok((res.headers.get("content-type") ?? "").startsWith("application/json"), "content-type json");
      expect(res.headers.get("access-control-allow-origin"), "*", "allow-origin on the 400");
      const { error } = await res.json();
      expect({ code: error.code, field: error.field }, want, `error for ${String(body)}`);
      ok(typeof error.message === "string" && error.message.length > 0, "a message");
    }
    const get = await fetch(`${url}/process`);
    expect(get.status, 405, "GET /process");
    await get.arrayBuffer();
  });

  await check(name("POST /process streams: the first event arrives while the agent runs, and it all assembles"), async () => {
    const before = await stats(url);
    const t0 = performance.now();
    const res = await post(url, REQUEST);
    expect(res.status, 200, "status");
    expect(res.headers.get("content-type"), "text/event-stream; charset=utf-8", "content-type");
    expect(res.headers.get("cache-control"), "no-cache", "cache-control");
    expect(res.headers.get("access-control-allow-origin"), "*", "allow-origin");
    const reader = res.body.getReader();
    const asm = new StreamAssembler({ strict: true });
    const first = await reader.read();
    const tFirst = performance.now();
    ok(!first.done && first.value.byteLength > 0, "a first chunk");
    asm.push(first.value);
    // Proof of streaming: the server has not finished the script when the first bytes arrive.
    const during = await stats(url);
    ok(during.steps - before.steps < TOTAL_STEPS, `the agent had run ${during.steps - before.steps} of ${TOTAL_STEPS} steps`);
    expect(during.completed, before.completed, "no run completed yet");
    let chunks = 1;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      asm.push(value);
    }
    const tEnd = performance.now();
    asm.finish();
    const snap = asm.snapshot();
    asm.free();
    ok(tEnd - tFirst > (TOTAL_STEPS - 3) * DELAY_MS,
      `the body was spread over time: first chunk after ${Math.round(tFirst - t0)} ms, end after ${Math.round(tEnd - t0)} ms`);
    ok(chunks >= TOTAL_STEPS, `${chunks} chunks`);
    expect([snap.outcome, snap.id, snap.session_id, snap.warnings.length], ["completed", "req-1", "s1", 0], "run");
    expect(snap.output.map((m) => [m.type, m.role]), [["reasoning", "assistant"], ["function_call", "assistant"],
      ["function_call_output", "tool"], ["message", "assistant"]], "messages");
    expect(snap.output[0].content[0].text, 'The user asks: "What is the weather in Hangzhou?". I should look up the weather.', "reasoning");
    expect(snap.output[1].content[0].data, { call_id: "call_1", name: "get_weather", arguments: '{"city": "Hangzhou"}' }, "tool call");
    expect(JSON.parse(snap.output[2].content[0].data.output), { city: "Hangzhou", sky: "sunny", celsius: 25 }, "tool output");
    expect(snap.output[3].content[0].text, "It is sunny in Hangzhou, 25 °C ☀️.", "answer");
    const after = await stats(url);
    expect([after.completed - before.completed, after.steps - before.steps], [1, TOTAL_STEPS], "the run completed");
  });

  await check(name("an exception in the agent ends the stream with a failed event (AGENT_ERROR)"), async () => {
    const res = await post(url, { input: [{ role: "user", content: [{ type: "text", text: "weather #fail" }] }] });
    expect(res.status, 200, "status");
    const snap = await StreamAssembler.collect(res);
    expect([snap.outcome, snap.error], ["failed", { code: "AGENT_ERROR", message: "The weather service is unavailable." }], "outcome");
    expect(snap.output.map((m) => m.type), ["reasoning", "function_call"], "messages before the failure");
    ok(typeof snap.session_id === "string" && snap.session_id.length > 0, "a generated session id");
  });

  // Node and Deno cancel the response body when the client goes away: the agent's signal
  // aborts (its `aborted` counter rises) and its next call throws. workerd instead cancels the
  // request's pending work (the agent's timers never fire again) without calling the body's
  // cancel(); either way the steps must stop and no run may complete.
  const signalFires = runtime !== "workerd";
  await check(name(`cancelling the read stops the agent${signalFires ? " (its AbortSignal fires)" : ""}`), async () => {
    const before = await stats(url);
    const res = await post(url, REQUEST);
    const reader = res.body.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    let now = before;
    const deadline = performance.now() + 5000;
    if (signalFires) {
      while (now.aborted === before.aborted && performance.now() < deadline) {
        await sleep(25);
        now = await stats(url);
      }
      expect(now.aborted - before.aborted, 1, "aborted runs");
    }
    // Steady: no step within 8 delays.
    let settled = (await stats(url)).steps;
    for (;;) {
      await sleep(8 * DELAY_MS);
      now = await stats(url);
      if (now.steps === settled) break;
      ok(performance.now() < deadline, `the agent kept going: ${JSON.stringify(now)}`);
      settled = now.steps;
    }
    ok(now.steps - before.steps < TOTAL_STEPS, `the agent stopped after ${now.steps - before.steps} steps`);
    expect([now.completed, now.failed], [before.completed, before.failed], "completed and failed runs");
  });
}

const servers = [
  ["node", () => startProcess(process.execPath, ["examples/node/server.mjs"],
    { PORT: "0", EXPOSE_STATS: "1", DELAY_MS: String(DELAY_MS) })],
  ["deno", () => startProcess(process.env.AGENTWIRE_DENO, ["run", "--allow-net", "--allow-read", "--allow-env",
    "examples/deno/server.ts"], { PORT: "0", EXPOSE_STATS: "1", DELAY_MS: String(DELAY_MS), NO_COLOR: "1",
    DENO_NO_UPDATE_CHECK: "1" })],
  ["workerd", startWorkerd],
];
for (const [runtime, start] of servers) {
  if (runtime === "deno" && !process.env.AGENTWIRE_DENO) {
    results.push({ name: "deno: skipped (AGENTWIRE_DENO is not set)", ok: false, error: "set AGENTWIRE_DENO" });
    continue;
  }
  let server;
  try {
    server = await start();
  } catch (e) {
    results.push({ name: `${runtime}: the server starts`, ok: false, error: e?.stack ?? String(e) });
    continue;
  }
  const failedBefore = results.filter((r) => !r.ok).length;
  try {
    await checkServer(runtime, server);
  } finally {
    await server.stop();
  }
  if (results.filter((r) => !r.ok).length > failedBefore && server.log()) {
    console.log(`# ${runtime} server output:\n# ${server.log().trim().split("\n").join("\n# ")}`);
  }
}
process.exitCode = report("handlers", results) === 0 ? 0 : 1;
