// What the HTTP fuzz (http-fuzz.test.mjs) is made of: raw requests over TCP built from seeded
// choices (request lines, Host headers, headers, framings, pipelining, drops), the malformed
// request corpus of app.test.mjs mutated further, and an agent that streams a little or, asked
// to wait, runs until it is stopped (so abandonment is tried).
import { connect } from "node:net";

/**
 * The agent: a tool call, its output and a few words; with "wait" in the request, it goes on
 * until its signal aborts (canceled, abandoned or closed).
 */
export async function fuzzAgent(request, rb, { signal }) {
  const call = rb.toolCall({ type: "function", callId: "call_1", name: "lookup" });
  call.arguments('{"q":"é"}');
  call.complete();
  rb.toolOutput({ type: "function", callId: "call_1", name: "lookup", output: "42" });
  const text = rb.message().content("text");
  text.delta("Sunny in ");
  // A pause for a person, so that messages on the task (and chained responses) go on from it.
  if (JSON.stringify(request.input?.at?.(-1) ?? "").includes("pause")) {
    rb.interrupt({ message: "Which city?" });
    return;
  }
  if (JSON.stringify(request.input ?? "").includes("wait")) {
    await new Promise((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener("abort", resolve, { once: true });
    });
    return;
  }
  text.delta("Hangzhou");
}

/** A valid start body per route (the corpus's). */
export const VALID = {
  "/process": '{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}',
  "/compatible-mode/v1/responses": '{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}]}',
  "/ag-ui": '{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"hi"}],"tools":[],"context":[],"state":{},"forwardedProps":{}}',
  "/a2a": '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}',
};

const METHODS = ["GET", "GET", "POST", "POST", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE", "CONNECT", "TRACK", "get", "post",
  "PATCH", "M-SEARCH", "X".repeat(300), "GE T", ""];
const TARGETS = ["/", "/health", "/process", "/process/abc", "/process/abc/cancel", "/a2a", "/ag-ui", "/compatible-mode/v1/responses",
  "/.well-known/agent-card.json", "*", "http://evil.example/process", "//x", "/%", "/?a=%ff", `/${"x".repeat(9000)}`, "127.0.0.1:80",
  "/process/%C3%A9", "/ag-ui/r?starting_after=99999999999999999999", "/compatible-mode/v1/responses/x?stream=true", "/process/\u00e9", ""];
const VERSIONS = ["HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "", "HTTP/1.1 x", "http/1.1"];
const HOSTS = [null, "", "127.0.0.1", "localhost:8080", "user@evil.example", "u:p@h", "[::1]", "[::1]:80", "[", "x:99999", "x:-1",
  "\u00e9.example", "a".repeat(10_000), "a b", "h\u0000x", "localhost:0", "h/x", "h?x", "h#x", "h\\x", "xn--e1a", "[fe80::1%25eth0]"];
const HEADERS = [
  ["content-type", "application/json"], ["content-type", "application/json"], ["content-type", "text/plain"],
  ["content-type", "application/x+json; charset=\u00ff"], ["last-event-id", "3"], ["last-event-id", "-1"], ["last-event-id", "\u00e9"],
  ["origin", "https://evil.example"], ["accept", "text/event-stream"], ["a2a-version", "0.3"], ["a2a-version", "\u00ff"],
  ["x-\u00e9", "v"], ["x-a", "\u00ff\u00fe"], ["x-cr", "a\rb"], ["x-lf", "a\nb: c"], ["x-huge", "v".repeat(20_000)], ["x-big", "v".repeat(7_000)],
  ["", "v"], ["bad name", "v"], ["x-nul", "a\u0000b"], ["expect", "100-continue"], ["connection", "close"], ["connection", "keep-alive, upgrade"],
  ["upgrade", "websocket"], ["authorization", "Bearer x"], ["access-control-request-headers", "x".repeat(2000)],
];

/** One raw request: `{bytes, bodySize}` (bytes a latin1 string) from the seeded generator `next`. */
export function rawRequest(next) {
  const pick = (list) => list[next() % list.length];
  // Each part is odd now and then; most of a request is well formed, so the odd part is what is tried.
  const odd = () => next() % 8 === 0;
  const method = odd() ? pick(METHODS) : pick(["GET", "POST", "POST", "POST"]);
  const target = odd() ? pick(TARGETS) : pick([...Object.keys(VALID), "/process/abc", "/health"]);
  const lines = [`${method} ${target} ${odd() ? pick(VERSIONS) : "HTTP/1.1"}`.trimEnd()];
  const host = odd() ? pick(HOSTS) : "127.0.0.1";
  if (host !== null) lines.push(`Host: ${host}`);
  if (next() % 5 === 0) lines.push(`Host: ${pick(HOSTS) ?? "second"}`);
  for (let k = odd() ? 1 + (next() % 3) : 0; k > 0; k--) {
    const [name, value] = pick(HEADERS);
    lines.push(`${name}: ${value}`);
  }
  if (method.toUpperCase() === "POST" && next() % 3 !== 0) lines.push("content-type: application/json");
  const base = VALID[target] ?? pick(Object.values(VALID));
  let body = next() % 6 === 0 ? base.replace('"hi"', '"wait"') : base;
  if (next() % 4 === 0) body = mutate(body, next);
  if (next() % 10 === 0) body = "x".repeat(70 * 1024);
  const framing = odd() ? pick(["none", "short", "long", "both", "badchunk", "hugechunk"]) : pick(["length", "length", "chunked"]);
  let tail = "";
  if (framing === "length") lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  else if (framing === "short") lines.push(`Content-Length: ${Math.max(0, body.length - 1 - (next() % 10))}`);
  else if (framing === "long") lines.push(`Content-Length: ${body.length + 1 + (next() % 100_000)}`);
  else if (framing === "both") lines.push("Transfer-Encoding: chunked", `Content-Length: ${body.length}`);
  else if (framing === "chunked" || framing === "badchunk" || framing === "hugechunk") lines.push("Transfer-Encoding: chunked");
  if (framing.endsWith("chunk") || framing === "chunked" || framing === "both") {
    const pieces = [];
    for (let at = 0; at < body.length;) {
      const n = 1 + (next() % 4096);
      const piece = body.slice(at, at + n);
      pieces.push(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
      at += n;
    }
    if (framing === "badchunk") pieces.splice(next() % (pieces.length + 1), 0, pick(["zz\r\n", "5\r\nabc\r\n", "\r\n", "-1\r\n"]));
    if (framing === "hugechunk") pieces.push("fffffffffffffff\r\nabc");
    else pieces.push("0\r\n\r\n");
    tail = pieces.join("");
  } else if (framing !== "none" || next() % 2 === 0) {
    tail = body;
  }
  const head = `${lines.join("\r\n")}\r\n\r\n`;
  return { text: head + tail, bodySize: Buffer.byteLength(tail) };
}

const JUNK = ["{", "}", "[", "]", '"', ",", ":", "null", "1e999", "-", "\\ud800", "\u0000", "\u00e9", "[".repeat(300), '"input"',
  '"messages"', '"params"', '"id":"x"', '"stream":true', '"session_id":"s"', '"method":"SubscribeToTask"', `"${"y".repeat(5000)}"`,
  // AG-UI resumes (the route holds them to AG-UI's rules) and pauses to resume.
  '"resume":[{"interruptId":"x","status":"resolved","payload":{"a":1}}]', '"resume":[]', '"resume":[1,{"status":"cancelled"}]', '"content":"pause"'];

/** `body` with 1 to 3 random cuts and insertions (the app.test.mjs corpus's mutation). */
export function mutate(body, next) {
  for (let k = 1 + (next() % 3); k > 0; k--) {
    const at = next() % (body.length + 1);
    body = body.slice(0, at) + JUNK[next() % JUNK.length] + body.slice(at + (next() % 4));
  }
  return body;
}

/**
 * Sends `text` (latin1) to 127.0.0.1:`port`, the whole of it or, with `cut`, only its first
 * `cut` bytes before the connection is dropped (`end: true`: half-closed instead). Resolves
 * with what came back (latin1) once the socket closed or `idleMs` passed without data.
 */
export function rawExchange(port, text, { cut = undefined, end = false, idleMs = 400 } = {}) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const parts = [];
    let size = 0;
    let timer;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer: Buffer.concat(parts).toString("latin1"), size });
    };
    const idle = () => {
      clearTimeout(timer);
      timer = setTimeout(done, idleMs);
    };
    socket.on("data", (d) => {
      size += d.length;
      if (size < 4 * 1024 * 1024) parts.push(d);
      idle();
    });
    socket.on("error", done);
    socket.on("close", done);
    socket.on("connect", () => {
      const bytes = Buffer.from(text, "latin1");
      if (cut === undefined) socket.write(bytes);
      else {
        socket.write(bytes.subarray(0, cut));
        if (end) socket.end();
        else setImmediate(() => socket.destroy());
      }
      idle();
    });
  });
}

/** The statuses of the answers in a raw exchange (every `HTTP/1.x NNN` status line). */
export function statusesOf(answer) {
  return [...answer.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
}
