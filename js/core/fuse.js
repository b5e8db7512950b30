// Reciprocal Rank Fusion of lists of ids (`rrf`) and of document indices (`rrfColumnar`).
import { Input, checkedCopy, plainTyped, precheck, indices, typeError, typedArrayKind, fromObjectPrototype, firstOf, compareUtf8, Interner } from "../wire.js";
import { OP, state, w, limitsOf, scratch, noInheritedKeys, isPlainRecord, isU32, columnarRoom } from "./shared.js";


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
  if (!isPlainRecord(options)) return asJson(r, options, fn);
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
      head[1] = v + 0; // -0 as JSON sends it: 0
    } else if (key === "weights") {
      if (v === undefined || v === null) continue;
      if (typedArrayKind(v) === "Float64Array") r.weights = plainTyped(v, Float64Array);
      else {
        // Copied (each element read once), or null: the module reads the JSON text.
        r.weights = Array.isArray(v) ? checkedCopy(v, () => null, () => typeError("options.weights", "an array of numbers")) : null;
        if (r.weights === null) return asJson(r, options, fn);
      }
    } else if (key === "limits") {
      if (v === undefined || v === null) continue;
      if (!isPlainRecord(v)) return asJson(r, options, fn);
      for (const name in v) {
        if (!clean && fromObjectPrototype(v, name)) continue;
        const i = slot[name];
        const x = v[name];
        if (x === undefined || x === null) continue;
        if (i === undefined || !isU32(x)) return asJson(r, options, fn);
        head[2 + i] = x;
      }
      // The checks' limits (as `LimitTable.effective` makes them: a value the module
      // would refuse holds the checks here to the ceilings, and leaves them to the module).
      r.lim = fn === null ? null : table.ofSlots(fn, head, 2);
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
  if (!Array.isArray(lists)) throw typeError("lists", "an array of arrays of strings", lists);
  const nLists = lists.length;
  precheck.lists(lim, nLists, "lists", "an array of arrays of strings");
  // Plain arrays of small integers: creating a typed array costs about a microsecond,
  // as much as the rest of a small call.
  // Each list and its length are read once (a Proxy could answer differently later).
  const lens = new Array(nLists);
  const ls = new Array(nLists);
  let total = 0;
  for (let i = 0; i < nLists; i++) {
    const l = lists[i];
    if (!Array.isArray(l)) throw typeError(`lists[${i}]`, "an array of strings", l);
    const n = l.length;
    precheck.length(lim, n, `lists[${i}]`, "an array of strings");
    ls[i] = l;
    lens[i] = n;
    total += n;
  }
  precheck.entries(lim, total, "lists");
  // Interned here (V8 keeps each string's hash): the module gets each distinct id once
  // and the lists as indices.
  // (A call of a few short ids interns them without a `Map`: js/wire/values.js `Interner`.)
  const interner = new Interner(total, "lists");
  const ids = interner.ids;
  // Large tables as typed arrays from the scratch (one copy into the call), and the
  // ids' running lengths kept while each id is at hand (see `Input.strs`): from 64
  // entries on, where a typed array costs less than it saves (the pipeline keeps the
  // lengths from `TAKEN_FROM` entries on).
  const big = total >= 64;
  // A small call whose limits here are the module's (options in their compact form,
  // every limit valid) sends the ids' count alone: their sizes are checked here, and the
  // ties of the module's order (in index order) are ordered by the ids' bytes here
  // (`orderTies`). No string crosses: writing the string table and reading it back cost
  // more than the rest of the module's work at N = 10 (docs/performance-history.md, "Small
  // `rrf` calls without their strings").
  const lean = !big && !opts.json && lim.atCeilings !== true;
  let lease = null;
  let units = 0;
  let longest = 0;
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
        let d = interner.find(id);
        if (d === undefined) {
          if (typeof id !== "string") throw typeError(`lists[${i}][${j}]`, "a string", id);
          d = interner.add(id);
          units += id.length;
          if (id.length > longest) longest = id.length;
          if (big) ends[d] = units;
        }
        docs[k++] = d;
      }
    }
    // The ids' sizes, in the module's order. Without their strings the module checks
    // none: counted exactly here unless 3 bytes per UTF-16 unit (UTF-8's most) keep them
    // within the limits. With them, counted here only when their UTF-16 units alone
    // exceed maxTotalTextBytes (the input is then refused before it is copied). Before
    // the options' JSON text is made (which runs the caller's getters and toJSON again),
    // as before the lean path.
    if (lean ? 3 * longest > lim.maxIdBytes || 3 * units > lim.maxTotalTextBytes : units > lim.maxTotalTextBytes) precheck.listStrings(lim, ids, lens, docs, entryField);
    const input = writeKWeightsLimits(new Input(), opts, options).u32s(lens).u32s(docs);
    if (lean) out = w().call(OP.RRF, input.u32s([ids.length]));
    else out = w().call(OP.RRF, input.strs(ids, units, firstOf(ends, ids.length)));
  } finally {
    if (lease !== null) scratch.give(lease);
  }
  const o = out.u32At();
  const n = out.n;
  const s = out.f64At();
  const { u32, f64 } = out.w;
  const result = new Array(n);
  for (let i = 0; i < n; i++) result[i] = [ids[u32[o + i]], f64[s + i]];
  if (lean) orderTies(result, out.u8At(), out.w.u8, n);
  return result;
}

/** Entry j of list i (`precheck.listStrings`). */
const entryField = (i, j) => `lists[${i}][${j}]`;

/**
 * Orders each run of equal scores of `result` (`[id, score]` pairs, the run in the ids'
 * order of first occurrence; `flags[t + i]` is 1 where entry i's score equals entry
 * i - 1's) by the ids' UTF-8 bytes, stably, as the module orders the ties it sees the
 * ids of (`sort_keyed_then`).
 */
function orderTies(result, t, flags, n) {
  for (let i = 1; i < n; i++) {
    if (flags[t + i] === 0) continue;
    // Insertion of entry i into the run before it.
    const e = result[i];
    let j = i;
    while (j > 0 && flags[t + j] === 1 && compareUtf8(result[j - 1][0], e[0]) > 0) {
      result[j] = result[j - 1];
      j--;
    }
    result[j] = e;
  }
}

/**
 * Columnar RRF: `docs` holds every list's document indices concatenated, list i being
 * `docs[offsets[i]..offsets[i+1]]`. Returns `{ order, scores }` (ties: index ascending).
 */
export function rrfColumnar(docs, offsets, nDocs, options) {
  const lim = limitsOf(options, "rrfColumnar");
  const d = indices(docs, "docs");
  const o = indices(offsets, "offsets");
  if (typeof nDocs !== "number") throw typeError("nDocs", "a number", nDocs);
  precheck.columnar(lim, d.length, "docs");
  const out = w().call(OP.RRF_COLUMNAR, writeKWeightsLimits(new Input(), kWeightsLimits(options, null), options, lim).indices(d).indices(o).f64s([nDocs]).roomFor(columnarRoom(lim, nDocs, d.length)));
  return { order: out.u32s(), scores: out.f64s() };
}
