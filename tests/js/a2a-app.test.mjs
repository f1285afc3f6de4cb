// AgentApp's A2A front end as A2A clients (and the A2A TCK, tests/js/runners/a2a-tck.mjs) meet
// it: the route with and without a trailing "/", the card's URL, a message naming no task, file
// artifacts' media types, lowerCamelCase 1.0 JSON, proto field names in requests, the 1.0-only
// card and the card's caching headers, and a body that is not JSON.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AgentApp, StreamAssembler } from "agentwire";
import { listen, post } from "./http-helpers.mjs";

const V1 = { "a2a-version": "1.0" };
const send = (id, message, method = "SendMessage") => ({
  jsonrpc: "2.0", id, method, params: { message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: "hi" }], ...message } },
});
const sendV03 = (id, message) => ({
  jsonrpc: "2.0", id, method: "message/send",
  params: { message: { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hi" }], ...message } },
});

/** An agent answering with one text part, then one file part per entry of `files`. */
function filesAgent(files = []) {
  return (request, rb) => {
    const message = rb.message();
    const text = message.content("text");
    text.delta("done");
    text.complete();
    for (const fields of files) {
      const file = message.content("file");
      file.set(fields);
      file.complete();
    }
    message.complete();
  };
}

/** Every key of a JSON value, at any depth. */
function keysOf(value, out = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

test("the A2A route answers with and without a trailing slash, at every interface URL of the card", async () => {
  for (const paths of [undefined, { a2a: "/agents/a2a/" }, { a2a: "/rpc" }]) {
    for (const cardVersion of ["both", "1.0"]) {
      const { server, base } = await listen(new AgentApp({ agent: filesAgent(), paths, cardVersion }));
      try {
        const card = await (await fetch(`${base}/.well-known/agent-card.json`)).json();
        const urls = card.supportedInterfaces.map((i) => i.url);
        assert.ok(urls.length > 0);
        for (const url of urls) {
          // As clients post: the URL as it is, and with a "/" added (the TCK's client) or taken off.
          const twin = url.endsWith("/") ? url.slice(0, -1) : `${url}/`;
          for (const target of [url, twin]) {
            const answer = await (await post(target, send(1), V1)).json();
            assert.equal(answer.result?.task?.status?.state, "TASK_STATE_COMPLETED", `${target}: ${JSON.stringify(answer)}`);
            const old = await (await post(target, sendV03(2))).json();
            assert.equal(old.result?.status?.state, "completed", `${target} (0.3)`);
          }
        }
      } finally {
        server.close();
      }
    }
  }
});

test("the trailing-slash twin of the A2A route never takes another protocol's route", async () => {
  const { server, base } = await listen(new AgentApp({ agent: filesAgent(), paths: { a2a: "/x", process: "/x/" } }));
  try {
    const processed = await post(`${base}/x/`, { input: [{ type: "message", role: "user", content: [{ type: "text", text: "hi" }] }] });
    assert.equal(processed.status, 200);
    assert.match(processed.headers.get("content-type"), /text\/event-stream/);
    await processed.text();
    assert.equal((await (await post(`${base}/x`, send(1), V1)).json()).result.task.status.state, "TASK_STATE_COMPLETED");
  } finally {
    server.close();
  }
});

test("a message whose taskId names no task is TaskNotFound (-32001), and starts nothing", async () => {
  let runs = 0;
  const app = new AgentApp({ agent: (request, rb) => { runs++; return filesAgent()(request, rb); } });
  const { server, base } = await listen(app);
  try {
    for (const taskId of ["no-such-task", "a b", "t".repeat(300)]) {
      for (const method of ["SendMessage", "SendStreamingMessage"]) {
        const answer = await post(`${base}/a2a`, send(7, { taskId }, method), V1);
        assert.match(answer.headers.get("content-type"), /application\/json/, `${method} ${taskId.slice(0, 20)}`);
        const body = await answer.json();
        assert.equal(body.id, 7);
        assert.equal(body.error?.code, -32001, JSON.stringify(body));
      }
      const old = await (await post(`${base}/a2a`, sendV03(8, { taskId }))).json();
      assert.equal(old.error?.code, -32001, JSON.stringify(old));
    }
    const got = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 9, method: "GetTask", params: { id: "no-such-task" } }, V1)).json();
    assert.equal(got.error.code, -32001, "no task was made under the id");
    assert.equal(runs, 0);
    // A task that exists is named, not found missing (continuing it is not supported).
    const first = await (await post(`${base}/a2a`, send(1), V1)).json();
    const again = await (await post(`${base}/a2a`, send(2, { taskId: first.result.task.id }), V1)).json();
    assert.equal(again.error.code, -32004, JSON.stringify(again));
  } finally {
    server.close();
  }
});

test("1.0 file artifacts carry a mediaType and 1.0 answers have no snake_case key; 0.3 keeps its own; both read back", async () => {
  const files = [
    { file_data: "dGNr", filename: "output.txt" },
    { file_url: "https://example.com/output.txt", filename: "output.txt" },
    { file_data: "data:application/json;base64,e30=", filename: "x" },
    { file_data: "dGNr", filename: "blob" },
  ];
  const { server, base } = await listen(new AgentApp({ agent: filesAgent(files) }));
  try {
    const answer = await (await post(`${base}/a2a`, send(1), V1)).json();
    const parts = answer.result.task.artifacts.flatMap((a) => a.parts);
    const fileParts = parts.filter((p) => p.raw !== undefined || p.url !== undefined);
    assert.deepEqual(fileParts.map((p) => p.mediaType), ["text/plain", "text/plain", "application/json", "application/octet-stream"]);
    assert.deepEqual(fileParts.map((p) => p.raw ?? p.url), ["dGNr", "https://example.com/output.txt", "e30=", "dGNr"]);
    const snake = [...keysOf(answer)].filter((k) => k.includes("_"));
    assert.deepEqual(snake, [], "1.0 JSON is lowerCamelCase");
    assert.equal(answer.result.task.artifacts[0].metadata.messageType, "message");
    // Streamed, the same.
    const stream = await (await post(`${base}/a2a`, send(2, {}, "SendStreamingMessage"), V1)).text();
    assert.doesNotMatch(stream, /message_type/);
    assert.match(stream, /"messageType":"message"/);
    const snapshot = await StreamAssembler.collect(new Response(stream), { protocol: "a2a" });
    assert.equal(snapshot.status, "completed");
    assert.equal(snapshot.output.at(-1).content.filter((c) => c.type === "file").length, 4);
    // 0.3: as it always was.
    const old = await (await post(`${base}/a2a`, sendV03(3))).json();
    assert.equal(old.result.artifacts[0].metadata.message_type, "message");
  } finally {
    server.close();
  }
});

test("1.0 requests are read by their proto field names too (task_id as taskId)", async () => {
  const { server, base } = await listen(new AgentApp({ agent: filesAgent() }));
  try {
    const methods = ["CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig"];
    for (const method of methods) {
      for (const params of [{ task_id: "t1", id: "c1", url: "https://example.com" }, { taskId: "t1", id: "c1", url: "https://example.com" }]) {
        const body = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 1, method, params }, V1)).json();
        assert.equal(body.error?.code, -32003, `${method} ${JSON.stringify(params)}: ${JSON.stringify(body)}`);
      }
    }
    // A send's message and configuration, by proto names.
    const sent = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 2, method: "SendMessage", params: {
      message: { message_id: "m1", context_id: "ctx-proto", role: "ROLE_USER", parts: [{ text: "hi" }] },
      configuration: { history_length: 0 } } }, V1)).json();
    assert.equal(sent.result.task.contextId, "ctx-proto");
    const got = await (await post(`${base}/a2a`, { jsonrpc: "2.0", id: 3, method: "GetTask", params: { id: sent.result.task.id, history_length: 0 } }, V1)).json();
    assert.equal(got.result.id, sent.result.task.id, JSON.stringify(got));
  } finally {
    server.close();
  }
});

test("cardVersion: both versions' fields in one card by default, 1.0's alone on request", async () => {
  const { server, base } = await listen(new AgentApp({ agent: filesAgent(), cardVersion: "1.0" }));
  const both = await listen(new AgentApp({ agent: filesAgent() }));
  try {
    const card = await (await fetch(`${base}/.well-known/agent-card.json`)).json();
    for (const key of ["url", "protocolVersion", "preferredTransport"]) assert.equal(card[key], undefined, key);
    assert.deepEqual(card.supportedInterfaces, [{ url: `${base}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }]);
    const shared = await (await fetch(`${both.base}/.well-known/agent-card.json`)).json();
    assert.equal(shared.url, `${both.base}/a2a`);
    assert.deepEqual(shared.supportedInterfaces.map((i) => i.protocolVersion), ["1.0", "0.3"]);
    // The endpoint serves 0.3 either way.
    assert.equal((await (await post(`${base}/a2a`, sendV03(1))).json()).result.status.state, "completed");
  } finally {
    server.close();
    both.server.close();
  }
  for (const cardVersion of ["2.0", 1, null]) {
    assert.throws(() => new AgentApp({ agent: filesAgent(), cardVersion }), (e) => e.code === "INVALID_OPTION" && e.field === "cardVersion");
  }
});

test("the agent card is cacheable: Cache-Control, an ETag and Last-Modified, 304 for a matching If-None-Match or If-Modified-Since", async () => {
  const app = new AgentApp({ agent: filesAgent() });
  const get = (headers = {}, method = "GET") => app.fetch(new Request("http://agent.test/.well-known/agent-card.json", { method, headers }));
  const first = await get();
  assert.equal(first.status, 200);
  assert.equal(first.headers.get("cache-control"), "public, max-age=300");
  const etag = first.headers.get("etag");
  assert.match(etag, /^"[0-9a-f]{32}"$/);
  await first.json();
  assert.equal((await get()).headers.get("etag"), etag, "the same card, the same tag");
  for (const match of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const again = await get({ "if-none-match": match });
    assert.equal(again.status, 304, match);
    assert.equal(await again.text(), "");
    assert.equal(again.headers.get("etag"), etag);
    assert.equal(again.headers.get("cache-control"), "public, max-age=300");
  }
  for (const match of ['"other"', "", etag.slice(1, -1)]) {
    const fresh = await get({ "if-none-match": match });
    assert.equal(fresh.status, 200, match);
    assert.equal((await fresh.json()).name, "agentwire agent");
  }
  assert.equal((await get({ "if-none-match": etag }, "HEAD")).status, 304);
  // Last-Modified: an HTTP date not in the future; If-Modified-Since at or after it is 304,
  // before it (or unreadable) 200; If-None-Match decides when both are sent.
  const modified = first.headers.get("last-modified");
  assert.match(modified, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
  assert.ok(Date.parse(modified) <= Date.now());
  assert.equal((await get({ "if-modified-since": modified })).status, 304);
  assert.equal((await get({ "if-modified-since": new Date(Date.parse(modified) + 60_000).toUTCString() })).status, 304);
  assert.equal((await get({ "if-modified-since": new Date(Date.parse(modified) - 1000).toUTCString() })).status, 200);
  assert.equal((await get({ "if-modified-since": "not a date" })).status, 200);
  assert.equal((await get({ "if-modified-since": modified, "if-none-match": '"other"' })).status, 200);
  // Another origin's card names another URL: another tag.
  const other = await app.fetch(new Request("http://other.test/.well-known/agent-card.json"));
  assert.notEqual(other.headers.get("etag"), etag);
  // A card behind authorize is the caller's: private.
  const guarded = new AgentApp({ agent: filesAgent(), authorize: () => "alice" });
  const mine = await guarded.fetch(new Request("http://agent.test/.well-known/agent-card.json"));
  assert.equal(mine.headers.get("cache-control"), "private, max-age=300");
});

test("a body that is not JSON is refused with a JSON-RPC error (-32005) and 415", async () => {
  const { server, base } = await listen(new AgentApp({ agent: filesAgent() }));
  try {
    for (const [headers, version] of [[V1, "1.0"], [{}, "0.3"]]) {
      const answer = await fetch(`${base}/a2a/`, { method: "POST", headers: { "content-type": "text/plain", ...headers }, body: JSON.stringify(send(1)) });
      assert.equal(answer.status, 415);
      const body = await answer.json();
      assert.equal(body.jsonrpc, "2.0");
      assert.equal(body.id, null);
      assert.equal(body.error.code, -32005, version);
      assert.equal(Array.isArray(body.error.data), version === "1.0");
    }
  } finally {
    server.close();
  }
});

test("an agent answers an A2A send with a Message (rb.asMessage()): SendMessage, the stream and @a2a-js/sdk's client read one message; a failing run still answers with a task", async () => {
  const app = new AgentApp({
    agent: (request, rb) => {
      const said = request.input.at(-1)?.content?.[0]?.text;
      const text = rb.asMessage().message().content("text");
      text.delta("Direct ");
      text.delta("answer");
      if (said === "fail") throw new Error("down");
    },
  });
  const { server, base } = await listen(app);
  try {
    const sent = await (await post(`${base}/a2a`, send(1, { contextId: "ctx-m" }), V1)).json();
    assert.equal(sent.result.task, undefined, JSON.stringify(sent));
    assert.equal(sent.result.message.role, "ROLE_AGENT");
    assert.equal(sent.result.message.contextId, "ctx-m");
    assert.deepEqual(sent.result.message.parts.map((p) => p.text), ["Direct answer"]);
    const streamed = await (await post(`${base}/a2a`, send(2, {}, "SendStreamingMessage"), V1)).text();
    const events = streamed.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
    assert.equal(events.length, 1, streamed);
    assert.deepEqual(events[0].result.message.parts.map((p) => p.text), ["Direct answer"]);
    const snapshot = await StreamAssembler.collect(new Response(streamed));
    assert.match(JSON.stringify(snapshot.output), /Direct answer/);
    // 0.3: the message itself is the result.
    const old = await (await post(`${base}/a2a`, sendV03(3, {}))).json();
    assert.equal(old.result.kind, "message", JSON.stringify(old));
    assert.equal(old.result.parts[0].text, "Direct answer");
    // The official JS client reads it as a Message.
    const { pathToFileURL } = await import("node:url");
    const sdk = (path) => import(pathToFileURL(`${process.env.AGENTWIRE_ROOT}/node_modules/@a2a-js/sdk/dist/${path}`).href);
    const { ClientFactory } = await sdk("client/index.js");
    const { Message } = await sdk("index.js");
    const client = await new ClientFactory().createFromUrl(base);
    const answer = await client.sendMessage({ message: Message.fromJSON({ messageId: "u9", role: "ROLE_USER", parts: [{ text: "hi" }] }) });
    // The SDK gives a Message itself (a task would have an id and a status).
    const message = answer.payload?.$case === "message" ? answer.payload.value : answer;
    assert.ok(typeof message.messageId === "string" && message.status === undefined, JSON.stringify(answer));
    assert.equal(message.parts[0].content.value, "Direct answer");
    // A run that fails answers with a task after all.
    const failed = await (await post(`${base}/a2a`, send(4, { parts: [{ text: "fail" }] }), V1)).json();
    assert.equal(failed.result.task?.status?.state, "TASK_STATE_FAILED", JSON.stringify(failed));
    assert.equal(failed.result.task.status.message.metadata.code, "AGENT_ERROR");
  } finally {
    server.close();
  }
});
