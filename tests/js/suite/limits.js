// Limits: the defaults, each call's own, the UTF-8 byte limits only the module sees and
// the engine's own ceilings.

import { assert, eq, throwsScoreError, seedInput, lcg } from "./helpers.js";

export function limitTests(test, lib) {
  test("limits hold at their edge from both sides; rrf's and the pipeline's own budgets are above the shared default", () => {
    const p = new lib.Pipeline({ minConfidence: 0, limits: { maxLists: 2 } });
    // Three offsets are two lists: at the limit, accepted; four are three: refused.
    const two = p.runColumnar({ docs: new Uint32Array([0, 0]), offsets: new Uint32Array([0, 1, 2]), nDocs: 1 });
    eq(Array.from(two.order), [0]);
    throwsScoreError(lib, () => p.runColumnar({ docs: new Uint32Array([0, 0, 0]), offsets: new Uint32Array([0, 1, 2, 3]), nDocs: 1 }), "INPUT_TOO_LARGE", "offsets");
    eq(p.run({ lists: [{ name: "a", ids: ["x"] }, { name: "b", ids: ["x"] }] }).results.length, 1);
    throwsScoreError(lib, () => p.run({ lists: ["a", "b", "c"].map((name) => ({ name, ids: ["x"] })) }), "INPUT_TOO_LARGE", "lists");
    p.free();
    eq([lib.defaultLimits().maxTotalEntries, lib.defaultLimits("rrf").maxTotalEntries, lib.defaultLimits("Pipeline").maxTotalEntries], [100000, 500000, 400000]);
    // What the issue asked defaults to accept: 3 lists of 100,000 ids to rrf.
    const ids = Array.from({ length: 150000 }, (_, i) => `d${i}`);
    const lists = [ids.slice(0, 100000), ids.slice(25000, 125000), ids.slice(50000, 150000)];
    const fused = lib.rrf(lists);
    eq(fused.length, 150000);
    // d50000..d99999 are in all three lists; d50000 ranks best (ranks 50001, 25001 and 1;
    // d0, first in one list, has 1 / 61 alone): its score is the three terms at k = 60,
    // added in the lists' order.
    eq(fused[0], ["d50000", 1 / 50061 + 1 / 25061 + 1 / 61]);
    // The lab's: evaluate's budget (1,000,000) takes a run of 150,000 entries given as an
    // object, which the shared default (100,000) would refuse.
    eq(lib.defaultLimits("evaluate").maxTotalEntries, 1000000);
    const big = { q: Object.fromEntries(ids.map((id, i) => [id, 150000 - i])) };
    eq(lib.evaluate({ q: { d0: 1, d9: 1 } }, big, ["mrr", "recall@10"]), { mrr: 1, "recall@10": 1 });
    throwsScoreError(lib, () => lib.evaluate({ q: { d0: 1 } }, big, ["mrr"], { limits: { maxTotalEntries: 150000 } }), "INPUT_TOO_LARGE");
    // A TREC run of 2,000 queries x 100 documents (a lab user's ordinary run) is read
    // under parseTrecRun's budget (250,000 lines), which Run.fromTrec shares.
    if (lib.Run) {
      const lines = [];
      for (let q = 0; q < 2000; q++) for (let r = 0; r < 100; r++) lines.push(`q${q} Q0 d${(q * 7 + r) % 5000} ${r + 1} ${100 - r} run`);
      eq(lib.defaultLimits("Run.fromTrec"), lib.defaultLimits("parseTrecRun"));
      const run = lib.Run.fromTrec(lines.join("\n"));
      try {
        eq(lib.evaluate({ q1999: { d3994: 1 } }, run, ["mrr"]), { mrr: 0.5 });
      } finally {
        run.free();
      }
      throwsScoreError(lib, () => lib.Run.fromTrec(lines.join("\n"), { limits: { maxTotalEntries: 199999 } }), "INPUT_TOO_LARGE", "text");
    }
  });

  test("limits in UTF-8 bytes that only the module can see are refused with the string's field", () => {
    const p = new lib.Pipeline({ limits: { maxTotalTextBytes: 10 } });
    // 7 units, 14 bytes: under the limit as JavaScript counts, over it in UTF-8.
    throwsScoreError(lib, () => p.run({ query: "ééééééé", lists: [{ name: "l", ids: [] }] }), "INPUT_TOO_LARGE", "query");
    throwsScoreError(lib, () => p.run({ query: "q", lists: [{ name: "éééééé", ids: ["x"] }] }), "INPUT_TOO_LARGE", "lists[0].name");
    p.free();
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "éééé", score: 0.9, timestamp: "2024-01-01T00:00:00Z" }]], { limits: { maxTotalTextBytes: 25 } }), "INPUT_TOO_LARGE", "queries[0][0].timestamp");
    eq(lib.fuseMultiQuery([[{ id: "éééé", score: 0.9, timestamp: "2024-01-01T00:00:00Z" }]], { limits: { maxTotalTextBytes: 28 } }).results.length, 1);
    throwsScoreError(lib, () => lib.rerank("ééééé", [{ id: "a", name: "x", score: 0.5 }], { limits: { maxTotalTextBytes: 8 } }), "INPUT_TOO_LARGE", "query");
  });

  test("rrfColumnar's limits: nDocs against maxColumnarEntries, the weights' length named in options", () => {
    eq(lib.rrfColumnar([0], [0, 1], 4, { limits: { maxColumnarEntries: 4 } }).scores[0], 1 / 61);
    throwsScoreError(lib, () => lib.rrfColumnar([0], [0, 1], 5, { limits: { maxColumnarEntries: 4 } }), "INPUT_TOO_LARGE", "nDocs");
    throwsScoreError(lib, () => lib.rrfColumnar([0], [0, 1], 1, { weights: [1, 1, 1], limits: { maxListLength: 2 } }), "INPUT_TOO_LARGE", "options.weights");
  });

  test("option and configuration texts are bounded; unknown names are not echoed whole", () => {
    // The bound of options and configurations is never below the defaults' (the module
    // does not count them against the limits): tightened limits do not refuse them.
    // (Texts above it: node.test.mjs, which can afford strings of 135 million characters.)
    const tight = { maxTotalTextBytes: 1, maxTotalEntries: 1 };
    eq(lib.calibrate([1, 2], { limits: tight, steepness: 1.5, threshold: 0.25 }).length, 2);
    const knots = Array.from({ length: 500 }, (_, i) => i / 499);
    const iso = new lib.Pipeline({ calibration: { method: "isotonic", x: knots, y: knots }, limits: { maxTotalEntries: 20, maxTotalTextBytes: 2000 }, minConfidence: 0 });
    eq(iso.run({ lists: [{ name: "a", ids: ["x"] }] }).results.length, 1);
    iso.free();
    // classifyBand has no limits among its options: `limits` there is an unknown field.
    throwsScoreError(lib, () => lib.classifyBand(0.5, { limits: tight }), "UNKNOWN_FIELD", "options.limits");
    // A method name is one text (maxTextBytes).
    throwsScoreError(lib, () => lib.normalize([1], "m".repeat(20), { limits: { maxTextBytes: 10 } }), "INPUT_TOO_LARGE", "method");
    // Within the limits: unknown, and the message shows the first 64 characters only.
    const name = "z".repeat(5000);
    for (const f of [() => lib.normalize([1], name), () => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, [name]), () => lib.fuseRuns([{ q: { a: 1 } }], { method: name })]) {
      const e = throwsScoreError(lib, f, "UNKNOWN_METHOD");
      assert(e.message.length < 400, `message of ${e.message.length} characters`);
      assert(e.message.includes(`"${"z".repeat(64)}"... (5000 bytes)`), e.message);
    }
    const short = throwsScoreError(lib, () => lib.normalize([1], "bogus"), "UNKNOWN_METHOD", "method");
    assert(short.message.includes('"bogus"'), short.message);
  });

  test("a refused long text's message says its UTF-8 bytes (pairs across the counting's chunks, lone surrogates)", () => {
    // Long texts are counted 16,384 UTF-16 units at a time (js/wire/keys.js
    // `utf8Length`): a pair at the chunk's end stays whole, a lone surrogate is 3 bytes.
    const cases = [
      ["a".repeat(16383) + "\u{1F600}" + "\u00e9".repeat(100) + "\ud800" + "x", 16383 + 4 + 200 + 3 + 1],
      ["\u20ac".repeat(16384) + "\udc00" + "\u{1F600}".repeat(9000), 3 * 16384 + 3 + 4 * 9000],
      ["b".repeat(5000), 5000],
      ["\ud83d".repeat(20000), 3 * 20000],
      // A lone high half ending the chunk, then a pair: the pair stays whole.
      ["a".repeat(16383) + "\ud800" + "\u{1F600}" + "b".repeat(4000), 16383 + 3 + 4 + 4000],
      ["a".repeat(16382) + "\ud800\ud800" + "\u{1F600}".repeat(3000), 16382 + 6 + 4 * 3000],
    ];
    // And strings of pieces of every kind around the chunk's end, against TextEncoder.
    const pieces = ["a", "\u00e9", "\u20ac", "\ud800", "\udc00", "\u{1F600}"];
    const step = lcg(7);
    const next = () => step() >>> 8;
    for (let k = 0; k < 40; k++) {
      const tail = Array.from({ length: 12 }, () => pieces[next() % pieces.length]).join("");
      const query = "z".repeat(16376 + (next() % 6)) + tail;
      cases.push([query, new TextEncoder().encode(query).length]);
    }
    for (const [query, bytes] of cases) {
      const p = new lib.Pipeline({ limits: { maxTextBytes: 4000 } });
      try {
        const e = throwsScoreError(lib, () => p.run({ query, lists: [{ name: "a", ids: ["x"] }] }), "INPUT_TOO_LARGE", "query");
        assert(e.message.includes(`in bytes is ${bytes}, `), `${bytes} bytes: ${e.message}`);
      } finally {
        p.free();
      }
    }
  });

  test("limits: defaults, per-call limits in every function's options", () => {
    eq(lib.defaultLimits(), {
      maxLists: 64,
      maxListLength: 1000000,
      maxTotalEntries: 100000,
      maxColumnarEntries: 4000000,
      maxIdBytes: 1024,
      maxTextBytes: 1000000,
      maxTotalTextBytes: 32000000,
      maxSearchWork: 2000000,
    });
    const tooLarge = (fn, field, limit) => {
      const e = throwsScoreError(lib, fn, "INPUT_TOO_LARGE", field);
      assert(e.message.includes(`limits.${limit}`), `message names limits.${limit}: ${e.message}`);
    };
    const lim = (limits, rest = {}) => ({ ...rest, limits });
    // rrf: entries over all lists, string bytes, and the other options still apply.
    const lists = [["a", "b"], ["c"]];
    tooLarge(() => lib.rrf(lists, lim({ maxTotalEntries: 2 })), "lists", "maxTotalEntries");
    // evaluate: the number of metrics follows the call's maxLists (it followed the default, 64).
    if (lib.evaluate) {
      const metrics = Array.from({ length: 70 }, (_, i) => `ndcg@${i + 1}`);
      eq(Object.keys(lib.evaluate({ q: { a: 1 } }, { q: { a: 0.5 } }, metrics, lim({ maxLists: 100 }))).length, 70, "70 metrics under maxLists 100");
      tooLarge(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 0.5 } }, metrics.slice(0, 3), lim({ maxLists: 2 })), "metrics", "maxLists");
      tooLarge(() => lib.evaluatePerQuery({ q: { a: 1 } }, { q: { a: 0.5 } }, metrics.slice(0, 3), lim({ maxLists: 2 })), "metrics", "maxLists");
      // The message counts what the limit counts there (it said "lists" for all of them).
      const said = (fn) => throwsScoreError(lib, fn, "INPUT_TOO_LARGE").message.split(",")[0];
      eq(said(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 0.5 } }, metrics.slice(0, 3), lim({ maxLists: 2 }))), "the number of metrics is 3");
      const runs = [{ q: { a: 1 } }, { q: { a: 2 } }, { q: { b: 1 } }];
      eq(said(() => lib.fuseRuns(runs, { method: "sum", limits: { maxLists: 2 } })), "the number of runs is 3");
      const handles = runs.map((r) => lib.Run.fromObject(r));
      try {
        eq(said(() => lib.fuseRuns(handles, { method: "sum", limits: { maxLists: 2 } })), "the number of runs is 3");
      } finally {
        for (const h of handles) h.free();
      }
    }
    eq(throwsScoreError(lib, () => lib.fuseMultiQuery([[], [], []], lim({ maxLists: 2 })), "INPUT_TOO_LARGE", "queries").message.split(",")[0], "the number of queries is 3");
    eq(throwsScoreError(lib, () => lib.rrf([["a"], ["b"]], lim({ maxLists: 1 })), "INPUT_TOO_LARGE", "lists").message.split(",")[0], "the number of lists is 2");
    eq(lib.rrf(lists, lim({ maxTotalEntries: 3 })), lib.rrf(lists));
    eq(lib.rrf(lists, lim({ maxTotalEntries: 3 }, { k: 1 }))[0], ["a", 0.5]);
    tooLarge(() => lib.rrf([["abc", "def"]], lim({ maxTotalTextBytes: 5 })), "lists[0][1]", "maxTotalTextBytes");
    tooLarge(() => lib.rrf([["é", "b"]], lim({ maxTotalTextBytes: 2 })), "lists[0][1]", "maxTotalTextBytes");
    tooLarge(() => lib.rrf([["a"], ["b"]], lim({ maxLists: 1 })), "lists", "maxLists");
    // Columnar lists are cut by one offset more than there are lists: 3 offsets are 2 lists.
    const threeOffsets = new Uint32Array([0, 1, 2]);
    tooLarge(() => lib.rrfColumnar(new Uint32Array([0, 0]), threeOffsets, 1, lim({ maxLists: 1 })), "offsets", "maxLists + 1");
    const p1 = new lib.Pipeline({ limits: { maxLists: 1 } });
    try {
      tooLarge(() => p1.runColumnar({ docs: new Uint32Array([0, 0]), offsets: threeOffsets, nDocs: 1 }), "offsets", "maxLists + 1");
    } finally {
      p1.free();
    }
    throwsScoreError(lib, () => lib.rrf(lists, lim({ maxTotalEntries: 0 })), "INVALID_CONFIG", "options.limits.maxTotalEntries");
    throwsScoreError(lib, () => lib.rrf(lists, lim({ maxTotalEntries: 2e7 })), "INVALID_CONFIG", "options.limits.maxTotalEntries");
    throwsScoreError(lib, () => lib.rrf(lists, lim({ maxEntries: 5 })), "UNKNOWN_FIELD");
    throwsScoreError(lib, () => lib.rrf(lists, lim({}, { kk: 5 })), "UNKNOWN_FIELD");
    // The checks made in JavaScript before the call read the limits the module reads
    // (the JSON text's: own enumerable keys, a Map's entries), and give way to the
    // module's verdict on an unknown name.
    throwsScoreError(lib, () => lib.rrf([["a"], ["b"], ["c"]], lim({ maxLists: 2, bogus: 1 })), "UNKNOWN_FIELD", "options.limits.bogus");
    eq(lib.rrf([["a"], ["b"], ["c"]], lim(Object.create({ maxLists: 2 }))), lib.rrf([["a"], ["b"], ["c"]]), "an inherited limit is not sent");
    eq(lib.rrf([["a"], ["b"], ["c"]], lim(Object.defineProperty({}, "maxLists", { value: 2 }))), lib.rrf([["a"], ["b"], ["c"]]), "nor a non-enumerable one");
    const many = Array.from({ length: 65 }, (_, i) => [`d${i}`]);
    eq(lib.rrf(many, lim(new Map([["maxLists", 69]]))).length, 65, "limits in a Map");
    tooLarge(() => lib.rrf([["a"], ["b"], ["c"]], lim(new Map([["maxLists", 2]]))), "lists", "maxLists");
    // Names inherited from Object.prototype are no function's (a lookup by `in` would find them).
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "pipeline"]) throwsScoreError(lib, () => lib.defaultLimits(name), "UNKNOWN_METHOD", "fn");
    eq(lib.defaultLimits("normalize"), lib.defaultLimits(), "a function without a budget of its own has the common defaults");
    // Pipeline: list ids plus items, and every string of the input.
    const p3 = new lib.Pipeline({ minConfidence: 0, limits: { maxTotalEntries: 3 } });
    eq(p3.config.limits.maxTotalEntries, 3);
    eq(p3.config.limits.maxColumnarEntries, 4000000);
    tooLarge(() => p3.run({ lists: [{ name: "a", ids: ["x", "y"] }], items: { x: {}, y: {} } }), "items", "maxTotalEntries");
    eq(p3.run({ lists: [{ name: "a", ids: ["x", "y"] }], items: { x: {} } }).results.length, 2);
    const pt = new lib.Pipeline({ limits: { maxTotalTextBytes: 12 } });
    tooLarge(() => pt.run({ query: "a query of 19 bytes", lists: [] }), "query", "maxTotalTextBytes");
    tooLarge(() => pt.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { summary: "twelve bytes" } } }), "items.x.summary", "maxTotalTextBytes");
    // An item's texts are counted in the order name, type, summary, content, modifiedAt,
    // and the one at which the UTF-8 bytes cross the limit is named. "中中" is 2 UTF-16
    // units and 6 bytes: the units stay within each limit below (the JavaScript's quick
    // check passes) and the module counts the bytes: 2 for the list's name and id, then
    // 8, 14, 20, 26 after each text of `every`, and 46 with the 20-byte modifiedAt;
    // `named` (10 units) crosses at its name (14 bytes). The pipeline's own count (the
    // Rust API's) takes the item's key "x" once more (every list entry's id and every item
    // key count): 47 bytes, refused at 46 on `input`.
    const every = { name: "中中", type: "中中", summary: "中中", content: "中中" };
    const dated = { ...every, modifiedAt: "2024-01-01T00:00:00Z" };
    const named = { name: "中中中中", type: "中中" };
    const cases = [[10, named, "name"], [13, named, "name"], [10, every, "type"], [13, every, "type"], [14, every, "summary"], [19, every, "summary"], [20, every, "content"], [25, every, "content"], [30, dated, "modifiedAt"], [45, dated, "modifiedAt"]];
    for (const [max, item, field] of cases)
      tooLarge(() => new lib.Pipeline({ limits: { maxTotalTextBytes: max } }).run({ lists: [{ name: "a", ids: ["x"] }], items: { x: item } }), `items.x.${field}`, "maxTotalTextBytes");
    const datedInput = { lists: [{ name: "a", ids: ["x"] }], items: { x: dated }, now: Date.UTC(2024, 5, 1) };
    tooLarge(() => new lib.Pipeline({ minConfidence: 0, limits: { maxTotalTextBytes: 46 } }).run(datedInput), "input", "maxTotalTextBytes");
    eq(new lib.Pipeline({ minConfidence: 0, limits: { maxTotalTextBytes: 47 } }).run(datedInput).results.length, 1);
    throwsScoreError(lib, () => new lib.Pipeline({ limits: { maxSearchWork: -1 } }), "INVALID_TYPE");
    throwsScoreError(lib, () => new lib.Pipeline({ limits: { maxLists: 0 } }), "INVALID_CONFIG", "config.limits.maxLists");
    // Checks after decoding name the option within `options`, as the decoders do; the
    // data keep their own field.
    throwsScoreError(lib, () => lib.proposeBands([0.1, 0.9, 0.2, 0.8], [0, 1, 0, 1], { targetPrecision: 2 }), "INVALID_CONFIG", "options.targetPrecision");
    throwsScoreError(lib, () => lib.proposeBands([0.1, 0.9, 0.2, 0.8], [0, 1, 0, 1], { folds: 1 }), "INVALID_CONFIG", "options.folds");
    throwsScoreError(lib, () => lib.calibrationError([0.1, 0.9], [0, 1], { bins: 0 }), "INVALID_CONFIG", "options.bins");
    throwsScoreError(lib, () => lib.calibrationError([0.1, 1.9], [0, 1]), "OUT_OF_RANGE", "probabilities[1]");
    // Counts past u32::MAX are out of range, as in the Rust API (a `usize` made them type
    // errors on wasm32 alone), and a cut-off past it divides by itself.
    const folds = throwsScoreError(lib, () => lib.proposeBands([0.1, 0.9, 0.2, 0.8], [0, 1, 0, 1], { folds: 4294967298 }), "INVALID_CONFIG", "options.folds");
    eq(folds.message, "folds must be between 2 and the number of items (4), got 4294967298");
    // Fewer items than the default folds: the message says the 5 was not the caller's.
    eq(throwsScoreError(lib, () => lib.proposeBands([0.9, 0.8, 0.2, 0.1], [1, 1, 0, 0]), "INVALID_CONFIG", "options.folds").message, "folds must be between 2 and the number of items (4), got 5 (folds is 5 when not given)");
    throwsScoreError(lib, () => lib.calibrationError([0.1, 0.9], [0, 1], { bins: 4294967296 }), "INVALID_CONFIG", "options.bins");
    if (lib.evaluate) {
      const far = lib.evaluate({ q: { a: 1 } }, { q: { a: 1, b: 0.5 } }, ["ndcg@4294967296", "precision@4294967296", "hits@18446744073709551615"]);
      eq([far["ndcg@4294967296"], far["precision@4294967296"]], [1, 1 / 4294967296]);
    }
    throwsScoreError(lib, () => new lib.Pipeline({ weights: { semantic: -1 } }), "INVALID_WEIGHT", "config.weights.semantic");
    throwsScoreError(lib, () => new lib.Pipeline({ recency: { mode: "step", steps: [{ maxAgeDays: -1, multiplier: 1 }] } }), "INVALID_CONFIG", "config.recency.steps[0].maxAgeDays");
    // Columnar paths: their own budget.
    const pc = new lib.Pipeline({ limits: { maxColumnarEntries: 2, maxTotalEntries: 1 } });
    tooLarge(() => pc.runColumnar({ docs: new Uint32Array([0, 1, 0]), offsets: new Uint32Array([0, 2, 3]), nDocs: 2 }), "docs", "maxColumnarEntries");
    eq(pc.runColumnar({ docs: new Uint32Array([0, 1]), offsets: new Uint32Array([0, 2]), nDocs: 2 }).candidates, 2);
    tooLarge(() => pc.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 3 }), "nDocs", "maxColumnarEntries");
    tooLarge(() => lib.rrfColumnar(new Uint32Array([0, 1, 2]), new Uint32Array([0, 3]), 3, lim({ maxColumnarEntries: 2 })), "docs", "maxColumnarEntries");
    eq(Array.from(lib.rrfColumnar(new Uint32Array([1, 0]), new Uint32Array([0, 2]), 2, lim({ maxColumnarEntries: 2 }, { k: 1 })).scores), [0.5, 1 / 3]);
    // Objects and texts.
    const hits = [[{ id: "a", score: 1 }, { id: "b", score: 0.5 }], [{ id: "a", score: 0.9 }]];
    tooLarge(() => lib.fuseMultiQuery(hits, lim({ maxTotalEntries: 2 })), "queries", "maxTotalEntries");
    eq(lib.fuseMultiQuery(hits, lim({ maxTotalEntries: 3 }, { method: "score_max" })).results[0].id, "a");
    const cands = [{ id: "a", name: "Alpha", type: "class", score: 1 }, { id: "b", name: "Beta", type: "class", score: 0.5 }];
    tooLarge(() => lib.rerank("alpha", cands, lim({ maxTotalEntries: 1 })), "candidates", "maxTotalEntries");
    const tuned = lib.rerank("alpha", cands, lim({ maxTotalEntries: 2 }, { exactNameMultiplier: 5 }));
    eq(tuned, lib.rerank("alpha", cands, { exactNameMultiplier: 5 }));
    assert(tuned[0].rerankedScore !== lib.rerank("alpha", cands)[0].rerankedScore, "the other options apply");
    tooLarge(() => lib.rerank("alpha", cands, lim({ maxTotalTextBytes: 12 })), "candidates[0].type", "maxTotalTextBytes");
    // Arrays of numbers: maxListLength.
    const s3 = new Float64Array([0.1, 0.5, 0.9]);
    const l3 = [0, 1, 1];
    tooLarge(() => lib.normalize(s3, "max", lim({ maxListLength: 2 })), "scores", "maxListLength");
    tooLarge(() => lib.normalize(Array.from(s3), "softmax", lim({ maxListLength: 2 }, { temperature: 2 })), "scores", "maxListLength");
    tooLarge(() => lib.calibrate(s3, lim({ maxListLength: 2 })), "scores", "maxListLength");
    tooLarge(() => lib.queryConfidence(s3, lim({ maxListLength: 2 })), "scores", "maxListLength");
    tooLarge(() => lib.fitPlatt(s3, l3, lim({ maxListLength: 2 })), "scores", "maxListLength");
    tooLarge(() => lib.fitIsotonic(s3, l3, lim({ maxListLength: 2 })), "scores", "maxListLength");
    tooLarge(() => lib.applyCalibration(s3, { method: "platt", a: -1, b: 0 }, lim({ maxListLength: 2 })), "scores", "maxListLength");
    tooLarge(() => lib.calibrationError(s3, l3, lim({ maxListLength: 2 })), "probabilities", "maxListLength");
    tooLarge(() => lib.proposeBands(s3, l3, lim({ maxListLength: 2 })), "scores", "maxListLength");
    // Band profiles: at most 1,000 (each name is compared with those before it).
    const profiles = (n) => ({ bands: { profiles: Array.from({ length: n }, (_, i) => ({ name: `p${i}`, language: "x", highFloor: 0.9, degradedFloor: 0.5 })) } });
    new lib.Pipeline(profiles(1000)).free();
    eq(throwsScoreError(lib, () => new lib.Pipeline(profiles(1001)), "INPUT_TOO_LARGE", "config.bands.profiles").message, "more than 1000 band profiles");
    // The cross-validation's folds x items against maxSearchWork, 20 item-folds a unit
    // (leave-one-out over many items is quadratic): 10 items in 10 folds is 100.
    const s10 = Array.from({ length: 10 }, (_, i) => i / 10);
    const l10 = s10.map((_, i) => i % 2);
    tooLarge(() => lib.proposeBands(s10, l10, lim({ maxSearchWork: 4 }, { folds: 10 })), "options.folds", "maxSearchWork");
    eq(lib.proposeBands(s10, l10, lim({ maxSearchWork: 5 }, { folds: 10 })).folds.length, 10);
    // Checked once the input is: a bad score is said first.
    throwsScoreError(lib, () => lib.proposeBands(s10.map(() => NaN), l10, lim({ maxSearchWork: 4 }, { folds: 10 })), "NON_FINITE_SCORE", "scores[0]");
    // fitQueryConfidence: judged queries x (runs + 1 features)^2 at each Newton step, 5 a
    // unit: 40 queries of 3 runs is 640.
    const qRuns = [0, 1, 2].map((s) => Object.fromEntries(Array.from({ length: 40 }, (_, q) => [`q${q}`, { [`d${q}`]: 3 - s, [`e${q}`]: 1 }])));
    const qJudged = Object.fromEntries(Array.from({ length: 40 }, (_, q) => [`q${q}`, { [`d${q}`]: q % 2 }]));
    if (lib.fitQueryConfidence) {
      tooLarge(() => lib.fitQueryConfidence(qJudged, qRuns, lim({ maxSearchWork: 127 })), "runs", "maxSearchWork");
      eq(lib.fitQueryConfidence(qJudged, qRuns, lim({ maxSearchWork: 128 })).features.length, 4);
      // Checked once the input is: judgements of one class are said first.
      const oneClass = Object.fromEntries(Object.keys(qJudged).map((q) => [q, { [`d${q.slice(1)}`]: 1 }]));
      throwsScoreError(lib, () => lib.fitQueryConfidence(oneClass, qRuns, lim({ maxSearchWork: 1 })), "INVALID_LABELS", "qrels");
    }
    // More folds than items is said as before (not as too much work).
    throwsScoreError(lib, () => lib.proposeBands(s10, l10, lim({ maxSearchWork: 99 }, { folds: 11 })), "INVALID_CONFIG", "options.folds");
    const cal = Array.from(lib.calibrate(s3, lim({ maxListLength: 3 }, { threshold: 0.1, steepness: 1 })));
    eq(cal[0], 0.5);
    eq(cal, Array.from(lib.calibrate(s3, { threshold: 0.1, steepness: 1 })));
    throwsScoreError(lib, () => lib.fitPlatt(s3, l3, { other: 1 }), "UNKNOWN_FIELD");
    // Runs: TREC lines and text, entries over every run of the call, search work.
    const text = "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 1.5 t\n\n";
    tooLarge(() => lib.parseTrecRun(text, lim({ maxTotalEntries: 1 })), "text", "maxTotalEntries");
    eq(lib.parseTrecRun(text, lim({ maxTotalEntries: 2 })), { q1: { d1: 2.5, d2: 1.5 } });
    // Lines ended by a lone CR (old Mac files) are lines, for the limits too; a BOM is dropped.
    const cr = "\uFEFF" + text.trim().split("\n").join("\r") + "\r";
    tooLarge(() => lib.parseTrecRun(cr, lim({ maxTotalEntries: 1 })), "text", "maxTotalEntries");
    eq(lib.parseTrecRun(cr, lim({ maxTotalEntries: 2 })), { q1: { d1: 2.5, d2: 1.5 } });
    tooLarge(() => lib.parseTrecRun(text, lim({ maxTotalTextBytes: 10 })), "text", "maxTotalTextBytes");
    tooLarge(() => lib.parseQrels("q1 0 d1 1\nq1 0 d2 0\n", lim({ maxTotalEntries: 1 })), "text", "maxTotalEntries");
    const a = { q: { x: 3, y: 2, z: 1 } };
    const b = { q: { z: 9, x: 1 } };
    tooLarge(() => lib.evaluate({ q: { x: 1 } }, a, ["mrr"], lim({ maxTotalEntries: 3 })), "run", "maxTotalEntries");
    eq(lib.evaluate({ q: { x: 1 } }, a, ["mrr"], lim({ maxTotalEntries: 4 })), { mrr: 1 });
    tooLarge(() => lib.evaluatePerQuery({ q: { x: 1 } }, a, ["mrr"], lim({ maxTotalEntries: 3 })), "run", "maxTotalEntries");
    tooLarge(() => lib.fuseRuns([a, b], lim({ maxTotalEntries: 4 }, { method: "sum" })), "runs[1]", "maxTotalEntries");
    eq(lib.fuseRuns([a, b], lim({ maxTotalEntries: 5 }, { method: "sum" })).q.x, 1);
    // wsum over 2 runs at step 0.1: 11 configurations x (5 entries + 1 judgement) = 66.
    tooLarge(() => lib.optimizeFusion({ q: { z: 1 } }, [a, b], lim({ maxSearchWork: 65 }, { method: "wsum", metric: "mrr" })), "runs", "maxSearchWork");
    eq(lib.optimizeFusion({ q: { z: 1 } }, [a, b], lim({ maxSearchWork: 66 }, { method: "wsum", metric: "mrr" })).trials.length, 11);
    // Judgements count as run entries do: each evaluation reads them all (1,000 judged
    // queries for runs of 5 entries: 11 x 1,005).
    const judged = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`j${i}`, { d: 1 }]));
    tooLarge(() => lib.optimizeFusion(judged, [a, b], lim({ maxSearchWork: 11054 }, { method: "wsum", metric: "mrr" })), "qrels", "maxSearchWork");
    eq(lib.optimizeFusion(judged, [a, b], lim({ maxSearchWork: 11055 }, { method: "wsum", metric: "mrr" })).trials.length, 11);
  });

  test("an engine's own ceilings (a Map's size, a typed array it cannot allocate) are INPUT_TOO_LARGE, the module untouched", () => {
    // With the limits raised, an input can reach what the JavaScript engine holds before
    // the module is entered: V8's Map holds 2^24 keys (the ids are interned in one), Bun
    // allocates no Uint32Array of 2^31 elements. Reaching them takes gigabytes and minutes,
    // so the engine's RangeError is simulated, for a Map's ids (the prefix "cap-") past the
    // 100th and for a table of 70,000 elements; it was thrown to the caller as is before.
    // The scratch keeps its tables between calls (js/wire/input.js): a call of 70,000
    // entries leaves tables that large kept (as a test before this one could), and they are
    // dropped, so that the tables asked for below are made afresh. (Dropped first too: the
    // count is then the call's own two tables, its ids and their running lengths.)
    lib.__dropScratch();
    lib.rrf([Array.from({ length: 70000 }, (_, i) => `k${i % 50}`)]);
    eq(lib.__dropScratch(), 2 * 4 * 70000, "the 70,000-entry tables were kept, then dropped");
    eq(lib.__dropScratch(), 0, "nothing kept after a drop");
    const p = new lib.Pipeline({ minConfidence: 0 });
    const pwant = p.run(seedInput());
    const ids = Array.from({ length: 150 }, (_, i) => `cap-${i}`);
    const set = Map.prototype.set;
    Map.prototype.set = function (k, v) {
      if (typeof k === "string" && k.startsWith("cap-") && this.size >= 100) throw new RangeError("Map maximum size exceeded");
      return set.call(this, k, v);
    };
    const errs = [];
    try {
      errs.push(throwsScoreError(lib, () => lib.rrf([ids, ["x"]]), "INPUT_TOO_LARGE", "lists"));
      errs.push(throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids }] }), "INPUT_TOO_LARGE", "lists"));
      errs.push(throwsScoreError(lib, () => lib.fuseMultiQuery([ids.map((id) => ({ id, score: 1 }))]), "INPUT_TOO_LARGE", "queries"));
    } finally {
      Map.prototype.set = set;
    }
    for (const e of errs) assert(e.message.includes("101 distinct ids") && e.message.includes("Map maximum size exceeded"), e.message);
    const Real = globalThis.Uint32Array;
    const big = Array.from({ length: 70000 }, (_, i) => `t${i % 50}`);
    globalThis.Uint32Array = new Proxy(Real, {
      construct: (t, args) => {
        if (args[0] === 70000) throw new RangeError("Array buffer allocation failed");
        return Reflect.construct(t, args);
      },
    });
    try {
      const e = throwsScoreError(lib, () => lib.rrf([big]), "INPUT_TOO_LARGE", "lists");
      assert(e.message.includes("a table of 70000 entries"), e.message);
      throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: big }] }), "INPUT_TOO_LARGE", "lists");
    } finally {
      globalThis.Uint32Array = Real;
    }
    // The scratch growing a kept table (as for the 70,000 entries above), and the
    // Uint8Array tables of fuseMultiQuery and rerank.
    let asked = 0;
    const refuse = (Kind, hit) =>
      new Proxy(Kind, {
        construct: (t, args) => {
          if (typeof args[0] === "number" && hit(args[0])) {
            asked++;
            throw new RangeError("Array buffer allocation failed");
          }
          return Reflect.construct(t, args);
        },
      });
    globalThis.Uint32Array = refuse(Real, (n) => n > 60000 && n <= 65536);
    try {
      throwsScoreError(lib, () => lib.rrf([Array.from({ length: 65536 }, (_, i) => `s${i % 50}`)]), "INPUT_TOO_LARGE", "lists");
    } finally {
      globalThis.Uint32Array = Real;
    }
    assert(asked === 1, `the scratch grew its table (${asked})`);
    const RealU8 = globalThis.Uint8Array;
    globalThis.Uint8Array = refuse(RealU8, (n) => n === 777);
    try {
      throwsScoreError(lib, () => lib.fuseMultiQuery([Array.from({ length: 777 }, (_, i) => ({ id: `h${i}`, score: 1 }))]), "INPUT_TOO_LARGE", "queries");
      throwsScoreError(lib, () => lib.rerank("q", Array.from({ length: 777 }, (_, i) => ({ id: `r${i}`, score: 1, name: "n" }))), "INPUT_TOO_LARGE", "candidates");
    } finally {
      globalThis.Uint8Array = RealU8;
    }
    assert(asked === 3, `both Uint8Array tables asked for (${asked})`);
    // The caller's own RangeError from a list's trap is not taken for the engine's.
    const mine = new RangeError("the caller's own");
    const trap = new Proxy(["a", "b"], { get: (t, k) => (k === "1" ? (() => { throw mine; })() : t[k]) });
    let got = null;
    try {
      lib.rrf([trap]);
    } catch (e) {
      got = e;
    }
    assert(got === mine, `the caller's error propagates as it is: ${got}`);
    // A Proxy's length that is not a number is refused before any table is sized by it
    // (an object there reached \`new Uint8Array\`, which read it: caller code).
    const lengthObject = { valueOf: () => 2, get length() {
      throw mine;
    } };
    throwsScoreError(lib, () => lib.rerank("q", new Proxy([], { get: (t, k) => (k === "length" ? lengthObject : t[k]) })), "INVALID_TYPE", "candidates");
    // Limits the package cannot check (out of range, or a Map: the module checks them)
    // still hold the call to the ceilings before it is read: a list claiming 2^32 - 1
    // entries is refused at once (it was read until the engine gave up).
    const claims = new Proxy([], { get: (t, k) => (k === "length" ? 2 ** 32 - 1 : typeof k === "string" && /^[0-9]+$/.test(k) ? `c${k}` : t[k]) });
    for (const limits of [{ maxListLength: 2 ** 31 }, { maxListLength: 2 ** 40 }, new Map([["maxListLength", 5]])]) {
      const e = throwsScoreError(lib, () => lib.rrf([claims], { limits }), "INPUT_TOO_LARGE", "lists[0]");
      assert(/above the ceiling of \d+ \(limits.maxListLength\)/.test(e.message), e.message);
      throwsScoreError(lib, () => lib.fuseMultiQuery([claims], { limits }), "INPUT_TOO_LARGE", "queries[0]");
    }
    // Within the ceilings, the module's own error for such limits, as before.
    throwsScoreError(lib, () => lib.rrf([["a"]], { limits: { maxListLength: 2 ** 31 } }), "INVALID_CONFIG", "options.limits.maxListLength");
    throwsScoreError(lib, () => lib.rrf([["a"], ["b", "c"]], { limits: new Map([["maxListLength", 1]]) }), "INPUT_TOO_LARGE", "lists[1]");
    // The module was not entered: the same results as before, and the same calls now run.
    eq(p.run(seedInput()), pwant, "a pipeline made before runs as before");
    eq(lib.rrf([ids, ["x"]]).length, 151, "rrf");
    eq(p.run({ lists: [{ name: "a", ids: big }] }).results.length > 0, true, "the pipeline");
    p.free();
  });
}
