#!/usr/bin/env bash
# Builds the npm package into pkg/: one wasm (cargo → wasm-bindgen --target web → wasm-opt),
# the web glue, and the files of pkg-template/. Every step is skipped when its input is unchanged,
# so a second run is a cargo no-op plus a few file comparisons.
#
#   WASM_OPT_FLAGS   wasm-opt flags (default: -O3; see bench/README.md for the measurement)
#   SKIP_WASM_OPT=1  ship wasm-bindgen's output unoptimised (faster iteration)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
log() { printf '[build] %s\n' "$*"; }

CRATE=agentwire
WASM_OPT_FLAGS=${WASM_OPT_FLAGS:--O3}
OUT=target/pkg-build              # intermediate outputs, with stamps
PKG=pkg
mkdir -p "$OUT/bindgen" "$PKG"

# 1. Rust → wasm (cargo is incremental by itself).
cargo build --release --target wasm32-unknown-unknown --quiet
RAW=target/wasm32-unknown-unknown/release/$CRATE.wasm

# 2. wasm-bindgen, only when the cargo output changed. The CLI must match the crate exactly.
WB=$(awk '$0=="name = \"wasm-bindgen\""{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WB" ]; then
  echo "[build] wasm-bindgen CLI $WB is required (run: bash scripts/setup.sh)" >&2; exit 1
fi
stamp() { sha256sum "$@" | sha256sum | cut -c1-16; }
RAW_SUM="$(stamp "$RAW")-$WB"
if [ "$(cat "$OUT/bindgen.stamp" 2>/dev/null || true)" != "$RAW_SUM" ]; then
  log "wasm-bindgen --target web"
  rm -rf "$OUT/bindgen" && mkdir -p "$OUT/bindgen"
  wasm-bindgen --target web --out-dir "$OUT/bindgen" "$RAW"
  echo "$RAW_SUM" > "$OUT/bindgen.stamp"
fi

# 3. wasm-opt on wasm-bindgen's output (never on cargo's: wasm-bindgen needs its custom sections).
# npm binaryen only: Debian's wasm-opt 108 silently corrupts wasm-bindgen output.
BG=$OUT/bindgen/${CRATE}_bg.wasm
OPT=$OUT/${CRATE}_bg.wasm
OPT_SUM="$(stamp "$BG")-${SKIP_WASM_OPT:-}-$WASM_OPT_FLAGS"
if [ "$(cat "$OUT/opt.stamp" 2>/dev/null || true)" != "$OPT_SUM" ] || [ ! -f "$OPT" ]; then
  if [ -n "${SKIP_WASM_OPT:-}" ]; then
    cp "$BG" "$OPT"
  else
    log "wasm-opt $WASM_OPT_FLAGS"
    # shellcheck disable=SC2086 # flags are a word list on purpose
    node_modules/.bin/wasm-opt $WASM_OPT_FLAGS "$BG" -o "$OPT"
  fi
  echo "$OPT_SUM" > "$OUT/opt.stamp"
fi

# 4. Assemble pkg/: template files, glue, wasm; package.json gets the crate's version.
VERSION=$(awk -F'"' '/^version = /{print $2; exit}' Cargo.toml)
install_if_changed() { cmp -s "$1" "$2" || cp "$1" "$2"; }
for f in pkg-template/*; do
  [ "$(basename "$f")" = package.json ] || install_if_changed "$f" "$PKG/$(basename "$f")"
done
install_if_changed "$OUT/bindgen/$CRATE.js" "$PKG/$CRATE.js"
# The glue's .d.ts minus its init section: initSync/init are wired by the entries and not exported,
# and their types (RequestInfo, Response, WebAssembly…) would force the DOM lib on Node users.
grep -q '^export type InitInput' "$OUT/bindgen/$CRATE.d.ts" \
  || { echo "[build] $CRATE.d.ts: init section not found (wasm-bindgen output changed?)" >&2; exit 1; }
sed '/^export type InitInput/,$d' "$OUT/bindgen/$CRATE.d.ts" > "$OUT/$CRATE.d.ts"
install_if_changed "$OUT/$CRATE.d.ts" "$PKG/$CRATE.d.ts"
install_if_changed "$OPT" "$PKG/${CRATE}_bg.wasm"
node -e '
  const fs = require("node:fs");
  const [, tpl, out, version] = process.argv;
  const pkg = JSON.parse(fs.readFileSync(tpl, "utf8"));
  pkg.version = version;
  const text = JSON.stringify(pkg, null, 2) + "\n";
  if (!fs.existsSync(out) || fs.readFileSync(out, "utf8") !== text) fs.writeFileSync(out, text);
' pkg-template/package.json "$PKG/package.json" "$VERSION"
# Drop files that are no longer produced (anything not in the template or the three outputs).
for f in "$PKG"/*; do
  b=$(basename "$f")
  case "$b" in "$CRATE.js"|"$CRATE.d.ts"|"${CRATE}_bg.wasm") continue ;; esac
  [ -e "pkg-template/$b" ] || rm -rf "$f"
done

# 5. Every function the glue exports must be re-exported by index.js and index.d.ts.
node scripts/check-exports.mjs "$PKG"

# 6. Sizes.
size() { printf '[build] %-22s %8d B raw %8d B gzip -9\n' "$(basename "$1")" "$(stat -c%s "$1")" "$(gzip -9c "$1" | wc -c)"; }
size "$PKG/${CRATE}_bg.wasm"
size "$PKG/$CRATE.js"
# The size budget: gzip -9 of the wasm plus its glue; the package README's size line is written
# from these measurements, never hand-copied.
wasm_gz=$(gzip -9c "$PKG/${CRATE}_bg.wasm" | wc -c)
glue_gz=$(gzip -9c "$PKG/$CRATE.js" | wc -c)
log "wasm + glue: $(( wasm_gz + glue_gz )) B gzip -9 (budget: 100,000 B)"
node scripts/readme-size.mjs "$PKG/README.md" "$wasm_gz" "$glue_gz"
log "pkg/ ready ($CRATE@$VERSION)"
