// StreamAssembler.connect() against servers on 127.0.0.1 that misbehave: a resume answered by an
// HTML page, by the same prefix again and again (`retry: 0`), by another run; a caller's
// AbortSignal over many reconnects; the cancel routes (no request body); a connection refused.
// Each ends in bounded time and requests, with an AgentwireError of a stable code, and nothing
// of a wrong answer is merged into the run.
import test from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { AgentwireError, ResponseBuilder, StreamAssembler } from "agentwire";

const TEXT = "Sunny with a breeze, 23 degrees.";

/** The SSE events (`id: N` each) of an Agent API run saying TEXT: a list of strings. */
function events() {
  const rb = new ResponseBuilder({ eventIds: true, responseId: "r1", sessionId: "s1" });
  const parts = [rb.created(), rb.inProgress()];
  const text = rb.message().content("text");
  for (const word of TEXT.split(/(?<= )/)) parts.push(text.delta(word));
  parts.push(text.complete());
  parts.push(rb.completed({ closeOpen: true }));
  rb.free();
  return Buffer.concat(parts.flat().filter(Boolean)).toString("utf8").split(/(?<=\n\n)/).filter(Boolean);
}
const EVENTS = events();
const SSE = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/** A node:http server on 127.0.0.1 answering with `handler(req, res, n)` (n: the request's number). */
async function serve(handler) {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const n = requests.length;
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      handler(req, res, n);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/process`;
  return { url, requests, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

/** The first answer: events [0, cut) of the run, then the body ends (a cut connection). */
function firstAnswer(res, cut, runId = "run-1") {
  res.writeHead(200, { ...SSE, "x-agentwire-run-id": runId });
  res.end(EVENTS.slice(0, cut).join(""));
}

const POST = { method: "POST", headers: { "content-type": "application/json" }, body: '{"input":[]}' };

/** Reads `connection` to its end: `{error, batches}` (the error it threw, if any). */
async function drain(connection, { limit = 2_000 } = {}) {
  const batches = [];
  try {
    for await (const updates of connection) {
      batches.push(updates);
      if (batches.length > limit) return { error: new Error(`more than ${limit} batches: not bounded`), batches };
    }
  } catch (error) {
    return { error, batches };
  }
  return { error: null, batches };
}

const textOf = (connection) => connection.assembler.snapshot().output.flatMap((m) => m.content ?? []).map((c) => c.text ?? "").join("");

test("a resume answered 200 with an HTML page is refused (RESUME_MISMATCH), not read as progress", async () => {
  const server = await serve((req, res, n) => {
    if (n === 0) return firstAnswer(res, 4);
    res.writeHead(200, { "content-type": "text/html", "x-agentwire-run-id": "run-1" });
    res.end("<!doctype html><html><body>data: {\"id\": 9}\n\nid: 99\ndata: x\n\n</body></html>");
  });
  try {
    const connection = StreamAssembler.connect(server.url, POST, { protocol: "agent-api", backoffMs: 0, maxAttempts: 3 });
    const { error } = await drain(connection);
    assert.ok(error instanceof AgentwireError, `an AgentwireError: ${error}`);
    assert.equal(error.code, "RESUME_MISMATCH");
    assert.equal(error.status, 200);
    assert.equal(server.requests.length, 2, "one resume, refused: no retry of an answer of the wrong kind");
    assert.equal(connection.assembler.lastEventId, "3", "nothing of the page was applied");
    assert.deepEqual(connection.assembler.snapshot().warnings, []);
    connection.free();
  } finally {
    await server.close();
  }
});

test("a server replaying the same prefix with retry: 0 is given up after maxAttempts, not reconnected endlessly", async () => {
  const started = Date.now();
  const server = await serve((req, res) => {
    res.writeHead(200, { ...SSE, "x-agentwire-run-id": "run-1" });
    res.end(`retry: 0\n\n${EVENTS.slice(0, 4).join("")}`);
  });
  try {
    const connection = StreamAssembler.connect(server.url, POST, { protocol: "agent-api", maxAttempts: 5 });
    const { error } = await drain(connection);
    assert.ok(error instanceof AgentwireError, `an AgentwireError: ${error}`);
    assert.equal(error.code, "CONNECTION_LOST");
    assert.ok(server.requests.length <= 1 + 5, `${server.requests.length} requests`);
    assert.equal(connection.reconnects, 5, "the first resume and 4 more, each without a new event");
    assert.ok(connection.assembler.replayed >= 4 * 4, "each resume replayed the prefix");
    assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
    connection.free();
  } finally {
    await server.close();
  }
});

test("progress is a new event: a server that sends one new event per connection keeps the reader going", async () => {
  const server = await serve((req, res, n) => {
    const after = req.headers["last-event-id"] === undefined ? -1 : Number(req.headers["last-event-id"]);
    res.writeHead(200, { ...SSE, "x-agentwire-run-id": "run-1" });
    // The replayed prefix, then one event more each time (the last one ends the run).
    res.end(EVENTS.slice(0, Math.min(EVENTS.length, after + 2 + (n === 0 ? 1 : 0))).join(""));
  });
  try {
    const connection = StreamAssembler.connect(server.url, POST, { protocol: "agent-api", backoffMs: 0, maxAttempts: 2 });
    const { error } = await drain(connection);
    assert.equal(error, null);
    assert.equal(connection.assembler.outcome, "completed");
    assert.equal(textOf(connection), TEXT);
    assert.ok(connection.reconnects >= EVENTS.length - 3, `${connection.reconnects} reconnects`);
    connection.free();
  } finally {
    await server.close();
  }
});

for (const [what, header] of [["another run's id", { "x-agentwire-run-id": "run-2" }], ["no run id", {}]]) {
  test(`a resume answered with ${what} is refused (RESUME_MISMATCH) and nothing of it is merged`, async () => {
    const server = await serve((req, res, n) => {
      if (n === 0) return firstAnswer(res, 4);
      // A whole other run (the same event ids, further on): it would complete "this" run.
      res.writeHead(200, { ...SSE, ...header });
      res.end(EVENTS.join("").replaceAll("Sunny", "Rainy"));
    });
    try {
      const connection = StreamAssembler.connect(server.url, POST, { protocol: "agent-api", backoffMs: 0 });
      const { error } = await drain(connection);
      assert.ok(error instanceof AgentwireError, `an AgentwireError: ${error}`);
      assert.equal(error.code, "RESUME_MISMATCH");
      assert.equal(server.requests.length, 2);
      assert.equal(connection.assembler.outcome, "pending");
      assert.equal(connection.assembler.lastEventId, "3");
      assert.ok(!textOf(connection).includes("Rainy"));
      connection.free();
    } finally {
      await server.close();
    }
  });
}

test("the caller's AbortSignal stops the reader, with one listener on it however many reconnects", async () => {
  const server = await serve((req, res) => {
    // One new event per connection, never the end: endless reconnects until aborted.
    const after = req.headers["last-event-id"] === undefined ? -1 : Number(req.headers["last-event-id"]);
    res.writeHead(200, { ...SSE, "x-agentwire-run-id": "run-1" });
    res.end(EVENTS[Math.min(after + 1, 3)].replace(/^id: \d+/, `id: ${after + 1}`));
  });
  const caller = new AbortController();
  const signal = caller.signal;
  let added = 0;
  const add = signal.addEventListener.bind(signal);
  signal.addEventListener = (...args) => {
    added++;
    return add(...args);
  };
  try {
    const connection = StreamAssembler.connect(server.url, { ...POST, signal }, { protocol: "agent-api", backoffMs: 0, maxAttempts: 2 });
    let reconnects = 0;
    const { error } = await drain({
      async *[Symbol.asyncIterator]() {
        for await (const updates of connection) {
          reconnects += updates.filter((u) => u.type === "reconnect").length;
          if (reconnects === 30) caller.abort();
          if (reconnects > 60) throw new Error("the caller's abort did not stop the reader");
          yield updates;
        }
      },
    });
    assert.equal(error, null, "an abort ends the iteration quietly, as abort() does");
    assert.ok(reconnects >= 30 && reconnects <= 31, `${reconnects} reconnects`);
    assert.ok(added <= 1, `${added} listeners added to the caller's signal`);
    connection.free();
  } finally {
    await server.close();
  }
});

test("stop(): the cancel routes get no request body; A2A's CancelTask keeps its JSON-RPC body", async () => {
  const server = await serve((req, res) => {
    if (req.url.endsWith("/cancel") || server.requests.at(-1).body.includes("CancelTask")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end("{}");
    }
    firstAnswer(res, 3);
  });
  try {
    const base = server.url.replace(/\/process$/, "");
    for (const path of ["/process", "/compatible-mode/v1/responses", "/ag-ui"]) {
      const connection = StreamAssembler.connect(`${base}${path}`, POST, { protocol: "agent-api", resume: false });
      for await (const updates of connection) if (updates.length > 0) break;
      const answer = await connection.stop();
      assert.equal(answer.status, 200);
      const cancel = server.requests.at(-1);
      assert.equal(cancel.url, `${path}/run-1/cancel`);
      assert.equal(cancel.method, "POST");
      assert.equal(cancel.body, "", `${path}: no body`);
      assert.ok(!(Number(cancel.headers["content-length"]) > 0), `${path}: content-length ${cancel.headers["content-length"]}`);
      assert.equal(cancel.headers["content-type"], undefined);
      connection.free();
    }
    const send = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "SendStreamingMessage", params: {} }) };
    const a2a = StreamAssembler.connect(`${base}/a2a`, send, { protocol: "agent-api", resume: false });
    for await (const updates of a2a) if (updates.length > 0) break;
    await a2a.stop();
    const cancel = server.requests.at(-1);
    assert.deepEqual(JSON.parse(cancel.body), { jsonrpc: "2.0", id: 7, method: "CancelTask", params: { id: "run-1" } });
    a2a.free();
  } finally {
    await server.close();
  }
});

test("a connection that fails is a CONNECTION_LOST AgentwireError (the fetch error as its cause)", async () => {
  const server = await serve(() => {});
  const url = server.url;
  await server.close(); // nothing listens there now
  const connection = StreamAssembler.connect(url, POST, { protocol: "agent-api", backoffMs: 0 });
  const { error } = await drain(connection);
  assert.ok(error instanceof AgentwireError, `an AgentwireError: ${error}`);
  assert.equal(error.code, "CONNECTION_LOST");
  assert.ok(error.cause !== undefined);
  // A server that cuts every connection before its answer: retried, then the same error.
  const cutting = await serve((req, res, n) => {
    if (n === 0) return firstAnswer(res, 2);
    req.socket.destroy();
  });
  try {
    const again = StreamAssembler.connect(cutting.url, POST, { protocol: "agent-api", backoffMs: 0, maxAttempts: 3 });
    const { error: cut } = await drain(again);
    assert.ok(cut instanceof AgentwireError, `an AgentwireError: ${cut}`);
    assert.equal(cut.code, "CONNECTION_LOST");
    assert.equal(cutting.requests.length, 1 + 3);
    again.free();
    connection.free();
  } finally {
    await cutting.close();
  }
});
