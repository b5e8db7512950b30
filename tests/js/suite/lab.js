// calibrank/lab: runs and judgements, evaluation, run fusion, fitting and band proposals.

import { assert, eq, throwsScoreError, lcg } from "./helpers.js";

export function labTests(test, lib) {
  test("query confidence: fit, predict, the pipeline's outcome and its errors", () => {
    // Four queries: two answerable (their runs score high, a relevant document on top).
    const run = (hi, lo) => ({ a: { d1: hi, d2: hi - 1 }, b: { d3: lo, d4: lo - 1 }, c: { d5: hi + 1, d6: hi }, d: { d7: lo + 0.5, d8: lo } });
    const runs = [run(12, 3), run(0.8, 0.2)];
    const qrels = { a: { d1: 1 }, b: { d3: 0 }, c: { d5: 2 }, d: { d7: 0 } };
    const m = lib.fitQueryConfidence(qrels, runs);
    eq(m.method, "logistic");
    eq(m.features, ["rankOnly", "top[0]", "top[1]"]);
    eq([m.training.queries, m.training.positives], [4, 2]);
    const p = lib.predictQueryConfidence(m, runs);
    eq(Object.keys(p).sort(), ["a", "b", "c", "d"]);
    assert(p.a > 0.5 && p.c > 0.5 && p.b < 0.5 && p.d < 0.5, `separates: ${JSON.stringify(p)}`);
    const lists = [
      { name: "bm25", ids: ["d1", "d2"], scores: [12, 11] },
      { name: "dense", ids: ["d1", "d2"], scores: [0.8, 0.7] },
    ];
    const pipe = new lib.Pipeline({ confidence: { model: m } });
    const out = pipe.run({ lists });
    eq(out.outcome.source, "model");
    eq(out.outcome.kind, out.outcome.probability >= 0.5 ? "answer" : out.outcome.probability >= 0.2 ? "hedge" : "abstain");
    eq(out.confidence.atLeastOneRelevant, out.outcome.probability);
    // Without a model: the rank-only estimate, and the outcome follows the floors.
    const plain = new lib.Pipeline({ confidence: { answerFloor: 1, hedgeFloor: 0 } }).run({ lists });
    eq(plain.outcome, { kind: "hedge", probability: plain.confidence.atLeastOneRelevant, source: "rankOnly" });
    const columnar = new lib.Pipeline().runColumnar({ docs: new Uint32Array([0, 1]), offsets: new Uint32Array([0, 2]), nDocs: 2 });
    eq(columnar.outcome.source, "rankOnly");
    // Errors: lists matched by position, scores required, floors ordered, one class.
    throwsScoreError(lib, () => pipe.run({ lists: lists.slice(0, 1) }), "LENGTH_MISMATCH", "lists");
    throwsScoreError(lib, () => pipe.run({ lists: [lists[0], { name: "dense", ids: ["d1"] }] }), "EMPTY_INPUT", "lists[1].scores");
    throwsScoreError(lib, () => pipe.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 }), "INVALID_CONFIG", "config.confidence.model");
    throwsScoreError(lib, () => new lib.Pipeline({ confidence: { answerFloor: 0.3, hedgeFloor: 0.4 } }), "INVALID_CONFIG", "config.confidence.hedgeFloor");
    throwsScoreError(lib, () => new lib.Pipeline({ confidence: { model: { ...m, scale: [1, 0, 1] } } }), "INVALID_CONFIG", "config.confidence.model.scale[1]");
    // The fit's own figures: no prediction reads them, but `config` would echo NaN as null.
    // The model's `k` counts results, as the confidence options' own `k` (not RRF's constant, INVALID_K).
    throwsScoreError(lib, () => new lib.Pipeline({ confidence: { model: { ...m, k: 0 } } }), "INVALID_CONFIG", "config.confidence.model.k");
    throwsScoreError(lib, () => lib.fitQueryConfidence(qrels, runs, { k: 0 }), "INVALID_CONFIG", "options.k");
    throwsScoreError(lib, () => lib.queryConfidence([0.5], { k: 0 }), "INVALID_CONFIG", "options.k");
    throwsScoreError(lib, () => new lib.Pipeline({ confidence: { model: { ...m, l2: NaN } } }), "NON_FINITE_SCORE", "config.confidence.model.l2");
    throwsScoreError(lib, () => new lib.Pipeline({ confidence: { model: { ...m, training: { ...m.training, auroc: Infinity } } } }), "NON_FINITE_SCORE", "config.confidence.model.training.auroc");
    throwsScoreError(lib, () => lib.predictQueryConfidence({ ...m, training: { ...m.training, logLoss: NaN } }, runs), "NON_FINITE_SCORE", "model.training.logLoss");
    throwsScoreError(lib, () => lib.fitQueryConfidence({ a: { d1: 1 } }, runs), "INVALID_LABELS", "qrels");
    throwsScoreError(lib, () => lib.fitQueryConfidence(qrels, runs, { l2: 0 }), "INVALID_CONFIG", "options.l2");
    throwsScoreError(lib, () => lib.predictQueryConfidence(m, runs.slice(0, 1)), "LENGTH_MISMATCH", "runs");
    throwsScoreError(lib, () => lib.predictQueryConfidence({ ...m, method: "forest" }, runs), "UNKNOWN_METHOD", "model.method");
    // Measured on judged queries: each one's probability is predictQueryConfidence's, its
    // label the fit's (here: a, c relevant in the fused top 5); two of the queries only.
    if (lib.evaluateQueryConfidence) {
      const e = lib.evaluateQueryConfidence(m, { a: qrels.a, b: qrels.b }, runs);
      eq(e.perQuery, { a: { probability: p.a, relevant: true }, b: { probability: p.b, relevant: false } });
      eq([e.queries, e.positives, e.auroc], [2, 1, 1]);
      eq(e.brier, ((p.a - 1) ** 2 + p.b ** 2) / 2);
      eq(lib.evaluateQueryConfidence(m, { a: qrels.a }, runs).auroc, null);
      // Handles give what objects give.
      const handles = runs.map((r) => lib.Run.fromObject(r));
      const judged = lib.Qrels.fromObject(qrels);
      try {
        eq(lib.evaluateQueryConfidence(m, judged, handles), lib.evaluateQueryConfidence(m, qrels, runs));
      } finally {
        for (const h of [...handles, judged]) h.free();
      }
      throwsScoreError(lib, () => lib.evaluateQueryConfidence(m, { z: { d1: 1 } }, runs), "EMPTY_INPUT", "qrels");
      // A query the judgements do not list is not predicted: its feature overflowing
      // (predictQueryConfidence refuses it) does not stop the measure.
      const steep = { ...m, coefficients: [0.5, 2, -2], mean: [0, 0, 0], scale: [1, 1, 1] };
      const withFar = [{ ...runs[0], zz: { d1: 1 } }, { ...runs[1], zz: { d1: 1e308 } }];
      throwsScoreError(lib, () => lib.predictQueryConfidence(steep, withFar), "NON_FINITE_SCORE", "runs[1].zz");
      eq(lib.evaluateQueryConfidence(steep, qrels, withFar), lib.evaluateQueryConfidence(steep, qrels, runs));
      // The grades' faults first, as the Rust API's: the package reads the judgements first.
      throwsScoreError(lib, () => lib.evaluateQueryConfidence({ ...m, method: "x" }, { a: { d1: 0.5 } }, runs), "INVALID_TYPE", "qrels.a.d1");
      throwsScoreError(lib, () => lib.evaluateQueryConfidence(m, qrels, runs.slice(0, 1)), "LENGTH_MISMATCH", "runs");
      throwsScoreError(lib, () => lib.evaluateQueryConfidence({ ...m, method: "forest" }, qrels, runs), "UNKNOWN_METHOD", "model.method");
      throwsScoreError(lib, () => lib.evaluateQueryConfidence(m, { a: { d1: 0.5 } }, runs), "INVALID_TYPE", "qrels.a.d1");
      throwsScoreError(lib, () => lib.evaluateQueryConfidence(null, qrels, runs), "INVALID_TYPE", "model");
      eq(lib.defaultLimits("evaluateQueryConfidence"), lib.defaultLimits("predictQueryConfidence"));
      // A model's JSON text over the call's bound: the bound said as it is (the message
      // named maxTotalTextBytes and its value, 10, where 104 applied).
      for (const f of [() => lib.evaluateQueryConfidence(m, qrels, runs, { limits: { maxTotalTextBytes: 10, maxTotalEntries: 1 } }), () => lib.predictQueryConfidence(m, runs, { limits: { maxTotalTextBytes: 10, maxTotalEntries: 1 } })]) {
        const e = throwsScoreError(lib, f, "INPUT_TOO_LARGE", "model");
        assert(/^the JSON text is \d+ characters, above 104 \(4 x limits\.maxTotalTextBytes \+ 64 x limits\.maxTotalEntries\)$/.test(e.message), e.message);
      }
    }
    // A best raw score so far from the training scores that its weighed feature overflows
    // is refused where the probability was NaN (with coefficients of opposite signs).
    const wide = { ...m, coefficients: [0.5, 2, -2], mean: [0, 0, 0], scale: [1, 1, 1] };
    const huge = [
      { name: "bm25", ids: ["d1"], scores: [1e308] },
      { name: "dense", ids: ["d1"], scores: [-1e308] },
    ];
    throwsScoreError(lib, () => new lib.Pipeline({ confidence: { model: wide } }).run({ lists: huge }), "NON_FINITE_SCORE", "lists[0].scores");
    throwsScoreError(lib, () => lib.predictQueryConfidence(wide, [{ "q.1": { d1: 0.5 } }, { "q.1": { d1: -1e308 } }]), "NON_FINITE_SCORE", 'runs[1]["q.1"]');
    // Isotonic knots spanning more than f64::MAX interpolate (every score gave y[0]).
    const iso = lib.fitIsotonic([-1e308, 1e308], [0, 1]);
    eq(Array.from(lib.applyCalibration([-1e308, 0, 5e307, 1e308], iso)), [0, 0.5, 0.75, 1]);
    // The model is plain JSON: a round trip through JSON text changes nothing.
    eq(lib.predictQueryConfidence(JSON.parse(JSON.stringify(m)), runs), p);
  });

  test("a fused object is read back in its own order, as its Run handle is", () => {
    // 16 documents, many tied: enough for ranx's order of a fused run's ties to differ
    // from an order by score then id.
    const grades = (s) => Object.fromEntries(s.split("").map((g, i) => [`d${i}`, Number(g)]));
    const runs = [{ q: grades("1011101110000000") }, { q: grades("0001000011001110") }];
    const fused = lib.fuseRuns(runs, { method: "sum" });
    const order = Object.keys(fused.q);
    // The documents' order in the object is the fused ranking (scores non-increasing).
    const scores = order.map((d) => fused.q[d]);
    assert(scores.every((v, i) => i === 0 || v <= scores[i - 1]), `scores in order: ${scores}`);
    const mrr = 1 / (order.indexOf("d0") + 1);
    assert(mrr !== 1 / 3, "d0's place is not the one sorting by score then id would give");
    eq(lib.evaluate({ q: { d0: 1 } }, fused, ["mrr"]).mrr, mrr);
    const handles = runs.map((r) => lib.Run.fromObject(r));
    const fusedRun = lib.fuseRuns(handles, { method: "sum" });
    eq(fusedRun.toObject(), fused);
    eq(lib.evaluate({ q: { d0: 1 } }, fusedRun.toObject(), ["mrr"]), lib.evaluate({ q: { d0: 1 } }, fusedRun, ["mrr"]));
    // Fusing fused runs again reads each in its order, as objects and as handles.
    const again = lib.fuseRuns([fused, fused], { method: "rrf" });
    const againRun = lib.fuseRuns([fusedRun, fusedRun], { method: "rrf" });
    eq(againRun.toObject(), again);
    eq(again.q.d0, 2 / (60 + order.indexOf("d0") + 1));
    for (const h of [...handles, fusedRun, againRun]) h.free();
  });

  test("run-shaped answers are the objects JSON.parse would make: own keys in order, __proto__ included, numbers exact", () => {
    // Query and document ids named __proto__, integer-like ids (JS lists them first,
    // ascending), a score with every bit of its double, and a negative zero.
    const exact = 0.1 + 0.2;
    const text = `__proto__ Q0 __proto__ 1 ${exact} t\n__proto__ Q0 b 2 0.25 t\n__proto__ Q0 10 3 -0 t\n__proto__ Q0 2 4 -0.5 t\nq Q0 constructor 1 1 t\n`;
    const check = (o, what) => {
      eq(Object.getPrototypeOf(o), Object.prototype, what);
      eq(Object.keys(o), ["__proto__", "q"], what);
      const p = Object.getOwnPropertyDescriptor(o, "__proto__").value;
      eq(Object.getPrototypeOf(p), Object.prototype, what);
      eq(Object.keys(p), ["2", "10", "__proto__", "b"], what);
      assert(Object.is(p.__proto__, Object.prototype) === false && Object.getOwnPropertyDescriptor(p, "__proto__").value === exact, `${what}: __proto__ is an own score`);
      assert(Object.is(p["10"], -0), `${what}: -0 kept`);
      eq(Object.keys(o.q), ["constructor"], what);
      eq(JSON.stringify(o), JSON.stringify(JSON.parse(JSON.stringify(o))), what);
    };
    const parsed = lib.parseTrecRun(text);
    check(parsed, "parseTrecRun");
    check(lib.Run.fromTrec(text).toObject(), "Run.toObject");
    const qrels = lib.parseQrels("__proto__ 0 __proto__ 2\n__proto__ 0 b 1\n__proto__ 0 10 0\n__proto__ 0 2 1\nq 0 constructor 1\n");
    eq(Object.keys(qrels), ["__proto__", "q"]);
    const judged = Object.getOwnPropertyDescriptor(qrels, "__proto__").value;
    eq(Object.keys(judged), ["2", "10", "__proto__", "b"]);
    eq(Object.getOwnPropertyDescriptor(judged, "__proto__").value, 2);
    eq(lib.Qrels.fromTrec("__proto__ 0 __proto__ 2\n").toObject(), JSON.parse('{"__proto__":{"__proto__":2}}'));
    // A fusion of the run with itself: the same keys, each score doubled by wsum's weights.
    const fused = lib.fuseRuns([parsed, parsed], { method: "wsum", norm: "none", weights: [1, 1] });
    const f = Object.getOwnPropertyDescriptor(fused, "__proto__").value;
    eq(Object.getOwnPropertyDescriptor(f, "__proto__").value, exact + exact);
    eq(Object.keys(fused), ["__proto__", "q"]);
  });

  test("runs, judgements and metrics", () => {
    const run = lib.parseTrecRun("q1 Q0 d1 1 3.0 t\nq1 Q0 d2 2 2.0 t\nq1 Q0 d3 3 1.0 t\n");
    eq(run, { q1: { d1: 3, d2: 2, d3: 1 } });
    const qrels = lib.parseQrels("q1 0 d2 1\nq1 0 d9 1\n");
    eq(qrels, { q1: { d2: 1, d9: 1 } });
    const m = lib.evaluate(qrels, run, ["mrr", "precision@2", "recall@3", "ndcg@3"]);
    eq(m.mrr, 0.5);
    eq(m["precision@2"], 0.5);
    eq(m["recall@3"], 0.5);
    // DCG = 1/log2(3); IDCG = 1 + 1/log2(3)
    assert(Math.abs(m["ndcg@3"] - (1 / Math.log2(3)) / (1 + 1 / Math.log2(3))) < 1e-12, "ndcg@3");
    eq(lib.evaluatePerQuery(qrels, run, ["mrr"]), { mrr: { q1: 0.5 } });
    // A judged query the run lacks scores +0 (not -0) in every metric.
    const lacking = lib.evaluatePerQuery({ ...qrels, q9: { d9: 1 } }, run, ["ndcg@3", "dcg@3", "rbp.8", "map"]);
    for (const [m, byQuery] of Object.entries(lacking)) assert(Object.is(byQuery.q9, 0), `${m}: ${byQuery.q9}`);
    throwsScoreError(lib, () => lib.parseTrecRun("q1 Q0 d1 1\n"), "PARSE_ERROR", "line 1");
    throwsScoreError(lib, () => lib.evaluate(qrels, run, ["ndgc@10"]), "UNKNOWN_METHOD", "metrics[0]");
  });

  test("Run and Qrels handles: file order, ranx's ties, trec_eval's ties, freeing", () => {
    const live = lib.__liveHandles();
    // Ids that look like integers: JS orders such object keys numerically ("2" before
    // "10"), a handle keeps the file's order. ranx ranks the two tied documents in file
    // order (fewer than 16 ties: numba's insertion sort, stable): 10 first, then 2.
    const text = "q Q0 10 1 5 t\nq Q0 2 2 5 t\nq Q0 7 3 4 t\n";
    const run = lib.Run.fromTrec(text);
    const qrels = lib.Qrels.fromTrec("q 0 2 1\nq 0 7 1\n");
    assert(run instanceof lib.Run && qrels instanceof lib.Qrels, "classes");
    eq(run.size, 1);
    eq(run.queryIds, ["q"]);
    eq(Object.keys(qrels.toObject().q), ["2", "7"]);
    eq(lib.evaluate(qrels, run, ["mrr"]), { mrr: 0.5 });
    eq(lib.evaluatePerQuery(qrels, run, ["mrr"]), { mrr: { q: 0.5 } });
    // The same run as an object: its keys are in numeric order, so 2 ranks first.
    eq(lib.evaluate(qrels.toObject(), lib.parseTrecRun(text), ["mrr"]), { mrr: 1 });
    // String ids keep their order in an object too: the object gives the handle's figures.
    const strText = "q Q0 d10 1 5 t\nq Q0 d2 2 5 t\n";
    eq(Object.keys(lib.parseTrecRun(strText).q), ["d10", "d2"]);
    eq(lib.evaluate({ q: { d2: 1 } }, lib.parseTrecRun(strText), ["mrr"]), { mrr: 0.5 });
    // trec_eval breaks ties by document id, descending: "2" > "10" as strings.
    eq(lib.evaluate(qrels, run, ["mrr"], { ties: "trec_eval" }), { mrr: 1 });
    eq(lib.evaluate({ q: { d2: 1 } }, { q: { d2: 5, d10: 5 } }, ["mrr"], { ties: "trec_eval" }), { mrr: 1 });
    eq(lib.evaluate({ q: { d10: 1 } }, { q: { d2: 5, d10: 5 } }, ["mrr"], { ties: "trec_eval" }), { mrr: 0.5 });
    throwsScoreError(lib, () => lib.evaluate(qrels, run, ["mrr"], { ties: "random" }), "UNKNOWN_METHOD", "options.ties");
    // fuseRuns of Runs gives a Run; objects mixed in become (and stay) temporary handles.
    const other = lib.Run.fromObject({ q: { 7: 9, 2: 1 } });
    const fused = lib.fuseRuns([run, other], { method: "sum" });
    assert(fused instanceof lib.Run, "fuseRuns of Runs returns a Run");
    // min-max: run 10 -> 1, 2 -> 1, 7 -> 0; other 7 -> 1, 2 -> 0: 10 = 1, 2 = 1, 7 = 1.
    eq(fused.toObject(), { q: { 10: 1, 2: 1, 7: 1 } });
    // All tie; ranx's fused order is first met: 10, 2, 7.
    eq(lib.evaluate(qrels, fused, ["mrr", "precision@2"]), { mrr: 0.5, "precision@2": 0.5 });
    const mixed = lib.fuseRuns([run, { q: { 7: 9, 2: 1 } }], { method: "sum" });
    eq(mixed.toObject(), fused.toObject());
    eq(lib.__liveHandles(), live + 5);
    const viaObjects = lib.fuseRuns([{ q: { a: 5, b: 5 } }, { q: { b: 1 } }], { method: "rrf" });
    assert(!(viaObjects instanceof lib.Run), "objects in, object out");
    eq(Object.keys(viaObjects.q), ["b", "a"]);
    // fitQueryConfidence / predictQueryConfidence take handles too, with the objects' results.
    const qcRuns = [{ a: { 1: 3, 2: 1 }, b: { 3: 2 }, c: { 4: 1, 5: 0.5 } }, { a: { 2: 2 }, b: { 3: 1, 6: 0.5 }, c: { 5: 1 } }];
    const qcQrels = { a: { 1: 1 }, b: { 9: 1 }, c: { 5: 1 } };
    const qcModel = lib.fitQueryConfidence(qcQrels, qcRuns, { k: 2 });
    const qcHandles = qcRuns.map((r) => lib.Run.fromObject(r));
    const qcQ = lib.Qrels.fromObject(qcQrels);
    eq(lib.fitQueryConfidence(qcQ, qcHandles, { k: 2 }), qcModel);
    // A query judged with no document (`{}`) has nothing relevant, as `b`'s unretrieved
    // relevant document leaves it: the same model (it was skipped, and then every query
    // left held a relevant document).
    eq(lib.fitQueryConfidence({ ...qcQrels, b: {} }, qcRuns, { k: 2 }), qcModel);
    const qcEmpty = lib.Qrels.fromObject({ ...qcQrels, b: {} });
    eq(lib.fitQueryConfidence(qcEmpty, qcHandles, { k: 2 }), qcModel);
    qcEmpty.free();
    eq(lib.predictQueryConfidence(qcModel, qcHandles), lib.predictQueryConfidence(qcModel, qcRuns));
    // Their entries counted as the objects' (5 and 4): a handle is held to the call's limits.
    eq(Object.keys(lib.predictQueryConfidence(qcModel, qcHandles, { limits: { maxTotalEntries: 9 } })), ["a", "b", "c"]);
    throwsScoreError(lib, () => lib.predictQueryConfidence(qcModel, qcHandles, { limits: { maxTotalEntries: 8 } }), "INPUT_TOO_LARGE", "runs[1]");
    throwsScoreError(lib, () => lib.predictQueryConfidence(qcModel, qcRuns, { limits: { maxTotalEntries: 8 } }), "INPUT_TOO_LARGE", "runs[1]");
    for (const h of [...qcHandles, qcQ]) h.free();
    const opt = lib.optimizeFusion(qrels, [run, other], { method: "wsum", metric: "mrr" });
    eq(opt, lib.optimizeFusion(qrels.toObject(), [run, { q: { 7: 9, 2: 1 } }], { method: "wsum", metric: "mrr" }));
    eq(lib.__liveHandles(), live + 5);
    // Wrong kinds and freed handles are typed errors naming the argument.
    // (Said with what was given: the two handles swapped is a common slip.)
    eq(throwsScoreError(lib, () => lib.evaluate(run, run, ["mrr"]), "INVALID_TYPE", "qrels").message, "expected a Qrels or a plain object, got a Run");
    eq(throwsScoreError(lib, () => lib.evaluate(qrels, qrels, ["mrr"]), "INVALID_TYPE", "run").message, "expected a Run or a plain object, got a Qrels");
    eq(throwsScoreError(lib, () => lib.fuseRuns([run, qrels], { method: "sum" }), "INVALID_TYPE", "runs[1]").message, "expected a Run or a plain object, got a Qrels");
    // A query's value: a record of its documents (the message described the whole run).
    eq(throwsScoreError(lib, () => lib.evaluate(qrels, { q: 5 }, ["mrr"]), "INVALID_TYPE", "run.q").message, "expected a record of document id -> score, got 5");
    eq(throwsScoreError(lib, () => lib.evaluate(qrels, 5, ["mrr"]), "INVALID_TYPE", "run").message, "expected a record of query id -> document id -> score, got 5");
    eq(throwsScoreError(lib, () => lib.evaluate({ q: 5 }, run, ["mrr"]), "INVALID_TYPE", "qrels.q").message, "expected a record of document id -> grade, got 5");
    throwsScoreError(lib, () => new lib.Run(), "INVALID_TYPE");
    throwsScoreError(lib, () => lib.Run.fromTrec("q Q0 a 1 1 t\nq Q0 a 2 1 t\n"), "DUPLICATE_ID", "line 2");
    throwsScoreError(lib, () => lib.Run.fromObject({ q: { a: NaN } }), "NON_FINITE_SCORE", "run.q.a");
    fused.free();
    fused.free();
    throwsScoreError(lib, () => lib.evaluate(qrels, fused, ["mrr"]), "INVALID_TYPE", "run");
    throwsScoreError(lib, () => fused.toObject(), "INVALID_TYPE", "this");
    mixed[Symbol.dispose]();
    for (const h of [run, other, qrels]) h.free();
    eq(lib.__liveHandles(), live);
  });

  test("runs mixing Run handles and objects name an object's errors under runs[i]", () => {
    const h = lib.Run.fromObject({ q: { a: 1, b: 0.5 } });
    const before = lib.__liveHandles();
    throwsScoreError(lib, () => lib.fuseRuns([h, { q: { d: "x" } }], { method: "rrf" }), "INVALID_TYPE", "runs[1].q.d");
    throwsScoreError(lib, () => lib.fuseRuns([h, { q: { d: NaN } }], { method: "rrf" }), "NON_FINITE_SCORE", "runs[1].q.d");
    // An overflowing fusion names the runs (the message: the query and document).
    const over = throwsScoreError(lib, () => lib.fuseRuns([{ q: { a: 1e308 } }, { q: { a: 1e308 } }], { method: "sum", norm: "none" }), "NON_FINITE_SCORE", "runs");
    assert(over.message.includes('document "a" for query "q"'), over.message);
    const heavy = throwsScoreError(lib, () => lib.fuseRuns([{ q: { a: 1 } }, { q: { a: 1 } }], { method: "wsum", weights: [1e308, 1e308], norm: "max" }), "NON_FINITE_SCORE", "runs");
    assert(heavy.message.includes("weights"), heavy.message);
    throwsScoreError(lib, () => lib.fuseRuns([h, 7], { method: "rrf" }), "INVALID_TYPE", "runs[1]");
    // The objects made into Runs for the call are freed when it fails.
    eq(lib.__liveHandles(), before);
    h.free();
  });

  test("run objects: a wrong-type value's key counts against the limits; runs' length read once", () => {
    const lim = { limits: { maxTotalTextBytes: 1000, maxTotalEntries: 10 } };
    const big = "k".repeat(10000);
    // The key crosses as the error's path: refused before the copy, as the ids are.
    throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: { [big]: "x" } }, ["ndcg"], lim), "INPUT_TOO_LARGE", "run");
    throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { [big]: 5 }, ["ndcg"], lim), "INPUT_TOO_LARGE", "run");
    throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: { k: "x" } }, ["ndcg"], lim), "INVALID_TYPE", "run.q.k");
    // A Proxy whose length answers differently on a later read changes nothing.
    const runs = [{ q: { a: 1, b: 0.5 } }, { q: { a: 0.9, c: 0.4 } }];
    const want = lib.fuseRuns(runs, { method: "rrf" });
    const one = lib.fuseRuns([runs[0]], { method: "rrf" });
    for (let flip = 1; flip <= 10; flip++) {
      let reads = 0;
      const p = new Proxy(runs, { get: (t, k) => (k === "length" ? (++reads === flip ? 2 : 1) : t[k]) });
      const got = (() => {
        try {
          return lib.fuseRuns(p, { method: "rrf" });
        } catch (e) {
          return e.code;
        }
      })();
      // Read once: two runs when the first read answers 2, else one run, never a mix.
      assert(reads === 1, `length read ${reads} times`);
      eq(got, flip === 1 ? want : one);
    }
  });

  test("Run.select and Qrels.select split by query keeping the order; Run.ranking gives one query's list", () => {
    assert(lib.Run, "calibrank/lab's Run is missing: every runner of the suite merges calibrank and calibrank/lab");
    const live = lib.__liveHandles();
    // 20 tied documents (numba's quicksort reorders 16 or more), integer-like ids: a run
    // object of the same queries is sorted again, where select keeps the handle's order.
    const docs = {};
    for (let i = 0; i < 20; i++) docs[`d${i}`] = 1;
    const lines = [];
    for (const q of ["q1", "q2", "q3"]) Object.keys(docs).forEach((d, i) => lines.push(`${q} Q0 ${d} ${i + 1} ${docs[d]} t`));
    const run = lib.Run.fromTrec(lines.join("\n"));
    const q1 = run.ranking("q1");
    eq(q1.ids.length, 20);
    eq(q1.scores, new Array(20).fill(1));
    // The run's own (ranx's) order, which is not the file's for 20 ties.
    eq(q1.ids, Object.keys(run.toObject().q1));
    eq(run.ranking("nope"), { ids: [], scores: [] });
    const part = run.select(["q3", "q1", "absent", "q1"]);
    assert(part instanceof lib.Run, "a Run");
    eq(part.queryIds, ["q1", "q3"]);
    eq(part.ranking("q1"), q1);
    eq(part.toObject(), { q1: run.toObject().q1, q3: run.toObject().q3 });
    const qrels = lib.Qrels.fromObject({ q1: { d1: 1 }, q2: { d2: 1 }, q3: {} });
    const judged = qrels.select(["q3", "q1"]);
    assert(judged instanceof lib.Qrels, "a Qrels");
    eq(judged.toObject(), { q1: { d1: 1 }, q3: {} });
    const perQuery = lib.evaluatePerQuery(judged, part, ["mrr"]).mrr;
    eq(perQuery, lib.evaluatePerQuery({ q1: { d1: 1 }, q3: {} }, run, ["mrr"]).mrr);
    assert(perQuery.q1 > 0, "d1 ranked");
    // Errors.
    throwsScoreError(lib, () => run.select("q1"), "INVALID_TYPE", "queryIds");
    throwsScoreError(lib, () => run.select([1]), "INVALID_TYPE", "queryIds[0]");
    throwsScoreError(lib, () => run.select(["q\uD800"]), "INVALID_TYPE", "queryIds[0]");
    throwsScoreError(lib, () => run.ranking(1), "INVALID_TYPE", "queryId");
    eq(throwsScoreError(lib, () => lib.Run.prototype.ranking.call(qrels, "q1"), "INVALID_TYPE", "this").message, "expected a Run (a Qrels holds no ranking), got an object");
    for (const h of [run, part, qrels, judged]) h.free();
    throwsScoreError(lib, () => run.ranking("q1"), "INVALID_TYPE", "this");
    throwsScoreError(lib, () => run.select(["q1"]), "INVALID_TYPE", "this");
    eq(lib.__liveHandles(), live);
  });

  test("a run or judgements object given as a Map, at the top or for a query, is read as its entries in every function that takes one", () => {
    const live = lib.__liveHandles();
    // Maps at both levels (the same results as the records they hold), in each argument.
    const asMap = (o) => new Map(Object.entries(o).map(([q, d]) => [q, new Map(Object.entries(d))]));
    const topMap = (o) => new Map(Object.entries(o));
    const run = (hi, lo) => ({ a: { d1: hi, d2: hi - 1 }, b: { d3: lo, d4: lo - 1 }, c: { d5: hi + 1, d6: hi }, d: { d7: lo + 0.5, d8: lo } });
    const runs = [run(12, 3), run(0.8, 0.2)];
    const qrels = { a: { d1: 1 }, b: { d3: 0 }, c: { d5: 2 }, d: { d7: 0 } };
    const metrics = ["mrr", "ndcg@3"];
    for (const via of [asMap, topMap]) {
      eq(lib.evaluate(via(qrels), via(runs[0]), metrics), lib.evaluate(qrels, runs[0], metrics));
      eq(lib.evaluatePerQuery(via(qrels), via(runs[1]), metrics), lib.evaluatePerQuery(qrels, runs[1], metrics));
      eq(lib.fuseRuns(runs.map(via), { method: "rrf" }), lib.fuseRuns(runs, { method: "rrf" }));
      const r = lib.Run.fromObject(via(runs[0]));
      const j = lib.Qrels.fromObject(via(qrels));
      try {
        const plain = lib.Run.fromObject(runs[0]);
        eq(r.toObject(), plain.toObject());
        plain.free();
        eq(j.queryIds, ["a", "b", "c", "d"]);
        eq(lib.evaluate(j, r, metrics), lib.evaluate(qrels, runs[0], metrics));
        // Mixed with a handle: the Map made a Run first.
        const mixed = lib.fuseRuns([r, via(runs[1])], { method: "rrf" });
        eq(mixed.toObject(), lib.fuseRuns(runs, { method: "rrf" }));
        mixed.free();
      } finally {
        r.free();
        j.free();
      }
      const model = lib.fitQueryConfidence(via(qrels), runs.map(via));
      eq(model, lib.fitQueryConfidence(qrels, runs));
      eq(lib.predictQueryConfidence(model, runs.map(via)), lib.predictQueryConfidence(model, runs));
      eq(lib.optimizeFusion(via(qrels), runs.map(via), { method: "wsum", metric: "ndcg@3", step: 0.5 }).best, lib.optimizeFusion(qrels, runs, { method: "wsum", metric: "ndcg@3", step: 0.5 }).best);
    }
    // Keys that are not strings are no ids: refused, at the top as for a query.
    throwsScoreError(lib, () => lib.evaluate(qrels, new Map([[1, { d1: 1 }]]), metrics), "INVALID_TYPE", "run");
    throwsScoreError(lib, () => lib.Qrels.fromObject(new Map([["a", new Map([[1, 1]])]])), "INVALID_TYPE", "qrels.a");
    eq(lib.__liveHandles(), live);
  });

  test("run objects cross as typed sections: read once in JSON's key order, no toJSON, the same results and errors", () => {
    const live = lib.__liveHandles();
    // 20 tied documents (numba's quicksort reorders 16 or more) and integer-like ids
    // (an object lists them first, ascending): an object gives what its Run gives.
    const docs = {};
    for (let i = 0; i < 20; i++) docs[i % 2 ? `d${i}` : String(20 - i)] = i < 18 ? 1 : 0.5;
    const tied = { q: docs, 7: { a: 2, 10: 2, 9: 2 } };
    const judged = { q: { d3: 1, 4: 2, d17: 1 }, 7: { 10: 1 } };
    const metrics = ["mrr", "ndcg@5", "map@10", "precision@3"];
    const asRun = lib.Run.fromObject(tied);
    const asQrels = lib.Qrels.fromObject(judged);
    const byObject = lib.evaluatePerQuery(judged, tied, metrics);
    eq(byObject, lib.evaluatePerQuery(asQrels, asRun, metrics));
    const judgedRun = lib.Run.fromObject(judged);
    const fusedRun = lib.fuseRuns([asRun, judgedRun], { method: "rrf" });
    eq(lib.fuseRuns([tied, judged], { method: "rrf" }), fusedRun.toObject());
    // Each property is read once, keys only: no `toJSON` (JSON.stringify read it on every
    // object), nothing inherited.
    const reads = [];
    const spy = (o, name) => new Proxy(o, { get: (t, k, r) => (reads.push(`${name}.${String(k)}`), Reflect.get(t, k, r)) });
    const proxied = spy({ q: spy({ b: 1, a: 2, 3: 0.5 }, "q") }, "run");
    eq(lib.evaluate({ q: { a: 1 } }, proxied, ["mrr"]), { mrr: 1 });
    eq(reads.filter((k) => !k.includes("Symbol(")), ["run.q", "q.3", "q.b", "q.a"]);
    let getter = 0;
    eq(lib.evaluate({ q: { a: 1 } }, { q: { get a() { getter++; return 1; }, b: 0.5 } }, ["mrr"]), { mrr: 1 });
    eq(getter, 1);
    // `toJSON` is not called: an object is read by its own enumerable properties.
    let called = 0;
    class Scores {
      constructor() {
        this.a = 1;
        this.b = 2;
      }
      toJSON() {
        called++;
        return { b: 1 };
      }
    }
    eq(lib.evaluate({ q: { a: 1 } }, { q: new Scores() }, ["mrr"]), { mrr: 0.5 });
    eq(called, 0);
    // An own toJSON is a key like any other, whose value is not a number.
    throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: { a: 1, toJSON: () => ({ a: 1 }) } }, ["mrr"]), "INVALID_TYPE", "run.q.toJSON");
    // What JSON.stringify did and this keeps: -0 is 0, Maps read as objects (integer-like
    // keys first), a Date or a primitive's object is not a record. (An `undefined` value,
    // which it skipped, is refused as `null` is since the fortieth session: "lab: options
    // that are not objects, undefined scores, ...".)
    const fusedZero = lib.fuseRuns([{ q: { a: -0 } }], { method: "sum", norm: "none" });
    eq(Object.keys(fusedZero), ["q"]);
    eq(Object.keys(fusedZero.q), ["a"]);
    assert(Object.is(fusedZero.q.a, 0), "-0 crosses as 0");
    const viaMap = lib.fuseRuns([new Map([["q", new Map([["b", 1], ["10", 1], ["2", 1]])]])], { method: "sum", norm: "none" });
    eq(Object.keys(viaMap.q), ["2", "10", "b"]);
    throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: new Map([[1, 1]]) }, ["mrr"]), "INVALID_TYPE", "run.q");
    throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: new Date(0) }, ["mrr"]), "INVALID_TYPE", "run.q");
    // A Number object is not a score (JSON.stringify wrote it as its number; 0.5 then failed to parse).
    throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: { a: Object(1) } }, ["mrr"]), "INVALID_TYPE", "run.q.a");
    // Errors: the same codes and fields as the JSON text gave, in the same order.
    const q = { q: { a: 1 } };
    throwsScoreError(lib, () => lib.evaluate(q, { q: { a: "1" } }, ["mrr"]), "INVALID_TYPE", "run.q.a");
    throwsScoreError(lib, () => lib.evaluate({ q: { a: null } }, q, ["mrr"]), "INVALID_TYPE", "qrels.q.a");
    throwsScoreError(lib, () => lib.evaluate(q, { q: [1] }, ["mrr"]), "INVALID_TYPE", "run.q");
    throwsScoreError(lib, () => lib.evaluate(q, [q], ["mrr"]), "INVALID_TYPE", "run");
    throwsScoreError(lib, () => lib.evaluate(q, new Float64Array(1), ["mrr"]), "INVALID_TYPE", "run");
    throwsScoreError(lib, () => lib.fuseRuns([q, { q: 1 }], { method: "sum" }), "INVALID_TYPE", "runs[1].q");
    throwsScoreError(lib, () => lib.Qrels.fromObject({ q: { a: 1n } }), "INVALID_TYPE", "qrels.q.a");
    throwsScoreError(lib, () => lib.evaluate(q, { q: { a: NaN, b: "x" } }, ["mrr"]), "NON_FINITE_SCORE", "run.q.a");
    // Grades are finite numbers wherever judgements are read, and named alike.
    for (const grade of [NaN, Infinity, -Infinity]) {
      throwsScoreError(lib, () => lib.Qrels.fromObject({ q: { a: 1, b: grade } }), "NON_FINITE_SCORE", "qrels.q.b");
      throwsScoreError(lib, () => lib.evaluate({ q: { a: 1, b: grade } }, q, ["mrr"]), "NON_FINITE_SCORE", "qrels.q.b");
      throwsScoreError(lib, () => lib.fitQueryConfidence({ q: { a: 1, b: grade } }, [q]), "NON_FINITE_SCORE", "qrels.q.b");
      throwsScoreError(lib, () => lib.optimizeFusion({ q: { a: 1, b: grade } }, [q, q], { method: "wsum", metric: "mrr" }), "NON_FINITE_SCORE", "qrels.q.b");
    }
    // ... and whole numbers, as parseQrels, trec_eval and ranx take them: a fractional
    // grade is INVALID_TYPE on its path, the grade in the message, wherever judgements
    // enter (Qrels.fromObject took 0.5, which evaluate read as not relevant and
    // fitQueryConfidence as relevant); the text's on its line.
    const qRun = lib.Run.fromObject(q);
    for (const grade of [0.5, 1.5, -0.5]) {
      const judged = { q: { a: 1, b: grade } };
      for (const [name, f] of [
        ["Qrels.fromObject", () => lib.Qrels.fromObject(judged)],
        ["evaluate", () => lib.evaluate(judged, q, ["mrr"])],
        ["evaluatePerQuery", () => lib.evaluatePerQuery(judged, qRun, ["mrr"])],
        ["fitQueryConfidence", () => lib.fitQueryConfidence(judged, [q])],
        ["optimizeFusion", () => lib.optimizeFusion(judged, [q, q], { method: "wsum", metric: "mrr" })],
      ]) {
        const e = throwsScoreError(lib, f, "INVALID_TYPE", "qrels.q.b");
        eq(e.message, `must be a whole number (relevance grades are whole numbers, as in trec_eval and ranx), got ${grade}`, name);
      }
      for (const f of [lib.parseQrels, lib.Qrels.fromTrec]) {
        const e = throwsScoreError(lib, () => f(`q 0 a 1\nq 0 b ${grade}\n`), "INVALID_TYPE", "line 2");
        assert(e.message.startsWith(`line 2: relevance "${grade}" is not a whole number`), e.message);
      }
    }
    // A grade beyond the 64-bit integers, which a qrels file's column cannot hold (refused
    // there when read): refused in an object too (1e20 was taken, then ndcg_burges failed
    // on it as too large).
    for (const [name, f] of [
      ["Qrels.fromObject", () => lib.Qrels.fromObject({ q: { a: 1, b: 1e20 } })],
      ["evaluate", () => lib.evaluate({ q: { a: 1, b: 1e20 } }, q, ["ndcg"])],
    ]) {
      const e = throwsScoreError(lib, f, "INVALID_TYPE", "qrels.q.b");
      eq(e.message, "must be a whole number (of 64 bits, -9223372036854775808 to 9223372036854775807, as in a qrels file), got 100000000000000000000", name);
    }
    // Whole grades are taken as they were, -1 (TREC's "judged non-relevant") and 0
    // included; evaluate and fitQueryConfidence now read each alike: relevant from 1 on.
    const runA = { q1: { a: 3, b: 2 }, q2: { c: 3, d: 1 }, q3: { e: 2, f: 1 } };
    const runB = { q1: { a: 0.9, b: 0.1 }, q2: { d: 0.8, c: 0.7 }, q3: { f: 0.6, e: 0.5 } };
    qRun.free();
    for (const grade of [0, 1, 2, -1]) {
      const judged = { q1: { a: grade }, q2: { c: 1 }, q3: { e: 0 } };
      const handles = [lib.Qrels.fromObject(judged), lib.Run.fromObject(runA), lib.Qrels.fromTrec(`q1 0 a ${grade}\n`)];
      eq(handles[0].toObject(), judged);
      eq(handles[2].toObject(), { q1: { a: grade } });
      eq(lib.parseQrels(`q1 0 a ${grade}\n`), { q1: { a: grade } });
      const hits = lib.evaluatePerQuery(judged, runA, ["hits@5"])["hits@5"];
      eq(hits.q1 > 0, grade >= 1, `evaluate, grade ${grade}`);
      eq(lib.evaluate(handles[0], handles[1], ["hits@5"]), { "hits@5": (hits.q1 + 1) / 3 });
      for (const h of handles) h.free();
      const model = lib.fitQueryConfidence(judged, [runA, runB]);
      eq(model.training.positives, grade >= 1 ? 2 : 1, `fitQueryConfidence, grade ${grade}`);
      eq(lib.optimizeFusion(judged, [runA, runB], { method: "rrf", metric: "hits@5", kValues: [60] }).best.score, (hits.q1 + 1) / 3);
    }
    // The module's checks still come first: options, then metrics, then the arguments in order.
    throwsScoreError(lib, () => lib.evaluate(q, { q: { a: "x" } }, [1]), "INVALID_TYPE", "metrics[0]");
    throwsScoreError(lib, () => lib.evaluate(q, { q: { a: "x" } }, ["mrr"], { ties: "x" }), "UNKNOWN_METHOD", "options.ties");
    throwsScoreError(lib, () => lib.fuseRuns([{ q: { a: "x" } }, { q: 1 }], { method: "sum" }), "INVALID_TYPE", "runs[0].q.a");
    // ... except what this side refuses while reading: lone surrogates in keys (the path
    // of the object holding the key), cycles, and the caller's own exceptions.
    throwsScoreError(lib, () => lib.evaluate(q, { q: { a: "x" }, r: { ["\uD800"]: 1 } }, ["mrr"]), "INVALID_TYPE", "run.r");
    throwsScoreError(lib, () => lib.evaluate(q, { ["\uDC00"]: { a: 1 } }, ["mrr"]), "INVALID_TYPE", "run");
    const cyclic = { q: { a: 1 } };
    cyclic.r = cyclic;
    throwsScoreError(lib, () => lib.evaluate(q, cyclic, ["mrr"]), "INVALID_TYPE", "run");
    let thrown = null;
    try {
      lib.evaluate(q, { q: { get a() { throw new RangeError("mine"); } } }, ["mrr"]);
    } catch (e) {
      thrown = e;
    }
    assert(thrown instanceof RangeError && thrown.message === "mine", "the caller's exception, unchanged");
    // Limits at their edges (entries and id bytes are charged qrels first, then the run).
    const lim = (l) => ({ limits: l });
    const r2 = { q: { a: 2, "é€": 1 } }; // 1 + 1 + 5 bytes, 4 UTF-16 units
    eq(lib.evaluate(q, r2, ["mrr"], lim({ maxTotalEntries: 3 })), { mrr: 1 });
    throwsScoreError(lib, () => lib.evaluate(q, r2, ["mrr"], lim({ maxTotalEntries: 2 })), "INPUT_TOO_LARGE", "run");
    throwsScoreError(lib, () => lib.evaluate({ q: { a: 1, b: 1 } }, r2, ["mrr"], lim({ maxTotalEntries: 1 })), "INPUT_TOO_LARGE", "qrels");
    eq(lib.evaluate(q, r2, ["mrr"], lim({ maxTotalTextBytes: 9 })), { mrr: 1 });
    throwsScoreError(lib, () => lib.evaluate(q, r2, ["mrr"], lim({ maxTotalTextBytes: 8 })), "INPUT_TOO_LARGE", "run");
    // The judgements' bytes are over, their UTF-16 length is not: named as the module names it.
    throwsScoreError(lib, () => lib.evaluate({ q: { "ééé": 1 } }, { q: { abcdefghij: 1 } }, ["mrr"], lim({ maxTotalTextBytes: 6 })), "INPUT_TOO_LARGE", "qrels");
    throwsScoreError(lib, () => lib.fuseRuns([q, r2], { method: "sum", limits: { maxTotalEntries: 2 } }), "INPUT_TOO_LARGE", "runs[1]");
    throwsScoreError(lib, () => lib.Run.fromObject(r2, lim({ maxTotalTextBytes: 6 })), "INPUT_TOO_LARGE", "run");
    // A handle's entries count as the same object's would: it saves reading them, not
    // fusing or judging with them (40 handles of 250,000 entries were fused unchecked).
    {
      const [hq, hr2, hq2] = [lib.Qrels.fromObject(q), lib.Run.fromObject(r2), lib.Run.fromObject(q)];
      const hqq = lib.Qrels.fromObject({ q: { a: 1, b: 1 } });
      eq(lib.evaluate(hq, hr2, ["mrr"], lim({ maxTotalEntries: 3 })), { mrr: 1 });
      throwsScoreError(lib, () => lib.evaluate(hq, hr2, ["mrr"], lim({ maxTotalEntries: 2 })), "INPUT_TOO_LARGE", "run");
      throwsScoreError(lib, () => lib.evaluatePerQuery(q, hr2, ["mrr"], lim({ maxTotalEntries: 2 })), "INPUT_TOO_LARGE", "run");
      // The judgements first, as objects are read.
      throwsScoreError(lib, () => lib.evaluate(hqq, hr2, ["mrr"], lim({ maxTotalEntries: 1 })), "INPUT_TOO_LARGE", "qrels");
      // Their ids' bytes too, as the objects' above.
      eq(lib.evaluate(hq, hr2, ["mrr"], lim({ maxTotalTextBytes: 9 })), { mrr: 1 });
      throwsScoreError(lib, () => lib.evaluate(hq, hr2, ["mrr"], lim({ maxTotalTextBytes: 8 })), "INPUT_TOO_LARGE", "run");
      throwsScoreError(lib, () => lib.evaluate({ q: { "ééé": 1 } }, hr2, ["mrr"], lim({ maxTotalTextBytes: 6 })), "INPUT_TOO_LARGE", "qrels");
      {
        const hq3 = lib.Qrels.fromObject({ q: { "ééé": 1 } });
        throwsScoreError(lib, () => lib.evaluate(hq3, hr2, ["mrr"], lim({ maxTotalTextBytes: 6 })), "INPUT_TOO_LARGE", "qrels");
        hq3.free();
      }
      const fusedWithin = lib.fuseRuns([hq2, hr2], { method: "sum", limits: { maxTotalEntries: 3 } });
      eq(Object.keys(fusedWithin.toObject().q).length, 2);
      fusedWithin.free();
      throwsScoreError(lib, () => lib.fuseRuns([hq2, hr2], { method: "sum", limits: { maxTotalEntries: 2 } }), "INPUT_TOO_LARGE", "runs[1]");
      throwsScoreError(lib, () => lib.fuseRuns([q, hr2], { method: "sum", limits: { maxTotalEntries: 2 } }), "INPUT_TOO_LARGE", "runs[1]");
      // Counted before the options' values are checked, as objects are read before (README).
      throwsScoreError(lib, () => lib.fuseRuns([hq2, hr2], { method: "nope", limits: { maxTotalEntries: 2 } }), "INPUT_TOO_LARGE", "runs[1]");
      throwsScoreError(lib, () => lib.fuseRuns([hq2, hr2], { method: "nope", limits: { maxTotalEntries: 3 } }), "UNKNOWN_METHOD", "options.method");
      throwsScoreError(lib, () => lib.optimizeFusion(hq, [hq2, hr2], { method: "rrf", metric: "mrr", limits: { maxTotalEntries: 3 } }), "INPUT_TOO_LARGE", "runs[1]");
      eq(lib.optimizeFusion(hq, [hq2, hr2], { method: "rrf", metric: "mrr", limits: { maxTotalEntries: 4 } }).best.score, 1);
      throwsScoreError(lib, () => lib.fitQueryConfidence(hqq, [hq2, hr2], { limits: { maxTotalEntries: 4 } }), "INPUT_TOO_LARGE", "runs[1]");
      for (const h of [hq, hr2, hq2, hqq]) h.free();
    }
    for (const h of [asRun, asQrels, judgedRun, fusedRun]) h.free();
    eq(lib.__liveHandles(), live);
  });

  test("fuseRuns and optimizeFusion", () => {
    const a = { q: { x: 3, y: 2, z: 1 } };
    const b = { q: { z: 9, x: 1 } };
    const rrf = lib.fuseRuns([a, b], { method: "rrf", params: { k: 60 } });
    eq(rrf.q.x, 1 / 61 + 1 / 62);
    eq(rrf.q.z, 1 / 63 + 1 / 61);
    const sum = lib.fuseRuns([a, b], { method: "sum" });
    eq(sum.q, { x: 1, y: 0.5, z: 1 });
    throwsScoreError(lib, () => lib.fuseRuns([a, b], { method: "combsum" }), "UNKNOWN_METHOD", "options.method");
    throwsScoreError(lib, () => lib.fuseRuns([a, b], { method: "rbc" }), "INVALID_CONFIG", "options.params.phi");
    throwsScoreError(lib, () => lib.fuseRuns([a, b]), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => lib.fuseRuns([a, b], { method: "wsum", weights: [1] }), "LENGTH_MISMATCH");
    const qrels = { q: { z: 1 } };
    const seen = [];
    const report = lib.optimizeFusion(qrels, [a, b], { method: "wsum", metric: "mrr" }, (p) => seen.push(p));
    eq(seen.length, 11);
    eq(seen[10], { done: 11, total: 11, bestScore: 1 });
    eq(report.trials.length, 11);
    eq(report.best.score, 1);
    const k = lib.optimizeFusion(qrels, [a, b], { method: "rrf", metric: "mrr" });
    eq(k.trials.map((t) => t.params.k), [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    // Every k ties here: the best is the one ranx's optimize_fusion keeps, the last (it was
    // the first, 10).
    const tied = lib.optimizeFusion({ q1: { rel: 1 } }, [{ q1: { x: 3, y: 2, rel: 1 } }, { q1: { rel: 3, x: 2, y: 1 } }], { method: "rrf", metric: "mrr" });
    eq([tied.best.params.k, tied.best.score, new Set(tied.trials.map((t) => t.score)).size], [100, 0.5, 1]);
    throwsScoreError(lib, () => lib.optimizeFusion(qrels, [a], { method: "wsum" }), "EMPTY_INPUT", "runs");
    // Each search reads its own grid's option only: `step` the weights' and rbc's,
    // `kValues` the RRF search's.
    eq(lib.optimizeFusion(qrels, [a, b], { method: "rrf", metric: "mrr", step: 0.3 }), k, "rrf does not read step");
    eq(lib.optimizeFusion(qrels, [a, b], { method: "wsum", metric: "mrr", kValues: [-1] }), report, "wsum does not read kValues");
    throwsScoreError(lib, () => lib.optimizeFusion(qrels, [a, b], { method: "wsum", step: 0.3 }), "INVALID_CONFIG", "options.step");
    throwsScoreError(lib, () => lib.optimizeFusion(qrels, [a, b], { method: "rbc", step: 0.3 }), "INVALID_CONFIG", "options.step");
    // Without a step, each search takes ranx's: the weights' 0.1, rbc's phi 0.01 (0.01 to
    // 0.99; ranx also tries 1, which scores every document 0).
    const rbc = lib.optimizeFusion(qrels, [a, b], { method: "rbc", metric: "mrr" });
    eq([rbc.trials.length, rbc.trials[0].params.phi, rbc.trials[49].params.phi, rbc.trials[98].params.phi], [99, 0.01, 0.5, 0.99]);
    eq(lib.optimizeFusion(qrels, [a, b], { method: "rbc", metric: "mrr", step: 0.1 }).trials.map((t) => t.params.phi), [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
    eq(lib.optimizeFusion(qrels, [a, b], { method: "rbc", metric: "mrr", step: null }), rbc, "a step of null is the default");
    eq(lib.optimizeFusion(qrels, [a, b], { method: "wsum", metric: "mrr", step: null }), report, "for the weights too");
    throwsScoreError(lib, () => lib.optimizeFusion(qrels, [a, b], { method: "rrf", kValues: [-1] }), "INVALID_CONFIG", "options.kValues[0]");
  });

  test("optimizeFusion: every trial, given back to fuseRuns as the report holds it (with the search's norm), scores what the report says", () => {
    // Every method optimizeFusion tunes. Three runs of 5 queries over 8 documents, scores from a fixed generator; judgements
    // graded 0-2.
    const step = lcg(12345);
    const next = () => step() / 2 ** 32;
    const runs = [0, 1, 2].map(() => Object.fromEntries(Array.from({ length: 5 }, (_, q) => [`q${q}`, Object.fromEntries(Array.from({ length: 8 }, (_, d) => [`d${d}`, Math.round(next() * 1000) / 100]))])));
    const qrels = Object.fromEntries(Array.from({ length: 5 }, (_, q) => [`q${q}`, Object.fromEntries(Array.from({ length: 8 }, (_, d) => [`d${d}`, Math.floor(next() * 3)]).filter(([, g]) => g > 0))]));
    const cases = [
      { method: "rrf", kValues: [1, 5, 60] },
      { method: "rbc", step: 0.25 },
      { method: "gmnz", step: 0.5 },
      { method: "logn_isr", step: 0.5 },
      { method: "wsum", step: 0.5, norm: "zmuv" },
      { method: "mixed", step: 0.5 },
      { method: "dbsf", step: 0.5 },
      { method: "wmnz", step: 0.5 },
      { method: "w_bordafuse", step: 0.5 },
      { method: "w_condorcet", step: 0.5 },
      { method: "arithmetic_mean", step: 0.5 },
      { method: "geometric_mean", step: 0.5, norm: "min-max" },
      { method: "harmonic_mean", step: 0.5, norm: "min-max" },
    ];
    for (const options of cases) {
      const report = lib.optimizeFusion(qrels, runs, { ...options, metric: "ndcg@5" });
      eq(report.method, options.method);
      const scores = new Set();
      for (const trial of [report.best, ...report.trials]) {
        const fused = lib.fuseRuns(runs, { method: report.method, norm: options.norm, weights: trial.weights, params: trial.params });
        eq(lib.evaluate(qrels, fused, ["ndcg@5"])["ndcg@5"], trial.score, `${options.method} ${JSON.stringify(trial)}`);
        scores.add(trial.score);
      }
      eq(report.best.score, Math.max(...scores), options.method);
    }
  });

  test("fitting, calibration error and band proposals", () => {
    const platt = lib.fitPlatt([5, -4, 1], [1, 0, 0]);
    eq(platt.method, "platt");
    assert(Math.abs(platt.a - -0.20261354) < 1e-6 && Math.abs(platt.b - 0.65236315) < 1e-6, `platt ${platt.a} ${platt.b}`);
    const iso = lib.fitIsotonic([1, 2, 3, 4], [0, 1, 0, 1]);
    eq(iso.method, "isotonic");
    eq(Array.from(lib.applyCalibration([0, 1, 2.5, 9], iso)), [0, 0, 0.5, 1]);
    const p = new lib.Pipeline({ calibration: platt, minConfidence: 0 });
    const out = p.run({ lists: [{ name: "a", ids: ["x"] }] });
    eq(out.results[0].score, lib.applyCalibration([1 / 61], platt)[0]);
    // Judgements that run against the scores give a model that falls as the score rises
    // (a > 0): it applies as it is, but a pipeline, which ranks by it, refuses it.
    const against = lib.fitPlatt([0.1, 0.2, 0.8, 0.9], [1, 1, 0, 0]);
    assert(against.a > 0, `a ${against.a}`);
    const fall = lib.applyCalibration([0.1, 0.9], against);
    assert(fall[0] > fall[1], "applied as it is");
    eq(throwsScoreError(lib, () => new lib.Pipeline({ calibration: against }), "INVALID_CALIBRATION", "config.calibration.a").message, `must be <= 0, got ${against.a} (a Platt model with a > 0 falls as the score rises and would reverse the ranking: were the labels swapped, or the scores distances?)`);
    new lib.Pipeline({ calibration: { method: "platt", a: 0, b: 1 } }).free();
    const ce = lib.calibrationError([0.1, 0.9, 0.8, 0.3], [0, 1, 1, 0], { bins: 2 });
    assert(Math.abs(ce.brier - 0.0375) < 1e-15, `brier ${ce.brier}`);
    assert(ce.bins.length === 2 && typeof ce.ece === "number", "bins");
    // AUROC: ranked perfectly; a tie across the classes counts one half (3.5 of 4
    // pairs); null with one class.
    eq(ce.auroc, 1);
    eq(lib.calibrationError([0.5, 0.5, 0.2, 0.9], [0, 1, 0, 1]).auroc, 0.875);
    eq(lib.calibrationError(new Float64Array([0.2, 0.7]), [1, 1]).auroc, null);
    const scores = Array.from({ length: 200 }, (_, i) => i / 199);
    const labels = scores.map((s, i) => (s > 0.7 || (s > 0.4 && i % 2 === 0) ? 1 : 0));
    const bands = lib.proposeBands(scores, labels);
    assert(bands.degradedFloor <= bands.highFloor && bands.highFloor <= 1, "floors ordered");
    // A proposal plugs in by its floors; given whole, its report is no band field (the
    // declarations refuse it too: BandsConfig's `targetPrecision?: never`).
    throwsScoreError(lib, () => new lib.Pipeline({ bands }), "UNKNOWN_FIELD", "config.bands.targetPrecision");
    throwsScoreError(lib, () => lib.classifyBand(0.9, bands), "UNKNOWN_FIELD", "options.targetPrecision");
    throwsScoreError(lib, () => new lib.Pipeline({ bands: { profiles: [{ name: "p", ...bands }] } }), "UNKNOWN_FIELD", "config.bands.profiles[0].targetPrecision");
    new lib.Pipeline({ bands: { highFloor: bands.highFloor, degradedFloor: bands.degradedFloor } }).free();
    throwsScoreError(lib, () => lib.fitPlatt([1, 2], [1]), "LENGTH_MISMATCH");
    throwsScoreError(lib, () => lib.fitPlatt([1, 2], [1, 1]), "INVALID_LABELS");
    // Scores whose moments overflow fit as their scaled copy (they gave a flat a = b = 0).
    const huge = lib.fitPlatt([5e200, -4e200, 1e200], [1, 0, 0]);
    assert(Math.abs(huge.a * 1e200 - platt.a) < 1e-6 && Math.abs(huge.b - platt.b) < 1e-6, `huge ${huge.a} ${huge.b}`);
    throwsScoreError(lib, () => lib.fitPlatt([5e-320, -4e-320, 1e-320], [1, 0, 0]), "NON_FINITE_SCORE", "scores");
  });

  test("lab: options that are not objects, undefined scores, unknown fusion parameters and the model's overflow field", () => {
    assert(lib.fuseRuns, "calibrank/lab's fuseRuns is missing: every runner of the suite merges calibrank and calibrank/lab");
    const live = lib.__liveHandles();
    const qrels = { q1: { a: 1 }, q2: { a: 0 }, q3: { a: 1 }, q4: { b: 1 } };
    const runA = { q1: { a: 3, b: 2 }, q2: { a: 1, b: 2 }, q3: { a: 2, c: 1 }, q4: { c: 1, b: 0.5 } };
    const runB = { q1: { a: 0.9, b: 0.1 }, q2: { c: 0.5, d: 0.2 }, q3: { a: 0.8, b: 0.7 }, q4: { d: 0.3, a: 0.1 } };
    const model = lib.fitQueryConfidence(qrels, [runA, runB], { k: 2 });
    const q = { q1: { a: 1 } };
    const r = { q1: { a: 2, b: 1 } };
    // 1. The functions whose options hold only `limits` read any other value as no
    // options ("utf8" given where a text's encoding might go): now INVALID_TYPE on
    // `options`, worded as the core's calibrate words it.
    const kept = (made) => (made && typeof made.free === "function" ? made.free() : made);
    const onlyLimits = {
      parseTrecRun: (o) => lib.parseTrecRun("q1 Q0 d1 1 1 t", o),
      parseQrels: (o) => lib.parseQrels("q1 0 d1 1", o),
      "Run.fromTrec": (o) => kept(lib.Run.fromTrec("q1 Q0 d1 1 1 t", o)),
      "Run.fromObject": (o) => kept(lib.Run.fromObject({ q1: { d1: 1 } }, o)),
      "Qrels.fromTrec": (o) => kept(lib.Qrels.fromTrec("q1 0 d1 1", o)),
      "Qrels.fromObject": (o) => kept(lib.Qrels.fromObject({ q1: { d1: 1 } }, o)),
      fitPlatt: (o) => lib.fitPlatt([0.1, 0.9], [0, 1], o),
      fitIsotonic: (o) => lib.fitIsotonic([0.1, 0.9], [0, 1], o),
      applyCalibration: (o) => lib.applyCalibration([0.5], { method: "sigmoid", threshold: 0.5, steepness: 1 }, o),
      predictQueryConfidence: (o) => lib.predictQueryConfidence(model, [runA, runB], o),
    };
    const notObjects = ["utf8", "", 42, 0, NaN, true, false, Symbol("s"), () => 1, new Date(0)];
    if (typeof BigInt === "function") notObjects.push(BigInt(1));
    for (const [name, call] of Object.entries(onlyLimits)) {
      for (const v of notObjects) {
        const core = throwsScoreError(lib, () => lib.calibrate([0.1], v), "INVALID_TYPE", "options").message;
        const e = throwsScoreError(lib, () => call(v), "INVALID_TYPE", "options");
        eq(e.message, core, `${name}(${typeof v})`);
      }
      eq(throwsScoreError(lib, () => call("utf8"), "INVALID_TYPE", "options").message, 'expected an object, got "utf8"');
      // No options, and `limits` alone, as before; another key is still UNKNOWN_FIELD.
      call(undefined);
      call(null);
      call({ limits: { maxTotalEntries: 100 } });
      eq(throwsScoreError(lib, () => call({ limit: {} }), "UNKNOWN_FIELD", "options.limit").message, "unknown field `limit`, expected `limits`; did you mean `limits`?");
      // A long key cut after 64 characters, as every other options' unknown key (it was whole).
      const long = "k".repeat(100);
      eq(throwsScoreError(lib, () => call({ [long]: 1 }), "UNKNOWN_FIELD", `options.${long}`).message, `unknown field \`${"k".repeat(64)}\`... (100 bytes), expected \`limits\``);
    }
    // (Other options listed `limits` with a short key only: a long one lost it.)
    const longKey = "k".repeat(100);
    const evaluated = throwsScoreError(lib, () => lib.evaluate(q, q, ["mrr"], { [longKey]: 1 }), "UNKNOWN_FIELD", `options.${longKey}`).message;
    eq(evaluated, `unknown field \`${"k".repeat(64)}\`... (100 bytes), expected \`ties\` or \`limits\``);
    // 2. An own property whose value is `undefined` in a run or judgements object was
    // dropped silently (JSON.stringify's way) where `null` was refused: now refused as
    // `null` is, at its path, wherever such objects are read.
    const noNumber = (f, field, got = "undefined") => eq(throwsScoreError(lib, f, "INVALID_TYPE", field).message, `expected a number, got ${got}`);
    const noRecord = (f, field) => eq(throwsScoreError(lib, f, "INVALID_TYPE", field).message, `expected a record of document id -> ${field.startsWith("qrels") ? "grade" : "score"}, got undefined`);
    noNumber(() => lib.evaluate(q, { q1: { d1: undefined, d2: 1 } }, ["mrr"]), "run.q1.d1");
    noNumber(() => lib.evaluate(q, { q1: { d1: null, d2: 1 } }, ["mrr"]), "run.q1.d1", "null");
    noRecord(() => lib.evaluate(q, { q1: undefined }, ["mrr"]), "run.q1");
    noNumber(() => lib.evaluatePerQuery({ q1: { a: undefined } }, r, ["mrr"]), "qrels.q1.a");
    noRecord(() => lib.evaluatePerQuery({ q1: undefined }, r, ["mrr"]), "qrels.q1");
    noNumber(() => lib.Qrels.fromObject({ q1: { d1: undefined } }), "qrels.q1.d1");
    noNumber(() => lib.Run.fromObject({ q1: { d1: undefined } }), "run.q1.d1");
    noRecord(() => lib.Run.fromObject({ q1: r.q1, q2: undefined }), "run.q2");
    noNumber(() => lib.Run.fromObject(new Map([["q1", new Map([["d1", undefined]])]])), "run.q1.d1");
    noNumber(() => lib.fuseRuns([r, { q1: { b: undefined } }], { method: "sum" }), "runs[1].q1.b");
    const handle = lib.Run.fromObject(r);
    try {
      noNumber(() => lib.fuseRuns([handle, { q1: { b: undefined } }], { method: "sum" }), "runs[1].q1.b");
    } finally {
      handle.free();
    }
    noRecord(() => lib.optimizeFusion(q, [r, { q1: undefined }], { method: "rrf" }), "runs[1].q1");
    noNumber(() => lib.fitQueryConfidence({ q1: { a: 1, b: undefined } }, [runA, runB]), "qrels.q1.b");
    noNumber(() => lib.predictQueryConfidence(model, [runA, { ...runB, q9: { x: undefined } }]), "runs[1].q9.x");
    // Inherited or non-enumerable: not the object's own data, not read.
    eq(lib.evaluate(q, Object.assign(Object.create({ q9: undefined }), r), ["mrr"]), { mrr: 1 });
    eq(lib.evaluate(q, Object.defineProperty({ ...r }, "q9", { value: undefined, enumerable: false }), ["mrr"]), { mrr: 1 });
    // 3. A fusion parameter the method does not take was INVALID_CONFIG without the
    // nearest: now UNKNOWN_FIELD, worded as every unknown key, the method's parameters listed.
    const two = [r, r];
    const unknown = (options, field, message) => eq(throwsScoreError(lib, () => lib.fuseRuns(two, options), "UNKNOWN_FIELD", field).message, message);
    unknown({ method: "rbc", params: { hpi: 0.5 } }, "options.params.hpi", "unknown field `hpi`, expected `phi`; did you mean `phi`?");
    unknown({ method: "gmnz", params: { agmma: 1 } }, "options.params.agmma", "unknown field `agmma`, expected `gamma`; did you mean `gamma`?");
    unknown({ method: "logn_isr", params: { sigm: 0.01 } }, "options.params.sigm", "unknown field `sigm`, expected `sigma`; did you mean `sigma`?");
    unknown({ method: "rrf", params: { K: 60 } }, "options.params.K", "unknown field `K`, expected `k`; did you mean `k`?");
    unknown({ method: "sum", params: { k: 60 } }, "options.params.k", "unknown field `k`, there are no fields");
    // optimizeFusion's method it cannot tune names the nearest, as fuseRuns' unknown method does.
    const tuned = '"rrf", "rbc", "gmnz", "logn_isr", "wsum", "wmnz", "mixed", "w_bordafuse", "w_condorcet", "dbsf", "arithmetic_mean", "geometric_mean", "harmonic_mean"';
    const untuned = (method) => throwsScoreError(lib, () => lib.optimizeFusion(q, two, { method }), "UNKNOWN_METHOD", "options.method").message;
    const m = untuned("RRF");
    assert(m.startsWith(`"RRF" is not one of ${tuned} (`) && m.endsWith('; did you mean "rrf"?'), m);
    assert(throwsScoreError(lib, () => lib.fuseRuns(two, { method: "RRF" }), "UNKNOWN_METHOD", "options.method").message.endsWith('; did you mean "rrf"?'), "fuseRuns");
    assert(untuned("sum").includes("any other method has nothing to tune"), untuned("sum"));
    assert(!untuned("zzzzzz").includes("did you mean"), "nothing near");
    // gmnz's gamma and logn_isr's sigma are tuned on ranx's grids (0.01 to 1), each trial
    // the fusion fuseRuns gives with that parameter.
    for (const [method, name] of [["gmnz", "gamma"], ["logn_isr", "sigma"]]) {
      const judged = { q: { b: 1 } };
      const runs = [{ q: { a: 3, b: 2, c: 1 } }, { q: { b: 0.9, c: 0.5, a: 0.1 } }];
      const o = lib.optimizeFusion(judged, runs, { method, metric: "mrr" });
      eq(o.trials.length, 100, method);
      eq([o.trials[0].params[name], o.trials[6].params[name], o.trials[99].params[name]], [0.01, 0.07, 1], method);
      const rr = (fused) => 1 / (Object.keys(fused.q).sort((x, y) => fused.q[y] - fused.q[x]).indexOf("b") + 1);
      for (const t of [o.trials[0], o.trials[99]]) eq(t.score, rr(lib.fuseRuns(runs, { method, params: { [name]: t.params[name] } })), `${method} ${t.params[name]}`);
      eq(lib.optimizeFusion(judged, runs, { method, metric: "mrr", step: 0.25 }).trials.map((t) => t.params[name]), [0.25, 0.5, 0.75, 1]);
    }
    // 4. The model's own overflow (its rank-only feature) was on "": now on `model`, as
    // the Pipeline names it on `config.confidence.model`.
    assert(model.coefficients[0] !== 0, "the rank-only feature weighs");
    const bad = { ...model, scale: [5e-324, ...model.scale.slice(1)] };
    const e = throwsScoreError(lib, () => lib.predictQueryConfidence(bad, [runA, runB]), "NON_FINITE_SCORE", "model");
    const p = new lib.Pipeline({ confidence: { model: bad } });
    try {
      const lists = [{ name: "a", ids: ["x", "y"], scores: [1, 0.5] }, { name: "b", ids: ["y"], scores: [0.9] }];
      eq(throwsScoreError(lib, () => p.run({ lists }), "NON_FINITE_SCORE", "config.confidence.model").message, e.message);
    } finally {
      p.free();
    }
    eq(lib.__liveHandles(), live);
  });
}
