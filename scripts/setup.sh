#!/usr/bin/env bash
# Idempotent set-up for a fresh machine: the wasm32 target, the npm dev packages
# (binaryen's wasm-opt, esbuild, playwright-core, miniflare, typescript, ...), and
# Debian's Chromium for the browser tests. No wasm-bindgen or wasm-pack: the modules
# are plain cargo builds with hand-written JS (js/).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

log() { echo "[setup] $*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
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
log "ok: $(rustc --version), $(node_modules/.bin/wasm-opt --version 2>/dev/null || echo 'wasm-opt missing'), esbuild $(node_modules/.bin/esbuild --version 2>/dev/null || echo missing), $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium missing')"
