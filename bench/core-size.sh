#!/usr/bin/env bash
# The core module's size for a build variant, without touching pkg/ or target/: the cargo
# build of wasm/core (the package's RUSTFLAGS, scripts/rustflags.sh, plus EXTRA_RUSTFLAGS;
# CARGO_ARGS added to the build) in a target directory of its own, the package's wasm-opt
# line (WASM_OPT_FLAGS, default the package's `-O3 -ocimfs 100`), then its raw bytes and
# `gzip -9c` of it under the package's file name (the gzip header holds the name: so the
# figures compare with scripts/build-pkg.sh's). Prints "RAW GZIP".
#   [EXTRA_RUSTFLAGS=...] [CARGO_ARGS=...] [WASM_OPT_FLAGS=...] bash bench/core-size.sh [TARGET_DIR]
# e.g. CALIBRANK_INLINE_THRESHOLD=50 bash bench/core-size.sh /tmp/tgt-t50   (LLVM's inlining
#        threshold, 150 in the package, `llvm` for LLVM's own: scripts/rustflags.sh)
#      CARGO_ARGS="--config profile.release.package.calibrank.opt-level='z'" bash bench/core-size.sh /tmp/tgt-z
#      WASM_OPT_FLAGS=-Oz bash bench/core-size.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
TARGET=${1:-target/core-size}
RUSTFLAGS="$(bash scripts/rustflags.sh)${EXTRA_RUSTFLAGS:+ $EXTRA_RUSTFLAGS}"
export RUSTFLAGS
# shellcheck disable=SC2086 # CARGO_ARGS holds several words.
CARGO_TARGET_DIR="$TARGET" cargo build --quiet --release --target wasm32-unknown-unknown -p calibrank-wasm-core ${CARGO_ARGS:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2086 # the flags are several words.
wasm-opt ${WASM_OPT_FLAGS:--O3 -ocimfs 100} --strip-debug --strip-producers \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  "$TARGET/wasm32-unknown-unknown/release/calibrank_wasm_core.wasm" -o "$out/calibrank_core.wasm"
echo "$(wc -c < "$out/calibrank_core.wasm") $(gzip -9c "$out/calibrank_core.wasm" | wc -c)"
