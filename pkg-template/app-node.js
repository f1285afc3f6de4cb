// The Node adapter: a `node:http` request listener around a fetch handler. Whatever the request
// (a Host no URL can hold, a method the fetch API refuses, a body sent after the answer), it is
// answered or its connection closed; nothing it does can end the process. The body flows with
// backpressure (never buffered past what the handler reads) and what the handler leaves unread
// is discarded within a bound after the answer.
import { call } from "./instance.js";
import { directBodies, keepalive, keepaliveComment, nodeRequests } from "./app-http.js";

/** Methods the fetch API refuses to make a `Request` of. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
/** How long a body left unread is discarded after the answer before the connection is closed (ms). */
const DISCARD_MS = 2000;
/** Characters no Host header may hold (userinfo, path, query, fragment, whitespace, controls). */
const BAD_HOST = /[\s@/?#\\\x00-\x1f\x7f]/;

/** An error answer written by the core, straight to `res`. */
function refuse(res, code, message, field, headers = {}) {
  const [status, body] = call("httpError", code, message, field);
  res.writeHead(status, { "content-type": "application/json", connection: "close", ...headers });
  res.end(body);
}

/** The request's URL, or `null` when its Host (or target) makes none a `Request` accepts. */
export function urlOf(req) {
  const host = req.headers.host ?? "localhost";
  if (BAD_HOST.test(host)) return null;
  const target = typeof req.url === "string" && req.url.startsWith("/") ? req.url : "/";
  try {
    const url = new URL(`http://${host}${target}`);
    return url.username || url.password || !url.hostname ? null : url.href;
  } catch {
    return null;
  }
}

/** The request's headers as a fetch `Headers` (a value the fetch API refuses left out). */
export function headersOf(req) {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    try {
      if (Array.isArray(value)) for (const v of value) headers.append(key, v);
      else if (value !== undefined) headers.set(key, value);
    } catch {
      // A value the fetch API refuses: left out, as a fetch runtime would refuse the request.
    }
  }
  return headers;
}

/**
 * A `node:http` request listener serving `fetch`: `maxBodyBytes` bounds what is discarded of a
 * body the handler left unread; `report(error, request)` hears of failures.
 */
export function nodeListener(fetch, { maxBodyBytes, report }) {
  return (req, res) => {
    serve(fetch, req, res, maxBodyBytes, report).catch((error) => {
      report(error);
      try {
        if (!res.headersSent) refuse(res, "INTERNAL_ERROR", "The server failed to answer.");
        else res.destroy();
      } catch {
        res.destroy();
      }
    });
  };
}

async function serve(fetch, req, res, maxBodyBytes, report) {
  // A client that resets mid-request is no error of the server's.
  req.on("error", () => {});
  res.on("error", () => {});
  const method = req.method ?? "GET";
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    discardAfter(req, res, maxBodyBytes, true);
    return refuse(res, "METHOD_NOT_ALLOWED", `${method} is not allowed.`, undefined, { allow: "GET, HEAD, POST, OPTIONS" });
  }
  const url = urlOf(req);
  if (url === null) {
    discardAfter(req, res, maxBodyBytes, true);
    return refuse(res, "INVALID_REQUEST", "The request's Host header is not valid.", "host");
  }
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = headersOf(req);
  const hasBody = method !== "GET" && method !== "HEAD";
  // `duplex: "half"`: a streamed request body (the fetch standard's, not yet in every RequestInit type).
  /** @type {any} */
  const init = { method, headers, body: hasBody ? bodyOf(req) : undefined, duplex: "half", signal: controller.signal };
  const request = new Request(url, init);
  nodeRequests.add(request);
  const response = await fetch(request);
  const direct = directBodies.get(response);
  const out = {};
  response.headers.forEach((value, key) => { out[key] = value; });
  if (hasBody && !req.complete) out.connection = "close";
  discardAfter(req, res, maxBodyBytes);
  res.writeHead(response.status, out);
  const body = direct ? directReader(direct) : response.body?.getReader();
  if (!body || method === "HEAD") {
    // A HEAD answer's body (a run's stream, for a resume route) is released, not left pending.
    body?.cancel().catch(() => {});
    res.end();
    return;
  }
  await pipe(body, res, controller.signal, (e) => report(e, request), direct?.keepaliveMs ?? 0);
}

/**
 * A run's reader (`directBodies`) read as the reader of its ReadableStream (app-http.js
 * `streamOf`) is: `read()`, `cancel()` (tells the run, ends the iteration) unless it ended or
 * failed (an errored stream's cancel does nothing).
 */
function directReader({ iterator, onCancel }) {
  let over = false;
  const failed = (error) => {
    over = true;
    throw error;
  };
  return {
    read: () => (over ? Promise.resolve({ done: true, value: undefined }) : iterator.next().catch(failed)),
    async cancel() {
      if (over) return;
      over = true;
      onCancel?.();
      await iterator.return?.();
    },
  };
}

/**
 * A body's reader (`body`) into `res` with backpressure, until it ends or the client goes
 * (`signal`); quiet for `keepaliveMs` (0: never), it writes an SSE comment.
 */
async function pipe(reader, res, signal, report, keepaliveMs) {
  let finished = false;
  const release = () => {
    if (!finished) reader.cancel().catch(() => {});
  };
  // The client may have gone before the answer was ready: release it at once.
  if (signal.aborted) release();
  else signal.addEventListener("abort", release, { once: true });
  // Frames written before the event loop turns leave in one TCP write (corked until then).
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  const alive = keepalive(keepaliveMs, () => {
    if (!res.destroyed && res.writableLength === 0) res.write(keepaliveComment());
  });
  try {
    while (!signal.aborted) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      if (res.destroyed) break;
      if (!corked && typeof res.cork === "function") {
        corked = true;
        res.cork();
        setImmediate(uncork);
      }
      alive.sent();
      if (!write(res, value) && !res.destroyed) await drained(res);
    }
  } catch (e) {
    if (!signal.aborted) report(e);
  } finally {
    alive.stop();
    signal.removeEventListener("abort", release);
    release();
    res.end();
  }
}

/** Writes a chunk, or an array of them (a run's reader, `directBodies`): whether `res` takes more. */
function write(res, chunk) {
  if (!Array.isArray(chunk)) return res.write(chunk);
  let more = true;
  for (const part of chunk) more = res.write(part);
  return more;
}

/** Resolves on `res`'s "drain" or "close", whichever comes first; neither listener stays behind. */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** The request body as a ReadableStream that pulls from `req` (paused while nobody reads). */
function bodyOf(req) {
  let open = true;
  return new ReadableStream({
    start(c) {
      req.pause();
      req.on("data", (chunk) => {
        if (!open) return;
        c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if (c.desiredSize <= 0) req.pause();
      });
      req.on("end", () => {
        if (open) c.close();
        open = false;
      });
      req.on("error", (e) => {
        if (open) c.error(e);
        open = false;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      // Not read to its end: what is left is discarded after the answer (discardAfter).
      open = false;
      req.pause();
    },
  }, { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength });
}

/**
 * Drops what is left of a body, up to `bound` bytes past which the connection is closed, and
 * for DISCARD_MS once the answer is sent. `now`: from the start (a refused request, whose body
 * nobody reads: it is read and dropped at once, so a client that leaves is seen even while its
 * answer waits behind a pipelined one; past the bound it is closed once the answer is out, or
 * at once past twice the bound); otherwise once the answer is sent (a handler may still read it
 * until then). Nothing of it is kept.
 */
function discardAfter(req, res, bound, now = false) {
  if (now) discard(req, res, bound);
  else res.once("finish", () => discard(req, res, bound));
}

function discard(req, res, bound) {
  if (req.complete || req.destroyed) return;
  let left = bound;
  let timer = null;
  const close = () => {
    clearTimeout(timer);
    req.destroy();
  };
  const sent = () => {
    if (req.complete || req.destroyed) return;
    if (left < 0) return close();
    timer = setTimeout(close, DISCARD_MS);
    timer.unref?.();
  };
  if (res.writableFinished) sent();
  else res.once("finish", sent);
  req.removeAllListeners("data");
  req.on("data", (chunk) => {
    left -= chunk.byteLength;
    if (left < 0 && (res.writableFinished || left < -bound)) close();
  });
  req.once("end", () => clearTimeout(timer));
  req.on("error", () => {});
  req.resume();
}
