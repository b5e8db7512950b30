// calibrank/lab: TREC runs and judgements, ranx-compatible evaluation, run fusion and its
// tuning, calibration fitting. Its own module (calibrank_lab.wasm); importing the core
// never loads it. Same boundary as the core (js/wire.js), same ScoreError class. The
// parts (js/lab/):
//   shared.js     the module's state, operation numbers, the progress callback
//   runs.js       runs and judgements given as objects, and read back
//   trec.js       parseTrecRun, parseQrels
//   arguments.js  how a run or judgements argument crosses (handle or object)
//   evaluate.js   evaluate, evaluatePerQuery
//   fusion.js     fuseRuns, optimizeFusion
//   fit.js        fitPlatt, fitIsotonic, applyCalibration, calibrationError,
//                 proposeBands, fitQueryConfidence, predictQueryConfidence,
//                 evaluateQueryConfidence
//   handles.js    Run and Qrels, held in the module
// scripts/build-pkg.sh bundles them into the package's lab_api.js (js/wire.js and
// js/score_error.js stay modules of their own, shared with the core).
import { ScoreError } from "./score_error.js";
import { state } from "./lab/shared.js";

export { ScoreError };
export { version, errorCodes, defaultLimits, __progressReports } from "./lab/shared.js";
export { parseTrecRun, parseQrels } from "./lab/trec.js";
export { evaluate, evaluatePerQuery } from "./lab/evaluate.js";
export { fuseRuns, optimizeFusion } from "./lab/fusion.js";
export { fitPlatt, fitIsotonic, applyCalibration, calibrationError, proposeBands, fitQueryConfidence, predictQueryConfidence, evaluateQueryConfidence } from "./lab/fit.js";
export { Run, Qrels, __liveHandles } from "./lab/handles.js";

// For the entry modules only (`export *` does not re-export a default export): `init`
// instantiates the module; `lazy` registers a loader run on the first call instead
// (Node), so importing the package costs nothing where it is never called.
export default state.hooks();
