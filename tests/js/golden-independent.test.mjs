// An independent check of the golden vectors (tests/golden/vectors.json).
//
// tests/golden.rs and tests/js/suite/golden.js compare the file with the library's own
// computation: a formula bug would be written into the file and then "reproduced"
// everywhere. This test does not load the package. It recomputes every case of the core
// kinds from the design documents' formulas (../shared/seeds/, written out below in
// plain JavaScript, with the details the seeds leave open taken from the README, each
// marked "calibrank:" where it is the library's choice rather than a seed's) and
// compares with the file's bit patterns within a tolerance in ulps stated and justified
// per kind:
//
// - arithmetic only (normalize max / min_max, rrf, multiquery, rerank, confidence,
//   bands, pipeline confidence from the file's own scores): bit for bit (0 ulps). Same
//   operations in the same order give the same IEEE-754 results in any runtime.
// - exp (calibrate, the pipeline's sigmoid): <= 2 ulps. Math.exp (V8) and the libm
//   crate's exp are each within 1 ulp of the true value, so they differ by at most 1 ulp;
//   1 + e and 1 / (1 + e) then shrink a relative error (e / (1 + e) < 1), and each may
//   round to the neighbouring double: at most 2 ulps in all.
// - softmax: <= 4 ulps. Each term exp((s - max) / T) may differ by 1 ulp, the sum of
//   positive terms keeps that relative error (plus at most a rounding flip or two in
//   the running sum) and the quotient adds one more rounding.
// - z_score, Phi(z) = 0.5 * (1 + erf(z / sqrt 2)): erf is computed here to 320 bits
//   (Taylor series in BigInt fixed point, pi by Machin's formula) and rounded once, so
//   this side's erf is correctly rounded; libm's is within 1 ulp of it. One ulp of erf
//   is at most 2^-53 absolute (|erf| < 1), and 1 + erf then rounds on a grid of 2^-52,
//   halved: the difference is at most 2^-53 absolute, whatever Phi's own size (a
//   small Phi, 0.05, has ulps of 2^-57, so a bound in Phi's ulps would be 16 and
//   meaningless). The tolerance is |diff| <= 2^-53. (On 2026-12-02, 3 of the 30 z_score
//   values were 2^-53 apart: there libm's erf is 0.54 to 0.65 ulp from the true value.)
//
// Details of the formulas that no golden case exercises, so that this test would not see
// them change (each tried as a mutation of the code below): max normalization's 0.001
// floor, min-max's all-equal -> 1, the exact-name factor x3, multi-query's best-rank tie
// step and whether its ranks and resultsPerQuery cut come before or after the similarity
// threshold (the hits are sorted, so the threshold only drops a tail), minRelevance, and
// the pipeline's tie on the reranked score after an equal calibrated one.
//
// What cannot reasonably be recomputed here is listed in SKIPPED with the reason, and a
// test asserts that every case of the file is either checked or listed there: a new
// kind fails this test until it is recomputed or listed.
//
// CALIBRANK_GOLDEN_FILE=path points the test at another file (a mutated copy, to see
// the test fail).

import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const FILE = process.env.CALIBRANK_GOLDEN_FILE ?? fileURLToPath(new URL("../golden/vectors.json", import.meta.url));
const golden = JSON.parse(readFileSync(FILE, "utf8"));

/** Kinds not recomputed here, and why. */
const SKIPPED = {
  fuseRuns:
    "the lab's run fusion (ranx's 20-odd methods and normalizations): checked against ranx 0.3.21 itself in tests/runfusion_ranx.rs (tests/data/ranx_fusion_reference.json)",
  evaluate:
    "the lab's IR metrics (ndcg, map, mrr, ...): checked against ranx 0.3.21 in tests/eval_ranx.rs (tests/data/ranx_metrics_reference.json)",
  fit: "a fitted Platt model (Newton iterations) and isotonic regression: checked against scikit-learn in tests/fit_sklearn.rs (tests/data/sklearn_reference.json)",
  queryConfidence:
    "a fitted logistic model (fitQueryConfidence, a regularised Newton fit) and its predictions: no seed defines it; tests/query_confidence_fit.rs checks the fit's optimum",
};

// ---------------------------------------------------------------------------------
// Bits and ulps

const view = new DataView(new ArrayBuffer(8));
function fromHex(h) {
  assert.match(h, /^[0-9a-f]{16}$/, "a float in `expected` is 16 lowercase hex digits");
  view.setBigUint64(0, BigInt(`0x${h}`));
  return view.getFloat64(0);
}
function toHex(x) {
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, "0");
}
/** A key whose integer order is the doubles' total order (-0 just below +0). */
function orderKey(x) {
  view.setFloat64(0, x);
  const b = view.getBigUint64(0);
  return b >> 63n ? ~b & 0xffffffffffffffffn : b | (1n << 63n);
}
/** The number of doubles between a and b (+0 and -0 are 1 apart). */
function ulpsBetween(a, b) {
  const d = orderKey(a) - orderKey(b);
  return Number(d < 0n ? -d : d);
}

/** The largest difference seen per tolerance class, reported at the end. */
const seen = new Map();
function note(label, ulps, abs) {
  const s = seen.get(label) ?? { values: 0, maxUlps: 0, maxAbs: 0, inexact: 0 };
  s.values += 1;
  s.maxUlps = Math.max(s.maxUlps, ulps);
  s.maxAbs = Math.max(s.maxAbs, abs);
  if (ulps > 0) s.inexact += 1;
  seen.set(label, s);
}

/**
 * Asserts that `actual` (recomputed here) is within `tol` of the file's `hex`: `tol.ulps`
 * ulps, or `tol.abs` absolute. `{ ulps: 0 }` is bit for bit, the sign of zero included.
 */
function close(actual, hex, tol, label, where) {
  const expected = fromHex(hex);
  assert.ok(Number.isFinite(actual), `${where}: recomputed ${actual}`);
  const ulps = ulpsBetween(actual, expected);
  const abs = Math.abs(actual - expected);
  note(label, ulps, abs);
  const ok = (tol.ulps !== undefined && ulps <= tol.ulps) || (tol.abs !== undefined && abs <= tol.abs);
  assert.ok(
    ok,
    `${where}: recomputed from the formulas ${actual} (${toHex(actual)}), the file has ${expected} (${hex}): ` +
      `${ulps} ulps apart, |diff| ${abs.toExponential(3)}; tolerance ${JSON.stringify(tol)}`,
  );
}

const EXACT = { ulps: 0 };
const EXP = { ulps: 2 };
const SOFTMAX = { ulps: 4 };
const ERF = { abs: 2 ** -53 };

/** Ids in UTF-8 byte order (calibrank: "ties: id ascending by UTF-8 bytes"). */
function byId(a, b) {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
/** Descending by value, -0 below +0 (a total order, as the library sorts). */
function descTotal(a, b) {
  if (a > b) return -1;
  if (a < b) return 1;
  return Object.is(a, b) ? 0 : Object.is(a, -0) ? 1 : -1;
}

// ---------------------------------------------------------------------------------
// erf to 320 bits, independently of any libm

const P = 320n;
const ONE = 1n << P;
/** atan(1 / n) in fixed point. */
function atanInv(n) {
  const N = BigInt(n);
  const N2 = N * N;
  let power = ONE / N;
  let sum = power;
  for (let k = 1n, sign = -1n; power !== 0n; k++, sign = -sign) {
    power /= N2;
    sum += (sign * power) / (2n * k + 1n);
  }
  return sum;
}
function isqrt(v) {
  let x = 1n << BigInt(Math.ceil(v.toString(2).length / 2) + 1);
  for (;;) {
    const y = (x + v / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
const PI = 16n * atanInv(5) - 4n * atanInv(239); // Machin
const TWO_OVER_SQRT_PI = (2n * ONE * ONE) / isqrt(PI * ONE);
/** A double (finite) as an exact fixed-point value (truncated below 2^-320). */
function toFixed(x) {
  view.setFloat64(0, x);
  const b = view.getBigUint64(0);
  const e = Number((b >> 52n) & 0x7ffn);
  let m = b & ((1n << 52n) - 1n);
  let exp = -1074;
  if (e !== 0) {
    m |= 1n << 52n;
    exp = e - 1075;
  }
  const shift = BigInt(exp) + P;
  const v = shift >= 0n ? m << shift : m >> -shift;
  return b >> 63n ? -v : v;
}
/** erf(x) correctly rounded (up to a 2^-300 error before the one rounding). */
function erf(x) {
  if (Math.abs(x) > 6) return Math.sign(x); // erfc(6) = 2.2e-17 < half an ulp of 1
  const X = toFixed(x);
  const X2 = (X * X) >> P;
  let term = X; // x^(2n+1) / n! with its sign
  let sum = X;
  for (let n = 1n; ; n++) {
    term = -((term * X2) >> P) / n;
    if (term === 0n) break;
    sum += term / (2n * n + 1n);
  }
  return Number((sum * TWO_OVER_SQRT_PI) >> P) / 2 ** 320;
}
/** The standard normal CDF, Phi(z) = (1 + erf(z / sqrt 2)) / 2. */
function normalCdf(z) {
  return 0.5 * (1 + erf(z / Math.SQRT2));
}

// ---------------------------------------------------------------------------------
// The seeds' formulas

/** Seed 000, 3.1.1: calibrated = 1 / (1 + exp(-steepness * (raw - threshold))); defaults 0.035, 150. */
function sigmoid(raw, threshold = 0.035, steepness = 150) {
  return 1 / (1 + Math.exp(-steepness * (raw - threshold)));
}

/**
 * Normalization of a result set. Seed 003 step 2: max, s / max(max(scores), 0.001).
 * Seed 000's rejected alternatives, which calibrank offers: min-max (score - min) /
 * (max - min) (calibrank: all equal -> 1.0); z-score (score - mean) / sd, which the seed
 * says must be brought into [0, 1] (calibrank: Phi(z), the population sd, sd 0 -> 0.5);
 * softmax exp(score) / sum(exp(scores)) with a temperature the seed names as its cost
 * (calibrank: exp((s - max) / T) / sum, shifted by the max so that it cannot overflow).
 */
function normalize(scores, method, temperature = 1) {
  switch (method) {
    case "none":
      return scores.slice();
    case "max": {
      let max = 0.001; // seed 003: Math.max(...scores, 0.001)
      for (const s of scores) if (s > max) max = s;
      return scores.map((s) => s / max);
    }
    case "min_max": {
      const min = Math.min(...scores); // Math.min(-0, 0) is -0
      const max = Math.max(...scores);
      const range = max - min;
      assert.ok(Number.isFinite(range), "min_max: a range that overflows is not recomputed here");
      return scores.map((s) => (range > 0 ? (s - min) / range : 1));
    }
    case "z_score": {
      const n = scores.length;
      if (scores.every((s) => s === scores[0])) return scores.map(() => 0.5);
      let total = 0;
      for (const s of scores) total += s;
      const mean = total / n;
      let sq = 0;
      for (const s of scores) sq += (s - mean) * (s - mean);
      const sd = Math.sqrt(sq / n);
      assert.ok(Number.isFinite(mean) && Number.isFinite(sd) && sd > 0, "z_score: a rescaled mean or sd is not recomputed here");
      return scores.map((s) => normalCdf((s - mean) / sd));
    }
    case "softmax": {
      const max = Math.max(...scores);
      const terms = scores.map((s) => Math.exp((s - max) / temperature));
      let sum = 0;
      for (const t of terms) sum += t;
      return terms.map((t) => t / sum);
    }
    default:
      throw new Error(`normalization ${method} is not recomputed here`);
  }
}
/** The tolerance of a normalization method. */
const NORMALIZE_TOLERANCE = { none: EXACT, max: EXACT, min_max: EXACT, z_score: ERF, softmax: SOFTMAX };

/**
 * Weighted RRF (seed 000, 2.1; seed 004): score = sum_i weight_i / (k + rank_i), ranks
 * 1-based, lists in order (seed 000 writes weight * (1 / (k + rank)): the same number,
 * rounded once here as in the library). calibrank: a repeated id in a list keeps its first
 * rank, its repeat still taking up a position; ties by id.
 */
function rrfScores(lists, weights, k = 60) {
  const scores = new Map();
  lists.forEach((ids, li) => {
    const w = weights[li] ?? 1;
    const inList = new Set();
    ids.forEach((id, pos) => {
      if (inList.has(id)) return;
      inList.add(id);
      scores.set(id, (scores.get(id) ?? 0) + w / (k + pos + 1));
    });
  });
  return scores;
}
function rrf(lists, weights, k) {
  return [...rrfScores(lists, weights, k)].sort((a, b) => descTotal(a[1], b[1]) || byId(a[0], b[0]));
}

/**
 * Multi-query fusion (seed 001). Per query: its first resultsPerQuery hits (20), those
 * with score >= similarityThreshold (0.6) kept and ranked 1, 2, ...; rrf: sum 1 / (k +
 * rank); score_sum: sum of the scores; score_max: max * (1 + boost * (queries - 1)),
 * boost 0.1; sorted by score descending, ties by timestamp (newest first) then id.
 * calibrank: a repeated id within a query keeps its first hit; between the timestamp and
 * the id, the best rank the item had in any query (README, "Multi-query fusion").
 */
function multiQuery(queries, options) {
  const o = { method: "rrf", resultsPerQuery: 20, similarityThreshold: 0.6, multiQueryBoost: 0.1, limit: 10, k: 60, ...options };
  for (const key of Object.keys(options)) assert.ok(key in o && key !== "verbose", `multiquery option ${key} is not recomputed here`);
  const items = new Map(); // id -> { hits: [{ score, rank }], bestRank }
  queries.forEach((hits) => {
    const kept = hits.slice(0, o.resultsPerQuery).filter((h) => h.score >= o.similarityThreshold);
    const inQuery = new Set();
    kept.forEach((h, i) => {
      assert.ok(h.timestamp === undefined || typeof h.timestamp === "number", "multiquery: ISO timestamps are not recomputed here");
      if (inQuery.has(h.id)) return;
      inQuery.add(h.id);
      const item = items.get(h.id) ?? { hits: [], bestRank: Infinity, newest: undefined };
      item.hits.push({ score: h.score, rank: i + 1 });
      item.bestRank = Math.min(item.bestRank, i + 1);
      // Found with several timestamps: the newest.
      if (h.timestamp !== undefined && (item.newest === undefined || h.timestamp > item.newest)) item.newest = h.timestamp;
      items.set(h.id, item);
    });
  });
  const fused = [...items].map(([id, it]) => {
    let score;
    if (o.method === "rrf") {
      score = 0;
      for (const h of it.hits) score += 1 / (o.k + h.rank);
    } else if (o.method === "score_sum") {
      score = 0;
      for (const h of it.hits) score += h.score;
    } else if (o.method === "score_max") {
      const max = Math.max(...it.hits.map((h) => h.score));
      score = max * (1 + o.multiQueryBoost * (it.hits.length - 1));
    } else throw new Error(`multiquery method ${o.method} is not recomputed here`);
    return { id, score, bestRank: it.bestRank, newest: it.newest };
  });
  // Ties: the newest timestamp first (an item without one after every item with one),
  // then the best rank, then the id.
  const byTime = (a, b) => (a.newest === b.newest ? 0 : a.newest === undefined ? 1 : b.newest === undefined ? -1 : b.newest - a.newest);
  fused.sort((a, b) => b.score - a.score || byTime(a, b) || a.bestRank - b.bestRank || byId(a.id, b.id));
  return fused.slice(0, o.limit);
}

/** calibrank's built-in stopwords (the seed leaves its query terms undefined). */
const STOPWORDS = new Set(
  ("a about all also an and any are as at be been but by can could did do does for from had has have how i if in into " +
    "is it its me my no not of on or our should so than that the their them then there these they this to us was we " +
    "were what when where which who why will with would you your").split(" "),
);
/**
 * Query terms (calibrank, README "The design documents' own final scores"): camelCase
 * words split (GraphTraversal -> graph, traversal; HTTPServer -> http, server), any other
 * non-alphanumeric character a separator, lowercased, one-character terms and stopwords
 * dropped, each term once.
 */
function extractTerms(query) {
  const terms = [];
  for (const word of query.split(/[^A-Za-z0-9]+/).filter(Boolean)) {
    const parts = word.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z])([A-Z][a-z])/g, "$1 $2").split(" ");
    for (const p of parts) {
      const t = p.toLowerCase();
      if (t.length > 1 && !STOPWORDS.has(t) && !terms.includes(t)) terms.push(t);
    }
  }
  return terms;
}
/** Seed 003, step 1: the heuristic reranker's multiplier, factor by factor in its order. */
const TYPE_MULTIPLIERS = new Map(
  Object.entries({ class: 1.3, function: 1.2, method: 1.2, interface: 1.1, type: 1.1, document: 1.2, section: 1.1, file: 0.7, module: 0.8 }),
);
function heuristicMultiplier(query, c) {
  assert.ok(/^[\x20-\x7e]*$/.test(query + c.name + (c.summary ?? "") + (c.type ?? "")), "rerank: non-ASCII text is not recomputed here");
  const terms = extractTerms(query);
  const queryLower = query.trim().toLowerCase(); // calibrank: the trimmed query
  let multiplier = 1.0;
  const nameLower = c.name.toLowerCase();
  if (nameLower === queryLower) multiplier *= 3.0;
  const nameHits = terms.filter((t) => nameLower.includes(t)).length;
  if (terms.length > 0 && nameHits > 0) multiplier *= 1.0 + (nameHits / terms.length) * 1.5;
  if (c.summary) {
    const summaryLower = c.summary.toLowerCase();
    const termHits = terms.filter((t) => summaryLower.includes(t)).length;
    if (terms.length > 0 && termHits > 0) multiplier *= 1.0 + (termHits / terms.length) * 0.5;
  }
  if (c.content && c.content.length < 50) multiplier *= 0.5;
  // calibrank: the type lowercased (the seed's lookup was case-sensitive)
  multiplier *= (c.type !== undefined && TYPE_MULTIPLIERS.get(c.type.toLowerCase())) || 1.0;
  return multiplier;
}

/**
 * The query confidence of scores sorted best first. Seed 003: "weighted top-5", with
 * calibrank's weights (0.35, 0.25, 0.2, 0.12, 0.08; README, "The pipeline"), held to at
 * most 1. No seed defines the other two (calibrank's): expected precision, the mean of
 * the scores, and P(at least one relevant), 1 - prod(1 - p).
 */
const CONFIDENCE_WEIGHTS = [0.35, 0.25, 0.2, 0.12, 0.08];
function queryConfidence(sorted) {
  let weighted = 0;
  sorted.slice(0, 5).forEach((s, i) => (weighted += CONFIDENCE_WEIGHTS[i] * s));
  let total = 0;
  for (const s of sorted) total += s;
  let none = 1;
  for (const s of sorted) none *= 1 - s;
  return [Math.min(weighted, 1), sorted.length ? total / sorted.length : 0, 1 - none];
}

/** Seed 002: hit >= highFloor (0.85), degraded >= degradedFloor (0.65), else miss. */
function band(score, highFloor = 0.85, degradedFloor = 0.65) {
  return score >= highFloor ? "hit" : score >= degradedFloor ? "degraded" : "miss";
}

/** Seed 000, 2.1: x1.2 under 7 days, x1.1 under 30 (calibrank: a future date is age 0). */
function stepMultiplier(modifiedAt, now) {
  const age = Math.max((now - modifiedAt) / 86_400_000, 0);
  return age < 7 ? 1.2 : age < 30 ? 1.1 : 1.0;
}
/**
 * Seed 004: tier = (window - (latest - fy)) / window inside the window (5 years, latest
 * 2025), multiplier 1 + boost * tier (boost 0.80); outside it no boost. calibrank: a year
 * after the latest counts as the latest (tier 1; README, "recency.mode").
 */
function fiscalYearMultiplier(fy, boost = 0.8, window = 5, latest = 2025) {
  const delta = Math.max(latest - fy, 0);
  return delta < window ? 1 + boost * ((window - delta) / window) : 1.0;
}

function knownKeys(obj, keys, what) {
  for (const key of Object.keys(obj ?? {})) assert.ok(keys.includes(key), `${what}.${key} is not recomputed here: extend this test`);
}

/**
 * The pipeline (README, "The pipeline"): fuse (weighted RRF) -> recency -> topK pool
 * (seed 000's fused[:top_k], by boosted score, ties by id) -> rerank (seed 004's
 * cross-encoder: min-max per query over the pool, all equal -> 1.0, then x the fiscal-year
 * tier again) -> normalize -> minRelevance (0.1, with a method) -> calibrate (seed 000's
 * sigmoid) -> minConfidence (0.3) -> sort (calibrated, then the reranked score, then id)
 * -> topN (5) -> bands -> query confidence.
 */
function pipeline(config, input) {
  knownKeys(config, ["k", "topK", "topN", "minConfidence", "weights", "normalization", "calibration", "bands", "recency", "rerank"], "config");
  knownKeys(input, ["query", "lists", "items", "now"], "input");
  knownKeys(config.recency, ["mode"], "config.recency");
  knownKeys(config.rerank, ["method", "candidateLimit", "crossEncoderNormalization"], "config.rerank");
  knownKeys(config.normalization, ["method", "temperature", "minRelevance"], "config.normalization");
  knownKeys(config.calibration, ["method", "threshold", "steepness"], "config.calibration");
  knownKeys(config.bands, ["highFloor", "degradedFloor"], "config.bands");
  const k = config.k ?? 60;
  const topK = config.topK ?? 10;
  const topN = config.topN ?? 5;
  const minConfidence = config.minConfidence ?? 0.3;
  const items = input.items ?? {};
  const item = (id) => (Object.hasOwn(items, id) ? items[id] : undefined);
  for (const l of input.lists) knownKeys(l, ["name", "ids"], "input.lists[]");
  for (const it of Object.values(items)) knownKeys(it, ["modifiedAt", "fiscalYear", "crossEncoderScore", "name", "type", "summary", "content"], "input.items[]");

  const weights = input.lists.map((l) => config.weights?.[l.name] ?? 1);
  const fused = rrfScores(
    input.lists.map((l) => l.ids),
    weights,
    k,
  );

  const mode = config.recency?.mode ?? "step";
  const recency = (id) => {
    const it = item(id);
    if (mode === "step" && it?.modifiedAt !== undefined && input.now !== undefined) {
      assert.equal(typeof it.modifiedAt, "number", "ISO times are not recomputed here");
      return stepMultiplier(it.modifiedAt, input.now);
    }
    if (mode === "fiscal_year" && it?.fiscalYear !== undefined) return fiscalYearMultiplier(it.fiscalYear);
    assert.ok(["step", "fiscal_year", "none"].includes(mode), `recency ${mode}`);
    return 1.0;
  };
  let pool = [...fused].map(([id, s]) => ({ id, after: s * recency(id) }));
  pool.sort((a, b) => descTotal(a.after, b.after) || byId(a.id, b.id));
  pool = pool.slice(0, topK);

  const rerank = config.rerank?.method ?? "none";
  if (rerank !== "none") {
    assert.ok(rerank === "cross_encoder" || rerank === "heuristic", `rerank ${rerank} in a pipeline is not recomputed here`);
    if (config.rerank.candidateLimit !== undefined) pool = pool.slice(0, config.rerank.candidateLimit);
    // calibrank's `crossEncoderNormalization: "none"`: the model's scores as they are,
    // and no fiscal-year boost after them.
    const raw = rerank === "cross_encoder" && config.rerank.crossEncoderNormalization === "none";
    if (raw) pool.forEach((p) => (p.after = item(p.id).crossEncoderScore));
    else if (rerank === "cross_encoder") {
      assert.equal(config.rerank.crossEncoderNormalization ?? "min_max", "min_max");
      const ce = pool.map((p) => item(p.id).crossEncoderScore);
      const normalized = normalize(ce, "min_max"); // seed 004: (ce - min) / (max - min)
      pool.forEach((p, i) => (p.after = normalized[i]));
    } else {
      // Seed 003, step 1, on the pool's score after recency; an item's missing name is "".
      for (const p of pool) {
        const it = item(p.id) ?? {};
        p.after *= heuristicMultiplier(input.query ?? "", { ...it, name: it.name ?? "" });
      }
    }
    pool.forEach((p) => {
      const fy = item(p.id)?.fiscalYear;
      if (fy !== undefined && !raw) p.after *= fiscalYearMultiplier(fy); // seed 004: rerank_recency_boost 0.80, after either reranker
    });
  }

  const method = config.normalization?.method ?? "none";
  const normalized = pool.length ? normalize(pool.map((p) => p.after), method, config.normalization?.temperature ?? 1) : [];
  const minRelevance = config.normalization?.minRelevance ?? 0.1;
  const { threshold = 0.035, steepness = 150, method: cal = "sigmoid" } = config.calibration ?? {};
  assert.equal(cal, "sigmoid", "only the sigmoid calibration is recomputed here");
  let kept = [];
  pool.forEach((p, i) => {
    if (method !== "none" && normalized[i] < minRelevance) return;
    const c = sigmoid(normalized[i], threshold, steepness);
    if (c >= minConfidence) kept.push({ ...p, score: c });
  });
  kept.sort((a, b) => descTotal(a.score, b.score) || descTotal(a.after, b.after) || byId(a.id, b.id));
  kept = kept.slice(0, topN);
  const { highFloor = 0.85, degradedFloor = 0.65 } = config.bands ?? {};
  return {
    results: kept.map((r) => ({ id: r.id, score: r.score, band: band(r.score, highFloor, degradedFloor) })),
    // After a z_score (Phi through erf: n within 2^-53), the sigmoid's input x = steepness
    // * (n - threshold) moves by at most steepness * 2^-53 from n, plus a rounding of the
    // subtraction and one of the product, each within steepness * (1 + |threshold|) *
    // 2^-53: in all less than steepness * (1 + |threshold|) * 2^-51. The sigmoid's slope is
    // at most 1/4, and its own exp and quotient add 2 ulps (< 2^-52).
    tolerance: method === "none" ? EXP : { abs: 0.25 * steepness * (1 + Math.abs(threshold)) * 2 ** -51 + 2 ** -52 },
  };
}

// ---------------------------------------------------------------------------------
// Each core kind: recompute, compare

const CHECKS = {
  calibrate(c, where) {
    const out = c.scores.map((s) => sigmoid(s, c.threshold ?? 0.035, c.steepness ?? 150));
    assert.equal(c.expected.length, out.length, `${where}: length`);
    out.forEach((x, i) => close(x, c.expected[i], EXP, "calibrate (exp)", `${where}[${i}]`));
  },
  normalize(c, where) {
    const out = normalize(c.scores, c.method, c.temperature ?? 1);
    assert.equal(c.expected.length, out.length, `${where}: length`);
    out.forEach((x, i) => close(x, c.expected[i], NORMALIZE_TOLERANCE[c.method], `normalize ${c.method}`, `${where}[${i}]`));
  },
  rrf(c, where) {
    const out = rrf(c.lists, c.weights ?? [], c.k ?? 60);
    assert.deepEqual(
      c.expected.map(([id]) => id),
      out.map(([id]) => id),
      `${where}: order`,
    );
    out.forEach(([id, s], i) => {
      close(s, c.expected[i][1], EXACT, "rrf", `${where} ${id}`);
      // seed 000's literal weight * (1 / (k + rank)) rounds each term twice: within a few ulps
      let literal = 0;
      c.lists.forEach((ids, li) => {
        const r = ids.indexOf(id);
        if (r >= 0) literal += (c.weights?.[li] ?? 1) * (1 / ((c.k ?? 60) + r + 1));
      });
      close(literal, c.expected[i][1], { ulps: 2 * c.lists.length }, "rrf, seed 000's literal w * (1 / (k + rank))", `${where} ${id}`);
    });
  },
  multiquery(c, where) {
    const out = multiQuery(c.queries, c.options ?? {});
    assert.deepEqual(
      c.expected.map(([id]) => id),
      out.map((r) => r.id),
      `${where}: order`,
    );
    out.forEach((r, i) => close(r.score, c.expected[i][1], EXACT, `multiquery ${c.options?.method ?? "rrf"}`, `${where} ${r.id}`));
  },
  rerank(c, where) {
    // Seed 003 step 1: rerankedScore = score * multiplier, best first (rerank() stops
    // before step 2's max-normalization; calibrank: ties by id).
    const out = c.candidates.map((cand) => ({ id: cand.id, score: cand.score * heuristicMultiplier(c.query, cand) }));
    out.sort((a, b) => b.score - a.score || byId(a.id, b.id));
    assert.deepEqual(
      c.expected.map(([id]) => id),
      out.map((r) => r.id),
      `${where}: order`,
    );
    out.forEach((r, i) => close(r.score, c.expected[i][1], EXACT, "rerank (heuristic factors)", `${where} ${r.id}`));
  },
  confidence(c, where) {
    const sorted = c.scores.slice().sort(descTotal);
    queryConfidence(sorted).forEach((x, i) => close(x, c.expected[i], EXACT, "confidence", `${where}[${i}]`));
  },
  band(c, where) {
    assert.deepEqual(
      c.scores.map((s) => band(s)),
      c.expected,
      where,
    );
    note("band", 0, 0);
  },
  pipeline(c, where) {
    const out = pipeline(c.config, c.input);
    const exp = c.expected;
    assert.deepEqual(
      exp.results.map(([id]) => id),
      out.results.map((r) => r.id),
      `${where}: the results' ids in order`,
    );
    out.results.forEach((r, i) => {
      close(r.score, exp.results[i][1], out.tolerance, out.tolerance === EXP ? "pipeline scores (exp)" : "pipeline scores (erf, exp)", `${where} ${r.id}`);
      assert.equal(r.band, exp.results[i][2], `${where} ${r.id}: band`);
    });
    // The query confidence of the file's own scores: arithmetic only, bit for bit.
    const fileScores = exp.results.map(([, s]) => fromHex(s));
    queryConfidence(fileScores).forEach((x, i) => close(x, exp.confidence[i], EXACT, "pipeline confidence (of the file's scores)", `${where} confidence[${i}]`));
    // ... and of the scores recomputed here: each figure moves by at most the sum of the
    // scores' differences (every partial derivative is within [0, 1]), plus 2 roundings.
    const slack = out.results.reduce((sum, r, i) => sum + Math.abs(r.score - fileScores[i]), 0);
    queryConfidence(out.results.map((r) => r.score)).forEach((x, i) =>
      close(x, exp.confidence[i], { abs: slack + 2 * 2 ** -53 }, "pipeline confidence (of the recomputed scores)", `${where} confidence[${i}]`),
    );
  },
};

// ---------------------------------------------------------------------------------

test("the erf here is right: pi, 2 / sqrt(pi) and known values", () => {
  assert.equal(Number(PI) / 2 ** 320, Math.PI);
  assert.equal(Number(TWO_OVER_SQRT_PI) / 2 ** 320, 2 / Math.sqrt(Math.PI)); // 1.1283791670955126
  assert.equal(erf(0), 0);
  assert.equal(erf(1), 0.8427007929497149); // erf(1) = 0.84270079294971486934...
  assert.equal(erf(-0.5), -0.5204998778130465); // erf(0.5) = 0.52049987781304653768...
  assert.equal(erf(3), 0.9999779095030014); // erf(3) = 0.99997790950300141456...
  assert.equal(normalCdf(1.959963984540054), 0.975);
  assert.deepEqual(extractTerms("GraphTraversal edges of HTTPServer_x"), ["graph", "traversal", "edges", "http", "server"]);
});

test("every golden case is recomputed here or listed as skipped", () => {
  assert.ok(golden.cases.length > 0, "golden cases");
  // Own keys only (a kind named "constructor" is no check).
  const unknown = golden.cases.map((c, i) => `${i} (${c.kind})`).filter((_, i) => !Object.hasOwn(CHECKS, golden.cases[i].kind) && !Object.hasOwn(SKIPPED, golden.cases[i].kind));
  assert.deepEqual(unknown, [], "cases of a kind neither recomputed nor skipped with a reason");
  for (const kind of Object.keys(CHECKS)) assert.ok(!Object.hasOwn(SKIPPED, kind), kind);
});

// The fields each kind's check reads.
const CASE_KEYS = {
  calibrate: ["kind", "scores", "threshold", "steepness", "expected"],
  normalize: ["kind", "scores", "method", "temperature", "expected"],
  rrf: ["kind", "lists", "weights", "k", "expected"],
  multiquery: ["kind", "queries", "options", "expected"],
  rerank: ["kind", "query", "candidates", "expected"],
  confidence: ["kind", "scores", "expected"],
  band: ["kind", "scores", "expected"],
  pipeline: ["kind", "config", "input", "expected"],
};
const counts = {};
for (const kind of Object.keys(CHECKS)) {
  const cases = golden.cases.map((c, i) => [c, i]).filter(([c]) => c.kind === kind);
  counts[kind] = cases.length;
  test(`golden ${kind} cases (${cases.length}) agree with the seeds' formulas`, () => {
    assert.ok(cases.length > 0, `the file has no ${kind} case any more`);
    for (const [c, i] of cases) {
      // A field the generator adds to a case (an option) must be recomputed, not ignored.
      knownKeys(c, CASE_KEYS[kind], `case ${i} (${kind})`);
      if (kind === "pipeline") knownKeys(c.expected, ["results", "confidence"], `case ${i} (pipeline) expected`);
      if (kind === "rerank") for (const cand of c.candidates) knownKeys(cand, ["id", "score", "name", "type", "summary", "content"], `case ${i} (rerank) candidate`);
      CHECKS[kind](c, `case ${i} (${kind}${c.method ? ` ${c.method}` : ""}${c.options?.method ? ` ${c.options.method}` : ""})`);
    }
  });
}

test("summary: cases checked and skipped, differences seen", (t) => {
  const skipped = golden.cases.filter((c) => Object.hasOwn(SKIPPED, c.kind)).length;
  t.diagnostic(`checked: ${JSON.stringify(counts)}; skipped: ${skipped} (${Object.keys(SKIPPED).join(", ")})`);
  for (const [label, s] of seen)
    t.diagnostic(`${label}: ${s.values} values, ${s.inexact} not bit-identical, max ${s.maxUlps} ulps, max |diff| ${s.maxAbs.toExponential(2)}`);
});
