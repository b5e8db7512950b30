// The configuration form: every PipelineConfig value (README "The pipeline"), grouped.
// Values and defaults are read from the package (new Pipeline().config), not from here.

const calibrationMethod = (state) => state.config.calibration?.method ?? "sigmoid";

// Starting parameters when the calibration method is switched by hand. The Platt pair
// is the seed sigmoid written as 1 / (1 + exp(a x + b)): a = -150, b = 150 * 0.035.
export const CALIBRATION_DEFAULTS = {
  sigmoid: { method: "sigmoid" },
  platt: { method: "platt", a: -150, b: 5.25 },
  isotonic: { method: "isotonic", x: [0, 0.02, 0.035, 0.05, 0.1], y: [0, 0.1, 0.5, 0.9, 1] },
};

export const RECENCY_MODES = ["step", "fiscal_year", "none"];
export const RERANK_METHODS = ["none", "heuristic", "cross_encoder"];
export const NORMALIZE_METHODS = ["none", "max", "min_max", "z_score", "softmax"];

/**
 * The two band floors' quick controls (the calibration card's, the bands mode's): a
 * floor's slider dragged past the other floor pushes it (form.js rangeInput's `keep`), so
 * the floors never cross; typed, the package's error says it.
 */
export const FLOOR_CONTROLS = [
  { label: "High floor (hit ≥)", path: "config.bands.highFloor", min: 0, max: 1, step: 0.01, keep: { path: "config.bands.degradedFloor", side: "below" }, note: "Its slider pushes the degraded floor down with it." },
  { label: "Degraded floor (degraded ≥)", path: "config.bands.degradedFloor", min: 0, max: 1, step: 0.01, keep: { path: "config.bands.highFloor", side: "above" }, note: "Its slider pushes the high floor up with it." },
];

export const CONFIG_GROUPS = [
  {
    key: "fusion",
    title: "Fusion and pool",
    open: true,
    fields: [
      { path: "k", label: "k (RRF constant)", type: "number", min: 1, step: 1, help: "score = Σ w / (k + rank), ranks from 1; k ≥ 1." },
      { path: "weights", label: "weights (by list name)", type: "json", help: 'e.g. {"semantic": 1, "keyword": 0.5}; a list\'s own weight wins; default 1.' },
      { path: "topK", label: "topK (pool after fusion and recency)", type: "number", min: 1, step: 1 },
      { path: "topN", label: "topN (results returned)", type: "number", min: 1, step: 1, help: "1 ≤ topN ≤ topK." },
      { path: "minConfidence", label: "minConfidence", type: "number", min: 0, max: 1, step: 0.01, help: "Calibrated scores below are dropped." },
    ],
  },
  {
    key: "recency",
    title: "Recency",
    fields: [
      { path: "recency.mode", label: "mode", type: "select", options: RECENCY_MODES },
      { path: "recency.steps", label: "steps (step mode)", type: "json", help: "[{ maxAgeDays, multiplier }]: items younger than maxAgeDays get the multiplier." },
      { path: "recency.boost", label: "boost (fiscal_year, merge stage)", type: "number", min: 0, step: 0.05 },
      { path: "recency.fiscalYear.window", label: "fiscalYear.window (years)", type: "number", min: 1, step: 1 },
      { path: "recency.fiscalYear.latestYear", label: "fiscalYear.latestYear", type: "number", step: 1 },
    ],
  },
  {
    key: "rerank",
    title: "Rerank",
    fields: [
      { path: "rerank.method", label: "method", type: "select", options: RERANK_METHODS },
      { path: "rerank.candidateLimit", label: "candidateLimit", type: "number", min: 1, step: 1, optional: true, help: "Empty: the whole topK pool is reranked." },
      { path: "rerank.recencyBoost", label: "recencyBoost (fiscal year, after rerank)", type: "number", min: 0, step: 0.05 },
      {
        path: "rerank.crossEncoderNormalization",
        label: "crossEncoderNormalization",
        type: "select",
        options: ["min_max", "none"],
        help: "min_max: the seed's, per query (the best candidate is 1); none: the model's scores, for a calibration fitted on them.",
      },
      { path: "rerank.heuristic.exactNameMultiplier", label: "heuristic.exactNameMultiplier", type: "number", min: 0, step: 0.1 },
      { path: "rerank.heuristic.nameTermWeight", label: "heuristic.nameTermWeight", type: "number", min: 0, step: 0.1 },
      { path: "rerank.heuristic.summaryTermWeight", label: "heuristic.summaryTermWeight", type: "number", min: 0, step: 0.1 },
      { path: "rerank.heuristic.shortContentChars", label: "heuristic.shortContentChars", type: "number", min: 0, step: 1 },
      { path: "rerank.heuristic.shortContentMultiplier", label: "heuristic.shortContentMultiplier", type: "number", min: 0, step: 0.1 },
      { path: "rerank.heuristic.unknownTypeMultiplier", label: "heuristic.unknownTypeMultiplier", type: "number", min: 0, step: 0.1 },
      { path: "rerank.heuristic.typeMultipliers", label: "heuristic.typeMultipliers", type: "json" },
      { path: "rerank.heuristic.stopwords", label: "heuristic.stopwords", type: "json", help: "Empty: the package's built-in list." },
    ],
  },
  {
    key: "normalization",
    title: "Normalization",
    fields: [
      { path: "normalization.method", label: "method", type: "select", options: NORMALIZE_METHODS },
      { path: "normalization.temperature", label: "temperature (softmax)", type: "number", min: 0, step: 0.1 },
      { path: "normalization.minRelevance", label: "minRelevance", type: "number", min: 0, max: 1, step: 0.01, help: "Normalized scores below are dropped (not with none)." },
    ],
  },
  {
    key: "calibration",
    title: "Calibration",
    open: true,
    fields: [
      {
        path: "calibration.method",
        label: "method",
        type: "select",
        options: ["sigmoid", "platt", "isotonic"],
        onSelect: (state) => {
          const m = state.config.calibration.method;
          state.config.calibration = structuredClone(CALIBRATION_DEFAULTS[m]);
        },
        // The method picks the parameters (a tagged calibration: a Platt model's `a` left
        // beside `method: "sigmoid"` is UNKNOWN_FIELD): its default is the whole default
        // calibration, the other method's parameters dropped.
        reset: (state) => {
          delete state.config.calibration;
        },
      },
      { path: "calibration.threshold", label: "threshold (raw score → 0.5)", type: "number", step: 0.001, when: (s) => calibrationMethod(s) === "sigmoid" },
      { path: "calibration.steepness", label: "steepness", type: "number", min: 0, step: 1, when: (s) => calibrationMethod(s) === "sigmoid" },
      // A fitted model's parameters have no default (the model is required whole): no ↺.
      { path: "calibration.a", label: "a (Platt slope)", type: "number", required: true, when: (s) => calibrationMethod(s) === "platt" },
      { path: "calibration.b", label: "b (Platt intercept)", type: "number", required: true, when: (s) => calibrationMethod(s) === "platt" },
      { path: "calibration.x", label: "x (isotonic knots, raw)", type: "json", optional: false, required: true, when: (s) => calibrationMethod(s) === "isotonic" },
      { path: "calibration.y", label: "y (isotonic knots, calibrated)", type: "json", optional: false, required: true, when: (s) => calibrationMethod(s) === "isotonic" },
    ],
  },
  {
    key: "bands",
    title: "Bands",
    open: true,
    fields: [
      { path: "bands.highFloor", label: "highFloor (hit ≥)", type: "number", min: 0, max: 1, step: 0.01 },
      { path: "bands.degradedFloor", label: "degradedFloor (degraded ≥)", type: "number", min: 0, max: 1, step: 0.01 },
      { path: "bands.profiles", label: "profiles", type: "json", help: '[{ name, taskClass?, language?, buildSystem?, highFloor, degradedFloor }], chosen by the input\'s context.' },
    ],
  },
  {
    key: "confidence",
    title: "Query confidence",
    fields: [
      { path: "confidence.weights", label: "weights (slots 1–5)", type: "json" },
      { path: "confidence.k", label: "k (expected precision, P(≥1 relevant))", type: "number", min: 1, step: 1, optional: true, help: "Empty: all results." },
      { path: "confidence.answerFloor", label: "answerFloor (answer ≥)", type: "number", min: 0, max: 1, step: 0.01, help: "The query-level outcome: answer at or above, hedge between the floors, abstain below hedgeFloor." },
      { path: "confidence.hedgeFloor", label: "hedgeFloor (hedge ≥)", type: "number", min: 0, max: 1, step: 0.01 },
    ],
  },
  {
    key: "limits",
    title: "Limits and output",
    fields: [
      { path: "limits.maxLists", label: "limits.maxLists", type: "number", min: 1, step: 1 },
      { path: "limits.maxListLength", label: "limits.maxListLength", type: "number", min: 1, step: 1 },
      { path: "limits.maxTotalEntries", label: "limits.maxTotalEntries", type: "number", min: 1, step: 1 },
      { path: "limits.maxColumnarEntries", label: "limits.maxColumnarEntries", type: "number", min: 1, step: 1 },
      { path: "limits.maxIdBytes", label: "limits.maxIdBytes", type: "number", min: 1, step: 1 },
      { path: "limits.maxTextBytes", label: "limits.maxTextBytes", type: "number", min: 1, step: 1 },
      { path: "limits.maxTotalTextBytes", label: "limits.maxTotalTextBytes", type: "number", min: 1, step: 1 },
      { path: "limits.maxSearchWork", label: "limits.maxSearchWork", type: "number", min: 1, step: 1 },
      { path: "explain", label: "explain (per-result stages)", type: "bool", help: "Off: the results carry no explanation. The page still draws every stage, from a shadow run of its own with explain on (the stage card says so)." },
    ],
  },
];

/** fuseMultiQuery options (seed 001's defaults, shown as placeholders). */
export const MULTI_OPTIONS = [
  { path: "method", label: "method", type: "select", options: ["rrf", "score_sum", "score_max"] },
  { path: "resultsPerQuery", label: "resultsPerQuery", type: "number", min: 1, step: 1, default: 20 },
  { path: "similarityThreshold", label: "similarityThreshold", type: "number", step: 0.05, default: 0.6, help: "Hits below are dropped before ranking." },
  { path: "multiQueryBoost", label: "multiQueryBoost (score_max)", type: "number", min: 0, max: 1, step: 0.05, default: 0.1 },
  { path: "limit", label: "limit", type: "number", min: 1, step: 1, default: 10 },
  { path: "k", label: "k (rrf)", type: "number", min: 1, step: 1, default: 60 },
];
