"""Drive the REAL reference AG-UI adapter (agentscope-runtime 1.1.6.post2 `AGUIDefaultAdapter`,
ag-ui-protocol 1.0.0) and write what it produces, next to the Agent API stream it was fed.

Usage: .venv/bin/python scripts/reference/agui_reference.py OUT_DIR

Writes, under OUT_DIR:
  <name>.agent-api.sse   the Agent API events the runner yielded to the adapter, as `/process`
                         would send them (`data: <model_dump_json()>\\n\\n`)
  <name>.reference.sse   the body of `POST /ag-ui` (FastAPI TestClient) for the same run
  agui_requests.jsonl    {"name", "body", "request"}: the AgentRequest the adapter hands its
                         runner for a RunAgentInput body (`model_dump(mode="json")`)

Scenarios:
  - live runs of the runners in gen_corpus.py (text, text failing, unicode, agentscope with
    reasoning / tool call / tool result / image, a runner failing at once), through AgentApp's
    own `/ag-ui` route;
  - every committed Agent API corpus stream (tests/fixtures/reference/events/*.jsonl that holds
    events) replayed through the adapter on its own FastAPI app.

Everything here is reference output: the script only feeds inputs.
"""

import json
import os
import sys
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("AGENTSCOPE_RUNTIME_LOG_LEVEL", "ERROR")

import logging

logging.disable(logging.CRITICAL)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fastapi import FastAPI
from fastapi.testclient import TestClient

from agentscope_runtime.engine.app import AgentApp
from agentscope_runtime.engine.deployers.adapter.agui import AGUIDefaultAdapter
from agentscope_runtime.engine.deployers.adapter.agui.agui_adapter_utils import AGUIAdapterUtils
from agentscope_runtime.engine.deployers.adapter.agui.agui_protocol_adapter import (
    FlexibleRunAgentInput,
)

OUT = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/reference/ag-ui"
os.makedirs(OUT, exist_ok=True)

import gen_corpus  # noqa: E402  (the runners; on import it only makes two empty folders)

for _d in ("events", "sse"):
    try:
        os.rmdir(os.path.join(OUT, _d))
    except OSError:
        pass
CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "fixtures", "reference", "events")
USER = [{"id": "u1", "role": "user", "content": "你好"}]


def write(name, suffix, text):
    with open(os.path.join(OUT, f"{name}.{suffix}.sse"), "w", encoding="utf-8", newline="") as f:
        f.write(text)


def recording(runner_cls, *args, **kwargs):
    """A runner whose stream_query also records each event it yields."""

    class Recording(runner_cls):
        def __init__(self):
            super().__init__(*args, **kwargs)
            self.recorded = []

        async def stream_query(self, request, **kw):
            async for event in super().stream_query(request, **kw):
                self.recorded.append(event.model_dump_json())
                yield event

    return Recording()


def live(name, runner, body):
    app = AgentApp(runner=runner)
    with TestClient(app) as client:
        resp = client.post("/ag-ui", json=body)
    assert resp.status_code == 200, (name, resp.status_code, resp.text)
    write(name, "agent-api", "".join(f"data: {e}\n\n" for e in runner.recorded))
    write(name, "reference", resp.text)


def replay(name, lines):
    events = []
    for line in lines:
        obj = json.loads(line)
        cls = gen_corpus.model_for(obj)
        if cls is None:
            return False
        events.append(cls.model_validate_json(line))

    async def func(request):
        for e in events:
            yield e

    app = FastAPI()
    AGUIDefaultAdapter().add_endpoint(app, func)
    with TestClient(app) as client:
        resp = client.post("/ag-ui", json={"threadId": "thr-replay", "runId": "run-replay", "messages": USER})
    write(name, "agent-api", "".join(f"data: {line}\n\n" for line in lines))
    write(name, "reference", resp.text)
    return True


def requests():
    bodies = {
        "minimal": {"threadId": "t1", "runId": "r1", "messages": []},
        "snake_case_no_messages": {"thread_id": "t2", "run_id": "r2"},
        "full": {
            "threadId": "thr-1",
            "runId": "run-1",
            "parentRunId": "run-0",
            "state": {"n": 1, "list": [1, "a"]},
            "forwardedProps": {"user_id": "u-42", "other": True},
            "context": [{"description": "timezone", "value": "UTC"}],
            "tools": [
                {"name": "get_weather", "description": "Weather by city",
                 "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
                {"name": "no_params", "description": "Takes nothing"},
                {"name": "loose", "description": "Non-object schema", "parameters": {"type": "string"}},
            ],
            "messages": [
                {"id": "s1", "role": "system", "content": "Be brief."},
                {"id": "d1", "role": "developer", "content": "Use metric units."},
                {"id": "u1", "role": "user", "content": "What is the weather in 杭州?"},
                {"id": "u2", "role": "user", "content": [{"type": "text", "text": "Part one"}, {"type": "text", "text": "two 😀"}]},
                {"id": "u3", "role": "user", "content": []},
                {"id": "a1", "role": "assistant", "toolCalls": [
                    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"杭州\"}"}},
                    {"id": "call_2", "type": "function", "function": {"name": "no_params", "arguments": ""}},
                ]},
                {"id": "t1", "role": "tool", "toolCallId": "call_1", "content": "Sunny, 25°C"},
                {"id": "t2", "role": "tool", "toolCallId": "call_2", "content": "", "error": "boom"},
                {"id": "t3", "role": "tool", "toolCallId": "call_3", "content": ""},
                {"id": "a2", "role": "assistant", "content": "It is sunny."},
                {"id": "a3", "role": "assistant"},
                {"id": "x1", "role": "activity", "activityType": "plan", "content": {"steps": []}},
            ],
        },
        "user_id_camel": {"threadId": "t3", "runId": "r3", "forwardedProps": {"userId": "camel"}, "messages": USER},
    }
    with open(os.path.join(OUT, "agui_requests.jsonl"), "w", encoding="utf-8") as f:
        for name, body in bodies.items():
            data = FlexibleRunAgentInput.model_validate(body)
            utils = AGUIAdapterUtils(thread_id=data.thread_id, run_id=data.run_id)
            request = utils.convert_agui_request_to_agent_request(data).model_dump(mode="json")
            f.write(json.dumps({"name": name, "body": body, "request": request}, ensure_ascii=False) + "\n")
    return len(bodies)


def main():
    n = 0
    body = {"threadId": "thr-1", "runId": "run-1", "messages": USER}
    live("live_text", recording(gen_corpus.TextRunner, ["Hi", "! My name is Friday", "."]), body)
    live("live_text_error", recording(gen_corpus.TextRunner, ["Hi", " there"], fail_after=1), body)
    live("live_text_unicode", recording(gen_corpus.TextRunner, ["日本", "語 😀", "e\u0301"]), body)
    live("live_fail_immediately", recording(gen_corpus.TextRunner, [], fail_after=0), body)
    live("live_agentscope", recording(gen_corpus.AgentscopeRunner), body)
    n += 5
    for file in sorted(os.listdir(CORPUS)):
        if not file.endswith(".jsonl") or file.endswith(".exclude_none.jsonl"):
            continue
        with open(os.path.join(CORPUS, file), encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f if line.strip()]
        if replay("corpus_" + file[: -len(".jsonl")], lines):
            n += 1
    print(f"wrote {n} AG-UI reference runs and {requests()} requests to {OUT}")


if __name__ == "__main__":
    main()
