// calibrank/lab: TREC runs and judgements, ranx-compatible evaluation, run fusion and its
// tuning, calibration fitting. Its own module (calibrank_lab.wasm); importing the core
// never loads it. Same boundary as the core (js/wire.js), same ScoreError class.
import { ScoreError } from "./score_error.js";
import { ModuleState, Input, precheck, toJson, numbers, scoreError, typeError, own, wellFormedText, wellFormedName, notArray, isMap, mapAsObject, utf8Length } from "./wire.js";

export { ScoreError };

// Operation numbers: wasm/lab/src/lib.rs.
const OP = {
  VERSION: 1,
  ERROR_CODES: 2,
  DEFAULT_LIMITS: 3,
  PARSE_RUN: 40,
  PARSE_QRELS: 41,
  EVALUATE: 42,
  EVALUATE_PER_QUERY: 43,
  FUSE_RUNS: 44,
  OPTIMIZE: 45,
  FIT_PLATT: 46,
  FIT_ISOTONIC: 47,
  APPLY_CALIBRATION: 48,
  CALIBRATION_ERROR: 49,
  PROPOSE_BANDS: 50,
  FIT_QUERY_CONFIDENCE: 51,
  PREDICT_QUERY_CONFIDENCE: 52,
  RUN_FROM_TREC: 60,
  QRELS_FROM_TREC: 61,
  RUN_FROM_OBJECT: 62,
  QRELS_FROM_OBJECT: 63,
  HANDLE_TO_OBJECT: 64,
  HANDLE_INFO: 65,
  HANDLE_FREE: 66,
  HANDLES_LIVE: 67,
};

// The progress callback of the optimizeFusion call in flight, and the first exception
// it threw (kept here, rethrown when the call returns: never thrown through wasm).
let progressCallback = null;
let progressError = null;
const imports = {
  calibrank: {
    progress(done, total, bestScore) {
      if (progressCallback === null || progressError !== null) return;
      try {
        progressCallback({ done, total, bestScore });
      } catch (e) {
        progressError = { e };
      }
    },
  },
};

// The module's Wire, its lazy loader and its limits table (js/wire.js).
const state = new ModuleState("calibrank/lab", imports);
const w = () => state.get();
const limitsOf = (options, fn) => state.limitsOf(options, fn);

// ------------------------------------------------------------------ run objects
// A run or judgements object `{ queryId: { docId: score } }` crosses as typed sections
// (wasm/lab/src/handles.rs, `Object`): the query ids, each query's number of documents,
// the document ids and the scores, in the order JSON.stringify would list them (the
// object's own enumerable string keys: integer-like keys ascending, then insertion
// order), each property read once. The module builds the same run as it built from the
// JSON text before and charges it to the same budget. What the JSON text did and this
// keeps: a property whose value is `undefined` is skipped; a Map is read as the object
// JSON.stringify's replacer made of it (its keys in an object's order); a key with a
// lone surrogate is refused here (INVALID_TYPE on the path of the object holding it, or
// on the argument for a key under a Map); -0 is 0; a Date, an array, a typed array or a
// primitive's object is not a record. What it does not: no `toJSON` is called (an
// object is read by its own enumerable properties), a Number object is not a score,
// and a score that is not a number is not read further (its getters, keys, cycles). A
// value of the wrong type does not throw here: what follows it in that argument is
// still read (getters, lone surrogates in keys) but not kept, the entries before it
// are sent with the error, and the module reports it where it met it in the JSON text
// (after the options, the metrics and the earlier arguments).

const RECORD = "a record of query id -> document id -> score";
const objectPrototype = Object.prototype;
const getPrototypeOf = Object.getPrototypeOf;
const objectKeys = Object.keys;

/** Whether `v` holds a primitive (a Number, String, Boolean or BigInt object) or a Date: what JSON.stringify wrote as a primitive (or, for a Date, its toJSON's string). */
function primitiveLike(v) {
  for (const valueOf of BRANDS) {
    try {
      valueOf.call(v);
      return true;
    } catch {
      // Not this kind.
    }
  }
  return false;
}
const BRANDS = [Number.prototype.valueOf, String.prototype.valueOf, Boolean.prototype.valueOf, Date.prototype.getTime];
if (typeof BigInt === "function") BRANDS.push(BigInt.prototype.valueOf);

/**
 * `v` as a record, read as JSON.stringify read it: itself, the object the replacer made
 * of a Map, or null (not a record: not an object, an array, a typed array, a primitive's
 * object or a Date). Checks made in the replacer's order: Map, typed array, array.
 */
function asRecord(v) {
  if (typeof v !== "object" || v === null) return null;
  const p = getPrototypeOf(v);
  if (p === objectPrototype) return Array.isArray(v) || ArrayBuffer.isView(v) ? null : v;
  // As the replacer: no prototype, so "__proto__" is an own key.
  if (isMap(v)) return mapAsObject(v);
  if (ArrayBuffer.isView(v) || Array.isArray(v)) return null;
  // Any other object is read by its own enumerable properties, as JSON.stringify read
  // those without toJSON (class instances, null-prototype objects, another realm's).
  return p === null || !primitiveLike(v) ? v : null;
}

const cyclic = (field) => scoreError("INVALID_TYPE", field, "the value is cyclic or nested too deep to be read");
const loneKey = (k, field) => wellFormedName(k, field, "a key", "keys");

/**
 * Reads one run or judgements object (`field`: its path; `top`: the argument's path,
 * where errors under a Map are reported, as the JSON text's were; `outer`: the array
 * holding it, if any). Returns its sections' contents and the error of the first value
 * of the wrong type (null if none).
 */
function readRun(value, field, top, outer) {
  const qids = [];
  const counts = [];
  const docs = [];
  const scores = [];
  let qUnits = 0;
  let dUnits = 0;
  let bad = null;
  // The key whose path `bad` names: a string of the input, counted against the limits
  // like the ids (the path crosses as text).
  let badKey = "";
  const run = asRecord(value);
  if (run === null) return { qids, counts, docs, scores, qUnits, dUnits, bad: typeError(field, RECORD), badKey };
  // The paths of the objects holding the keys, as the JSON text's errors named them (an
  // object under a Map was not found there: the argument's path).
  const runField = run === value ? field : top;
  const qs = objectKeys(run);
  for (let i = 0; i < qs.length; i++) {
    const q = qs[i];
    const v = run[q];
    loneKey(q, runField);
    if (v === undefined) continue;
    if (v === value || v === outer) throw cyclic(top);
    const d = asRecord(v);
    if (d === null) {
      if (bad === null) {
        bad = typeError(`${field}.${q}`, RECORD);
        badKey = q;
      }
      continue;
    }
    const docField = d === v && run === value ? `${field}.${q}` : top;
    // After a value of the wrong type the rest is still read (getters, keys), not kept.
    const keep = bad === null;
    if (keep) {
      qids.push(q);
      qUnits += q.length;
    }
    const ks = objectKeys(d);
    let n = 0;
    for (let j = 0; j < ks.length; j++) {
      const k = ks[j];
      const s = d[k];
      loneKey(k, docField);
      if (typeof s === "number") {
        if (bad !== null) continue;
        docs.push(k);
        dUnits += k.length;
        // -0 + 0 is 0: JSON.stringify wrote -0 as 0.
        scores.push(s + 0);
        n++;
      } else if (s !== undefined) {
        if (s === v || s === value || s === outer) throw cyclic(top);
        if (bad === null) {
          bad = typeError(`${field}.${q}.${k}`, "a number");
          badKey = k;
        }
      }
    }
    if (keep) counts.push(n);
  }
  return { qids, counts, docs, scores, qUnits, dUnits, bad, badKey };
}

/**
 * The runs and judgements of one call, read in the order the module charges them to the
 * call's budget (`lim`; null: the module alone checks), and checked against it before
 * anything is copied: entries against maxTotalEntries, the ids' bytes against
 * maxTotalTextBytes (their UTF-16 length first, counted exactly only when that is over).
 */
class RunObjects {
  constructor(lim) {
    this.lim = lim;
    this.entries = 0;
    this.units = 0;
    /** Every object read so far (`readRun`'s result, field), for the exact count of bytes. */
    this.read = [];
  }

  /** Reads `value` (see `readRun`), checks it against the limits and adds its sections to `input`. */
  add(input, value, field, top, outer) {
    const r = readRun(value, field, top, outer);
    this.read.push([r, field]);
    this.check(r, field);
    input.strs(r.qids, r.qUnits).u32s(r.counts).strs(r.docs, r.dUnits).f64s(r.scores);
    if (r.bad === null) input.none();
    else input.text(r.bad.field).text(r.bad.message);
  }

  check(r, field) {
    const lim = this.lim;
    if (!lim) return;
    const entries = this.entries + r.docs.length;
    this.units += r.qUnits + r.dUnits + r.badKey.length;
    if (this.units > lim.maxTotalTextBytes) {
      // Over for sure; the module, counting bytes, may have been over at an earlier object.
      let bytes = 0;
      for (const [o, f] of this.read) {
        for (let i = 0; i < o.qids.length; i++) bytes += utf8Length(o.qids[i]);
        for (let i = 0; i < o.docs.length; i++) bytes += utf8Length(o.docs[i]);
        bytes += utf8Length(o.badKey);
        if (o !== r) precheck.text(lim, bytes, f);
      }
      precheck.entries(lim, entries, field);
      precheck.text(lim, bytes, field);
    } else precheck.entries(lim, entries, field);
    this.entries = entries;
  }
}

/** Reads a run back, sentinels turned into their numbers. */
function parseRun(text) {
  if (!text.includes("\\u0000")) return JSON.parse(text);
  return JSON.parse(text, (_k, v) =>
    v === "\u0000NaN" ? NaN : v === "\u0000Infinity" ? Infinity : v === "\u0000-Infinity" ? -Infinity : v,
  );
}

/** The package version. */
export function version() {
  return state.version();
}

/** Every error code calibrank can throw. */
export function errorCodes() {
  return state.errorCodes();
}

/**
 * The default input size limits (every field filled in): those most functions share,
 * or those of `fn` (`"rrf"`, `"Pipeline"`, `"rerank"`, ...: some functions have an
 * entry budget of their own, see the README's "Limits").
 */
export function defaultLimits(fn) {
  return state.defaultLimits(fn);
}

function trecText(text, options, fn) {
  const lim = limitsOf(options, fn);
  const opts = precheck.options(lim, options);
  if (typeof text !== "string") throw typeError("text", "a string");
  precheck.text(lim, text.length, "text");
  // Its ids are identities: a lone surrogate would be read as U+FFFD and could merge two.
  wellFormedText(text, "text", "a run's or judgements' text");
  return new Input().text(opts).text(text);
}

/** Parses a TREC run (`qid Q0 docid rank score tag` per line) into its JSON form. */
export function parseTrecRun(text, options) {
  return parseRun(w().call(OP.PARSE_RUN, trecText(text, options, "parseTrecRun")).text());
}

/** Parses TREC qrels (`qid iter docid rel` per line) into their JSON form. */
export function parseQrels(text, options) {
  return parseRun(w().call(OP.PARSE_QRELS, trecText(text, options, "parseQrels")).text());
}

function evaluateInput(qrels, run, metrics, options) {
  const lim = limitsOf(options, "evaluate");
  const opts = precheck.options(lim, options);
  const input = new Input().text(opts);
  const objects = new RunObjects(lim);
  argument(input, qrels, Qrels, "qrels", objects);
  argument(input, run, Run, "run", objects);
  if (!Array.isArray(metrics)) throw typeError("metrics", "an array of metric names");
  return input.text(precheck.jsonText(lim, toJson(metrics, "metrics"), "metrics"));
}

/**
 * Run objects this package returned in ranx's order (`fuseRuns` of objects, a `Run`'s
 * `toObject()`): read back as they are when their scores still come in non-increasing
 * order, where any other object is sorted as ranx's `Run(dict)` sorts a dict (which can
 * reorder 16 or more tied documents; ranx does not re-sort its own fused run).
 */
const rankedObjects = new WeakSet();

/** Writes a run (or qrels) argument: its handle, or the object (`objects`: see `RunObjects`). */
function argument(input, value, Class, field, objects) {
  if (isLabObject(value, field)) {
    if (!(value instanceof Class)) throw typeError(field, `a ${field === "run" ? "Run" : "Qrels"} or a plain object`);
    // Checked now, looked up again when the call is made: a later argument's getter
    // could free this object and make another in its slot.
    const slot = [handleOf(value, field)];
    return input.u32s(slot).later(() => {
      slot[0] = handleOf(value, field);
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw typeError(field, RECORD);
  if (Class === Run && rankedObjects.has(value)) input.f64s([1]);
  objects.add(input, value, field, field, undefined);
}

/** Mean of each metric over the judged queries, as ranx computes them. */
export function evaluate(qrels, run, metrics, options) {
  return w().call(OP.EVALUATE, evaluateInput(qrels, run, metrics, options)).json();
}

/** Per-query values of each metric: metric -> query id -> value. */
export function evaluatePerQuery(qrels, run, metrics, options) {
  return w().call(OP.EVALUATE_PER_QUERY, evaluateInput(qrels, run, metrics, options)).json();
}

/**
 * Writes a runs argument: their handles when every run is a `Run`, else the objects
 * (`objects`: see `RunObjects`), after one "in ranx's order" flag per run. Runs of both
 * kinds: the objects become `Run`s first (freed by the returned function).
 */
function runsArgument(input, runs, objects) {
  const lim = objects.lim;
  if (!Array.isArray(runs)) throw typeError("runs", "an array of runs");
  // The length and each run read once (a Proxy could answer differently later).
  const n = runs.length;
  precheck.lists(lim, n, "runs");
  const given = new Array(n);
  // Index access only: a spoofed array's methods may not be Array's.
  let some = false;
  for (let i = 0; i < n; i++) if (isLabObject((given[i] = runs[i]), `runs[${i}]`)) some = true;
  if (!some) {
    const flags = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const r = given[i];
      if (typeof r !== "object" || r === null || Array.isArray(r)) throw typeError(`runs[${i}]`, RECORD);
      if (rankedObjects.has(r)) flags[i] = 1;
    }
    input.f64s(flags);
    for (let i = 0; i < n; i++) objects.add(input, given[i], `runs[${i}]`, "runs", runs);
    return { handles: false, release() {} };
  }
  const made = [];
  const rs = new Array(n);
  const hs = new Uint32Array(n);
  try {
    for (let i = 0; i < n; i++) {
      let r = given[i];
      if (r instanceof LabObject && !(r instanceof Run)) throw typeError(`runs[${i}]`, "a Run or a plain object");
      if (!(r instanceof Run)) {
        // Its errors named under `runs[i]`, where they are in this call.
        r = new Run(TOKEN, w(), fromObject(OP.RUN_FROM_OBJECT, r, { limits: lim }, `runs[${i}]`, "parseTrecRun"));
        made.push(r);
      }
      hs[i] = handleOf(r, `runs[${i}]`);
      rs[i] = r;
    }
  } catch (e) {
    for (const r of made) r.free();
    throw e;
  }
  // Looked up again when the call is made: a later run's getter (or a later
  // argument's) could have freed a Run and made another in its slot.
  input.u32s(hs).later(() => {
    for (let i = 0; i < n; i++) hs[i] = handleOf(rs[i], `runs[${i}]`);
  });
  return {
    handles: true,
    release() {
      for (const r of made) r.free();
    },
  };
}

/**
 * Fuses whole runs with any ranx method (and Qdrant's / OpenSearch's). Runs given as
 * `Run`s give a `Run`; plain objects give a plain object (each query's documents in
 * ranx's order, which integer-like ids lose: JS orders such keys numerically).
 */
export function fuseRuns(runs, options) {
  if (options === undefined || options === null) throw typeError("options", "the options, with at least `method`");
  const lim = limitsOf(options, "fuseRuns");
  const input = new Input().text(precheck.options(lim, options));
  const arg = runsArgument(input, runs, new RunObjects(lim));
  try {
    const wr = w();
    const out = wr.call(OP.FUSE_RUNS, input);
    if (arg.handles) return new Run(TOKEN, wr, out.u32View()[0]);
    const fused = parseRun(out.text());
    rankedObjects.add(fused);
    return fused;
  } finally {
    arg.release();
  }
}

/**
 * Grid search over a fusion method's weights or RRF `k`, maximizing a metric on
 * judgements; `onProgress({ done, total, bestScore })` is called after every
 * configuration (an exception it throws is rethrown once the search ends; a lab call
 * made from it is refused with `REENTRANT_CALL`, see js/wire/module.js `Wire.call`).
 */
export function optimizeFusion(qrels, runs, options, onProgress) {
  if (onProgress !== undefined && onProgress !== null && typeof onProgress !== "function") throw typeError("onProgress", "a function");
  const lim = limitsOf(options, "optimizeFusion");
  const opts = precheck.options(lim, options);
  const input = new Input().text(opts);
  const objects = new RunObjects(lim);
  argument(input, qrels, Qrels, "qrels", objects);
  const arg = runsArgument(input, runs, objects);
  input.f64s([onProgress ? 1 : 0]);
  // The callback and error of a call in flight are put back afterwards: this call, made
  // from that call's onProgress, is refused (REENTRANT_CALL) and must not end its
  // progress reports.
  const outer = { callback: progressCallback, error: progressError };
  progressCallback = onProgress || null;
  progressError = null;
  let out;
  let thrown;
  try {
    out = w().call(OP.OPTIMIZE, input).json();
  } finally {
    thrown = progressError;
    progressCallback = outer.callback;
    progressError = outer.error;
    arg.release();
  }
  if (thrown !== null) throw thrown.e;
  return out;
}

function labelled(options, scores, labels, names = ["scores", "labels"]) {
  const lim = limitsOf(options, "fit");
  const first = precheck.options(lim, options);
  const s = numbers(scores, names[0]);
  precheck.array(lim, s.length, names[0]);
  const l = numbers(labels, names[1]);
  precheck.array(lim, l.length, names[1]);
  return new Input().text(first).f64s(s).f64s(l);
}

/** Platt scaling fitted on (score, 0/1 label) pairs; plugs into `new Pipeline({ calibration })`. */
export function fitPlatt(scores, labels, options) {
  return w().call(OP.FIT_PLATT, labelled(options, scores, labels)).json();
}

/** Isotonic regression fitted on (score, 0/1 label) pairs; plugs into `new Pipeline({ calibration })`. */
export function fitIsotonic(scores, labels, options) {
  return w().call(OP.FIT_ISOTONIC, labelled(options, scores, labels)).json();
}

/** Applies a calibration (sigmoid, Platt or isotonic) to raw scores; input order kept. */
export function applyCalibration(scores, calibration, options) {
  const lim = limitsOf(options, "applyCalibration");
  const opts = precheck.options(lim, options);
  if (typeof calibration !== "object" || calibration === null) throw typeError("calibration", "a calibration object");
  notArray(calibration, "calibration");
  // An isotonic model's knots (up to a million) cross as numbers, not as JSON text.
  let x;
  let y;
  let rest = calibration;
  // (Keys inherited from Object.prototype are not the calibration's: see `own`.)
  if (own(calibration, "method") === "isotonic" && own(calibration, "x") !== undefined && own(calibration, "y") !== undefined) {
    ({ x, y, ...rest } = calibration);
    x = numbers(x, "calibration.x");
    y = numbers(y, "calibration.y");
    precheck.array(lim, x.length, "calibration.x");
    precheck.array(lim, y.length, "calibration.y");
    rest = { ...rest, x: [], y: [] };
  }
  const cal = toJson(rest, "calibration");
  precheck.json(lim, cal.length, "calibration");
  const s = numbers(scores, "scores");
  precheck.array(lim, s.length, "scores");
  return w().call(OP.APPLY_CALIBRATION, new Input().text(opts).text(cal).f64s(x).f64s(y).f64s(s)).f64s();
}

/** ECE, MCE, Brier score, log loss and reliability-curve bins of calibrated probabilities. */
export function calibrationError(probabilities, labels, options) {
  return w()
    .call(OP.CALIBRATION_ERROR, labelled(options, probabilities, labels, ["probabilities", "labels"]))
    .json();
}

/** Band floors from evidence, with k-fold held-out precision and recall. */
export function proposeBands(scores, labels, options) {
  return w().call(OP.PROPOSE_BANDS, labelled(options, scores, labels)).json();
}

/**
 * Learns, from judged queries, the probability that the fused top `k` of a query's
 * lists holds a relevant document, from the ranks and each run's raw scores. `runs` are
 * in the order the pipeline's lists will have. Plugs into
 * `new Pipeline({ confidence: { model } })`.
 */
export function fitQueryConfidence(qrels, runs, options) {
  const lim = limitsOf(options, "fitQueryConfidence");
  const opts = precheck.options(lim, options);
  const input = new Input().text(opts);
  const objects = new RunObjects(lim);
  argument(input, qrels, Qrels, "qrels", objects);
  const arg = runsArgument(input, runs, objects);
  try {
    return w().call(OP.FIT_QUERY_CONFIDENCE, input).json();
  } finally {
    arg.release();
  }
}

/** The model's probability for every query of `runs` (the runs in the model's order). */
export function predictQueryConfidence(model, runs, options) {
  const lim = limitsOf(options, "predictQueryConfidence");
  const opts = precheck.options(lim, options);
  if (typeof model !== "object" || model === null || Array.isArray(model)) throw typeError("model", "a model returned by fitQueryConfidence");
  const m = toJson(model, "model");
  precheck.json(lim, m.length, "model");
  const input = new Input().text(opts).text(m);
  const arg = runsArgument(input, runs, new RunObjects(lim));
  try {
    return w().call(OP.PREDICT_QUERY_CONFIDENCE, input).json();
  } finally {
    arg.release();
  }
}

// ------------------------------------------------------------------ Run and Qrels handles
// A `Run` or `Qrels` lives in the module's memory: parsed once, kept in ranx's order,
// passed to every lab function by handle. Freeing follows wasm-bindgen's conventions:
// `free()` (idempotent), `Symbol.dispose` (for `using`), and a FinalizationRegistry that
// frees an object the program dropped without freeing it (a safety net: when, if ever,
// it runs is up to the engine).

/** Guards the constructors: only this module makes handles. */
const TOKEN = Symbol("calibrank/lab handle");
/**
 * Marks `Run` and `Qrels` of every copy of this module (a registered symbol): the ESM and
 * CommonJS entries each load their own copy, with its own wasm instance, whose handles
 * mean nothing to the other (a `Run` of one was read as an empty object by the other).
 */
const BRAND = Symbol.for("calibrank/lab Run or Qrels");

/**
 * Whether `value` is a `Run` or `Qrels` of this copy; one of another copy is refused
 * (`INVALID_TYPE` on `field`).
 */
function isLabObject(value, field) {
  if (value instanceof LabObject) return true;
  if (typeof value === "object" && value !== null && value[BRAND] === true)
    throw typeError(field, "a Run or Qrels of this copy of calibrank/lab (this one was made by another copy: the ESM and CommonJS entries each load their own module, so make it with the entry you pass it to)");
  return false;
}

/** Handle records ({ wire, handle, generation }) of live objects, by object. */
const records = new WeakMap();

const registry = typeof FinalizationRegistry === "function" ? new FinalizationRegistry((h) => freeHandle(h)) : null;

function freeHandle(h) {
  if (state.wire !== null && h.wire === state.wire && h.generation === state.wire.generation) state.wire.call(OP.HANDLE_FREE, new Input().u32s([h.handle]));
}

/** The handle of a live object (throws for a freed one, or one lost in a module restart). */
function handleOf(o, field = "this") {
  const h = records.get(o);
  const name = o instanceof Run ? "Run" : "Qrels";
  if (h === undefined || h === null) throw scoreError("INVALID_TYPE", field, `the ${name} was freed (free() or Symbol.dispose) and cannot be used any more`);
  if (h.wire !== state.wire || h.generation !== state.wire.generation)
    throw scoreError("INVALID_TYPE", field, `the ${name} was lost when calibrank/lab restarted after an internal error; make it again`);
  return h.handle;
}

/** What `Run` and `Qrels` share. */
class LabObject {
  constructor(token, wr, handle) {
    if (token !== TOKEN) throw typeError("this", "a Run or Qrels made by fromTrec(text) or fromObject(obj)");
    const h = { wire: wr, handle, generation: wr.generation };
    records.set(this, h);
    if (registry) registry.register(this, h, h);
  }

  /** `{ queryId: { docId: score } }`; a run's documents in its (ranx's) order. */
  toObject() {
    const o = parseRun(w().call(OP.HANDLE_TO_OBJECT, new Input().u32s([handleOf(this)])).text());
    if (this instanceof Run) rankedObjects.add(o);
    return o;
  }

  /** Number of queries (ranx's `size`). */
  get size() {
    return this.queryIds.length;
  }

  /** The query ids, sorted (ranx sorts them too). */
  get queryIds() {
    return w().call(OP.HANDLE_INFO, new Input().u32s([handleOf(this)])).strs();
  }

  /** Frees the object's memory in the module; later uses throw. Idempotent. */
  free() {
    const h = records.get(this);
    if (h === undefined || h === null) return;
    // Freed in the module first: refused there (REENTRANT_CALL, from optimizeFusion's
    // onProgress), the object stays live and a later free() frees it.
    freeHandle(h);
    records.set(this, null);
    if (registry) registry.unregister(h);
  }

  [Symbol.dispose]() {
    this.free();
  }

  get [BRAND]() {
    return true;
  }
}

function fromText(op, text, options, fn) {
  const wr = w();
  const out = wr.call(op, trecText(text, options, fn));
  return out.u32View()[0];
}

function fromObject(op, obj, options, field, fn) {
  if (isLabObject(obj, field)) throw typeError(field, "a plain object (this is already a Run or Qrels)");
  const lim = limitsOf(options, fn);
  // The object's path goes along: the module names its errors under it.
  const input = new Input().text(precheck.options(lim, options)).text(field);
  argument(input, obj, op === OP.RUN_FROM_OBJECT ? Run : Qrels, field, new RunObjects(lim));
  return w().call(op, input).u32View()[0];
}

/**
 * A run held in the module, as ranx holds a `Run`: each query's documents in the order
 * ranx sorts them (numba's quicksort of the file's or the object's order), which decides
 * how tied scores rank. Make one with `Run.fromTrec(text)` or `Run.fromObject(obj)`.
 */
export class Run extends LabObject {
  /** Parses a TREC run (`qid Q0 docid rank score tag`), keeping the file's order. */
  static fromTrec(text, options) {
    return new Run(TOKEN, w(), fromText(OP.RUN_FROM_TREC, text, options, "parseTrecRun"));
  }

  /** A run from `{ queryId: { docId: score } }`, in the object's key order. */
  static fromObject(obj, options) {
    return new Run(TOKEN, w(), fromObject(OP.RUN_FROM_OBJECT, obj, options, "run", "parseTrecRun"));
  }
}

/** Relevance judgements held in the module. Make them with `Qrels.fromTrec` or `Qrels.fromObject`. */
export class Qrels extends LabObject {
  /** Parses TREC qrels (`qid iter docid rel`). */
  static fromTrec(text, options) {
    return new Qrels(TOKEN, w(), fromText(OP.QRELS_FROM_TREC, text, options, "parseQrels"));
  }

  /** Judgements from `{ queryId: { docId: grade } }`. */
  static fromObject(obj, options) {
    return new Qrels(TOKEN, w(), fromObject(OP.QRELS_FROM_OBJECT, obj, options, "qrels", "parseQrels"));
  }
}

/** `Run`s and `Qrels` alive in the module (for leak tests). */
export function __liveHandles() {
  return w().call(OP.HANDLES_LIVE).f64View()[0];
}

// For the entry modules only (`export *` does not re-export a default export): `init`
// instantiates the module; `lazy` registers a loader run on the first call instead
// (Node), so importing the package costs nothing where it is never called.
export default state.hooks();
