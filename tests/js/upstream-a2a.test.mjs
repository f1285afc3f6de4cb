// upstream() in front of a real A2A server: a2a-sdk 1.x's own server machinery
// (tests/js/upstream-a2a-server.py, on uvicorn at 127.0.0.1), reached over A2A 1.0 and over its
// 0.3 JSON-RPC compatibility, served by an AgentApp and read over AG-UI by @ag-ui/client's
// HttpAgent and over OpenAI Responses by the official `openai` client. The answer's text arrives
// whole; a task the upstream fails ends the front run failed, with the upstream's message.
// Needs the virtualenvs of scripts/setup.sh at AGENTWIRE_ROOT: .venv-a2a1 (a2a-sdk 1.x) and
// .venv (uvicorn, which the server imports from there alone).
import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { AgentApp, upstream } from "agentwire";
import { loadClient } from "./agui-client.mjs";
import { listen } from "./http-helpers.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const PYTHON = ROOT ? `${ROOT}/.venv-a2a1/bin/python` : null;
const VENV = ROOT ? `${ROOT}/.venv` : null;
const missing = !PYTHON || !existsSync(PYTHON) || !existsSync(`${VENV}/bin/python`);
const skip = missing && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "no a2a-sdk 1.x virtualenv" : false;

/** A free port of 127.0.0.1. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the a2a-sdk server; resolves with its JSON-RPC url and a stop function. */
async function startServer() {
  const port = await freePort();
  const script = fileURLToPath(new URL("./upstream-a2a-server.py", import.meta.url));
  const python = spawn(PYTHON, [script, String(port), VENV], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  python.stderr.on("data", (d) => { stderr += d; });
  python.on("error", (error) => { stderr += `${error.message}\n`; });
  const url = `http://127.0.0.1:${port}/a2a`;
  try {
    for (let i = 0; ; i++) {
      // The SDK answers an empty body with a JSON-RPC parse error: the server is up.
      const body = await fetch(url, { method: "POST" }).then((r) => r.json(), () => null);
      if (body?.error?.code === -32700) break;
      assert.ok(i < 150 && python.exitCode === null, `the a2a-sdk server did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    python.kill();
    throw error;
  }
  return { url, stderr: () => stderr, stop: () => python.kill() };
}

/**
 * Runs @ag-ui/client's HttpAgent against `base`: its new messages, the RUN_ERROR it was told of
 * (the client hands it to `onRunErrorEvent`, the run still resolving), or its rejection.
 */
async function aguiRun(client, base, text, runId) {
  const agent = new client.HttpAgent({ url: `${base}/ag-ui`, threadId: "thread_1" });
  agent.messages = [{ id: "u1", role: "user", content: text }];
  let runError = null;
  try {
    const { newMessages } = await agent.runAgent({ runId }, { onRunErrorEvent: ({ event }) => { runError = event; } });
    return { messages: newMessages, runError };
  } catch (error) {
    return { runError, rejected: error instanceof Error ? error.message : String(error) };
  }
}

test("an a2a-sdk 1.x server, served over AG-UI (HttpAgent) and OpenAI Responses (openai)", { skip }, async (t) => {
  const { default: OpenAI } = await import("openai");
  const { client } = await loadClient(ROOT);
  const server = await startServer();
  try {
    for (const protocol of ["a2a", "a2a-0.3"]) {
      await t.test(protocol, async () => {
        const front = await listen(new AgentApp({ name: "Front", agent: upstream(server.url, { protocol, timeoutMs: 10_000 }) }));
        try {
          // AG-UI: the artifact's three chunks arrive as one assistant message.
          const ok = await aguiRun(client, front.base, "Hello there", "run_1");
          assert.deepEqual([ok.rejected, ok.runError], [undefined, null], `${JSON.stringify(ok)} ${server.stderr()}`);
          const said = ok.messages.filter((m) => m.role === "assistant").map((m) => m.content);
          assert.deepEqual(said, ["Echo: Hello there"]);

          // OpenAI Responses: the same text, completed.
          const openai = new OpenAI({ baseURL: `${front.base}/compatible-mode/v1`, apiKey: "none", maxRetries: 0 });
          const response = await openai.responses.create({ model: "m", input: "Hi again" });
          assert.equal(response.status, "completed", JSON.stringify(response.error));
          assert.equal(response.output_text, "Echo: Hi again");

          // A failed upstream task fails the front run, with the upstream's message.
          const failed = await aguiRun(client, front.base, "fail", "run_2");
          assert.equal(failed.rejected, undefined, JSON.stringify(failed));
          assert.equal(failed.runError?.code, "UPSTREAM_FAILED", JSON.stringify(failed));
          assert.match(failed.runError.message, /The tool broke/);
          const broken = await openai.responses.create({ model: "m", input: "fail" });
          assert.equal(broken.status, "failed");
          assert.match(broken.error?.message ?? "", /The tool broke/, JSON.stringify(broken.error));
        } finally {
          front.server.close();
        }
      });
    }
  } finally {
    server.stop();
  }
});
