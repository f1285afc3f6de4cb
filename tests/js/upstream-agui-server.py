# A real AG-UI server for tests/js/upstream.test.mjs: the `ag-ui-protocol` SDK's models and
# EventEncoder behind FastAPI on uvicorn, at 127.0.0.1 on the port given. It validates the body
# as the SDK's RunAgentInput, then answers: a tool call (arguments in two pieces), its result,
# and a text echoing the last user message.
import sys
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse
from ag_ui.core import (EventType, RunAgentInput, RunFinishedEvent, RunStartedEvent, TextMessageContentEvent,
                        TextMessageEndEvent, TextMessageStartEvent, ToolCallArgsEvent, ToolCallEndEvent,
                        ToolCallResultEvent, ToolCallStartEvent)
from ag_ui.encoder import EventEncoder

app = FastAPI()


@app.post("/agent")
async def agent(input: RunAgentInput, request: Request):
    encoder = EventEncoder(accept=request.headers.get("accept"))
    asked = next((m.content for m in reversed(input.messages) if m.role == "user"), "")

    async def events():
        yield encoder.encode(RunStartedEvent(type=EventType.RUN_STARTED, thread_id=input.thread_id, run_id=input.run_id))
        yield encoder.encode(ToolCallStartEvent(type=EventType.TOOL_CALL_START, tool_call_id="call_1", tool_call_name="get_weather"))
        yield encoder.encode(ToolCallArgsEvent(type=EventType.TOOL_CALL_ARGS, tool_call_id="call_1", delta='{"city":'))
        yield encoder.encode(ToolCallArgsEvent(type=EventType.TOOL_CALL_ARGS, tool_call_id="call_1", delta='"Oslo"}'))
        yield encoder.encode(ToolCallEndEvent(type=EventType.TOOL_CALL_END, tool_call_id="call_1"))
        yield encoder.encode(ToolCallResultEvent(type=EventType.TOOL_CALL_RESULT, message_id="r1", tool_call_id="call_1", content="-3°C"))
        yield encoder.encode(TextMessageStartEvent(type=EventType.TEXT_MESSAGE_START, message_id="m1", role="assistant"))
        yield encoder.encode(TextMessageContentEvent(type=EventType.TEXT_MESSAGE_CONTENT, message_id="m1", delta=f"You asked: {asked}"))
        yield encoder.encode(TextMessageEndEvent(type=EventType.TEXT_MESSAGE_END, message_id="m1"))
        yield encoder.encode(RunFinishedEvent(type=EventType.RUN_FINISHED, thread_id=input.thread_id, run_id=input.run_id))

    return StreamingResponse(events(), media_type=encoder.get_content_type())


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
