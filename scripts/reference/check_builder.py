"""Check agentwire's ResponseBuilder output against the REAL reference
(agentscope-runtime 1.1.6.post2).

Usage: .venv/bin/python scripts/reference/check_builder.py DIR

DIR holds what `cargo run --example builder_scenarios -- DIR` wrote: per scenario
`<name>.json` (`{name, format, omit_nulls, parity, session_id, ops}`) and `<name>.sse` or
`<name>.ndjson` (our bytes).

For every scenario:
  1. framing: the bytes split into SSE `data: <json>\\n\\n` frames (or NDJSON lines) exactly;
  2. the reference client's dispatch (`agent_api_client.parse_event_from_json`) accepts every
     event;
  3. the reference model for the event (`AgentResponse`, `Message`, `TextContent`, ...,
     `VideoContent`) validates it (`model_validate_json`) and re-serialises it
     (`model_dump_json()`, or `exclude_none=True` for `omit_nulls` scenarios) to exactly our
     bytes;
  4. `sequence_number` is 0, 1, 2, ... without gaps; the stream opens with response
     `created`, `in_progress` and ends with one terminal response event;
  5. folding: every content event belongs to a message announced before and not yet
     completed; deltas fold (text/refusal appended, data merged with the reference builder's
     own `ContentBuilder._merge_data_incrementally`) to the value of the part's completed
     event; a completed message's parts equal the folded parts; completed messages are
     collected the way the reference runner does (`AgentResponse.add_new_message` on every
     `object == "message"` with status `completed`), and the terminal response's `output`
     equals that collection; its `usage` follows the runner's rule (last output message's
     usage) unless given explicitly;
  6. parity (scenarios that only use what the reference builder can do, incl. `fromText` vs
     `ResponseBuilder.generate_streaming_response(tokens)`): the scenario's ops replayed on the
     reference's own builder give the same event sequence, after replacing ids, timestamps and
     sequence numbers.

Exit status 0 when everything holds; otherwise every failure is printed.
"""

import copy
import glob
import json
import logging
import os
import sys
import warnings

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

from agentscope_runtime.engine.helpers.agent_api_builder import (  # noqa: E402
    ContentBuilder,
    ResponseBuilder,
)
from agentscope_runtime.engine.helpers.agent_api_client import (  # noqa: E402
    parse_event_from_json,
)
from agentscope_runtime.engine.schemas.agent_schemas import (  # noqa: E402
    AgentResponse,
    AudioContent,
    DataContent,
    Error,
    FileContent,
    ImageContent,
    Message,
    RefusalContent,
    TextContent,
    VideoContent,
)

CONTENT_CLASSES = {
    "text": TextContent,
    "image": ImageContent,
    "data": DataContent,
    "audio": AudioContent,
    "file": FileContent,
    "refusal": RefusalContent,
    "video": VideoContent,
}
VALUE_FIELDS = {
    "text": ["text"],
    "image": ["image_url"],
    "data": ["data"],
    "audio": ["data", "format"],
    "file": ["file_url", "file_id", "filename", "file_data"],
    "refusal": ["refusal"],
    "video": ["video_url"],
}
TERMINAL = {"completed", "failed", "canceled"}

# The reference builder's deep merge; `self` is only used for its recursion.
_MERGER = ContentBuilder.__new__(ContentBuilder)


def merge(base, delta):
    return _MERGER._merge_data_incrementally(base or {}, delta)


class Failures:
    def __init__(self):
        self.items = []
        self.checks = 0

    def check(self, ok, what):
        self.checks += 1
        if not ok:
            self.items.append(what() if callable(what) else what)
        return ok


def split_frames(raw, fmt, fail, name):
    text = raw.decode("utf-8")
    payloads = []
    if fmt == "sse":
        chunks = text.split("\n\n")
        fail.check(chunks[-1] == "", f"{name}: SSE body does not end with a blank line")
        for chunk in chunks[:-1]:
            lines = chunk.split("\n")
            ok = fail.check(
                len(lines) == 1 and lines[0].startswith("data: "),
                f"{name}: frame is not one `data: ` line: {chunk[:80]!r}",
            )
            if ok:
                payloads.append(lines[0][len("data: "):])
    else:
        lines = text.split("\n")
        fail.check(lines[-1] == "", f"{name}: NDJSON body does not end with a newline")
        payloads = lines[:-1]
    return payloads


def model_class(obj):
    kind = obj.get("object")
    if kind == "response":
        return AgentResponse
    if kind == "message":
        return Message
    if kind == "content":
        return CONTENT_CLASSES.get(obj.get("type"))
    return None


def values(part):
    """The type-specific fields of a content dict."""
    return {k: part.get(k) for k in VALUE_FIELDS.get(part.get("type"), [])}


def check_stream(manifest, payloads, fail):
    name = manifest["name"]
    omit = manifest["omit_nulls"]
    events = []
    for i, payload in enumerate(payloads):
        obj = json.loads(payload)
        fail.check(
            parse_event_from_json(copy.deepcopy(obj)) is not None,
            f"{name}#{i}: the reference client rejects {payload[:120]}",
        )
        cls = model_class(obj)
        if not fail.check(cls is not None, f"{name}#{i}: no reference model for {payload[:80]}"):
            continue
        try:
            model = cls.model_validate_json(payload)
        except Exception as e:  # noqa: BLE001
            fail.check(False, f"{name}#{i}: {cls.__name__} rejects it: {e}")
            continue
        dump = model.model_dump_json(exclude_none=True) if omit else model.model_dump_json()
        fail.check(
            dump == payload,
            lambda: f"{name}#{i}: re-serialised differently:\n  ours: {payload}\n  ref:  {dump}",
        )
        events.append((obj, model))

    # Sequence numbers and the run's frame.
    seqs = [o.get("sequence_number") for o, _ in events]
    fail.check(seqs == list(range(len(events))), f"{name}: sequence numbers {seqs}")
    objs = [o for o, _ in events]
    if not fail.check(len(objs) >= 3, f"{name}: too few events"):
        return
    fail.check(
        (objs[0]["object"], objs[0]["status"]) == ("response", "created"),
        f"{name}: first event is not response/created",
    )
    fail.check(
        (objs[1]["object"], objs[1]["status"]) == ("response", "in_progress"),
        f"{name}: second event is not response/in_progress",
    )
    last = objs[-1]
    fail.check(
        last["object"] == "response" and last["status"] in TERMINAL,
        f"{name}: last event is not a terminal response",
    )
    fail.check(
        all(o["object"] != "response" for o in objs[2:-1]),
        f"{name}: a response event in the middle of the stream",
    )

    # Fold, and collect completed messages like the runner.
    collector = AgentResponse()
    messages = {}  # id -> {"parts": {index: dict}, "completed": bool}
    for i, (obj, model) in enumerate(events[2:-1], start=2):
        if obj["object"] == "message":
            mid = obj["id"]
            if obj["status"] == "in_progress":
                fail.check(mid not in messages, f"{name}#{i}: message {mid} started twice")
                fail.check(obj.get("content") is None, f"{name}#{i}: start event has content")
                messages[mid] = {"parts": {}, "completed": False}
            elif obj["status"] == "completed":
                m = messages.get(mid)
                if not fail.check(
                    m is not None and not m["completed"],
                    f"{name}#{i}: message {mid} completed without being open",
                ):
                    continue
                m["completed"] = True
                nested = obj.get("content") or []
                fail.check(
                    [p["index"] for p in nested] == sorted(m["parts"]),
                    f"{name}#{i}: message content indexes differ from its parts",
                )
                for p in nested:
                    folded = m["parts"].get(p["index"])
                    fail.check(
                        folded is not None
                        and folded["status"] == "completed"
                        and values(folded) == values(p),
                        lambda: f"{name}#{i}: nested part {p} != folded {folded}",
                    )
                    fail.check(
                        p.get("sequence_number") is None,
                        f"{name}#{i}: nested part has a sequence number",
                    )
                collector.add_new_message(model)
            else:
                fail.check(False, f"{name}#{i}: message status {obj['status']}")
        elif obj["object"] == "content":
            m = messages.get(obj["msg_id"])
            if not fail.check(
                m is not None and not m["completed"],
                f"{name}#{i}: content for a message not announced or already completed",
            ):
                continue
            idx = obj["index"]
            stored = m["parts"].get(idx)
            fail.check(
                stored is None or stored["status"] != "completed",
                f"{name}#{i}: content after its completed event",
            )
            if obj.get("delta") is True:
                t = obj["type"]
                if stored is None:
                    stored = copy.deepcopy(obj)
                elif t == "data":
                    stored["data"] = merge(stored.get("data"), obj["data"])
                elif t in ("text", "refusal"):
                    stored[t] = (stored.get(t) or "") + obj[t]
                else:
                    fail.check(False, f"{name}#{i}: delta on a {t} part")
                stored["status"] = "in_progress"
                m["parts"][idx] = stored
            else:
                if obj["status"] == "completed" and stored is not None:
                    fail.check(
                        values(stored) == values(obj),
                        lambda: f"{name}#{i}: completed {values(obj)} != folded {values(stored)}",
                    )
                m["parts"][idx] = copy.deepcopy(obj)
        else:
            fail.check(False, f"{name}#{i}: unexpected object {obj['object']}")

    def strip(msg):
        d = msg.model_dump()
        d["sequence_number"] = None
        return d

    final = events[-1][1]
    fail.check(
        [strip(m) for m in (final.output or [])] == [strip(m) for m in (collector.output or [])],
        f"{name}: terminal output differs from the runner-style collection",
    )
    explicit = [op for op in manifest["ops"] if op["op"] == "completed" and op.get("usage")]
    if explicit:
        want = explicit[-1]["usage"]
    else:
        want = collector.output[-1].usage if collector.output else None
    fail.check(final.usage == want, f"{name}: usage {final.usage} != {want}")
    if last["status"] == "completed":
        fail.check(final.completed_at is not None, f"{name}: completed_at missing")
    else:
        fail.check(final.completed_at is None, f"{name}: completed_at on {last['status']}")


# ----- parity: replay the ops on the reference builder ----------------------------------------


def kind_types(kind):
    prefix = {"function": "function_call", "plugin": "plugin_call", "mcp": "mcp_call"}[kind]
    return prefix, prefix + "_output"


def replay(manifest):
    """The reference builder's events for the scenario's ops, as model_dump_json() strings."""
    out = []
    rb = ResponseBuilder(session_id=manifest["session_id"])
    run = {"created": False, "running": False}
    ms, cs, ts = [], [], []

    def y(obj):
        out.append(obj.model_dump_json())

    def ensure_running():
        if not run["created"]:
            y(rb.created())
            run["created"] = True
        if not run["running"]:
            y(rb.in_progress())
            run["running"] = True

    def ensure_started(m):
        if not m["started"]:
            ensure_running()
            y(m["mb"].get_message_data())
            m["started"] = True
            if m["announce"] is not None:
                cb, data = m["announce"]
                y(cb.set_data(data))

    for op in manifest["ops"]:
        kind = op["op"]
        if kind == "created":
            y(rb.created())
            run["created"] = True
        elif kind == "in_progress":
            ensure_running()
        elif kind == "message":
            mb = rb.create_message_builder(
                role=op.get("role", "assistant"), message_type=op.get("type", "message")
            )
            ms.append({"mb": mb, "started": False, "announce": None})
        elif kind == "start":
            ensure_started(ms[op["m"]])
        elif kind == "content":
            m = ms[op["m"]]
            cs.append((m, m["mb"].create_content_builder(op["type"])))
        elif kind in ("delta", "set"):
            m, cb = cs[op["c"]]
            ensure_started(m)
            v = op["value"]
            t = cb.content_type
            if kind == "delta":
                y(cb.add_text_delta(v) if t == "text" else cb.add_data_delta(v))
            else:
                setter = {
                    "text": cb.set_text if t == "text" else None,
                    "data": cb.set_data if t == "data" else None,
                    "image": cb.set_image_url if t == "image" else None,
                    "refusal": cb.set_refusal if t == "refusal" else None,
                }[t]
                y(setter(v))
        elif kind == "complete_content":
            m, cb = cs[op["c"]]
            ensure_started(m)
            y(cb.complete())
        elif kind == "complete_message":
            m = ms[op["m"]]
            ensure_started(m)
            y(m["mb"].complete())
        elif kind == "completed":
            ensure_running()
            y(rb.completed())
        elif kind == "failed":
            ensure_running()
            y(rb.response.failed(Error(code=op["code"], message=op["message"])))
        elif kind == "tool_call":
            call_type, _ = kind_types(op["kind"])
            mb = rb.create_message_builder(role="assistant", message_type=call_type)
            cb = mb.create_content_builder("data")
            if op["kind"] == "mcp":
                data = {
                    "call_id": op["call_id"],
                    "arguments": "",
                    "name": op["name"],
                    "server_label": op.get("server_label"),
                }
            else:
                data = {"call_id": op["call_id"], "name": op["name"], "arguments": ""}
            m = {"mb": mb, "started": False, "announce": (cb, data)}
            ms.append(m)
            ts.append((m, cb))
        elif kind == "tool_arguments":
            m, cb = ts[op["t"]]
            ensure_started(m)
            y(cb.add_data_delta({"arguments": op["piece"]}))
        elif kind == "complete_tool_call":
            m, cb = ts[op["t"]]
            ensure_started(m)
            y(cb.complete())
            y(m["mb"].complete())
        elif kind == "tool_output":
            _, out_type = kind_types(op["kind"])
            mb = rb.create_message_builder(role="tool", message_type=out_type)
            ensure_running()
            y(mb.get_message_data())
            cb = mb.create_content_builder("data")
            cb.content.data = {
                "call_id": op["call_id"],
                "name": op.get("name"),
                "output": op["output"],
            }
            y(cb.complete())
            y(mb.complete())
        elif kind == "from_text":
            for event in rb.generate_streaming_response(op["tokens"]):
                y(event)  # serialise at once: the generator re-yields mutated objects
        else:
            raise ValueError(f"op {kind} has no reference-builder equivalent")
    return out


def normalise(payloads):
    """Events with ids (by first appearance), timestamps and sequence numbers replaced."""
    ids = {}

    def walk(v, key=None):
        if isinstance(v, dict):
            return {k: walk(x, k) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        if key == "sequence_number":
            return None
        if key in ("created_at", "completed_at") and v is not None:
            return 0
        if key in ("id", "msg_id") and isinstance(v, str):
            return ids.setdefault(v, f"ID{len(ids)}")
        return v

    return [walk(json.loads(p)) for p in payloads]


def main():
    root = sys.argv[1]
    fail = Failures()
    manifests = sorted(glob.glob(os.path.join(root, "*.json")))
    if not manifests:
        print(f"no scenarios in {root}")
        return 1
    parity = 0
    frames = 0
    for path in manifests:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
        name = manifest["name"]
        with open(os.path.join(root, f"{name}.{manifest['format']}"), "rb") as f:
            raw = f.read()
        payloads = split_frames(raw, manifest["format"], fail, name)
        frames += len(payloads)
        check_stream(manifest, payloads, fail)
        if manifest["parity"]:
            parity += 1
            ours = normalise(payloads)
            ref = normalise(replay(manifest))
            if not fail.check(
                len(ours) == len(ref), f"{name}: {len(ours)} events, reference builder {len(ref)}"
            ):
                continue
            for i, (a, b) in enumerate(zip(ours, ref)):
                fail.check(
                    a == b,
                    lambda: f"{name}#{i}: differs from the reference builder:\n"
                    f"  ours: {json.dumps(a)}\n  ref:  {json.dumps(b)}",
                )
    for item in fail.items:
        print("FAIL", item)
    print(
        f"{len(manifests)} scenarios, {frames} events, {parity} with reference-builder parity, "
        f"{fail.checks} checks, {len(fail.items)} failures"
    )
    return 1 if fail.items else 0


if __name__ == "__main__":
    sys.exit(main())
