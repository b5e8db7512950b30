// The JS test suite of the built package. Runtime-neutral: Node runs it through
// node.test.mjs, headless Chromium through browser.test.mjs, with the same `lib`
// (the package's exports) and the same golden vectors.

const hexOf = (x) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, "0");
};

class AssertionError extends Error {}

function assert(cond, message) {
  if (!cond) throw new AssertionError(message || "assertion failed");
}

/** The order of two strings' UTF-8 bytes (as TextEncoder writes them), for sorting. */
function byBytes(a, b) {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** JSON with object keys sorted, so key order never matters. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

function eq(actual, expected, message) {
  const a = canonical(actual);
  const e = canonical(expected);
  if (a !== e) throw new AssertionError(`${message || "not equal"}: got ${a}, expected ${e}`);
}

function throwsScoreError(lib, fn, code, field) {
  try {
    fn();
  } catch (err) {
    assert(err instanceof lib.ScoreError, `expected ScoreError, got ${err && err.constructor && err.constructor.name}: ${err}`);
    assert(err instanceof Error, "ScoreError must be an Error");
    eq(err.name, "ScoreError", "name");
    eq(err.code, code, "code");
    if (field !== undefined) eq(err.field, field, "field");
    assert(typeof err.message === "string" && err.message.length > 0, "message");
    return err;
  }
  throw new AssertionError(`expected ScoreError ${code}, nothing was thrown`);
}

/**
 * Query `q`'s lists for a pipeline, one per run (`{ queryId: { docId: score } }`), named
 * run0, run1, ...: each run's ranking, score descending, ties by id (code-unit order,
 * byte order for the ASCII ids of the tests), with its scores.
 */
function queryLists(runs, q) {
  return runs.map((run, i) => {
    const docs = Object.entries(run[q] || {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return { name: `run${i}`, ids: docs.map((d) => d[0]), scores: docs.map((d) => d[1]) };
  });
}

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

function seedInput() {
  const day = 86_400_000;
  return {
    query: "authentication",
    lists: [
      { name: "semantic", ids: ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"] },
      { name: "keyword", ids: ["K", "B", "A", "L"], scores: [9.1, 8.5, 7.25, 3.0] },
    ],
    items: { A: { modifiedAt: 95 * day }, J: { modifiedAt: new Date(40 * day).toISOString() } },
    now: 100 * day,
  };
}

export function tests(lib, golden) {
  const t = [];
  const test = (name, fn) => t.push({ name, fn });

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

  test("identities with a lone surrogate are kept apart or refused, never merged; texts with one are read", () => {
    // Two ids that differ only in a lone surrogate: UTF-8 has no form for either, so
    // each would be read as U+FFFD by the module and the two would become one.
    const a = "x\uD800";
    const b = "x\uDC00";
    // Where ids cross as a string table (interned by the package's JavaScript), they
    // stay apart and come back as given.
    const fused = lib.rrf([[a], [b]]);
    eq(fused.map(([id]) => id).sort(), [a, b].sort(), "rrf keeps both ids as given");
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

  test("an instance of a class without fields of its own (a Pipeline, a Run, a Set) is refused where options, a configuration or items go, not read as empty", () => {
    const p = new lib.Pipeline({ topN: 2 });
    const handles = [p, new Set(), new (class Options {})()];
    if (lib.Run) handles.push(lib.Run.fromObject({ q: { a: 1 } }));
    const lists = [{ name: "a", ids: ["a"] }];
    for (const h of handles) {
      throwsScoreError(lib, () => new lib.Pipeline(h), "INVALID_TYPE", "config");
      throwsScoreError(lib, () => lib.rrf([["a"]], h), "INVALID_TYPE", "options");
      throwsScoreError(lib, () => lib.classifyBand(0.5, h), "INVALID_TYPE", "options");
      throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1 }]], h), "INVALID_TYPE", "options");
      throwsScoreError(lib, () => p.run({ lists, items: h }), "INVALID_TYPE", "items");
      if (lib.fuseRuns) throwsScoreError(lib, () => lib.fuseRuns([{ q: { a: 1 } }], h), "INVALID_TYPE", "options");
    }
    for (const h of handles) h.free?.();
    // What is read as written: a class instance with fields of its own, a Map, a record
    // without a prototype, an empty record.
    const Config = class {
      topN = 1;
    };
    eq(new lib.Pipeline(new Config()).config.topN, 1);
    eq(new lib.Pipeline(new Map([["topN", 1]])).config.topN, 1);
    eq(new lib.Pipeline(Object.assign(Object.create(null), { topN: 1 })).config.topN, 1);
    eq(new lib.Pipeline({}).config.topN, 5);
    const q = new lib.Pipeline({ minConfidence: 0 });
    eq(q.run({ lists, items: new Map([["a", { modifiedAt: 0 }]]), now: 0 }).results.length, 1);
    eq(q.run({ lists, items: {} }).results.length, 1);
    q.free();
  });

  test("a long name, key or value of the caller's is shown cut after 64 characters in every message, the same from both modules", () => {
    const long = "é".repeat(70) + "\u{1F600}".repeat(20000);
    const bytes = 140 + 4 * 20000;
    const name = `"${"é".repeat(64)}"... (${bytes} bytes)`;
    const key = `\`${"é".repeat(64)}\`... (${bytes} bytes)`;
    const value = `"${"é".repeat(64)}…"`;
    const lower = `"${"é".repeat(64)}"... (${bytes} bytes)`;
    const cases = [
      // Unknown names (methods, modes), in a configuration and in options.
      [() => new lib.Pipeline({ normalization: { method: long } }), "UNKNOWN_METHOD", "config.normalization.method", name],
      [() => new lib.Pipeline({ rerank: { method: long } }), "UNKNOWN_METHOD", "config.rerank.method", name],
      [() => new lib.Pipeline({ calibration: { method: long } }), "UNKNOWN_METHOD", "config.calibration.method", name],
      [() => lib.fuseMultiQuery([[{ id: "a", score: 1 }]], { method: long }), "UNKNOWN_METHOD", "options.method", name],
      // Unknown keys: the field is the whole path, the message the key cut.
      [() => new lib.Pipeline({ [long]: 1 }), "UNKNOWN_FIELD", `config.${long}`, key],
      [() => new lib.Pipeline({ normalization: { [long]: 1 } }), "UNKNOWN_FIELD", `config.normalization.${long}`, key],
      [() => lib.rrf([["a"]], { [long]: 1 }), "UNKNOWN_FIELD", `options.${long}`, key],
      [() => lib.classifyBand(0.5, { [long]: 1 }), "UNKNOWN_FIELD", `options.${long}`, key],
      // An input's unknown key (the package's JavaScript finds it), and an item's.
      [() => new lib.Pipeline({}).run({ lists: [{ name: "a", ids: ["x"] }], [long]: 1 }), "UNKNOWN_FIELD", long, key],
      [() => new lib.Pipeline({}).run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { [long]: 1 } } }), "UNKNOWN_FIELD", `items.x.${long}`, key],
      // A string where a number goes.
      [() => new lib.Pipeline({ k: long }), "INVALID_TYPE", "config.k", value],
      [() => lib.rrf([["a"]], { k: long }), "INVALID_TYPE", "options.k", value],
      // Names the configuration's checks quote.
      [() => new lib.Pipeline({ rerank: { method: "heuristic", heuristic: { stopwords: ["X" + long] } } }), "INVALID_CONFIG", "config.rerank.heuristic.stopwords[0]", `"x${"é".repeat(63)}"... (${bytes + 1} bytes)`],
      [() => new lib.Pipeline({ rerank: { method: "heuristic", heuristic: { typeMultipliers: { ["X" + long]: 1 } } } }), "INVALID_CONFIG", `config.rerank.heuristic.typeMultipliers.X${long}`, `"x${"é".repeat(63)}"... (${bytes + 1} bytes)`],
      [() => new lib.Pipeline({ bands: { profiles: [{ name: long, highFloor: 0.7, degradedFloor: 0.3 }, { name: long, highFloor: 0.7, degradedFloor: 0.3 }] } }), "INVALID_BANDS", "config.bands.profiles[1].name", lower],
      // A timestamp that is no date.
      [() => new lib.Pipeline({}).run({ lists: [{ name: "a", ids: ["x"] }], now: long }), "INVALID_TIMESTAMP", "now", name],
    ];
    if (lib.fuseRuns) {
      const q = { q: { a: 1 } };
      cases.push(
        [() => lib.evaluate(q, q, ["mrr"], { [long]: 1 }), "UNKNOWN_FIELD", `options.${long}`, key],
        // The lab's serde messages: a string where a number goes was said whole, and the
        // tie rule, rbp's persistence and a relevance level were quoted whole.
        [() => lib.calibrationError([0.5], [1], { bins: long }), "INVALID_TYPE", "options.bins", value],
        [() => lib.fuseRuns([q, q], { method: "rrf", params: { k: long } }), "INVALID_TYPE", "options.params.k", value],
        [() => lib.fitQueryConfidence(q, [q], { l2: long }), "INVALID_TYPE", "options.l2", value],
        [() => lib.calibrationError([0.5], [1], { strategy: long }), "UNKNOWN_METHOD", "options.strategy", name],
        [() => lib.evaluate(q, q, ["mrr"], { ties: long }), "UNKNOWN_METHOD", "options.ties", name],
        [() => lib.evaluate(q, q, ["rbp" + long]), "INVALID_CONFIG", "metrics[0]", `"${"é".repeat(64)}"... (${bytes} bytes)`],
        [() => lib.evaluate(q, q, ["mrr-l" + long]), "INVALID_CONFIG", "metrics[0]", `"-l${"é".repeat(62)}"... (${bytes + 2} bytes)`],
      );
    }
    for (const [f, code, field, shown] of cases) {
      const e = throwsScoreError(lib, f, code, field);
      assert(e.message.length < 400, `${field.slice(0, 60)}: a message of ${e.message.length} characters`);
      assert(e.message.includes(shown), `${field.slice(0, 60)}: ${e.message}`);
    }
    // Short ones are shown whole.
    assert(throwsScoreError(lib, () => new lib.Pipeline({ normalization: { method: "bogus" } }), "UNKNOWN_METHOD").message.startsWith('"bogus" is not one of'));
    assert(throwsScoreError(lib, () => new lib.Pipeline({ tpoK: 1 }), "UNKNOWN_FIELD").message.startsWith("unknown field `tpoK`, expected one of"));
  });

  test("options and configurations given as arrays are refused, not read as fields in order", () => {
    // serde reads a struct from a sequence of its fields in order: [1] would have been k = 1.
    throwsScoreError(lib, () => lib.rrf([["a"], ["b"]], [1]), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => lib.rrfColumnar(new Uint32Array([0, 1]), new Uint32Array([0, 1, 2]), 2, [1]), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => new lib.Pipeline([30]), "INVALID_TYPE", "config");
    throwsScoreError(lib, () => lib.normalize([1, 2], "min_max", []), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1 }]], [60]), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => lib.evaluate({ q: { d: 1 } }, { q: { d: 1 } }, ["mrr"], ["trec_eval"]), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => lib.fitPlatt([0.1, 0.9], [0, 1], [100]), "INVALID_TYPE", "options");
    // Typed arrays too (sent as arrays, they would be read the same way).
    throwsScoreError(lib, () => lib.rrf([["a"], ["b"]], new Float64Array([1])), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => new lib.Pipeline(new Uint8Array([30])), "INVALID_TYPE", "config");
    throwsScoreError(lib, () => lib.calibrate([0.5], new Float64Array([0.5, 10])), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => lib.applyCalibration([0.5], ["sigmoid", 0.5, 10]), "INVALID_TYPE", "calibration");
    // And an object whose toJSON gives an array (the text the module reads).
    const asArray = (a) => ({ toJSON: () => a });
    throwsScoreError(lib, () => lib.rrf([["a"], ["b"]], asArray([1])), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => new lib.Pipeline(asArray([7, {}, 3, 2])), "INVALID_TYPE", "config");
    throwsScoreError(lib, () => lib.fitPlatt([0.1, 0.9], [0, 1], asArray([100])), "INVALID_TYPE", "options");
    if (lib.applyCalibration) {
      throwsScoreError(lib, () => lib.applyCalibration([0.5], asArray(["sigmoid", 2, 0.5])), "INVALID_TYPE", "calibration");
      throwsScoreError(lib, () => lib.predictQueryConfidence(asArray([]), [{ q: { a: 1 } }]), "INVALID_TYPE", "model");
      // A toJSON that gives nothing (undefined): no calibration, no model (was the
      // engine's TypeError).
      const nothing = { toJSON: () => undefined };
      throwsScoreError(lib, () => lib.applyCalibration([0.5], nothing), "INVALID_TYPE", "calibration");
      throwsScoreError(lib, () => lib.predictQueryConfidence(nothing, [{ q: { a: 1 } }]), "INVALID_TYPE", "model");
    }
    // A nested struct given as the sequence of its fields (serde's form, read as before)
    // with more values than fields: refused (the extra values were dropped).
    eq(new lib.Pipeline({ recency: { fiscalYear: [3, 2020] } }).config.recency.fiscalYear, { window: 3, latestYear: 2020 });
    throwsScoreError(lib, () => new lib.Pipeline({ recency: { fiscalYear: [3, 2020, 5] } }), "INVALID_TYPE", "config.recency.fiscalYear");
    throwsScoreError(lib, () => new lib.Pipeline({ recency: { steps: [[7, 1.2, 99]] } }), "INVALID_TYPE", "config.recency.steps[0]");
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: ["platt", 1, 2, 3] }), "INVALID_TYPE", "config.calibration");
    const ctx = new lib.Pipeline();
    try {
      throwsScoreError(lib, () => ctx.run({ lists: [{ name: "l", ids: ["d"] }], context: asArray(["t"]) }), "INVALID_TYPE", "context");
      throwsScoreError(lib, () => ctx.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, context: asArray(["t"]) }), "INVALID_TYPE", "context");
      // A toJSON giving an object is read as that object.
      eq(ctx.run({ lists: [{ name: "l", ids: ["d"] }], context: { toJSON: () => ({ taskClass: "t" }) } }).stats.bandProfile, undefined);
    } finally {
      ctx.free();
    }
    eq(lib.rrf([["a"], ["b"]], { toJSON: () => ({ k: 1 }) }), [["a", 0.5], ["b", 0.5]]);
    // Objects, undefined and null are read as before (null: the defaults, for every function).
    eq(lib.rrf([["a"], ["b"]], { k: 1 }), [["a", 0.5], ["b", 0.5]]);
    eq(lib.rrf([["a"], ["b"]], null), lib.rrf([["a"], ["b"]]));
    eq(lib.classifyBand(0.9, null), lib.classifyBand(0.9));
    eq(lib.normalize([1, 2], "min_max", null), lib.normalize([1, 2], "min_max"));
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

  test("Pipeline.run: errors inside `context` name the field under `context`, wherever they are found", () => {
    const p = new lib.Pipeline({ minConfidence: 0, bands: { profiles: [{ name: "go", language: "go", highFloor: 0.9, degradedFloor: 0.5 }] } });
    const lists = [{ name: "l", ids: ["d"] }];
    // Found by the JavaScript (not an object) and by the module (a field's type, an unknown key).
    throwsScoreError(lib, () => p.run({ lists, context: 5 }), "INVALID_TYPE", "context");
    throwsScoreError(lib, () => p.run({ lists, context: { language: 5 } }), "INVALID_TYPE", "context.language");
    throwsScoreError(lib, () => p.run({ lists, context: { lang: "go" } }), "UNKNOWN_FIELD", "context.lang");
    eq(p.run({ lists, context: { language: "go" } }).results.length, 1);
    p.free();
    // A run's error about a configuration value is within `config`, as at construction.
    const r = new lib.Pipeline({ rerank: { method: "heuristic" } });
    throwsScoreError(lib, () => r.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 }), "INVALID_CONFIG", "config.rerank.method");
    r.free();
    const big = new lib.Pipeline({ minConfidence: 0, rerank: { method: "heuristic", heuristic: { exactNameMultiplier: 1e308, nameTermWeight: 1e308 } } });
    throwsScoreError(lib, () => big.run({ query: "alpha", lists: [{ name: "l", ids: ["d"], scores: [1] }], items: { d: { name: "alpha" } } }), "NON_FINITE_SCORE", "config.rerank.heuristic");
    big.free();
  });

  test("a field on Object.prototype (a value, read-only or not, an accessor; enumerable or not) is not read as an input's field", () => {
    // Each field of each kind of record the package reads, planted on Object.prototype as
    // a symbol (a read of it would be INVALID_TYPE): every call answers as without it,
    // those of records missing a required field too (its missing-field error, not the
    // symbol's). js/core's `cleanPrototype` checks each of these keys by name.
    const p = new lib.Pipeline({ minConfidence: 0 });
    const u32 = (...xs) => new Uint32Array(xs);
    const calls = {
      run: () => p.run({ lists: [{ name: "l", ids: ["a", "b"] }] }),
      runNoLists: () => p.run({}),
      runNoName: () => p.run({ lists: [{ ids: ["a"] }] }),
      runNoIds: () => p.run({ lists: [{ name: "l" }] }),
      columnar: () => p.runColumnar({ docs: u32(0, 1), offsets: u32(0, 2), nDocs: 2 }),
      columnarNoDocs: () => p.runColumnar({ offsets: u32(0, 2), nDocs: 2 }),
      columnarNoOffsets: () => p.runColumnar({ docs: u32(0, 1), nDocs: 2 }),
      columnarNoNDocs: () => p.runColumnar({ docs: u32(0, 1), offsets: u32(0, 2) }),
      rerank: () => lib.rerank("q", [{ id: "a", score: 1, name: "n" }]),
      rerankNoId: () => lib.rerank("q", [{ score: 1, name: "n" }]),
      rerankNoName: () => lib.rerank("q", [{ id: "a", score: 1 }]),
      rerankNoScore: () => lib.rerank("q", [{ id: "a", name: "n" }]),
      hits: () => lib.fuseMultiQuery([[{ id: "a", score: 1 }]]),
      hitsNoId: () => lib.fuseMultiQuery([[{ score: 1 }]]),
      hitsNoScore: () => lib.fuseMultiQuery([[{ id: "a" }]]),
    };
    const outcome = (f) => {
      try {
        return { ok: f() };
      } catch (e) {
        assert(e instanceof lib.ScoreError, `${e}`);
        return { code: e.code, field: e.field, message: e.message };
      }
    };
    const before = Object.fromEntries(Object.entries(calls).map(([name, f]) => [name, outcome(f)]));
    assert(before.run.ok && before.columnar.ok && before.rerank.ok && before.hits.ok, "the complete calls answer");
    // Every field of each record kind, as the records' UNKNOWN_FIELD messages list them (so
    // a field added to a kind is planted here too).
    const keys = new Set();
    for (const bad of [
      () => p.run({ lists: [], zz: 1 }),
      () => p.run({ lists: [{ name: "l", ids: [], zz: 1 }] }),
      () => p.runColumnar({ docs: u32(0), offsets: u32(0, 1), nDocs: 1, zz: 1 }),
      () => lib.rerank("q", [{ id: "a", score: 1, name: "n", zz: 1 }]),
      () => lib.fuseMultiQuery([[{ id: "a", score: 1, zz: 1 }]]),
    ]) {
      const e = outcome(bad);
      eq(e.code, "UNKNOWN_FIELD");
      const listed = e.message.split("expected one of ")[1].match(/`[^`]+`/g);
      for (const k of listed) keys.add(k.slice(1, -1));
    }
    eq(keys.size, 21);
    // Planted four ways: a writable value, a read-only one, an accessor whose getter
    // gives the symbol and whose setter records a call (the records' fields were once
    // copied into a plain object, which ran the setter or threw on the read-only value).
    let set = 0;
    // And an enumerable value, which every record's keys then meet (each is read key by key).
    const plantings = [
      (key) => ({ value: Symbol(key), writable: true, enumerable: false }),
      (key) => ({ value: Symbol(key), writable: false, enumerable: false }),
      (key) => ({ get: () => Symbol(key), set: () => void set++, enumerable: false }),
      (key) => ({ value: Symbol(key), writable: true, enumerable: true }),
    ];
    for (const key of keys)
      for (const planting of plantings) {
        Object.defineProperty(Object.prototype, key, { ...planting(key), configurable: true });
        try {
          for (const [name, f] of Object.entries(calls)) eq(outcome(f), before[name], `${key}, ${name}`);
        } finally {
          delete Object.prototype[key];
        }
      }
    assert(set === 0, `a setter on Object.prototype ran ${set} times`);
    p.free();
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

  test("topN out of range is INVALID_TOP_N in a configuration as in a call, negative or past 2^32 too; not a whole number, INVALID_TYPE in both", () => {
    const p = new lib.Pipeline({ minConfidence: 0 });
    try {
      const input = { lists: [{ name: "a", ids: ["x"] }] };
      const columnar = { docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 };
      for (const n of [0, -1, -5, 11, 2 ** 32, -(2 ** 32), 1e20]) {
        const message = `topN must satisfy 1 <= topN <= topK = 10, got ${n}`;
        // A configuration's -1 was INVALID_TYPE ("expected a whole number from 0 to
        // 4294967295"), a call's INVALID_TOP_N.
        eq(throwsScoreError(lib, () => new lib.Pipeline({ topN: n }), "INVALID_TOP_N", "config.topN").message, message, `config ${n}`);
        eq(throwsScoreError(lib, () => p.run({ ...input, topN: n }), "INVALID_TOP_N", "topN").message, message, `run ${n}`);
        eq(throwsScoreError(lib, () => p.runColumnar({ ...columnar, topN: n }), "INVALID_TOP_N", "topN").message, message, `runColumnar ${n}`);
      }
      // Against the configuration's topK, wherever it is written (or not valid).
      eq(throwsScoreError(lib, () => new lib.Pipeline({ topN: -1, topK: 3 }), "INVALID_TOP_N", "config.topN").message, "topN must satisfy 1 <= topN <= topK = 3, got -1");
      eq(throwsScoreError(lib, () => new lib.Pipeline({ topN: -1, topK: -3 }), "INVALID_TOP_N", "config.topN").message, "topN must satisfy 1 <= topN <= topK, got -1");
      eq(throwsScoreError(lib, () => new lib.Pipeline(new Map([["topN", -2]])), "INVALID_TOP_N", "config.topN").message, "topN must satisfy 1 <= topN <= topK = 10, got -2");
      // A fault found before it in the configuration's text comes first, as before.
      throwsScoreError(lib, () => new lib.Pipeline({ k: "x", topN: -1 }), "INVALID_TYPE", "config.k");
      for (const n of [2.5, -0.5, "3", NaN, Infinity, -Infinity, true]) {
        throwsScoreError(lib, () => new lib.Pipeline({ topN: n }), "INVALID_TYPE", "config.topN");
        throwsScoreError(lib, () => p.run({ ...input, topN: n }), "INVALID_TYPE", "topN");
        throwsScoreError(lib, () => p.runColumnar({ ...columnar, topN: n }), "INVALID_TYPE", "topN");
      }
      // topK has no call of its own: 0 is INVALID_TOP_K, a value that is not a whole
      // number from 0 to 2^32 - 1 INVALID_TYPE, as the README's table says.
      throwsScoreError(lib, () => new lib.Pipeline({ topK: 0 }), "INVALID_TOP_K", "config.topK");
      for (const n of [-1, 2 ** 32, 1.5]) throwsScoreError(lib, () => new lib.Pipeline({ topK: n }), "INVALID_TYPE", "config.topK");
      // RRF's k: one code in a configuration and in rrf's options.
      for (const k of [0, -1, NaN]) {
        throwsScoreError(lib, () => new lib.Pipeline({ k }), "INVALID_K", "config.k");
        throwsScoreError(lib, () => lib.rrf([["a"]], { k }), "INVALID_K", "options.k");
      }
    } finally {
      p.free();
    }
  });

  test("a key that would make a field path ambiguous is quoted as JSON: items[\"README.md\"].name, wherever the fault is found", () => {
    const p = new lib.Pipeline({ explain: false, minConfidence: 0, limits: { maxTextBytes: 4 } });
    const lists = [{ name: "s", ids: ["README.md", "doc-1", ""] }];
    const run = (items) => () => p.run({ query: "q", lists, items });
    try {
      // Found by the package's JavaScript (a type, an unknown key) and by the module
      // (a year, a text over the limit in UTF-8 bytes alone).
      throwsScoreError(lib, run({ "README.md": { name: 5 } }), "INVALID_TYPE", 'items["README.md"].name');
      throwsScoreError(lib, run({ "README.md": { nmae: "x" } }), "UNKNOWN_FIELD", 'items["README.md"].nmae');
      throwsScoreError(lib, run({ "README.md": 7 }), "INVALID_TYPE", 'items["README.md"]');
      throwsScoreError(lib, run({ "README.md": { fiscalYear: 2024.5 } }), "INVALID_TYPE", 'items["README.md"].fiscalYear');
      throwsScoreError(lib, run({ "README.md": { summary: "\u00e9\u00e9\u00e9" } }), "INPUT_TOO_LARGE", 'items["README.md"].summary');
      throwsScoreError(lib, run({ "": { name: 5 } }), "INVALID_TYPE", 'items[""].name');
      // A key without `.`, `[`, `]`, `"` or `\` is written as before.
      throwsScoreError(lib, run({ "doc-1": { name: 5 } }), "INVALID_TYPE", "items.doc-1.name");
    } finally {
      p.free();
    }
    const ce = new lib.Pipeline({ rerank: { method: "cross_encoder" } });
    try {
      throwsScoreError(lib, () => ce.run({ query: "q", lists: [{ name: "s", ids: ["a.b"] }] }), "EMPTY_INPUT", 'items["a.b"].crossEncoderScore');
    } finally {
      ce.free();
    }
    // Configurations: map keys found by the decoders and by the checks after them.
    throwsScoreError(lib, () => new lib.Pipeline({ weights: { "a.b": "x" } }), "INVALID_TYPE", 'config.weights["a.b"]');
    throwsScoreError(lib, () => new lib.Pipeline({ weights: { "a.b": -1 } }), "INVALID_WEIGHT", 'config.weights["a.b"]');
    throwsScoreError(lib, () => new lib.Pipeline({ weights: { "": "x" } }), "INVALID_TYPE", 'config.weights[""]');
    throwsScoreError(lib, () => new lib.Pipeline({ rerank: { heuristic: { typeMultipliers: { "A.b": 1 } } } }), "INVALID_CONFIG", 'config.rerank.heuristic.typeMultipliers["A.b"]');
    const odd = 'we"ird\n[0]';
    throwsScoreError(lib, () => new lib.Pipeline({ recency: { [odd]: 1 } }), "UNKNOWN_FIELD", `config.recency[${JSON.stringify(odd)}]`);
    throwsScoreError(lib, () => lib.rrf([["a"]], { [odd]: 1 }), "UNKNOWN_FIELD", `options[${JSON.stringify(odd)}]`);
    if (lib.rerank) throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", score: 1, name: "x" }], { typeMultipliers: { "x.y": "z" } }), "INVALID_TYPE", 'options.typeMultipliers["x.y"]');
    if (lib.evaluate) {
      throwsScoreError(lib, () => lib.evaluate({ "q.1": { "d.1": NaN } }, { "q.1": { "d.1": 1 } }, ["mrr"]), "NON_FINITE_SCORE", 'qrels["q.1"]["d.1"]');
      throwsScoreError(lib, () => lib.evaluate({ "q.1": { d: 1 } }, { "q.1": { d: Infinity } }, ["mrr"]), "NON_FINITE_SCORE", 'run["q.1"].d');
      throwsScoreError(lib, () => lib.Qrels.fromObject({ q: { "d[1]": "x" } }), "INVALID_TYPE", 'qrels.q["d[1]"]');
      throwsScoreError(lib, () => lib.Run.fromObject({ "q.1": "x" }), "INVALID_TYPE", 'run["q.1"]');
    }
  });

  test("null inside options is the default exactly where the declarations say `| null`, INVALID_TYPE elsewhere", () => {
    const lists = [["a", "b", "c"], ["b", "c", "d"]];
    const docs = new Uint32Array([0, 1, 2, 1, 2, 3]);
    const offsets = new Uint32Array([0, 3, 6]);
    // [call, key, accepted]: an accepted null gives what leaving the key out gives.
    const cases = [
      [(o) => lib.rrf(lists, o), "k", true],
      [(o) => lib.rrf(lists, o), "weights", true],
      [(o) => lib.rrf(lists, o), "limits", true],
      [(o) => lib.rrf(lists, { limits: o }), "maxTotalEntries", true],
      [(o) => Array.from(lib.rrfColumnar(docs, offsets, 4, o).scores), "k", true],
      [(o) => Array.from(lib.rrfColumnar(docs, offsets, 4, o).scores), "weights", true],
      [(o) => Array.from(lib.normalize([1, 2, 3], "softmax", o)), "temperature", true],
      [(o) => lib.queryConfidence([0.9, 0.5], o), "k", true],
      [(o) => lib.rerank("foo", [{ id: "a", score: 1, name: "foo" }], o).map((r) => r.rerankedScore), "stopwords", true],
      [(o) => new lib.Pipeline(o).config, "limits", true],
      [(o) => new lib.Pipeline({ rerank: o }).config, "candidateLimit", true],
      [(o) => new lib.Pipeline({ confidence: o }).config, "model", true],
      [(o) => Array.from(lib.calibrate([0.1, 0.2], o)), "threshold", false],
      [(o) => lib.classifyBand(0.5, o), "highFloor", false],
      [(o) => lib.queryConfidence([0.9, 0.5], o), "weights", false],
      [(o) => lib.fuseMultiQuery([[{ id: "a", score: 1 }]], o), "resultsPerQuery", false],
      [(o) => lib.rerank("foo", [{ id: "a", score: 1, name: "foo" }], o), "exactNameMultiplier", false],
    ];
    for (const [call, key, accepted] of cases) {
      if (accepted) eq(call({ [key]: null }), call({}), key);
      else throwsScoreError(lib, () => call({ [key]: null }), "INVALID_TYPE");
    }
    throwsScoreError(lib, () => new lib.Pipeline({ k: null }), "INVALID_TYPE", "config.k");
    if (lib.evaluate) {
      const q = { q1: { d1: 1 } };
      eq(lib.evaluate(q, q, ["mrr"], { ties: null }), lib.evaluate(q, q, ["mrr"]));
      const runs = [{ q: { a: 1, b: 0.5 } }, { q: { a: 0.3, c: 0.2 } }];
      eq(lib.fuseRuns(runs, { method: "wsum", norm: null, weights: null }), lib.fuseRuns(runs, { method: "wsum" }));
      throwsScoreError(lib, () => lib.calibrationError([0.1, 0.9], [0, 1], { bins: null }), "INVALID_TYPE", "options.bins");
    }
  });

  test("a required key not given is INVALID_CONFIG \"missing field\" in every input, run's lists too", () => {
    const p = new lib.Pipeline();
    try {
      const miss = (input, field, key) => eq(throwsScoreError(lib, () => p.run(input), "INVALID_CONFIG", field).message, `missing field \`${key}\``);
      miss({}, "lists", "lists");
      miss({ lists: [{ ids: ["a"] }] }, "lists[0].name", "name");
      miss({ lists: [{ name: "a", ids: ["x"] }, { name: "b" }] }, "lists[1].ids", "ids");
      // A value of the wrong type is still INVALID_TYPE.
      throwsScoreError(lib, () => p.run({ lists: null }), "INVALID_TYPE", "lists");
      throwsScoreError(lib, () => p.run({ lists: [{ name: 5, ids: [] }] }), "INVALID_TYPE", "lists[0].name");
      eq(throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", score: 1 }]), "INVALID_CONFIG", "candidates[0].name").message, "missing field `name`");
    } finally {
      p.free();
    }
  });

  test("ranges are said in words and with the value given", () => {
    const said = (fn, code, field) => throwsScoreError(lib, fn, code, field).message;
    eq(said(() => lib.rrf([["a"]], { limits: { maxLists: 0 } }), "INVALID_CONFIG", "options.limits.maxLists"), "must be a whole number from 1 to 100000, got 0");
    eq(said(() => new lib.Pipeline({ limits: { maxLists: 0 } }), "INVALID_CONFIG", "config.limits.maxLists"), "must be a whole number from 1 to 100000, got 0");
    eq(said(() => lib.queryConfidence([0.5, 2]), "OUT_OF_RANGE", "scores[1]"), "confidence needs calibrated scores within [0, 1], got 2");
    if (lib.calibrationError) {
      eq(said(() => lib.calibrationError([0.1, 0.9], [0, 1], { bins: 0 }), "INVALID_CONFIG", "options.bins"), "bins must be a whole number from 1 to 10000, got 0");
      eq(said(() => lib.fitPlatt([0.1, 0.2], [1, 1]), "INVALID_LABELS", "labels"), "both relevant (1) and non-relevant (0) labels are needed, got 2 relevant and 0 non-relevant");
    }
  });

  test("an unknown method or mode names the ones there are, in both decoders of a configuration", () => {
    const said = (fn, field) => throwsScoreError(lib, fn, "UNKNOWN_METHOD", field).message;
    eq(said(() => new lib.Pipeline({ recency: { mode: "linear" } }), "config.recency.mode"), '"linear" is not one of "none", "step", "fiscal_year"');
    eq(said(() => new lib.Pipeline({ rerank: { method: "crossencoder" } }), "config.rerank.method"), '"crossencoder" is not one of "none", "heuristic", "cross_encoder"; did you mean "cross_encoder"?');
    eq(said(() => new lib.Pipeline({ normalization: { method: "l2" } }), "config.normalization.method"), '"l2" is not one of "none", "max", "min_max", "z_score", "softmax"');
    eq(said(() => new lib.Pipeline({ calibration: { method: "beta" } }), "config.calibration.method"), '"beta" is not one of "sigmoid", "platt", "isotonic"');
    // The name is quoted as the crate quotes names: quotes, backslashes and controls escaped.
    eq(said(() => new lib.Pipeline({ recency: { mode: 'a"b\\\n\u001b' } }), "config.recency.mode"), '"a\\"b\\\\\\n\\u{1b}" is not one of "none", "step", "fiscal_year"');
    if (lib.fuseMultiQuery) eq(said(() => lib.fuseMultiQuery([[{ id: "a", score: 1 }]], { method: "RRF" }), "options.method"), '"RRF" is not one of "rrf", "score_sum", "score_max"; did you mean "rrf"?');
  });

  test("the lab's type errors are said for a JavaScript caller: no Rust type or serde word, the value as written", () => {
    if (!lib.evaluate) return;
    const said = (fn, code, field) => throwsScoreError(lib, fn, code, field).message;
    const s = [0.1, 0.4, 0.35, 0.8, 0.9, 0.2];
    const l = [0, 0, 1, 1, 1, 0];
    eq(said(() => lib.proposeBands(s, l, { seed: 2 ** 53 }), "INVALID_TYPE", "options.seed"), "expected a whole number >= 0, got 9007199254740992");
    eq(said(() => lib.proposeBands(s, l, { seed: 1e21 }), "INVALID_TYPE", "options.seed"), "expected a whole number >= 0, got 1e+21");
    eq(said(() => lib.proposeBands(s, l, { folds: 1.5 }), "INVALID_TYPE", "options.folds"), "expected a whole number >= 0, got 1.5");
    eq(said(() => lib.proposeBands(s, l, { seed: -1 }), "INVALID_TYPE", "options.seed"), "expected a whole number >= 0, got -1");
    eq(said(() => lib.calibrationError([0.1, 0.9], [0, 1], { bins: null }), "INVALID_TYPE", "options.bins"), "expected a whole number >= 0, got null");
    eq(said(() => lib.calibrationError([0.1, 0.9], [0, 1], { strategy: 1 }), "INVALID_TYPE", "options.strategy"), "expected a name (a string), got 1");
    eq(said(() => lib.calibrationError([0.1, 0.9], [0, 1], { strategy: "equal" }), "UNKNOWN_METHOD", "options.strategy"), '"equal" is not one of "uniform", "quantile"');
    eq(said(() => lib.applyCalibration([0.5], { method: "beta" }), "UNKNOWN_METHOD", "calibration.method"), '"beta" is not one of "sigmoid", "platt", "isotonic"');
    const runs = [{ q: { a: 1, b: 0.5 } }, { q: { a: 0.3, c: 0.2 } }];
    eq(said(() => lib.fuseRuns(runs, { method: "rrf", params: [60] }), "INVALID_TYPE", "options.params"), "expected an object, got an array");
    eq(said(() => lib.fuseRuns(runs, { method: "wsum", weights: { a: 1 } }), "INVALID_TYPE", "options.weights"), "expected an array, got an object");
    eq(said(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["mrr"], { ties: ["ranx"] }), "INVALID_TYPE", "options.ties"), "expected a string, got an array");
    // An unknown key of the options lists the keys there are, `limits` too (taken off before
    // the rest is read, it was missing from serde's list).
    eq(said(() => lib.fuseRuns(runs, { method: "sum", bogus: 1 }), "UNKNOWN_FIELD", "options.bogus"), "unknown field `bogus`, expected one of `method`, `norm`, `weights`, `params`, `limits`");
    eq(said(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["mrr"], { tie: "ranx" }), "UNKNOWN_FIELD", "options.tie"), "unknown field `tie`, expected `ties` or `limits`; did you mean `ties`?");
    eq(said(() => lib.applyCalibration([0.5], { method: "platt", a: 1, b: 2, c: 1 }), "UNKNOWN_FIELD", "calibration.c"), "unknown field `c`, expected `a` or `b`");
  });

  test("a configuration's or an option's value of the wrong kind is said with the value given", () => {
    const said = (f, field) => throwsScoreError(lib, f, "INVALID_TYPE", field).message;
    const cases = [
      [() => new lib.Pipeline({ topK: "10" }), "config.topK", 'expected a whole number from 0 to 4294967295, got "10"'],
      [() => new lib.Pipeline({ topK: -3 }), "config.topK", "expected a whole number from 0 to 4294967295, got -3"],
      [() => new lib.Pipeline({ topN: 1.5 }), "config.topN", "expected a whole number from 0 to 4294967295, got 1.5"],
      [() => new lib.Pipeline({ topK: null }), "config.topK", "expected a whole number from 0 to 4294967295, got null"],
      [() => new lib.Pipeline({ k: "60" }), "config.k", 'expected a number, got "60"'],
      [() => new lib.Pipeline({ k: 10n }), "config.k", "expected a number, got bigint"],
      [() => new lib.Pipeline({ explain: 1 }), "config.explain", "expected a boolean, got 1"],
      [() => new lib.Pipeline({ weights: { a: [1] } }), "config.weights.a", "expected a number, got an array"],
      [() => new lib.Pipeline({ recency: { steps: {} } }), "config.recency.steps", "expected an array, got an object"],
      [() => new lib.Pipeline({ recency: { steps: [{ maxAgeDays: () => 1, multiplier: 1 }] } }), "config.recency.steps[0].maxAgeDays", "expected a number, got function"],
      [() => new lib.Pipeline({ recency: { mode: 3 } }), "config.recency.mode", "expected a name (a string), got 3"],
      [() => new lib.Pipeline({ recency: { mode: { step: 5 } } }), "config.recency.mode.step", "expected null, got 5"],
      [() => new lib.Pipeline({ calibration: { method: 7 } }), "config.calibration.method", "expected a name (a string), got 7"],
      [() => new lib.Pipeline({ calibration: 'x\n"y\u0001' }), "config.calibration", 'expected an object, got "x\\n\\"y\\u{1}"'],
      [() => new lib.Pipeline({ confidence: { weights: [1, 2, 3] } }), "config.confidence.weights", "expected an array of 5 numbers, got an array of 3"],
      [() => new lib.Pipeline().run({ lists: [], context: { taskClass: 5 } }), "context.taskClass", "expected a string, got 5"],
      // A struct given as the array of its fields (serde's form) of another length.
      [() => new lib.Pipeline({ recency: { fiscalYear: [3, 2020, 5] } }), "config.recency.fiscalYear", "expected an object, got an array of 3"],
      [() => new lib.Pipeline({ calibration: [1, 2] }), "config.calibration", "expected an object, got an array of 2"],
      [() => new lib.Pipeline({ calibration: ["sigmoid", 0.5, 2, 9] }), "config.calibration", "expected an object, got an array of 4"],
      [() => lib.rrf([["a"]], { k: "60" }), "options.k", 'expected a number, got "60"'],
      [() => lib.normalize([1], "softmax", { temperature: [2] }), "options.temperature", "expected a number, got an array"],
      [() => lib.queryConfidence([0.5], { k: "3" }), "options.k", 'expected a whole number from 0 to 4294967295, got "3"'],
      [() => lib.classifyBand(0.5, { highFloor: "0.9" }), "options.highFloor", 'expected a number, got "0.9"'],
      // The lab says it alike (serde's words, read for a JavaScript caller).
      [() => lib.applyCalibration([0.5], { method: {} }), "calibration.method", "expected a name (a string), got an object"],
    ];
    for (const [f, field, message] of cases) eq(said(f, field), message, field);
  });

  test("an input's value of the wrong kind is said with the value given, none of the caller's code run", () => {
    const said = (f, field) => throwsScoreError(lib, f, "INVALID_TYPE", field).message;
    const lists = [{ name: "a", ids: ["x"] }];
    const p = new lib.Pipeline();
    try {
      const cases = [
        [() => lib.rrf([[1]]), "lists[0][0]", "expected a string, got 1"],
        [() => lib.rrf(["abc"]), "lists[0]", 'expected an array of strings, got "abc"'],
        [() => p.run({ lists: [{ name: 1, ids: ["x"] }] }), "lists[0].name", "expected a string, got 1"],
        [() => p.run({ lists: [{ name: "a", ids: [null] }] }), "lists[0].ids[0]", "expected a string, got null"],
        [() => p.run({ lists, items: { x: { modifiedAt: true } } }), "items.x.modifiedAt", "expected epoch milliseconds or an ISO 8601 string, got true"],
        [() => p.run({ lists, items: { x: { fiscalYear: "2024" } } }), "items.x.fiscalYear", 'expected a whole number (a year), got "2024"'],
        [() => p.run({ lists, items: { x: 5 } }), "items.x", "expected an object with the item's fields, got 5"],
        [() => p.run({ lists, query: {} }), "query", "expected a string, got an object"],
        [() => p.run({ lists, query: Symbol("q") }), "query", "expected a string, got symbol"],
        [() => p.run({ lists, query: () => "q" }), "query", "expected a string, got function"],
        [() => p.run({ lists, now: [1] }), "now", "expected epoch milliseconds or an ISO 8601 string, got an array"],
        [() => p.run({ lists, topN: 1.5 }), "topN", "expected a whole number, got 1.5"],
        [() => p.run({ lists: [{ name: "a", ids: ["x"], scores: ["1"] }] }), "lists[0].scores[0]", 'expected a number, got "1"'],
        // A long string: its first 64 characters; a control character escaped.
        [() => p.run({ lists: [{ name: "a", ids: ["x"], weight: "w".repeat(70) }] }), "lists[0].weight", `expected a number, got "${"w".repeat(64)}…"`],
        [() => p.run({ lists: [{ name: "a", ids: ["x"], weight: 'a"\n\u0001' }] }), "lists[0].weight", 'expected a number, got "a\\"\\n\\u{1}"'],
        [() => p.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, now: "2020" }), "now", 'expected epoch milliseconds (a number) or a Date, got "2020"'],
        [() => lib.rrfColumnar(["x"], [0, 1], 1), "docs[0]", 'expected a whole number in 0..2^32, got "x"'],
        [() => lib.calibrate([1, "2"]), "scores[1]", 'expected a number, got "2"'],
        [() => lib.classifyBand("0.9"), "score", 'expected a number, got "0.9"'],
        [() => lib.fuseMultiQuery([[{ id: 1, score: 1 }]]), "queries[0][0].id", "expected a string, got 1"],
        [() => lib.rerank("q", [{ id: "a", score: "1", name: "n" }]), "candidates[0].score", 'expected a number, got "1"'],
        // Objects by their brand (internal slots alone): a Map, a Date, a typed array.
        [() => lib.rerank("q", [new Map([["id", "a"]])]), "candidates[0]", "expected an object with `id`, `score` and `name`, got a Map"],
        [() => lib.fuseMultiQuery([[new Date(0)]]), "queries[0][0]", "expected an object with `id` and `score`, got a Date"],
        [() => lib.normalize(new Float32Array([1]), "max"), "scores", "expected a Float64Array or an array of numbers, got a Float32Array"],
        [() => p.runColumnar({ docs: [0], offsets: new Uint32Array([0, 1]), nDocs: 1 }), "docs", "expected a Uint32Array, got an array"],
        [() => lib.fuseMultiQuery([[{ id: "a", score: 1, timestamp: true }]]), "queries[0][0].timestamp", "expected epoch milliseconds or an ISO 8601 string, got true"],
        // A lone surrogate shown as the module reads it (U+FFFD); the module's own check of indices.
        [() => lib.classifyBand("a\uD800"), "score", 'expected a number, got "a\uFFFD"'],
        [() => lib.rrfColumnar([1.5], [0, 1], 2), "docs[0]", "expected a whole number in 0..2^32, got 1.5"],
      ];
      if (lib.evaluate) {
        cases.push([() => lib.evaluate({ q: { a: 1 } }, { q: { a: "x" } }, ["mrr"]), "run.q.a", 'expected a number, got "x"']);
        cases.push([() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, "mrr"), "metrics", 'expected an array of metric names, got "mrr"']);
        cases.push([() => lib.applyCalibration([0.5], 5), "calibration", "expected a calibration object, got 5"]);
      }
      for (const [f, field, message] of cases) eq(said(f, field), message, field);
      // An object `typeof` calls undefined (`document.all` in a browser; V8's
      // %GetUndetectable() where the runner provides one): an object, never converted
      // (String(document.all) would run its code).
      const undetectable = typeof document === "object" && document !== null ? document.all : globalThis.__calibrankUndetectable;
      if (typeof undetectable === "undefined" && undetectable !== undefined) {
        eq(said(() => lib.rrf([[undetectable]]), "lists[0][0]"), "expected a string, got an object");
      }
      // Shown without reading it: a Proxy's traps and a getter do not run, a revoked
      // Proxy is an object.
      let read = 0;
      const spy = new Proxy({}, { get: () => (read++, undefined), ownKeys: () => (read++, []), getPrototypeOf: () => (read++, null) });
      eq(said(() => p.run({ lists, query: spy }), "query"), "expected a string, got an object");
      const revoked = Proxy.revocable([], {});
      revoked.revoke();
      eq(said(() => p.run({ lists, query: revoked.proxy }), "query"), "expected a string, got an object");
      eq(read, 0, "the Proxy was read");
    } finally {
      p.free();
    }
  });

  test("an unknown method, mode, metric or function name names the nearest when one is near", () => {
    const said = (f, field) => throwsScoreError(lib, f, "UNKNOWN_METHOD", field).message;
    const near = (f, field, name) => {
      const m = said(f, field);
      assert(m.endsWith(`; did you mean "${name}"?`) && m.split("did you mean").length === 2, `${field}: ${m}`);
    };
    eq(said(() => lib.normalize([1], "minmax"), "method"), 'unknown normalization "minmax"; expected one of none, max, min_max, z_score, softmax; did you mean "min_max"?');
    eq(said(() => new lib.Pipeline({ normalization: { method: "minmax" } }), "config.normalization.method"), '"minmax" is not one of "none", "max", "min_max", "z_score", "softmax"; did you mean "min_max"?');
    near(() => new lib.Pipeline({ recency: { mode: "fiscalYear" } }), "config.recency.mode", "fiscal_year");
    near(() => new lib.Pipeline({ rerank: { method: "cross-encoder" } }), "config.rerank.method", "cross_encoder");
    near(() => new lib.Pipeline({ calibration: { method: "Platt" } }), "config.calibration.method", "platt");
    near(() => lib.fuseMultiQuery([[{ id: "a", score: 1 }]], { method: "rrF" }), "options.method", "rrf");
    near(() => lib.defaultLimits("rrff"), "fn", "rrf");
    assert(!said(() => lib.normalize([1], "l2"), "method").includes("did you mean"), "l2");
    // Only a metric's name is cut at `@`; a control character is one edit, as given.
    assert(!said(() => lib.normalize([1], "max@1"), "method").includes("did you mean"), "max@1");
    near(() => new lib.Pipeline({ recency: { mode: "step\t" } }), "config.recency.mode", "step");
    near(() => lib.defaultLimits("rrf\uD800"), "fn", "rrf");
    if (lib.evaluate) {
      // A metric compared without its cut-off or options (the name suggested alone).
      near(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["ndgc@10"]), "metrics[0]", "ndcg");
      near(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["NDCG-l2"]), "metrics[0]", "ndcg");
      near(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["mrr"], { ties: "trec-eval" }), "options.ties", "trec_eval");
      // `Comb` taken off a fusion method's name only, not off a normalization's.
      assert(!said(() => lib.fuseRuns([{ q: { a: 1 } }], { method: "sum", norm: "CombSUM" }), "options.norm").includes("did you mean"), "CombSUM as a norm");
      near(() => lib.fuseRuns([{ q: { a: 1 } }], { method: "sum", norm: "minmax" }), "options.norm", "min-max");
      near(() => lib.calibrationError([0.1, 0.9], [0, 1], { strategy: "quantil" }), "options.strategy", "quantile");
      // The literature's CombMNZ and CombSUM are ranx's (and the lab's) mnz and sum.
      near(() => lib.fuseRuns([{ q: { a: 1 } }], { method: "CombMNZ" }), "options.method", "mnz");
      near(() => lib.fuseRuns([{ q: { a: 1 } }], { method: "combsum" }), "options.method", "sum");
      assert(!said(() => lib.fuseRuns([{ q: { a: 1 } }], { method: "fusion" }), "options.method").includes("did you mean"), "fusion");
    }
  });

  test("an unknown key lists the keys there are, and the nearest when one is near; every key listed is one", () => {
    const said = (f, field) => throwsScoreError(lib, f, "UNKNOWN_FIELD", field).message;
    const lists = [{ name: "a", ids: ["x"] }];
    const TOP = "`k`, `weights`, `topK`, `topN`, `recency`, `rerank`, `normalization`, `calibration`, `minConfidence`, `bands`, `confidence`, `limits`, `explain`";
    // The configuration (the core's decoder, or the pipeline module's in JavaScript: the
    // same words), its nested parts and a calibration's variant.
    eq(said(() => new lib.Pipeline({ topk: 5 }), "config.topk"), `unknown field \`topk\`, expected one of ${TOP}; did you mean \`topK\`?`);
    eq(said(() => new lib.Pipeline({ minConfidnce: 0.2 }), "config.minConfidnce"), `unknown field \`minConfidnce\`, expected one of ${TOP}; did you mean \`minConfidence\`?`);
    eq(said(() => new lib.Pipeline({ x: 1 }), "config.x"), `unknown field \`x\`, expected one of ${TOP}`);
    eq(said(() => new lib.Pipeline({ recency: { stpes: [] } }), "config.recency.stpes"), "unknown field `stpes`, expected one of `mode`, `steps`, `fiscalYear`, `boost`; did you mean `steps`?");
    eq(said(() => new lib.Pipeline({ calibration: { method: "sigmoid", treshold: 0.5 } }), "config.calibration.treshold"), "unknown field `treshold`, expected `threshold` or `steepness`; did you mean `threshold`?");
    eq(said(() => new lib.Pipeline({ calibration: { method: "platt", A: 1, b: 1 } }), "config.calibration.A"), "unknown field `A`, expected `a` or `b`; did you mean `a`?");
    // The core's options: `limits`, taken off before the rest is read, is listed too.
    eq(said(() => lib.rrf([["a"]], { kk: 1 }), "options.kk"), "unknown field `kk`, expected one of `k`, `weights`, `limits`");
    eq(said(() => lib.rrf([["a"]], { limit: {} }), "options.limit"), "unknown field `limit`, expected one of `k`, `weights`, `limits`; did you mean `limits`?");
    eq(said(() => lib.normalize([1, 2], "softmax", { temprature: 2 }), "options.temprature"), "unknown field `temprature`, expected `temperature` or `limits`; did you mean `temperature`?");
    eq(said(() => lib.rrf([["a"]], { limits: { maxList: 3 } }), "options.limits.maxList").split("; ")[1], "did you mean `maxLists`?");
    // The input's keys (read in JavaScript), swapped letters counted as one edit.
    // (Bare, as every other path of the input: `lists[0].name`, `context.language`.)
    eq(said(() => new lib.Pipeline().run({ qeury: "q", lists }), "qeury"), "unknown field `qeury`, expected one of `query`, `lists`, `items`, `now`, `context`, `topN`; did you mean `query`?");
    eq(said(() => new lib.Pipeline().run({ lists, items: { x: { nmae: "n" } } }), "items.x.nmae").split("; ")[1], "did you mean `name`?");
    eq(said(() => new lib.Pipeline().run({ lists, context: { langauge: "rust" } }), "context.langauge"), "unknown field `langauge`, expected one of `taskClass`, `language`, `buildSystem`; did you mean `language`?");
    // The lab's (serde's words, the nearest added alike), nested ones too.
    eq(said(() => lib.fuseRuns([{ q: { a: 1 } }], { method: "rrf", nrom: "min-max" }), "options.nrom").split("; ")[1], "did you mean `norm`?");
    eq(said(() => lib.applyCalibration([0.5], { method: "sigmoid", steepnes: 1 }), "calibration.steepnes").split("; ")[1], "did you mean `steepness`?");
    // The first of the nearest (`topK` and `topN` are both one edit from `topM`); a third
    // of the key's length, the key there is (`now`, 3 characters, one edit from `nw`).
    assert(said(() => new lib.Pipeline({ topM: 1 }), "config.topM").endsWith("did you mean `topK`?"), "topM");
    assert(said(() => new lib.Pipeline().run({ lists, nw: 1 }), "nw").endsWith("did you mean `now`?"), "nw");
    // Two edits, and three; nothing near a short key one or two edits away, nor a key of
    // 65 characters.
    assert(said(() => new lib.Pipeline({ minConfidenXX: 1 }), "config.minConfidenXX").endsWith("did you mean `minConfidence`?"), "two edits");
    assert(!said(() => new lib.Pipeline({ minConfidenXXX: 1 }), "config.minConfidenXXX").includes("did you mean"), "three edits");
    assert(!said(() => lib.rrf([["a"]], { kw: 1 }), "options.kw").includes("did you mean"), "kw");
    assert(!said(() => new lib.Pipeline({ ["topK".repeat(16) + "x"]: 1 }), `config.${"topK".repeat(16)}x`).includes("did you mean"), "65 characters");
    // Every key a message lists is one: given alone, it is read (it may be refused for
    // its value, never as unknown).
    const listed = (message) => Array.from(message.split("; ")[0].matchAll(/`([^`]*)`/g), (m) => m[1]).slice(1);
    const cases = [
      [(v) => new lib.Pipeline(v), (k) => ({ [k]: 1 }), "config"],
      [(v) => new lib.Pipeline({ recency: v }), (k) => ({ [k]: 1 }), "config.recency"],
      [(v) => new lib.Pipeline({ rerank: v }), (k) => ({ [k]: 1 }), "config.rerank"],
      [(v) => new lib.Pipeline({ rerank: { heuristic: v } }), (k) => ({ [k]: 1 }), "config.rerank.heuristic"],
      [(v) => new lib.Pipeline({ bands: v }), (k) => ({ [k]: 1 }), "config.bands"],
      [(v) => new lib.Pipeline({ normalization: v }), (k) => ({ [k]: 1 }), "config.normalization"],
      [(v) => new lib.Pipeline({ confidence: v }), (k) => ({ [k]: 1 }), "config.confidence"],
      [(v) => new lib.Pipeline({ limits: v }), (k) => ({ [k]: 1 }), "config.limits"],
      [(v) => lib.rrf([["a"]], v), (k) => ({ [k]: 1 }), "options"],
      [(v) => lib.normalize([1, 2], "softmax", v), (k) => ({ [k]: 1 }), "options"],
      [(v) => lib.fuseMultiQuery([[{ id: "a", score: 1 }]], v), (k) => ({ [k]: 1 }), "options"],
      [(v) => lib.queryConfidence([0.5], v), (k) => ({ [k]: 1 }), "options"],
      [(v) => lib.rerank("q", [{ id: "a", name: "a", score: 1 }], v), (k) => ({ [k]: 1 }), "options"],
    ];
    for (const [call, given, path] of cases) {
      const keys = listed(said(() => call({ bogus: 1 }), `${path}.bogus`));
      assert(keys.length > 0, path);
      for (const k of keys) {
        try {
          call(given(k));
        } catch (e) {
          assert(!(e.code === "UNKNOWN_FIELD" && e.field === `${path}.${k}`), `${path}.${k} is listed but unknown`);
        }
      }
    }
  });

  test("fused scores that overflow are NON_FINITE_SCORE on the values to lower, in every fusing function", () => {
    // A term is at most w / (k + 1): four weights near f64::MAX with k = 1 overflow.
    const huge = [1e308, 1e308, 1e308, 1e308];
    const four = [["a"], ["a", "b"], ["a"], ["a"]];
    const nullProto = (o) => Object.assign(Object.create(null), o);
    // The ids' count alone, the ids through JSON options, and a call of 64 entries or more.
    throwsScoreError(lib, () => lib.rrf(four, { k: 1, weights: huge }), "NON_FINITE_SCORE", "options.weights");
    throwsScoreError(lib, () => lib.rrf(four, nullProto({ k: 1, weights: huge })), "NON_FINITE_SCORE", "options.weights");
    const long = Array.from({ length: 40 }, (_, i) => `d${i}`);
    throwsScoreError(lib, () => lib.rrf([long, long, long, long], { k: 1, weights: huge }), "NON_FINITE_SCORE", "options.weights");
    // Just under: finite, and the same figures on every path.
    const under = [4e307, 4e307, 4e307, 4e307];
    const fine = lib.rrf(four, { k: 1, weights: under });
    eq(fine[0][0], "a");
    assert(Number.isFinite(fine[0][1]) && fine[0][1] > 1e307, `finite top score: ${fine[0][1]}`);
    eq(lib.rrf(four, nullProto({ k: 1, weights: under })), fine, "the JSON path");
    const flat = { docs: new Uint32Array([0, 0, 1, 0, 0]), offsets: new Uint32Array([0, 1, 3, 4, 5]) };
    throwsScoreError(lib, () => lib.rrfColumnar(flat.docs, flat.offsets, 2, { k: 1, weights: huge }), "NON_FINITE_SCORE", "options.weights");
    eq(Array.from(lib.rrfColumnar(flat.docs, flat.offsets, 2, { k: 1, weights: under }).scores), fine.map((e) => e[1]), "columnar");
    const lists = four.map((ids, i) => ({ name: `l${i}`, ids }));
    const byName = Object.fromEntries(lists.map((l) => [l.name, 1e308]));
    const p = new lib.Pipeline({ k: 1, weights: byName, minConfidence: 0, recency: { mode: "none" } });
    try {
      throwsScoreError(lib, () => p.run({ lists }), "NON_FINITE_SCORE", "lists");
      throwsScoreError(lib, () => p.runColumnar({ ...flat, nDocs: 2, weights: new Float64Array(huge) }), "NON_FINITE_SCORE", "weights");
    } finally {
      p.free();
    }
    // Lists' own weights, on a pipeline of the default weights.
    const q = new lib.Pipeline({ k: 1, minConfidence: 0 });
    try {
      throwsScoreError(lib, () => q.run({ lists: lists.map((l) => ({ ...l, weight: 1e308 })) }), "NON_FINITE_SCORE", "lists");
    } finally {
      q.free();
    }
    // A recency multiplier that overflows a finite fused score: the configuration's doing.
    const now = Date.UTC(2026, 10, 29);
    const boosted = new lib.Pipeline({ k: 1, weights: { a: 1e10 }, minConfidence: 0, recency: { steps: [{ maxAgeDays: 7, multiplier: 1e308 }] } });
    try {
      throwsScoreError(lib, () => boosted.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { modifiedAt: now } }, now }), "NON_FINITE_SCORE", "config.recency");
      const col = (modifiedAt) => boosted.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 2, weights: new Float64Array([1e10]), modifiedAt: new Float64Array(modifiedAt), now });
      throwsScoreError(lib, () => col([now, NaN]), "NON_FINITE_SCORE", "config.recency");
      // Unknown (NaN) times leave the score as fused.
      eq(Array.from(col([NaN, NaN]).scores), [1], "NaN: no multiplier");
    } finally {
      boosted.free();
    }
    // Found before a reranker replaces the scores (the cross-encoder's) or names itself.
    const steps = [{ maxAgeDays: 7, multiplier: 1e308 }];
    for (const rerank of [{ method: "cross_encoder" }, { method: "heuristic" }]) {
      const r = new lib.Pipeline({ recency: { steps }, rerank, minConfidence: 0 });
      try {
        const items = { x: { modifiedAt: now, crossEncoderScore: 2, name: "q" }, y: { crossEncoderScore: 1, name: "y" } };
        const e = throwsScoreError(lib, () => r.run({ query: "zzz", lists: [{ name: "a", ids: ["x", "y"], weight: 1000 }], items, now }), "NON_FINITE_SCORE", "config.recency");
        assert(e.message.includes('"x"') && e.message.includes("weights"), e.message);
      } finally {
        r.free();
      }
    }
    // A confidence model's own fusion: its weights.
    if (lib.fitQueryConfidence) {
      const runs = [{ q1: { a: 3, b: 2, c: 1 }, q2: { d: 3, e: 2 }, q3: { f: 1 } }, { q1: { a: 2, c: 1 }, q2: { e: 1 }, q3: { g: 2, f: 1 } }, { q1: { a: 1 }, q2: { e: 1 }, q3: { f: 1 } }];
      const qrels = { q1: { a: 1 }, q2: { x: 1 }, q3: { f: 1 } };
      const heavy = [1.5e308, 1.5e308, 1.5e308];
      const model = { ...lib.fitQueryConfidence(qrels, runs), rrfK: 1, weights: heavy };
      throwsScoreError(lib, () => lib.predictQueryConfidence(model, runs), "NON_FINITE_SCORE", "model.weights");
      throwsScoreError(lib, () => lib.fitQueryConfidence(qrels, runs, { rrfK: 1, weights: heavy }), "NON_FINITE_SCORE", "options.weights");
      const withModel = new lib.Pipeline({ confidence: { model } });
      try {
        throwsScoreError(lib, () => withModel.run({ lists: ["a", "b", "c"].map((name) => ({ name, ids: ["x"], scores: [1] })) }), "NON_FINITE_SCORE", "config.confidence.model.weights");
      } finally {
        withModel.free();
      }
    }
  });

  test("runColumnar refuses an infinite modifiedAt of a listed document, as run refuses it; NaN is unknown", () => {
    const p = new lib.Pipeline({ minConfidence: 0 });
    const now = Date.UTC(2026, 10, 29);
    const col = (modifiedAt) => p.runColumnar({ docs: new Uint32Array([0, 1]), offsets: new Uint32Array([0, 2]), nDocs: 3, modifiedAt: new Float64Array(modifiedAt), now });
    try {
      throwsScoreError(lib, () => col([now, Infinity, now]), "INVALID_TIMESTAMP", "modifiedAt[1]");
      throwsScoreError(lib, () => col([-Infinity, now, now]), "INVALID_TIMESTAMP", "modifiedAt[0]");
      // In every recency mode, as run refuses it.
      const none = new lib.Pipeline({ recency: { mode: "none" }, minConfidence: 0 });
      try {
        throwsScoreError(lib, () => none.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, modifiedAt: [Infinity] }), "INVALID_TIMESTAMP", "modifiedAt[0]");
        throwsScoreError(lib, () => none.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { modifiedAt: Infinity } } }), "INVALID_TIMESTAMP");
        eq(Array.from(none.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, modifiedAt: [NaN] }).order), [0]);
        // One time per document in every mode, as with step recency (a short array left documents unread).
        throwsScoreError(lib, () => none.runColumnar({ docs: new Uint32Array([1]), offsets: new Uint32Array([0, 1]), nDocs: 2, modifiedAt: [Infinity] }), "LENGTH_MISMATCH", "modifiedAt");
        throwsScoreError(lib, () => none.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, modifiedAt: [1, 2] }), "LENGTH_MISMATCH", "modifiedAt");
      } finally {
        none.free();
      }
      throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: { modifiedAt: Infinity } }, now }), "INVALID_TIMESTAMP");
      // Document 2 is in no list: its time is not read.
      const known = col([now, now, Infinity]);
      const unknown = col([NaN, now, NaN]);
      // As run gives them: both boosted (x1.2 under 7 days), or document 1 alone.
      const asRun = (items) => p.run({ lists: [{ name: "a", ids: ["x", "y"] }], items, now }).results.map((r) => [r.id, r.score]);
      eq(Array.from(known.order, (d, i) => [["x", "y"][d], known.scores[i]]), asRun({ x: { modifiedAt: now }, y: { modifiedAt: now } }), "known");
      eq(Array.from(unknown.order, (d, i) => [["x", "y"][d], unknown.scores[i]]), asRun({ y: { modifiedAt: now } }), "NaN: unknown");
      eq(Array.from(unknown.order), [1, 0], "NaN: unboosted");
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
  });

  test("Pipeline: texts held back for a heuristic reranker give the output of texts sent inline", () => {
    // A pipeline given more candidates than its reranker reads (topK, or candidateLimit)
    // sends the items' texts only for the pool it reranks, when the module asks for them.
    const words = ["graph", "cache", "token", "router", "Über", "für", "🚀", "auth", ""];
    const textOf = (i, n) => Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ");
    const ids = Array.from({ length: 30 }, (_, i) => (i % 5 === 0 ? `dök-${i}` : `doc-${i}`));
    const pick = (seed) => ids.filter((_, i) => (i * seed) % 7 < 4);
    const lists = [
      { name: "semantic", ids: pick(3) },
      { name: "keyword", ids: pick(5).reverse() },
      { name: "graph", ids: pick(2) },
    ];
    const item = (i) => {
      const m = {};
      if (i % 4 !== 3) m.name = i % 6 === 0 ? "graphCacheToken" : textOf(i, 2);
      if (i % 3 === 0) m.type = ["class", "function", "Modul"][i % 3 === 0 ? (i / 3) % 3 : 0];
      if (i % 2 === 0) m.summary = textOf(i, 6);
      if (i % 5 === 1) m.content = i % 10 === 1 ? "" : textOf(i, 3);
      return m;
    };
    const items = Object.fromEntries(ids.map((id, i) => [id, item(i)]));
    const extras = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`extra-${i}`, { name: textOf(i, 2), summary: "x" }]));
    // The extras' ids in a list of weight 0: 45 candidates, the extras' fused scores 0,
    // below the 30 others, so that a topK of 30 gives the pool and the output of the
    // 30 alone (the stats aside: lists, candidates, duplicates, beyondTopK).
    const heldLists = [...lists, { name: "extra", ids: Object.keys(extras), weight: 0 }];
    const core = ({ results, confidence, outcome }) => ({ results, confidence, outcome });
    const query = "graph cache token für Über";
    const cfg = { topK: 30, topN: 30, minConfidence: 0, explain: true, rerank: { method: "heuristic" } };
    const p = new lib.Pipeline(cfg);
    const inline = p.run({ query, lists, items });
    eq(inline.results.length, 30);
    assert(inline.results.some((r) => r.explain.rerank.factors.multiplier > 1), "the reranker matched some texts");
    // 45 candidates > topK 30: held, as an object and as a Map. The module asks for the
    // pool's texts once per call, through a tiny module's function (compiled from bytes,
    // or in workerd from the module the entry imports).
    const asked = lib.__heldTextsCalls();
    eq(core(p.run({ query, lists: heldLists, items: { ...items, ...extras } })), core(inline), "held (object)");
    eq(core(p.run({ query, lists: heldLists, items: new Map(Object.entries({ ...extras, ...items })) })), core(inline), "held (Map)");
    eq(lib.__heldTextsCalls() - asked, 2, "the module asked for the held texts");
    // From 16,384 slots on (4 per candidate: 4,130 candidates here) the array of held
    // texts is kept from call to call (js/wire/input.js `Lease.kept`) and emptied after
    // each: a call whose items have fewer texts reads none of the call before's.
    const many = { name: "many", ids: Array.from({ length: 4100 }, (_, i) => `many-${i}`), weight: 0 };
    const manyLists = [...lists, many];
    const rich = Object.fromEntries([...ids, ...many.ids].map((id) => [id, { name: "graphCacheToken", type: "class", summary: query, content: "x" }]));
    const richOut = p.run({ query, lists: manyLists, items: rich });
    assert(JSON.stringify(core(richOut)) !== JSON.stringify(core(inline)), "the richer texts rank otherwise");
    eq(core(p.run({ query, lists: manyLists, items })), core(inline), "held, after a call with more texts");
    // Within one call too: a getter that changes Object.prototype makes the input encoded
    // again (`keyByKey`), and the texts of the first encoding are not read. doc-3 has no
    // name; its getter gives one the first time only.
    let reads = 0;
    const planted = { ...items };
    planted["doc-3"] = {
      ...items["doc-3"],
      get name() {
        if (reads++ > 0) return undefined;
        Object.defineProperty(Object.prototype, "plantedDuringTheCall", { value: 1, configurable: true });
        return "graphCacheToken";
      },
    };
    try {
      eq(core(p.run({ query, lists: manyLists, items: planted })), core(inline), "held, the input encoded again");
      eq(reads, 2, "doc-3's name read in each encoding");
    } finally {
      delete Object.prototype.plantedDuringTheCall;
    }
    // candidateLimit 8: the reranker reads the 8 best after recency (no recency here:
    // fusion order, which rrf gives); the other items' texts do not matter, so the input
    // with the 8's items alone gives the same output (both held: 30 candidates; held
    // against inline for this case: tests/js/held-texts.test.mjs).
    const limited = new lib.Pipeline({ ...cfg, rerank: { method: "heuristic", candidateLimit: 8 } });
    const best8 = lib.rrf(lists.map((l) => l.ids)).slice(0, 8).map(([id]) => id);
    const few = limited.run({ query, lists, items: Object.fromEntries(best8.map((id) => [id, items[id]])) });
    eq(few.stats.beyondCandidateLimit, 22);
    eq(limited.run({ query, lists, items }), few, "held, candidateLimit: the other items' texts do not matter");
    // Errors: the same in both modes (type errors before the call; limits exactly).
    const bad = { ...items, ...extras, "extra-3": { name: 5 } };
    throwsScoreError(lib, () => p.run({ query, lists: heldLists, items: bad }), "INVALID_TYPE", "items.extra-3.name");
    const units = (o) => Object.entries(o).reduce((n, [k, m]) => n + k.length + Object.values(m).reduce((a, v) => a + v.length, 0), 0);
    const all = { ...items, ...extras };
    const idUnits = units(all) + query.length + 8 + 7 + 5 + 5;
    const wide = { ...cfg, topK: 50, topN: 50 };
    const at = (max, c = cfg) => new lib.Pipeline({ ...c, limits: { maxTotalTextBytes: max } });
    // The smallest maxTotalTextBytes a call passes inline (the module counts each list
    // entry's id and each item key, in UTF-8 bytes).
    const edgeOf = (input) => {
      let lo = 1;
      let hi = 1 << 20;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        try {
          at(mid, wide).run(input);
          hi = mid;
        } catch {
          lo = mid + 1;
        }
      }
      return lo;
    };
    const lo = edgeOf({ query, lists: heldLists, items: all });
    assert(lo > idUnits && lo < 3 * idUnits, `the edge ${lo} is between the table's units and 3 times them`);
    eq(core(at(lo).run({ query, lists: heldLists, items: all })), core(inline), "held, at the limit");
    const over = throwsScoreError(lib, () => at(lo - 1).run({ query, lists: heldLists, items: all }), "INPUT_TOO_LARGE");
    const overInline = throwsScoreError(lib, () => at(lo - 1, wide).run({ query, lists: heldLists, items: all }), "INPUT_TOO_LARGE");
    eq([over.field, over.message], [overInline.field, overInline.message], "the inline call's error");
    // Over for sure (more UTF-16 units in the table than the limit): encoded again inline.
    const sure = throwsScoreError(lib, () => at(idUnits - 1).run({ query, lists: heldLists, items: all }), "INPUT_TOO_LARGE");
    const sureInline = throwsScoreError(lib, () => at(idUnits - 1, wide).run({ query, lists: heldLists, items: all }), "INPUT_TOO_LARGE");
    eq([sure.field, sure.message], [sureInline.field, sureInline.message], "the inline call's error, over for sure");
    // Long ids in every list: the module's total counts them once per entry and once more
    // as item keys, far more than the string table holds.
    const rid = Array.from({ length: 30 }, (_, i) => `document-${i}`.padEnd(40, "-"));
    const rinput = {
      query: "name document",
      lists: [...[0, 1, 2].map((j) => ({ name: `l${j}`, ids: j === 1 ? [...rid].reverse() : rid })), heldLists[3]],
      items: { ...Object.fromEntries(rid.map((id, i) => [id, { name: `name ${i}` }])), ...extras },
    };
    const redge = edgeOf(rinput);
    eq(core(at(redge).run(rinput)), core(at(redge, { ...wide, topN: 30 }).run(rinput)), "held, ids repeated, at the limit");
    const rover = throwsScoreError(lib, () => at(redge - 1).run(rinput), "INPUT_TOO_LARGE");
    const roverInline = throwsScoreError(lib, () => at(redge - 1, wide).run(rinput), "INPUT_TOO_LARGE");
    eq([rover.field, rover.message], [roverInline.field, roverInline.message], "the inline call's error, ids repeated");
    // One text over maxTextBytes in UTF-8 only (60 units, 120 bytes; the others fit).
    const long = { ...all, "extra-1": { summary: "é".repeat(60) } };
    const one = throwsScoreError(lib, () => new lib.Pipeline({ ...cfg, limits: { maxTextBytes: 100 } }).run({ query, lists: heldLists, items: long }), "INPUT_TOO_LARGE", "items.extra-1.summary");
    const oneInline = throwsScoreError(lib, () => new lib.Pipeline({ ...cfg, topK: 50, topN: 50, limits: { maxTextBytes: 100 } }).run({ query, lists: heldLists, items: long }), "INPUT_TOO_LARGE", "items.extra-1.summary");
    eq(one.message, oneInline.message);
    // A getter that throws on a held text: the caller's error, the module still usable.
    const boom = { ...all, "doc-2": { get summary() { throw new RangeError("boom"); } } };
    let caught;
    try {
      p.run({ query, lists: heldLists, items: boom });
    } catch (e) {
      caught = e;
    }
    assert(caught instanceof RangeError && caught.message === "boom", `the getter's error: ${caught}`);
    eq(core(p.run({ query, lists: heldLists, items: all })), core(inline), "usable after, held");
  });

  test("Pipeline: items are looked up by the lists' ids; an entry whose key is in no list is never read", () => {
    const cfg = { minConfidence: 0, topK: 100, topN: 100, explain: true, recency: { mode: "step" }, rerank: { method: "heuristic" } };
    const p = new lib.Pipeline(cfg);
    const now = 1.7e12;
    const query = "graph cache";
    // Ids that name Object.prototype's own properties: no item unless the record has one.
    const lists = [{ name: "a", ids: ["x", "toString", "y"] }, { name: "b", ids: ["__proto__", "x", "constructor"] }];
    const items = { x: { name: "graph cache", modifiedAt: now - 86400000 }, y: { summary: "graph" } };
    const want = p.run({ query, lists, items, now });
    const explainOf = (out, id) => out.results.find((r) => r.id === id).explain;
    eq(explainOf(want, "x").recencyMultiplier, 1.2, "x's item is read (modified a day ago)");
    eq(explainOf(want, "__proto__").rerank.factors.multiplier, 1, "no item for __proto__");
    // Entries in no list that every check would refuse: a wrong type, an unknown field, a
    // time that does not parse, a key over maxIdBytes, a getter that throws.
    const others = { ...items, z: { name: 5 }, w: { colour: "red" }, v: { modifiedAt: "last week" }, ["k".repeat(2000)]: {} };
    Object.defineProperty(others, "u", { enumerable: true, get: () => { throw new RangeError("read"); } });
    eq(p.run({ query, lists, items: others, now }), want, "an object with entries in no list");
    // A Map: keys that are not strings are in no list either.
    const map = new Map([[5, { name: 5 }], ...Object.entries(items), [{}, {}], ["z", { name: 5 }]]);
    eq(p.run({ query, lists, items: map, now }), want, "a Map with entries in no list");
    // Only own entries are items, whatever the record's prototype.
    eq(p.run({ query, lists, items: Object.assign(Object.create(null), items), now }), want, "a record without a prototype");
    const inherited = Object.assign(Object.create({ y: { name: "graph cache" } }), { x: items.x });
    eq(p.run({ query, lists, items: inherited, now }), p.run({ query, lists, items: { x: items.x }, now }), "an inherited entry is not an item");
    const ownProto = Object.assign(JSON.parse('{"__proto__": {"name": "graph cache"}}'), items);
    const withProto = p.run({ query, lists, items: ownProto, now });
    assert(withProto.results.find((r) => r.id === "__proto__").explain.rerank.factors.multiplier > 1, "an own __proto__ entry is read");
    // Limits count the items found: 6 list entries and 2 items.
    const limited = (max) => new lib.Pipeline({ ...cfg, limits: { maxTotalEntries: max, maxTotalTextBytes: 200 } });
    const many = { ...items };
    for (let i = 0; i < 1000; i++) many[`other-${i}`] = { summary: "s".repeat(100) };
    eq(limited(8).run({ query, lists, items: many, now }).results, want.results, "1,000 entries in no list, within 8 entries and 200 bytes");
    throwsScoreError(lib, () => limited(7).run({ query, lists, items: many, now }), "INPUT_TOO_LARGE", "items");
    // Over maxTotalEntries, the limit is the error before an item's own fault (as the
    // module checks them): 2 ids and 2 items found, x's name over maxTextBytes.
    const tight = new lib.Pipeline({ minConfidence: 0, limits: { maxTotalEntries: 3, maxTextBytes: 3 } });
    throwsScoreError(lib, () => tight.run({ lists: [{ name: "a", ids: ["x", "y"] }], items: { x: { name: "abcdef" }, y: {} } }), "INPUT_TOO_LARGE", "items");
    // A key someone defined on Object.prototype (not enumerable, as some libraries do) is
    // not an own entry: no item, in a small call and in one of 128 ids or more (which
    // look values up differently: see js/core/pipeline-input.js, LOOK_OVER_FROM).
    const big = { name: "big", ids: Array.from({ length: 300 }, (_, i) => `n${i}`) };
    for (const [what, desc] of [["a value", { value: { name: "graph cache" } }], ["a getter", { get: () => ({ colour: "red" }) }]]) {
      Object.defineProperty(Object.prototype, "planted", { ...desc, configurable: true });
      try {
        for (const ls of [[...lists, { name: "c", ids: ["planted"] }], [...lists, { name: "c", ids: ["planted"] }, big]]) {
          const out = p.run({ query, lists: ls, items, now });
          eq(explainOf(out, "planted").rerank.factors.multiplier, 1, `${what} on Object.prototype is not an item (${ls.length} lists)`);
        }
      } finally {
        delete Object.prototype.planted;
      }
    }
    // `__proto__` redefined there (a value; a getter): not an item either.
    const protoDesc = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__");
    for (const desc of [{ value: { name: "graph cache" }, writable: true }, { get: () => ({ name: "graph cache" }) }]) {
      Object.defineProperty(Object.prototype, "__proto__", { ...desc, configurable: true });
      try {
        const out = p.run({ query, lists: [...lists, big], items, now });
        eq(explainOf(out, "__proto__").rerank.factors.multiplier, 1, "a redefined __proto__ is not an item");
      } finally {
        if (protoDesc) Object.defineProperty(Object.prototype, "__proto__", protoDesc);
        else delete Object.prototype.__proto__;
      }
    }
    // A getter of the caller's that defines such a key while the items are read: the
    // items are read again, each key asked.
    const sneaky = { ...items };
    Object.defineProperty(sneaky, "y", {
      enumerable: true,
      get() {
        Object.defineProperty(Object.prototype, "planted", { value: { name: "graph cache" }, configurable: true });
        return items.y;
      },
    });
    try {
      const out = p.run({ query, lists: [...lists, { name: "c", ids: ["planted"] }, big], items: sneaky, now });
      eq(explainOf(out, "planted").rerank.factors.multiplier, 1, "a key defined on Object.prototype during the call is not an item");
    } finally {
      delete Object.prototype.planted;
    }
    // And with a standard Object.prototype, in a call of 128 ids or more: the ids that
    // name its properties find no item (`__proto__` not even counted: 306 list entries
    // and 2 items within maxTotalEntries 308), an own entry under such a name is one.
    const large = [...lists, big];
    eq(explainOf(p.run({ query, lists: large, items, now }), "toString").rerank.factors.multiplier, 1, "toString, large call");
    eq(new lib.Pipeline({ ...cfg, limits: { maxTotalEntries: 308 } }).run({ query, lists: large, items, now }).results.length, 100, "__proto__ not counted");
    throwsScoreError(lib, () => new lib.Pipeline({ ...cfg, limits: { maxTotalEntries: 307 } }).run({ query, lists: large, items, now }), "INPUT_TOO_LARGE", "items");
    // Near the limit the items are counted before they are read, each looked up once.
    let gets = 0;
    const counted = { ...items };
    Object.defineProperty(counted, "x", { enumerable: true, get: () => (gets++, items.x) });
    new lib.Pipeline({ ...cfg, limits: { maxTotalEntries: 8 } }).run({ query, lists, items: counted, now });
    eq(gets, 1, "x's entry looked up once near the limit");
    // A time that does not parse is named with its text (the module's walk of a refused
    // input, `run_ref`'s checks).
    const badTime = throwsScoreError(lib, () => p.run({ query, lists, items: { ...items, x: { modifiedAt: "yesterday" } }, now }), "INVALID_TIMESTAMP", "items.x.modifiedAt");
    eq(badTime.message, 'cannot parse "yesterday" as an ISO 8601 date or date-time');
    const badNow = throwsScoreError(lib, () => p.run({ query, lists, items, now: "garbage" }), "INVALID_TIMESTAMP", "now");
    eq(badNow.message, 'cannot parse "garbage" as an ISO 8601 date or date-time');
    // Only the documented forms: no whitespace around the text (ASCII or not), no leap
    // second, in an item's time, in `now` and in a multi-query timestamp alike.
    for (const t of [" 2026-01-01", "2026-01-01\n", "\u30002026-01-01\u3000", "2026-01-01T00:00Z\u2028", "2026-06-15T10:20:60Z", "2016-12-31T23:59:60Z"]) {
      throwsScoreError(lib, () => p.run({ query, lists, items: { ...items, x: { modifiedAt: t } }, now }), "INVALID_TIMESTAMP", "items.x.modifiedAt");
      throwsScoreError(lib, () => p.run({ query, lists, items, now: t }), "INVALID_TIMESTAMP", "now");
      throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1, timestamp: t }]]), "INVALID_TIMESTAMP", "queries[0][0].timestamp");
    }
    p.run({ query, lists, items: { ...items, x: { modifiedAt: "2016-12-31T23:59:59.999Z" } }, now });
    // At any size every item is looked up before any is read (js/core/pipeline-input.js
    // `encodeInput`): a lookup that throws (a Proxy's trap, a getter of the record's) is
    // the error, before the fault of an item the lists name earlier, and the items'
    // getters run after every lookup.
    const trap = new Error("the trap for y");
    const order = [];
    const trapped = new Proxy(
      { x: { get name() { order.push("x.name"); return 5; } }, y: {} },
      { get: (t, k) => { order.push(`items.${String(k)}`); if (k === "y") throw trap; return t[k]; } },
    );
    let thrown;
    try {
      p.run({ query, lists, items: trapped, now });
    } catch (e) {
      thrown = e;
    }
    assert(thrown === trap, `the trap's error, got ${thrown}`);
    eq(order.includes("x.name"), false, "no item read before every lookup");
    const logged = [];
    const logging = new Proxy({ x: { get name() { logged.push("x.name"); return "graph"; } }, y: { get summary() { logged.push("y.summary"); return "cache"; } } }, { get: (t, k) => { if (typeof k === "string" && !k.startsWith("__")) logged.push(`items.${k}`); return t[k]; } });
    p.run({ query, lists, items: logging, now });
    eq(logged.slice(-2), ["x.name", "y.summary"], "the fields read after the lookups");
    assert(logged.indexOf("items.y") < logged.indexOf("x.name"), `the lookups first: ${logged}`);
    const ownToString = { ...items, toString: { name: "graph cache" } };
    assert(explainOf(p.run({ query, lists: large, items: ownToString, now }), "toString").rerank.factors.multiplier > 1, "an own toString entry is read, large call");
    assert(explainOf(p.run({ query, lists, items: ownToString, now }), "toString").rerank.factors.multiplier > 1, "an own toString entry is read, small call");
  });

  test("Pipeline: a getter that runs a pipeline while its input is read gets tables of its own", () => {
    // `run` encodes an input's item tables into typed arrays kept from call to call
    // (js/wire/input.js `Scratch`); a call made from the caller's getter while the outer call
    // holds them must not write into them, and a throw must give them back.
    const day = 86400000;
    const now = 1.7e12;
    const p = new lib.Pipeline({ minConfidence: 0, topK: 30, topN: 30, recency: { mode: "step" } });
    // 40 + 28 list entries in the outer call, 70 in the inner: their docs tables are
    // leased too (64 entries or more).
    const ids = (pre) => Array.from({ length: pre === "o" ? 40 : 72 }, (_, i) => `${pre}${i}`);
    const itemsOf = (pre, shift) => Object.fromEntries(ids(pre).map((id, i) => [id, { modifiedAt: now - ((i * 5 + shift) % 40) * day }]));
    const outer = { lists: [{ name: "a", ids: ids("o") }, { name: "b", ids: ids("o").reverse().slice(0, 28) }], items: itemsOf("o", 0), now };
    const inner = { lists: [{ name: "c", ids: ids("in").slice(2) }], items: itemsOf("in", 3), now };
    const want = p.run(outer);
    const wantInner = p.run(inner);
    assert(new Set(want.results.map((r) => r.score)).size > 2, "the items' dates change the scores");
    let got;
    const items = { ...outer.items };
    Object.defineProperty(items, "o4", {
      enumerable: true,
      get() {
        got = p.run(inner);
        return outer.items.o4;
      },
    });
    eq(p.run({ ...outer, items }), want, "the outer call, its tables untouched");
    eq(got, wantInner, "the inner call");
    const boom = { ...outer.items, get o6() { throw new RangeError("boom"); } };
    let caught;
    try {
      p.run({ ...outer, items: boom });
    } catch (e) {
      caught = e;
    }
    assert(caught instanceof RangeError, `the getter's error: ${caught}`);
    eq(p.run(outer), want, "after a throw");
    eq(p.run(inner), wantInner);
  });

  test("Items: a corpus's items read once give every run the output and the errors of the same items given as an object", () => {
    // Generated corpora: every item field, dates as numbers, ISO strings and Dates, items
    // given null, ids of no item, keys in various orders; pipelines reading every field.
    const day = 86400000;
    const now = Date.UTC(2026, 0, 1);
    const words = ["graph", "cache", "token", "router", "Über", "für", "🚀", "auth", ""];
    const textOf = (i, n) => Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ");
    const corpus = (size, seed) => {
      const items = {};
      for (let i = 0; i < size; i++) {
        const id = i % 9 === 0 ? `dök-${i}` : `doc-${i}`;
        if (seed !== 2 && (i + seed) % 11 === 5) {
          items[id] = null;
          continue;
        }
        const m = {};
        // The fields in an order of the item's own (the strings' order crosses).
        const fields = [
          () => (i % 4 !== 3 ? (m.name = i % 6 === 0 ? "graphCacheToken" : textOf(i + seed, 2)) : 0),
          () => (i % 3 === 0 ? (m.type = ["class", "function", "Modul"][i % 3]) : 0),
          () => (i % 2 === 0 ? (m.summary = textOf(i, 6)) : 0),
          () => (i % 5 === 1 ? (m.content = textOf(i, 3)) : 0),
          () => {
            const k = (i + seed) % 4;
            if (k === 0) m.modifiedAt = now - (i % 40) * day;
            else if (k === 1) m.modifiedAt = new Date(now - (i % 9) * day).toISOString();
            else if (k === 2) m.modifiedAt = new Date(now - (i % 20) * day);
          },
          () => (i % 3 === 1 ? (m.fiscalYear = 2019 + (i % 7)) : 0),
          // Every item has a score at seed 2 (the cross-encoder then reranks).
          () => (i % 2 === 1 || seed === 2 ? (m.crossEncoderScore = ((i * 37) % 101) / 10 - 3) : 0),
        ];
        for (let f = 0; f < fields.length; f++) fields[(f + i + seed) % fields.length]();
        items[id] = m;
      }
      return items;
    };
    const configs = [
      { minConfidence: 0, topK: 40, topN: 40 },
      { minConfidence: 0, explain: true, rerank: { method: "heuristic" }, topK: 12 },
      { minConfidence: 0, explain: true, recency: { mode: "fiscal_year" }, rerank: { method: "cross_encoder", candidateLimit: 15 } },
      { minConfidence: 0, recency: { mode: "step" }, rerank: { method: "heuristic", candidateLimit: 5 } },
    ];
    const ran = { calls: 0, errors: 0 };
    for (const size of [6, 30, 300]) {
      for (let seed = 0; seed < 3; seed++) {
        const items = corpus(size, seed);
        const ids = Object.keys(items);
        const pick = (k) => ids.filter((_, i) => (i * k + seed) % 7 < 4);
        const lists = [
          { name: "semantic", ids: pick(3) },
          { name: "keyword", ids: [...pick(5).reverse(), ...(seed === 2 ? [] : ["no-item", "no-item-2"])] },
          { name: "graph", ids: [...pick(2), ...(seed === 2 ? [] : ["no-item"])] },
        ];
        const held = new lib.Items(items);
        eq(held.size, ids.length, "size");
        const asMap = new lib.Items(new Map(Object.entries(items)));
        for (const cfg of configs) {
          const p = new lib.Pipeline(cfg);
          const input = { query: "graph cache token für Über", lists, now };
          // The output, or the error (the cross-encoder refuses a candidate without a score).
          const outcomeOf = (items) => {
            try {
              return p.run({ ...input, items });
            } catch (e) {
              assert(e instanceof lib.ScoreError, String(e));
              return { code: e.code, field: e.field, message: e.message };
            }
          };
          const want = outcomeOf(items);
          if (want.code === undefined) assert(want.results.length > 0, "results");
          else ran.errors++;
          ran.calls++;
          // Bit for bit: every number as its bits (JSON text alone says -0 as 0).
          const bits = (o) => JSON.stringify(o, (k, v) => (typeof v === "number" ? hexOf(v) : v));
          eq(bits(outcomeOf(held)), bits(want), `size ${size}, seed ${seed}, ${JSON.stringify(cfg)}`);
          eq(outcomeOf(asMap), want, "from a Map");
          // The same Items again, and lists without any of its ids.
          eq(outcomeOf(held), want, "a second call");
          if (cfg.rerank?.method !== "cross_encoder") eq(p.run({ query: "x", lists: [{ name: "s", ids: ["no-item", "no-item-2"] }], items: held }), p.run({ query: "x", lists: [{ name: "s", ids: ["no-item", "no-item-2"] }] }), "no item listed");
          p.free();
        }
      }
    }
    assert(ran.errors > 0 && ran.errors < ran.calls / 4, `errors compared too: ${JSON.stringify(ran)}`);
    // A copy: a change to the object later is not seen.
    const source = { a: { modifiedAt: now - 2 * day }, b: { modifiedAt: now - 20 * day } };
    const held = new lib.Items(source);
    const p = new lib.Pipeline({ minConfidence: 0 });
    const input = { lists: [{ name: "s", ids: ["b", "a"] }], now };
    const want = p.run({ ...input, items: source });
    source.a.modifiedAt = now - 300 * day;
    delete source.b;
    eq(p.run({ ...input, items: held }), want, "the items as they were");
    eq(new lib.Items(held).size, 2, "an Items of an Items holds the same");
    // A list's id that is not a string, whether or not an item's key came before it.
    throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a", 5] }], items: held }), "INVALID_TYPE", "lists[0].ids[1]");
    throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["zz", null] }], items: held }), "INVALID_TYPE", "lists[0].ids[1]");
    eq(new lib.Items({}).size, 0);
    eq(new lib.Items({ a: undefined, b: null }).size, 1, "an undefined value is no item");
    // Every entry `run` would find by looking an id up: a record's own keys, enumerable or
    // not; not an inherited one.
    const hidden = Object.create({ inherited: { modifiedAt: now - day } });
    Object.defineProperty(hidden, "quiet", { value: { modifiedAt: now - 3 * day }, enumerable: false });
    hidden.loud = { modifiedAt: now - 40 * day };
    const hiddenIn = { lists: [{ name: "s", ids: ["loud", "quiet", "inherited"] }], now };
    eq(p.run({ ...hiddenIn, items: new lib.Items(hidden) }), p.run({ ...hiddenIn, items: hidden }), "a record's own keys, enumerable or not");
    eq(new lib.Items(hidden).size, 2);

    // Faults of kind and key are found when the Items are made, with the errors `run`
    // gives (code, field and message); faults of value when a call lists the item.
    const same = (items, code, field) => {
      const e1 = throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: Object.keys(items) }], items }), code, field);
      const e2 = throwsScoreError(lib, () => new lib.Items(items), code, field);
      eq(e2.message, e1.message, "message");
    };
    same({ a: { name: 5 } }, "INVALID_TYPE", "items.a.name");
    same({ a: {}, b: { nmae: "x" } }, "UNKNOWN_FIELD", "items.b.nmae");
    same({ a: 7 }, "INVALID_TYPE", "items.a");
    same({ a: new Map() }, "INVALID_TYPE", "items.a");
    same({ "x.y": { fiscalYear: "2024" } }, "INVALID_TYPE", 'items["x.y"].fiscalYear');
    same({ a: { modifiedAt: true } }, "INVALID_TYPE", "items.a.modifiedAt");
    // Not items at all: `run`'s error for the same value as `items`.
    for (const notItems of [5, "x", [{ name: "x" }], new lib.Pipeline()]) {
      const e1 = throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a"] }], items: notItems }), "INVALID_TYPE", "items");
      const e2 = throwsScoreError(lib, () => new lib.Items(notItems), "INVALID_TYPE", "items");
      eq(e2.message, e1.message, "message");
    }
    throwsScoreError(lib, () => new lib.Items(null), "INVALID_TYPE", "items");
    throwsScoreError(lib, () => new lib.Items(), "INVALID_TYPE", "items");
    // A Map's keys as Map.prototype.keys gives them (a `keys` of its own not called), the
    // ones that are not strings left out, as no list id finds them.
    const own = new Map([["a", { modifiedAt: now - day }], [1, { modifiedAt: now }], ["b", null]]);
    own.keys = function* () {
      yield "b";
    };
    const ownIn = { lists: [{ name: "s", ids: ["b", "a"] }], now };
    eq(p.run({ ...ownIn, items: new lib.Items(own) }), p.run({ ...ownIn, items: own }), "a Map with a keys of its own");
    eq(new lib.Items(own).size, 2, "the key 1 is no id");
    for (const bad of [{ a: { modifiedAt: "yesterday" } }, { a: { fiscalYear: 2024.5 } }, { a: { crossEncoderScore: NaN } }, { a: { modifiedAt: Infinity } }]) {
      const cfg = { recency: { mode: "fiscal_year" }, rerank: { method: "cross_encoder" } };
      const q = new lib.Pipeline(cfg);
      const heldBad = new lib.Items(bad);
      let want;
      try {
        q.run({ lists: [{ name: "s", ids: ["a"] }], items: bad, now });
      } catch (e) {
        want = e;
      }
      assert(want instanceof lib.ScoreError, `a fault of value: ${JSON.stringify(bad)} ${want}`);
      const got = throwsScoreError(lib, () => q.run({ lists: [{ name: "s", ids: ["a"] }], items: heldBad, now }), want.code, want.field);
      eq(got.message, want.message);
      // Not listed: no error, as for an object.
      p.run({ lists: [{ name: "s", ids: ["b"] }], items: heldBad, now });
      q.free();
    }
    // The pipeline's own limits hold at each call: a text over its maxTextBytes is refused
    // where the item is listed, as for an object.
    const long = { a: { summary: "x".repeat(300) } };
    const small = new lib.Pipeline({ limits: { maxTextBytes: 256 }, rerank: { method: "heuristic" } });
    const e1 = throwsScoreError(lib, () => small.run({ lists: [{ name: "s", ids: ["a"] }], items: long }), "INPUT_TOO_LARGE", "items.a.summary");
    const e2 = throwsScoreError(lib, () => small.run({ lists: [{ name: "s", ids: ["a"] }], items: new lib.Items(long) }), "INPUT_TOO_LARGE", "items.a.summary");
    eq(e2.message, e1.message);
    // Each held text checked by its own length, in the caller's key order (the summary
    // first here, within the limit; then the name, over it).
    const order = { a: { summary: "s", name: "n".repeat(300) } };
    const e3 = throwsScoreError(lib, () => small.run({ lists: [{ name: "s", ids: ["a"] }], items: order }), "INPUT_TOO_LARGE", "items.a.name");
    eq(throwsScoreError(lib, () => small.run({ lists: [{ name: "s", ids: ["a"] }], items: new lib.Items(order) }), "INPUT_TOO_LARGE", "items.a.name").message, e3.message);
    small.free();
    // Texts held back (more candidates than the reranker reads) over maxTextBytes in UTF-8
    // alone (100 units, 200 bytes): the call sends them after all, and the module refuses.
    const wide = { a: { summary: "é".repeat(100) }, b: {}, c: {}, d: {} };
    const few = new lib.Pipeline({ topK: 2, topN: 2, limits: { maxTextBytes: 150 }, rerank: { method: "heuristic" } });
    const wideIn = { query: "é", lists: [{ name: "s", ids: ["b", "a", "c", "d"] }] };
    const w1 = throwsScoreError(lib, () => few.run({ ...wideIn, items: wide }), "INPUT_TOO_LARGE", "items.a.summary");
    const w2 = throwsScoreError(lib, () => few.run({ ...wideIn, items: new lib.Items(wide) }), "INPUT_TOO_LARGE", "items.a.summary");
    eq(w2.message, w1.message);
    few.free();
    // `size` read on something else.
    throwsScoreError(lib, () => Object.getOwnPropertyDescriptor(lib.Items.prototype, "size").get.call({}), "INVALID_TYPE", "this");
    eq(lib.Items.name, "Items");

    // A call made by the caller's code while another call reads its lists (a Proxy's
    // trap) with the same Items numbers its documents apart: both get their own output.
    const big = corpus(60, 1);
    const heldBig = new lib.Items(big);
    const q = new lib.Pipeline({ minConfidence: 0, topK: 60, topN: 60, recency: { mode: "step" } });
    const bigIds = Object.keys(big);
    const outerIn = { lists: [{ name: "a", ids: bigIds.slice(0, 40) }, { name: "b", ids: bigIds.slice(20).reverse() }], now };
    const innerIn = { lists: [{ name: "c", ids: bigIds.slice(10, 50).reverse() }], now };
    const wantOuter = q.run({ ...outerIn, items: big });
    const wantInner = q.run({ ...innerIn, items: big });
    let inner;
    const trapped = new Proxy(outerIn.lists[1].ids, {
      get(target, key, receiver) {
        if (key === "7" && inner === undefined) inner = q.run({ ...innerIn, items: heldBig });
        return Reflect.get(target, key, receiver);
      },
    });
    eq(q.run({ lists: [outerIn.lists[0], { name: "b", ids: trapped }], now, items: heldBig }), wantOuter, "the outer call");
    eq(inner, wantInner, "the inner call");
    eq(q.run({ ...outerIn, items: heldBig }), wantOuter, "after");
    q.free();
    p.free();
  });

  test("Pipeline: topN prefix and explain off", () => {
    const run = (n) => new lib.Pipeline({ topK: 20, topN: n, minConfidence: 0, explain: false }).run(seedInput()).results;
    const five = run(5);
    const three = run(3);
    eq(five.slice(0, 3), three);
    assert(five.every((r) => r.explain === undefined), "no explain");
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

  test("numbers in error messages print as String(v) prints them (an exponent outside 1e-6 <= |v| < 1e21; Infinity, NaN)", () => {
    const tiny = throwsScoreError(lib, () => lib.rrf([["a"]], { k: 1e-320 }), "INVALID_K");
    assert(tiny.message.includes("got 1e-320"), tiny.message);
    for (const k of [1e-320, 5e-324, -1e300, -Number.MAX_VALUE, 1.5e-7, 1e-7, 0.000001, 0.5, -0.1, -0, -2e21, -123456789012345680000, Infinity, -Infinity, NaN]) {
      const e = throwsScoreError(lib, () => lib.rrf([["a"]], { k }), "INVALID_K");
      assert(e.message.endsWith(`, got ${String(k)}`), `${String(k)}: ${e.message}`);
    }
    const bands = throwsScoreError(lib, () => lib.classifyBand(0.5, { highFloor: 1e-300, degradedFloor: 0.5 }), "INVALID_BANDS");
    assert(bands.message.includes(`degradedFloor ${String(0.5)} exceeds highFloor ${String(1e-300)}`), bands.message);
    assert(bands.message.includes("highFloor 1e-300"), bands.message);
    const high = throwsScoreError(lib, () => lib.classifyBand(0.5, { highFloor: 2e21 }), "INVALID_BANDS");
    assert(high.message.endsWith(`got ${String(2e21)}`) && String(2e21) === "2e+21", high.message);
    if (lib.fuseRuns) {
      // The lab's messages too.
      const runs = [{ q: { a: 1, b: 0.5 } }, { q: { a: 0.3, c: 0.2 } }];
      const ends = (e, v) => assert(e.message.endsWith(`got ${String(v)}`), `${String(v)}: ${e.message}`);
      ends(throwsScoreError(lib, () => lib.fuseRuns(runs, { method: "rrf", params: { k: Infinity } }), "INVALID_CONFIG", "options.params.k"), Infinity);
      ends(throwsScoreError(lib, () => lib.fuseRuns(runs, { method: "rrf", params: { k: -1e-320 } }), "INVALID_CONFIG", "options.params.k"), -1e-320);
      ends(throwsScoreError(lib, () => lib.fuseRuns(runs, { method: "wsum", weights: [Infinity, 1] }), "INVALID_WEIGHT", "options.weights[0]"), Infinity);
      ends(throwsScoreError(lib, () => lib.optimizeFusion({ q: { a: 1 } }, runs, { method: "wsum", step: Infinity }), "INVALID_CONFIG", "options.step"), Infinity);
      ends(throwsScoreError(lib, () => lib.proposeBands([0.1, 0.9, 0.5, 0.4], [0, 1, 1, 0], { targetPrecision: -1e-300 }), "INVALID_CONFIG", "options.targetPrecision"), -1e-300);
      ends(throwsScoreError(lib, () => lib.fitPlatt([0.1, 0.9], [2e21, 1]), "INVALID_LABELS", "labels[0]"), 2e21);
      ends(throwsScoreError(lib, () => lib.calibrationError([-1e-7, 0.5], [0, 1]), "OUT_OF_RANGE", "probabilities[0]"), -1e-7);
      ends(throwsScoreError(lib, () => lib.fitQueryConfidence({ q: { a: 1 } }, runs, { l2: Infinity }), "INVALID_CONFIG", "options.l2"), Infinity);
    }
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
    eq(throwsScoreError(lib, () => new lib.Pipeline({ calibration: { a: -2, b: 1 } }), "UNKNOWN_FIELD", "config.calibration.a").message, "unknown field `a`, expected `threshold` or `steepness`");
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: { steepness: 0 } }), "INVALID_CALIBRATION", "config.calibration.steepness");
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: { threshold: "0.02" } }), "INVALID_TYPE", "config.calibration");
    if (lib.applyCalibration) {
      eq(Array.from(lib.applyCalibration([0.01, 0.05], { threshold: 0.02, steepness: 100 }), hexOf), Array.from(lib.applyCalibration([0.01, 0.05], { method: "sigmoid", threshold: 0.02, steepness: 100 }), hexOf));
      throwsScoreError(lib, () => lib.applyCalibration([0.5], { x: [0, 1], y: [0, 1] }), "UNKNOWN_FIELD", "calibration.x");
    }
  });

  // Each of these failed to fail a mutant of the package's JavaScript (a session's
  // mutation testing): the error's path named the wrong element, a boundary was checked
  // on one side only, a short non-ASCII string came back decoded wrong, a fused object
  // was sorted again, an inherited option was read. Every runtime runs them (the Node
  // tests that caught some of them run in Node alone).
  test("each element's type error names that element, in every function and both entries", () => {
    throwsScoreError(lib, () => lib.rrf([["a", "b"], ["c", "d", 7]]), "INVALID_TYPE", "lists[1][2]");
    const p = new lib.Pipeline();
    throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a"] }, { name: "t", ids: ["b", "c", 3] }] }), "INVALID_TYPE", "lists[1].ids[2]");
    throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a"], weight: "2" }] }), "INVALID_TYPE", "lists[0].weight");
    // A year given as a string is refused, not read as a number or ignored.
    throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a", "b"] }], items: { b: { fiscalYear: "2025" } } }), "INVALID_TYPE", "items.b.fiscalYear");
    p.free();
    throwsScoreError(lib, () => lib.rrfColumnar([0, "x"], [0, 2], 2), "INVALID_TYPE", "docs[1]");
    throwsScoreError(lib, () => lib.normalize([1, 2], 1), "INVALID_TYPE", "method");
    throwsScoreError(lib, () => lib.applyCalibration([0.5], { method: "isotonic", x: [0, "a"], y: [0, 1] }), "INVALID_TYPE", "calibration.x[1]");
    throwsScoreError(lib, () => lib.parseTrecRun(5), "INVALID_TYPE", "text");
    throwsScoreError(lib, () => lib.parseQrels(5), "INVALID_TYPE", "text");
    throwsScoreError(lib, () => lib.fitPlatt([0.1, "x"], [0, 1]), "INVALID_TYPE", "scores[1]");
    throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, "mrr"), "INVALID_TYPE", "metrics");
    throwsScoreError(lib, () => lib.optimizeFusion({ q: { z: 1 } }, [{ q: { x: 1 } }, { q: { z: 1 } }], { method: "rrf" }, 5), "INVALID_TYPE", "onProgress");
    // A handle given where an object is expected is said so, not INTERNAL.
    const run = lib.Run.fromObject({ q: { a: 1 } });
    const qrels = lib.Qrels.fromObject({ q: { a: 1 } });
    const e = throwsScoreError(lib, () => lib.Run.fromObject(run), "INVALID_TYPE", "run");
    assert(/already a Run/.test(e.message), e.message);
    throwsScoreError(lib, () => lib.Qrels.fromObject(qrels), "INVALID_TYPE", "qrels");
    run.free();
    qrels.free();
  });

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
    // The lab's: evaluate's budget (500,000) takes a run of 150,000 entries given as an
    // object, which the shared default (100,000) would refuse.
    eq(lib.defaultLimits("evaluate").maxTotalEntries, 500000);
    const big = { q: Object.fromEntries(ids.map((id, i) => [id, 150000 - i])) };
    eq(lib.evaluate({ q: { d0: 1, d9: 1 } }, big, ["mrr", "recall@10"]), { mrr: 1, "recall@10": 1 });
    throwsScoreError(lib, () => lib.evaluate({ q: { d0: 1 } }, big, ["mrr"], { limits: { maxTotalEntries: 150000 } }), "INPUT_TOO_LARGE");
  });

  test("short strings the module returns that are not ASCII come back whole (band profile names, TREC ids)", () => {
    const p = new lib.Pipeline({ minConfidence: 0, bands: { profiles: [{ name: "précis", taskClass: "code", highFloor: 0.9, degradedFloor: 0.5 }] } });
    eq(p.run({ lists: [{ name: "s", ids: ["a"] }], context: { taskClass: "code" } }).stats.bandProfile, "précis");
    eq(p.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, context: { taskClass: "code" } }).bandProfile, "précis");
    p.free();
    eq(lib.parseTrecRun("q1 Q0 dé 1 1.0 r\n"), { q1: { "dé": 1 } });
    eq(lib.parseQrels("q1 0 dé 2\n"), { q1: { "dé": 2 } });
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

  test("an enumerable key added to Object.prototype is not an option, an item or a field", () => {
    const clean = lib.rrf([["a", "b"], ["b"]], {});
    const p = new lib.Pipeline({ minConfidence: 0 });
    const input = { lists: [{ name: "l", ids: ["a", "b"] }], items: { a: { name: "A" } }, now: 0 };
    const run = p.run(input);
    for (const [key, value] of [["k", 1], ["weights", [5, 5]], ["fiscalYear", 1999], ["weight", 3]]) {
      Object.prototype[key] = value;
      try {
        eq(lib.rrf([["a", "b"], ["b"]], {}), clean, key);
        eq(p.run(input), run, key);
      } finally {
        delete Object.prototype[key];
      }
    }
    p.free();
  });

  // What a mutation review of the binding crates (wasm/*) found untested: checks that
  // only the module makes (UTF-8 bytes, which the package's JavaScript bounds by UTF-16
  // units first), decoders of the pipeline's own module, the JSON parser's edges.
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

  test("a text refused in JavaScript before the module sees it is said in its UTF-8 bytes, as the module says it", () => {
    // 300 units, 600 bytes: over the limit by its units already. The JavaScript's check
    // said 300 (its units) where the module, counting bytes, says 600.
    const wide = "é".repeat(300);
    const says = (e, n, limit) => assert(e.message.includes(`is ${n}, above the limit of ${limit}`), e.message);
    const p = new lib.Pipeline({ limits: { maxTextBytes: 256 }, rerank: { method: "heuristic" } });
    says(throwsScoreError(lib, () => p.run({ query: wide, lists: [{ name: "s", ids: ["a"] }] }), "INPUT_TOO_LARGE", "query"), 600, 256);
    const items = { a: { summary: wide } };
    says(throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a"] }], items }), "INPUT_TOO_LARGE", "items.a.summary"), 600, 256);
    says(throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a"] }], items: new lib.Items(items) }), "INPUT_TOO_LARGE", "items.a.summary"), 600, 256);
    p.free();
    says(throwsScoreError(lib, () => lib.rerank(wide, [{ id: "a", score: 1 }], { limits: { maxTextBytes: 256 } }), "INPUT_TOO_LARGE", "query"), 600, 256);
    says(throwsScoreError(lib, () => lib.normalize([1], "é".repeat(20), { limits: { maxTextBytes: 16 } }), "INPUT_TOO_LARGE", "method"), 40, 16);
    if (lib.parseTrecRun) says(throwsScoreError(lib, () => lib.parseTrecRun(`q1 Q0 ${"é".repeat(60)} 1 1.0 r\n`, { limits: { maxTotalTextBytes: 64 } }), "INPUT_TOO_LARGE", "text"), 135, 64);
  });

  test("rrfColumnar's limits: nDocs against maxColumnarEntries, the weights' length named in options", () => {
    eq(lib.rrfColumnar([0], [0, 1], 4, { limits: { maxColumnarEntries: 4 } }).scores[0], 1 / 61);
    throwsScoreError(lib, () => lib.rrfColumnar([0], [0, 1], 5, { limits: { maxColumnarEntries: 4 } }), "INPUT_TOO_LARGE", "nDocs");
    throwsScoreError(lib, () => lib.rrfColumnar([0], [0, 1], 1, { weights: [1, 1, 1], limits: { maxListLength: 2 } }), "INPUT_TOO_LARGE", "options.weights");
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

  test("applyCalibration refuses a score that is not finite, whatever the calibration", () => {
    throwsScoreError(lib, () => lib.applyCalibration([0.5, NaN], { method: "platt", a: 1, b: 0 }), "NON_FINITE_SCORE", "scores[1]");
    throwsScoreError(lib, () => lib.applyCalibration([Infinity], { method: "sigmoid", threshold: 0.5, steepness: 8 }), "NON_FINITE_SCORE", "scores[0]");
    throwsScoreError(lib, () => lib.applyCalibration([0.2, -Infinity], { method: "isotonic", x: [0, 1], y: [0, 1] }), "NON_FINITE_SCORE", "scores[1]");
  });

  test("fuseMultiQuery's options out of range, finite or not, are INVALID_CONFIG (similarityThreshold was NON_FINITE_SCORE)", () => {
    const hits = [[{ id: "a", score: 1 }]];
    for (const [options, field, message] of [
      [{ similarityThreshold: NaN }, "similarityThreshold", "must be a finite number, got NaN"],
      [{ similarityThreshold: -Infinity }, "similarityThreshold", "must be a finite number, got -Infinity"],
      [{ multiQueryBoost: NaN }, "multiQueryBoost", "must be between 0 and 1, got NaN"],
    ]) {
      const e = throwsScoreError(lib, () => lib.fuseMultiQuery(hits, options), "INVALID_CONFIG", `options.${field}`);
      eq(e.message, message);
    }
    // A hit's score that is not finite stays NON_FINITE_SCORE.
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: Infinity }]]), "NON_FINITE_SCORE", "queries[0][0].score");
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

  test("a calibration's parameter that is not finite is INVALID_CALIBRATION (sigmoid, Platt, isotonic), in a pipeline, calibrate and applyCalibration", () => {
    // The calibration's fault, as its other faults are; NON_FINITE_SCORE is for the scores
    // it is applied to (above). Platt's and isotonic's were NON_FINITE_SCORE until the
    // thirty-ninth session.
    const faults = [
      [{ method: "sigmoid", threshold: NaN, steepness: 8 }, "threshold", "must be a finite number, got NaN"],
      [{ method: "sigmoid", threshold: 0.5, steepness: Infinity }, "steepness", "must be a finite number > 0, got Infinity"],
      [{ method: "platt", a: -Infinity, b: 0 }, "a", "must be a finite number, got -Infinity"],
      [{ method: "platt", a: -1, b: NaN }, "b", "must be a finite number, got NaN"],
      [{ method: "isotonic", x: [0, NaN], y: [0, 1] }, "x[1]", "must be a finite number, got NaN"],
      [{ method: "isotonic", x: [0, 1, 2], y: [0, 0.5, Infinity] }, "y[2]", "must be a finite number, got Infinity"],
      // A knot that is finite but out of order: the same code, as before.
      [{ method: "isotonic", x: [1, 0], y: [0, 1] }, "x[1]", "x must be strictly increasing"],
      // A y out of range with its value (the message said "y must be within [0, 1]").
      [{ method: "isotonic", x: [0, 1], y: [0, 1.5] }, "y[1]", "must be within [0, 1], got 1.5"],
    ];
    for (const [calibration, field, message] of faults) {
      for (const [prefix, f] of [
        ["config.calibration.", () => new lib.Pipeline({ calibration })],
        ["calibration.", () => lib.applyCalibration([0.5], calibration)],
      ]) {
        const e = throwsScoreError(lib, f, "INVALID_CALIBRATION", prefix + field);
        eq(e.message, message);
      }
      if (calibration.method === "sigmoid") {
        const e = throwsScoreError(lib, () => lib.calibrate([0.5], { threshold: calibration.threshold, steepness: calibration.steepness }), "INVALID_CALIBRATION", `options.${field}`);
        eq(e.message, message);
      }
    }
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

  test("an items entry given null is an item with no fields", () => {
    const p = new lib.Pipeline({ minConfidence: 0, limits: { maxTotalEntries: 2 } });
    const lists = [{ name: "s", ids: ["a"] }];
    eq(p.run({ lists, items: { a: null } }), p.run({ lists, items: { a: {} } }));
    eq(p.run({ lists, items: new Map([["a", null]]) }), p.run({ lists, items: { a: {} } }));
    // It is counted as an item: one list entry and one item fill a budget of 2.
    throwsScoreError(lib, () => p.run({ lists: [{ name: "s", ids: ["a", "b"] }], items: { a: null } }), "INPUT_TOO_LARGE", "items");
    p.free();
  });

  test("errors are ScoreError with code and field; the module stays usable", () => {
    throwsScoreError(lib, () => new lib.Pipeline({ topN: 0 }), "INVALID_TOP_N", "config.topN");
    eq(throwsScoreError(lib, () => new lib.Pipeline({ topN: 11, topK: 10 }), "INVALID_TOP_N", "config.topN").message, "topN must satisfy 1 <= topN <= topK = 10, got 11");
    // A topK below the default topN: the message says where the 5 came from.
    eq(throwsScoreError(lib, () => new lib.Pipeline({ topK: 3 }), "INVALID_TOP_N", "config.topN").message, "topN must satisfy 1 <= topN <= topK = 3, got 5 (topN is 5 when not given)");
    throwsScoreError(lib, () => new lib.Pipeline({ topk: 3 }), "UNKNOWN_FIELD", "config.topk");
    throwsScoreError(lib, () => new lib.Pipeline({ topK: "ten" }), "INVALID_TYPE");
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: { method: "sigmoid", steepness: 0 } }), "INVALID_CALIBRATION", "config.calibration.steepness");
    throwsScoreError(lib, () => new lib.Pipeline({ bands: { highFloor: 0.5, degradedFloor: 0.6 } }), "INVALID_BANDS", "config.bands.degradedFloor");
    throwsScoreError(lib, () => new lib.Pipeline({ normalization: { method: "minmax" } }), "UNKNOWN_METHOD");
    const p = new lib.Pipeline();
    const bad = seedInput();
    bad.lists[1].scores = [1, NaN, 0, 0];
    throwsScoreError(lib, () => p.run(bad), "NON_FINITE_SCORE", "lists[1].scores[1]");
    const short = seedInput();
    short.lists[1].scores = [1];
    throwsScoreError(lib, () => p.run(short), "LENGTH_MISMATCH", "lists[1].scores");
    const dup = seedInput();
    dup.lists.push({ name: "semantic", ids: [] });
    throwsScoreError(lib, () => p.run(dup), "DUPLICATE_ID", "lists[2].name");
    const noNow = seedInput();
    delete noNow.now;
    throwsScoreError(lib, () => p.run(noNow), "INVALID_TIMESTAMP", "now");
    throwsScoreError(lib, () => lib.rrf([["a"]], { k: 0 }), "INVALID_K", "options.k");
    throwsScoreError(lib, () => lib.rrf([["a"], ["b"]], { weights: [1] }), "LENGTH_MISMATCH", "options.weights");
    throwsScoreError(lib, () => lib.rrf("nope"), "INVALID_TYPE");
    throwsScoreError(lib, () => lib.calibrate([0.1, NaN]), "NON_FINITE_SCORE", "scores[1]");
    throwsScoreError(lib, () => lib.calibrate([0.1, "x"]), "INVALID_TYPE", "scores[1]");
    throwsScoreError(lib, () => lib.calibrate({}), "INVALID_TYPE", "scores");
    throwsScoreError(lib, () => lib.normalize([1], "minmax"), "UNKNOWN_METHOD", "method");
    throwsScoreError(lib, () => lib.normalize([-1], "max"), "NEGATIVE_VALUE", "scores[0]");
    throwsScoreError(lib, () => lib.classifyBand(NaN), "NON_FINITE_SCORE", "score");
    throwsScoreError(lib, () => lib.classifyBand(0.5, { highFloor: 2 }), "INVALID_BANDS", "options.highFloor");
    throwsScoreError(lib, () => lib.queryConfidence([1.5]), "OUT_OF_RANGE", "scores[0]");
    // Bands classify confidences: a raw score above 1 is refused, not called a hit.
    throwsScoreError(lib, () => lib.classifyBand(1.5), "OUT_OF_RANGE", "score");
    throwsScoreError(lib, () => lib.classifyBand(-1.5), "OUT_OF_RANGE", "score");
    // A negative cosine similarity is a miss (seed 002).
    eq(lib.classifyBand(-0.1), { kind: "miss" }, "a negative similarity is a miss");
    eq(lib.classifyBand(1), { kind: "hit", score: 1 });
    // The reranker needs a query, as the pipeline's does.
    throwsScoreError(lib, () => lib.rerank(" ", [{ id: "a", score: 1, name: "n" }]), "EMPTY_QUERY", "query");
    throwsScoreError(lib, () => new lib.Pipeline().runColumnar({ doc: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 }), "UNKNOWN_FIELD", "doc");
    for (const nDocs of [2.5, -1, 2 ** 32]) {
      throwsScoreError(lib, () => new lib.Pipeline().runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs }), "INVALID_TYPE", "nDocs");
      throwsScoreError(lib, () => lib.rrfColumnar(new Uint32Array([0]), new Uint32Array([0, 1]), nDocs), "INVALID_TYPE", "nDocs");
    }
    throwsScoreError(lib, () => lib.rerank("q", [{ id: "a", score: 1, name: "n" }, { id: "a", score: 1, name: "m" }]), "DUPLICATE_ID", "candidates[1].id");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 0.9 }]], { multiQueryBoost: 3 }), "INVALID_CONFIG", "options.multiQueryBoost");
    throwsScoreError(lib, () => lib.rrfColumnar(new Uint32Array([0, 7]), new Uint32Array([0, 2]), 3), "INDEX_OUT_OF_RANGE", "docs[1]");
    // Where the index is in the flat `docs` (the second list's second entry is docs[3]).
    throwsScoreError(lib, () => lib.rrfColumnar(new Uint32Array([0, 1, 1, 7]), new Uint32Array([0, 2, 4]), 2), "INDEX_OUT_OF_RANGE", "docs[3]");
    throwsScoreError(lib, () => p.runColumnar({ docs: new Uint32Array([0, 1, 1, 7]), offsets: new Uint32Array([0, 2, 4]), nDocs: 2 }), "INDEX_OUT_OF_RANGE", "docs[3]");
    // A list too long is named as the list, `offsets[i]` (list i is
    // docs[offsets[i]..offsets[i+1]]), not `docs[i]`, which is element i (here docs[1], a
    // document index of list 0): it was `docs[1]` for list 1.
    {
      const docs = new Uint32Array([0, 1, 0, 1, 2]);
      const offsets = new Uint32Array([0, 2, 5]);
      const message = "the list length is 3, above the limit of 2 (limits.maxListLength)";
      eq(throwsScoreError(lib, () => lib.rrfColumnar(docs, offsets, 3, { limits: { maxListLength: 2 } }), "INPUT_TOO_LARGE", "offsets[1]").message, message);
      const short = new lib.Pipeline({ limits: { maxListLength: 2 } });
      try {
        eq(throwsScoreError(lib, () => short.runColumnar({ docs, offsets, nDocs: 3 }), "INPUT_TOO_LARGE", "offsets[1]").message, message);
        throwsScoreError(lib, () => short.runColumnar({ docs, offsets: new Uint32Array([0, 3, 5]), nDocs: 3 }), "INPUT_TOO_LARGE", "offsets[0]");
        // The element faults keep `docs[j]`.
        throwsScoreError(lib, () => short.runColumnar({ docs: new Uint32Array([0, 1, 0, 7]), offsets: new Uint32Array([0, 2, 4]), nDocs: 3 }), "INDEX_OUT_OF_RANGE", "docs[3]");
      } finally {
        short.free();
      }
    }
    // An item given as a Map or a Date (no own fields) is refused, not read as empty.
    throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: new Map([["name", "n"]]) } }), "INVALID_TYPE", "items.x");
    throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: new Date(0) } }), "INVALID_TYPE", "items.x");
    // So is any object whose tag is not Object's (a boxed primitive, an Error, a Promise):
    // they were read as items without fields. Plain and class records without fields
    // (and with a prototype of null) are still empty items.
    for (const x of [new Boolean(true), new Number(1), new Error("e"), Promise.resolve(), /re/])
      throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x } }), "INVALID_TYPE", "items.x");
    class Meta {}
    for (const x of [{}, Object.create(null), new Meta()]) eq(p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x } }).stats.candidates, 1);
    // A Proxy's length that is not a whole number: the array refused, as an inner list's
    // already was (a RangeError of the engine's came out of the package).
    const px = (a, len) => new Proxy(a, { get: (t, k, r) => (k === "length" ? len : Reflect.get(t, k, r)) });
    for (const len of [1.5, -1]) {
      throwsScoreError(lib, () => lib.rrf(px([["a"]], len)), "INVALID_TYPE", "lists");
      throwsScoreError(lib, () => lib.rrf([["a"]], { weights: px([1], len) }), "INVALID_TYPE", "options.weights");
      throwsScoreError(lib, () => lib.calibrate(px([0.1], len)), "INVALID_TYPE", "scores");
      throwsScoreError(lib, () => p.run({ lists: px([{ name: "a", ids: ["x"] }], len) }), "INVALID_TYPE", "lists");
      throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"], scores: px([1], len) }] }), "INVALID_TYPE", "lists[0].scores");
      throwsScoreError(lib, () => lib.fuseMultiQuery(px([[{ id: "a", score: 1 }]], len)), "INVALID_TYPE", "queries");
      throwsScoreError(lib, () => lib.rrfColumnar(px([0], len), new Uint32Array([0, 1]), 1), "INVALID_TYPE", "docs");
      if (lib.fitPlatt) {
        throwsScoreError(lib, () => lib.fitPlatt(px([0.1, 0.9], len), [0, 1]), "INVALID_TYPE", "scores");
        throwsScoreError(lib, () => lib.fuseRuns(px([{ q: { a: 1 } }], len), { method: "sum" }), "INVALID_TYPE", "runs");
      }
    }
    // A `limits` the options only inherit (a class's getter, a prototype's key) is not
    // the module's (JSON.stringify does not write it): not applied here either (it
    // refused calls that no limit refused).
    // (Options whose every field is inherited are refused since the fortieth session:
    // read as JSON they would be no options at all.)
    class Opts {
      threshold = 0.5;
      get limits() {
        return { maxListLength: 1 };
      }
    }
    eq(lib.calibrate([0.1, 0.2], new Opts()).length, 2);
    eq(lib.calibrate([0.1, 0.2], Object.create({ limits: { maxListLength: 1 } })).length, 2);
    const k = class {
      k = 60;
      get limits() {
        return { maxListLength: 1 };
      }
    };
    eq(lib.rrf([["a", "b"]], new k()).length, 2);
    throwsScoreError(lib, () => lib.calibrate([0.1, 0.2], new (class {
      get limits() {
        return { maxListLength: 1 };
      }
    })()), "INVALID_TYPE", "options");
    throwsScoreError(lib, () => lib.calibrate([0.1, 0.2], { limits: { maxListLength: 1 } }), "INPUT_TOO_LARGE", "scores");
    // `now` of another type is refused (an ISO string was ignored, then reported as missing).
    const mt = new Float64Array([0, 0]);
    throwsScoreError(lib, () => p.runColumnar({ docs: new Uint32Array([0, 1]), offsets: new Uint32Array([0, 2]), nDocs: 2, modifiedAt: mt, now: "2026-01-01T00:00:00Z" }), "INVALID_TYPE", "now");
    throwsScoreError(lib, () => p.runColumnar({ docs: new Uint32Array([0, 1]), offsets: new Uint32Array([0, 2]), nDocs: 2, now: "2026-01-01T00:00:00Z" }), "INVALID_TYPE", "now");
    eq(p.runColumnar({ docs: new Uint32Array([0, 1]), offsets: new Uint32Array([0, 2]), nDocs: 2, modifiedAt: mt, now: new Date(0) }).candidates, 2);
    throwsScoreError(lib, () => p.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 2]), nDocs: 1 }), "LENGTH_MISMATCH");
    // After all of that, a valid call still works and gives the same answer.
    eq(lib.rrf([["a", "x", "y"], ["p", "q", "a"]])[0], ["a", 1 / 61 + 1 / 63]);
    eq(p.run(seedInput()).results[0].id, "A");
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

  test("a cycle is INVALID_TYPE with the engine's error as its cause; a caller's own error of the same words is passed on", () => {
    class Mine extends TypeError {}
    const own = new Mine("circular dependency in my settings");
    for (const make of [
      () => new lib.Pipeline({ get topN() { throw own; } }),
      () => lib.rrf([["a"]], Object.assign(Object.create(null), { get k() { throw own; } })),
      () => lib.calibrate([0.5], { get threshold() { throw own; } }),
    ]) {
      try {
        make();
        assert(false, "nothing thrown");
      } catch (e) {
        assert(e === own, `the caller's error itself, not ${e && e.name}: ${e && e.message}`);
      }
    }
    const loop = { topN: 3 };
    loop.self = loop;
    const e = throwsScoreError(lib, () => new lib.Pipeline(loop), "INVALID_TYPE", "config");
    assert(e.cause instanceof TypeError && e.cause !== own, `the engine's TypeError as the cause: ${e.cause}`);
  });

  test("a floor given alone is checked against the other's default: the error is on the floor given, and names the default", () => {
    // Each floor given alone, out of order with the other's default: on the floor given
    // (the low floor's was on the low floor whichever was given), from both modules.
    const P = (config) => () => new lib.Pipeline(config);
    const C = (options) => () => lib.classifyBand(0.7, options);
    for (const [fn, code, field, message] of [
      [P({ bands: { highFloor: 0.6 } }), "INVALID_BANDS", "config.bands.highFloor", "highFloor 0.6 is below degradedFloor 0.65, its default (degradedFloor not given)"],
      [P({ bands: { degradedFloor: 0.9 } }), "INVALID_BANDS", "config.bands.degradedFloor", "degradedFloor 0.9 exceeds highFloor 0.85, its default (highFloor not given)"],
      [P({ bands: new Map([["highFloor", 0.5]]) }), "INVALID_BANDS", "config.bands.highFloor", "highFloor 0.5 is below degradedFloor 0.65, its default (degradedFloor not given)"],
      [P({ bands: { highFloor: 0.5, profiles: [{ name: "p", highFloor: 0.9, degradedFloor: 0.1 }] } }), "INVALID_BANDS", "config.bands.highFloor", "highFloor 0.5 is below degradedFloor 0.65, its default (degradedFloor not given)"],
      [C({ highFloor: 0.5 }), "INVALID_BANDS", "options.highFloor", "highFloor 0.5 is below degradedFloor 0.65, its default (degradedFloor not given)"],
      [C({ degradedFloor: 0.9 }), "INVALID_BANDS", "options.degradedFloor", "degradedFloor 0.9 exceeds highFloor 0.85, its default (highFloor not given)"],
      [C({ highFloor: 0 }), "INVALID_BANDS", "options.highFloor", "highFloor 0 is below degradedFloor 0.65, its default (degradedFloor not given)"],
      [P({ confidence: { answerFloor: 0.1 } }), "INVALID_CONFIG", "config.confidence.answerFloor", "answerFloor 0.1 is below hedgeFloor 0.2, its default (hedgeFloor not given)"],
      [P({ confidence: { hedgeFloor: 0.6 } }), "INVALID_CONFIG", "config.confidence.hedgeFloor", "hedgeFloor 0.6 exceeds answerFloor 0.5, its default (answerFloor not given)"],
      // Both given and out of order: on the low floor, as before, without a word of defaults
      // (a floor given at its default's value is given all the same).
      [C({ highFloor: 0.5, degradedFloor: 0.9 }), "INVALID_BANDS", "options.degradedFloor", "degradedFloor 0.9 exceeds highFloor 0.5"],
      [C({ highFloor: 0.5, degradedFloor: 0.65 }), "INVALID_BANDS", "options.degradedFloor", "degradedFloor 0.65 exceeds highFloor 0.5"],
      [P({ bands: { highFloor: 0.85, degradedFloor: 0.9 } }), "INVALID_BANDS", "config.bands.degradedFloor", "degradedFloor 0.9 exceeds highFloor 0.85"],
      [P({ confidence: { answerFloor: 0.1, hedgeFloor: 0.2 } }), "INVALID_CONFIG", "config.confidence.hedgeFloor", "hedgeFloor (0.2) must not exceed answerFloor (0.1)"],
      // A profile's floors are both required: on its low floor.
      [P({ bands: { profiles: [{ name: "p", highFloor: 0.5, degradedFloor: 0.9 }] } }), "INVALID_BANDS", "config.bands.profiles[0].degradedFloor", "degradedFloor 0.9 exceeds highFloor 0.5"],
      // A floor given alone out of [0, 1] is its own range fault, as before.
      [C({ degradedFloor: 1.5 }), "INVALID_BANDS", "options.degradedFloor", "must be within [0, 1], got 1.5"],
      [C({ highFloor: -0.1 }), "INVALID_BANDS", "options.highFloor", "must be within [0, 1], got -0.1"],
      [P({ bands: { degradedFloor: NaN } }), "INVALID_BANDS", "config.bands.degradedFloor", "must be within [0, 1], got NaN"],
      [P({ confidence: { hedgeFloor: 2 } }), "INVALID_CONFIG", "config.confidence.hedgeFloor", "must be within [0, 1], got 2"],
    ]) {
      eq(throwsScoreError(lib, fn, code, field).message, message);
    }
    eq(lib.classifyBand(0.7, { highFloor: 0.6, degradedFloor: 0.5 }).kind, "hit");
    eq(lib.classifyBand(0.7, { highFloor: 0.7 }).kind, "hit");
    eq(lib.classifyBand(0.7, { degradedFloor: 0.7 }).kind, "degraded");
    new lib.Pipeline({ bands: { highFloor: 0.65 }, confidence: { answerFloor: 0.2 } }).free();
  });

  test("methods taken off their object, or called on another, are INVALID_TYPE on `this`", () => {
    const p = new lib.Pipeline({ minConfidence: 0 });
    const input = { lists: [{ name: "a", ids: ["x"] }] };
    const { run, runColumnar, free } = p;
    try {
      throwsScoreError(lib, () => run(input), "INVALID_TYPE", "this");
      throwsScoreError(lib, () => run.call({}, input), "INVALID_TYPE", "this");
      throwsScoreError(lib, () => runColumnar.call(Object.create(p), { docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 }), "INVALID_TYPE", "this");
      throwsScoreError(lib, () => Object.getOwnPropertyDescriptor(lib.Pipeline.prototype, "config").get.call({}), "INVALID_TYPE", "this");
      throwsScoreError(lib, () => free.call({}), "INVALID_TYPE", "this");
      if (typeof Symbol.dispose === "symbol") {
        for (const who of [undefined, {}]) throwsScoreError(lib, () => p[Symbol.dispose].call(who), "INVALID_TYPE", "this");
      }
      // The pipeline itself is untouched.
      eq(p.run(input).results.map((r) => r.id), ["x"]);
    } finally {
      p.free();
    }
    const r = lib.Run.fromObject({ q: { d: 1 } });
    try {
      throwsScoreError(lib, () => r.toObject.call({}), "INVALID_TYPE", "this");
      const e = throwsScoreError(lib, () => Object.getOwnPropertyDescriptor(Object.getPrototypeOf(lib.Run.prototype), "queryIds").get.call(undefined), "INVALID_TYPE", "this");
      assert(!e.message.includes("freed"), `not called freed: ${e.message}`);
      // Objects made from the prototypes were never made, not freed.
      for (const [fn, field] of [
        [() => lib.Run.prototype.size, "this"],
        [() => lib.Qrels.prototype.toObject(), "this"],
        [() => lib.evaluate({ q: { d: 1 } }, Object.create(lib.Run.prototype), ["mrr"]), "run"],
      ]) {
        const e2 = throwsScoreError(lib, fn, "INVALID_TYPE", field);
        assert(!e2.message.includes("freed") && e2.message.includes("fromObject"), e2.message);
      }
      assert(throwsScoreError(lib, () => lib.Run.prototype.size, "INVALID_TYPE").message.includes("a Run or Qrels made"), "the prototype of Run is not a Qrels");
      throwsScoreError(lib, () => r.free.call({}), "INVALID_TYPE", "this");
      const size = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(lib.Run.prototype), "size").get;
      for (const who of [undefined, {}]) throwsScoreError(lib, () => size.call(who), "INVALID_TYPE", "this");
      if (typeof Symbol.dispose === "symbol") throwsScoreError(lib, () => r[Symbol.dispose].call({}), "INVALID_TYPE", "this");
      eq(r.size, 1);
      eq(r.toObject(), { q: { d: 1 } }, "still live");
    } finally {
      r.free();
    }
    throwsScoreError(lib, () => r.toObject(), "INVALID_TYPE", "this");
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
    eq(lib.predictQueryConfidence(qcModel, qcHandles), lib.predictQueryConfidence(qcModel, qcRuns));
    for (const h of [...qcHandles, qcQ]) h.free();
    const opt = lib.optimizeFusion(qrels, [run, other], { method: "wsum", metric: "mrr" });
    eq(opt, lib.optimizeFusion(qrels.toObject(), [run, { q: { 7: 9, 2: 1 } }], { method: "wsum", metric: "mrr" }));
    eq(lib.__liveHandles(), live + 5);
    // Wrong kinds and freed handles are typed errors naming the argument.
    throwsScoreError(lib, () => lib.evaluate(run, run, ["mrr"]), "INVALID_TYPE", "qrels");
    throwsScoreError(lib, () => lib.fuseRuns([run, qrels], { method: "sum" }), "INVALID_TYPE", "runs[1]");
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
    throwsScoreError(lib, () => lib.optimizeFusion(qrels, [a, b], { method: "rrf", kValues: [-1] }), "INVALID_CONFIG", "options.kValues[0]");
  });

  test("caller code cannot reach a call in flight: onProgress re-entry, handles freed by getters, shared and detached buffers, lists read once", () => {
    // onProgress runs while the search is in the lab's module: a lab call from it is
    // refused (and rethrown by optimizeFusion), a core call is another module and works.
    const a = { q: { x: 3, y: 2, z: 1 } };
    const b = { q: { z: 9, x: 1 } };
    const keep = lib.Run.fromObject(a);
    let inner = null;
    let innerField = null;
    let coreInside = null;
    const progress = () => {
      if (inner !== null) return;
      coreInside = lib.rrf([["m", "n"]]);
      try {
        lib.Run.fromObject(b);
        inner = "no error";
      } catch (e) {
        inner = e.code;
        innerField = e.field;
        throw e;
      }
    };
    throwsScoreError(lib, () => lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }, progress), "REENTRANT_CALL");
    eq(inner, "REENTRANT_CALL");
    eq(innerField, "", "a re-entrant call names no field");
    eq(coreInside, lib.rrf([["m", "n"]]));
    eq(keep.toObject(), a, "a Run made before is intact");
    eq(lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }).best.score, 1);
    // A refused optimizeFusion from onProgress (caught there) leaves the call in flight
    // reporting its progress to the end (its callback was cleared by the refused call).
    let reports = 0;
    let nested = null;
    lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }, () => {
      reports++;
      if (reports === 1) {
        try {
          lib.optimizeFusion({ q: { z: 1 } }, [a, b], { method: "wsum", metric: "mrr" });
        } catch (e) {
          nested = e.code;
        }
      }
    });
    eq(nested, "REENTRANT_CALL");
    eq(reports, 11);
    // free() from onProgress is refused and the Run stays live (it was marked freed
    // before the module refused: leaked, and its later free() did nothing).
    const live = lib.__liveHandles();
    const victim = lib.Run.fromObject(b);
    let freeError = null;
    lib.optimizeFusion({ q: { z: 1 } }, [keep, b], { method: "wsum", metric: "mrr" }, () => {
      if (freeError !== null) return;
      try {
        victim.free();
        freeError = "no error";
      } catch (e) {
        freeError = e.code;
      }
    });
    eq(freeError, "REENTRANT_CALL");
    eq(victim.toObject(), b, "the Run is still usable");
    victim.free();
    eq(lib.__liveHandles(), live, "and freed by the next free()");
    keep.free();
    // A handle is looked up after the caller's code has run: a getter that frees the
    // pipeline (and makes another, which takes its slot) makes the call fail, not run
    // on the other pipeline.
    const lists = [{ name: "a", ids: ["x", "y", "z"] }];
    let other = null;
    const p = new lib.Pipeline({ topN: 3, minConfidence: 0 });
    throwsScoreError(lib, () => p.run({ lists, get query() { p.free(); other = new lib.Pipeline({ topN: 1, minConfidence: 0 }); return ""; } }), "INVALID_TYPE", "this");
    eq(other.run({ lists }).results.length, 1);
    other.free();
    const pc = new lib.Pipeline({ topN: 3, minConfidence: 0 });
    const columnar = { docs: new Uint32Array([0, 1, 2]), offsets: new Uint32Array([0, 3]) };
    throwsScoreError(lib, () => pc.runColumnar({ ...columnar, get nDocs() { pc.free(); other = new lib.Pipeline({ topN: 1, minConfidence: 0 }); return 3; } }), "INVALID_TYPE", "this");
    other.free();
    const qa = lib.Qrels.fromObject({ q1: { d1: 1 } });
    let made = null;
    const evil = { q1: { get d1() { qa.free(); made = lib.Qrels.fromObject({ q1: { d2: 1 } }); return 2; }, d2: 1 } };
    throwsScoreError(lib, () => lib.evaluate(qa, evil, ["mrr"]), "INVALID_TYPE", "qrels");
    made.free();
    const r1 = lib.Run.fromObject({ q: { d1: 1 } });
    const r2 = lib.Run.fromObject({ q: { d2: 1 } });
    const laterRun = { q: { get d3() { r2.free(); made = lib.Run.fromObject({ q: { d9: 1 } }); return 1; } } };
    throwsScoreError(lib, () => lib.fuseRuns([r1, r2, laterRun], { method: "sum" }), "INVALID_TYPE", "runs[1]");
    made.free();
    r1.free();
    // Typed arrays on a shared or resizable buffer are copied before the checks; a
    // detached one reads as empty.
    const want = lib.rrfColumnar(new Uint32Array([0, 1, 1, 2]), new Uint32Array([0, 2, 4]), 3);
    if (typeof SharedArrayBuffer === "function") {
      const docs = new Uint32Array(new SharedArrayBuffer(16));
      docs.set([0, 1, 1, 2]);
      eq(lib.rrfColumnar(docs, new Uint32Array([0, 2, 4]), 3), want, "shared buffer");
    }
    let resizable = null;
    try {
      resizable = new ArrayBuffer(16, { maxByteLength: 64 });
    } catch {}
    if (resizable !== null && resizable.resizable) {
      const docs = new Uint32Array(resizable);
      docs.set([0, 1, 1, 2]);
      // Shrunk by an options getter after `docs` was read: the copy keeps its length.
      eq(lib.rrfColumnar(docs, new Uint32Array([0, 2, 4]), 3, { get k() { resizable.resize(4); return 60; } }), want, "resizable buffer");
    }
    if (typeof structuredClone === "function") {
      const docs = new Uint32Array([0, 1]);
      structuredClone(docs.buffer, { transfer: [docs.buffer] });
      eq(lib.rrfColumnar(docs, new Uint32Array([0, 0]), 3), lib.rrfColumnar(new Uint32Array(0), new Uint32Array([0, 0]), 3), "detached reads as empty");
    }
    // A list whose length answers differently on each read: read once.
    let reads = 0;
    const shifty = new Proxy(["a", "b", "c"], { get: (t, k) => (k === "length" ? [3, 1, 3][Math.min(reads++, 2)] : t[k]) });
    eq(lib.rrf([shifty]), lib.rrf([["a", "b", "c"]]));
    // Options getters: `rrf` reads its options once in the compact form; where they must
    // cross as JSON (here a `k` that is not a number), once for the checks made before the
    // copy and once by JSON.stringify. `rrfColumnar` takes its limits before copying its
    // arrays and the rest after: the limits twice either way, nothing a third time.
    const counted = (k) => {
      const n = { limits: 0, k: 0 };
      return [n, { get k() { n.k++; return k; }, get limits() { n.limits++; return { maxLists: 5 }; } }];
    };
    const [n1, o1] = counted(60);
    eq(lib.rrf([["a"], ["b"]], o1), lib.rrf([["a"], ["b"]]));
    eq(n1, { limits: 1, k: 1 }, "rrf, compact options: each read once");
    const [n2, o2] = counted("60");
    throwsScoreError(lib, () => lib.rrf([["a"], ["b"]], o2), "INVALID_TYPE", "options.k");
    eq(n2, { limits: 2, k: 2 }, "rrf, options as JSON");
    const cols = () => [new Uint32Array([0, 1]), new Uint32Array([0, 1, 2]), 2];
    const [n3, o3] = counted(60);
    eq(lib.rrfColumnar(...cols(), o3), lib.rrfColumnar(...cols()));
    eq(n3, { limits: 2, k: 1 }, "rrfColumnar, compact options");
    const [n4, o4] = counted("60");
    throwsScoreError(lib, () => lib.rrfColumnar(...cols(), o4), "INVALID_TYPE", "options.k");
    eq(n4, { limits: 2, k: 2 }, "rrfColumnar, options as JSON");
    // `fuseMultiQuery` decides from the keys alone whether its options cross as numbers:
    // without `limits` each value is read once; with it, once for the checks and once by
    // JSON.stringify, nothing a third time.
    const hitsOf = () => [[{ id: "a", score: 0.9 }]];
    const nm = { k: 0 };
    eq(lib.fuseMultiQuery(hitsOf(), { get k() { nm.k++; return 60; } }), lib.fuseMultiQuery(hitsOf()));
    eq(nm, { k: 1 }, "fuseMultiQuery, options as numbers");
    const [n5, o5] = counted(60);
    eq(lib.fuseMultiQuery(hitsOf(), o5), lib.fuseMultiQuery(hitsOf()));
    eq(n5, { limits: 2, k: 1 }, "fuseMultiQuery, options as JSON");
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
    eq(throwsScoreError(lib, () => new lib.Pipeline({ calibration: against }), "INVALID_CALIBRATION", "config.calibration.a").message, `must be <= 0, got ${against.a}`);
    new lib.Pipeline({ calibration: { method: "platt", a: 0, b: 1 } }).free();
    const ce = lib.calibrationError([0.1, 0.9, 0.8, 0.3], [0, 1, 1, 0], { bins: 2 });
    assert(Math.abs(ce.brier - 0.0375) < 1e-15, `brier ${ce.brier}`);
    assert(ce.bins.length === 2 && typeof ce.ece === "number", "bins");
    const scores = Array.from({ length: 200 }, (_, i) => i / 199);
    const labels = scores.map((s, i) => (s > 0.7 || (s > 0.4 && i % 2 === 0) ? 1 : 0));
    const bands = lib.proposeBands(scores, labels);
    assert(bands.degradedFloor <= bands.highFloor && bands.highFloor <= 1, "floors ordered");
    throwsScoreError(lib, () => lib.fitPlatt([1, 2], [1]), "LENGTH_MISMATCH");
    throwsScoreError(lib, () => lib.fitPlatt([1, 2], [1, 1]), "INVALID_LABELS");
    // Scores whose moments overflow fit as their scaled copy (they gave a flat a = b = 0).
    const huge = lib.fitPlatt([5e200, -4e200, 1e200], [1, 0, 0]);
    assert(Math.abs(huge.a * 1e200 - platt.a) < 1e-6 && Math.abs(huge.b - platt.b) < 1e-6, `huge ${huge.a} ${huge.b}`);
    throwsScoreError(lib, () => lib.fitPlatt([5e-320, -4e-320, 1e-320], [1, 0, 0]), "NON_FINITE_SCORE", "scores");
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

  test("lab: options that are not objects, undefined scores, unknown fusion parameters and the model's overflow field", () => {
    if (!lib.fuseRuns) return;
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
    const noRecord = (f, field) => eq(throwsScoreError(lib, f, "INVALID_TYPE", field).message, "expected a record of query id -> document id -> score, got undefined");
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
    const tuned = '"rrf", "rbc", "wsum", "wmnz", "mixed", "w_bordafuse", "w_condorcet", "dbsf", "arithmetic_mean", "geometric_mean", "harmonic_mean"';
    const untuned = (method) => throwsScoreError(lib, () => lib.optimizeFusion(q, two, { method }), "UNKNOWN_METHOD", "options.method").message;
    const m = untuned("RRF");
    assert(m.startsWith(`"RRF" is not one of ${tuned} (`) && m.endsWith('; did you mean "rrf"?'), m);
    assert(throwsScoreError(lib, () => lib.fuseRuns(two, { method: "RRF" }), "UNKNOWN_METHOD", "options.method").message.endsWith('; did you mean "rrf"?'), "fuseRuns");
    assert(untuned("sum").includes("any other method has nothing to tune"), untuned("sum"));
    assert(!untuned("zzzzzz").includes("did you mean"), "nothing near");
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

  test("limits: defaults, per-call limits in every function's options", () => {
    eq(lib.defaultLimits(), {
      maxLists: 64,
      maxListLength: 1000000,
      maxTotalEntries: 100000,
      maxColumnarEntries: 4000000,
      maxIdBytes: 1024,
      maxTextBytes: 1000000,
      maxTotalTextBytes: 32000000,
      maxSearchWork: 1000000,
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
    // wsum over 2 runs at step 0.1: 11 configurations x 5 entries = 55.
    tooLarge(() => lib.optimizeFusion({ q: { z: 1 } }, [a, b], lim({ maxSearchWork: 54 }, { method: "wsum", metric: "mrr" })), "runs", "maxSearchWork");
    eq(lib.optimizeFusion({ q: { z: 1 } }, [a, b], lim({ maxSearchWork: 55 }, { method: "wsum", metric: "mrr" })).trials.length, 11);
  });

  test("exceptions from the caller's own code propagate and leave the module usable", () => {
    // A throwing index getter or Proxy trap is called from inside wasm; its exception
    // unwinds through the wasm frames. Before the stack guard (js/stack_guard.js) each
    // such call leaked shadow stack and the module broke after about 350 (dev build) to
    // 2,000 (release) of them.
    class Boom extends Error {}
    const boom = () => {
      throw new Boom("boom");
    };
    const cases = [
      () => lib.rrf([Object.defineProperty(["a", "b"], 1, { get: boom })]),
      () => lib.rrf([new Proxy(["a"], { get: (t, k) => (k === "length" ? boom() : t[k]) })]),
      () => new lib.Pipeline().run({ lists: [{ name: "a", ids: ["x"] }], items: new Proxy({ x: {} }, { get: boom }) }),
      () => lib.normalize(Object.defineProperty([1, 2], 1, { get: boom }), "max"),
      () => lib.fuseRuns([{ q: { d: 1 } }, new Proxy({}, { ownKeys: boom })], { method: "sum" }),
    ];
    const expected = lib.rrf([["a", "b"], ["b"]]);
    for (const [i, call] of cases.entries()) {
      for (let n = 0; n < 3000; n++) {
        try {
          call();
          throw new AssertionError(`case ${i}: no exception`);
        } catch (e) {
          assert(e instanceof Boom || e instanceof lib.ScoreError, `case ${i}, call ${n}: ${e && e.constructor && e.constructor.name}: ${e}`);
        }
      }
      eq(lib.rrf([["a", "b"], ["b"]]), expected, `case ${i}: the module still works`);
    }
  });

  test("an array given as a Proxy, or a typed array with a length of its own, is read before the module is entered", () => {
    // Arrays of numbers (scores, weights, columnar indices) are copied while they are
    // checked: a Proxy's traps run then, never while the call's input is written into
    // wasm memory (where a trap that answered another length, claimed a typed array's
    // prototype or called the package would have written past its section or into the
    // input of the call in flight).
    const s = [0.5, 1, 2];
    const want = lib.normalize(s, "min_max");
    const p = new lib.Pipeline({ minConfidence: 0 });
    const pwant = p.run(seedInput());
    let typed = false;
    const liar = new Proxy([...s], {
      getPrototypeOf: () => ((typed = true), Float64Array.prototype),
      get: (t, k) => (k === "length" ? (typed ? 100000 : 3) : typed ? NaN : t[k]),
    });
    eq(lib.normalize(liar, "min_max"), want, "a Proxy that claims a typed array's prototype");
    let calls = 0;
    const reentrant = new Proxy([...s], {
      get: (t, k) => {
        if (k === "0" && calls++ === 0) lib.rrf(Array.from({ length: 40 }, (_, i) => [`x${i}`, "y"]));
        return t[k];
      },
    });
    eq(lib.normalize(reentrant, "min_max"), want, "a Proxy whose trap calls the package");
    // `rrf` of 64 entries or more reads into tables of the package's scratch: a list whose
    // trap calls `rrf` (of such a size too) while they are out gets tables of its own.
    const ids = (p, n) => Array.from({ length: n }, (_, i) => `${p}${(i * 7919) % n}`);
    // (Its ids of other lengths, each twice: other indices and lengths in every table.)
    const inner = [ids("i", 90).flatMap((id, i) => [id + "z".repeat(i % 5), id + "z".repeat(i % 5)]), ids("j", 70)];
    const outer = [ids("o", 80), ids("p", 60)];
    let innerOut = null;
    const trapped = new Proxy(outer[0], { get: (t, k) => (k === "40" && innerOut === null ? ((innerOut = lib.rrf(inner)), t[k]) : t[k]) });
    eq(lib.rrf([trapped, outer[1]]), lib.rrf(outer), "the outer call");
    eq(innerOut, lib.rrf(inner), "the call made from the trap");
    // A Proxy's length need not be a whole number (an array's is): the tables are sized
    // by it, so it is refused (was a RangeError, or INTERNAL from 64 entries on).
    const ids100 = Array.from({ length: 100 }, (_, i) => `d${i}`);
    const lying = (a, len) => new Proxy(a, { get: (t, k) => (k === "length" ? len : t[k]) });
    for (const len of [70.5, 2.5, -1, 2 ** 32]) {
      throwsScoreError(lib, () => lib.rrf([lying(ids100, len)]), "INVALID_TYPE", "lists[0]");
      throwsScoreError(lib, () => lib.fuseMultiQuery([lying(ids100.map((id) => ({ id, score: 1 })), len)]), "INVALID_TYPE", "queries[0]");
      throwsScoreError(lib, () => new lib.Pipeline().run({ lists: [{ name: "s", ids: lying(ids100, len) }] }), "INVALID_TYPE", "lists[0].ids");
    }
    eq(lib.rrf([lying(ids100, 70)]), lib.rrf([ids100.slice(0, 70)]), "a whole length is read as given");
    eq(Array.from(lib.calibrate(new Proxy([...s], {}), { threshold: 1, steepness: 2 })), Array.from(lib.calibrate(s, { threshold: 1, steepness: 2 })));
    eq(lib.rrf([["a", "b"], ["b"]], { weights: new Proxy([2, 1], {}) }), lib.rrf([["a", "b"], ["b"]], { weights: [2, 1] }));
    // A typed array whose `length` is caller code (an own getter; a subclass): its real
    // length crosses and the getter never runs.
    let asked = 0;
    const own = Object.defineProperty(new Float64Array(s), "length", { get: () => (asked++, 1) });
    eq(lib.normalize(own, "min_max"), want, "an own length getter");
    class Sub extends Float64Array {
      get length() {
        asked++;
        return 100000;
      }
    }
    eq(lib.normalize(new Sub(s), "min_max"), want, "a subclass's length");
    eq(Array.from(lib.rrfColumnar(Object.defineProperty(new Uint32Array([0, 1, 1]), "length", { get: () => (asked++, 1) }), new Uint32Array([0, 2, 3]), 2).scores), Array.from(lib.rrfColumnar(new Uint32Array([0, 1, 1]), new Uint32Array([0, 2, 3]), 2).scores));
    const pc = new lib.Pipeline({ minConfidence: 0 });
    const col = (docs, offsets) => pc.runColumnar({ docs, offsets, nDocs: 3 });
    const lengthOf1 = (a) => Object.defineProperty(a, "length", { get: () => (asked++, 1) });
    eq(col(lengthOf1(new Uint32Array([0, 1, 2, 1])), lengthOf1(new Uint32Array([0, 3, 4]))), col(new Uint32Array([0, 1, 2, 1]), new Uint32Array([0, 3, 4])), "runColumnar");
    pc.free();
    eq(asked, 0, "no length getter ran");
    eq(p.run(seedInput()), pwant, "a pipeline made before is intact");
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

  test("a Date read by its time value (an object that only inherits from Date.prototype is INVALID_TYPE); a detached typed array reads as empty", () => {
    // `Object.create(Date.prototype)` passes `instanceof Date` but holds no time value:
    // `getTime` threw the engine's TypeError out of the package before.
    const fake = () => Object.create(Date.prototype);
    const t = Date.UTC(2026, 0, 1);
    const p = new lib.Pipeline({ recency: { mode: "step" }, minConfidence: 0 });
    const input = (m, now) => ({ lists: [{ name: "a", ids: ["x", "y"] }], items: { x: { modifiedAt: m }, y: { modifiedAt: t - 400 * 86400000 } }, now });
    throwsScoreError(lib, () => p.run(input(fake(), t)), "INVALID_TYPE", "items.x.modifiedAt");
    throwsScoreError(lib, () => p.run(input(t, fake())), "INVALID_TYPE", "now");
    throwsScoreError(lib, () => lib.fuseMultiQuery([[{ id: "a", score: 1, timestamp: fake() }]]), "INVALID_TYPE", "queries[0][0].timestamp");
    throwsScoreError(lib, () => p.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, modifiedAt: new Float64Array([t]), now: fake() }), "INVALID_TYPE", "now");
    // A time that is not finite: refused by `runColumnar` as by `run`, with or without
    // `modifiedAt`, whatever the recency mode (it was let through).
    const col = { docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 };
    for (const now of [NaN, Infinity, new Date(NaN)]) {
      throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"] }], now }), "INVALID_TIMESTAMP", "now");
      throwsScoreError(lib, () => p.runColumnar({ ...col, now }), "INVALID_TIMESTAMP", "now");
      const none = new lib.Pipeline({ recency: { mode: "none" } });
      throwsScoreError(lib, () => none.runColumnar({ ...col, modifiedAt: [0], now }), "INVALID_TIMESTAMP", "now");
      none.free();
    }
    // A Date subclass is read by its time value, not by a `getTime` of its own.
    class Shifted extends Date {
      getTime() {
        return 0;
      }
    }
    const want = p.run(input(new Date(t - 86400000), new Date(t)));
    eq(p.run(input(new Shifted(t - 86400000), new Shifted(t))), want, "a Date subclass");
    eq(want.results.map((r) => r.id), ["x", "y"], "the recent item first");
    // A typed array whose buffer was transferred has no elements (Array.from threw on it
    // when an option held one): read as an empty array, the same error as `[]`.
    const a = new Float64Array([1, 2]);
    try {
      structuredClone(a.buffer, { transfer: [a.buffer] });
    } catch {
      // No transfer here: the typed array stays attached, and the rest is not checked.
    }
    if (a.buffer.byteLength === 0) {
      // (A configuration crosses as JSON text: the replacer reads typed arrays.)
      const e = throwsScoreError(lib, () => new lib.Pipeline({ topN: [] }), "INVALID_TYPE", "config.topN");
      const d = throwsScoreError(lib, () => new lib.Pipeline({ topN: a }), e.code, e.field);
      eq(d.message, e.message, "the message of []");
    }
    p.free();
  });

  test("error codes are exported and complete", () => {
    const codes = lib.errorCodes();
    assert(codes.includes("INVALID_TOP_N") && codes.includes("NON_FINITE_SCORE"), "codes");
    assert(typeof lib.version() === "string", "version");
  });

  test("golden vectors reproduce bit for bit", () => {
    assert(golden.cases.length >= 15, "golden cases");
    golden.cases.forEach((c, i) => eq(computeGolden(lib, c), c.expected, `golden case ${i} (${c.kind})`));
  });

  return t;
}

/** Runs every test; returns { passed, failed, failures }. */
export function runSuite(lib, golden, log = console.log) {
  let passed = 0;
  const failures = [];
  for (const { name, fn } of tests(lib, golden)) {
    try {
      fn();
      passed++;
      log(`ok - ${name}`);
    } catch (err) {
      failures.push({ name, error: String(err && err.stack ? err.stack : err) });
      log(`not ok - ${name}\n  ${err && err.message}`);
    }
  }
  return { passed, failed: failures.length, failures };
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
