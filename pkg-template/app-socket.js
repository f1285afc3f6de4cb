// OpenAI Responses WebSocket mode on AgentApp's Responses route. A client that opens a WebSocket
// there sends `response.create` messages (a create body with `type`; always streamed) and gets
// each streaming event of the turn as a message, one turn at a time. Each turn is a POST of the
// body to the app itself (`turn`): authorize, caps, `previous_response_id`, durable runs, all as
// over HTTP; its SSE events' data are the messages, an error answer becomes an `error` event
// (written by the core). A `store: false` response can be continued on the socket that made it
// (`previous_response_id` and only the new input): the socket keeps the conversation of its last
// one (input and output items); a turn that fails while continuing it forgets it, and another
// socket never has it (`previous_response_not_found`, as for an unknown id).
import { call, failure, instance, release } from "./instance.js";

/** How long a socket stays open (ms), as OpenAI's (`websocket_connection_limit_reached`). */
export const SOCKET_MAX_AGE_MS = 60 * 60 * 1000;
/** WebSocket `readyState` OPEN. */
const OPEN = 1;
/**
 * How much a socket may hold unsent (`bufferedAmount`, bytes) before a turn stops reading its
 * run: a client that does not read holds the run back (its pace, then abandonment), not the
 * server's memory.
 */
export const SOCKET_HIGH_WATER = 1024 * 1024;
/** The most sockets open at once per principal and in all (per instance): more are 429. */
export const SOCKET_CAPS = { maxRunningPerPrincipal: 16, maxRunning: 1000 };
/** How often a socket over its high-water mark is looked at again (ms). */
const DRAIN_POLL_MS = 10;
const decoder = new TextDecoder();

/**
 * Serves the Responses WebSocket mode on `socket` (a WebSocket: Deno's, workerd's accepted
 * one, or the `ws` package's). `turn(body, signal)` answers one turn's POST body (a Response);
 * messages over `maxBytes` are refused; the socket is closed after `maxAgeMs`; `closed()` is
 * called once when it closes.
 * @param {{ send(data: string): void, close(code?: number, reason?: string): void, readyState: number, addEventListener(type: string, listener: (event: any) => void): void }} socket
 * @param {{ turn: (body: string, signal: AbortSignal) => Promise<Response>, maxBytes: number, maxAgeMs?: number, closed?: () => void }} options
 */
export function serveSocket(socket, { turn, maxBytes, maxAgeMs = SOCKET_MAX_AGE_MS, closed: onClosed = undefined }) {
  const state = { busy: false, cache: null, current: null, closed: false, socket };
  const send = (text) => {
    try {
      if (socket.readyState === OPEN) socket.send(text);
    } catch {
      // The socket went away: its close ends the turn.
    }
  };
  const error = (status, code, message, param = undefined) => send(call("responsesSocketError", status, code, message, param));
  const aged = setTimeout(() => {
    error(400, "websocket_connection_limit_reached", `A WebSocket stays open ${Math.round(maxAgeMs / 60_000)} minutes at most: open a new one.`);
    try {
      socket.close(1000, "connection limit reached");
    } catch {
      // Closed already.
    }
  }, maxAgeMs);
  if (typeof aged === "number") globalThis.Deno?.unrefTimer?.(aged);
  else aged?.unref?.();
  const closed = () => {
    if (state.closed) return;
    state.closed = true;
    clearTimeout(aged);
    state.current?.abort();
    state.cache = null;
    onClosed?.();
  };
  socket.addEventListener("close", closed);
  socket.addEventListener("error", closed);
  socket.addEventListener("message", (event) => {
    onMessage(state, event.data, { turn, maxBytes, send, error }).catch(() => error(500, "server_error", "The server failed to answer."));
  });
}

/** The text of a message (a string, an ArrayBuffer, a view or a Node Buffer), or null when over `maxBytes`. */
function textOf(data, maxBytes) {
  if (typeof data === "string") return data.length > maxBytes ? null : data;
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? data : null;
  if (bytes === null || bytes.byteLength > maxBytes) return null;
  return decoder.decode(bytes);
}

async function onMessage(state, data, { turn, maxBytes, send, error }) {
  const text = textOf(data, maxBytes);
  if (text === null) return error(413, "body_too_large", `A message is at most ${maxBytes} bytes of text.`);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return error(400, "invalid_json", "The message is not JSON.");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body) || body.type !== "response.create") {
    return error(400, "invalid_request", "Only response.create messages are accepted.", "type");
  }
  if (state.busy) return error(400, "response_already_in_flight", "A response is going on this socket: wait for its end.");
  state.busy = true;
  try {
    await runTurn(state, body, { turn, maxBytes, send, error });
  } finally {
    state.busy = false;
    state.current = null;
  }
}

/** A create's `input` as a list of items (a string is one user message). */
function itemsOf(input) {
  if (typeof input === "string") return [{ type: "message", role: "user", content: input }];
  return Array.isArray(input) ? input : [];
}

/** The call id of the first tool output in `input` whose call is neither in `before` nor earlier in `input`; null if none. */
function unmatchedOutput(before, input) {
  const calls = new Set();
  for (const item of [...before, ...input]) {
    if (item?.type === "function_call" || item?.type === "custom_tool_call") calls.add(item.call_id);
    else if ((item?.type === "function_call_output" || item?.type === "custom_tool_call_output") && !calls.has(item.call_id)) return String(item.call_id);
  }
  return null;
}

async function runTurn(state, body, { turn, maxBytes, send, error }) {
  // Transport fields have no meaning on a socket: every turn is streamed, none in the background.
  const { type: _type, stream: _stream, stream_options: _options, background: _background, ...create } = body;
  const continued = state.cache !== null && create.previous_response_id === state.cache.id;
  const input = itemsOf(create.input);
  if (continued) {
    const unmatched = unmatchedOutput(state.cache.items, input);
    if (unmatched !== null) {
      state.cache = null;
      return error(400, "invalid_request", `No tool call found for function call output with call_id ${unmatched.slice(0, 64)}.`, "input");
    }
    delete create.previous_response_id;
    create.input = [...state.cache.items, ...input];
  }
  create.stream = true;
  const gone = new AbortController();
  state.current = gone;
  let response;
  try {
    response = await turn(JSON.stringify(create), gone.signal);
  } catch (e) {
    if (continued) state.cache = null;
    if (gone.signal.aborted) return undefined;
    throw e;
  }
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    if (continued) state.cache = null;
    const failure = (await response.json().catch(() => null))?.error ?? {};
    // Over HTTP a previous response the caller cannot continue is a 400 naming the field.
    const code = failure.field === "previous_response_id" ? "previous_response_not_found" : String(failure.code ?? "error").toLowerCase();
    return error(response.status, code, String(failure.message ?? "The turn could not start."), failure.field);
  }
  const last = await forward(response.body, gone.signal, send, () => state.socket.bufferedAmount ?? 0);
  const final = last === null ? null : terminalResponse(last);
  if (create.store === false && final?.status === "completed") {
    const items = [...(continued ? create.input : input), ...(Array.isArray(final.output) ? final.output : [])];
    // A conversation that no longer fits a request could not be continued anyway.
    state.cache = JSON.stringify(items).length <= maxBytes ? { id: final.id, items } : null;
  } else if (continued) {
    state.cache = null;
  }
  return undefined;
}

/** The `response` of a terminal streaming event's data (completed, failed, incomplete), or null. */
function terminalResponse(data) {
  try {
    const event = JSON.parse(data);
    return /^response\.(completed|failed|incomplete)$/.test(event?.type) ? event.response ?? null : null;
  } catch {
    return null;
  }
}

/**
 * Sends the data of each SSE event of `body` (a turn's stream, written by the core; read by the
 * core's decoder, `SseDataReader`) as one message, reading no more while `buffered()` (the
 * socket's unsent bytes) is over SOCKET_HIGH_WATER; returns the last event's data (or null).
 */
async function forward(body, signal, send, buffered) {
  const reader = body.getReader();
  const stop = () => reader.cancel().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  const inst = instance();
  let events;
  try {
    events = new inst.exports.SseDataReader();
  } catch (error) {
    throw failure(inst, error);
  }
  let last = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // A turn's stream ends after its last whole event: an event cut short is not sent.
      if (done || signal.aborted) break;
      let data;
      try {
        data = events.push(value);
      } catch (error) {
        throw failure(inst, error);
      }
      for (const text of data) send((last = text));
      while (buffered() > SOCKET_HIGH_WATER && !signal.aborted) await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    }
  } finally {
    signal.removeEventListener("abort", stop);
    release(inst, events);
  }
  return last;
}

/**
 * The 101 answer accepting a WebSocket upgrade of `request` where the runtime gives one from a
 * fetch handler (workerd's `WebSocketPair`, `Deno.upgradeWebSocket`), `serve` called with the
 * server's socket; null where it does not (Node: `app.nodeUpgrade` on the server's `upgrade`).
 */
export function acceptSocket(request, serve) {
  if (typeof globalThis.WebSocketPair === "function") {
    const [client, server] = Object.values(new globalThis.WebSocketPair());
    server.accept();
    serve(server);
    // workerd's extension of ResponseInit: the client end of the pair.
    const init = { status: 101, webSocket: client };
    return new Response(null, init);
  }
  if (typeof globalThis.Deno?.upgradeWebSocket === "function") {
    const { socket, response } = globalThis.Deno.upgradeWebSocket(request);
    serve(socket);
    return response;
  }
  return null;
}
