// The A2A TCK (the A2A project's Technology Compatibility Kit, kept outside this repository) run
// against AgentApp: an AgentApp on 127.0.0.1 serving the TCK's agent (scripts/conformance/a2a-tck-sut.mjs,
// driven by messageId prefixes) with the default options and a 1.0 card, the TCK's requirements of every level (MUST, SHOULD, MAY) over
// JSON-RPC, then its reports/compatibility.json read back. Each requirement is printed with its
// result; a requirement of a2a-tck-expected.json's `pass` list that no longer passes fails the
// run (one TAP line each), and one that passes but is not on the list is named (add it).
//
// Usage: node tests/js/runners/a2a-tck.mjs <project dir> (agentwire installed in it)
//   A2A_TCK         the TCK's folder (default: <repository>/../shared/conformance/a2a-tck)
//   A2A_TCK_PYTHON  the Python with the TCK's dependencies (default: <repository>/.venv-tck,
//                   made by scripts/setup.sh)
//   A2A_TCK_UPDATE=1  rewrite a2a-tck-expected.json's `pass` list to what passes now
// The TCK is copied into a temporary folder (it writes its reports next to itself) and removed
// after; it is never copied into the repository.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { report } from "./tap.mjs";
import { writeScore } from "./readme-score.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const EXPECTED = join(HERE, "a2a-tck-expected.json");
/** The whole TCK run may take this long (it takes seconds; the resubscribe scenario waits 4 s). */
const TCK_TIMEOUT_MS = 180_000;

const project = process.argv[2];
if (!project) throw new Error("usage: a2a-tck.mjs <project dir>");
const root = process.env.AGENTWIRE_ROOT ? resolve(process.env.AGENTWIRE_ROOT) : resolve(HERE, "../../..");
const tck = resolve(process.env.A2A_TCK ?? join(root, "..", "shared", "conformance", "a2a-tck"));
const python = process.env.A2A_TCK_PYTHON ?? join(root, ".venv-tck", "bin", "python");
for (const [what, path, hint] of [
  ["the A2A TCK", join(tck, "run_tck.py"), "set A2A_TCK to its folder"],
  ["the TCK's Python", python, "run scripts/setup.sh, or set A2A_TCK_PYTHON"],
]) {
  if (!existsSync(path)) {
    console.error(`a2a-tck: ${what} is not at ${path}: ${hint}`);
    process.exit(1);
  }
}

// The system under test, as the project holds it (scripts/conformance/a2a-tck-sut.mjs, copied by
// scripts/test.sh): it imports agentwire from the project.
const { tckApp } = await import(pathToFileURL(join(project, "conformance", "a2a-tck-sut.mjs")).href);
const app = tckApp();
const server = createServer(app.nodeListener);
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const sut = `http://127.0.0.1:${server.address().port}`;
const copy = mkdtempSync(join(tmpdir(), "a2a-tck-"));

/** Runs `command` in `cwd`: resolves with its exit code and output (both streams), killed after `ms`. */
function run(command, args, cwd, ms) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
    let output = "";
    child.stdout.on("data", (b) => { output += b; });
    child.stderr.on("data", (b) => { output += b; });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("error", fail);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, output });
    });
  });
}

let failed = 1;
try {
  // Reports, caches and virtualenvs of the source folder stay behind.
  const skip = new Set(["reports", ".venv", "__pycache__", ".pytest_cache", ".git"]);
  cpSync(tck, copy, { recursive: true, filter: (path) => !skip.has(basename(path)) });
  // Every level (MUST, SHOULD, MAY): the MUST score is the one the README leads with.
  const args = ["run_tck.py", "--sut-host", sut, "--transport", "jsonrpc"];
  console.log(`# ${python} ${args.join(" ")} (in a copy of ${tck})`);
  const started = Date.now();
  const { code, signal, output } = await run(python, args, copy, TCK_TIMEOUT_MS);
  const reportPath = join(copy, "reports", "compatibility.json");
  if (!existsSync(reportPath)) {
    throw new Error(`the TCK wrote no report (exit ${code ?? signal}):\n${output.slice(-4000)}`);
  }
  const { summary, per_requirement: requirements } = JSON.parse(readFileSync(reportPath, "utf8"));
  // pytest's own summary line ("N failed, M passed, ...").
  const tally = output.trim().split("\n").at(-1);
  console.log(`# TCK: ${tally} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`# MUST compatibility: ${summary.must_compatibility} (the TCK's measure)`);

  const all = Object.entries(requirements);
  const must = all.filter(([, r]) => r.level === "MUST");
  const expected = JSON.parse(readFileSync(EXPECTED, "utf8"));
  const pass = new Set(expected.pass);
  const passing = all.filter(([, r]) => r.status === "PASS").map(([id]) => id);
  const level = (name) => {
    const tested = all.filter(([, r]) => r.level === name && (r.status === "PASS" || r.status === "FAIL"));
    return { passed: tested.filter(([, r]) => r.status === "PASS").length, tested: tested.length };
  };
  for (const [id, r] of all) {
    const errors = (r.errors ?? []).map((e) => String(e).replace(/\s+/g, " ").slice(0, 200));
    const note = pass.has(id) || r.status !== "PASS" ? "" : " (not in a2a-tck-expected.json: add it)";
    console.log(`# ${r.status.padEnd(10)} ${id}${note}${errors.length ? ` — ${errors.join(" | ")}` : ""}`);
  }
  const results = expected.pass.map((id) => {
    const r = requirements[id];
    const ok = r?.status === "PASS";
    return { name: `${id} passes`, ok, error: ok ? undefined : `${id}: ${r?.status ?? "not reported"}: ${(r?.errors ?? []).join(" | ")}` };
  });
  const [m, sh, may] = ["MUST", "SHOULD", "MAY"].map(level);
  console.log(`# MUST ${m.passed}/${m.tested}, SHOULD ${sh.passed}/${sh.tested}, MAY ${may.passed}/${may.tested} tested requirements pass (${expected.pass.length} expected to)`);
  const failing = must.filter(([, r]) => r.status === "FAIL").map(([id]) => id);
  writeScore(root, "a2a-tck", [
    "A2A 1.0, JSON-RPC", "A2A TCK, every level (`run_tck.py`)", "`a2aproject/a2a-tck` `1.0-dev` @ 357c4a8",
    `MUST ${summary.must_compatibility} (the TCK's measure: ${m.passed} passed, ${failing.length} failed${failing.length ? `: ${failing.join(", ")}` : ""}), SHOULD ${summary.should_compatibility} (${sh.passed} of ${sh.tested}), MAY ${summary.may_compatibility} (${may.passed} of ${may.tested}); the rest skipped or not tested: push notifications, gRPC, HTTP+JSON, signatures`,
  ]);
  if (process.env.A2A_TCK_UPDATE === "1") {
    writeFileSync(EXPECTED, `${JSON.stringify({ ...expected, pass: passing.sort() }, null, 2)}\n`);
    console.log(`# wrote ${EXPECTED}`);
  }
  failed = report("a2a-tck", results);
} catch (e) {
  console.error(`a2a-tck: ${e?.stack ?? e}`);
} finally {
  rmSync(copy, { recursive: true, force: true });
  server.closeAllConnections?.();
  server.close();
  await app.close();
}
process.exit(failed === 0 ? 0 : 1);
