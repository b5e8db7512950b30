// calibrank: the scoring core. Every function reads the caller's values here, writes one
// input buffer and makes one call into calibrank_core.wasm (js/wire.js); the numbers
// all come from the module.
import { ScoreError } from "./score_error.js";
import { ModuleState, Input, Scratch, checkedCopy, plainTyped, precheck, toJson, numbers, indices, scoreError, typeError, typedArrayKind, isMap, utf8Length, hasOwn, own, fromObjectPrototype, wellFormedName, notArray, firstOf, intern, allocate, timeOf } from "./wire.js";

export { ScoreError };

// Operation numbers: wasm/core/src/lib.rs.
const OP = {
  VERSION: 1,
  ERROR_CODES: 2,
  DEFAULT_LIMITS: 3,
  PIPELINE_NEW: 10,
  PIPELINE_FREE: 11,
  PIPELINE_CONFIG: 12,
  PIPELINE_RUN: 13,
  PIPELINE_RUN_COLUMNAR: 14,
  PIPELINE_LIVE: 15,
  RRF: 20,
  RRF_COLUMNAR: 21,
  MULTI_QUERY: 22,
  RERANK: 23,
  NORMALIZE: 24,
  CALIBRATE: 25,
  CLASSIFY: 26,
  QUERY_CONFIDENCE: 27,
};

// The module's Wire, its lazy loader and its limits table (js/wire.js).
// The texts `Pipeline.run` held back for the call in flight (see `encodeInput`), and the
// function that writes those of the topK pool when the reranker asks.
let heldCall = null;
/** How many calls had their held texts asked for (`__heldTextsCalls`, for tests). */
let heldRuns = 0;
/**
 * Writes the held texts of `n` documents (u32 indices at `docs`) at `out`, at most `cap`
 * bytes, as a U32 section of flags (1 name, 2 type, 4 summary, 8 content) and a string
 * table of the present texts in that order. Returns the bytes written, minus the bytes
 * needed when they do not fit, NaN when nothing is held. Reads only strings
 * `encodeInput` already took from the caller's input (no caller code runs) and throws
 * nothing into wasm.
 */
function writeHeldTexts(docs, n, out, cap) {
  const h = heldCall;
  if (h === null) return NaN;
  h.asked = true;
  try {
    const wire = state.wire;
    wire.views();
    const u32 = wire.u32;
    if (h.slotOf === null) {
      // Document -> its item's first slot in `h.texts` (built on the first ask only).
      h.slotOf = new Int32Array(h.nDocs).fill(-1);
      for (let k = 0; k < h.docs.length; k++) h.slotOf[h.docs[k]] = 4 * k;
    }
    const flags = new Array(n);
    const list = [];
    let units = 0;
    const at = docs >>> 2;
    for (let i = 0; i < n; i++) {
      const slot = h.slotOf[u32[at + i]];
      let f = 0;
      if (slot >= 0) {
        for (let j = 0; j < 4; j++) {
          const t = h.texts[slot + j];
          if (t !== undefined) {
            f |= 1 << j;
            list.push(t);
            units += t.length;
          }
        }
      }
      flags[i] = f;
    }
    const inp = new Input().u32s(flags).strs(list, units);
    if (inp.worst > cap) return -inp.worst;
    // `out` crosses as a wasm i32 (negative at or above 2 GiB).
    const len = wire.write(out >>> 0, inp, (out >>> 0) + cap);
    return len < 0 ? -inp.worst : len;
  } catch {
    return NaN;
  }
}

// The module imports nothing: an imported JavaScript function would cost every
// instantiation the wrapper V8 compiles for it (about 0.15 ms of the core's start-up,
// docs/performance.md "Start-up"). It calls the held texts' function through a slot of
// its exported function table instead (wasm/core/src/pipeline.rs, `host`), and a table
// holds only wasm functions: this tiny module's export `f` calls its import `c.t`
// (`writeHeldTexts`)
//   (type (func (param i32 i32 i32 i32) (result f64)))
//   (import "c" "t" (func 0))
//   (func (export "f") (type 0) local.get 0 local.get 1 local.get 2 local.get 3 call 0)
// It is compiled on the first call that holds texts back. Engines that compile no wasm
// from bytes (Cloudflare Workers, edge runtimes) get it compiled from
// calibrank_texts.wasm (these bytes; scripts/build-pkg.sh writes the file) through their
// entry's module import; given neither, a call holds no texts back: they cross with the
// input (the same output, see `encodeInput`; slower for large inputs).
const TEXTS_MODULE = [
  0, 97, 115, 109, 1, 0, 0, 0,
  1, 9, 1, 0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7c,
  2, 7, 1, 1, 99, 1, 116, 0, 0,
  3, 2, 1, 0,
  7, 5, 1, 1, 102, 0, 1,
  10, 14, 1, 12, 0, 0x20, 0, 0x20, 1, 0x20, 2, 0x20, 3, 0x10, 0, 0x0b,
];
/** The wasm function calling `writeHeldTexts` (undefined before the first try, null when the engine refused it). */
let textsFn;
/** TEXTS_MODULE compiled, when an entry gave it (`texts` of the default export). */
let textsModule = null;
/** The exports of the instance whose slot holds `textsFn` (a restarted instance has its own table). */
let textsIn = null;

/** Whether held texts can reach the module in this engine (makes the function on the first ask). */
function canHoldTexts() {
  if (textsFn === undefined) {
    try {
      const m = textsModule ?? new WebAssembly.Module(new Uint8Array(TEXTS_MODULE));
      textsFn = new WebAssembly.Instance(m, { c: { t: writeHeldTexts } }).exports.f;
    } catch {
      textsFn = null;
    }
  }
  return textsFn !== null && state.wire.textsSlot >= 0;
}

/** Puts `textsFn` in the slot of the current instance's table (once per instance). */
function placeTexts(wire) {
  if (textsIn === wire.x) return;
  wire.x.__indirect_function_table.set(wire.textsSlot, textsFn);
  textsIn = wire.x;
}
const state = new ModuleState("calibrank", {});
const w = () => state.get();
const limitsOf = (options, fn) => state.limitsOf(options, fn);

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

// ------------------------------------------------------------------ small functions

/** The package version. */
export function version() {
  return state.version();
}

/** Every error code calibrank can throw. */
export function errorCodes() {
  return state.errorCodes();
}

/**
 * The default input size limits (every field filled in): those most functions share,
 * or those of `fn` (`"rrf"`, `"Pipeline"`, `"rerank"`, ...: some functions have an
 * entry budget of their own, see the README's "Limits").
 */
export function defaultLimits(fn) {
  return state.defaultLimits(fn);
}

/** Scores as an input section (a Float64Array or an array of numbers). */
function scoresInput(options, scores, field = "scores") {
  const lim = limitsOf(options, "scores");
  const opts = precheck.options(lim, options);
  const s = numbers(scores, field);
  precheck.array(lim, s.length, field);
  return new Input().text(opts).f64s(s);
}

/** Normalizes scores (`max`, `min_max`, `z_score`, `softmax`, `none`); input order kept. */
export function normalize(scores, method, options) {
  const lim = limitsOf(options, "normalize");
  const opts = precheck.options(lim, options);
  if (typeof method !== "string") throw typeError("method", "a method name string");
  precheck.oneText(lim, method.length, "method");
  const s = numbers(scores, "scores");
  precheck.array(lim, s.length, "scores");
  return w().call(OP.NORMALIZE, new Input().text(opts).text(method).f64s(s)).f64s();
}

/** Sigmoid calibration `1 / (1 + exp(-steepness * (raw - threshold)))`; input order kept. */
export function calibrate(scores, options) {
  return w().call(OP.CALIBRATE, scoresInput(options, scores)).f64s();
}

/** Classifies one score: `{ kind: "hit" | "degraded", score }` or `{ kind: "miss" }`. */
export function classifyBand(score, options) {
  // No limits among its options: the default bound.
  const opts = precheck.options(limitsOf(undefined, "classifyBand"), options);
  if (typeof score !== "number") throw typeError("score", "a number");
  const out = w().call(OP.CLASSIFY, new Input().text(opts).f64s([score]));
  const band = out.w.u8[out.u8At()];
  const s = out.w.f64[out.f64At()];
  return band === 0 ? { kind: "miss" } : { kind: BAND[band], score: s };
}

/** Query-level confidence: weighted top-5, expected precision, P(at least one relevant). */
export function queryConfidence(scores, options) {
  return confidenceAt(w().call(OP.QUERY_CONFIDENCE, scoresInput(options, scores)));
}

// ------------------------------------------------------------------ fusion

const isPlainObject = (v) => typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;
const isU32 = (v) => typeof v === "number" && v >= 0 && v <= 0xffffffff && Math.floor(v) === v;

/**
 * Reads `{ k?, weights?, limits? }` (rrf, rrfColumnar) in one pass: `lim`, the limits of
 * `fn` for the checks made before copying (as `LimitTable.effective` makes them: every
 * limit at its ceiling when the module alone can check exactly), and the options in the
 * compact numeric form when every value is a plain number (`head`, `weights`; no JSON on
 * either side). `json`: the options must cross as JSON text instead (the module reads
 * it to the same options, or to the same error); `writeKWeightsLimits` then reads them
 * again, with JSON.stringify.
 * `rrf` calls it first, before its lists (so an options getter runs, and a weights array
 * is copied, before the lists are looked at); `rrfColumnar` calls it with `fn` null
 * (no `lim`: it took its limits before copying its typed arrays, so that an options
 * getter that resizes their buffer finds them copied, and no value is read again here).
 */
function kWeightsLimits(options, fn) {
  const table = state.limits();
  const base = fn === null ? null : table.defaultsFor(fn);
  const r = { lim: base, head: [0, 0, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN], weights: undefined, json: false };
  if (options === undefined || options === null) return r;
  if (!isPlainObject(options)) return asJson(r, options, fn);
  const { slot } = table;
  const head = r.head;
  // A key on Object.prototype is not an option (the JSON form does not read it either);
  // checked only when Object.prototype has an enumerable key (once per call).
  const clean = noInheritedKeys();
  for (const key in options) {
    if (!clean && fromObjectPrototype(options, key)) continue;
    const v = options[key];
    if (key === "k") {
      if (v === undefined || v === null) continue;
      if (typeof v !== "number") return asJson(r, options, fn);
      head[0] = 1;
      head[1] = v;
    } else if (key === "weights") {
      if (v === undefined || v === null) continue;
      if (typedArrayKind(v) === "Float64Array") r.weights = plainTyped(v, Float64Array);
      else {
        // Copied (each element read once), or null: the module reads the JSON text.
        r.weights = Array.isArray(v) ? checkedCopy(v, () => null) : null;
        if (r.weights === null) return asJson(r, options, fn);
      }
    } else if (key === "limits") {
      if (v === undefined || v === null) continue;
      if (!isPlainObject(v)) return asJson(r, options, fn);
      // One pass for both: the compact form's slots and the checks' limits (as
      // `LimitTable.effective` makes them: a value the module would refuse leaves the
      // checks to the module).
      let lim = r.lim;
      for (const name in v) {
        if (!clean && fromObjectPrototype(v, name)) continue;
        const i = slot[name];
        const x = v[name];
        if (x === undefined || x === null) continue;
        if (i === undefined || !isU32(x)) return asJson(r, options, fn);
        head[2 + i] = x;
        lim = table.withLimit(lim, base, name, x);
      }
      // A value the module refuses: the checks here hold the call to the ceilings.
      r.lim = fn === null ? null : (lim ?? table.widest);
    } else return asJson(r, options, fn);
  }
  return r;
}

/** `kWeightsLimits`'s answer when the options must cross as JSON text. */
function asJson(r, options, fn) {
  r.json = true;
  r.lim = fn === null ? null : state.limitsOf(options, fn);
  return r;
}

/** The options `kWeightsLimits` read, written into `input`. */
function writeKWeightsLimits(input, o, options, lim = o.lim) {
  return o.json ? input.text(precheck.options(lim, options)) : input.f64s(o.head).f64s(o.weights);
}

/**
 * Weighted Reciprocal Rank Fusion of ranked lists of ids: `[id, score]` pairs, highest
 * score first (ties: id ascending, by UTF-8 bytes).
 */
export function rrf(lists, options) {
  const opts = kWeightsLimits(options, "rrf");
  const lim = opts.lim;
  if (!Array.isArray(lists)) throw typeError("lists", "an array of arrays of strings");
  const nLists = lists.length;
  precheck.lists(lim, nLists, "lists");
  // Plain arrays of small integers: creating a typed array costs about a microsecond,
  // as much as the rest of a small call.
  // Each list and its length are read once (a Proxy could answer differently later).
  const lens = new Array(nLists);
  const ls = new Array(nLists);
  let total = 0;
  for (let i = 0; i < nLists; i++) {
    const l = lists[i];
    if (!Array.isArray(l)) throw typeError(`lists[${i}]`, "an array of strings");
    const n = l.length;
    precheck.length(lim, n, `lists[${i}]`, "an array of strings");
    ls[i] = l;
    lens[i] = n;
    total += n;
  }
  precheck.entries(lim, total, "lists");
  // Interned here (V8 keeps each string's hash): the module gets each distinct id once
  // and the lists as indices.
  const index = new Map();
  const ids = [];
  // Large tables as typed arrays from the scratch (one copy into the call), and the
  // ids' running lengths kept while each id is at hand (see `Input.strs`): from 64
  // entries on, where a typed array costs less than it saves (the pipeline keeps the
  // lengths from `TAKEN_FROM` entries on).
  const big = total >= 64;
  let lease = null;
  let units = 0;
  let k = 0;
  let out;
  try {
    if (big) lease = scratch.take();
    const docs = big ? lease.u32(total, 0, "lists") : new Array(total);
    const ends = big ? lease.u32(total, 1, "lists") : null;
    for (let i = 0; i < nLists; i++) {
      const l = ls[i];
      const n = lens[i];
      for (let j = 0; j < n; j++) {
        const id = l[j];
        let d = index.get(id);
        if (d === undefined) {
          if (typeof id !== "string") throw typeError(`lists[${i}][${j}]`, "a string");
          d = ids.length;
          intern(index, id, d, "lists");
          ids.push(id);
          units += id.length;
          if (big) ends[d] = units;
        }
        docs[k++] = d;
      }
    }
    precheck.strings(lim, ids, units, (d) => firstOccurrence(lens, docs, d));
    const input = writeKWeightsLimits(new Input(), opts, options).u32s(lens).u32s(docs);
    out = w().call(OP.RRF, input.strs(ids, units, firstOf(ends, ids.length)));
  } finally {
    if (lease !== null) scratch.give(lease);
  }
  const o = out.u32At();
  const n = out.n;
  const s = out.f64At();
  const { u32, f64 } = out.w;
  const result = new Array(n);
  for (let i = 0; i < n; i++) result[i] = [ids[u32[o + i]], f64[s + i]];
  return result;
}

/** `lists[i][j]` of the first occurrence of distinct id `d` (for an error). */
function firstOccurrence(lens, docs, d) {
  let k = 0;
  for (let i = 0; i < lens.length; i++)
    for (let j = 0; j < lens[i]; j++, k++) if (docs[k] === d) return `lists[${i}][${j}]`;
  return "lists";
}

/**
 * Columnar RRF: `docs` holds every list's document indices concatenated, list i being
 * `docs[offsets[i]..offsets[i+1]]`. Returns `{ order, scores }` (ties: index ascending).
 */
export function rrfColumnar(docs, offsets, nDocs, options) {
  const lim = limitsOf(options, "rrfColumnar");
  const d = indices(docs, "docs");
  const o = indices(offsets, "offsets");
  if (typeof nDocs !== "number") throw typeError("nDocs", "a number");
  precheck.columnar(lim, d.length, "docs");
  const out = w().call(OP.RRF_COLUMNAR, writeKWeightsLimits(new Input(), kWeightsLimits(options, null), options, lim).indices(d).indices(o).f64s([nDocs]));
  return { order: out.u32s(), scores: out.f64s() };
}

/** Fuses the hits of several queries (`rrf`, `score_sum` or `score_max`). */
export function fuseMultiQuery(queries, options) {
  const lim = limitsOf(options, "fuseMultiQuery");
  const opts = precheck.options(lim, options);
  if (!Array.isArray(queries)) throw typeError("queries", "an array of arrays of hits");
  // The queries, each query and its length read once (a Proxy could answer differently later).
  const nq = queries.length;
  precheck.lists(lim, nq, "queries");
  const qs = new Array(nq);
  const lens = new Array(nq);
  let total = 0;
  for (let i = 0; i < nq; i++) {
    const q = queries[i];
    if (!Array.isArray(q)) throw typeError(`queries[${i}]`, "an array of hits");
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
  const clean = noInheritedKeys(HIT_FIELDS);
  const docs = new Array(total);
  const scores = new Array(total);
  const kinds = allocate(Uint8Array, total, "queries");
  const millis = new Array(total);
  const index = new Map();
  const ids = [];
  const isoTexts = [];
  let units = 0;
  let isoUnits = 0;
  let k = 0;
  for (let i = 0; i < nq; i++) {
    const q = qs[i];
    const n = lens[i];
    for (let j = 0; j < n; j++, k++) {
      const h = q[j];
      if (!isObject(h) || isMap(h) || h instanceof Date) throw typeError(`queries[${i}][${j}]`, "an object with `id` and `score`");
      checkKeys(h, HIT_KEYS, `queries[${i}][${j}]`);
      const { id, score, timestamp: t } = clean ? h : ownFields(h, HIT_FIELDS);
      if (id === undefined) throw missingField(`queries[${i}][${j}]`, "id");
      if (typeof id !== "string") throw typeError(`queries[${i}][${j}].id`, "a string");
      if (score === undefined) throw missingField(`queries[${i}][${j}]`, "score");
      if (typeof score !== "number") throw typeError(`queries[${i}][${j}].score`, "a number");
      let d = index.get(id);
      if (d === undefined) {
        // Ids are compared inside the module, where a lone surrogate would be U+FFFD.
        wellFormedName(id, `queries[${i}][${j}].id`, "an id", "ids");
        d = ids.length;
        intern(index, id, d, "queries");
        ids.push(id);
        units += id.length;
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
        millis[k] = timeOf(t, `queries[${i}][${j}].timestamp`, "epoch milliseconds or an ISO 8601 string");
      } else throw typeError(`queries[${i}][${j}].timestamp`, "epoch milliseconds or an ISO 8601 string");
    }
  }
  precheck.hitTexts(lim, ids, units, isoTexts, isoUnits, lens, docs, kinds);
  const input = new Input().text(opts).u32s(lens).u32s(docs).strs(ids, units).f64s(scores).u8s(kinds).f64s(millis).strs(isoTexts, isoUnits);
  const out = w().call(OP.MULTI_QUERY, input);
  // The results' ids come back as indices into `ids` (the caller's strings), the
  // numbers as typed sections (wasm/core/src/lib.rs, `multi_query`); the objects keep
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
    const r = { id: ids[u32[d + i]], score: f64[sc + i] };
    if (vu >= 0) {
      const c = u32[p++];
      const queryScores = {};
      const queryRanks = {};
      for (let j = 0; j < c; j++, p += 2, q++) {
        queryScores[u32[p]] = f64[q];
        queryRanks[u32[p]] = u32[p + 1];
      }
      r.queryScores = queryScores;
      r.queryRanks = queryRanks;
      r.appearedInQueryCount = c;
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

const HIT_FIELDS = ["id", "score", "timestamp"];
const HIT_KEYS = new Set(HIT_FIELDS);
const missingField = (path, key) => scoreError("INVALID_CONFIG", `${path}.${key}`, `missing field \`${key}\``);

/** A candidate's optional texts, in the order of their flag bits (1, 2, 4) and of the string table. */
const CANDIDATE_TEXTS = ["type", "summary", "content"];
const CANDIDATE_FIELDS = ["id", "score", "name", ...CANDIDATE_TEXTS];
const CANDIDATE_KEYS = new Set(CANDIDATE_FIELDS);

/** Heuristic multiplicative rerank: `{ id, originalScore, rerankedScore, factors }`, best first. */
export function rerank(query, candidates, options) {
  const lim = limitsOf(options, "rerank");
  const opts = precheck.options(lim, options);
  if (typeof query !== "string") throw typeError("query", "a string");
  precheck.oneText(lim, query.length, "query");
  if (!Array.isArray(candidates)) throw typeError("candidates", "an array of candidates");
  // The array and its length read once (a Proxy could answer differently later).
  const n = candidates.length;
  // A Proxy's length may be anything (the tables are sized by it).
  if (n >>> 0 !== n) throw typeError("candidates", "an array of candidates");
  precheck.array(lim, n, "candidates");
  precheck.entries(lim, n, "candidates");
  // Typed sections, as `fuseMultiQuery`'s hits: each candidate read once, its score, which
  // optional texts it has (1 type, 2 summary, 4 content), and its strings in one table.
  const clean = noInheritedKeys(CANDIDATE_FIELDS);
  const cs = new Array(n);
  const scores = new Array(n);
  const flags = allocate(Uint8Array, n, "candidates");
  const strs = [];
  let units = 0;
  for (let i = 0; i < n; i++) {
    const c = candidates[i];
    if (!isObject(c) || isMap(c) || c instanceof Date) throw typeError(`candidates[${i}]`, "an object with `id`, `score` and `name`");
    checkKeys(c, CANDIDATE_KEYS, `candidates[${i}]`);
    const f = clean ? c : ownFields(c, CANDIDATE_FIELDS);
    const { id, score, name } = f;
    if (id === undefined) throw missingField(`candidates[${i}]`, "id");
    if (typeof id !== "string") throw typeError(`candidates[${i}].id`, "a string");
    // Ids are compared inside the module (duplicates), where a lone surrogate would be U+FFFD.
    wellFormedName(id, `candidates[${i}].id`, "an id", "ids");
    if (score === undefined) throw missingField(`candidates[${i}]`, "score");
    if (typeof score !== "number") throw typeError(`candidates[${i}].score`, "a number");
    if (name === undefined) throw missingField(`candidates[${i}]`, "name");
    if (typeof name !== "string") throw typeError(`candidates[${i}].name`, "a string");
    strs.push(id, name);
    units += id.length + name.length;
    let bits = 0;
    for (let t = 0; t < 3; t++) {
      const key = CANDIDATE_TEXTS[t];
      const v = f[key];
      if (v === undefined || v === null) continue;
      if (typeof v !== "string") throw typeError(`candidates[${i}].${key}`, "a string");
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
        const v = strs[k++];
        // (`type` has no limit of its own.)
        if (t > 0) precheck.oneText(lim, utf8Length(v), `candidates[${i}].${CANDIDATE_TEXTS[t]}`);
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
function factorsAt(f64, i) {
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

// ------------------------------------------------------------------ Pipeline

const ITEM_KEYS = new Set(["name", "type", "summary", "content", "modifiedAt", "fiscalYear", "crossEncoderScore"]);
const unknownField = (path, key, allowed) =>
  scoreError("UNKNOWN_FIELD", `${path}.${key}`, `unknown field \`${key}\`, expected one of ${[...allowed].join(", ")}`);

const EMPTY = Object.freeze({});
/**
 * Whether a plain object inherits no enumerable key (nothing added to Object.prototype)
 * and none of `fields` at all (a non-enumerable one is read by `o.field` too): then the
 * fields of the caller's objects can be read directly, not through `own`.
 */
function noInheritedKeys(fields) {
  for (const _ in EMPTY) return false;
  if (fields !== undefined) for (let i = 0; i < fields.length; i++) if (fields[i] in EMPTY) return false;
  return true;
}
const INPUT_FIELDS = ["query", "lists", "items", "now", "context"];
const LIST_FIELDS = ["name", "ids", "scores", "weight"];
const INPUT_KEYS = new Set(INPUT_FIELDS);
const LIST_KEYS = new Set(LIST_FIELDS);
const INPUT_AND_LIST_FIELDS = [...INPUT_FIELDS, ...LIST_FIELDS];
const COLUMNAR_FIELDS = ["docs", "offsets", "nDocs", "weights", "modifiedAt", "now"];
/** `fields` of `o` read with `own` (keys from Object.prototype left out), as an object. */
function ownFields(o, fields) {
  const out = {};
  for (const f of fields) out[f] = own(o, f);
  return out;
}

function checkKeys(obj, allowed, path) {
  for (const key in obj) if (!allowed.has(key) && hasOwn.call(obj, key)) throw unknownField(path, key, allowed);
}

const BAND = ["miss", "degraded", "hit"];
// The typed arrays `Pipeline.run` encodes its tables into, kept between calls.
const scratch = new Scratch();
const registry = typeof FinalizationRegistry === "function" ? new FinalizationRegistry((h) => freeHandle(h)) : null;

function freeHandle(h) {
  if (state.wire !== null && h.wire === state.wire && h.generation === state.wire.generation) state.wire.call(OP.PIPELINE_FREE, new Input().u32s([h.handle]));
}

/** Timestamp field (epoch ms number, ISO string, or a Date): [kind, value]. */
function timestamp(v, strs, field) {
  if (typeof v === "number") return [1, v];
  if (typeof v === "string") {
    strs.push(v);
    return [2, strs.length - 1];
  }
  if (v instanceof Date) return [1, timeOf(v, field, "epoch milliseconds or an ISO 8601 string")];
  throw typeError(field, "epoch milliseconds or an ISO 8601 string");
}

/**
 * Encodes a pipeline input (wasm/core/src/pipeline.rs `decode_input` reads it); its
 * large tables come from `lease` (see `Scratch`), valid until the lease is given back.
 */
function encodeInput(input, lim, holdAbove, lease) {
  if (!isObject(input)) throw typeError("input", "an object with `lists`");
  checkKeys(input, INPUT_KEYS, "input");
  // Keys inherited from Object.prototype are not fields. Whether it has an enumerable
  // key is checked once per call; only then is each field read through `own` (a shared
  // helper's keyed loads cost about 10% of (b) at N = 10 when made for every call).
  const cleanProto = noInheritedKeys(INPUT_AND_LIST_FIELDS);
  const { query, lists, items, now, context } = cleanProto ? input : ownFields(input, INPUT_FIELDS);
  const strs = [];
  let units = 0;
  const head = [-1, 0, 0, 0, 0];
  if (query !== undefined && query !== null) {
    if (typeof query !== "string") throw typeError("query", "a string");
    precheck.oneText(lim, query.length, "query");
  }
  if (!Array.isArray(lists)) throw typeError("lists", "an array of lists");
  const nLists = lists.length;
  precheck.lists(lim, nLists, "lists");
  const listTable = new Array(5 * nLists).fill(0);
  const weights = new Array(nLists).fill(0);
  let scores = [];
  let entries = 0;
  const listObjs = new Array(nLists);
  for (let i = 0; i < nLists; i++) {
    const l = lists[i];
    if (!isObject(l)) throw typeError(`lists[${i}]`, "an object with `name` and `ids`");
    checkKeys(l, LIST_KEYS, `lists[${i}]`);
    const { name, ids, scores: sc, weight } = cleanProto ? l : ownFields(l, LIST_FIELDS);
    if (typeof name !== "string") throw typeError(`lists[${i}].name`, "a string");
    wellFormedName(name, `lists[${i}].name`, "a list name");
    if (!Array.isArray(ids)) throw typeError(`lists[${i}].ids`, "an array of strings");
    // Its length read once (a Proxy could answer differently later).
    const n = ids.length;
    precheck.length(lim, n, `lists[${i}]`, "an array of strings", ".ids");
    entries += n;
    listObjs[i] = [name, ids, sc, weight, n];
  }
  precheck.entries(lim, entries, "lists");
  // The distinct ids first (interned: each crosses once), then every other string.
  const index = new Map();
  // UTF-16 units of the ids of every list entry (the module's total counts each
  // occurrence; see the held mode below).
  let occUnits = 0;
  // Large tables as typed arrays (written into the call with one copy), small ones as
  // arrays (a typed array costs about a microsecond to make).
  const docs = entries >= 64 ? lease.u32(entries, 0, "lists") : new Array(entries);
  // The ids' running lengths, kept while each id is at hand (see `Input.strs`): from
  // `TAKEN_FROM` entries on.
  const ends = entries >= TAKEN_FROM ? lease.u32(entries, 3, "lists") : null;
  let k = 0;
  for (let i = 0; i < nLists; i++) {
    const ids = listObjs[i][1];
    const n = listObjs[i][4];
    const t = 5 * i;
    listTable[t + 1] = k;
    listTable[t + 2] = n;
    for (let j = 0; j < n; j++) {
      const id = ids[j];
      let d = index.get(id);
      if (d === undefined) {
        if (typeof id !== "string") throw typeError(`lists[${i}].ids[${j}]`, "a string");
        d = strs.length;
        intern(index, id, d, "lists");
        strs.push(id);
        units += id.length;
        if (ends !== null) ends[d] = units;
      }
      occUnits += id.length;
      docs[k++] = d;
    }
  }
  const nDocs = strs.length;
  head[3] = nDocs;
  if (query !== undefined && query !== null) {
    head[0] = strs.length;
    strs.push(query);
    units += query.length;
  }
  for (let i = 0; i < nLists; i++) {
    const [name, , sc, weight] = listObjs[i];
    const t = 5 * i;
    listTable[t] = strs.length;
    strs.push(name);
    units += name.length;
    let flags = 0;
    if (weight !== undefined && weight !== null) {
      if (typeof weight !== "number") throw typeError(`lists[${i}].weight`, "a number");
      flags |= 1;
      weights[i] = weight;
    }
    if (sc !== undefined && sc !== null) {
      const s = numbers(sc, `lists[${i}].scores`);
      flags |= 2;
      listTable[t + 4] = s.length;
      for (let j = 0; j < s.length; j++) scores.push(s[j]);
    }
    listTable[t + 3] = flags;
  }
  // Items: 8 u32 (key, flags, name, type, summary, content, modifiedAt as a string, the
  // id's index or 2^32 - 1 when in no list) and 3 f64 (modifiedAt as a number,
  // fiscalYear, crossEncoderScore) each.
  let itemTable = [];
  let itemNums = [];
  // Held mode (a pipeline whose heuristic reranker reads the texts of `holdAbove`
  // candidates at most, given more items than that): the texts of items are checked here
  // but not copied into the call; those of items in a list are kept (4 slots per item,
  // `heldDocs` its document) for `writeHeldTexts` above.
  let hold = false;
  const heldTexts = [];
  const heldDocs = [];
  const heldItems = [];
  let heldElse = null;
  let heldUnits = 0;
  let keyUnits = 0;
  let inline = false;
  if (items !== undefined && items !== null) {
    let keys;
    let get;
    if (isMap(items)) {
      keys = [...Map.prototype.keys.call(items)];
      get = (k) => Map.prototype.get.call(items, k);
    } else if (isObject(items)) {
      keys = Object.keys(items);
      get = (k) => items[k];
    } else throw typeError("items", "an object mapping ids to metadata");
    const m = keys.length;
    precheck.entries(lim, entries + m, "items");
    hold = holdAbove >= 0 && m > holdAbove && canHoldTexts();
    itemTable = m >= 8 ? lease.u32(8 * m, 1, "items") : new Array(8 * m).fill(0);
    itemNums = m >= 8 ? lease.f64(3 * m, 2, "items") : new Array(3 * m).fill(0);
    for (let i = 0; i < m; i++) {
      const key = keys[i];
      if (typeof key !== "string") throw typeError("items", "string keys");
      const meta = get(key);
      const t = 8 * i;
      const d = index.get(key);
      if (d === undefined) {
        itemTable[t] = strs.length;
        itemTable[t + 7] = 0xffffffff;
        strs.push(key);
        units += key.length;
      } else {
        itemTable[t] = d;
        itemTable[t + 7] = d;
        keyUnits += key.length;
      }
      if (meta === undefined || meta === null) continue;
      if (!isObject(meta)) throw typeError(`items.${key}`, "an object with the item's fields");
      let flags = 0;
      let slot = -1;
      // One pass over the item's own keys: only the fields it has are read.
      // Keys inherited from Object.prototype (an enumerable key added there) are not
      // fields: when it has one (checked once per call), each key is checked. An item
      // made with a prototype of its own keeps that prototype's enumerable keys as
      // fields, as before (docs/performance-history.md: a check of every item's
      // prototype measured slower).
      for (const f in meta) {
        if (!cleanProto && fromObjectPrototype(meta, f)) continue;
        const v = meta[f];
        let bit = 0;
        switch (f) {
          case "name":
            bit = 1;
            break;
          case "type":
            bit = 2;
            break;
          case "summary":
            bit = 4;
            break;
          case "content":
            bit = 8;
            break;
          case "modifiedAt":
            if (v === undefined || v === null) break;
            if (typeof v === "number") {
              flags |= 16;
              itemNums[3 * i] = v;
            } else if (typeof v === "string") {
              flags |= 32;
              itemTable[t + 6] = strs.length;
              strs.push(v);
              units += v.length;
            } else if (v instanceof Date) {
              flags |= 16;
              itemNums[3 * i] = timeOf(v, `items.${key}.modifiedAt`, "epoch milliseconds or an ISO 8601 string");
            } else throw typeError(`items.${key}.modifiedAt`, "epoch milliseconds or an ISO 8601 string");
            break;
          case "fiscalYear":
            if (v === undefined || v === null) break;
            if (typeof v !== "number") throw typeError(`items.${key}.fiscalYear`, "a whole number (a year)");
            flags |= 64;
            itemNums[3 * i + 1] = v;
            break;
          case "crossEncoderScore":
            if (v === undefined || v === null) break;
            if (typeof v !== "number") throw typeError(`items.${key}.crossEncoderScore`, "a number");
            flags |= 128;
            itemNums[3 * i + 2] = v;
            break;
          default:
            // An unknown key the item inherits (from a prototype of its own) is ignored.
            if (hasOwn.call(meta, f)) throw unknownField(`items.${key}`, f, ITEM_KEYS);
        }
        if (bit !== 0 && v !== undefined && v !== null) {
          if (typeof v !== "string") throw typeError(`items.${key}.${f}`, "a string");
          precheck.itemText(lim, v.length, key, f);
          const field = bit === 1 ? 1 : bit === 2 ? 2 : bit === 4 ? 3 : 4;
          if (hold) {
            // Over the limit in UTF-8 only? Then the module must see it (inline below).
            if (3 * v.length > lim.maxTextBytes && utf8Length(v) > lim.maxTextBytes) inline = true;
            heldUnits += v.length;
            if (d !== undefined) {
              if (slot < 0) {
                slot = heldTexts.length;
                heldTexts.push(undefined, undefined, undefined, undefined);
                heldDocs.push(d);
                heldItems.push(i);
              }
              heldTexts[slot + field - 1] = v;
            } else {
              // An item in no list: its texts are only counted (and kept in case the
              // call must carry them after all, below).
              if (heldElse === null) heldElse = [];
              heldElse.push(i, field, v);
            }
          } else {
            flags |= bit;
            itemTable[t + 1 + field] = strs.length;
            strs.push(v);
            units += v.length;
          }
        }
      }
      // A Map or a Date has no fields of its own to read: refused rather than read as an
      // item without fields (checked only for an item that gave none: off the common path).
      if (flags === 0 && (meta instanceof Map || meta instanceof Date)) throw typeError(`items.${key}`, "an object with the item's fields");
      itemTable[t + 1] = flags;
    }
  }
  if (now !== undefined && now !== null) {
    const [kind, v] = timestamp(now, strs, "now");
    head[1] = kind;
    head[2] = v;
    if (kind === 2) units += now.length;
  }
  let ctx;
  if (context !== undefined && context !== null) {
    if (!isObject(context)) throw typeError("context", "an object");
    ctx = precheck.jsonText(lim, toJson(context, "context"), "context");
  }
  if (hold && !inline && 3 * (units + heldUnits + occUnits + keyUnits) > lim.maxTotalTextBytes) {
    // The module cannot check what it does not see: texts stay held only when the call's
    // strings are within maxTotalTextBytes for sure, as the module counts them (every
    // list entry's id and every item key too; 3 bytes per UTF-16 unit at most). Over it
    // for sure in this table (a unit is at least a byte): encoded again inline, which
    // fails as it always did. Else the texts cross after all (appended to the string
    // table, nothing of the caller's read again) and the module counts them.
    if (units + heldUnits > lim.maxTotalTextBytes) inline = true;
    else {
      const put = (i, field, v) => {
        const t = 8 * i;
        itemTable[t + 1] |= 1 << (field - 1);
        itemTable[t + 1 + field] = strs.length;
        strs.push(v);
        units += v.length;
      };
      for (let k = 0; k < heldItems.length; k++)
        for (let f = 0; f < 4; f++) if (heldTexts[4 * k + f] !== undefined) put(heldItems[k], f + 1, heldTexts[4 * k + f]);
      if (heldElse !== null) for (let k = 0; k < heldElse.length; k += 3) put(heldElse[k], heldElse[k + 1], heldElse[k + 2]);
      hold = false;
    }
  }
  if (inline) return encodeInput(input, lim, -1, lease);
  if (hold) head[4] = 1;
  precheck.strings(lim, strs, units, (i) => inputField(i, head, nLists, listTable, docs, itemTable, strs));
  const held = hold ? { texts: heldTexts, docs: heldDocs, nDocs, slotOf: null, asked: false } : null;
  return { strs, units, idEnds: firstOf(ends, nDocs), listTable, docs, weights, scores, itemTable, itemNums, head, ctx, held };
}

/**
 * From this many list entries on, `encodeInput` keeps the ids' running lengths (`ends`).
 * Below it the ids are few enough to stay in the cache and reading their lengths again
 * costs little: kept from 64 entries on (as `rrf` does, whose indices table comes from
 * the scratch in the same step), workloads (b) and (c) at N = 1,000 took 4-5% longer
 * (`bench/ab.mjs`, B/A 1.04-1.05).
 */
const TAKEN_FROM = 4096;

/** Names string `i` of an encoded input (for an error; the order is the encoding's). */
function inputField(i, head, nLists, listTable, docs, itemTable, strs) {
  if (head[0] === i) return "query";
  if (head[1] === 2 && head[2] === i) return "now";
  if (i < head[3]) {
    // A distinct id: named where it first occurs.
    for (let l = 0; l < nLists; l++) {
      const start = listTable[5 * l + 1];
      for (let j = 0; j < listTable[5 * l + 2]; j++) if (docs[start + j] === i) return `lists[${l}].ids[${j}]`;
    }
  }
  for (let l = 0; l < nLists; l++) if (listTable[5 * l] === i) return `lists[${l}].name`;
  const names = ["name", "type", "summary", "content", "modifiedAt"];
  for (let t = 0; t < itemTable.length; t += 8) {
    const key = strs[itemTable[t]];
    if (itemTable[t] === i) return `items.${key}`;
    const flags = itemTable[t + 1];
    for (let f = 0; f < 5; f++) if (flags & (f < 4 ? 1 << f : 32) && itemTable[t + 2 + f] === i) return `items.${key}.${names[f]}`;
  }
  return "input";
}

const OUTCOME = ["abstain", "hedge", "answer"];

/** The query confidence: the output's next F64 section (four values). */
function confidenceAt(out) {
  const f64 = out.w.f64;
  const c = out.f64At();
  return { weightedTop5: f64[c], expectedPrecision: f64[c + 1], atLeastOneRelevant: f64[c + 2], k: f64[c + 3] };
}

/** The query-level outcome: the output's next U8 section, its two codes (wasm/core/src/pipeline.rs `outcome_codes`). */
function outcomeAt(out, confidence) {
  const u8 = out.w.u8;
  const o = out.u8At();
  return { kind: OUTCOME[u8[o]], probability: confidence.atLeastOneRelevant, source: u8[o + 1] === 1 ? "model" : "rankOnly" };
}

/**
 * Makes a pipeline of the configuration `text` in `wire`'s module. Its answer: the handle;
 * the effective limits (for the checks made before copying, at `f64[limitsAt]` in
 * `Limits::fields` order); how many candidates' texts the heuristic reranker reads (the
 * topK pool, or its first candidateLimit; -1 without that reranker: given more items
 * than that, `run` holds their texts back); and the module's table slot for
 * `writeHeldTexts` (the same for each of its pipelines: kept on the Wire).
 */
function newPipeline(wire, text) {
  const out = wire.call(OP.PIPELINE_NEW, new Input().text(text));
  const { u32, f64 } = out.w;
  const handle = u32[out.u32At()];
  const limitsAt = out.f64At();
  const hold = out.f64At();
  wire.textsSlot = f64[hold + 1];
  return { wire, handle, f64, limitsAt, holdAbove: f64[hold] };
}

/** A validated scoring pipeline. Free it with `free()` (or `using`); a FinalizationRegistry frees a forgotten one. */
export class Pipeline {
  #h;
  #text;
  #limits;
  #holdAbove;
  /** Validates `config` (the design documents' defaults for every missing field). */
  constructor(config) {
    notArray(config, "config");
    const text = precheck.jsonText(limitsOf(config, "Pipeline"), toJson(config === null ? undefined : config, "config"), "config");
    const names = state.limits().names;
    const made = newPipeline(w(), text);
    this.#h = { wire: made.wire, handle: made.handle, generation: made.wire.generation };
    this.#text = text;
    const limits = {};
    for (let i = 0; i < names.length; i++) limits[names[i]] = made.f64[made.limitsAt + i];
    this.#limits = limits;
    this.#holdAbove = made.holdAbove;
    if (registry) registry.register(this, this.#h, this.#h);
  }

  /** The handle, re-made if the module was restarted after a trap or given again by an `init`. */
  handle() {
    const h = this.#h;
    if (h === null) throw scoreError("INVALID_TYPE", "this", "the Pipeline was freed (free() or Symbol.dispose) and cannot be used any more");
    // Generations are numbered across Wires: a new Wire has a new one too.
    if (h.generation !== state.wire.generation) {
      h.handle = newPipeline(state.wire, this.#text).handle;
      h.generation = state.wire.generation;
      h.wire = state.wire;
    }
    return h.handle;
  }

  /** The effective configuration, with every default filled in. */
  get config() {
    return w().call(OP.PIPELINE_CONFIG, new Input().u32s([this.handle()])).json();
  }

  /** Runs the pipeline: fuse, recency, rerank, normalize, calibrate, filter, topN, bands, confidence. */
  run(input) {
    this.handle();
    const lease = scratch.take();
    let e, out;
    try {
      e = encodeInput(input, this.#limits, this.#holdAbove, lease);
      // The handle again, after the caller's getters ran: one of them could have freed
      // this pipeline (and made another in its slot).
      out = this.#call(this.handle(), e);
    } finally {
      scratch.give(lease);
    }
    return this.#results(out, e);
  }

  /** Copies an encoded input into the module and runs the pipeline on it. */
  #call(h, e) {
    const inp = new Input()
      .u32s([h])
      .strs(e.strs, e.units, e.idEnds)
      .f64s(e.head)
      .u32s(e.listTable)
      .u32s(e.docs)
      .f64s(e.weights)
      .f64s(e.scores)
      .u32s(e.itemTable)
      .f64s(e.itemNums)
      .text(e.ctx);
    if (e.held !== null) placeTexts(state.wire);
    heldCall = e.held;
    try {
      return state.wire.call(OP.PIPELINE_RUN, inp);
    } finally {
      heldCall = null;
      if (e.held !== null && e.held.asked) heldRuns++;
    }
  }

  /** The objects `run` returns, from the module's output. */
  #results(out, e) {
    // Result ids come back as indices into the distinct ids, the first strings of the
    // call (interned by encodeInput): the strings the caller gave, not decoded copies.
    const { u32, f64, u8 } = out.w;
    const d = out.u32At();
    const n = out.n;
    const sc = out.f64At();
    const b = out.u8At();
    const ids = e.strs;
    const results = new Array(n);
    for (let i = 0; i < n; i++) results[i] = { id: ids[u32[d + i]], score: f64[sc + i], band: BAND[u8[b + i]] };
    const confidence = confidenceAt(out);
    const st = out.u32At();
    const dup = out.u32At();
    const duplicates = new Array(out.n);
    for (let i = 0; i < duplicates.length; i++) duplicates[i] = u32[dup + i];
    // The keys in the order they always had.
    const stats = {
      lists: u32[st],
      candidates: u32[st + 1],
      inSeveralLists: u32[st + 2],
      duplicates,
      beyondTopK: u32[st + 3],
      beyondCandidateLimit: u32[st + 4],
      belowMinRelevance: u32[st + 5],
      belowMinConfidence: u32[st + 6],
      beyondTopN: u32[st + 7],
      returned: u32[st + 8],
      hits: u32[st + 9],
      degraded: u32[st + 10],
      misses: u32[st + 11],
    };
    const profile = out.text();
    if (profile !== undefined) stats.bandProfile = profile;
    explanations(out, results, e, profile);
    const outcome = outcomeAt(out, confidence);
    return { results, confidence, outcome, stats };
  }

  /**
   * Columnar fast path: lists as one `Uint32Array` of document indices (`docs`) cut by
   * `offsets`, results as typed arrays.
   */
  runColumnar(input) {
    this.handle();
    if (!isObject(input)) throw typeError("input", "an object with `docs`, `offsets` and `nDocs`");
    const { docs: docsIn, offsets: offsetsIn, nDocs, weights, modifiedAt, now } = noInheritedKeys(COLUMNAR_FIELDS) ? input : ownFields(input, COLUMNAR_FIELDS);
    const lim = this.#limits;
    if (typedArrayKind(docsIn) !== "Uint32Array") throw typeError("docs", "a Uint32Array");
    const docs = plainTyped(docsIn, Uint32Array);
    precheck.columnar(lim, docs.length, "docs");
    if (typedArrayKind(offsetsIn) !== "Uint32Array") throw typeError("offsets", "a Uint32Array");
    const offsets = plainTyped(offsetsIn, Uint32Array);
    if (offsets.length > lim.maxLists + 1)
      throw scoreError("INPUT_TOO_LARGE", "offsets", `${offsets.length} entries, above the limit of ${lim.maxLists + 1} (limits.maxLists)`);
    if (typeof nDocs !== "number") throw typeError("nDocs", "a number");
    const wts = weights === undefined || weights === null ? undefined : numbers(weights, "weights");
    let mt;
    if (modifiedAt !== undefined && modifiedAt !== null) {
      mt = numbers(modifiedAt, "modifiedAt");
      precheck.columnar(lim, mt.length, "modifiedAt");
    }
    const head = [nDocs, 0, 0];
    if (typeof now === "number") {
      head[1] = 1;
      head[2] = now;
    } else if (now instanceof Date) {
      head[1] = 1;
      head[2] = timeOf(now, "now", "epoch milliseconds (a number) or a Date");
    } else if (now !== undefined && now !== null) {
      // Was ignored (then "`now` is required with `modifiedAt`", or nothing at all).
      throw typeError("now", "epoch milliseconds (a number) or a Date");
    }
    // The handle looked up after the caller's getters ran (see `run`).
    const out = state.wire.call(OP.PIPELINE_RUN_COLUMNAR, new Input().u32s([this.handle()]).f64s(wts).f64s(mt).u32s(docs).u32s(offsets).f64s(head));
    const order = out.u32s();
    const scores = out.f64s();
    const bands = out.u8s();
    const confidence = confidenceAt(out);
    const candidates = out.w.u32[out.u32At()];
    const outcome = outcomeAt(out, confidence);
    return { order, scores, bands, confidence, outcome, candidates };
  }

  /** Frees the pipeline's memory in the module; later calls throw. */
  free() {
    const h = this.#h;
    if (h === null) return;
    this.#h = null;
    if (registry) registry.unregister(h);
    freeHandle(h);
  }

  [Symbol.dispose]() {
    this.free();
  }
}


/**
 * Each result's `explain`, built from the module's numbers (two sections, or two NONE
 * when the pipeline does not explain; layout in wasm/core/src/pipeline.rs,
 * `write_explanations`), with the keys in the order they always had. List names are the
 * input's (`e`, as `encodeInput` made it); the band profile is the stats'.
 */
function explanations(out, results, e, profile) {
  const at = out.u32At();
  const fat = out.f64At();
  if (at < 0) return;
  const { u32, f64 } = out.w;
  const names = (i) => e.strs[e.listTable[5 * i]];
  let p = at;
  let q = fat;
  for (let r = 0; r < results.length; r++) {
    const nc = u32[p];
    const kind = u32[p + 1];
    const band = BAND[u32[p + 2]];
    const hasProfile = u32[p + 3] !== 0;
    p += 4;
    const contributions = new Array(nc);
    for (let j = 0; j < nc; j++, p += 3, q += 3) {
      const c = { list: names(u32[p]), rank: u32[p + 1], weight: f64[q], contribution: f64[q + 1] };
      if (u32[p + 2] !== 0) c.listScore = f64[q + 2];
      contributions[j] = c;
    }
    const fused = f64[q];
    const recencyMultiplier = f64[q + 1];
    const afterRecency = f64[q + 2];
    q += 3;
    let rerank;
    if (kind === 1) {
      rerank = { method: "heuristic", factors: factorsAt(f64, q) };
      q += 6;
    } else if (kind === 2) {
      rerank = { method: "cross_encoder", raw: f64[q], normalized: f64[q + 1] };
      q += 2;
    } else rerank = { method: "none" };
    const x = {
      contributions,
      fused,
      recencyMultiplier,
      afterRecency,
      rerank,
      rerankRecencyMultiplier: f64[q],
      afterRerank: f64[q + 1],
      normalized: f64[q + 2],
      calibrated: f64[q + 3],
      band,
    };
    q += 4;
    if (hasProfile) x.bandProfile = profile;
    results[r].explain = x;
  }
}

/** Pipelines alive in the module (for leak tests). */
export function __livePipelines() {
  return w().call(OP.PIPELINE_LIVE).f64View()[0];
}

/** How many calls had their held texts asked for by the module (for tests: whether texts were held back). */
export function __heldTextsCalls() {
  return heldRuns;
}

// For the entry modules only (`export *` does not re-export a default export): `init`
// instantiates the module; `lazy` registers a loader run on the first call instead
// (Node), so importing the package costs nothing where it is never called; `texts`
// takes calibrank_texts.wasm compiled (the entries of engines that compile no wasm from
// bytes: see TEXTS_MODULE).
export default {
  ...state.hooks(),
  texts(module) {
    textsModule = module;
  },
};
