// The golden vectors (tests/golden/vectors.json) recomputed with the package, and a
// query-confidence model's predictions made here for one fitted in another runtime:
// what must come out bit for bit the same everywhere.

import { AssertionError, assert, eq, hexOf, queryLists } from "./helpers.js";

/** Recomputes one golden case with the package and returns it in the file's form. */
export function computeGolden(lib, c) {
  switch (c.kind) {
    case "calibrate":
      return Array.from(lib.calibrate(new Float64Array(c.scores), { threshold: c.threshold, steepness: c.steepness }), hexOf);
    case "normalize":
      return Array.from(lib.normalize(c.scores, c.method, { temperature: c.temperature }), hexOf);
    case "rrf":
      return lib.rrf(c.lists, { k: c.k, weights: c.weights }).map(([id, s]) => [id, hexOf(s)]);
    case "multiquery":
      return lib.fuseMultiQuery(c.queries, c.options).results.map((r) => [r.id, hexOf(r.score)]);
    case "rerank":
      return lib.rerank(c.query, c.candidates).map((r) => [r.id, hexOf(r.rerankedScore)]);
    case "confidence": {
      const q = lib.queryConfidence(c.scores);
      return [q.weightedTop5, q.expectedPrecision, q.atLeastOneRelevant].map(hexOf);
    }
    case "fuseRuns": {
      const fused = lib.fuseRuns(c.runs, c.options);
      return Object.fromEntries(Object.entries(fused).map(([q, docs]) => [q, Object.fromEntries(Object.entries(docs).map(([d, s]) => [d, hexOf(s)]))]));
    }
    case "evaluate":
      return Object.fromEntries(Object.entries(lib.evaluate(c.qrels, c.run, c.metrics)).map(([m, v]) => [m, hexOf(v)]));
    case "fit": {
      const p = lib.fitPlatt(c.scores, c.labels);
      const iso = lib.fitIsotonic(new Float64Array(c.scores), new Float64Array(c.labels));
      return { platt: [hexOf(p.a), hexOf(p.b)], isotonic: Array.from(lib.applyCalibration(c.probe, iso), hexOf) };
    }
    case "queryConfidence": {
      const m = lib.fitQueryConfidence(c.qrels, c.runs, c.options);
      const predictions = lib.predictQueryConfidence(m, c.runs);
      const pipeline = ["q00", "q01", "q11", "q16"].map((q) => {
        const out = new lib.Pipeline({ minConfidence: 0, explain: false, confidence: { ...c.outcome, model: m } }).run({ lists: queryLists(c.runs, q) });
        eq(out.outcome.probability, out.confidence.atLeastOneRelevant, "outcome probability");
        eq(out.outcome.source, "model", "outcome source");
        return [q, hexOf(out.confidence.atLeastOneRelevant), out.outcome.kind];
      });
      return {
        coefficients: m.coefficients.map(hexOf),
        intercept: hexOf(m.intercept),
        mean: m.mean.map(hexOf),
        scale: m.scale.map(hexOf),
        missingTop: m.missingTop.map(hexOf),
        training: [m.training.queries, m.training.positives, hexOf(m.training.logLoss), hexOf(m.training.auroc)],
        predictions: Object.fromEntries(Object.entries(predictions).map(([q, p]) => [q, hexOf(p)])),
        pipeline,
      };
    }
    case "band":
      return c.scores.map((s) => lib.classifyBand(s).kind);
    case "pipeline": {
      const out = new lib.Pipeline(c.config).run(c.input);
      const q = out.confidence;
      return {
        results: out.results.map((r) => [r.id, hexOf(r.score), r.band]),
        confidence: [q.weightedTop5, q.expectedPrecision, q.atLeastOneRelevant].map(hexOf),
      };
    }
    default:
      throw new AssertionError(`unknown golden case kind ${c.kind}`);
  }
}

/**
 * Predictions of a query-confidence model made elsewhere (issue 13: fitted in Node,
 * predicted here): `predictQueryConfidence` of every query of `runs`, and a `Pipeline`
 * with `confidence: { model }` on the lists of each query of `queries`, as the bit
 * patterns of the probabilities and the outcomes' kinds.
 */
export function predictWithModel(lib, model, runs, queries) {
  const predictions = lib.predictQueryConfidence(model, runs);
  const pipeline = new lib.Pipeline({ minConfidence: 0, explain: false, confidence: { model } });
  try {
    const outcomes = queries.map((q) => {
      const out = pipeline.run({ lists: queryLists(runs, q) });
      return [q, hexOf(out.outcome.probability), out.outcome.kind, out.outcome.source];
    });
    return {
      predictions: Object.keys(predictions)
        .sort()
        .map((q) => [q, hexOf(predictions[q])]),
      outcomes,
    };
  } finally {
    pipeline.free();
  }
}

export function goldenTests(test, lib, golden) {
  test("golden vectors reproduce bit for bit", () => {
    assert(golden.cases.length >= 15, "golden cases");
    golden.cases.forEach((c, i) => eq(computeGolden(lib, c), c.expected, `golden case ${i} (${c.kind})`));
  });
}
