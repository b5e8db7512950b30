# The published package as users get it (issue 12, first part): `npm pack` of pkg/, then
# `@arethetypeswrong/cli` (types right for node10, node16 from CJS and from ESM, and
# bundler resolution, for both entries) and `publint --strict`.
.PHONY: test-package

EXTRA_TEST_TARGETS += test-package

test-package: pkg
	@rm -rf target/pack && mkdir -p target/pack
	@cd pkg && npm pack --silent --pack-destination ../target/pack >/dev/null
	attw target/pack/calibrank-*.tgz --exclude-entrypoints calibrank_core.wasm calibrank_pipeline.wasm calibrank_lab.wasm calibrank_texts.wasm
	publint target/pack/calibrank-*.tgz --strict

# Bun and Deno (npm packages `bun` and `deno`; their binaries work without install
# scripts): the JS suite and the golden vectors through the package's exports map, by the
# main entries and by the init entries; the whole API's mutation fuzzer (no error but
# ScoreError or the caller's own; docs/reliability.md).
.PHONY: test-runtimes
EXTRA_TEST_TARGETS += test-runtimes

test-runtimes: pkg
	bun tests/js/runtime-suite.mjs
	bun tests/js/runtime-suite.mjs init
	deno run --allow-read --allow-env tests/js/runtime-suite.mjs
	deno run --allow-read --allow-env tests/js/runtime-suite.mjs init
	bun bench/mutation-fuzz.mjs pkg 1 5000
	deno run --allow-read --allow-env bench/mutation-fuzz.mjs pkg 1 20000

# Next.js 16 from the packed tarball, built with Turbopack and with webpack, no
# configuration: a Node route, an edge route and a client page (Chromium). About 80 s;
# next, react and react-dom come from the npm registry into a temporary app.
.PHONY: test-nextjs
EXTRA_TEST_TARGETS += test-nextjs

test-nextjs: pkg
	node --test tests/js/nextjs.test.mjs

# What each way of loading the .wasm costs in bytes (docs/performance.md, "Bytes per
# entry"): JS glue (esbuild --minify, gzip -9) and .wasm, core and lab, per entry.
.PHONY: bytes
bytes: pkg
	node bench/entry-bytes.mjs
