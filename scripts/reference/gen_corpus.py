"""Drive the REAL reference (agentscope-runtime 1.1.6.post2) to produce agentwire's
differential-test corpus.

Usage: .venv/bin/python scripts/reference/gen_corpus.py OUT_DIR

Writes, under OUT_DIR:
  events/<scenario>.jsonl               one `model_dump_json()` payload per line (what /process
                                        sends after `data: `), or the HTTP layer's bare
                                        `json.dumps({"error": ...})` object
  events/<scenario>.exclude_none.jsonl  line-aligned `model_dump_json(exclude_none=True)` of the
                                        same event (the bare error line repeated as is)
  sse/<scenario>.sse                    raw `/process` response bodies (FastAPI TestClient)
  requests.jsonl                        {"name", "body", "ok", "dump", "dump_exclude_none"} or
                                        {"name", "body", "ok": false, "loc", "msg", "type"}
  merge.jsonl                           {"name", "base", "delta", "builder", "lossy"} with the
                                        results as pydantic JSON text ("lossy" null when the
                                        reference raises)
  message_helpers.jsonl                 {"name", "message", "ops": [{op, arg, result, message}]}

Everything here is reference output: the script only feeds inputs.
"""

import asyncio
import json
import os
import sys
import warnings
from copy import deepcopy

warnings.filterwarnings("ignore")
os.environ.setdefault("AGENTSCOPE_RUNTIME_LOG_LEVEL", "ERROR")

import logging

logging.disable(logging.CRITICAL)

import pydantic_core
from pydantic import ValidationError

from agentscope_runtime.engine import Runner
from agentscope_runtime.engine.helpers.agent_api_builder import ResponseBuilder
from agentscope_runtime.engine.schemas.agent_schemas import (
    AgentRequest,
    AgentResponse,
    AudioContent,
    Content,
    DataContent,
    Error,
    FileContent,
    FunctionCall,
    ImageContent,
    Message,
    MessageType,
    RefusalContent,
    TextContent,
    VideoContent,
)

OUT = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/reference"
os.makedirs(os.path.join(OUT, "events"), exist_ok=True)
os.makedirs(os.path.join(OUT, "sse"), exist_ok=True)

CONTENT_CLASSES = {
    "text": TextContent,
    "image": ImageContent,
    "data": DataContent,
    "audio": AudioContent,
    "file": FileContent,
    "refusal": RefusalContent,
    "video": VideoContent,
}

STATS = {"events": 0, "requests": 0, "merge": 0, "helpers": 0, "sse": 0}


def model_for(obj):
    """The reference model class for a payload dict (as its own client dispatches)."""
    kind = obj.get("object")
    if kind == "response":
        return AgentResponse
    if kind == "message":
        return Message
    if kind == "content":
        return CONTENT_CLASSES.get(obj.get("type"), Content)
    return None


def exclude_none_of(line):
    obj = json.loads(line)
    if "object" not in obj:
        return line  # bare HTTP error object: no pydantic model
    cls = model_for(obj)
    if cls is None:
        return line
    model = cls.model_validate_json(line)
    again = model.model_dump_json()
    if again != line:
        raise SystemExit(f"reference round trip is not stable:\n{line}\n{again}")
    return model.model_dump_json(exclude_none=True)


class Scenario:
    def __init__(self, name):
        self.name = name
        self.lines = []

    def add(self, event):
        """Serialise NOW: the reference yields the same mutable objects more than once."""
        self.lines.append(event.model_dump_json())

    def add_raw(self, payload):
        self.lines.append(payload)

    def write(self):
        base = os.path.join(OUT, "events", self.name)
        with open(base + ".jsonl", "w", encoding="utf-8") as f:
            for line in self.lines:
                f.write(line + "\n")
        with open(base + ".exclude_none.jsonl", "w", encoding="utf-8") as f:
            for line in self.lines:
                f.write(exclude_none_of(line) + "\n")
        STATS["events"] += len(self.lines)


# ---------------------------------------------------------------- builder scenarios


def builder_scenarios():
    # generate_streaming_response, ASCII and non-ASCII tokens.
    for name, tokens in [
        ("builder_streaming_ascii", ["Hel", "lo"]),
        (
            "builder_streaming_unicode",
            ["日本語", "の", "テキスト ", "😀🎉", " e\u0301 ", "中文，标点。", "\u2028\u00a0\ufeff", "\"q\" \\ /\n\t"],
        ),
        ("builder_streaming_empty_tokens", ["", None, "x", ""]),
    ]:
        s = Scenario(name)
        rb = ResponseBuilder(session_id="s1", response_id="ignored")
        for ev in rb.generate_streaming_response(tokens):
            s.add(ev)
        s.write()

    # Several content parts of every builder-supported type, plus file/audio via direct mutation.
    s = Scenario("builder_multi_part")
    rb = ResponseBuilder(session_id="sess-multi", response_id="resp-multi")
    s.add(rb.created())
    s.add(rb.in_progress())
    mb = rb.create_message_builder(role="assistant")
    s.add(mb.get_message_data())
    cb = mb.create_content_builder("text")
    cb.set_text("A")
    s.add(cb.get_content_data())
    for t in ["B", "C", "ü"]:
        s.add(cb.add_delta(t))
    s.add(cb.complete())
    ib = mb.create_content_builder("image")
    s.add(ib.set_image_url("https://example.com/a.png"))
    s.add(ib.complete())
    ib2 = mb.create_content_builder("image")
    s.add(ib2.set_image_url("data:image/png;base64,iVBORw0KGgo="))
    s.add(ib2.complete())
    rf = mb.create_content_builder("refusal")
    s.add(rf.set_refusal("I can't help with that."))
    s.add(rf.complete())
    fb = mb.create_content_builder("file")
    fb.content.file_url = "https://example.com/f.pdf"
    fb.content.filename = "f.pdf"
    fb.content.file_id = "file-1"
    fb.content.in_progress()
    s.add(fb.get_content_data())
    s.add(fb.complete())
    ab = mb.create_content_builder("audio")
    ab.content.data = "https://example.com/a.wav"
    ab.content.format = "wav"
    ab.content.in_progress()
    s.add(ab.get_content_data())
    s.add(ab.complete())
    s.add(mb.complete())
    # A second message: data deltas (tool call) with the builder's deep merge.
    mb2 = rb.create_message_builder(role="assistant", message_type=MessageType.FUNCTION_CALL)
    s.add(mb2.get_message_data())
    db = mb2.create_content_builder("data")
    s.add(db.set_data({"call_id": "c1", "name": "f", "arguments": ""}))
    for d in [
        {"arguments": '{"a":'},
        {"arguments": "1}", "n": 2, "meta": {"x": [1]}},
        {"n": 3, "meta": {"x": [2], "y": True}},
        {"f": 0.5, "big": 1e16, "small": 1e-05, "tiny": 1.5e-7, "neg": -0.0, "uni": "é😀"},
        {"f": 0.25, "deep": {"a": {"b": [None, True, False]}}},
    ]:
        s.add(db.add_data_delta(d))
    s.add(db.update_data("extra_key", {"z": 1}))
    s.add(db.complete())
    s.add(mb2.complete())
    s.add(rb.completed())
    s.write()

    # Status methods on every event kind; failed with an error.
    s = Scenario("status_methods")
    r = AgentResponse(id="r1", created_at=1700000000, session_id="s")
    for fn in ["created", "in_progress", "rejected", "canceled"]:
        getattr(r, fn)()
        s.add(r)
    r.failed(Error(code="AGENT_ERROR", message="boom: 失败"))
    s.add(r)
    m = Message(id="m1", role="user")
    for fn in ["created", "in_progress", "completed", "rejected", "canceled"]:
        getattr(m, fn)()
        s.add(m)
    m.failed(Error(code="E", message="x"))
    s.add(m)
    c = TextContent(text="t", index=0, msg_id="m1")
    for fn in ["created", "in_progress", "completed", "rejected", "canceled"]:
        getattr(c, fn)()
        s.add(c)
    c.failed(Error(code="E", message="y"))
    s.add(c)
    r2 = AgentResponse(id="r2", created_at=1700000000)
    r2.completed()
    s.add(r2)
    r3 = AgentResponse(id="r3", created_at=1700000000, output=None)
    r3.add_new_message(Message(id="m9", type="custom_type_xyz", role="tool", status="queued"))
    r3.usage = {"prompt_tokens": 3, "completion_tokens": 5, "total_tokens": 8}
    s.add(r3)
    s.write()


# ---------------------------------------------------------------- extra keys / odd values


def extra_and_values_scenario():
    s = Scenario("extra_keys_and_values")
    lines = [
        '{"sequence_number":7,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"m","text":"x","zzz":1,"aaa":{"b":null},"image_url":"not-a-field-here"}',
        '{"object":"content","type":"data","data":{"a":1e16,"b":1e-05,"c":1.0,"d":-0.0,"e":12345678901234567890,"g":1.5e300,"h":0.1,"i":123456789.123,"j":-1e-7,"k":1E5,"l":2.50,"m":[1,2.0,"3"],"n":null,"o":true}}',
        '{"object":"content","type":"video","video_url":"https://v/x.mp4","extra_list":[1,{"k":"v"}]}',
        '{"object":"content","type":"file","file_data":"QUJD","filename":"名前.txt"}',
        '{"object":"content","type":"audio","data":"UklGRg==","format":"wav"}',
        '{"object":"content","type":"refusal","refusal":"no","delta":null}',
        '{"object":"content","type":"input_audio","input_audio":{"data":"x","format":"mp3"},"index":2}',
        '{"object":"message","id":"m","type":"reasoning","role":"assistant","content":[{"type":"text","text":"think","zz":1,"object":"x"}],"ext":{"b":1},"aa":null,"metadata":{"original_id":"o"}}',
        '{"object":"message","id":"m2","type":"some_future_type","status":"some_future_status","role":"system","usage":{"input_tokens":1},"content":[]}',
        '{"object":"response","id":"r","created_at":5,"xx":1,"status":"incomplete","output":[{"id":"m","content":[{"type":"image","image_url":"u","w":3}]}],"usage":{}}',
        '{"sequence_number":3,"object":"response","status":"failed","error":{"code":"AGENT_UNKNOWN_ERROR","message":"Unknown agent error: RuntimeError: \\u00e9"},"id":"req-1","created_at":1795331121,"completed_at":null,"output":null,"usage":null,"session_id":"s1"}',
        '{"object":"content","type":"text","text":"\\u0001\\b\\f\\t\\n\\r\\u001f\\u007f\\u0080\\ud83d\\ude00\\u2028"}',
        '{"object":"content","type":"data","data":{"x":1,"x":2,"y":[]}}',
        '{"object":"content","type":"text","text":"a","zz":1,"text":"b","zz":2,"type":"text"}',
        '{"object":"message","id":"m","id":"m2","content":[{"type":"data","data":{"k":"v"},"q":1}],"q":[],"q":{}}',
    ]
    # Seeded random floats over the whole range: correctly rounded parsing and pydantic's float
    # printing, through Python's repr-style input ("1e-05").
    import random
    import struct

    rnd = random.Random(0xC0FFEE)
    for _ in range(8):
        floats = {}
        for i in range(64):
            bits = rnd.getrandbits(64)
            f = struct.unpack("<d", struct.pack("<Q", bits))[0]
            if f != f or f in (float("inf"), float("-inf")):
                f = rnd.uniform(-1e6, 1e6)
            if i % 4 == 0:
                f = rnd.uniform(-10, 10) * 10 ** rnd.randint(-30, 30)
            floats[f"f{i}"] = f
        lines.append(json.dumps({"object": "content", "type": "data", "data": floats}))
    for line in lines:
        obj = json.loads(line)
        cls = model_for(obj)
        s.add(cls.model_validate_json(line))
    s.write()


def known_gaps_scenario():
    """Reference output agentwire cannot reproduce byte for byte (documented): integers beyond
    64 bits inside dict payloads (Python keeps them exact; agentwire reads them as floats)."""
    s = Scenario("known_gaps")
    for line in [
        '{"object":"content","type":"data","data":{"big":100000000000000000000000000000,"neg":-100000000000000000000}}',
        '{"object":"response","id":"r","created_at":1,"usage":{"total_tokens":18446744073709551616}}',
    ]:
        obj = json.loads(line)
        s.add(model_for(obj).model_validate_json(line))
    s.write()


# ---------------------------------------------------------------- runner / HTTP


class TextRunner(Runner):
    def __init__(self, tokens, fail_after=None):
        super().__init__()
        self.framework_type = "text"
        self.tokens = tokens
        self.fail_after = fail_after

    async def query_handler(self, request=None, **kwargs):
        for i, t in enumerate(self.tokens):
            if self.fail_after is not None and i == self.fail_after:
                raise RuntimeError("Error: 错误")
            yield t
        if self.fail_after is not None and self.fail_after >= len(self.tokens):
            raise ValueError("late failure")


def agentscope_chunks():
    """Synthetic cumulative agentscope Msg streams: reasoning, text, tool use, tool result."""
    from agentscope.message import Msg

    chunks = []
    m1 = "msg-as-1"
    think = ""
    for part in ["Let me ", "think."]:
        think += part
        chunks.append((Msg("Friday", [{"type": "thinking", "thinking": think}], "assistant", metadata=None) , False, m1))
    text = ""
    for part in ["Let", " me", " check."]:
        text += part
        chunks.append((Msg("Friday", [{"type": "thinking", "thinking": think}, {"type": "text", "text": text}], "assistant"), False, m1))
    tool = {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {}}
    base = [{"type": "thinking", "thinking": think}, {"type": "text", "text": text}]
    chunks.append((Msg("Friday", base + [dict(tool)], "assistant"), False, m1))
    tool2 = dict(tool, input={"city": "Hangzhou", "日期": "今天"})
    chunks.append((Msg("Friday", base + [tool2], "assistant"), True, m1))
    res = {"type": "tool_result", "id": "call_1", "name": "get_weather", "output": [{"type": "text", "text": "Sunny, 25°C"}]}
    chunks.append((Msg("system", [res], "system"), True, "msg-as-2"))
    text = ""
    for part in ["It is", " sunny ☀️."]:
        text += part
        chunks.append((Msg("Friday", [{"type": "text", "text": text}], "assistant"), part.endswith("."), "msg-as-3"))
    # A plain-string Msg and an image block.
    chunks.append((Msg("Friday", "Plain string reply.", "assistant"), True, "msg-as-4"))
    chunks.append((Msg("Friday", [{"type": "image", "source": {"type": "url", "url": "https://example.com/i.png"}}], "assistant"), True, "msg-as-5"))
    return chunks


class AgentscopeRunner(Runner):
    def __init__(self):
        super().__init__()
        self.framework_type = "agentscope"

    async def query_handler(self, request=None, msgs=None, **kwargs):
        for msg, last, mid in agentscope_chunks():
            msg.id = mid
            yield msg, last


async def run_direct(runner, request, name):
    s = Scenario(name)
    async with runner:
        async for ev in runner.stream_query(request):
            s.add(ev)
    s.write()


def http_scenarios():
    from fastapi.testclient import TestClient
    from agentscope_runtime.engine.app import AgentApp

    def run_http(runner, body, name, raw=False):
        app = AgentApp(runner=runner)
        with TestClient(app) as client:
            if raw:
                resp = client.post("/process", content=body, headers={"content-type": "application/json"})
            else:
                resp = client.post("/process", json=body)
            text = resp.text
        with open(os.path.join(OUT, "sse", name + ".sse"), "w", encoding="utf-8", newline="") as f:
            f.write(text)
        STATS["sse"] += 1
        if resp.status_code != 200 or not resp.headers.get("content-type", "").startswith("text/event-stream"):
            return
        s = Scenario(name)
        for block in text.split("\n\n"):
            if block.startswith("data: "):
                s.add_raw(block[len("data: "):])
        s.write()

    user = [{"role": "user", "type": "message", "content": [{"type": "text", "text": "你好"}]}]
    run_http(TextRunner(["Hi", "! My name is Friday", "."]), {"input": user, "id": "req-1", "session_id": "s1"}, "process_text")
    run_http(TextRunner(["Hi", " there"], fail_after=1), {"input": user, "id": "req-2", "session_id": "s2"}, "process_text_error")
    run_http(TextRunner(["日本", "語 😀", "e\u0301"]), {"input": user, "session_id": "s3", "user_id": "u3"}, "process_text_unicode")
    run_http(AgentscopeRunner(), {"input": user, "id": "req-as", "session_id": "s4"}, "process_agentscope")
    # HTTP-layer errors: the bare {"error": ...} object.
    run_http(TextRunner(["x"]), {"session_id": "s5"}, "process_missing_input")
    run_http(TextRunner(["x"]), {"input": [{"role": "bot"}], "session_id": "s6"}, "process_bad_role")
    run_http(TextRunner(["x"]), {"input": [{"content": "plain"}], "session_id": "s7"}, "process_string_content")


def runner_direct_scenarios():
    user = [{"role": "user", "type": "message", "content": [{"type": "text", "text": "hello"}]}]
    asyncio.run(run_direct(TextRunner(["a", "b"]), {"input": user, "id": "direct-1"}, "runner_text_direct"))
    asyncio.run(run_direct(TextRunner([], fail_after=0), {"input": user}, "runner_fail_immediately"))
    asyncio.run(run_direct(AgentscopeRunner(), {"input": user, "session_id": "sx"}, "runner_agentscope_direct"))


# ---------------------------------------------------------------- message helpers


def dump(x):
    if x is None:
        return None
    return x.model_dump_json()


def content_from(obj):
    return CONTENT_CLASSES[obj["type"]].model_validate(obj)


def helper_sequences():
    out = []

    def run(name, message, ops):
        msg = Message.model_validate(message)
        rec = {"name": name, "message": msg.model_dump_json(), "ops": []}
        for op, arg in ops:
            before = msg.model_dump_json()
            try:
                if op == "add_delta_content":
                    res = dump(msg.add_delta_content(content_from(arg)))
                elif op == "add_content":
                    res = dump(msg.add_content(content_from(arg)))
                elif op == "content_completed":
                    res = dump(msg.content_completed(arg))
                elif op == "get_text_content":
                    res = json.dumps(msg.get_text_content(), ensure_ascii=False)
                elif op == "get_image_content":
                    res = json.dumps(msg.get_image_content(), ensure_ascii=False)
                elif op == "get_audio_content":
                    res = json.dumps(msg.get_audio_content(), ensure_ascii=False)
                else:
                    raise ValueError(op)
                rec["ops"].append({"op": op, "arg": arg, "result": res, "error": None, "message": msg.model_dump_json()})
            except Exception as e:  # the reference raised
                # Restore: we compare only the error, the message is left as it was before.
                msg = Message.model_validate_json(before)
                rec["ops"].append({"op": op, "arg": arg, "result": None, "error": type(e).__name__, "message": before})
        out.append(rec)

    run("text_stream", {"id": "m1", "role": "assistant"}, [
        ("add_delta_content", {"type": "text", "text": "Hel", "delta": True}),
        ("add_delta_content", {"type": "text", "text": "lo", "delta": True, "index": 0}),
        ("add_delta_content", {"type": "text", "text": " 世界😀", "delta": True, "index": 0}),
        ("add_delta_content", {"type": "text", "text": "ignored", "delta": False, "index": 0}),
        ("add_delta_content", {"type": "text", "text": "ignored", "index": 0}),
        ("content_completed", 0),
        ("content_completed", 5),
        ("get_text_content", None),
        ("get_image_content", None),
        ("get_audio_content", None),
    ])
    run("mixed_parts", {"id": "m2", "role": "user", "content": [{"type": "image", "image_url": "a"}]}, [
        ("add_delta_content", {"type": "image", "image_url": "b", "delta": True, "index": 0}),
        ("add_delta_content", {"type": "data", "data": {"a": "x", "l": [1], "n": 1, "d": {"k": "v"}}, "delta": True, "status": "created", "sequence_number": 4}),
        ("add_delta_content", {"type": "data", "data": {"a": "y", "l": [2], "n": 2, "d": {"k": "w"}, "new": "z"}, "delta": True, "index": 1}),
        ("add_delta_content", {"type": "audio", "data": "AAA", "format": "mp3"}),
        ("add_delta_content", {"type": "audio", "data": "BBB", "delta": True, "index": 2}),
        ("add_content", {"type": "text", "text": "whole"}),
        ("add_content", {"type": "text", "text": "has index", "index": 0}),
        ("add_content", {"type": "image", "image_url": None}),
        ("content_completed", 1),
        ("content_completed", 3),
        ("get_text_content", None),
        ("get_image_content", None),
    ])
    run("errors", {"id": "m3", "content": [{"type": "text"}]}, [
        ("add_delta_content", {"type": "text", "text": "x", "delta": True, "index": 0}),
        ("add_delta_content", {"type": "text", "text": "x", "delta": True, "index": 9}),
        ("add_delta_content", {"type": "data", "data": {"a": "b"}, "delta": True}),
        ("add_delta_content", {"type": "text", "text": "x", "delta": True, "index": 1}),
        ("get_text_content", None),
    ])
    run("extras_kept", {"id": "m4", "content": [{"type": "text", "text": "a", "k": 1}], "x": [1]}, [
        ("add_delta_content", {"type": "text", "text": "b", "delta": True, "index": 0, "k2": "v"}),
        ("add_delta_content", {"type": "text", "text": "new", "delta": True, "k3": None}),
        ("content_completed", 0),
        ("content_completed", 1),
    ])
    with open(os.path.join(OUT, "message_helpers.jsonl"), "w", encoding="utf-8") as f:
        for rec in out:
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    STATS["helpers"] = sum(len(r["ops"]) for r in out)


# ---------------------------------------------------------------- merge rules


def merge_cases():
    cases = [
        ("verified_lossy", {"a": "x", "l": [1], "n": 1, "d": {"k": "v"}}, {"a": "y", "l": [2], "n": 2, "d": {"k": "w"}, "new": "z"}),
        ("verified_builder_1", {"call_id": "c1", "name": "f", "arguments": ""}, {"arguments": '{"a":'}),
        ("verified_builder_2", {"call_id": "c1", "name": "f", "arguments": '{"a":'}, {"arguments": "1}", "n": 2, "meta": {"x": [1]}}),
        ("verified_builder_3", {"call_id": "c1", "name": "f", "arguments": '{"a":1}', "n": 2, "meta": {"x": [1]}}, {"n": 3, "meta": {"x": [2], "y": True}}),
        ("bools_replace", {"b": True, "c": False}, {"b": True, "c": 1}),
        ("int_float_mix", {"i": 1, "f": 1.5, "g": 2}, {"i": 2, "f": 1, "g": 0.5}),
        ("float_sums", {"a": 0.1, "b": 1e16, "c": 1e-5}, {"a": 0.2, "b": 1e16, "c": 1e-5}),
        ("float_overflow", {"a": 1.7e308}, {"a": 1.7e308}),
        ("type_mismatch_replaces", {"s": "a", "l": [1], "d": {"k": 1}, "n": 1}, {"s": 1, "l": {"x": 1}, "d": [1], "n": "2"}),
        ("null_values", {"a": None, "b": "x"}, {"a": "y", "b": None, "c": None}),
        ("nested_deep", {"a": {"b": {"c": "x", "l": [1]}}}, {"a": {"b": {"c": "y", "l": [2], "n": 1}, "z": {}}}),
        ("empty_base", {}, {"a": [1, {"b": 2}], "s": "é😀"}),
        ("empty_delta", {"a": 1}, {}),
        ("list_of_dicts", {"l": [{"a": 1}]}, {"l": [{"a": 2}]}),
        ("unicode_concat", {"t": "日本"}, {"t": "語😀e\u0301"}),
        ("key_order", {"z": 1, "a": 2}, {"m": 3, "a": 4, "b": 5}),
        ("negative_numbers", {"n": -5, "f": -0.5}, {"n": 3, "f": 0.5}),
        ("zero_result_float", {"f": 0.5}, {"f": -0.5}),
    ]
    rb = ResponseBuilder()
    mb = rb.create_message_builder()
    cb = mb.create_content_builder("data")
    with open(os.path.join(OUT, "merge.jsonl"), "w", encoding="utf-8") as f:
        for name, base, delta in cases:
            builder = pydantic_core.to_json(cb._merge_data_incrementally(deepcopy(base), deepcopy(delta)), inf_nan_mode="null").decode()
            m = Message(id="m")
            m.add_delta_content(DataContent(data=deepcopy(base)))
            try:
                m.add_delta_content(DataContent(data=deepcopy(delta), delta=True, index=0))
                lossy = pydantic_core.to_json(m.content[0].data, inf_nan_mode="null").decode()
            except Exception:
                lossy = None
            f.write(json.dumps({"name": name, "base": base, "delta": delta, "builder": builder, "lossy": lossy}, ensure_ascii=False) + "\n")
            STATS["merge"] += 1


# ---------------------------------------------------------------- requests


def request_cases():
    U = [{"role": "user", "type": "message", "content": [{"type": "text", "text": "hi"}]}]
    bodies = [
        ("minimal", {"input": []}),
        ("typical", {"input": U, "session_id": "1764056632961"}),
        ("reference_example", {"input": [
            {"role": "user", "type": "message", "content": [{"type": "text", "text": "hello"}]},
            {"type": "message", "role": "assistant", "content": [{"object": "content", "type": "text", "text": "Hello! How can I assist you today?"}]},
            {"role": "user", "type": "message", "content": [{"type": "text", "text": "What is the capital of France?"}]}],
            "session_id": "1764056632961"}),
        ("all_fields", {"input": U, "stream": False, "id": "req-9", "model": "qwen", "top_p": 0.9, "temperature": 0.7,
                        "frequency_penalty": -0.5, "presence_penalty": 1, "max_tokens": 100, "stop": ["\n", "END"],
                        "n": 5, "seed": 42, "session_id": "s", "user_id": "u"}),
        ("missing_input", {"session_id": "s"}),
        ("input_not_list", {"input": "hello"}),
        ("input_null", {"input": None}),
        ("input_item_not_object", {"input": [5]}),
        ("bad_role", {"input": [{"role": "bot", "content": []}]}),
        ("role_null", {"input": [{"role": None}]}),
        ("role_number", {"input": [{"role": 1}]}),
        ("string_content", {"input": [{"role": "user", "content": "hi"}]}),
        ("content_missing_type", {"input": [{"role": "user", "content": [{"type": "text", "text": "a"}, {"text": "b"}]}]}),
        ("content_unknown_type", {"input": [{"content": [{"type": "input_text", "text": "a"}]}]}),
        ("content_type_number", {"input": [{"content": [{"type": 5}]}]}),
        ("content_type_null", {"input": [{"content": [{"type": None}]}]}),
        ("content_item_not_object", {"input": [{"content": ["x"]}]}),
        ("content_text_not_string", {"input": [{"content": [{"type": "text", "text": 5}]}]}),
        ("content_data_not_dict", {"input": [{"content": [{"type": "data", "data": [1]}]}]}),
        ("content_index_string", {"input": [{"content": [{"type": "text", "index": "2", "delta": "yes"}]}]}),
        ("content_index_bad", {"input": [{"content": [{"type": "text", "index": "two"}]}]}),
        ("content_delta_bad", {"input": [{"content": [{"type": "text", "delta": "maybe"}]}]}),
        ("content_error_object", {"input": [{"content": [{"type": "text", "error": {"code": "c", "message": "m", "x": 1}}]}]}),
        ("content_error_missing_message", {"input": [{"content": [{"type": "text", "error": {"code": "c"}}]}]}),
        ("message_status_null", {"input": [{"status": None}]}),
        ("message_id_null", {"input": [{"id": None}]}),
        ("message_type_null", {"input": [{"type": None}]}),
        ("message_custom_type", {"input": [{"id": "m", "type": "my_type", "status": "weird"}]}),
        ("message_usage_not_dict", {"input": [{"id": "m", "usage": [1]}]}),
        ("message_sequence_float", {"input": [{"id": "m", "sequence_number": 3.0}]}),
        ("message_sequence_fraction", {"input": [{"id": "m", "sequence_number": 3.5}]}),
        ("second_message_error", {"input": [{"id": "a"}, {"id": "b", "role": "robot"}]}),
        ("all_content_types", {"input": [{"id": "m", "role": "user", "content": [
            {"type": "text", "text": "t"}, {"type": "image", "image_url": "data:image/png;base64,AAA="},
            {"type": "data", "data": {"k": [1, 2.5, None]}}, {"type": "audio", "data": "AAA", "format": "wav"},
            {"type": "file", "file_url": "u", "file_id": "i", "filename": "n", "file_data": "d"},
            {"type": "refusal", "refusal": "r"}, {"type": "video", "video_url": "v"}]}]}),
        ("function_call_history", {"input": [
            {"id": "m1", "type": "function_call", "content": [{"type": "data", "data": {"call_id": "call_eb113ba709d54ab6a4dcbf", "name": "get_current_weather", "arguments": "{\"location\": \"杭州\"}"}}]},
            {"id": "m2", "type": "function_call_output", "content": [{"type": "data", "data": {"call_id": "call_eb113ba709d54ab6a4dcbf", "output": "{\"temperature\": 25, \"unit\": \"Celsius\"}"}}]}]}),
        ("n_zero", {"input": [], "n": 0}),
        ("n_six", {"input": [], "n": 6}),
        ("n_null", {"input": [], "n": None}),
        ("n_string", {"input": [], "n": "2"}),
        ("n_float", {"input": [], "n": 2.0}),
        ("n_bool", {"input": [], "n": True}),
        ("stream_string_yes", {"input": [], "stream": "yes"}),
        ("stream_zero", {"input": [], "stream": 0}),
        ("stream_two", {"input": [], "stream": 2}),
        ("stream_null", {"input": [], "stream": None}),
        ("stream_bad_string", {"input": [], "stream": "maybe"}),
        ("stop_string", {"input": [], "stop": "END"}),
        ("stop_list", {"input": [], "stop": ["a", "b"]}),
        ("stop_number", {"input": [], "stop": 5}),
        ("stop_list_with_number", {"input": [], "stop": ["a", 1]}),
        ("stop_empty_list", {"input": [], "stop": []}),
        ("model_number", {"input": [], "model": 5}),
        ("id_number", {"input": [], "id": 5}),
        ("session_number", {"input": [], "session_id": 5}),
        ("floats_various", {"input": [], "top_p": 1, "temperature": "0.5", "frequency_penalty": True, "presence_penalty": 1e-05}),
        ("float_big_exponent", {"input": [], "temperature": 1e16, "top_p": 1.5e-7}),
        ("float_string_inf", {"input": [], "temperature": "inf"}),
        ("float_bad_string", {"input": [], "temperature": "hot"}),
        ("float_list", {"input": [], "temperature": [1]}),
        ("max_tokens_string", {"input": [], "max_tokens": " 7 "}),
        ("max_tokens_fraction", {"input": [], "max_tokens": 7.5}),
        ("seed_negative", {"input": [], "seed": -3}),
        ("tools_model", {"input": [], "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}),
        ("tools_model_extra_dropped", {"input": [], "tools": [{"type": "function", "x": 1, "function": {"name": "f", "description": "d", "y": 2, "parameters": {"type": "object", "properties": {}, "required": None, "z": 3}}}]}),
        ("tools_params_dict_fallback", {"input": [], "tools": [{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}}]}),
        ("tools_dict_fallback", {"input": [], "tools": [{"type": "function", "function": {"name": "f"}}]}),
        ("tools_any_dict_becomes_tool", {"input": [], "tools": [{"foo": 1}]}),
        ("tools_nulls", {"input": [], "tools": [{"type": None, "function": None, "z": 1}]}),
        ("tools_openai_flat", {"input": [], "tools": [{"type": "function", "name": "f", "parameters": {}}]}),
        ("tools_not_object", {"input": [], "tools": [5]}),
        ("tools_not_list", {"input": [], "tools": {"type": "function"}}),
        ("extra_top_level", {"zz": 2, "input": [], "state": {"a": 1}, "forwarded_props": {"user_id": "u"}, "nothing": None}),
        ("extra_message_and_content", {"input": [{"id": "m", "ext": {"b": 1}, "aa": None, "content": [{"type": "text", "text": "a", "zz": 1, "object": "x"}]}]}),
        ("unicode", {"input": [{"id": "m", "role": "user", "content": [{"type": "text", "text": "日本語 😀 e\u0301 \u2028 \"\\ \x01"}]}], "session_id": "会话"}),
        ("floats_in_data", {"input": [{"id": "m", "content": [{"type": "data", "data": {"a": 1e16, "b": 1e-05, "c": 1.0, "d": 0.1, "e": -1.5e-7, "f": 100}}]}]}),
        ("message_without_id", {"input": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]}),
        ("not_an_object", []),
        ("null_body", None),
        ("error_order_declared_fields_first", {"n": 0, "input": "x"}),
        ("error_first_of_many", {"input": [{"role": "bot", "content": "x", "status": 5}]}),
    ]
    raw_bodies = [
        ("raw_duplicate_keys", '{"input": [], "n": 2, "n": 3}'),
        ("raw_float_formats", '{"input": [], "temperature": 1E2, "top_p": 0.50, "frequency_penalty": -0.0, "presence_penalty": 2.5e-3}'),
        ("raw_unicode_escapes", '{"input": [{"id": "m", "content": [{"type": "text", "text": "\\u00e9\\ud83d\\ude00\\n"}]}]}'),
    ]
    with open(os.path.join(OUT, "requests.jsonl"), "w", encoding="utf-8") as f:
        for name, body in bodies + raw_bodies:
            text = body if isinstance(body, str) and name.startswith("raw_") else json.dumps(body, ensure_ascii=False)
            rec = {"name": name, "body": text}
            try:
                req = AgentRequest.model_validate(json.loads(text))
                rec.update(ok=True, dump=req.model_dump_json(), dump_exclude_none=req.model_dump_json(exclude_none=True))
            except ValidationError as e:
                err = e.errors()[0]
                rec.update(ok=False, loc=".".join(str(x) for x in err["loc"]), msg=err["msg"], type=err["type"])
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
            STATS["requests"] += 1


if __name__ == "__main__":
    builder_scenarios()
    extra_and_values_scenario()
    known_gaps_scenario()
    runner_direct_scenarios()
    http_scenarios()
    helper_sequences()
    merge_cases()
    request_cases()
    print(json.dumps(STATS))
