# Benchmarks (GitHub issue 6). `make bench` builds the package in release mode and the
# native harness, makes sure ranx is importable, then times the wasm package against the
# idiomatic JS baseline (bench/baseline/), native Rust and ranx: it prints a table and
# writes bench/results.json (docs/performance.md records the figures and the machine).
# `make bench-quick`: sizes up to 10,000 only. `make bench-batch`: the CISI batch
# comparison with ranx alone. `make bench-size`: the slow size / speed
# matrix over Cargo profiles and wasm-opt levels (bench/size-matrix.json).
# `make bench-limits`: each call at its default limits. `make bench-tuned`: the package
# against the idiomatic baseline and the same code tuned by hand (bench/tuned.mjs).
# `make test-bench` (part of `make test`): the baseline ranks exactly as the package, and
# the scripts that patch the package (bench/patched-entry.mjs) still find their anchors.
.PHONY: bench bench-quick bench-batch bench-size bench-build bench-limits bench-tuned test-bench

EXTRA_TEST_TARGETS += test-bench
BENCH_NODE := node --expose-gc --max-old-space-size=8192

bench-build: pkg
	cargo build --release --quiet --example bench_native

bench: bench-build
	BENCH_PYTHON="$$(bash bench/ensure-ranx.sh)" $(BENCH_NODE) bench/run.mjs $(BENCH_ARGS)
	$(BENCH_NODE) bench/tuned.mjs pkg

bench-quick: bench-build
	BENCH_PYTHON="$$(bash bench/ensure-ranx.sh)" $(BENCH_NODE) bench/run.mjs --quick --out bench/results.quick.json $(BENCH_ARGS)

# The CISI batch comparison with ranx only (parse, fuseRuns, evaluate: plain objects and
# Run / Qrels handles against ranx's Run.from_file, fuse, evaluate); about a minute.
bench-batch: bench-build
	BENCH_PYTHON="$$(bash bench/ensure-ranx.sh)" $(BENCH_NODE) bench/run.mjs --batch-only --out bench/results.batch.json $(BENCH_ARGS)

# Every export timed at the largest input its default limits accept (bench/limits.json,
# docs/reliability.md); about a minute.
bench-limits: pkg
	$(BENCH_NODE) bench/limits.mjs

bench-tuned: pkg
	$(BENCH_NODE) bench/tuned.mjs pkg

bench-size: setup
	node bench/size.mjs --profiles

test-bench: pkg
	node --test tests/js/baseline.test.mjs tests/js/bench-scripts.test.mjs
