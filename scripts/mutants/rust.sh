#!/usr/bin/env bash
# Mutation testing of the Rust crates: each mutant of rust-mutants.txt (or of
# MUTANTS_FILE; lines id|file|line|text replaced|replacement|targeted `cargo test`
# arguments, `;;`-separated, `-p calibrank` unless they name a package) is applied to a
# clone of HEAD, the targeted tests run, and, when they pass, the whole workspace's
# (`cargo test --workspace --all-targets` and `--doc`). Prints each mutant killed or
# survived; exits 1 if one survives that is not listed as equivalent, 2 if one no longer
# applies (its line moved: update the list). With MUTANTS_JS=1, a mutant the Rust tests
# miss is built into a package and run against the JS suite too
# (scripts/mutants/js-run.mjs; about 1.5 min each): the binding crates' checks are
# mostly tested through the package. About 10 s a mutant once built (a survivor's
# full run 1-2 min).
#   bash scripts/mutants/rust.sh [ID ...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# The list as the working copy holds it (absolute: the run below is in a clone of HEAD,
# where a relative name would read the committed list).
list=$(realpath "${MUTANTS_FILE:-$here/rust-mutants.txt}")
[ -f "$list" ] || { echo "no mutant list at $list" >&2; exit 2; }
# A list's `# equivalent: ID ...` lines name the mutants with no observable change.
EQUIVALENT=" $(sed -n 's/^# equivalent: *//p' "$list" | tr '\n' ' ') "
work=$(mktemp -d /tmp/calibrank-rust-mutants.XXXXXX)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/main"
# The tests read ../shared/data beside the checkout.
[ -e "$root/../shared" ] && ln -s "$(cd "$root/../shared" && pwd)" "$work/shared"
export CARGO_TARGET_DIR=${MUTANTS_TARGET_DIR:-$work/target}
cd "$work/main"
survived=() stale=() ran=" "
while IFS='|' read -r id file line old new targeted; do
  [ -z "$id" ] && continue
  [[ "$id" == \#* ]] && continue
  if [ $# -gt 0 ] && [[ " $* " != *" $id "* ]]; then continue; fi
  ran+="$id "
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
  # MUTANTS_FULL: the whole run a mutant the targeted tests miss must also pass
  # (`;`-separated; the workspace's by default).
  IFS=';' read -ra full <<< "${MUTANTS_FULL:---workspace --all-targets;--workspace --doc}"
  for a in "${runs[@]}" "${full[@]}"; do
    [ -z "$a" ] && continue
    case " $a " in *" -p "*|*" --workspace "*) pkg="" ;; *) pkg="-p calibrank" ;; esac
    # shellcheck disable=SC2086
    out=$(cargo test -q $pkg $a 2>&1)
    if ! grep -q "test result" <<< "$out"; then verdict="killed (does not compile)"; break; fi
    if grep -qE "test result: FAILED|panicked" <<< "$out"; then
      verdict="killed by [$a]: $(grep -E '^---- ' <<< "$out" | head -1 | sed 's/^---- //; s/ stdout ----//')"; break
    fi
  done
  if [ -z "$verdict" ] && [ -n "${MUTANTS_JS:-}" ]; then
    [ -e node_modules ] || ln -s "$root/node_modules" node_modules
    if PKG_OUT="$work/pkg" bash scripts/build-pkg.sh > "$work/build.log" 2>&1; then
      if ! js=$(node "$here/js-run.mjs" "$work/pkg" 2>&1); then
        verdict="killed by the JS suite: $(head -1 <<< "$js" | sed 's/^FAIL: //')"
      fi
    else
      verdict="killed (the package does not build)"
    fi
  fi
  if [ -z "$verdict" ]; then
    if [[ "$EQUIVALENT" == *" $id "* ]]; then verdict="equivalent"; else verdict="SURVIVED"; survived+=("$id"); fi
  fi
  echo "$id $file:$line \`$old\` -> \`$new\`: $verdict"
done < "$list"
git checkout -q -- .
# An ID asked for that the list does not hold ran nothing: said, not passed over.
for id in "$@"; do
  [[ "$ran" == *" $id "* ]] || { echo "$id: not in $list"; stale+=("$id"); }
done
echo "survived: ${survived[*]:-none}; stale: ${stale[*]:-none}"
[ ${#survived[@]} -eq 0 ] || exit 1
[ ${#stale[@]} -eq 0 ] || exit 2
