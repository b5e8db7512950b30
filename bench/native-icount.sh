#!/usr/bin/env bash
# Instructions per call of workloads natively, under callgrind, for one or more builds of
# examples/bench_native (e.g. this tree's and an older commit's, built with
# CARGO_TARGET_DIR=... cargo build --release --example bench_native in a worktree):
#   bash bench/native-icount.sh target/release/examples/bench_native /tmp/old/release/examples/bench_native
# Each figure is the difference of two runs (C1 and C2 calls) over C2 - C1, so that the
# inputs' generation and the process's start cancel out. Deterministic to a few
# instructions (valgrind counts guest instructions).
set -euo pipefail
SPECS=${SPECS:-"b string 10 2000 6000;b string 1000 100 300;c string 10 2000 6000"}
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" --profile "$2" "$3" "$4" "$5" 2>&1 |
    grep -o "Collected : [0-9]*" | grep -o "[0-9]*"
}
for bin in "$@"; do
  echo "$bin"
  IFS=';' read -ra specs <<< "$SPECS"
  for spec in "${specs[@]}"; do
    read -r w api n c1 c2 <<< "$spec"
    i1=$(count "$bin" "$w" "$api" "$n" "$c1")
    i2=$(count "$bin" "$w" "$api" "$n" "$c2")
    echo "  $w $api N=$n: $(((i2 - i1) / (c2 - c1))) instructions per call"
  done
done
