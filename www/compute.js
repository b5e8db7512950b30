// Everything the playground shows is computed here, by the calibrank package: no score
// is computed in JavaScript. Comparisons (which filter dropped an item) and formatting
// happen in the page; arithmetic on scores does not.
import { cisiInput } from "./presets.js";

export const MULTI_METHODS = ["rrf", "score_sum", "score_max"];

/** Runs `fn(pipeline)` and frees the wasm object. */
export function withPipeline(lib, config, fn) {
  const p = new lib.Pipeline(config);
  try {
    return fn(p);
  } finally {
    p.free();
  }
}

/** The config of the "shadow" run that keeps every candidate of the topK pool. */
export function shadowConfig(config, effective) {
  return {
    ...config,
    minConfidence: 0,
    topN: effective.topK,
    normalization: { ...(config.normalization || {}), minRelevance: 0 },
    explain: true,
  };
}

/** Why the real run dropped a candidate that the shadow run kept. */
function dropReason(x, effective) {
  if (effective.normalization.method !== "none" && x.normalized < effective.normalization.minRelevance) return "below minRelevance";
  if (x.calibrated < effective.minConfidence) return "below minConfidence";
  return "beyond topN";
}

function judgementOf(judgements, id) {
  if (!judgements) return undefined;
  const g = judgements[id];
  return g === undefined ? 0 : g;
}

/**
 * A ranking as a run of one query for `evaluate`: each id scored by its place (n for the
 * first, down to 1; a repeated id keeps its first place), so the metric is that of the
 * ranking as shown. With the scores themselves, tied scores would rank in ranx's order,
 * read from the object's key order, and JavaScript lists integer-like keys ("60",
 * "1181": CISI's ids) first and in numeric order (README "Ties"): cisi-3's card read
 * 0.789 where its ranking's nDCG@10 is 0.7846. A `Run` keeps a text's order, but ranx's
 * sort still reorders 16 or more tied documents; distinct scores leave no tie to break.
 */
export function rankingRun(ids) {
  const distinct = [...new Set(ids)];
  return Object.fromEntries(distinct.map((id, i) => [id, distinct.length - i]));
}

/**
 * A ranked list as a run of one query ({ id: score }, an id's first occurrence wins, as
 * the pipeline reads a list), for optimizeFusion and fitQueryConfidence; null for a list
 * without a score per id.
 */
export function listRun(list) {
  if (!Array.isArray(list.scores) || list.scores.length !== list.ids.length) return null;
  const run = {};
  list.ids.forEach((id, i) => {
    // Own keys only, defined (an id "toString" or "__proto__" is an id like another).
    if (!Object.hasOwn(run, id)) Object.defineProperty(run, id, { value: list.scores[i], writable: true, enumerable: true, configurable: true });
  });
  return run;
}

export const QUERY_METRICS = ["ndcg@10", "precision@5", "mrr"];

/**
 * Pipeline mode: the real run, a shadow run keeping the whole pool (so dropped
 * candidates can be shown), and per-row data. Throws ScoreError on invalid input.
 */
export function pipeline(lib, state) {
  const { config, input, judgements } = state;
  const { effective, out } = withPipeline(lib, config, (p) => ({ effective: p.config, out: p.run(input) }));
  let shadow = null;
  try {
    shadow = withPipeline(lib, shadowConfig(config, effective), (p) => p.run(input));
  } catch {
    shadow = null;
  }
  const returned = new Map(out.results.map((r, i) => [r.id, { r, rank: i + 1 }]));
  const rows = out.results.map((r, i) => ({
    id: r.id,
    returned: true,
    rank: i + 1,
    score: r.score,
    band: r.band,
    explain: r.explain || shadow?.results.find((s) => s.id === r.id)?.explain || null,
    judgement: judgementOf(judgements, r.id),
  }));
  for (const s of shadow?.results || []) {
    if (returned.has(s.id)) continue;
    rows.push({ id: s.id, returned: false, rank: null, score: s.score, band: s.band, explain: s.explain, reason: dropReason(s.explain, effective), judgement: judgementOf(judgements, s.id) });
  }
  // Relative vs absolute: max-normalization of the pre-normalization scores (min-max
  // when a score is below 0, which max refuses: a cross-encoder's scores kept raw).
  const withExplain = rows.filter((r) => r.explain);
  const before = withExplain.map((r) => r.explain.afterRerank);
  const relativeMethod = before.some((s) => s < 0) ? "min_max" : "max";
  const relative = withExplain.length ? lib.normalize(before, relativeMethod) : [];
  withExplain.forEach((r, i) => (r.relative = relative[i]));

  let metrics = null;
  if (judgements) {
    const qrels = { q: judgements };
    metrics = {};
    // The final ranking as shown, and each list in its order (as the pipeline reads it).
    metrics.fused = safeEvaluate(lib, qrels, { q: rankingRun(out.results.map((r) => r.id)) });
    for (const list of input.lists) {
      if (Array.isArray(list?.ids)) metrics[list.name] = safeEvaluate(lib, qrels, { q: rankingRun(list.ids.map(String)) });
    }
  }
  // The floors in force: the selected band profile's, else the defaults.
  const profile = out.stats.bandProfile ? effective.bands.profiles.find((p) => p.name === out.stats.bandProfile) : null;
  const floors = profile ? { highFloor: profile.highFloor, degradedFloor: profile.degradedFloor, profile: profile.name } : { highFloor: effective.bands.highFloor, degradedFloor: effective.bands.degradedFloor };
  // What the pool's stages read (the shadow run's when the real one does not explain: the
  // same pool, the same topK).
  const pool = out.pool ?? shadow?.pool ?? null;
  return { mode: "pipeline", effective, out, rows, relativeMethod, metrics, floors, pool };
}

function safeEvaluate(lib, qrels, run) {
  if (Object.keys(run.q).length === 0) return Object.fromEntries(QUERY_METRICS.map((m) => [m, 0]));
  return lib.evaluate(qrels, run, QUERY_METRICS);
}

/**
 * Points of the calibration curve over `xs`, from the package: a sigmoid by the core's
 * calibrate (the same Rust function as the lab's applyCalibration, bit for bit), a
 * fitted model (Platt, isotonic) by the lab's applyCalibration.
 */
export function curve(lib, calibration, xs) {
  const ys = calibration.method === "sigmoid" ? lib.calibrate(xs, { threshold: calibration.threshold, steepness: calibration.steepness }) : lib.applyCalibration(xs, calibration);
  return xs.map((x, i) => ({ x, y: ys[i] }));
}

/**
 * Whether a state needs calibrank/lab (its own .wasm) to be shown: the judged presets
 * (evaluation, fitting, fusion tuning, query confidence) and a fitted calibration's
 * curve. The seed pipeline pages, multi-query and bands need the core only; the TREC
 * import loads the lab when used.
 */
export function needsLab(state) {
  if (state.mode !== "pipeline") return false;
  const method = state.config?.calibration?.method;
  return Boolean(state.judgements) || method === "platt" || method === "isotonic";
}

export const SAMPLE_METRICS = ["ndcg@10", "mrr", "recall@20"];

/**
 * A sample query the package refused to score through the current config (`query`: the
 * sample's query, `cause`: the package's error). The page's own query can pass where a
 * sample query does not (a limit its text stays under, theirs not).
 */
export class SampleQueryError extends Error {
  constructor(query, cause) {
    super(cause?.message ?? String(cause), { cause });
    this.name = "SampleQueryError";
    this.query = query;
  }
}

/**
 * Every CISI sample query through the current config: (raw, calibrated, label) for each
 * candidate of the pool, the reliability report, and metrics of the fused ranking and
 * of each single list. Throws SampleQueryError when the package refuses a sample query.
 */
export function sampleEvaluation(lib, sample, config, { bins = 10, strategy = "uniform" } = {}) {
  const raws = [];
  const probs = [];
  const labels = [];
  const fused = {};
  const lists = Object.fromEntries(sample.runs.map((name) => [name, {}])); // the runs' scores (optimizeFusion)
  const ranked = Object.fromEntries(sample.runs.map((name) => [name, {}])); // each list's order (the metrics)
  const qrels = {};
  withPipeline(lib, config, (p) => {
    const effective = p.config;
    withPipeline(lib, shadowConfig(config, effective), (sp) => {
      for (const q of sample.queries) {
        const input = cisiInput(sample, q);
        qrels[q.id] = q.qrels;
        let out;
        let pool;
        try {
          out = p.run(input);
          pool = sp.run(input);
        } catch (e) {
          throw new SampleQueryError(q, e);
        }
        fused[q.id] = rankingRun(out.results.map((r) => r.id));
        for (const r of pool.results) {
          raws.push(r.explain.normalized);
          probs.push(r.score);
          labels.push((q.qrels[r.id] || 0) > 0 ? 1 : 0);
        }
        for (const name of sample.runs) {
          lists[name][q.id] = listRun(q.runs[name]);
          ranked[name][q.id] = rankingRun(q.runs[name].ids);
        }
      }
    });
  });
  const report = lib.calibrationError(probs, labels, { bins, strategy });
  const metrics = { fused: lib.evaluate(qrels, fused, SAMPLE_METRICS) };
  for (const name of sample.runs) metrics[name] = lib.evaluate(qrels, ranked[name], SAMPLE_METRICS);
  return { raws, probs, labels, report, metrics, qrels, runs: sample.runs.map((name) => lists[name]), runNames: sample.runs };
}

/** Multi-query mode: the selected method, and all three for comparison. */
export function multi(lib, state) {
  const { queries, options = {} } = state.multi;
  const main = lib.fuseMultiQuery(queries, { ...options, verbose: true });
  const byMethod = {};
  for (const method of MULTI_METHODS) byMethod[method] = lib.fuseMultiQuery(queries, { ...options, method, verbose: true });
  return { mode: "multiquery", main, byMethod, method: options.method || "rrf" };
}

/** Bands mode: each score classified with the configured floors (validated by Pipeline). */
export function bands(lib, state) {
  const effective = withPipeline(lib, state.config, (p) => p.config);
  const floors = { highFloor: effective.bands.highFloor, degradedFloor: effective.bands.degradedFloor };
  const rows = state.bands.scores.map((score, i) => ({ index: i, score, outcome: lib.classifyBand(score, floors) }));
  return { mode: "bands", effective, floors, rows };
}
