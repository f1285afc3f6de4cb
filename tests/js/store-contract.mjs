// The RunStore contract (runs.d.ts) as checks any store can be run against: MemoryRunStore and
// RedisRunStore in the node suite (tests/js/store-contract.test.mjs), DurableObjectRunStore
// inside Durable Objects in workerd (tests/js/runners/durable-contract.mjs, run by durable.mjs; each
// check in a fresh object). No imports: it runs in any runtime.
//
// Usage, for a store of your own (e.g. in node:test):
//
//   import test from "node:test";
//   import { STORE_CONTRACT } from "<agentwire checkout>/tests/js/store-contract.mjs";
//   const make = (options) => new MyRunStore(options); // a fresh, empty store each call
//   for (const { name, run } of STORE_CONTRACT) test(name, () => run(make));
//
// or `await runStoreContract(make)` → `[{name, ok, error}]`. `make(options)` (may be async)
// takes the common options (`retentionMs`, `maxEvents`, `maxBytes`, `maxRuns`, `now`) and must
// throw INVALID_OPTION, naming the field, for a bad one. The checks drive retention through
// `now` (a clock they advance), so a store must measure retention by it. A store with
// `close()` is closed after each check.

/** A clock the checks advance by hand, from the real time. */
function manualClock() {
  let t = Date.now();
  return { now: () => t, advance: (ms) => { t += ms; } };
}

function fail(message) {
  throw new Error(message);
}
function equal(actual, expected, message) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) fail(`${message}: got ${a}, want ${e}`);
}
/** Asserts that `promise` rejects with an AgentwireError of `code`; returns the error. */
async function refuses(promise, code, message) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  if (error === undefined) fail(`${message}: resolved, want ${code}`);
  if (error?.name !== "AgentwireError" || error.code !== code) fail(`${message}: threw ${error?.name} ${error?.code} (${error?.message}), want AgentwireError ${code}`);
  return error;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const event = (id, data = "{}") => ({ id, bytes: enc.encode(`id: ${id}\ndata: ${data}\n\n`) });
const events = (from, n) => Array.from({ length: n }, (_, k) => event(from + k));
const idsOf = (text) => (text.match(/^id: \d+$/gm) ?? []).map((l) => Number(l.slice(4)));
const range = (from, n) => Array.from({ length: n }, (_, k) => from + k);
const unique = (name) => `${name}-${Math.random().toString(36).slice(2, 10)}`;

async function readAll(iterable) {
  let text = "";
  for await (const chunk of iterable) text += dec.decode(chunk);
  return text;
}

/** Runs `body(store, clock)` with a fresh store made with `options` (and the clock), closed after. */
async function withStore(make, options, body) {
  const clock = manualClock();
  const store = await make({ ...options, now: clock.now });
  try {
    await body(store, clock);
  } finally {
    await store.close?.();
  }
}

/** The checks: `[{name, run(make)}]`. */
export const STORE_CONTRACT = [
  {
    name: "start registers a run, get describes it, an id is taken once (RUN_EXISTS)",
    run: (make) => withStore(make, {}, async (store) => {
      const id = unique("r");
      await store.start({ id, protocol: "agent-api", session: null, principal: "p", meta: { a: 1 } });
      const info = await store.get(id);
      equal([info.id, info.protocol, info.session, info.principal, info.meta, info.status, info.first, info.next, info.gone],
        [id, "agent-api", null, "p", { a: 1 }, "running", 0, 0, false], "get");
      await refuses(store.start({ id, protocol: "agent-api" }), "RUN_EXISTS", "the same id again");
      await store.end(id);
      await refuses(store.start({ id, protocol: "agent-api" }), "RUN_EXISTS", "the id of an ended run");
      equal((await store.get(id)).status, "ended", "status after end");
    }),
  },
  {
    name: "one running run per exclusive session (SESSION_BUSY), free once it ended; non-exclusive runs share it",
    run: (make) => withStore(make, {}, async (store) => {
      const [session, a, b, c] = [unique("s"), unique("a"), unique("b"), unique("c")];
      await store.start({ id: a, protocol: "agent-api", session });
      await refuses(store.start({ id: b, protocol: "agent-api", session }), "SESSION_BUSY", "a second run of the session");
      await store.start({ id: c, protocol: "agent-api", session, exclusive: false });
      await store.end(c);
      await store.end(a);
      await store.start({ id: b, protocol: "agent-api", session });
      await store.end(b);
    }),
  },
  {
    name: "an exclusive start is SESSION_BUSY while any run of its session runs, non-exclusive ones included",
    run: (make) => withStore(make, {}, async (store) => {
      const [session, a, b, c, d, e] = [unique("s"), unique("a"), unique("b"), unique("c"), unique("d"), unique("e")];
      await store.start({ id: a, protocol: "agent-api", session });
      // A non-exclusive run started (and ended) after `a` must not hide `a`.
      await store.start({ id: b, protocol: "agent-api", session, exclusive: false });
      await store.end(b);
      await refuses(store.start({ id: c, protocol: "agent-api", session }), "SESSION_BUSY", "while the exclusive run runs");
      await store.start({ id: d, protocol: "agent-api", session, exclusive: false });
      await store.end(a);
      await refuses(store.start({ id: c, protocol: "agent-api", session }), "SESSION_BUSY", "while a non-exclusive run runs");
      await store.end(d, "lost");
      await store.start({ id: c, protocol: "agent-api", session });
      await refuses(store.start({ id: e, protocol: "agent-api", session }), "SESSION_BUSY", "while the new exclusive run runs");
      await store.end(c);
    }),
  },
  {
    name: "lastRun (optional): the run started last in a session, while it is kept; null for another session",
    run: (make) => withStore(make, { retentionMs: 1000 }, async (store, clock) => {
      if (typeof store.lastRun !== "function") return; // optional: AgentApp's sessionHistory needs it
      const [session, other, a, b] = [unique("s"), unique("o"), unique("a"), unique("b")];
      equal(await store.lastRun(session), null, "a session with no run");
      await store.start({ id: a, protocol: "agent-api", session });
      equal(await store.lastRun(session), a, "while its first run goes");
      await store.end(a);
      equal(await store.lastRun(session), a, "once it ended");
      await store.start({ id: b, protocol: "agent-api", session });
      await store.end(b);
      equal(await store.lastRun(session), b, "the newer run");
      equal(await store.lastRun(other), null, "another session");
      clock.advance(2500);
      equal(await store.lastRun(session), null, "once the run is forgotten");
    }),
  },
  {
    name: "append to a run not running (ended, lost, unknown) is RUN_LOST and logs nothing; an empty append is nothing",
    run: (make) => withStore(make, {}, async (store) => {
      const [a, b] = [unique("a"), unique("b")];
      for (const [id, status] of [[a, "ended"], [b, "lost"]]) {
        await store.start({ id, protocol: "agent-api" });
        await store.append(id, events(0, 2));
        await store.end(id, status);
        await refuses(store.append(id, events(2, 1)), "RUN_LOST", `append to a run ${status}`);
        await store.append(id, []);
        equal([(await store.get(id)).next, idsOf(dec.decode(await store.log(id)))], [2, [0, 1]], `a run ${status}: nothing logged`);
      }
      await refuses(store.append(unique("nope"), events(0, 1)), "RUN_LOST", "append to an unknown run");
    }),
  },
  {
    name: "read gives the events after a cursor, then the live ones until the run ends; log gives what is kept",
    run: (make) => withStore(make, {}, async (store) => {
      const id = unique("r");
      await store.start({ id, protocol: "agent-api" });
      await store.append(id, events(0, 3));
      const live = readAll(await store.read(id, -1));
      const fromCursor = readAll(await store.read(id, 1));
      await store.append(id, events(3, 2));
      await store.append(id, []);
      await store.end(id);
      equal(idsOf(await live), range(0, 5), "a reader from the start");
      equal(idsOf(await fromCursor), range(2, 3), "a reader after cursor 1");
      equal(idsOf(await readAll(await store.read(id, 4))), [], "a reader after the last event");
      equal(idsOf(dec.decode(await store.log(id))), range(0, 5), "log");
      equal([(await store.get(id)).first, (await store.get(id)).next], [0, 5], "first and next");
    }),
  },
  {
    name: "maxEvents and maxBytes keep the newest events; a cursor before them is RUN_GONE",
    run: async (make) => {
      await withStore(make, { maxEvents: 10 }, async (store) => {
        const id = unique("r");
        await store.start({ id, protocol: "agent-api" });
        for (let i = 0; i < 50; i += 5) await store.append(id, events(i, 5));
        await store.end(id);
        equal([(await store.get(id)).first, (await store.get(id)).next], [40, 50], "first and next");
        await refuses(store.read(id, 38), "RUN_GONE", "a cursor before what is kept");
        equal(idsOf(await readAll(await store.read(id, 39))), range(40, 10), "from the first kept");
      });
      await withStore(make, { maxBytes: 2_500 }, async (store) => {
        const id = unique("r");
        await store.start({ id, protocol: "agent-api" });
        await store.append(id, [0, 1, 2].map((i) => event(i, "x".repeat(1000))));
        await store.end(id);
        equal(idsOf(dec.decode(await store.log(id))), [1, 2], "3 events of 1 KB in 2.5 KB");
      });
    },
  },
  {
    name: "an unknown run: get is null, read NOT_FOUND, log empty, cancel false",
    run: (make) => withStore(make, {}, async (store) => {
      const id = unique("nope");
      equal(await store.get(id), null, "get");
      await refuses(store.read(id, -1), "NOT_FOUND", "read");
      equal((await store.log(id)).length, 0, "log");
      equal(await store.cancel(id), false, "cancel");
    }),
  },
  {
    name: "cancel calls the cancelers of a running run and is false once it ended; running() lists the runs going",
    run: (make) => withStore(make, {}, async (store) => {
      const [a, b] = [unique("a"), unique("b")];
      await store.start({ id: a, protocol: "agent-api" });
      await store.start({ id: b, protocol: "agent-api" });
      let stopped = 0;
      store.onCancel(a, () => stopped++);
      equal(await store.cancel(a), true, "cancel of a running run");
      for (let i = 0; i < 100 && stopped === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      equal(stopped, 1, "its canceler ran");
      await store.end(b);
      equal(await store.cancel(b), false, "cancel of an ended run");
      const going = (await store.running()).map((r) => r.id);
      equal([going.includes(a), going.includes(b)], [true, false], "running()");
      await store.end(a);
    }),
  },
  {
    name: "a lost run: readers get its events, then RUN_LOST with the id its terminal event takes",
    run: (make) => withStore(make, {}, async (store) => {
      const id = unique("r");
      await store.start({ id, protocol: "agent-api" });
      await store.append(id, events(0, 2));
      const reader = readAll(await store.read(id, -1));
      await store.end(id, "lost");
      const error = await refuses(reader, "RUN_LOST", "the reader");
      equal(error.next, 2, "next");
      equal((await store.get(id)).status, "lost", "status");
    }),
  },
  {
    name: "retention, by the store's clock: RUN_GONE after retentionMs, unknown after twice that",
    run: (make) => withStore(make, { retentionMs: 60_000 }, async (store, clock) => {
      const id = unique("r");
      await store.start({ id, protocol: "agent-api" });
      await store.append(id, events(0, 2));
      await store.end(id);
      clock.advance(59_000);
      equal(idsOf(await readAll(await store.read(id, -1))), [0, 1], "within retention");
      clock.advance(2_000);
      equal((await store.get(id)).gone, true, "gone past retention");
      await refuses(store.read(id, -1), "RUN_GONE", "read past retention");
      equal((await store.log(id)).length, 0, "log past retention");
      clock.advance(60_000);
      equal(await store.get(id), null, "unknown past twice the retention");
    }),
  },
  {
    name: "a reader whose run's log is dropped or the run forgotten before it is done gets RUN_GONE; one done ends quietly",
    run: async (make) => {
      // How the run goes: past retention (log dropped), past twice that, or forgotten for room.
      for (const how of ["retention", "twice", "room"]) {
        await withStore(make, { retentionMs: 60_000, maxRuns: 2 }, async (store, clock) => {
          const [id, x, y] = [unique("r"), unique("x"), unique("y")];
          await store.start({ id, protocol: "agent-api" });
          await store.append(id, events(0, 2));
          const slow = (await store.read(id, -1))[Symbol.asyncIterator]();
          equal(idsOf(dec.decode((await slow.next()).value)), [0, 1], `${how}: the slow reader's first chunk`);
          await store.append(id, events(2, 2));
          await store.end(id);
          const done = (await store.read(id, -1))[Symbol.asyncIterator]();
          equal(idsOf(dec.decode((await done.next()).value)), range(0, 4), `${how}: the whole log`);
          if (how === "room") {
            await store.start({ id: x, protocol: "agent-api" });
            await store.start({ id: y, protocol: "agent-api" });
          } else clock.advance(how === "twice" ? 121_000 : 61_000);
          equal((await store.get(id))?.gone ?? null, how === "retention" ? true : null, `${how}: get`);
          await refuses(slow.next(), "RUN_GONE", `${how}: the slow reader`);
          equal((await done.next()).done, true, `${how}: a reader that had every event ends`);
          if (how === "room") for (const r of [x, y]) await store.end(r);
        });
      }
    },
  },
  {
    name: "maxRuns: the oldest ended run is forgotten first, whatever was read since (a log dropped early)",
    run: (make) => withStore(make, { maxRuns: 3, retentionMs: 60_000 }, async (store, clock) => {
      const [a, b, c, d] = [unique("a"), unique("b"), unique("c"), unique("d")];
      for (const id of [a, b, c]) await store.start({ id, protocol: "agent-api" });
      await store.end(a);
      clock.advance(10);
      await store.end(b);
      clock.advance(61_000);
      await refuses(store.read(b, -1), "RUN_GONE", "b past retention");
      await store.start({ id: d, protocol: "agent-api" });
      equal([await store.get(a), (await store.get(b))?.gone], [null, true], "a (ended first) forgotten, b kept");
      for (const id of [c, d]) await store.end(id);
    }),
  },
  {
    name: "maxRuns: the oldest ended run makes room; with every run going, start is TOO_MANY_RUNS",
    run: (make) => withStore(make, { maxRuns: 3 }, async (store, clock) => {
      const [a, b, c, d, e] = [unique("a"), unique("b"), unique("c"), unique("d"), unique("e")];
      for (const id of [a, b, c]) await store.start({ id, protocol: "agent-api" });
      await refuses(store.start({ id: d, protocol: "agent-api" }), "TOO_MANY_RUNS", "a fourth run");
      await store.end(b);
      clock.advance(10);
      await store.end(a);
      await store.start({ id: d, protocol: "agent-api" });
      equal(await store.get(b), null, "the oldest ended run is forgotten");
      equal((await store.get(a))?.status, "ended", "the other ended run is kept");
      await store.start({ id: e, protocol: "agent-api" });
      equal(await store.get(a), null, "then the next oldest");
      for (const id of [c, d, e]) await store.end(id);
    }),
  },
  {
    name: "a bad option is INVALID_OPTION naming it; so is an unknown one and a malformed run",
    run: async (make) => {
      for (const [options, field] of [[{ maxEvents: 0 }, "maxEvents"], [{ maxBytes: -1 }, "maxBytes"], [{ maxRuns: 1.5 }, "maxRuns"],
        [{ retentionMs: "1" }, "retentionMs"], [{ now: 5 }, "now"], [{ bogus: 1 }, "bogus"]]) {
        const error = await refuses((async () => make(options))(), "INVALID_OPTION", JSON.stringify(options));
        equal(error.field, field, `field of ${JSON.stringify(options)}`);
      }
      await withStore(make, {}, async (store) => {
        const error = await refuses(store.start({ id: 7, protocol: "agent-api" }), "INVALID_OPTION", "a numeric id");
        equal(error.field, "id", "field");
      });
    },
  },
];

/** Runs every check against `make`: `[{name, ok, error}]`. */
export async function runStoreContract(make) {
  const results = [];
  for (const { name, run } of STORE_CONTRACT) {
    try {
      await run(make);
      results.push({ name, ok: true });
    } catch (e) {
      results.push({ name, ok: false, error: e?.stack ?? String(e) });
    }
  }
  return results;
}
