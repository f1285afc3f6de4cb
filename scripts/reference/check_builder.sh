#!/usr/bin/env bash
# The reference accepts what the builder emits: generate agentwire's builder streams for a set
# of scenarios (examples/builder_scenarios.rs) and check them with the real reference package
# (scripts/reference/check_builder.py). Usage: scripts/reference/check_builder.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${1:-}"
if [ -z "$OUT" ]; then
  OUT="$(mktemp -d)"
  trap 'rm -rf "$OUT"' EXIT
fi
cargo run -q --example builder_scenarios -- "$OUT"
.venv/bin/python scripts/reference/check_builder.py "$OUT"
