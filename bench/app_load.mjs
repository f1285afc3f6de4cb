// `npm run bench` (after bench/app.mjs): agentwire's AgentApp on node:http (bench/app_server.mjs,
// 127.0.0.1) under hostile clients. Phases on one server process, each CLIENTS normal clients
// reading a ~200-event `/process` stream to its end, round after round for PHASE_MS (at least
// ROUNDS rounds):
//   quiet    the normal clients alone (then again after the hostile phase);
//   hostile  the same while, from the phase's start, SLOW slow readers (a stream requested, then
//            READ_BYTES bytes read every READ_MS), HALF clients that send half of a declared
//            body and vanish (half of them close, half go silent with the socket open) and
//            AFTER404 clients that send a body of AFTER404_KB KiB after the 404 of an unknown
//            route; the socket of every hostile client is destroyed at the end of the phase.
// Measured: the normal clients' events per second (wall), the server's events per CPU-second
// (utime + stime from /proc/<pid>/stat, every client's work included), time to first event of
// the normal clients (p50, p99: is the server still responsive?), the server's peak RSS (VmRSS
// every 10 ms; ended runs are kept RETENTION_MS) and its RSS after the phase, and the hostile
// sockets of each kind the server still had open at the end. Clients are aborted after LIMIT_MS.
//   BENCH_LOAD_CLIENTS (50), BENCH_LOAD_ROUNDS (5), BENCH_LOAD_MS (5000), BENCH_LOAD_SLOW (100),
//   BENCH_LOAD_HALF (100), BENCH_LOAD_AFTER404 (50), DELTAS (194).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const CLIENTS = env("BENCH_LOAD_CLIENTS", 50);
const ROUNDS = env("BENCH_LOAD_ROUNDS", 5);
const SLOW = env("BENCH_LOAD_SLOW", 100);
const HALF = env("BENCH_LOAD_HALF", 100);
const AFTER404 = env("BENCH_LOAD_AFTER404", 50);
const AFTER404_KB = 256;
const READ_BYTES = 4;
const READ_MS = 500;
const PHASE_MS = env("BENCH_LOAD_MS", 5_000);
const LIMIT_MS = 60_000;
const RETENTION_MS = 1_000;
const HOST = "127.0.0.1";

const server = await new Promise((resolve, reject) => {
  // Ended runs are kept RETENTION_MS (not the default 10 minutes): the server's RSS is then
  // what the clients cost, not the logs of the thousands of runs that ended before.
  const child = spawn(process.execPath, ["bench/app_server.mjs"], {
    cwd: ROOT, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RETENTION_MS: String(RETENTION_MS) },
  });
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
    const m = /listening (\d+)/.exec(out);
    if (m) resolve({ child, port: Number(m[1]) });
  });
  child.once("exit", (code) => reject(new Error(`bench/app_server.mjs exited with ${code}`)));
});
const pid = server.child.pid;
const cpuSeconds = () => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

let sessions = 0;
const body = () => JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "Go" }] }], session_id: `load-${++sessions}` });
const isEvent = (block) => block.startsWith("data:") || block.includes("\ndata:");

/** A normal client: the whole stream; its events and time to first event (ms). */
async function normal(signal) {
  const t0 = performance.now();
  const res = await fetch(`http://${HOST}:${server.port}/process`, {
    method: "POST", headers: { "content-type": "application/json" }, body: body(), signal,
  });
  if (res.status !== 200) throw new Error(`/process answered ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let first = null;
  let events = 0;
  let tail = "";
  for await (const value of res.body) {
    const parts = (tail + decoder.decode(value, { stream: true })).split("\n\n");
    tail = parts.pop();
    for (const p of parts) {
      if (!isEvent(p)) continue;
      events++;
      first ??= performance.now() - t0;
    }
  }
  return { events, first };
}

/** A raw connection to the server; every socket of a phase is in `sockets`, destroyed at its end. */
function open(sockets, kind) {
  const socket = connect({ host: HOST, port: server.port });
  socket.on("error", () => {}); // the server may close or reset: that is its right
  socket.kind = kind;
  sockets.add(socket);
  socket.once("close", () => sockets.delete(socket));
  return socket;
}

const request = (method, path, length) =>
  `${method} ${path} HTTP/1.1\r\nhost: ${HOST}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;

/** A reader that takes READ_BYTES bytes every READ_MS of a stream it asked for. */
function slowReader(sockets, timers) {
  const socket = open(sockets, "slow");
  const payload = Buffer.from(body());
  socket.write(request("POST", "/process", payload.length));
  socket.write(payload);
  socket.pause();
  timers.push(setInterval(() => socket.read(READ_BYTES), READ_MS));
}

/** Half of a declared body, then gone (`close`) or silent with the socket open. */
function halfBody(sockets, close) {
  const socket = open(sockets, close ? "half, closed" : "half, silent");
  const payload = Buffer.from(body());
  socket.write(request("POST", "/process", payload.length * 2));
  socket.write(payload.subarray(0, payload.length));
  if (close) socket.end(() => socket.destroy());
}

/** A body of AFTER404_KB KiB sent once the server answered 404 to its headers. */
function bodyAfter404(sockets) {
  const socket = open(sockets, "after 404");
  const size = AFTER404_KB * 1024;
  socket.write(request("POST", "/no-such-route", size));
  socket.once("data", () => {
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < size && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once("drain", more);
      }
    };
    more();
  });
  socket.resume();
}

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function phase(name, hostile) {
  const sockets = new Set();
  const timers = [];
  const deadline = AbortSignal.timeout(LIMIT_MS);
  let peak = rss();
  const sampler = setInterval(() => { peak = Math.max(peak, rss()); }, 10);
  if (hostile) {
    for (let i = 0; i < SLOW; i++) slowReader(sockets, timers);
    for (let i = 0; i < HALF; i++) halfBody(sockets, i % 2 === 0);
    for (let i = 0; i < AFTER404; i++) bodyAfter404(sockets);
  }
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  const firsts = [];
  let events = 0;
  try {
    for (let r = 0; r < ROUNDS || performance.now() - t0 < PHASE_MS; r++) {
      for (const x of await Promise.all(Array.from({ length: CLIENTS }, () => normal(deadline)))) {
        events += x.events;
        firsts.push(x.first);
      }
    }
  } finally {
    clearInterval(sampler);
    for (const t of timers) clearInterval(t);
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds() - cpu0;
  const left = {};
  for (const s of sockets) left[s.kind] = (left[s.kind] ?? 0) + 1;
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    phase: name,
    "hostile sockets still open": hostile ? Object.entries(left).map(([k, n]) => `${k}: ${n}`).join(", ") || "none" : "–",
    "events/s (normal clients)": Math.round(events / wall),
    "events per CPU-second": Math.round(events / cpu),
    "first event p50 (ms)": percentile(firsts, 50).toFixed(1),
    "first event p99 (ms)": percentile(firsts, 99).toFixed(1),
    "peak RSS (MiB)": (peak / 2 ** 20).toFixed(1),
    "RSS after (MiB)": (rss() / 2 ** 20).toFixed(1),
  };
}

const rows = [];
try {
  await phase("warm-up", false);
  rows.push(await phase("quiet", false));
  rows.push(await phase("hostile", true));
  rows.push(await phase("quiet again", false));
} finally {
  server.child.kill("SIGTERM");
}
console.log(`\nAgentApp under hostile clients: ${CLIENTS} normal clients, rounds for ${PHASE_MS / 1000} s per phase; hostile: ${SLOW} slow readers (${READ_BYTES} B every ${READ_MS} ms), ${HALF} half bodies (half closed, half silent), ${AFTER404} × ${AFTER404_KB} KiB bodies after a 404`);
console.table(rows);
const [quiet, hostile] = rows;
const ratio = Number(hostile["first event p99 (ms)"]) / Number(quiet["first event p99 (ms)"]);
console.log(`hostile / quiet: events/s ${(hostile["events/s (normal clients)"] / quiet["events/s (normal clients)"]).toFixed(2)}×, first event p99 ${ratio.toFixed(2)}×`);
