"""Times the Python reference builder (agentscope-runtime 1.1.6.post2) on text deltas, the way
its runner emits them: `ContentBuilder.add_text_delta(token)`, the runner's sequence number,
`model_dump_json()`, SSE framing, UTF-8 encoding.

Usage: .venv/bin/python bench/reference/builder_python.py N < tokens.json
Prints {"events": N, "ms": best of 3 runs, "cpu_ms": best CPU time (time.process_time) of 3}.
"""

import json
import logging
import sys
import time
import warnings

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

from agentscope_runtime.engine.helpers.agent_api_builder import ResponseBuilder  # noqa: E402


def run(tokens):
    rb = ResponseBuilder(session_id="s1", response_id="resp_1")
    mb = rb.create_message_builder()
    cb = mb.create_content_builder("text")
    total = 0
    seq = 3
    for token in tokens:
        event = cb.add_text_delta(token)
        event.sequence_number = seq
        seq += 1
        total += len(f"data: {event.model_dump_json()}\n\n".encode("utf-8"))
    return total


def main():
    n = int(sys.argv[1])
    tokens = json.load(sys.stdin)[:n]
    best = cpu = float("inf")
    for _ in range(3):
        t, c = time.perf_counter(), time.process_time()
        run(tokens)
        best = min(best, (time.perf_counter() - t) * 1000)
        cpu = min(cpu, (time.process_time() - c) * 1000)
    print(json.dumps({"events": len(tokens), "ms": best, "cpu_ms": cpu}))


if __name__ == "__main__":
    main()
