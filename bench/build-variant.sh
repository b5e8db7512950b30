#!/usr/bin/env bash
# Builds the whole package (both modules, calibrank_core.wasm and calibrank_lab.wasm, and
# the JS layer) into OUTDIR with scripts/build-pkg.sh, without touching pkg/, in a target
# directory of its own (BENCH_TARGET_DIR, default target/bench, so that Cargo profile
# overrides never rebuild the shared target/). Used for the size / speed trade-off
# matrix (bench/size.mjs), A/B runs (bench/ab.mjs) and profiles (bench/profile.mjs).
#   bench/build-variant.sh OUTDIR [wasm-opt flags...]   (no flags: -O0, no optimization)
# With -g among the flags the function names are kept (nothing is stripped), for
# profiles. Cargo profile overrides come from the environment
# (CARGO_PROFILE_RELEASE_OPT_LEVEL, CARGO_PROFILE_RELEASE_LTO,
# CARGO_PROFILE_RELEASE_CODEGEN_UNITS).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bench/build-variant.sh OUTDIR [wasm-opt flags...]" >&2; exit 2; }
OUT=$(realpath -m "$1")
shift
case "$OUT" in
  "$PWD/pkg") echo "bench/build-variant.sh: OUTDIR must not be pkg/ (scripts/build-pkg.sh builds that one)" >&2; exit 2 ;;
esac
FLAGS=${*:--O0}
export CARGO_TARGET_DIR=$(realpath -m "${BENCH_TARGET_DIR:-target/bench}")
if [[ " $FLAGS " == *" -g "* ]]; then export STRIP=""; fi
PKG_OUT="$OUT" WASM_OPT_FLAGS="$FLAGS" bash scripts/build-pkg.sh
