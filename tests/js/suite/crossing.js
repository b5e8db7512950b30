// How inputs and outputs cross between the package's JavaScript and the module: typed
// sections, string tables in UTF-8, numbers as bits, outputs built from numbers.

import { hexOf, assert, byBytes, eq, throwsScoreError } from "./helpers.js";

export function crossingTests(test, lib) {
  test("identities with a lone surrogate are kept apart or refused, never merged; texts with one are read", () => {
    // Two ids that differ only in a lone surrogate: UTF-8 has no form for either, so
    // each would be read as U+FFFD by the module and the two would become one.
    const a = "x\uD800";
    const b = "x\uDC00";
    // Where ids cross as a string table (interned by the package's JavaScript), they
    // stay apart and come back as given.
    const fused = lib.rrf([[a], [b]]);
    eq(fused.map(([id]) => id).sort(), [a, b].sort(), "rrf keeps both ids as given");
    // Their bytes are the same (U+FFFD's), so tied in score they keep the order in which
    // they were first listed (the README's "Lone surrogates").
    eq(lib.rrf([[a], [b]]).map(([id]) => id), [a, b]);
    eq(lib.rrf([[b], [a]]).map(([id]) => id), [b, a]);
    eq(lib.rrf([[b], ["x\uFFFD"]]).map(([id]) => id), [b, "x\uFFFD"]);
    eq(lib.rrf([["x\uFFFD"], [b]]).map(([id]) => id), ["x\uFFFD", b]);
    const p = new lib.Pipeline({ minConfidence: 0 });
    try {
      const out = p.run({ lists: [{ name: "l", ids: [a, b] }] });
      eq(out.results.map((r) => r.id), [a, b], "Pipeline keeps both ids as given");
      // A list's name is an identity too (explanations name it, weights are keyed by it).
      throwsScoreError(lib, () => p.run({ lists: [{ name: a, ids: ["d1"] }, { name: b, ids: ["d2"] }] }), "INVALID_TYPE", "lists[0].name");
    } finally {
      p.free();
    }
    // Where ids cross as JSON (compared inside the module), they are refused.
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "ok", score: 1 }], [{ id: "ok2", score: 1 }, { id: b, score: 1 }]]), "INVALID_TYPE", "queries[1][1].id");
    throwsScoreError(lib, () => lib.rerank("q", [{ id: a, name: "q", score: 1 }, { id: b, name: "q", score: 1 }]), "INVALID_TYPE", "candidates[0].id");
    throwsScoreError(lib, () => lib.evaluate({ q1: { d: 1 } }, { q1: { [a]: 1, [b]: 0.5 } }, ["mrr"]), "INVALID_TYPE", "run.q1");
    throwsScoreError(lib, () => lib.evaluate({ [b]: { d: 1 } }, { q1: { d: 1 } }, ["mrr"]), "INVALID_TYPE", "qrels");
    throwsScoreError(lib, () => lib.parseTrecRun(`q1 Q0 ${a} 1 1.0 r\n`), "INVALID_TYPE", "text");
    // Band profiles are chosen by comparing the context's fields with each profile's.
    throwsScoreError(lib, () => new lib.Pipeline({ bands: { profiles: [{ name: "p", language: a, highFloor: 0.9, degradedFloor: 0.5 }] } }), "INVALID_TYPE", "config.bands.profiles[0].language");
    // A profile's name too: two profiles may not share one, and explanations report it.
    const named = (x, y) => ({ bands: { profiles: [{ name: x, language: "a", highFloor: 0.9, degradedFloor: 0.5 }, { name: y, language: "b", highFloor: 0.9, degradedFloor: 0.5 }] } });
    throwsScoreError(lib, () => new lib.Pipeline(named("p", b)), "INVALID_TYPE", "config.bands.profiles[1].name");
    throwsScoreError(lib, () => new lib.Pipeline(named(a, "p")), "INVALID_TYPE", "config.bands.profiles[0].name");
    new lib.Pipeline(named("p\uD83D\uDE00", "q")).free();
    const pp = new lib.Pipeline({ bands: { profiles: [{ name: "p", language: "x", highFloor: 0.9, degradedFloor: 0.5 }] } });
    try {
      throwsScoreError(lib, () => pp.run({ lists: [{ name: "l", ids: ["d"] }], context: { language: b } }), "INVALID_TYPE", "context.language");
    } finally {
      pp.free();
    }
    const err = throwsScoreError(lib, () => new lib.Pipeline({ weights: { [a]: 2 } }), "INVALID_TYPE", "config.weights");
    assert(err.message.includes("\\ud800"), `the message shows the key escaped: ${err.message}`);
    // A surrogate pair is one character, not a lone surrogate; texts with lone ones are
    // read (a lone surrogate as U+FFFD, as TextEncoder reads it), ids unaffected.
    const pair = "d\uD83D\uDE00";
    eq(lib.evaluate({ q1: { [pair]: 1 } }, { q1: { d: 1, [pair]: 0.5 } }, ["mrr"]), { mrr: 0.5 });
    eq(lib.fuseMultiQuery([[{ id: pair, score: 1 }]]).results.map((r) => r.id), [pair]);
    const reranked = lib.rerank("q\uD800", [{ id: "x", name: "q\uD800 name", score: 1 }]);
    eq(reranked.map((r) => r.id), ["x"]);
  });

  test("fuseMultiQuery reads hits as the pipeline reads items: typed sections, ids interned", () => {
    const q = [
      [{ id: "a", score: 0.9, timestamp: 1700000000123 }, { id: "b", score: 0.8, timestamp: "2023-11-14T22:13:20.123Z" }],
      [{ id: "b", score: 0.95 }, { id: "c", score: 0.7, timestamp: null }],
    ];
    const base = lib.fuseMultiQuery(q, { method: "score_max", similarityThreshold: 0 });
    // A Date is its epoch milliseconds; an ISO text of the same instant gives the same bits.
    const withDates = q.map((hits) => hits.map((h) => (typeof h.timestamp === "number" ? { ...h, timestamp: new Date(h.timestamp) } : h)));
    eq(lib.fuseMultiQuery(withDates, { method: "score_max", similarityThreshold: 0 }), base);
    eq(lib.fuseMultiQuery([[{ id: "a", score: 0.9, timestamp: "2023-11-14T22:13:20.123Z" }]], { similarityThreshold: 0 }), lib.fuseMultiQuery([[{ id: "a", score: 0.9, timestamp: 1700000000123 }]], { similarityThreshold: 0 }));
    // Hits given as class instances with getters are read (JSON.stringify skipped getters).
    class Hit {
      constructor(id, score) {
        this._id = id;
        this._score = score;
      }
      get id() {
        return this._id;
      }
      get score() {
        return this._score;
      }
    }
    const cls = [[new Hit("a", 0.9), new Hit("b", 0.8)], [new Hit("b", 0.95), new Hit("c", 0.7)]];
    const plain = [[{ id: "a", score: 0.9 }, { id: "b", score: 0.8 }], [{ id: "b", score: 0.95 }, { id: "c", score: 0.7 }]];
    // (the instances' own `_id` / `_score` are not hit fields: refused as unknown)
    throwsScoreError(lib, () => lib.fuseMultiQuery(cls), "UNKNOWN_FIELD", "queries[0][0]._id");
    const bare = cls.map((hits) => hits.map((h) => Object.create(Hit.prototype, { _id: { value: h._id }, _score: { value: h._score } })));
    eq(lib.fuseMultiQuery(bare), lib.fuseMultiQuery(plain));
    // A hit must be an object: arrays (serde would read [id, score]), Maps and Dates are refused.
    throwsScoreError(lib, () => lib.fuseMultiQuery([[["a", 1]]]), "INVALID_TYPE", "queries[0][0]");
    // An array is refused whatever its prototype (a plain object's is recognised first).
    const disguised = Object.assign(Object.setPrototypeOf([], Object.prototype), { id: "a", score: 1 });
    throwsScoreError(lib, () => lib.fuseMultiQuery([[disguised]]), "INVALID_TYPE", "queries[0][0]");
    throwsScoreError(lib, () => lib.rerank("q", [disguised]), "INVALID_TYPE", "candidates[0]");
    const many = (n) => Array.from({ length: n }, (_, i) => ({ id: `h${i % 50}`, score: 0.99 - i / 1000 }));
    // Options as numbers or as JSON (`limits` sends them as JSON): the same answers.
    const mq = [many(30), many(25).reverse()];
    const attempt = (o) => {
      try {
        return lib.fuseMultiQuery(mq, o);
      } catch (e) {
        return [e.code, e.field, e.message];
      }
    };
    const same = (o) => eq(attempt(o), attempt({ ...o, limits: {} }), JSON.stringify(o));
    for (const method of ["rrf", "score_sum", "score_max", undefined])
      for (const o of [{}, { resultsPerQuery: 7, limit: 3 }, { similarityThreshold: 0.9, verbose: true }, { multiQueryBoost: 0.5, k: 1.5 }, { similarityThreshold: -0, verbose: false }])
        same({ ...o, method });
    for (const o of [{ resultsPerQuery: 0 }, { resultsPerQuery: 100_001 }, { limit: 0 }, { k: 0 }, { multiQueryBoost: 2 }, { multiQueryBoost: -0.5 }, { method: "max" }, { method: null }, { k: NaN }, { limit: 2.5 }, { verbose: 1 }, { extra: 1 }, { k: -0 }, { similarityThreshold: -0 }])
      same(o);
    // Every field is accepted (the unknown-key checks name them one by one).
    eq(lib.fuseMultiQuery([[{ id: "a", score: 0.9, timestamp: 1 }]]).results.length, 1);
    eq(lib.rerank("q", [{ id: "a", score: 1, name: "n", type: "class", summary: "s", content: "c" }]).length, 1);
    // A getter that calls the package while 64 or more hits are read (the kept tables
    // are another call's meanwhile): both calls right.
    const alone = lib.fuseMultiQuery([many(80), many(70)], { verbose: true });
    let inner = null;
    const first = many(80);
    Object.defineProperty(first[37], "score", {
      enumerable: true,
      get() {
        inner ??= [lib.fuseMultiQuery([many(90)]), lib.rrf([many(70).map((h) => h.id)]), new lib.Pipeline().run({ lists: [{ name: "a", ids: many(65).map((h) => h.id) }] }).results.length];
        return 0.99 - 37 / 1000;
      },
    });
    eq(lib.fuseMultiQuery([first, many(70)], { verbose: true }), alone, "the outer call");
    eq(inner[0], lib.fuseMultiQuery([many(90)]), "the inner fuseMultiQuery");
    eq(inner[1], lib.rrf([many(70).map((h) => h.id)]), "the inner rrf");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[new Map([["id", "a"], ["score", 1]])]]), "INVALID_TYPE", "queries[0][0]");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1 }, null]]), "INVALID_TYPE", "queries[0][1]");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ score: 1 }]]), "INVALID_CONFIG", "queries[0][0].id");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a" }]]), "INVALID_CONFIG", "queries[0][0].score");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: 5, score: 1 }]]), "INVALID_TYPE", "queries[0][0].id");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: "1" }]]), "INVALID_TYPE", "queries[0][0].score");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: NaN }]]), "NON_FINITE_SCORE", "queries[0][0].score");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1, rank: 2 }]]), "UNKNOWN_FIELD", "queries[0][0].rank");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1, timestamp: {} }]]), "INVALID_TYPE", "queries[0][0].timestamp");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1, timestamp: "yesterday" }]]), "INVALID_TIMESTAMP", "queries[0][0].timestamp");
    // An invalid Date is an invalid timestamp (JSON.stringify made it null: no timestamp).
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1, timestamp: new Date(NaN) }]]), "INVALID_TIMESTAMP", "queries[0][0].timestamp");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "x".repeat(1025), score: 1 }]]), "INPUT_TOO_LARGE", "queries[0][0].id");
    // The strings' total is checked before they are copied, on the field the module would name.
    const tight = { limits: { maxTotalTextBytes: 40 } };
    const texts = [[{ id: "a".repeat(20), score: 1 }, { id: "a".repeat(20), score: 0.5, timestamp: "2023-11-14T22:13:20.123Z" }]];
    throwsScoreError(lib, () => lib.fuseMultiQuery(texts, tight), "INPUT_TOO_LARGE", "queries[0][1].timestamp");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a".repeat(20), score: 1 }], [{ id: "b".repeat(21), score: 1 }]], tight), "INPUT_TOO_LARGE", "queries[1][0].id");
    // Each query's length is read once: a Proxy answering differently later changes nothing.
    let reads = 0;
    const hits = [{ id: "a", score: 0.9 }, { id: "b", score: 0.8 }];
    const proxy = new Proxy(hits, { get: (t, k) => (k === "length" ? (reads++ === 0 ? 2 : 64) : t[k]) });
    eq(lib.fuseMultiQuery([proxy]), lib.fuseMultiQuery([hits]));
    assert(reads === 1, `length read ${reads} times`);
  });

  test("rerank reads candidates as typed sections: each field once, no JSON", () => {
    const cands = [
      { id: "a", score: 0.5, name: "GraphTraversal", type: "class", summary: "walks a graph" },
      { id: "b", score: 0.9, name: "other", content: "short" },
      { id: "c", score: 0.9, name: "graph traversal", type: null, summary: null, content: undefined },
    ];
    const out = lib.rerank("GraphTraversal", cands);
    eq(out.map((r) => r.id), ["a", "c", "b"]);
    eq(out[0], {
      id: "a",
      originalScore: 0.5,
      rerankedScore: 0.5 * (3 * 2.5 * 1.25 * 1.3),
      factors: { exactName: 3, nameTerms: 2.5, summaryTerms: 1.25, shortContent: 1, entityType: 1.3, multiplier: 3 * 2.5 * 1.25 * 1.3 },
    });
    eq(out[2].factors.shortContent, 0.5);
    // Getters are read once each, and `toJSON` is not called (JSON.stringify called it).
    let reads = 0;
    const counted = {
      id: "a",
      score: 0.5,
      get name() {
        reads++;
        return "GraphTraversal";
      },
      type: "class",
      summary: "walks a graph",
    };
    Object.defineProperty(counted, "toJSON", { value: () => ({ id: "z", score: 9, name: "zz" }), enumerable: false });
    eq(lib.rerank("GraphTraversal", [counted, cands[1], cands[2]]), out);
    assert(reads === 1, `name read ${reads} times`);
    // -0 is 0, as the JSON form read it.
    assert(Object.is(lib.rerank("q", [{ id: "a", score: -0, name: "n" }])[0].originalScore, 0), "-0 read as 0");
    // A candidate must be an object: arrays (serde read [id, score, name]), Maps and Dates are refused.
    throwsScoreError(lib, () => lib.rerank("q", [["a", 1, "n"]]), "INVALID_TYPE", "candidates[0]");
    throwsScoreError(lib, () => lib.rerank("q", [new Map([["id", "a"]])]), "INVALID_TYPE", "candidates[0]");
    throwsScoreError(lib, () => lib.rerank("q", [cands[0], null]), "INVALID_TYPE", "candidates[1]");
    throwsScoreError(lib, () => lib.rerank("q", [{ score: 1, name: "n" }]), "INVALID_CONFIG", "candidates[0].id");
    throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", name: "n" }]), "INVALID_CONFIG", "candidates[0].score");
    throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", score: 1 }]), "INVALID_CONFIG", "candidates[0].name");
    throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", score: "1", name: "n" }]), "INVALID_TYPE", "candidates[0].score");
    throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", score: 1, name: "n", summary: 5 }]), "INVALID_TYPE", "candidates[0].summary");
    throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", score: 1, name: "n", rank: 2 }]), "UNKNOWN_FIELD", "candidates[0].rank");
    throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", score: NaN, name: "n" }]), "NON_FINITE_SCORE", "candidates[0].score");
    throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", score: -1, name: "n" }]), "NEGATIVE_VALUE", "candidates[0].score");
    // An overflow: multipliers that overflow alone are the options' (a pipeline names its
    // `config.rerank.heuristic`), a huge score carried past f64::MAX the candidate's.
    throwsScoreError(lib, () => lib.rerank("auth", [{ id: "a", score: 1, name: "auth" }], { exactNameMultiplier: 1e308 }), "NON_FINITE_SCORE", "options");
    throwsScoreError(lib, () => lib.rerank("auth", [{ id: "a", score: 1e308, name: "auth" }]), "NON_FINITE_SCORE", "candidates[0].score");
    // The strings' total (the query first, then each candidate's id, name, type, summary,
    // content) is checked before the copy, on the field the module would name.
    const tight = (n) => ({ limits: { maxTotalTextBytes: n } });
    const one = [{ id: "a", score: 1, name: "alpha", summary: "0123456789" }];
    throwsScoreError(lib, () => lib.rerank("alpha", one, tight(20)), "INPUT_TOO_LARGE", "candidates[0].summary");
    eq(lib.rerank("alpha", one, tight(21)).length, 1);
    throwsScoreError(lib, () => lib.rerank("alpha".repeat(3), one, tight(10)), "INPUT_TOO_LARGE", "query");
    throwsScoreError(lib, () => lib.rerank("alpha", [{ ...one[0], name: "é".repeat(10) }], tight(20)), "INPUT_TOO_LARGE", "candidates[0].name");
    // Each string's own limit comes before the total, as in the module (which checks them all first).
    const both = { limits: { maxTextBytes: 16, maxTotalTextBytes: 20, maxIdBytes: 30 } };
    const two = [{ id: "a", score: 1, name: "n".repeat(15), summary: "s".repeat(10) }, { id: "b", score: 1, name: "m".repeat(17) }];
    const e1 = throwsScoreError(lib, () => lib.rerank("q", two, both), "INPUT_TOO_LARGE", "candidates[1].name");
    assert(e1.message.includes("maxTextBytes"), e1.message);
    const e2 = throwsScoreError(lib, () => lib.rerank("q", [two[0], { id: "i".repeat(40), score: 1, name: "x" }], both), "INPUT_TOO_LARGE", "candidates[1].id");
    assert(e2.message.includes("maxIdBytes"), e2.message);
    // `type` is a text within maxTextBytes too, as an item's is in `Pipeline.run`: over
    // the total (checked here before the copy) and within it (the module's own check).
    const typed = [{ id: "a", score: 1, name: "n", type: "t".repeat(17) }];
    const e3 = throwsScoreError(lib, () => lib.rerank("q", typed, both), "INPUT_TOO_LARGE", "candidates[0].type");
    assert(e3.message.includes("maxTextBytes"), e3.message);
    const e4 = throwsScoreError(lib, () => lib.rerank("q", typed, { limits: { maxTextBytes: 16 } }), "INPUT_TOO_LARGE", "candidates[0].type");
    assert(e4.message.includes("maxTextBytes"), e4.message);
    eq(lib.rerank("q", [{ ...typed[0], type: "t".repeat(16) }], both).length, 1);
  });

  test("numbers in configurations cross bit for bit (safe integers as digits, the rest as bits)", () => {
    const third = 0.1 + 0.2;
    const p = new lib.Pipeline({ calibration: { method: "sigmoid", threshold: third, steepness: 2 ** 60 + 2 ** 9 }, k: 60.5 });
    eq(p.config.calibration, { method: "sigmoid", threshold: third, steepness: 2 ** 60 + 2 ** 9 });
    eq(p.config.k, 60.5);
    p.free();
    const big = 2 ** 60 + 2 ** 9;
    const out = lib.rrf([["a"], ["b"]], { k: 1.5, weights: [third, 5e-324] });
    eq(out, [["a", third / 2.5], ["b", 5e-324 / 2.5]]);
    eq(lib.rrf([["a"]], { k: big })[0][1], 1 / (big + 1));
    // A caller's string that looks like the bits form is a string, not a number.
    // (Type errors inside a configuration name the value's path.)
    throwsScoreError(lib, () => new lib.Pipeline({ k: "\u0000#404e000000000000" }), "INVALID_TYPE", "config.k");
    throwsScoreError(lib, () => new lib.Pipeline({ topN: 1.5 }), "INVALID_TYPE", "config.topN");
    throwsScoreError(lib, () => new lib.Pipeline({ topK: 2 ** 53 }), "INVALID_TYPE", "config.topK");
    // (A whole topN past u32 is out of its range, as a call's: INVALID_TOP_N.)
    eq(throwsScoreError(lib, () => new lib.Pipeline({ topN: 2 ** 53 }), "INVALID_TOP_N", "config.topN").message, "topN must satisfy 1 <= topN <= topK = 10, got 9007199254740992");
    eq(lib.rrf([["a"]], { k: 2 ** 53 - 1 })[0][1], 1 / 2 ** 53);
  });

  test("a Map's keys all cross, __proto__ included (found by the JS fuzz test)", () => {
    const p = new lib.Pipeline({ weights: new Map([["__proto__", 2], ["a", 1]]) });
    eq(Object.getOwnPropertyNames(p.config.weights).sort(), ["__proto__", "a"]);
    eq(p.config.weights.__proto__, 2);
    p.free();
    // Was a TypeError: the String became the prototype, its index 9 read-only.
    throwsScoreError(lib, () => new lib.Pipeline({ weights: new Map([["__proto__", new String("abcdefghijkl")], ["9", 1]]) }), "INVALID_TYPE", "config.weights.__proto__");
  });

  test("Pipeline.config is read from the module once and copied at each read: changing a copy changes neither the next read nor the runs; a freed pipeline's is refused", () => {
    const p = new lib.Pipeline({ weights: { a: 2 }, topN: 2 });
    const input = { query: "q", lists: [{ name: "a", ids: ["x", "y", "z"] }, { name: "b", ids: ["z", "y"] }] };
    const before = p.run(input);
    const first = p.config;
    assert(first !== p.config && first.weights !== p.config.weights, "a new object at each read");
    first.weights.a = 100;
    first.topN = 9;
    first.calibration.threshold = 0;
    first.stopwords = ["q"];
    const again = p.config;
    eq(again.weights, { a: 2 });
    eq(again.topN, 2);
    eq(again.calibration, new lib.Pipeline().config.calibration);
    eq(p.run(input), before);
    p.free();
    throwsScoreError(lib, () => p.config, "INVALID_TYPE", "this");
  });

  test("string tables cross as UTF-8, short and long, ASCII or not (ties ordered by their bytes)", () => {
    for (const [n, alphabet] of [
      [6, ["x", "ab", "q"]],
      [6, ["x", "\u00e9", "\u{1F600}", "ab"]],
      [400, ["x", "ab", "q"]],
      [400, ["x", "\u00e9", "\u{1F600}", "ab"]],
      // Strings longer than the ASCII fast path's 64 units (js/wire/input.js `writeString`).
      [5, ["x", "y".repeat(70), "\u00e9".repeat(65), "ab"]],
    ]) {
      const ids = Array.from({ length: n }, (_, i) => alphabet[i % alphabet.length] + i);
      // Every id alone at rank 1 of its own list: all tie, ordered by UTF-8 bytes.
      const out = lib.rrf(ids.map((id) => [id]), { limits: { maxLists: n } });
      eq(out.map(([id]) => id), [...ids].sort(byBytes));
    }
    // A pipeline's ids from 4,096 list entries on (their lengths kept while they are
    // interned, js/core/pipeline-input.js `encodeInput`): two lists whose entries tie rank by rank.
    for (const alphabet of [["x", "ab", "q"], ["x", "\u00e9", "\u{1F600}", "ab"]]) {
      const n = 2100;
      const a = Array.from({ length: n }, (_, i) => alphabet[i % alphabet.length] + i);
      const b = Array.from({ length: n }, (_, i) => alphabet[(i + 1) % alphabet.length] + "b" + (n - i));
      const p = new lib.Pipeline({ topK: 2 * n, topN: 2 * n, minConfidence: 0, explain: false });
      const out = p.run({ lists: [{ name: "a", ids: a }, { name: "b", ids: b }] });
      p.free();
      eq(out.results.length, 2 * n);
      for (let i = 0; i < n; i++) eq(out.results.slice(2 * i, 2 * i + 2).map((r) => r.id), [a[i], b[i]].sort(byBytes));
    }
    // Around the table size (96 UTF-16 units) up to which strings are written one by one.
    for (const units of [95, 96, 97]) {
      const ids = ["\u{1F600}" + "a".repeat(units - 9), "\u00e9b", "cc", "ab", "b"];
      eq(ids.reduce((t, id) => t + id.length, 0), units);
      eq(lib.rrf(ids.map((id) => [id])).map(([id]) => id), [...ids].sort(byBytes));
    }
  });

  test("rrf's small calls (the ids' count alone crosses) order ties and check sizes as calls whose strings cross", () => {
    // Under 64 entries, with options in their compact form, the module gets no string:
    // js/core/fuse.js checks the ids' sizes and orders each run of equal scores by the
    // ids' UTF-8 bytes. Options without a prototype cross as JSON text, and with them the
    // ids as a string table, which the module checks and orders itself: both must agree
    // on every output bit and every error.
    let seed = 0x2545f491;
    const next = (n) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    // ASCII, 2- and 3-byte units on both sides of the surrogates, surrogates paired or lone.
    const units = [0x61, 0x62, 0x7f, 0xe9, 0x7ff, 0x800, 0xd7ff, 0xd83d, 0xde00, 0xd800, 0xdc00, 0xdfff, 0xe000, 0xfffd, 0xffff];
    const outcome = (f) => {
      try {
        return f().map(([id, score]) => [id, hexOf(score)]);
      } catch (e) {
        if (!(e instanceof lib.ScoreError)) throw e;
        return { code: e.code, field: e.field, message: e.message };
      }
    };
    let tied = 0;
    let refused = 0;
    let previousLimits;
    // Tied pairs whose first differing units hold a surrogate (bytes compared, not units).
    let bySurrogate = 0;
    const surrogateAt = (a, b) => {
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      return /[\ud800-\udfff]/.test((a[i] ?? "") + (b[i] ?? ""));
    };
    for (let c = 0; c < 3000; c++) {
      const pool = Array.from({ length: 1 + next(14) }, () => String.fromCharCode(...Array.from({ length: next(5) }, () => units[next(units.length)])));
      // Short lists often: ids at the same ranks of different lists tie.
      const lists = Array.from({ length: 1 + next(6) }, () => Array.from({ length: next(2) === 0 ? 1 + next(2) : next(13) }, () => pool[next(pool.length)]));
      // Each limit drawn on its own, and now and then the previous call's limits again
      // (the compact form's limits are kept from call to call while they are the same).
      const options = {};
      if (next(3) === 0) options.k = [1, 2.5, 60][next(3)];
      if (next(4) === 0) options.weights = lists.map(() => [1, 0.5, 2][next(3)]);
      if (next(4) === 0) options.limits = previousLimits;
      else if (next(3) !== 0) {
        options.limits = {};
        if (next(2) === 0) options.limits.maxIdBytes = 1 + next(12);
        if (next(2) === 0) options.limits.maxTotalTextBytes = 1 + next(40);
      }
      previousLimits = options.limits;
      const lean = outcome(() => lib.rrf(lists, options));
      const strings = outcome(() => lib.rrf(lists, Object.assign(Object.create(null), options)));
      eq(lean, strings, `case ${c}: ${JSON.stringify({ lists, options })}`);
      if (!Array.isArray(lean)) {
        refused++;
        continue;
      }
      // The order itself: scores descending, ties by the ids' bytes, then first occurrence.
      const first = new Map();
      lists.flat().forEach((id, i) => first.has(id) || first.set(id, i));
      const fused = lib.rrf(lists, options);
      for (let i = 1; i < fused.length; i++) {
        const [a, sa] = fused[i - 1];
        const [b, sb] = fused[i];
        assert(sa >= sb, `case ${c}: scores descending`);
        if (sa === sb) {
          tied++;
          if (surrogateAt(a, b)) bySurrogate++;
          const o = byBytes(a, b);
          assert(o < 0 || (o === 0 && first.get(a) < first.get(b)), `case ${c}: ${JSON.stringify(a)} before ${JSON.stringify(b)}`);
        }
      }
    }
    // The generator reaches both outcomes and many ties.
    assert(refused > 500 && tied > 500 && bySurrogate > 100, `refused ${refused}, tied pairs ${tied} (${bySurrogate} at a surrogate)`);
  });

  test("a small call's ids interned without a Map, then with one from a long id on", () => {
    // Up to 40 list entries the ids are compared with those met before; an id longer than
    // 64 UTF-16 units moves the call to a Map of the ids so far (js/wire/values.js
    // `FEW_ENTRIES`). "a" occurs again after the long id (a repeat in its list, which keeps
    // its first rank), so the Map must hold the ids met before it.
    const long = "Z".repeat(65);
    for (const id of [long, "Z".repeat(64)]) {
      const lists = [["a", "b", id, "a"], [id, "b", "a"]];
      const a = 1 / 61 + 1 / 63;
      const expected = [[id, a], ["a", a], ["b", 2 / 62]];
      eq(lib.rrf(lists), expected, id.length);
      const p = new lib.Pipeline({ minConfidence: 0, normalization: { method: "none" }, explain: true });
      const out = p.run({ lists: lists.map((ids, i) => ({ name: `l${i}`, ids })) });
      eq(out.results.map((r) => [r.id, r.explain.fused]), expected, `pipeline ${id.length}`);
      eq(out.stats.duplicates, [1, 0]);
      p.free();
    }
    // Ids of the same signature (length, middle and last unit) are told apart.
    const same = [["aXc", "bXc"], ["bXc", "aXc"]];
    eq(lib.rrf(same), [["aXc", 1 / 61 + 1 / 62], ["bXc", 1 / 61 + 1 / 62]]);
    // fuseMultiQuery's hits alike: each id once, in as many queries as it is in.
    for (const id of [long, "Z".repeat(64)]) {
      const hit = (i, score) => ({ id: i, score });
      const queries = [[hit("aXc", 0.9), hit("bXc", 0.8)], [hit("bXc", 0.9), hit(id, 0.8), hit("aXc", 0.7)], [hit(id, 0.9), hit("aXc", 0.8)]];
      const out = lib.fuseMultiQuery(queries, { verbose: true });
      eq(out.results.map((r) => [r.id, r.appearedInQueryCount]), [["aXc", 3], [id, 2], ["bXc", 2]], `fuseMultiQuery ${id.length}`);
      eq([out.stats.uniqueItems, out.stats.itemsInMultipleQueries], [3, 3]);
    }
    // 41 entries: the Map from the start; the same scores.
    const many = Array.from({ length: 41 }, (_, i) => `d${i % 20}`);
    const byMap = lib.rrf([many]);
    eq(byMap.length, 20);
    eq(lib.rrf([many.slice(0, 40)]), byMap);
  });

  test("rrf's limits are each call's own, whatever the call before gave", () => {
    // The compact form's limits are kept from one call to the next while their values
    // are the same (js/wire/limits.js `ofSlots`): a limit given, then not, then another.
    const tooLong = (limits) => throwsScoreError(lib, () => lib.rrf([["abcdef"]], { limits }), "INPUT_TOO_LARGE", "lists[0][0]");
    tooLong({ maxIdBytes: 3, maxTotalTextBytes: 100 });
    eq(lib.rrf([["abcdef"]], { limits: { maxTotalTextBytes: 100 } }).length, 1);
    tooLong({ maxIdBytes: 3, maxTotalTextBytes: 100 });
    tooLong({ maxIdBytes: 3, maxTotalTextBytes: 100 });
    eq(lib.rrf([["abcdef"]], { limits: { maxIdBytes: 6 } }).length, 1);
    tooLong({ maxIdBytes: 5 });
    eq(lib.rrf([["abcdef"]]).length, 1);
    tooLong({ maxTotalTextBytes: 5 });
    eq(lib.rrf([["abcdef"]], { limits: {} }).length, 1);
    // A value the module refuses, between two the checks here hold.
    throwsScoreError(lib, () => lib.rrf([["abcdef"]], { limits: { maxIdBytes: 0 } }), "INVALID_CONFIG", "options.limits.maxIdBytes");
    tooLong({ maxIdBytes: 5 });
    eq(lib.rrf([["abcdef"]], { limits: { maxIdBytes: 7 } }).length, 1);
    // Options as JSON text: the ids' sizes are checked before the text is made, so the
    // options' getters run once and a size error comes before the text's own faults.
    let reads = 0;
    const o = Object.create(null);
    Object.defineProperty(o, "limits", { enumerable: true, get: () => (reads++, { maxTotalTextBytes: 4 }) });
    o.self = o;
    throwsScoreError(lib, () => lib.rrf([["aaaaaa", "b"]], o), "INPUT_TOO_LARGE", "lists[0][0]");
    eq(reads, 1, "the options' getter ran once");
  });

  test("Pipeline: explanations come back as numbers (no JSON text), with every method's keys in order", () => {
    const input = {
      query: "auth token",
      lists: [
        { name: "semantic", ids: ["x", "y", "w"], scores: [-0, 2, 1] },
        { name: "keyword", ids: ["x", "z"], weight: 2 },
      ],
      items: {
        x: { crossEncoderScore: 1, name: "authToken", summary: "the auth token" },
        y: { crossEncoderScore: -2, type: "class" },
        z: { crossEncoderScore: 3, summary: "token" },
        w: { crossEncoderScore: 0 },
      },
      context: { taskClass: "code" },
    };
    const bands = { profiles: [{ name: "code", taskClass: "code", highFloor: 0.6, degradedFloor: 0.2 }] };
    const base = { topK: 4, topN: 4, minConfidence: 0, bands };
    const parse = JSON.parse;
    const runWithoutJson = (cfg, x = input) => {
      const p = new lib.Pipeline(cfg);
      JSON.parse = () => {
        throw new Error("JSON.parse called");
      };
      try {
        return p.run(x);
      } finally {
        JSON.parse = parse;
        p.free();
      }
    };
    const keys = ["contributions", "fused", "recencyMultiplier", "afterRecency", "rerank", "rerankRecencyMultiplier", "afterRerank", "normalized", "calibrated", "band"];
    const ce = runWithoutJson({ ...base, rerank: { method: "cross_encoder" } });
    eq(ce.results.length, 4);
    for (const r of ce.results) {
      eq(Object.keys(r.explain), [...keys, "bandProfile"], "explain keys");
      eq(r.explain.bandProfile, "code");
      eq(r.explain.band, r.band);
      eq(r.explain.calibrated, r.score);
      eq(Object.keys(r.explain.rerank), ["method", "raw", "normalized"]);
      eq(r.explain.rerank.raw, input.items[r.id].crossEncoderScore);
      // Min-max over the pool's raw scores (-2 to 3).
      eq(r.explain.rerank.normalized, (input.items[r.id].crossEncoderScore + 2) / 5);
    }
    const x = ce.results.find((r) => r.id === "x").explain;
    eq(x.contributions, [
      { list: "semantic", rank: 1, weight: 1, contribution: 1 / 61, listScore: 0 },
      { list: "keyword", rank: 1, weight: 2, contribution: 2 / 61 },
    ]);
    eq(x.contributions.map(Object.keys), [["list", "rank", "weight", "contribution", "listScore"], ["list", "rank", "weight", "contribution"]]);
    assert(Object.is(x.contributions[0].listScore, -0), "a list score of -0 stays -0");
    eq(x.fused, 1 / 61 + 2 / 61);
    const h = runWithoutJson({ ...base, rerank: { method: "heuristic" } }).results.find((r) => r.id === "x").explain;
    eq(Object.keys(h.rerank), ["method", "factors"]);
    eq(h.rerank.method, "heuristic");
    eq(Object.keys(h.rerank.factors), ["exactName", "nameTerms", "summaryTerms", "shortContent", "entityType", "multiplier"]);
    assert(h.rerank.factors.nameTerms > 1 && h.rerank.factors.summaryTerms > 1, "the name and summary matched");
    const none = runWithoutJson({ topK: 4, topN: 4, minConfidence: 0 }).results[0].explain;
    eq(Object.keys(none), keys, "no band profile: no key");
    eq(none.rerank, { method: "none" });
  });

  test("new Pipeline reads back no JSON text, and runs under its own limits and reranker", () => {
    const parse = JSON.parse;
    const make = (cfg) => {
      JSON.parse = () => {
        throw new Error("JSON.parse called");
      };
      try {
        return new lib.Pipeline(cfg);
      } finally {
        JSON.parse = parse;
      }
    };
    const p = make({ limits: { maxTotalEntries: 6, maxIdBytes: 3 }, rerank: { method: "heuristic", candidateLimit: 2 }, topK: 4, topN: 4, minConfidence: 0 });
    // The limits the JavaScript checks before copying are the pipeline's.
    throwsScoreError(lib, () => p.run({ query: "q", lists: [{ name: "a", ids: ["a", "b", "c", "d", "e", "f", "g"] }] }), "INPUT_TOO_LARGE", "lists");
    throwsScoreError(lib, () => p.run({ query: "q", lists: [{ name: "a", ids: ["abcd"] }] }), "INPUT_TOO_LARGE", "lists[0].ids[0]");
    // Texts held back above candidateLimit (2 < 3 items): the output of texts sent inline.
    const items = { a: { name: "q" }, b: { summary: "q q" }, c: {} };
    const held = p.run({ query: "q", lists: [{ name: "a", ids: ["a", "b", "c"] }], items });
    const inline = make({ limits: { maxTotalEntries: 6, maxIdBytes: 3 }, rerank: { method: "heuristic", candidateLimit: 3 }, topK: 4, topN: 4, minConfidence: 0 }).run({ query: "q", lists: [{ name: "a", ids: ["a", "b", "c"] }], items });
    eq(held.results.map((r) => r.id), ["a", "b"], "c beyond candidateLimit");
    eq(held.results[0].explain.rerank.factors, inline.results[0].explain.rerank.factors);
    assert(held.results[0].explain.rerank.factors.multiplier > 1, "the held name was read");
    eq(p.config.limits.maxTotalEntries, 6);
  });

  test("fuseMultiQuery: the output comes back as numbers (no JSON text), keys in their order", () => {
    const parse = JSON.parse;
    const fuse = (q, o) => {
      JSON.parse = () => {
        throw new Error("JSON.parse called");
      };
      try {
        return lib.fuseMultiQuery(q, o);
      } finally {
        JSON.parse = parse;
      }
    };
    // "b" first reached in query 1 (query 0's "b" is below the threshold): its id is
    // the one that brought it in, not the first seen.
    const q0 = [{ id: "a", score: 0.9 }, { id: "b", score: 0.1 }, { id: "a", score: 0.8 }];
    const q1 = [{ id: "b", score: -0 }, { id: "c", score: 0.7 }];
    const q2 = [{ id: "c", score: 0.6 }, { id: "a", score: 0.5 }];
    const out = fuse([q0, q1, q2, [], q0, q0, q0, q0, q0, q0, q0], { method: "score_max", similarityThreshold: -1, verbose: true });
    eq(Object.keys(out), ["results", "stats"]);
    eq(Object.keys(out.stats), ["queries", "uniqueItems", "itemsInMultipleQueries", "meanQueriesPerItem", "belowThreshold", "beyondResultsPerQuery", "duplicates"]);
    eq(out.stats.queries, 11);
    eq(out.stats.uniqueItems, 3);
    eq(out.stats.duplicates, 8);
    const a = out.results.find((r) => r.id === "a");
    eq(Object.keys(a), ["id", "score", "queryScores", "queryRanks", "appearedInQueryCount"]);
    // Query indices as keys, in numeric order (10 after 2), as the JSON text gave them.
    eq(Object.keys(a.queryScores), ["0", "2", "4", "5", "6", "7", "8", "9", "10"]);
    eq(a.queryScores[2], 0.5);
    eq(a.queryRanks[2], 2);
    eq(a.appearedInQueryCount, 9);
    const b = out.results.find((r) => r.id === "b");
    assert(Object.is(b.queryScores[1], -0), "a similarity of -0 stays -0");
    const plain = fuse([q0, q1], { similarityThreshold: 0.5 });
    eq(plain.results.map((r) => Object.keys(r)), [["id", "score"], ["id", "score"]]);
    eq(plain.results.map((r) => r.id), ["a", "c"]);
    eq(plain.stats.belowThreshold, 2);
    eq(plain.stats.meanQueriesPerItem, 1);
  });

  test("classifyBand and queryConfidence answer with numbers (no JSON text), keys in their order", () => {
    const parse = JSON.parse;
    JSON.parse = () => {
      throw new Error("JSON.parse called");
    };
    let band, miss, conf;
    try {
      band = lib.classifyBand(-0, { highFloor: 0.5, degradedFloor: 0 });
      miss = lib.classifyBand(0.1);
      conf = lib.queryConfidence([0.9, 0.1], { k: 1 });
    } finally {
      JSON.parse = parse;
    }
    eq(Object.keys(band), ["kind", "score"]);
    eq(band.kind, "degraded");
    assert(Object.is(band.score, -0), "a score of -0 stays -0");
    eq(Object.keys(miss), ["kind"]);
    eq(Object.keys(conf), ["weightedTop5", "expectedPrecision", "atLeastOneRelevant", "k"]);
    eq([conf.expectedPrecision, conf.atLeastOneRelevant, conf.k], [0.9, 0.9, 1]);
    eq(conf.weightedTop5, 0.35 * 0.9 + 0.25 * 0.1);
  });

  test("short strings the module returns that are not ASCII come back whole (band profile names, TREC ids)", () => {
    const p = new lib.Pipeline({ minConfidence: 0, bands: { profiles: [{ name: "précis", taskClass: "code", highFloor: 0.9, degradedFloor: 0.5 }] } });
    eq(p.run({ lists: [{ name: "s", ids: ["a"] }], context: { taskClass: "code" } }).stats.bandProfile, "précis");
    eq(p.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, context: { taskClass: "code" } }).bandProfile, "précis");
    p.free();
    eq(lib.parseTrecRun("q1 Q0 dé 1 1.0 r\n"), { q1: { "dé": 1 } });
    eq(lib.parseQrels("q1 0 dé 2\n"), { q1: { "dé": 2 } });
  });

  test("JSON texts: 64 levels of nesting are read, 65 refused; a lone surrogate's replacement keeps the escape after it", () => {
    const nest = (n) => {
      let v = 1;
      for (let i = 0; i < n; i++) v = { a: v };
      return v;
    };
    // `calibrate`'s options cross as JSON text: the unknown key is found only once the
    // text is parsed (64 levels: the options object and 63 below it), and a text nested
    // deeper is refused as a whole.
    throwsScoreError(lib, () => lib.calibrate([0.5], { bogus: nest(62) }), "UNKNOWN_FIELD", "options.bogus");
    throwsScoreError(lib, () => lib.calibrate([0.5], { bogus: nest(64) }), "INVALID_TYPE", "options");
    // A lone high surrogate then an escaped control character: U+FFFD, then U+0001.
    const e = throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["\uD800\u0001"]), "UNKNOWN_METHOD", "metrics[0]");
    assert(e.message.includes('"\uFFFD\\u{1}"'), e.message);
  });
}
