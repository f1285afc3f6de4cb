"""The reference side of bench/app.mjs: agentscope-runtime's AgentApp on uvicorn (127.0.0.1, a
free port printed as `listening <port>`), a text runner without delays yielding DELTAS pieces
(the reference sends one delta event per piece, with the run's other events)."""

import logging
import os
import socket
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("AGENTSCOPE_RUNTIME_LOG_LEVEL", "ERROR")
logging.disable(logging.CRITICAL)

import uvicorn
from agentscope_runtime.engine import Runner
from agentscope_runtime.engine.app import AgentApp

DELTAS = int(os.environ.get("DELTAS", "194"))


class TextRunner(Runner):
    def __init__(self):
        super().__init__()
        self.framework_type = "text"

    async def query_handler(self, request=None, **kwargs):
        for i in range(DELTAS):
            yield f"word{i} "


with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
print(f"listening {port}", flush=True)
uvicorn.run(AgentApp(runner=TextRunner()), host="127.0.0.1", port=port, log_level="error", access_log=False)
