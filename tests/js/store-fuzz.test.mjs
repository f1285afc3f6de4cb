// The RunStore contract under random sequences of calls (store-fuzz.mjs): MemoryRunStore, and
// RedisRunStore on a real redis-server on 127.0.0.1 (a fresh key prefix per sequence). Each
// failing sequence is named by its seed; FUZZ_SEEDS=N runs N of them (FUZZ_SEED=n: that one).
import test from "node:test";
import assert from "node:assert/strict";
import { MemoryRunStore, RedisRunStore } from "agentwire";
import { fuzzStore } from "./store-fuzz.mjs";
import { redisForTests } from "./redis-server.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;
const only = process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : null;
const seeds = (from, n) => only ?? Array.from({ length: Number(process.env.FUZZ_SEEDS ?? n) }, (_, k) => from + k);

const redisHeld = redisForTests(test, ROOT, skip);

/** A RedisRunStore on a fresh prefix; the lease outlives the fake clock's moves (its keys expire by Redis's clock). */
const redisStore = (seed) => (o) => new RedisRunStore(redisHeld.client, { prefix: `fuzz-${seed}-${crypto.randomUUID()}:`, pollMs: 50, leaseMs: 600_000, ...o });
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

test("MemoryRunStore: 400 random sequences keep the contract", async () => {
  for (const seed of seeds(1, 400)) await fuzzStore((o) => new MemoryRunStore(o), seed);
});

test("RedisRunStore: 60 random sequences keep the contract", { skip, timeout: 60_000 * Math.max(1, Number(process.env.FUZZ_SEEDS ?? 60) / 60) }, async () => {
  for (const seed of seeds(10_001, 60)) await fuzzStore(redisStore(seed), seed, { lenient: true, settle });
});

// Seed 1: a session's latest run was the only one checked, so a non-exclusive run started
// after an exclusive one (and ended) let a second exclusive run in beside the first.
test("MemoryRunStore: a non-exclusive run of a session hides no other run of it from an exclusive start (seed 1)", async () => {
  await fuzzStore((o) => new MemoryRunStore(o), 1);
  const store = new MemoryRunStore();
  await store.start({ id: "a", protocol: "agent-api", session: "s" });
  await store.start({ id: "b", protocol: "agent-api", session: "s", exclusive: false });
  await store.end("b");
  await assert.rejects(store.start({ id: "c", protocol: "agent-api", session: "s" }), { code: "SESSION_BUSY" });
  await store.end("a");
  await store.start({ id: "c", protocol: "agent-api", session: "s" });
});

// The same in RedisRunStore (its START script kept one `session:<s>` pointer, overwritten by a
// non-exclusive start): seed 10072 of the mixed sequences.
test("RedisRunStore: a non-exclusive run of a session hides no other run of it from an exclusive start (seed 10072)", { skip }, async () => {
  const store = redisStore("s")({});
  try {
    await store.start({ id: "a", protocol: "agent-api", session: "s" });
    await store.start({ id: "b", protocol: "agent-api", session: "s", exclusive: false });
    await store.end("b");
    await assert.rejects(store.start({ id: "c", protocol: "agent-api", session: "s" }), { code: "SESSION_BUSY" });
    await store.end("a");
    await store.start({ id: "c", protocol: "agent-api", session: "s" });
  } finally {
    await store.close();
  }
  await fuzzStore(redisStore(10_072), 10_072, { lenient: true, settle });
});

// Every run of the session is checked: those of a dead instance (leases lapsed) are marked lost
// and no longer hold it; one still renewed does.
test("RedisRunStore: an exclusive start marks the session's lapsed runs lost, and waits for a live one", { skip }, async () => {
  const prefix = `fuzz-lapsed-${crypto.randomUUID()}:`;
  const dead = new RedisRunStore(redisHeld.client, { prefix, leaseMs: 150 });
  const live = new RedisRunStore(redisHeld.client, { prefix, leaseMs: 150 });
  try {
    await dead.start({ id: "a", protocol: "agent-api", session: "s" });
    await dead.start({ id: "b", protocol: "agent-api", session: "s", exclusive: false });
    await live.start({ id: "c", protocol: "agent-api", session: "s", exclusive: false });
    await dead.close(); // no more renewals: its leases lapse
    await new Promise((resolve) => setTimeout(resolve, 400));
    await assert.rejects(live.start({ id: "d", protocol: "agent-api", session: "s" }), { code: "SESSION_BUSY" });
    assert.deepEqual([(await live.get("a")).status, (await live.get("b")).status, (await live.get("c")).status], ["lost", "lost", "running"]);
    await live.end("c");
    await live.start({ id: "d", protocol: "agent-api", session: "s" });
    await live.end("d");
  } finally {
    await dead.close();
    await live.close();
  }
});
