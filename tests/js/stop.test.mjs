// Stop is an outcome, not a fault: a run stopped with RunConnection.stop() (AgentApp's cancel
// route, or A2A's CancelTask) ends `canceled` in every protocol with no warning, and what the
// agent said before the stop stays in the answer (`output`, marked `incomplete`; AG-UI's
// messages), where the next turn's history takes it from. Each connection also sees the terminal
// `response` update once.
import test from "node:test";
import assert from "node:assert/strict";
import { AgentApp, MemoryRunStore, StreamAssembler, nextTurn } from "agentwire";
import { ROUTES } from "./chaos-helpers.mjs";
import { listen } from "./http-helpers.mjs";

/** Says a few words, then waits to be stopped. */
async function talkative(request, rb, { signal }) {
  const text = rb.message().content("text");
  text.delta("Here is what ");
  text.delta("I found so far");
  await new Promise((resolve) => {
    signal.addEventListener("abort", resolve, { once: true });
    setTimeout(resolve, 5_000).unref();
  });
}

/** The texts of the answer, as each protocol's snapshot holds them. */
function answerTexts(protocol, snapshot) {
  if (protocol === "ag-ui") {
    return snapshot.messages.filter((m) => m.role === "assistant" && typeof m.content === "string").map((m) => m.content);
  }
  const parts = (snapshot.output ?? []).filter((m) => m.type === "message" && m.role === "assistant").flatMap((m) => m.content ?? []);
  return parts.map((p) => p.text ?? "").filter((t) => t !== "");
}

test("stop(): a canceled run keeps its answer, without a warning, in every protocol", async () => {
  const app = new AgentApp({ agent: talkative, runs: { store: new MemoryRunStore() } });
  const { server } = await listen(app);
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    for (const [protocol, { path, body, headers = { "content-type": "application/json" } }] of Object.entries(ROUTES)) {
      const connection = StreamAssembler.connect(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body()) }, { protocol });
      let terminal = 0;
      let stopped = false;
      for await (const updates of connection) {
        terminal += updates.filter((u) => u.type === "response" && u.outcome !== "pending").length;
        const said = answerTexts(protocol, connection.assembler.snapshot()).join("");
        if (!stopped && said === "Here is what I found so far") {
          stopped = true;
          const answer = await connection.stop();
          assert.equal(answer.status, 200, `${protocol}: the cancel answer`);
        }
      }
      const asm = connection.assembler;
      const snapshot = asm.snapshot();
      assert.equal(asm.outcome, "canceled", protocol);
      assert.deepEqual(snapshot.warnings, [], `${protocol}: warnings`);
      assert.deepEqual(answerTexts(protocol, snapshot), ["Here is what I found so far"], `${protocol}: the answer so far`);
      assert.equal(terminal, 1, `${protocol}: terminal response updates`);
      if (protocol === "agent-api" || protocol === "a2a") {
        assert.equal(snapshot.incompleteMessages, undefined, `${protocol}: nothing moved out of output`);
        const message = snapshot.output.find((m) => m.type === "message");
        assert.equal(message.status, "incomplete", `${protocol}: the stopped message is marked incomplete`);
      }
      if (protocol === "agent-api") {
        // The next turn's history carries what was said.
        const input = nextTurn("agent-api", { history: body().input, snapshot, user: "go on" });
        assert.deepEqual(input.map((m) => m.role), ["user", "assistant", "user"]);
      }
      connection.free();
    }
  } finally {
    server.close();
    await app.close();
  }
});

test("finish(), read() and collect() report the terminal response update once", async () => {
  const app = new AgentApp({ agent: async (request, rb) => { rb.message().content("text").delta("done"); }, runs: { store: new MemoryRunStore() } });
  const { server } = await listen(app);
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    for (const [protocol, { path, body, headers = { "content-type": "application/json" } }] of Object.entries(ROUTES)) {
      const res = await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body()) });
      let terminal = 0;
      for await (const updates of StreamAssembler.read(res.body, { protocol })) {
        terminal += updates.filter((u) => u.type === "response" && u.outcome !== "pending").length;
      }
      assert.equal(terminal, 1, `${protocol}: read()`);
      const bytes = new Uint8Array(await (await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body()) })).arrayBuffer());
      for (const size of [bytes.length, 200, 7]) {
        const asm = new StreamAssembler({ protocol });
        let count = 0;
        for (let at = 0; at < bytes.length; at += size) {
          count += asm.push(bytes.subarray(at, at + size)).filter((u) => u.type === "response" && u.outcome !== "pending").length;
        }
        count += asm.finish().filter((u) => u.type === "response").length;
        assert.equal(count, 1, `${protocol}, ${size}-byte chunks`);
        asm.free();
      }
    }
  } finally {
    server.close();
    await app.close();
  }
});
