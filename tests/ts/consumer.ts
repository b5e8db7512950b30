// A TypeScript consumer of the package, compiled with `tsc --strict --noEmit`
// against the package's own .d.ts (resolved through the exports map).
import {
  Pipeline,
  ScoreError,
  rrf,
  rrfColumnar,
  fuseMultiQuery,
  rerank,
  normalize,
  calibrate,
  classifyBand,
  queryConfidence,
  optimizeFusion,
  fitPlatt,
  defaultLimits,
  evaluate,
  parseTrecRun,
  type Limits,
  type ErrorCode,
  type PipelineConfig,
  type PipelineInput,
  type PipelineOutput,
  type RetrievalOutcome,
  type Band,
} from "calibrank";

const config: PipelineConfig = {
  topK: 20,
  topN: 5,
  recency: { mode: "step", steps: [{ maxAgeDays: 7, multiplier: 1.2 }] },
  calibration: { method: "sigmoid", threshold: 0.02 },
  bands: { highFloor: 0.9, degradedFloor: 0.6, profiles: [{ name: "rust", language: "rust", highFloor: 0.8, degradedFloor: 0.5 }] },
};
const input: PipelineInput = {
  query: "authentication",
  lists: [{ name: "semantic", ids: ["a", "b"] }, { name: "keyword", ids: ["b"], scores: [3.5], weight: 0.5 }],
  items: { a: { modifiedAt: "2026-11-01T00:00:00Z", type: "class" } },
  now: Date.now(),
};
const out: PipelineOutput = new Pipeline(config).run(input);
for (const r of out.results) {
  const band: Band = r.band;
  const fused: number | undefined = r.explain?.fused;
  console.log(r.id.toUpperCase(), r.score.toFixed(3), band, fused);
}
const top5: number = out.confidence.weightedTop5;

const pairs: Array<[id: string, score: number]> = rrf([["a", "b"], ["b"]], { k: 60, weights: [1, 2] });
const col: { order: Uint32Array; scores: Float64Array } = rrfColumnar(new Uint32Array([0, 1, 1]), new Uint32Array([0, 2, 3]), 2);
const mq = fuseMultiQuery([[{ id: "a", score: 0.9, timestamp: "2026-01-01" }]], { method: "score_max", verbose: true });
const count: number | undefined = mq.results[0]?.appearedInQueryCount;
const reranked = rerank("GraphTraversal", [{ id: "g", score: 0.1, name: "GraphTraversal", type: "class" }]);
const rs: number = reranked[0]!.rerankedScore;
const n: Float64Array = normalize(new Float64Array([1, 2]), "min_max");
const c: Float64Array = calibrate([0.03], { steepness: 120 });
const q = queryConfidence(c);
const p1: number = q.atLeastOneRelevant;

// RetrievalOutcome is a union discriminated on `kind`.
const outcome: RetrievalOutcome = classifyBand(0.9, { highFloor: 0.85 });
switch (outcome.kind) {
  case "hit":
  case "degraded":
    console.log(outcome.score);
    break;
  case "miss":
    // @ts-expect-error: a miss carries no score
    console.log(outcome.score);
    break;
}
// @ts-expect-error: "excellent" is not a band kind
const wrong: RetrievalOutcome = { kind: "excellent", score: 1 };
// @ts-expect-error: normalize takes one of the documented method names
normalize([1], "minmax");
// @ts-expect-error: topN is a number
new Pipeline({ topN: "5" });

try {
  new Pipeline({ topN: 0 });
} catch (e) {
  if (e instanceof ScoreError) {
    const code: ErrorCode = e.code;
    const field: string = e.field;
    // @ts-expect-error: codes are a closed union
    const nope: ErrorCode = "NOT_A_CODE";
    console.log(code, field, nope);
  }
}
const report = optimizeFusion({ q: { a: 1 } }, [{ q: { a: 1, b: 2 } }, { q: { b: 1, a: 2 } }], { method: "rrf", metric: "mrr" });
const bestK: number | undefined = report.best.params["k"];
const fitted = fitPlatt([0.1, 0.9], [0, 1]);
const tuned = new Pipeline({ calibration: fitted });
console.log(top5, pairs, col, count, rs, n, p1, wrong, bestK, tuned);

// Limits: defaults fully typed, per-call limits in every function's options.
const limits: Required<Limits> = defaultLimits();
const entries: number = limits.maxTotalEntries;
rrf([["a"]], { k: 60, limits: { maxTotalEntries: 2 * entries } });
const run = parseTrecRun("q1 Q0 d1 1 1.0 t", { limits: { maxTotalTextBytes: 1_000_000 } });
const ndcg: number | undefined = evaluate({ q1: { d1: 1 } }, run, ["ndcg@10"], { limits: { maxTotalEntries: 10 } })["ndcg@10"];
new Pipeline({ limits: { maxColumnarEntries: 8_000_000 } });
// @ts-expect-error: a misspelled limit
rrf([["a"]], { limits: { maxEntries: 10 } });
// @ts-expect-error: limits are numbers
calibrate([0.1], { limits: { maxListLength: "10" } });
console.log(ndcg);
