// RedisRunStore keeps a run's log in segments (one per append, store-redis-log.js): a reader
// resumes after any event, across segment boundaries and inside a segment whose first events
// the caps dropped; the caps count events and bytes, not segments; an append that does not
// follow the log (a gap) is refused and leaves nothing behind; an append retried after its
// answer was lost logs its events once; a long AgentApp run (RunLog's pipelined appends) is whole.
import test from "node:test";
import assert from "node:assert/strict";
import { AgentApp, RedisRunStore } from "agentwire";
import { redisForTests } from "./redis-server.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;
const redisHeld = redisForTests(test, ROOT, skip);

const enc = new TextEncoder();
const dec = new TextDecoder();
const event = (id, text = `e${id}`) => ({ id, bytes: enc.encode(`id: ${id}\ndata: ${text}\n\n`) });
const events = (from, n) => Array.from({ length: n }, (_, k) => event(from + k));
const idsOf = (text) => (text.match(/^id: \d+$/gm) ?? []).map((l) => Number(l.slice(4)));

async function withStore(options, f) {
  const prefix = `seg-${crypto.randomUUID()}:`;
  const store = new RedisRunStore(redisHeld.client, { prefix, ...options });
  try {
    await f(store, prefix);
  } finally {
    await store.close();
  }
}

/** The ids a reader after `after` gets (the run has ended), or the code it fails with. */
async function readIds(store, id, after) {
  try {
    const got = [];
    for await (const chunk of await store.read(id, after)) got.push(...idsOf(dec.decode(chunk)));
    return got;
  } catch (e) {
    return e.code;
  }
}

const range = (from, to) => Array.from({ length: to - from }, (_, k) => from + k);

test("a reader resumes after every event, across segments and inside one the caps cut", { skip }, async () => {
  await withStore({ maxEvents: 9 }, async (store, prefix) => {
    await store.start({ id: "r", protocol: "agent-api" });
    let next = 0;
    for (const n of [1, 3, 7, 2, 4]) {
      await store.append("r", events(next, n));
      next += n;
    }
    await store.end("r");
    // 17 events, 9 kept: 8 to 16; the segment of 7 (4 to 10) lost its first four.
    const run = await store.get("r");
    assert.deepEqual([run.first, run.next], [8, 17]);
    assert.deepEqual(idsOf(dec.decode(await store.log("r"))), range(8, 17));
    for (let after = -1; after <= 17; after++) {
      assert.deepEqual(await readIds(store, "r", after), after + 1 < 8 ? "RUN_GONE" : range(after + 1, 17), `after ${after}`);
    }
    // One list entry per segment and its header, not one per event: 3 segments hold 8 to 16.
    assert.equal(await redisHeld.client.sendCommand(["LLEN", `${prefix}log:r`]), 6);
  });
});

test("the caps count events and their bytes, not segments", { skip }, async () => {
  const size = event(0).bytes.byteLength; // every event here has the same size (ids 0 to 9)
  await withStore({ maxBytes: 4 * size }, async (store) => {
    await store.start({ id: "b", protocol: "agent-api" });
    await store.append("b", events(0, 3));
    await store.append("b", events(3, 3));
    const run = await store.get("b");
    assert.deepEqual([run.first, run.next], [2, 6]);
    assert.deepEqual(idsOf(dec.decode(await store.log("b"))), [2, 3, 4, 5]);
    // One event larger than the cap alone is kept (the newest event always is).
    await store.append("b", [event(6, "x".repeat(10 * size))]);
    assert.deepEqual(idsOf(dec.decode(await store.log("b"))), [6]);
    await store.end("b");
  });
});

test("an append that does not follow the log is refused and leaves nothing; one retried logs its events once", { skip }, async () => {
  await withStore({}, async (store, prefix) => {
    await store.start({ id: "g", protocol: "agent-api" });
    await store.append("g", events(0, 3));
    await assert.rejects(store.append("g", events(5, 2)), { code: "STORE_UNAVAILABLE" });
    assert.equal(await redisHeld.client.sendCommand(["LLEN", `${prefix}log:g`]), 2, "the refused segment is gone");
    await store.append("g", events(1, 4)); // 1 and 2 are logged already: 3 and 4 are new
    await store.append("g", events(0, 2)); // nothing new
    await store.append("g", events(5, 1));
    assert.equal((await store.get("g")).next, 6);
    await store.end("g");
    for (let after = -1; after < 6; after++) assert.deepEqual(await readIds(store, "g", after), range(after + 1, 6), `after ${after}`);
    // Refused after the end (RUN_LOST): the log keeps what it had, and no more.
    await assert.rejects(store.append("g", events(6, 1)), { code: "RUN_LOST" });
    assert.equal(await redisHeld.client.sendCommand(["LLEN", `${prefix}log:g`]), 6);
    // An unknown run: nothing is left behind either.
    await assert.rejects(store.append("nope", events(0, 1)), { code: "RUN_LOST" });
    assert.equal(await redisHeld.client.sendCommand(["EXISTS", `${prefix}log:nope`]), 0);
  });
});

test("an AgentApp run logged through pipelined appends is whole, for a reader following it live and from any cursor", { skip }, async () => {
  await withStore({}, async (store) => {
    const ids = [];
    const start = store.start.bind(store);
    store.start = (run) => {
      ids.push(run.id);
      return start(run);
    };
    const app = new AgentApp({
      runs: { store },
      agent: async (request, rb) => {
        const text = rb.message().content("text");
        for (let i = 0; i < 5000; i++) {
          text.delta(`w${i} `);
          if (i % 50 === 49) await rb.ready();
        }
      },
    });
    const res = await app.fetch(new Request("http://app/process", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }),
    }));
    const live = readIds(store, ids[0], -1);
    const streamed = dec.decode(new Uint8Array(await res.arrayBuffer()));
    const all = idsOf(streamed);
    assert.ok(all.length > 5000);
    assert.deepEqual(await live, all);
    assert.equal(dec.decode(await store.log(ids[0])), streamed);
    for (const after of [0, 1, 255, 256, 1000, all.length - 2]) assert.deepEqual(await readIds(store, ids[0], after), all.slice(after + 1), `after ${after}`);
    await app.close();
  });
});
