#!/usr/bin/env bash
# Differential check against the live reference implementation.
#
# Regenerates the corpus with the real agentscope-runtime (the .venv made by scripts/setup.sh)
# into a temporary directory, then runs the native corpus test against it:
#   AGENTWIRE_CORPUS_DIR=<tmp> cargo test --test reference_corpus
# The committed corpus (tests/fixtures/reference) is what plain `cargo test` checks; this script
# proves the same against whatever the installed reference produces today.
#
# Set SKIP_PYTHON=1 (as for setup.sh) to skip when no virtualenv is available.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

PY=.venv/bin/python
if [ ! -x "$PY" ]; then
  if [ -n "${SKIP_PYTHON:-}" ]; then
    echo "reference check skipped (SKIP_PYTHON set, no .venv)"
    exit 0
  fi
  echo "error: $PY not found; run scripts/setup.sh (or set SKIP_PYTHON=1 to skip)" >&2
  exit 1
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/agentwire-corpus.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "generating the reference corpus in $TMP"
"$PY" scripts/reference/gen_corpus.py "$TMP"
AGENTWIRE_CORPUS_DIR="$TMP" cargo test --quiet --test reference_corpus
