#!/usr/bin/env bash
# The core module's instructions per call as V8 runs it, for several builds: the calls
# bench/capture.mjs recorded (bench/tmp/cap-*.bin; run it first) replayed by
# bench/wasm-replay.mjs under callgrind, 200 and 1,200 calls, the difference / 1,000.
# Deterministic (two runs agree within about 0.3%), unlike timings on a shared machine
# and unlike bench/icount.mjs's whole calls, whose garbage collections move the counts
# by a few percent between runs.
#   bench/wasm-icount.sh PKG_DIR... [-- WORKLOAD...]   (workloads: a10 b10 c10 c20 one b1000)
set -euo pipefail
pkgs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do pkgs+=("$(realpath "$1")"); shift; done
[ "${1:-}" = "--" ] && shift
if [ $# -gt 0 ]; then workloads=("$@"); else workloads=(a10 b10 c10 one); fi
cd "$(dirname "$0")/tmp"
configs="cap-new-b.bin cap-new-c.bin cap-new-one.bin"
for w in "${workloads[@]}"; do
  op=13; [[ $w == a* ]] && op=20
  calls=(200 1200); div=1000
  [[ $w == *1000 ]] && { calls=(20 120); div=100; }
  for p in "${pkgs[@]}"; do
    r=()
    for n in "${calls[@]}"; do
      valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded --predictable --no-liftoff \
        ../wasm-replay.mjs "$p/calibrank_core.wasm" $op "cap-$w.bin" "$n" $configs > /tmp/wasm-icount.out 2> /tmp/wasm-icount.err
      grep -q "status 0" /tmp/wasm-icount.out || { echo "$w $p: $(cat /tmp/wasm-icount.out)" >&2; exit 1; }
      r+=("$(grep -o "Collected : [0-9]*" /tmp/wasm-icount.err | awk '{print $3}')")
    done
    echo "$w $p $(( (r[1] - r[0]) / div ))"
  done
done
