#!/usr/bin/env bash
# Builds the npm package into pkg/: one wasm (cargo → wasm-bindgen --target web → wasm-opt),
# the web glue, and the files of pkg-template/. Every step is skipped when its input is unchanged,
# so a second run is a cargo no-op plus a few file comparisons.
#
#   WASM_OPT_FLAGS   wasm-opt flags of the full module (default: -O3 --low-memory-unused; see
#                    bench/README.md for the measurement)
#   SKIP_WASM_OPT=1  ship wasm-bindgen's output unoptimised (faster iteration)
#   ENFORCE_SIZE=1   fail when a module is over its size budget or ceiling, or when README.md as
#                    committed quotes other sizes than the build measures (scripts/size.mjs;
#                    the `build` suite of scripts/test.sh sets it)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
log() { printf '[build] %s\n' "$*"; }

CRATE=agentwire
# `--low-memory-unused`: Rust puts its stack first and data above it, so nothing lives below
# address 1024 and wasm-opt may fold constant offsets into loads and stores (-2.2 KB gzip full,
# -0.6 KB lite). `--converge` repeats -Oz until it stops shrinking the lite module (-0.2 KB).
WASM_OPT_FLAGS=${WASM_OPT_FLAGS:--O3 --low-memory-unused}
OUT=target/pkg-build              # intermediate outputs, with stamps
PKG=pkg
mkdir -p "$OUT" "$PKG/lite" "$PKG/client"

WB=$(awk '$0=="name = \"wasm-bindgen\""{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WB" ]; then
  echo "[build] wasm-bindgen CLI $WB is required (run: bash scripts/setup.sh --for start)" >&2; exit 1
fi
stamp() { sha256sum "$@" | sha256sum | cut -c1-16; }

# Builds one variant of the wasm module into $OUT/<name>/: cargo → wasm-bindgen → wasm-opt, each
# step skipped when its input is unchanged.
#   wasm_variant <name> <cargo profile> <wasm-opt flags> [cargo flags...]
wasm_variant() {
  local name=$1 profile=$2 opt_flags=$3; shift 3
  local dir=$OUT/$name
  mkdir -p "$dir/bindgen"
  # 1. Rust → wasm (cargo is incremental by itself).
  cargo build --profile "$profile" --target wasm32-unknown-unknown --quiet "$@"
  local raw=target/wasm32-unknown-unknown/$profile/$CRATE.wasm
  # 2. wasm-bindgen, only when the cargo output changed. The CLI must match the crate exactly.
  local raw_sum
  raw_sum="$(stamp "$raw")-$WB"
  if [ "$(cat "$dir/bindgen.stamp" 2>/dev/null || true)" != "$raw_sum" ]; then
    log "wasm-bindgen --target web ($name)"
    rm -rf "$dir/bindgen" && mkdir -p "$dir/bindgen"
    wasm-bindgen --target web --out-dir "$dir/bindgen" "$raw"
    echo "$raw_sum" > "$dir/bindgen.stamp"
  fi
  # 3. wasm-opt on wasm-bindgen's output (never on cargo's: wasm-bindgen needs its custom
  # sections). npm binaryen only: Debian's wasm-opt 108 silently corrupts wasm-bindgen output.
  local bg=$dir/bindgen/${CRATE}_bg.wasm opt=$dir/${CRATE}_bg.wasm opt_sum
  opt_sum="$(stamp "$bg")-${SKIP_WASM_OPT:-}-$opt_flags"
  if [ "$(cat "$dir/opt.stamp" 2>/dev/null || true)" != "$opt_sum" ] || [ ! -f "$opt" ]; then
    if [ -n "${SKIP_WASM_OPT:-}" ]; then
      cp "$bg" "$opt"
    else
      log "wasm-opt $opt_flags ($name)"
      # shellcheck disable=SC2086 # flags are a word list on purpose
      node_modules/.bin/wasm-opt $opt_flags "$bg" -o "$opt"
    fi
    echo "$opt_sum" > "$dir/opt.stamp"
  fi
  # The glue without the doc comments it copies from Rust (the .d.ts keeps them), made a factory
  # of instances (`instantiate(module, state)`; pkg-template/instance.js makes a fresh one when
  # an instance traps).
  if [ ! -f "$dir/$CRATE.js" ] || [ "$dir/bindgen/$CRATE.js" -nt "$dir/$CRATE.js" ] \
    || [ scripts/glue-factory.mjs -nt "$dir/$CRATE.js" ]; then
    node scripts/strip-jsdoc.mjs "$dir/bindgen/$CRATE.js" "$dir/stripped.js"
    node scripts/glue-factory.mjs "$dir/stripped.js" "$dir/$CRATE.js"
  fi
  # The glue's .d.ts minus its init section: the entries compile the module and instance.js
  # instantiates it, and the init types (RequestInfo, Response, WebAssembly…) would force the DOM
  # lib on Node users. What it declares is what one instance exports (`instantiate` returns it).
  grep -q '^export type InitInput' "$dir/bindgen/$CRATE.d.ts" \
    || { echo "[build] $CRATE.d.ts: init section not found (wasm-bindgen output changed?)" >&2; exit 1; }
  { echo "// What one instance exports: agentwire.js exports instantiate(), which returns these (scripts/glue-factory.mjs)."
    sed '/^export type InitInput/,$d' "$dir/bindgen/$CRATE.d.ts"; } > "$dir/$CRATE.d.ts"
}

# The full module (every protocol, the builder, the translator), tuned for speed on the hot path;
# and the lite one (StreamAssembler for the Agent API only), tuned for size.
wasm_variant full release "$WASM_OPT_FLAGS"
wasm_variant lite lite "-Oz --converge --low-memory-unused" --no-default-features --features lite
# The client module: StreamAssembler for every protocol and the client's helpers, no writer;
# sized as lite (numbers kept as text, read by the host: no float parser in the wasm).
wasm_variant client client "-Oz --converge --low-memory-unused" --no-default-features --features client,lite

# 4. Assemble pkg/: template files, glue, wasm; package.json gets the crate's version.
VERSION=$(awk -F'"' '/^version = /{print $2; exit}' Cargo.toml)
install_if_changed() { cmp -s "$1" "$2" || cp "$1" "$2"; }
for f in pkg-template/*; do
  [ -f "$f" ] && [ "$(basename "$f")" != package.json ] && install_if_changed "$f" "$PKG/$(basename "$f")"
done
# pkg/ holds the full module, pkg/lite/ the lite one, pkg/client/ the client one. Their
# directories reuse the runtime entries and the reading modules as they are: they only import
# their neighbours.
for variant in full lite client; do
  dest=$PKG; [ $variant != full ] && dest=$PKG/$variant
  install_if_changed "$OUT/$variant/$CRATE.js" "$dest/$CRATE.js"
  install_if_changed "$OUT/$variant/$CRATE.d.ts" "$dest/$CRATE.d.ts"
  install_if_changed "$OUT/$variant/${CRATE}_bg.wasm" "$dest/${CRATE}_bg.wasm"
done
for f in node.js browser.js workerd.js deno.js assembler.js assembler.d.ts connect.js connect-types.d.ts instance.js values.js; do
  install_if_changed "pkg-template/$f" "$PKG/lite/$f"
done
for f in pkg-template/lite/*; do install_if_changed "$f" "$PKG/lite/$(basename "$f")"; done
for f in node.js browser.js workerd.js deno.js assembler.js assembler.d.ts connect.js connect-types.d.ts instance.js values.js \
  conversation.js conversation.d.ts interrupts.js interrupts.d.ts; do
  install_if_changed "pkg-template/$f" "$PKG/client/$f"
done
for f in pkg-template/client/*; do install_if_changed "$f" "$PKG/client/$(basename "$f")"; done
node -e '
  const fs = require("node:fs");
  const [, tpl, out, version] = process.argv;
  const pkg = JSON.parse(fs.readFileSync(tpl, "utf8"));
  pkg.version = version;
  const text = JSON.stringify(pkg, null, 2) + "\n";
  if (!fs.existsSync(out) || fs.readFileSync(out, "utf8") !== text) fs.writeFileSync(out, text);
' pkg-template/package.json "$PKG/package.json" "$VERSION"
# Drop files that are no longer produced (anything not in the template or the outputs).
for f in "$PKG"/* "$PKG"/lite/* "$PKG"/client/*; do
  b=$(basename "$f")
  case "$b" in "$CRATE.js"|"$CRATE.d.ts"|"${CRATE}_bg.wasm") continue ;; esac
  case "$f" in
    "$PKG"/lite/*) [ -e "pkg-template/lite/$b" ] || [ -e "pkg-template/$b" ] || rm -rf "$f" ;;
    "$PKG"/client/*) [ -e "pkg-template/client/$b" ] || [ -e "pkg-template/$b" ] || rm -rf "$f" ;;
    *) [ -e "pkg-template/$b" ] || rm -rf "$f" ;;
  esac
done

# 5. Every function the glue exports must be re-exported by index.js and index.d.ts.
node scripts/check-exports.mjs "$PKG"
node scripts/check-exports.mjs "$PKG/lite"
node scripts/check-exports.mjs "$PKG/client"

# 6. Sizes (gzip -9 of each wasm plus its glue), written into the package README and the
# repository README (never by hand); with ENFORCE_SIZE the committed README.md must already
# quote them (scripts/size.mjs).
node scripts/size.mjs "$PKG" --readme "$PKG/README.md" --project-readme README.md ${ENFORCE_SIZE:+--enforce}
log "pkg/ ready ($CRATE@$VERSION)"
