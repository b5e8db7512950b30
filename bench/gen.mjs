// Deterministic benchmark inputs. examples/bench_native.rs implements the very same
// generator (xorshift32, integer arithmetic only), so the native harness, the wasm
// package and the JS baseline all see identical inputs.
//
// For N candidates per list: a universe of U = N + floor(N / 2) documents; each of the
// 3 lists is the first N entries of a partial Fisher-Yates shuffle of 0..U (own seed).
// Document d has the string id `docs/<d % 97>/chunk-<d>.md#L<(d * 31) % 400 + 1>`, a
// modification time for 4 documents out of 5 (0 to 90 days before NOW), and, for the
// reranker, a camelCase name, an entity type and a 12-word summary.

export const NOW = 1767225600000; // 2026-01-01T00:00:00Z
export const N_LISTS = 3;
export const LIST_NAMES = ["semantic", "keyword", "graph"];
export const QUERY = "How do I configure the authentication token cache for the GraphQL router?";

const NAME_WORDS = ["Auth", "Token", "Session", "Graph", "Traversal", "Cache", "Index", "Query", "Parser", "Config", "Router", "Handler", "Storage", "Queue", "Retry", "Metrics"];
const NAME_SUFFIX = ["Service", "Manager", "", "Builder"];
const TYPES = ["class", "function", "method", "interface", "type", "document", "section", "file", "module", "widget", "Class"];
const SUMMARY_WORDS = [
  "the", "authentication", "token", "cache", "is", "configured", "by", "router", "graph", "query", "returns", "a",
  "session", "handler", "for", "each", "request", "storage", "layer", "retries", "failed", "writes", "and", "metrics",
  "index", "parser", "builds", "tree", "from", "input", "config", "values",
];

/** xorshift32; returns a function giving uint32 values. */
export function xorshift32(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

/** Uniform integer in [0, n) for n < 2^21 (exact in doubles). */
const below = (r, n) => Math.floor((r * n) / 4294967296);

export const universe = (n) => n + Math.floor(n / 2);
const mix = (d) => Math.imul(d, 2654435761) >>> 0;

/** The 3 lists as arrays of document indices. */
export function lists(n) {
  const u = universe(n);
  const out = [];
  for (let l = 0; l < N_LISTS; l++) {
    const rng = xorshift32(0x9e3779b9 ^ Math.imul(l + 1, 0x85ebca6b));
    const a = new Uint32Array(u);
    for (let i = 0; i < u; i++) a[i] = i;
    for (let i = 0; i < n; i++) {
      const j = i + below(rng(), u - i);
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    out.push(a.slice(0, n));
  }
  return out;
}

export const docId = (d) => `docs/${d % 97}/chunk-${d}.md#L${((d * 31) % 400) + 1}`;
/** Epoch ms, or undefined for every fifth document. */
export const modifiedAt = (d) => (d % 5 === 0 ? undefined : NOW - (mix(d) % 129600) * 60000);
export const nameOf = (d) => NAME_WORDS[d % 16] + NAME_WORDS[(d >>> 4) % 16] + NAME_SUFFIX[(d >>> 8) % 4];
export const typeOf = (d) => TYPES[d % TYPES.length];
export function summaryOf(d) {
  const words = [];
  for (let i = 0; i < 12; i++) words.push(SUMMARY_WORDS[(mix(d + i * 7919) >>> 7) % SUMMARY_WORDS.length]);
  return words.join(" ");
}

/**
 * Limits raised for the benchmark's largest sizes (3 x 1,000,000 string ids is over the
 * string path's default of 200,000 entries, which keeps one call well under a second).
 */
export const BENCH_LIMITS = { maxTotalEntries: 10_000_000, maxTotalTextBytes: 512 * 1024 * 1024, maxColumnarEntries: 50_000_000 };

/** The pipeline configuration of workloads (b) and (c). */
export function pipelineConfig(rerank) {
  return {
    limits: BENCH_LIMITS,
    k: 60,
    topK: 100,
    topN: 10,
    recency: { mode: "step" },
    rerank: { method: rerank ? "heuristic" : "none" },
    normalization: { method: "min_max", minRelevance: 0.1 },
    calibration: { method: "sigmoid", threshold: 0.5, steepness: 8 },
    minConfidence: 0.3,
    explain: false,
  };
}

/**
 * Every input of one size: the string form (lists of ids, items), the columnar form
 * (typed arrays) and the reranker texts.
 */
export function makeInputs(n) {
  const idx = lists(n);
  const u = universe(n);
  const present = new Uint8Array(u);
  for (const l of idx) for (const d of l) present[d] = 1;
  const ids = new Array(u);
  for (let d = 0; d < u; d++) ids[d] = present[d] ? docId(d) : undefined;
  const strLists = idx.map((l) => Array.from(l, (d) => ids[d]));
  // Items in order of first appearance (lists interleaved by rank), as a caller that
  // collects metadata while reading its retrievers' results would build them.
  const itemsB = {};
  const itemsC = {};
  const seen = new Uint8Array(u);
  for (let p = 0; p < n; p++) {
    for (const l of idx) {
      const d = l[p];
      if (seen[d]) continue;
      seen[d] = 1;
      const m = modifiedAt(d);
      itemsB[ids[d]] = m === undefined ? {} : { modifiedAt: m };
      const c = { name: nameOf(d), type: typeOf(d), summary: summaryOf(d) };
      if (m !== undefined) c.modifiedAt = m;
      itemsC[ids[d]] = c;
    }
  }
  const docs = new Uint32Array(N_LISTS * n);
  const offsets = new Uint32Array(N_LISTS + 1);
  idx.forEach((l, i) => {
    docs.set(l, i * n);
    offsets[i + 1] = (i + 1) * n;
  });
  const mtimes = new Float64Array(u);
  for (let d = 0; d < u; d++) mtimes[d] = modifiedAt(d) ?? NaN;
  const input = (items) => ({ query: QUERY, lists: strLists.map((ids, i) => ({ name: LIST_NAMES[i], ids })), items, now: NOW });
  return {
    n,
    nDocs: u,
    strLists,
    inputB: input(itemsB),
    inputC: input(itemsC),
    columnar: { docs, offsets, nDocs: u, modifiedAt: mtimes, now: NOW },
  };
}

/**
 * The package's call and the JS baseline's for one small-N workload (a: `rrf`, b: the
 * pipeline, c: with the reranker) on `inputs` (`makeInputs(n)`), as `make bench` makes
 * them: `{ wasm, js }` for bench/timing.mjs's `compare`.
 */
export function competitors(lib, baseline, workload, inputs) {
  if (workload === "a") return { wasm: () => lib.rrf(inputs.strLists, { limits: BENCH_LIMITS }), js: () => baseline.rrf(inputs.strLists) };
  const rerank = workload === "c";
  const pw = new lib.Pipeline(pipelineConfig(rerank));
  const pj = new baseline.Pipeline(pipelineConfig(rerank));
  const input = rerank ? inputs.inputC : inputs.inputB;
  return { wasm: () => pw.run(input), js: () => pj.run(input) };
}

/**
 * A run object `{ q<i>: { d<j>-<i>: score } }` of `queries` queries of `perQuery`
 * documents, scores descending (the lab's inputs of bench/limits.mjs and
 * bench/evaluate-split.mjs; JavaScript only, no native twin). `seed` picks which of
 * 4 x perQuery document ids each query holds.
 */
export function runObject(queries, perQuery, seed = 0) {
  const r = {};
  for (let q = 0; q < queries; q++) {
    const docs = {};
    for (let i = 0; i < perQuery; i++) docs[`d${(i * 7919 + seed * 104729) % (perQuery * 4)}-${q}`] = 1 - i / perQuery;
    r[`q${q}`] = docs;
  }
  return r;
}

/**
 * Judgements of `runObject(queries, perQuery, seed)`'s documents: whole-number grades (as
 * the lab requires), 2 for its first third, 1 for its second, 0 for the rest.
 */
export function qrelsObject(queries, perQuery, seed = 0) {
  const r = runObject(queries, perQuery, seed);
  for (const docs of Object.values(r)) for (const d of Object.keys(docs)) docs[d] = Math.min(2, Math.floor(3 * docs[d]));
  return r;
}

/**
 * The lists' ids interned with a `Map`, as js/wire/values.js `Interner` does from 41
 * entries on: the distinct ids in order of first appearance and each entry's index. What
 * bench/intern-alternatives.mjs and bench/experiments/large-intern/run.mjs measure the
 * other ways against, and how bench/run.mjs's caller of `rrfColumnar` interns.
 */
export function internByMap(lists) {
  const index = new Map();
  const ids = [];
  const docs = new Uint32Array(lists.reduce((s, l) => s + l.length, 0));
  let k = 0;
  for (const l of lists)
    for (let j = 0; j < l.length; j++) {
      const id = l[j];
      let d = index.get(id);
      if (d === undefined) {
        d = ids.length;
        index.set(id, d);
        ids.push(id);
      }
      docs[k++] = d;
    }
  return { ids, docs };
}

/** `fuseMultiQuery`'s input (bench/multiquery.mjs): `nq` queries of `n` hits, best first, sharing about half their ids, every third dated. */
export function makeQueries(nq, n) {
  return Array.from({ length: nq }, (_, q) =>
    Array.from({ length: n }, (_, i) => ({
      id: `msg-${(i * 7 + q * 13) % (2 * n)}`,
      score: 0.95 - (0.5 * i) / n,
      ...(i % 3 === 0 ? { timestamp: 1.7e12 + ((i * 31) % 1000) * 1e3 } : {}),
    })),
  );
}

/**
 * The reads `Pipeline.run`'s contract asks of any JavaScript side, in one pass (the floor
 * of bench/js-costs.mjs and bench/encode-input.mjs): the lists' ids interned in a `Map`
 * (each entry's index written), each distinct id's item looked up in `items` (an entry
 * whose key is in no list is not read, since the twenty-fifth session; before, every
 * item's key was listed and looked up in the `Map`) and its fields read and
 * type-checked, the strings' lengths summed (for the limits). No encoding, no tables but
 * the entries'.
 */
export function contractReads(lists, items) {
  const m = new Map();
  const ids = [];
  let total = 0;
  for (const l of lists) total += l.length;
  const d = new Uint32Array(total);
  let k = 0;
  let units = 0;
  for (const l of lists)
    for (let j = 0; j < l.length; j++) {
      const id = l[j];
      let i = m.get(id);
      if (i === undefined) {
        if (typeof id !== "string") throw new TypeError("id");
        i = m.size;
        m.set(id, i);
        ids.push(id);
        units += id.length;
      }
      d[k++] = i;
    }
  for (let i = 0; i < ids.length; i++) {
    const meta = items[ids[i]];
    if (meta === undefined) continue;
    for (const f in meta) {
      const v = meta[f];
      if (f === "modifiedAt") {
        if (typeof v !== "number" && typeof v !== "string") throw new TypeError(f);
      } else if (typeof v !== "string") throw new TypeError(f);
      else units += v.length;
    }
  }
  return units + d[0];
}
