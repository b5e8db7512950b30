#!/usr/bin/env bash
# Mutation testing of the Rust crates: each mutant of rust-mutants.txt (or of
# MUTANTS_FILE; lines id|file|line|text replaced|replacement|targeted `cargo test`
# arguments, `;;`-separated, `-p calibrank` unless they name a package) is applied to a
# clone of HEAD, the targeted tests run, and, when they pass, the whole workspace's
# (`cargo test --workspace --all-targets` and `--doc`). Prints each mutant killed or
# survived; exits 1 if one survives that is not listed as equivalent, 2 if one no longer
# applies (its line moved: update the list). About 10 s a mutant once built (a survivor's
# full run 1-2 min).
#   bash scripts/mutants/rust.sh [ID ...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
EQUIVALENT=" M61 "  # isotonic: equal-mean blocks pooled or not give the same fit
work=$(mktemp -d /tmp/calibrank-rust-mutants.XXXXXX)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/main"
# The tests read ../shared/data beside the checkout.
[ -e "$root/../shared" ] && ln -s "$(cd "$root/../shared" && pwd)" "$work/shared"
export CARGO_TARGET_DIR=${MUTANTS_TARGET_DIR:-$work/target}
cd "$work/main"
survived=() stale=()
while IFS='|' read -r id file line old new targeted; do
  [ -z "$id" ] && continue
  if [ $# -gt 0 ] && [[ " $* " != *" $id "* ]]; then continue; fi
  git checkout -q -- .
  if ! python3 - "$file" "$line" "$old" "$new" <<'PY'
import sys
f, line, old, new = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
lines = open(f).read().split("\n")
if lines[line - 1].count(old) != 1:
    sys.exit(1)
lines[line - 1] = lines[line - 1].replace(old, new)
open(f, "w").write("\n".join(lines))
PY
  then
    echo "$id STALE: $file:$line no longer holds \`$old\`"; stale+=("$id"); continue
  fi
  verdict=""
  IFS=';' read -ra runs <<< "${targeted//;;/;}"
  for a in "${runs[@]}" "--workspace --all-targets" "--workspace --doc"; do
    [ -z "$a" ] && continue
    case " $a " in *" -p "*|*" --workspace "*) pkg="" ;; *) pkg="-p calibrank" ;; esac
    # shellcheck disable=SC2086
    out=$(cargo test -q $pkg $a 2>&1)
    if ! grep -q "test result" <<< "$out"; then verdict="killed (does not compile)"; break; fi
    if grep -qE "test result: FAILED|panicked" <<< "$out"; then
      verdict="killed by [$a]: $(grep -E '^---- ' <<< "$out" | head -1 | sed 's/^---- //; s/ stdout ----//')"; break
    fi
  done
  if [ -z "$verdict" ]; then
    if [[ "$EQUIVALENT" == *" $id "* ]]; then verdict="equivalent"; else verdict="SURVIVED"; survived+=("$id"); fi
  fi
  echo "$id $file:$line \`$old\` -> \`$new\`: $verdict"
done < "${MUTANTS_FILE:-$here/rust-mutants.txt}"
git checkout -q -- .
echo "survived: ${survived[*]:-none}; stale: ${stale[*]:-none}"
[ ${#survived[@]} -eq 0 ] || exit 1
[ ${#stale[@]} -eq 0 ] || exit 2
