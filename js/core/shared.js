// What every part of the core's JavaScript shares: the module's state (its Wire, lazy
// loader and limits table: js/wire.js), the operation numbers, the scratch tables, and
// the small readers of caller objects and of the module's output.
import { ModuleState, Scratch, scoreError, typeError, keyPath, hasOwn, own, unknownKeyWords, notRecord } from "../wire.js";
import { LIMIT_TABLE } from "./pipeline-defaults.js";

// Operation numbers: wasm/core/src/lib.rs (1-3 and the pipeline's) and
// wasm/core/src/functions.rs (20-27).
export const OP = {
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

// Two states: every function but `Pipeline` runs on `state`'s module (calibrank_core.wasm,
// which holds every operation); `Pipeline` on `pipelineState`'s, which is that same
// module unless an entry gave it calibrank_pipeline.wasm (the `Pipeline` alone: the
// browser entry of a bundled app that imports nothing else; js/entries/browser.js).
export const state = new ModuleState("calibrank", {});
// calibrank_pipeline.wasm has no limits table (operation 3): the whole core's module's,
// as js/core/pipeline-defaults.js holds it.
export const pipelineState = new ModuleState("calibrank", {}, state, (wire) => (wire.typedConfig ? LIMIT_TABLE : undefined));
export const w = () => state.get();
export const limitsOf = (options, fn) => state.limitsOf(options, fn);
// The typed arrays `rrf`, `Pipeline.run` and `fuseMultiQuery` encode their tables into,
// kept between calls. Slots by kind: 0, 1 and 3 Uint32Array, 2 and 4 Float64Array, 5
// Uint8Array (a slot asked for another kind than it holds is allocated again).
export const scratch = new Scratch();

/**
 * Drops the tables the scratch keeps (`__dropScratch`, for tests: the next call makes its
 * tables afresh, whatever the calls before it kept); returns the bytes they held.
 */
export function __dropScratch() {
  return scratch.drop();
}

const { getPrototypeOf } = Object;
const ObjectPrototype = Object.prototype;
/**
 * Whether `v` is a plain object (its prototype `Object.prototype`, not an array): the
 * common case of a hit or candidate, which the Map, Date and array checks then skip.
 */
export const isPlainRecord = (v) => typeof v === "object" && v !== null && getPrototypeOf(v) === ObjectPrototype && !Array.isArray(v);

/** Whether `v` is a whole number a `u32` holds. */
export const isU32 = (v) => typeof v === "number" && v >= 0 && v <= 0xffffffff && Math.floor(v) === v;

/**
 * The room a columnar call (`rrfColumnar`, `runColumnar`) of `entries` list entries over
 * `nDocs` documents asks the module for (`Input.roomFor`): 32 bytes a document for the
 * fusion (its 16-byte record, then the scores and counts split from it) and 48 a
 * document present (at most one per entry: the (key, index) pairs, the radix sort's
 * buffer, the order, the scores out), a margin included (3 x 1,000,000 entries over
 * 1.5 million documents measured 72 and 90 bytes a document, the input's 8 and 16
 * included). None for an `nDocs` the module will refuse (not a u32, above the limit).
 */
export const columnarRoom = (lim, nDocs, entries) =>
  isU32(nDocs) && nDocs <= lim.maxColumnarEntries ? 32 * nDocs + 48 * Math.min(nDocs, entries) : 0;

export const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

export const unknownField = (path, key, allowed) => scoreError("UNKNOWN_FIELD", keyPath(path, key), unknownKeyWords(key, [...allowed]));

/**
 * An object with nothing of its own, for asking what a plain object inherits: `key in
 * BARE` is whether Object.prototype has `key`, enumerable or not.
 */
export const BARE = Object.freeze({});
/**
 * Whether Object.prototype has no enumerable key (nothing was added there that a `for
 * ... in` over a plain object would meet). The functions reading a kind of record ask
 * besides whether any of its fields is there at all (a non-enumerable one is read by
 * `o.field` too), each field written out as a constant `key in BARE`: the engine caches
 * such a check, 5 ns for ten keys, where one loop over a list of the keys cost 120 ns a
 * call, 2% of `Pipeline.run` at N = 10 (`node bench/small-costs.mjs`). When both hold, the fields of the caller's
 * records are read directly, not through `own`. tests/js/suite/caller-code.js plants each field on
 * Object.prototype ("a field on Object.prototype ...").
 */
export function noInheritedKeys() {
  for (const _ in BARE) return false;
  return true;
}

/** `fields` of `o` read with `own` (keys from Object.prototype left out), as an object. */
export function ownFields(o, fields) {
  // Without a prototype: a field Object.prototype holds as an accessor or a read-only
  // value would otherwise take the copy's write (its setter run, or a TypeError thrown)
  // and answer the destructuring's read.
  const out = Object.create(null);
  for (const f of fields) out[f] = own(o, f);
  return out;
}

/**
 * For the error path of a record's reader (an unknown key, a missing field), written
 * `throw recordError(obj, field, expected) ?? theReadersError`: the record itself
 * `INVALID_TYPE` on `field` ("expected `expected`, got a Uint32Array") when it is of a
 * built-in kind no record is read from (`notRecord`: a typed array's indices or a String
 * object's characters are no fields, a Number object has none), else null. Only an error
 * pays for the brand checks. (Not a callback making the reader's error: a closure over
 * a loop's variables makes the engine keep them in a context allocated at every turn,
 * even when the closure is never made: about 4% of (b) and 6% of (c) at N = 10 in an
 * interleaved A/B.)
 */
export const recordError = (obj, field, expected) => (notRecord(obj) ? typeError(field, expected, obj) : null);

/**
 * Refuses an own key of `obj` not in `allowed`: `UNKNOWN_FIELD` under `path` (the record's
 * own path, "" for a call's input), or `obj` itself of a kind no record is read from
 * (`recordError`, on `path`, or on "input", expected to be `expected`).
 */
export function checkKeys(obj, allowed, path, expected) {
  for (const key in obj) if (!allowed.has(key) && hasOwn.call(obj, key)) throw recordError(obj, path === "" ? "input" : path, expected) ?? unknownField(path, key, allowed);
}

export const missingField = (path, key) => scoreError("INVALID_CONFIG", keyPath(path, key), `missing field \`${key}\``);

export const BAND = ["miss", "degraded", "hit"];

const OUTCOME = ["abstain", "hedge", "answer"];

/** The query confidence: the output's next F64 section (four values). */
export function confidenceAt(out) {
  const f64 = out.w.f64;
  const c = out.f64At();
  return { weightedTop5: f64[c], expectedPrecision: f64[c + 1], atLeastOneRelevant: f64[c + 2], k: f64[c + 3] };
}

/** The query-level outcome: the output's next U8 section, its two codes (wasm/core/src/pipeline/output.rs `outcome_codes`). */
export function outcomeAt(out, confidence) {
  const u8 = out.w.u8;
  const o = out.u8At();
  return { kind: OUTCOME[u8[o]], probability: confidence.atLeastOneRelevant, source: u8[o + 1] === 1 ? "model" : "rankOnly" };
}
