// `npm run bench`: runs every workload in bench/workloads/ side by side in one process and prints
// a table of agentwire against a JS baseline. Imports the built package from pkg/ (node entry).
// Usage: node bench/run.mjs [workload-name-substring...]
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as agentwire from "../pkg/node.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const dir = fileURLToPath(new URL("./workloads/", import.meta.url));
const filters = process.argv.slice(2);

/** Best wall time of `ROUNDS` runs of `fn`, after one warm-up run (ms). An async `fn` (a
 * baseline whose pipeline is asynchronous) is awaited; a sync one runs without awaiting. */
async function best(fn, rounds = ROUNDS) {
  if (rounds > 1) {
    const r = fn();
    if (r instanceof Promise) await r;
  }
  let min = Infinity;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    const r = fn();
    if (r instanceof Promise) await r;
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

const rows = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith(".mjs")).sort()) {
  const { default: workload } = await import(new URL(`./workloads/${file}`, import.meta.url));
  if (filters.length && !filters.some((f) => workload.name.includes(f))) continue;
  const input = workload.setup();
  // Both sides must compute the same thing, or the comparison means nothing.
  workload.verify?.(await workload.agentwire(agentwire, input), await workload.baseline(input));
  const ms = {
    agentwire: await best(() => workload.agentwire(agentwire, input)),
    // A workload may cap the baseline's rounds (one that takes minutes runs once, no warm-up).
    baseline: await best(() => workload.baseline(input), workload.baselineRounds),
  };
  const per = (t) => (workload.units / (t / 1000) / 1e6).toFixed(2);
  rows.push({
    workload: workload.name,
    baseline: workload.baselineName,
    "agentwire ms": ms.agentwire.toFixed(1),
    "baseline ms": ms.baseline.toFixed(1),
    [`agentwire M ${workload.unit}/s`]: per(ms.agentwire),
    [`baseline M ${workload.unit}/s`]: per(ms.baseline),
    "speed vs baseline": `${(ms.baseline / ms.agentwire).toFixed(2)}×`,
  });
}
console.log(`node ${process.version}, best of ${ROUNDS} rounds after a warm-up; "speed" > 1× means agentwire is faster`);
console.table(rows);
