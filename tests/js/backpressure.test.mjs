// Backpressure from a run's live readers to its agent, over node:http on 127.0.0.1: an agent
// that awaits rb.ready() between deltas waits for its slowest reader (on this instance) before
// the store's caps drop events that reader has not read, so a slow client gets the whole answer.
// An agent that does not await ready() is promised nothing (RUN_GONE, as before); a run nobody
// reads, a reader that left and a reader that stalls do not hold the agent.
import test from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { AgentApp, MemoryRunStore, ResponseBuilder } from "agentwire";
import { listen } from "./http-helpers.mjs";

const DELTAS = 20_000;
const DELTA = "x".repeat(1024);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An AG-UI run start (AG-UI's end events carry no copy of the text: the log stays deltas). */
const AG_UI = (runId) => ({ threadId: `t-${runId}`, runId, messages: [{ id: "1", role: "user", content: "hi" }], tools: [], context: [], state: {}, forwardedProps: {} });

/**
 * An agent writing DELTAS deltas of 1 KiB; `ready`: awaits rb.ready() between them (else it
 * only lets the event loop turn every 50 deltas). `stats` records how long it ran, whether
 * its signal aborted and the longest wait in ready().
 */
function deltaAgent(ready, stats = {}) {
  return async (request, rb, { signal }) => {
    const started = Date.now();
    stats.longestWait = 0;
    const text = rb.message().content("text");
    try {
      for (let i = 0; i < DELTAS && !signal.aborted; i++) {
        text.delta(DELTA);
        if (ready) {
          const before = Date.now();
          await rb.ready(); // rejects once the run was canceled
          stats.longestWait = Math.max(stats.longestWait, Date.now() - before);
        } else if (i % 50 === 0) {
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      stats.ms = Date.now() - started;
      stats.aborted = signal.aborted;
    }
  };
}

/**
 * POSTs `body` to `base + path` and reads the answer slowly: `chunk` bytes, then a pause of
 * `pauseMs`, over and over; `stallAfter` bytes: stops reading there (the connection kept) for
 * `stallMs`; `leaveAfter` bytes: closes the connection there. Gives up after `limitMs`.
 * Resolves with `{status, text, ms, cut}` (`cut`: the connection failed or was given up).
 */
function slowRead(base, path, body, { chunk = 64 * 1024, pauseMs = 50, limitMs = 60_000, stallAfter = Infinity, stallMs = 0, leaveAfter = Infinity } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const parts = [];
    let size = 0;
    let sincePause = 0;
    let stalled = false;
    let status = 0;
    let settled = false;
    const done = (cut) => {
      if (settled) return;
      settled = true;
      clearTimeout(limit);
      resolve({ status, text: Buffer.concat(parts).toString("utf8"), ms: Date.now() - started, cut });
    };
    const req = request(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      status = res.statusCode;
      res.on("data", (data) => {
        parts.push(data);
        size += data.length;
        sincePause += data.length;
        if (size >= leaveAfter) {
          done(true);
          req.destroy();
          return;
        }
        let wait = 0;
        if (!stalled && size >= stallAfter) {
          stalled = true;
          wait = stallMs;
        } else if (sincePause >= chunk) {
          sincePause = 0;
          wait = pauseMs;
        }
        if (wait > 0) {
          res.pause();
          setTimeout(() => res.resume(), wait);
        }
      });
      res.on("end", () => done(false));
      res.on("aborted", () => done(true));
      res.on("error", () => done(true));
    });
    const limit = setTimeout(() => {
      done(true);
      req.destroy();
    }, limitMs);
    req.on("error", () => done(true));
    req.end(JSON.stringify(body));
  });
}

/** The AG-UI events of an answer: how many deltas, how many bytes of text, the last event and its type. */
function eventsOf(text) {
  let deltas = 0;
  let chars = 0;
  let lastEvent = null;
  // Only whole events (a cut connection may leave half of one).
  for (const block of text.split("\n\n").slice(0, -1)) {
    const data = block.split("\n").find((line) => line.startsWith("data: "));
    if (!data) continue;
    const event = JSON.parse(data.slice(6));
    if (event.type === "TEXT_MESSAGE_CONTENT") {
      deltas++;
      chars += event.delta.length;
    }
    lastEvent = event;
  }
  return { deltas, chars, last: lastEvent?.type ?? null, lastEvent };
}

/** An app over a memory store of 4 MiB per run. */
async function serve(agent, runs = {}) {
  const app = new AgentApp({ agent, runs: { store: new MemoryRunStore({ maxBytes: 4 * 1024 * 1024 }), ...runs } });
  const { server, base } = await listen(app);
  return { app, base, close: async () => { server.close(); await app.close(); } };
}

test("an agent awaiting rb.ready() waits for its slow reader: the reader gets every delta, however far behind the store's caps it reads", async () => {
  const stats = {};
  const { base, close } = await serve(deltaAgent(true, stats));
  try {
    const answer = await slowRead(base, "/ag-ui", AG_UI("slow1"), { chunk: 64 * 1024, pauseMs: 25, limitMs: 60_000 });
    const { deltas, chars, last } = eventsOf(answer.text);
    assert.equal(answer.status, 200);
    assert.equal(answer.cut, false, `the answer ended cleanly (after ${answer.ms} ms)`);
    assert.equal(deltas, DELTAS, "every delta");
    assert.equal(chars, DELTAS * DELTA.length);
    assert.equal(last, "RUN_FINISHED", "completed");
    assert.equal(stats.aborted, false);
  } finally {
    await close();
  }
});

test("an agent that does not await rb.ready() outruns a slow reader: RUN_GONE cuts its answer, as before", async () => {
  const stats = {};
  const { base, close } = await serve(deltaAgent(false, stats));
  try {
    const answer = await slowRead(base, "/ag-ui", AG_UI("fast1"), { chunk: 64 * 1024, pauseMs: 25, limitMs: 60_000 });
    const { deltas, last } = eventsOf(answer.text);
    // The server ended it (not this client giving up at limitMs): 410, or a stream without its end.
    assert.ok(answer.ms < 50_000, `the answer ended after ${answer.ms} ms: the client gave up`);
    assert.ok(answer.status === 410 || (answer.status === 200 && last !== "RUN_FINISHED"), `status ${answer.status}, last ${last}`);
    assert.ok(deltas < DELTAS, `${deltas} deltas`);
    assert.equal(stats.aborted, false, "the agent ran to its end");
  } finally {
    await close();
  }
});

test("a run nobody reads, and a run whose reader left, go at full speed", async () => {
  for (const leaveAfter of [1, 256 * 1024]) {
    const stats = {};
    const { app, base, close } = await serve(deltaAgent(true, stats));
    try {
      const answer = await slowRead(base, "/ag-ui", AG_UI(`gone${leaveAfter}`), { leaveAfter, pauseMs: 25 });
      assert.notEqual(eventsOf(answer.text).last, "RUN_FINISHED", "the reader left before the end");
      const left = Date.now();
      for (let i = 0; i < 400 && stats.ms === undefined; i++) await sleep(25);
      assert.ok(stats.ms !== undefined, `the agent ended within 10 s of the reader leaving (${Date.now() - left} ms)`);
      assert.equal(stats.aborted, false, "not canceled: nobody asked");
      assert.ok(stats.longestWait < 1000, `the agent never waited long in ready() once alone (${stats.longestWait} ms)`);
      const run = await app.fetch(new Request(`http://app/ag-ui/gone${leaveAfter}`));
      assert.equal(run.status, 410, "its log outgrew the store: RUN_GONE for a late reader, as before");
    } finally {
      await close();
    }
  }
});

test("a reader that stops reading but keeps its connection holds the agent no longer than abandonAfterMs", async () => {
  const stats = {};
  const { base, close } = await serve(deltaAgent(true, stats), { abandonAfterMs: 600 });
  try {
    const started = Date.now();
    const reading = slowRead(base, "/ag-ui", AG_UI("stall1"), { stallAfter: 256 * 1024, stallMs: 4_000, pauseMs: 0 });
    for (let i = 0; i < 140 && stats.ms === undefined; i++) await sleep(25);
    assert.ok(stats.ms !== undefined, `the agent ended within 3.5 s though its reader stalled (${Date.now() - started} ms)`);
    assert.ok(stats.longestWait >= 300, `it waited for its reader about abandonAfterMs first (${stats.longestWait} ms)`);
    assert.equal(stats.aborted, false, "not canceled: its reader is still connected");
    await reading;
  } finally {
    await close();
  }
});

test("a cancel while the log waits for a stalled reader ends the run at once, its terminal event logged", async () => {
  const stats = {};
  const store = new MemoryRunStore({ maxBytes: 4 * 1024 * 1024 });
  const app = new AgentApp({ agent: deltaAgent(true, stats), runs: { store, abandonAfterMs: 60_000 } });
  const { server, base } = await listen(app);
  try {
    const reading = slowRead(base, "/ag-ui", AG_UI("cancel1"), { stallAfter: 256 * 1024, stallMs: 3_000, pauseMs: 0 });
    // The agent is held by its stalled reader: it waits in ready(), far from its end.
    await sleep(1000);
    assert.equal(stats.ms, undefined, "held by its reader");
    assert.equal((await store.running()).length, 1);
    const asked = Date.now();
    const cancel = await fetch(`${base}/ag-ui/cancel1/cancel`, { method: "POST" });
    assert.equal(cancel.status, 200);
    for (let i = 0; i < 40 && (await store.running()).length > 0; i++) await sleep(25);
    assert.deepEqual(await store.running(), [], `the run ended within 1 s of the cancel (${Date.now() - asked} ms)`);
    // An anonymous caller's run is kept under its own id.
    const logged = eventsOf(new TextDecoder().decode(await store.log("cancel1"))).lastEvent;
    assert.deepEqual(logged.outcome, { type: "cancelled" }, "the canceled run's terminal event is logged");
    const answer = await reading;
    assert.deepEqual(eventsOf(answer.text).lastEvent, logged, "its reader gets it too, once it reads on");
  } finally {
    server.close();
    await app.close();
  }
});

test("a producer waiting in ready() when its run is canceled from outside is told FINISHED and returns", async () => {
  let builder;
  let returned = false;
  let seen;
  const stream = ResponseBuilder.stream(async (rb) => {
    builder = rb;
    const text = rb.message().content("text");
    try {
      for (;;) {
        text.delta("x".repeat(4096));
        await rb.ready();
      }
    } catch (e) {
      seen = e.code;
    }
    returned = true;
  }, { protocol: "agent-api", highWaterMark: 1024 });
  const reader = stream.getReader();
  await reader.read(); // starts the producer, which soon waits: nobody reads on
  await new Promise((resolve) => setTimeout(resolve, 30));
  builder.canceled();
  // Nothing read meanwhile: the producer is still in ready() when the stream closes.
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(seen, "FINISHED");
  assert.equal(returned, true, "the producer returned");
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  assert.match(text, /"status":"canceled"/);
});
