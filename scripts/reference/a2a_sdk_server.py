"""A2A streams and answers made by a2a-sdk 1.x's own server machinery, for agentwire to read,
and agentwire's JSON-RPC error answers judged against the same server.

The server is the SDK's: `DefaultRequestHandler` with an `InMemoryTaskStore`, a scripted
`AgentExecutor` driving a `TaskUpdater` (no model), served by `create_jsonrpc_routes` (0.3
compatibility on) in a Starlette app read through Starlette's `TestClient`.

    streams OUT   For each scenario and each version (1.0: `SendStreamingMessage` with
                  `A2A-Version: 1.0`; 0.3: `message/stream` without the header), writes the SSE
                  body as `OUT/sdk-<scenario>-<v>.sdk.sse` and the SDK's own aggregation of the
                  task (its `GetTask` / `tasks/get` answer after the stream) as
                  `OUT/sdk-<scenario>-<v>.task.json`.
    compare OUT   After `adapter_scenarios fold OUT`: agentwire's `TaskFold` of each SDK stream
                  (`.fold.json`) equals the SDK's task; `StreamAssembler` read each stream to a
                  finished run holding every artifact's text; and for every malformed request in
                  `OUT/rpc-errors.json`, the SDK server answers with the same JSON-RPC error code
                  as agentwire, and the SDK client maps agentwire's answer to the same typed
                  error as the SDK server's.

Usage: .venv-a2a1/bin/python scripts/reference/a2a_sdk_server.py streams|compare OUT
"""

import json
import logging
import sys
from pathlib import Path

from google.protobuf import json_format
from starlette.applications import Starlette
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from a2a.client.transports.jsonrpc import JsonRpcTransport
from a2a.helpers import new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import a2a_pb2

logging.disable(logging.CRITICAL)

SCENARIOS = ["answer", "failure", "input"]

# Where a2a-sdk 1.3.0's server answers otherwise, agentwire follows the specification (listed in
# the README): (body prefix, A2A-Version) → (agentwire's code, the SDK's code, why).
DEVIATIONS = {
    ('{"jsonrpc":"2.0","id":4,"method":"message/send"', "1.0"):
        (-32009, -32603, "a 0.3 method under A2A-Version 1.0: the SDK's 0.3 adapter raises "
                         "VersionNotSupportedError and reports it as an internal error"),
    ('{"jsonrpc":"2.0","id":4,"method":"tasks/get"', "1.0"):
        (-32009, -32603, "as above"),
    ('{"jsonrpc":"2.0","id":6,"method":"message/send","params":{}}', None):
        (-32602, -32600, "0.3 params of the wrong shape: the SDK's 0.3 adapter validates the "
                         "whole request as one model and answers Invalid Request; JSON-RPC "
                         "names -32602 for invalid params"),
    ('{"jsonrpc":"2.0","id":6,"method":"message/send","params":{"message":5}', None):
        (-32602, -32600, "as above"),
}


class Scripted(AgentExecutor):
    """Streams by the user's text: `answer` (text in three appended chunks, a data artifact, a
    completion message), `failure` (one chunk, then failed with a message), `input` (a question,
    then input-required)."""

    async def execute(self, context, event_queue):
        scenario = context.get_user_input().strip()
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        u = TaskUpdater(event_queue, task.id, task.context_id)
        await u.start_work(message=u.new_agent_message([a2a_pb2.Part(text="Working on it")]))
        await u.add_artifact([a2a_pb2.Part(text="Hel")], artifact_id="answer", name="answer",
                             metadata={"step": 1})
        if scenario == "failure":
            await u.failed(message=u.new_agent_message([a2a_pb2.Part(text="The tool broke")]))
            return
        if scenario == "input":
            await u.requires_input(message=u.new_agent_message([a2a_pb2.Part(text="Which city?")]))
            return
        await u.add_artifact([a2a_pb2.Part(text="lo, ")], artifact_id="answer", append=True,
                             metadata={"step": 2})
        await u.add_artifact([a2a_pb2.Part(text="world")], artifact_id="answer", append=True,
                             last_chunk=True)
        data = a2a_pb2.Part()
        data.data.struct_value.update({"city": "Hangzhou", "days": 3})
        await u.add_artifact([data], artifact_id="call", name="tool_call")
        await u.complete(message=u.new_agent_message([a2a_pb2.Part(text="Done")]))

    async def cancel(self, context, event_queue):
        u = TaskUpdater(event_queue, context.task_id, context.context_id)
        await u.cancel()


def app():
    card = a2a_pb2.AgentCard(
        name="Scripted", description="A scripted agent", version="1.0.0",
        capabilities=a2a_pb2.AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"], default_output_modes=["text/plain"],
        skills=[a2a_pb2.AgentSkill(id="script", name="Script", description="Scripted",
                                   tags=["test"])],
        supported_interfaces=[
            a2a_pb2.AgentInterface(url="http://testserver/a2a", protocol_binding="JSONRPC",
                                   protocol_version="1.0"),
            a2a_pb2.AgentInterface(url="http://testserver/a2a", protocol_binding="JSONRPC",
                                   protocol_version="0.3"),
        ],
    )
    handler = DefaultRequestHandler(agent_executor=Scripted(), task_store=InMemoryTaskStore(),
                                    agent_card=card)
    return Starlette(routes=create_jsonrpc_routes(handler, "/a2a", enable_v0_3_compat=True))


def send_body(version, text, n):
    if version == "v1":
        return {"jsonrpc": "2.0", "id": n, "method": "SendStreamingMessage",
                "params": {"message": {"messageId": f"m{n}", "role": "ROLE_USER",
                                       "parts": [{"text": text}]}}}
    return {"jsonrpc": "2.0", "id": n, "method": "message/stream",
            "params": {"message": {"kind": "message", "messageId": f"m{n}", "role": "user",
                                   "parts": [{"kind": "text", "text": text}]}}}


def task_id_of(first_event, version):
    result = first_event["result"]
    return result["task"]["id"] if version == "v1" else result["id"]


def streams(out):
    client = TestClient(app())
    n = 0
    for scenario in SCENARIOS:
        for version in ("v1", "v03"):
            n += 1
            headers = {"A2A-Version": "1.0"} if version == "v1" else {}
            with client.stream("POST", "/a2a", json=send_body(version, scenario, n),
                               headers=headers) as r:
                assert r.status_code == 200, r.status_code
                assert r.headers["content-type"].startswith("text/event-stream"), r.headers
                body = b"".join(r.iter_bytes())
            name = f"sdk-{scenario}-{version}"
            (out / f"{name}.sdk.sse").write_bytes(body)
            first = json.loads(next(l for l in body.splitlines() if l.startswith(b"data: "))[6:])
            task_id = task_id_of(first, version)
            get = ({"jsonrpc": "2.0", "id": "g", "method": "GetTask", "params": {"id": task_id}}
                   if version == "v1" else
                   {"jsonrpc": "2.0", "id": "g", "method": "tasks/get", "params": {"id": task_id}})
            answer = client.post("/a2a", json=get, headers=headers).json()
            assert "result" in answer, answer
            (out / f"{name}.task.json").write_text(json.dumps(answer["result"]), encoding="utf-8")
            print(f"a2a-sdk  {name}: {body.count(b'data: ')} events served by the SDK")


def compare(out):
    tasks = sorted(out.glob("sdk-*.task.json"))
    assert len(tasks) == 2 * len(SCENARIOS), tasks
    for path in tasks:
        name = path.name[: -len(".task.json")]
        sdk = json.loads(path.read_text(encoding="utf-8"))
        ours = json.loads((out / f"{name}.fold.json").read_text(encoding="utf-8"))
        if name.endswith("-v1"):
            # Canonical form: the SDK's store may order keys differently.
            sdk = json_format.MessageToDict(json_format.ParseDict(sdk, a2a_pb2.Task()))
            ours = json_format.MessageToDict(json_format.ParseDict(ours, a2a_pb2.Task()))
        assert ours == sdk, f"{name}: agentwire's fold differs from the SDK's task:\n ours {ours}\n sdk  {sdk}"
        assembled = json.loads((out / f"{name}.assembled.json").read_text(encoding="utf-8"))
        want = "a2a" if name.endswith("-v1") else "a2a-0.3"
        assert assembled["protocol"] == want, (name, assembled["protocol"])
        assert assembled["outcome"] != "Pending", (name, assembled["outcome"])
        texts = ["".join(c.get("text", "") for c in m.get("content") or [] if c.get("type") == "text")
                 for m in assembled["snapshot"].get("output") or []]
        for artifact in sdk.get("artifacts", []):
            text = "".join(p.get("text", "") for p in artifact["parts"])
            if text:
                assert text in texts, f"{name}: artifact text {text!r} not assembled: {texts}"
        print(f"a2a-sdk  {name}: agentwire's TaskFold equals the SDK's task "
              f"({len(sdk.get('artifacts', []))} artifacts, {len(sdk.get('history', []))} history); "
              f"assembled as {assembled['protocol']}, {assembled['outcome']}")
    compare_errors(out)


def compare_errors(out):
    """Each malformed request: the SDK server's error code equals agentwire's, and the SDK client
    reads agentwire's 1.0 answer as the same typed error as the SDK server's."""
    client = TestClient(app())
    transport = JsonRpcTransport.__new__(JsonRpcTransport)
    cases = json.loads((out / "rpc-errors.json").read_text(encoding="utf-8"))
    differ = []
    for case in cases:
        headers = {"content-type": "application/json"}
        if case["header"] is not None:
            headers["A2A-Version"] = case["header"]
        r = client.post("/a2a", content=case["body"].encode(), headers=headers)
        sdk = r.json()
        ours = case["answer"]
        assert "error" in sdk, (case, sdk)
        known = next((d for (prefix, header), d in DEVIATIONS.items()
                      if case["body"].startswith(prefix) and case["header"] == header), None)
        if known:
            assert (ours["error"]["code"], sdk["error"]["code"]) == known[:2], (case, sdk, known)
            continue
        if sdk["error"]["code"] != ours["error"]["code"]:
            differ.append((case["header"], case["body"][:70], ours["error"]["code"], sdk["error"]["code"]))
            continue
        if sdk.get("id") != ours.get("id"):
            differ.append((case["header"], case["body"][:70], f"id {ours.get('id')}", f"id {sdk.get('id')}"))
        if isinstance(ours["error"].get("data"), list):
            mine = transport._create_jsonrpc_error(ours["error"])
            theirs = transport._create_jsonrpc_error(sdk["error"])
            assert type(mine) is type(theirs), (case, mine, theirs)
    for d in differ:
        print("differs:", d)
    assert not differ, f"{len(differ)} error answers differ from a2a-sdk's"
    print(f"a2a-sdk  {len(cases) - len(DEVIATIONS)} malformed requests: agentwire answers each with "
          "the SDK server's JSON-RPC error code, read by the SDK client as the same error type; "
          f"{len(DEVIATIONS)} where the SDK deviates from the specification answer as recorded")


if __name__ == "__main__":
    {"streams": streams, "compare": compare}[sys.argv[1]](Path(sys.argv[2]))
