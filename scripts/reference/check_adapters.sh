#!/usr/bin/env bash
# The official SDKs accept what the adapters emit: translate the reference captures and builder
# runs to A2A and OpenAI Responses (examples/adapter_scenarios.rs) and parse every event with the
# a2a-sdk and openai Python types (scripts/reference/check_adapters.py), and the A2A 1.0 streams
# with a2a-sdk 1.x (scripts/reference/check_a2a_v1.py, in .venv-a2a1); then the other way: streams
# served by a2a-sdk 1.x's own server are folded and assembled by agentwire and compared with the
# SDK's own task, and agentwire's JSON-RPC errors with the SDK server's
# (scripts/reference/a2a_sdk_server.py).
# Usage: scripts/reference/check_adapters.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${1:-}"
if [ -z "$OUT" ]; then
  OUT="$(mktemp -d)"
  trap 'rm -rf "$OUT"' EXIT
fi
cargo run -q --example adapter_scenarios -- "$OUT"
.venv/bin/python scripts/reference/check_adapters.py "$OUT"
.venv-a2a1/bin/python scripts/reference/check_a2a_v1.py "$OUT"
.venv-a2a1/bin/python scripts/reference/a2a_sdk_server.py streams "$OUT"
cargo run -q --example adapter_scenarios -- fold "$OUT"
.venv-a2a1/bin/python scripts/reference/a2a_sdk_server.py compare "$OUT"
