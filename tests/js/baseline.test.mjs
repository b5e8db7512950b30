// The benchmark's JS baseline (bench/baseline/) must do the same work as the package:
// on the benchmark inputs (bench/gen.mjs) it ranks exactly as the package does (same
// ids in the same order; scores equal, within 1e-12 where the sigmoid's exp is
// involved, since the baseline uses Math.exp and the package libm's exp), with the
// same bands, query confidence and statistics. `make test-bench` runs it; the sizes
// default to 10 .. 100,000 (BASELINE_TEST_SIZES=10,1000000 to change; bench/run.mjs
// also checks every size it times, the "same ranking" column).
import test from "node:test";
import assert from "node:assert/strict";
import * as lib from "calibrank";
import * as baseline from "../../bench/baseline/calibrank-baseline.mjs";
import * as gen from "../../bench/gen.mjs";

const sizes = (process.env.BASELINE_TEST_SIZES ?? "10,20,100,1000,10000,100000").split(",").map(Number);
const EPS = 1e-12;

function sameScores(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++) assert.ok(Math.abs(actual[i] - expected[i]) <= EPS, `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
}

function sameConfidence(actual, expected) {
  for (const key of ["weightedTop5", "expectedPrecision", "atLeastOneRelevant"]) assert.ok(Math.abs(actual[key] - expected[key]) <= EPS, `confidence.${key}`);
  assert.equal(actual.k, expected.k, "confidence.k");
}

for (const n of sizes) {
  test(`baseline ranks as the package, N = ${n}`, () => {
    const inputs = gen.makeInputs(n);
    const { strLists, inputB, inputC, columnar } = inputs;

    // (a) fusion: exact (no exp involved).
    const w = lib.rrf(strLists, { limits: gen.BENCH_LIMITS });
    const j = baseline.rrf(strLists);
    assert.equal(w.length, j.length);
    assert.ok(w.every(([id, s], i) => id === j[i][0] && s === j[i][1]), "rrf: same ids, same scores, same order");
    // The tuned one (bench/tuned.mjs) too, and with duplicates and weights.
    assert.deepEqual(baseline.rrfTuned(strLists), j, "rrfTuned: as rrf");
    const dup = [["a", "b", "a", "c"], ["c", "c", "a"], ["b"]];
    assert.deepEqual(baseline.rrfTuned(dup, { k: 3, weights: [1, 2, 0.5] }), lib.rrf(dup, { k: 3, weights: [1, 2, 0.5] }), "rrfTuned: duplicates keep their first rank");
    const wc = lib.rrfColumnar(columnar.docs, columnar.offsets, columnar.nDocs);
    const jc = baseline.rrfColumnar(columnar.docs, columnar.offsets, columnar.nDocs);
    assert.deepEqual([...wc.order], [...jc.order], "rrfColumnar: order");
    assert.deepEqual([...wc.scores], [...jc.scores], "rrfColumnar: scores");

    // (b) and (c): the pipeline.
    for (const [name, rerank, input] of [["b", false, inputB], ["c", true, inputC]]) {
      const cfg = gen.pipelineConfig(rerank);
      const wp = new lib.Pipeline(cfg);
      const out = wp.run(input);
      const ref = new baseline.Pipeline(cfg).run(input);
      // The tuned pipeline (bench/tuned.mjs) gives the idiomatic one's output exactly.
      assert.deepEqual(new baseline.TunedPipeline(cfg).run(input), ref, `${name}: the tuned baseline`);
      assert.ok(out.results.length > 0, `${name}: some results`);
      assert.deepEqual(out.results.map((r) => r.id), ref.results.map((r) => r.id), `${name}: ids in order`);
      assert.deepEqual(out.results.map((r) => r.band), ref.results.map((r) => r.band), `${name}: bands`);
      sameScores(out.results.map((r) => r.score), ref.results.map((r) => r.score), `${name}: scores`);
      sameConfidence(out.confidence, ref.confidence);
      assert.deepEqual(out.stats, ref.stats, `${name}: stats`);
      if (!rerank) {
        const oc = wp.runColumnar(columnar);
        const rc = new baseline.Pipeline(cfg).runColumnar(columnar);
        assert.deepEqual([...oc.order], [...rc.order], "runColumnar: order");
        assert.deepEqual([...oc.bands], [...rc.bands], "runColumnar: bands");
        sameScores([...oc.scores], [...rc.scores], "runColumnar: scores");
        sameConfidence(oc.confidence, rc.confidence);
        assert.equal(oc.candidates, rc.candidates, "runColumnar: candidates");
      }
      wp.free();
    }
  });
}

test("the baseline's query-term extractor matches the package's reranker", () => {
  // rerank() exposes the factors, which depend on the extracted terms only through the
  // hit counts; compare them on queries that exercise camelCase, acronyms, snake/kebab
  // case, Unicode, stopwords and duplicates.
  const queries = ["GraphTraversal", "HTTPServer parse_json-file", "How do I configure the Authentication?", "graph GRAPH Graph", "Über straße ÉCOLE", "a b c", "getHTTPResponseCode2XX v2Api", gen.QUERY];
  const names = ["GraphTraversalService", "httpserver", "configure-auth", "graph", "über-straße", "abc", "HTTPResponseCodeHandler", "AuthTokenCacheRouter"];
  // The package's defaults (seed 003).
  const cfg = {
    exactNameMultiplier: 3,
    nameTermWeight: 1.5,
    summaryTermWeight: 0.5,
    shortContentChars: 50,
    shortContentMultiplier: 0.5,
    typeMultipliers: { class: 1.3, function: 1.2, method: 1.2, interface: 1.1, type: 1.1, document: 1.2, section: 1.1, file: 0.7, module: 0.8 },
    unknownTypeMultiplier: 1,
  };
  for (const q of queries) {
    const candidates = names.map((name, i) => ({ id: `c${i}`, score: 1, name, summary: `${name} summary text`, type: "Class" }));
    const fromPackage = new Map(lib.rerank(q, candidates).map((r) => [r.id, r.factors]));
    const query = { lower: q.trim().toLowerCase(), terms: baseline.extractTerms(q) };
    assert.deepEqual(new baseline.TunedPipeline({}).terms(q), query.terms, `${q}: the tuned extractor`);
    for (const c of candidates) {
      const f = baseline.heuristicFactors(query, c, cfg);
      const p = fromPackage.get(c.id);
      for (const key of ["exactName", "nameTerms", "summaryTerms", "shortContent", "entityType", "multiplier"]) assert.equal(f[key], p[key], `${q} / ${c.name}: ${key}`);
    }
  }
});
