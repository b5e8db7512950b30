// calibrank/lab: TREC runs and judgements, ranx-compatible evaluation, run fusion and its
// tuning, calibration fitting. Its own module (calibrank_lab.wasm); importing the core
// never loads it. Same boundary as the core (js/wire.js), same ScoreError class.
import { ScoreError } from "./score_error.js";
import { Wire, Input, LimitTable, precheck, toJson, numbers, scoreError, typeError } from "./wire.js";

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
};

let wire = null;
let limitTable = null;

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

/** Instantiates the module (a compiled `WebAssembly.Module`); the entry modules call it. */
function init(module) {
  wire = new Wire(module, imports);
}

/** The limits table, read from the module on first use (not at start-up). */
function limits() {
  if (limitTable === null) {
    const out = w().call(OP.DEFAULT_LIMITS);
    limitTable = new LimitTable(out);
  }
  return limitTable;
}

function w() {
  if (wire === null && loader !== null) {
    const load = loader;
    loader = null;
    init(load());
  }
  if (wire === null) throw scoreError("INTERNAL", "", "calibrank/lab is not initialized: import it through one of its entries");
  return wire;
}

/** The limits of a call of `fn` with `options` (for the checks made before copying). */
function limitsOf(options, fn) {
  if (options === undefined || options === null || typeof options !== "object") return limits().defaultsFor(fn);
  return limits().effective(options.limits, fn);
}

/** A run (or qrels) as JSON text; its size checked against the limits first. */
function runText(run, field, lim) {
  if (typeof run !== "object" || run === null || Array.isArray(run)) throw typeError(field, "a record of query id -> document id -> score");
  const text = toJson(run, field);
  precheck.json(lim, text.length, field);
  return text;
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
  return w().call(OP.VERSION).text();
}

/** Every error code calibrank can throw. */
export function errorCodes() {
  return w().call(OP.ERROR_CODES).strs();
}

/**
 * The default input size limits (every field filled in): those most functions share,
 * or those of `fn` (`"rrf"`, `"Pipeline"`, `"rerank"`, ...: some functions have an
 * entry budget of their own, see the README's "Limits").
 */
export function defaultLimits(fn) {
  if (fn !== undefined && typeof fn !== "string") throw typeError("fn", "a function name");
  return { ...limits().defaultsFor(fn) };
}

function trecText(text, options, fn) {
  const opts = toJson(options, "options");
  if (typeof text !== "string") throw typeError("text", "a string");
  precheck.text(limitsOf(options, fn), text.length, "text");
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
  const opts = toJson(options, "options");
  const lim = limitsOf(options, "evaluate");
  const q = runText(qrels, "qrels", lim);
  const r = runText(run, "run", lim);
  if (!Array.isArray(metrics)) throw typeError("metrics", "an array of metric names");
  return new Input().text(opts).text(q).text(r).text(toJson(metrics, "metrics"));
}

/** Mean of each metric over the judged queries, as ranx computes them. */
export function evaluate(qrels, run, metrics, options) {
  return w().call(OP.EVALUATE, evaluateInput(qrels, run, metrics, options)).json();
}

/** Per-query values of each metric: metric -> query id -> value. */
export function evaluatePerQuery(qrels, run, metrics, options) {
  return w().call(OP.EVALUATE_PER_QUERY, evaluateInput(qrels, run, metrics, options)).json();
}

function runsText(runs, lim) {
  if (!Array.isArray(runs)) throw typeError("runs", "an array of runs");
  precheck.lists(lim, runs.length, "runs");
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i];
    if (typeof r !== "object" || r === null || Array.isArray(r)) throw typeError(`runs[${i}]`, "a record of query id -> document id -> score");
  }
  const text = toJson(runs, "runs");
  precheck.json(lim, text.length, "runs");
  return text;
}

/** Fuses whole runs with any ranx method (and Qdrant's / OpenSearch's). */
export function fuseRuns(runs, options) {
  if (options === undefined || options === null) throw typeError("options", "the options, with at least `method`");
  const opts = toJson(options, "options");
  const text = runsText(runs, limitsOf(options, "fuseRuns"));
  return parseRun(w().call(OP.FUSE_RUNS, new Input().text(opts).text(text)).text());
}

/**
 * Grid search over a fusion method's weights or RRF `k`, maximizing a metric on
 * judgements; `onProgress({ done, total, bestScore })` is called after every
 * configuration (an exception it throws is rethrown once the search ends).
 */
export function optimizeFusion(qrels, runs, options, onProgress) {
  if (onProgress !== undefined && onProgress !== null && typeof onProgress !== "function") throw typeError("onProgress", "a function");
  const opts = toJson(options, "options");
  const lim = limitsOf(options, "optimizeFusion");
  const q = runText(qrels, "qrels", lim);
  const r = runsText(runs, lim);
  const input = new Input().text(opts).text(q).text(r).f64s([onProgress ? 1 : 0]);
  progressCallback = onProgress || null;
  progressError = null;
  let out;
  try {
    out = w().call(OP.OPTIMIZE, input).json();
  } finally {
    progressCallback = null;
  }
  if (progressError !== null) {
    const { e } = progressError;
    progressError = null;
    throw e;
  }
  return out;
}

function labelled(first, scores, labels, options, names = ["scores", "labels"]) {
  const lim = limitsOf(options, "fit");
  const s = numbers(scores, names[0]);
  precheck.array(lim, s.length, names[0]);
  const l = numbers(labels, names[1]);
  precheck.array(lim, l.length, names[1]);
  return new Input().text(first).f64s(s).f64s(l);
}

/** Platt scaling fitted on (score, 0/1 label) pairs; plugs into `new Pipeline({ calibration })`. */
export function fitPlatt(scores, labels, options) {
  return w().call(OP.FIT_PLATT, labelled(toJson(options, "options"), scores, labels, options)).json();
}

/** Isotonic regression fitted on (score, 0/1 label) pairs; plugs into `new Pipeline({ calibration })`. */
export function fitIsotonic(scores, labels, options) {
  return w().call(OP.FIT_ISOTONIC, labelled(toJson(options, "options"), scores, labels, options)).json();
}

/** Applies a calibration (sigmoid, Platt or isotonic) to raw scores; input order kept. */
export function applyCalibration(scores, calibration, options) {
  const opts = toJson(options, "options");
  const lim = limitsOf(options, "applyCalibration");
  if (typeof calibration !== "object" || calibration === null) throw typeError("calibration", "a calibration object");
  // An isotonic model's knots (up to a million) cross as numbers, not as JSON text.
  let x;
  let y;
  let rest = calibration;
  if (calibration.method === "isotonic" && calibration.x !== undefined && calibration.y !== undefined) {
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
    .call(OP.CALIBRATION_ERROR, labelled(toJson(options, "options"), probabilities, labels, options, ["probabilities", "labels"]))
    .json();
}

/** Band floors from evidence, with k-fold held-out precision and recall. */
export function proposeBands(scores, labels, options) {
  return w().call(OP.PROPOSE_BANDS, labelled(toJson(options, "options"), scores, labels, options)).json();
}

/**
 * Learns, from judged queries, the probability that the fused top `k` of a query's
 * lists holds a relevant document, from the ranks and each run's raw scores. `runs` are
 * in the order the pipeline's lists will have. Plugs into
 * `new Pipeline({ confidence: { model } })`.
 */
export function fitQueryConfidence(qrels, runs, options) {
  const opts = toJson(options, "options");
  const lim = limitsOf(options, "fitQueryConfidence");
  const q = runText(qrels, "qrels", lim);
  const r = runsText(runs, lim);
  return w().call(OP.FIT_QUERY_CONFIDENCE, new Input().text(opts).text(q).text(r)).json();
}

/** The model's probability for every query of `runs` (the runs in the model's order). */
export function predictQueryConfidence(model, runs, options) {
  const opts = toJson(options, "options");
  const lim = limitsOf(options, "predictQueryConfidence");
  if (typeof model !== "object" || model === null || Array.isArray(model)) throw typeError("model", "a model returned by fitQueryConfidence");
  const m = toJson(model, "model");
  precheck.json(lim, m.length, "model");
  const r = runsText(runs, lim);
  return w().call(OP.PREDICT_QUERY_CONFIDENCE, new Input().text(opts).text(m).text(r)).json();
}

// A loader the entry registered instead of instantiating at import time (Node): the
// module is read and compiled on the first call, so importing the package costs nothing
// where it is never called (a server rendering a client component, for instance).
let loader = null;

/** For the entry modules only (`export *` does not re-export a default export). */
export default {
  init,
  lazy(load) {
    loader = load;
  },
};
