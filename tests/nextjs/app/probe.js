// What every route and the page compute: a Pipeline result, a ScoreError code, a lab fit
// and a lab error (both entries; one ScoreError class).
import { Pipeline, ScoreError } from "calibrank";
import { fitPlatt, ScoreError as LabScoreError } from "calibrank/lab";

export function probe() {
  const r = new Pipeline({ minConfidence: 0 }).run({ lists: [{ name: "a", ids: ["x", "y"] }, { name: "b", ids: ["y"] }] });
  let code = null;
  try {
    new Pipeline({ topN: 0 });
  } catch (e) {
    code = e instanceof ScoreError ? e.code : String(e);
  }
  let labCode = null;
  try {
    fitPlatt([0.2, 0.4], [0, 2]);
  } catch (e) {
    labCode = e instanceof ScoreError ? e.code : String(e);
  }
  return {
    results: r.results.map((x) => [x.id, x.score, x.band]),
    code,
    platt: fitPlatt([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1]),
    labCode,
    sameScoreError: ScoreError === LabScoreError,
  };
}
