# Reliability and security (docs/reliability.md):
#   make fuzz              every cargo-fuzz target (or FUZZ_TARGETS="a b") for FUZZ_SECONDS
#                          each (default 60; nightly); new edges are merged into fuzz/corpus/
#   make deny              supply chain: cargo deny (bans, licenses, sources), npm audit of the
#                          published package, every dependency justified in docs/dependencies.md
#   make test-reliability  (part of `make test`) the saved fuzz corpus as regression tests,
#                          the proptests, the fast-check boundary test, the memory tests (flat
#                          over a million calls; addresses above 2 GiB; calls at the columnar
#                          ceiling one after another), the whole API's mutation fuzzer (one
#                          seed, 20,000 calls: no error but ScoreError), `deny`
.PHONY: fuzz fuzz-tools deny deny-tools deps-doc test-reliability

EXTRA_TEST_TARGETS += test-reliability

FUZZ_SECONDS ?= 60

# Idempotent installs: nothing happens when the tool is already there.
fuzz-tools: setup
	@rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	@command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked || cargo install cargo-fuzz

deny-tools:
	@command -v cargo-deny >/dev/null || cargo install cargo-deny --locked || cargo install cargo-deny

fuzz: fuzz-tools
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash fuzz/run.sh $(FUZZ_TARGETS)

# Every dependency named in Cargo.toml, fuzz/Cargo.toml and package.json has its line in
# docs/dependencies.md (a new one fails here until it is justified).
define DEPS_DOC_JS
const fs = require("fs");
const doc = fs.readFileSync("docs/dependencies.md", "utf8");
const names = new Set(Object.keys(require("./package.json").devDependencies || {}));
for (const f of ["Cargo.toml", "wasm/shared/Cargo.toml", "wasm/core/Cargo.toml", "wasm/lab/Cargo.toml", "fuzz/Cargo.toml"]) {
  let inDeps = false;
  for (const line of fs.readFileSync(f, "utf8").split("\n")) {
    if (line.startsWith("[")) inDeps = /dependencies\]$$/.test(line.trim());
    else if (inDeps) { const m = /^([A-Za-z0-9_-]+)\s*=/.exec(line); if (m) names.add(m[1]); }
  }
}
const missing = [...names].filter((n) => !doc.includes("`" + n + "`"));
if (missing.length) { console.error("docs/dependencies.md does not justify: " + missing.join(", ")); process.exit(1); }
console.log("docs/dependencies.md: all " + names.size + " dependencies justified");
endef
export DEPS_DOC_JS

# The published package (pkg/) declares no dependency of any kind.
define PKG_DEPS_JS
const p = require("./pkg/package.json");
const kinds = ["dependencies", "peerDependencies", "optionalDependencies", "bundleDependencies"];
const found = kinds.filter((k) => p[k] && Object.keys(p[k]).length);
if (found.length) { console.error("the published package declares " + found.join(", ")); process.exit(1); }
console.log("pkg/package.json: no runtime dependencies");
endef
export PKG_DEPS_JS

deps-doc:
	@node -e "$$DEPS_DOC_JS"

deny: deny-tools pkg deps-doc
	cargo deny check bans licenses sources
	@node -e "$$PKG_DEPS_JS"
	npm audit --omit=dev --audit-level=low
	@grep -q '^#!\[forbid(unsafe_code)\]' src/lib.rs && echo "src/lib.rs: #![forbid(unsafe_code)]"

test-reliability: pkg deny
	cargo test --test fuzz_regression --test properties
	node --test tests/js/fuzz.test.mjs tests/js/memory.test.mjs tests/js/high-memory.test.mjs tests/js/ceiling.test.mjs tests/js/out-of-memory.test.mjs
	node bench/mutation-fuzz.mjs pkg 1 20000

# Mutation testing (docs/reliability.md, "Mutation testing"); not part of `make test`:
#   make mutants-js    the package's JavaScript mutants against the JS suite (~2 min)
#   make mutants-rust  the Rust core's mutants against the crate's tests (~15 min)
.PHONY: mutants-js mutants-rust
mutants-js: pkg
	python3 scripts/mutants/js.py pkg
mutants-rust: setup
	bash scripts/mutants/rust.sh
#   make mutants-bindings  the binding crates' mutants against their crates' Rust tests
#                      (the core crate's cannot see them), then those the Rust tests miss
#                      against the JS suite on a package built from each (~60 min)
.PHONY: mutants-bindings
mutants-bindings: pkg
	MUTANTS_FILE=scripts/mutants/bindings-mutants.txt MUTANTS_JS=1 \
	MUTANTS_FULL="-p calibrank-wasm-shared -p calibrank-wasm-core -p calibrank-wasm-lab --all-targets" \
	bash scripts/mutants/rust.sh
