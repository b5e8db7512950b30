#!/usr/bin/env bash
# How small the modules could get by cutting what they carry around the scoring: builds
# wasm/core from a copy of the source with parts cut out, each variant keeping the cuts
# of the one before, through the same cargo flags and `wasm-opt` line as
# scripts/build-pkg.sh, and prints raw and `gzip -9` bytes of each.
#   bench/size-floor.sh [WORKDIR]      (default /tmp/calibrank-size-floor; the repo is
#                                       not touched: the source is copied there)
# Then times `new WebAssembly.Module` of each in fresh Node processes (about 2 min in all).
# Variants (cumulative):
#   shipped        calibrank_core.wasm as the package ships it
#   no-config-json and `Pipeline.config` writes nothing (its JSON writer gone)
#   pipeline       calibrank_pipeline.wasm as the package ships it (wasm/core without its
#                  `functions` feature: no JSON in it since 2026-11-29, its configuration
#                  decoded by js/core/typed-config.js)
#   no-fault-walker and a refused run's input named by no fault (the walker that finds the
#                  first fault in input order gone: what the exact error costs)
# The cut variants do not work as a package (they answer wrongly); they are size
# measurements only. Each cut is a literal replacement that must match exactly once, so
# the script fails instead of measuring the wrong thing when the source changes.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${1:-/tmp/calibrank-size-floor}
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
command -v wasm-opt > /dev/null || { echo "size-floor: wasm-opt not found (npm ci first)" >&2; exit 2; }
rm -rf "$WORK/src"
mkdir -p "$WORK/src"
# The tracked files only, as they are in the working tree.
(cd "$ROOT" && git ls-files -z Cargo.toml Cargo.lock src wasm scripts | xargs -0 cp --parents -t "$WORK/src")
# -Awarnings: the cuts leave dead code (lints do not change the code generated).
RUSTFLAGS="$(cd "$ROOT" && bash scripts/rustflags.sh) -Awarnings"
export RUSTFLAGS CARGO_TARGET_DIR="$WORK/target"

cut() { # FILE OLD NEW: replace OLD (exactly one occurrence) by NEW in the copy
  python3 - "$WORK/src/$1" "$2" "$3" <<'EOF'
import sys
path, old, new = sys.argv[1:]
s = open(path).read()
n = s.count(old)
if n != 1:
    sys.exit(f"size-floor: {old!r} occurs {n} times in {path} (expected once): update the script")
open(path, "w").write(s.replace(old, new))
EOF
}

measure() { # NAME
  # shellcheck disable=SC2086
  (cd "$WORK/src" && cargo build --quiet --release --target wasm32-unknown-unknown -p calibrank-wasm-core ${FEATURES:-})
  wasm-opt -O3 -ocimfs 100 --low-memory-unused --strip-debug --strip-producers \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    "$WORK/target/wasm32-unknown-unknown/release/calibrank_wasm_core.wasm" -o "$WORK/$1.wasm"
  printf '%-16s %9d B raw %9d B gzip -9\n' "$1" "$(wc -c < "$WORK/$1.wasm")" "$(gzip -9c "$WORK/$1.wasm" | wc -c)"
}

# The flags must be the package's: fail if scripts/build-pkg.sh changed them.
grep -q 'WASM_OPT_FLAGS:--O3 -ocimfs 100 --low-memory-unused}' "$ROOT/scripts/build-pkg.sh" \
  || { echo "size-floor: scripts/build-pkg.sh's wasm-opt flags changed: update the script" >&2; exit 2; }

measure shipped

cut wasm/core/src/pipeline/mod.rs 'calibrank_wasm_shared::jsonw::write_json(w, p.config())' '{ let _ = p; w.none(); Ok(()) }'
measure no-config-json

# The package's calibrank_pipeline.wasm: no JSON writer there anyway.
FEATURES=--no-default-features
measure pipeline

cut wasm/core/src/pipeline/faults.rs '    match walk_input(r, config) {' '    #[allow(unreachable_code)]
    return ScoreError::new(ErrorCode::Internal, "", "x");
    match walk_input(r, config) {'
measure no-fault-walker

# `new WebAssembly.Module` (compiling: validation of every function, the bulk of compile +
# instantiate) of each variant, and of an empty module (the engine's own cost), in fresh
# Node processes, alternating; 21 rounds, quartiles (the machine's load moves them).
printf '\0asm\1\0\0\0' > "$WORK/empty.wasm"
node - "$WORK" shipped no-config-json pipeline no-fault-walker empty <<'EOF2'
const { execFileSync } = require("node:child_process");
const [work, ...names] = process.argv.slice(2);
const probe = `const b = require("fs").readFileSync(process.argv[1]); const t = process.hrtime.bigint(); new WebAssembly.Module(b); console.log(Number(process.hrtime.bigint() - t) / 1e6);`;
const ms = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < 21; r++) for (const n of names) ms[n].push(Number(execFileSync(process.execPath, ["-e", probe, `${work}/${n}.wasm`])));
const q = (a, p) => [...a].sort((x, y) => x - y)[Math.round(p * (a.length - 1))];
for (const n of names) {
  const [a, m, b] = [0.25, 0.5, 0.75].map((p) => q(ms[n], p).toFixed(2));
  console.log(`${n.padEnd(16)} new WebAssembly.Module: median ${m} ms (quartiles ${a}-${b})`);
}
EOF2
