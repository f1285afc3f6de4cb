"""Checks agentwire's A2A 1.0 streams with the official a2a-sdk 1.x (its own virtualenv,
.venv-a2a1, since the reference pins a2a-sdk < 1.0).

For every `<name>.a2a1.sse` in OUT_DIR (examples/adapter_scenarios.rs: the reference captures and
builder runs translated from the Agent API to A2A 1.0):
- each `data:` payload is a JSON-RPC success answering "req-1" whose `result` parses as the SDK's
  `StreamResponse` with protobuf's strict JSON parser (unknown fields and `kind`/`final`
  leftovers are errors), and serialises back to exactly the same JSON (enum names, camelCase,
  fields at their default value left out);
- the stream is a `task` (submitted), then status and artifact updates of that task, ending with
  one status update in a terminal or interrupted state, nothing after it;
- replaying the artifact updates with the SDK's own `append_artifact_to_task` rebuilds each
  message's text;
- the SDK's 0.3 conversion of each 1.0 event (`to_compat_stream_response`) equals agentwire's
  own 0.3 stream of the same run (`<name>.a2a.sse`), event by event, except `final` on an
  `input-required` status (the SDK sets it only for terminal states).

The non-streamed answer of each run (`<name>.a2a1.send.json`, agentwire's `TaskFold` of the 1.0
stream) parses strictly as the SDK's `SendMessageResponse`, serialises back identically, and its
task equals the SDK's own aggregation of the same stream (`TaskManager.save_task_event`, event by
event); the 0.3 answer (`<name>.a2a.send.json`) equals the SDK's 0.3 conversion of that task.

Usage: .venv-a2a1/bin/python scripts/reference/check_a2a_v1.py OUT_DIR
"""

import asyncio
import json
import sys
from pathlib import Path

from google.protobuf import json_format

from a2a.compat.v0_3 import types as types_v03
from a2a.compat.v0_3.conversions import (
    to_compat_stream_response,
    to_compat_task,
    to_core_agent_card,
)
from a2a.server.context import ServerCallContext
from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from a2a.server.tasks import InMemoryTaskStore
from a2a.server.tasks.task_manager import TaskManager
from a2a.server.tasks.task_manager import append_artifact_to_task
from a2a.types import a2a_pb2

END_STATES = {"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED",
              "TASK_STATE_REJECTED", "TASK_STATE_INPUT_REQUIRED"}


def payloads(path):
    out = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [l[len("data: "):] for l in block.split("\n") if l.startswith("data: ")]
        if lines:
            out.append(json.loads("\n".join(lines)))
    return out


def as_03_metadata(value):
    """The one deliberate difference between agentwire's two versions: an artifact's own metadata
    key is lowerCamelCase in 1.0 (`messageType`, as 1.0's ProtoJSON names are) and stays
    `message_type` in 0.3. The SDK converts versions carrying metadata as it is: rename it in
    what the SDK converted, everywhere an artifact is."""
    if isinstance(value, list):
        return [as_03_metadata(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: as_03_metadata(v) for k, v in value.items()}
    meta = out.get("metadata")
    if "artifactId" in out and isinstance(meta, dict) and "messageType" in meta:
        meta["message_type"] = meta.pop("messageType")
    return out


def file_parts_alike(value):
    """What agentwire's 1.0 file parts add over its 0.3 ones, taken off both sides: 1.0 always
    names a media type (inferred when none was given; 0.3 sends only a given one) and writes bytes
    given as a `data:` URI as their base64 (0.3 keeps the URI)."""
    if isinstance(value, list):
        return [file_parts_alike(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: file_parts_alike(v) for k, v in value.items()}
    f = out.get("file") if out.get("kind") == "file" else None
    if isinstance(f, dict):
        f.pop("mimeType", None)
        b = f.get("bytes")
        if isinstance(b, str) and b.startswith("data:") and ";base64," in b:
            f["bytes"] = b.split(";base64,", 1)[1]
    return out


def same(a, b):
    """JSON equality where Struct numbers may come back as floats (0 == 0.0)."""
    return a == b


def check(path):
    events = payloads(path)
    assert events, f"{path.name}: no events"
    parsed = []
    for e in events:
        assert e.get("jsonrpc") == "2.0" and e.get("id") == "req-1" and "result" in e, e
        msg = json_format.ParseDict(e["result"], a2a_pb2.StreamResponse())
        back = json_format.MessageToDict(msg)
        assert same(back, e["result"]), f"{path.name}: not canonical:\n ours {e['result']}\n sdk  {back}"
        parsed.append(msg)
    first, last = parsed[0], parsed[-1]
    assert first.WhichOneof("payload") == "task", first
    assert a2a_pb2.TaskState.Name(first.task.status.state) == "TASK_STATE_SUBMITTED", first
    task = a2a_pb2.Task()
    task.CopyFrom(first.task)
    for i, m in enumerate(parsed[1:], 1):
        kind = m.WhichOneof("payload")
        assert kind in ("statusUpdate", "status_update", "artifactUpdate", "artifact_update"), kind
        update = m.status_update if kind in ("statusUpdate", "status_update") else m.artifact_update
        assert update.task_id == task.id and update.context_id == task.context_id, m
        if kind in ("artifactUpdate", "artifact_update"):
            append_artifact_to_task(task, m.artifact_update)
        else:
            state = a2a_pb2.TaskState.Name(m.status_update.status.state)
            if state in END_STATES:
                assert i == len(parsed) - 1, f"{path.name}: events after the end state {state}"
    assert last.WhichOneof("payload") == "status_update", last
    assert a2a_pb2.TaskState.Name(last.status_update.status.state) in END_STATES, last
    # The 0.3 stream of the same run, against the SDK's conversion of each 1.0 event.
    old = payloads(path.with_name(path.name.replace(".a2a1.", ".a2a.")))
    assert len(old) == len(events), f"{path.name}: {len(events)} events in 1.0, {len(old)} in 0.3"
    # A run without an id gets a random task id in each translation: use the 1.0 one.
    old_id, new_id = old[0]["result"]["id"], events[0]["result"]["task"]["id"]
    old = json.loads(json.dumps(old).replace(json.dumps(old_id)[1:-1], json.dumps(new_id)[1:-1]))
    for ours03, msg in zip(old, parsed):
        converted = as_03_metadata(to_compat_stream_response(msg, "req-1").model_dump(mode="json", exclude_none=True))
        expected = types_v03.SendStreamingMessageResponse.model_validate(ours03).root.model_dump(mode="json", exclude_none=True)
        result = expected.get("result", {})
        if result.get("kind") == "status-update" and result.get("status", {}).get("state") == "input-required":
            converted["result"]["final"] = result.get("final")
        converted, expected = file_parts_alike(converted), file_parts_alike(expected)
        assert same(converted, expected), f"{path.name}: the SDK's 0.3 conversion differs:\n sdk  {converted}\n ours {expected}"
    check_send(path, parsed)
    texts = {a.artifact_id: "".join(p.text for p in a.parts if p.WhichOneof("content") == "text") for a in task.artifacts}
    return len(events), len(task.artifacts), sum(len(t) for t in texts.values())


async def sdk_task(parsed):
    """The SDK's server-side aggregation of a stream of `StreamResponse`s."""
    manager = TaskManager(InMemoryTaskStore(), ServerCallContext(), None, None, None)
    for m in parsed:
        kind = m.WhichOneof("payload")
        event = {"task": m.task, "status_update": m.status_update,
                 "artifact_update": m.artifact_update}[kind]
        await manager.save_task_event(event)
    return await manager.get_task()


def check_send(path, parsed):
    name = path.name.replace(".a2a1.sse", "")
    ours = json.loads(path.with_name(f"{name}.a2a1.send.json").read_text(encoding="utf-8"))
    msg = json_format.ParseDict(ours, a2a_pb2.SendMessageResponse())
    assert json_format.MessageToDict(msg) == ours, f"{name}: send answer not canonical"
    task = asyncio.run(sdk_task(parsed))
    sdk = json_format.MessageToDict(task)
    assert sdk == ours["task"], f"{name}: SendMessage answer differs from the SDK's aggregation:\n ours {ours['task']}\n sdk  {sdk}"
    old = json.loads(path.with_name(f"{name}.a2a.send.json").read_text(encoding="utf-8"))
    old = json.loads(json.dumps(old).replace(json.dumps(old["id"])[1:-1], json.dumps(ours["task"]["id"])[1:-1]))
    compat = as_03_metadata(to_compat_task(task).model_dump(mode="json", exclude_none=True))
    expected = types_v03.Task.model_validate(old).model_dump(mode="json", exclude_none=True)
    compat, expected = file_parts_alike(compat), file_parts_alike(expected)
    assert compat == expected, f"{name}: 0.3 answer differs from the SDK's conversion:\n sdk  {compat}\n ours {expected}"


def check_cards(out):
    """Agent cards of both versions from one description: the 1.0 card parses strictly as the
    SDK's `AgentCard` and serialises back identically; the 0.3 card validates as the SDK's 0.3
    `AgentCard`, and the SDK converts it to the same 1.0 card (but for the interface's
    version)."""
    cards = sorted(out.glob("*.a2a1.json"))
    assert cards, "no agent cards"
    for path in cards:
        card = json.loads(path.read_text(encoding="utf-8"))
        msg = json_format.ParseDict(card, a2a_pb2.AgentCard())
        assert json_format.MessageToDict(msg) == card, f"{path.name}: not canonical"
        old = json.loads(path.with_name(path.name.replace(".a2a1.", ".a2a.")).read_text(encoding="utf-8"))
        compat = types_v03.AgentCard.model_validate(old)
        core = json_format.MessageToDict(to_core_agent_card(compat))
        for iface in core.get("supportedInterfaces", []):
            iface["protocolVersion"] = "1.0"
        assert core == card, f"{path.name}: the SDK's 1.0 form of the 0.3 card differs:\n sdk  {core}\n ours {card}"
        print(f"a2a 1.0  {path.name}: valid agent card, and its 0.3 twin converts to it")
        # The card served to both versions: what the SDK's server makes of the 1.0 card listing
        # both interfaces (`agent_card_to_dict`), and a 0.3 card for the 0.3 SDK types.
        both = json.loads(path.with_name(path.name.replace(".a2a1.", ".both.")).read_text(encoding="utf-8"))
        two = a2a_pb2.AgentCard()
        two.CopyFrom(msg)
        iface = two.supported_interfaces.add()
        iface.CopyFrom(msg.supported_interfaces[0])
        iface.protocol_version = "0.3"
        sdk_both = agent_card_to_dict(two)
        assert both == sdk_both, f"{path.name}: the card for both versions differs from the SDK's:\n ours {both}\n sdk  {sdk_both}"
        types_v03.AgentCard.model_validate(both)
        print(f"a2a 1.0  {path.name.replace('.a2a1.', '.both.')}: the card for both versions equals a2a-sdk's")


def main():
    out = Path(sys.argv[1])
    check_cards(out)
    files = sorted(out.glob("*.a2a1.sse"))
    assert files, "no A2A 1.0 streams"
    total = 0
    for f in files:
        n, artifacts, chars = check(f)
        total += n
        print(f"a2a 1.0  {f.name}: {n} events, {artifacts} artifacts, {chars} characters of text; "
              "SendMessage answer equals the SDK's aggregation")
    print(f"check_a2a_v1: {len(files)} streams, {total} events valid for a2a-sdk 1.x")


if __name__ == "__main__":
    main()
