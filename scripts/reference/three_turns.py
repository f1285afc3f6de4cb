"""A three-turn chat with a live reference AgentApp (agentscope-runtime, served by uvicorn on
127.0.0.1), driven by agentwire's `nextTurn` (scripts/reference/three_turns.mjs): over `/process`
and over `/ag-ui`, the history the reference hands its agent must grow by the run's messages and
the user's new one each turn, in order.

Usage: .venv/bin/python scripts/reference/three_turns.py PKG_DIR
"""

import json
import os
import socket
import subprocess
import sys
import threading
import time
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("AGENTSCOPE_RUNTIME_LOG_LEVEL", "ERROR")

import logging

logging.disable(logging.CRITICAL)

import uvicorn

from agentscope_runtime.engine import Runner
from agentscope_runtime.engine.app import AgentApp

PKG = sys.argv[1] if len(sys.argv) > 1 else "pkg"


def describe(m):
    kind = getattr(m, "type", None) or "message"
    kind = getattr(kind, "value", kind)
    role = getattr(m, "role", None)
    role = getattr(role, "value", role)
    return f"{role}:{kind}"


class HistoryRunner(Runner):
    """Answers with the history it was handed: `<n>|role:type,role:type,…`."""

    def __init__(self):
        super().__init__()
        self.framework_type = "text"

    async def query_handler(self, request=None, **kwargs):
        history = list(request.input or [])
        yield f"{len(history)}|" + ",".join(describe(m) for m in history)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    port = free_port()
    app = AgentApp(runner=HistoryRunner())
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        script = os.path.join(os.path.dirname(__file__), "three_turns.mjs")
        out = subprocess.run(["node", script, os.path.abspath(PKG), f"http://127.0.0.1:{port}"],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        turns = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert len(turns) == 6, turns
    want = {
        1: "1|user:message",
        2: "3|user:message,assistant:message,user:message",
        3: "5|user:message,assistant:message,user:message,assistant:message,user:message",
    }
    for t in turns:
        assert t["outcome"] == "completed", t
        assert t["answer"] == want[t["turn"]], (t, want[t["turn"]])
    print(f"three_turns: {len(turns)} turns over /process and /ag-ui, history grew 1, 3, 5")


if __name__ == "__main__":
    main()
