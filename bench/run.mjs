// `npm run bench`: runs every workload in bench/workloads/ side by side in one process and prints
// a table of agentwire against a JS baseline, then the targets and whether each is met.
// Imports the built package from pkg/ (node entry).
// Usage: node bench/run.mjs [workload-name-substring...]
// A workload may set `rounds` and `warmups` (minimum warm-up runs, default 3) when one run takes
// seconds.
// (No forced GC between runs: a full gc() before a short run doubled its time, as V8 then
// shrinks the young generation; alternating the sides shares the GC debt instead.)
//   BENCH_ROUNDS   timed rounds per side (default 7; 3× that for runs under 50 ms), after a
//                  warm-up of at least 3 runs of each side and 300 ms.
//   BENCH_JSON     also write every measurement to this file.
// Rounds alternate the two sides (agentwire first in even rounds, the baseline first in odd ones),
// so drift on a shared machine hits both. Each run is timed twice: wall clock, and the CPU time of
// this process (process.cpuUsage: user + system), which does not count the time the process
// waited for a core. Rates, ratios and targets use the CPU medians; wall best / median are shown.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as agentwire from "../pkg/node.js";
import * as agentwireLite from "../pkg/lite/node.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const dir = fileURLToPath(new URL("./workloads/", import.meta.url));
const filters = process.argv.slice(2);

async function timed(fn) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await fn();
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `median` (used for rates, ratios and targets) is the CPU median; wall times are kept too. */
function stats(runs) {
  const wall = runs.map((r) => r.wall);
  const cpu = runs.map((r) => r.cpu);
  return { median: median(cpu), best: Math.min(...cpu), wallBest: Math.min(...wall), wallMedian: median(wall), wall, cpu };
}

async function measure(workload, input) {
  // A workload may cap its baseline's rounds (one that takes minutes runs `baselineRounds` times,
  // without warm-up or alternation).
  const capped = workload.baselineRounds !== undefined;
  // Warm up until the JIT has settled: at least 3 runs of each side and 300 ms of work (short
  // workloads otherwise measure the optimising compiler, whose threads count as CPU time).
  let warm = 0;
  const warmups = workload.warmups ?? 3;
  for (let i = 0; i < warmups || (warm < 300 && i < 50); i++) {
    warm += (await timed(() => workload.agentwire(apiOf(workload), input))).wall;
    if (!capped) warm += (await timed(() => workload.baseline(input))).wall;
  }
  // Short workloads get more rounds: their medians are noisier.
  const rounds = workload.rounds ?? (warm / 6 < 50 ? ROUNDS * 3 : ROUNDS);
  const ours = [];
  const theirs = [];
  for (let i = 0; i < rounds; i++) {
    if (capped) {
      ours.push(await timed(() => workload.agentwire(apiOf(workload), input)));
    } else if (i % 2 === 0) {
      ours.push(await timed(() => workload.agentwire(apiOf(workload), input)));
      theirs.push(await timed(() => workload.baseline(input)));
    } else {
      theirs.push(await timed(() => workload.baseline(input)));
      ours.push(await timed(() => workload.agentwire(apiOf(workload), input)));
    }
  }
  for (let i = 0; capped && i < workload.baselineRounds; i++) {
    theirs.push(await timed(() => workload.baseline(input)));
  }
  return { agentwire: stats(ours), baseline: stats(theirs) };
}

// A workload with `lite: true` runs against agentwire/lite instead of the full package.
const apiOf = (workload) => (workload.lite ? agentwireLite : agentwire);

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
  await workload.verify?.(await workload.agentwire(apiOf(workload), input), await workload.baseline(input), input);
  const r = await measure(workload, input);
  results.set(workload.name, r);
  rows.push({
    workload: workload.name,
    "agentwire ms: cpu median (wall best / median)":
      `${fmt(r.agentwire.median)} (${fmt(r.agentwire.wallBest)} / ${fmt(r.agentwire.wallMedian)})`,
    "baseline ms: cpu median (wall best / median)":
      `${fmt(r.baseline.median)} (${fmt(r.baseline.wallBest)} / ${fmt(r.baseline.wallMedian)})`,
    agentwire: `${rate(workload, r.agentwire.median)} ${workload.unit}/s`,
    baseline: `${rate(workload, r.baseline.median)} ${workload.unit}/s`,
    speed: `${(r.baseline.median / r.agentwire.median).toFixed(2)}×`,
  });
  for (const t of workload.targets?.(r, results) ?? []) {
    targets.push({ workload: workload.name, target: t.target, measured: t.measured, met: t.met ? "yes" : "NO" });
  }
  if (input && typeof input.dispose === "function") input.dispose();
}
console.log(`node ${process.version}, ${ROUNDS} alternating rounds per side (3× for runs under 50 ms) after a warm-up` +
  `; rates, "speed" and targets use CPU-time medians;` +
  ` "speed" > 1× means agentwire is faster`);
console.table(rows);
console.log("baselines:");
for (const w of workloads) console.log(`  ${w.name}: ${w.baselineName}`);
if (targets.length) {
  console.log("targets (from medians):");
  console.table(targets);
}
if (process.env.BENCH_JSON) {
  const { writeFileSync } = await import("node:fs");
  writeFileSync(process.env.BENCH_JSON, JSON.stringify({ node: process.version, rounds: ROUNDS,
    results: Object.fromEntries(results), targets }, null, 2));
}
