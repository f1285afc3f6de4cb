#!/usr/bin/env python3
"""Writes a seed corpus for the `push` target into fuzz/corpus/push/: the reference SSE
captures, the AG-UI conformance streams (as SSE) and a few bench-shaped text deltas, each with
two seeded cut points in the target's input layout (see decode_fuzz_input in
tests/assembler_harness/mod.rs). Run from anywhere; existing corpus files are kept."""
import glob
import json
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "corpus", "push")
MAX = 3500  # below the documented -max_len=4096, with room for the header
rng = random.Random(0xC0FFEE)


def write(name, body):
    body = body[:MAX]
    cuts = [rng.randrange(len(body) + 1) for _ in range(2)]
    header = bytes([0, 2]) + b"".join(bytes([c & 255, c >> 8]) for c in cuts)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(header + body)


os.makedirs(OUT, exist_ok=True)
for path in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/reference/sse/*.sse"))):
    write("ref-" + os.path.basename(path), open(path, "rb").read())
for path in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/ag-ui-conformance/streams/*.json"))):
    stream = json.load(open(path))["stream"]
    body = "".join("data: " + json.dumps(e, separators=(",", ":"), ensure_ascii=False) + "\n\n" for e in stream)
    write("agui-" + os.path.basename(path)[:-5], body.encode())
deltas = "".join(
    'data: {"sequence_number":%d,"object":"content","status":"in_progress","error":null,"type":"text",'
    '"index":0,"delta":true,"msg_id":"msg_1","text":"%s"}\n\n' % (i, t)
    for i, t in enumerate(["Hel", "lo \\\"w\\u00e9\\ud83d\\ude00", "中文 👩‍💻", "\\\\n"]))
write("deltas", deltas.encode())
print(f"seeds in {OUT}: {len(os.listdir(OUT))} files")
