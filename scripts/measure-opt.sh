#!/usr/bin/env bash
# Measures the release profile and wasm-opt choices: for each Cargo opt-level × wasm-opt level,
# the size of the shipped wasm (raw / gzip -9) and a quick parse-speed run through the JS glue
# (parseEvent on 100k seeded content events, parseRequest 20k times; best of 5, ms).
# Slow (one cold release build per opt-level, ~2 min on 2 cores). Results: bench/README.md.
#   OPT_LEVELS="s z 3"  WASM_OPTS="none Oz Os O3"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"
ROOT=$PWD
M=target/measure-opt
mkdir -p $M
cat > $M/speed.mjs <<'JS'
import { readFileSync } from "node:fs";
const dir = process.argv[2];
const { initSync, parseEvent, parseRequest } = await import(`${dir}/agentwire.js`);
initSync({ module: readFileSync(`${dir}/agentwire_bg.wasm`) });
const { contentEvents } = await import(process.argv[3]);
const events = contentEvents(100000);
const req = JSON.stringify({ input: [{ role: "user", content: [{ type: "text", text: "hello ".repeat(50) }] }], session_id: "s", model: "m" });
const best = (f) => { f(); let b = Infinity; for (let r = 0; r < 5; r++) { const t = performance.now(); f(); b = Math.min(b, performance.now() - t); } return b.toFixed(0); };
console.log(`${best(() => { for (const e of events) parseEvent(e); })} ${best(() => { for (let i = 0; i < 20000; i++) parseRequest(req); })}`);
JS
printf '| opt-level | wasm-opt | raw B | gzip -9 B | parseEvent 100k ms | parseRequest 20k ms |\n|---|---|---|---|---|---|\n'
for ol in ${OPT_LEVELS:-s z 3}; do
  CARGO_PROFILE_RELEASE_OPT_LEVEL=$ol CARGO_TARGET_DIR=$M/target-$ol \
    cargo build -q --release --target wasm32-unknown-unknown
  d=$M/ol-$ol; rm -rf "$d"; mkdir -p "$d/none"
  wasm-bindgen --target web --out-dir "$d/none" "$M/target-$ol/wasm32-unknown-unknown/release/agentwire.wasm"
  echo '{"type":"module"}' > "$d/none/package.json"
  for f in ${WASM_OPTS:-none Oz Os O3}; do
    if [ "$f" != none ]; then
      mkdir -p "$d/$f"; cp "$d/none/agentwire.js" "$d/none/package.json" "$d/$f/"
      node_modules/.bin/wasm-opt "-$f" "$d/none/agentwire_bg.wasm" -o "$d/$f/agentwire_bg.wasm"
    fi
    w=$d/$f/agentwire_bg.wasm
    read -r ev rq < <(node $M/speed.mjs "$ROOT/$d/$f" "$ROOT/bench/fixtures.mjs")
    printf '| %s | %s | %d | %d | %s | %s |\n' "$ol" "$f" "$(stat -c%s "$w")" "$(gzip -9c "$w" | wc -c)" "$ev" "$rq"
  done
done
