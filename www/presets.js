// Presets of the score playground: each seed's worked example and real CISI queries.
// Pure data, no DOM: the page and the Node tests (tests/js/playground/*.test.mjs) build
// the same states from it.
//
// A state is { v, preset, mode, input, config, judgements, multi, bands, view }:
//   mode "pipeline"   - input is a PipelineInput, config a PipelineConfig;
//   mode "multiquery" - multi = { queries: QueryHit[][], options: MultiQueryOptions };
//   mode "bands"      - bands = { scores: number[] } classified with config.bands.

export const STATE_VERSION = 1;

const DAY = 86_400_000;
// A fixed "now" so that the recency examples do not age.
const NOW = Date.UTC(2025, 5, 1);
const iso = (ms) => new Date(ms).toISOString();

/** Defaults of the parts of the state that are not the package's. */
export function baseState() {
  return {
    v: STATE_VERSION,
    preset: "custom",
    mode: "pipeline",
    input: { query: "", lists: [], items: {}, now: iso(NOW) },
    config: {},
    judgements: null,
    multi: { queries: [], options: {} },
    bands: { scores: [] },
    view: { showDropped: true, binStrategy: "uniform", bins: 10 },
  };
}

function pipelineState(preset, input, config, extra = {}) {
  return { ...baseState(), preset, mode: "pipeline", input, config, ...extra };
}

// Seed 000: doc A at rank 1 in semantic and rank 3 in keyword, 5 days old (x1.2):
// (1/61 + 1/63) * 1.2 = 0.0387; doc J at rank 10 in semantic only, 60 days old: 1/70.
// Every configuration value is the seed default.
function seed000() {
  return pipelineState(
    "seed-000",
    {
      query: "How do I configure authentication?",
      lists: [
        { name: "semantic", ids: ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"] },
        { name: "keyword", ids: ["C", "B", "A"] },
      ],
      items: {
        A: { name: "auth.md: configuring authentication", modifiedAt: iso(NOW - 5 * DAY) },
        B: { name: "api.md: API keys", modifiedAt: iso(NOW - 20 * DAY) },
        C: { name: "oauth.md: OAuth flows", modifiedAt: iso(NOW - 45 * DAY) },
        J: { name: "security.md: older security notes", modifiedAt: iso(NOW - 60 * DAY) },
      },
      now: iso(NOW),
    },
    {},
  );
}

// Seed 001: multi-query fusion. The RRF example: A at rank 3 (0.85) in query 1 and
// rank 1 (0.92) in query 2 beats B at rank 1 (0.88) in query 1 only.
function seed001Rrf() {
  return {
    ...baseState(),
    preset: "seed-001-rrf",
    mode: "multiquery",
    multi: {
      queries: [
        [
          { id: "B", score: 0.88 },
          { id: "C", score: 0.86 },
          { id: "A", score: 0.85 },
          { id: "D", score: 0.7 },
          { id: "E", score: 0.55 },
        ],
        [
          { id: "A", score: 0.92 },
          { id: "F", score: 0.8 },
        ],
      ],
      options: { method: "rrf", verbose: true },
    },
  };
}

// Seed 001: score_sum (A: 0.85 + 0.78 = 1.63 beats B: 0.95) and score_max with boost 0.1
// (A: 0.85 * 1.1 = 0.935 stays behind B: 0.95).
function seed001Sum() {
  return {
    ...baseState(),
    preset: "seed-001-sum",
    mode: "multiquery",
    multi: {
      queries: [
        [
          { id: "B", score: 0.95 },
          { id: "A", score: 0.85 },
          { id: "C", score: 0.7 },
        ],
        [
          { id: "A", score: 0.78 },
          { id: "D", score: 0.66 },
        ],
      ],
      options: { method: "score_sum", verbose: true },
    },
  };
}

// Seed 002: the band classification examples 0.95 -> hit, 0.75 -> degraded, 0.40 -> miss.
function seed002() {
  return { ...baseState(), preset: "seed-002", mode: "bands", bands: { scores: [0.95, 0.75, 0.4] } };
}

// Seed 003: heuristic multiplicative rerank for the query "GraphTraversal", then
// max-normalization (floor 0.001) and minRelevance 0.1.
function seed003() {
  return pipelineState(
    "seed-003",
    {
      query: "GraphTraversal",
      lists: [
        { name: "semantic", ids: ["traversal.ts", "RelationshipStore", "GraphTraversal", "EdgeIndex"] },
        { name: "keyword", ids: ["GraphTraversal", "traversal.ts", "RelationshipStore"] },
      ],
      items: {
        GraphTraversal: {
          name: "GraphTraversal",
          type: "class",
          summary: "Breadth-first and depth-first walks over the entity graph.",
          content: "export class GraphTraversal { constructor(store) { this.store = store; } bfs(start) { /* ... */ } dfs(start) { /* ... */ } }",
        },
        RelationshipStore: {
          name: "RelationshipStore",
          type: "class",
          summary: "Stores the typed edges that GraphTraversal walks.",
          content: "export class RelationshipStore { add(from, to, kind) { /* ... */ } neighbours(id) { /* ... */ } }",
        },
        "traversal.ts": { name: "traversal.ts", type: "file", content: "export * from './graph';" },
        EdgeIndex: {
          name: "EdgeIndex",
          type: "interface",
          summary: "Index of edges by source and target.",
          content: "export interface EdgeIndex { bySource: Map<string, string[]>; byTarget: Map<string, string[]>; }",
        },
      },
      now: iso(NOW),
    },
    {
      recency: { mode: "none" },
      rerank: { method: "heuristic" },
      normalization: { method: "max" },
      calibration: { method: "sigmoid", threshold: 0.1, steepness: 12 },
    },
  );
}

// Seed 004: dense rank 3 + sparse rank 9 = 0.0304, FY2025 (tier 1, boost 0.80): 0.0547;
// cross-encoder scores min -2, max 3: a hit at 1.0 normalizes to 0.6, x1.8 = 1.08.
function seed004() {
  return pipelineState(
    "seed-004",
    {
      query: "How did the education budget policy change?",
      lists: [
        { name: "dense", ids: ["history-fy2019", "dense-2", "policy-fy2025", "dense-4"] },
        { name: "sparse", ids: ["overview", "sparse-2", "sparse-3", "sparse-4", "sparse-5", "sparse-6", "sparse-7", "sparse-8", "policy-fy2025"] },
      ],
      items: {
        "policy-fy2025": { name: "FY2025 budget statement: education policy", fiscalYear: 2025, crossEncoderScore: 1.0 },
        "history-fy2019": { name: "FY2019 budget statement: education history", fiscalYear: 2019, crossEncoderScore: -2.0 },
        overview: { name: "Budget process overview", crossEncoderScore: 3.0 },
        "dense-2": { name: "Education statistics appendix" },
        "sparse-2": { name: "Budget glossary" },
      },
      now: iso(NOW),
    },
    {
      topK: 20,
      topN: 3,
      recency: { mode: "fiscal_year" },
      rerank: { method: "cross_encoder", candidateLimit: 3 },
      calibration: { method: "sigmoid", threshold: 0.5, steepness: 10 },
      minConfidence: 0,
    },
  );
}

/** Config of the CISI presets: two lists, so the sigmoid's threshold is lowered. */
export const CISI_CONFIG = Object.freeze({
  topK: 20,
  topN: 10,
  recency: { mode: "none" },
  calibration: { method: "sigmoid", threshold: 0.02, steepness: 150 },
});

/** The PipelineInput of one CISI sample query. */
export function cisiInput(sample, q) {
  const items = {};
  for (const name of sample.runs) for (const id of q.runs[name].ids) items[id] = { name: sample.titles[id] || id };
  return {
    query: q.text,
    lists: sample.runs.map((name) => ({ name, ids: [...q.runs[name].ids], scores: [...q.runs[name].scores] })),
    items,
    now: iso(NOW),
  };
}

function cisi(sample, qid) {
  const q = sample.queries.find((x) => x.id === qid);
  if (!q) throw new Error(`no CISI sample query ${qid}`);
  return pipelineState(`cisi-${qid}`, cisiInput(sample, q), structuredClone(CISI_CONFIG), { judgements: { ...q.qrels } });
}

/** The out-of-domain query of the sample shown first (held out of the confidence fit). */
export const OOD_SHOWCASE = "oodot5";

/** Presets in menu order; CISI ones only when the sample is loaded. */
export function presetList(sample) {
  const list = [
    { id: "seed-000", group: "Seed examples", label: "000 · RRF + recency: rank 1 & 3, 5 days old vs rank 10, 60 days old" },
    { id: "seed-001-rrf", group: "Seed examples", label: "001 · Multi-query RRF: ranks 3 and 1 vs rank 1 once" },
    { id: "seed-001-sum", group: "Seed examples", label: "001 · Multi-query score_sum / score_max" },
    { id: "seed-002", group: "Seed examples", label: "002 · Bands: 0.95 / 0.75 / 0.40" },
    { id: "seed-003", group: "Seed examples", label: "003 · Heuristic rerank “GraphTraversal” + max normalization" },
    { id: "seed-004", group: "Seed examples", label: "004 · Dense 3 + sparse 9, FY2025 boost, cross-encoder" },
  ];
  if (sample) {
    const short = (text) => (text.length > 60 ? text.slice(0, 57).trimEnd() + "…" : text);
    const ood = sample.queries.filter((q) => q.id.startsWith("ood"));
    for (const q of sample.queries) {
      if (!ood.includes(q)) list.push({ id: `cisi-${q.id}`, group: "CISI queries (BM25 + dense, judged)", label: `Q${q.id} · ${short(q.text)}` });
    }
    // The showcase first: an everyday query with nothing relevant in CISI, which the
    // rank-only estimate answers and the fitted model (Query confidence) abstains on.
    const showcase = ood.find((q) => q.id === OOD_SHOWCASE);
    const rest = ood.filter((q) => q !== showcase);
    const group = "Out of domain: nothing relevant in CISI (judged all 0)";
    if (showcase) list.push({ id: `cisi-${showcase.id}`, group, label: `${showcase.id} · “${short(showcase.text)}”: abstains once the fitted model is used` });
    for (const q of rest) list.push({ id: `cisi-${q.id}`, group, label: `${q.id} · ${short(q.text)}` });
  }
  return list;
}

/** The state of a preset. */
export function buildPreset(id, sample) {
  switch (id) {
    case "seed-000":
      return seed000();
    case "seed-001-rrf":
      return seed001Rrf();
    case "seed-001-sum":
      return seed001Sum();
    case "seed-002":
      return seed002();
    case "seed-003":
      return seed003();
    case "seed-004":
      return seed004();
    default:
      if (id.startsWith("cisi-") && sample) return cisi(sample, id.slice(5));
      throw new Error(`unknown preset ${id}`);
  }
}

export const DEFAULT_PRESET = "seed-000";
