# The score playground (www/): `make demo` builds the package, copies the chart library
# (Observable Plot + d3, from node_modules) into www/vendor/ and serves www/ with pkg/
# mounted at /pkg/ on http://127.0.0.1:8080. `make test-playground` drives it in
# headless Chromium (tests/js/playground/*.test.mjs, a file per area of the page, each with
# its own browser; helpers.mjs holds what they share).
.PHONY: demo-playground test-playground playground-vendor playground-data

DEMO_TARGET := demo-playground
EXTRA_TEST_TARGETS += test-playground

PLAYGROUND_VENDOR := node_modules/d3/dist/d3.min.js node_modules/@observablehq/plot/dist/plot.umd.min.js

playground-vendor: setup
	@mkdir -p www/vendor
	@cp $(PLAYGROUND_VENDOR) www/vendor/
	@cp node_modules/d3/LICENSE www/vendor/LICENSE.d3
	@cp node_modules/@observablehq/plot/LICENSE www/vendor/LICENSE.plot
	@echo "[playground] www/vendor/: Observable Plot $$(node -p 'require("./node_modules/@observablehq/plot/package.json").version'), d3 $$(node -p 'require("./node_modules/d3/package.json").version')"

demo-playground: pkg playground-vendor
	@node scripts/serve-demo.mjs

# Two files at a time (each with its own Chromium): on a 2-core machine, where Node's
# default is one at a time, the five took 35-36 s one after another, against 30-32.5 s
# for the single file they were split from (2026-12-01); two at a time, 28.5-30.5 s.
test-playground: pkg playground-vendor
	node --test --test-concurrency=2 tests/js/playground/*.test.mjs
	@echo "[playground] screenshots in test-results/: playground.png (1280 px), playground-375.png (375 px)"

# Regenerates www/data/cisi-sample.json from ../shared/data/cisi-abstain and the titles of
# ../shared/data/cisi (committed; the test checks it is in sync when the data is there).
playground-data:
	node scripts/make-cisi-sample.mjs
