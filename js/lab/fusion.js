// Fusion of whole runs with ranx's methods (`fuseRuns`) and its tuning (`optimizeFusion`).
import { Input, precheck, typeError } from "../wire.js";

import { argument, runsArgument } from "./arguments.js";
import { Qrels, Run, TOKEN } from "./handles.js";
import { RunObjects, rankedObjects, runOfSections } from "./runs.js";
import { OP, callWithProgress, limitsOf, w } from "./shared.js";

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
    const fused = runOfSections(out);
    rankedObjects.add(fused);
    return fused;
  } finally {
    arg.release();
  }
}

/**
 * Grid search over a fusion method's weights, RRF `k` or RBC `phi`, maximizing a metric on
 * judgements; `onProgress({ done, total, bestScore })` is called after every
 * configuration (an exception it throws stops the search and is what this throws; a lab
 * call made from it is refused with `REENTRANT_CALL`, see js/wire/module.js `Wire.call`).
 */
export function optimizeFusion(qrels, runs, options, onProgress) {
  if (onProgress !== undefined && onProgress !== null && typeof onProgress !== "function") throw typeError("onProgress", "a function", onProgress);
  const lim = limitsOf(options, "optimizeFusion");
  const opts = precheck.options(lim, options);
  const input = new Input().text(opts);
  const objects = new RunObjects(lim);
  argument(input, qrels, Qrels, "qrels", objects);
  const arg = runsArgument(input, runs, objects);
  input.f64s([onProgress ? 1 : 0]);
  try {
    return callWithProgress(onProgress, OP.OPTIMIZE, input);
  } finally {
    arg.release();
  }
}
