// The heuristic multiplicative reranker over caller candidates (`rerank`).
import { Input, precheck, typeError, isMap, wellFormedName, utf8Length, allocate, hasOwn } from "../wire.js";
import { OP, w, limitsOf, isObject, isPlainRecord, noInheritedKeys, BARE, ownFields, unknownField, missingField, recordError } from "./shared.js";

/** A candidate's optional texts, in the order of their flag bits (1, 2, 4) and of the string table. */
const CANDIDATE_TEXTS = ["type", "summary", "content"];
const CANDIDATE_FIELDS = ["id", "score", "name", ...CANDIDATE_TEXTS];
const CANDIDATE_KEYS = new Set(CANDIDATE_FIELDS);
const CANDIDATE = "an object with `id`, `score` and `name`";
/** Whether Object.prototype has none of a candidate's fields (shared.js `noInheritedKeys`). */
const cleanPrototype = () => noInheritedKeys() && !("id" in BARE || "score" in BARE || "name" in BARE || "type" in BARE || "summary" in BARE || "content" in BARE);

/** Heuristic multiplicative rerank: `{ id, originalScore, rerankedScore, factors }`, best first. */
export function rerank(query, candidates, options) {
  const lim = limitsOf(options, "rerank");
  const opts = precheck.options(lim, options);
  if (typeof query !== "string") throw typeError("query", "a string", query);
  precheck.oneText(lim, query.length, "query", query);
  if (!Array.isArray(candidates)) throw typeError("candidates", "an array of candidates", candidates);
  // The array and its length read once (a Proxy could answer differently later).
  const n = candidates.length;
  // A Proxy's length may be anything (the tables are sized by it).
  if (n >>> 0 !== n) throw typeError("candidates", "an array of candidates");
  precheck.array(lim, n, "candidates");
  precheck.entries(lim, n, "candidates");
  // Typed sections, as `fuseMultiQuery`'s hits: each candidate read once, its score, which
  // optional texts it has (1 type, 2 summary, 4 content), and its strings in one table.
  const clean = cleanPrototype();
  const cs = new Array(n);
  const scores = new Array(n);
  const flags = allocate(Uint8Array, n, "candidates");
  const strs = [];
  let units = 0;
  for (let i = 0; i < n; i++) {
    const c = candidates[i];
    // A plain object (the common case) is none of the refused kinds: checked first.
    if (!isPlainRecord(c) && (!isObject(c) || isMap(c) || c instanceof Date))
      throw typeError(`candidates[${i}]`, CANDIDATE, c);
    // checkKeys(c, CANDIDATE_KEYS, ...) written out, as fuseMultiQuery's hits: the shared
    // function's for-in is generic over every caller's objects, and a Set lookup per key
    // costs more than comparing the six names (measured there: bench/multiquery-loop.mjs).
    for (const key in c)
      if (key !== "id" && key !== "score" && key !== "name" && key !== "type" && key !== "summary" && key !== "content" && hasOwn.call(c, key))
        throw recordError(c, `candidates[${i}]`, CANDIDATE) ?? unknownField(`candidates[${i}]`, key, CANDIDATE_KEYS);
    const f = clean ? c : ownFields(c, CANDIDATE_FIELDS);
    const { id, score, name } = f;
    if (id === undefined) throw recordError(c, `candidates[${i}]`, CANDIDATE) ?? missingField(`candidates[${i}]`, "id");
    if (typeof id !== "string") throw typeError(`candidates[${i}].id`, "a string", id);
    // Ids are compared inside the module (duplicates), where a lone surrogate would be U+FFFD.
    wellFormedName(id, `candidates[${i}].id`, "an id", "ids");
    if (score === undefined) throw recordError(c, `candidates[${i}]`, CANDIDATE) ?? missingField(`candidates[${i}]`, "score");
    if (typeof score !== "number") throw typeError(`candidates[${i}].score`, "a number", score);
    if (name === undefined) throw recordError(c, `candidates[${i}]`, CANDIDATE) ?? missingField(`candidates[${i}]`, "name");
    if (typeof name !== "string") throw typeError(`candidates[${i}].name`, "a string", name);
    strs.push(id, name);
    units += id.length + name.length;
    let bits = 0;
    for (let t = 0; t < 3; t++) {
      const key = CANDIDATE_TEXTS[t];
      const v = f[key];
      if (v === undefined || v === null) continue;
      if (typeof v !== "string") throw typeError(`candidates[${i}].${key}`, "a string", v);
      bits |= 1 << t;
      strs.push(v);
      units += v.length;
    }
    cs[i] = id;
    scores[i] = score;
    flags[i] = bits;
  }
  // The query and every candidate's strings against maxTotalTextBytes before the copy, in
  // the order the module charges them.
  if (lim && query.length + units > lim.maxTotalTextBytes) {
    // Over for sure: each string's own limit first (the module checks them all before
    // the total), then the total, on the field the module would name.
    precheck.oneText(lim, utf8Length(query), "query");
    for (let i = 0, k = 0; i < n; i++) {
      precheck.id(lim, utf8Length(strs[k++]), `candidates[${i}].id`);
      precheck.oneText(lim, utf8Length(strs[k++]), `candidates[${i}].name`);
      for (let t = 0; t < 3; t++) {
        if (!(flags[i] & (1 << t))) continue;
        precheck.oneText(lim, utf8Length(strs[k++]), `candidates[${i}].${CANDIDATE_TEXTS[t]}`);
      }
    }
    precheck.strings(lim, [query, ...strs], query.length + units, (k) => candidateString(flags, k));
  }
  const out = w().call(OP.RERANK, new Input().text(opts).text(query).f64s(scores).u8s(flags).strs(strs, units));
  const o = out.u32At();
  const m = out.n;
  const x = out.f64At();
  const { u32, f64 } = out.w;
  const result = new Array(m);
  for (let r = 0; r < m; r++) {
    const b = x + 8 * r;
    result[r] = { id: cs[u32[o + r]], originalScore: f64[b], rerankedScore: f64[b + 1], factors: factorsAt(f64, b + 2) };
  }
  return result;
}

/**
 * The heuristic reranker's six factors at `f64[i..i + 6]`, in the order the module writes
 * them (wasm/core/src/lib.rs `factor_values`): `rerank`'s results and explanations.
 */
export function factorsAt(f64, i) {
  return {
    exactName: f64[i],
    nameTerms: f64[i + 1],
    summaryTerms: f64[i + 2],
    shortContent: f64[i + 3],
    entityType: f64[i + 4],
    multiplier: f64[i + 5],
  };
}

/** The field of string `k` of `rerank`'s table (0: the query), for an error. */
function candidateString(flags, k) {
  if (k === 0) return "query";
  let at = 1;
  for (let i = 0; i < flags.length; i++) {
    const names = ["id", "name"];
    for (let t = 0; t < 3; t++) if (flags[i] & (1 << t)) names.push(CANDIDATE_TEXTS[t]);
    if (k < at + names.length) return `candidates[${i}].${names[k - at]}`;
    at += names.length;
  }
  return "candidates";
}
