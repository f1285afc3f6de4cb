// Seeded input generation shared by benchmarks and tests: the same seed gives the same bytes on
// every run and every runtime (no Math.random, no clock).

/** The default seed, as in eventsource-parser's benchmark fixtures. */
export const SEED = 0xc0ffee;

/** A small, fast, seeded PRNG (mulberry32). Returns floats in [0, 1). */
export function rng(seed = SEED) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ASCII = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,;:!?'\"\\/-";
// Multi-byte characters (2, 3 and 4 bytes in UTF-8, one ZWJ sequence), ~10% of the text.
const MULTI = ["é", "ß", "ж", "中", "文", "✓", "€", "😀", "🚀", "👩‍💻"];

/** `n` characters of seeded text, about 10% of them multi-byte. */
export function text(random, n) {
  let s = "";
  for (let i = 0; i < n; i++) {
    s += random() < 0.1
      ? MULTI[Math.floor(random() * MULTI.length)]
      : ASCII[Math.floor(random() * ASCII.length)];
  }
  return s;
}

/** A seeded, uuid-shaped id (`xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx`). */
export function uuid(random) {
  const hex = (k) => Array.from({ length: k }, () => Math.floor(random() * 16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
}

/**
 * `count` Agent API content-delta events as the reference's `model_dump_json()` writes them
 * (compact, nulls kept, keys in wire order, non-ASCII unescaped), each with 5–65 characters of
 * text (~10% multi-byte), spread over a few messages (~220 bytes per event). Returns the JSON texts.
 */
export function contentEvents(count, seed = SEED) {
  const random = rng(seed);
  const events = [];
  let msgId = `msg_${uuid(random)}`;
  for (let i = 0; i < count; i++) {
    if (random() < 0.01) msgId = `msg_${uuid(random)}`;
    const event = {
      sequence_number: i + 2,
      object: "content",
      status: "in_progress",
      error: null,
      type: "text",
      index: 0,
      delta: true,
      msg_id: msgId,
      text: text(random, 5 + Math.floor(random() * 60)),
    };
    events.push(JSON.stringify(event));
  }
  return events;
}

/** The events framed as the reference server sends them: `data: <json>\n\n` per event. */
export function sse(events) {
  return events.map((e) => `data: ${e}\n\n`).join("");
}

/** A reference-shaped `response` event (no output). */
function responseEvent(seq, status, id) {
  return JSON.stringify({
    sequence_number: seq, object: "response", status, error: null, id, created_at: 1795335162,
    completed_at: status === "completed" ? 1795335170 : null, output: null, usage: null, session_id: "s1",
  });
}

/** A reference-shaped `message` event without content. */
function messageEvent(seq, status, id, type = "message") {
  return JSON.stringify({
    sequence_number: seq, object: "message", status, error: null, id, type, role: "assistant",
    content: null, code: null, message: null, usage: null, metadata: {},
  });
}

/**
 * A whole Agent API stream of `count` text-delta events spread over `messages` consecutive
 * assistant messages, framed as SSE (`data: <json>\n\n`): response created / in_progress, then
 * per message an `in_progress` announcement and its deltas (~10% multi-byte characters), then a
 * `completed` response (without output). `shape` writes each event and names each message.
 * Returns `{ sse, texts }`: the wire text and the expected text per `msg_id#index`.
 */
function deltaStream(count, { messages = 4, seed = SEED } = {}, shape) {
  const random = rng(seed);
  const frames = [];
  const texts = new Map();
  let seq = 0;
  const frame = (json) => frames.push(`data: ${json}\n\n`);
  frame(shape.response(seq++, "created"));
  frame(shape.response(seq++, "in_progress"));
  const perMessage = Math.ceil(count / messages);
  for (let done = 0, m = 0; done < count; m++) {
    const msgId = shape.messageId(random, m);
    frame(shape.message(seq++, msgId));
    let all = "";
    for (let i = 0; i < perMessage && done < count; i++, done++) {
      const piece = textOf(random, shape.minChars + Math.floor(random() * shape.spread));
      all += piece;
      frame(shape.delta(seq++, msgId, piece));
    }
    texts.set(`${msgId}#0`, all);
  }
  frame(shape.response(seq++, "completed"));
  return { sse: frames.join(""), texts };
}
const textOf = text;

/**
 * `deltaStream` exactly as the reference writes it (keys in model order, nulls kept, `msg_<uuid>`
 * ids), 5–65 characters per delta: ~232 B per event.
 */
export function textDeltaStream(count, options) {
  return deltaStream(count, options, {
    response: (seq, status) => responseEvent(seq, status, "resp_bench"),
    messageId: (random) => `msg_${uuid(random)}`,
    message: (seq, id) => messageEvent(seq, "in_progress", id),
    minChars: 5,
    spread: 60,
    delta: (seq, id, piece) => JSON.stringify({
      sequence_number: seq, object: "content", status: "in_progress", error: null, type: "text",
      index: 0, delta: true, msg_id: id, text: piece,
    }),
  });
}

/**
 * `deltaStream` at the size the benchmark names (events of 50–200 B, mean ~130 B) and in
 * the shorter shape the peer measurements used (`reference/peers.md` §2.1): content deltas
 * `{"object":"content","type":"text","index":0,"delta":true,"msg_id":"m3","text":"…"}` without
 * `sequence_number`, `status` or `error`, short ids, 3–60 characters of text.
 */
export function shortTextDeltaStream(count, options) {
  return deltaStream(count, options, {
    response: (_, status) => `{"object":"response","status":"${status}","id":"r1"}`,
    messageId: (_, m) => `m${m}`,
    message: (_, id) => `{"object":"message","status":"in_progress","id":"${id}","type":"message","role":"assistant"}`,
    minChars: 3,
    spread: 58,
    delta: (_, id, piece) => JSON.stringify({ object: "content", type: "text", index: 0, delta: true, msg_id: id, text: piece }),
  });
}

/**
 * A tool call whose `arguments` stream one character per event: a `function_call` message, its
 * data part `{call_id, name, arguments: ""}`, then `n` content events with
 * `data: {"arguments": "<1 char>"}` (`delta: true`) building a realistic JSON object (a few keys,
 * one long string value with escapes and multi-byte characters). Returns `{ head, deltas,
 * arguments }`: the SSE text before the deltas, one SSE frame per delta, and the final
 * arguments string (exactly `n` characters).
 */
export function toolArgumentsStream(n, seed = SEED) {
  const random = rng(seed);
  const msgId = `msg_${uuid(random)}`;
  const prefix = '{"path": "src/components/ChatPanel.tsx", "mode": "overwrite", "line": 42, ' +
    '"tags": ["ui", "chat"], "content": "';
  const suffix = '", "dryRun": false}';
  const bodyLength = n - [...prefix].length - [...suffix].length;
  // The long string value: JSON-escaped text (quotes, backslashes, newlines as \n), one code point
  // per delta, so an escape sequence is split across deltas as a real model would split it.
  let body = "";
  while ([...body].length < bodyLength) {
    const r = random();
    body += r < 0.03 ? "\\n" : r < 0.04 ? '\\"' : textOf(random, 1).replace(/["\\]/g, "x");
  }
  const body2 = [...body].slice(0, bodyLength);
  if (body2.at(-1) === "\\") body2[body2.length - 1] = "x"; // never end the string on a lone backslash
  const chars = [...prefix, ...body2, ...suffix];
  const args = chars.join("");
  return { ...toolCallEvents(msgId, chars), arguments: args };
}

/**
 * The events of a tool call in message `msgId` whose arguments stream as `pieces` (data deltas):
 * `{head, deltas}`, the head being the response and message events and the call's empty part.
 */
function toolCallEvents(msgId, pieces) {
  let seq = 0;
  const head = [
    responseEvent(seq++, "created", "resp_tool"),
    responseEvent(seq++, "in_progress", "resp_tool"),
    messageEvent(seq++, "in_progress", msgId, "function_call"),
    JSON.stringify({
      sequence_number: seq++, object: "content", status: "in_progress", error: null, type: "data",
      index: 0, delta: false, msg_id: msgId, data: { call_id: "call_bench", name: "write_file", arguments: "" },
    }),
  ].map((e) => `data: ${e}\n\n`).join("");
  const deltas = pieces.map((piece) => `data: ${JSON.stringify({
    sequence_number: seq++, object: "content", status: "in_progress", error: null, type: "data",
    index: 0, delta: true, msg_id: msgId, data: { arguments: piece },
  })}\n\n`);
  return { head, deltas };
}

/**
 * A tool call whose arguments are `args` (a JSON text), streamed as data deltas of `piece`
 * characters: `{head, deltas, arguments}` as for `toolArgumentsStream`.
 */
export function toolArgumentsPieces(args, piece) {
  const pieces = [];
  for (let i = 0; i < args.length; i += piece) pieces.push(args.slice(i, i + piece));
  return { ...toolCallEvents("msg_bench_args", pieces), arguments: args };
}

/** Cuts `bytes` into consecutive pieces of `min`–`max` bytes at seeded points (views, no copies). */
export function chunkBytes(bytes, min, max, seed = SEED) {
  const random = rng(seed ^ (min * 31 + max));
  const chunks = [];
  for (let i = 0; i < bytes.length;) {
    const size = min + Math.floor(random() * (max - min + 1));
    chunks.push(bytes.subarray(i, i + size));
    i += size;
  }
  return chunks;
}
