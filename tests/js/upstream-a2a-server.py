# A real A2A server for tests/js/upstream-a2a.test.mjs: a2a-sdk 1.x's own server machinery
# (DefaultRequestHandler, InMemoryTaskStore, TaskUpdater, create_jsonrpc_routes with 0.3
# compatibility on) in a Starlette app on uvicorn, at 127.0.0.1 on the port given. Run in the
# a2a-sdk 1.x virtualenv (.venv-a2a1); uvicorn is not installed there, so it is imported from the
# test virtualenv (.venv, given as the second argument) alone, which is then taken off the path
# again (that virtualenv holds a2a-sdk 0.3, which must not shadow 1.x).
#
# The executor answers by the user's text: "fail" fails the task with a message after a first
# chunk; anything else streams a working status, the text "Echo: <text>" as one artifact in
# three chunks, then completes.
import logging
import sys

from starlette.applications import Starlette

from a2a.helpers import new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import a2a_pb2

logging.disable(logging.CRITICAL)


class Echo(AgentExecutor):
    async def execute(self, context, event_queue):
        text = context.get_user_input().strip()
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
        u = TaskUpdater(event_queue, task.id, task.context_id)
        await u.start_work()
        answer = f"Echo: {text}"
        await u.add_artifact([a2a_pb2.Part(text=answer[:3])], artifact_id="answer", name="answer")
        if text == "fail":
            await u.failed(message=u.new_agent_message([a2a_pb2.Part(text="The tool broke")]))
            return
        await u.add_artifact([a2a_pb2.Part(text=answer[3:7])], artifact_id="answer", append=True)
        await u.add_artifact([a2a_pb2.Part(text=answer[7:])], artifact_id="answer", append=True,
                             last_chunk=True)
        await u.complete()

    async def cancel(self, context, event_queue):
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def app(port):
    url = f"http://127.0.0.1:{port}/a2a"
    card = a2a_pb2.AgentCard(
        name="Echo", description="Echoes the user's text", version="1.0.0",
        capabilities=a2a_pb2.AgentCapabilities(streaming=True),
        default_input_modes=["text/plain"], default_output_modes=["text/plain"],
        skills=[a2a_pb2.AgentSkill(id="echo", name="Echo", description="Echo", tags=["test"])],
        supported_interfaces=[
            a2a_pb2.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0"),
            a2a_pb2.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="0.3"),
        ],
    )
    handler = DefaultRequestHandler(agent_executor=Echo(), task_store=InMemoryTaskStore(),
                                    agent_card=card)
    return Starlette(routes=create_jsonrpc_routes(handler, "/a2a", enable_v0_3_compat=True))


def load_uvicorn(venv):
    site = f"{venv}/lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages"
    sys.path.append(site)
    try:
        import uvicorn
    finally:
        sys.path.remove(site)
    return uvicorn


if __name__ == "__main__":
    port = int(sys.argv[1])
    uvicorn = load_uvicorn(sys.argv[2])
    # h11 and asyncio: both in this virtualenv (no optional accelerators from the other one).
    uvicorn.run(app(port), host="127.0.0.1", port=port, log_level="warning", http="h11",
                loop="asyncio", ws="none", lifespan="off")
