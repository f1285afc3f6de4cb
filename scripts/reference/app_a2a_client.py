"""a2a-sdk 1.x's own client against agentwire's AgentApp: in 1.0 mode, and against the 0.3
interface of the same card (the SDK's compatibility transport), streamed and not. Each gets the
scripted agent's text, its tool call with arguments and the result, as the SDK aggregates them;
`GetTask` returns the task and an unknown task raises the SDK's `TaskNotFoundError`.

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


async def main(pkg):
    with NodeApp(pkg) as base:
        for version in ("1.0", "0.3"):
            for streaming in (True, False):
                await run(base, version, streaming)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "pkg"))
