#!/usr/bin/env bash
# Idempotent set-up of everything agentwire's build and tests need, on a fresh Debian machine.
# Every step checks first and is a no-op when its tool is already there at the right version.
#
#   SKIP_BROWSER=1   skip Chromium/chromedriver (no browser tests possible then)
#   SKIP_PYTHON=1    skip the Python reference virtualenv (no differential tests possible then)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
log() { printf '[setup] %s\n' "$*" >&2; }

# 1. Rust: the wasm target and the lint/format components.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in clippy rustfmt; do
  rustup component list --installed | grep -q "^$component" || rustup component add "$component"
done

# 2. wasm-bindgen CLI at exactly the version of the wasm-bindgen crate in Cargo.lock.
WB=$(awk '$0=="name = \"wasm-bindgen\""{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
if [ -z "$WB" ]; then echo "[setup] wasm-bindgen not found in Cargo.lock" >&2; exit 1; fi
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WB" ] \
   || [ "$(wasm-bindgen-test-runner --version 2>/dev/null || true)" != "wasm-bindgen-test-runner $WB" ]; then
  log "installing wasm-bindgen-cli $WB (takes a few minutes)"
  # No --locked: the CLI's own lockfile pins a crate version the registry mirror lacks.
  # --no-default-features drops rustls/ring: the test runner only talks to 127.0.0.1.
  cargo install wasm-bindgen-cli --version "$WB" --no-default-features --force
fi

# 3. Headless Chromium and its driver, from Debian (never a browser download).
if [ -z "${SKIP_BROWSER:-}" ] && ! { command -v chromium && command -v chromedriver; } >/dev/null 2>&1; then
  log "installing chromium and chromium-driver from Debian"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# 3b. redis-server from Debian: the RedisRunStore tests start their own on 127.0.0.1.
if ! command -v redis-server >/dev/null 2>&1; then
  log "installing redis-server from Debian"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq redis-server >/dev/null
  # Debian's package starts a system-wide server; the tests start their own.
  { $SUDO systemctl disable --now redis-server || $SUDO service redis-server stop; } >/dev/null 2>&1 || true
fi
# Never install Debian's `binaryen` (wasm-opt 108): it corrupts wasm-bindgen output.
# wasm-opt comes from the npm `binaryen` package below.

# 4. JS tools pinned in package-lock.json; reinstalled only when the lockfile changes.
LOCK_SUM=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.agentwire-lock 2>/dev/null || true)" != "$LOCK_SUM" ]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$LOCK_SUM" > node_modules/.agentwire-lock
fi
# Deno stays outside the lockfile: its other-platform optional packages are missing from the
# registry mirror, which leaves package-lock.json incomplete and makes `npm ci` refuse it.
DENO_VERSION=2.9.6
if [ "$(node_modules/.bin/deno --version 2>/dev/null | head -1 | cut -d' ' -f2)" != "$DENO_VERSION" ]; then
  log "installing deno $DENO_VERSION"
  npm install --no-save --no-audit --no-fund --loglevel=error "deno@$DENO_VERSION"
fi

# 5. Python reference implementation for differential tests, in a git-ignored virtualenv.
if [ -z "${SKIP_PYTHON:-}" ]; then
  REQ_SUM=$(sha256sum scripts/reference/requirements.txt | cut -d' ' -f1)
  if [ "$(cat .venv/.agentwire-req 2>/dev/null || true)" != "$REQ_SUM" ]; then
    log "creating the Python reference virtualenv (.venv)"
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check -r scripts/reference/requirements.txt
    echo "$REQ_SUM" > .venv/.agentwire-req
  fi
  # a2a-sdk 1.x (A2A 1.0) in a virtualenv of its own: the reference pins a2a-sdk < 1.0.
  A2A1_SUM=$(sha256sum scripts/reference/requirements-a2a1.txt | cut -d' ' -f1)
  if [ "$(cat .venv-a2a1/.agentwire-req 2>/dev/null || true)" != "$A2A1_SUM" ]; then
    log "creating the a2a-sdk 1.x virtualenv (.venv-a2a1)"
    python3 -m venv .venv-a2a1
    .venv-a2a1/bin/pip install -q --disable-pip-version-check -r scripts/reference/requirements-a2a1.txt
    echo "$A2A1_SUM" > .venv-a2a1/.agentwire-req
  fi
fi

log "ready: $(wasm-bindgen --version), $(redis-server --version | cut -d" " -f1-3), wasm-opt $(node_modules/.bin/wasm-opt --version | cut -d' ' -f3), $(node_modules/.bin/deno --version | head -1)"
