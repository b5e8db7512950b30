#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for FUZZ_SECONDS each (default 60) with
# cargo-fuzz on nightly. New inputs go to a scratch corpus (fuzz/target/corpus-work/,
# not committed); at the end only those that reach a new edge are merged into the
# committed fuzz/corpus/<target>/, which so stays minimal. A crash stops that target only:
# its reproducer is copied to fuzz/regressions/<target>/ and the script goes on, then
# exits non-zero. Prints the executions per target (docs/reliability.md quotes them).
set -uo pipefail
cd "$(dirname "$0")"
export PATH="$HOME/.cargo/bin:$PATH"
SECONDS_EACH=${FUZZ_SECONDS:-60}
JOBS=${FUZZ_JOBS:-1}
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  mapfile -t TARGETS < <(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build -O >/dev/null || exit 1
mkdir -p logs
failed=()
summary=()
for t in "${TARGETS[@]}"; do
  mkdir -p "corpus/$t" "target/corpus-work/$t"
  dict=()
  case "$t" in
    config_json) dict=(-dict=dict/json.dict) ;;
    eval_parse) dict=(-dict=dict/trec.dict) ;;
  esac
  log="logs/$t.log"
  parallel=()
  if [ "$JOBS" -gt 1 ]; then parallel=(-jobs="$JOBS" -workers="$JOBS"); fi
  cargo +nightly fuzz run -O "$t" "target/corpus-work/$t" "corpus/$t" -- -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 "${parallel[@]}" "${dict[@]}" >"$log" 2>&1
  status=$?
  # Keep only what reaches a new edge (hit counts ignored) in the committed corpus.
  cargo +nightly fuzz run -O "$t" "corpus/$t" "target/corpus-work/$t" -- -merge=1 -use_counters=0 -rss_limit_mb=2048 >>"$log" 2>&1
  execs=$(grep -h 'stat::number_of_executed_units' "$log" fuzz-*.log 2>/dev/null | awk '{s += $2} END {print s + 0}')
  rm -f fuzz-*.log
  if [ $status -ne 0 ]; then
    failed+=("$t")
    mkdir -p "regressions/$t"
    for a in artifacts/"$t"/*; do [ -f "$a" ] && cp "$a" "regressions/$t/"; done
    grep -m1 -A3 'panicked at' "$log" >&2
    summary+=("$t: FAILED after $execs executions (log: fuzz/$log, reproducer copied to fuzz/regressions/$t/)")
  else
    summary+=("$t: $execs executions in ${SECONDS_EACH}s, corpus $(ls "corpus/$t" | wc -l) inputs")
  fi
done
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: failing targets: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#TARGETS[@]} targets, no failure"
