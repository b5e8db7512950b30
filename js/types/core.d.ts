/// <reference lib="esnext.disposable" />
// calibrank: the scoring core (`import ... from "calibrank"`). Hand-written; the JSON
// shapes follow the serde attributes of the Rust types (camelCase fields, `method` /
// `kind` tags, optional fields where serde has a default).

import type { ErrorCode } from "./score_error.js";
export { ScoreError, type ErrorCode } from "./score_error.js";

// ---------------------------------------------------------------- Limits

/** Configurable input size limits. A missing field keeps its default (`defaultLimits()`). */
export interface Limits {
  /** Most lists (or queries, runs, metrics) in one call (default 64). */
  maxLists?: number;
  /**
   * Longest list, and longest array of numbers a call is given: scores, labels, an
   * `applyCalibration` model's knots (default 1,000,000). Not a `Pipeline`'s
   * configuration, read once when it is made, nor `weights`, whose count is the lists'.
   */
  maxListLength?: number;
  /**
   * Most entries given as objects or strings in one call: list ids plus the items they
   * find, hits, candidates, run and qrels entries, TREC lines, and the entries of the lab's
   * `Run` and `Qrels` handles a call is given (default 100,000; some functions have a
   * budget of their own: `defaultLimits(fn)`).
   */
  maxTotalEntries?: number;
  /** Most entries of typed arrays of indices (`docs`), and documents (`nDocs`) (default 4,000,000). */
  maxColumnarEntries?: number;
  /** Longest id, in bytes (default 1024). */
  maxIdBytes?: number;
  /**
   * Longest text field (name, type, summary, content, query), in bytes (default
   * 1,000,000); and, doubled, the longest JSON text of options, a configuration, a
   * `context` or metric names, in characters (of the call's limits or the defaults, whichever is larger).
   */
  maxTextBytes?: number;
  /** All the strings of one call together (ids, keys, texts, ISO 8601 times, TREC text), in bytes (default 32,000,000). */
  maxTotalTextBytes?: number;
  /**
   * Most work of one `optimizeFusion` search: configurations tried times the entries of
   * the runs fused and the judgements read by each evaluation; of `proposeBands`'
   * cross-validation: folds times items / 20; of a `fitQueryConfidence` step: judged
   * queries times (runs + 1) squared / 5 (default 2,000,000).
   */
  maxSearchWork?: number;
}

/** `Limits` as a call takes them: a field left out, or `null`, keeps its default. */
export type LimitsInput = { readonly [K in keyof Limits]?: number | null | undefined };

/**
 * Input size limits for one call, in a function's options (`Pipeline` takes them in its
 * config). Missing fields keep their defaults (see `defaultLimits()`); an input over a
 * limit is a `ScoreError` with code `INPUT_TOO_LARGE`. `null` is the defaults, as a
 * missing `limits` is.
 */
export interface WithLimits {
  /**
   * This call's input size limits: missing fields keep their defaults
   * (`defaultLimits(fn)`), `null` is all the defaults; an input over one is a
   * `ScoreError` `INPUT_TOO_LARGE`.
   */
  limits?: LimitsInput | null | undefined;
}

// ---------------------------------------------------------------- Small shared types

/** A point in time: epoch milliseconds or an ISO 8601 string. */
export type Timestamp = number | string;

/** The three bands, ordered `miss < degraded < hit`. */
export type Band = "miss" | "degraded" | "hit";

/** A classified retrieval outcome (`classifyBand`'s answer). */
export type RetrievalOutcome =
  | { kind: "hit"; score: number }
  | { kind: "degraded"; score: number }
  | { kind: "miss" };

/**
 * Two band floors, `0 <= degradedFloor <= highFloor <= 1` (`INVALID_BANDS`). A floor
 * given alone is checked against the other's default, the error on the floor given.
 */
export interface BandFloors {
  /** Lowest score of a hit (default 0.85). */
  highFloor?: number | undefined;
  /** Lowest score of a degraded result (default 0.65). */
  degradedFloor?: number | undefined;
  /** Not a field: a `proposeBands` proposal given whole is refused (see `BandsConfig`). */
  targetPrecision?: never;
}

/** Floors for one `(taskClass, language, buildSystem)` context. */
export interface BandProfile {
  /** Name, reported in explanations. */
  name: string;
  /** Task class this profile is for (unset or `null`: any). */
  taskClass?: string | null | undefined;
  /** Language (unset or `null`: any). */
  language?: string | null | undefined;
  /** Build system (unset or `null`: any). */
  buildSystem?: string | null | undefined;
  /** Lowest score of a hit. */
  highFloor: number;
  /** Lowest score of a degraded result. */
  degradedFloor: number;
  /** Not a field: a `proposeBands` proposal spread into a profile is refused (see `BandsConfig`). */
  targetPrecision?: never;
}

/**
 * Band configuration. A floor given alone is checked against the other's default, the
 * error on the floor given (`config.bands.highFloor` for `{ highFloor: 0.5 }`).
 */
export interface BandsConfig {
  /** Default lowest score of a hit (0.85). */
  highFloor?: number | undefined;
  /** Default lowest score of a degraded result (0.65). */
  degradedFloor?: number | undefined;
  /**
   * Named profiles per (taskClass, language, buildSystem); most specific match first. At
   * most 1,000 (`INPUT_TOO_LARGE` on `config.bands.profiles`: their names are compared
   * pairwise).
   */
  profiles?: BandProfile[] | undefined;
  /**
   * Not a field. A `proposeBands` proposal given whole is `UNKNOWN_FIELD` on
   * `config.bands.targetPrecision` at run time, so it is refused here too: pass its floors,
   * `{ highFloor: proposal.highFloor, degradedFloor: proposal.degradedFloor }`.
   */
  targetPrecision?: never;
}

/** The context a result set is classified in (selects a band profile). */
export interface BandContext {
  /** Matched against a band profile's `taskClass` (a profile without one matches any). */
  taskClass?: string | null | undefined;
  /** Matched against a band profile's `language` (a profile without one matches any). */
  language?: string | null | undefined;
  /** Matched against a band profile's `buildSystem` (a profile without one matches any). */
  buildSystem?: string | null | undefined;
}

// ---------------------------------------------------------------- Calibration

/** Sigmoid parameters: `1 / (1 + exp(-steepness * (raw - threshold)))`. */
export interface Sigmoid {
  /** Raw score mapped to 0.5 (default 0.035). */
  threshold?: number | undefined;
  /** Steepness (> 0, default 150). */
  steepness?: number | undefined;
}

/**
 * A fitted Platt sigmoid: `predict(x) = 1 / (1 + exp(a * x + b))` (the sign convention of
 * Platt, LibSVM and scikit-learn: `a < 0` when higher scores are more relevant). A
 * pipeline refuses `a > 0` (`INVALID_CALIBRATION` on `config.calibration.a`): it ranks by
 * the calibrated scores, which would then fall as the score rises.
 */
export interface PlattModel {
  /** Slope on the raw score. */
  a: number;
  /** Intercept. */
  b: number;
}

/**
 * A fitted isotonic calibration: the knots `(x[i], y[i])` of a non-decreasing
 * piecewise-linear function, constant beyond the first and last knot.
 */
export interface IsotonicModel {
  /** Raw scores of the knots, strictly increasing. */
  x: number[];
  /** Calibrated probabilities at the knots, non-decreasing within `[0, 1]`. */
  y: number[];
}

/**
 * How raw scores become confidences: the seed's sigmoid, or a model fitted from
 * judgements (what `fitPlatt` / `fitIsotonic` of `calibrank/lab` return plugs in as is,
 * a Platt model with `a <= 0`: see `PlattModel`). Tagged by `method`, as
 * `Pipeline.config` gives it.
 */
export type Calibration =
  | ({ method: "sigmoid" } & Sigmoid)
  | ({ method: "platt" } & PlattModel)
  | ({ method: "isotonic" } & IsotonicModel);

/** A fitted model's fields, which a sigmoid given without its `method` has not. */
export interface NotAFittedModel {
  /** Platt's slope: give `method: "platt"` with it. */
  a?: never;
  /** Platt's intercept: give `method: "platt"` with it. */
  b?: never;
  /** Isotonic breakpoints: give `method: "isotonic"` with them. */
  x?: never;
  /** Isotonic values: give `method: "isotonic"` with them. */
  y?: never;
}

/**
 * What a pipeline's `calibration` (and `applyCalibration`) takes: a `Calibration`, or a
 * sigmoid's parameters without `method` (`{ threshold: 0.02 }`, as `calibrate` takes
 * them), read as `{ method: "sigmoid", ... }`.
 */
export type CalibrationInput = Calibration | ({ method?: undefined } & Sigmoid & NotAFittedModel);

// ---------------------------------------------------------------- Confidence

/** Options of `queryConfidence` (and the pipeline's `confidence`). */
export interface ConfidenceOptions {
  /** Weights of slots 1..=5 (finite, >= 0, summing to at most 1 so that `weightedTop5` stays within [0, 1]; default 0.35, 0.25, 0.2, 0.12, 0.08). */
  weights?: [number, number, number, number, number] | undefined;
  /** How many top scores `expectedPrecision` and `atLeastOneRelevant` use (default, or `null`: all). */
  k?: number | null | undefined;
}

/** Query-level confidence figures. */
export interface QueryConfidence {
  /** Weighted top-5 of the scores (a missing slot counts 0). */
  weightedTop5: number;
  /** Mean of the top-k scores. */
  expectedPrecision: number;
  /** `1 - prod(1 - p_i)` over the top-k scores. */
  atLeastOneRelevant: number;
  /** The k used. */
  k: number;
}

/**
 * A query-confidence model, as `fitQueryConfidence` (calibrank/lab) returns it: plain
 * JSON, plugs into `new Pipeline({ confidence: { model } })`. The probability that the
 * fused top `k` holds a relevant document, from the rank-only estimate and each list's
 * best raw score (logistic regression on standardized features).
 */
export interface QueryConfidenceModel {
  method: "logistic";
  /** How many lists the model takes (matched by position). */
  runs: number;
  /** The fused top k whose "at least one relevant" is predicted. */
  k: number;
  /** The RRF constant of the fusion the model assumes. */
  rrfK: number;
  /** RRF weight per list. */
  weights: number[];
  /** `"rankOnly"`, then `"top[0]"`, `"top[1]"`, ... */
  features: string[];
  /** Training mean of each feature. */
  mean: number[];
  /** Training standard deviation of each feature (1 where it was 0). */
  scale: number[];
  /** Coefficient of each standardized feature. */
  coefficients: number[];
  /** The logistic regression's intercept (the log-odds at the features' training means). */
  intercept: number;
  /** The `top[i]` of an empty list: the lowest one seen in training. */
  missingTop: number[];
  /** The L2 penalty of the fit. */
  l2: number;
  /** Figures of the fit on its training queries. */
  training: {
    queries: number;
    positives: number;
    logLoss: number;
    auroc: number;
    iterations: number;
    converged: boolean;
  };
}

/** The pipeline's `confidence`: the seeds' figures, a fitted model, the outcome floors. */
export interface PipelineConfidenceConfig extends ConfidenceOptions {
  /**
   * A model from `fitQueryConfidence`: `confidence.atLeastOneRelevant` becomes its
   * probability for the input lists (matched to the model's runs by position; each list
   * needs `scores`).
   */
  model?: QueryConfidenceModel | null | undefined;
  /**
   * Lowest probability of an `answer` outcome (default 0.5; `hedgeFloor <= answerFloor`, a
   * floor given alone checked against the other's default, the error on the floor given).
   */
  answerFloor?: number | undefined;
  /** Lowest probability of a `hedge` outcome; below it, `abstain` (default 0.2). */
  hedgeFloor?: number | undefined;
}

/** What to do with a query's results, from the probability that a relevant one is there. */
export type Outcome =
  | { kind: "answer"; probability: number; source: OutcomeSource }
  | { kind: "hedge"; probability: number; source: OutcomeSource }
  | { kind: "abstain"; probability: number; source: OutcomeSource };

/** `"model"`: the configured model's probability; `"rankOnly"`: the seeds' estimate. */
export type OutcomeSource = "model" | "rankOnly";

// ---------------------------------------------------------------- Rerank

/** Configuration of the heuristic reranker; defaults are seed 003's. */
export interface HeuristicConfig {
  /** Multiplier for an exact (case-insensitive) name match (default 3.0). */
  exactNameMultiplier?: number | undefined;
  /** Weight of the name-term hit fraction (default 1.5). */
  nameTermWeight?: number | undefined;
  /** Weight of the summary-term hit fraction (default 0.5). */
  summaryTermWeight?: number | undefined;
  /** Content shorter than this `length` (UTF-16 code units, as JavaScript counts) is penalized (default 50). */
  shortContentChars?: number | undefined;
  /** Multiplier for short content (default 0.5). */
  shortContentMultiplier?: number | undefined;
  /**
   * Multiplier per entity type, keyed by the type in lowercase (the candidate's `type` is
   * lowercased before the lookup; a key with an uppercase letter is `INVALID_CONFIG`).
   * Replaces the default table (class 1.3, function 1.2, ...) as a whole.
   */
  typeMultipliers?: { [type: Lowercase<string>]: number } | undefined;
  /** Multiplier for unknown or missing types (default 1.0). */
  unknownTypeMultiplier?: number | undefined;
  /**
   * Stopwords, dropped from the query's terms (default, or `null`: calibrank's built-in
   * English list). The terms: camelCase words split (`GraphTraversal`: `graph`,
   * `traversal`), any other character than a letter or digit a separator, lowercased,
   * one-character terms dropped, each term kept once.
   */
  stopwords?: string[] | null | undefined;
}

/** A candidate for the heuristic reranker. */
export interface Candidate {
  /** The candidate's id, given back in its `Reranked` entry. */
  id: string;
  /** Score before reranking (finite, >= 0). */
  score: number;
  /** Name of the entity. */
  name: string;
  /** Entity type (`class`, `function`, `file`, ...). */
  type?: string | null | undefined;
  /** Short description, searched for the query's terms (`summaryTermWeight`). */
  summary?: string | null | undefined;
  /** Body text; only its length counts (`shortContentChars`, `shortContentMultiplier`). */
  content?: string | null | undefined;
}

/** The factors applied to one candidate; `multiplier` is their product. */
export interface HeuristicFactors {
  /** `exactNameMultiplier` when the name is the whole query (case-insensitive), else 1. */
  exactName: number;
  /** 1 + `nameTermWeight` x the share of the query's terms found in the name (1 if none). */
  nameTerms: number;
  /** 1 + `summaryTermWeight` x the share of the query's terms found in the summary (1 if none). */
  summaryTerms: number;
  /** `shortContentMultiplier` when the content is non-empty and shorter than `shortContentChars`, else 1. */
  shortContent: number;
  /** The type's `typeMultipliers` entry (case-insensitive), else `unknownTypeMultiplier`. */
  entityType: number;
  /** Product of the above. */
  multiplier: number;
}

/** One reranked candidate. */
export interface Reranked {
  /** The candidate's id. */
  id: string;
  /** Score before reranking. */
  originalScore: number;
  /** Score after reranking. */
  rerankedScore: number;
  /** The factors applied. */
  factors: HeuristicFactors;
}

// ---------------------------------------------------------------- Pipeline configuration

/** Recency modes. */
export type RecencyMode = "none" | "step" | "fiscal_year";

/** One age step of the step boost. */
export interface RecencyStep {
  /** Items strictly younger than this many days get `multiplier`. */
  maxAgeDays: number;
  /** The multiplier (> 0). */
  multiplier: number;
}

/** Parameters of the fiscal-year tier. */
export interface FiscalYearTier {
  /** Recent window in years (default 5, >= 1). */
  window?: number | undefined;
  /** The corpus's latest fiscal year (default 2025). */
  latestYear?: number | undefined;
}

/** Recency configuration. */
export interface RecencyConfig {
  /** `step` (default), `fiscal_year` or `none`. */
  mode?: RecencyMode | undefined;
  /** Age steps for `step` (default x1.2 under 7 days, x1.1 under 30 days). */
  steps?: RecencyStep[] | undefined;
  /** Tier parameters for `fiscal_year` (window 5, latest year 2025). */
  fiscalYear?: FiscalYearTier | undefined;
  /** Boost for `fiscal_year` at the merge stage (default 0.80). */
  boost?: number | undefined;
}

/** Rerank methods. */
export type RerankMethod = "none" | "heuristic" | "cross_encoder";

/** Rerank configuration. */
export interface RerankConfig {
  /** `none` (default), `heuristic` or `cross_encoder`. */
  method?: RerankMethod | undefined;
  /** Factors of the heuristic reranker. */
  heuristic?: HeuristicConfig | undefined;
  /**
   * Candidates reranked (the best after recency); the pool's others are dropped (counted
   * in `stats.beyondCandidateLimit`). Unset or `null`: the whole topK pool.
   */
  candidateLimit?: number | null | undefined;
  /** Fiscal-year boost after reranking (default 0.80). */
  recencyBoost?: number | undefined;
  /**
   * How the cross-encoder's scores are normalized over the candidates it reranks:
   * `"min_max"` (default; seed 004's per query: the best candidate is 1 whatever the
   * model scored it, so the confidences rank the candidates but cannot say that nothing
   * relevant was found), or `"none"`: the scores as the model gave them, for a
   * calibration fitted on them (`fitPlatt` of judged cross-encoder scores); no
   * `recencyBoost` multiplies them, and a `max` normalization refuses one below 0.
   */
  crossEncoderNormalization?: "min_max" | "none" | undefined;
}

/** Normalization methods. */
export type NormalizeMethod = "none" | "max" | "min_max" | "z_score" | "softmax";

/** Normalization configuration. */
export interface NormalizationConfig {
  /** `none` (default), `max`, `min_max`, `z_score` or `softmax`. */
  method?: NormalizeMethod | undefined;
  /** Softmax temperature (default 1). */
  temperature?: number | undefined;
  /** Normalized scores below this are dropped (default 0.1, within [0, 1]; ignored for `none`). */
  minRelevance?: number | undefined;
}

/**
 * `T` as a function reads it: every array in it, at any depth, may be read-only (an
 * `as const` literal, a frozen array). The configuration types themselves stay data a
 * caller builds and changes (`cfg.recency.steps.push(...)`).
 */
export type ReadonlyArrays<T> = T extends Float64Array | Uint32Array | Date | ((...args: never[]) => unknown)
  ? T
  : T extends readonly unknown[]
    ? { readonly [K in keyof T]: ReadonlyArrays<T[K]> }
    : T extends object
      ? { [K in keyof T]: ReadonlyArrays<T[K]> }
      : T;

/**
 * `T` as the package gives it back (`Pipeline.config`): every field present, recursively,
 * options left unset as `null`; arrays and fitted models as they were given. A key typed
 * `never` (a guard, as `BandsConfig`'s `targetPrecision`) is no field, and is left out.
 */
export type Effective<T> = T extends readonly unknown[] | QueryConfidenceModel
  ? T
  : T extends object
    ? { [K in keyof T as [Exclude<T[K], undefined>] extends [never] ? never : K]-?: Effective<Exclude<T[K], undefined>> }
    : T;

/** `Pipeline.config`: the configuration with every default filled in (every limit a number). */
export type EffectivePipelineConfig = Omit<Effective<PipelineConfig>, "limits" | "calibration"> & {
  limits: Required<Limits>;
  /** Tagged always (a sigmoid given without `method` reads as one with it). */
  calibration: Effective<Calibration>;
};

/** The pipeline configuration. Every field has the seed's default. */
export interface PipelineConfig {
  /** RRF constant (default 60, >= 1). */
  k?: number | undefined;
  /**
   * Weight per list name (default 1 for every list), for `run`; a list's own `weight`
   * comes first. `runColumnar`'s lists have no names: it takes its `weights` from its
   * input (default 1 each), never from here.
   */
  weights?: Record<string, number> | undefined;
  /** Candidate pool after fusion and recency (default 10). */
  topK?: number | undefined;
  /**
   * Results returned (default 5, `1 <= topN <= topK`; a whole number out of that range,
   * -1 too, is `INVALID_TOP_N` as a call's `topN` is; not a whole number, `INVALID_TYPE`).
   */
  topN?: number | undefined;
  /** Recency boost. */
  recency?: RecencyConfig | undefined;
  /** Reranking. */
  rerank?: RerankConfig | undefined;
  /** Normalization. */
  normalization?: NormalizationConfig | undefined;
  /** Calibration (default: the seed's sigmoid, threshold 0.035, steepness 150). */
  calibration?: CalibrationInput | undefined;
  /** Calibrated scores below this are dropped (default 0.3). */
  minConfidence?: number | undefined;
  /** Band floors and profiles. */
  bands?: BandsConfig | undefined;
  /** Query confidence: the seeds' options, a fitted model, the outcome floors. */
  confidence?: PipelineConfidenceConfig | undefined;
  /** Input size limits of `run` and `runColumnar` (`null`, or a field `null`: the defaults). */
  limits?: LimitsInput | null | undefined;
  /** Attach an `explain` record to every result (default true). */
  explain?: boolean | undefined;
}

// ---------------------------------------------------------------- Pipeline input and output

/** One input list. */
export interface InputList {
  /** Strategy name (`semantic`, `keyword`, `graph`, ...), unique within an input. */
  name: string;
  /** Ids, best first. */
  ids: string[];
  /** The strategy's own scores, parallel to `ids` (reported in explanations). */
  scores?: number[] | null | undefined;
  /** Weight of this list (overrides `config.weights[name]`). */
  weight?: number | null | undefined;
}

/** Metadata of one item, for recency and reranking. */
export interface ItemMeta {
  /** Name (heuristic reranker). */
  name?: string | null | undefined;
  /** Entity type (heuristic reranker). */
  type?: string | null | undefined;
  /** Summary (heuristic reranker). */
  summary?: string | null | undefined;
  /** Content (heuristic reranker's short-content rule). */
  content?: string | null | undefined;
  /**
   * Modification time (step recency): finite epoch ms or an ISO 8601 string (`run` takes a
   * `Date` too: `ItemMetaLike`). Strings: `YYYY-MM-DD`, optionally `THH:MM`, `:SS` and
   * `.fff` (a space may replace `T`), then `Z`, `+HH:MM` or `-HH:MM`; **without an offset
   * the time is UTC**, not local time as `Date.parse("2026-01-01T00:00")` reads it.
   */
  modifiedAt?: string | number | null | undefined;
  /** Fiscal year (fiscal-year recency). */
  fiscalYear?: number | null | undefined;
  /**
   * External cross-encoder score (cross-encoder rerank): with `rerank.method:
   * "cross_encoder"`, every candidate the reranker reads must have one (a missing one is
   * `EMPTY_INPUT` on `items.<id>.crossEncoderScore`); min-max scaled per query.
   */
  crossEncoderScore?: number | null | undefined;
}

/** The pipeline input. */
export interface PipelineInput {
  /** The query text (required by the heuristic reranker). */
  query?: string | null | undefined;
  /** Ranked lists, one per strategy. */
  lists: InputList[];
  /**
   * Metadata by item id, looked up by the lists' ids: an entry whose key is in no list
   * is never read (neither checked nor counted against the limits), so the metadata of
   * a whole corpus may be passed. Only own entries of a record are items. An entry read
   * holds `ItemMeta`'s fields only (`null`: none): another key of its own is `UNKNOWN_FIELD` (so a
   * misspelled field is not ignored), which TypeScript cannot see in a variable of a
   * wider type.
   */
  items?: Record<string, ItemMeta | null | undefined> | null | undefined;
  /**
   * The current time for step recency (epoch ms, or ISO 8601 in `ItemMeta.modifiedAt`'s
   * forms, UTC without an offset; `run` takes a `Date` too). calibrank never reads the
   * clock: with step recency (the default), an item with a `modifiedAt` and no `now` is
   * `INVALID_TIMESTAMP` on `now`.
   */
  now?: string | number | null | undefined;
  /** Context that selects a band profile. */
  context?: BandContext | null | undefined;
  /** Results to return for this call, in place of the configuration's `topN` (a whole number, `1 <= topN <= topK`). */
  topN?: number | null | undefined;
}

/**
 * What `run` accepts: a `PipelineInput`, or the same with read-only arrays, `Date`s,
 * typed-array scores and a `Map` of items (`run` never writes to its input).
 */
export interface PipelineInputLike extends Omit<PipelineInput, "lists" | "items" | "now"> {
  /** Ranked lists, one per strategy. */
  lists: readonly InputListLike[];
  /**
   * The items as a record or a `Map`, read at each call, or an `Items` read once: metadata
   * by item id, looked up by the lists' ids (an entry whose key is in no list is never
   * read, so the metadata of a whole corpus may be passed); an entry read holds
   * `ItemMeta`'s fields only (another key of its own is `UNKNOWN_FIELD`).
   */
  items?: Readonly<Record<string, ItemMetaLike | null | undefined>> | ReadonlyMap<string, ItemMetaLike | null | undefined> | Items | null | undefined;
  /**
   * The current time for step recency: epoch ms, a `Date`, or ISO 8601 in
   * `ItemMeta.modifiedAt`'s forms (**UTC without an offset**). calibrank never reads the
   * clock: with step recency (the default), an item with a `modifiedAt` and no `now` is
   * `INVALID_TIMESTAMP` on `now`.
   */
  now?: Timestamp | Date | null | undefined;
}

/** An `InputList` as `run` accepts it. */
export interface InputListLike extends Omit<InputList, "ids" | "scores"> {
  /** Ids, best first. */
  ids: readonly string[];
  /** The strategy's own scores, parallel to `ids` (reported in explanations). */
  scores?: readonly number[] | Float64Array | null | undefined;
}

/** An `ItemMeta` as `run` accepts it (`modifiedAt` may be a `Date`). */
export interface ItemMetaLike extends Omit<ItemMeta, "modifiedAt"> {
  /**
   * Modification time (step recency): finite epoch ms, a `Date`, or an ISO 8601 string
   * (`YYYY-MM-DD`, optionally `THH:MM`, `:SS` and `.fff`, then `Z`, `+HH:MM` or
   * `-HH:MM`; **without an offset the time is UTC**, not local time as `Date.parse`
   * reads it).
   */
  modifiedAt?: string | number | Date | null | undefined;
}

/** One list's contribution to one result. */
export interface Contribution {
  /** List name. */
  list: string;
  /** 1-based rank in that list. */
  rank: number;
  /** The list's weight. */
  weight: number;
  /** `weight / (k + rank)`. */
  contribution: number;
  /** The list's own score for the item, when given. */
  listScore?: number | undefined;
}

/** What the rerank stage did to one result. */
export type RerankExplain =
  | { method: "none" }
  | { method: "heuristic"; factors: HeuristicFactors }
  | { method: "cross_encoder"; raw: number; normalized: number };

/** A result's value after every stage. */
export interface Explain {
  /** Which lists contributed, at which rank. */
  contributions: Contribution[];
  /** RRF score. */
  fused: number;
  /** Merge-stage recency multiplier. */
  recencyMultiplier: number;
  /** Score after recency. */
  afterRecency: number;
  /** The rerank stage. */
  rerank: RerankExplain;
  /** Rerank-stage fiscal-year multiplier. */
  rerankRecencyMultiplier: number;
  /**
   * Score after reranking: `afterRecency * rerank.multiplier * rerankRecencyMultiplier`
   * (heuristic), `rerank.normalized * rerankRecencyMultiplier` (cross-encoder, whose
   * scores replace the fused ones), `afterRecency` (no reranker).
   */
  afterRerank: number;
  /** Score after normalization. */
  normalized: number;
  /** Calibrated confidence. */
  calibrated: number;
  /** Final band. */
  band: Band;
  /** Band profile used (absent: the default floors). */
  bandProfile?: string | undefined;
}

/**
 * One result. `E` is the pipeline's `explain` as its configuration's type gives it
 * (`Pipeline<E>`): `true`, every result carries its explanation; `false`, none does;
 * `boolean`, the default (`explain` not given or not a literal), it may.
 */
export type PipelineResult<E extends boolean = boolean> = {
  /** Item id. */
  id: string;
  /** Calibrated confidence in [0, 1]. */
  score: number;
  band: Band;
} & ExplainOf<E>;

/**
 * The `explain` field of a result of a pipeline whose `explain` is `E`: present for
 * `true`, absent for `false`, maybe for `boolean`.
 */
export type ExplainOf<E extends boolean> = [E] extends [true]
  ? {
      /** Explanation (the pipeline's `explain` is `true`). */
      explain: Explain;
    }
  : [E] extends [false]
    ? {
        /** None: the pipeline's `explain` is `false`. */
        explain?: undefined;
      }
    : {
        /** Explanation (when `config.explain`, the default). */
        explain?: Explain | undefined;
      };

/** Counts of what happened along the pipeline. */
export interface PipelineStats {
  /** Number of lists. */
  lists: number;
  /** Distinct items fused. */
  candidates: number;
  /** Items found by more than one list. */
  inSeveralLists: number;
  /** Ignored repeated ids, per list (in input order). */
  duplicates: number[];
  /** Items beyond the topK pool. */
  beyondTopK: number;
  /** Items beyond the rerank candidate limit. */
  beyondCandidateLimit: number;
  /** Items dropped by `minRelevance`. */
  belowMinRelevance: number;
  /** Items dropped by `minConfidence`. */
  belowMinConfidence: number;
  /** Items cut by `topN`. */
  beyondTopN: number;
  /** Results returned. */
  returned: number;
  /** Results in the hit band. */
  hits: number;
  /** Results in the degraded band. */
  degraded: number;
  /** Results in the miss band. */
  misses: number;
  /** Band profile used. */
  bandProfile?: string | undefined;
}

/** The pipeline output. */
export interface PipelineOutput<out E extends boolean = boolean> {
  /** Results, calibrated score descending, at most topN (`E`: see `PipelineResult`). */
  results: PipelineResult<E>[];
  /**
   * Query confidence over the returned scores (`atLeastOneRelevant`: the model's
   * probability when `confidence.model` is configured).
   */
  confidence: QueryConfidence;
  /** Answer, hedge or abstain, with the probability it comes from. */
  outcome: Outcome;
  /** Stage statistics. */
  stats: PipelineStats;
  /**
   * What the rerank and normalization stages read from the whole pool (when explaining
   * and the pool is not empty): with it each result's
   * `explain.normalized` is recomputed from its `afterRerank`. None from a pipeline whose
   * `explain` is `false` (`E`, as for `results`).
   */
  pool?: ([E] extends [false] ? undefined : PoolExplain) | undefined;
}

/**
 * The pool's part of the explanation: the numbers a result's `rerank.normalized` and
 * `normalized` were computed from besides its own score.
 */
export interface PoolExplain {
  /**
   * Candidates the rerank and normalization stages scored: the topK pool, less those
   * beyond the reranker's `candidateLimit` (`stats.candidates - stats.beyondTopK -
   * stats.beyondCandidateLimit`).
   */
  candidates: number;
  /**
   * The cross-encoder's normalization, when it reranks (`rerank.normalized` from its
   * `raw` score): by default its raw scores' range, `rerank.normalized = (raw - min) /
   * (max - min)`, 1 when `max == min` (a span that overflows, ends near -/+1.8e308: the
   * same on halved values, `(raw / 2 - min / 2) / (max / 2 - min / 2)`); with
   * `rerank.crossEncoderNormalization: "none"`, `{ method: "none" }` (`normalized` is
   * `raw`).
   */
  crossEncoder?: { method: "min_max"; min: number; max: number } | { method: "none" } | undefined;
  /** The normalization's scale (`normalization.method`'s numbers). */
  normalization: PoolScale;
}

/**
 * What a normalization read from its pool, by method (`s` a result's `afterRerank`):
 * `none`: `s`; `max`: `s / max` (the largest score, floored at 0.001); `min_max`: `(s -
 * min) / (max - min)`, 1 when `max == min`; `z_score`: `Phi((s / scale - mean) / sd)`,
 * with the mean and the population standard deviation (divided by n) of `s / scale`,
 * 0.5 when `sd == 0` (`scale` 1 unless the plain moments overflow or underflow, then the
 * pool's largest magnitude); `softmax`:
 * `exp((s - max) / temperature) / sum`.
 */
export type PoolScale =
  | { method: "none" }
  | { method: "max"; max: number }
  | { method: "min_max"; min: number; max: number }
  | { method: "z_score"; mean: number; sd: number; scale: number }
  | { method: "softmax"; max: number; sum: number; temperature: number };

/** Input of `Pipeline.runColumnar`. */
export interface ColumnarInput {
  /** All lists' document indices, concatenated. */
  docs: Uint32Array;
  /**
   * `nLists + 1` offsets into `docs`, starting at 0, ending at `docs.length`. No list:
   * `[0]`, or `[]` with `docs` empty (the Rust crate's `ColumnarInput::default()`).
   */
  offsets: Uint32Array;
  /** Number of distinct documents; every index is below it. */
  nDocs: number;
  /** Weight per list (default, or `null`: 1). */
  weights?: Float64Array | readonly number[] | null | undefined;
  /**
   * Modification time per document in epoch ms, for step recency. NaN: unknown (no
   * boost); an infinite time of a listed document is `INVALID_TIMESTAMP` on
   * `modifiedAt[i]`, as `run` refuses it.
   */
  modifiedAt?: Float64Array | readonly number[] | null | undefined;
  /** Current time in epoch ms, or a `Date` (required with `modifiedAt`; an ISO string is refused here: `run` takes one). */
  now?: number | Date | null | undefined;
  /** The context that selects a band profile, as `run`'s (default: the default floors). */
  context?: BandContext | null | undefined;
  /** Results to return for this call, in place of the configuration's `topN`, as `run`'s. */
  topN?: number | null | undefined;
}

/** Output of `Pipeline.runColumnar`: parallel typed arrays, best first. */
export interface ColumnarOutput {
  /** Document indices, best first. */
  order: Uint32Array;
  /** Calibrated scores, parallel to `order`. */
  scores: Float64Array;
  /** Bands, parallel to `order`: 0 miss, 1 degraded, 2 hit. */
  bands: Uint8Array;
  /** Query confidence over the returned scores. */
  confidence: QueryConfidence;
  /** Answer, hedge or abstain (always rank-only: a model needs list scores, use `run`). */
  outcome: Outcome;
  /** Distinct documents fused. */
  candidates: number;
  /** The band profile whose floors classified the results (absent: the configuration's own floors), as `stats.bandProfile` of `run`. */
  bandProfile?: string | undefined;
}

/**
 * The arguments of `new Pipeline<E>`: for a `Pipeline<false>` a configuration with
 * `explain: false` written (none, or `explain` not given, is the default `true`);
 * otherwise an optional configuration whose `explain`, when given, is `E`.
 */
export type PipelineArgs<E extends boolean> = [E] extends [never]
  ? [config: never]
  : [E] extends [false]
    ? [config: ReadonlyArrays<PipelineConfig> & { explain: false }]
    : [config?: (ReadonlyArrays<PipelineConfig> & { explain?: E | undefined }) | null];

/**
 * A validated scoring pipeline. `E` is its `explain` as the configuration's type gives it
 * (`new Pipeline({ explain: true })` is a `Pipeline<true>`, whose results each carry an
 * `explain`; `{ explain: false }` a `Pipeline<false>`; otherwise `Pipeline<boolean>`, whose
 * results may). Any of them is a `Pipeline`.
 */
export declare class Pipeline<out E extends boolean = boolean> {
  /** Validates `config` (seed defaults for every missing field). */
  constructor(...config: PipelineArgs<E>);
  /**
   * Runs the pipeline: fuse, recency, rerank, normalize, calibrate, filter, topN, bands,
   * confidence.
   */
  run(input: PipelineInputLike): PipelineOutput<E>;
  /**
   * Columnar fast path: lists as one `Uint32Array` of document indices (`docs`) cut by
   * `offsets` (`offsets[i]..offsets[i+1]` is list i), results as typed arrays. No texts
   * and no list scores: a pipeline with a reranker, a confidence model or fiscal-year
   * recency is refused (`INVALID_CONFIG`; use `run`). Each list is held to `limits.maxListLength` (an error
   * on `offsets[i]` for list i; an index's error is on `docs[j]`, its place in `docs`),
   * the whole to `limits.maxColumnarEntries`.
   */
  runColumnar(input: ColumnarInput): ColumnarOutput;
  /** The effective configuration, with every default filled in (options left unset are `null`). */
  readonly config: EffectivePipelineConfig;
  /** Releases the pipeline's memory; the pipeline is unusable afterwards. */
  free(): void;
  /** Same as `free()`, for `using`. */
  [Symbol.dispose](): void;
}

/**
 * A corpus's item metadata read once, for many `Pipeline.run` calls (`input.items`):
 * each call then copies what it holds for the items its lists name, instead of reading
 * the caller's objects again. Every entry is checked when it is made, as `run` checks an
 * item it reads: its keys and the kinds of its values, with the same errors
 * (`INVALID_TYPE`, `UNKNOWN_FIELD` on `items.<id>...`). The values themselves (a date's
 * form, a number being finite) and the limits are checked by each call that lists the
 * item, against that pipeline's limits, with the same errors as for an object. A copy:
 * later changes to the record or `Map` are not seen. It holds no memory of the module
 * (nothing to free), and serves any pipeline.
 */
export declare class Items {
  /**
   * Reads `items`: a record's own string keys (those `run` would find; a `Proxy`'s are
   * those its `ownKeys` trap lists), or a `Map`'s keys, which must be strings (another
   * key, which no id could find, is `INVALID_TYPE` on `items`). An entry whose value is `undefined` is no item; `null` is an item with no
   * fields. Another `Items` gives the same items, whichever build of the package (ES
   * module or CommonJS) made it.
   */
  constructor(items: Readonly<Record<string, ItemMetaLike | null | undefined>> | ReadonlyMap<string, ItemMetaLike | null | undefined> | Items);
  /** How many items are held (`null` entries, items with no fields, included). */
  readonly size: number;
  /**
   * "Items" (`Object.prototype.toString` gives "[object Items]"): the class's brand, so
   * that another object with a `size` (a `Set` of ids, a lab `Run`) is no `Items`.
   */
  readonly [Symbol.toStringTag]: "Items";
  /**
   * An own enumerable key, the one a copy keeps (`structuredClone`, `postMessage`): a
   * copy given back is refused, where it would be read as no items.
   */
  readonly calibrankHandle: "Items";
}

// ---------------------------------------------------------------- Fusion

/** Options of `rrf`. */
export interface RrfOptions {
  /** RRF constant (default, or `null`: 60; >= 1). */
  k?: number | null | undefined;
  /** One weight per list (default, or `null`: 1 each). */
  weights?: Float64Array | readonly number[] | null | undefined;
}

/** Options of `rrfColumnar`. */
export interface RrfColumnarOptions {
  /** RRF constant (default, or `null`: 60; >= 1). */
  k?: number | null | undefined;
  /** One weight per list (default, or `null`: 1 each). */
  weights?: Float64Array | readonly number[] | null | undefined;
}

/** How the per-query scores of one item are combined. */
export type MultiQueryMethod = "rrf" | "score_sum" | "score_max";

/** One hit of one query. */
export interface QueryHit {
  /** The item id. */
  id: string;
  /** Similarity score of the item for this query. */
  score: number;
  /** When the item was created or modified (tie-break: newest first): epoch ms, an ISO 8601 string or a Date. */
  timestamp?: string | number | Date | null | undefined;
}

/** Options of `fuseMultiQuery`. Defaults are the seed's. */
export interface MultiQueryOptions {
  /** Combination method (default `rrf`). */
  method?: MultiQueryMethod | undefined;
  /** Hits taken from each query before the threshold filter (default 20, 1..=100000). */
  resultsPerQuery?: number | undefined;
  /** Hits scoring below this are dropped before ranking (default 0.6). */
  similarityThreshold?: number | undefined;
  /**
   * For `score_max`: a multiplicative bonus per additional query that found the hit, its
   * score `best * (1 + multiQueryBoost * (queries - 1))` (default 0.1, 0..=1; 0: the best
   * similarity alone).
   */
  multiQueryBoost?: number | undefined;
  /** Results returned (default 10, >= 1). */
  limit?: number | undefined;
  /** RRF constant (default 60, >= 1). */
  k?: number | undefined;
  /** Include per-query scores, ranks and counts in each result (default false). */
  verbose?: boolean | undefined;
}

/** One fused item. */
export interface MultiQueryResult {
  /** The hit's id. */
  id: string;
  /** Combined score. */
  score: number;
  /** Per query index (a decimal string key, `"0"` for the first query), the similarity score (verbose only). */
  queryScores?: Record<string, number> | undefined;
  /** Per query index, the 1-based rank after filtering (verbose only). */
  queryRanks?: Record<string, number> | undefined;
  /** In how many queries the item appeared (verbose only). */
  appearedInQueryCount?: number | undefined;
}

/** Summary statistics of a multi-query fusion. */
export interface MultiQueryStats {
  /** Number of queries. */
  queries: number;
  /** Distinct items that survived the threshold in at least one query. */
  uniqueItems: number;
  /** Items found by more than one query. */
  itemsInMultipleQueries: number;
  /** Mean number of queries per item (0 when there are no items). */
  meanQueriesPerItem: number;
  /** Hits dropped by `similarityThreshold`. */
  belowThreshold: number;
  /** Hits beyond `resultsPerQuery`, not considered. */
  beyondResultsPerQuery: number;
  /** Repeated ids within a query, ignored. */
  duplicates: number;
}

/** Output of `fuseMultiQuery`. */
export interface MultiQueryOutput {
  /** Fused results, best first, at most `limit`. */
  results: MultiQueryResult[];
  /** Summary statistics. */
  stats: MultiQueryStats;
}

/** Options of `normalize`. */
export interface NormalizeOptions {
  /** Softmax temperature (default, or `null`: 1; a finite number > 0, checked whatever the method). */
  temperature?: number | null | undefined;
}

// ---------------------------------------------------------------- Functions

/**
 * Weighted Reciprocal Rank Fusion of ranked lists of ids: `[id, score]` pairs, highest
 * score first (ties: id ascending).
 */
export declare function rrf(
  lists: readonly (readonly string[])[],
  options?: (RrfOptions & WithLimits) | null,
): Array<[id: string, score: number]>;

/**
 * Columnar RRF: `docs` holds every list's document indices concatenated, list i being
 * `docs[offsets[i]..offsets[i+1]]`. Returns `{ order, scores }` as typed arrays (ties:
 * index ascending). A list over `limits.maxListLength` is `INPUT_TOO_LARGE` on
 * `offsets[i]`; an index not below `nDocs` is `INDEX_OUT_OF_RANGE` on `docs[j]`.
 * `offsets` holds `nLists + 1` entries from 0 to `docs.length`; no list is `[0]`, or `[]`
 * with `docs` empty (then the result is empty).
 */
export declare function rrfColumnar(
  docs: Uint32Array | readonly number[],
  offsets: Uint32Array | readonly number[],
  nDocs: number,
  options?: (RrfColumnarOptions & WithLimits) | null,
): { order: Uint32Array; scores: Float64Array };

/**
 * Fuses the hits of several queries (`rrf`, `score_sum` or `score_max`), each query's hits
 * sorted by similarity, best first. Ties: timestamp (newest first, missing last), then the
 * best rank in any query, then id. README, "Multi-query fusion".
 */
export declare function fuseMultiQuery(
  queries: readonly (readonly QueryHit[])[],
  options?: (MultiQueryOptions & WithLimits) | null,
): MultiQueryOutput;

/**
 * Heuristic multiplicative rerank: `{ id, originalScore, rerankedScore, factors }`,
 * highest reranked score first.
 */
export declare function rerank(
  query: string,
  candidates: readonly Candidate[],
  options?: ReadonlyArrays<HeuristicConfig & WithLimits> | null,
): Reranked[];

/** Normalizes scores (`max`, `min_max`, `z_score`, `softmax`, `none`); input order kept. */
export declare function normalize(
  scores: Float64Array | readonly number[],
  method: NormalizeMethod,
  options?: (NormalizeOptions & WithLimits) | null,
): Float64Array;

/** Sigmoid calibration `1 / (1 + exp(-steepness * (raw - threshold)))`; input order kept. */
export declare function calibrate(
  scores: Float64Array | readonly number[],
  options?: (Sigmoid & WithLimits) | null,
): Float64Array;

/**
 * Classifies one score, a calibrated confidence or a cosine similarity in `[-1, 1]`
 * (below 0 is a miss; outside the range `OUT_OF_RANGE`): `{ kind: "hit" | "degraded",
 * score }` or `{ kind: "miss" }`.
 */
export declare function classifyBand(score: number, options?: BandFloors | null): RetrievalOutcome;

/** Query-level confidence: weighted top-5, expected precision, P(at least one relevant). */
export declare function queryConfidence(
  scores: Float64Array | readonly number[],
  options?: ReadonlyArrays<Omit<ConfidenceOptions, "weights"> & WithLimits> & { weights?: readonly [number, number, number, number, number] | Float64Array | undefined } | null,
): QueryConfidence;

/**
 * The functions that take `limits`. `Run.fromTrec` / `fromObject` and `Qrels.fromTrec` /
 * `fromObject` have the limits of `parseTrecRun` and `parseQrels`.
 */
export type LimitedFunction =
  | "Pipeline"
  | "rrf"
  | "rrfColumnar"
  | "fuseMultiQuery"
  | "rerank"
  | "normalize"
  | "calibrate"
  | "queryConfidence"
  | "parseTrecRun"
  | "parseQrels"
  | "evaluate"
  | "evaluatePerQuery"
  | "fuseRuns"
  | "optimizeFusion"
  | "fitPlatt"
  | "fitIsotonic"
  | "applyCalibration"
  | "calibrationError"
  | "proposeBands"
  | "fitQueryConfidence"
  | "predictQueryConfidence"
  | "evaluateQueryConfidence"
  | "Run.fromTrec"
  | "Run.fromObject"
  | "Qrels.fromTrec"
  | "Qrels.fromObject";

/**
 * `Pipeline`s alive in the module, not yet freed (for leak tests; the lab's
 * `__liveHandles` counts its handles). Counted in the module instance: after a restart
 * (a trap, or memory run out), a pipeline made before counts again once it is used.
 * @internal
 */
export declare function __livePipelines(): number;

/**
 * How many `Pipeline.run` calls of this copy of the module asked for held-back item texts
 * (a reranking pipeline given more candidates than its reranker reads copies only the pool's
 * texts, when the module asks for them): a diagnostic for tests, not an API to build on.
 * @internal
 */
export declare function __heldTextsCalls(): number;

/**
 * Drops the typed arrays the package keeps between calls for its tables, so that the next
 * call makes its own, and returns the bytes they held: a hook for tests of allocation
 * failures, not an API to build on.
 * @internal
 */
export declare function __dropScratch(): number;

/**
 * The default input size limits (every field filled in): those most functions share, or
 * those of `fn` (its own `maxTotalEntries` where it has one: `rrf`, `Pipeline`,
 * `fuseMultiQuery`, `rerank`, `parseTrecRun`, `parseQrels`, `evaluate`,
 * `evaluatePerQuery`, `fuseRuns`). Another name is a `ScoreError` `UNKNOWN_METHOD` on `fn`.
 */
export declare function defaultLimits(fn?: LimitedFunction): Required<Limits>;

/** Every error code calibrank can throw (the members of `ErrorCode`). */
export declare function errorCodes(): ErrorCode[];

/** The package version. */
export declare function version(): string;
