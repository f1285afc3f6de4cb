// RedisRunStore through Redis outages, against a real redis-server on 127.0.0.1 (its own, so
// that killing, filling or pausing it troubles no other test): the process never ends (every
// connection has an error listener), calls reject with STORE_UNAVAILABLE within the command
// deadline instead of hanging, readers of an ended run still get its events from a full Redis,
// and the store recovers by itself when Redis is back (new runs start, cancels arrive again
// through the re-subscribed subscriber).
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { RedisRunStore } from "agentwire";
import { startRedis } from "./redis-server.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;
const redisPackage = () => createRequire(`${ROOT}/package.json`)("redis");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const enc = new TextEncoder();
const event = (id) => ({ id, bytes: enc.encode(`id: ${id}\ndata: {"n":${id}}\n\n`) });
const idsOf = (text) => (text.match(/^id: \d+$/gm) ?? []).map((l) => Number(l.slice(4)));
const unavailable = (e) => e?.name === "AgentwireError" && e.code === "STORE_UNAVAILABLE";

async function readAll(iterable) {
  let text = "";
  for await (const chunk of iterable) text += new TextDecoder().decode(chunk);
  return text;
}

/** A connected client with no error listener of its own (as an app may well make it). */
async function client(redis) {
  const c = redisPackage().createClient({ url: redis.url, socket: { reconnectStrategy: () => 100 } });
  await c.connect();
  return c;
}

/** How long `promise` takes to settle (ms), and how: `{ms, value}` or `{ms, error}`. */
async function timed(promise) {
  const t0 = Date.now();
  try {
    return { ms: Date.now() - t0, value: await promise };
  } catch (error) {
    return { ms: Date.now() - t0, error };
  }
}

/** Calls `f` until it resolves (or `ms` passed): its value. */
async function eventually(f, ms = 10_000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await f();
    } catch (e) {
      if (Date.now() > until) throw e;
      await sleep(100);
    }
  }
}

test("Redis restarted: calls reject with STORE_UNAVAILABLE meanwhile, the process lives on, the store recovers (new runs, cancels through the subscriber)", { skip, timeout: 60_000 }, async () => {
  const redis = await startRedis();
  const clients = [await client(redis), await client(redis)];
  const prefix = "restart:";
  // A long lease: a cancel must come through pub/sub, not through a renewal's flag.
  const a = new RedisRunStore(clients[0], { prefix, leaseMs: 60_000, commandTimeoutMs: 1_000 });
  const b = new RedisRunStore(clients[1], { prefix, commandTimeoutMs: 1_000 });
  try {
    await a.start({ id: "before", protocol: "agent-api" }); // subscribes a to cancels
    await a.end("before");
    await redis.kill();
    for (const call of [() => a.get("before"), () => a.start({ id: "r", protocol: "agent-api" }), () => b.read("before", -1), () => b.cancel("x")]) {
      const { ms, error } = await timed(call());
      assert.ok(unavailable(error), `${error?.code}: ${error?.message}`);
      assert.ok(ms < 3_000, `rejected after ${ms} ms`);
    }
    await sleep(300); // reconnection attempts (and their 'error' events) meanwhile
    await redis.start();
    await eventually(() => a.start({ id: "after", protocol: "agent-api" }));
    let stopped = 0;
    a.onCancel("after", () => stopped++);
    await a.append("after", [event(0)]);
    assert.deepEqual(idsOf(new TextDecoder().decode(await b.log("after"))), [0]);
    // The subscriber reconnected and listens again: b's cancel reaches a within a second.
    await eventually(async () => {
      assert.equal(await b.cancel("after"), true);
      for (let i = 0; i < 10 && stopped === 0; i++) await sleep(100);
      assert.ok(stopped > 0, "the cancel arrived");
    }, 5_000);
    await a.end("after");
  } finally {
    await a.close();
    await b.close();
    for (const c of clients) await c.close().catch(() => {});
    await redis.stop();
  }
});

test("a full Redis (maxmemory, noeviction): an ended run is still read whole, runs can end and be canceled; new runs and appends get STORE_UNAVAILABLE", { skip, timeout: 60_000 }, async () => {
  const redis = await startRedis();
  const c = await client(redis);
  const store = new RedisRunStore(c, { prefix: "full:", commandTimeoutMs: 2_000 });
  try {
    await store.start({ id: "done", protocol: "agent-api" });
    await store.append("done", Array.from({ length: 50 }, (_, i) => event(i)));
    await store.end("done");
    await store.start({ id: "live", protocol: "agent-api" });
    await store.append("live", [event(0)]);
    const follower = readAll(await store.read("live", -1));
    assert.equal(await redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction"), "+OK");
    assert.equal(await redis.command("CONFIG", "SET", "maxmemory", "1"), "+OK");
    await assert.rejects(store.start({ id: "new", protocol: "agent-api" }), (e) => unavailable(e) && /OOM/.test(e.message));
    await assert.rejects(store.append("live", [event(1)]), unavailable);
    // Reading writes nothing that could fail: the ended run comes whole, from the start and from a cursor.
    assert.deepEqual(idsOf(await readAll(await store.read("done", -1))), Array.from({ length: 50 }, (_, i) => i));
    assert.deepEqual(idsOf(await readAll(await store.read("done", 44))), [45, 46, 47, 48, 49]);
    assert.equal((await store.get("done")).status, "ended");
    assert.equal((await store.get("live")).status, "running");
    assert.equal(await store.cancel("live"), true);
    await store.end("live");
    assert.deepEqual(idsOf(await follower), [0], "the live reader saw the end");
    assert.equal((await store.get("live")).status, "ended");
    // Room again: runs start again.
    assert.equal(await redis.command("CONFIG", "SET", "maxmemory", "0"), "+OK");
    await store.start({ id: "new", protocol: "agent-api" });
    await store.end("new");
  } finally {
    await store.close();
    await c.close().catch(() => {});
    await redis.stop();
  }
});

test("a Redis that does not answer (paused): calls reject with STORE_UNAVAILABLE within the command deadline, and work once it answers again", { skip, timeout: 60_000 }, async () => {
  const redis = await startRedis();
  const c = await client(redis);
  const store = new RedisRunStore(c, { prefix: "slow:", commandTimeoutMs: 500 });
  try {
    await store.start({ id: "r", protocol: "agent-api" });
    await store.append("r", [event(0)]);
    const reader = (await store.read("r", -1))[Symbol.asyncIterator]();
    await reader.next();
    redis.pause();
    for (const call of [() => store.get("r"), () => store.append("r", [event(1)]), () => store.start({ id: "r2", protocol: "agent-api" }), () => store.running(), () => reader.next()]) {
      const { ms, error } = await timed(call());
      assert.ok(unavailable(error), `${error?.code}: ${error?.message}`);
      assert.ok(ms >= 400 && ms < 2_500, `rejected after ${ms} ms`);
    }
    redis.resume();
    await eventually(() => store.get("r"), 5_000);
    assert.equal((await store.get("r")).status, "running");
    await store.append("r", [event(1)]);
    await store.end("r");
    assert.deepEqual(idsOf(await readAll(await store.read("r", -1))), [0, 1]);
  } finally {
    redis.resume();
    await store.close();
    await c.close().catch(() => {});
    await redis.stop();
  }
});
