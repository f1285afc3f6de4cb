// Runs every case of tests/hostile-cases.mjs against the installed package, each in its own Node
// process: a case that traps the wasm instance or crashes the process is a failure of that case,
// not of the suite. After each case, the same process checks that agentwire still works (a new
// StreamAssembler assembles a run, a ResponseBuilder emits one). Each case runs a second time
// with every StreamAssembler twinned (tests/general-path-twin.mjs): a twin with the fast reader
// of content deltas off must give the same results. Prints TAP.
//   node tests/js/runners/hostile.mjs <project dir> [name filter]
//   node tests/js/runners/hostile.mjs --one <name> [--twin]   (the child: one case, then the check)
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { report } from "./tap.mjs";

const CASE_TIMEOUT_MS = 120_000;

if (process.argv[2] === "--one") {
  const name = process.argv[3];
  const twin = process.argv[4] === "--twin";
  const { default: assert } = await import("node:assert/strict");
  const pkg = await import("agentwire");
  const api = twin
    ? (await import(`${process.cwd()}/tests/general-path-twin.mjs`)).withGeneralPathTwin(pkg, assert)
    : pkg;
  const { hostileCases, stillWorks } = await import(`${process.cwd()}/tests/hostile-cases.mjs`);
  let result;
  try {
    await hostileCases[name](api, assert);
    try {
      stillWorks(api, assert);
      result = { ok: true };
    } catch (e) {
      result = { ok: false, error: `agentwire no longer works after the case: ${e?.stack ?? e}` };
    }
  } catch (e) {
    result = { ok: false, error: e?.stack ?? String(e) };
  }
  // A crashed finalizer would end the process before this line: give them a chance to run.
  globalThis.gc?.();
  await new Promise((ok) => setTimeout(ok, 50));
  process.stdout.write(`\n@@result ${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  const project = process.argv[2];
  if (!project) throw new Error("usage: hostile.mjs <project dir> [filter]");
  const filter = process.argv[3] ?? "";
  const { hostileCases } = await import(`${project}/tests/hostile-cases.mjs`);
  const names = Object.keys(hostileCases).filter((n) => n.includes(filter));
  const TWIN = " (general path twin)";
  // A case that measures wasm memory runs once: a twin would double what it measures.
  const runs = names.flatMap((n) => (/wasm memory/.test(n) ? [n] : [n, n + TWIN]));
  const self = fileURLToPath(import.meta.url);
  const results = [];
  // Two at a time: each case is a process of its own.
  const queue = [...runs];
  async function worker() {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      results.push({ name, ...(await runOne(name)) });
    }
  }
  function runOne(run) {
    const twin = run.endsWith(TWIN);
    const name = twin ? run.slice(0, -TWIN.length) : run;
    return new Promise((resolve) => {
      const args = ["--expose-gc", self, "--one", name, ...(twin ? ["--twin"] : [])];
      const child = spawn(process.execPath, args, { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => { out += d; });
      child.stderr.on("data", (d) => { err += d; });
      const timer = setTimeout(() => child.kill("SIGKILL"), CASE_TIMEOUT_MS);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        const line = out.split("\n").find((l) => l.startsWith("@@result "));
        if (line === undefined) {
          resolve({ ok: false, error: `the process ended without a result (exit ${code}, signal ${signal}):\n${err.slice(-4000)}` });
          return;
        }
        const result = JSON.parse(line.slice("@@result ".length));
        if (result.ok && err.trim() !== "") {
          resolve({ ok: false, error: `unexpected output on stderr:\n${err.slice(-4000)}` });
          return;
        }
        resolve(result);
      });
    });
  }
  await Promise.all([worker(), worker()]);
  results.sort((a, b) => runs.indexOf(a.name) - runs.indexOf(b.name));
  process.exitCode = report("hostile", results) === 0 ? 0 : 1;
}
