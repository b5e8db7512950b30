# calibrank: `make test` runs every test, `make demo` the main job. Both set up what
# they need on a fresh machine (scripts/setup.sh is idempotent).
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER := wasm-bindgen-test-runner

.PHONY: setup pkg test test-rust test-wasm test-js lint demo golden quality bench fuzz clean

setup:
	@bash scripts/setup.sh

pkg: setup
	@bash scripts/build-pkg.sh

lint: setup
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -- -D warnings

test-rust: setup
	cargo test --all-targets

test-wasm: setup
	cargo test --target wasm32-unknown-unknown --test wasm_bindings

test-js: pkg
	node --test tests/js/node.test.mjs tests/js/browser.test.mjs tests/js/worker.test.mjs
	tsc -p tests/ts --strict --noEmit
	@echo "tsc --strict --noEmit: the TypeScript consumer compiles (and every @ts-expect-error line fails as it must)"

test: lint test-rust test-wasm test-js

golden:
	cargo run -q --example golden > tests/golden/vectors.json

demo: setup
	cargo run -q --example demo

clean:
	rm -rf pkg target
