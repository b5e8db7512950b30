#!/usr/bin/env bash
# Idempotent set-up for a fresh machine: wasm target, wasm-pack, wasm-bindgen CLI at the
# version locked in Cargo.lock, npm packages (binaryen's wasm-opt, playwright-core,
# miniflare, typescript), and Debian's Chromium for the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

log() { echo "[setup] $*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# The wasm-bindgen version pinned in Cargo.lock.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
if [ -z "$WB_VERSION" ]; then
  cargo generate-lockfile
  WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
fi
if ! command -v wasm-bindgen >/dev/null || [ "$(wasm-bindgen --version | awk '{print $2}')" != "$WB_VERSION" ]; then
  log "installing wasm-bindgen-cli $WB_VERSION"
  cargo install wasm-bindgen-cli --version "=$WB_VERSION" --force
fi
if ! command -v wasm-pack >/dev/null; then
  log "installing wasm-pack"
  cargo install wasm-pack --locked
fi

if [ ! -d node_modules ] || [ package.json -nt node_modules/.stamp ] || [ package-lock.json -nt node_modules/.stamp ]; then
  log "installing npm packages"
  # `npm ci` rejects this lock file (npm drops other platforms' optional packages of
  # rollup/esbuild from it), so install from package.json + lock with `npm install`.
  npm install --no-audit --no-fund
  touch node_modules/.stamp
fi

if [ ! -x /usr/bin/chromium ]; then
  log "installing Debian's chromium"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
log "ok: $(wasm-pack --version), wasm-bindgen $WB_VERSION, $(node_modules/.bin/wasm-opt --version 2>/dev/null || echo 'wasm-opt missing'), $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium missing')"
