// RunLog cuts a builder's chunks into events at the frames the builder hands it (builder.js
// `chunkFrames`), searching only the frames of several events: every event of a run must be in
// the log under its own id, whatever mix of one-event and several-event emits a chunk holds.
import test from "node:test";
import assert from "node:assert/strict";
import { AgentApp, MemoryRunStore } from "agentwire";

/** A MemoryRunStore that remembers the ids of the runs it starts (its own append is kept). */
class Recording extends MemoryRunStore {
  ids = [];
  async start(run) {
    this.ids.push(run.id);
    return super.start(run);
  }
}

const decoder = new TextDecoder();
const eventsOf = (bytes) => decoder.decode(bytes).split("\n\n").filter(Boolean);
const idOf = (event) => Number(/^id: (\d+)$/m.exec(event)[1]);

async function* chunks(iterable) {
  for await (const chunk of iterable) yield chunk;
}

test("a run's log holds every event under its id, bursts mixing one- and several-event emits", async () => {
  const store = new Recording();
  const app = new AgentApp({
    // Bursts (no await between emits) where a message's first delta emits several events (the
    // message and its content open with it), others one, and the last emit of a burst is one
    // or several; the run's end (several events) shares its chunk with deltas.
    agent: async (request, rb) => {
      for (let m = 0; m < 6; m++) {
        const text = rb.message().content("text");
        for (let i = 0; i < 5 + m; i++) text.delta(`m${m}w${i} `);
        if (m % 2 === 0) await rb.ready();
        text.delta("last ");
        if (m % 3 === 0) await rb.ready();
        text.complete();
      }
      rb.message().content("text").delta("tail");
    },
    runs: { store },
  });
  const res = await app.fetch(new Request("http://t/process", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "Go" }] }] }),
  }));
  assert.equal(res.status, 200);
  const streamed = eventsOf(new Uint8Array(await res.arrayBuffer()));
  const [id] = store.ids;
  const logged = eventsOf(await store.log(id));
  assert.deepEqual(logged, streamed);
  assert.deepEqual(streamed.map(idOf), streamed.map((_, i) => i));
  const run = await store.get(id);
  assert.equal(run.first, 0);
  assert.equal(run.next, streamed.length);
  // From every cursor: the events after it, and only those.
  for (let after = -1; after < streamed.length; after++) {
    const read = [];
    for await (const chunk of chunks(await store.read(id, after))) read.push(...eventsOf(chunk));
    assert.deepEqual(read, streamed.slice(after + 1), `after ${after}`);
  }
  await app.close();
});

test("a slow store gets what waits in appends of at most 1 MiB (a larger event alone), nothing lost", async () => {
  const batches = [];
  class Slow extends MemoryRunStore {
    async append(id, events) {
      batches.push({ bytes: events.reduce((n, e) => n + e.bytes.byteLength, 0), events: events.length });
      await new Promise((resolve) => setTimeout(resolve, 5));
      return super.append(id, events);
    }
  }
  const store = new Slow();
  const delta = "d".repeat(2048);
  const app = new AgentApp({
    runs: { store },
    agent: (request, rb) => {
      const text = rb.message().content("text");
      for (let i = 0; i < 4000; i++) text.delta(delta); // 8 MiB at once: the store is far behind
      text.delta("z".repeat(3 * 1024 * 1024)); // one event larger than a batch
    },
  });
  const r = await app.fetch(new Request("http://app/process", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }),
  }));
  let text = "";
  for await (const chunk of chunks(r.body)) text += decoder.decode(chunk, { stream: true });
  const events = text.split("\n\n").filter(Boolean);
  assert.deepEqual(events.map(idOf), events.map((_, i) => i), "every event, in order");
  assert.ok(batches.length > 8, `${batches.length} appends`);
  // Over 1 MiB only alone: the 3 MiB delta, and the final events that repeat the whole text.
  const over = batches.filter((b) => b.bytes > 1024 * 1024);
  assert.ok(over.length >= 2 && over.every((b) => b.events === 1), `batches over 1 MiB: ${JSON.stringify(over)}`);
});
