// Fitting from judgements: Platt and isotonic calibration, calibration error, evidence-
// based bands, and the query-level confidence model.
import { Input, notArray, numbers, own, objectJson, precheck, typeError } from "../wire.js";

import { argument, runsArgument } from "./arguments.js";
import { Qrels } from "./handles.js";
import { RunObjects } from "./runs.js";
import { OP, limitsOf, w } from "./shared.js";

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

/**
 * `value`'s JSON text, which must be an object's: a `toJSON` that gives `undefined` (as
 * `JSON.stringify` reads it: nothing) is `typeError(field, expected)`.
 */
function requiredJson(value, field, expected) {
  const text = objectJson(value, field, expected);
  if (text === undefined) throw typeError(field, expected);
  return text;
}

/** Applies a calibration (sigmoid, Platt or isotonic) to raw scores; input order kept. */
export function applyCalibration(scores, calibration, options) {
  const lim = limitsOf(options, "applyCalibration");
  const opts = precheck.options(lim, options);
  if (typeof calibration !== "object" || calibration === null) throw typeError("calibration", "a calibration object", calibration);
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
  const cal = requiredJson(rest, "calibration", "a calibration object");
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

/** The call's options (`limits` alone) and its query-confidence model, as JSON texts. */
function modelInput(lim, options, model) {
  const opts = precheck.options(lim, options);
  if (typeof model !== "object" || model === null || Array.isArray(model)) throw typeError("model", "a model returned by fitQueryConfidence", model);
  const m = requiredJson(model, "model", "a model returned by fitQueryConfidence");
  precheck.json(lim, m.length, "model");
  return new Input().text(opts).text(m);
}

/** The model's probability for every query of `runs` (the runs in the model's order). */
export function predictQueryConfidence(model, runs, options) {
  const lim = limitsOf(options, "predictQueryConfidence");
  const input = modelInput(lim, options, model);
  const arg = runsArgument(input, runs, new RunObjects(lim));
  try {
    return w().call(OP.PREDICT_QUERY_CONFIDENCE, input).json();
  } finally {
    arg.release();
  }
}

/**
 * How a query-confidence model does on judged queries (held out from its fit): each
 * judged query that a run lists, its probability and its label (as the fit makes them),
 * and their AUROC, log loss and Brier score.
 */
export function evaluateQueryConfidence(model, qrels, runs, options) {
  const lim = limitsOf(options, "evaluateQueryConfidence");
  const input = modelInput(lim, options, model);
  const objects = new RunObjects(lim);
  argument(input, qrels, Qrels, "qrels", objects);
  const arg = runsArgument(input, runs, objects);
  try {
    return w().call(OP.EVALUATE_QUERY_CONFIDENCE, input).json();
  } finally {
    arg.release();
  }
}
