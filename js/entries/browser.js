// Browsers and bundlers (the `browser` and `default` conditions: a plain
// <script type="module">, Vite, webpack, Parcel, esbuild, Rollup). Two entry files, each
// loading a .wasm with a top-level await:
//   browser.functions.js  every function but Pipeline, on calibrank_core.wasm (which
//                         holds every operation, Pipeline's too);
//   browser.pipeline.js   Pipeline: on that same module when browser.functions.js is
//                         loading it, else on calibrank_pipeline.wasm (Pipeline alone).
// None of the three is listed in package.json's `sideEffects`, so a bundler keeps only
// the entry files whose exports the app uses (each defines its exports, which keeps its
// loading with them): an app that imports Pipeline and nothing else fetches
// calibrank_pipeline.wasm alone; any other app fetches calibrank_core.wasm alone (the
// functions' entry comes first here, so that its loading has begun when Pipeline's entry
// looks for it), but with Parcel, which may run Pipeline's entry first (both are then
// fetched, one after the other). Without a bundler both entries run, and share
// calibrank_core.wasm. Checked for webpack, Rollup, esbuild, Vite and Parcel by
// tests/js/bundlers.test.mjs and bench/experiments/pipeline-split/run.mjs.
export { version, errorCodes, defaultLimits, normalize, calibrate, classifyBand, queryConfidence, rrf, rrfColumnar, fuseMultiQuery, rerank, __dropScratch } from "./browser.functions.js";
export { Pipeline, Items, __livePipelines, __heldTextsCalls } from "./browser.pipeline.js";
export { ScoreError } from "./score_error.js";
