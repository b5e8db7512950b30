#!/usr/bin/env bash
# Builds the package's web half (the one Node's ESM entry loads) into OUTDIR the way
# wasm-pack does (cargo build --release, wasm-bindgen --target web, wasm-opt FLAGS),
# in its own target directory, without touching pkg/. Used for the size / speed
# trade-off matrix (bench/size.mjs) and for development.
#   bench/build-variant.sh OUTDIR [wasm-opt flags...]   (no flags: no wasm-opt)
# Cargo profile overrides come from the environment (CARGO_PROFILE_RELEASE_OPT_LEVEL,
# CARGO_PROFILE_RELEASE_LTO, CARGO_PROFILE_RELEASE_CODEGEN_UNITS).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
OUT=$1
shift
TD=${BENCH_TARGET_DIR:-target/bench}
cargo build --quiet --release --lib --target wasm32-unknown-unknown --target-dir "$TD"
rm -rf "$OUT"
mkdir -p "$OUT/web" "$OUT/cjs"
wasm-bindgen --target web --out-dir "$OUT/web" --out-name calibrank "$TD/wasm32-unknown-unknown/release/calibrank.wasm"
wasm-bindgen --target nodejs --out-dir "$OUT/cjs" --out-name calibrank "$TD/wasm32-unknown-unknown/release/calibrank.wasm"
if [ $# -gt 0 ]; then
  for half in web cjs; do wasm-opt "$@" "$OUT/$half/calibrank_bg.wasm" -o "$OUT/$half/calibrank_bg.wasm"; done
fi
# The rest as scripts/build-pkg.sh lays it out (entry modules, types, package.json).
echo '{"type":"commonjs"}' > "$OUT/cjs/package.json"
cp js/node.mjs js/node.cjs js/browser.js js/workerd.js js/score_error.js js/score_error.cjs js/score_error.d.ts js/index.d.ts js/index.d.cts "$OUT/"
cp js/package.template.json "$OUT/package.json"
