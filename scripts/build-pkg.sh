#!/usr/bin/env bash
# Builds the npm package into pkg/: the WebAssembly modules (wasm/core ->
# calibrank_core.wasm, and without its `functions` feature calibrank_pipeline.wasm;
# wasm/lab -> calibrank_lab.wasm; cargo + binaryen's wasm-opt), the
# hand-written JS layer (js/: ESM sources; the Node CommonJS entries are bundled from
# them with esbuild) and its type declarations, and package.json.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
PROFILE=${PROFILE:-release}
OUT=${PKG_OUT:-pkg}
rm -rf "$OUT"
mkdir -p "$OUT"

RUSTFLAGS=$(bash scripts/rustflags.sh)
export RUSTFLAGS
# CARGO_ARGS: more arguments for the build (bench/core-size.sh's variants, e.g. a crate's
# own opt-level with --config).
# shellcheck disable=SC2086 # CARGO_ARGS holds several words.
# CARGO_TARGET_DIR (cargo honours it too): bench/build-variant.sh builds Cargo profile
# variants in target directories of their own.
DIR=${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")
# The Pipeline alone first (the same file name as the whole core's: kept under another).
# shellcheck disable=SC2086
cargo build --quiet --target wasm32-unknown-unknown --profile "$PROFILE" -p calibrank-wasm-core --no-default-features ${CARGO_ARGS:-}
cp "$DIR/calibrank_wasm_core.wasm" "$DIR/calibrank_wasm_pipeline.wasm"
# shellcheck disable=SC2086
cargo build --quiet --target wasm32-unknown-unknown --profile "$PROFILE" -p calibrank-wasm-core -p calibrank-wasm-lab ${CARGO_ARGS:-}
# What left the core module in the twenty-eighth session stays out (docs/performance-history.md,
# "Messages without std's formatting tables"): std's `{:?}` quoting (its printable
# tables), its substring searcher, ryu, serde's message parsing.
# The cargo build still has its name section (mangled names: the length before each).
for m in core pipeline; do
  for name in 12is_printable 11StrSearcher N3ryu 13from_serde_at; do
    if grep -qa "$name" "$DIR/calibrank_wasm_$m.wasm"; then
      echo "build-pkg: the $m module holds ${name#[0-9N]*[0-9]} again (docs/performance.md, \"Messages without std's formatting tables\")" >&2
      exit 1
    fi
  done
done
# The Pipeline's module holds no other function's operation (wasm/core/src/functions.rs),
# and says so (its `cr_pipeline_only` export: js/entries/init_api.js, js/wire/module.js).
# (The names of its own operations must be there, or the first test proves nothing.)
if grep -qa "calibrank_wasm_core9functions" "$DIR/calibrank_wasm_pipeline.wasm" || ! grep -qa "calibrank_wasm_core8pipeline" "$DIR/calibrank_wasm_pipeline.wasm" \
  || ! grep -qa "cr_pipeline_only" "$DIR/calibrank_wasm_pipeline.wasm"; then
  echo "build-pkg: calibrank_pipeline.wasm is not the Pipeline's module alone" >&2
  exit 1
fi
STRIP=${STRIP---strip-debug --strip-producers}
# -ocimfs 100: a function with one caller is inlined into it only when small (binaryen
# inlines every such function by default, which made cr_call hold every operation: 104 KB
# compiled on the first call of any). Smaller gzipped and no slower (docs/performance-history.md, "The allocator's cache and binaryen's inlining").
# --low-memory-unused: binaryen folds an added constant below 1024 into a load's or
# store's offset (`(load (i32.add p 16))` -> `(load offset=16 p)`). The two differ only
# when `p + 16` wraps past 2^32, where the add reaches the first 1024 bytes and the offset
# traps; Rust code forms no such address (an in-bounds offset never wraps: LLVM folds the
# same way when it can prove it). calibrank_pipeline.wasm 328 B smaller gzipped, the core
# 440 B (docs/performance-history.md, "Size: duplicated drop glue").
WASM_OPT_FLAGS=${WASM_OPT_FLAGS:--O3 -ocimfs 100 --low-memory-unused}
for m in core pipeline lab; do
  wasm-opt $WASM_OPT_FLAGS $STRIP \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    "$DIR/calibrank_wasm_$m.wasm" -o "$OUT/calibrank_$m.wasm"
done
# The core's and the lab's modules carry the package's version in a custom section,
# which the package's JavaScript compares with its own before instantiating one
# (js/wire/state.js `init`: a .wasm of another release is refused). Not the pipeline's:
# its bytes are counted against issue 11's size target.
VERSION=$(node -p 'require("./js/package.template.json").version')
for m in core lab; do
  node -e '
const fs = require("fs");
const [file, version] = process.argv.slice(1);
const name = Buffer.from("calibrank_version"), value = Buffer.from(version);
const uleb = (n) => { const b = []; do { let x = n & 127; n >>>= 7; if (n) x |= 128; b.push(x); } while (n); return Buffer.from(b); };
const body = Buffer.concat([uleb(name.length), name, value]);
fs.appendFileSync(file, Buffer.concat([Buffer.from([0]), uleb(body.length), body]));
' "$OUT/calibrank_$m.wasm" "$VERSION"
done

# The defaults the package's JavaScript reports as calibrank_pipeline.wasm's `config`
# (js/core/pipeline-defaults.js) must be the Rust defaults this build holds.
node scripts/pipeline-defaults.mjs "$OUT/calibrank_core.wasm" --check

# The held texts' tiny module (js/core/held-texts.js TEXTS_MODULE, compiled from these
# bytes where the engine allows; the workerd and edge entries import it as a module).
node -e '
const src = require("fs").readFileSync("js/core/held-texts.js", "utf8");
const m = /const TEXTS_MODULE = \[([^\]]*)\];/.exec(src);
if (!m) throw new Error("js/core/held-texts.js: no TEXTS_MODULE");
const bytes = new Uint8Array(m[1].split(",").map((x) => x.trim()).filter(Boolean).map(Number));
new WebAssembly.Instance(new WebAssembly.Module(bytes), { c: { t: () => 0 } });
require("fs").writeFileSync(process.argv[1], bytes);
' "$OUT/calibrank_texts.wasm"

# ESM: the API modules, the shared boundary, and the browser / workerd entries.
cp js/score_error.js "$OUT/"
# The boundary (js/wire.js and its parts, js/wire/) and the two API modules (js/core.js
# and js/core/, js/lab.js and js/lab/) each bundled into one file; wire.js and
# score_error.js stay modules of their own, which the two API modules share. Bundled in a
# copy of js/, so that the imports stay "./". The lab's API module is lab_api.js in the
# package: a file named lab.js would be what resolvers without `exports` (Parcel's
# default, TypeScript's node10) find for "calibrank/lab" before the lab/ directory and
# its package.json.
API=$(mktemp -d)
trap 'rm -rf "$API"' EXIT
cp -r js/core.js js/core js/lab.js js/lab js/wire.js js/wire js/score_error.js "$API/"
# The package's version (VERSION, above), which the wire compares with each module's
# (js/wire/state.js).
for m in wire core lab; do
  (cd "$API" && esbuild $m.js --bundle --format=esm --platform=neutral --log-level=warning \
    --define:CALIBRANK_VERSION="\"$VERSION\"" \
    --external:./wire.js --external:./score_error.js --outfile=$m.bundle.js)
done
node -e '
const api = ["./wire.js", "./score_error.js"];
for (const [file, allowed] of [[process.argv[1], ["./score_error.js"]], [process.argv[2], api], [process.argv[3], api]]) {
  const src = require("fs").readFileSync(file, "utf8");
  // Every static import or re-export, and no dynamic import.
  const from = [...src.matchAll(/^\s*(?:import\s*"([^"]+)"|(?:import|export)\b[^;"]*\bfrom\s*"([^"]+)")/gm)].map((m) => m[1] ?? m[2]);
  if (/\bimport\s*\(/.test(src)) throw new Error(`${file}: a dynamic import`);
  // The API bundles must import the boundary, not carry a copy of any of its parts
  // (esbuild heads each module it includes with a comment naming its path).
  if (allowed.includes("./wire.js") && /^\/\/ wire\//m.test(src)) throw new Error(`${file}: carries a copy of a part of wire.js`);
  if (from.some((f) => !allowed.includes(f)) || allowed.some((f) => !from.includes(f)))
    throw new Error(`${file}: imports ${JSON.stringify(from)}, expected ${JSON.stringify(allowed)}`);
}
' "$API/wire.bundle.js" "$API/core.bundle.js" "$API/lab.bundle.js"
cp "$API/wire.bundle.js" "$OUT/wire.js"
cp "$API/core.bundle.js" "$OUT/core.js"
cp "$API/lab.bundle.js" "$OUT/lab_api.js"
rm -rf "$API"
# Each entry has one source; the lab's twin is generated from the core's
# (scripts/lab-entries.mjs: module name, API module and .wasm file swapped), but for the
# browser's: the core's is three files (js/entries/browser.js), the lab's one.
SRC=$(mktemp -d)
trap 'rm -rf "$API" "$SRC"' EXIT
cp js/entries/*.js "$SRC/"
node scripts/lab-entries.mjs "$SRC" "$SRC"/{workerd.js,edge.js,init.web.js,node.cjs.src.js,node.mjs.src.js,init.node.cjs.src.js,init.node.mjs.src.js}
cp "$SRC"/{browser.js,browser.functions.js,browser.pipeline.js,lab.browser.js,workerd.js,lab.workerd.js,edge.js,lab.edge.js,load.js} "$OUT/"
# The entries without top-level await (calibrank/init, calibrank/lab/init).
cp "$SRC"/{init.web.js,lab.init.web.js,init_api.js} "$OUT/"
# Node: a CommonJS and an ESM bundle per entry, from the same sources; ScoreError stays
# in score_error.cjs, so that both entries and ESM and CommonJS users share one class.
sed -e 's/^export class ScoreError/class ScoreError/' js/score_error.js > "$OUT/score_error.cjs"
echo 'module.exports = { ScoreError };' >> "$OUT/score_error.cjs"
# The ESM bundles import it through score_error.node.mjs, an ES module of one binding:
# a bundler following `export *` of both entries (esbuild --platform=node) then sees the
# same binding twice and keeps ScoreError, where two imports of a CommonJS file's
# property are two bindings to it, and an ambiguous name is dropped.
cat > "$OUT/score_error.node.mjs" <<'SHIM'
// The ES module face of score_error.cjs: one class for ESM and CommonJS users, one
// binding for the node entries' `export *`.
import cjs from "./score_error.cjs";
export const ScoreError = cjs.ScoreError;
SHIM
for m in node lab.node init.node lab.init.node; do
  for fmt in cjs:cjs esm:mjs; do
    ext=${fmt#*:}
    cp "$SRC/$m.$ext.src.js" "$OUT/$m.$ext.src.js"
    esbuild "$OUT/$m.$ext.src.js" --bundle --format="${fmt%:*}" --platform=node --target=node18 --log-level=warning \
      --inject:"$SRC/node-text.js" --external:./score_error.js --outfile="$OUT/$m.$ext"
    shared=./score_error.cjs
    [ "$ext" = mjs ] && shared=./score_error.node.mjs
    sed -i "s#\"./score_error.js\"#\"$shared\"#" "$OUT/$m.$ext"
    grep -q "\"$shared\"" "$OUT/$m.$ext" || { echo "[build-pkg] $m.$ext does not share $shared" >&2; exit 1; }
    ! grep -q '"./score_error.js"' "$OUT/$m.$ext" || { echo "[build-pkg] $m.$ext imports score_error.js" >&2; exit 1; }
    rm "$OUT/$m.$ext.src.js"
  done
done
for t in core lab score_error init; do cp js/types/$t.d.ts "$OUT/"; done
# The lab's init declarations: the core's with the module swapped (as the entries).
sed -e 's#^// calibrank/init: the core#// calibrank/lab/init: the lab#; s#as from "calibrank"\.#as from "calibrank/lab".#' -e '/calibrank_pipeline\.wasm/d' \
  -e 's#"./core.js"#"./lab.js"#; s#calibrank_core.wasm#calibrank_lab.wasm#' js/types/init.d.ts > "$OUT/lab.init.d.ts"
# CommonJS declarations for `require` (TypeScript reads a .d.ts as ESM under "type":
# "module"): the same declarations, importing each other as .cjs.
sed -e 's#"./score_error.js"#"./score_error.cjs"#g' "$OUT/core.d.ts" > "$OUT/core.d.cts"
sed -e 's#"./core.js"#"./core.cjs"#g; s#"./score_error.js"#"./score_error.cjs"#g' "$OUT/lab.d.ts" > "$OUT/lab.d.cts"
cp "$OUT/score_error.d.ts" "$OUT/score_error.d.cts"
sed -e 's#"./core.js"#"./core.cjs"#g' "$OUT/init.d.ts" > "$OUT/init.d.cts"
sed -e 's#"./lab.js"#"./lab.cjs"#g' "$OUT/lab.init.d.ts" > "$OUT/lab.init.d.cts"
# For resolvers without `exports` (TypeScript's node10, old bundlers): calibrank/lab.
mkdir -p "$OUT/lab"
printf '{\n  "main": "../lab.node.cjs",\n  "module": "../lab.browser.js",\n  "types": "../lab.d.cts"\n}\n' > "$OUT/lab/package.json"
mkdir -p "$OUT/init" "$OUT/lab/init"
printf '{\n  "main": "../init.node.cjs",\n  "module": "../init.web.js",\n  "types": "../init.d.cts"\n}\n' > "$OUT/init/package.json"
printf '{\n  "main": "../../lab.init.node.cjs",\n  "module": "../../lab.init.web.js",\n  "types": "../../lab.init.d.cts"\n}\n' > "$OUT/lab/init/package.json"
cp js/package.template.json "$OUT/package.json"
cp README.md "$OUT/README.md" 2>/dev/null || true
cp LICENSE-MIT LICENSE-APACHE "$OUT/"
for m in core pipeline lab; do
  # zlib at level 9, as bench/size.mjs measures the size target (gzip(1) differs by tens of bytes).
  echo "[build-pkg] calibrank_$m.wasm: $(wc -c < "$OUT/calibrank_$m.wasm") bytes, $(node -e 'process.stdout.write(String(require("zlib").gzipSync(require("fs").readFileSync(process.argv[1]), { level: 9 }).length))' "$OUT/calibrank_$m.wasm") gzipped (zlib, level 9)"
  # No directory of this machine in the module (scripts/rustflags.sh).
  for dir in "${CARGO_HOME:-$HOME/.cargo}" "$(rustc --print sysroot)"; do
    if grep -a -q -F "$dir" "$OUT/calibrank_$m.wasm"; then
      echo "[build-pkg] calibrank_$m.wasm holds the local path $dir (see scripts/rustflags.sh)" >&2
      exit 1
    fi
  done
done
# Tests and examples import the package by name, through its exports map.
if [ "$OUT" = pkg ]; then mkdir -p node_modules && ln -sfn ../pkg node_modules/calibrank; fi
