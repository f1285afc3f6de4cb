// A real redis-server on 127.0.0.1 for the tests: a free port, no persistence (unless asked), stopped after.
// For outage tests it can be killed and started again on the same port (`restart`), paused
// and resumed (SIGSTOP / SIGCONT: a Redis that takes no answer), and sent commands directly
// (`command`, e.g. CONFIG SET maxmemory) over a connection of its own.
import { spawn } from "node:child_process";
import { createServer, connect } from "node:net";

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a redis-server on `port` (`extra`: more arguments); resolves with its child process once it accepts connections. */
async function spawnRedis(port, extra = []) {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 15_000);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${output}`));
    });
  });
  child.removeAllListeners("exit");
  child.stdout.resume();
  return child;
}

function kill(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", resolve);
    // SIGKILL ends a paused (SIGSTOP) process too; nothing before it: Deno's child_process
    // takes a process sent any signal as killed, and sends no second one.
    child.kill("SIGKILL");
  });
}

/** RESP encoding of one command. */
function resp(args) {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(String(a))}\r\n${a}\r\n`).join("")}`;
}

/**
 * Starts `redis-server` (Debian's, installed by scripts/setup.sh): `{url, port, stop(),
 * restart(), pause(), resume(), command(...args)}`. With `persist`, every write is kept (fsync'd
 * each time) in an append-only directory of that name, which redis-server makes in the current
 * directory (the throwaway test project), so the data outlives a kill and a start.
 */
export async function startRedis({ persist = null } = {}) {
  const port = await freePort();
  const extra = persist === null ? [] : ["--appendonly", "yes", "--appenddirname", `${persist}-${port}`, "--appendfsync", "always"];
  let child = await spawnRedis(port, extra);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    /** Kills the server (its data is lost). */
    kill: () => kill(child),
    /** Starts it again on the same port (empty, unless `persist` kept its data). */
    start: async () => {
      child = await spawnRedis(port, extra);
    },
    /** Kills it and starts it again on the same port. */
    restart: async () => {
      await kill(child);
      child = await spawnRedis(port, extra);
    },
    /** Stops the process (SIGSTOP): connections stay open, nothing is answered. */
    pause: () => child.kill("SIGSTOP"),
    /** Lets it go on (SIGCONT). */
    resume: () => child.kill("SIGCONT"),
    /** Sends one command on a connection of its own; resolves with the raw reply's first line. */
    command: (...args) => new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(resp(args)));
      let reply = "";
      socket.on("data", (chunk) => {
        reply += chunk;
        if (reply.includes("\r\n")) {
          socket.destroy();
          resolve(reply.slice(0, reply.indexOf("\r\n")));
        }
      });
      socket.on("error", reject);
    }),
    stop: () => kill(child),
  };
}

/**
 * For a node:test file: a redis-server started before its tests and a connected client of the
 * `redis` package (resolved from the workspace `root`), both closed after. Returns the holder:
 * `redis` (startRedis's) and `client` are set once the tests start. Nothing starts when `skip`.
 */
export function redisForTests(test, root, skip) {
  const held = { redis: null, client: null };
  test.before(async () => {
    if (skip) return;
    held.redis = await startRedis();
    const { createRequire } = await import("node:module");
    held.client = createRequire(`${root}/package.json`)("redis").createClient({ url: held.redis.url });
    await held.client.connect();
  });
  test.after(async () => {
    await held.client?.close().catch(() => {});
    await held.redis?.stop();
  });
  return held;
}
