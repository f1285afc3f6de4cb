// AgentApp fuzzed over HTTP, seeded (FUZZ_SEED=n picks another seed): raw bytes over TCP to
// `createServer(app.nodeListener)` on 127.0.0.1 (odd request lines, methods, Host headers,
// header names and values, framings that disagree, truncated bodies, pipelining, connections
// dropped anywhere), and the malformed request corpus mutated further through `app.fetch` and
// over HTTP. Whatever comes, no answer is a 5xx, none grows past a bound of the normal answers
// plus what was sent, every run ends once its client is gone, and the server keeps serving.
import test from "node:test";
import assert from "node:assert/strict";
import { AgentApp, StreamAssembler } from "agentwire";
import { listen, post } from "./http-helpers.mjs";
import { xorshift32 } from "./reference-streams.mjs";
import { VALID, fuzzAgent, mutate, rawExchange, rawRequest, statusesOf } from "./http-fuzz.mjs";

const SEED = Number(process.env.FUZZ_SEED ?? 7);
const ABANDON_MS = 300;

/** An app for the fuzz: small body limit, quick abandonment, caps out of the way; errors it reports collected. */
/** Codes of errors a client causes that onError may hear of (none so far: any would be a finding). */
const CLIENT_CAUSED = new Set();

function fuzzApp(reported) {
  return new AgentApp({
    agent: fuzzAgent,
    maxBodyBytes: 64 * 1024,
    runs: { abandonAfterMs: ABANDON_MS, maxRunningPerPrincipal: 10_000, maxRunning: 10_000 },
    listTasks: "all",
    // Agent API sessions kept by the server: a session's turns read the store's last run.
    sessionHistory: true,
    // Reported: anything but the agent's own failures (the fuzz agent throws on purpose) and the
    // client-caused ends of a run; a run lost (RUN_LOST), a store outage or a server bug is one.
    onError: (e, context) => {
      if (context?.during === undefined && !(e?.name === "AgentwireError" && CLIENT_CAUSED.has(e.code))) reported.push(e);
    },
  });
}

async function stillServes(base) {
  const r = await post(`${base}/process`, JSON.parse(VALID["/process"]));
  assert.equal((await StreamAssembler.collect(r)).status, "completed", "the server still answers");
}

/** The size of the largest normal answer of each route (a run's whole stream, the card, …). */
async function normalAnswers(base) {
  let largest = 0;
  for (const [route, body] of Object.entries(VALID)) {
    const r = await post(`${base}${route}`, body);
    largest = Math.max(largest, (await r.arrayBuffer()).byteLength);
  }
  for (const path of ["/", "/health", "/.well-known/agent-card.json"]) largest = Math.max(largest, (await (await fetch(`${base}${path}`)).arrayBuffer()).byteLength);
  return largest;
}

/** Resolves once no run is going (abandonment stops those whose clients left), or fails after `ms`. */
async function allRunsEnd(app, ms = 10_000) {
  const until = Date.now() + ms;
  for (;;) {
    const going = await app.runStore.running();
    if (going.length === 0) return;
    if (Date.now() > until) assert.fail(`${going.length} runs still going: ${going.slice(0, 5).map((r) => r.id).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Reads `response`'s body for at most `ms` (a run that waits streams for ever): its size. */
async function drain(response, ms = 150) {
  if (!response.body) return 0;
  const reader = response.body.getReader();
  let size = 0;
  const until = Date.now() + ms;
  for (;;) {
    const left = until - Date.now();
    if (left <= 0) break;
    let timer;
    const next = await Promise.race([reader.read(), new Promise((resolve) => { timer = setTimeout(() => resolve({ late: true }), left); })]);
    clearTimeout(timer);
    if (next.late || next.done) break;
    size += next.value.byteLength;
  }
  await reader.cancel().catch(() => {});
  return size;
}

test(`raw bytes over TCP (seed ${SEED}): no 5xx, bounded answers, every run ends, the server keeps serving`, { timeout: 60_000 }, async () => {
  const reported = [];
  const app = fuzzApp(reported);
  const { server, base } = await listen(app);
  const { port } = new URL(base);
  try {
    const largest = await normalAnswers(base);
    const next = xorshift32(SEED);
    const cases = [];
    for (let i = 0; i < 240; i++) {
      const count = next() % 5 === 0 ? 2 + (next() % 2) : 1; // pipelined
      const requests = Array.from({ length: count }, () => rawRequest(next));
      const text = requests.map((r) => r.text).join("");
      const sent = requests.reduce((s, r) => s + r.bodySize, 0);
      const drop = next() % 4 === 0 ? { cut: next() % (text.length + 1), end: next() % 2 === 0 } : {};
      cases.push({ text, sent, count, drop, label: `case ${i}: ${JSON.stringify(text.slice(0, 120))}` });
    }
    const seen = new Map();
    for (let i = 0; i < cases.length; i += 12) {
      const batch = cases.slice(i, i + 12);
      const answers = await Promise.all(batch.map((c) => rawExchange(port, c.text, c.drop)));
      batch.forEach((c, k) => {
        const { answer, size } = answers[k];
        for (const status of statusesOf(answer)) seen.set(status, (seen.get(status) ?? 0) + 1);
        for (const status of statusesOf(answer)) assert.ok(status < 500, `${c.label} → ${status}: ${answer.slice(0, 300)}`);
        assert.ok(size < c.count * 8 * largest + c.sent + 4096, `${c.label}: ${size} bytes answered (largest normal ${largest})`);
      });
      await stillServes(base);
    }
    for (const status of [200, 400, 404, 405, 413, 415]) assert.ok(seen.get(status) > 0, `no ${status}: ${[...seen]}`);
    await allRunsEnd(app);
    await stillServes(base);
    assert.deepEqual(reported.map((e) => `${e?.name}: ${e?.message}`), [], "errors reported");
  } finally {
    await app.close();
    server.close();
    server.closeAllConnections?.();
  }
});

/** A request of the mutated corpus: `{route, method, headers, body}`. */
function corpusRequest(next, runIds) {
  const pick = (list) => list[next() % list.length];
  const known = runIds.length ? pick(runIds) : "abc";
  const routes = ["/process", "/compatible-mode/v1/responses", "/ag-ui", "/a2a", "/", "/health", "/.well-known/agent-card.json", "/x",
    "/process/%E0%A4%A", "/process/%/cancel", "/compatible-mode/v1/responses/%ZZ?stream=true", "/ag-ui/x%2Fy", "/ag-ui/%C0%80/cancel",
    "/process/abc?starting_after=-1", "/process/abc?starting_after=99999999999999999999", "/compatible-mode/v1/responses/r?starting_after=1e3",
    `/process/${encodeURIComponent(known)}`, `/process/${encodeURIComponent(known)}/cancel`, `/ag-ui/${encodeURIComponent(known)}?starting_after=2`,
    `/compatible-mode/v1/responses/${encodeURIComponent(known)}`, `/compatible-mode/v1/responses/${encodeURIComponent(known)}/cancel`];
  const route = next() % 2 === 0 ? pick(Object.keys(VALID)) : pick(routes);
  let body = VALID[route] ?? pick(Object.values(VALID));
  if (next() % 5 === 0) body = body.replace('"hi"', pick(['"wait"', '"pause"']));
  if (route === "/compatible-mode/v1/responses" && next() % 3 === 0) {
    // A chained request: to a run of this app, or to none.
    body = JSON.stringify({ model: "m", input: pick(["hi", "pause", [{ type: "mcp_approval_response", approval_request_id: known, approve: true }]]),
      previous_response_id: pick([known, "resp_nope", 7, "z".repeat(300)]) });
  }
  if (route === "/a2a" && next() % 2 === 0) {
    const method = pick(["GetTask", "CancelTask", "SubscribeToTask", "SendStreamingMessage", "SendMessage", "ListTasks", "CreateTaskPushNotificationConfig"]);
    body = JSON.stringify({ jsonrpc: "2.0", id: pick([1, "x", null, "z".repeat(300)]), method, params: { id: known, historyLength: pick([0, 1, -1, 1e9, 1e20, "7"]),
      message: { messageId: "m", role: "ROLE_USER", taskId: pick([undefined, known, "é"]), contextId: pick([undefined, "ctx", "z".repeat(300)]), parts: [{ text: pick(["hi", "wait", "pause"]) }] },
      pageSize: pick([undefined, 0, 1, 100, 101, "5", -1, 1e20]), page_token: pick([undefined, "", "1", "x", 1e20, {}]),
      status: pick([undefined, "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_COMPLETED", 5]), includeArtifacts: pick([undefined, true, "yes"]) } });
  }
  if (next() % 3 !== 0) body = mutate(body, next);
  if (next() % 15 === 0) body = "x".repeat(70 * 1024);
  const method = pick(["POST", "POST", "POST", "POST", "POST", "GET", "GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
  const headers = { "content-type": pick(["application/json", "application/json", "text/html", "application/json; charset=utf-8", "application/a+json", ""]) };
  if (next() % 3 === 0) headers["a2a-version"] = pick(["1.0", "0.3", "9", "x"]);
  if (next() % 4 === 0) headers["last-event-id"] = pick(["", "-1", "1e3", "x", "99999999999999999999", "7", "0"]);
  if (next() % 5 === 0) headers.accept = "text/event-stream";
  if (next() % 6 === 0) headers.origin = "https://elsewhere.example";
  return { route, method, headers, body: method === "GET" || method === "HEAD" ? undefined : body };
}

for (const via of ["app.fetch", "HTTP"]) {
  test(`the malformed corpus mutated further, via ${via} (seed ${SEED}): no 5xx, bounded answers, every run ends`, { timeout: 60_000 }, async () => {
    const reported = [];
    const app = fuzzApp(reported);
    const { server, base } = await listen(app);
    try {
      const largest = await normalAnswers(base);
      const next = xorshift32(SEED * 31 + (via === "HTTP" ? 1 : 0));
      const runIds = [];
      const statuses = new Map();
      for (let i = 0; i < 500; i++) {
        const { route, method, headers, body } = corpusRequest(next, runIds);
        const controller = new AbortController();
        const init = { method, headers, body, signal: controller.signal };
        // A client that waits for a run's end (not streamed) gives up after a while.
        const impatient = setTimeout(() => controller.abort(), 200 + (next() % 200));
        let response;
        try {
          response = via === "HTTP" ? await fetch(`${base}${route}`, init) : await app.fetch(new Request(`http://app${route}`, init));
        } catch (e) {
          if (e?.name === "AbortError" && via === "HTTP") continue; // it gave up before the answer
          throw e;
        } finally {
          clearTimeout(impatient);
        }
        const label = `${i}: ${method} ${route} ${JSON.stringify(headers)} ${body?.slice(0, 100)}`;
        assert.ok(response.status < 500, `${label} → ${response.status}`);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const id = response.headers.get("x-agentwire-run-id");
        if (id && runIds.length < 50) runIds.push(id);
        const size = await drain(response, next() % 4 === 0 ? 5 : 150);
        controller.abort();
        assert.ok(size < 8 * largest + (body?.length ?? 0), `${label}: ${size} bytes answered (largest normal ${largest})`);
      }
      for (const status of [200, 400, 404, 405, 413, 415]) assert.ok(statuses.get(status) > 0, `no ${status}: ${[...statuses]}`);
      await allRunsEnd(app);
      await stillServes(base);
      assert.deepEqual(reported.map((e) => `${e?.name}: ${e?.message}`), [], "errors reported");
    } finally {
      await app.close();
      server.close();
      server.closeAllConnections?.();
    }
  });
}

// Seed 7 of the raw fuzz: a POST whose connection dropped mid-body made readBody throw the
// body stream's error, answered as a 500 and reported to onError as the server's failure.
test("a body cut short by a dropped connection is the client's fault: no 500, nothing reported (raw seed 7)", async () => {
  const reported = [];
  const app = fuzzApp(reported);
  const { server, base } = await listen(app);
  try {
    const { port } = new URL(base);
    const head = "POST /process HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\nContent-Length: 1000\r\n\r\n";
    const text = head + VALID["/process"].slice(0, 30);
    for (let i = 0; i < 5; i++) await rawExchange(port, text, { cut: text.length, idleMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(reported.map((e) => `${e?.name}: ${e?.message}`), []);
    // Through app.fetch: a body stream that errors is 400, not 500.
    const body = new ReadableStream({ pull(c) { c.error(new Error("reset")); } });
    const r = await app.fetch(new Request("http://app/process", { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" }));
    assert.equal(r.status, 400);
    assert.equal((await r.json()).error.field, "body");
    assert.deepEqual(reported, []);
    await stillServes(base);
  } finally {
    await app.close();
    server.close();
    server.closeAllConnections?.();
  }
});

// Raw seed 12: a refused request pipelined behind an endless stream waited, unread, for its
// answer to be sent; its body kept the connection paused, the client's leaving was never read,
// and the stream's run kept its reader for ever.
test("a client that leaves while a refused request waits behind its stream: the run is abandoned (raw seed 12)", async () => {
  const reported = [];
  const app = fuzzApp(reported);
  const { server, base } = await listen(app);
  try {
    const first = "POST /process HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "2d\r\n{\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"\r\n18\r\ntext\",\"text\":\"wait\"}]}]}\r\n0\r\n\r\n";
    for (const second of [
      `POST /ag-ui HTTP/1.1\r\nHost: h#x\r\ncontent-type: application/json\r\nContent-Length: 71680\r\n\r\n${"x".repeat(71680)}`,
      `TRACE /ag-ui HTTP/1.1\r\nHost: h\r\nContent-Length: 71680\r\n\r\n${"x".repeat(71680)}`,
    ]) {
      const { answer } = await rawExchange(new URL(base).port, first + second);
      assert.match(answer, /^HTTP\/1\.1 200/);
      await allRunsEnd(app, 5000);
    }
    await stillServes(base);
  } finally {
    await app.close();
    server.close();
    server.closeAllConnections?.();
  }
});
