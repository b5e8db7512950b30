#!/usr/bin/env bash
# Builds the npm package into pkg/: wasm-pack for the `web` target (ESM: browsers,
# Node ESM, workerd) and the `nodejs` target (CommonJS), then the entry modules,
# type declarations and package.json from js/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
PROFILE=${PROFILE:---release}
rm -rf pkg
wasm-pack build --quiet "$PROFILE" --target web --out-dir pkg/web --out-name calibrank --no-pack
wasm-pack build --quiet "$PROFILE" --target nodejs --out-dir pkg/cjs --out-name calibrank --no-pack
# The shadow-stack guard (js/stack_guard.js): export the stack pointer, and make the glue
# call every wasm export through the guard. Each edit must apply exactly once.
node scripts/export-stack-pointer.mjs pkg/web/calibrank_bg.wasm pkg/cjs/calibrank_bg.wasm
node -e '
const fs = require("fs");
const guard = fs.readFileSync("js/stack_guard.js", "utf8");
for (const [file, from, to] of [
  ["pkg/web/calibrank.js", "wasm = instance.exports;", "wasm = __calibrankGuard(instance.exports);"],
  ["pkg/cjs/calibrank.js", "let wasm = wasmInstance.exports;", "let wasm = __calibrankGuard(wasmInstance.exports);"],
]) {
  const text = fs.readFileSync(file, "utf8");
  if (text.split(from).length !== 2) { console.error(`[build-pkg] ${file}: expected one "${from}"`); process.exit(1); }
  fs.writeFileSync(file, text.replace(from, to) + guard);
}'
rm -f pkg/web/.gitignore pkg/cjs/.gitignore pkg/web/package.json pkg/cjs/package.json pkg/web/README.md pkg/cjs/README.md
# The CommonJS glue must not be read as ESM under the package's "type": "module".
echo '{"type":"commonjs"}' > pkg/cjs/package.json
cp js/node.mjs js/node.cjs js/browser.js js/workerd.js js/score_error.js js/score_error.cjs js/score_error.d.ts js/index.d.ts js/index.d.cts pkg/
cp js/package.template.json pkg/package.json
cp README.md pkg/README.md 2>/dev/null || true
node -e 'const p=require("./pkg/package.json"); p.files.push("cjs/package.json"); require("fs").writeFileSync("./pkg/package.json", JSON.stringify(p, null, 2)+"\n")'
echo "[build-pkg] $(ls -l pkg/web/calibrank_bg.wasm | awk "{print \$5}") bytes wasm, $(gzip -9c pkg/web/calibrank_bg.wasm | wc -c) gzipped"
# Tests and examples import the package by name, through its exports map.
mkdir -p node_modules && ln -sfn ../pkg node_modules/calibrank
