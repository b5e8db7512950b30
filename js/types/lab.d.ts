// calibrank/lab: evaluation and tuning from judgements (`import ... from "calibrank/lab"`):
// TREC runs and qrels, ranx-compatible metrics and run fusion, fusion tuning, fitted
// calibrations, calibration error and evidence-based band floors. Hand-written; the
// types shared with the core entry come from it.

import type { Calibration, CalibrationInput, IsotonicModel, PlattModel, QueryConfidenceModel, ReadonlyArrays, WithLimits } from "./core.js";

export type { QueryConfidenceModel };

import type { ErrorCode, LimitedFunction, Limits } from "./core.js";

// One class: both entries export the one ScoreError of score_error.js.
export { ScoreError } from "./core.js";
export type { Calibration, CalibrationInput, ErrorCode, IsotonicModel, LimitedFunction, Limits, LimitsInput, PlattModel, WithLimits } from "./core.js";

// The lab's own `version`, `errorCodes` and `defaultLimits`: the same answers as the
// core's, but other functions (each entry asks its own module), so declared here rather
// than re-exported: `export * from "calibrank"` beside `export * from "calibrank/lab"` in
// one module is then TypeScript's TS2308 on these three names, as it is at run time
// (ES modules refuse a name two `export *` give different bindings of).

/**
 * The default input size limits (every field filled in): those most functions share, or
 * those of `fn` (its own `maxTotalEntries` where it has one). Another name is a
 * `ScoreError` `UNKNOWN_METHOD` on `fn`. The same as the core's `defaultLimits`.
 */
export declare function defaultLimits(fn?: LimitedFunction): Required<Limits>;

/** Every error code calibrank can throw (the members of `ErrorCode`). */
export declare function errorCodes(): ErrorCode[];

/** The package version (the same as the core's `version()`). */
export declare function version(): string;

// ---------------------------------------------------------------- Runs and qrels

/**
 * A run in its JSON form (ranx's dict): query id -> document id -> score. Its key order
 * is the order ranx's `Run(dict)` sorts tied scores from; JS lists integer-like keys
 * ("42") first, in numeric order, whatever the insertion order: use a `Run` to keep it.
 */
export type RunObject = Record<string, Record<string, number>>;

/**
 * Judgements in their JSON form: query id -> document id -> relevance grade, a whole
 * number (0 and below: not relevant; from 1 on: relevant at the default relevance level).
 * A fractional grade is refused wherever judgements are read (`INVALID_TYPE` on
 * `qrels.<queryId>.<docId>`), as `parseQrels`, ranx and trec_eval refuse it.
 */
export type QrelsObject = Record<string, Record<string, number>>;

/** What `Run` and `Qrels` share: wasm memory behind a handle, freed by `free()`. */
declare abstract class LabObject<T> {
  /** Not constructible: use `fromTrec` or `fromObject`. */
  protected constructor();
  /**
   * The JSON form; a run's documents in its (ranx's) order, except that JavaScript lists
   * integer-like keys ("17") first and in numeric order: sort by score for a ranking.
   */
  toObject(): T;
  /** Number of queries (ranx's `size`). */
  readonly size: number;
  /** The query ids, sorted. */
  readonly queryIds: string[];
  /**
   * Frees the module memory; later uses throw `INVALID_TYPE`. Idempotent. A
   * FinalizationRegistry frees a forgotten object at some point after it is garbage
   * collected (a safety net, not a schedule).
   */
  free(): void;
  /** Same as `free()`, for `using`. */
  [Symbol.dispose](): void;
}

/**
 * A run held in wasm memory, as ranx holds a `Run`: parsed once, each query's documents
 * in the order ranx sorts them (numba's quicksort of the file's or object's order),
 * which decides how tied scores rank. Every lab function takes it where it takes a run
 * object; `fuseRuns` of `Run`s returns a `Run`.
 */
export declare class Run extends LabObject<RunObject> {
  /** Makes `Run` and `Qrels` distinct types. */
  private readonly kindRun: void;
  /**
   * An own enumerable key, the one a copy keeps (`structuredClone`, `postMessage`,
   * `JSON.stringify`): a copy given back is refused, where it would be read as an empty
   * run. Send `toObject()` instead.
   */
  readonly calibrankHandle: "Run";
  /** Parses a TREC run (`qid Q0 docid rank score tag` per line), keeping the file's order. */
  static fromTrec(text: string, options?: WithLimits | null): Run;
  /** A run from its JSON form, in the object's key order. */
  static fromObject(run: RunObject, options?: WithLimits | null): Run;
  /**
   * A new `Run` of the queries `queryIds` names, each as it is here (documents in the
   * same order): a split by query that keeps ranx's figures, where a run object of the
   * same queries would be sorted again. Ids this run does not hold are left out.
   */
  select(queryIds: readonly string[]): Run;
  /**
   * One query's documents best first, in this run's (ranx's) order, with their scores,
   * as a pipeline's list takes them (both empty for a query the run does not hold).
   */
  ranking(queryId: string): { ids: string[]; scores: number[] };
}

/** Relevance judgements held in wasm memory (see `Run`). */
export declare class Qrels extends LabObject<QrelsObject> {
  /** Makes `Run` and `Qrels` distinct types. */
  private readonly kindQrels: void;
  /** An own enumerable key, the one a copy keeps: see `Run`'s. */
  readonly calibrankHandle: "Qrels";
  /** Parses TREC qrels (`qid iter docid rel` per line). */
  static fromTrec(text: string, options?: WithLimits | null): Qrels;
  /** Judgements from their JSON form. */
  static fromObject(qrels: QrelsObject, options?: WithLimits | null): Qrels;
  /** New judgements of the queries `queryIds` names (ids not held here are left out). */
  select(queryIds: readonly string[]): Qrels;
}

/**
 * `Run`s and `Qrels` alive in the module (for leak tests).
 * @internal
 */
export declare function __liveHandles(): number;
/**
 * How many progress reports `optimizeFusion`'s searches have made (for tests).
 * @internal
 */
export declare function __progressReports(): number;

/**
 * Parses a TREC run (`qid Q0 docid rank score tag` per line) into its JSON form, each
 * query's documents in file order; errors name the line (`PARSE_ERROR`, field `line 12`).
 */
export declare function parseTrecRun(text: string, options?: WithLimits | null): RunObject;

/** Parses TREC qrels (`qid iter docid rel` per line) into their JSON form. */
export declare function parseQrels(text: string, options?: WithLimits | null): QrelsObject;

// ---------------------------------------------------------------- Metrics

/**
 * Mean of each metric over the judged queries, ranx-compatible (`ndcg@10`, `map@100`,
 * `recall@100`, `mrr`, `precision@k`, `hit_rate@k`, `r-precision`, ...): metric -> mean,
 * keyed by each name as given (`M`: the names, when written as literals; names known
 * only as `string` give a record whose every key may be absent).
 */
export declare function evaluate<const M extends string>(
  qrels: Qrels | QrelsObject,
  run: Run | RunObject,
  metrics: readonly M[],
  options?: (EvaluateOptions & WithLimits) | null,
): MetricRecord<M, number>;

/** Per-query values of each metric: metric (as given) -> query id -> value. */
export declare function evaluatePerQuery<const M extends string>(
  qrels: Qrels | QrelsObject,
  run: Run | RunObject,
  metrics: readonly M[],
  options?: (EvaluateOptions & WithLimits) | null,
): MetricRecord<M, Record<string, number>>;

/**
 * A value per metric asked for: every key present when the names are literals (`M` a
 * union of them); when they are only known as `string`, any key may be absent (a
 * misspelt name read from the result is `undefined`, even without
 * `noUncheckedIndexedAccess`).
 */
export type MetricRecord<M extends string, V> = string extends M ? Partial<Record<string, V>> : Record<M, V>;

/** Options of `evaluate` / `evaluatePerQuery`. */
export interface EvaluateOptions {
  /**
   * How tied scores rank: `"ranx"` (default: ranx 0.3.21's order, numba's quicksort of
   * the run's order) or `"trec_eval"` (score descending, then document id descending).
   */
  ties?: "ranx" | "trec_eval" | null | undefined;
}

// ---------------------------------------------------------------- Run fusion

/**
 * A fusion method of `fuseRuns`: ranx's (from `sum` to `w_condorcet`), Qdrant's `dbsf`,
 * and OpenSearch's three means. (Any other name is `UNKNOWN_METHOD` at run time, naming
 * the nearest.)
 */
export type FusionMethod =
  | "sum"
  | "mnz"
  | "max"
  | "min"
  | "med"
  | "anz"
  | "gmnz"
  | "wsum"
  | "wmnz"
  | "mixed"
  | "rrf"
  | "rbc"
  | "isr"
  | "log_isr"
  | "logn_isr"
  | "bordafuse"
  | "w_bordafuse"
  | "condorcet"
  | "w_condorcet"
  | "dbsf"
  | "arithmetic_mean"
  | "geometric_mean"
  | "harmonic_mean";

/** The methods `optimizeFusion` tunes: `rrf`'s `k`, `rbc`'s `phi`, the others' weights. */
export type TunedFusionMethod = Extract<
  FusionMethod,
  "rrf" | "rbc" | "gmnz" | "logn_isr" | "wsum" | "wmnz" | "mixed" | "w_bordafuse" | "w_condorcet" | "dbsf" | "arithmetic_mean" | "geometric_mean" | "harmonic_mean"
>;

/**
 * A normalization of the runs before their fusion (ranx's names; `min_max` and
 * `min_max_inverted` are taken for `min-max` and `min-max-inverted`, as ranx takes them).
 */
export type RunNormalization = "min-max" | "min-max-inverted" | "min_max" | "min_max_inverted" | "max" | "sum" | "zmuv" | "rank" | "borda" | "none";

/**
 * Options of `fuseRuns`.
 *
 * `params` by method (ranx's names; any other key is `UNKNOWN_FIELD`, listing the
 * method's parameters and naming the nearest):
 *
 * | method | param | default | range |
 * | --- | --- | --- | --- |
 * | `rrf` | `k` | 60 | finite, >= 0 |
 * | `rbc` | `phi` | required (ranx has no default) | 0 <= phi <= 1 |
 * | `logn_isr` | `sigma` | 0.01 | 0 <= sigma <= 1 |
 * | `gmnz` | `gamma` | required (ranx has no default) | finite |
 *
 * `weights` (one per run, finite, >= 0; default all 1) are taken by `wsum`, `wmnz`,
 * `mixed`, `w_bordafuse`, `w_condorcet`, `dbsf` and the three OpenSearch means; every
 * other method rejects them.
 */
export type FuseRunsOptions =
  | FuseRunsOf<"rrf", { readonly k?: number | undefined }, false>
  | FuseRunsOf<"rbc", { readonly phi: number }, false, true>
  | FuseRunsOf<"gmnz", { readonly gamma: number }, false, true>
  | FuseRunsOf<"logn_isr", { readonly sigma?: number | undefined }, false>
  | FuseRunsOf<WeightedFusionMethod, NoParams, true>
  | FuseRunsOf<Exclude<FusionMethod, "rrf" | "rbc" | "gmnz" | "logn_isr" | WeightedFusionMethod>, NoParams, false>;

/** The methods that take `weights` (one per run). */
export type WeightedFusionMethod = Extract<
  FusionMethod,
  "wsum" | "wmnz" | "mixed" | "w_bordafuse" | "w_condorcet" | "dbsf" | "arithmetic_mean" | "geometric_mean" | "harmonic_mean"
>;

/** A method without parameters: `params` absent or `{}`. */
type NoParams = { readonly [name: string]: never };

/**
 * `FuseRunsOptions` of one method: its `params` (required where ranx has no default),
 * and `weights` where the method takes them.
 */
type FuseRunsOf<M extends FusionMethod, P, Weighted extends boolean, ParamsRequired extends boolean = false> = {
  /** The fusion method (see `FusionMethod`). */
  method: M;
  /**
   * The normalization applied to every run first (see `RunNormalization`); when absent
   * the method's default (`none` for `dbsf` and the OpenSearch means, `min-max`
   * otherwise; `null` too).
   */
  norm?: RunNormalization | null | undefined;
} & (Weighted extends true
  ? {
      /** One weight per run (`null`: none given, all 1). */
      weights?: readonly number[] | Float64Array | null | undefined;
    }
  : {
      /** This method takes no weights (only `null`). */
      weights?: null | undefined;
    }) &
  (ParamsRequired extends true
    ? {
        /** Numeric parameters by ranx's names (see the table above). */
        params: P;
      }
    : {
        /** Numeric parameters by ranx's names (see the table above). */
        params?: P | undefined;
      });

/**
 * Fuses whole runs (JSON form) with any ranx method, Qdrant's `dbsf` or OpenSearch's
 * `arithmetic_mean` / `geometric_mean` / `harmonic_mean` (see `FuseRunsOptions`).
 */
export declare function fuseRuns(runs: readonly Run[], options: FuseRunsOptions & WithLimits): Run;
export declare function fuseRuns(runs: readonly RunObject[], options: FuseRunsOptions & WithLimits): RunObject;
/**
 * Runs of both kinds: the objects become temporary `Run`s, and the result is a `Run` when
 * one of `runs` is a `Run` (a `RunObject` when none is: the type cannot tell which).
 */
export declare function fuseRuns(runs: readonly (Run | RunObject)[], options: FuseRunsOptions & WithLimits): Run | RunObject;

// ---------------------------------------------------------------- Fusion tuning

/** Options of `optimizeFusion`. */
export interface OptimizeOptions {
  /** Fusion method (default `wsum`). */
  method?: TunedFusionMethod | undefined;
  /** Metric to maximize, ranx's spelling (default `ndcg@10`). */
  metric?: string | undefined;
  /** Normalization (default, or `null`: the method's default). */
  norm?: RunNormalization | null | undefined;
  /**
   * Grid step, 1/n for a whole n <= 1000 (not given or `null`: the default of ranx's
   * search): of the weights (default 0.1), of rbc's `phi` (default 0.01: 0.01 to 0.99),
   * or of gmnz's `gamma` and logn_isr's `sigma` (default 0.01: 0.01 to 1; ranx's own
   * grid for another step starts at 0.01 too, rounded to the step's digits: at 0.1, 0 to
   * 1 where this one is 0.1 to 1). The 99 or 100 configurations of `phi`, `gamma` and
   * `sigma` at 0.01 times the runs' entries and the judgements must fit
   * `limits.maxSearchWork` (about 20,000 in all at its default: beyond, `step: 0.1` or a
   * raised limit).
   * The weights' grid holds at most 100,000 vectors, whatever the limits (11 runs at 0.1
   * make 184,756: `INPUT_TOO_LARGE` on `options.step`).
   */
  step?: number | null | undefined;
  /** Values of `k` tried for `rrf` (default 10, 20, ..., 100). */
  kValues?: readonly number[] | Float64Array | undefined;
}

/** One configuration tried (`OptimizeReportOf<M>`'s are `TrialOf<M>`). */
export interface Trial {
  /** Weights (weighted methods). */
  weights?: number[] | undefined;
  /** Parameters (`k`, `phi`, `gamma` or `sigma`). */
  params: Record<string, number>;
  /** The metric's mean over the judged queries. */
  score: number;
}

/** The parameter each unweighted method's search varies (a `TrialOf`'s `params`). */
interface TunedParams {
  rrf: { k: number };
  rbc: { phi: number };
  gmnz: { gamma: number };
  logn_isr: { sigma: number };
}

/**
 * A configuration tried by a search of method `M`, in the shape `fuseRuns`' options take
 * it: `weights` for a weighted method; `params` holding the one parameter searched
 * (`{ k }`, `{ phi }`, `{ gamma }`, `{ sigma }`) or none. So a tuned setting goes back
 * into `fuseRuns` as it is: `fuseRuns(runs, { method: report.method, norm, weights:
 * report.best.weights, params: report.best.params })`, with the `norm` the search was
 * given (the report does not repeat it). Each is a `Trial`.
 */
export type TrialOf<M extends TunedFusionMethod> = M extends WeightedFusionMethod
  ? { weights: number[]; params: NoParams; score: number }
  : {
      weights?: undefined;
      params: TunedParams[M & keyof TunedParams] & { readonly [name: string]: number };
      score: number;
    };

/** The search's result, of any method (`OptimizeReportOf<M>` is a search's of method `M`). */
export interface OptimizeReport {
  /** Method searched. */
  method: TunedFusionMethod;
  /** Metric maximized. */
  metric: string;
  /**
   * The best configuration: of those reaching the highest score, the one ranx picks (the
   * last `k`, `phi`, `gamma` or `sigma` of the grid; the first weight vector, whose grid runs from the
   * first run's weight 1 down).
   */
  best: Trial;
  /** Every configuration tried, in grid order. */
  trials: Trial[];
}

/**
 * The result of a search of method `M`, what `optimizeFusion` returns when its options'
 * type names the method (`method: "rrf"` gives `OptimizeReportOf<"rrf">`; options
 * without `method`, `wsum`'s): an `OptimizeReport` whose trials are `TrialOf<M>`, ready
 * for `fuseRuns`. Of a union of methods, the union of each one's.
 */
export type OptimizeReportOf<M extends TunedFusionMethod> = M extends TunedFusionMethod
  ? {
      /** Method searched. */
      method: M;
      /** Metric maximized. */
      metric: string;
      /** The best configuration (see `OptimizeReport`). */
      best: TrialOf<M>;
      /** Every configuration tried, in grid order. */
      trials: TrialOf<M>[];
    }
  : never;

/** What `optimizeFusion` passes to `onProgress` after every configuration. */
export interface OptimizeProgress {
  /** Configurations evaluated. */
  done: number;
  /** Configurations in the grid. */
  total: number;
  /** Best score so far. */
  bestScore: number;
}

/**
 * Grid search over a fusion method's weights (step 0.1, summing to 1), RRF `k`
 * (10..100), RBC `phi` (0.01..0.99), gmnz's `gamma` or logn_isr's `sigma` (0.01..1),
 * maximizing a metric on judgements, like ranx's `optimize_fusion`;
 * `onProgress({ done, total, bestScore })` is called after every configuration, while
 * the search runs in the lab's module: a `calibrank/lab` function called from it throws
 * `ScoreError` `REENTRANT_CALL` (the `calibrank` functions may be called). An exception
 * thrown by `onProgress` stops the search (no configuration is tried after it) and is
 * what `optimizeFusion` throws: the way to cancel a long search. `onProgress` is called
 * synchronously; a promise it returns is not awaited, and its rejection is not caught.
 */
export declare function optimizeFusion<M extends TunedFusionMethod>(
  qrels: Qrels | QrelsObject,
  runs: readonly (Run | RunObject)[],
  options: OptimizeOptions & { method: M } & WithLimits,
  onProgress?: ((progress: OptimizeProgress) => void) | null,
): OptimizeReportOf<M>;
/** Without `method`: `wsum`'s search. */
export declare function optimizeFusion(
  qrels: Qrels | QrelsObject,
  runs: readonly (Run | RunObject)[],
  options?: (OptimizeOptions & { method?: undefined } & WithLimits) | null,
  onProgress?: ((progress: OptimizeProgress) => void) | null,
): OptimizeReportOf<"wsum">;
/** Options whose `method` may be absent: any method's report. */
export declare function optimizeFusion(
  qrels: Qrels | QrelsObject,
  runs: readonly (Run | RunObject)[],
  options?: (OptimizeOptions & WithLimits) | null,
  onProgress?: ((progress: OptimizeProgress) => void) | null,
): OptimizeReport;

// ---------------------------------------------------------------- Calibration fitting

/**
 * A fitted calibration, as `fitPlatt` / `fitIsotonic` return it: `{ method: "platt", a, b }`
 * or `{ method: "isotonic", x, y }`. It is a `Calibration` (plugs into a pipeline config,
 * a Platt model with `a <= 0`: a pipeline refuses one that falls as the score rises).
 */
export type FittedCalibration = ({ method: "platt" } & PlattModel) | ({ method: "isotonic" } & IsotonicModel);

/**
 * Platt scaling fitted on (score, 0/1 label) pairs; the result plugs into a pipeline
 * config as `calibration` when `a <= 0` (higher scores judged more relevant). Labels
 * that run against the scores give `a > 0`, which `applyCalibration` applies as it is
 * and a pipeline refuses (`INVALID_CALIBRATION` on `config.calibration.a`). Scores of
 * so extreme a scale that the slope or intercept is no finite number (subnormal ones,
 * as `[5e-324, 1e-323, ...]`) are `NON_FINITE_SCORE` on `scores`.
 */
export declare function fitPlatt(
  scores: Float64Array | readonly number[],
  labels: Float64Array | readonly number[],
  options?: WithLimits | null,
): { method: "platt"; a: number; b: number };

/**
 * Isotonic regression fitted on (score, 0/1 label) pairs; the result plugs into a
 * pipeline config as `calibration`. A score less than 1e-15 above the smallest of a
 * run of scores joins that run (an absolute distance, scikit-learn's rule), the run one
 * point with its labels averaged: scores all that small give a one-point, flat model.
 */
export declare function fitIsotonic(
  scores: Float64Array | readonly number[],
  labels: Float64Array | readonly number[],
  options?: WithLimits | null,
): { method: "isotonic"; x: number[]; y: number[] };

/** Applies a calibration (sigmoid, Platt or isotonic) to raw scores; input order kept. */
export declare function applyCalibration(
  scores: Float64Array | readonly number[],
  calibration: ReadonlyArrays<CalibrationInput>,
  options?: WithLimits | null,
): Float64Array;

// ---------------------------------------------------------------- Calibration error

/** How the reliability bins are laid out: equal width or equal mass. */
export type BinStrategy = "uniform" | "quantile";

/** Options of `calibrationError`. */
export interface CalibrationErrorOptions {
  /** Number of bins, `1..=10000` (default 10). */
  bins?: number | undefined;
  /** Bin layout (default `"uniform"`). */
  strategy?: BinStrategy | undefined;
}

/** One bin of the reliability curve. */
export interface ReliabilityBin {
  /** Lower edge. */
  lower: number;
  /** Upper edge. */
  upper: number;
  /** Number of probabilities in the bin. */
  count: number;
  /** Mean probability in the bin (`null` when the bin is empty). */
  meanConfidence: number | null;
  /** Fraction of relevant items in the bin (`null` when the bin is empty). */
  fractionPositive: number | null;
}

/** Calibration quality of a set of probabilities. */
export interface CalibrationReport {
  /** Number of probabilities. */
  count: number;
  /** Expected calibration error. */
  ece: number;
  /** Maximum calibration error over non-empty bins. */
  mce: number;
  /** Brier score. */
  brier: number;
  /** Log loss (probabilities clipped to `[1e-15, 1 - 1e-15]`). */
  logLoss: number;
  /**
   * Area under the ROC curve (ties count one half): how well the probabilities rank the
   * relevant above the rest, which calibration does not measure. `null` when the labels
   * hold one class only.
   */
  auroc: number | null;
  /** Every bin in order, empty ones included. */
  bins: ReliabilityBin[];
}

/**
 * ECE (equal-width or equal-mass bins), MCE, Brier score, log loss, AUROC and the
 * reliability-curve data of calibrated probabilities.
 */
export declare function calibrationError(
  probabilities: Float64Array | readonly number[],
  labels: Float64Array | readonly number[],
  options?: (CalibrationErrorOptions & WithLimits) | null,
): CalibrationReport;

// ---------------------------------------------------------------- Band floors from evidence

/** Options of `proposeBands`. */
export interface ProposeBandsOptions {
  /** Precision the hit band must reach, in `(0, 1]` (default 0.85). */
  targetPrecision?: number | undefined;
  /** Number of cross-validation folds, `2..=N` (default 5); folds x N / 20 must fit `limits.maxSearchWork` (each fold is fitted on the other items). */
  folds?: number | undefined;
  /**
   * Seed of the fold assignment (default 0): a whole number from 0 to
   * `Number.MAX_SAFE_INTEGER` (the Rust API takes any `u64`; from 2^53 on a
   * JavaScript number may not be the integer written, so the package refuses it:
   * `INVALID_TYPE`).
   */
  seed?: number | undefined;
}

/** Precision, recall and coverage of one band. */
export interface BandMetrics {
  /** Number of items in the band (in `heldOut`: summed over the folds). */
  count: number;
  /** Fraction of the band's items that are relevant (`null` when the band is empty). */
  precision: number | null;
  /** Fraction of the relevant items that fall in the band (`null` without relevant items). */
  recall: number | null;
  /** Fraction of all items that fall in the band. */
  coverage: number;
}

/** Metrics of the hit and degraded bands. */
export interface BandEvaluation {
  /** The hit band, `score >= highFloor`. */
  hit: BandMetrics;
  /** The degraded band, `degradedFloor <= score < highFloor`. */
  degraded: BandMetrics;
}

/** One cross-validation fold: floors fitted on the other folds, measured on this one. */
export interface FoldReport {
  /** Fold number, from 0. */
  fold: number;
  /** Items in the held-out fold. */
  size: number;
  /** Relevant items in the held-out fold. */
  positives: number;
  /** High floor fitted on the other folds. */
  highFloor: number;
  /** Degraded floor fitted on the other folds. */
  degradedFloor: number;
  /** Whether the target precision was reached on the other folds. */
  targetReached: boolean;
  /** The bands measured on the held-out fold. */
  heldOut: BandEvaluation;
}

/** Proposed band floors with the evidence behind them. */
export interface BandProposal {
  /** Lowest calibrated score of the hit band (fitted on all data). */
  highFloor: number;
  /** Lowest calibrated score of the degraded band (fitted on all data). */
  degradedFloor: number;
  /** The precision the hit band was asked to reach. */
  targetPrecision: number;
  /**
   * Whether some threshold reaches the target on all data. If not, `highFloor` is 1, the
   * highest floor a band takes: a calibrated score of exactly 1 (which an isotonic
   * model's top step often gives) is still a hit, so the hit band is not empty unless no
   * score reaches 1 (`inSample.hit` says what it holds).
   */
  targetReached: boolean;
  /** Number of judged items. */
  count: number;
  /** Number of relevant items. */
  positives: number;
  /**
   * Held-out metrics, averaged over the folds. The folds split items, not queries (the
   * scores carry none): a query's candidates fall in several folds, so these lean
   * optimistic; for a figure held out by query, measure the floors on other queries.
   */
  heldOut: BandEvaluation;
  /** The final floors measured on all the data they were fitted on (optimistic). */
  inSample: BandEvaluation;
  /** Each fold's floors and held-out metrics. */
  folds: FoldReport[];
  /**
   * Human-readable caveats: the target not reached (on all data, or on some fold's
   * training data), reached on all data but not held out (the cross-validated hit
   * precision below it), folds without relevant items.
   */
  warnings: string[];
}

/**
 * Band floors from evidence: `highFloor` where hit precision reaches the target,
 * `degradedFloor` at the F1 optimum, with k-fold held-out precision and recall.
 */
export declare function proposeBands(
  scores: Float64Array | readonly number[],
  labels: Float64Array | readonly number[],
  options?: (ProposeBandsOptions & WithLimits) | null,
): BandProposal;

// ---------------------------------------------------------------- Query confidence

/** Options of `fitQueryConfidence`. */
export interface FitQueryConfidenceOptions extends WithLimits {
  /** The fused top k (default 5). */
  k?: number | undefined;
  /** RRF constant of the fusion (default 60, the pipeline's). */
  rrfK?: number | undefined;
  /** RRF weight per run (default, or `null`: 1 each). */
  weights?: readonly number[] | Float64Array | null | undefined;
  /** L2 penalty on the standardized coefficients (> 0, default 1). */
  l2?: number | undefined;
  /** Newton iteration budget (1..=1000, default 100). */
  maxIterations?: number | undefined;
}

/**
 * Learns, from judged queries, the probability that the fused top `k` holds a document
 * judged > 0: queries judged all 0, or listed with no document (`{}`), are queries with
 * nothing relevant (as `evaluate` counts them); queries the judgements do not list are
 * skipped. `runs` are in the order the pipeline's lists will have. Throws
 * `INVALID_LABELS` (field `qrels`) when every query falls in one class.
 */
export declare function fitQueryConfidence(
  qrels: Qrels | QrelsObject,
  runs: readonly (Run | RunObject)[],
  options?: FitQueryConfidenceOptions | null,
): QueryConfidenceModel;

/** The model's probability, in [0, 1], for every query of `runs` (in the model's run order). */
export declare function predictQueryConfidence(
  model: ReadonlyArrays<QueryConfidenceModel>,
  runs: readonly (Run | RunObject)[],
  options?: WithLimits | null,
): Record<string, number>;

/**
 * How a query-confidence model does on judged queries, held out from its fit: each
 * judged query that at least one run lists gets the model's probability (as
 * `predictQueryConfidence` gives it) and its label (as `fitQueryConfidence` makes it,
 * with the model's `k`, `rrfK` and weights); queries the judgements do not list are left
 * out, and not predicted. Throws `EMPTY_INPUT` (field `qrels`) when no run lists a
 * judged query. `options` takes `limits` alone.
 */
export declare function evaluateQueryConfidence(
  model: ReadonlyArrays<QueryConfidenceModel>,
  qrels: Qrels | QrelsObject,
  runs: readonly (Run | RunObject)[],
  options?: WithLimits | null,
): QueryConfidenceEvaluation;

/** What `evaluateQueryConfidence` measured. */
export interface QueryConfidenceEvaluation {
  /** Judged queries that at least one run lists (with documents or not). */
  queries: number;
  /** Of them, those with a document judged > 0 in the fused top `k`. */
  positives: number;
  /** Area under the ROC curve (ties count one half); `null` when every query is of one class. */
  auroc: number | null;
  /** Mean log loss (probabilities clipped to [1e-15, 1 - 1e-15]). */
  logLoss: number;
  /** Mean squared difference between probability and label. */
  brier: number;
  /** Each query's probability and label. */
  perQuery: Record<string, { probability: number; relevant: boolean }>;
}
