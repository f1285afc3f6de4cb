"""a2a-sdk 1.x's own client against agentwire's AgentApp: in 1.0 mode, and against the 0.3
interface of the same card (the SDK's compatibility transport), streamed and not. Each gets the
scripted agent's text, its tool call with arguments and the result, as the SDK aggregates them;
`GetTask` returns the task and an unknown task raises the SDK's `TaskNotFoundError`. Then, with a
slow agent: the SDK's `subscribe` to a running task gets the task first and the rest of the run
(nothing lost or doubled), and `cancel_task` stops a running task (its state `canceled`).

Usage: .venv-a2a1/bin/python scripts/reference/app_a2a_client.py PKG_DIR
"""

import asyncio
import logging
import sys
import warnings

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

import httpx
from google.protobuf import json_format

from a2a.client import A2ACardResolver, ClientConfig, create_client
from a2a.types import a2a_pb2
from a2a.utils.errors import TaskNotFoundError

from app_node import NodeApp


def texts_and_data(task):
    texts, data = [], []
    for artifact in task.artifacts:
        for part in artifact.parts:
            kind = part.WhichOneof("content")
            if kind == "text":
                texts.append(part.text)
            elif kind == "data":
                data.append(json_format.MessageToDict(part.data))
    return "".join(texts), data


async def run(base, version, streaming):
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(http, base).get_agent_card()
        assert [i.protocol_version for i in card.supported_interfaces] == ["1.0", "0.3"], card
        if version == "0.3":
            del card.supported_interfaces[0]
        client = await create_client(card, ClientConfig(streaming=streaming, httpx_client=http))
        message = a2a_pb2.Message(message_id="u1", role=a2a_pb2.Role.ROLE_USER, parts=[a2a_pb2.Part(text="Weather?")])
        task = None
        events = 0
        async for response in client.send_message(a2a_pb2.SendMessageRequest(message=message)):
            events += 1
            if response.HasField("task"):
                task = response.task
            elif response.HasField("status_update") and task is not None:
                task.status.CopyFrom(response.status_update.status)
            elif response.HasField("artifact_update") and task is not None:
                from a2a.server.tasks.task_manager import append_artifact_to_task
                append_artifact_to_task(task, response.artifact_update)
        assert task is not None, "no task"
        assert task.status.state == a2a_pb2.TaskState.TASK_STATE_COMPLETED, task.status
        text, data = texts_and_data(task)
        assert text == "Sunny in Hangzhou", text
        assert data == [{"call_id": "call_1", "name": "get_weather", "arguments": '{"city":"Hangzhou"}'},
                        {"call_id": "call_1", "name": "get_weather", "output": "Sunny"}], data
        got = await client.get_task(a2a_pb2.GetTaskRequest(id=task.id))
        assert texts_and_data(got) == (text, data), got
        try:
            await client.get_task(a2a_pb2.GetTaskRequest(id="task_unknown"))
            raise AssertionError("an unknown task was found")
        except TaskNotFoundError:
            pass
        await client.close()
        print(f"a2a-sdk client  {version} {'streamed' if streaming else 'not streamed'}: {events} events, "
              "text, tool call and result received; GetTask and TaskNotFoundError as the SDK reads them")


def text_of(response):
    if response.HasField("artifact_update"):
        return "".join(p.text for p in response.artifact_update.artifact.parts)
    return ""


async def subscribe_and_cancel(base, version):
    async with httpx.AsyncClient() as http:
        card = await A2ACardResolver(http, base).get_agent_card()
        if version == "0.3":
            del card.supported_interfaces[0]
        client = await create_client(card, ClientConfig(streaming=True, httpx_client=http))
        message = a2a_pb2.Message(message_id="u1", role=a2a_pb2.Role.ROLE_USER, parts=[a2a_pb2.Part(text="Go")])
        text, task_id = "", None
        stream = client.send_message(a2a_pb2.SendMessageRequest(message=message))
        async for response in stream:
            if response.HasField("task"):
                task_id = response.task.id
            text += text_of(response)
            if len(text) > 10:
                break
        await stream.aclose()
        events = [r async for r in client.subscribe(a2a_pb2.SubscribeToTaskRequest(id=task_id))]
        assert events[0].HasField("task"), events[0]
        before = "".join(p.text for a in events[0].task.artifacts for p in a.parts)
        after = "".join(text_of(r) for r in events[1:])
        assert before + after == "".join(f"w{i} " for i in range(40)), (before, after)
        message2 = a2a_pb2.Message(message_id="u2", role=a2a_pb2.Role.ROLE_USER, parts=[a2a_pb2.Part(text="Go")])
        stream = client.send_message(a2a_pb2.SendMessageRequest(message=message2))
        async for response in stream:
            running = response.task.id
            break
        await stream.aclose()
        canceled = await client.cancel_task(a2a_pb2.CancelTaskRequest(id=running))
        assert canceled.status.state == a2a_pb2.TaskState.TASK_STATE_CANCELED, canceled.status
        await client.close()
        print(f"a2a-sdk client  {version}: subscribe to a running task gives the task, then the rest "
              f"({len(events) - 1} events, nothing lost or doubled); cancel_task stops a running task")


async def main(pkg):
    with NodeApp(pkg) as base:
        for version in ("1.0", "0.3"):
            for streaming in (True, False):
                await run(base, version, streaming)
    with NodeApp(pkg, "slow") as base:
        for version in ("1.0", "0.3"):
            await subscribe_and_cancel(base, version)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "pkg"))
