#!/usr/bin/env bash
# Runs agentwire's test suites: scripts/test.sh [suite...]
# Suites, in the default order: rust wasm reference build node conformance tck hostile deno workerd browser handlers readme vite e2e.
# The JS suites test the packed tarball (npm pack of pkg/), installed into a throwaway project.
# Prints one summary line per suite at the end; exits non-zero if any suite failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
ALL=(rust wasm reference build node conformance tck hostile deno workerd browser handlers readme vite e2e)
SUITES=("$@"); [ ${#SUITES[@]} -eq 0 ] && SUITES=("${ALL[@]}")

declare -A RESULT TIME
banner() { printf '\n=== %s ===\n' "$*"; }
run() { echo "+ $*"; "$@"; }

PROJECT=""
cleanup() { [ -n "$PROJECT" ] && rm -rf "$PROJECT"; }
trap cleanup EXIT

# Builds pkg/ (if needed), packs it, and installs the tarball into a fresh temp project together
# with tests/js/, the shared fixtures and the JS examples. Done once per run, shared by the JS
# suites.
project() {
  [ -n "$PROJECT" ] && return 0
  bash scripts/build.sh >/dev/null || return 1
  PROJECT=$(mktemp -d "${TMPDIR:-/tmp}/agentwire-js.XXXXXX")
  local tarball
  tarball=$(cd "$PROJECT" && npm pack --silent "$ROOT/pkg") || return 1
  cp -r tests/js "$PROJECT/tests"
  # The conformance suites' systems under test (they import only agentwire and node: modules).
  cp -r scripts/conformance "$PROJECT/conformance"
  cp bench/fixtures.mjs "$PROJECT/tests/fixtures.mjs"
  cp -r tests/fixtures/reference "$PROJECT/tests/reference"
  mkdir -p "$PROJECT/examples"
  cp -r examples/shared examples/node examples/deno examples/worker "$PROJECT/examples/"
  printf '{"name":"agentwire-smoke","private":true,"type":"module"}\n' > "$PROJECT/package.json"
  (cd "$PROJECT" && npm install --silent --offline --no-audit --no-fund "./$tarball") || return 1
  # The official OpenAI client, for tests/js/openai.test.mjs (Node only).
  ln -s "$ROOT/node_modules/openai" "$PROJECT/node_modules/openai"
  # The optional peer of AgentApp's WebSocket mode on Node (app.nodeUpgrade).
  ln -s "$ROOT/node_modules/ws" "$PROJECT/node_modules/ws"
  echo "[test] installed $tarball into $PROJECT"
}

suite_rust() {
  # The module graph: acyclic, every use running down the layers of ARCHITECTURE.md.
  run node scripts/check-modules.mjs &&
  run cargo fmt --check &&
  run cargo clippy --quiet --all-targets -- -D warnings &&
  run cargo clippy --quiet --target wasm32-unknown-unknown --all-targets -- -D warnings &&
  # The lite build (agentwire/lite): without the default `full` feature.
  run cargo clippy --quiet --target wasm32-unknown-unknown --no-default-features --features lite --lib -- -D warnings &&
  run cargo clippy --quiet --no-default-features --features lite --all-targets -- -D warnings &&
  # The client build (agentwire/client): every protocol read, no writer exported.
  run cargo clippy --quiet --target wasm32-unknown-unknown --no-default-features --features client,lite --lib -- -D warnings &&
  run cargo clippy --quiet --no-default-features --features client,lite --all-targets -- -D warnings &&
  # Features are additive: every combination compiles, with its tests.
  run cargo clippy --quiet --all-features --all-targets -- -D warnings &&
  run cargo check --quiet --no-default-features --all-targets &&
  RUSTDOCFLAGS="-D warnings" run cargo doc --no-deps --quiet &&
  run cargo test --quiet &&
  # The lite build reads numbers differently (src/protocol/number.rs): every test that applies
  # to it (the AG-UI and OpenAI/A2A tests are full-only) runs against it too.
  run cargo test --quiet --no-default-features --features lite &&
  run cargo test --quiet --all-features
}

suite_wasm() {
  # The config runner (wasm-bindgen-test-runner) runs tests/wasm_node.rs in Node and
  # tests/wasm_browser.rs in headless Chromium via chromedriver (webdriver.json sets the flags).
  run timeout 600 cargo test --target wasm32-unknown-unknown
}

suite_reference() {
  if [ -f scripts/reference/check.sh ]; then
    run bash scripts/reference/check.sh &&
    run bash scripts/reference/check_builder.sh &&
    run bash scripts/reference/check_adapters.sh &&
    run bash scripts/reference/check_agui.sh &&
    run bash scripts/reference/check_builder_js.sh &&
    # Three chat turns with a live reference server (uvicorn), histories made by nextTurn.
    run bash scripts/build.sh >/dev/null &&
    run .venv/bin/python scripts/reference/three_turns.py pkg &&
    # AgentApp: the Python openai client and the reference's AgentApp side by side; a2a-sdk
    # 1.x's client in 1.0 mode and against the 0.3 interface.
    (cd scripts/reference && run ../../.venv/bin/python app_clients.py ../../pkg) &&
    (cd scripts/reference && run ../../.venv-a2a1/bin/python app_a2a_client.py ../../pkg)
  else
    echo "skipped: scripts/reference/check.sh does not exist yet"
    RESULT[reference]=skipped
  fi
}

suite_build() {
  ENFORCE_SIZE=1 run bash scripts/build.sh
}

suite_node() {
  project || return 1
  (cd "$PROJECT" && AGENTWIRE_ROOT="$ROOT" AGENTWIRE_TSC="$ROOT/node_modules/typescript/bin/tsc" \
    AGENTWIRE_TSC7="$ROOT/node_modules/typescript7/bin/tsc" \
    run timeout 900 node --test --test-reporter=tap tests/*.test.mjs)
}

suite_conformance() {
  project || return 1
  # The protocols' own conformance suites, read where they live: ../shared/conformance beside the
  # repository (AGENTWIRE_CONFORMANCE names another place), never copied in. Here the Open
  # Responses compliance suite (run by bun, pinned in devDependencies) against AgentApp's
  # Responses route; the AG-UI corpus runs in the rust and node suites.
  (cd "$PROJECT" && AGENTWIRE_ROOT="$ROOT" run timeout 300 node tests/runners/openresponses.mjs "$PROJECT")
}

suite_tck() {
  # The A2A TCK (MUST requirements, JSON-RPC) against AgentApp; it lives outside the repository
  # (A2A_TCK overrides where) and runs from a temporary copy. Fails when a requirement of
  # tests/js/runners/a2a-tck-expected.json no longer passes.
  local tck=${A2A_TCK:-${AGENTWIRE_CONFORMANCE:-$ROOT/../shared/conformance}/a2a-tck}
  if [ -n "${SKIP_PYTHON:-}" ]; then
    echo "skipped: SKIP_PYTHON is set (the TCK is Python)"
    RESULT[tck]=skipped
    return 0
  fi
  if [ ! -f "$tck/run_tck.py" ]; then
    echo "no A2A TCK at $tck: the protocols' conformance suites live in ../shared/conformance beside the repository (A2A_TCK or AGENTWIRE_CONFORMANCE name another place)" >&2
    return 1
  fi
  project || return 1
  (cd "$PROJECT" && A2A_TCK="$tck" AGENTWIRE_ROOT="$ROOT" \
    run timeout 300 node "$ROOT/tests/js/runners/a2a-tck.mjs" "$PROJECT")
}

suite_hostile() {
  project || return 1
  # tests/js/hostile-cases.mjs against the packed package, each case in its own Node process (a
  # trap fails the case, not the suite), each followed by a check that agentwire still works.
  # The browser suite runs the same cases in one page.
  (cd "$PROJECT" && run timeout 600 node tests/runners/hostile.mjs "$PROJECT")
}

suite_deno() {
  project || return 1
  # The same node:test file, under `deno test`; "agentwire" resolves from the project's
  # node_modules through the `deno` export condition.
  (cd "$PROJECT" && NO_COLOR=1 DENO_NO_UPDATE_CHECK=1 DENO_DIR="$ROOT/target/deno-cache" \
    run timeout 180 "$ROOT/node_modules/.bin/deno" test --quiet --no-check --allow-read --allow-env \
    tests/agentwire.test.mjs tests/lite.test.mjs tests/client.test.mjs) &&
  # AgentApp under Deno.serve on 127.0.0.1.
  (cd "$PROJECT" && NO_COLOR=1 DENO_NO_UPDATE_CHECK=1 DENO_DIR="$ROOT/target/deno-cache" \
    run timeout 180 "$ROOT/node_modules/.bin/deno" test --quiet --no-check --allow-read --allow-env \
    --allow-net=127.0.0.1 tests/deno-app.mjs) &&
  # RedisRunStore under Deno.serve through a Redis outage (the test starts and kills redis-server).
  (cd "$PROJECT" && AGENTWIRE_ROOT="$ROOT" NO_COLOR=1 DENO_NO_UPDATE_CHECK=1 DENO_DIR="$ROOT/target/deno-cache" \
    run timeout 180 "$ROOT/node_modules/.bin/deno" test --quiet --no-check --allow-read --allow-env \
    --allow-net=127.0.0.1 --allow-run=redis-server tests/deno-redis-outage.mjs)
}

suite_workerd() {
  project || return 1
  (cd "$PROJECT" && run timeout 180 node "$ROOT/tests/js/runners/workerd.mjs" "$PROJECT") &&
    (cd "$PROJECT" && run timeout 240 node "$ROOT/tests/js/runners/durable.mjs" "$PROJECT")
}

suite_browser() {
  project || return 1
  # The shared cases in a page, then the end-to-end run: fetch() of adversarially chunked streams
  # from a local server, assembled and rendered into the DOM.
  local ok=0
  (cd "$PROJECT" && run timeout 300 node "$ROOT/tests/js/runners/browser.mjs" "$PROJECT") || ok=1
  (cd "$PROJECT" && run timeout 240 node "$ROOT/tests/js/runners/browser-e2e.mjs" "$PROJECT") || ok=1
  return $ok
}

suite_handlers() {
  project || return 1
  # The example servers (examples/{node,deno,worker}) on 127.0.0.1, checked over HTTP.
  (cd "$PROJECT" && AGENTWIRE_DENO="$ROOT/node_modules/.bin/deno" DENO_DIR="$ROOT/target/deno-cache" \
    run timeout 300 node "$ROOT/tests/js/runners/handlers.mjs" "$PROJECT")
}

suite_readme() {
  project || return 1
  # The package README's examples (from the packed copy) in their runtimes: browser (Chromium),
  # Node, Deno, workerd; its Vite config must be tests/vite's.
  (cd "$PROJECT" && AGENTWIRE_DENO="$ROOT/node_modules/.bin/deno" DENO_DIR="$ROOT/target/deno-cache" \
    run timeout 240 node "$ROOT/tests/js/runners/readme.mjs" "$PROJECT")
}

suite_vite() {
  project || return 1
  # A Vite 7 app (tests/vite/) installs the packed tarball, is built with `vite build` and run
  # in headless Chromium, and from the dev server; also records that `sideEffects: false`
  # would break it. Needs the npm registry for vite (pinned in tests/vite/package.json).
  run timeout 420 node tests/vite/run.mjs "$(ls "$PROJECT"/agentwire-*.tgz)"
}

suite_e2e() {
  project || return 1
  # The demo (`npm start`: www/serve.mjs, workerd via miniflare) driven in headless Chromium;
  # saves test-results/demo.png.
  run timeout 300 node tests/e2e/demo.mjs "$PROJECT"
}

START=$(date +%s)
for s in "${SUITES[@]}"; do
  if ! declare -F "suite_$s" >/dev/null; then echo "unknown suite: $s (known: ${ALL[*]})" >&2; exit 2; fi
  banner "$s"
  t0=$(date +%s)
  if "suite_$s"; then RESULT[$s]=${RESULT[$s]:-pass}; else RESULT[$s]=FAIL; fi
  TIME[$s]=$(( $(date +%s) - t0 ))
  echo "--- $s: ${RESULT[$s]} (${TIME[$s]}s)"
done

banner "summary"
FAILED=0
for s in "${SUITES[@]}"; do
  printf '%-10s %-8s %4ss\n' "$s" "${RESULT[$s]}" "${TIME[$s]}"
  [ "${RESULT[$s]}" = FAIL ] && FAILED=1
done
printf 'total %ss\n' "$(( $(date +%s) - START ))"
exit $FAILED
