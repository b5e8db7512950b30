// What every route and the page compute: a Pipeline result, a ScoreError code, a lab fit
// and a lab error (both entries; one ScoreError class), and a reranking call whose texts
// are held back (the module asks for its pool's: through calibrank_texts.wasm in the
// edge route, which compiles no wasm from bytes).
import { Pipeline, ScoreError, __heldTextsCalls } from "calibrank";
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
  const asked = __heldTextsCalls();
  const ids = ["a", "b", "c", "d", "e"];
  const items = Object.fromEntries(ids.map((id, i) => [id, { name: i % 2 ? "graph cache" : "token store", summary: `notes on ${id}` }]));
  const held = new Pipeline({ topK: 3, topN: 3, minConfidence: 0, rerank: { method: "heuristic" } }).run({ query: "graph", lists: [{ name: "a", ids }], items });
  return {
    results: r.results.map((x) => [x.id, x.score, x.band]),
    held: held.results.map((x) => [x.id, x.score]),
    heldAsked: __heldTextsCalls() - asked,
    code,
    platt: fitPlatt([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1]),
    labCode,
    sameScoreError: ScoreError === LabScoreError,
  };
}
