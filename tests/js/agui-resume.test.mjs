// AG-UI's rules for resuming a thread, held by AgentApp's AG-UI route (over node:http on
// 127.0.0.1): while the thread's last run waits on interrupts, the next run must resume every
// one of them (RUN_ERROR otherwise, the agent not called); unknown, repeated or expired
// interrupts are refused; a replay of the resume that already ran answers with that run again
// (nothing runs twice); a resume with nothing open is refused. Each refusal is AG-UI's only error
// signal, RUN_ERROR with a stable code.
import test from "node:test";
import assert from "node:assert/strict";
import { AgentApp, StreamAssembler } from "agentwire";
import { listen, post } from "./http-helpers.mjs";

const HOUR = 3_600_000;

/** An agent that pauses on "pause" (two interrupts; `expiresAt` as given) and records each call. */
function pausing(calls, expiresAt) {
  return (request, rb) => {
    calls.push({ resume: request.resume ?? null, last: request.input.at(-1)?.content?.[0]?.text ?? null });
    const said = request.input.at(-1)?.content?.[0]?.text;
    const text = rb.message().content("text");
    if (said === "pause") {
      text.delta("Approve both?");
      rb.interrupt([
        { id: "approve-1", reason: "confirmation", message: "Send the mail?", expiresAt },
        { id: "approve-2", reason: "tool_call", toolCallId: "call-7" },
      ]);
      return;
    }
    text.delta(request.resume ? `resumed with ${request.resume.map((r) => `${r.interruptId}=${JSON.stringify(r.payload ?? r.status)}`).join(",")}` : "hello");
  };
}

let runs = 0;
const input = (thread, text, resume) => ({
  threadId: thread, runId: `run-${++runs}`, state: {}, tools: [], context: [], forwardedProps: {},
  messages: [{ id: `m-${runs}`, role: "user", content: text }], ...(resume ? { resume } : {}),
});

/** The AG-UI answer of `body`: its RUN_ERROR code (or null) and the assembled snapshot. */
async function run(base, body) {
  const res = await post(`${base}/ag-ui`, body);
  assert.equal(res.status, 200);
  const text = await res.text();
  const error = /"type":"RUN_ERROR"[^\n]*?"code":"([A-Z_]+)"/.exec(text)?.[1] ?? /"code":"([A-Z_]+)"[^\n]*"type":"RUN_ERROR"/.exec(text)?.[1] ?? null;
  const snapshot = await StreamAssembler.collect(new Response(text), { protocol: "ag-ui" });
  return { text, error, snapshot };
}

const both = [{ interruptId: "approve-1", status: "resolved", payload: { approved: true } }, { interruptId: "approve-2", status: "resolved", payload: "ok" }];

test("AG-UI resume: every open interrupt must be answered, and only those; then the agent gets the answers", async () => {
  const calls = [];
  const { server, base } = await listen(new AgentApp({ agent: pausing(calls, new Date(Date.now() + HOUR).toISOString()) }));
  try {
    const paused = await run(base, input("t1", "pause"));
    assert.equal(paused.snapshot.interrupts?.length, 2, paused.text.slice(-400));
    assert.equal(calls.length, 1);
    for (const [resume, code] of [
      [undefined, "RESUME_REQUIRED"],
      [[both[0]], "RESUME_INCOMPLETE"],
      [[...both, { interruptId: "approve-9", status: "resolved" }], "RESUME_UNKNOWN_INTERRUPT"],
      [[both[0], both[0], both[1]], "RESUME_UNKNOWN_INTERRUPT"],
    ]) {
      const refused = await run(base, input("t1", "go on", resume));
      assert.equal(refused.error, code, refused.text);
      assert.equal(refused.snapshot.outcome, "failed");
      assert.equal(refused.snapshot.error?.code, code);
    }
    assert.equal(calls.length, 1, "no refused resume reached the agent");
    const resumed = await run(base, input("t1", "go on", both));
    assert.equal(resumed.error, null, resumed.text);
    assert.deepEqual(calls.at(-1).resume, both);
    assert.match(resumed.text, /resumed with approve-1=\{\\"approved\\":true\},approve-2=\\"ok\\"/);
  } finally {
    server.close();
  }
});

test("AG-UI resume: a replay answers with the run it started, nothing runs twice; a resume with nothing open is refused", async () => {
  const calls = [];
  const { server, base } = await listen(new AgentApp({ agent: pausing(calls) }));
  try {
    await run(base, input("t2", "pause"));
    const first = await run(base, input("t2", "go on", both));
    const replay = await run(base, input("t2", "go on", both));
    assert.equal(calls.length, 2, "the replay did not call the agent");
    assert.equal(replay.error, null);
    assert.deepEqual(replay.snapshot.messages.at(-1), first.snapshot.messages.at(-1));
    // Another resume now that nothing is open, and a resume on a thread that never paused.
    const other = await run(base, input("t2", "go on", [{ interruptId: "approve-1", status: "cancelled" }]));
    assert.equal(other.error, "RESUME_UNEXPECTED");
    const fresh = await run(base, input("t3", "hi", both));
    assert.equal(fresh.error, "RESUME_UNEXPECTED");
    // A thread whose run did not pause goes on without a resume, as before.
    assert.equal((await run(base, input("t2", "next"))).error, null);
    assert.equal(calls.length, 3);
  } finally {
    server.close();
  }
});

test("AG-UI resume: an interrupt past its expiresAt is refused (INTERRUPT_EXPIRED); another caller's thread is not this one", async () => {
  const calls = [];
  const app = new AgentApp({ agent: pausing(calls, new Date(Date.now() - 1000).toISOString()), authorize: (r) => r.headers.get("x-user") ?? "anonymous" });
  const { server, base } = await listen(app);
  try {
    await run(base, input("t4", "pause"));
    const late = await run(base, input("t4", "go on", both));
    assert.equal(late.error, "INTERRUPT_EXPIRED", late.text);
    const res = await post(`${base}/ag-ui`, input("t4", "hi"), { "x-user": "bob" });
    assert.doesNotMatch(await res.text(), /RUN_ERROR/, "bob's thread t4 is his own");
  } finally {
    server.close();
  }
});
