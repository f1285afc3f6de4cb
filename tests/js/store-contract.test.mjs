// The RunStore contract (store-contract.mjs) against MemoryRunStore, and RedisRunStore on a real
// redis-server on 127.0.0.1 (a fresh key prefix per store). DurableObjectRunStore runs it
// inside workerd: tests/js/runners/durable.mjs.
import test from "node:test";
import { MemoryRunStore, RedisRunStore } from "agentwire";
import { STORE_CONTRACT } from "./store-contract.mjs";
import { redisForTests } from "./redis-server.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

const redisHeld = redisForTests(test, ROOT, skip);

for (const { name, run } of STORE_CONTRACT) {
  test(`MemoryRunStore: ${name}`, () => run((options) => new MemoryRunStore(options)));
}
for (const { name, run } of STORE_CONTRACT) {
  test(`RedisRunStore: ${name}`, { skip }, () => run((options) => new RedisRunStore(redisHeld.client, { prefix: `contract-${crypto.randomUUID()}:`, ...options })));
}

test("MemoryRunStore with 100,000 runs kept: start, get and read cost O(1) (ended runs are swept incrementally)", { timeout: 60_000 }, async () => {
  let t = Date.now();
  const store = new MemoryRunStore({ maxRuns: 100_000, now: () => t });
  const bytes = new TextEncoder().encode("id: 0\ndata: {}\n\n");
  for (let i = 0; i < 100_000; i++) {
    await store.start({ id: `r${i}`, protocol: "agent-api", session: `s${i % 1000}` });
    await store.append(`r${i}`, [{ id: 0, bytes }]);
    await store.end(`r${i}`);
  }
  const t0 = performance.now();
  for (let i = 0; i < 10_000; i++) {
    const id = `r${(i * 7919) % 100_000}`;
    if ((await store.get(id)).next !== 1) throw new Error(`${id}: no event`);
    for await (const _ of await store.read(id, -1)) break;
  }
  const perCall = (performance.now() - t0) / 20_000;
  // The old full sweep took ~10 ms per call at 100k runs; O(1) is microseconds.
  if (perCall > 0.5) throw new Error(`${perCall.toFixed(3)} ms per call`);
  // Full: the oldest ended run makes room, in O(1) too; past retention they go in order.
  await store.start({ id: "new", protocol: "agent-api" });
  if ((await store.get("r0")) !== null) throw new Error("r0 was not forgotten");
  t += 11 * 60 * 1000;
  if ((await store.get("r50000")).gone !== true) throw new Error("r50000 not gone past retention");
  t += 10 * 60 * 1000;
  if ((await store.get("r99999")) !== null) throw new Error("r99999 not forgotten past twice the retention");
  if ((await store.get("new")).status !== "running") throw new Error("the running run was swept");
});
