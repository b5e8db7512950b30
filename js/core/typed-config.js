// A pipeline's configuration and a run's context for calibrank_pipeline.wasm, which holds
// no JSON: decoded here, as wasm/shared/src/decode.rs decodes them for
// calibrank_core.wasm, and sent as numbers and strings in field order
// (wasm/core/src/typed.rs reads them back).
//
// The value is first what the core's module would read: the package's JSON text of it
// (js/wire/json.js: `JSON.stringify` with its replacer) parsed back, its sentinels undone
// as wasm/shared/src/json.rs undoes them. The decoders below are decode.rs's, line for
// line: the same values, and the same errors (serde's words, codes and field paths), which
// tests/js/pipeline-module.test.mjs checks against the core's module on random
// configurations.
import { scoreError, keySegment, wellFormed, toWellFormed, jsonParse, compareUtf8, unknownKeyWords, quoted, setOwn, shownName, headOf, hasOwn } from "../wire.js";
import { ScoreError } from "../score_error.js";
import { PIPELINE_DEFAULTS, LIMIT_TABLE } from "./pipeline-defaults.js";

// ---------------------------------------------------------------- The tree

/** A JavaScript value with no JSON form (json.rs `Json::Invalid`). */
class Invalid {
  // Fields declared (defined, not assigned: js/wire/input.js `Scratch`).
  kind;
  constructor(kind) {
    this.kind = kind;
  }
}

const bitsView = new DataView(new ArrayBuffer(8));
const HEX16 = /^[0-9a-fA-F]{16}$/;
const INVALID_KINDS = new Set(["function", "symbol", "bigint", "Map with keys that are not strings", "a Set", "an instance of a class without fields of its own"]);

/** A string of the JSON text as json.rs reads it: lone surrogates as U+FFFD, a sentinel (U+0000 first) undone. */
function revive(str) {
  const s = toWellFormed(str);
  if (s.charCodeAt(0) !== 0) return s;
  const rest = s.slice(1);
  if (rest === "NaN") return NaN;
  if (rest === "Infinity") return Infinity;
  if (rest === "-Infinity") return -Infinity;
  if (INVALID_KINDS.has(rest)) return new Invalid(rest);
  if (rest.charCodeAt(0) === 35 /* # */) {
    const hex = rest.slice(1);
    // The replacer writes 16 hex digits; a caller's string that starts with U+0000 has
    // one more in front, so no caller's string reaches here.
    if (!HEX16.test(hex)) throw scoreError("INTERNAL", "", "a number's bits must be 16 hex digits");
    bitsView.setUint32(0, parseInt(hex.slice(0, 8), 16));
    bitsView.setUint32(4, parseInt(hex.slice(8), 16));
    return bitsView.getFloat64(0);
  }
  if (rest.charCodeAt(0) === 0) return rest;
  return s;
}

/** How deep arrays and objects may nest (json.rs MAX_DEPTH). */
const MAX_DEPTH = 64;

const TOO_DEEP = Symbol("too deep");

/**
 * The parsed value `v` at `depth` with its strings revived in place (JSON.parse's own
 * arrays and objects); throws TOO_DEEP for an array or object at depth 64 or more. (One
 * walk instead of JSON.parse's reviver, which costs a call per value.)
 */
function revived(v, depth) {
  if (typeof v === "string") return v.charCodeAt(0) === 0 || !wellFormed(v) ? revive(v) : v;
  if (typeof v !== "object" || v === null) return v;
  if (depth >= MAX_DEPTH) throw TOO_DEEP;
  if (isArr(v)) {
    for (let i = 0; i < v.length; i++) v[i] = revived(v[i], depth + 1);
  } else {
    for (const k of Object.keys(v)) v[k] = revived(v[k], depth + 1);
  }
  return v;
}

/**
 * The tree of `text` (the package's JSON text of a caller's value), as json.rs parses
 * it: objects keep their keys in text order (JSON.parse makes each an own property,
 * `__proto__` too), sentinels become numbers, strings or `Invalid`s.
 */
function treeOf(text, what) {
  try {
    return revived(jsonParse(text), 0);
  } catch (e) {
    if (e === TOO_DEEP) throw scoreError("INVALID_TYPE", what, `the value is nested deeper than ${MAX_DEPTH} levels`);
    throw e;
  }
}

const isArr = Array.isArray;
const isObj = (v) => typeof v === "object" && v !== null && !isArr(v) && !(v instanceof Invalid);

// ---------------------------------------------------------------- Failures

// (decode.rs's duplicate-field fault has no twin: JSON.parse keeps one of a repeated key,
// and the package's JSON text has none.)
const TYPE = 0;
const UNKNOWN_FIELD = 1;
const MISSING_FIELD = 2;
const UNKNOWN_VARIANT = 3;

/** A decoding failure (json.rs `DeError`): what it is, serde's words, where. */
class Failure {
  fault;
  message;
  name;
  at = "";
  constructor(fault, message, name = "") {
    this.fault = fault;
    this.message = message;
    this.name = name;
  }
  key(k) {
    this.at = keySegment(k) + this.at;
    return this;
  }
  index(i) {
    this.at = `[${i}]${this.at}`;
    return this;
  }
  here() {
    this.at = "";
    return this;
  }
  /** The ScoreError (calibrank::error::fault_error). */
  typed(what) {
    const { fault, name, at } = this;
    const onKey = at.endsWith(keySegment(name));
    let code = "INVALID_TYPE";
    let key = null;
    if (fault === UNKNOWN_FIELD) [code, key] = ["UNKNOWN_FIELD", onKey ? null : name];
    else if (fault === MISSING_FIELD) [code, key] = ["INVALID_CONFIG", name];
    else if (fault === UNKNOWN_VARIANT) code = "UNKNOWN_METHOD";
    let field = what + at + (key === null ? "" : keySegment(key));
    if (what === "" && field.startsWith(".")) field = field.slice(1);
    return scoreError(code, field, this.message);
  }
}

/** A value of the wrong kind: "expected `expected`, got `v`" (decode.rs `bad`, `shown`). */
const bad = (expected, v) => new Failure(TYPE, `expected ${expected}, got ${shown(v)}`);
/**
 * A value as decode.rs `shown` shows it: `null`, `true`, a number as `String(v)` prints
 * it, a string `quoted` (cut after 64 characters), `an array`, `an object`, or the kind of a value that is not JSON.
 */
function shown(v) {
  if (v === null || typeof v === "boolean" || typeof v === "number") return String(v);
  if (typeof v === "string") {
    // Its first 64 characters, then "…" (decode.rs `shown`, the crate's `error::shown_str`).
    const head = headOf(v);
    return quoted(head === v ? v : `${head}…`);
  }
  if (isArr(v)) return "an array";
  if (v instanceof Invalid) return v.kind;
  return "an object";
}
const missingField = (k) => new Failure(MISSING_FIELD, `missing field \`${k}\``, k);

/** Runs `f`, a failure passed on under the key `k` / the index `i`. */
function under(k, f) {
  try {
    return f();
  } catch (e) {
    throw e instanceof Failure ? e.key(k) : e;
  }
}
function at(i, f) {
  try {
    return f();
  } catch (e) {
    throw e instanceof Failure ? e.index(i) : e;
  }
}

// ---------------------------------------------------------------- Values
// Each decoder reads a tree value and writes what it decoded to `out` (numbers to
// `out.n`, strings to `out.s`, in the order wasm/core/src/typed.rs reads them).

function num(v) {
  if (typeof v !== "number") throw bad("a number", v);
  return v;
}
const int = (lo, hi, expected) => (v) => {
  if (typeof v === "number" && v % 1 === 0 && v >= lo && v <= hi) return v;
  throw bad(expected, v);
};
const u32 = int(0, 4294967295, "a whole number from 0 to 4294967295");
const i32 = int(-2147483648, 2147483647, "a whole number from -2147483648 to 2147483647");
function boolean(v) {
  if (typeof v !== "boolean") throw bad("a boolean", v);
  return v ? 1 : 0;
}
function string(v) {
  if (typeof v !== "string") throw bad("a string", v);
  return v;
}

// Writers of a decoded value: `put(out, x)`.
const putNum = (out, x) => out.n.push(x);
const putStr = (out, x) => out.s.push(x);
// The effective configuration (`Pipeline.config`, which calibrank_pipeline.wasm does not
// write): `out(x, d)` gives a decoded value `x` as `JSON.parse` of calibrank_core.wasm's
// JSON text of it would, `d` the default of what `x` leaves out.
const same = (x) => x;
/** A number as the module's JSON writes it: a non-finite one (a field nothing checks) as `null`. */
const finite = (x) => (Number.isFinite(x) ? x : null);

/** A kind: `read(v)` decodes (throwing a Failure), `put(out, x)` writes, `out(x, d)` the effective value. */
const kind = (read, put, out = same) => ({ read, put, out });
// (decode.rs's `num0`, -0 read as 0 inside the buffered calibration, has no twin: the
// package's JSON text writes -0 as 0.)
const NUM = kind(num, putNum, finite);
const U32 = kind(u32, putNum);
const I32 = kind(i32, putNum);
const BOOL = kind(boolean, putNum, (x) => x === 1);
const STR = kind(string, putStr);

/** `null` is None (a flag 0), anything else the kind's value (a flag 1, the value). */
const opt = (k) =>
  kind(
    (v) => (v === null ? null : k.read(v)),
    (out, x) => {
      out.n.push(x === null ? 0 : 1);
      if (x !== null) k.put(out, x);
    },
    (x, d) => (x === null ? null : k.out(x, d ?? undefined)),
  );

/** An array of the kind's values (its length, then each). */
const list = (k) =>
  kind(
    (v) => {
      if (!isArr(v)) throw bad("an array", v);
      return v.map((x, i) => at(i, () => k.read(x)));
    },
    (out, xs) => {
      out.n.push(xs.length);
      for (const x of xs) k.put(out, x);
    },
    (xs) => xs.map((x) => k.out(x, undefined)),
  );

/** An object of numbers (its size, then each key and value; a repeated key cannot occur in a parsed tree). */
const NUM_MAP = kind(
  (v) => {
    if (!isObj(v)) throw bad("an object", v);
    return Object.keys(v).map((k) => [k, under(k, () => num(v[k]))]);
  },
  (out, entries) => {
    out.n.push(entries.length);
    for (const [k, x] of entries) {
      out.s.push(k);
      out.n.push(x);
    }
  },
  (entries) => {
    // A BTreeMap: keys in order (of their UTF-8 bytes, as the module's JSON writes them).
    const o = {};
    for (const [k, x] of [...entries].sort((a, b) => compareUtf8(a[0], b[0]))) setOwn(o, k, finite(x));
    return o;
  },
);

/** Five numbers, no more and no fewer: every element read, then the length checked. */
const FIVE = kind(
  (v) => {
    if (!isArr(v)) throw bad("an array", v);
    const out = [];
    for (let i = 0; i < v.length; i++) out.push(at(i, () => num(v[i])));
    if (v.length !== 5) throw new Failure(TYPE, `expected an array of 5 numbers, got an array of ${v.length}`);
    return out;
  },
  (out, xs) => out.n.push(...xs),
  (xs) => xs.map(finite),
);

/** A name that is none of `names`, worded as the crate's `error::not_one_of` words it (`scoreError` adds the nearest). */
const notOneOf = (name, names) => new Failure(UNKNOWN_VARIANT, `${shownName(name)} is not one of ${names.map(quoted).join(", ")}`);

/** A unit variant of `names` (its index): its name, or `{"name": null}`. */
const unit = (names) =>
  kind((v) => {
    let name;
    let value = null;
    if (typeof v === "string") name = v;
    else if (isObj(v) && Object.keys(v).length === 1) {
      name = Object.keys(v)[0];
      value = v[name];
    } else throw bad("a name (a string)", v);
    const i = names.indexOf(name);
    if (i < 0) throw notOneOf(name, names);
    if (value !== null) throw bad("null", value).key(name);
    return i;
  }, putNum, (i) => names[i]);

/** Refuses a value that holds something that is not JSON (serde's buffering of a tagged enum's content). */
function plain(v) {
  if (v instanceof Invalid) throw new Failure(TYPE, `expected JSON, got ${v.kind}`);
  if (isArr(v)) v.forEach((x, i) => at(i, () => plain(x)));
  else if (isObj(v)) for (const k of Object.keys(v)) under(k, () => plain(v[k]));
}

// ---------------------------------------------------------------- Structs

/** Field kinds: required; an `Option` without a default (None when missing); defaulted. */
const REQ = 0;
const OPT = 1;
const DEF = 2;
/** Modes: a struct read directly; a variant of a tagged enum (buffered, without its `method` tag). */
const PLAIN = 0;
const TAGGED = 1;

/** A field's failure under its key or index (a tagged variant's array form counts its tag, element 0): decode.rs `within`. */
function within(f, mode, key, i) {
  if (!(f instanceof Failure)) return f;
  return key !== null ? f.key(key) : f.index(i + mode);
}

/** An unknown key's failure: under the key, or on a tagged enum itself, as serde says it (decode.rs `unknown`). */
function unknownKey(k, listed, mode) {
  const f = new Failure(UNKNOWN_FIELD, unknownKeyWords(k, listed), k);
  return mode === TAGGED ? f.here() : f.key(k);
}

/**
 * A struct: `fields` are `[key, fieldKind, kind, skipNull]` (`skipNull`: a field the
 * module's JSON leaves out when it is None). Decoded as an object (keys in any
 * order; an unknown or missing key is an error, in text order) or as an array of its
 * fields in order; the value is one entry per field, `undefined` where it was not given.
 * Written: a defaulted field as a flag (0: not given, the default) and its value; a
 * required one as its value; an `OPT` one as its kind writes `null` when not given.
 */
const struct = (fields, mode = PLAIN, listed = fields.map((f) => f[0])) =>
  kind(
    (v) => {
      const got = new Array(fields.length).fill(undefined);
      const set = (i, x, key) => {
        try {
          got[i] = fields[i][2].read(x);
        } catch (e) {
          throw within(e, mode, key, i);
        }
      };
      if (isObj(v)) {
        for (const k of Object.keys(v)) {
          const i = fields.findIndex((f) => f[0] === k);
          if (i >= 0) set(i, v[k], k);
          else if (!(mode === TAGGED && k === "method")) throw unknownKey(k, listed, mode);
        }
        fields.forEach(([k, fk], i) => {
          if (fk === REQ && got[i] === undefined) throw missingField(k);
        });
        return got;
      }
      if (isArr(v)) {
        const items = v.slice(mode);
        for (let i = 0; i < items.length && i < fields.length; i++) set(i, items[i], null);
        const short = fields.slice(items.length).some(([, fk]) => fk !== DEF);
        // Too few, or more than the fields (were dropped unless tagged): as decode.rs.
        if (short || items.length > fields.length) {
          throw new Failure(TYPE, `expected an object, got an array of ${v.length}`);
        }
        return got;
      }
      throw bad("an object", v);
    },
    (out, got) => {
      fields.forEach(([, fk, k], i) => {
        const x = got[i];
        if (fk === DEF) {
          out.n.push(x === undefined ? 0 : 1);
          if (x !== undefined) k.put(out, x);
        } else k.put(out, x === undefined ? null : x);
      });
    },
    (got, d) => {
      const o = {};
      fields.forEach(([key, , k, skipNull], i) => {
        const x = got[i];
        const v = x === undefined ? (d === undefined ? null : copy(d[key])) : k.out(x, d === undefined ? undefined : d[key]);
        if (!(skipNull && v === null)) setOwn(o, key, v);
      });
      return o;
    },
  );

const OPT_U32 = opt(U32);
const OPT_STR = opt(STR);

const RECENCY = struct([
  ["mode", DEF, unit(["none", "step", "fiscal_year"])],
  ["steps", DEF, list(struct([["maxAgeDays", REQ, NUM], ["multiplier", REQ, NUM]]))],
  ["fiscalYear", DEF, struct([["window", DEF, U32], ["latestYear", DEF, I32]])],
  ["boost", DEF, NUM],
]);

const HEURISTIC = struct([
  ["exactNameMultiplier", DEF, NUM],
  ["nameTermWeight", DEF, NUM],
  ["summaryTermWeight", DEF, NUM],
  ["shortContentChars", DEF, U32],
  ["shortContentMultiplier", DEF, NUM],
  ["typeMultipliers", DEF, NUM_MAP],
  ["unknownTypeMultiplier", DEF, NUM],
  ["stopwords", DEF, opt(list(STR))],
]);

const RERANK = struct([
  ["method", DEF, unit(["none", "heuristic", "cross_encoder"])],
  ["heuristic", DEF, HEURISTIC],
  ["candidateLimit", DEF, OPT_U32],
  ["recencyBoost", DEF, NUM],
  ["crossEncoderNormalization", DEF, unit(["min_max", "none"])],
]);

const NORMALIZATION = struct([
  ["method", DEF, unit(["none", "max", "min_max", "z_score", "softmax"])],
  ["temperature", DEF, NUM],
  ["minRelevance", DEF, NUM],
]);

const CALIBRATION_VARIANTS = [
  struct([["threshold", DEF, NUM], ["steepness", DEF, NUM]], TAGGED),
  struct([["a", REQ, NUM], ["b", REQ, NUM]], TAGGED),
  struct([["x", REQ, list(NUM)], ["y", REQ, list(NUM)]], TAGGED),
];
const METHODS = ["sigmoid", "platt", "isotonic"];
/**
 * A sigmoid given without `method`: read as the sigmoid is, an unknown key's words
 * listing `method` too (src/pipeline/tagged.rs `bare`): a misspelt `method` is then said
 * with the key meant.
 */
const BARE_KEYS = ["method", "threshold", "steepness"];
const MODEL_KEYS = ["a", "b", "x", "y"];
const BARE_SIGMOID = struct([["threshold", DEF, NUM], ["steepness", DEF, NUM]], TAGGED, BARE_KEYS);

/** `Calibration`, tagged by `method` (a name or a variant index), which serde buffers before it reads the variant; without `method`, an object is a sigmoid (src/pipeline/tagged.rs). */
const CALIBRATION = kind(
  (v) => {
    const tag = (t) => {
      if (typeof t === "string") {
        const i = METHODS.indexOf(t);
        if (i < 0) throw notOneOf(t, METHODS);
        return i;
      }
      if (t === 0 || t === 1 || t === 2) return t;
      throw bad("a name (a string)", t);
    };
    let t = null;
    if (isObj(v)) {
      for (const k of Object.keys(v)) {
        if (k === "method") t = under(k, () => tag(v[k]));
        else under(k, () => plain(v[k]));
      }
      // An object without `method` is a sigmoid (its parameters as `calibrate` takes them).
      // With a fitted model's key among its keys, the first key no calibration has is
      // said first (a misspelt `method`; src/pipeline/tagged.rs `bare`).
      if (t === null) {
        const keys = Object.keys(v);
        if (keys.some((k) => MODEL_KEYS.includes(k))) {
          const stray = keys.find((k) => !MODEL_KEYS.includes(k) && !BARE_KEYS.includes(k));
          if (stray !== undefined) throw new Failure(UNKNOWN_FIELD, unknownKeyWords(stray, BARE_KEYS), stray);
        }
        return [0, BARE_SIGMOID.read(v)];
      }
    } else if (isArr(v)) {
      if (v.length > 0) {
        t = at(0, () => tag(v[0]));
        plain(v);
      }
    } else throw bad("an object", v);
    if (t === null) throw missingField("method");
    return [t, CALIBRATION_VARIANTS[t].read(v)];
  },
  (out, [t, got]) => {
    out.n.push(t);
    CALIBRATION_VARIANTS[t].put(out, got);
  },
  // A sigmoid's defaults are the default calibration's (the seed's sigmoid).
  ([t, got], d) => ({ method: METHODS[t], ...CALIBRATION_VARIANTS[t].out(got, t === 0 ? d : undefined) }),
);

const PROFILE = struct([
  ["name", REQ, STR],
  ["taskClass", DEF, OPT_STR, true],
  ["language", DEF, OPT_STR, true],
  ["buildSystem", DEF, OPT_STR, true],
  ["highFloor", REQ, NUM],
  ["degradedFloor", REQ, NUM],
]);

const BANDS = struct([
  ["highFloor", DEF, NUM],
  ["degradedFloor", DEF, NUM],
  ["profiles", DEF, list(PROFILE)],
]);

const TRAINING = struct([
  ["queries", REQ, U32],
  ["positives", REQ, U32],
  ["logLoss", REQ, NUM],
  ["auroc", REQ, NUM],
  ["iterations", REQ, U32],
  ["converged", REQ, BOOL],
]);

const MODEL = struct([
  ["method", REQ, STR],
  ["runs", REQ, U32],
  ["k", REQ, U32],
  ["rrfK", REQ, NUM],
  ["weights", REQ, list(NUM)],
  ["features", REQ, list(STR)],
  ["mean", REQ, list(NUM)],
  ["scale", REQ, list(NUM)],
  ["coefficients", REQ, list(NUM)],
  ["intercept", REQ, NUM],
  ["missingTop", REQ, list(NUM)],
  ["l2", REQ, NUM],
  ["training", REQ, TRAINING],
]);

const CONFIDENCE = struct([
  ["weights", DEF, FIVE],
  ["k", DEF, OPT_U32],
  ["model", DEF, opt(MODEL)],
  ["answerFloor", DEF, NUM],
  ["hedgeFloor", DEF, NUM],
]);

// The limits in the module's order (PartialLimits' fields: the limits table's names).
const LIMIT_NAMES = LIMIT_TABLE.names;
const LIMITS = struct(LIMIT_NAMES.map((k) => [k, OPT, OPT_U32]));
/** The pipeline's `limits`: `null` or a field left out is the pipeline's default (PartialLimits::over). */
const LIMITS_FIELD = kind(opt(LIMITS).read, opt(LIMITS).put, (x, d) => Object.fromEntries(LIMIT_NAMES.map((k, i) => [k, x?.[i] ?? d[k]])));

const PIPELINE = struct([
  ["k", DEF, NUM],
  ["weights", DEF, NUM_MAP],
  ["topK", DEF, U32],
  ["topN", DEF, U32],
  ["recency", DEF, RECENCY],
  ["rerank", DEF, RERANK],
  ["normalization", DEF, NORMALIZATION],
  ["calibration", DEF, CALIBRATION],
  ["minConfidence", DEF, NUM],
  ["bands", DEF, BANDS],
  ["confidence", DEF, CONFIDENCE],
  ["limits", DEF, LIMITS_FIELD],
  ["explain", DEF, BOOL],
]);

const CONTEXT = struct([
  ["taskClass", DEF, OPT_STR],
  ["language", DEF, OPT_STR],
  ["buildSystem", DEF, OPT_STR],
]);

/** Decodes `text` (the JSON text of a value) as `k`: its numbers and strings, or the ScoreError on `what`. */
function encode(k, text, what) {
  const tree = treeOf(text, what);
  let got;
  try {
    got = k.read(tree);
  } catch (e) {
    throw e instanceof Failure ? e.typed(what) : e;
  }
  const out = { n: [], s: [] };
  k.put(out, got);
  return out;
}

/** A copy of a configuration value (own keys only, as JSON.parse makes them). */
function copy(v) {
  if (isArr(v)) return v.map(copy);
  if (!isObj(v)) return v;
  const o = {};
  for (const k of Object.keys(v)) setOwn(o, k, copy(v[k]));
  return o;
}

/**
 * A pipeline's effective configuration (`Pipeline.config`) from its JSON text (undefined:
 * none), as calibrank_core.wasm writes it: the decoded fields over the defaults
 * (js/core/pipeline-defaults.js, the Rust defaults as the module reports them).
 */
export function effectiveConfig(text) {
  if (text === undefined) return copy(PIPELINE_DEFAULTS);
  const got = PIPELINE.read(treeOf(text, "config"));
  return PIPELINE.out(got, PIPELINE_DEFAULTS);
}

// ---------------------------------------------------------------- What the caller wrote

/**
 * Pairs of floors `[low, high]` (`low <= high` by rule) whose decoders fill a floor not
 * given with its default: a configuration's bands and its confidence's (`objectKey`), and
 * `classifyBand`'s options (the bands' defaults, `BandFloors::default`). The module finds
 * them out of order on `low` (the order fault's code); it cannot tell a default from a
 * floor given.
 */
const FLOOR_PAIRS = [
  ["config", "bands", "INVALID_BANDS", "degradedFloor", "highFloor"],
  ["config", "confidence", "INVALID_CONFIG", "hedgeFloor", "answerFloor"],
  ["options", null, "INVALID_BANDS", "degradedFloor", "highFloor"],
];

/**
 * The error `e` of a configuration or of `classifyBand`'s options (`text`, their JSON
 * text, on `what`), said of what the caller wrote, which neither module's decoders nor
 * their checks can tell from a default (one place for both modules; any other error is
 * returned as it is):
 * - a floor given alone, out of order with the other's default, is the fault of the
 *   floor given: `{ highFloor: 0.5 }` is `INVALID_BANDS` on `highFloor`, "highFloor 0.5
 *   is below degradedFloor 0.65, its default (degradedFloor not given)" (it was on
 *   `degradedFloor`); both given, the error stays on the low floor;
 * - a configuration's `topN` that is a whole number but no u32 (-1, 2^32) is
 *   `INVALID_TOP_N`, as 0 is there and as a call's `topN` of any of them is (the decoders
 *   read a u32 and call it `INVALID_TYPE`).
 */
export function givenFault(e, text, what) {
  if (!(e instanceof ScoreError) || text === undefined) return e;
  const { code, field } = e;
  let tree;
  try {
    tree = treeOf(text, what);
  } catch {
    return e;
  }
  if (!isObj(tree)) return e;
  if (what === "config" && code === "INVALID_TYPE" && field === "config.topN") {
    const v = tree.topN;
    if (typeof v !== "number" || !Number.isInteger(v)) return e;
    const k = hasOwn.call(tree, "topK") ? tree.topK : PIPELINE_DEFAULTS.topK;
    const topK = typeof k === "number" && k % 1 === 0 && k >= 0 && k <= 4294967295 ? ` = ${k}` : "";
    return scoreError("INVALID_TOP_N", field, `topN must satisfy 1 <= topN <= topK${topK}, got ${v}`);
  }
  for (const [arg, objectKey, orderCode, low, high] of FLOOR_PAIRS) {
    const prefix = objectKey === null ? `${arg}.` : `${arg}.${objectKey}.`;
    if (arg !== what || code !== orderCode || field !== prefix + low) continue;
    const floors = objectKey === null ? tree : tree[objectKey];
    if (!isObj(floors)) return e;
    const defaults = PIPELINE_DEFAULTS[objectKey ?? "bands"];
    const lowGiven = hasOwn.call(floors, low);
    if (lowGiven === hasOwn.call(floors, high)) return e;
    const l = lowGiven ? floors[low] : defaults[low];
    const h = lowGiven ? defaults[high] : floors[high];
    // The order fault (the module checks each floor's range first).
    if (!(l > h && l <= 1 && h >= 0)) return e;
    return lowGiven
      ? scoreError(code, field, `${low} ${l} exceeds ${high} ${h}, its default (${high} not given)`)
      : scoreError(code, prefix + high, `${high} ${h} is below ${low} ${l}, its default (${low} not given)`);
  }
  return e;
}

/** A fresh copy of an effective configuration, for a caller to keep. */
export const configCopy = copy;

/** A pipeline's configuration (its JSON text) as calibrank_pipeline.wasm reads it (none: a NONE section). */
export const configLayout = (text) => encode(PIPELINE, text, "config");

/**
 * A run's context (its JSON text) as calibrank_pipeline.wasm reads it (none: a NONE
 * section), a state first: 1 and the context, or 2 and an error as its code, field and
 * message. The module meets a context's error where the core's module meets it (after
 * the input's other checks), so the error is sent, not thrown.
 */
export function contextLayout(text) {
  try {
    const { n, s } = encode(CONTEXT, text, "context");
    return { n: [1, ...n], s };
  } catch (e) {
    if (!(e instanceof ScoreError) || e.code === "INTERNAL") throw e;
    return { n: [2], s: [e.code, e.field, e.message] };
  }
}
