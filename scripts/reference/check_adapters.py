"""Checks agentwire's adapter output with the official SDKs' own types.

For every `<name>.a2a.sse` in OUT_DIR (written by examples/adapter_scenarios.rs):
- each `data:` payload parses as a2a-sdk 0.3.26 `SendStreamingMessageResponse` (success);
- the first result is a `Task`, the last a `TaskStatusUpdateEvent` with `final: true`, and
  nothing follows it; every event names the task's id and context id;
- replaying the artifact updates the way a2a-sdk's `append_artifact_to_task` does rebuilds
  each message's text (every text part of an artifact, in order).
Every `<name>.a2a.json` (an A2A 0.3 agent card) validates as a2a-sdk 0.3's `AgentCard`.
For every `<name>.responses.sse`:
- each event parses as the Python `openai` package's `ResponseStreamEvent` union, its SSE
  `event:` line equals its `type`, and `sequence_number`s run 0, 1, 2, …;
- the terminal event's `response` parses as `openai.types.responses.Response`.

Usage: check_adapters.py OUT_DIR
"""

import json
import sys
from pathlib import Path

from a2a.types import (
    AgentCard,
    SendStreamingMessageResponse,
    SendStreamingMessageSuccessResponse,
    Task,
    TaskArtifactUpdateEvent,
    TaskStatusUpdateEvent,
)
from a2a.utils.helpers import append_artifact_to_task
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import TypeAdapter

STREAM_EVENT = TypeAdapter(ResponseStreamEvent)


def frames(path):
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        if not block.strip():
            continue
        event, data = None, []
        for line in block.split("\n"):
            if line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: "):
                data.append(line[len("data: "):])
        yield event, "\n".join(data)


def check_a2a(path):
    results = []
    for _, data in frames(path):
        response = SendStreamingMessageResponse.model_validate_json(data).root
        assert isinstance(response, SendStreamingMessageSuccessResponse), data
        assert response.id == "req-1", response.id
        results.append(response.result)
    assert results, "no events"
    task = results[0]
    assert isinstance(task, Task), type(task)
    last = results[-1]
    assert isinstance(last, TaskStatusUpdateEvent) and last.final, last
    for r in results[1:]:
        assert r.task_id == task.id and r.context_id == task.context_id, r
        if isinstance(r, TaskStatusUpdateEvent) and r.final:
            assert r is last, "an event after the final status"
        elif isinstance(r, TaskArtifactUpdateEvent):
            append_artifact_to_task(task, r)
    texts = {a.artifact_id: "".join(p.root.text for p in a.parts if p.root.kind == "text")
             for a in task.artifacts or []}
    return len(results), last.status.state.value, texts


def check_responses(path):
    n = 0
    terminal = None
    for event, data in frames(path):
        parsed = STREAM_EVENT.validate_json(data)
        assert event == parsed.type, (event, parsed.type)
        assert parsed.sequence_number == n, (parsed.sequence_number, n)
        n += 1
        if parsed.type in ("response.completed", "response.failed", "response.incomplete"):
            terminal = parsed
    assert terminal is not None, "no terminal event"
    Response.model_validate(terminal.response.model_dump())
    return n, terminal.type


def main():
    out = Path(sys.argv[1])
    checked = 0
    for path in sorted(out.glob("*.a2a.sse")):
        n, state, texts = check_a2a(path)
        print(f"a2a        {path.name}: {n} events, final state {state}, {len(texts)} artifacts")
        checked += 1
    for path in sorted(out.glob("*.responses.sse")):
        n, terminal = check_responses(path)
        print(f"responses  {path.name}: {n} events, ends with {terminal}")
        checked += 1
    assert checked, "nothing to check"
    cards = sorted(out.glob("*.a2a.json"))
    assert cards, "no A2A 0.3 agent cards"
    for path in cards:
        card = AgentCard.model_validate_json(path.read_text(encoding="utf-8"))
        assert card.protocol_version == "0.3.0" and card.preferred_transport == "JSONRPC", card
        print(f"a2a        {path.name}: a valid a2a-sdk 0.3 AgentCard")
    print(f"check_adapters: {checked} streams and {len(cards)} agent cards valid")


if __name__ == "__main__":
    main()
