#!/usr/bin/env python3
"""Writes seed corpora for the fuzz targets into fuzz/corpus/<target>/ (existing files are kept).

- push: the reference SSE captures (tests/fixtures/reference/sse/), the AG-UI conformance streams
  as SSE and a few text deltas, each with two seeded cut points in the target's input layout
  (decode_fuzz_input in tests/assembler_harness/mod.rs).
- partial_json, patch, render, builder, translate: inputs in the layouts of
  tests/fuzz_harness/<target>.rs, read by its `Gen` (one byte per choice, little-endian u16
  lengths). The `Enc` class below writes that layout. The seeds hold the hostile shapes the
  issue names: nesting thousands of levels deep, thousands of keys, long runs of one byte,
  `__proto__` keys, lone surrogate escapes, sequence numbers near i64::MAX; and real streams of
  every protocol (fuzz/seeds/streams/, translated by agentwire from the reference captures and a
  builder run).

Run from anywhere: python3 fuzz/seed-corpus.py [target...]"""
import glob
import hashlib
import json
import os
import random
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
STREAMS = os.path.join(ROOT, "fuzz", "seeds", "streams")


def conformance_dir(name):
    """Conformance suite `name`, where the suites live: beside the repository, in
    ../shared/conformance (AGENTWIRE_CONFORMANCE names another directory holding them)."""
    base = os.environ.get("AGENTWIRE_CONFORMANCE") or os.path.join(ROOT, "..", "shared", "conformance")
    path = os.path.join(base, name)
    if not os.path.isdir(path):
        sys.exit(f"conformance suite {name} not found at {path}: the suites live in <repo root>/../shared/conformance "
                 "(set AGENTWIRE_CONFORMANCE to their directory)")
    return path

MAX = 8192  # the documented -max_len
rng = random.Random(0xC0FFEE)
I64_MAX = 2**63 - 1


def save(target, name, data):
    """Writes one seed (at most MAX bytes: libFuzzer truncates longer ones anyway)."""
    out = os.path.join(CORPUS, target)
    os.makedirs(out, exist_ok=True)
    data = bytes(data)[:MAX]
    digest = hashlib.sha1(data).hexdigest()[:8]
    with open(os.path.join(out, f"seed-{name}-{digest}"), "wb") as f:
        f.write(data)


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def sse(events):
    return "".join("data: " + (e if isinstance(e, str) else compact(e)) + "\n\n" for e in events).encode()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def streams(protocol):
    """The stored streams of one protocol: [(name, bytes)]."""
    found = [(os.path.basename(p).split(".")[0], read(p))
             for p in sorted(glob.glob(os.path.join(STREAMS, f"*.{protocol}.sse")))]
    if protocol == "agent-api":
        found += [(os.path.basename(p)[:-4], read(p))
                  for p in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/reference/sse/*.sse")))]
    return found


# ----- the Gen layout (tests/fuzz_harness/mod.rs) ------------------------------------------------

# Gen::string's pool and Gen::key's keys, by index.
POOL = ["", "a", "b", "x", "__proto__", "constructor", "prototype", "toString", "é中", "👩‍💻",
        "\ufffd", "\0", "\u2028", "arguments", "call_id", "name", "output", "0", "-", "~", "/",
        "~0~1", "\"\\", "{\"a\":", "null", "[DONE]", "\n\ndata: "]
KEYS = ["a", "b", "c", "0", "1", "__proto__", "k", "-", "~1", ""]
CONTENT_TYPES = ["text", "data", "image", "audio", "file", "refusal", "video"]
ARG_PIECES = ["{", "}", "[", "]", "\"", "a", ":", ",", " ", "1", "-", ".", "e", "true", "nul", "\\",
              "\\u00", "e9", "\\ud800", "\\udc00", "\\n", "{\"k\": \"v", "\"}", "[1, 2", "]}",
              "{\"__proto__\": {\"x\": 1}}", "\u0007", "\t"]


class Enc:
    """Writes what `Gen` reads."""

    def __init__(self):
        self.out = bytearray()

    def byte(self, b):
        self.out.append(b & 255)
        return self

    def u16(self, n):
        self.out += struct.pack("<H", n & 0xFFFF)
        return self

    def raw(self, data):
        self.out += data
        return self

    def text(self, s, max_len):
        data = s.encode() if isinstance(s, str) else s
        assert len(data) <= max_len, (len(data), max_len)
        return self.u16(len(data)).raw(data)

    # Gen::string
    def string(self, s):
        if s in POOL:
            return self.byte(0).byte(POOL.index(s))
        return self.byte(6).text(s, 64)

    def run(self, char, n):
        """Gen::string's long run of one byte (n < 20000)."""
        return self.byte(5).byte(ord(char)).u16(n)

    # Gen::value: raw JSON text (at most 512 bytes) or a hostile shape.
    def json(self, value):
        text = value if isinstance(value, str) else compact(value)
        return self.byte(11).text(text, 512)

    def shaped(self, kind, n, big=True):
        """kind: 0 [[[…]]], 1 {"a":{"a":…}}, 2 {"k0":0,…}, 3 [0,1,…]; big: n as given."""
        return self.byte(10).byte(kind).u16(n).byte(7 if big else 0)

    def bytes(self):
        return bytes(self.out)


# ----- partial_json ---------------------------------------------------------------------------

def partial_json_seed(name, text, cuts=(), flags=1):
    data = text.encode() if isinstance(text, str) else text
    enc = Enc().byte(flags).byte(len(cuts))
    for c in cuts:
        enc.u16(c)
    save("partial_json", name, enc.raw(data).bytes())


def partial_json():
    samples = {
        "city": '{"city": "Hangzhou", "days": 3, "units": "metric"}',
        "mixed": '{"a":[1,2.5,-3e2,{"b":null,"c":[true,false]}],"s":"x\\"y\\\\z\\n\\u00e9\\ud83d\\ude00"}',
        "lone-surrogates": '["\\ud800x", "\\udc00", "\\ud800\\ud83d\\ude00", {"\\udbff": "\\ud800"}]',
        "proto": '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": null}, "__proto__": null}',
        "numbers": '[0, -0, 1E2, 1e-7, 9007199254740993, 18446744073709551616, 1e308, 1e400, -1e400, 5e-324, 0.1]',
        "literals": '[true, false, null, "t", {"a": nul',
        "unfinished": '{"path": "notes/a.txt", "recursive": tr',
        "ws": ' \t\r\n{ "a" :\t[ 1 ,\n2 ] }\r\n ',
        "controls": '{"a": "\u0001\u001f", "\u000b": 1}\u000c',
    }
    for name, text in samples.items():
        n = len(text.encode())
        partial_json_seed(name, text, sorted(rng.randrange(n + 1) for _ in range(4)), flags=1)
        partial_json_seed(name + "-reset", text, [n // 2], flags=3)
    # Deep: 100 levels (the limit), 101, and thousands.
    for levels in (100, 101, 4000):
        partial_json_seed(f"deep-array-{levels}", "[" * levels + "]" * levels, [levels])
        partial_json_seed(f"deep-object-{levels}", '{"a":' * min(levels, 1600) + "1" + "}" * min(levels, 1600))
    # Wide: about a thousand keys within the length limit; a long array of numbers.
    partial_json_seed("wide-object", "{" + ",".join(f'"k{i}":{i}' for i in range(900)) + "}", [10, 4000])
    partial_json_seed("wide-array", "[" + ",".join(str(i) for i in range(1800)) + "]", [7, 5000])
    # Long runs of one byte.
    partial_json_seed("long-string", '"' + "a" * 8000 + '"', [1, 4000, 7999])
    partial_json_seed("long-number", "1" * 400 + "e-400", [399, 401])
    partial_json_seed("long-spaces", " " * 8000 + "1", [4000])
    partial_json_seed("long-backslashes", '"' + "\\\\" * 3000 + '"', [1001, 1002])


# ----- patch ----------------------------------------------------------------------------------

def patch_seed(name, state, events, content=None):
    """state: a JSON value (or a shaped() call); events: raw JSON texts, each a STATE_DELTA's
    operations (a list) or a whole event (a dict)."""
    enc = Enc()
    if callable(state):
        state(enc)
    else:
        enc.json(state)
    enc.json(content if content is not None else {"query": "ag-ui", "found": 0})
    for e in events:
        if isinstance(e, list):
            enc.byte(8).text(compact(e), 4096).byte(1)
        else:
            enc.byte(8).text(compact(e), 4096).byte(0)
    save("patch", name, enc.bytes())


def patch():
    copy_root = [{"op": "copy", "from": "", "path": "/a"}]
    patch_seed("copy-doubling", {"a": 1}, [copy_root] * 40)
    patch_seed("copy-deepening", {"a": {"b": [1, 2, 3]}},
               [[{"op": "copy", "from": "/a", "path": "/a/b/0"}]] * 20)
    patch_seed("copy-wide", lambda e: e.shaped(2, 5000), [[{"op": "copy", "from": "", "path": f"/c{i}"}] for i in range(30)])
    patch_seed("atomic", {"a": 1, "b": {"x": [1, 2, 3]}, "c": 3, "d": [4]}, [
        [{"op": "remove", "path": "/a"}, {"op": "remove", "path": "/b/x/1"}, {"op": "add", "path": "/e", "value": 5},
         {"op": "replace", "path": "/c", "value": "z"}, {"op": "move", "from": "/d", "path": "/b/d"},
         {"op": "copy", "from": "/b", "path": "/f"}, {"op": "test", "path": "/c", "value": "no"}],
        [{"op": "move", "from": "/a", "path": "/nope/x"}],
        [{"op": "remove", "path": ""}, {"op": "add", "path": "/x", "value": 1}],
        [{"op": "add", "path": "", "value": [1]}, {"op": "remove", "path": "/5"}],
        [{"op": "move", "from": "/b", "path": "/b/x/0"}],
        [{"op": "move", "from": "", "path": ""}],
        [{"op": "test", "path": "/c", "value": 3.0}, {"op": "add", "path": "/n", "value": 1}],
    ])
    patch_seed("proto", {"a": {}}, [
        [{"op": "add", "path": "/__proto__/isAdmin", "value": True}],
        [{"op": "add", "path": "/a/__proto__", "value": {"x": 1}}],
        [{"op": "copy", "from": "/__proto__", "path": "/b"}],
        [{"op": "add", "path": "/~1__proto__~0", "value": 1}],
        {"type": "STATE_SNAPSHOT", "snapshot": {"__proto__": {"isAdmin": True}}},
        [{"op": "replace", "path": "/__proto__", "value": None}],
    ])
    deep = {"a": 1}
    for _ in range(98):
        deep = {"a": deep}
    patch_seed("at-the-limit", lambda e: e.shaped(1, 100, big=False), [
        [{"op": "add", "path": "/a/a/a/b", "value": [[1]]}],
        [{"op": "add", "path": "/x", "value": deep}],
        [{"op": "move", "from": "/a", "path": "/z/y"}],
    ])
    patch_seed("deep-snapshot", lambda e: e.shaped(1, 3000), [[{"op": "add", "path": "/a", "value": 1}]])
    patch_seed("arrays", [1, 2, 3], [
        [{"op": "add", "path": "/-", "value": 4}], [{"op": "add", "path": "/01", "value": 0}],
        [{"op": "add", "path": "/9", "value": 0}], [{"op": "remove", "path": "/-"}],
        [{"op": "replace", "path": "/0", "value": {"k": "v"}}], [{"op": "move", "from": "/0", "path": "/2"}],
    ])
    patch_seed("activity", {"n": 0}, [
        {"type": "ACTIVITY_DELTA", "messageId": "act", "activityType": "plan",
         "patch": [{"op": "copy", "from": "", "path": "/q"}]},
        {"type": "ACTIVITY_DELTA", "messageId": "act", "activityType": "plan",
         "patch": [{"op": "replace", "path": "", "value": 1}]},
        {"type": "ACTIVITY_SNAPSHOT", "messageId": "act2", "activityType": "x", "content": {"a": [1]}, "replace": False},
        {"type": "ACTIVITY_DELTA", "messageId": "txt", "activityType": "plan", "patch": []},
        {"type": "ACTIVITY_DELTA", "messageId": "act2", "activityType": "plan",
         "patch": [{"op": "remove", "path": "/a/0"}, {"op": "test", "path": "/a", "value": [2]}]},
    ])
    patch_seed("bad-ops", {"a": 1}, [
        [{"op": "increment", "path": "/a", "value": 1}, {"op": "replace", "path": "/a", "value": 5}],
        [{"op": "add", "path": "a", "value": 1}], [{"op": "add", "path": "/a~2", "value": 1}],
        [{"op": "add", "value": 1}], [{"op": "copy", "path": "/b"}], [1, "x", None],
        {"type": "STATE_DELTA", "delta": {"op": "add"}},
    ])


# ----- builder scripts (tests/fuzz_harness/script.rs) ------------------------------------------

class Script(Enc):
    """Builder calls, as `script::Script::call` reads them."""

    def preamble(self, response_id=None, session_id=None):
        for value in (response_id, session_id):
            if value is None:
                self.byte(0)
            else:
                self.byte(1).string(value)
        return self

    def message(self, base=5, usage=None, metadata=None, id_choice=2):
        """base: 0 reasoning, 1 role null, 2 user, 5 assistant message. usage, metadata: callables
        writing a value."""
        self.byte(0).byte(base).byte(id_choice)
        for value in (usage, metadata):
            if value is None:
                self.byte(1)
            else:
                self.byte(0)
                value(self)
        return self

    def content(self, message, ct):
        return self.byte(2).byte(message).byte(CONTENT_TYPES.index(ct))

    def delta_text(self, part, s):
        self.byte(4).byte(part).byte(1)
        return self.string(s) if isinstance(s, str) else s(self)

    def delta_data(self, part, value):
        self.byte(4).byte(part).byte(0)
        value(self)
        return self

    def set_value(self, part, value):
        self.byte(6).byte(part).byte(0)
        value(self)
        return self

    def complete_content(self, part):
        return self.byte(7).byte(part)

    def complete_message(self, message):
        return self.byte(8).byte(message)

    def tool_call(self, name, arguments=None, kind=0, call_id=0):
        self.byte(10).byte(kind).byte(call_id).string(name)
        if arguments is None:
            self.byte(0)
        else:
            self.byte(1)
            arguments(self)
        if kind == 2:
            self.byte(0)
        return self.byte(1)

    def tool_arguments(self, call, pieces):
        """pieces: indices into ARG_PIECES (1 to 4), or a string."""
        self.byte(12).byte(call)
        if isinstance(pieces, str):
            return self.byte(0).string(pieces)
        self.byte(2).byte(len(pieces) - 1)
        for p in pieces:
            self.byte(p)
        return self

    def complete_tool_call(self, call):
        return self.byte(14).byte(call)

    def tool_output(self, value, kind=0, call_id=0):
        self.byte(15).byte(kind).byte(call_id).byte(1)
        value(self)
        return self.byte(0)

    def set_usage(self, message, value):
        self.byte(16).byte(message)
        value(self)
        return self

    def completed(self, close_open=True, usage=None):
        self.byte(18).byte(0).byte(0).byte(1 if close_open else 0)
        if usage is None:
            return self.byte(0)
        self.byte(1)
        usage(self)
        return self

    def failed(self, code, message):
        return self.byte(18).byte(0).byte(1).string(code).string(message)

    def canceled(self):
        return self.byte(18).byte(0).byte(2)


def js(value):
    return lambda e: e.json(value)


def shape(kind, n, big=True):
    return lambda e: e.shaped(kind, n, big)


def shape_obj(kind, n, big=True):
    """A shape where `Gen::object` reads it: an array is wrapped in an object under a key,
    read after it (key "a": a byte choosing the pool, then its index)."""
    if kind in (0, 3):
        return lambda e: e.shaped(kind, n, big).byte(1).byte(0)
    return shape(kind, n, big)


def scripts():
    """(name, Script) pairs: the runs every builder-driven target starts from."""
    out = []
    s = Script().preamble("resp_1", "s1")
    s.message().content(0, "text").delta_text(0, "Hel").delta_text(0, "lo").delta_text(0, lambda e: e.run("x", 5000))
    s.content(0, "data").delta_data(1, js({"a": [1, {"b": "x"}], "n": 1})).delta_data(1, js({"a": [2], "n": 2.5}))
    s.complete_content(1).complete_content(0).complete_message(0).completed(usage=js({"input_tokens": I64_MAX}))
    out.append(("text-and-data", s))

    s = Script().preamble()
    s.message().content(0, "data").delta_data(0, shape_obj(1, 3000)).delta_data(0, shape_obj(0, 2999))
    s.delta_data(0, shape_obj(1, 99, big=False)).set_value(0, shape_obj(2, 20000)).set_value(0, shape_obj(3, 20000))
    s.completed()
    out.append(("deep-and-wide-data", s))

    s = Script().preamble("r", "s")
    s.message(usage=shape(1, 150, big=False), metadata=js({"__proto__": {"isAdmin": True}}))
    s.message(usage=js({"input_tokens": 1, "__proto__": None}), metadata=shape(2, 20000))
    s.set_usage(1, shape(1, 2000)).set_usage(1, js({"constructor": {"prototype": {"x": 1}}}))
    s.content(1, "data").delta_data(0, js({"__proto__": {"polluted": 1}, "toString": "x"}))
    s.completed(usage=shape(1, 3000))
    s.completed(usage=js({"total_tokens": 9223372036854775807, "x": 1e308, "y": -0.0}))
    out.append(("proto-usage-metadata", s))

    s = Script().preamble()
    s.tool_call("get_weather").tool_arguments(0, [21, 5, 7, 22]).tool_arguments(0, "\\ud800").tool_arguments(0, [23])
    s.complete_tool_call(0).tool_output(js({"temp": 21, "deep": [[[[1]]]]}))
    s.tool_call("deep", arguments=lambda e: e.byte(1).shaped(0, 3000), kind=1, call_id=1).complete_tool_call(1)
    s.tool_call("broken", kind=2, call_id=2).tool_arguments(2, [0, 1, 4]).complete_tool_call(2)
    s.tool_output(shape(2, 20000), kind=2, call_id=2).completed()
    out.append(("tool-calls", s))

    s = Script().preamble()
    s.message().content(0, "text").delta_text(0, "open").message(base=0).content(1, "text")
    s.delta_text(1, lambda e: e.run("\\", 3000)).failed("E", "\n\ndata: {}")
    s.message().canceled()
    out.append(("failed-with-open-messages", s))

    s = Script().preamble()
    for ct in CONTENT_TYPES:
        s.message().content(0, ct)
    for i in range(len(CONTENT_TYPES)):
        s.set_value(i, js({"text": "t", "refusal": "r", "image_url": "u", "data": "d", "format": "wav",
                           "file_url": "f", "video_url": "v"}))
        s.set_value(i, js({"__proto__": "x"}))
        s.complete_content(i)
    s.completed(close_open=False)
    out.append(("every-content-type", s))
    return out


def builder():
    for name, s in scripts():
        for flags in (0, 1, 2, 3):  # SSE / NDJSON, nulls kept / omitted
            save("builder", f"{name}-{flags}", bytes([flags]) + s.bytes())


# ----- render and translate -----------------------------------------------------------------

PROTOCOLS = {"auto": 0, "agent-api": 1, "ag-ui": 2, "openai-responses": 3, "a2a": 4}


def hostile_agent_api():
    """Agent API streams with the issue's shapes."""
    def event(seq, obj, **kw):
        return dict(sequence_number=seq, object=obj, **kw)
    deep_args = "[" * 3000 + "]" * 3000
    deep_data = {"a": 1}
    for _ in range(120):
        deep_data = {"a": deep_data}
    start = [event(0, "response", status="created", id="r1"),
             event(1, "message", status="in_progress", id="m1", type="message", role="assistant")]
    yield "seq-near-max", sse(start + [
        event(I64_MAX - 1, "content", status="in_progress", type="text", index=0, delta=True, msg_id="m1", text="late"),
        event(2, "content", status="in_progress", type="text", index=0, delta=True, msg_id="m1", text="on time"),
        event(I64_MAX, "response", status="completed", id="r1"),
        event(3, "content", status="in_progress", type="text", index=0, delta=True, msg_id="m1", text="<INJECTED>"),
    ])
    yield "deep-arguments", sse(start[:1] + [
        event(1, "message", status="in_progress", id="c1", type="function_call", role="assistant"),
        event(2, "content", status="in_progress", type="data", index=0, delta=True, msg_id="c1",
              data={"call_id": "k", "name": "f", "arguments": deep_args[:2900]}),
        event(3, "content", status="completed", type="data", index=0, delta=False, msg_id="c1",
              data={"call_id": "k", "name": "f", "arguments": '{"path": "notes/a.txt", "recursive": tr'}),
        event(4, "response", status="completed", id="r1"),
    ])
    yield "deep-data-and-proto", sse(start + [
        event(2, "content", status="in_progress", type="data", index=0, delta=True, msg_id="m1", data=deep_data),
        event(3, "content", status="in_progress", type="data", index=1, delta=True, msg_id="m1",
              data={"__proto__": {"isAdmin": True}}),
        event(4, "content", status="in_progress", type="data", index=2, delta=False, msg_id="m1",
              data={"__proto__": None}),
        '{"sequence_number":5,"object":"content","status":"in_progress","type":"text","index":3,"delta":true,'
        '"msg_id":"m1","text":"\\ud800 lone \\udc00"}',
        event(6, "content", status="in_progress", type="data", index=4, delta=True, msg_id="m1",
              data={f"k{i}": i for i in range(500)}),
    ])
    yield "long-text-run", sse(start + [
        event(2, "content", status="in_progress", type="text", index=0, delta=True, msg_id="m1", text="a" * 7000),
    ])


def render():
    # Raw streams of every protocol, forced and detected, tolerant and strict.
    for protocol, flag in PROTOCOLS.items():
        source = protocol if protocol != "auto" else "agent-api"
        material = streams(source)
        if protocol == "agent-api":
            material += list(hostile_agent_api())
        if protocol == "ag-ui":
            for path in sorted(glob.glob(os.path.join(conformance_dir("ag-ui"), "streams", "*.json")))[:40]:
                material.append((os.path.basename(path)[:-5], sse(json.load(open(path))["stream"])))
        for name, body in material:
            cuts = sorted(rng.randrange(len(body) + 1) for _ in range(3))
            for strict in (0, 0x80):
                head = bytes([flag | strict, 0, len(cuts)]) + b"".join(struct.pack("<H", c & 0xFFFF) for c in cuts)
                save("render", f"{protocol}-{name}-{strict}", head + body)
    # Builder runs in every protocol (source 1: format flag for the Agent API, finish flag).
    for name, s in scripts():
        for protocol, flag in PROTOCOLS.items():
            extra = b"\x00" if protocol in ("agent-api", "auto") else b""
            save("render", f"built-{protocol}-{name}", bytes([flag, 1, 2, 40, 0, 200, 0]) + extra + b"\x01" + s.bytes())
    # Generated AG-UI events (source 2), then structural mutations.
    save("render", "agui-generated", bytes([2, 2, 0]) + bytes(rng.randrange(256) for _ in range(600)))


TRANSLATE = {"agent-api": 0, "openai-responses": 1, "a2a": 2, "ag-ui": 3}


def translate():
    for source in ("agent-api", "openai-responses", "a2a"):
        material = streams(source)
        if source == "agent-api":
            material += list(hostile_agent_api())
        for target in TRANSLATE:
            pair = TRANSLATE[source] | TRANSLATE[target] << 2
            for name, body in material:
                cuts = sorted(rng.randrange(len(body) + 1) for _ in range(3))
                head = bytes([pair, 0, len(cuts)]) + b"".join(struct.pack("<H", c & 0xFFFF) for c in cuts)
                save("translate", f"{source}-{target}-{name}", head + body)
            for name, s in scripts():
                save("translate", f"own-{source}-{target}-{name}", bytes([pair, 1, 1, 90, 0, 1]) + s.bytes())
    save("translate", "from-ag-ui", bytes([3 | 0 << 2, 0, 0]) + sse([{"type": "RUN_STARTED"}]))


def push():
    """The push target: two cut points, then the stream."""
    def write(name, body):
        body = body[:3500]
        cuts = [rng.randrange(len(body) + 1) for _ in range(2)]
        header = bytes([0, 2]) + b"".join(bytes([c & 255, c >> 8]) for c in cuts)
        save("push", name, header + body)

    for path in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/reference/sse/*.sse"))):
        write("ref-" + os.path.basename(path), read(path))
    for path in sorted(glob.glob(os.path.join(conformance_dir("ag-ui"), "streams", "*.json"))):
        write("agui-" + os.path.basename(path)[:-5], sse(json.load(open(path))["stream"]))
    deltas = "".join(
        'data: {"sequence_number":%d,"object":"content","status":"in_progress","error":null,"type":"text",'
        '"index":0,"delta":true,"msg_id":"msg_1","text":"%s"}\n\n' % (i, t)
        for i, t in enumerate(["Hel", "lo \\\"w\\u00e9\\ud83d\\ude00", "中文 👩‍💻", "\\\\n"]))
    write("deltas", deltas.encode())
    # Numbers in every form the two builds must read alike (src/protocol/number.rs): data deltas
    # that add up, Python's spellings, 17-digit doubles, integers past 2^53 and 2^64, -0, 1E2,
    # overflow, numbers in streamed and object tool arguments, an index written as a float.
    numbers = [
        '{"sequence_number":0,"object":"response","status":"created","id":"r1"}',
        '{"sequence_number":1,"object":"message","status":"in_progress","id":"m1","type":"message","role":"assistant"}',
        '{"sequence_number":2,"object":"content","status":"in_progress","type":"data","index":0,"delta":true,"msg_id":"m1","data":{"s":0.1,"n":1e15,"x":1.0,"b":9007199254740993}}',
        '{"sequence_number":3,"object":"content","status":"in_progress","type":"data","index":0,"delta":true,"msg_id":"m1","data":{"s":0.2,"n":9e15,"x":2,"d":[0.12345678901234568,-0,1E2,5e-324,123456789012345678901234]}}',
        '{"sequence_number":4,"object":"content","status":"completed","type":"data","index":1.0,"delta":false,"msg_id":"m1","data":{"s":0.30000000000000004,"n":1e+16,"o":1e400}}',
        '{"sequence_number":5,"object":"message","status":"in_progress","id":"c1","type":"function_call","role":"assistant"}',
        '{"sequence_number":6,"object":"content","status":"in_progress","type":"data","index":0,"delta":true,"msg_id":"c1","data":{"call_id":"k","arguments":"{\\"lat\\": 30.27"}}',
        '{"sequence_number":7,"object":"content","status":"completed","type":"data","index":0,"delta":false,"msg_id":"c1","data":{"call_id":"k","arguments":{"v":-1.5e-7,"$serde_json::private::Number":"7"}}}',
        '1.5',
        '{"sequence_number":8,"object":"response","status":"completed","id":"r1","usage":{"input_tokens":1.0}}',
    ]
    write("numbers", sse(numbers))
    for name, body in hostile_agent_api():
        write("hostile-" + name, body)


TARGETS = {"push": push, "partial_json": partial_json, "patch": patch, "render": render,
           "builder": builder, "translate": translate}

if __name__ == "__main__":
    for target in sys.argv[1:] or TARGETS:
        TARGETS[target]()
        print(f"{target}: {len(os.listdir(os.path.join(CORPUS, target)))} files in corpus/{target}/")
