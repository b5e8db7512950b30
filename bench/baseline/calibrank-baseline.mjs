// The benchmark's baseline: the calibrank pipeline written the way a competent
// TypeScript developer would write it in plain JavaScript (Map, arrays,
// Array.prototype.sort, Math.exp), with no attempt at micro-optimization.
//
// It does the same work as the package on the benchmark's inputs and ranks exactly as
// the package does (tests/js/baseline.test.mjs checks it): weighted RRF (ties by id
// ascending; duplicates inside a list keep their first rank), step or fiscal-year
// recency, the topK pool, the heuristic reranker (seed 003, with the same query-term
// extractor), normalization (none, max, min_max, softmax), sigmoid calibration,
// minRelevance / minConfidence filters, topN, bands and the query confidence.
// Not covered (the benchmark does not use them): explanations, z_score
// normalization (needs erf), fitted calibrations, cross-encoder scores, input
// validation beyond what the ranking needs, ISO 8601 timestamps other than what
// Date.parse accepts.

const DEFAULT_K = 60;
const MS_PER_DAY = 86400000;

export const STOPWORDS = new Set([
  "a", "about", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did",
  "do", "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my",
  "no", "not", "of", "on", "or", "our", "should", "so", "than", "that", "the", "their", "them", "then", "there",
  "these", "they", "this", "to", "us", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will",
  "with", "would", "you", "your",
]);

const TYPE_MULTIPLIERS = { class: 1.3, function: 1.2, method: 1.2, interface: 1.1, type: 1.1, document: 1.2, section: 1.1, file: 0.7, module: 0.8 };

/** Ids compare by UTF-16 code units; equal to calibrank's UTF-8 byte order for the benchmark's ASCII ids. */
const compareIds = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// ------------------------------------------------------------------ fusion

/**
 * Weighted RRF of lists of string ids.
 * @param {string[][]} lists
 * @param {{ k?: number, weights?: number[] }} [options]
 * @returns {Array<[string, number]>} highest score first, ties by id ascending
 */
export function rrf(lists, options = {}) {
  const k = options.k ?? DEFAULT_K;
  const scores = new Map();
  lists.forEach((ids, i) => {
    const weight = options.weights?.[i] ?? 1;
    const seen = new Set();
    ids.forEach((id, pos) => {
      if (seen.has(id)) return;
      seen.add(id);
      scores.set(id, (scores.get(id) ?? 0) + weight / (k + pos + 1));
    });
  });
  return [...scores.entries()].sort((a, b) => b[1] - a[1] || compareIds(a[0], b[0]));
}

/**
 * `rrf` tuned by hand (bench/tuned.mjs times it): one `Map` operation per entry, a
 * duplicate inside a list told by the list it was last met in (no `Set` per list),
 * plain `for` loops. The same output.
 */
export function rrfTuned(lists, options = {}) {
  const k = options.k ?? DEFAULT_K;
  const fused = new Map();
  for (let i = 0; i < lists.length; i++) {
    const ids = lists[i];
    const weight = options.weights?.[i] ?? 1;
    for (let pos = 0; pos < ids.length; pos++) {
      const id = ids[pos];
      const entry = fused.get(id);
      if (entry === undefined) fused.set(id, { id, score: 0 + weight / (k + pos + 1), last: i });
      else if (entry.last !== i) {
        entry.score += weight / (k + pos + 1);
        entry.last = i;
      }
    }
  }
  const out = [];
  for (const e of fused.values()) out.push([e.id, e.score]);
  return out.sort((a, b) => b[1] - a[1] || compareIds(a[0], b[0]));
}

/**
 * Weighted RRF of lists of document indices, `docs[offsets[i]..offsets[i+1]]` being list i.
 * @returns {{ order: Uint32Array, scores: Float64Array }} ties by index ascending
 */
export function rrfColumnar(docs, offsets, nDocs, options = {}) {
  const fused = fuseIndices(docs, offsets, nDocs, options.k ?? DEFAULT_K, options.weights);
  const entries = [...fused.entries()].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]);
  return { order: Uint32Array.from(entries, (e) => e[0]), scores: Float64Array.from(entries, (e) => e[1].score) };
}

function fuseIndices(docs, offsets, nDocs, k, weights) {
  const fused = new Map();
  for (let i = 0; i + 1 < offsets.length; i++) {
    const weight = weights?.[i] ?? 1;
    const seen = new Set();
    for (let p = offsets[i]; p < offsets[i + 1]; p++) {
      const doc = docs[p];
      if (doc >= nDocs) throw new RangeError(`document index ${doc} is not below nDocs = ${nDocs}`);
      if (seen.has(doc)) continue;
      seen.add(doc);
      const entry = fused.get(doc);
      const term = weight / (k + (p - offsets[i]) + 1);
      if (entry) {
        entry.score += term;
        entry.lists += 1;
      } else {
        fused.set(doc, { score: 0 + term, lists: 1 });
      }
    }
  }
  return fused;
}

// ------------------------------------------------------------------ stages

/** Query terms: camelCase split, split on non-alphanumerics, lowercase, no 1-char terms, no stopwords, unique. */
export function extractTerms(query, stopwords, split = splitCamel) {
  const isStop = stopwords ? (t) => stopwords.includes(t) : (t) => STOPWORDS.has(t);
  const terms = [];
  for (const word of query.split(/[^\p{Alphabetic}\p{N}]+/u)) {
    if (!word) continue;
    for (const part of split(word)) {
      const t = part.toLowerCase();
      if ([...t].length < 2 || isStop(t) || terms.includes(t)) continue;
      terms.push(t);
    }
  }
  return terms;
}

const isUpper = (c) => /\p{Uppercase}/u.test(c);
const isLower = (c) => /\p{Lowercase}/u.test(c);
const isNumeric = (c) => /\p{N}/u.test(c);

function splitCamel(word) {
  const chars = [...word];
  const parts = [];
  let current = "";
  chars.forEach((c, i) => {
    const prev = chars[i - 1];
    const next = chars[i + 1];
    let boundary = false;
    if (isUpper(c) && prev !== undefined) {
      if (isLower(prev) || isNumeric(prev)) boundary = true;
      else if (isUpper(prev)) boundary = next !== undefined && isLower(next);
    }
    if (boundary && current) {
      parts.push(current);
      current = "";
    }
    current += c;
  });
  if (current) parts.push(current);
  return parts;
}

function termFactor(text, terms, weight) {
  if (text === undefined || terms.length === 0) return 1;
  const lower = text.toLowerCase();
  const hits = terms.filter((t) => lower.includes(t)).length;
  return hits === 0 ? 1 : 1 + (hits / terms.length) * weight;
}

/** Seed 003's multiplicative factors for one candidate. */
export function heuristicFactors(query, meta, cfg) {
  const exactName = query.lower !== "" && (meta.name ?? "").toLowerCase() === query.lower ? cfg.exactNameMultiplier : 1;
  const nameTerms = termFactor(meta.name ?? "", query.terms, cfg.nameTermWeight);
  const summaryTerms = termFactor(meta.summary, query.terms, cfg.summaryTermWeight);
  const content = meta.content;
  const shortContent = content && [...content].length < cfg.shortContentChars ? cfg.shortContentMultiplier : 1;
  const entityType = (meta.type !== undefined ? cfg.typeMultipliers[meta.type.toLowerCase()] : undefined) ?? cfg.unknownTypeMultiplier;
  const multiplier = exactName * nameTerms * summaryTerms * shortContent * entityType;
  return { exactName, nameTerms, summaryTerms, shortContent, entityType, multiplier };
}

export function normalize(scores, method, temperature = 1) {
  if (scores.length === 0 || method === "none") return scores.slice();
  switch (method) {
    case "max": {
      const max = scores.reduce((m, s) => Math.max(m, s), 0.001);
      return scores.map((s) => s / max);
    }
    case "min_max": {
      let min = Infinity;
      let max = -Infinity;
      for (const s of scores) {
        min = Math.min(min, s);
        max = Math.max(max, s);
      }
      const range = max - min;
      return scores.map((s) => (range > 0 ? (s - min) / range : 1));
    }
    case "softmax": {
      const max = scores.reduce((m, s) => Math.max(m, s), -Infinity);
      const exps = scores.map((s) => Math.exp((s - max) / temperature));
      const sum = exps.reduce((a, b) => a + b, 0);
      return exps.map((e) => e / sum);
    }
    default:
      throw new Error(`the baseline does not implement normalization ${method}`);
  }
}

export function logistic(x) {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

const bandOf = (score, floors) => (score >= floors.highFloor ? "hit" : score >= floors.degradedFloor ? "degraded" : "miss");

function selectFloors(bands, context = {}) {
  let best;
  let bestSpecificity = -1;
  for (const p of bands.profiles) {
    let specificity = 0;
    let matches = true;
    for (const f of ["taskClass", "language", "buildSystem"]) {
      if (p[f] === undefined) continue;
      if (p[f] === context[f]) specificity++;
      else matches = false;
    }
    if (matches && specificity > bestSpecificity) {
      best = p;
      bestSpecificity = specificity;
    }
  }
  return best ? { floors: best, profile: best.name } : { floors: bands, profile: undefined };
}

export function queryConfidence(sorted, opts) {
  const weightedTop5 = opts.weights.reduce((sum, w, i) => (i < sorted.length ? sum + w * sorted[i] : sum), 0);
  const k = opts.k === undefined ? sorted.length : Math.min(opts.k, sorted.length);
  const top = sorted.slice(0, k);
  const expectedPrecision = top.length === 0 ? 0 : top.reduce((a, b) => a + b, 0) / top.length;
  const atLeastOneRelevant = 1 - top.reduce((p, s) => p * (1 - s), 1);
  return { weightedTop5, expectedPrecision, atLeastOneRelevant, k };
}

function toMillis(t) {
  return typeof t === "number" ? t : Date.parse(t);
}

// ------------------------------------------------------------------ pipeline

const DEFAULTS = {
  k: DEFAULT_K,
  weights: {},
  topK: 10,
  topN: 5,
  recency: { mode: "step", steps: [{ maxAgeDays: 7, multiplier: 1.2 }, { maxAgeDays: 30, multiplier: 1.1 }], fiscalYear: { window: 5, latestYear: 2025 }, boost: 0.8 },
  rerank: {
    method: "none",
    heuristic: { exactNameMultiplier: 3, nameTermWeight: 1.5, summaryTermWeight: 0.5, shortContentChars: 50, shortContentMultiplier: 0.5, typeMultipliers: TYPE_MULTIPLIERS, unknownTypeMultiplier: 1 },
    candidateLimit: undefined,
    recencyBoost: 0.8,
  },
  normalization: { method: "none", temperature: 1, minRelevance: 0.1 },
  calibration: { method: "sigmoid", threshold: 0.035, steepness: 150 },
  minConfidence: 0.3,
  bands: { highFloor: 0.85, degradedFloor: 0.65, profiles: [] },
  confidence: { weights: [0.35, 0.25, 0.2, 0.12, 0.08], k: undefined },
  explain: false,
};

function withDefaults(config = {}) {
  const merged = { ...DEFAULTS, ...config };
  for (const key of ["recency", "rerank", "normalization", "calibration", "bands", "confidence"]) merged[key] = { ...DEFAULTS[key], ...config[key] };
  merged.recency.fiscalYear = { ...DEFAULTS.recency.fiscalYear, ...config.recency?.fiscalYear };
  merged.rerank.heuristic = { ...DEFAULTS.rerank.heuristic, ...config.rerank?.heuristic };
  if (merged.calibration.method !== "sigmoid") throw new Error("the baseline implements the sigmoid calibration only");
  if (merged.explain) throw new Error("the baseline does not produce explanations");
  return merged;
}

function fiscalTier(fy, tier) {
  const delta = Math.max(tier.latestYear - fy, 0);
  return delta < tier.window ? (tier.window - delta) / tier.window : 0;
}

export class Pipeline {
  constructor(config) {
    this.config = withDefaults(config);
  }

  recencyMultiplier(meta, now) {
    const rc = this.config.recency;
    if (rc.mode === "step" && meta?.modifiedAt !== undefined && now !== undefined) {
      const age = Math.max((now - toMillis(meta.modifiedAt)) / MS_PER_DAY, 0);
      return rc.steps.find((s) => age < s.maxAgeDays)?.multiplier ?? 1;
    }
    if (rc.mode === "fiscal_year" && meta?.fiscalYear !== undefined) return 1 + rc.boost * fiscalTier(meta.fiscalYear, rc.fiscalYear);
    return 1;
  }

  /** Weighted RRF of the input's lists: `{ id, fused, lists }` by id, and each list's duplicates. */
  fuse(lists) {
    const cfg = this.config;
    const fused = new Map();
    const duplicates = [];
    lists.forEach((list, i) => {
      const weight = list.weight ?? cfg.weights[list.name] ?? 1;
      const seen = new Set();
      let dups = 0;
      list.ids.forEach((id, pos) => {
        if (seen.has(id)) {
          dups++;
          return;
        }
        seen.add(id);
        const term = weight / (cfg.k + pos + 1);
        const entry = fused.get(id);
        if (entry) {
          entry.fused += term;
          entry.lists++;
        } else {
          fused.set(id, { id, fused: 0 + term, lists: 1 });
        }
      });
      duplicates.push(dups);
    });
    return { fused, duplicates };
  }

  /** The query's terms for the heuristic reranker. */
  terms(query, stopwords) {
    return extractTerms(query, stopwords);
  }

  /** The string/object API: `{ query, lists: [{ name, ids, weight? }], items?, now?, context? }`. */
  run(input) {
    const cfg = this.config;
    const items = input.items ?? {};
    const now = input.now === undefined ? undefined : toMillis(input.now);

    // 1. Fuse.
    const { fused, duplicates } = this.fuse(input.lists);
    const stats = {
      lists: input.lists.length,
      candidates: fused.size,
      inSeveralLists: 0,
      duplicates,
      beyondTopK: 0,
      beyondCandidateLimit: 0,
      belowMinRelevance: 0,
      belowMinConfidence: 0,
      beyondTopN: 0,
      returned: 0,
      hits: 0,
      degraded: 0,
      misses: 0,
    };

    // 2. Recency, 3. the topK pool.
    const all = [];
    for (const entry of fused.values()) {
      if (entry.lists > 1) stats.inSeveralLists++;
      const multiplier = this.recencyMultiplier(items[entry.id], now);
      all.push({ id: entry.id, score: entry.fused * multiplier });
    }
    all.sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
    stats.beyondTopK = Math.max(all.length - cfg.topK, 0);
    let pool = all.slice(0, cfg.topK);

    // 4. Rerank.
    const rc = cfg.rerank;
    if (rc.method !== "none") {
      if (rc.candidateLimit !== undefined) {
        stats.beyondCandidateLimit = Math.max(pool.length - rc.candidateLimit, 0);
        pool = pool.slice(0, rc.candidateLimit);
      }
      if (rc.method !== "heuristic") throw new Error("the baseline implements the heuristic reranker only");
      const query = { lower: input.query.trim().toLowerCase(), terms: this.terms(input.query, rc.heuristic.stopwords) };
      for (const c of pool) c.score *= heuristicFactors(query, items[c.id] ?? {}, rc.heuristic).multiplier;
      for (const c of pool) {
        const fy = items[c.id]?.fiscalYear;
        if (fy !== undefined) c.score *= 1 + rc.recencyBoost * fiscalTier(fy, cfg.recency.fiscalYear);
      }
    }

    // 5. Normalize, minRelevance; 6. calibrate, minConfidence.
    const nm = cfg.normalization;
    const normalized = normalize(pool.map((c) => c.score), nm.method, nm.temperature);
    let results = pool.map((c, i) => ({ id: c.id, normalized: normalized[i], reranked: c.score }));
    if (nm.method !== "none") {
      const before = results.length;
      results = results.filter((r) => r.normalized >= nm.minRelevance);
      stats.belowMinRelevance = before - results.length;
    }
    const { threshold, steepness } = cfg.calibration;
    for (const r of results) r.score = logistic(steepness * (r.normalized - threshold));
    const before = results.length;
    results = results.filter((r) => r.score >= cfg.minConfidence);
    stats.belowMinConfidence = before - results.length;

    // 7. Final order, topN; 8. bands and confidence.
    // Ties: the score after reranking (which normalization keeps in order), then id.
    results.sort((a, b) => b.score - a.score || b.reranked - a.reranked || compareIds(a.id, b.id));
    stats.beyondTopN = Math.max(results.length - cfg.topN, 0);
    results = results.slice(0, cfg.topN);
    const { floors, profile } = selectFloors(cfg.bands, input.context);
    const out = results.map((r) => {
      const band = bandOf(r.score, floors);
      if (band === "hit") stats.hits++;
      else if (band === "degraded") stats.degraded++;
      else stats.misses++;
      return { id: r.id, score: r.score, band };
    });
    stats.returned = out.length;
    if (profile !== undefined) stats.bandProfile = profile;
    const confidence = queryConfidence(out.map((r) => r.score), cfg.confidence);
    return { results: out, confidence, stats };
  }

  /** The columnar API: `{ docs, offsets, nDocs, weights?, modifiedAt?, now? }`; ties by index ascending. */
  runColumnar(input) {
    const cfg = this.config;
    if (cfg.rerank.method !== "none") throw new Error("reranking needs text: use run()");
    const fused = fuseIndices(input.docs, input.offsets, input.nDocs, cfg.k, input.weights);
    const all = [];
    for (const [doc, entry] of fused) {
      let score = entry.score;
      const m = input.modifiedAt?.[doc];
      if (cfg.recency.mode === "step" && m !== undefined && Number.isFinite(m)) {
        const age = Math.max((input.now - m) / MS_PER_DAY, 0);
        score *= cfg.recency.steps.find((s) => age < s.maxAgeDays)?.multiplier ?? 1;
      }
      all.push({ doc, score });
    }
    all.sort((a, b) => b.score - a.score || a.doc - b.doc);
    const pool = all.slice(0, cfg.topK);
    const nm = cfg.normalization;
    const normalized = normalize(pool.map((c) => c.score), nm.method, nm.temperature);
    const { threshold, steepness } = cfg.calibration;
    const kept = pool
      .map((c, i) => ({ doc: c.doc, normalized: normalized[i], raw: c.score }))
      .filter((r) => nm.method === "none" || r.normalized >= nm.minRelevance)
      .map((r) => ({ ...r, score: logistic(steepness * (r.normalized - threshold)) }))
      .filter((r) => r.score >= cfg.minConfidence)
      .sort((a, b) => b.score - a.score || b.raw - a.raw || a.doc - b.doc)
      .slice(0, cfg.topN);
    const { floors } = selectFloors(cfg.bands);
    const scores = kept.map((r) => r.score);
    return {
      order: Uint32Array.from(kept, (r) => r.doc),
      scores: Float64Array.from(scores),
      bands: Uint8Array.from(scores, (s) => ({ miss: 0, degraded: 1, hit: 2 })[bandOf(s, floors)]),
      confidence: queryConfidence(scores, cfg.confidence),
      candidates: fused.size,
    };
  }
}

/**
 * The pipeline tuned by hand (bench/tuned.mjs times it against the package and the
 * idiomatic `Pipeline`): the fusion as `rrfTuned` does it (one `Map` operation per
 * entry, no `Set` per list, `for` loops), and the query's camelCase parts split by one
 * regular expression instead of three tests a character. The same output
 * (tests/js/baseline.test.mjs).
 */
export class TunedPipeline extends Pipeline {
  fuse(lists) {
    const cfg = this.config;
    const fused = new Map();
    const duplicates = [];
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i];
      const weight = list.weight ?? cfg.weights[list.name] ?? 1;
      const ids = list.ids;
      let dups = 0;
      for (let pos = 0; pos < ids.length; pos++) {
        const id = ids[pos];
        const entry = fused.get(id);
        if (entry === undefined) fused.set(id, { id, fused: 0 + weight / (cfg.k + pos + 1), lists: 1, last: i });
        else if (entry.last === i) dups++;
        else {
          entry.fused += weight / (cfg.k + pos + 1);
          entry.lists++;
          entry.last = i;
        }
      }
      duplicates.push(dups);
    }
    return { fused, duplicates };
  }

  terms(query, stopwords) {
    return extractTerms(query, stopwords, splitCamelOnce);
  }
}

/** A camelCase boundary: before an uppercase letter after a lowercase one or a digit, or before the last of a run of uppercase letters followed by a lowercase one (splitCamel's rule). */
const CAMEL = /(?<=[\p{Lowercase}\p{N}])(?=\p{Uppercase})|(?<=\p{Uppercase})(?=\p{Uppercase}\p{Lowercase})/u;
/** `splitCamel` by one regular expression. */
const splitCamelOnce = (word) => word.split(CAMEL);
