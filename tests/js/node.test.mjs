// The JS suite against the built package in Node: through the ESM entry (import) and
// the CommonJS entry (require), both resolved by the package's exports map.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { runInNewContext } from "node:vm";
import { fileURLToPath } from "node:url";
import { dirname } from "node:path";
import * as esmCore from "calibrank";
import * as esmLab from "calibrank/lab";
import { tests } from "./suite.js";

const golden = JSON.parse(readFileSync(new URL("../golden/vectors.json", import.meta.url), "utf8"));
const req = createRequire(import.meta.url);
// The suite sees both entries as one library: the core (`calibrank`) and the lab
// (`calibrank/lab`), which share one ScoreError class.
const esm = { ...esmLab, ...esmCore };
const cjs = { ...req("calibrank/lab"), ...req("calibrank") };

for (const t of tests(esm, golden)) test(`esm: ${t.name}`, t.fn);
for (const t of tests(cjs, golden)) test(`cjs: ${t.name}`, t.fn);

test("the exports map resolves node entries", () => {
  const req = createRequire(import.meta.url);
  const resolved = req.resolve("calibrank");
  if (!resolved.endsWith("node.cjs")) throw new Error(`require resolved to ${resolved}`);
  if (!(esm.ScoreError.prototype instanceof Error)) throw new Error("ScoreError extends Error");
  if (!req.resolve("calibrank/lab").endsWith("lab.node.cjs")) throw new Error("calibrank/lab resolves to the lab's node entry");
});

test("one ScoreError class for both entries, in ESM and in CommonJS", () => {
  if (esmCore.ScoreError !== esmLab.ScoreError) throw new Error("ESM: core and lab ScoreError differ");
  if (req("calibrank").ScoreError !== req("calibrank/lab").ScoreError) throw new Error("CJS: core and lab ScoreError differ");
  if (esmCore.ScoreError !== req("calibrank").ScoreError) throw new Error("ESM and CJS ScoreError differ (dual package hazard)");
  try {
    esmLab.fitPlatt([0.2, 0.4], [0, 2]);
    throw new Error("no error");
  } catch (e) {
    if (!(e instanceof esmCore.ScoreError)) throw new Error(`a lab error is not a core ScoreError: ${e}`);
  }
});

test("errors inside configurations and options name the full path of the value at fault (calibrank and calibrank/lab, ESM and CommonJS)", () => {
  const q = [[{ id: "a", score: 1 }]];
  const cand = [{ id: "a", score: 1, name: "n" }];
  const runs = [{ q: { a: 1 } }, { q: { a: 1 } }];
  const cases = (core, lab) => [
    // calibrank: Pipeline configurations, three and four levels down, arrays and maps.
    [() => new core.Pipeline({ recency: { fiscalYear: { windw: 3 } } }), "UNKNOWN_FIELD", "config.recency.fiscalYear.windw"],
    [() => new core.Pipeline({ topK: "x" }), "INVALID_TYPE", "config.topK"],
    [() => new core.Pipeline({ bands: { hit: "x" } }), "UNKNOWN_FIELD", "config.bands.hit"],
    [() => new core.Pipeline({ rerank: { terms: [1] } }), "UNKNOWN_FIELD", "config.rerank.terms"],
    [() => new core.Pipeline({ bands: { profiles: [{ name: "a", highFloor: 1, degradedFloor: 0 }, { name: 2, highFloor: 1, degradedFloor: 0 }] } }), "INVALID_TYPE", "config.bands.profiles[1].name"],
    [() => new core.Pipeline({ rerank: { heuristic: { typeMultipliers: { class: "x" } } } }), "INVALID_TYPE", "config.rerank.heuristic.typeMultipliers.class"],
    [() => new core.Pipeline({ weights: { semantic: 1, keyword: "x" } }), "INVALID_TYPE", "config.weights.keyword"],
    [() => new core.Pipeline({ normalization: { method: "minmax" } }), "UNKNOWN_METHOD", "config.normalization.method"],
    [() => new core.Pipeline({ calibration: { method: "beta" } }), "UNKNOWN_METHOD", "config.calibration.method"],
    [() => new core.Pipeline({ calibration: { method: "platt", a: 1 } }), "INVALID_CONFIG", "config.calibration.b"],
    // The buffered Calibration: a value's fault where it is (src/pipeline/tagged.rs places it).
    [() => new core.Pipeline({ calibration: { method: "platt", a: "x", b: 1 } }), "INVALID_TYPE", "config.calibration.a"],
    // A misspelled sigmoid field is refused (it was ignored, leaving the default).
    [() => new core.Pipeline({ calibration: { method: "sigmoid", treshold: 0.02 } }), "UNKNOWN_FIELD", "config.calibration.treshold"],
    [() => core.defaultLimits("pipeline"), "UNKNOWN_METHOD", "fn"],
    // Normalized scores lie in [0, 1]: so must the floor.
    [() => new core.Pipeline({ normalization: { method: "max", minRelevance: 5 } }), "INVALID_CONFIG", "config.normalization.minRelevance"],
    // calibrank: options of the functions.
    [() => core.rrf([["a"], ["b"]], { weights: [1, "x"] }), "INVALID_TYPE", "options.weights[1]"],
    [() => core.rrf([["a"]], { k: "x" }), "INVALID_TYPE", "options.k"],
    // Two faults: `k` is reported before the weights, by every fusion call (as Rust's
    // `rrf` and `Pipeline` check them); the columnar calls checked the weights first.
    [() => core.rrf([["a"]], { k: 0, weights: [-1] }), "INVALID_K", "options.k"],
    [() => core.rrf([["a"]], { weights: [-1] }), "INVALID_WEIGHT", "options.weights[0]"],
    [() => core.rrfColumnar(new Uint32Array([0]), new Uint32Array([0, 1]), 1, { k: 0, weights: [-1] }), "INVALID_K", "options.k"],
    [() => core.rrfColumnar(new Uint32Array([0]), new Uint32Array([0, 1]), 1, { weights: [1, 1] }), "LENGTH_MISMATCH", "options.weights"],
    [() => core.rrf([["a"]], { limits: { maxLists: "x" } }), "INVALID_TYPE", "options.limits.maxLists"],
    [() => core.fuseMultiQuery(q, { method: "mean" }), "UNKNOWN_METHOD", "options.method"],
    [() => core.fuseMultiQuery([[], [{ id: "b", score: "x" }]]), "INVALID_TYPE", "queries[1][0].score"],
    [() => core.rerank("q", cand, { stopwords: ["a", 1] }), "INVALID_TYPE", "options.stopwords[1]"],
    [() => core.normalize([1, 2], "softmax", { temperature: "x" }), "INVALID_TYPE", "options.temperature"],
    [() => core.calibrate([0.5], { steepness: "x" }), "INVALID_TYPE", "options.steepness"],
    [() => core.classifyBand(0.5, { highFloor: "x" }), "INVALID_TYPE", "options.highFloor"],
    [() => core.queryConfidence([0.5], { weights: [1, 1, "x", 1, 1] }), "INVALID_TYPE", "options.weights[2]"],
    // calibrank/lab.
    [() => lab.fitPlatt([0.2, 0.8], [0, 1], { limits: { maxListLength: "x" } }), "INVALID_TYPE", "options.limits.maxListLength"],
    [() => lab.fitIsotonic([0.2, 0.8], [0, 1], { limits: { bogus: 1 } }), "UNKNOWN_FIELD", "options.limits.bogus"],
    [() => lab.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["mrr"], { ties: 3 }), "INVALID_TYPE", "options.ties"],
    [() => lab.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, ["mrr"], { tie: "ranx" }), "UNKNOWN_FIELD", "options.tie"],
    [() => lab.fuseRuns(runs, { method: "wsum", weights: [1, "x"] }), "INVALID_TYPE", "options.weights[1]"],
    [() => lab.fuseRuns(runs, { method: "rbc", params: { phi: "x" } }), "INVALID_TYPE", "options.params.phi"],
    [() => lab.optimizeFusion({ q: { a: 1 } }, runs, { method: "wsum", metric: 3 }), "INVALID_TYPE", "options.metric"],
    // A bad k of the RRF search is named where it was given (was `options.params.k`).
    [() => lab.optimizeFusion({ q: { a: 1 } }, runs, { method: "rrf", metric: "ndcg@3", kValues: [10, -1] }), "INVALID_CONFIG", "options.kValues[1]"],
    [() => lab.optimizeFusion({ q: { a: 1 } }, runs, { method: "rrf", metric: "ndcg@3", kValues: [NaN] }), "INVALID_CONFIG", "options.kValues[0]"],
    [() => lab.calibrationError([0.5], [1], { bins: "x" }), "INVALID_TYPE", "options.bins"],
    [() => lab.calibrationError([0.5], [1], { strategy: "x" }), "UNKNOWN_METHOD", "options.strategy"],
    [() => lab.proposeBands([0.5], [1], { folds: "x" }), "INVALID_TYPE", "options.folds"],
    [() => lab.applyCalibration([0.5], { method: "platt", a: "x", b: 1 }), "INVALID_TYPE", "calibration.a"],
    [() => lab.applyCalibration([0.02], { method: "sigmoid", treshold: 0.02 }), "UNKNOWN_FIELD", "calibration.treshold"],
    [() => lab.defaultLimits("nope"), "UNKNOWN_METHOD", "fn"],
  ];
  for (const [core, lab] of [[esmCore, esmLab], [req("calibrank"), req("calibrank/lab")]]) {
    for (const [f, code, field] of cases(core, lab)) {
      assert.throws(f, (e) => {
        assert.ok(e instanceof esmCore.ScoreError, `${field}: ${e}`);
        assert.deepEqual({ code: e.code, field: e.field }, { code, field });
        return true;
      });
    }
  }
});

test("defaultLimits(fn) answers for every function that takes limits, the names of LimitedFunction in the .d.ts", () => {
  const dts = readFileSync(new URL("../../pkg/core.d.ts", import.meta.url), "utf8");
  const union = /export type LimitedFunction =([^;]*);/.exec(dts);
  assert.ok(union, "core.d.ts declares LimitedFunction");
  const names = [...union[1].matchAll(/"([A-Za-z.]+)"/g)].map((m) => m[1]);
  assert.ok(names.length >= 25);
  const budgets = {
    rrf: 500_000, Pipeline: 400_000, fuseMultiQuery: 300_000, rerank: 50_000, parseTrecRun: 250_000, parseQrels: 250_000,
    evaluate: 1_000_000, evaluatePerQuery: 1_000_000, fuseRuns: 250_000,
    "Run.fromTrec": 250_000, "Run.fromObject": 250_000, "Qrels.fromTrec": 250_000, "Qrels.fromObject": 250_000,
  };
  for (const entry of [esmCore, esmLab, req("calibrank"), req("calibrank/lab")])
    for (const fn of names) assert.equal(entry.defaultLimits(fn).maxTotalEntries, budgets[fn] ?? 100_000, fn);
  // The methods of Run and Qrels answer with the limits of the parse they share, whole.
  assert.deepEqual(esmLab.defaultLimits("Qrels.fromObject"), esmLab.defaultLimits("parseQrels"));
  assert.throws(() => esmCore.defaultLimits("Run.fromtrec"), (e) => e.code === "UNKNOWN_METHOD" && e.field === "fn" && /Run\.fromTrec/.test(e.message));
  // Every exported function that takes options with limits is among them.
  const exported = Object.keys(esm).filter((k) => typeof esm[k] === "function" && /^[a-z]/.test(k) && !k.startsWith("__"));
  const without = new Set(["classifyBand", "defaultLimits", "errorCodes", "version", "initSync"]);
  assert.deepEqual(exported.filter((k) => !without.has(k) && !names.includes(k)), []);
  assert.ok(names.includes("Pipeline"));
});

test("a Run or Qrels of the ESM entry given to the CommonJS entry is refused (each loads its own module)", () => {
  const cjsLab = req("calibrank/lab");
  const run = esmLab.Run.fromObject({ q: { a: 2, b: 1 } });
  const qrels = esmLab.Qrels.fromObject({ q: { a: 1 } });
  const cjsQrels = cjsLab.Qrels.fromObject({ q: { a: 1 } });
  const refused = (f, field) =>
    assert.throws(f, (e) => e instanceof esm.ScoreError && e.code === "INVALID_TYPE" && e.field === field && /another copy/.test(e.message));
  try {
    // Read as an empty object before: mrr 0 instead of 1, with no error.
    refused(() => cjsLab.evaluate(cjsQrels, run, ["mrr"]), "run");
    refused(() => cjsLab.evaluate(qrels, { q: { a: 1 } }, ["mrr"]), "qrels");
    refused(() => cjsLab.fuseRuns([{ q: { a: 1 } }, run], { method: "rrf" }), "runs[1]");
    refused(() => cjsLab.Run.fromObject(run), "run");
    // Freed, it is still another copy's.
    run.free();
    refused(() => cjsLab.evaluate(cjsQrels, run, ["mrr"]), "run");
    // Each entry with its own objects works.
    const own = cjsLab.Run.fromObject({ q: { a: 2, b: 1 } });
    assert.equal(cjsLab.evaluate(cjsQrels, own, ["mrr"]).mrr, 1);
    own.free();
  } finally {
    qrels.free();
    cjsQrels.free();
  }
});

test("an Items made through one build (ESM or CommonJS) serves a Pipeline of the other", () => {
  const items = { a: { modifiedAt: Date.UTC(2026, 0, 1) }, b: { modifiedAt: Date.UTC(2025, 0, 1) }, c: null };
  const input = { lists: [{ name: "s", ids: ["b", "a", "c", "d"] }], now: Date.UTC(2026, 0, 2) };
  for (const [made, ran] of [[cjs, esm], [esm, cjs]]) {
    const p = new ran.Pipeline({ minConfidence: 0 });
    assert.deepEqual(p.run({ ...input, items: new made.Items(items) }), p.run({ ...input, items }));
    assert.equal(new ran.Items(new made.Items(items)).size, 3);
    // The brand the declarations give both builds' Items (core.d.ts).
    assert.equal(Object.prototype.toString.call(new made.Items(items)), "[object Items]");
    p.free();
  }
});

test("inherited keys (a polluted Object.prototype) are not read as options, inputs or item fields", () => {
  const lists = [["a", "b"], ["b", "c"]];
  const input = { query: "alpha beta", lists: [{ name: "s", ids: ["a", "b", "c"] }, { name: "t", ids: ["c", "a"] }], items: { a: { name: "alpha" } } };
  const p = new esm.Pipeline({ topN: 3, minConfidence: 0, rerank: { method: "heuristic" } });
  const pc = new esm.Pipeline({ topN: 3, minConfidence: 0 });
  const clean = { rrf: esm.rrf(lists, {}), run: p.run(input), columnar: pc.runColumnar({ docs: new Uint32Array([0, 1, 2]), offsets: new Uint32Array([0, 3]), nDocs: 3 }) };
  const polluted = { k: 1, weights: [5, 1], limits: { maxLists: 1 }, items: { b: { name: "beta" } }, name: "beta", summary: "alpha beta", query: "zzz", now: 0, modifiedAt: new Float64Array(3) };
  for (const [k, v] of Object.entries(polluted)) Object.prototype[k] = v;
  try {
    assert.deepEqual(esm.rrf(lists, {}), clean.rrf);
    assert.deepEqual(p.run(input), clean.run);
    assert.deepEqual(pc.runColumnar({ docs: new Uint32Array([0, 1, 2]), offsets: new Uint32Array([0, 3]), nDocs: 3 }), clean.columnar);
    // limits inherited (maxListLength 1 would refuse three scores), and a calibration's knots.
    Object.prototype.limits = { maxListLength: 1 };
    assert.equal(esm.normalize([1, 2, 3], "max", {}).length, 3);
    assert.equal(esm.fitPlatt([0.1, 0.5, 0.9], [0, 1, 1], {}).method, "platt");
    Object.prototype.x = [0, 1];
    Object.prototype.y = [0, 1];
    assert.throws(() => esm.applyCalibration([0.5], { method: "isotonic" }), (e) => e instanceof esm.ScoreError);
  } finally {
    for (const k of [...Object.keys(polluted), "x", "y"]) delete Object.prototype[k];
    p.free();
    pc.free();
  }
});

test("inputs given as class instances with getters, and items with a prototype of their own, are read as before", () => {
  const p = new esm.Pipeline({ topN: 3, minConfidence: 0, rerank: { method: "heuristic" } });
  try {
    class List {
      get name() {
        return "s";
      }
      get ids() {
        return ["a", "b", "c"];
      }
    }
    class Input {
      get query() {
        return "alpha";
      }
      get lists() {
        return [new List()];
      }
    }
    const plain = p.run({ query: "alpha", lists: [{ name: "s", ids: ["a", "b", "c"] }] });
    assert.deepEqual(p.run(new Input()), plain);
    // An item's inherited known field is read, an inherited unknown key ignored; an own
    // unknown key is UNKNOWN_FIELD.
    const item = Object.assign(Object.create({ source: "db", name: "beta" }), { summary: "alpha" });
    const viaProto = p.run({ query: "beta", lists: [{ name: "s", ids: ["a", "b"] }], items: { b: item } });
    const direct = p.run({ query: "beta", lists: [{ name: "s", ids: ["a", "b"] }], items: { b: { name: "beta", summary: "alpha" } } });
    assert.deepEqual(viaProto, direct);
    assert.throws(() => p.run({ query: "q", lists: [{ name: "s", ids: ["a"] }], items: { a: { source: "db" } } }), (e) => e.code === "UNKNOWN_FIELD" && e.field === "items.a.source");
    const pc = new esm.Pipeline({ topN: 3, minConfidence: 0 });
    class Columnar {
      get docs() {
        return new Uint32Array([0, 1, 2]);
      }
      get offsets() {
        return new Uint32Array([0, 3]);
      }
      get nDocs() {
        return 3;
      }
    }
    assert.deepEqual(pc.runColumnar(new Columnar()), pc.runColumnar({ docs: new Uint32Array([0, 1, 2]), offsets: new Uint32Array([0, 3]), nDocs: 3 }));
    pc.free();
  } finally {
    p.free();
  }
});

test("Pipeline.run reads each list's ids length once", () => {
  const p = new esm.Pipeline({ topN: 3, minConfidence: 0 });
  let reads = 0;
  const ids = new Proxy(["a", "b", "c"], {
    get(t, k, r) {
      if (k === "length") return ++reads === 1 ? 3 : 100;
      return Reflect.get(t, k, r);
    },
  });
  try {
    assert.deepEqual(p.run({ lists: [{ name: "s", ids }] }).results.map((r) => r.id), ["a", "b", "c"]);
    assert.equal(reads, 1);
  } finally {
    p.free();
  }
});

test("options, configurations, context and metric names past 2 x limits.maxTextBytes characters of JSON are refused before they are copied, and before the rest is read", () => {
  // 2 x maxTextBytes (2,000,000 by default) of the call's limits or the defaults, whichever
  // is larger; it was 4 x maxTotalTextBytes + 64 x the entry budget (153,600,000 for a
  // Pipeline), where 12 million recency steps took 23 s to read.
  const long = "x".repeat(2_000_001);
  const tooLarge = (f, field) =>
    assert.throws(f, (e) => e instanceof esm.ScoreError && e.code === "INPUT_TOO_LARGE" && e.field === field && /^the JSON text is (longer than 2000000|200\d{4} characters, above 2000000)(?: characters)? \(2 x limits\.maxTextBytes, of this call's limits or of the defaults, whichever is larger; as the package writes it, each number that is no safe integer takes 25 characters, its exact bits: an isotonic calibration of more than about 38,000 knots needs limits\.maxTextBytes raised\)$/.test(e.message), field);
  tooLarge(() => esm.normalize([1], "max", { extra: long }), "options");
  tooLarge(() => esm.rrf([["a"]], { extra: long }), "options");
  tooLarge(() => new esm.Pipeline({ extra: long }), "config");
  const p = new esm.Pipeline({});
  try {
    tooLarge(() => p.run({ lists: [{ name: "a", ids: ["x"] }], context: { extra: long } }), "context");
  } finally {
    p.free();
  }
  tooLarge(() => esm.evaluate({ q: { a: 1 } }, { q: { a: 1 } }, [long]), "metrics");
  tooLarge(() => esm.fitPlatt([0.1, 0.9], [0, 1], { extra: long }), "options");
  // Raised limits raise the bound: refused by the module as an unknown field instead.
  assert.throws(() => esm.normalize([1], "max", { extra: long, limits: { maxTextBytes: 4_000_000 } }), (e) => e.code === "UNKNOWN_FIELD");
  // A configuration of ten million steps is refused once its text is known to be past
  // the bound: its steps are not all read (each read counted through a Proxy).
  let reads = 0;
  const steps = new Proxy(new Array(10_000_000), {
    get(t, k) {
      if (k !== "length" && typeof k === "string") {
        reads++;
        return [Number(k) + 1, 1];
      }
      return Reflect.get(t, k);
    },
  });
  tooLarge(() => new esm.Pipeline({ recency: { steps } }), "config");
  assert.ok(reads < 800_000, `${reads} steps read of 10,000,000`);
});

test("importing the core entry does not load the lab module", async () => {
  const { execFileSync } = await import("node:child_process");
  // A fresh process: which .wasm files does importing "calibrank" read?
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", `
    import fs from "node:fs";
    const read = fs.readFileSync;
    const seen = [];
    fs.readFileSync = function (p, ...a) { seen.push(String(p)); return read.call(this, p, ...a); };
    const { createRequire } = await import("node:module");
    const req = createRequire(process.cwd() + "/");
    req("calibrank").rrf([["a"]]);
    console.log(JSON.stringify(seen.filter((p) => p.endsWith(".wasm"))));
  `], { cwd: new URL("../..", import.meta.url).pathname, encoding: "utf8" });
  const wasm = JSON.parse(out.trim());
  if (wasm.length !== 1 || !wasm[0].endsWith("calibrank_core.wasm")) throw new Error(`importing calibrank read ${out}`);
});

test("lone surrogates are found without String.prototype.isWellFormed (engines before it)", async () => {
  const { execFileSync } = await import("node:child_process");
  // A fresh process whose engine lacks isWellFormed: the package falls back to a regular
  // expression; the same refusals, and a surrogate pair still accepted.
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", `
    delete String.prototype.isWellFormed;
    const core = await import("calibrank");
    const lab = await import("calibrank/lab");
    const seen = [];
    const code = (f) => { try { f(); seen.push("ok"); } catch (e) { seen.push(e.code + " " + e.field); } };
    code(() => core.fuseMultiQuery([[{ id: "x\\uDC00", score: 1 }]]));
    code(() => core.rerank("q", [{ id: "a", name: "q", score: 1 }, { id: "b\\uD800", name: "q", score: 1 }]));
    code(() => lab.evaluate({ q1: { d: 1 } }, { q1: { "x\\uD800y": 1 } }, ["mrr"]));
    code(() => lab.parseTrecRun("q1 Q0 d\\uDC00 1 1.0 r\\n"));
    code(() => new core.Pipeline().run({ lists: [{ name: "\\uDFFF", ids: ["d"] }] }));
    code(() => core.fuseMultiQuery([[{ id: "x\\uD83D\\uDE00", score: 1 }]]));
    code(() => lab.evaluate({ q1: { d: 1 } }, { q1: { "\\uD83D\\uDE00": 1 } }, ["mrr"]));
    console.log(JSON.stringify([typeof String.prototype.isWellFormed, seen]));
  `], { cwd: new URL("../..", import.meta.url).pathname, encoding: "utf8" });
  assert.deepEqual(JSON.parse(out.trim()), [
    "undefined",
    ["INVALID_TYPE queries[0][0].id", "INVALID_TYPE candidates[1].id", "INVALID_TYPE run.q1", "INVALID_TYPE text", "INVALID_TYPE lists[0].name", "ok", "ok"],
  ]);
});

test("a string table the engine cannot build is INPUT_TOO_LARGE, not a trap of the module", () => {
  // Near the text ceilings a part of the string table (js/wire/input.js `joinedParts`:
  // strings concatenated, then encoded) can exceed V8's longest string (2^29 - 24
  // characters: one string that long and the strings before it); building such inputs
  // takes gigabytes, so the engine's refusal is simulated, from the encoder given the
  // part. Before, it was reported as a trap (INTERNAL) and the module restarted.
  const p = new esm.Pipeline();
  const before = p.run({ lists: [{ name: "l", ids: ["a", "b"] }] });
  // 70 ids: rrf's calls under 64 entries send no string table (js/core/fuse.js).
  const ids = Array.from({ length: 70 }, (_, i) => `a-long-enough-id-${i}`);
  const encodeInto = TextEncoder.prototype.encodeInto;
  TextEncoder.prototype.encodeInto = function (s, into) {
    if (s.startsWith(ids[0] + ids[1])) throw new RangeError("Invalid string length");
    return encodeInto.call(this, s, into);
  };
  let err;
  try {
    esm.rrf([ids]);
  } catch (e) {
    err = e;
  } finally {
    TextEncoder.prototype.encodeInto = encodeInto;
  }
  assert.ok(err instanceof esm.ScoreError, String(err));
  assert.equal(err.code, "INPUT_TOO_LARGE");
  // The module was not restarted: a pipeline made before still runs, with the same results.
  assert.deepEqual(p.run({ lists: [{ name: "l", ids: ["a", "b"] }] }), before);
  assert.equal(esm.rrf([ids]).length, 70);
  p.free();
});

test("a value whose JSON text would be longer than the engine's longest string is INPUT_TOO_LARGE", () => {
  // An array that claims a billion entries inside a configuration or `context`: V8's
  // JSON.stringify refuses it at once ("Invalid string length"), which reached the
  // caller as a bare RangeError before. (Bun reads such an array entry by entry: the
  // test is V8's.)
  const claims = () => new Proxy([1, 2], { get: (t, k) => (k === "length" ? 1e9 : t[k]) });
  const check = (fn, field) => {
    const err = (() => {
      try {
        fn();
      } catch (e) {
        return e;
      }
    })();
    assert.ok(err instanceof esm.ScoreError, String(err));
    assert.equal(err.code, "INPUT_TOO_LARGE");
    assert.equal(err.field, field);
    assert.match(err.message, /JSON text.*Invalid string length/);
  };
  check(() => new esm.Pipeline({ calibration: { method: "isotonic", x: claims(), y: [0, 1] } }), "config");
  const p = new esm.Pipeline();
  const input = { lists: [{ name: "l", ids: ["a", "b"] }, { name: "m", ids: ["b"] }] };
  const before = p.run(input);
  check(() => p.run({ ...input, context: { tags: claims() } }), "context");
  check(() => esm.normalize([1, 2], "min_max", { extra: claims() }), "options");
  // The same message thrown by the caller's own code (toJSON, a getter) is the caller's:
  // passed on as it is (JSON.stringify did not throw it).
  const mine = new RangeError("Invalid string length");
  for (const hostile of [{ toJSON: () => { throw mine; } }, { get x() { throw mine; } }]) {
    assert.throws(() => new esm.Pipeline({ calibration: hostile }), (e) => e === mine);
    assert.throws(() => esm.normalize([1, 2], "min_max", { extra: hostile }), (e) => e === mine);
  }
  assert.deepEqual(p.run(input), before);
  p.free();
});

test("typed arrays of another realm (node:vm) cross as this realm's do", () => {
  const other = (code) => runInNewContext(code);
  const s = [0.25, 1.5, -3, 0.1 + 0.2, 7];
  const here = esm.normalize(new Float64Array(s), "min_max");
  assert.deepEqual(Array.from(esm.normalize(other(`new Float64Array([${s.map((x) => x.toString()).join(",")}])`), "min_max")), Array.from(here));
  const docs = [0, 1, 2, 1, 3];
  const offsets = [0, 3, 5];
  const want = esm.rrfColumnar(new Uint32Array(docs), new Uint32Array(offsets), 4);
  const got = esm.rrfColumnar(other(`new Uint32Array([${docs}])`), other(`new Uint32Array([${offsets}])`), 4, { weights: other("new Float64Array([2, 1])") });
  assert.deepEqual(Array.from(got.order), Array.from(esm.rrfColumnar(new Uint32Array(docs), new Uint32Array(offsets), 4, { weights: new Float64Array([2, 1]) }).order));
  assert.deepEqual(Array.from(esm.rrfColumnar(other(`new Uint32Array([${docs}])`), other(`new Uint32Array([${offsets}])`), 4).scores), Array.from(want.scores));
});

test("rrf options: the compact numeric form and the JSON form give the same results and errors", () => {
  // A plain object of numbers takes the compact form; the same options on an object
  // with another prototype take the JSON form (js/core/fuse.js kWeightsLimits).
  const viaJson = (o) => Object.assign(Object.create({ unused: undefined }), o);
  const lists = [["a", "b", "c"], ["c", "a"], ["d"]];
  const cases = [
    {},
    { k: 1 },
    { k: 60, weights: [1, 2, 0.5] },
    { weights: new Float64Array([0, 1, 1]) },
    { limits: { maxTotalEntries: 6 } },
    { k: NaN },
    { k: 0 },
    { weights: [1, -1, 1] },
    { weights: [1, 2] },
    { limits: { maxTotalEntries: 5 } },
    { limits: { maxLists: 0 } },
    { limits: { maxTotalEntries: 2e7 } },
  ];
  const outcome = (f) => {
    try {
      return { ok: f() };
    } catch (e) {
      if (!(e instanceof esm.ScoreError)) throw e;
      return { code: e.code, field: e.field };
    }
  };
  for (const o of cases) {
    const a = outcome(() => esm.rrf(lists, o));
    const b = outcome(() => esm.rrf(lists, viaJson(o)));
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`rrf ${JSON.stringify(o)}: compact ${JSON.stringify(a)} vs JSON ${JSON.stringify(b)}`);
    const docs = new Uint32Array([0, 1, 2, 2, 0, 3]);
    const offsets = new Uint32Array([0, 3, 5, 6]);
    const c = outcome(() => Array.from(esm.rrfColumnar(docs, offsets, 4, o).scores));
    const d = outcome(() => Array.from(esm.rrfColumnar(docs, offsets, 4, viaJson(o)).scores));
    if (JSON.stringify(c) !== JSON.stringify(d)) throw new Error(`rrfColumnar ${JSON.stringify(o)}: compact ${JSON.stringify(c)} vs JSON ${JSON.stringify(d)}`);
  }
});

// Ties as ranx 0.3.21 and trec_eval break them, through the package's Run and Qrels
// handles: every figure of tests/data/ranx_ties_reference.json
// (scripts/ranx_ties_reference.py) to 1e-9, as tests/ranx_ties.rs checks natively.
test("Run/Qrels handles give ranx's and trec_eval's figures, ties included", () => {
  const ref = JSON.parse(readFileSync(new URL("../data/ranx_ties_reference.json", import.meta.url), "utf8"));
  const lab = esmLab;
  const live = lab.__liveHandles();
  const errors = [];
  let checked = 0;
  const compare = (label, want, got) => {
    for (const [m, v] of Object.entries(want)) {
      checked++;
      if (!(Math.abs(got[m] - v) <= 1e-9)) errors.push(`${label} ${m}: ranx ${v}, calibrank ${got[m]}`);
    }
  };
  const fusions = (label, qrels, runs, cases) => {
    for (const c of cases) {
      const fused = lab.fuseRuns(runs, c.options);
      compare(`${label} ${c.name}`, c.means, lab.evaluate(qrels, fused, ref.metrics));
      if (c.firstQuery && !label.endsWith("_int")) {
        // String ids keep their order in an object too.
        const q = Object.keys(fused.toObject())[0];
        const order = Object.keys(fused.toObject()[q]);
        if (order.join(" ") !== c.firstQuery.join(" ")) errors.push(`${label} ${c.name}: fused order differs`);
      }
      fused.free();
    }
  };
  for (const ds of ref.datasets) {
    const qrels = lab.Qrels.fromTrec(ds.qrels);
    const runs = ds.runs.map((t) => lab.Run.fromTrec(t));
    runs.forEach((run, i) => compare(`${ds.name} run ${i}`, ds.plain[i], lab.evaluate(qrels, run, ref.metrics)));
    fusions(ds.name, qrels, runs, ds.fusions);
    const measures = Object.values(ref.trecEvalMeasures);
    runs.forEach((run, i) => compare(`${ds.name} run ${i} trec_eval`, ds.trecEval[i], lab.evaluate(qrels, run, measures, { ties: "trec_eval" })));
    // Plain objects: read as ranx's Run(dict) reads a dict; a fused object returned by
    // fuseRuns is read back as it is (ranx does not sort its fused run again).
    const q = lab.parseQrels(ds.qrels);
    const objects = ds.runs.map((t) => lab.parseTrecRun(t));
    const before = errors.length;
    objects.forEach((o, i) => compare(`${ds.name} run ${i} (object)`, ds.plain[i], lab.evaluate(q, o, ref.metrics)));
    for (const c of ds.fusions) compare(`${ds.name} ${c.name} (objects)`, c.means, lab.evaluate(q, lab.fuseRuns(objects, c.options), ref.metrics));
    if (ds.name.endsWith("_int")) {
      // Ids that look like integers: JS reorders the objects' keys, so figures differ;
      // that is what the handles are for.
      const lost = errors.length - before;
      errors.length = before;
      if (lost === 0) errors.push(`${ds.name}: objects with integer-like ids were expected to lose ranx's order`);
    }
    for (const h of [qrels, ...runs]) h.free();
  }
  const cisi = new URL("../../../shared/data/cisi/", import.meta.url);
  const read = (n) => readFileSync(new URL(n, cisi), "utf8");
  const qrels = lab.Qrels.fromTrec(read("qrels.txt"));
  const runs = ref.cisi.runs.map((n) => lab.Run.fromTrec(read(n)));
  runs.forEach((run, i) => compare(`cisi run ${i}`, ref.cisi.plain[i], lab.evaluate(qrels, run, ref.metrics)));
  fusions("cisi", qrels, runs, ref.cisi.fusions);
  for (const h of [qrels, ...runs]) h.free();
  if (errors.length) throw new Error(`${errors.length} of ${checked} figures differ:\n${errors.join("\n")}`);
  if (checked < 1500) throw new Error(`only ${checked} figures checked`);
  if (lab.__liveHandles() !== live) throw new Error("handles leaked");
});

// The README's split by query: `select` keeps a Run's order, and the fit half of CISI
// (docs/quality.md's: every other query, by number) evaluates as the whole runs' fusion
// does; run objects of the same queries are sorted again, which moves tied documents.
test("a split of CISI's runs by select keeps the whole runs' figures; one by toObject and fromObject does not", () => {
  const lab = esmLab;
  const cisi = new URL("../../../shared/data/cisi/", import.meta.url);
  const read = (n) => readFileSync(new URL(n, cisi), "utf8");
  const live = lab.__liveHandles();
  const runs = ["run.bm25.txt", "run.dense.txt"].map((n) => lab.Run.fromTrec(read(n)));
  const qrels = lab.Qrels.fromTrec(read("qrels.txt"));
  const fit = [...qrels.queryIds].sort((a, b) => Number(a) - Number(b)).filter((_, i) => i % 2 === 0);
  const fitQrels = qrels.select(fit);
  const ndcg = (rs) => {
    const fused = lab.fuseRuns(rs, { method: "rrf" });
    const v = lab.evaluate(fitQrels, fused, ["ndcg@10"])["ndcg@10"];
    fused.free();
    return v;
  };
  const selected = runs.map((r) => r.select(fit));
  const objects = runs.map((r) => {
    const o = r.toObject();
    return lab.Run.fromObject(Object.fromEntries(fit.filter((q) => q in o).map((q) => [q, o[q]])));
  });
  // The reference: the whole runs fused, evaluated on the fit half's judgements (a
  // query's fusion reads that query alone), as ranx evaluates a run.
  const whole = lab.fuseRuns(runs, { method: "rrf" });
  const reference = lab.evaluate(fitQrels, whole, ["ndcg@10"])["ndcg@10"];
  whole.free();
  const bySelect = ndcg(selected);
  const byObjects = ndcg(objects);
  assert.equal(bySelect, reference);
  assert.notEqual(byObjects, reference);
  // The README's figures are these.
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");
  assert.ok(readme.includes(`RRF nDCG@10 moved from ${bySelect.toFixed(4)} to ${byObjects.toFixed(4)}`), "README's split figures");
  for (const h of [...runs, qrels, fitQrels, ...selected, ...objects]) h.free();
  assert.equal(lab.__liveHandles(), live);
});

// The README's "Ties" bullet of the query-confidence model: predictQueryConfidence ranks a
// run's ties by id, the pipeline by list position; fed lists sorted as the README sorts
// them, the pipeline gives the model's probabilities exactly, fed in file order some
// queries differ (the README quotes how many and by how much: these).
test("a query-confidence model: the pipeline fed lists with ties by id gives predictQueryConfidence's probabilities; in file order the README's figures", () => {
  const lab = esmLab;
  const dir = new URL("../../../shared/data/cisi-abstain/", import.meta.url);
  const read = (n) => readFileSync(new URL(n, dir), "utf8");
  const texts = [read("run.bm25.txt"), read("run.dense.txt")];
  const runs = texts.map((t) => lab.parseTrecRun(t));
  const model = lab.fitQueryConfidence(lab.parseQrels(read("qrels.txt")), runs);
  const predicted = lab.predictQueryConfidence(model, runs);
  const fileOrder = texts.map((t) => {
    const m = new Map();
    for (const line of t.split("\n")) {
      const c = line.trim().split(/\s+/);
      if (c.length < 6) continue;
      if (!m.has(c[0])) m.set(c[0], []);
      m.get(c[0]).push([c[2], Number(c[4])]);
    }
    return m;
  });
  const p = new esm.Pipeline({ confidence: { model }, minConfidence: 0 });
  let differ = 0;
  let most = 0;
  const queries = Object.keys(predicted);
  for (const q of queries) {
    // The README's sort: score descending, ties by id.
    const sorted = runs.map((r, i) => {
      const ranked = Object.entries(r[q] ?? {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      return { name: `l${i}`, ids: ranked.map(([id]) => id), scores: ranked.map(([, s]) => s) };
    });
    assert.equal(p.run({ lists: sorted }).outcome.probability, predicted[q], `query ${q}, ties by id`);
    const file = fileOrder.map((m, i) => ({ name: `l${i}`, ids: (m.get(q) ?? []).map(([id]) => id), scores: (m.get(q) ?? []).map(([, s]) => s) }));
    const d = Math.abs(p.run({ lists: file }).outcome.probability - predicted[q]);
    if (d > 0) differ++;
    most = Math.max(most, d);
  }
  p.free();
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");
  const said = `(${differ} of ${queries.length} on cisi-abstain, by ${most.toFixed(4)} at most)`;
  assert.ok(readme.includes(said), `README should say ${said}`);
});

test("a query-confidence model fitted in Node: its predictions and the pipeline's outcome agree (issue 13)", async () => {
  const { crossRuntimeCase } = await import("./qconf-cross.mjs");
  const c = crossRuntimeCase();
  // The model docs/quality.md prints for half A (73 queries, 30 with a relevant document
  // in the fused top 5), and its held-out outcomes there: 34 answer, 6 hedge, 33 abstain.
  assert.equal(c.model.training.queries, 73);
  assert.equal(c.model.training.positives, 30);
  const kinds = {};
  for (const [, , kind, source] of c.expected.outcomes) {
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    assert.equal(source, "model");
  }
  assert.deepEqual(kinds, { answer: 34, hedge: 6, abstain: 33 });
  const predicted = Object.fromEntries(c.expected.predictions);
  for (const [q, bits] of c.expected.outcomes) assert.equal(bits, predicted[q], `query ${q}: pipeline and predictQueryConfidence`);
});

// A server bundle of the package (esbuild for Node, as an app bundles its server code):
// esbuild renames the class (`var ScoreError6 = class extends Error`), and Node printed
// an uncaught error under that name ("ScoreError6: ..."), util.inspect reading the
// constructor's name. Its static `name` keeps both "ScoreError".
test("a bundle that renames ScoreError still prints and names it ScoreError", async () => {
  const { build } = await import("esbuild");
  const { execFileSync } = await import("node:child_process");
  const { mkdirSync, copyFileSync } = await import("node:fs");
  const dir = new URL("../../target/node-bundle/", import.meta.url);
  mkdirSync(dir, { recursive: true });
  // Both entries, CommonJS and ESM, in one bundle: the class appears under several
  // imports, which makes esbuild rename it.
  const app = `import { Pipeline, ScoreError } from "calibrank";
    import { fitPlatt } from "calibrank/lab";
    import { inspect } from "node:util";
    const { ScoreError: Cjs } = require("calibrank");
    const seen = [];
    for (const f of [() => new Pipeline({ k: 0 }), () => fitPlatt([1], [2])]) {
      try { f(); } catch (e) { seen.push([e instanceof ScoreError, e instanceof Cjs, e.constructor.name, inspect(e).split("\\n")[0].split(":")[0]]); }
    }
    console.log(JSON.stringify(seen));`;
  await build({
    stdin: { contents: app, resolveDir: fileURLToPath(new URL("./", import.meta.url)), loader: "js" },
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile: fileURLToPath(new URL("app.cjs", dir)),
    logLevel: "silent",
  });
  for (const f of ["calibrank_core.wasm", "calibrank_lab.wasm"]) copyFileSync(new URL(`../../pkg/${f}`, import.meta.url), new URL(f, dir));
  const text = readFileSync(new URL("app.cjs", dir), "utf8");
  assert.match(text, /ScoreError\d+ = class/, "esbuild no longer renames the class: this test no longer shows what it should");
  const seen = JSON.parse(execFileSync(process.execPath, [fileURLToPath(new URL("app.cjs", dir))], { encoding: "utf8" }));
  assert.deepEqual(seen, [
    [true, true, "ScoreError", "ScoreError"],
    [true, true, "ScoreError", "ScoreError"],
  ]);
});

test("records made in another realm (node:vm, an iframe) are read as records, empty ones too", () => {
  const o = runInNewContext("({ e: {}, cfg: { recency: {} }, items: { a: {} }, run: { q: {} }, full: { a: { modifiedAt: 5 } } })");
  const lists = [{ name: "s", ids: ["a"] }];
  const p = new esm.Pipeline({ minConfidence: 0 });
  try {
    // An empty record of another realm's Object.prototype was refused as an instance
    // of a class without fields (a diff review's case) in four places.
    assert.deepEqual(p.run({ lists, context: o.e }), p.run({ lists, context: {} }));
    assert.deepEqual(p.run({ lists, items: o.items }), p.run({ lists, items: { a: {} } }));
    assert.deepEqual(p.run({ lists, items: o.full, now: 10 }), p.run({ lists, items: { a: { modifiedAt: 5 } }, now: 10 }));
    const q = new esm.Pipeline(o.cfg);
    assert.deepEqual(q.config, new esm.Pipeline({ recency: {} }).config);
    q.free();
    assert.deepEqual(esmLab.evaluate({ q: { a: 1 } }, o.run, ["mrr"]), { mrr: 0 });
  } finally {
    p.free();
  }
});

// An engine without `Symbol.dispose` (Node before 18.18, older browsers; here a new vm
// context, whose realm has none): the objects' dispose method is under the registered
// symbol that esbuild's and Babel's lowering of `using` look up, not under the key
// "undefined" (a class body's `[Symbol.dispose]` there).
test("without Symbol.dispose, Pipeline and Run dispose under Symbol.for('Symbol.dispose')", () => {
  for (const [entry, make] of [
    ["node.cjs", (lib) => new lib.Pipeline()],
    ["lab.node.cjs", (lib) => lib.Run.fromObject({ q: { a: 1 } })],
  ]) {
    const file = fileURLToPath(new URL(`../../pkg/${entry}`, import.meta.url));
    const context = { WebAssembly, TextEncoder, TextDecoder, URL, process, Buffer, FinalizationRegistry, WeakRef, console };
    assert.equal(runInNewContext("typeof Symbol.dispose", context), "undefined");
    const mod = { exports: {} };
    runInNewContext(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`, context, { filename: file })(mod.exports, createRequire(file), mod, file, dirname(file));
    const o = make(mod.exports);
    const proto = Object.getPrototypeOf(o);
    assert.ok(!Object.getOwnPropertyNames(proto).includes("undefined"), `${entry}: no method named "undefined"`);
    assert.equal(typeof proto[Symbol.for("Symbol.dispose")], "function", entry);
    o[Symbol.for("Symbol.dispose")]();
    assert.throws(() => (entry === "node.cjs" ? o.run({ lists: [] }) : o.size), /freed/, `${entry}: disposed`);
  }
});

test("an output text the engine cannot hold in one string is INPUT_TOO_LARGE, the engine's error its cause (js/wire/output.js)", async () => {
  // evaluatePerQuery of 500,000 queries x 64 metrics made a JSON text past V8's string
  // length (Node's ERR_STRING_TOO_LONG): an untyped error. Here a wire whose decoding
  // fails as the engine's does, without making 512 MB.
  const { Output } = await import("../../js/wire/output.js");
  const { TEXT } = await import("../../js/wire/sections.js");
  const engine = Object.assign(new Error("Cannot create a string longer than 0x1fffffe8 characters"), { code: "ERR_STRING_TOO_LONG" });
  const u8 = new Uint8Array(1024);
  u8.subarray = () => {
    throw engine;
  };
  const wire = { u32: new Uint32Array([TEXT, 600]), u8 };
  assert.throws(() => new Output(wire, 0, 608).json(), (e) => e.code === "INPUT_TOO_LARGE" && e.field === "" && e.cause === engine && /600 bytes of JSON/.test(e.message));
  // A browser's RangeError too; any other error is no size problem and goes through.
  const range = new RangeError("Invalid string length");
  u8.subarray = () => {
    throw range;
  };
  assert.throws(() => new Output(wire, 0, 608).json(), (e) => e.code === "INPUT_TOO_LARGE" && e.cause === range);
  const other = new TypeError("detached");
  u8.subarray = () => {
    throw other;
  };
  assert.throws(() => new Output(wire, 0, 608).json(), (e) => e === other);
  // A text the engine decodes is read as before.
  const ok = new Uint8Array(16);
  ok.set(new TextEncoder().encode('{"a":1}'), 8);
  assert.deepEqual(new Output({ u32: new Uint32Array([TEXT, 7]), u8: ok }, 0, 16).json(), { a: 1 });
});

test("a Run made by calibrank/lab is another copy's to calibrank/lab/init, and the message says which entries load their own module", async () => {
  const init = await import("calibrank/lab/init");
  await init.default();
  const run = esmLab.Run.fromObject({ q: { d: 1 } });
  try {
    assert.throws(
      () => init.evaluate({ q: { d: 1 } }, run, ["mrr"]),
      (e) => e.code === "INVALID_TYPE" && e.field === "run" && /another copy: calibrank\/lab and calibrank\/lab\/init/.test(e.message),
    );
    // Made by the init entry, it is read there.
    const own = init.Run.fromObject({ q: { d: 1 } });
    assert.deepEqual(init.evaluate({ q: { d: 1 } }, own, ["mrr"]), { mrr: 1 });
    own.free();
  } finally {
    run.free();
  }
});
