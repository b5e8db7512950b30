// A bundled app: Vite resolves "calibrank" through the exports map's browser entry and
// emits the .wasm as an asset.
import { Pipeline, ScoreError, calibrate } from "calibrank";
import { input, config } from "./fixture.js";

const out = new Pipeline(config).run(input);
let errorCode = null;
try {
  new Pipeline({ topN: 0 });
} catch (e) {
  errorCode = e instanceof ScoreError ? e.code : `not a ScoreError: ${e}`;
}
window.__result = { results: out.results.map((r) => [r.id, r.score, r.band]), confidence: out.confidence, errorCode, half: calibrate([0.035])[0] };
document.getElementById("out").textContent = JSON.stringify(window.__result, null, 2);
