// calibrank_pipeline.wasm, the Pipeline's own module (the one a bundled app that imports
// Pipeline alone loads: js/entries/browser.js), in Node: the whole suite with Pipeline on
// it (every other function on calibrank_core.wasm), the golden pipelines on it with no
// other module given, and what `init` says when it is given where the whole core's
// module is expected. The API modules are imported from pkg/ directly and handed the
// compiled modules, as the browser entries hand them over.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { inspect, isDeepStrictEqual } from "node:util";
import { tests, computeGolden } from "./suite.js";

const pkg = new URL("../../pkg/", import.meta.url);
const compiled = (m) => new WebAssembly.Module(readFileSync(new URL(`calibrank_${m}.wasm`, pkg)));
const golden = JSON.parse(readFileSync(new URL("../golden/vectors.json", import.meta.url), "utf8"));
const pipelineModule = compiled("pipeline");

const { default: coreHooks, ...core } = await import(new URL("core.js", pkg));
const { default: labHooks, ...lab } = await import(new URL("lab_api.js", pkg));
coreHooks.init(compiled("core"));
coreHooks.pipeline.init(pipelineModule);
labHooks.init(compiled("lab"));
const split = { ...lab, ...core };

for (const t of tests(split, golden)) test(`Pipeline on calibrank_pipeline.wasm: ${t.name}`, t.fn);

test("calibrank_pipeline.wasm alone: the golden pipelines bit for bit; the other functions are not there", async () => {
  // A second instance of the core's API module, given Pipeline's module and nothing else.
  const { default: hooks, ...alone } = await import(new URL("core.js?pipeline-alone", pkg));
  hooks.pipeline.init(pipelineModule);
  const cases = golden.cases.filter((c) => c.kind === "pipeline");
  assert.ok(cases.length >= 3, `golden pipeline cases: ${cases.length}`);
  for (const c of cases) assert.deepEqual(computeGolden(alone, c), c.expected);
  const live = alone.__livePipelines(); // the golden cases' pipelines, not freed yet
  const p = new alone.Pipeline({ topN: 2, minConfidence: 0 });
  assert.deepEqual(p.config, new core.Pipeline({ topN: 2, minConfidence: 0 }).config);
  assert.equal(alone.__livePipelines(), live + 1);
  p.free();
  assert.equal(alone.__livePipelines(), live);
  // Errors keep their codes and fields on it.
  assert.throws(() => new alone.Pipeline({ topN: 0 }), (e) => e instanceof alone.ScoreError && e.code === "INVALID_TOP_N" && e.field === "config.topN");
  assert.throws(() => new alone.Pipeline({ rerank: { method: "nope" } }), (e) => e.code === "UNKNOWN_METHOD" && e.field === "config.rerank.method");
  for (const call of [() => alone.rrf([["a"]]), () => alone.version(), () => alone.calibrate([0.5])])
    assert.throws(call, (e) => e instanceof alone.ScoreError && e.code === "INTERNAL" && /calibrank is not initialized/.test(e.message));
});

test("calibrank_pipeline.wasm answers the other functions' operations, and those the package does for it, as unknown", async () => {
  const { Wire, Input } = await import(new URL("wire.js", pkg));
  const wire = new Wire(pipelineModule, {});
  // version, errorCodes, the limits table (the package carries that one for it:
  // js/core/pipeline-defaults.js), Pipeline.config (built in JavaScript), and rrf,
  // rrfColumnar, fuseMultiQuery, rerank, normalize, calibrate, classifyBand, queryConfidence
  for (const op of [1, 2, 3, 12, 20, 21, 22, 23, 24, 25, 26, 27]) assert.throws(() => wire.call(op, new Input()), /unknown operation/, `operation ${op}`);
  // Its own: a pipeline made and counted.
  const made = wire.call(10, new Input().none()).u32s()[0];
  assert.equal(wire.call(15, new Input()).f64s()[0], 1);
  wire.call(11, new Input().u32s([made]));
  assert.equal(wire.call(15, new Input()).f64s()[0], 0);
});

test("browser.js exports what the core's API module exports (its list is written out)", () => {
  const text = readFileSync(new URL("browser.js", pkg), "utf8");
  const names = [...text.matchAll(/^export \{([^}]*)\} from/gm)].flatMap((m) => m[1].split(",").map((n) => n.trim()));
  assert.deepEqual([...names].sort(), Object.keys(core).sort());
});

test("a Pipeline made on the whole core's module, then moved to its own, frees the handle it leaves behind", async () => {
  const { default: hooks, ...api } = await import(new URL("core.js?moved", pkg));
  hooks.init(compiled("core"));
  const p = new api.Pipeline({ topN: 2, minConfidence: 0 });
  assert.equal(hooks.livePipelinesInCore(), 1);
  hooks.pipeline.init(pipelineModule);
  // Made again on Pipeline's own module at its next call; the core's copy freed.
  assert.deepEqual(p.run({ lists: [{ name: "s", ids: ["a", "b", "c"] }] }).results.map((r) => r.id), ["a", "b"]);
  assert.equal(api.__livePipelines(), 1, "on Pipeline's own module");
  assert.equal(hooks.livePipelinesInCore(), 0, "none left in the core's");
  p.free();
  assert.equal(api.__livePipelines(), 0);
});

test("calibrank/init takes calibrank_pipeline.wasm: Pipeline then runs on it, and the other functions say what they need", async () => {
  const init = await import("calibrank/init");
  assert.equal(init.isInitialized(), false);
  init.initSync(pipelineModule);
  assert.equal(init.isInitialized(), true);
  const cases = golden.cases.filter((c) => c.kind === "pipeline");
  for (const c of cases) assert.deepEqual(computeGolden(init, c), c.expected);
  assert.deepEqual(new init.Pipeline({ topN: 2 }).config, new core.Pipeline({ topN: 2 }).config);
  const says = /^calibrank was initialized with calibrank_pipeline\.wasm, which holds Pipeline alone: this function needs calibrank_core\.wasm, given to the first init\(\) \(a later init\(\) keeps the module of the first: reload, or restart the process\)$/;
  for (const call of [() => init.rrf([["a"]]), () => init.version(), () => init.calibrate([0.5])])
    assert.throws(call, (e) => e instanceof init.ScoreError && e.code === "INTERNAL" && says.test(e.message));
  // Once only, as for the whole core's module: a second init changes nothing.
  await init.init(compiled("core"));
  assert.throws(() => init.rrf([["a"]]), (e) => says.test(e.message));
  // The lab's init still refuses it (it is not the lab's module).
  const lab = await import("calibrank/lab/init");
  assert.throws(() => lab.initSync(pipelineModule), (e) => e.code === "INVALID_TYPE" && /is not calibrank_lab\.wasm/.test(e.message));
});

// ---------------------------------------------------------------- Configurations
// calibrank_pipeline.wasm holds no JSON decoder: js/core/typed-config.js decodes a
// configuration and a run's context as wasm/shared/src/decode.rs does in
// calibrank_core.wasm. The two are compared here on random values shaped like
// configurations, most of them wrong somewhere: the same effective configuration and
// output, or the same error (code, field and message).

/** A small seeded generator (mulberry32), so that a failure can be replayed. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD = [
  ...[null, true, "x", "", "\u0000#", "\uD800", 1.5, -0, -1, 0, 2 ** 32, 2 ** 53, NaN, Infinity, -Infinity, 1e300, [], {}, [1], { a: 1 }],
  ...[() => 1, 10n, new Map([["a", 1]]), new Map([[1, 1]]), new Float64Array([1, 2]), Symbol("s"), Object.create(null)],
  // Boxed primitives and raw JSON: read as the value they hold.
  ...[new Number(1.5), new Number(3), new String("\u0000#zz"), new String("go"), new Boolean(false), Object(10n)],
  ...(typeof JSON.rawJSON === "function" ? [JSON.rawJSON("1.5"), JSON.rawJSON("9007199254740993")] : []),
];

/**
 * A random value of the configuration's shape (`shape`), wrong with probability `p`; an
 * optional field is given with probability `inc`.
 */
function gen(r, shape, p, inc = 0.4) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  if (r() < p) return pick(ODD);
  switch (shape.t) {
    case "num":
      return pick([0, 0.5, 1, 2, 3, 60, 0.25, 1e-9, 5, 10, 0.9, 0.3]);
    // A Platt model's slope: a pipeline takes a <= 0 only (a positive one now and then).
    case "slope":
      return pick([-0.5, -1, -2, -60, -1e-9, 0, -10, 0.5]);
    case "u32":
      return pick([0, 1, 2, 3, 5, 8, 10, 20, 100, 4294967295]);
    case "i32":
      return pick([2020, 2026, -1, 0, 2147483647]);
    case "bool":
      return r() < 0.5;
    case "str":
      return pick(["a", "go", "rust", "bazel", "", "é", "x".repeat(70)]);
    case "unit": {
      const name = pick([...shape.names, "nope"]);
      return r() < 0.8 ? name : { [name]: r() < 0.8 ? null : 1 };
    }
    case "opt":
      return r() < 0.3 ? null : gen(r, shape.of, p, inc);
    case "list":
      return Array.from({ length: Math.floor(r() * 4) }, () => gen(r, shape.of, p, inc));
    case "map": {
      const o = {};
      for (let i = Math.floor(r() * 3); i > 0; i--) o[pick(["a", "b", "semantic", "__proto__", "1", "a.b", "", "x\"[0]"])] = gen(r, { t: "num" }, p);
      return o;
    }
    case "five":
      return Array.from({ length: r() < 0.8 ? 5 : Math.floor(r() * 7) }, () => gen(r, { t: "num" }, p));
    case "tagged": {
      const [method, fields] = pick(shape.variants);
      const o = r() < 0.9 ? { method: r() < 0.8 ? method : pick([0, 1, 2, 3, "nope"]) } : {};
      for (const [k, s] of fields) if (r() < 0.8) o[k] = gen(r, s, p, inc);
      if (r() < p) o[pick(["z", "method2", "z.z"])] = 1;
      if (r() < p / 2) return Object.entries(o).map(([, v]) => v);
      return o;
    }
    case "struct": {
      const o = {};
      for (const [k, s, req] of shape.fields) if (req || r() < inc) o[k] = gen(r, s, p, inc);
      if (r() < p) o[pick(["zz", "Method", "topk", "top.k", "[0]"])] = 1;
      if (r() < p / 3) return shape.fields.map(([k]) => o[k] ?? gen(r, shape.fields.find((f) => f[0] === k)[1], p, inc));
      return o;
    }
  }
  throw new Error(`shape ${shape.t}`);
}

const T = (t, extra = {}) => ({ t, ...extra });
const NUMS = T("list", { of: T("num") });
const SHAPE = T("struct", {
  fields: [
    ["k", T("num")],
    ["weights", T("map")],
    ["topK", T("u32")],
    ["topN", T("u32")],
    ["recency", T("struct", { fields: [["mode", T("unit", { names: ["none", "step", "fiscal_year"] })], ["steps", T("list", { of: T("struct", { fields: [["maxAgeDays", T("num"), true], ["multiplier", T("num"), true]] }) })], ["fiscalYear", T("struct", { fields: [["window", T("u32")], ["latestYear", T("i32")]] })], ["boost", T("num")]] })],
    [
      "rerank",
      T("struct", {
        fields: [
          ["method", T("unit", { names: ["none", "heuristic", "cross_encoder"] })],
          ["heuristic", T("struct", { fields: [["exactNameMultiplier", T("num")], ["nameTermWeight", T("num")], ["summaryTermWeight", T("num")], ["shortContentChars", T("u32")], ["shortContentMultiplier", T("num")], ["typeMultipliers", T("map")], ["unknownTypeMultiplier", T("num")], ["stopwords", T("opt", { of: T("list", { of: T("str") }) })]] })],
          ["candidateLimit", T("opt", { of: T("u32") })],
          ["recencyBoost", T("num")],
        ],
      }),
    ],
    ["normalization", T("struct", { fields: [["method", T("unit", { names: ["none", "max", "min_max", "z_score", "softmax"] })], ["temperature", T("num")], ["minRelevance", T("num")]] })],
    ["calibration", T("tagged", { variants: [["sigmoid", [["threshold", T("num")], ["steepness", T("num")]]], ["platt", [["a", T("slope")], ["b", T("num")]]], ["isotonic", [["x", NUMS], ["y", NUMS]]]] })],
    ["minConfidence", T("num")],
    ["bands", T("struct", { fields: [["highFloor", T("num")], ["degradedFloor", T("num")], ["profiles", T("list", { of: T("struct", { fields: [["name", T("str"), true], ["taskClass", T("opt", { of: T("str") })], ["language", T("opt", { of: T("str") })], ["buildSystem", T("opt", { of: T("str") })], ["highFloor", T("num"), true], ["degradedFloor", T("num"), true]] }) })]] })],
    ["confidence", T("struct", { fields: [["weights", T("five")], ["k", T("opt", { of: T("u32") })], ["answerFloor", T("num")], ["hedgeFloor", T("num")]] })],
    ["limits", T("opt", { of: T("struct", { fields: ["maxLists", "maxListLength", "maxTotalEntries", "maxColumnarEntries", "maxIdBytes", "maxTextBytes", "maxTotalTextBytes", "maxSearchWork"].map((k) => [k, T("opt", { of: T("u32") })]) }) })],
    ["explain", T("bool")],
  ],
});
const CONTEXT_SHAPE = T("struct", { fields: ["taskClass", "language", "buildSystem"].map((k) => [k, T("opt", { of: T("str") })]) });

/** What `make()` gives: the effective configuration and a run's output, or the error. */
function outcome(make, input) {
  try {
    const p = make();
    try {
      return { config: p.config, out: input === undefined ? null : p.run(input) };
    } catch (e) {
      return { runError: [e.constructor.name, e.code, e.field, e.message] };
    } finally {
      p.free();
    }
  } catch (e) {
    return { error: [e.constructor.name, e.code, e.field, e.message] };
  }
}

test("random configurations and contexts: calibrank_pipeline.wasm's typed path gives what the core's JSON decoders give", async () => {
  // An API module whose Pipeline runs on the whole core's module (JSON), and `core`,
  // whose Pipeline runs on calibrank_pipeline.wasm (typed).
  const { default: hooks, ...json } = await import(new URL("core.js?json", pkg));
  hooks.init(compiled("core"));
  const input = {
    query: "alpha beta",
    lists: [{ name: "a", ids: ["d1", "d2", "d3"], scores: [3, 2, 1] }, { name: "semantic", ids: ["d2", "d4"] }],
    items: { d1: { name: "alpha", type: "class", modifiedAt: "2026-11-01T00:00:00Z", crossEncoderScore: 0.5 }, d2: { summary: "beta", crossEncoderScore: 0.25 }, d3: { crossEncoderScore: 0.75 }, d4: { crossEncoderScore: 0.1 } },
    now: "2026-11-29T00:00:00Z",
  };
  let kinds = { config: 0, error: 0, runError: 0 };
  for (let seed = 1; seed <= 3000; seed++) {
    const r = rng(seed);
    // A quarter of the seeds right in shape and sparse (most of those pass the checks
    // after decoding too); the others wrong here and there.
    const cfg = seed % 4 === 0 ? gen(r, SHAPE, 0, 0.12) : gen(r, SHAPE, [0.02, 0.1, 0.3][seed % 4 - 1]);
    if (r() < 0.3 && typeof cfg === "object" && cfg !== null && !Array.isArray(cfg)) cfg.bands = { profiles: [{ name: "p", language: "go", highFloor: 0.9, degradedFloor: 0.5 }] };
    const context = r() < 0.5 ? gen(r, CONTEXT_SHAPE, 0.2) : undefined;
    const run = context === undefined ? input : { ...input, context };
    const want = outcome(() => new json.Pipeline(cfg), run);
    const got = outcome(() => new core.Pipeline(cfg), run);
    if (!isDeepStrictEqual(got, want)) {
      const shown = (v) => inspect(v, { depth: 8, breakLength: Infinity });
      assert.deepEqual(got, want, `seed ${seed}: config ${shown(cfg)}, context ${shown(context)}`);
    }
    kinds[Object.keys(want)[0]]++;
  }
  // Both kinds of outcome are well represented.
  assert.ok(kinds.config > 300 && kinds.error > 1000, JSON.stringify(kinds));
});

test("effective configurations built by the JavaScript equal the core's JSON: models, calibrations, profiles, key orders", async () => {
  const { default: hooks, ...json } = await import(new URL("core.js?json-config", pkg));
  hooks.init(compiled("core"));
  const qrels = { q1: { a: 1 }, q2: { b: 1 }, q3: { z: 1 }, q4: { c: 1 }, q5: { w: 1 } };
  const runs = [
    { q1: { a: 3, b: 2 }, q2: { a: 1, b: 2 }, q3: { x: 1 }, q4: { c: 2, d: 1 }, q5: { v: 1 } },
    { q1: { a: 1 }, q2: { b: 5 }, q3: { y: 2 }, q4: { d: 3 }, q5: { u: 2 } },
  ];
  const model = lab.fitQueryConfidence(qrels, runs);
  const configs = [
    undefined,
    {},
    { confidence: { model, k: 7 } },
    { calibration: lab.fitIsotonic([0.1, 0.4, 0.8], [0, 1, 1]) },
    { calibration: lab.fitPlatt([0.1, 0.4, 0.8, 0.2], [0, 1, 1, 0]) },
    { calibration: { method: "sigmoid", steepness: 10 } },
    { weights: { z: 1, "é": 2, a: 3, "\u{1F600}": 4, "\uFFFF": 5, "10": 6, "2": 7, __proto__x: 8 }, rerank: { method: "heuristic", heuristic: { typeMultipliers: { b: 1, a: 2 }, stopwords: ["the"] } } },
    { bands: { profiles: [{ name: "p", language: "go", highFloor: 0.9, degradedFloor: 0.5 }, { name: "q", taskClass: null, buildSystem: "bazel", highFloor: 0.8, degradedFloor: 0.1 }] } },
    { limits: null },
    { limits: { maxLists: 3, maxIdBytes: null } },
    { recency: { mode: { fiscal_year: null }, fiscalYear: { latestYear: 2020 } } },
    // Each nested struct given empty: its own type's defaults in Rust, the top-level
    // defaults' part in JavaScript (equal as long as they agree).
    { recency: {} },
    { recency: { fiscalYear: {} } },
    { rerank: {} },
    { rerank: { heuristic: {} } },
    { normalization: {} },
    { calibration: { method: "sigmoid" } },
    { bands: {} },
    { confidence: {} },
    { limits: {} },
    { k: new Number(30), topN: Object(3), explain: new Boolean(false), bands: { profiles: [{ name: new String("p"), highFloor: 0.9, degradedFloor: 0.5 }] } },
  ];
  const weights = JSON.parse('{"__proto__": 9, "b": 1}');
  configs.push({ weights });
  for (const cfg of configs) {
    const want = new json.Pipeline(cfg).config;
    const got = new core.Pipeline(cfg).config;
    assert.deepEqual(got, want, inspect(cfg));
    assert.deepEqual(Object.keys(got.weights), Object.keys(want.weights), "weights' key order");
    assert.equal(JSON.stringify(got), JSON.stringify(want));
  }
  // The fit's own figures, not finite: refused alike (their JSON was null, typed a number).
  for (const bad of [{ l2: NaN }, { training: { ...model.training, logLoss: Infinity } }, { training: { ...model.training, auroc: -Infinity } }]) {
    const cfg = { confidence: { model: { ...model, ...bad } } };
    const codeOf = (P) => {
      try {
        new P(cfg);
      } catch (e) {
        return [e.code, e.field, e.message];
      }
      return null;
    };
    assert.deepEqual(codeOf(core.Pipeline), codeOf(json.Pipeline), inspect(bad));
    assert.equal(codeOf(core.Pipeline)?.[0], "NON_FINITE_SCORE", inspect(bad));
  }
  // A fresh object each time, as JSON.parse gives.
  const p = new core.Pipeline({});
  const a = p.config;
  a.topK = 99;
  a.recency.steps.pop();
  assert.deepEqual(p.config, new json.Pipeline({}).config);
});

test("nesting at and past the parser's limit of 64 levels: the same errors on both modules", async () => {
  const { default: hooks, ...json } = await import(new URL("core.js?json-depth", pkg));
  hooks.init(compiled("core"));
  const nest = (d) => (d === 0 ? 1 : d % 2 === 0 ? [nest(d - 1)] : { a: nest(d - 1) });
  const errorOf = (f) => {
    try {
      f();
      return null;
    } catch (e) {
      return [e.code, e.field, e.message];
    }
  };
  const seen = new Set();
  for (let d = 60; d <= 66; d++) {
    for (const cfg of [{ zz: nest(d) }, { weights: nest(d) }]) {
      const want = errorOf(() => new json.Pipeline(cfg));
      assert.deepEqual(errorOf(() => new core.Pipeline(cfg)), want, `config at depth ${d}`);
      seen.add(want[2]);
    }
    const p = [new json.Pipeline({}), new core.Pipeline({})];
    const input = { lists: [{ name: "l", ids: ["a"] }], context: { language: nest(d) } };
    assert.deepEqual(errorOf(() => p[1].run(input)), errorOf(() => p[0].run(input)), `context at depth ${d}`);
  }
  // Both sides of the limit were reached.
  assert.ok(seen.has("the value is nested deeper than 64 levels") && seen.size > 1, [...seen].join(" | "));
});
