// AgentApp's HTTP plumbing, the same on every runtime: error answers (their bytes are the
// core's), the request's URL, body limits (never buffered past the limit, the unread rest
// discarded within a bound so the connection stays usable), content types, cursors and CORS.
import { call } from "./instance.js";
import { concatBytes } from "./values.js";

const JSON_TYPE = "application/json";
/** The headers of every streamed answer. */
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };
/** How long a rest left unread is discarded before the connection is given up (ms). */
const DISCARD_MS = 2000;

/** An error answer: `{"error": {"code", "message", "field"?}}`, its status from the code. */
export class HttpError extends Error {
  constructor(code, message, field = undefined, headers = undefined) {
    super(message);
    this.code = code;
    this.field = field;
    this.headers = headers;
  }
}

/** A JSON answer of agentwire's own (health, the service info, an agent card). */
export function json(body, status = 200, headers = {}) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...headers } });
}

/** A JSON answer whose text the core wrote (a JSON-RPC response). */
export function jsonText(text, headers = {}) {
  return new Response(text, { headers: { "content-type": JSON_TYPE, ...headers } });
}

/** The answer to an HttpError: status and body as the core writes them (src/app.rs). */
export function errorResponse(e) {
  const [status, body] = call("httpError", e.code, e.message, e.field);
  return new Response(body, { status, headers: { "content-type": JSON_TYPE, ...e.headers } });
}

/** A 400 for an AgentwireError from a request mapping (its code and field); rethrows others. */
export function badRequest(error) {
  if (error?.name !== "AgentwireError") throw error;
  return new HttpError(error.code, error.message, error.field);
}

/** The request's URL; a Host no URL can hold (`a b`, `[`, a bad port) is the client's fault: 400. */
export function requestUrl(request) {
  try {
    return new URL(request.url);
  } catch {
    throw new HttpError("INVALID_REQUEST", "The request's URL (its Host header) is not valid.", "host");
  }
}

/**
 * Whether a `Content-Type` is one a run may start from: JSON (`application/json`, `…+json`).
 * Anything else, absent included, is what a cross-site form or a no-CORS fetch can send
 * without a preflight: refused, so that another site cannot start runs as a signed-in user.
 */
export function isJsonType(contentType) {
  if (contentType === null) return false;
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type === JSON_TYPE || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * The body as bytes, refused with 413 past `limit` however it is framed: a `Content-Length`
 * over the limit before reading, a chunked body once the limit is passed (no more is kept).
 * Either way the rest is discarded up to `limit` more bytes first, so the 413 reaches a
 * client still sending instead of a reset. A body cut short (the client went away) is 400.
 */
export async function readBody(request, limit) {
  const length = request.headers.get("content-length");
  const tooLarge = () => new HttpError("BODY_TOO_LARGE", `The request body is over ${limit} bytes.`);
  if (length !== null && Number(length) > limit) {
    await discardBody(request, limit);
    throw tooLarge();
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    let next;
    try {
      next = await reader.read();
    } catch {
      // The client went away (a reset, a dropped connection) mid-body: its fault, not a 500.
      throw new HttpError("INVALID_REQUEST", "The request body was cut short.", "body");
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      parts.length = 0;
      await discardRest(reader, limit);
      throw tooLarge();
    }
    parts.push(value);
  }
  return concatBytes(parts);
}

/**
 * Reads and drops what is left of a body nobody read (a 404, a 401, a cancel), up to `bound`
 * bytes and a couple of seconds, so that the client's next request on the connection is not
 * met by a reset; past either, the body is canceled.
 */
export async function discardBody(request, bound) {
  if (!request.body || request.bodyUsed) return;
  let reader;
  try {
    reader = request.body.getReader();
  } catch {
    return; // locked: someone reads it
  }
  await discardRest(reader, bound);
}

async function discardRest(reader, bound) {
  let left = bound;
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ late: true }), DISCARD_MS);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next.late || next.done) break;
      left -= next.value.byteLength;
      if (left < 0) break;
    }
  } catch {
    // The client went away: nothing left to discard.
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  }
}

/** The cursor a resuming reader sends: `Last-Event-ID`, else `?starting_after=N`; -1 for none. */
export function cursorOf(request, url) {
  const raw = request.headers.get("last-event-id") ?? url.searchParams.get("starting_after");
  if (raw === null || raw === "") return -1;
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError("INVALID_REQUEST", "The cursor (Last-Event-ID or starting_after) must be an event id.", "starting_after");
  return Number(raw);
}

/** A streamed answer of run `id` (its id in `x-agentwire-run-id`). */
export function sseResponse(body, id, headers = {}) {
  return new Response(body, { headers: { ...SSE_HEADERS, "x-agentwire-run-id": id, ...headers } });
}

/**
 * The requests the Node adapter (app-node.js) made: it writes their streamed answers to the
 * socket itself, from the run's reader (`directBodies`), with no ReadableStream between.
 */
export const nodeRequests = new WeakSet();
/** A streamed answer to a Node adapter's request → its body: `{iterator, onCancel}` (a run's reader). */
export const directBodies = new WeakMap();

/**
 * The streamed answer of run `id` to `request` from a run's reader (`{iterable, onCancel}`,
 * app-runs.js): a stream of its chunks, or, to a Node adapter's request, a body the adapter
 * reads itself (`directBodies`).
 */
export function sseAnswer(request, { iterable, onCancel, keepaliveMs = 0 }, id) {
  if (!nodeRequests.has(request)) return sseResponse(streamOf(iterable, onCancel, keepaliveMs), id);
  const response = sseResponse(null, id);
  directBodies.set(response, { iterator: iterable[Symbol.asyncIterator](), onCancel, keepaliveMs });
  return response;
}

let keepaliveBytes = null;
/** The SSE comment a quiet stream carries, written by the core (a fresh copy each time). */
export function keepaliveComment() {
  keepaliveBytes ??= call("sseKeepalive");
  return keepaliveBytes.slice();
}

/**
 * Calls `send()` at the end of every `ms` (0: never) in which no chunk was reported `sent()`:
 * what keeps a quiet stream alive. Returns `{sent, stop}`.
 */
export function keepalive(ms, send) {
  if (!(ms > 0)) return { sent() {}, stop() {} };
  let quiet = true;
  const timer = setInterval(() => {
    if (quiet) send();
    quiet = true;
  }, ms);
  // It never keeps a process alive by itself (Node, Deno): a stream nobody reads or cancels
  // (dropped by its caller) must not hold the event loop.
  if (typeof timer === "number") globalThis.Deno?.unrefTimer?.(timer);
  else timer?.unref?.();
  return {
    sent() {
      quiet = false;
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/**
 * An async iterable of byte chunks as a ReadableStream; cancelling it ends the iteration. Quiet
 * for `keepaliveMs` (0: never), it carries an SSE comment.
 */
export function streamOf(iterable, onCancel, keepaliveMs = 0) {
  const iterator = iterable[Symbol.asyncIterator]();
  let alive = null;
  return new ReadableStream({
    start(c) {
      alive = keepalive(keepaliveMs, () => {
        if (c.desiredSize > 0) c.enqueue(keepaliveComment());
      });
    },
    async pull(c) {
      try {
        const { done, value } = await iterator.next();
        if (done) {
          alive.stop();
          c.close();
        } else {
          alive.sent();
          c.enqueue(value);
        }
      } catch (e) {
        alive.stop();
        c.error(e);
      }
    },
    async cancel() {
      alive.stop();
      onCancel?.();
      await iterator.return?.();
    },
  });
}

/** `head`, then `rest`, as one stream. */
export function prepend(head, rest) {
  const reader = rest.getReader();
  let sent = false;
  return new ReadableStream({
    async pull(c) {
      if (!sent) {
        sent = true;
        c.enqueue(head);
        return;
      }
      const { done, value } = await reader.read();
      if (done) c.close();
      else c.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function allowedOrigin(cors, origin) {
  if (cors.origins === "*") return true;
  if (cors.origins instanceof Set) return cors.origins.has(origin);
  if (origin === "null") return false;
  try {
    return cors.origins(origin) === true;
  } catch {
    return false;
  }
}

/** `response` with the CORS headers `cors` (read by app-options) gives `request`'s origin. */
export function withCors(cors, request, response) {
  const origin = request.headers.get("origin");
  if (!cors || origin === null || !allowedOrigin(cors, origin)) return response;
  const headers = new Headers(response.headers);
  headers.set("access-control-allow-origin", cors.origins === "*" ? "*" : origin);
  if (cors.origins !== "*") headers.append("vary", "Origin");
  if (cors.credentials) headers.set("access-control-allow-credentials", "true");
  if (request.method === "OPTIONS") {
    headers.set("access-control-allow-methods", headers.get("allow") ?? "GET, POST, OPTIONS");
    // The headers asked for, echoed within a bound (a request's text is never echoed unbounded).
    const asked = request.headers.get("access-control-request-headers");
    headers.set("access-control-allow-headers", asked !== null && asked.length <= 1024 ? asked : "content-type, authorization, a2a-version, last-event-id");
    headers.set("access-control-max-age", String(cors.maxAge));
  } else {
    headers.set("access-control-expose-headers", "content-type, x-agentwire-run-id");
  }
  const out = new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  const direct = directBodies.get(response);
  if (direct) directBodies.set(out, direct);
  return out;
}
