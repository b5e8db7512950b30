// A bundled app that imports Pipeline and nothing else from calibrank: its bundler must
// emit (and the page fetch) calibrank_pipeline.wasm alone (tests/js/bundlers.test.mjs).
import { Pipeline } from "calibrank";
import { pipelineOnly } from "./fixture.js";

const p = new Pipeline(pipelineOnly.config);
const out = p.run(pipelineOnly.input);
let errorCode = null;
try {
  new Pipeline({ topN: 0 });
} catch (e) {
  errorCode = e.code;
}
window.__result = { results: out.results, confidence: out.confidence, outcome: out.outcome, errorCode, config: p.config };
document.getElementById("out").textContent = JSON.stringify(window.__result, null, 2);
