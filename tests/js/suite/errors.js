// Errors: each fault's code, field path and message, in both entries and both modules.

import { assert, eq, throwsScoreError, seedInput } from "./helpers.js";

export function errorTests(test, lib) {
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
    // JSON (a log line, a worker's reply) keeps the message, which Error does not enumerate.
    const typo = throwsScoreError(lib, () => new lib.Pipeline({ tpoK: 1 }), "UNKNOWN_FIELD");
    eq(JSON.parse(JSON.stringify(typo)), { name: "ScoreError", code: "UNKNOWN_FIELD", field: "config.tpoK", message: typo.message });
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
    // The message says what was given: the array or typed array itself, or an object whose
    // toJSON gave one (it said "this one's toJSON gave one" of a typed array context or
    // model, which has no toJSON).
    {
      const said = (f, field, message) => eq(throwsScoreError(lib, f, "INVALID_TYPE", field).message, message, field);
      const words = "expected an object (options and configurations are not read from arrays)";
      said(() => lib.rrf([["a"], ["b"]], [1]), "options", `${words}, got an array`);
      said(() => lib.rrf([["a"], ["b"]], new Float64Array([1])), "options", `${words}, got a Float64Array`);
      said(() => new lib.Pipeline(new Uint8Array([30])), "config", `${words}, got a Uint8Array`);
      said(() => lib.rrf([["a"], ["b"]], asArray([1])), "options", `${words}, got an object whose toJSON gave an array`);
      said(() => new lib.Pipeline(asArray([7, {}, 3, 2])), "config", `${words}, got an object whose toJSON gave an array`);
      const p = new lib.Pipeline();
      try {
        const lists = [{ name: "l", ids: ["d"] }];
        const columnar = { docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1 };
        said(() => p.run({ lists, context: new Uint32Array(1) }), "context", "expected an object, got a Uint32Array");
        said(() => p.runColumnar({ ...columnar, context: new Float32Array(0) }), "context", "expected an object, got a Float32Array");
        said(() => p.run({ lists, context: asArray(["t"]) }), "context", "expected an object, got an object whose toJSON gave an array");
        said(() => p.runColumnar({ ...columnar, context: asArray([]) }), "context", "expected an object, got an object whose toJSON gave an array");
        // As an array is (refused before it is read as JSON).
        said(() => p.run({ lists, context: [] }), "context", "expected an object, got an array");
      } finally {
        p.free();
      }
      if (lib.predictQueryConfidence) {
        const model = "expected a model returned by fitQueryConfidence";
        said(() => lib.predictQueryConfidence(new Uint32Array(1), [{ q: { d: 1 } }]), "model", `${model}, got a Uint32Array`);
        said(() => lib.predictQueryConfidence(asArray([]), [{ q: { d: 1 } }]), "model", `${model}, got an object whose toJSON gave an array`);
        said(() => lib.predictQueryConfidence([], [{ q: { d: 1 } }]), "model", `${model}, got an array`);
        said(() => lib.applyCalibration([0.5], asArray(["sigmoid", 2, 0.5])), "calibration", "expected a calibration object, got an object whose toJSON gave an array");
        said(() => lib.applyCalibration([0.5], new Float64Array(2)), "calibration", `${words}, got a Float64Array`);
      }
    }
    // Objects, undefined and null are read as before (null: the defaults, for every function).
    eq(lib.rrf([["a"], ["b"]], { k: 1 }), [["a", 0.5], ["b", 0.5]]);
    eq(lib.rrf([["a"], ["b"]], null), lib.rrf([["a"], ["b"]]));
    eq(lib.classifyBand(0.9, null), lib.classifyBand(0.9));
    eq(lib.normalize([1, 2], "min_max", null), lib.normalize([1, 2], "min_max"));
  });

  test("a typed array, a primitive's object, a Set... where a record is expected is INVALID_TYPE on the value, said by its brand, whatever its length", () => {
    // A typed array's or a String object's indices were read as the record's keys: an
    // UNKNOWN_FIELD "0" (or a missing field when it had none), where an array is
    // INVALID_TYPE on the value.
    const said = (f, field, message) => eq(throwsScoreError(lib, f, "INVALID_TYPE", field).message, message, field);
    const p = new lib.Pipeline();
    try {
      const input = "expected an object with `lists`, got ";
      for (const [v, shown] of [
        [new Uint32Array(1), "a Uint32Array"],
        [new Uint32Array(0), "a Uint32Array"],
        [new DataView(new ArrayBuffer(2)), "a DataView"],
        [new String("x"), "a String object"],
        [new Number(1), "a Number object"],
        [new Set(["lists"]), "a Set"],
        [new Map([["lists", []]]), "a Map"],
        [new Date(0), "a Date"],
        [[], "an array"],
      ]) {
        said(() => p.run(v), "input", input + shown);
        said(() => p.runColumnar(v), "input", "expected an object with `docs`, `offsets` and `nDocs`, got " + shown);
        said(() => p.run({ lists: [v] }), "lists[0]", "expected an object with `name` and `ids`, got " + shown);
        said(() => lib.rerank("q", [v]), "candidates[0]", "expected an object with `id`, `score` and `name`, got " + shown);
        said(() => lib.fuseMultiQuery([[v]]), "queries[0][0]", "expected an object with `id` and `score`, got " + shown);
        if (!(v instanceof Map)) {
          said(() => p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: v } }), "items.x", "expected an object with the item's fields, got " + shown);
          if (lib.Items) said(() => new lib.Items({ x: v }), "items.x", "expected an object with the item's fields, got " + shown);
        }
      }
      // With the fields the record needs as well, the kind is said first (the keys "0" or
      // the characters were the first unknown field).
      said(() => p.run({ lists: [Object.assign(new String("ab"), { name: "a", ids: ["x"] })] }), "lists[0]", "expected an object with `name` and `ids`, got a String object");
      said(() => lib.rerank("q", [Object.assign(new Uint8Array(1), { id: "a", score: 1, name: "n" })]), "candidates[0]", "expected an object with `id`, `score` and `name`, got a Uint8Array");
      // The items themselves: a typed array, a String object, a Set... are refused as an
      // array is, whatever the lists' ids (a String object was read as no items when no
      // id found one of its characters: a diff review's case).
      const items = "expected an object mapping ids to metadata, got ";
      said(() => p.run({ lists: [{ name: "a", ids: ["x"] }], items: new Uint32Array(2) }), "items", items + "a Uint32Array");
      said(() => p.run({ lists: [{ name: "a", ids: ["0"] }], items: new String("ab") }), "items", items + "a String object");
      said(() => p.run({ lists: [{ name: "a", ids: ["length"] }], items: new String("ab") }), "items", items + "a String object");
      said(() => p.run({ lists: [{ name: "a", ids: ["x"] }], items: new String("ab") }), "items", items + "a String object");
      said(() => p.run({ lists: [{ name: "a", ids: ["x"] }], items: new Set(["x"]) }), "items", items + "a Set");
      if (lib.Items) {
        said(() => new lib.Items(new Uint32Array(2)), "items", items + "a Uint32Array");
        said(() => new lib.Items(new String("ab")), "items", items + "a String object");
        said(() => new lib.Items([{}]), "items", items + "an array");
      }
      // A record of a class, and one without a prototype, are read by their fields as before.
      class List {
        constructor() {
          this.name = "a";
          this.ids = ["x"];
        }
      }
      eq(p.run({ lists: [new List()] }).stats.candidates, 1);
      eq(p.run(Object.assign(Object.create(null), { lists: [Object.assign(Object.create(null), { name: "a", ids: ["x"] })] })).stats.candidates, 1);
      throwsScoreError(lib, () => p.run({ lists: [{ name: "a", ids: ["x"], x: 1 }] }), "UNKNOWN_FIELD", "lists[0].x");
      throwsScoreError(lib, () => p.run({ lists: [{ ids: ["x"] }] }), "INVALID_CONFIG", "lists[0].name");
    } finally {
      p.free();
    }
    if (lib.evaluate) {
      // The lab's run objects said them so already; and its Sets (below, "an instance of a class ...").
      const q = { q: { d: 1 } };
      said(() => lib.evaluate(q, new Uint32Array(1), ["mrr"]), "run", "expected a record of query id -> document id -> score, got a Uint32Array");
      said(() => lib.evaluate(q, new String("ab"), ["mrr"]), "run", "expected a record of query id -> document id -> score, got a String object");
      said(() => lib.evaluate({ q: new Float64Array(1) }, q, ["mrr"]), "qrels.q", "expected a record of document id -> grade, got a Float64Array");
      said(() => lib.fuseRuns([q, new Number(1)], { method: "sum" }), "runs[1]", "expected a record of query id -> document id -> score, got a Number object");
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
      eq(said(() => lib.calibrationError([0.1, 0.9], [1]), "LENGTH_MISMATCH", "labels"), "labels: 1, probabilities: 2 (one label per probability)");
      eq(said(() => lib.fitPlatt([0.1], [1, 0]), "LENGTH_MISMATCH", "labels"), "labels: 2, scores: 1 (one label per score)");
      eq(said(() => lib.fuseRuns([{ q: { d: 1 } }, { q: { d: 2 } }], { method: "wsum", weights: [1] }), "LENGTH_MISMATCH", "options.weights"), "weights: 1, runs: 2 (one weight per run)");
      // A model of one run given two: the counts said in the one form of every count.
      {
        const judged = { q1: { a: 1 }, q2: { z: 1 } };
        const r1 = { q1: { a: 3, b: 2 }, q2: { a: 1, b: 0.5 } };
        const one = lib.fitQueryConfidence(judged, [r1]);
        eq(said(() => lib.predictQueryConfidence(one, [r1, r1]), "LENGTH_MISMATCH", "runs"), "runs: 2, the model's runs: 1 (one per run it was fitted on, matched by position)");
        const p = new lib.Pipeline({ confidence: { model: one } });
        try {
          eq(said(() => p.run({ lists: [{ name: "a", ids: ["x"], scores: [1] }, { name: "b", ids: ["y"], scores: [1] }] }), "LENGTH_MISMATCH", "lists"), "lists: 2, the confidence model's runs: 1 (one list per run it was fitted on, matched by position)");
        } finally {
          p.free();
        }
      }
      // The RRF constant named as the caller named it.
      eq(said(() => lib.fitQueryConfidence({ q: { d: 1 } }, [{ q: { d: 1, e: 0.5 } }, { q: { d: 1 } }], { rrfK: 0 }), "INVALID_K", "options.rrfK"), "rrfK must be a finite number >= 1, got 0");
      eq(said(() => lib.rrf([["a"]], { k: 0 }), "INVALID_K", "options.k"), "k must be a finite number >= 1, got 0");
      // Infinity said as JavaScript says it (serde's own words were `inf`).
      eq(said(() => lib.evaluate({ q: { d: 1 } }, { q: { d: 1 } }, ["mrr"], Infinity), "INVALID_TYPE", "options"), "expected an object, got Infinity");
      // Judgements are said to hold grades, runs scores.
      eq(said(() => lib.evaluate("zz", { q: { d: 1 } }, ["mrr"]), "INVALID_TYPE", "qrels"), 'expected a record of query id -> document id -> grade, got "zz"');
      eq(said(() => lib.Qrels.fromObject("zz"), "INVALID_TYPE", "qrels"), 'expected a record of query id -> document id -> grade, got "zz"');
      eq(said(() => lib.evaluate({ q: { d: 1 } }, "zz", ["mrr"]), "INVALID_TYPE", "run"), 'expected a record of query id -> document id -> score, got "zz"');
      // A document listed twice in TREC text is shown to its first 64 characters.
      const doc = "z".repeat(10_000);
      eq(said(() => lib.parseTrecRun(`q Q0 ${doc} 1 1 t\nq Q0 ${doc} 2 1 t\n`), "DUPLICATE_ID", "line 2"), `line 2: document "${"z".repeat(64)}"... (10000 bytes) of query "q" already appears on line 1`);
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

  test("a calibration without `method` lists `method` among its keys, and a misspelt one is said before a model's keys", () => {
    const said = (fn, field) => throwsScoreError(lib, fn, "UNKNOWN_FIELD", field).message;
    const listed = "expected one of `method`, `threshold`, `steepness`";
    eq(said(() => new lib.Pipeline({ calibration: { metod: "platt", a: -2, b: 1 } }), "config.calibration.metod"), `unknown field \`metod\`, ${listed}; did you mean \`method\`?`);
    // After the model's keys too (it was "unknown field `a`, expected `threshold` or `steepness`").
    eq(said(() => new lib.Pipeline({ calibration: { a: -2, b: 1, metod: "platt" } }), "config.calibration.metod"), `unknown field \`metod\`, ${listed}; did you mean \`method\`?`);
    eq(said(() => new lib.Pipeline({ calibration: { Method: "isotonic", x: [0, 1], y: [0, 1] } }), "config.calibration.Method"), `unknown field \`Method\`, ${listed}; did you mean \`method\`?`);
    // A model's keys alone (method forgotten): the first, with `method` listed.
    const hint = ' (a fitted model names its method: `method: "platt"` with `a` and `b`, `method: "isotonic"` with `x` and `y`)';
    eq(said(() => new lib.Pipeline({ calibration: { a: -2, b: 1 } }), "config.calibration.a"), `unknown field \`a\`, ${listed}${hint}`);
    eq(said(() => new lib.Pipeline({ calibration: { y: [0, 1], x: [0, 1] } }), "config.calibration.y"), `unknown field \`y\`, ${listed}${hint}`);
    // Only there: a calibration that names its method, another key of a calibration, or
    // `a` elsewhere, gains nothing.
    for (const calibration of [{ method: "sigmoid", a: 1 }, { method: "isotonic", x: [0, 1], y: [0, 1], a: 1 }, { method: "platt", a: -1, b: 0, x: 2 }])
      assert(!said(() => new lib.Pipeline({ calibration }), undefined).includes("names its method"), JSON.stringify(calibration));
    eq(said(() => lib.calibrate([0.5], { a: 1 }), "options.a"), "unknown field `a`, expected one of `threshold`, `steepness`, `limits`");
    // A sigmoid's own keys read as before; a stray key without a model's is said in order.
    eq(new lib.Pipeline({ calibration: { threshold: 0.1 } }).config.calibration, { method: "sigmoid", threshold: 0.1, steepness: 150 });
    eq(said(() => new lib.Pipeline({ calibration: { threshold: 0.1, steep: 9 } }), "config.calibration.steep"), `unknown field \`steep\`, ${listed}`);
    // A value of the wrong kind is said where it is (the keys in order: it comes first).
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: { threshold: "x", steep: 9 } }), "INVALID_TYPE", "config.calibration.threshold");
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: { method: "isotonic", x: [0, 1], y: [0, "1"] } }), "INVALID_TYPE", "config.calibration.y[1]");
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: ["platt", 1, "2"] }), "INVALID_TYPE", "config.calibration[2]");
    // An unknown key is serde's (its words name the key, the field gets it): one named as
    // the enum itself is said on the enum (docs/reliability.md, "Field paths").
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: { method: "platt", a: -1, b: 1, c: 1 } }), "UNKNOWN_FIELD", "config.calibration.c");
    throwsScoreError(lib, () => new lib.Pipeline({ calibration: { method: "platt", a: -1, b: 1, calibration: 1 } }), "UNKNOWN_FIELD", "config.calibration");
    if (lib.applyCalibration) throwsScoreError(lib, () => lib.applyCalibration([0.5], { method: "platt", a: -1, b: null }), "INVALID_TYPE", "calibration.b");
    if (lib.applyCalibration) {
      eq(said(() => lib.applyCalibration([0.5], { x: [0, 1], y: [0, 1], methd: "isotonic" }), "calibration.methd"), `unknown field \`methd\`, ${listed}; did you mean \`method\`?`);
    }
  });

  test("the lab's type errors are said for a JavaScript caller: no Rust type or serde word, the value as written", () => {
    assert(lib.evaluate, "calibrank/lab's evaluate is missing: every runner of the suite merges calibrank and calibrank/lab");
    const said = (fn, code, field) => throwsScoreError(lib, fn, code, field).message;
    const s = [0.1, 0.4, 0.35, 0.8, 0.9, 0.2];
    const l = [0, 0, 1, 1, 1, 0];
    eq(said(() => lib.proposeBands(s, l, { seed: 2 ** 53 }), "INVALID_TYPE", "options.seed"), "expected a whole number from 0 to 9007199254740991, got 9007199254740992");
    eq(said(() => lib.proposeBands(s, l, { seed: 1e21 }), "INVALID_TYPE", "options.seed"), "expected a whole number from 0 to 9007199254740991, got 1e+21");
    eq(said(() => lib.proposeBands(s, l, { folds: 1.5 }), "INVALID_TYPE", "options.folds"), "expected a whole number from 0 to 9007199254740991, got 1.5");
    eq(said(() => lib.proposeBands(s, l, { seed: -1 }), "INVALID_TYPE", "options.seed"), "expected a whole number from 0 to 9007199254740991, got -1");
    eq(said(() => lib.calibrationError([0.1, 0.9], [0, 1], { bins: null }), "INVALID_TYPE", "options.bins"), "expected a whole number from 0 to 9007199254740991, got null");
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
    // Said with the value, where they were not (a runtime walkthrough's list).
    eq(said(() => lib.defaultLimits(42), "fn"), 'expected a function name (a string, as "rrf"), got 42');
    eq(said(() => lib.defaultLimits(null), "fn"), 'expected a function name (a string, as "rrf"), got null');
    const p = new lib.Pipeline({ minConfidence: 0 });
    eq(said(() => p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x: new Map([["name", "n"]]) } }), "items.x"), "expected an object with the item's fields, got a Map");
    p.free();
    const range = (config, field) => throwsScoreError(lib, () => new lib.Pipeline(config), field === "topK" ? "INVALID_TOP_K" : "INVALID_CONFIG", `config.${field}`).message;
    eq(range({ rerank: { candidateLimit: 0 } }, "rerank.candidateLimit"), "must be >= 1, got 0");
    eq(range({ topK: 0 }, "topK"), "topK must be >= 1, got 0");
    eq(range({ confidence: { k: 0 } }, "confidence.k"), "must be >= 1, got 0");
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
      // A value that is not JSON inside a calibration: the three readers (the pipeline's
      // compact form, the core module's, the lab's serde) word it alike.
      [() => new lib.Pipeline({ calibration: { method: "isotonic", thresholds: [() => 1], values: [1] } }), "config.calibration.thresholds[0]", "expected JSON, got function"],
      [() => new lib.Pipeline({ calibration: { method: "platt", a: -1, b: 0, x: 1n } }), "config.calibration.x", "expected JSON, got bigint"],
      [() => lib.applyCalibration([0.5], { method: "isotonic", thresholds: [() => 1], values: [1] }), "calibration.thresholds[0]", "expected JSON, got function"],
      [() => lib.applyCalibration([0.5], { method: "platt", a: -1, b: 0, x: 1n }), "calibration.x", "expected JSON, got bigint"],
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
        [() => lib.rrfColumnar(["x"], [0, 1], 1), "docs[0]", 'expected a whole number from 0 to 4294967295, got "x"'],
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
        [() => lib.rrfColumnar([1.5], [0, 1], 2), "docs[0]", "expected a whole number from 0 to 4294967295, got 1.5"],
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
      // A metric compared without its cut-off or options, which the name suggested keeps
      // (following a hint of "ndcg" alone gave a full-depth nDCG without a word).
      const metric = (name, suggested) => near(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["mrr", name]), "metrics[1]", suggested);
      metric("ndgc@10", "ndcg@10");
      metric("NDCG@10", "ndcg@10");
      metric("NDCG-l2", "ndcg-l2");
      metric("Ndcg_Burges@5-l2", "ndcg_burges@5-l2");
      // trec_eval's names, as its -m takes them and as it prints them, get ranx's.
      metric("P_10", "precision@10");
      metric("P.5", "precision@5");
      metric("recall_100", "recall@100");
      metric("ndcg_cut_10", "ndcg@10");
      metric("map_cut_1000", "map@1000");
      metric("success_1", "hit_rate@1");
      metric("recip_rank", "mrr");
      metric("Rprec", "r-precision");
      // A cut-off written without its `@`, and trec_eval's names with one.
      metric("ndcg10", "ndcg@10");
      metric("mrr5-l2", "mrr@5-l2");
      metric("Map100", "map@100");
      metric("P@10", "precision@10");
      metric("success@5", "hit_rate@5");
      metric("ndcg_cut@5", "ndcg@5");
      assert(!said(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["foo10"]), "metrics[0]").includes("did you mean"), "foo10");
      // A relevance level stays one (its digits are no cut-off); a cut-off the lab would refuse is not suggested.
      metric("Precision-l2", "precision-l2");
      metric("recal-l2", "recall-l2");
      metric("Hit_rate-l1", "hit_rate-l1");
      metric("R-Precision-l2", "r-precision-l2");
      metric("ndcg18446744073709551615", "ndcg@18446744073709551615");
      for (const name of ["ndcg18446744073709551616", "ndcg100000000000000000000"]) assert(!said(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, [name]), "metrics[0]").includes("did you mean"), name);
      // A suggestion is a name the lab takes: no cut-off on r-precision, no trec_eval cut-off of 0.
      metric("R-Precision@10", "r-precision");
      metric("r_precision@5-l2", "r-precision-l2");
      assert(!said(() => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["P_0"]), "metrics[0]").includes('"precision@0"'), "P_0");
      // Each name suggested is one the lab takes.
      const taken = ["ndcg@10", "precision-l2", "recall-l2", "hit_rate-l1", "ndcg@18446744073709551615", "mrr@5-l2", "map@100", "hit_rate@5", "ndcg@5", "ndcg-l2", "ndcg_burges@5-l2", "precision@10", "precision@5", "recall@100", "map@1000", "hit_rate@1", "mrr", "r-precision", "r-precision-l2", "ndcg"];
      eq(Object.keys(lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, taken)).sort(), [...taken].sort());
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
    // Every one of the nearest, in the list's order (`topK` and `topN` are both one edit
    // from `topM`; `rprecision` from `precision` and `r-precision`); a third of the key's
    // length, the key there is (`now`, 3 characters, one edit from `nw`).
    assert(said(() => new lib.Pipeline({ topM: 1 }), "config.topM").endsWith("; did you mean `topK` or `topN`?"), "topM");
    assert(throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["rprecision"]), "UNKNOWN_METHOD", "metrics[0]").message.endsWith('; did you mean "precision" or "r-precision"?'), "rprecision");
    assert(throwsScoreError(lib, () => lib.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["rprecision@5-l2"]), "UNKNOWN_METHOD", "metrics[0]").message.endsWith('; did you mean "precision@5-l2" or "r-precision-l2"?'), "rprecision@5-l2");
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
    // A required field of runColumnar's input not given: INVALID_CONFIG, as run's `lists`.
    {
      const docs = new Uint32Array([0]);
      const offsets = new Uint32Array([0, 1]);
      for (const [input, field] of [[{ offsets, nDocs: 1 }, "docs"], [{ docs, nDocs: 1 }, "offsets"], [{ docs, offsets }, "nDocs"]])
        eq(throwsScoreError(lib, () => new lib.Pipeline().runColumnar(input), "INVALID_CONFIG", field).message, `missing field \`${field}\``, field);
    }
    // Counts with their nouns in the singular for one; an Int typed array with "an".
    eq(throwsScoreError(lib, () => lib.rrf([["a"], ["b"]], { weights: [1] }), "LENGTH_MISMATCH", "options.weights").message, "weights: 1, lists: 2 (one weight per list)");
    eq(throwsScoreError(lib, () => new lib.Pipeline().run({ lists: [{ name: "a", ids: ["x", "y"], scores: [1] }] }), "LENGTH_MISMATCH", "lists[0].scores").message, "scores: 1, ids: 2 (one score per id)");
    eq(throwsScoreError(lib, () => lib.normalize(new Int32Array([1]), "max"), "INVALID_TYPE", "scores").message, "expected a Float64Array or an array of numbers, got an Int32Array");
    // A duplicate id or list name is shown to its first 64 characters, as every string of yours.
    {
      const long = "y".repeat(100_000);
      const m = throwsScoreError(lib, () => lib.rerank("q", [{ id: long, score: 1, name: "n" }, { id: long, score: 1, name: "n" }], { limits: { maxIdBytes: 200_000 } }), "DUPLICATE_ID", "candidates[1].id").message;
      eq(m, `id "${"y".repeat(64)}"... (100000 bytes) appears twice`);
      const name = "n".repeat(1000);
      const n = throwsScoreError(lib, () => new lib.Pipeline().run({ lists: [{ name, ids: ["a"] }, { name, ids: ["b"] }] }), "DUPLICATE_ID", "lists[1].name").message;
      eq(n, `list name "${"n".repeat(64)}"... (1000 bytes) is used twice`);
    }
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
    // (An object of a class without fields of its own is refused too: caller-code.js, "an
    // instance of a class without fields of its own ...".)
    class Meta {}
    for (const x of [{}, Object.create(null), Object.create(new Meta())]) eq(p.run({ lists: [{ name: "a", ids: ["x"] }], items: { x } }).stats.candidates, 1);
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
    // No list: offsets [0], or [] with docs empty (as the declarations say); [] with docs
    // is refused on offsets.
    for (const offsets of [[0], []]) {
      eq(Array.from(lib.rrfColumnar([], offsets, 3).order), [], `rrfColumnar, offsets ${JSON.stringify(offsets)}`);
      eq(p.runColumnar({ docs: new Uint32Array(0), offsets: new Uint32Array(offsets), nDocs: 3 }).candidates, 0);
    }
    throwsScoreError(lib, () => lib.rrfColumnar([0], [], 2), "LENGTH_MISMATCH", "offsets");
    throwsScoreError(lib, () => p.runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array(0), nDocs: 1 }), "LENGTH_MISMATCH", "offsets");
    // After all of that, a valid call still works and gives the same answer.
    eq(lib.rrf([["a", "x", "y"], ["p", "q", "a"]])[0], ["a", 1 / 61 + 1 / 63]);
    eq(p.run(seedInput()).results[0].id, "A");
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

  test("error codes are exported and complete", () => {
    const codes = lib.errorCodes();
    assert(codes.includes("INVALID_TOP_N") && codes.includes("NON_FINITE_SCORE"), "codes");
    assert(typeof lib.version() === "string", "version");
  });
}
