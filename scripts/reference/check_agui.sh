#!/usr/bin/env bash
# AG-UI output against the reference and the official models:
#  1. scripts/reference/agui_reference.py runs the reference's own AG-UI adapter (AgentApp's
#     /ag-ui route through FastAPI's TestClient, and the corpus streams replayed through it),
#     writing each Agent API input next to the adapter's AG-UI body, plus its RunAgentInput →
#     AgentRequest mappings;
#  2. examples/agui_scenarios.rs translates every input with agentwire, and writes builder runs
#     (protocol ag-ui) and agentwire's request mappings;
#  3. scripts/reference/check_agui.py validates every agentwire event against the AG-UI JSON
#     schema and ag-ui-protocol 1.0.0's models, and diffs agentwire's output with the
#     reference adapter's modulo the documented deviations.
# Usage: scripts/reference/check_agui.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${1:-}"
if [ -z "$OUT" ]; then
  OUT="$(mktemp -d)"
  trap 'rm -rf "$OUT"' EXIT
fi
.venv/bin/python scripts/reference/agui_reference.py "$OUT"
cargo run -q --example agui_scenarios -- "$OUT"
.venv/bin/python scripts/reference/check_agui.py "$OUT"
