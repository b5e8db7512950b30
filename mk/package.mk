# The published package as users get it (issue 12, first part): `npm pack` of pkg/, then
# `@arethetypeswrong/cli` (types right for node10, node16 from CJS and from ESM, and
# bundler resolution, for both entries) and `publint --strict`.
.PHONY: test-package

EXTRA_TEST_TARGETS += test-package

test-package: pkg
	@rm -rf target/pack && mkdir -p target/pack
	@cd pkg && npm pack --silent --pack-destination ../target/pack >/dev/null
	attw target/pack/calibrank-*.tgz --exclude-entrypoints calibrank_core.wasm calibrank_lab.wasm
	publint pkg --strict

# Bun and Deno (npm packages `bun` and `deno`; their binaries work without install
# scripts): the JS suite and the golden vectors through the package's exports map.
.PHONY: test-runtimes
EXTRA_TEST_TARGETS += test-runtimes

test-runtimes: pkg
	bun tests/js/runtime-suite.mjs
	deno run --allow-read --allow-env tests/js/runtime-suite.mjs
