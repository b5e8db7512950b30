// Injected into the Node entries' bundles (scripts/build-pkg.sh, esbuild `--inject`):
// every free `TextEncoder` / `TextDecoder` of the bundle is node:util's. In Node they are
// the very classes of the globals; a test runner that swaps the globals for a browser
// emulation's (Jest's jsdom environment has no TextEncoder) leaves them in place, so
// `require("calibrank")` works there too (tests/js/runners.test.mjs).
export { TextEncoder, TextDecoder } from "node:util";
