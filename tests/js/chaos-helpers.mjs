// The chaos harness: a TCP proxy on 127.0.0.1 that cuts connections at seeded random byte
// offsets of the answer, and runs read through it by StreamAssembler.connect in the four
// protocols, each compared with the uninterrupted run. Shared by tests/js/chaos.test.mjs (memory
// and Redis stores) and the Durable Objects runner (tests/js/runners/durable.mjs).
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { createServer as createTcpServer, connect as tcpConnect } from "node:net";
import { xorshift32 } from "./reference-streams.mjs";

/**
 * A TCP proxy that cuts each connection after a random number of answer bytes (or never); each
 * connection goes to one of `targets` (ports), at random.
 */
export async function chaosProxy(targets, seed) {
  const next = xorshift32(seed);
  const stats = { connections: 0, cuts: 0 };
  const proxy = createTcpServer((client) => {
    stats.connections++;
    const upstream = tcpConnect(targets[next() % targets.length], "127.0.0.1");
    // Cut 2 connections in 3, somewhere in the first 6 KB of the answer.
    const cutAt = next() % 3 === 0 ? Infinity : next() % 6000;
    let sent = 0;
    const cut = () => {
      stats.cuts++;
      client.destroy();
      upstream.destroy();
    };
    upstream.on("data", (chunk) => {
      if (sent + chunk.length > cutAt) {
        client.write(chunk.subarray(0, cutAt - sent), cut);
        sent = cutAt;
        upstream.pause();
        return;
      }
      sent += chunk.length;
      client.write(chunk);
    });
    client.on("data", (chunk) => upstream.write(chunk));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return { proxy, stats, port: proxy.address().port };
}

/** fetch over node:http with a new TCP connection per request (so each one meets the proxy). */
export function freshFetch(url, init = {}) {
  return new Promise((resolve, reject) => {
    const headers = Object.fromEntries(new Headers(init.headers ?? {}));
    const req = httpRequest(url, { method: init.method ?? "GET", headers, agent: false, signal: init.signal }, (res) => {
      const h = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v);
      const body = Readable.toWeb(res);
      resolve(new Response(res.statusCode === 204 ? null : body, { status: res.statusCode, headers: h }));
    });
    req.on("error", reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

export const JSON_HEADERS = { "content-type": "application/json" };
export const ROUTES = {
  "agent-api": { path: "/process", body: () => ({ input: [{ role: "user", content: [{ type: "text", text: "go" }] }] }) },
  // A2A resumes with SubscribeToTask and Last-Event-ID (agentwire's extension), on the same URL.
  a2a: {
    path: "/a2a",
    headers: { ...JSON_HEADERS, "a2a-version": "1.0" },
    body: () => ({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text: "go" }] } } }),
  },
  "openai-responses": { path: "/compatible-mode/v1/responses", body: () => ({ model: "m", input: "go", stream: true }) },
  "ag-ui": { path: "/ag-ui", body: () => ({ threadId: crypto.randomUUID(), runId: crypto.randomUUID(), messages: [{ id: "u", role: "user", content: "go" }], tools: [], context: [], state: {}, forwardedProps: {} }) },
};

export function essence(snapshot) {
  return JSON.stringify(snapshot, (key, value) =>
    ["id", "created_at", "completed_at", "session_id", "msg_id", "threadId", "runId", "timestamp", "sequence_number"].includes(key) ? undefined : value);
}

/**
 * `perProtocol` runs of each protocol through a cutting proxy in front of `servers` (one
 * instance, or several sharing a store): every snapshot equals the uninterrupted run's.
 */
export async function chaos(StreamAssembler, ports, perProtocol, seed) {
  const { proxy, stats, port } = await chaosProxy(ports, seed);
  const direct = `http://127.0.0.1:${ports[0]}`;
  const viaProxy = `http://127.0.0.1:${port}`;
  let runs = 0;
  let reconnects = 0;
  try {
    for (const [protocol, { path, body, headers = JSON_HEADERS }] of Object.entries(ROUTES)) {
      const want = essence(await StreamAssembler.collect(await fetch(`${direct}${path}`, { method: "POST", headers, body: JSON.stringify(body()) }), { protocol }));
      for (let i = 0; i < perProtocol; i++) {
        const connection = StreamAssembler.connect(`${viaProxy}${path}`, { method: "POST", headers, body: JSON.stringify(body()) },
          { protocol, backoffMs: 1, maxAttempts: 50, fetch: freshFetch });
        let reported = 0;
        try {
          for await (const updates of connection) {
            reported += updates.filter((u) => u.type === "reconnect").length;
          }
        } catch (error) {
          // A cut inside the first answer's headers: the run may not have started, or its id is
          // unknown to the client; start again (a new run), as a client would.
          if (connection.runId !== null) throw error;
          i--;
          connection.free();
          continue;
        }
        assert.equal(reported, connection.reconnects);
        assert.equal(connection.assembler.outcome, "completed", `${protocol} run ${i}`);
        assert.equal(essence(connection.assembler.snapshot()), want, `${protocol} run ${i}`);
        reconnects += connection.reconnects;
        runs++;
        connection.free();
      }
    }
  } finally {
    proxy.close();
  }
  return { runs, reconnects, cuts: stats.cuts };
}

