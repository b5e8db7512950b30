// An app of the entries without top-level await (calibrank/init, calibrank/lab/init),
// for IIFE bundles and older targets: the page places the .wasm files itself (next to
// the bundle) and hands them over, the core's by URL, the lab's as a fetch Response.
import init, { Pipeline, ScoreError, calibrate, isInitialized } from "calibrank/init";
import { init as initLab, evaluate, fitPlatt, ScoreError as LabScoreError } from "calibrank/lab/init";
import { input, config, qrels, run, metrics, scores, labels } from "./fixture.js";

const codeOf = (f) => {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof ScoreError ? e.code : `not a ScoreError: ${e}`;
  }
};
// Before init: a ScoreError that says what to call.
const beforeInit = codeOf(() => new Pipeline(config));
const labBeforeInit = codeOf(() => fitPlatt(scores, labels));

Promise.all([init("./calibrank_core.wasm"), initLab(fetch("./calibrank_lab.wasm"))]).then(
  () => {
    const out = new Pipeline(config).run(input);
    window.__result = {
      beforeInit,
      labBeforeInit,
      initialized: isInitialized(),
      results: out.results.map((r) => [r.id, r.score, r.band]),
      confidence: out.confidence,
      errorCode: codeOf(() => new Pipeline({ topN: 0 })),
      half: calibrate([0.035])[0],
      evaluation: evaluate(qrels, run, metrics),
      platt: fitPlatt(scores, labels),
      labErrorCode: codeOf(() => fitPlatt([0.2, 0.4], [0, 2])),
      sameScoreError: ScoreError === LabScoreError,
    };
    document.getElementById("out").textContent = JSON.stringify(window.__result, null, 2);
  },
  (e) => console.error(String(e)),
);
