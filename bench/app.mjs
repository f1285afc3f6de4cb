// `npm run bench` (after bench/run.mjs): agentwire's AgentApp on Node against the reference
// AgentApp (agentscope-runtime on uvicorn), the same scripted agent without delays: CLIENTS
// concurrent clients each reading a ~200-event `/process` stream, ROUNDS rounds per side,
// alternating. Measured on the server process: events per CPU-second (utime + stime from
// /proc/<pid>/stat over the rounds), time to first event (p50, p99, over every stream), and
// peak RSS above idle per open stream (VmRSS sampled every 5 ms while the clients read).
//   BENCH_APP_CLIENTS (100), BENCH_APP_ROUNDS (5), DELTAS (194 text deltas per answer).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLIENTS = Number(process.env.BENCH_APP_CLIENTS ?? 100);
const ROUNDS = Number(process.env.BENCH_APP_ROUNDS ?? 5);
const TICKS = 100; // USER_HZ on Linux

function start(cmd, args) {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env } });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve({ child, base: `http://127.0.0.1:${m[1]}` });
    });
    child.once("exit", (code) => reject(new Error(`${cmd} exited with ${code}`)));
  });
}

function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime
}
function rssBytes(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : 0;
}

// Each client its own session: the reference runs one request per session at a time.
let sessions = 0;
const body = () => JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "Go" }] }], session_id: `bench-${++sessions}` });

const isEvent = (block) => block.startsWith("data:") || block.includes("\ndata:");

async function stream(base) {
  const t0 = performance.now();
  const res = await fetch(`${base}/process`, { method: "POST", headers: { "content-type": "application/json" }, body: body() });
  // A refused stream (e.g. 429 over a cap) is not a measurement: stop rather than count it.
  if (res.status !== 200) throw new Error(`${base}/process answered ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let first = null;
  let events = 0;
  let tail = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = tail + decoder.decode(value, { stream: true });
    const parts = text.split("\n\n");
    tail = parts.pop();
    for (const p of parts) {
      // An event is a block with a data line (agentwire's durable runs put `id: N` first).
      if (isEvent(p)) {
        events++;
        if (first === null) first = performance.now() - t0;
      }
    }
  }
  if (isEvent(tail)) events++;
  return { first, events };
}

async function round(server) {
  const idle = rssBytes(server.child.pid);
  let peak = idle;
  const sampler = setInterval(() => { peak = Math.max(peak, rssBytes(server.child.pid)); }, 5);
  const results = await Promise.all(Array.from({ length: CLIENTS }, () => stream(server.base)));
  clearInterval(sampler);
  return { results, perStream: Math.max(0, peak - idle) / CLIENTS };
}

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const sides = {
  agentwire: await start(process.execPath, ["bench/app_server.mjs"]),
  reference: await start(`${ROOT}.venv/bin/python`, ["bench/app_reference.py"]),
};
const measured = { agentwire: { cpu: 0, events: 0, firsts: [], mem: [] }, reference: { cpu: 0, events: 0, firsts: [], mem: [] } };
try {
  for (const side of Object.keys(sides)) await round(sides[side]); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 ? ["reference", "agentwire"] : ["agentwire", "reference"]) {
      const s = sides[side];
      const before = cpuSeconds(s.child.pid);
      const { results, perStream } = await round(s);
      const m = measured[side];
      m.cpu += cpuSeconds(s.child.pid) - before;
      for (const x of results) {
        m.events += x.events;
        m.firsts.push(x.first);
      }
      m.mem.push(perStream);
    }
  }
} finally {
  for (const s of Object.values(sides)) s.child.kill("SIGTERM");
}

const row = (side) => {
  const m = measured[side];
  return {
    side,
    "events/stream": Math.round(m.events / (CLIENTS * ROUNDS)),
    "events per CPU-second": Math.round(m.events / m.cpu),
    "first event p50 (ms)": percentile(m.firsts, 50).toFixed(1),
    "first event p99 (ms)": percentile(m.firsts, 99).toFixed(1),
    "peak RSS per open stream (KiB)": (percentile(m.mem, 50) / 1024).toFixed(1),
  };
};
const rows = [row("agentwire"), row("reference")];
console.log(`\nAgentApp: ${CLIENTS} concurrent clients × ${ROUNDS} rounds, /process, no delays (server process measured)`);
console.table(rows);
const ratio = rows[0]["events per CPU-second"] / rows[1]["events per CPU-second"];
console.log(`events per CPU-second: agentwire / reference = ${ratio.toFixed(1)}× (target ≥ 15×: ${ratio >= 15 ? "met" : "NOT met"})`);
