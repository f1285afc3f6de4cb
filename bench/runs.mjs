// `npm run bench` (after bench/app_load.mjs): what durable runs cost, with the run stores side by side
// in one process, on a redis-server started on 127.0.0.1.
//   1. Logging: a run of EVENTS text deltas made by ResponseBuilder.stream (the producer alone:
//      "none"), then the same with every event split out and appended to a MemoryRunStore, and
//      to a RedisRunStore (awaited per chunk, as AgentApp does); wall time per 1,000 events and
//      the ratio to none, median of ROUNDS alternating rounds.
//   2. Replay: reading a logged run of REPLAY events from the start (RunStore.read), events/s.
//   3. Memory: heap + external bytes per run kept by a MemoryRunStore (RUNS ended runs of the
//      same EVENTS events), and per live AgentApp run (RUNS runs waiting, nobody reading), after
//      a full GC (`node --expose-gc`).
//   BENCH_RUNS_EVENTS (2,000), BENCH_RUNS_ROUNDS (15), BENCH_RUNS_REPLAY (20,000), BENCH_RUNS_COUNT (1,000).
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { AgentApp, MemoryRunStore, RedisRunStore, ResponseBuilder } from "../pkg/node.js";
import { RunLog } from "../pkg/runs.js";
import { startRedis } from "../tests/js/redis-server.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const EVENTS = Number(process.env.BENCH_RUNS_EVENTS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_RUNS_ROUNDS ?? 15);
const REPLAY = Number(process.env.BENCH_RUNS_REPLAY ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS_COUNT ?? 1_000);
const { createClient } = createRequire(`${ROOT}package.json`)("redis");

/** A builder stream of about `n` events (text deltas, with ids, as AgentApp logs them). */
function run(n) {
  return ResponseBuilder.stream(async (rb) => {
    const text = rb.message().content("text");
    for (let i = 0; i < n; i++) {
      text.delta(`word${i} `);
      if (i % 16 === 15) await rb.ready();
    }
  }, { protocol: "agent-api", eventIds: true });
}

/** Produces a run and, with `store`, logs it as AgentApp does (RunLog); the number of events. */
async function produce(store, id) {
  if (store) await store.start({ id, protocol: "agent-api", exclusive: false });
  const log = store ? new RunLog(store, id) : null;
  const reader = run(EVENTS).getReader();
  let events = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) {
      if (value[at + 1] === 10) {
        events++;
        at++;
      }
    }
    if (log) await log.add(value);
  }
  if (log) {
    const failure = await log.flush();
    if (failure) throw failure;
    await store.end(id);
  }
  return events;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const redis = await startRedis();
const client = createClient({ url: redis.url });
await client.connect();
try {
  const stores = {
    none: null,
    memory: new MemoryRunStore(),
    redis: new RedisRunStore(client, { prefix: `bench${Date.now()}:` }),
  };
  // 1. Logging.
  const times = { none: [], memory: [], redis: [] };
  let events = 0;
  let n = 0;
  for (const name of Object.keys(stores)) await produce(stores[name], `warm-${name}`);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? ["redis", "memory", "none"] : ["none", "memory", "redis"];
    for (const name of order) {
      const t0 = performance.now();
      events = await produce(stores[name], `run-${name}-${++n}`);
      times[name].push(performance.now() - t0);
    }
  }
  const none = median(times.none);
  console.log(`\nDurable runs: logging a run of ${events} events (median of ${ROUNDS} rounds, alternating)`);
  console.table(Object.keys(times).map((name) => ({
    store: name,
    "ms per 1,000 events": (median(times[name]) / events * 1000).toFixed(2),
    "× none": (median(times[name]) / none).toFixed(2),
  })));
  const target = (name, max) => {
    const x = median(times[name]) / none;
    return `${name} ${x.toFixed(2)}× (target ≤ ${max}×: ${x <= max ? "met" : "NOT met"})`;
  };
  console.log(`logging overhead: ${target("memory", 1.2)}, ${target("redis", 2)}`);

  // 2. Replay.
  const replay = [];
  for (const name of ["memory", "redis"]) {
    const store = stores[name];
    const id = `replay-${name}`;
    await store.start({ id, protocol: "agent-api", exclusive: false });
    const enc = new TextEncoder();
    for (let i = 0; i < REPLAY; i += 100) {
      await store.append(id, Array.from({ length: 100 }, (_, k) => ({
        id: i + k,
        bytes: enc.encode(`id: ${i + k}\ndata: {"sequence_number":${i + k},"object":"content","status":"in_progress","type":"text","delta":true,"msg_id":"msg_1","text":"word${i + k} "}\n\n`),
      })));
    }
    await store.end(id);
    const runs = [];
    let bytes = 0;
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      bytes = 0;
      for await (const chunk of await store.read(id, -1)) bytes += chunk.byteLength;
      runs.push(performance.now() - t0);
    }
    const ms = median(runs);
    replay.push({ store: name, events: REPLAY, "ms (median of 5)": ms.toFixed(1), "events/s": Math.round(REPLAY / ms * 1000), "MB/s": (bytes / ms / 1000).toFixed(1) });
  }
  console.log("\nDurable runs: replaying a logged run from the start");
  console.table(replay);

  // 3. Memory.
  if (typeof globalThis.gc === "function") {
    const used = () => {
      globalThis.gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.external; // external includes arrayBuffers (and wasm memory)
    };
    const app = new AgentApp({
      agent: async (request, rb, { signal }) => {
        rb.message().content("text").delta("working");
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      },
      // RUNS runs at once from one (anonymous) principal: over the default caps (32 running runs
      // per principal, 1,000 per instance), which would refuse most of them with 429.
      runs: { abandonAfterMs: 0, concurrentSessions: true, maxRunningPerPrincipal: RUNS + 1, maxRunning: RUNS + 1 },
    });
    const idle = used();
    const body = JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "Go" }] }] });
    const answers = [];
    for (let i = 0; i < RUNS; i++) {
      const answer = await app.fetch(new Request("http://bench/process", { method: "POST", headers: { "content-type": "application/json" }, body }));
      if (answer.status !== 200) throw new Error(`/process answered ${answer.status}: ${await answer.text()}`);
      answers.push(answer);
    }
    for (const a of answers) await a.body.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const perLive = (used() - idle) / RUNS;
    await app.close();
    const kept = new MemoryRunStore();
    const before = used();
    let logged = 0;
    for (let i = 0; i < RUNS / 10; i++) logged += await produce(kept, `kept-${i}`);
    const perEnded = (used() - before) / (RUNS / 10);
    const logBytes = (await kept.log("kept-0")).byteLength;

    console.log("\nDurable runs: memory (heap + external, after a full GC)");
    console.table([
      { what: `an ended run of ${Math.round(logged / (RUNS / 10))} events in a MemoryRunStore`, "KiB per run": (perEnded / 1024).toFixed(1), "its log (KiB)": (logBytes / 1024).toFixed(1) },
      { what: "a live AgentApp run (agent waiting, no reader)", "KiB per run": (perLive / 1024).toFixed(1), "its log (KiB)": "–" },
    ]);
  } else {
    console.log("\nDurable runs: memory rows need `node --expose-gc`");
  }
  await stores.redis.close();
} finally {
  await client.close();
  await redis.stop();
}
