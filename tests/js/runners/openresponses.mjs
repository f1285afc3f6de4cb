// The Open Responses compliance suite (../shared/conformance/openresponses, read where it lives:
// tests/js/conformance.mjs) against AgentApp: the suite is copied to a temporary directory (it
// must be writable, and it resolves `zod` from its own node_modules), an AgentApp with the
// scripted agent of tests/js/openresponses-agent.mjs listens on 127.0.0.1, and the suite's own
// runner (`bun run bin/compliance-test.ts --json`) tests its Responses route. Each of the suite's
// tests is reported; the run fails when a test fails that is not in NOT_SUPPORTED, and when one
// listed there passes (the list must say what is true).
// Usage: node tests/js/runners/openresponses.mjs <project dir> (agentwire installed in it).
// Needs AGENTWIRE_ROOT (the workspace, whose node_modules hold `bun` and `zod`, pinned in its
// package.json).
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { conformanceDir } from "../conformance.mjs";
import { writeScore } from "./readme-score.mjs";

/** The suite's tests AgentApp does not pass, with why. */
export const NOT_SUPPORTED = {};

const SUITE_TIMEOUT_MS = 120_000;

/** `bun` and `zod` from the workspace's node_modules, or an error saying how to get them. */
export function suiteTools(root = process.env.AGENTWIRE_ROOT) {
  if (!root) throw new Error("AGENTWIRE_ROOT is not set: run through scripts/test.sh");
  const require = createRequire(join(root, "package.json"));
  try {
    return {
      bun: join(dirname(require.resolve("bun/package.json")), "bin", "bun.exe"),
      zod: dirname(require.resolve("zod/package.json")),
    };
  } catch (e) {
    throw new Error(`bun and zod (devDependencies) are not installed in ${root}/node_modules: run npm ci (${e.message})`);
  }
}

/** A writable copy of the suite that resolves `zod`; `remove()` deletes it. */
export function suiteCopy(tools) {
  const dir = mkdtempSync(join(tmpdir(), "openresponses-"));
  cpSync(conformanceDir("openresponses"), dir, { recursive: true });
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(tools.zod, join(dir, "node_modules", "zod"), "dir");
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `bun <args>` in `cwd`; resolves with its exit code and output (killed after `ms`). */
export function runBun(bun, args, cwd, ms = SUITE_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    // --no-install: never fetch a package; NO_COLOR keeps the output plain.
    const child = spawn(bun, ["--no-install", ...args], {
      cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", DO_NOT_TRACK: "1" },
    });
    let stdout = "", stderr = "";
    child.stdout.on("data", (d) => { stdout += d; });
    child.stderr.on("data", (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("error", (e) => { clearTimeout(timer); reject(e); });
    child.on("close", (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr }); });
  });
}

/**
 * The system under test (scripts/conformance/open-responses-sut.mjs, copied into the project by
 * scripts/test.sh) on 127.0.0.1; resolves with its base URL and close().
 */
export async function startApp() {
  const { openResponsesApp } = await import(new URL("../../conformance/open-responses-sut.mjs", import.meta.url).href);
  const app = openResponsesApp();
  const server = createServer(app.nodeListener);
  server.on("upgrade", app.nodeUpgrade);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    close: async () => {
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
      await app.close?.();
    },
  };
}

async function main() {
  const project = process.argv[2];
  if (!project) throw new Error("usage: openresponses.mjs <project dir>");
  const tools = suiteTools();
  const copy = suiteCopy(tools);
  const server = await startApp();
  let run;
  try {
    run = await runBun(tools.bun, ["run", "bin/compliance-test.ts", "--base-url", `${server.base}/compatible-mode/v1`,
      "--api-key", "test-key", "--json"], copy.dir);
  } finally {
    await server.close();
    copy.remove();
  }
  let parsed;
  try {
    parsed = JSON.parse(run.stdout);
  } catch {
    throw new Error(`the suite printed no JSON (exit ${run.code ?? run.signal}):\n${run.stdout.slice(0, 4000)}\n${run.stderr.slice(0, 4000)}`);
  }
  // TAP: a test of NOT_SUPPORTED that fails is a skip; one that passes fails the run.
  let pass = 0, skip = 0, fail = 0;
  parsed.results.forEach((r, i) => {
    const known = NOT_SUPPORTED[r.id];
    const passed = r.status === "passed";
    if (known && !passed) {
      skip++;
      console.log(`ok ${i + 1} - [openresponses] ${r.id} # SKIP not supported: ${known}`);
    } else if (passed && !known) {
      pass++;
      console.log(`ok ${i + 1} - [openresponses] ${r.id}`);
    } else {
      fail++;
      console.log(`not ok ${i + 1} - [openresponses] ${r.id}`);
      const why = known ? [`passes now: remove it from NOT_SUPPORTED (${known})`] : [r.status, ...(r.errors ?? []).slice(0, 30)];
      console.log(`  # ${why.join("\n  # ")}`);
    }
  });
  const total = parsed.results.length;
  console.log(`1..${total}\n# pass ${pass}\n# skip ${skip}\n# fail ${fail}`);
  console.log(`[openresponses] ${pass} of ${total} of the suite's tests pass, ${skip} not supported, ${fail} failed`);
  if (process.env.AGENTWIRE_ROOT) writeScore(process.env.AGENTWIRE_ROOT, "openresponses", [
    "OpenAI Responses", "Open Responses compliance suite (`bin/compliance-test.ts`)", "`openresponses/openresponses` @ 92c12d9",
    `${pass} of ${total} pass, ${fail} fail${skip ? `, ${skip} not supported (${Object.keys(NOT_SUPPORTED).join(", ")})` : " (HTTP, compaction and WebSocket mode)"}`,
  ]);
  process.exitCode = fail > 0 || total === 0 ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
