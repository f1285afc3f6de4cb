#!/usr/bin/env bash
# Idempotent set-up of what agentwire's build, demo and tests need, on a fresh Debian machine
# (Debian 12 is where it runs; system packages come from apt, so Ubuntu works too except for
# Chromium, which Ubuntu's apt only has as a snap). Every step checks first and is a no-op when
# its tool is already there at the right version.
#
#   bash scripts/setup.sh              everything `npm test` (and .ci/run) needs
#   bash scripts/setup.sh --for start  only what the build and the demo need (`npm start`): the
#                                      wasm target, the wasm-bindgen CLI and the npm packages;
#                                      no apt, no Deno, no Python
#
#   SKIP_BROWSER=1   skip Chromium/chromedriver (no browser tests possible then)
#   SKIP_PYTHON=1    skip the Python virtualenvs (no differential tests, no A2A TCK possible then)
#
# Needs, and never installs: rustup (with a stable toolchain), Node >= 20 with npm, and for the
# full set-up python3 with venv; apt-get for the system packages (elsewhere, install them by
# hand: the message of each step says what).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
log() { printf '[setup] %s\n' "$*" >&2; }
die() { printf '[setup] %s\n' "$*" >&2; exit 1; }

FOR=test
while [ $# -gt 0 ]; do
  case "$1" in
    --for) FOR=${2:-}; shift $(( $# > 1 ? 2 : 1 )) ;;
    --for=*) FOR=${1#--for=}; shift ;;
    *) die "unknown argument: $1 (usage: setup.sh [--for start|test])" ;;
  esac
done
case "$FOR" in start|test) ;; *) die "--for takes start or test, not '$FOR'" ;; esac

for tool in rustup cargo node npm; do
  command -v "$tool" >/dev/null 2>&1 \
    || die "$tool not found: install Rust with rustup (https://rustup.rs) and Node >= 20 with npm first"
done
[ "$(node -p 'Number(process.versions.node.split(".")[0]) >= 20')" = true ] \
  || die "Node $(node --version) is too old: agentwire needs Node >= 20"

# Installs Debian packages (Debian or Ubuntu: apt-get); elsewhere says what to do by hand.
#   apt_install <what to do without apt> <package>...
apt_install() {
  local by_hand=$1; shift
  command -v apt-get >/dev/null 2>&1 \
    || die "no apt-get (system packages come from apt): $by_hand"
  log "installing $* with apt-get"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# --- What the build and the demo need (`npm start`, `npm run build`) ---

# 1. Rust: the wasm target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# 2. wasm-bindgen CLI (and its test runner) at exactly the version of the wasm-bindgen crate in
# Cargo.lock, compiled from source by cargo.
WB=$(awk '$0=="name = \"wasm-bindgen\""{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
[ -n "$WB" ] || die "wasm-bindgen not found in Cargo.lock"
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WB" ] \
   || [ "$(wasm-bindgen-test-runner --version 2>/dev/null || true)" != "wasm-bindgen-test-runner $WB" ]; then
  log "installing wasm-bindgen-cli $WB (compiles from source: minutes)"
  # No --locked: the CLI's own lockfile pins a crate version the registry mirror lacks.
  # --no-default-features drops rustls/ring: the test runner only talks to 127.0.0.1.
  cargo install wasm-bindgen-cli --version "$WB" --no-default-features --force
fi

# 3. JS tools pinned in package-lock.json (wasm-opt from `binaryen`, miniflare for the demo, the
# test clients); reinstalled only when the lockfile changes.
# Never install Debian's `binaryen` (wasm-opt 108): it corrupts wasm-bindgen output.
LOCK_SUM=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.agentwire-lock 2>/dev/null || true)" != "$LOCK_SUM" ]; then
  log "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$LOCK_SUM" > node_modules/.agentwire-lock
fi

if [ "$FOR" = start ]; then
  log "ready for the build and the demo: $(wasm-bindgen --version), wasm-opt $(node_modules/.bin/wasm-opt --version | cut -d' ' -f3)"
  exit 0
fi

# --- What only the tests need (`npm test`, .ci/run) ---

# 4. Rust lint and format components (the `rust` suite).
for component in clippy rustfmt; do
  rustup component list --installed | grep -q "^$component" || rustup component add "$component"
done

# 5. Deno stays outside the lockfile: its other-platform optional packages are missing from the
# registry mirror, which leaves package-lock.json incomplete and makes `npm ci` refuse it.
DENO_VERSION=2.9.6
if [ "$(node_modules/.bin/deno --version 2>/dev/null | head -1 | cut -d' ' -f2)" != "$DENO_VERSION" ]; then
  log "installing deno $DENO_VERSION"
  npm install --no-save --no-audit --no-fund --loglevel=error "deno@$DENO_VERSION"
fi

# 6. Headless Chromium and its driver, from Debian (never a browser download). The suites find
# them at /usr/bin (CHROMIUM and CHROMEDRIVER override it; webdriver.json names the browser
# for the wasm suite).
if [ -z "${SKIP_BROWSER:-}" ] && ! { command -v chromium && command -v chromedriver; } >/dev/null 2>&1 \
   && ! { [ -x "${CHROMIUM:-}" ] && [ -x "${CHROMEDRIVER:-}" ]; }; then
  apt_install "install Chromium and the chromedriver of its version, set CHROMIUM and CHROMEDRIVER to them and run this again (or set SKIP_BROWSER=1)" \
    chromium chromium-driver
fi

# 7. redis-server from Debian: the RedisRunStore tests start their own on 127.0.0.1.
if ! command -v redis-server >/dev/null 2>&1; then
  apt_install "install redis-server 7 on the PATH and run this again" redis-server
  # Debian's package starts a system-wide server; the tests start their own.
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  { $SUDO systemctl disable --now redis-server || $SUDO service redis-server stop; } >/dev/null 2>&1 || true
fi

# 8. Python reference implementation for differential tests, in git-ignored virtualenvs.
if [ -z "${SKIP_PYTHON:-}" ]; then
  command -v python3 >/dev/null 2>&1 || die "python3 not found: install Python >= 3.10 with venv (or set SKIP_PYTHON=1)"
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
  # The A2A TCK's dependencies (the `tck` suite), pinned as its uv.lock pins them; the TCK itself
  # stays outside the repository (../shared/conformance/a2a-tck) and is run from a copy.
  TCK_SUM=$(sha256sum scripts/reference/requirements-tck.txt | cut -d' ' -f1)
  if [ "$(cat .venv-tck/.agentwire-req 2>/dev/null || true)" != "$TCK_SUM" ]; then
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
      || die "the A2A TCK needs Python >= 3.11 (found $(python3 --version)); or set SKIP_PYTHON=1"
    log "creating the A2A TCK virtualenv (.venv-tck)"
    python3 -m venv .venv-tck
    .venv-tck/bin/pip install -q --disable-pip-version-check -r scripts/reference/requirements-tck.txt
    echo "$TCK_SUM" > .venv-tck/.agentwire-req
  fi
fi

log "ready: $(wasm-bindgen --version), $(redis-server --version | cut -d" " -f1-3), wasm-opt $(node_modules/.bin/wasm-opt --version | cut -d' ' -f3), $(node_modules/.bin/deno --version | head -1)"
