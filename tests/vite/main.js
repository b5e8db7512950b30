// A bundled app: Vite resolves "calibrank" and "calibrank/lab" through the exports map's
// browser entries and emits each .wasm as an asset.
import { Pipeline, ScoreError, calibrate } from "calibrank";
import { evaluate, fitPlatt, ScoreError as LabScoreError } from "calibrank/lab";
import { input, config, qrels, run, metrics, scores, labels } from "./fixture.js";

const out = new Pipeline(config).run(input);
let errorCode = null;
try {
  new Pipeline({ topN: 0 });
} catch (e) {
  errorCode = e instanceof ScoreError ? e.code : `not a ScoreError: ${e}`;
}
let labErrorCode = null;
try {
  fitPlatt([0.2, 0.4], [0, 2]);
} catch (e) {
  labErrorCode = e instanceof ScoreError ? e.code : `not a ScoreError: ${e}`;
}
window.__result = {
  results: out.results.map((r) => [r.id, r.score, r.band]),
  confidence: out.confidence,
  errorCode,
  half: calibrate([0.035])[0],
  evaluation: evaluate(qrels, run, metrics),
  platt: fitPlatt(scores, labels),
  labErrorCode,
  sameScoreError: ScoreError === LabScoreError,
};
document.getElementById("out").textContent = JSON.stringify(window.__result, null, 2);
