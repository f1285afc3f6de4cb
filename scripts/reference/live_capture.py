"""Capture what a live reference `AgentApp` (agentscope-runtime 1.1.6.post2) sends on each of its
protocol routes for the same scripted runs (no LLM: the runners of gen_corpus.py), as fixtures.

Usage: .venv/bin/python scripts/reference/live_capture.py [OUT_DIR]

Writes <run>.<route>.sse under OUT_DIR (default tests/fixtures/reference/live), one per route:
  process    POST /process                      (Agent API)
  responses  POST /compatible-mode/v1/responses (OpenAI Responses, stream: true)
  agui       POST /ag-ui                        (AG-UI)

The Responses stream of a run with reasoning shows the reference's faults (reasoning deltas
repeated, `output_item.done` with another item's `output_index`): agentwire must assemble what
the items' ids say. Everything written is reference output; the script only feeds inputs.
"""

import os
import sys
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("AGENTSCOPE_RUNTIME_LOG_LEVEL", "ERROR")

import logging

logging.disable(logging.CRITICAL)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fastapi.testclient import TestClient

from agentscope_runtime.engine.app import AgentApp

import gen_corpus  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(__file__), "..", "..", "tests", "fixtures", "reference", "live")
os.makedirs(OUT, exist_ok=True)
for _d in ("events", "sse"):
    try:
        os.rmdir(os.path.join(gen_corpus.OUT, _d))
    except OSError:
        pass

RUNS = {
    "text": lambda: gen_corpus.TextRunner(["Hi", "! My name is Friday", "."]),
    "text_error": lambda: gen_corpus.TextRunner(["Hi", " there"], fail_after=1),
    "unicode": lambda: gen_corpus.TextRunner(["日本", "語 😀", "e\u0301"]),
    "agentscope": gen_corpus.AgentscopeRunner,
}

TEXT = "你好"
BODIES = {
    "process": {"input": [{"role": "user", "type": "message", "content": [{"type": "text", "text": TEXT}]}],
                "session_id": "s1"},
    "responses": {"model": "scripted", "input": TEXT, "stream": True},
    "agui": {"threadId": "thr-1", "runId": "run-1", "messages": [{"id": "u1", "role": "user", "content": TEXT}]},
}
ROUTES = {"process": "/process", "responses": "/compatible-mode/v1/responses", "agui": "/ag-ui"}


def main():
    n = 0
    for run, make in RUNS.items():
        for route, path in ROUTES.items():
            app = AgentApp(runner=make())
            with TestClient(app) as client:
                resp = client.post(path, json=BODIES[route])
            assert resp.status_code == 200, (run, route, resp.status_code, resp.text[:200])
            with open(os.path.join(OUT, f"{run}.{route}.sse"), "w", encoding="utf-8", newline="") as f:
                f.write(resp.text)
            n += 1
    print(f"wrote {n} live reference streams to {OUT}")


if __name__ == "__main__":
    main()
