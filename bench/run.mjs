// `npm run bench`: runs every workload in bench/workloads/ side by side in one process and prints
// a table of agentwire against a JS baseline, then the targets and whether each is met.
// Imports the built package from pkg/ (node entry).
// Usage: node [--expose-gc] bench/run.mjs [workload-name-substring...]
//   BENCH_ROUNDS   timed rounds per side (default 7), after one warm-up run of each side.
// Rounds alternate the two sides (agentwire first in even rounds, the baseline first in odd ones),
// so drift on a shared machine hits both; best and median are reported, ratios use the medians.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as agentwire from "../pkg/node.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const dir = fileURLToPath(new URL("./workloads/", import.meta.url));
const filters = process.argv.slice(2);
const gc = globalThis.gc ?? (() => {});

async function timed(fn) {
  gc();
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { best: sorted[0], median, times };
}

async function measure(workload, input) {
  await workload.agentwire(agentwire, input);
  await workload.baseline(input);
  const ours = [];
  const theirs = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      ours.push(await timed(() => workload.agentwire(agentwire, input)));
      theirs.push(await timed(() => workload.baseline(input)));
    } else {
      theirs.push(await timed(() => workload.baseline(input)));
      ours.push(await timed(() => workload.agentwire(agentwire, input)));
    }
  }
  return { agentwire: stats(ours), baseline: stats(theirs) };
}

const workloads = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith(".mjs")).sort()) {
  const { default: exported } = await import(new URL(`./workloads/${file}`, import.meta.url));
  for (const workload of [exported].flat()) {
    if (filters.length && !filters.some((f) => workload.name.includes(f))) continue;
    workloads.push(workload);
  }
}

const results = new Map();
const rows = [];
const targets = [];
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const rate = (workload, ms) => {
  const per = workload.units / (ms / 1000);
  return per >= 1e6 ? `${(per / 1e6).toFixed(2)} M` : `${(per / 1e3).toFixed(1)} k`;
};
for (const workload of workloads) {
  const input = await workload.setup();
  // Both sides must compute the same thing, or the comparison means nothing.
  await workload.verify?.(await workload.agentwire(agentwire, input), await workload.baseline(input), input);
  const r = await measure(workload, input);
  results.set(workload.name, r);
  rows.push({
    workload: workload.name,
    baseline: workload.baselineName,
    "agentwire ms best / median": `${fmt(r.agentwire.best)} / ${fmt(r.agentwire.median)}`,
    "baseline ms best / median": `${fmt(r.baseline.best)} / ${fmt(r.baseline.median)}`,
    [`agentwire ${workload.unit}/s`]: rate(workload, r.agentwire.median),
    [`baseline ${workload.unit}/s`]: rate(workload, r.baseline.median),
    "speed vs baseline": `${(r.baseline.median / r.agentwire.median).toFixed(2)}×`,
  });
  for (const t of workload.targets?.(r, results) ?? []) {
    targets.push({ workload: workload.name, target: t.target, measured: t.measured, met: t.met ? "yes" : "NO" });
  }
  if (input && typeof input.dispose === "function") input.dispose();
}
console.log(`node ${process.version}, ${ROUNDS} alternating rounds per side after a warm-up` +
  `${globalThis.gc ? ", gc before each run" : ""}; rates and "speed" use medians; "speed" > 1× means agentwire is faster`);
console.table(rows);
if (targets.length) {
  console.log("targets (from medians):");
  console.table(targets);
}
if (process.env.BENCH_JSON) {
  const { writeFileSync } = await import("node:fs");
  writeFileSync(process.env.BENCH_JSON, JSON.stringify({ node: process.version, rounds: ROUNDS,
    results: Object.fromEntries(results), targets }, null, 2));
}
