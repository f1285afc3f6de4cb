// The RunStore contract (tests/js/store-contract.mjs) against DurableObjectRunStore inside real
// Durable Objects (miniflare: workerd, its storage persisted on disk). Each check runs in a
// fresh object of its own, whose `make(options)` is a DurableObjectRunStore over the object's
// `state.storage` (no namespace: the object keeps its runs' sessions itself). Then the object's
// next life: miniflare restarted over the same storage, a new store in an object that kept runs
// before reads them back as they were (the write-through to storage, caps included; a run the
// store forgot to make room stays forgotten).
// Used by runners/durable.mjs.
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Runs the contract in Durable Objects: `Miniflare` the class, `project` the test project,
 * `entry` the package's workerd entry, `pkgModules` its modules (miniflare's form), `persist`
 * a directory for the objects' storage. Returns `[{name, ok, error}]`.
 */
export async function durableStoreContract({ Miniflare, project, entry, pkgModules, persist }) {
  const workerPath = join(project, "contract-durable-worker.mjs");
  const durable = relative(project, join(entry, "..", "durable.js"));
  writeFileSync(workerPath, `
import "./${relative(project, entry)}"; // instantiates the wasm
import { DurableObjectRunStore } from "./${durable}";
import { STORE_CONTRACT } from "./tests/store-contract.mjs";

const enc = new TextEncoder();
const dec = new TextDecoder();
const event = (id) => ({ id, bytes: enc.encode(\`id: \${id}\\ndata: {}\\n\\n\`) });
async function readAll(iterable) {
  let text = "";
  for await (const chunk of iterable) text += dec.decode(chunk);
  return text;
}

export class ContractObject {
  #state;
  #store = null;
  constructor(state) {
    this.#state = state;
  }
  #make = (options) => (this.#store = new DurableObjectRunStore(this.#state.storage, options));

  async fetch(request) {
    const url = new URL(request.url);
    try {
      if (url.pathname === "/check") {
        await STORE_CONTRACT[Number(url.searchParams.get("index"))].run(this.#make);
        return Response.json({ ok: true });
      }
      // The first life keeps two runs (one trimmed by maxEvents; a third forgotten by maxRuns);
      // the next reads them back.
      const store = this.#make({ maxEvents: 3, maxRuns: 2 });
      if (url.pathname === "/keep") {
        await store.start({ id: "evicted", protocol: "agent-api" });
        await store.end("evicted");
        await store.start({ id: "kept", protocol: "agent-api", session: "s", principal: "p", meta: { a: 1 } });
        for (let i = 0; i < 6; i += 2) await store.append("kept", [event(i), event(i + 1)]);
        await store.end("kept");
        await store.start({ id: "going", protocol: "agent-api", session: "s" });
        await store.append("going", [event(0)]);
        return Response.json({ ok: true });
      }
      const evicted = await store.get("evicted");
      const kept = await store.get("kept");
      const going = await store.get("going");
      const text = await readAll(await store.read("kept", 2));
      let lost = null;
      try {
        await readAll(await store.read("going", -1));
      } catch (e) {
        lost = e.code;
      }
      return Response.json({
        ok: true,
        evicted,
        kept: [kept.status, kept.first, kept.next, kept.principal, kept.meta, text.match(/^id: \\d+$/gm)],
        going: [going.status, lost],
        // The session of the run lost with the object's last life is free.
        next: await store.start({ id: "next", protocol: "agent-api", session: "s" }).then(() => "started", (e) => e.code),
      });
    } catch (e) {
      return Response.json({ ok: false, error: e?.stack ?? String(e) });
    }
  }

  async alarm() {
    await this.#store?.expire();
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/names") return Response.json(STORE_CONTRACT.map((c) => c.name));
    const ns = env.CONTRACT;
    const id = url.pathname === "/check" ? ns.newUniqueId() : ns.idFromName("lives");
    return ns.get(id).fetch(request);
  },
};
`);
  const config = {
    host: "127.0.0.1",
    port: 0,
    compatibilityDate: "2025-09-01",
    modulesRoot: project,
    modules: [
      { type: "ESModule", path: workerPath },
      { type: "ESModule", path: join(project, "tests/store-contract.mjs") },
      ...pkgModules,
    ],
    durableObjects: { CONTRACT: "ContractObject" },
    durableObjectsPersist: persist,
  };
  const results = [];
  const record = async (name, fn) => {
    try {
      const error = await fn();
      results.push(error === undefined ? { name, ok: true } : { name, ok: false, error });
    } catch (e) {
      results.push({ name, ok: false, error: e?.stack ?? String(e) });
    }
  };
  const call = async (base, path) => {
    const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  let mf = new Miniflare(config);
  try {
    let base = (await mf.ready).origin;
    const names = await call(base, "/names");
    for (const [index, name] of names.entries()) {
      await record(`store contract, DurableObjectRunStore in a Durable Object: ${name}`, async () => (await call(base, `/check?index=${index}`)).error);
    }
    await record("DurableObjectRunStore, the object's next life (same storage): its ended run as it was, trimmed by the caps; the run maxRuns forgot still forgotten; its running run lost, its session free", async () => {
      const kept = await call(base, "/keep");
      if (!kept.ok) return kept.error;
      await mf.dispose();
      mf = new Miniflare(config);
      base = (await mf.ready).origin;
      const after = await call(base, "/after");
      if (!after.ok) return after.error;
      const want = {
        ok: true,
        evicted: null,
        kept: ["ended", 3, 6, "p", { a: 1 }, ["id: 3", "id: 4", "id: 5"]],
        going: ["lost", "RUN_LOST"],
        next: "started",
      };
      return JSON.stringify(after) === JSON.stringify(want) ? undefined : `got ${JSON.stringify(after)}, want ${JSON.stringify(want)}`;
    });
  } finally {
    await mf.dispose();
  }
  return results;
}
