// StreamAssembler: the JS class around the wasm core. It adds what belongs in JS: reading a
// fetch() body (ReadableStream, Response or async iterable) with cancellation, the tool-call
// mirror (parsed arguments kept up to date in O(new bytes) per read), free()/dispose, and the
// guard of every call into wasm (instance.js: a trap loses the instance, not the process).
import { failure, instance, lostError, release } from "./instance.js";
import { agentwireError, chunkOf, optionsText } from "./values.js";
import { RunConnection } from "./connect.js";

const dispose = Symbol.dispose ?? Symbol.for("Symbol.dispose");

// A batch of updates arrives through wasm memory (see src/wasm/outbox.rs): text and argument
// appends as records of eight words plus their text, ids and names as positions in a string
// table sent once, every other update as a plain object. Only the appended text is decoded.
const RECORD_WORDS = 8;
const KIND_TEXT = 1;
const KIND_ARGUMENTS = 2;
const REPLACE = 1;
const UTF16 = 2;
const ASCII = 4;
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

// Node's Buffer, when the node entry provides it (`useNodeBuffer`); each instance keeps a Buffer
// over its memory (`inst.buffer`) next to its byte and word views. Engines turn UTF-8 with
// non-ASCII characters into a string several times slower than they copy UTF-16 or Latin-1
// (bench/README.md, "Measurements behind code decisions"). With a Buffer, the core sends such texts as UTF-16 and marks
// the others ASCII, read as Latin-1. Elsewhere texts stay UTF-8.
let NodeBuffer = null;

/** Called by the node entry, before it exports anything. */
export function useNodeBuffer(Buffer) {
  NodeBuffer = Buffer;
}

/** The bytes of an instance's wasm memory (a view kept up to date as the memory grows). */
export function memoryOf(inst) {
  refreshViews(inst);
  return inst.bytes;
}

// Views of an instance's wasm memory; a memory that grew detached the old ones (their length is
// then 0).
function refreshViews(inst) {
  if (inst.bytes.byteLength === 0) {
    const { buffer } = inst.exports.wasmMemory();
    inst.bytes = new Uint8Array(buffer);
    inst.words = new Uint32Array(buffer);
    if (NodeBuffer !== null) inst.buffer = NodeBuffer.from(buffer);
  }
}

// The text of a record: code units [start, end) of the UTF-16 text at `text16`, or bytes
// [start, end) of the UTF-8 text at `text8`. The core sends UTF-16 or marks ASCII only when told
// to (`useUtf16`), that is when there is a Buffer.
function decode(inst, flags, start, end, text8, text16) {
  if (start === end) return "";
  if ((flags & UTF16) !== 0) return inst.buffer.toString("utf16le", text16 + 2 * start, text16 + 2 * end);
  if ((flags & ASCII) !== 0) return inst.buffer.toString("latin1", text8 + start, text8 + end);
  return decoder.decode(inst.bytes.subarray(text8 + start, text8 + end));
}

// What the core's push and finish return on failure; the error is then taken with takeError.
const FAILED = 0xffffffff;

// `count`, or the core's error thrown (carrying the updates before it).
function checked(core, count) {
  if (count === FAILED) throw core.takeError(); // adopted by failure() in the caller's catch
  return count;
}

// A string chunk that ends with the first half of a surrogate pair keeps it for the next one, so
// a character split between two strings stays one character (a lone half becomes U+FFFD when the
// input moves on without its other half).
function isHighSurrogate(code) {
  return code >= 0xd800 && code <= 0xdbff;
}

export class StreamAssembler {
  #inst;
  #core;
  #outbox;
  #high = ""; // a high surrogate that ended the last string chunk
  #input = 0; // address of the core's input buffer
  #inputSize = 0;
  #strings = [];
  #calls = new Map(); // "messageId#index" → { record, value }
  #keys = [];
  #list = [];

  constructor(options) {
    const text = optionsText(options, "StreamAssembler");
    const inst = instance();
    this.#inst = inst;
    try {
      this.#core = new inst.exports.StreamAssemblerCore(text);
      if (NodeBuffer !== null) this.#core.useUtf16(true);
      this.#outbox = this.#core.outbox >>> 2;
    } catch (error) {
      throw failure(inst, error);
    }
  }

  // The `count` updates of the last call, from the outbox.
  #batch(count) {
    if (count === 0) return [];
    const core = this.#core;
    const inst = this.#inst;
    refreshViews(inst);
    const header = this.#outbox;
    const strings = this.#strings;
    if (inst.words[header + 3] !== 0) {
      for (const s of core.takeStrings()) strings.push(s);
    }
    const others = inst.words[header + 4] !== 0 ? core.takeOthers() : null;
    refreshViews(inst); // the two calls above may have grown the memory
    const words = inst.words;
    const text8 = words[header + 2];
    const text16 = words[header + 5];
    const updates = new Array(count);
    let other = 0;
    for (let i = 0, r = words[header] >>> 2; i < count; i++, r += RECORD_WORDS) {
      const kind = words[r];
      if (kind === KIND_TEXT) {
        const flags = words[r + 1];
        updates[i] = {
          type: "text",
          messageId: strings[words[r + 2] - 1],
          index: words[r + 3],
          delta: decode(inst, flags, words[r + 4], words[r + 5], text8, text16),
          replace: (flags & REPLACE) !== 0,
        };
      } else if (kind === KIND_ARGUMENTS) {
        const flags = words[r + 1];
        const callId = words[r + 6];
        const name = words[r + 7];
        updates[i] = {
          type: "arguments",
          messageId: strings[words[r + 2] - 1],
          index: words[r + 3],
          callId: callId === 0 ? null : strings[callId - 1],
          name: name === 0 ? null : strings[name - 1],
          delta: decode(inst, flags, words[r + 4], words[r + 5], text8, text16),
          replace: (flags & REPLACE) !== 0,
        };
      } else {
        updates[i] = others[other++];
      }
    }
    return updates;
  }

  #live() {
    if (this.#core === undefined) {
      throw agentwireError("FINISHED", "The assembler has been freed; create a new one.");
    }
    if (this.#inst.lost) throw lostError(this.#inst.cause);
    return this.#core;
  }

  push(chunk) {
    const core = this.#live();
    const input = chunkOf(chunk, "push");
    const inst = this.#inst;
    try {
      if (typeof input === "string") return this.#pushText(core, input);
      if (this.#high !== "") {
        // The string before ended with half a character, and bytes follow: it was a lone half.
        const before = this.#pushText(core, this.#takeHigh());
        const after = this.#pushBytes(core, input);
        return before.length === 0 ? after : [...before, ...after];
      }
      return this.#pushBytes(core, input);
    } catch (error) {
      throw failure(inst, error);
    }
  }

  #takeHigh() {
    const high = this.#high;
    this.#high = "";
    return high;
  }

  #pushText(core, text) {
    if (this.#high !== "") text = this.#takeHigh() + text;
    const last = text.length - 1;
    if (last >= 0 && isHighSurrogate(text.charCodeAt(last))) {
      this.#high = text.slice(last);
      text = text.slice(0, last);
      if (text === "") return [];
    }
    return this.#batch(checked(core, core.pushText(text)));
  }

  #pushBytes(core, bytes) {
    // Copied straight into the core's reused input buffer (no allocation per chunk).
    const size = bytes.length;
    if (size > this.#inputSize) {
      this.#input = core.inputBuffer(size);
      this.#inputSize = size;
    }
    const inst = this.#inst;
    refreshViews(inst);
    inst.bytes.set(bytes, this.#input);
    return this.#batch(checked(core, core.pushInput(size)));
  }

  finish() {
    const core = this.#live();
    const inst = this.#inst;
    try {
      const before = this.#high !== "" ? this.#pushText(core, this.#takeHigh()) : [];
      const updates = this.#batch(checked(core, core.finish()));
      core.releaseOutbox();
      this.#inputSize = 0;
      return before.length === 0 ? updates : [...before, ...updates];
    } catch (error) {
      throw failure(inst, error);
    }
  }

  // Calls `method` of the core with no argument, guarded.
  #get(method) {
    const core = this.#live();
    const inst = this.#inst;
    try {
      return method === "snapshot" ? core.snapshot() : core[method];
    } catch (error) {
      throw failure(inst, error);
    }
  }

  snapshot() {
    return this.#get("snapshot");
  }

  get outcome() {
    return this.#get("outcome");
  }

  get protocol() {
    return this.#get("protocol") ?? null;
  }

  get lastEventId() {
    return this.#get("lastEventId") ?? null;
  }

  get replayed() {
    return this.#get("replayed");
  }

  get retry() {
    return this.#get("retry") ?? null;
  }

  connectionLost() {
    const core = this.#live();
    const inst = this.#inst;
    try {
      core.connectionLost();
    } catch (error) {
      throw failure(inst, error);
    }
  }

  toolCalls() {
    // The core reports only the calls that changed, by position (null: nothing changed, and the
    // same array is returned): a full record for a new call or after a reset (every call
    // listed), otherwise only the fields that changed. Parsed arguments are mirrored in place,
    // by ops that cost O(bytes received since), so reading them after every chunk stays linear.
    const core = this.#live();
    const inst = this.#inst;
    let result;
    try {
      result = core.toolCallChanges();
    } catch (error) {
      throw failure(inst, error);
    }
    if (result === null) return this.#list;
    const len = result[0];
    const reset = result[1];
    const list = reset ? new Array(len) : this.#list.slice(0, len);
    const keys = reset ? new Array(len) : this.#keys;
    keys.length = len;
    for (let i = 2; i < result.length; i++) {
      const change = result[i];
      const position = change.position;
      const key = change.messageId !== undefined ? `${change.messageId}#${change.index}` : keys[position];
      keys[position] = key;
      const entry = this.#calls.get(key) ?? { record: undefined, value: undefined };
      const previous = entry.record;
      const rawDelta = change.rawDelta ?? "";
      let value = entry.value;
      if (change.appendAt !== undefined) value = applyOp(value, { op: "append", path: change.appendAt, text: rawDelta });
      for (const op of change.ops ?? []) value = applyOp(value, op);
      entry.value = value;
      const completed = change.completed ?? previous.completed;
      const argumentsError = change.argumentsError !== undefined ? change.argumentsError : (previous?.argumentsError ?? null);
      entry.record = Object.freeze({
        messageId: change.messageId ?? previous.messageId,
        index: change.index ?? previous.index,
        messageType: change.messageType ?? previous.messageType,
        callId: change.callId !== undefined ? change.callId : (previous?.callId ?? null),
        name: change.name !== undefined ? change.name : (previous?.name ?? null),
        arguments: change.rawReplace ? rawDelta : (previous?.arguments ?? "") + rawDelta,
        // A completed call with unusable arguments has none: its repaired parse was a preview.
        parsed: value === undefined || (completed && argumentsError !== null) ? null : value,
        completed,
        argumentsError,
        output: change.output !== undefined ? change.output : (previous?.output ?? null),
      });
      this.#calls.set(key, entry);
      list[position] = entry.record;
    }
    if (reset) {
      const live = new Set(keys);
      for (const key of this.#calls.keys()) if (!live.has(key)) this.#calls.delete(key);
    }
    this.#keys = keys;
    this.#list = list;
    return list;
  }

  free() {
    if (this.#core !== undefined) {
      const core = this.#core;
      this.#core = undefined;
      release(this.#inst, core); // never throws
      this.#high = "";
      this.#strings = [];
      this.#calls.clear();
      this.#keys = [];
      this.#list = [];
    }
  }

  [dispose]() {
    this.free();
  }

  static async collect(body, options) {
    const assembler = new StreamAssembler(options);
    try {
      for await (const chunk of chunks(body)) assembler.push(chunk);
      assembler.finish();
      return assembler.snapshot();
    } finally {
      assembler.free();
    }
  }

  static connect(url, init, options) {
    return new RunConnection(StreamAssembler, url, init, options);
  }

  static async *read(body, options) {
    const assembler = new StreamAssembler(options);
    try {
      for await (const chunk of chunks(body)) {
        const updates = assembler.push(chunk);
        if (updates.length > 0) yield updates;
      }
      const last = assembler.finish();
      if (last.length > 0) yield last;
    } finally {
      assembler.free();
    }
  }
}

// The chunks of a Response, a ReadableStream or an async iterable. Leaving the loop early
// (break, an exception, or a consumer that stops iterating) cancels the underlying body.
export async function* chunks(body) {
  if (body !== null && typeof body === "object" && "body" in body && typeof body.arrayBuffer === "function") {
    if (body.body === null) return;
    body = body.body;
  }
  if (body !== null && typeof body === "object" && typeof body.getReader === "function") {
    const reader = body.getReader();
    let done = false;
    try {
      for (;;) {
        const result = await reader.read();
        if (result.done) {
          done = true;
          return;
        }
        yield result.value;
      }
    } finally {
      if (!done) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }
  if (body !== null && typeof body === "object" && typeof body[Symbol.asyncIterator] === "function") {
    yield* body;
    return;
  }
  throw agentwireError("INVALID_OPTION", "expected a Response, a ReadableStream or an async iterable of Uint8Array");
}

// Applies one mirror op to `root` in place and returns the root (a new one only when the op
// replaces it, or appends to a root string). `assign` and `setFrom` are runs of sets into one
// object or array.
function applyOp(root, op) {
  const path = op.path;
  const kind = op.op;
  if (kind === "assign" || kind === "setFrom") {
    let node = root;
    for (let i = 0; i < path.length; i++) node = node[path[i]];
    if (kind === "setFrom") {
      const values = op.values;
      for (let i = 0, at = op.from; i < values.length; i++, at++) node[at] = values[i];
    } else {
      const values = op.values;
      for (const key of Object.keys(values)) setKey(node, key, values[key]);
    }
    return root;
  }
  if (path.length === 0) return kind === "set" ? op.value : root + op.text;
  let node = root;
  for (let i = 0; i < path.length - 1; i++) node = node[path[i]];
  const key = path[path.length - 1];
  setKey(node, key, kind === "set" ? op.value : node[key] + op.text);
  return root;
}

function setKey(node, key, value) {
  if (key === "__proto__") {
    // A JSON key, not the prototype: define it as an own property.
    Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    node[key] = value;
  }
}
