# calibrank: `make test` runs every test, `make demo` the main job. Both set up what
# they need on a fresh machine (scripts/setup.sh is idempotent).
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)

.PHONY: setup pkg test test-rust test-js test-quality lint demo demo-cli golden quality clean

# Feature areas add their own targets in mk/*.mk: each appends its test targets to
# EXTRA_TEST_TARGETS and may set DEMO_TARGET.
EXTRA_TEST_TARGETS :=
DEMO_TARGET := demo-cli
-include mk/*.mk

setup:
	@bash scripts/setup.sh

pkg: setup
	@bash scripts/build-pkg.sh

lint: setup
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -p calibrank-wasm-core -p calibrank-wasm-lab -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -p calibrank-wasm-core --no-default-features -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps -q
	node scripts/check-doc-refs.mjs

test-rust: setup
	cargo test --workspace --all-targets
	cargo test --workspace --doc
	cargo test -p calibrank-wasm-core --no-default-features

# The bindings are tested through the package: the JS suite runs the built modules in
# Node (ESM + CJS), Chromium and workerd.
test-js: pkg
	node --test tests/js/node.test.mjs tests/js/golden-independent.test.mjs tests/js/pipeline-module.test.mjs tests/js/init.test.mjs tests/js/browser.test.mjs tests/js/vite.test.mjs tests/js/bundlers.test.mjs tests/js/worker.test.mjs tests/js/readme.test.mjs tests/js/held-texts.test.mjs tests/js/restart.test.mjs tests/js/own-objects.test.mjs tests/js/types.test.mjs tests/js/runners.test.mjs
	tsc -p tests/ts --strict --noEmit
	tsc -p tests/ts/tsconfig.plain.json --noEmit
	@echo "tsc --strict --noEmit: the TypeScript consumer compiles (and every @ts-expect-error line fails as it must)"

test-quality:
	cargo run --release -q --example quality -- --reduced > /dev/null

test: lint test-rust test-js test-quality $(EXTRA_TEST_TARGETS)
	@echo "make test: all suites passed"

quality:
	mkdir -p docs
	cargo run --release -q --example quality -- --out docs/quality.md

golden:
	cargo run -q --example golden > tests/golden/vectors.json

demo: $(DEMO_TARGET)

demo-cli: setup
	cargo run -q --example demo

clean:
	rm -rf pkg target
