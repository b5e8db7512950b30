// The functions of one array of scores or one score: normalize, calibrate, classifyBand,
// queryConfidence; and the module's version, error codes and default limits.
import { Input, precheck, numbers, typeError } from "../wire.js";
import { OP, state, w, limitsOf, BAND, confidenceAt } from "./shared.js";
import { givenFault } from "./typed-config.js";

/** The package version, every error code, the default limits (js/wire/state.js `common`). */
export const { version, errorCodes, defaultLimits } = state.common();

/** Scores as an input section (a Float64Array or an array of numbers). */
function scoresInput(options, scores, field = "scores") {
  const lim = limitsOf(options, "scores");
  const opts = precheck.options(lim, options);
  const s = numbers(scores, field);
  precheck.array(lim, s.length, field);
  return new Input().text(opts).f64s(s);
}

/** Normalizes scores (`max`, `min_max`, `z_score`, `softmax`, `none`); input order kept. */
export function normalize(scores, method, options) {
  const lim = limitsOf(options, "normalize");
  const opts = precheck.options(lim, options);
  if (typeof method !== "string") throw typeError("method", "a method name string", method);
  precheck.oneText(lim, method.length, "method", method);
  const s = numbers(scores, "scores");
  precheck.array(lim, s.length, "scores");
  return w().call(OP.NORMALIZE, new Input().text(opts).text(method).f64s(s)).f64s();
}

/** Sigmoid calibration `1 / (1 + exp(-steepness * (raw - threshold)))`; input order kept. */
export function calibrate(scores, options) {
  return w().call(OP.CALIBRATE, scoresInput(options, scores)).f64s();
}

/** Classifies one score: `{ kind: "hit" | "degraded", score }` or `{ kind: "miss" }`. */
export function classifyBand(score, options) {
  // No limits among its options: the default bound.
  const opts = precheck.options(limitsOf(undefined, "classifyBand"), options);
  if (typeof score !== "number") throw typeError("score", "a number", score);
  let out;
  try {
    out = w().call(OP.CLASSIFY, new Input().text(opts).f64s([score]));
  } catch (e) {
    // A floor given alone, out of order with the other's default, is the one given's fault.
    throw givenFault(e, opts, "options");
  }
  const band = out.w.u8[out.u8At()];
  const s = out.w.f64[out.f64At()];
  return band === 0 ? { kind: "miss" } : { kind: BAND[band], score: s };
}

/** Query-level confidence: weighted top-5, expected precision, P(at least one relevant). */
export function queryConfidence(scores, options) {
  return confidenceAt(w().call(OP.QUERY_CONFIDENCE, scoresInput(options, scores)));
}
