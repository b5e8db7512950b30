// A bundled app that imports Pipeline and nothing else from calibrank: its bundler must
// emit (and the page fetch) calibrank_pipeline.wasm alone (tests/js/bundlers.test.mjs).
import { Pipeline } from "calibrank";
import { runPipelineOnly } from "./fixture.js";

window.__result = runPipelineOnly(Pipeline);
document.getElementById("out").textContent = JSON.stringify(window.__result, null, 2);
