"""Checks agentwire's AG-UI output against the schema, the Python SDK and the reference adapter.

For every `<name>.ag-ui.sse` in OUT_DIR (written by examples/agui_scenarios.rs):
- the body is `data: <json>\\n\\n` frames only, and every event validates against the AG-UI JSON
  schema (../shared/conformance/ag-ui/schema.json beside the repository, `$defs/Event`, draft 2020-12, with the
  `jsonschema` package);
- every event parses as ag-ui-protocol 1.0.0's `ag_ui.core.Event` and dumps back
  (`by_alias=True, exclude_none=True`) to the same JSON: no field is unknown or malformed;
- the run opens with `RUN_STARTED` and ends with its only terminal event.
For every `<name>.reference.sse` (written by agui_reference.py, the reference adapter's body for
the same Agent API stream): ours equals the reference's event by event after both are
normalised by the deviations agentwire documents (README "AG-UI translation: fixes to the
reference adapter"), each applied by a named rule below; the text messages the reference ends
must be ended by ours too (where they end is one of the deviations).
For `agui_requests.jsonl` / `agui_requests.ours.jsonl`: the Agent API request agentwire maps a
RunAgentInput to equals the reference adapter's.

Usage: check_agui.py OUT_DIR
"""

import difflib
import json
import os
import sys
from pathlib import Path

from ag_ui.core import Event
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter

ROOT = Path(__file__).resolve().parents[2]
# The conformance suites live beside the repository (AGENTWIRE_CONFORMANCE names another place).
CONFORMANCE = Path(os.environ.get("AGENTWIRE_CONFORMANCE") or ROOT.parent / "shared" / "conformance")
if not (CONFORMANCE / "ag-ui" / "schema.json").is_file():
    sys.exit(f"conformance suite ag-ui not found at {CONFORMANCE / 'ag-ui'}: the suites live in "
             "<repo root>/../shared/conformance (set AGENTWIRE_CONFORMANCE to their directory)")
SCHEMA = json.loads((CONFORMANCE / "ag-ui" / "schema.json").read_text(encoding="utf-8"))
EVENT_SCHEMA = dict(SCHEMA, **{"$ref": "#/$defs/Event"})
VALIDATOR = Draft202012Validator(EVENT_SCHEMA)
EVENT = TypeAdapter(Event)
TERMINAL = ("RUN_FINISHED", "RUN_ERROR")


def frames(text):
    blocks = text.split("\n\n")
    assert blocks.pop() == "", "the body does not end with a blank line"
    for block in blocks:
        assert block.startswith("data: ") and "\n" not in block, block[:80]
        yield json.loads(block[len("data: "):])


def check_ours(path):
    events = list(frames(path.read_text(encoding="utf-8")))
    for e in events:
        errors = sorted(VALIDATOR.iter_errors(e), key=lambda x: x.path)
        assert not errors, (path.name, e, [x.message for x in errors][:3])
        parsed = EVENT.validate_python(e)
        dumped = parsed.model_dump(mode="json", by_alias=True, exclude_none=True)
        assert dumped == e, (path.name, e, dumped)
    types = [e["type"] for e in events]
    assert types and types[0] == "RUN_STARTED", (path.name, types[:2])
    terminals = [i for i, t in enumerate(types) if t in TERMINAL]
    assert terminals == [len(types) - 1], (path.name, types)
    return events


def agent_api_facts(path):
    """Whether the Agent API input has a terminal response, and the ids of its messages with
    more than one text / refusal part."""
    terminal = False
    parts = {}
    for e in frames(path.read_text(encoding="utf-8")):
        if e.get("object") == "response" and e.get("status") in ("completed", "failed", "rejected", "canceled"):
            terminal = True
        if "error" in e and "object" not in e:
            terminal = True
        if e.get("object") == "content" and e.get("type") in ("text", "refusal") and e.get("msg_id"):
            parts.setdefault(e["msg_id"], set()).add(e.get("index"))
        if e.get("object") == "message":
            for i, c in enumerate(e.get("content") or []):
                if c.get("type") in ("text", "refusal"):
                    parts.setdefault(e["id"], set()).add(c.get("index", i) if c.get("index") is not None else i)
    return terminal, {m for m, p in parts.items() if len(p) > 1}


# ----- the documented deviations, as normalisations -------------------------------------------


def drop_fields(events, fields):
    """Fields agentwire adds (`protocolVersion`, `role` on TEXT_MESSAGE_START, `parentMessageId`,
    `usage`) or the reference adds (`run_id` on RUN_ERROR, not an AG-UI field)."""
    return [{k: v for k, v in e.items() if (e["type"], k) not in fields} for e in events]


def reasoning_as_text(events):
    """Reasoning: agentwire sends REASONING_*; the reference sends reasoning as TEXT_MESSAGE_*."""
    out = []
    for e in events:
        t = e["type"]
        if t in ("REASONING_START", "REASONING_END"):
            continue
        if t.startswith("REASONING_MESSAGE_"):
            e = {k: v for k, v in e.items() if k != "role"}
            e["type"] = "TEXT_MESSAGE_" + t[len("REASONING_MESSAGE_"):]
        out.append(e)
    return out


def until_terminal(events):
    """Nothing after the terminal event (the reference goes on after RUN_FINISHED / RUN_ERROR)."""
    for i, e in enumerate(events):
        if e["type"] in TERMINAL:
            return events[: i + 1]
    return events


def cancelled_outcome(events):
    """`canceled`: the reference sends RUN_FINISHED with `result: "agent run canceled"`;
    agentwire sends AG-UI 1.0's `outcome: {type: "cancelled"}`."""
    return [
        {**{k: v for k, v in e.items() if k != "result"}, "outcome": {"type": "cancelled"}}
        if e["type"] == "RUN_FINISHED" and e.get("result") == "agent run canceled" else e
        for e in events
    ]


def truncated_input(events, has_terminal):
    """An input without a terminal response: the reference appends RUN_FINISHED (success);
    agentwire ends with RUN_ERROR `INCOMPLETE_STREAM`."""
    if has_terminal or not events or events[-1]["type"] != "RUN_FINISHED":
        return events
    return events[:-1] + [{"type": "RUN_ERROR", "message": "The stream ended before the run did.",
                           "code": "INCOMPLETE_STREAM"}]


def missing_run_started(events):
    """The run always opens with RUN_STARTED (the reference can send RUN_FINISHED alone)."""
    if events and events[0]["type"] != "RUN_STARTED":
        return [{"type": "RUN_STARTED", "threadId": "thr-replay", "runId": "run-replay"}] + events
    return events


def merge_args(events):
    """Tool arguments stream as TOOL_CALL_ARGS deltas; the reference sends them whole."""
    out = []
    for e in events:
        prev = out[-1] if out else None
        if prev and e["type"] == prev["type"] == "TOOL_CALL_ARGS" and e["toolCallId"] == prev["toolCallId"]:
            out[-1] = {**prev, "delta": prev["delta"] + e["delta"]}
        else:
            out.append(dict(e))
    return out


def media_parts(events):
    """Image / audio / video / file / data parts of a message: agentwire sends a CUSTOM
    `agent-api.content` event; the reference only logs a warning."""
    return [e for e in events if not (e["type"] == "CUSTOM" and e.get("name") == "agent-api.content")]


def later_parts(ours, reference, multi):
    """A message's later text parts: agentwire appends every text / refusal part of a message to
    its AG-UI message; the reference ends the AG-UI message when the first part completes and
    drops the rest. For messages with several parts (`multi`), the text is compared whole and
    the reference's must be a prefix of ours."""

    def joined(events):
        out, at = [], {}
        for e in events:
            if e["type"] == "TEXT_MESSAGE_CONTENT" and e["messageId"] in multi:
                if e["messageId"] in at:
                    j = at[e["messageId"]]
                    out[j] = {**out[j], "delta": out[j]["delta"] + e["delta"]}
                    continue
                at[e["messageId"]] = len(out)
            out.append(dict(e))
        return out, at

    ours, at_ours = joined(ours)
    reference, at_ref = joined(reference)
    for m, j in at_ref.items():
        if m in at_ours and ours[at_ours[m]]["delta"].startswith(reference[j]["delta"]):
            reference[j] = {**reference[j], "delta": ours[at_ours[m]]["delta"]}
    return ours, reference


def without_text_ends(events):
    """Where text messages end: agentwire ends each when its Agent API message completes, also
    for text sent whole and before RUN_ERROR; the reference ends streamed text at its part's
    completion, never ends text sent whole, and leaves text open at RUN_ERROR."""
    return [e for e in events if e["type"] != "TEXT_MESSAGE_END"]


# Synthetic corpus streams that are no run: checked against the schema and the SDK, not diffed.
NOT_DIFFED = {
    "corpus_extra_keys_and_values": "unknown keys, future statuses and types, parts without msg_id, "
                                    "an `incomplete` response (a terminal for agentwire, ignored by the "
                                    "reference) before a `failed` one; the reference then crashes "
                                    "(`Unexpected stream error`)",
    "corpus_known_gaps": "two events with out-of-range integers; the reference sends RUN_FINISHED "
                         "without RUN_STARTED",
}

OURS_ONLY = {("RUN_STARTED", "protocolVersion"), ("TEXT_MESSAGE_START", "role"),
             ("TOOL_CALL_START", "parentMessageId"), ("RUN_FINISHED", "usage"), ("RUN_ERROR", "usage")}
REFERENCE_ONLY = {("RUN_ERROR", "run_id")}


def compare(name, ours, reference, has_terminal, multi):
    ends_ref = {e["messageId"] for e in reference if e["type"] == "TEXT_MESSAGE_END"}
    ends_ours = {e["messageId"] for e in ours if e["type"] in ("TEXT_MESSAGE_END", "REASONING_MESSAGE_END")}
    assert ends_ref <= ends_ours, (name, "messages the reference ends but agentwire does not", ends_ref - ends_ours)
    a = without_text_ends(merge_args(media_parts(reasoning_as_text(drop_fields(ours, OURS_ONLY)))))
    b = drop_fields(reference, REFERENCE_ONLY)
    b = missing_run_started(truncated_input(cancelled_outcome(until_terminal(b)), has_terminal))
    b = without_text_ends(merge_args(b))
    a, b = later_parts(a, b, multi)
    if a != b:
        diff = difflib.unified_diff([json.dumps(e, ensure_ascii=False) for e in b],
                                    [json.dumps(e, ensure_ascii=False) for e in a],
                                    "reference (normalised)", "agentwire (normalised)", lineterm="")
        raise AssertionError(f"{name}: the translation differs from the reference adapter's\n" + "\n".join(diff))
    return len(a)


def check_requests(out):
    theirs = {}
    for line in (out / "agui_requests.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        theirs[rec["name"]] = rec["request"]
    n = 0
    for line in (out / "agui_requests.ours.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        assert rec["request"] == theirs[rec["name"]], (rec["name"], rec["request"], theirs[rec["name"]])
        n += 1
    assert n == len(theirs), (n, len(theirs))
    return n


def main():
    out = Path(sys.argv[1])
    checked = compared = events = 0
    for path in sorted(out.glob("*.ag-ui.sse")):
        ours = check_ours(path)
        checked += 1
        events += len(ours)
        name = path.name[: -len(".ag-ui.sse")]
        ref = out / f"{name}.reference.sse"
        if ref.exists() and name not in NOT_DIFFED:
            reference = list(frames(ref.read_text(encoding="utf-8")))
            compare(name, ours, reference, *agent_api_facts(out / f"{name}.agent-api.sse"))
            compared += 1
    requests = check_requests(out)
    print(f"AG-UI: {checked} streams ({events} events) valid against the schema and ag_ui.core; "
          f"{compared} equal to the reference adapter's modulo the documented deviations; "
          f"{requests} RunAgentInput → AgentRequest mappings equal to the reference's")


if __name__ == "__main__":
    main()
