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
# Numbers in every form the two builds must read alike (src/protocol/number.rs): data deltas that
# add up, Python's spellings, 17-digit doubles, integers past 2^53 and 2^64, -0, 1E2, overflow,
# numbers in streamed and object tool arguments, an index written as a float.
numbers = [
    '{"sequence_number":0,"object":"response","status":"created","id":"r1"}',
    '{"sequence_number":1,"object":"message","status":"in_progress","id":"m1","type":"message","role":"assistant"}',
    '{"sequence_number":2,"object":"content","status":"in_progress","type":"data","index":0,"delta":true,"msg_id":"m1","data":{"s":0.1,"n":1e15,"x":1.0,"b":9007199254740993}}',
    '{"sequence_number":3,"object":"content","status":"in_progress","type":"data","index":0,"delta":true,"msg_id":"m1","data":{"s":0.2,"n":9e15,"x":2,"d":[0.12345678901234568,-0,1E2,5e-324,123456789012345678901234]}}',
    '{"sequence_number":4,"object":"content","status":"completed","type":"data","index":1.0,"delta":false,"msg_id":"m1","data":{"s":0.30000000000000004,"n":1e+16,"o":1e400}}',
    '{"sequence_number":5,"object":"message","status":"in_progress","id":"c1","type":"function_call","role":"assistant"}',
    '{"sequence_number":6,"object":"content","status":"in_progress","type":"data","index":0,"delta":true,"msg_id":"c1","data":{"call_id":"k","arguments":"{\\"lat\\": 30.27"}}',
    '{"sequence_number":7,"object":"content","status":"completed","type":"data","index":0,"delta":false,"msg_id":"c1","data":{"call_id":"k","arguments":{"v":-1.5e-7,"$serde_json::private::Number":"7"}}}',
    '1.5',
    '{"sequence_number":8,"object":"response","status":"completed","id":"r1","usage":{"input_tokens":1.0}}',
]
write("numbers", "".join("data: " + e + "\n\n" for e in numbers).encode())
print(f"seeds in {OUT}: {len(os.listdir(OUT))} files")
