// Values in: every JS value agentwire reads (option bags, builder values, chunks, documents) is
// read here, in JS, inside a `try`, before anything crosses into wasm. An option bag or an object
// value crosses as its JSON text; a chunk as a plain Uint8Array or a string. So a getter or a
// Proxy trap that throws, a cycle or a value nested too deep becomes an INVALID_OPTION error
// (the JS exception as its `cause`) and never unwinds through wasm frames, which would leave the
// instance's state half-updated (src/wasm/convert.rs).

export const ERROR_NAME = "AgentwireError";

/** The deepest nesting of a value agentwire accepts (src/depth.rs, MAX_DEPTH). */
const MAX_DEPTH = 100;

/**
 * What every agentwire function throws: an Error with a stable `code` (and `field`, `offset`,
 * `cause` when known). `instanceof AgentwireError` holds for every error agentwire throws, in
 * every runtime and realm and from either build (`agentwire`, `agentwire/lite`): it tests the
 * name and the code, not the prototype chain.
 */
export class AgentwireError extends Error {
  constructor(code, message, options) {
    if (typeof code !== "string") throw new TypeError("AgentwireError: code must be a string");
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = ERROR_NAME;
    this.code = code;
    if (options?.field !== undefined) this.field = options.field;
    if (options?.offset !== undefined) this.offset = options.offset;
  }

  static [Symbol.hasInstance](value) {
    // A subclass keeps the ordinary prototype test; reading a hostile value never throws.
    if (this !== AgentwireError) return Function.prototype[Symbol.hasInstance].call(this, value);
    try {
      return (value instanceof Error || Object.prototype.toString.call(value) === "[object Error]")
        && value.name === ERROR_NAME && typeof value.code === "string";
    } catch {
      return false;
    }
  }
}

/** The one maker of agentwire's errors in JS: an AgentwireError. */
export function agentwireError(code, message, field, cause) {
  return new AgentwireError(code, message, { field, cause });
}

/**
 * An error the wasm core threw (an `Error` named AgentwireError, made in Rust) given
 * AgentwireError's prototype, so that it is one like those made in JS.
 */
export function adopt(error) {
  if (error?.name === ERROR_NAME && Object.getPrototypeOf(error) === Error.prototype) {
    Object.setPrototypeOf(error, AgentwireError.prototype);
  }
  return error;
}

// A value that is not JSON data: thrown by `write`, turned into INVALID_OPTION by its callers.
class NotJson {
  constructor(reason) {
    this.reason = reason;
  }
}

/**
 * The compact JSON text of `value`, as `JSON.stringify` writes plain data, with `undefined`
 * object members left out and `undefined` array items as `null`; non-finite numbers are `null`.
 * `depth` is how many containers enclose `value`; `seen` its enclosing objects (cycles).
 * Throws NotJson for a BigInt, a symbol, a function, an iterable other than an array (a Map, a
 * Set, a typed array), a cycle, or nesting deeper than MAX_DEPTH; and whatever reading the
 * value throws.
 */
function write(value, depth, seen) {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? `${value}` : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      break;
    case "bigint":
      throw new NotJson("a BigInt has no JSON form");
    default:
      throw new NotJson(`a ${typeof value} has no JSON form`);
  }
  if (depth >= MAX_DEPTH) throw new NotJson(`the value is nested deeper than ${MAX_DEPTH} levels`);
  if (seen.includes(value)) throw new NotJson("the value is cyclic (it contains itself)");
  seen.push(value);
  let out;
  if (Array.isArray(value)) {
    out = "[";
    const length = value.length;
    for (let i = 0; i < length; i++) {
      const item = value[i];
      if (i > 0) out += ",";
      out += item === undefined ? "null" : write(item, depth + 1, seen);
    }
    out += "]";
  } else {
    if (Symbol.iterator in value) throw new NotJson("an iterable other than an array has no JSON form");
    out = "{";
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (item === undefined) continue;
      if (out.length > 1) out += ",";
      out += JSON.stringify(key) + ":" + write(item, depth + 1, seen);
    }
    out += "}";
  }
  seen.pop();
  return out;
}

// JSON.stringify writes a lone surrogate as an escape (`\udXXX`), which is not UTF-8 and which
// the core's JSON reader refuses; a string crossing into wasm has it replaced by U+FFFD, and so
// does JSON text here. Only an escape with an even run of backslashes before it is one.
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

function finish(text) {
  return text.includes("\\ud") ? text.replace(LONE_SURROGATE, "$1\ufffd") : text;
}

/** A description of what reading a value threw, for a message (never throws itself). */
/**
 * The message of anything thrown: an error's `message`, a value's text, or `fallback` for a
 * value with neither (a null-prototype object, a throwing getter or `toString`).
 */
export function messageOf(error, fallback = "an exception") {
  try {
    if (error !== null && typeof error === "object" && typeof error.message === "string") return error.message;
    return String(error);
  } catch {
    return fallback;
  }
}

function describe(error) {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    return String(error);
  } catch {
    return "an exception";
  }
}

/** INVALID_OPTION for `error` (NotJson or a JS exception) raised while reading `what`. */
function invalid(error, what, field) {
  if (error instanceof NotJson) return agentwireError("INVALID_OPTION", `${what}: ${error.reason}`, field);
  return agentwireError("INVALID_OPTION", `${what}: reading the value threw ${describe(error)}`, field, error);
}

/** Whether `value` is a plain object: `{…}` or `Object.create(null)` (of any realm). May throw. */
function isPlainObject(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * The JSON text of a builder value that must be a plain object (a data delta, usage); `what`
 * names the method. Throws INVALID_OPTION for anything else.
 */
export function objectText(value, what) {
  let plain;
  let text;
  try {
    plain = isPlainObject(value);
    if (plain) text = write(value, 0, []);
  } catch (error) {
    throw invalid(error, what);
  }
  if (!plain) throw agentwireError("INVALID_OPTION", `${what} expects a string or a plain object`);
  return finish(text);
}

/**
 * The JSON text of an option bag (`undefined` for `undefined` / `null`): its own enumerable
 * keys, each value JSON data at most MAX_DEPTH levels deep. `what` names the class or method
 * (as in "StreamAssembler options must be an object"); `field` is set on errors to the key
 * whose value failed. The core reads the text (src/wasm/options.rs) and names unknown keys.
 */
export function optionsText(options, what, errorField) {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== "object") {
    throw agentwireError("INVALID_OPTION", `${what} options must be an object`, errorField);
  }
  let out = "{";
  let key;
  try {
    for (key of Object.keys(options)) {
      const value = options[key];
      if (value === undefined) continue;
      if (out.length > 1) out += ",";
      out += JSON.stringify(key) + ":" + write(value, 0, [options]);
    }
  } catch (error) {
    throw invalid(error, key === undefined ? `${what} options` : `${what}: ${key}`, key);
  }
  return finish(out + "}");
}

/**
 * The JSON text of `{code, message}` read from `error` (own or inherited properties, so an
 * `Error` with a `code` works), for `failed()`.
 */
export function errorInfoText(error) {
  if (error === null || typeof error !== "object") {
    throw agentwireError("INVALID_OPTION", "failed() expects an object {code, message}");
  }
  let bag;
  try {
    bag = { code: error.code, message: error.message };
  } catch (e) {
    throw invalid(e, "failed()");
  }
  return optionsText(bag, "failed()");
}

// Brand checks that run no JS code of the value's (a Proxy, a changed prototype): the intrinsic
// getters look at internal slots only.
const TypedArray = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const typedArrayTag = getter(TypedArray, Symbol.toStringTag);
const typedArrayBuffer = getter(TypedArray, "buffer");
const typedArrayOffset = getter(TypedArray, "byteOffset");
const typedArrayLength = getter(TypedArray, "byteLength");
const dataViewBuffer = getter(DataView.prototype, "buffer");
const dataViewOffset = getter(DataView.prototype, "byteOffset");
const dataViewLength = getter(DataView.prototype, "byteLength");
const arrayBufferLength = getter(ArrayBuffer.prototype, "byteLength");

/**
 * The bytes of a chunk as a plain Uint8Array (the same memory, no copy): a Uint8Array as is,
 * another typed array or a DataView as a view of its bytes, an ArrayBuffer as a view of it.
 * `undefined` for anything else.
 */
export function bytesOf(chunk) {
  const tag = typedArrayTag.call(chunk);
  if (tag !== undefined) {
    if (tag === "Uint8Array" && Object.getPrototypeOf(chunk) === Uint8Array.prototype) return chunk;
    return new Uint8Array(typedArrayBuffer.call(chunk), typedArrayOffset.call(chunk), typedArrayLength.call(chunk));
  }
  if (chunk === null || typeof chunk !== "object") return undefined;
  try {
    return new Uint8Array(dataViewBuffer.call(chunk), dataViewOffset.call(chunk), dataViewLength.call(chunk));
  } catch {
    // not a DataView
  }
  try {
    arrayBufferLength.call(chunk);
  } catch {
    return undefined; // not an ArrayBuffer
  }
  return new Uint8Array(chunk);
}

/** What a chunk is, for an error message. */
function kind(chunk) {
  if (chunk === null) return "null";
  if (typeof chunk !== "object") return `a ${typeof chunk}`;
  try {
    return `an object (${Object.prototype.toString.call(chunk)})`;
  } catch {
    return "an object";
  }
}

/**
 * A chunk of a stream as a string or a plain Uint8Array; INVALID_OPTION for anything else
 * (`null`, a number, a plain object, a Blob, …), naming `what`.
 */
export function chunkOf(chunk, what) {
  if (typeof chunk === "string") return chunk;
  let bytes;
  try {
    bytes = bytesOf(chunk);
  } catch (error) {
    throw agentwireError("INVALID_OPTION", `${what}: reading the chunk threw ${describe(error)}`, undefined, error);
  }
  if (bytes === undefined) {
    throw agentwireError("INVALID_OPTION", `${what} expects a Uint8Array (or another ArrayBuffer view, an ArrayBuffer) or a string, not ${kind(chunk)}`);
  }
  return bytes;
}

/** A document argument (`parseRequest` and its kin): a string or a plain Uint8Array. */
export function textOf(value, what) {
  if (typeof value === "string") return value;
  let bytes;
  try {
    if (typedArrayTag.call(value) === "Uint8Array") bytes = bytesOf(value);
  } catch (error) {
    throw agentwireError("INVALID_OPTION", `${what}: reading the argument threw ${describe(error)}`, undefined, error);
  }
  if (bytes === undefined) throw agentwireError("INVALID_OPTION", `${what} expects a string or a Uint8Array`);
  return bytes;
}

/** `chunks` (Uint8Arrays) joined into one (the chunk itself when there is one). */
export function concatBytes(chunks) {
  if (chunks.length === 1) return chunks[0];
  let size = 0;
  for (const c of chunks) size += c.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
