// Property test across the JS/wasm boundary (fast-check): every exported function and
// every Pipeline method gets random and malformed values (wrong types, NaN, infinities,
// -0, subnormals, BigInt, typed arrays of every kind, sparse and huge-length arrays,
// null-prototype objects, unknown keys, deleted keys, mutated valid inputs). Each call
// must return a valid result or throw a ScoreError whose code is one of errorCodes():
// never a RuntimeError (wasm trap), a TypeError from the glue, or any other error. After
// every call a known-good call must still give the known answer.
//
// The functions are discovered from the module's exports, so new bindings are covered
// without editing this file (they get random arguments, plus mutated valid arguments
// when an example is listed in EXAMPLES below). FC_RUNS (default 250) sets the runs per
// function and per strategy; FC_SEED replays a failure.
import test from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as core from "calibrank";
import * as lab from "calibrank/lab";

// Both entries as one library (they share ScoreError). The Run and Qrels classes are
// fuzzed through their factories (each result read back with toObject, then freed).
const made = (make) => (...a) => {
  const h = make(...a);
  try {
    return h.toObject();
  } finally {
    h.free();
  }
};
const lib = {
  ...lab,
  ...core,
  runFromTrec: made((...a) => lab.Run.fromTrec(...a)),
  runFromObject: made((...a) => lab.Run.fromObject(...a)),
  qrelsFromTrec: made((...a) => lab.Qrels.fromTrec(...a)),
  qrelsFromObject: made((...a) => lab.Qrels.fromObject(...a)),
};

const RUNS = Number(process.env.FC_RUNS || 250);
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
const CODES = new Set(lib.errorCodes());
// Module plumbing, not API: wasm-bindgen's init functions and the error-class hook.
const NOT_API = new Set(["default", "initSync", "__setErrorClass", "ScoreError", "Pipeline", "Items", "Run", "Qrels", "__liveHandles"]);

const FUNCTIONS = Object.keys(lib)
  .filter((name) => typeof lib[name] === "function" && !NOT_API.has(name) && !name.startsWith("__wbg"))
  .sort();
const METHODS = Object.getOwnPropertyNames(lib.Pipeline.prototype)
  .filter((name) => !["constructor", "free", "__destroy_into_raw"].includes(name))
  .filter((name) => typeof Object.getOwnPropertyDescriptor(lib.Pipeline.prototype, name).value === "function");

const QUERY_MODEL = () => ({
  method: "logistic", runs: 2, k: 5, rrfK: 60, weights: [1, 1], features: ["rankOnly", "top[0]", "top[1]"], mean: [0, 5, 0.5], scale: [1, 2, 0.1],
  coefficients: [0.5, 0.1, 2], intercept: -0.3, missingTop: [0, 0], l2: 1, training: { queries: 4, positives: 2, logLoss: 0.5, auroc: 0.75, iterations: 6, converged: true },
});
// Valid arguments for the functions known when this file was written; mutated below.
const EXAMPLES = {
  rrf: () => [[["a", "b", "c"], ["b", "c"]], { k: 60, weights: [1, 0.5], limits: { maxTotalEntries: 10, maxTotalTextBytes: 100 } }],
  rrfColumnar: () => [new Uint32Array([0, 1, 2, 1, 2]), new Uint32Array([0, 3, 5]), 3, { k: 60 }],
  fuseMultiQuery: () => [[[{ id: "a", score: 0.9 }, { id: "b", score: 0.7 }], [{ id: "b", score: 0.8, timestamp: "2026-01-01" }]], { method: "rrf", similarityThreshold: 0.5, verbose: true }],
  rerank: () => ["configure auth", [{ id: "a", score: 0.5, name: "Auth", type: "class", summary: "configure it", content: "short" }, { id: "b", score: 0.4, name: "x" }], { exactNameMultiplier: 3 }],
  normalize: () => [[0.1, 0.5, 0.9], "min_max", { temperature: 1 }],
  calibrate: () => [new Float64Array([0.01, 0.035, 0.05]), { threshold: 0.035, steepness: 150 }],
  classifyBand: () => [0.9, { highFloor: 0.85, degradedFloor: 0.65 }],
  queryConfidence: () => [[0.9, 0.5, 0.2], { weights: [0.35, 0.25, 0.2, 0.12, 0.08], k: 2 }],
  parseTrecRun: () => ["q1 Q0 d1 1 1.5 run\nq1 Q0 d2 2 0.5 run\n", { limits: { maxTotalEntries: 5 } }],
  parseQrels: () => ["q1 0 d1 1\nq1 0 d3 0\n"],
  evaluate: () => [{ q1: { d1: 1, d3: 2 } }, { q1: { d1: 1.5, d2: 0.5 } }, ["ndcg@10", "mrr", "recall@2"]],
  evaluatePerQuery: () => [{ q1: { d1: 1 } }, { q1: { d1: 1.5, d2: 0.5 } }, ["map", "precision@1"]],
  fuseRuns: () => [[{ q1: { d1: 1, d2: 0.5 } }, { q1: { d2: 1 } }], { method: "wsum", norm: "min-max", weights: [0.7, 0.3] }],
  fitPlatt: () => [[0.1, 0.9, 0.4, 0.8], [0, 1, 0, 1]],
  fitIsotonic: () => [[0.1, 0.9, 0.4, 0.8], [0, 1, 0, 1]],
  applyCalibration: () => [[0.1, 0.5], { method: "platt", a: -5, b: 2 }],
  calibrationError: () => [[0.1, 0.9, 0.6], [0, 1, 1], { bins: 5, strategy: "quantile" }],
  proposeBands: () => [[0.1, 0.9, 0.2, 0.8, 0.3, 0.7], [0, 1, 0, 1, 0, 1], { folds: 2, targetPrecision: 0.8 }],
  runFromTrec: () => ["q1 Q0 d1 1 1.5 run\nq1 Q0 d2 2 0.5 run\n", { limits: { maxTotalEntries: 5 } }],
  runFromObject: () => [{ q1: { d2: 1.5, d1: 0.5 } }],
  qrelsFromTrec: () => ["q1 0 d1 1\nq1 0 d3 0\n"],
  qrelsFromObject: () => [{ q1: { d1: 1, d3: 0 } }],
  optimizeFusion: () => [{ q1: { d1: 1 } }, [{ q1: { d1: 1, d2: 0.5 } }, { q1: { d2: 1, d1: 0.2 } }], { method: "wsum", metric: "ndcg@10", step: 0.5 }],
  fitQueryConfidence: () => [{ a: { d1: 1 }, b: { d3: 0 } }, [{ a: { d1: 2, d2: 1 }, b: { d3: 0.5 } }, { a: { d1: 0.9 }, b: { d4: 0.1 } }], { k: 2, l2: 0.5 }],
  predictQueryConfidence: () => [QUERY_MODEL(), [{ a: { d1: 2, d2: 1 } }, { a: { d1: 0.9 }, b: { d4: 0.1 } }]],
  evaluateQueryConfidence: () => [QUERY_MODEL(), { a: { d1: 1 }, b: { d3: 0 } }, [{ a: { d1: 2, d2: 1 }, b: { d3: 0.5 } }, { a: { d1: 0.9 }, b: { d4: 0.1 } }]],
  errorCodes: () => [],
  defaultLimits: () => [],
  version: () => [],
};
const PIPELINE_CONFIG = () => ({ topK: 5, topN: 3, minConfidence: 0, calibration: { method: "sigmoid", threshold: 0.02 }, normalization: { method: "min_max" } });
const METHOD_EXAMPLES = {
  run: () => [{ query: "auth", lists: [{ name: "a", ids: ["x", "y", "z"], scores: [3, 2, 1] }, { name: "b", ids: ["y"], weight: 2 }], items: { y: { modifiedAt: "2026-11-01", name: "auth" } }, now: "2026-11-18T00:00:00Z" }],
  runColumnar: () => [{ docs: new Uint32Array([0, 1, 2, 1]), offsets: new Uint32Array([0, 3, 4]), nDocs: 3, weights: [1, 2], modifiedAt: new Float64Array([Date.UTC(2026, 10, 1), NaN, NaN]), now: Date.UTC(2026, 10, 18) }],
};

// ------------------------------------------------------------------ value generators

function detached(a) {
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

const specialNumber = fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, 5e-324, 2.2250738585072014e-308, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_SAFE_INTEGER, 2 ** 32, 2 ** 32 - 1, 2 ** 31, -1, 0.5, 1, 1e-300, 1e300);
const number = fc.oneof(specialNumber, fc.double(), fc.integer(), fc.double({ min: 0, max: 1, noNaN: true }));
const typedArray = fc.oneof(
  fc.array(number, { maxLength: 8 }).map((a) => new Float64Array(a)),
  fc.array(fc.nat(), { maxLength: 8 }).map((a) => new Uint32Array(a)),
  fc.array(fc.integer({ min: -128, max: 127 }), { maxLength: 8 }).map((a) => new Int8Array(a)),
  fc.array(fc.integer(), { maxLength: 8 }).map((a) => new Int32Array(a)),
  fc.array(fc.float(), { maxLength: 8 }).map((a) => new Float32Array(a)),
  fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 4 }).map((a) => new BigInt64Array(a)),
  fc.constant(new Uint8Array(0)),
  fc.constant(new ArrayBuffer(8)),
  fc.constant(new DataView(new ArrayBuffer(8))),
  // A buffer transferred away (its arrays have no elements), shared or resizable.
  fc.constant(detached(new Float64Array([1, 2]))),
  fc.constant(detached(new Uint32Array([0, 1]))),
  fc.constant(new Float64Array(new SharedArrayBuffer(16))),
  fc.constant(new Uint32Array(new ArrayBuffer(8, { maxByteLength: 64 }))),
);
const oddValue = fc.constantFrom(
  undefined, null, true, false, "", " ", "\u0000", "\ud800", "💥", "x".repeat(5000), 0n, -1n, 2n ** 64n,
  Symbol("s"), [], {}, Object.create(null), [[]], [{}], [undefined], [null], new Array(5), new Date(0), new Date(NaN),
  /re/, new Map([["a", 1]]), new Set([1]), () => 1, Math, JSON, new Error("e"), Promise.resolve(1), new String("s"), new Number(1),
  { length: 2 ** 32 - 1 }, { length: -1 }, { then: 1 }, { toJSON: 1 }, { valueOf: 1 }, { __proto__: null, k: 1 },
  "ndcg@10", "min_max", "rrf", "sigmoid", "platt", "2026-11-18T09:00:00Z", "q1 Q0 d1 1 NaN r", "q1 0 d1 x",
);
const anything = fc.anything({
  maxDepth: 3,
  maxKeys: 5,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withTypedArray: true,
  withSparseArray: true,
  withObjectString: true,
  withUnicodeString: true,
  key: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("k", "weights", "topN", "topK", "method", "lists", "ids", "name", "score", "id", "limits", "__proto__", "constructor")),
});
const value = fc.oneof({ weight: 3, arbitrary: anything }, { weight: 2, arbitrary: number }, { weight: 2, arbitrary: oddValue }, { weight: 1, arbitrary: typedArray });
const args = fc.array(value, { maxLength: 5 });

// A mutation of a valid argument list: replace, delete or add at a random path.
const mutation = fc.record({
  path: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  op: fc.constantFrom("replace", "replace", "replace", "delete", "add", "sparse"),
  value,
  key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("extra", "__proto__", "constructor", "toString")),
});

// Only plain arrays and objects are walked into (never boxed strings, typed arrays...).
function plain(x) {
  if (Array.isArray(x)) return true;
  if (!x || typeof x !== "object") return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

function children(x) {
  if (Array.isArray(x)) return Array.from({ length: x.length }, (_, i) => i);
  if (plain(x)) return Object.keys(x);
  return [];
}

function applyMutation(target, { path, op, value, key }) {
  let parent = target;
  let slot = null;
  for (const step of path) {
    const keys = children(slot === null ? parent : parent[slot]);
    if (keys.length === 0) break;
    if (slot !== null) parent = parent[slot];
    slot = keys[step % keys.length];
  }
  if (slot === null) return target;
  switch (op) {
    case "delete":
      if (Array.isArray(parent)) {
        // By hand: splice would consult a mutated `constructor` (Symbol.species).
        for (let i = Number(slot); i + 1 < parent.length; i++) parent[i] = parent[i + 1];
        parent.length -= 1;
      } else delete parent[slot];
      break;
    case "add":
      // An own property, as JSON.parse makes it (so "__proto__" is a key, not a prototype;
      // replaced prototypes are tested on their own below).
      // A non-configurable own property (an array's `length`) cannot be redefined: the
      // value then replaces the whole slot.
      if (plain(parent[slot]) && Object.getOwnPropertyDescriptor(parent[slot], key)?.configurable !== false) {
        Object.defineProperty(parent[slot], key, { value, enumerable: true, configurable: true, writable: true });
      } else parent[slot] = value;
      break;
    case "sparse":
      if (Array.isArray(parent[slot])) parent[slot].length += 3;
      else parent[slot] = value;
      break;
    default:
      parent[slot] = value;
  }
  return target;
}

// ------------------------------------------------------------------ checks

function describe(x) {
  try {
    return fc.stringify(x).slice(0, 400);
  } catch {
    return "(unprintable)";
  }
}

/** Every number reachable in a result is finite: no NaN or Infinity leaks out. */
function assertFinite(result, where) {
  const seen = new Set();
  const walk = (x, path) => {
    if (typeof x === "number") assert.ok(Number.isFinite(x), `${where}: ${path} is ${x}`);
    else if (ArrayBuffer.isView(x)) Array.from(x, (v, i) => walk(typeof v === "bigint" ? 0 : v, `${path}[${i}]`));
    else if (x && typeof x === "object" && !seen.has(x)) {
      seen.add(x);
      for (const [k, v] of Object.entries(x)) walk(v, `${path}.${k}`);
    }
  };
  walk(result, "result");
}

/** Result checks that hold whatever the input. */
function checkResult(name, result) {
  assert.notEqual(result, undefined, `${name} returned undefined`);
  assertFinite(result, name);
  if (name === "run") {
    const { results } = result;
    for (let i = 0; i < results.length; i++) {
      assert.ok(results[i].score >= 0 && results[i].score <= 1, `score ${results[i].score}`);
      if (i > 0) assert.ok(results[i - 1].score >= results[i].score, "scores not descending");
    }
  }
  if (name === "runColumnar" || name === "rrfColumnar") {
    for (let i = 1; i < result.scores.length; i++) assert.ok(result.scores[i - 1] >= result.scores[i], "scores not descending");
  }
}

function checkThrown(name, err, input) {
  const fail = (what) => assert.fail(`${name}(${describe(input)}) ${what}`);
  if (!(err instanceof lib.ScoreError)) fail(`threw ${err && err.constructor && err.constructor.name}: ${err && err.message}`);
  if (!CODES.has(err.code)) fail(`threw code ${err.code}, not in errorCodes()`);
  if (err.code === "INTERNAL") fail(`threw INTERNAL: ${err.message}`);
  if (typeof err.field !== "string") fail("threw an error without a field");
  if (!(typeof err.message === "string" && err.message.length > 0)) fail("threw an error without a message");
  if (/wasm-function|unreachable|RuntimeError/.test(err.message)) fail(`threw ${err.message}`);
}

/** The module still works: known inputs give known answers. */
function canary() {
  const fused = lib.rrf([["a", "b"], ["b"]]);
  assert.deepEqual(fused.map(([id]) => id), ["b", "a"]);
  assert.equal(fused[0][1], 1 / 62 + 1 / 61);
  const out = new lib.Pipeline({ topN: 2, minConfidence: 0 }).run({ lists: [{ name: "s", ids: ["x", "y"] }] });
  assert.deepEqual(out.results.map((r) => r.id), ["x", "y"]);
  assert.throws(() => lib.normalize([NaN], "max"), (e) => e instanceof lib.ScoreError && e.code === "NON_FINITE_SCORE");
}

function call(name, fn, input) {
  let result;
  try {
    result = fn(...input);
  } catch (err) {
    checkThrown(name, err, input);
    canary();
    return;
  }
  checkResult(name, result);
  canary();
}

let calls = 0;
function property(arb, body) {
  fc.assert(
    fc.property(arb, (x) => {
      calls++;
      body(x);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true, includeErrorInReport: true },
  );
}

// ------------------------------------------------------------------ the tests

test("the exports are discovered", () => {
  assert.ok(FUNCTIONS.length >= 10, FUNCTIONS.join(", "));
  assert.ok(METHODS.includes("run") && METHODS.includes("runColumnar"), METHODS.join(", "));
  console.log(`fuzzing ${FUNCTIONS.length} functions (${FUNCTIONS.join(", ")}) and Pipeline.${METHODS.join(", Pipeline.")} with ${RUNS} runs per strategy`);
});

for (const name of FUNCTIONS) {
  test(`${name}: random arguments`, () => property(args, (input) => call(name, lib[name], input)));
  if (EXAMPLES[name]) {
    test(`${name}: its example works`, () => checkResult(name, lib[name](...EXAMPLES[name]())));
    test(`${name}: mutated valid arguments`, () =>
      property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        const input = mutations.reduce((a, m) => applyMutation(a, m), EXAMPLES[name]());
        call(name, lib[name], input);
      }));
  } else if (!name.startsWith("__")) {
    // (The `__` exports are the test suites' hooks: random arguments are enough.)
    console.log(`no example for ${name}: random arguments only (add one to EXAMPLES)`);
  }
}

test("new Pipeline: random and mutated configurations", () => {
  property(fc.oneof(args, fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => [ms.reduce((c, m) => applyMutation([c], m)[0], PIPELINE_CONFIG())])), (input) => {
    let p;
    try {
      p = new lib.Pipeline(...input);
    } catch (err) {
      checkThrown("new Pipeline", err, input);
      return canary();
    }
    assert.ok(p instanceof lib.Pipeline);
    assertFinite(p.config, "config");
    p.free();
    canary();
  });
});

const ITEMS_EXAMPLE = () => ({ y: { modifiedAt: "2026-11-01", name: "auth", fiscalYear: 2024 }, z: null, w: { summary: "auth token", crossEncoderScore: 0.5 } });
test("new Items: random and mutated items, then run with them as a run with the object", () => {
  const pipeline = new lib.Pipeline(PIPELINE_CONFIG());
  const runInput = METHOD_EXAMPLES.run()[0];
  property(fc.oneof(args, fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => [ms.reduce((c, m) => applyMutation([c], m)[0], ITEMS_EXAMPLE())])), (input) => {
    let held;
    try {
      held = new lib.Items(...input);
    } catch (err) {
      checkThrown("new Items", err, input);
      return canary();
    }
    assert.ok(held instanceof lib.Items && Number.isInteger(held.size));
    // The same call with the object and with the Items: the same output, or the same error.
    const outcome = (items) => {
      try {
        return pipeline.run({ ...runInput, lists: [...runInput.lists, { name: "c", ids: ["w", "z", "y"] }], items });
      } catch (err) {
        checkThrown("Pipeline.run (held items)", err, input);
        return { code: err.code, field: err.field };
      }
    };
    const viaItems = outcome(held);
    if (viaItems.code === undefined) checkResult("Pipeline.run (held items)", viaItems);
    assert.deepEqual(viaItems, outcome(input[0]), `new Items(${describe(input)}): run with it and with the object differ`);
    canary();
  });
  pipeline.free();
});

for (const method of METHODS) {
  const pipeline = new lib.Pipeline(PIPELINE_CONFIG());
  test(`Pipeline.${method}: random arguments`, () => property(args, (input) => call(method, (...a) => pipeline[method](...a), input)));
  if (METHOD_EXAMPLES[method]) {
    test(`Pipeline.${method}: its example works`, () => checkResult(method, pipeline[method](...METHOD_EXAMPLES[method]())));
    test(`Pipeline.${method}: mutated valid arguments`, () =>
      property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        const input = mutations.reduce((a, m) => applyMutation(a, m), METHOD_EXAMPLES[method]());
        call(method, (...a) => pipeline[method](...a), input);
      }));
  }
}

// Values no JSON parser makes: objects that inherit a built-in's prototype without
// being one, and arrays whose iteration was replaced. Each goes, in turn, at every
// position of every example (and as every argument).
const SPOOFS = () => [
  Object.create(Uint8Array.prototype),
  Object.create(Float64Array.prototype),
  Object.create(Uint32Array.prototype),
  Object.create(Map.prototype),
  Object.create(Set.prototype),
  Object.create(ArrayBuffer.prototype),
  Object.create(Error.prototype),
  Object.setPrototypeOf([1, 2], Uint32Array.prototype),
  Object.setPrototypeOf([0.5], Set.prototype),
  Object.setPrototypeOf({ k: 1 }, Float64Array.prototype),
  Object.defineProperty([1], Symbol.iterator, { value: 5 }),
  new Proxy({}, {}),
];

function paths(x, prefix = []) {
  return children(x).flatMap((k) => [[...prefix, k], ...paths(x[k], [...prefix, k])]);
}

function setAt(root, path, value) {
  let node = root;
  for (const k of path.slice(0, -1)) node = node[k];
  node[path[path.length - 1]] = value;
  return root;
}

test("values with a replaced prototype, at every position of every example", () => {
  const targets = [
    ...Object.entries(EXAMPLES).filter(([name]) => FUNCTIONS.includes(name)).map(([name, example]) => [name, lib[name], example]),
    ...Object.entries(METHOD_EXAMPLES).map(([name, example]) => {
      const p = new lib.Pipeline(PIPELINE_CONFIG());
      return [name, (...a) => p[name](...a), example];
    }),
    ["new Pipeline", (...a) => new lib.Pipeline(...a), () => [PIPELINE_CONFIG()]],
  ];
  let n = 0;
  for (const [name, fn, example] of targets) {
    for (const path of paths(example())) {
      for (let i = 0; i < SPOOFS().length; i++) {
        const input = setAt(example(), path, SPOOFS()[i]);
        n++;
        calls++;
        let result;
        try {
          result = fn(...input);
        } catch (err) {
          checkThrown(`${name} (spoof ${i} at ${path.join(".")})`, err, input);
          canary();
          continue;
        }
        checkResult(name, result);
        canary();
      }
    }
  }
  console.log(`replaced-prototype values: ${n} calls`);
});

// What this test found, written out (each used to throw a TypeError / RangeError, and
// the first three left the module broken: "memory access out of bounds" afterwards).
test("boundary findings stay fixed", () => {
  let deep = [];
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const cases = [
    ["a null where a record is read", () => new lib.Pipeline({ weights: [null] }), "INVALID_TYPE"],
    ["a sparse array as items", () => new lib.Pipeline().run({ lists: [], items: new Array(3) }), "INVALID_TYPE"],
    ["100,000-deep nesting in options", () => lib.rrf([["a"]], { k: deep }), "INVALID_TYPE"],
    ["100,000-deep nesting in a calibration", () => new lib.Pipeline({ calibration: { method: "platt", a: deep } }), "INVALID_TYPE"],
    ["100,000-deep nesting as now", () => new lib.Pipeline().run({ lists: [], now: { x: deep } }), "INVALID_TYPE"],
    ["an imitation Uint8Array", () => lib.rrf([["a"]], { k: Object.create(Uint8Array.prototype) }), "INVALID_TYPE"],
    ["an imitation Float64Array", () => lib.normalize(Object.create(Float64Array.prototype), "max"), "INVALID_TYPE"],
    ["a number as rerank's query", () => lib.rerank(123, []), "INVALID_TYPE"],
    ["an object as classifyBand's score", () => lib.classifyBand(Object.create(null)), "INVALID_TYPE"],
    ["a BigInt as classifyBand's score", () => lib.classifyBand(1n), "INVALID_TYPE"],
    ["a string as rrfColumnar's docs", () => lib.rrfColumnar("x", new Uint32Array([0, 0]), 1), "INVALID_TYPE"],
  ];
  if (FUNCTIONS.includes("parseTrecRun")) cases.push(["null as parseTrecRun's text", () => lib.parseTrecRun(null), "INVALID_TYPE"]);
  if (FUNCTIONS.includes("evaluate")) cases.push(["a run of [null]", () => lib.evaluate({ q: { d: 1 } }, { q: [null] }, ["mrr"]), "INVALID_TYPE"]);
  if (FUNCTIONS.includes("optimizeFusion")) cases.push(["a number as onProgress", () => lib.optimizeFusion({ q: { d: 1 } }, [{ q: { d: 1 } }, { q: { d: 2 } }], null, 5), "INVALID_TYPE"]);
  for (const [what, fn, code] of cases) {
    assert.throws(fn, (e) => e instanceof lib.ScoreError && e.code === code, what);
    canary();
  }
});

// Size limits (src/limits.rs): an input over a limit is INPUT_TOO_LARGE, decided from
// its length before it is copied into wasm memory (strings are charged before they are
// copied), so it is never an out-of-memory trap, and the module stays usable.
test("oversized inputs are INPUT_TOO_LARGE", () => {
  const big = (n) => new Array(n).fill("a");
  // One 1 MB string shared by many values: small in JS, gigabytes once copied.
  const mb = "s".repeat(1_000_000);
  const sharedItems = {};
  for (let i = 0; i < 5000; i++) sharedItems[`d${i}`] = { summary: mb };
  const cases = [
    // rrf's own entry budget (500,000: defaultLimits("rrf")); a shared array is cheap in JS.
    ["rrf: 500,001 ids in 3 lists", () => lib.rrf([big(250_000), big(250_000), ["b"]]), "lists"],
    ["rrf: 3 x 100,000 ids are accepted by default", () => {
      const ids = Array.from({ length: 300_000 }, (_, i) => `d${i}`);
      assert.equal(lib.rrf([ids.slice(0, 100_000), ids.slice(100_000, 200_000), ids.slice(200_000)]).length, 300_000);
      lib.rrf([["x"]], { limits: { maxTotalEntries: 0 } });
    }, "options.limits.maxTotalEntries", "INVALID_CONFIG"],
    ["Pipeline.run: 400,001 list ids and items", () => new lib.Pipeline().run({ lists: [{ name: "s", ids: big(400_000) }], items: { a: {} } }), "items"],
    ["rerank: 50,001 candidates", () => lib.rerank("q", Array.from({ length: 50_001 }, (_, i) => ({ id: `d${i}`, name: "n", score: 1 }))), "candidates"],
    ["Pipeline.run: 5,000 items sharing a 1 MB summary", () => new lib.Pipeline().run({ lists: [{ name: "s", ids: Object.keys(sharedItems) }], items: sharedItems }), "items.d31.summary"],
    ["Pipeline.run: a Map of items sharing a 1 MB summary", () => new lib.Pipeline().run({ lists: [{ name: "s", ids: Object.keys(sharedItems) }], items: new Map(Object.entries(sharedItems)) }), "items.d31.summary"],
    ["rerank: 100 candidates sharing a 1 MB summary", () => lib.rerank("q", Array.from({ length: 100 }, (_, i) => ({ id: `d${i}`, name: "n", type: "class", score: 1, summary: mb }))), "candidates[31].summary"],
    ["fuseRuns: 3 runs of 90,000 entries (its budget: 250,000)", () => lib.fuseRuns([0, 1, 2].map((r) => ({ q: Object.fromEntries(Array.from({ length: 90_000 }, (_, i) => [`d${i}`, i])) })), { method: "sum" }), "runs[2]"],
    ["rrf: 65 lists", () => lib.rrf(Array.from({ length: 65 }, () => ["a"])), "lists"],
    ["rrf: a list of 1,000,001 ids", () => lib.rrf([big(1_000_001)]), "lists[0]"],
    ["rrf: an id of 1025 bytes", () => lib.rrf([["x".repeat(1025)]]), "lists[0][0]"],
    ["rrfColumnar: 4,000,001 docs", () => lib.rrfColumnar(new Uint32Array(4_000_001), new Uint32Array([0, 4_000_001]), 1), "docs"],
    ["rrfColumnar: nDocs 4,000,001", () => lib.rrfColumnar(new Uint32Array([0]), new Uint32Array([0, 1]), 4_000_001), "nDocs"],
    ["Pipeline.run: 65 lists", () => new lib.Pipeline().run({ lists: Array.from({ length: 65 }, (_, i) => ({ name: `l${i}`, ids: ["a"] })) }), "lists"],
    ["Pipeline.run: 1,000,001 ids", () => new lib.Pipeline().run({ lists: [{ name: "s", ids: big(1_000_001) }] }), "lists[0]"],
    ["Pipeline.run: an id of 1025 bytes", () => new lib.Pipeline().run({ lists: [{ name: "s", ids: ["é".repeat(513)] }] }), "lists[0].ids[0]"],
    ["Pipeline.run: a 1 MB query", () => new lib.Pipeline().run({ query: "q".repeat(1_000_001), lists: [] }), "query"],
    ["Pipeline.run: a list name over maxIdBytes", () => new lib.Pipeline().run({ lists: [{ name: "n".repeat(1025), ids: ["a"] }] }), "lists[0].name"],
    ["Pipeline.run: a 1 MB context string", () => new lib.Pipeline().run({ lists: [{ name: "s", ids: ["a"] }], context: { language: "x".repeat(1_000_001) } }), "context.language"],
    ["Pipeline.run: a 1 MB summary", () => new lib.Pipeline().run({ lists: [{ name: "s", ids: ["a"] }], items: { a: { summary: "s".repeat(1_000_001) } } }), "items.a.summary"],
    ["Pipeline.run: limits.maxLists 2", () => new lib.Pipeline({ limits: { maxLists: 2 } }).run({ lists: ["a", "b", "c"].map((name) => ({ name, ids: ["x"] })) }), "lists"],
    ["Pipeline.run: limits.maxTotalEntries 3", () => new lib.Pipeline({ limits: { maxTotalEntries: 3 } }).run({ lists: [{ name: "a", ids: ["x", "y"] }, { name: "b", ids: ["x", "z"] }] }), "lists"],
    ["Pipeline.runColumnar: nDocs over maxColumnarEntries", () => new lib.Pipeline({ limits: { maxColumnarEntries: 10 } }).runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 11 }), "nDocs"],
    ["Pipeline.runColumnar: docs over maxColumnarEntries", () => new lib.Pipeline({ limits: { maxColumnarEntries: 10 } }).runColumnar({ docs: new Uint32Array(11), offsets: new Uint32Array([0, 11]), nDocs: 1 }), "docs"],
    ["fuseMultiQuery: 65 queries", () => lib.fuseMultiQuery(Array.from({ length: 65 }, () => [])), "queries"],
    ["rerank: a 1 MB query", () => lib.rerank("q".repeat(1_000_001), []), "query"],
    ["rerank: 1,000,001 candidates", () => lib.rerank("q", big(1_000_001)), "candidates"],
    ["defaultLimits: per-function entry budgets", () => {
      assert.equal(lib.defaultLimits().maxTotalEntries, 100_000);
      assert.equal(lib.defaultLimits("rrf").maxTotalEntries, 500_000);
      assert.equal(lib.defaultLimits("Pipeline").maxTotalEntries, 400_000);
      assert.equal(lib.defaultLimits("rerank").maxTotalEntries, 50_000);
      assert.equal(new lib.Pipeline().config.limits.maxTotalEntries, 400_000);
      assert.equal(new lib.Pipeline({ limits: { maxLists: 3 } }).config.limits.maxTotalEntries, 400_000);
      lib.defaultLimits(5);
    }, "fn", "INVALID_TYPE"],
    ["normalize: 1,000,001 scores", () => lib.normalize(new Float64Array(1_000_001), "max"), "scores"],
  ];
  const optional = [
    ["fitPlatt: 1,000,001 scores", () => lib.fitPlatt(new Float64Array(1_000_001), new Float64Array(1_000_001)), "scores"],
    ["parseTrecRun: 32 MB of text", () => lib.parseTrecRun(" ".repeat(32_000_001)), "text"],
    ["parseTrecRun: 250,001 lines", () => lib.parseTrecRun("q Q0 d 1 1 t\n".repeat(250_001)), "text"],
    ["fuseRuns: 65 runs", () => lib.fuseRuns(Array.from({ length: 65 }, () => ({})), { method: "sum" }), "runs"],
    ["evaluate: 65 metrics", () => lib.evaluate({ q: { d: 1 } }, { q: { d: 1 } }, Array.from({ length: 65 }, () => "mrr")), "metrics"],
  ];
  for (const [what, fn, field, code = "INPUT_TOO_LARGE"] of [...cases, ...optional.filter(([what]) => FUNCTIONS.includes(what.split(":")[0]))]) {
    assert.throws(fn, (e) => {
      assert.ok(e instanceof lib.ScoreError, `${what}: ${e}`);
      assert.equal(e.code, code, `${what}: ${e.code} ${e.message}`);
      assert.equal(e.field, field, `${what}: field`);
      return true;
    });
    canary();
  }
});

test("Pipeline.run: an item whose key is over maxIdBytes and in no list is not read", () => {
  // Listed, the key would be refused as a list id first ("Pipeline.run: an id of 1025
  // bytes", above).
  const out = new lib.Pipeline({ minConfidence: 0 }).run({ lists: [{ name: "s", ids: ["a"] }], items: { ["k".repeat(1025)]: { name: 5 } } });
  assert.deepEqual(out.results.map((r) => r.id), ["a"]);
  canary();
});

test("summary", () => {
  console.log(`fast-check: ${calls} generated calls, each followed by a canary call`);
});
