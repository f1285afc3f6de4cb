// The JS test cases of agentwire, written once and run in every runtime: Node and Deno through
// node:test (agentwire.test.mjs), workerd inside a worker, Chromium inside a page. Each case gets
// the package's namespace (`import * as api from "agentwire"`) and an assert object with the
// node:assert/strict interface (`ok`, `strictEqual`, `deepStrictEqual`, `throws`).
import { contentEvents } from "./fixtures.mjs";
import { assemblerCases } from "./assembler-cases.mjs";
import { openaiCases } from "./openai-cases.mjs";
import { builderCases } from "./builder-cases.mjs";
import { aguiOutCases } from "./agui-out-cases.mjs";

/** A content delta exactly as the reference's `model_dump_json()` writes it. */
export const CONTENT_EVENT =
  '{"sequence_number":2,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"Hi ✓ 😀"}';
/** A `response` event as the reference writes it (key order of `AgentResponse`). */
export const RESPONSE_EVENT =
  '{"sequence_number":0,"object":"response","status":"created","error":null,"id":"response_8d0c7a52-3f44-4c1b-9a53-2f7f3c1f9b10","created_at":1763800000,"completed_at":null,"output":null,"usage":null,"session_id":"s1"}';
/** A `message` event as the reference writes it (key order of `Message`). */
export const MESSAGE_EVENT =
  '{"sequence_number":1,"object":"message","status":"in_progress","error":null,"id":"msg_1","type":"message","role":"assistant","content":null,"code":null,"message":null,"usage":null,"metadata":null}';

const REQUEST_KEYS = [
  "input", "stream", "id", "model", "top_p", "temperature", "frequency_penalty",
  "presence_penalty", "max_tokens", "stop", "n", "seed", "tools", "session_id", "user_id",
];

const utf8 = (s) => new TextEncoder().encode(s);

/** Asserts that `fn` throws an AgentwireError with exactly these properties. */
function throwsCoded(assert, fn, expected) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof Error, `expected an Error to be thrown, got ${String(caught)}`);
  assert.strictEqual(caught.name, "AgentwireError");
  assert.strictEqual(typeof caught.message, "string");
  for (const [key, value] of Object.entries(expected)) {
    assert.strictEqual(caught[key], value, `error.${key}`);
  }
  return caught;
}

/** name → (api, assert) => void */
export const cases = {
  "parseRequest fills every default, in the reference's key order"({ parseRequest }, assert) {
    const request = parseRequest('{"input":[]}');
    assert.deepStrictEqual(Object.keys(request), REQUEST_KEYS);
    assert.deepStrictEqual(request, {
      input: [], stream: true, id: null, model: null, top_p: null, temperature: null,
      frequency_penalty: null, presence_penalty: null, max_tokens: null, stop: null, n: 1,
      seed: null, tools: null, session_id: null, user_id: null,
    });
  },

  "parseRequest keeps unknown keys, nested key order and nulls"({ parseRequest }, assert) {
    const request = parseRequest('{"input":[],"state":{"z":1,"a":null,"m":[true,"x"]},"model":"qwen"}');
    assert.strictEqual(request.model, "qwen");
    assert.deepStrictEqual(Object.keys(request), [...REQUEST_KEYS, "state"]);
    assert.strictEqual(JSON.stringify(request.state), '{"z":1,"a":null,"m":[true,"x"]}');
  },

  "parseRequest reads a Uint8Array exactly like a string"({ parseRequest }, assert) {
    // An explicit message id: without one, each parse generates a fresh msg_<uuid4>, as the reference does.
    const text = '{"input":[{"id":"m1","role":"user","content":[{"type":"text","text":"héllo 中文 👩‍💻"}]}],"session_id":"s1"}';
    const fromString = parseRequest(text);
    assert.deepStrictEqual(parseRequest(utf8(text)), fromString);
    assert.strictEqual(fromString.session_id, "s1");
    assert.strictEqual(fromString.input[0].role, "user");
    assert.strictEqual(fromString.input[0].content[0].text, "héllo 中文 👩‍💻");
    const generated = parseRequest('{"input":[{"role":"user","content":[]}]}').input[0].id;
    assert.match(generated, /^msg_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  },

  "parseRequest without input throws INVALID_REQUEST naming the field"({ parseRequest }, assert) {
    const e = throwsCoded(assert, () => parseRequest('{"stream":true}'), {
      code: "INVALID_REQUEST", field: "input",
    });
    assert.strictEqual(e.offset, undefined);
    assert.strictEqual(typeof e.stack, "string");
  },

  "parseRequest with n out of 1..5 throws INVALID_REQUEST on n"({ parseRequest }, assert) {
    throwsCoded(assert, () => parseRequest('{"input":[],"n":6}'), { code: "INVALID_REQUEST", field: "n" });
    throwsCoded(assert, () => parseRequest('{"input":[],"n":0}'), { code: "INVALID_REQUEST", field: "n" });
  },

  "malformed JSON throws INVALID_JSON"({ parseRequest, parseEvent }, assert) {
    for (const text of ["", "{", '{"input":[]', "nul", "[1,]"]) {
      throwsCoded(assert, () => parseRequest(text), { code: "INVALID_JSON" });
      throwsCoded(assert, () => parseEvent(text), { code: "INVALID_JSON" });
    }
  },

  "bytes that are not UTF-8 throw INVALID_UTF8 with the offset"({ parseRequest, parseEvent }, assert) {
    const bytes = new Uint8Array([...utf8('{"input":["'), 0xff, ...utf8('"]}')]);
    throwsCoded(assert, () => parseRequest(bytes), { code: "INVALID_UTF8", offset: 11 });
    throwsCoded(assert, () => parseEvent(bytes), { code: "INVALID_UTF8", offset: 11 });
  },

  "an argument that is neither string nor Uint8Array throws INVALID_OPTION"({ parseEvent }, assert) {
    for (const value of [42, null, undefined, {}, [CONTENT_EVENT]]) {
      throwsCoded(assert, () => parseEvent(value), { code: "INVALID_OPTION" });
    }
  },

  "parseEvent returns reference-shaped events unchanged, byte for byte"({ parseEvent }, assert) {
    for (const text of [CONTENT_EVENT, RESPONSE_EVENT, MESSAGE_EVENT]) {
      assert.strictEqual(JSON.stringify(parseEvent(text)), text);
      assert.strictEqual(JSON.stringify(parseEvent(utf8(text))), text);
    }
    const event = parseEvent(CONTENT_EVENT);
    assert.strictEqual(event.object, "content");
    assert.strictEqual(event.delta, true);
    assert.strictEqual(event.error, null);
  },

  "parseEvent agrees with JSON.parse on 2,000 seeded events"({ parseEvent }, assert) {
    for (const text of contentEvents(2000)) {
      assert.deepStrictEqual(parseEvent(text), JSON.parse(text));
    }
  },

  "results are plain objects and arrays, nothing to free"({ parseRequest, parseEvent }, assert) {
    const request = parseRequest('{"input":[{"role":"user","content":[]}]}');
    assert.strictEqual(Object.getPrototypeOf(request), Object.prototype);
    assert.ok(Array.isArray(request.input));
    assert.strictEqual(Object.getPrototypeOf(parseEvent(CONTENT_EVENT)), Object.prototype);
  },

  "every error agentwire throws is an AgentwireError (instanceof), made in wasm or in JS"(
    { AgentwireError, parseRequest, parseEvent, StreamAssembler }, assert,
  ) {
    assert.strictEqual(typeof AgentwireError, "function", "AgentwireError is exported as a class");
    const fromWasm = throwsCoded(assert, () => parseRequest("{}"), { code: "INVALID_REQUEST" });
    const fromJs = throwsCoded(assert, () => parseEvent(42), { code: "INVALID_OPTION" });
    const strict = new StreamAssembler({ strict: true });
    const fromPush = throwsCoded(assert, () => strict.push('data: {"object":"nonsense"}\n\n'), {});
    strict.free();
    for (const [where, e] of [["wasm", fromWasm], ["JS", fromJs], ["push", fromPush]]) {
      assert.ok(e instanceof AgentwireError, `${where}: instanceof AgentwireError`);
      assert.ok(e instanceof Error, `${where}: instanceof Error`);
      assert.strictEqual(Object.getPrototypeOf(e), AgentwireError.prototype, `${where}: its prototype`);
      assert.strictEqual(typeof e.stack, "string", `${where}: a stack`);
    }
    const made = new AgentwireError("INVALID_OPTION", "made by hand", { field: "x" });
    assert.deepStrictEqual([made.name, made.code, made.message, made.field], ["AgentwireError", "INVALID_OPTION", "made by hand", "x"]);
    assert.ok(made instanceof AgentwireError && made instanceof Error);
    // One made elsewhere (another copy of the package, another realm) is recognised by its name
    // and code; other errors and look-alike plain objects are not.
    const foreign = Object.assign(new Error("x"), { name: "AgentwireError", code: "FINISHED" });
    assert.ok(foreign instanceof AgentwireError);
    assert.ok(!(new TypeError("x") instanceof AgentwireError));
    assert.ok(!({ name: "AgentwireError", code: "FINISHED" } instanceof AgentwireError));
    // Hostile values: a getter that throws reads as not an instance; a code that is not a
    // string is refused; a subclass tests its own prototype.
    const hostile = new Proxy(new Error("x"), { get() { throw new Error("trap"); } });
    assert.strictEqual(hostile instanceof AgentwireError, false);
    let refused;
    try { new AgentwireError(undefined, "x"); } catch (e) { refused = e; }
    assert.ok(refused instanceof TypeError, `a non-string code: ${String(refused)}`);
    class Sub extends AgentwireError {}
    assert.ok(new Sub("INVALID_OPTION", "x") instanceof Sub);
    assert.strictEqual(fromWasm instanceof Sub, false);
  },

  "errors leave the instance usable"({ parseRequest, parseEvent }, assert) {
    for (let i = 0; i < 200; i++) {
      try { parseRequest("{"); } catch { /* expected */ }
      try { parseEvent(7); } catch { /* expected */ }
    }
    assert.strictEqual(parseEvent(CONTENT_EVENT).text, "Hi ✓ 😀");
  },
  ...assemblerCases,
  ...openaiCases,
  ...builderCases,
  ...aguiOutCases,
};
