#!/usr/bin/env bash
# The reference accepts what the JS face emits: replay the builder scenarios
# (examples/builder_scenarios.rs) through the built package's ResponseBuilder, check that the
# JS bytes equal the Rust builder's (ids and timestamps aside), and check the JS streams, plus
# the example agent streamed through ResponseBuilder.stream(), with the real reference package
# (scripts/reference/check_builder.py). Usage: scripts/reference/check_builder_js.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
bash scripts/build.sh >/dev/null
cargo run -q --example builder_scenarios -- "$OUT/rust" >/dev/null
node scripts/reference/js_scenarios.mjs pkg "$OUT/rust" "$OUT/js"
.venv/bin/python scripts/reference/check_builder.py "$OUT/js"
