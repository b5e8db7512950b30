// Fusion of the hits of several queries (`fuseMultiQuery`).
import { Input, precheck, typeError, isMap, wellFormedName, allocate, timeOf, hasOwn, firstOf, fromObjectPrototype, Interner } from "../wire.js";
import { OP, w, limitsOf, scratch, isObject, isPlainRecord, isU32, noInheritedKeys, BARE, ownFields, unknownField, missingField, recordError } from "./shared.js";

const HIT_FIELDS = ["id", "score", "timestamp"];
const HIT_KEYS = new Set(HIT_FIELDS);
const HIT = "an object with `id` and `score`";
/** Whether Object.prototype has none of a hit's fields (shared.js `noInheritedKeys`). */
const cleanPrototype = () => noInheritedKeys() && !("id" in BARE || "score" in BARE || "timestamp" in BARE);

/** The options' slots in the numbers the module reads (`compactOptions`). */
const OPTION_SLOT = Object.assign(Object.create(null), { method: 0, resultsPerQuery: 1, similarityThreshold: 2, multiQueryBoost: 3, limit: 4, k: 5, verbose: 6 });
const METHOD_CODE = Object.assign(Object.create(null), { rrf: 0, score_sum: 1, score_max: 2 });

/**
 * The options as the numbers the module reads instead of JSON text (`[method,
 * resultsPerQuery, similarityThreshold, multiQueryBoost, limit, k, verbose]`, NaN where
 * not given; wasm/shared/src/options.rs `multi_query_options`), or null when they must
 * cross as JSON: `limits` or an unknown key (known from the keys alone, before any value
 * is read), a `null` or a value of another type (the module's decoder then answers, as
 * it always did). A call of one query of 20 hits took 6.0 µs with the options as JSON,
 * 5.0-5.4 µs with them as numbers (bench/multiquery.mjs).
 */
function compactOptions(options) {
  if (!isPlainRecord(options)) return null;
  // A key on Object.prototype is not an option (the JSON form does not read it either).
  const clean = noInheritedKeys();
  for (const key in options) if (!(key in OPTION_SLOT) && (clean || !fromObjectPrototype(options, key))) return null;
  const head = [NaN, NaN, NaN, NaN, NaN, NaN, NaN];
  for (const key in options) {
    const slot = OPTION_SLOT[key];
    if (slot === undefined || (!clean && fromObjectPrototype(options, key))) continue;
    const v = options[key];
    if (v === undefined) continue;
    if (slot === 0) {
      if (typeof v !== "string" || !(v in METHOD_CODE)) return null;
      head[0] = METHOD_CODE[v];
    } else if (slot === 6) {
      if (typeof v !== "boolean") return null;
      head[6] = v ? 1 : 0;
    } else if (slot === 1 || slot === 4 ? isU32(v) : Number.isFinite(v)) head[slot] = v + 0; // -0 as JSON sends it: 0
    else return null;
  }
  return head;
}

/** Fuses the hits of several queries (`rrf`, `score_sum` or `score_max`). */
export function fuseMultiQuery(queries, options) {
  const compact = compactOptions(options);
  const lim = limitsOf(compact === null ? options : undefined, "fuseMultiQuery");
  const input = compact === null ? new Input().text(precheck.options(lim, options)) : new Input().f64s(compact);
  if (!Array.isArray(queries)) throw typeError("queries", "an array of arrays of hits", queries);
  // The queries, each query and its length read once (a Proxy could answer differently later).
  const nq = queries.length;
  precheck.lists(lim, nq, "queries", "an array of arrays of hits");
  const qs = new Array(nq);
  const lens = new Array(nq);
  let total = 0;
  for (let i = 0; i < nq; i++) {
    const q = queries[i];
    if (!Array.isArray(q)) throw typeError(`queries[${i}]`, "an array of hits", q);
    const n = q.length;
    precheck.length(lim, n, `queries[${i}]`, "an array of hits");
    qs[i] = q;
    lens[i] = n;
    total += n;
  }
  precheck.entries(lim, total, "queries");
  // Typed sections, as `Pipeline.run`'s: each distinct id once (interned here, in order of
  // first occurrence), each hit's id index and score, its timestamp as a kind (0 none,
  // 1 epoch ms, 2 ISO text) with the numbers and the texts in tables of their own.
  const clean = cleanPrototype();
  // From 64 hits on, the tables are typed arrays kept between calls (one copy each into
  // the call, as `rrf`'s), with the ids' running lengths kept while each id is at hand.
  const big = total >= 64;
  const lease = big ? scratch.take() : null;
  // (A call of a few short ids interns them without a `Map`: js/wire/values.js `Interner`.)
  const interner = new Interner(total, "queries");
  const ids = interner.ids;
  let out;
  try {
    const docs = big ? lease.u32(total, 0, "queries") : new Array(total);
    const scores = big ? lease.f64(total, 2, "queries") : new Array(total);
    const millis = big ? lease.f64(total, 4, "queries") : new Array(total);
    const ends = big ? lease.u32(total, 3, "queries") : null;
    const kinds = big ? lease.array(Uint8Array, total, 5, "queries") : allocate(Uint8Array, total, "queries");
    const isoTexts = [];
    let units = 0;
    let isoUnits = 0;
    let k = 0;
    for (let i = 0; i < nq; i++) {
      const q = qs[i];
      const n = lens[i];
      for (let j = 0; j < n; j++, k++) {
        const h = q[j];
        // A plain object (the common case) is none of the refused kinds: checked first.
        if (!isPlainRecord(h) && (!isObject(h) || isMap(h) || h instanceof Date))
          throw typeError(`queries[${i}][${j}]`, HIT, h);
        // checkKeys(h, HIT_KEYS, ...) written out: the shared function's for-in is generic
        // over every caller's objects, and a Set lookup per key costs more than comparing
        // the three names (`node bench/multiquery-loop.mjs`: 126 µs a call with checkKeys,
        // 102-108 with the Set here, 87-94 with the names).
        for (const key in h) if (key !== "id" && key !== "score" && key !== "timestamp" && hasOwn.call(h, key)) throw recordError(h, `queries[${i}][${j}]`, HIT) ?? unknownField(`queries[${i}][${j}]`, key, HIT_KEYS);
        const { id, score, timestamp: t } = clean ? h : ownFields(h, HIT_FIELDS);
        if (id === undefined) throw recordError(h, `queries[${i}][${j}]`, HIT) ?? missingField(`queries[${i}][${j}]`, "id");
        if (typeof id !== "string") throw typeError(`queries[${i}][${j}].id`, "a string", id);
        if (score === undefined) throw recordError(h, `queries[${i}][${j}]`, HIT) ?? missingField(`queries[${i}][${j}]`, "score");
        if (typeof score !== "number") throw typeError(`queries[${i}][${j}].score`, "a number", score);
        let d = interner.find(id);
        if (d === undefined) {
          // Ids are compared inside the module, where a lone surrogate would be U+FFFD.
          wellFormedName(id, `queries[${i}][${j}].id`, "an id", "ids");
          d = interner.add(id);
          units += id.length;
          if (big) ends[d] = units;
        }
        docs[k] = d;
        scores[k] = score;
        millis[k] = 0;
        if (t === undefined || t === null) continue;
        if (typeof t === "number") {
          kinds[k] = 1;
          millis[k] = t;
        } else if (typeof t === "string") {
          kinds[k] = 2;
          isoTexts.push(t);
          isoUnits += t.length;
        } else if (t instanceof Date) {
          kinds[k] = 1;
          millis[k] = timeOf(t, () => `queries[${i}][${j}].timestamp`, "epoch milliseconds or an ISO 8601 string");
        } else throw typeError(`queries[${i}][${j}].timestamp`, "epoch milliseconds or an ISO 8601 string", t);
      }
    }
    // Counted here only when their UTF-16 units alone exceed maxTotalTextBytes (the input
    // is then refused before it is copied, with the module's error).
    if (lim && units + isoUnits > lim.maxTotalTextBytes) precheck.listStrings(lim, ids, lens, docs, hitField, isoTexts, kinds);
    input.u32s(lens).u32s(docs).strs(ids, units, firstOf(ends, ids.length)).f64s(scores).u8s(kinds).f64s(millis).strs(isoTexts, isoUnits);
    out = w().call(OP.MULTI_QUERY, input);
  } finally {
    if (lease !== null) scratch.give(lease);
  }
  // The results' ids come back as indices into `ids` (the caller's strings), the
  // numbers as typed sections (wasm/core/src/functions.rs, `multi_query`); the objects keep
  // the keys in the order they always had.
  const { u32, f64 } = out.w;
  const d = out.u32At();
  const n = out.n;
  const sc = out.f64At();
  const st = out.u32At();
  const mean = f64[out.f64At()];
  const vu = out.u32At();
  const vf = out.f64At();
  const results = new Array(n);
  for (let i = 0, p = vu, q = vf; i < n; i++) {
    let r;
    if (vu < 0) r = { id: ids[u32[d + i]], score: f64[sc + i] };
    else {
      const c = u32[p++];
      const queryScores = {};
      const queryRanks = {};
      for (let j = 0; j < c; j++, p += 2, q++) {
        queryScores[u32[p]] = f64[q];
        queryRanks[u32[p]] = u32[p + 1];
      }
      // Made whole by a literal (an assignment of a key it lacks would go through a
      // setter of that name on Object.prototype, a caller's).
      r = { id: ids[u32[d + i]], score: f64[sc + i], queryScores, queryRanks, appearedInQueryCount: c };
    }
    results[i] = r;
  }
  const stats = {
    queries: u32[st],
    uniqueItems: u32[st + 1],
    itemsInMultipleQueries: u32[st + 2],
    meanQueriesPerItem: mean,
    belowThreshold: u32[st + 3],
    beyondResultsPerQuery: u32[st + 4],
    duplicates: u32[st + 5],
  };
  return { results, stats };
}

/** Entry j of query i's hits, its `id` or `timestamp` (`precheck.listStrings`). */
const hitField = (i, j, what) => `queries[${i}][${j}].${what}`;
