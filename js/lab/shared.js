// What every part of the lab's JavaScript shares: the module's state (its Wire, lazy
// loader and limits table: js/wire.js), the operation numbers, and the progress callback
// of the optimizeFusion call in flight (the module's one import).
// Operation numbers: wasm/lab/src/lib.rs.
import { ModuleState } from "../wire.js";

export const OP = {
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
  EVALUATE_QUERY_CONFIDENCE: 53,
  RUN_FROM_TREC: 60,
  QRELS_FROM_TREC: 61,
  RUN_FROM_OBJECT: 62,
  QRELS_FROM_OBJECT: 63,
  HANDLE_TO_OBJECT: 64,
  HANDLE_INFO: 65,
  HANDLE_FREE: 66,
  HANDLES_LIVE: 67,
  HANDLE_SELECT: 68,
  RUN_RANKING: 69,
};


// The progress callback of the optimizeFusion call in flight, and the first exception
// it threw (kept here, rethrown when the call returns: never thrown through wasm).
let progressCallback = null;
let progressError = null;
// The module's progress reports, counted (tests: a search stopped by its callback makes
// no report after it).
let progressReports = 0;
/** How many progress reports the lab's module has made (tests). */
export const __progressReports = () => progressReports;
const imports = {
  calibrank: {
    // Answers whether the search goes on: 0 once the callback has thrown (the module
    // stops the search, and `callWithProgress` rethrows the exception).
    progress(done, total, bestScore) {
      progressReports++;
      if (progressError !== null) return 0;
      if (progressCallback === null) return 1;
      try {
        progressCallback({ done, total, bestScore });
      } catch (e) {
        progressError = { e };
        return 0;
      }
      return 1;
    },
  },
};

export const state = new ModuleState("calibrank/lab", imports);
export const w = () => state.get();
export const limitsOf = (options, fn) => state.limitsOf(options, fn);

/**
 * Calls operation `op` with `input` and reads its JSON answer, `onProgress` (or null)
 * answering the module's progress reports meanwhile. An exception the callback threw
 * stops the search (the module tries no further configuration) and is rethrown once the
 * call returns (never through wasm); the callback and error of a call
 * in flight are put back afterwards: this call, made from that call's callback, is
 * refused (REENTRANT_CALL) and must not end its progress reports.
 */
export function callWithProgress(onProgress, op, input) {
  const outer = { callback: progressCallback, error: progressError };
  progressCallback = onProgress || null;
  progressError = null;
  let out;
  let failed = null;
  let thrown;
  try {
    out = w().call(op, input).json();
  } catch (e) {
    failed = { e };
  } finally {
    thrown = progressError;
    progressCallback = outer.callback;
    progressError = outer.error;
  }
  // The callback's exception first: it stopped the search, whose error says only that.
  if (thrown !== null) throw thrown.e;
  if (failed !== null) throw failed.e;
  return out;
}

/** The package version, every error code, the default limits (js/wire/state.js `common`). */
export const { version, errorCodes, defaultLimits } = state.common();
