#!/usr/bin/env bash
# The core module's size for a build variant, without touching pkg/ or target/: the
# package built by scripts/build-pkg.sh into a temporary directory, in a target directory
# of its own, and the core's raw bytes and `gzip -9c` bytes as build-pkg.sh prints them.
# The variant comes from what build-pkg.sh reads: CALIBRANK_INLINE_THRESHOLD (LLVM's
# inlining threshold, 150 in the package, `llvm` for LLVM's own: scripts/rustflags.sh),
# RUSTFLAGS, CARGO_ARGS, WASM_OPT_FLAGS. Prints "RAW GZIP".
#   [CALIBRANK_INLINE_THRESHOLD=T] [CARGO_ARGS=...] [WASM_OPT_FLAGS=...] bash bench/core-size.sh [TARGET_DIR]
# e.g. CALIBRANK_INLINE_THRESHOLD=50 bash bench/core-size.sh /tmp/tgt-t50
#      CARGO_ARGS="--config profile.release.package.calibrank.opt-level='z'" bash bench/core-size.sh /tmp/tgt-z
#      WASM_OPT_FLAGS=-Oz bash bench/core-size.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=$(realpath -m "${1:-target/core-size}")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
CARGO_TARGET_DIR="$TARGET" PKG_OUT="$out/pkg" bash scripts/build-pkg.sh >&2
echo "$(wc -c < "$out/pkg/calibrank_core.wasm") $(gzip -9c "$out/pkg/calibrank_core.wasm" | wc -c)"
