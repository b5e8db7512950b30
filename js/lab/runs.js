// Runs and judgements given as plain objects (query id -> document id -> score), read
// into typed sections (`RunObjects`), and runs read back from the module's JSON.
// A run or judgements object `{ queryId: { docId: score } }` crosses as typed sections
// (wasm/lab/src/handles.rs, `Object`): the query ids, each query's number of documents,
// the document ids and the scores, in the order JSON.stringify would list them (the
// object's own enumerable string keys: integer-like keys ascending, then insertion
// order), each property read once. The module builds the same run as it built from the
// JSON text before and charges it to the same budget. What the JSON text did and this
// keeps: a Map is read as the object JSON.stringify's replacer made of it (its keys in
// an object's order); a key with a lone surrogate is refused here (INVALID_TYPE on the
// path of the object holding it, or on the argument for a key under a Map); -0 is 0; a
// Date, an array, a typed array or a primitive's object is not a record. What it does
// not: no `toJSON` is called (an object is read by its own enumerable properties), a
// Number object is not a score, a score that is not a number is not read further (its
// getters, keys, cycles), and an own property whose value is `undefined` (a query's or
// a document's) is a value of the wrong type, as `null` is (JSON.stringify left it
// out, and it was dropped silently until the fortieth session). A value of the wrong
// type does not throw here: what follows it in that argument is still read (getters,
// lone surrogates in keys) but not kept, the entries before it are sent with the
// error, and the module reports it where it met it in the JSON text (after the
// options, the metrics and the earlier arguments).
import { HANDLE_KEY, clonedHandle, isHandleKind, emptyInstance, hasOwn, isMap, keyPath, mapAsObject, precheck, scoreError, setOwn, typeError, utf8Length, wellFormedName } from "../wire.js";


export const RECORD = "a record of query id -> document id -> score";
/** What judgements are (a Qrels' object, `RunObjects.add`'s `grades`). */
export const QRELS_RECORD = "a record of query id -> document id -> grade";
/** What one query of a run holds, and of judgements (`RunObjects.add`'s `grades`). */
const DOCS = "a record of document id -> score";
const GRADES = "a record of document id -> grade";
/**
 * What a record given as an object of a class without entries of its own (a Set, a
 * Pipeline) is refused as: JSON read it as `{}`, no queries (no documents). Checked only
 * for a record without keys.
 */
const notEmptyInstance = (what) => `${what}, not an instance of a class without entries of its own (a Pipeline, a Set?), which would be read as empty`;
const objectPrototype = Object.prototype;
const getPrototypeOf = Object.getPrototypeOf;
const objectKeys = Object.keys;

/** Whether `v` holds a primitive (a Number, String, Boolean or BigInt object) or a Date: what JSON.stringify wrote as a primitive (or, for a Date, its toJSON's string). */
function primitiveLike(v) {
  for (const valueOf of BRANDS) {
    try {
      valueOf.call(v);
      return true;
    } catch {
      // Not this kind.
    }
  }
  return false;
}
const BRANDS = [Number.prototype.valueOf, String.prototype.valueOf, Boolean.prototype.valueOf, Date.prototype.getTime];
if (typeof BigInt === "function") BRANDS.push(BigInt.prototype.valueOf);

/**
 * `v` as a record, read as JSON.stringify read it: itself, the object the replacer made
 * of a Map, or null (not a record: not an object, an array, a typed array, a primitive's
 * object or a Date). Checks made in the replacer's order: Map, typed array, array.
 */
function asRecord(v) {
  if (typeof v !== "object" || v === null) return null;
  const p = getPrototypeOf(v);
  if (p === objectPrototype) return Array.isArray(v) || ArrayBuffer.isView(v) ? null : v;
  // As the replacer: no prototype, so "__proto__" is an own key.
  if (isMap(v)) return mapAsObject(v);
  if (ArrayBuffer.isView(v) || Array.isArray(v)) return null;
  // Any other object is read by its own enumerable properties, as JSON.stringify read
  // those without toJSON (class instances, null-prototype objects, another realm's).
  return p === null || !primitiveLike(v) ? v : null;
}

const cyclic = (field) => scoreError("INVALID_TYPE", field, "the value is cyclic or nested too deep to be read");
const loneKey = (k, field) => wellFormedName(k, field, "a key", "keys");

/**
 * Reads one run or judgements object (`field`: its path; `top`: the argument's path,
 * where errors under a Map are reported, as the JSON text's were; `outer`: the array
 * holding it, if any; `grades`: judgements, whose queries hold grades). Returns its
 * sections' contents and the error of the first value of the wrong type (null if none).
 */
function readRun(value, field, top, outer, grades) {
  const qids = [];
  const counts = [];
  const docs = [];
  const scores = [];
  let qUnits = 0;
  let dUnits = 0;
  let bad = null;
  // The key whose path `bad` names: a string of the input, counted against the limits
  // like the ids (the path crosses as text).
  let badKey = "";
  const run = asRecord(value);
  const record = grades ? QRELS_RECORD : RECORD;
  if (run === null) return { qids, counts, docs, scores, qUnits, dUnits, bad: typeError(field, record, value), badKey };
  // The paths of the objects holding the keys, as the JSON text's errors named them (an
  // object under a Map was not found there: the argument's path).
  const runField = run === value ? field : top;
  const qs = objectKeys(run);
  if (qs.length === 0 && run === value && emptyInstance(value, false)) return { qids, counts, docs, scores, qUnits, dUnits, bad: typeError(field, notEmptyInstance(record), value), badKey };
  for (let i = 0; i < qs.length; i++) {
    const q = qs[i];
    const v = run[q];
    loneKey(q, runField);
    // (Objects only: `outer` is undefined outside an array, and an `undefined` value is
    // not a record, as `null` is not, below.)
    if (typeof v === "object" && (v === value || v === outer)) throw cyclic(top);
    const d = asRecord(v);
    if (d === null) {
      // A copy of a handle holds its mark alone; a handle itself (an `Items` given as a
      // run) is an instance of a class without entries of its own, as before the mark.
      if (q === HANDLE_KEY && isHandleKind(v))
        throw run === value && getPrototypeOf(value) !== objectPrototype ? typeError(field, notEmptyInstance(record), value) : clonedHandle(field, v);
      if (bad === null) {
        bad = typeError(keyPath(field, q), grades ? GRADES : DOCS, v);
        badKey = q;
      }
      continue;
    }
    // Its path, made only for an error (a key with a lone surrogate).
    const docField = d === v && run === value ? () => keyPath(field, q) : top;
    const ks = objectKeys(d);
    // A handle (`Run`, `Qrels`, `Items`) or a copy of one holds its mark alone.
    const marked = ks.length === 1 && ks[0] === HANDLE_KEY && isHandleKind(d[HANDLE_KEY]);
    if ((ks.length === 0 || marked) && d === v && emptyInstance(v, false)) {
      if (bad === null) {
        bad = typeError(keyPath(field, q), notEmptyInstance(grades ? GRADES : DOCS), v);
        badKey = q;
      }
      continue;
    }
    if (marked) {
      if (bad === null) {
        bad = clonedHandle(keyPath(field, q), d[HANDLE_KEY]);
        badKey = q;
      }
      continue;
    }
    // After a value of the wrong type the rest is still read (getters, keys), not kept.
    const keep = bad === null;
    if (keep) {
      qids.push(q);
      qUnits += q.length;
    }
    let n = 0;
    for (let j = 0; j < ks.length; j++) {
      const k = ks[j];
      const s = d[k];
      loneKey(k, docField);
      if (typeof s === "number") {
        if (bad !== null) continue;
        docs.push(k);
        dUnits += k.length;
        // -0 + 0 is 0: JSON.stringify wrote -0 as 0.
        scores.push(s + 0);
        n++;
      } else {
        // (`undefined` too is not a number, as `null` is not; objects only can be cycles.)
        if (typeof s === "object" && (s === v || s === value || s === outer)) throw cyclic(top);
        if (bad === null) {
          bad = typeError(keyPath(keyPath(field, q), k), "a number", s);
          badKey = k;
        }
      }
    }
    if (keep) counts.push(n);
  }
  return { qids, counts, docs, scores, qUnits, dUnits, bad, badKey };
}

/**
 * The runs and judgements of one call, read in the order the module charges them to the
 * call's budget (`lim`; null: the module alone checks), and checked against it before
 * anything is copied: entries against maxTotalEntries, the ids' bytes against
 * maxTotalTextBytes (their UTF-16 length first, counted exactly only when that is over).
 */
export class RunObjects {
  // Fields declared (defined, not assigned: js/wire/input.js `Scratch`).
  lim;
  entries = 0;
  units = 0;
  /** Every object read so far (`readRun`'s result, field), for the exact count of bytes. */
  read = [];
  constructor(lim) {
    this.lim = lim;
  }

  /** Reads `value` (see `readRun`), checks it against the limits and adds its sections to `input`. */
  add(input, value, field, top, outer, grades = false) {
    const r = readRun(value, field, top, outer, grades);
    this.read.push([r, field]);
    this.check(r, field);
    input.strs(r.qids, r.qUnits).u32s(r.counts).strs(r.docs, r.dUnits).f64s(r.scores);
    if (r.bad === null) input.none();
    else input.text(r.bad.field).text(r.bad.message);
  }

  check(r, field) {
    const lim = this.lim;
    if (!lim) return;
    const entries = this.entries + r.docs.length;
    this.units += r.qUnits + r.dUnits + r.badKey.length;
    if (this.units > lim.maxTotalTextBytes) {
      // Over for sure; the module, counting bytes, may have been over at an earlier object.
      let bytes = 0;
      for (const [o, f] of this.read) {
        for (let i = 0; i < o.qids.length; i++) bytes += utf8Length(o.qids[i]);
        for (let i = 0; i < o.docs.length; i++) bytes += utf8Length(o.docs[i]);
        bytes += utf8Length(o.badKey);
        if (o !== r) precheck.text(lim, bytes, f);
      }
      precheck.entries(lim, entries, field);
      precheck.text(lim, bytes, field);
    } else precheck.entries(lim, entries, field);
    this.entries = entries;
  }
}

/**
 * Builds a run's (or judgements') object from the sections the module writes
 * (wasm/lab/src/handles.rs `write_sections`): query ids, each query's count, the
 * documents and their numbers, in order. Keys are assigned one by one, which V8 does
 * several times faster than `JSON.parse` makes large objects of distinct keys (250,000
 * TREC lines: 0.5 s of `JSON.parse`), a little slower for small ones. A key
 * Object.prototype has (`__proto__`, `toString`, or a caller's setter or read-only value
 * there) is defined instead (`setOwn`), so every key is an own property, as `JSON.parse`
 * makes it (tests/js/own-objects.test.mjs). Everything is copied out of wasm memory
 * before the first key is set: a caller's replacement of `Object.defineProperty` that
 * calls the lab cannot change what is read.
 */
export function runOfSections(out) {
  const queries = out.strs();
  const counts = out.u32s();
  const docs = out.strs();
  const scores = out.f64s();
  const run = {};
  let k = 0;
  for (let i = 0; i < queries.length; i++) {
    const one = {};
    for (const end = k + counts[i]; k < end; k++) put(one, docs[k], scores[k]);
    put(run, queries[i], one);
  }
  return run;
}

function put(o, key, value) {
  if (hasOwn.call(Object.prototype, key)) setOwn(o, key, value);
  else o[key] = value;
}

/**
 * Run objects this package returned in ranx's order (`fuseRuns` of objects, a `Run`'s
 * `toObject()`): read back as they are when their scores still come in non-increasing
 * order, where any other object is sorted as ranx's `Run(dict)` sorts a dict (which can
 * reorder 16 or more tied documents; ranx does not re-sort its own fused run).
 */
export const rankedObjects = new WeakSet();
