// AgentApp under Deno (`deno test`, the deno suite) with its runs in Redis, through an outage: a
// real redis-server on 127.0.0.1 (its writes kept in an append-only file, so a run ended before
// the outage outlives it) is killed while `Deno.serve(app.fetch)` serves; requests then answer
// 503 STORE_UNAVAILABLE with Retry-After within seconds and the process lives on; once
// redis-server is back on the same port, new runs start and complete again within a bounded
// time, and the run ended before the outage is still read whole. The `redis` package is the
// one the Node tests use (AGENTWIRE_ROOT's node_modules), loaded through Deno's Node compatibility.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { AgentApp, RedisRunStore, StreamAssembler } from "agentwire";
import { weatherAgent } from "./scripted-agent.mjs";
import { startRedis } from "./redis-server.mjs";

const ROOT = Deno.env.get("AGENTWIRE_ROOT");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const BODY = JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "Weather?" }] }] });

/** `promise`, or a rejection naming `what` after `ms` (a hang fails the test instead of stalling it). */
function within(ms, what, promise) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Sends a request and reads its answer whole: `{status, headers, text}`; fails (and hangs up) after `ms`. */
async function request(url, init, ms) {
  const abort = new AbortController();
  try {
    return await within(ms, `${init.method ?? "GET"} ${new URL(url).pathname}`, (async () => {
      const response = await fetch(url, { ...init, signal: abort.signal });
      return { status: response.status, headers: response.headers, text: await response.text() };
    })());
  } finally {
    abort.abort();
  }
}

/** POSTs a run to /process: its answer, read whole within `ms`. */
const run = (base, ms) => request(`${base}/process`, { method: "POST", headers: { "content-type": "application/json" }, body: BODY }, ms);
/** Reads run `id` from its start: its answer, read whole within `ms`. */
const reread = (base, id, ms) => request(`${base}/process/${id}`, { headers: { accept: "text/event-stream" } }, ms);

/** Asserts that `text` is the scripted agent's whole answer. */
async function assertAnswered(text) {
  const out = await StreamAssembler.collect(new Response(text, { headers: { "content-type": "text/event-stream" } }));
  assert.equal(out.status, "completed");
  assert.equal(out.output.at(-1).content[0].text, "Sunny in Hangzhou");
}

Deno.test({
  name: "AgentApp + RedisRunStore under Deno.serve: 503 STORE_UNAVAILABLE while Redis is down, new runs complete once it is back",
  // node-redis keeps reconnect timers and sockets of its own; what this test opens it closes.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    assert.ok(ROOT, "AGENTWIRE_ROOT (the repository, whose node_modules has the redis package) must be set");
    const { createClient } = createRequire(`${ROOT}/package.json`)("redis");
    const redis = await startRedis({ persist: "deno-redis-outage" });
    // A client as an app makes it: no error listener, the package's default reconnection, and
    // no deadline of its own on commands (as node-redis 4 had none): the store's must do.
    const client = createClient({ url: redis.url, commandOptions: { timeout: 0 } });
    await client.connect();
    const store = new RedisRunStore(client); // commandTimeoutMs: the default, 5 s
    const app = new AgentApp({ agent: weatherAgent, runs: { store } });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    try {
      const before = await run(base, 10_000);
      assert.equal(before.status, 200);
      await assertAnswered(before.text);
      const id = before.headers.get("x-agentwire-run-id");
      assert.ok(id, "the run's id");

      await redis.kill();
      // New runs and a reader of the ended run, together: each answers 503 within the deadline.
      const t0 = Date.now();
      const down = await Promise.all([
        run(base, 9_000), run(base, 9_000), run(base, 9_000), reread(base, id, 9_000),
      ]);
      for (const answer of down) {
        assert.equal(answer.status, 503, answer.text);
        assert.equal(JSON.parse(answer.text).error.code, "STORE_UNAVAILABLE", answer.text);
        assert.ok(Number(answer.headers.get("retry-after")) > 0, "Retry-After");
      }
      assert.ok(Date.now() - t0 < 8_000, `answered after ${Date.now() - t0} ms`);
      await sleep(1_000); // reconnection attempts (and their 'error' events) meanwhile
      assert.equal((await request(`${base}/health`, {}, 2_000)).status, 200, "the process serves on");

      await redis.start();
      // New runs start and complete again within a bounded time (each try bounded too).
      const until = Date.now() + 15_000;
      let after;
      for (;;) {
        after = await run(base, 8_000).catch((e) => ({ status: 0, text: String(e) }));
        if (after.status === 200 || Date.now() > until) break;
        await sleep(250);
      }
      assert.equal(after.status, 200, `no run started within 15 s of Redis coming back: ${after.text}`);
      await assertAnswered(after.text);
      for (let i = 0; i < 3; i++) {
        const again = await run(base, 8_000);
        assert.equal(again.status, 200, again.text);
        await assertAnswered(again.text);
      }
      // The run that ended before the outage is read whole.
      const resumed = await reread(base, id, 5_000);
      assert.equal(resumed.status, 200, resumed.text);
      await assertAnswered(resumed.text);
    } finally {
      // Bounded: a hung handler must fail the test, not keep it from ending.
      for (const [what, close] of [["server", () => server.shutdown()], ["app", () => app.close()], ["store", () => store.close()], ["client", () => client.close()]]) {
        await within(5_000, `closing the ${what}`, Promise.resolve().then(close)).catch(() => {});
      }
      await redis.stop();
    }
  },
});
