#!/usr/bin/env bash
# Prints the RUSTFLAGS of the package's wasm builds (scripts/build-pkg.sh, bench/size.mjs):
# the caller's own, plus path remaps that keep this machine's directories out of the
# modules. Panic locations name source files: without the remaps a dependency's location
# carries the cargo home (`/root/.cargo/registry/src/...`), and with rustup's `rust-src`
# component installed std's locations carry the toolchain's directory instead of
# `/rustc/<hash>/`, so the same commit built different bytes on different machines.
set -euo pipefail
home=${CARGO_HOME:-$HOME/.cargo}
sysroot=$(rustc --print sysroot)
# std's sources map back to the virtual directory rustc uses when they are not installed.
hash=$(rustc -vV | sed -n 's/^commit-hash: //p')
echo "${RUSTFLAGS:+$RUSTFLAGS }--remap-path-prefix=$home/registry/src=/cargo-registry --remap-path-prefix=$sysroot/lib/rustlib/src/rust=/rustc/$hash"
