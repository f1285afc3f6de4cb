// A seeded fuzzer of the RunStore contract: random sequences of start, append, end, get, read,
// log, cancel and running() with a few ids, sessions and principals, cursors anywhere, readers
// that follow runs live and abort at random, and a fake clock moved to the edges of retention,
// each result checked against a plain model of what the contract promises (runs.d.ts):
// ids consecutive, readers that neither skip nor repeat, RUN_GONE exactly when the cursor is
// before what is kept, one running run per exclusive session, the caps, every refusal an
// AgentwireError with a documented code. No Node APIs: any store, any runtime.
import { xorshift32 } from "./seeded.mjs";

export { xorshift32 };

/** The codes runs.d.ts documents. */
const CODES = new Set(["RUN_EXISTS", "SESSION_BUSY", "TOO_MANY_RUNS", "INVALID_OPTION", "STORE_UNAVAILABLE", "RUN_GONE", "RUN_LOST", "NOT_FOUND"]);

const enc = new TextEncoder();
const dec = new TextDecoder();
const idsOf = (text) => (text.match(/^id: \d+$/gm) ?? []).map((l) => Number(l.slice(4)));

class Mismatch extends Error {}

/** What a call gave: `{ok, value}` or `{ok: false, code}`; throws on a refusal that is no AgentwireError of a documented code. */
async function outcome(what, promise) {
  try {
    return { ok: true, value: await promise };
  } catch (e) {
    if (e?.name !== "AgentwireError" || !CODES.has(e.code)) throw new Mismatch(`${what}: threw ${e?.name} ${e?.code}: ${e?.message}`);
    return { ok: false, code: e.code, error: e };
  }
}

function expectCode(what, got, codes) {
  const want = [codes].flat();
  const have = got.ok ? "ok" : got.code;
  if (!want.includes(have)) throw new Mismatch(`${what}: got ${have}, want ${want.join(" or ")}`);
}

function same(what, actual, expected) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Mismatch(`${what}: got ${a}, want ${e}`);
}

/**
 * One seeded sequence of `steps` calls on a store made by `make(options)` (options include the
 * fake clock's `now`). `flavor.lenient` (a store shared by instances) also accepts RUN_EXISTS
 * for the id of a forgotten run (its keys expire by the backend's clock); `mixed: false` keeps
 * each sequence's runs all exclusive or all not.
 * Resolves with a log of the calls; rejects with the first mismatch, the seed and the calls so
 * far in its message.
 */
export async function fuzzStore(make, seed, { steps = 80, lenient = false, mixed = true, settle = async () => {} } = {}) {
  const next = xorshift32(seed);
  const pick = (list) => list[next() % list.length];
  const R = 60_000;
  const caps = { maxEvents: 2 + (next() % 12), maxBytes: 200 + (next() % 800), maxRuns: 2 + (next() % 6) };
  let t = 1_700_000_000_000;
  let advanced = 0;
  const now = () => t;
  const store = await make({ ...caps, retentionMs: R, now });
  const ids = ["a", "b", "c", "d", "e", "f:1", "é", "g h"].map((x) => `${x}-${seed}`);
  const sessions = [null, null, "s1", "s2", "s:3"];
  const principals = [null, "p1", "p2"];
  /** The model: id → run. */
  const runs = new Map();
  const readers = [];
  const trace = [];
  // Ids whose start succeeded: only they may linger in a backend after the model forgot them.
  const started = new Set();
  const cancels = new Map();
  /** The model of lastRun: session → the id started last in it. */
  const lastRuns = new Map();

  const state = (run) => {
    if (run.status === "running") return "live";
    const age = t - run.endedAt;
    if (age > 2 * R) return "forgotten";
    return age > R ? "gone" : "kept";
  };
  const forget = (run) => {
    run.forgotten = true;
    runs.delete(run.id);
  };
  const known = (id) => {
    const run = runs.get(id);
    if (run && state(run) === "forgotten") forget(run);
    return runs.get(id);
  };
  const dropOld = (run) => {
    while (run.sizes.length - (run.first - run.base) > 1) {
      const count = run.next - run.first;
      const bytes = run.sizes.slice(run.first - run.base).reduce((s, n) => s + n, 0);
      if (count <= caps.maxEvents && bytes <= caps.maxBytes) break;
      run.first++;
    }
  };
  const event = (id, size) => {
    const head = `id: ${id}\ndata: `;
    return { id, bytes: enc.encode(`${head}${"x".repeat(Math.max(0, size - head.length - 2))}\n\n`) };
  };

  /** A reader of run `id` after `after`, read in the background; checked at the end. */
  function follow(run, after, iterable, controller) {
    const r = { id: run.id, run, after, got: [], end: null, controller };
    r.done = (async () => {
      try {
        for await (const chunk of iterable) r.got.push(...idsOf(dec.decode(chunk)));
        r.end = { ok: true };
      } catch (e) {
        r.end = e?.name === "AgentwireError" && CODES.has(e.code) ? { ok: false, code: e.code, next: e.next } : { bad: `${e?.name}: ${e?.message}` };
      }
    })();
    readers.push(r);
  }

  const ops = {
    async start() {
      const id = pick(ids);
      const session = pick(sessions);
      const principal = pick(principals);
      // `mixed`: exclusive and non-exclusive runs share sessions (else each sequence uses one kind).
      const exclusive = mixed ? next() % 4 !== 0 : seed % 4 !== 0;
      const meta = { n: next() % 100 };
      trace.push(`start ${id} ${session} ${principal} ${exclusive}`);
      const got = await outcome(`start ${id}`, store.start({ id, protocol: "agent-api", session, principal, exclusive, meta }));
      const existing = known(id);
      let want;
      if (existing) want = "RUN_EXISTS";
      else if (exclusive && session !== null && [...runs.values()].some((r) => r.session === session && r.status === "running")) want = "SESSION_BUSY";
      else {
        const kept = [...runs.values()].filter((r) => state(r) !== "forgotten");
        if (kept.length >= caps.maxRuns) {
          const ended = kept.filter((r) => r.status !== "running").sort((x, y) => x.endedAt - y.endedAt);
          want = ended.length === 0 ? "TOO_MANY_RUNS" : "ok";
          if (ended.length && !(lenient && !got.ok && got.code === "RUN_EXISTS")) forget(ended[0]);
        } else want = "ok";
      }
      // A run the model forgot (by the fake clock) whose keys the backend's own clock still keeps.
      if (lenient && !existing && !got.ok && got.code === "RUN_EXISTS" && started.has(id)) return;
      expectCode(`start ${id}`, got, want);
      if (want !== "ok") return;
      runs.set(id, { id, session, principal, meta, status: "running", base: 0, first: 0, next: 0, sizes: [], endedAt: 0 });
      if (session !== null) lastRuns.set(session, id);
      started.add(id);
      let stopped = 0;
      cancels.set(id, { count: () => stopped, asked: 0 });
      store.onCancel(id, () => { stopped++; });
    },
    async lastRun() {
      if (typeof store.lastRun !== "function") return;
      const session = pick(["s1", "s2", "s:3"]);
      trace.push(`lastRun ${session}`);
      const got = await outcome(`lastRun ${session}`, store.lastRun(session));
      expectCode(`lastRun ${session}`, got, "ok");
      // The run started last in the session, while kept and still that session's (ids come back).
      const id = lastRuns.get(session);
      const want = id !== undefined && known(id)?.session === session ? id : null;
      // A backend on its own clock may keep a run the model (on the fake clock) forgot.
      if (lenient && got.value !== want) return;
      same(`lastRun ${session}`, got.value, want);
    },
    async append() {
      const id = pick(ids);
      const run = known(id);
      const n = next() % 5;
      const from = run?.next ?? 0;
      const sizes = Array.from({ length: n }, () => 20 + (next() % 300));
      trace.push(`append ${id} ${from}+${n}`);
      const got = await outcome(`append ${id}`, store.append(id, sizes.map((s, k) => event(from + k, s))));
      if (run?.status === "running") {
        expectCode(`append ${id}`, got, "ok");
        run.sizes.push(...sizes);
        run.next += n;
        dropOld(run);
      } else {
        // Not running (ended, lost, unknown): the caller no longer holds it; nothing is logged.
        expectCode(`append ${id} (not running)`, got, n === 0 ? "ok" : "RUN_LOST");
      }
    },
    async end() {
      const id = pick(ids);
      const status = pick(["ended", "ended", "lost"]);
      trace.push(`end ${id} ${status}`);
      const got = await outcome(`end ${id}`, store.end(id, status));
      expectCode(`end ${id}`, got, "ok");
      const run = known(id);
      if (run?.status === "running") {
        run.status = status;
        run.endedAt = t;
      }
    },
    async get() {
      const id = pick(ids);
      trace.push(`get ${id}`);
      const got = await outcome(`get ${id}`, store.get(id));
      expectCode(`get ${id}`, got, "ok");
      const run = known(id);
      if (!run) return same(`get ${id}`, got.value, null);
      const v = got.value;
      same(`get ${id}`, v && [v.id, v.session, v.principal, v.meta, v.status, v.first, v.next, v.gone],
        [id, run.session, run.principal, run.meta, run.status, run.first, run.next, state(run) === "gone"]);
    },
    async read() {
      const id = pick(ids);
      const run = known(id);
      const after = run ? pick([-1, -1, run.first - 2, run.first - 1, run.first, run.next - 2, run.next - 1, run.next + 1]) : -1;
      trace.push(`read ${id} ${after}`);
      const controller = next() % 3 === 0 ? new AbortController() : undefined;
      const got = await outcome(`read ${id}`, store.read(id, after, controller?.signal));
      if (!run) return expectCode(`read ${id}`, got, "NOT_FOUND");
      const st = state(run);
      if (st === "gone" || after + 1 < run.first) return expectCode(`read ${id} after ${after} (first ${run.first})`, got, "RUN_GONE");
      expectCode(`read ${id} after ${after}`, got, "ok");
      if (run.status === "running") return follow(run, after, got.value, controller);
      const text = [];
      let end = { ok: true };
      try {
        for await (const chunk of got.value) text.push(dec.decode(chunk));
      } catch (e) {
        end = { code: e?.code, next: e?.next, name: e?.name };
      }
      const from = Math.max(after + 1, run.first);
      same(`read ${id} after ${after}: ids`, idsOf(text.join("")), Array.from({ length: Math.max(0, run.next - from) }, (_, k) => from + k));
      same(`read ${id} after ${after}: end`, end, run.status === "lost" ? { code: "RUN_LOST", next: run.next, name: "AgentwireError" } : { ok: true });
    },
    async log() {
      const id = pick(ids);
      trace.push(`log ${id}`);
      const got = await outcome(`log ${id}`, store.log(id));
      expectCode(`log ${id}`, got, "ok");
      const run = known(id);
      const want = !run || state(run) === "gone" ? [] : Array.from({ length: run.next - run.first }, (_, k) => run.first + k);
      same(`log ${id}`, idsOf(dec.decode(got.value)), want);
    },
    async cancel() {
      const id = pick(ids);
      trace.push(`cancel ${id}`);
      const got = await outcome(`cancel ${id}`, store.cancel(id));
      expectCode(`cancel ${id}`, got, "ok");
      const run = known(id);
      same(`cancel ${id}`, got.value, run?.status === "running");
      if (run?.status === "running") cancels.get(id).asked++;
    },
    async running() {
      trace.push("running");
      const got = await outcome("running", store.running());
      expectCode("running", got, "ok");
      same("running()", got.value.map((r) => r.id).sort(), [...runs.values()].filter((r) => r.status === "running").map((r) => r.id).sort());
    },
    async abort() {
      const live = readers.filter((r) => r.controller && !r.controller.signal.aborted);
      if (live.length === 0) return;
      const r = pick(live);
      trace.push(`abort reader of ${r.id}`);
      r.controller.abort();
    },
    async clock() {
      const step = pick([1, 7, 1000, R - 1, R, R + 1, 2 * R, 2 * R + 1]);
      if (lenient && advanced + step > 6 * R) return; // the backend's own clock keeps a run's keys
      trace.push(`clock +${step}`);
      t += step;
      advanced += step;
    },
  };
  const weights = [["start", 6], ["append", 8], ["end", 4], ["get", 3], ["read", 4], ["log", 2], ["cancel", 2], ["running", 1], ["abort", 1], ["clock", 3], ["lastRun", 2]];
  const table = weights.flatMap(([name, w]) => Array(w).fill(name));
  try {
    for (let i = 0; i < steps; i++) {
      await ops[pick(table)]();
      t += 1; // time moves on between calls, as a real clock's does
      if (next() % 4 === 0) await settle();
    }
    // A cancel reaches the run's canceler while the run goes (at once, or within a settle).
    await settle();
    await new Promise((resolve) => setTimeout(resolve, lenient ? 50 : 0));
    for (const [id, c] of cancels) {
      const canceled = lenient ? runs.get(id)?.status === "running" && c.asked > 0 : c.asked > 0;
      if (canceled && c.count() === 0) throw new Mismatch(`cancel ${id}: its canceler never ran`);
    }
    // Every run ends; every reader then ends with what its run logged after its cursor.
    for (const run of runs.values()) {
      if (run.status !== "running") continue;
      trace.push(`end ${run.id} ended (final)`);
      await store.end(run.id);
      run.status = "ended";
      run.endedAt = t;
    }
    await settle();
    await Promise.race([Promise.all(readers.map((r) => r.done)), new Promise((resolve) => setTimeout(resolve, 5000))]);
    for (const r of readers) {
      const { run } = r;
      const what = `reader of ${r.id} after ${r.after}`;
      if (r.end === null) throw new Mismatch(`${what}: never ended (got ${r.got.join(",")})`);
      if (r.end.bad) throw new Mismatch(`${what}: ${r.end.bad}`);
      const from = r.got.length ? r.got[0] : undefined;
      if (from !== undefined) same(`${what}: consecutive`, r.got, Array.from({ length: r.got.length }, (_, k) => from + k));
      if (from !== undefined && from !== r.after + 1) throw new Mismatch(`${what}: started at ${from}`);
      const reached = r.after + 1 + r.got.length;
      const aborted = r.controller?.signal.aborted;
      if (r.end.ok) {
        // Aborted, a reader stops where it is; else it ends with the run.
        if (aborted && reached <= Math.max(run.next, r.after + 1)) continue;
        same(`${what}: reached`, reached, Math.max(run.next, r.after + 1));
        if (run.status === "lost") throw new Mismatch(`${what}: a lost run's reader ended quietly`);
      } else if (r.end.code === "RUN_LOST") {
        same(`${what}: RUN_LOST`, [run.status, reached, r.end.next], ["lost", Math.max(run.next, r.after + 1), run.next]);
      } else if ((run.forgotten || state(run) === "forgotten") && r.end.code === "RUN_GONE") {
        // Its run was forgotten (past twice the retention, or to make room) before the reader
        // was done (or knew how the run ended).
      } else if (state(run) === "gone" && r.end.code === "RUN_GONE") {
        // Its log was dropped past retention before the reader was done.
      } else if (r.end.code === "RUN_GONE") {
        if (reached >= run.first) throw new Mismatch(`${what}: RUN_GONE at ${reached}, yet ${run.first}… are kept`);
      } else throw new Mismatch(`${what}: ended ${r.end.code}`);
    }
    return trace;
  } catch (e) {
    if (e instanceof Mismatch) {
      e.message = `seed ${seed} caps ${JSON.stringify(caps)}: ${e.message}\n  calls: ${trace.slice(process.env.FUZZ_SEED ? 0 : -25).join("; ")}`;
    }
    throw e;
  } finally {
    for (const r of readers) r.controller?.abort();
    await store.close?.();
  }
}
