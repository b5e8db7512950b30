// What each scoring function returns: the design documents' worked examples, the
// defaults, the columnar paths against the string ones.

import { hexOf, assert, eq, throwsScoreError, seedInput } from "./helpers.js";

export function scoringTests(test, lib) {
  test("the classes keep their names (the bundler's `class _Pipeline` does not show)", () => {
    eq(lib.Pipeline.name, "Pipeline");
    const p = new lib.Pipeline();
    eq(p.constructor.name, "Pipeline");
    p.free();
    eq(Object.keys(lib.Pipeline), []);
    if (lib.Run) {
      eq([lib.Run.name, lib.Qrels.name], ["Run", "Qrels"]);
      const r = lib.Run.fromObject({ q: { a: 1 } });
      eq(r.constructor.name, "Run");
      r.free();
    }
    // In stack traces too: the engine names a frame after the class's own binding,
    // which a getter does not change (V8 printed `new _Pipeline`, `_Run.fromTrec`).
    const stackOf = (f) => {
      try {
        f();
      } catch (e) {
        return String(e.stack);
      }
      throw new Error("expected a throw");
    };
    const q = new lib.Pipeline();
    const stacks = [stackOf(() => new lib.Pipeline({ k: 0 })), stackOf(() => q.run({ lists: 5 })), stackOf(() => q.runColumnar(null))];
    q.free();
    stacks.push(stackOf(() => q.run({ lists: [] })));
    if (lib.Run) stacks.push(stackOf(() => lib.Run.fromTrec("bad line")), stackOf(() => lib.Qrels.fromObject(5)));
    // (V8, in Node, Chromium, workerd and Deno, names a method's frame after its class:
    // `_Pipeline.run` before; JavaScriptCore, in Bun, by the method alone.)
    for (const st of stacks) if (/\b_(Pipeline|Run|Qrels|LabObject)\b/.test(st)) throw new Error(`a renamed class in a stack trace: ${st}`);
  });

  test("rrf: seed 000 example, highest first, ties by id", () => {
    const out = lib.rrf([["a", "x", "y"], ["p", "q", "a"]]);
    eq(out[0], ["a", 1 / 61 + 1 / 63]);
    eq(out.map(([id]) => id), ["a", "p", "q", "x", "y"]);
    const w = lib.rrf([["a"], ["b"]], { k: 10, weights: [1, 2] });
    eq(w, [["b", 2 / 11], ["a", 1 / 11]]);
  });

  test("rerank lowercases as Unicode's default lowercasing: the final sigma, İ, the Kelvin sign", () => {
    // src/rerank/lowercase.rs (the crate's own tables): Σ is ς at the end of a word and
    // σ within one, İ two characters, K (U+212A) a k.
    const cands = [
      { id: "final", score: 1, name: "ΟΔΟΣ" },
      { id: "medial", score: 1, name: "ΟΔΟΣΑ" },
      { id: "dotted", score: 1, name: "İSTANBUL" },
      { id: "kelvin", score: 1, name: "\u212AELVIN" },
    ];
    const exact = (q) => Object.fromEntries(lib.rerank(q, cands).map((r) => [r.id, r.factors.exactName]));
    eq(exact("οδος"), { final: 3, medial: 1, dotted: 1, kelvin: 1 });
    eq(exact("ΟΔΟΣ"), { final: 3, medial: 1, dotted: 1, kelvin: 1 });
    eq(exact("οδοσ"), { final: 1, medial: 1, dotted: 1, kelvin: 1 });
    eq(exact("οδοσα"), { final: 1, medial: 3, dotted: 1, kelvin: 1 });
    eq(exact("i\u0307stanbul"), { final: 1, medial: 1, dotted: 3, kelvin: 1 });
    eq(exact("istanbul"), { final: 1, medial: 1, dotted: 1, kelvin: 1 });
    eq(exact("KELVIN"), { final: 1, medial: 1, dotted: 1, kelvin: 3 });
  });

  test("Pipeline: a call's own topN (seed 000's per-call parameter)", () => {
    const p = new lib.Pipeline({ minConfidence: 0 });
    try {
      eq(p.run(seedInput()).results.length, 5);
      for (const n of [1, 2, 10]) {
        const q = new lib.Pipeline({ minConfidence: 0, topN: n });
        try {
          eq(p.run({ ...seedInput(), topN: n }), q.run(seedInput()), `topN ${n}`);
        } finally {
          q.free();
        }
      }
      for (const n of [0, 11, -1, 1e20]) throwsScoreError(lib, () => p.run({ ...seedInput(), topN: n }), "INVALID_TOP_N", "topN");
      for (const n of [2.5, "3", NaN, Infinity]) throwsScoreError(lib, () => p.run({ ...seedInput(), topN: n }), "INVALID_TYPE", "topN");
      // Checked before what the module checks of the input, whatever the number (as
      // runColumnar does); after what the JavaScript finds while reading it.
      const twice = { lists: [{ name: "a", ids: ["x"] }, { name: "a", ids: ["y"] }] };
      for (const n of [0, 99, -1]) throwsScoreError(lib, () => p.run({ ...twice, topN: n }), "INVALID_TOP_N", "topN");
      throwsScoreError(lib, () => p.run(twice), "DUPLICATE_ID", "lists[1].name");
      throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"] }], now: "yesterday", items: { x: { modifiedAt: 1 } }, topN: 0 }), "INVALID_TOP_N", "topN");
      throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { name: 5 } }, topN: 0 }), "INVALID_TYPE", "items.x.name");
      const col = (topN) => p.runColumnar({ docs: new Uint32Array([0, 1, 2, 2, 1]), offsets: new Uint32Array([0, 3, 5]), nDocs: 3, topN });
      eq(Array.from(col(undefined).order), [2, 1, 0]);
      eq(Array.from(col(1).order), [2]);
      throwsScoreError(lib, () => col(11), "INVALID_TOP_N", "topN");
      throwsScoreError(lib, () => col(0.5), "INVALID_TYPE", "topN");
    } finally {
      p.free();
    }
  });

  test("Pipeline: seed defaults, explain and contract", () => {
    const p = new lib.Pipeline();
    eq(p.config.topK, 10);
    eq(p.config.topN, 5);
    eq(p.config.calibration, { method: "sigmoid", threshold: 0.035, steepness: 150 });
    eq(p.config.minConfidence, 0.3);
    eq(p.config.k, 60);
    const out = p.run(seedInput());
    assert(out.results.length <= 5, "at most topN");
    assert(out.results.every((r) => r.score >= 0.3 && r.score <= 1), "scores within [minConfidence, 1]");
    for (let i = 1; i < out.results.length; i++) assert(out.results[i - 1].score >= out.results[i].score, "descending");
    const a = out.results[0];
    eq(a.id, "A");
    eq(a.band, "miss");
    eq(a.explain.fused, 1 / 61 + 1 / 63);
    eq(a.explain.recencyMultiplier, 1.2);
    eq(a.explain.contributions, [
      { list: "semantic", rank: 1, weight: 1, contribution: 1 / 61 },
      { list: "keyword", rank: 3, weight: 1, contribution: 1 / 63, listScore: 7.25 },
    ]);
    eq(out.stats.lists, 2);
    eq(out.stats.candidates, 12);
    assert(typeof out.confidence.weightedTop5 === "number", "confidence");
    // The pool: topK's 10 of the 12 candidates, not normalized by default.
    eq(Object.keys(out), ["results", "confidence", "outcome", "stats", "pool"]);
    eq(out.pool, { candidates: 10, normalization: { method: "none" } });
  });

  test("Pipeline: the pool's explanation recomputes each stage that reads the whole pool", () => {
    // One list a, b, c at k = 60 (1/61, 1/62, 1/63); topN 2 cuts c, the pool's minimum.
    const lists = [{ name: "only", ids: ["a", "b", "c"] }];
    const [a, b, c] = [1 / 61, 1 / 62, 1 / 63];
    const run = (cfg, input = {}) => new lib.Pipeline({ topN: 2, minConfidence: 0, ...cfg }).run({ lists, ...input });
    const mm = run({ normalization: { method: "min_max" } });
    eq(mm.pool, { candidates: 3, normalization: { method: "min_max", min: c, max: a } });
    eq(mm.results.map((r) => r.id), ["a", "b"]);
    const { min, max } = mm.pool.normalization;
    for (const r of mm.results) eq(hexOf(r.explain.normalized), hexOf((r.explain.afterRerank - min) / (max - min)));
    eq(run({ normalization: { method: "max" } }).pool.normalization, { method: "max", max: a });
    const z = run({ normalization: { method: "z_score" } }).pool.normalization;
    eq(Object.keys(z), ["method", "mean", "sd", "scale"]);
    eq([z.mean, z.scale], [(a + b + c) / 3, 1]);
    const sm = run({ normalization: { method: "softmax", temperature: 0.01 } }).pool.normalization;
    eq([sm.method, sm.max, sm.temperature], ["softmax", a, 0.01]);
    assert(Math.abs(sm.sum - (1 + Math.exp((b - a) / 0.01) + Math.exp((c - a) / 0.01))) < 1e-12, `softmax sum ${sm.sum}`);
    // The cross-encoder's raw range, its weakest candidate cut as well.
    const items = { a: { crossEncoderScore: 4 }, b: { crossEncoderScore: -2 }, c: { crossEncoderScore: -6 } };
    const ce = run({ rerank: { method: "cross_encoder" } }, { items });
    eq(ce.pool, { candidates: 3, crossEncoder: { method: "min_max", min: -6, max: 4 }, normalization: { method: "none" } });
    for (const r of ce.results) eq(r.explain.rerank.normalized, (r.explain.rerank.raw + 6) / 10);
    // Kept raw (`crossEncoderNormalization: "none"`): the model's scores go on as they are.
    const raw = run({ rerank: { method: "cross_encoder", crossEncoderNormalization: "none" }, calibration: { method: "platt", a: -1, b: 0 } }, { items });
    eq(raw.pool, { candidates: 3, crossEncoder: { method: "none" }, normalization: { method: "none" } });
    eq(raw.results.map((r) => [r.id, r.explain.rerank.raw, r.explain.rerank.normalized, r.explain.afterRerank]), [["a", 4, 4, 4], ["b", -2, -2, -2]]);
    // Platt's a = -1, b = 0 on them: 1 / (1 + exp(-x)), within an ulp or two of JavaScript's exp.
    for (const r of raw.results) assert(Math.abs(r.score - 1 / (1 + Math.exp(-r.explain.rerank.raw))) < 1e-15, `${r.id} ${r.score}`);
    eq(raw.results.map((r) => r.band), ["hit", "miss"]);
    eq(new lib.Pipeline({ rerank: { crossEncoderNormalization: "none" } }).config.rerank.crossEncoderNormalization, "none");
    eq(new lib.Pipeline().config.rerank.crossEncoderNormalization, "min_max");
    throwsScoreError(lib, () => new lib.Pipeline({ rerank: { crossEncoderNormalization: "z_score" } }), "UNKNOWN_METHOD", "config.rerank.crossEncoderNormalization");
    // candidateLimit: only the candidates within it are normalized.
    eq(run({ rerank: { method: "heuristic", candidateLimit: 2 } }, { query: "a" }).pool.candidates, 2);
    // None without explanations, nor for an empty pool.
    eq(Object.keys(run({ explain: false })), ["results", "confidence", "outcome", "stats"]);
    eq(new lib.Pipeline().run({ lists: [{ name: "only", ids: [] }] }).pool, undefined);
  });

  test("Pipeline: topN prefix and explain off", () => {
    const run = (n) => new lib.Pipeline({ topK: 20, topN: n, minConfidence: 0, explain: false }).run(seedInput()).results;
    const five = run(5);
    const three = run(3);
    eq(five.slice(0, 3), three);
    assert(five.every((r) => r.explain === undefined), "no explain");
  });

  test("sums are taken in the lists' and queries' order, as the README says (the same bits everywhere for the same order)", () => {
    // Ranks 1, 1, 2 against 2, 1, 1: equal on paper, one unit apart in the last bit.
    const hi = 0.048915917503966164;
    const lo = 0.04891591750396616;
    assert(hi !== lo && 1 / 61 + 1 / 61 + 1 / 62 !== 1 / 62 + 1 / 61 + 1 / 61, "the example needs a rounding difference");
    const lists = [["a", "b"], ["a"], ["b", "a"], ["b"]];
    eq(lib.rrf(lists), [["b", hi], ["a", lo]]);
    eq(lib.rrf(lists.slice().reverse()), [["a", hi], ["b", lo]]);
    // Each document's terms added in the lists' order, one rounding each.
    eq(lib.rrf(lists)[1][1], 1 / 61 + 1 / 61 + 1 / 62);
    const p = new lib.Pipeline({ minConfidence: 0, explain: false });
    const named = lists.map((ids, i) => ({ name: `l${i}`, ids }));
    eq(p.run({ lists: named }).results.map((r) => r.id), ["b", "a"]);
    eq(p.run({ lists: named.slice().reverse() }).results.map((r) => r.id), ["a", "b"]);
    p.free();
    // fuseMultiQuery's score_sum: similarities 0.6, 0.7, 0.8 in two orders.
    const q = [0.6, 0.7, 0.8].map((sx, i) => [{ id: "x", score: sx }, { id: "y", score: [0.8, 0.7, 0.6][i] }]);
    const sum = lib.fuseMultiQuery(q, { method: "score_sum" }).results;
    eq(sum.map((r) => [r.id, r.score]), [["y", 0.8 + 0.7 + 0.6], ["x", 0.6 + 0.7 + 0.8]]);
    assert(sum[0].score !== sum[1].score, "one unit apart");
    // Scale-free normalizations read a one-unit difference as any other.
    eq(Array.from(lib.normalize([0.1, 0.1 + 2 ** -56], "min_max")), [0, 1]);
    eq(Array.from(lib.normalize([0.1, 0.1], "min_max")), [1, 1]);
  });

  test("fuseMultiQuery: seed 001 examples", () => {
    const q1 = [{ id: "B", score: 0.88 }, { id: "x", score: 0.87 }, { id: "A", score: 0.85 }];
    const q2 = [{ id: "A", score: 0.92 }];
    const rrf = lib.fuseMultiQuery([q1, q2], { verbose: true });
    eq(rrf.results[0].id, "A");
    eq(rrf.results[0].score, 1 / 63 + 1 / 61);
    eq(rrf.results[0].queryRanks, { 0: 3, 1: 1 });
    eq(rrf.results[0].queryScores, { 0: 0.85, 1: 0.92 });
    eq(rrf.results[0].appearedInQueryCount, 2);
    eq(rrf.stats.uniqueItems, 3);
    eq(rrf.stats.itemsInMultipleQueries, 1);
    const max = lib.fuseMultiQuery([[{ id: "B", score: 0.95 }, { id: "A", score: 0.85 }], [{ id: "A", score: 0.78 }]], { method: "score_max" });
    eq(max.results[0].id, "B");
    assert(Math.abs(max.results[1].score - 0.935) < 1e-12, "0.85 * 1.1");
    assert(max.results[0].queryScores === undefined, "not verbose");
    const ts = lib.fuseMultiQuery([[{ id: "b", score: 0.8, timestamp: "2024-01-01" }], [{ id: "a", score: 0.8, timestamp: 1717200000000 }]], { method: "score_sum" });
    eq(ts.results.map((r) => r.id), ["a", "b"]);
    // Negative similarities (a threshold below 0) are taken as they are, as the README
    // says: a second query lowers the item's score.
    const neg = [[{ id: "a", score: -0.5 }, { id: "b", score: -0.6 }], [{ id: "b", score: -0.6 }]];
    eq(lib.fuseMultiQuery(neg, { method: "score_max", similarityThreshold: -1 }).results, [{ id: "a", score: -0.5 }, { id: "b", score: -0.6 * (1 + 0.1 * 1) }]);
    eq(lib.fuseMultiQuery(neg, { method: "score_sum", similarityThreshold: -1 }).results, [{ id: "a", score: -0.5 }, { id: "b", score: -0.6 + -0.6 }]);
  });

  test("rerank: seed 003 GraphTraversal", () => {
    const out = lib.rerank("GraphTraversal", [
      { id: "tf", score: 0.016, name: "traversal.ts", type: "file", content: "export {}" },
      { id: "gt", score: 0.016, name: "GraphTraversal", type: "class" },
    ]);
    eq(out.map((r) => r.id), ["gt", "tf"]);
    eq(out[0].originalScore, 0.016);
    eq(out[0].factors.exactName, 3);
    eq(out[0].factors.nameTerms, 2.5);
    eq(out[0].factors.entityType, 1.3);
    assert(Math.abs(out[0].rerankedScore - 0.016 * 9.75) < 1e-15, "x9.75");
  });

  test("typeMultipliers: keys in lowercase match any case of a type; others are refused", () => {
    const c = [{ id: "x", score: 1, name: "n", type: "Class" }];
    eq(lib.rerank("q", c, { typeMultipliers: { class: 2 } })[0].factors.entityType, 2);
    // A key with an uppercase letter never matched (the type is lowercased): refused.
    throwsScoreError(lib, () => lib.rerank("q", c, { typeMultipliers: { CLASS: 2 } }), "INVALID_CONFIG", "options.typeMultipliers.CLASS");
    throwsScoreError(lib, () => new lib.Pipeline({ rerank: { method: "heuristic", heuristic: { typeMultipliers: { Class: 2 } } } }), "INVALID_CONFIG", "config.rerank.heuristic.typeMultipliers.Class");
    // Stopwords too: the query's terms are lowercased before they meet them, so "Foo"
    // never removed "foo" (it was ignored without a word).
    const foo = [{ id: "x", score: 1, name: "foo baz" }];
    eq(lib.rerank("foo bar", foo, { stopwords: ["foo"] })[0].factors.nameTerms, 1);
    const stop = throwsScoreError(lib, () => lib.rerank("foo bar", foo, { stopwords: ["bar", "Foo"] }), "INVALID_CONFIG", "options.stopwords[1]");
    eq(stop.message, 'stopwords are matched against the query\'s terms lowercased: write "foo"');
    throwsScoreError(lib, () => new lib.Pipeline({ rerank: { method: "heuristic", heuristic: { stopwords: ["FOO"] } } }), "INVALID_CONFIG", "config.rerank.heuristic.stopwords[0]");
  });

  test("normalize and calibrate return Float64Array in input order", () => {
    const n = lib.normalize(new Float64Array([2, 1, 0.5]), "max");
    assert(n instanceof Float64Array, "Float64Array");
    eq(Array.from(n), [1, 0.5, 0.25]);
    eq(Array.from(lib.normalize([3, 1, 2], "min_max")), [1, 0, 0.5]);
    eq(Array.from(lib.normalize([5, 5], "min_max")), [1, 1]);
    eq(Array.from(lib.normalize([4], "z_score")), [0.5]);
    const sm = lib.normalize([1, 2, 3], "softmax", { temperature: 0.5 });
    assert(Math.abs(sm[0] + sm[1] + sm[2] - 1) < 1e-15, "softmax sums to 1");
    // The temperature is checked whatever the method, before the scores, as a Pipeline's
    // configuration checks it (normalize took 0 for "max", and for softmax of no scores).
    for (const [scores, method] of [[[1, 2, 3], "max"], [[], "softmax"], [[NaN], "softmax"], [[1], "none"]]) {
      throwsScoreError(lib, () => lib.normalize(scores, method, { temperature: 0 }), "INVALID_CONFIG", "options.temperature");
      throwsScoreError(lib, () => new lib.Pipeline({ normalization: { method, temperature: 0 } }), "INVALID_CONFIG", "config.normalization.temperature");
    }
    const c = lib.calibrate([0.035, 0.05, 0.01]);
    assert(c instanceof Float64Array, "Float64Array");
    eq(c[0], 0.5);
    assert(c[1] > c[0] && c[0] > c[2], "monotone");
  });

  test("classifyBand: seed 002 examples", () => {
    eq(lib.classifyBand(0.95), { kind: "hit", score: 0.95 });
    eq(lib.classifyBand(0.75), { kind: "degraded", score: 0.75 });
    eq(lib.classifyBand(0.4), { kind: "miss" });
    eq(lib.classifyBand(0.4, { highFloor: 0.5, degradedFloor: 0.3 }), { kind: "degraded", score: 0.4 });
  });

  test("queryConfidence", () => {
    const q = lib.queryConfidence([0.5, 0.5, 0.2], { k: 2 });
    eq(q.expectedPrecision, 0.5);
    eq(q.atLeastOneRelevant, 0.75);
    eq(q.weightedTop5, 0.35 * 0.5 + 0.25 * 0.5 + 0.2 * 0.2);
    eq(lib.queryConfidence([]).weightedTop5, 0);
    // Five slot weights, no fewer and no more (a sixth was dropped without a word).
    for (const n of [4, 6]) {
      const weights = Array.from({ length: n }, () => 0.2);
      throwsScoreError(lib, () => lib.queryConfidence([0.9], { weights }), "INVALID_TYPE", "options.weights");
      throwsScoreError(lib, () => new lib.Pipeline({ confidence: { weights } }), "INVALID_TYPE", "config.confidence.weights");
    }
    throwsScoreError(lib, () => lib.queryConfidence([0.9], { weights: [0.2, 0.2, 0.2, 0.2, 0.2, "x"] }), "INVALID_TYPE", "options.weights[5]");
    eq(lib.queryConfidence([0.5], { weights: [1, 0, 0, 0, 0] }).weightedTop5, 0.5);
    assert(Object.is(lib.queryConfidence([]).weightedTop5, 0), "+0, not -0");
    // Weights summing above 1 would make weightedTop5 leave [0, 1] (seed 003: the figure
    // needs no cap): refused, in a call and in a configuration. Weights summing to 1 as
    // decimals pass whatever their rounding (this sum is 1.0000000000000002).
    const five = [1, 1, 1, 1, 1];
    const m = throwsScoreError(lib, () => lib.queryConfidence(five, { weights: five }), "INVALID_WEIGHT", "options.weights");
    eq(m.message, "the weights must sum to at most 1, got 5");
    throwsScoreError(lib, () => new lib.Pipeline({ confidence: { weights: [0.5, 0.5, 0.001, 0, 0] } }), "INVALID_WEIGHT", "config.confidence.weights");
    const decimals = [0.2, 0.4, 0.3, 0.1, 0];
    assert(decimals.reduce((a, b) => a + b) > 1, "the decimals' sum rounds above 1");
    eq(lib.queryConfidence(five, { weights: decimals }).weightedTop5, 1);
    eq(new lib.Pipeline({ confidence: { weights: decimals } }).config.confidence.weights, decimals);
  });

  test("columnar paths agree with the string paths", () => {
    const a = [3, 1, 4, 0, 5, 9, 2, 6];
    const b = [2, 7, 1, 8, 3];
    const docs = Uint32Array.from([...a, ...b]);
    const offsets = Uint32Array.from([0, a.length, a.length + b.length]);
    const col = lib.rrfColumnar(docs, offsets, 10, { weights: [1, 0.5] });
    assert(col.order instanceof Uint32Array && col.scores instanceof Float64Array, "typed arrays");
    const str = lib.rrf([a.map((d) => `d${d}`), b.map((d) => `d${d}`)], { weights: [1, 0.5] });
    eq(Array.from(col.order, (d) => `d${d}`), str.map(([id]) => id));
    eq(Array.from(col.scores), str.map(([, s]) => s));
    const p = new lib.Pipeline({ topN: 8, minConfidence: 0, calibration: { method: "sigmoid", threshold: 0.02 } });
    const run = p.runColumnar({ docs, offsets, nDocs: 10, weights: new Float64Array([1, 0.5]) });
    const full = p.run({ lists: [{ name: "a", ids: a.map((d) => `d${d}`) }, { name: "b", ids: b.map((d) => `d${d}`), weight: 0.5 }] });
    eq(Array.from(run.order, (d) => `d${d}`), full.results.map((r) => r.id));
    eq(Array.from(run.scores), full.results.map((r) => r.score));
    eq(Array.from(run.bands, (b) => ["miss", "degraded", "hit"][b]), full.results.map((r) => r.band));
    eq(run.confidence, full.confidence);
    // A context selects a band profile on both paths alike.
    const profiled = new lib.Pipeline({
      topN: 8,
      minConfidence: 0,
      calibration: { method: "sigmoid", threshold: 0.02 },
      bands: { highFloor: 0.99, degradedFloor: 0.98, profiles: [{ name: "lenient", taskClass: "chat", highFloor: 0.3, degradedFloor: 0.1 }] },
    });
    const lists = [{ name: "a", ids: a.map((d) => `d${d}`) }, { name: "b", ids: b.map((d) => `d${d}`), weight: 0.5 }];
    for (const context of [undefined, { taskClass: "chat" }]) {
      const c = profiled.runColumnar({ docs, offsets, nDocs: 10, weights: new Float64Array([1, 0.5]), context });
      const s = profiled.run({ lists, context });
      eq(Array.from(c.bands, (b) => ["miss", "degraded", "hit"][b]), s.results.map((r) => r.band));
      eq(c.bands[0], context ? 2 : 0, "the profile's floors apply only with its context");
      // The profile that matched is named as in run's stats (absent without one).
      eq(c.bandProfile, s.stats.bandProfile);
      eq("bandProfile" in c, context !== undefined);
    }
    throwsScoreError(lib, () => profiled.runColumnar({ docs, offsets, nDocs: 10, context: "chat" }), "INVALID_TYPE", "context");
    throwsScoreError(lib, () => profiled.runColumnar({ docs, offsets, nDocs: 10, context: { task: "chat" } }), "UNKNOWN_FIELD", "context.task");
  });

  test("a calibration without `method` is the seed's sigmoid with the parameters given, as `calibrate` takes them", () => {
    const lists = [
      { name: "a", ids: ["x", "y", "z", "w"] },
      { name: "b", ids: ["z", "x", "v"], weight: 0.5 },
    ];
    const bits = (o) => JSON.stringify(o, (k, v) => (typeof v === "number" ? hexOf(v) : v));
    const cases = [
      [{ threshold: 0.02 }, { method: "sigmoid", threshold: 0.02 }],
      [{ steepness: 90, threshold: 0.021 }, { method: "sigmoid", threshold: 0.021, steepness: 90 }],
      [{}, { method: "sigmoid" }],
    ];
    for (const [bare, tagged] of cases) {
      const p = new lib.Pipeline({ calibration: bare, minConfidence: 0, topN: 10 });
      const q = new lib.Pipeline({ calibration: tagged, minConfidence: 0, topN: 10 });
      eq(p.config.calibration, q.config.calibration);
      eq(p.config.calibration.method, "sigmoid");
      eq(bits(p.run({ lists })), bits(q.run({ lists })));
      // The same parameters through `calibrate`.
      const raw = [0.01, 0.02, 0.03];
      eq(Array.from(lib.calibrate(raw, bare), hexOf), Array.from(lib.calibrate(raw, { threshold: q.config.calibration.threshold, steepness: q.config.calibration.steepness }), hexOf));
    }
    // The sigmoid's defaults are the seed's, whether `method` is given or not.
    eq(new lib.Pipeline({ calibration: {} }).config.calibration, { method: "sigmoid", threshold: 0.035, steepness: 150 });
    // Its checks stay: a fitted model's fields need their `method`, and a bad parameter is refused.
    eq(throwsScoreError(lib, () => new lib.Pipeline({ calibration: { a: -2, b: 1 } }), "UNKNOWN_FIELD", "config.calibration.a").message.startsWith("unknown field `a`, expected one of `method`, `threshold`, `steepness` (a fitted model"), true, "its method said");
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: { steepness: 0 } }), "INVALID_CALIBRATION", "config.calibration.steepness");
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: { threshold: "0.02" } }), "INVALID_TYPE", "config.calibration.threshold");
    if (lib.applyCalibration) {
      eq(Array.from(lib.applyCalibration([0.01, 0.05], { threshold: 0.02, steepness: 100 }), hexOf), Array.from(lib.applyCalibration([0.01, 0.05], { method: "sigmoid", threshold: 0.02, steepness: 100 }), hexOf));
      throwsScoreError(lib, () => lib.applyCalibration([0.5], { x: [0, 1], y: [0, 1] }), "UNKNOWN_FIELD", "calibration.x");
    }
  });

  test("normalize's softmax temperature defaults to 1", () => {
    const s = Array.from(lib.normalize([1, 2, 3], "softmax"));
    eq(s, Array.from(lib.normalize([1, 2, 3], "softmax", { temperature: 1 })));
    eq(s, Array.from(lib.normalize([1, 2, 3], "softmax", { temperature: null })));
    assert(s[2] !== lib.normalize([1, 2, 3], "softmax", { temperature: 2 })[2], "a temperature of 2 differs");
    // Within 1e-15 of exp(x - 3) / (exp(-2) + exp(-1) + 1): the seeds' softmax at T = 1.
    const close = (a, b) => Math.abs(a - b) <= 1e-15;
    const z = Math.exp(-2) + Math.exp(-1) + 1;
    assert(close(s[0], Math.exp(-2) / z) && close(s[1], Math.exp(-1) / z) && close(s[2], 1 / z), `${s}`);
  });

  test("each result's band is its own confidence's, with and without explanations", () => {
    // The results are made in one of two loops (an explanation in each or none): a hit
    // first and misses after it, each as classifyBand says of its score.
    for (const explain of [false, true]) {
      const p = new lib.Pipeline({ explain, minConfidence: 0, topN: 10, calibration: { method: "sigmoid", threshold: 0.024, steepness: 400 } });
      const out = p.run({ lists: [{ name: "a", ids: ["a", "b", "c", "d", "e", "f"] }, { name: "b", ids: ["a", "c", "e", "g"] }] });
      eq(out.results.map((r) => r.band), ["hit", "hit", "hit", "miss", "miss", "miss", "miss"], `explain ${explain}`);
      for (const r of out.results) eq(r.band, lib.classifyBand(r.score).kind, `${r.id}, explain ${explain}`);
      eq(out.results.every((r) => (r.explain !== undefined) === explain), true);
      p.free();
    }
  });

  test("the pipeline's own module reads every heuristic weight where the core reads it", () => {
    // Every field of the heuristic configuration given a value of its own: the factors a
    // pipeline explains equal rerank()'s for the same candidates and options (the
    // pipeline's module decodes its configuration from typed tables, the core's from JSON).
    const h = { exactNameMultiplier: 2.5, nameTermWeight: 0.7, summaryTermWeight: 0.9, shortContentChars: 20, shortContentMultiplier: 0.6, typeMultipliers: { class: 1.7 }, unknownTypeMultiplier: 0.95, stopwords: ["the"] };
    const items = {
      a: { name: "auth", type: "class", summary: "token store", content: "short" },
      b: { name: "misc", type: "widget", summary: "the auth token", content: "a content long enough not to be short" },
      c: { name: "auth token", summary: "x" },
    };
    const p = new lib.Pipeline({ explain: true, minConfidence: 0, rerank: { method: "heuristic", heuristic: h } });
    const run = p.run({ query: "auth token", lists: [{ name: "l", ids: ["a", "b", "c"] }], items });
    p.free();
    const direct = lib.rerank("auth token", Object.entries(items).map(([id, it]) => ({ id, score: 1, ...it })), h);
    for (const r of run.results) {
      const d = direct.find((x) => x.id === r.id);
      eq(r.explain.rerank.factors, d.factors, r.id);
    }
    eq(run.results.length, 3);
  });
}
