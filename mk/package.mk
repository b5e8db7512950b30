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
