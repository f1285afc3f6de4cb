// The Node side of the OpenAI Responses WebSocket mode (app-socket.js): `app.nodeUpgrade`, a
// listener for a `node:http` server's `upgrade` event, which accepts WebSockets with the `ws`
// package (an optional peer dependency, loaded on the first upgrade). Whatever the upgrade
// request, it is answered (a 4xx/5xx written by the core) or its socket destroyed; nothing it
// does can end the process.
import { call } from "./instance.js";
import { headersOf, urlOf } from "./app-node.js";

/** The package the sockets come from, named through a variable so that bundlers leave it out. */
const WS_PACKAGE = "ws";
/** How far over the app's body limit a message may be and still be answered with an error event. */
const OVER_BYTES = 64 * 1024;
/** Reason phrases of the refusals an upgrade can get. */
const REASONS = { 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed", 413: "Payload Too Large", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented" };

/** Writes the core's error answer for `code` on the raw socket, then closes it. */
function refuse(socket, code, message) {
  try {
    const [status, body] = call("httpError", code, message, undefined);
    const bytes = new TextEncoder().encode(body);
    socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}\r\ncontent-type: application/json\r\ncontent-length: ${bytes.length}\r\nconnection: close\r\n\r\n${body}`);
  } catch {
    socket.destroy();
  }
}

/**
 * The `upgrade` listener: `accepts(request)` (a GET `Request` of the upgrade) resolves to the
 * socket's release (called when it closes) when the app serves a WebSocket there, or throws an
 * HttpError-like `{code, message}`;
 * `serve(ws, request, release)` serves an accepted one; `maxBytes` bounds a message;
 * `report(error)` hears of failures.
 */
export function nodeUpgrade({ accepts, serve, maxBytes, report }) {
  let server = null;
  return (req, socket, head) => {
    // Until `ws` takes the socket, an error on it (a reset) is nobody's to throw.
    socket.on("error", () => socket.destroy());
    upgrade(req, socket, head).catch((e) => {
      report(e);
      refuse(socket, "INTERNAL_ERROR", "The server failed to answer.");
    });
  };

  async function upgrade(req, socket, head) {
    const url = urlOf(req);
    if (url === null) return refuse(socket, "INVALID_REQUEST", "The request's URL (its Host header) is not valid.");
    const request = new Request(url, { headers: headersOf(req) });
    let context;
    try {
      context = await accepts(request);
    } catch (e) {
      if (typeof e?.code === "string") return refuse(socket, e.code, e.message);
      throw e;
    }
    // `context` (the socket's release) is given back if no socket is served after all.
    let served = false;
    socket.once("close", () => {
      if (!served) context?.();
    });
    if (server === null) {
      let ws;
      try {
        ws = await import(WS_PACKAGE);
      } catch {
        report(new Error("AgentApp: the Responses WebSocket mode on Node needs the ws package (npm install ws)"));
        return refuse(socket, "NOT_FOUND", "WebSockets are not served here.");
      }
      // A message a little over `maxBytes` gets an error event (app-socket.js); one far over
      // closes the socket (1009) before it is buffered whole.
      server ??= new (ws.WebSocketServer ?? ws.default.WebSocketServer)({ noServer: true, maxPayload: maxBytes + OVER_BYTES });
    }
    if (socket.destroyed) {
      context?.(); // closed meanwhile (a release is idempotent)
      return undefined;
    }
    server.handleUpgrade(req, socket, head, (client) => {
      served = true;
      serve(client, request, context);
    });
    return undefined;
  }
}
