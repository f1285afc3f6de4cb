// The Agent API on Node (node:http, Node >= 20): POST /process streams the scripted agent's
// events.
//
//   node examples/node/server.mjs
//
// Environment: PORT (default 8787; 0 picks a free port), EXPOSE_STATS=1 serves GET /_stats,
// DELAY_MS sets the pause between streamed pieces.
//
// The stream is copied to the socket chunk by chunk: when the socket's buffer is full the copy
// waits for "drain" (backpressure reaches the agent through rb.ready()), and when the client
// disconnects the copy cancels the stream, which aborts the agent's signal.
import { createServer } from "node:http";
import { parseRequest } from "agentwire";
import { stats } from "../shared/agent.js";
import {
  agentStream, CORS_HEADERS, errorBody, isAgentwireError, preflightHeaders, STREAM_HEADERS,
} from "../shared/handler.js";

const PORT = Number(process.env.PORT ?? 8787);
const EXPOSE_STATS = process.env.EXPOSE_STATS === "1";
const DELAY_MS = process.env.DELAY_MS ? Number(process.env.DELAY_MS) : undefined;
const MAX_BODY_BYTES = 1 << 20;

function sendJson(res, status, body, headers = CORS_HEADERS) {
  res.writeHead(status, { ...headers, "content-type": "application/json" }).end(JSON.stringify(body));
}

/** The request body, or null when it exceeds MAX_BODY_BYTES. */
async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Resolves on "drain", or on "close" (then there is nothing left to wait for). */
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

/** Copies `stream` to `res`, honouring backpressure; cancels it if the client disconnects. */
async function pipe(stream, res) {
  const reader = stream.getReader();
  let finished = false;
  res.on("close", () => {
    if (!finished) reader.cancel(new Error("the client disconnected")).catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await drained(res);
    }
    finished = true;
    res.end();
  } catch (error) {
    // The stream itself failed (the agent's errors arrive as failed events, not here).
    finished = true;
    res.destroy(error);
  }
}

async function handle(req, res) {
  const { pathname } = new URL(req.url ?? "/", "http://localhost");
  if (req.method === "OPTIONS") {
    res.writeHead(204, preflightHeaders(req.headers["access-control-request-headers"])).end();
    return;
  }
  if (pathname === "/_stats" && EXPOSE_STATS) return sendJson(res, 200, stats);
  if (pathname !== "/process") {
    return sendJson(res, 404, { error: { code: "NOT_FOUND", message: `No route ${pathname}.`, field: null } });
  }
  if (req.method !== "POST") {
    return sendJson(res, 405, { error: { code: "METHOD_NOT_ALLOWED", message: "Use POST.", field: null } },
      { ...CORS_HEADERS, allow: "POST, OPTIONS" });
  }
  const body = await readBody(req);
  if (body === null) {
    return sendJson(res, 413, { error: { code: "INVALID_REQUEST", message: "The request body is too large.", field: null } });
  }
  let agentRequest;
  try {
    agentRequest = parseRequest(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
  } catch (error) {
    if (!isAgentwireError(error)) throw error;
    return sendJson(res, 400, errorBody(error));
  }
  res.writeHead(200, STREAM_HEADERS);
  res.flushHeaders();
  await pipe(agentStream(agentRequest, { delayMs: DELAY_MS }), res);
}

const server = createServer((req, res) => {
  handle(req, res).catch((error) => {
    console.error("request failed:", error);
    if (!res.headersSent) sendJson(res, 500, { error: { code: "INTERNAL", message: "Internal error.", field: null } });
    else res.destroy();
  });
});

server.listen(PORT, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
