#!/usr/bin/env bash
# Prints the RUSTFLAGS of the package's wasm builds (scripts/build-pkg.sh, bench/size.mjs):
# the caller's own, path remaps that keep this machine's directories out of the modules,
# and LLVM's inlining threshold (below). Panic locations name source files: without the
# remaps a dependency's location carries the cargo home (`/root/.cargo/registry/src/...`),
# and with rustup's `rust-src` component installed std's locations carry the toolchain's
# directory instead of `/rustc/<hash>/`, so the same commit built different bytes on
# different machines.
set -euo pipefail
home=${CARGO_HOME:-$HOME/.cargo}
sysroot=$(rustc --print sysroot)
# std's sources map back to the virtual directory rustc uses when they are not installed.
hash=$(rustc -vV | sed -n 's/^commit-hash: //p')
# LLVM's inlining threshold lowered to 150 (below its own at opt-level 3): the core module
# 1,967 B smaller gzipped for at most 0.9% more of its instructions a call, the lab 351 B
# (docs/performance-history.md, "Cold code out of line"). CALIBRANK_INLINE_THRESHOLD sets another,
# `llvm` leaves LLVM's own (for the variants of bench/core-size.sh).
threshold=${CALIBRANK_INLINE_THRESHOLD:-150}
inline=""
if [ "$threshold" != llvm ]; then inline=" -Cllvm-args=-inline-threshold=$threshold"; fi
echo "${RUSTFLAGS:+$RUSTFLAGS }--remap-path-prefix=$home/registry/src=/cargo-registry --remap-path-prefix=$sysroot/lib/rustlib/src/rust=/rustc/$hash$inline"
