// Configurations and options as JSON text: every number that is not a safe integer as
// its IEEE 754 bits (the module parses no decimals), lone surrogates and values JSON
// cannot hold refused with the field that holds them.
import { ScoreError } from "../score_error.js";
import { HANDLE_KEY, engineLimit, hasOwn, isMap, keyPath, keySegment, mapAsObject, scoreError, shownValue, stackExhausted, typeError, typedArrayKind, typedLength, toWellFormed } from "./values.js";

const bitsView = new DataView(new ArrayBuffer(8));
const hex8 = (x) => x.toString(16).padStart(8, "0");
/**
 * A finite number that is not a safe integer, as the module reads it exactly without
 * decimal parsing: "\u0000#" and the 16 hex digits of its IEEE 754 bits.
 */
function bitsOf(v) {
  bitsView.setFloat64(0, v);
  return "\u0000#" + hex8(bitsView.getUint32(0)) + hex8(bitsView.getUint32(4));
}

/** Whether `s` holds no lone surrogate (the engine's own test where it has one). */
const LONE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const wellFormed = typeof String.prototype.isWellFormed === "function" ? (s) => s.isWellFormed() : (s) => !LONE_RE.test(s);
/**
 * Options and configurations are objects: an array would be read as the fields in their
 * declared order (serde's rule for a struct given as a sequence), so `rrf(lists, [1])`
 * would set `k`. Refused at the top; nested values keep serde's rule.
 */
const NOT_ARRAY = "an object (options and configurations are not read from arrays)";
export function notArray(v, field) {
  // A typed array too: the replacer sends it as an array.
  if (Array.isArray(v) || ArrayBuffer.isView(v)) throw typeError(field, NOT_ARRAY, v);
  if (emptyInstance(v)) throw typeError(field, plainObjectExpected("a Pipeline, a Run?"), v);
}
/** What an object of a class without fields of its own is refused as, where JSON would read it as `{}` (`examples`: the likely ones). */
export const plainObjectExpected = (examples) => `a plain object, not an instance of a class without fields of its own (${examples}), which would be read as empty`;
/**
 * Whether `v` is an object of a class (its prototype is not Object.prototype and has a
 * `constructor` of its own, as a class's has) with no own enumerable key, a Map
 * excepted: read as JSON it is `{}`, so a `Pipeline`, a `Run` or a `Qrels` handle given
 * where options go would silently be no options. (An object made by `Object.create` of
 * a record is read by its own keys, as before.) With `json` false (items, which are
 * looked up, not read as JSON), a `toJSON` saves nothing: a Date or a URL is no items.
 */
export function emptyInstance(v, json = true) {
  if (typeof v !== "object" || v === null) return false;
  // A plain record first (every call's options): two comparisons.
  const proto = Object.getPrototypeOf(v);
  if (proto === null || proto === Object.prototype || !hasOwn.call(proto, "constructor") || isMap(v)) return false;
  // Another realm's record (an iframe's, node:vm's): its prototype is that realm's
  // Object.prototype, whose own prototype is null.
  if (Object.getPrototypeOf(proto) === null) return false;
  // A `Run`, `Qrels` or `Items` has one own key, its mark (`HANDLE_KEY`): still no
  // options, nor items.
  for (const k in v) if (k !== HANDLE_KEY && hasOwn.call(v, k)) return false;
  // Its JSON may come from toJSON (a Date's string): then it is not read as no options.
  return !json || typeof v.toJSON !== "function";
}
/**
 * Refuses a name that is an identity (a list's name) if it holds a lone surrogate. `field`:
 * the path, or a function making it (made only for the error).
 */
export function wellFormedName(s, field, what, several = "names") {
  if (!wellFormed(s)) throw scoreError("INVALID_TYPE", typeof field === "function" ? field() : field, `${what} must be well-formed Unicode: ${shown(s)} holds a lone surrogate, which would be read as U+FFFD and could merge two ${several}`);
}
/** Refuses a text whose words are identities (a TREC file's ids) if it holds a lone surrogate. */
export function wellFormedText(s, field, what) {
  if (wellFormed(s)) return;
  const at = s.search(LONE_RE);
  throw scoreError("INVALID_TYPE", field, `${what} must be well-formed Unicode: a lone surrogate (U+${s.charCodeAt(at).toString(16).toUpperCase()}) at index ${at} would be read as U+FFFD and could merge two ids`);
}
/**
 * Keys whose string values the module compares for equality: ids, the fields that
 * select a band profile (`context` against `bands.profiles`), and a band profile's
 * `name` (two profiles may not share one). (No JSON the package writes holds a text
 * under these keys: items, candidates and hits cross as typed sections.)
 */
const IDENTITY_KEYS = new Set(["id", "taskClass", "language", "buildSystem", "name"]);
/** What the replacer throws on a lone surrogate in an identity; `lone` says where. */
const LONE = Symbol("lone surrogate");
// `toJson` with a bound: the characters the text may still take before it is known to be
// past it, counted by the replacer from below (a configuration of 12 million steps took
// 12 s to write out before its length was checked).
const TOO_LONG = Symbol("past the bound");
let charsLeft = Infinity;
/**
 * The fewest characters `v` under `key` adds to the text (its key quoted and a colon in
 * an object, a string's quotes, a number that is no safe integer as a sentinel string
 * of at least 10: `bitsOf`'s is 25, "\u0000NaN"'s 11): a lower bound, so a text refused
 * early is past the bound.
 */
function leastChars(key, v, inArray) {
  const k = inArray ? 0 : key.length + 3;
  switch (typeof v) {
    case "string":
      return k + v.length + 2;
    case "number":
      return k + (Number.isSafeInteger(v) ? 1 : 10);
    default:
      return k + 1;
  }
}
/** The error for a configuration, options or context whose JSON text is past `bound`. */
export const textTooLong = (field, length, bound) =>
  scoreError("INPUT_TOO_LARGE", field, `the JSON text is ${length === null ? "longer than " + bound : length} characters${length === null ? "" : ", above " + bound} (2 x limits.maxTextBytes, of this call's limits or of the defaults, whichever is larger; as the package writes it, each number that is no safe integer takes 25 characters, its exact bits: an isotonic calibration of more than about 38,000 knots needs limits.maxTextBytes raised)`);
let lone = null;
function loneSurrogate(holder, key, what, id) {
  lone = { holder, key, what, id };
  return LONE;
}
/** A string as a message shows it: escaped (a lone surrogate as \udXXX), cut after 64 characters. */
const shown = (s) => JSON.stringify(s.length > 64 ? s.slice(0, 64) + "…" : s);
/**
 * The error for the identity the replacer refused: `INVALID_TYPE` on the path of the
 * `id` (or of the object holding the key) within `value`, found by a walk in the order
 * JSON.stringify reads (cold: only after a refusal); `field` when the holder is not the
 * caller's own (a Map's entries, a toJSON result).
 */
function loneError(value, field) {
  const { holder, key, what, id } = lone ?? { holder: undefined, key: "", what: "key", id: "" };
  lone = null;
  let at;
  try {
    at = holder === undefined ? undefined : pathTo(value, holder, field);
  } catch {
    // The walk reads the caller's properties again; a getter that throws now leaves the path at `field`.
  }
  if (at !== undefined && what === "id") at += keySegment(key);
  const message =
    what === "id"
      ? `${key === "id" ? "an id" : `\`${key}\``} must be well-formed Unicode: ${shown(id)} holds a lone surrogate, which would be read as U+FFFD and could ${key === "id" ? "merge two ids" : "match another value"}`
      : `a key must be well-formed Unicode: ${shown(key)} holds a lone surrogate, which would be read as U+FFFD and could merge two keys`;
  return scoreError("INVALID_TYPE", at ?? field, message);
}
/** The path of `target` within `root` (`field` for the root), or undefined. */
function pathTo(root, target, field) {
  const seen = new Set();
  const stack = [[root, field]];
  while (stack.length > 0) {
    const [o, path] = stack.pop();
    if (o === target) return path;
    if (typeof o !== "object" || o === null || seen.has(o)) continue;
    seen.add(o);
    const next = [];
    if (Array.isArray(o)) o.forEach((x, i) => next.push([x, `${path}[${i}]`]));
    else for (const k of Object.keys(o)) next.push([o[k], keyPath(path, k)]);
    // Depth first, in the order JSON.stringify reads: the first refused is the one found.
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
  }
  return undefined;
}

const objectToString = Object.prototype.toString;
/** The `valueOf` that reads a boxed primitive's own value, by the tag its class gives. */
const UNBOX = {
  "[object Number]": Number.prototype.valueOf,
  "[object String]": String.prototype.valueOf,
  "[object Boolean]": Boolean.prototype.valueOf,
  "[object BigInt]": typeof BigInt === "function" ? BigInt.prototype.valueOf : undefined,
};
const isRawJSON = typeof JSON.isRawJSON === "function" ? JSON.isRawJSON : () => false;
/** The engine's own JSON.parse: a caller's replacement of it changes nothing the package reads. */
export const jsonParse = JSON.parse;
/**
 * The primitive a boxed `Number`, `String`, `Boolean` or `BigInt` holds, or the value a
 * `JSON.rawJSON` object stands for; `v` itself for any other object. (JSON.stringify
 * unboxes them after the replacer has run, which would let a number that is not a safe
 * integer, or a string that starts with U+0000, through unmarked.)
 */
function unboxed(v) {
  if (isRawJSON(v)) return jsonParse(v.rawJSON);
  const valueOf = UNBOX[objectToString.call(v)];
  if (valueOf === undefined) return v;
  try {
    return valueOf.call(v);
  } catch {
    // A tag of its own (Symbol.toStringTag), not a boxed primitive.
    return v;
  }
}

/**
 * JSON.stringify's replacer: keeps what JSON would lose (wasm/shared/src/json.rs reads
 * the sentinels back): numbers other than safe integers (as their bits: exact, and no
 * decimal parsing in the module), non-finite numbers, values with no JSON form (their type is then
 * an error where a value is expected), Maps (as objects), typed arrays (as arrays); boxed
 * primitives and `JSON.rawJSON` objects are read as the value they hold.
 */
function replacer(key, v) {
  const inArray = Array.isArray(this);
  // Past the bound (`toJson`'s), the text is refused before the rest is read.
  if ((charsLeft -= leastChars(key, v, inArray)) < 0) throw TOO_LONG;
  // A key (a run's query or document id, a list name) or an `id` is an identity: with a
  // lone surrogate it would reach the module as U+FFFD and merge with another id.
  if (!inArray && !wellFormed(key)) throw loneSurrogate(this, key, "key");
  switch (typeof v) {
    case "number":
      return Number.isSafeInteger(v) ? v : v - v === 0 ? bitsOf(v) : v !== v ? "\u0000NaN" : v > 0 ? "\u0000Infinity" : "\u0000-Infinity";
    case "string":
      if (IDENTITY_KEYS.has(key) && !wellFormed(v)) throw loneSurrogate(this, key, "id", v);
      return v.charCodeAt(0) === 0 ? "\u0000" + v : v;
    case "bigint":
      return "\u0000bigint";
    case "function":
      return "\u0000function";
    case "symbol":
      return "\u0000symbol";
    case "object": {
      if (v === null) return v;
      const p = unboxed(v);
      if (p !== v) {
        charsLeft += leastChars(key, v, inArray); // counted as the value it holds
        return replacer.call(this, key, p);
      }
      if (isMap(v)) return mapAsObject(v) ?? "\u0000Map with keys that are not strings";
      if (typedArrayKind(v) !== undefined) {
        // Its elements up to its length as the engine holds it: none once its buffer was
        // detached (transferred), where `Array.from` threw the engine's TypeError.
        const n = typedLength.call(v);
        const a = new Array(n);
        for (let i = 0; i < n; i++) a[i] = v[i];
        return a;
      }
      return v;
    }
    default:
      return v;
  }
}

/**
 * `replacer` for a configuration (read once per `Pipeline`, so nothing of it is paid per
 * call): an object of a class without fields of its own nested in it (`bands: new
 * Set()`, `recency: aPipeline`, `stopwords: new Set([...])`), which JSON would read as
 * `{}` (the defaults), becomes a value of no JSON kind, as a function does: the module
 * (or js/core/typed-config.js) then refuses it on its own path with what the field
 * expects ("expected an array, got a Set"). What the replacer made of a Map, a typed
 * array or a boxed primitive, arrays, and what a `toJSON` gave (called before the
 * replacer) are read as before.
 */
function configReplacer(key, v) {
  const r = replacer.call(this, key, v);
  if (r === v && typeof v === "object" && v !== null && !Array.isArray(v) && emptyInstance(v)) return shownValue(v) === "a Set" ? "\u0000a Set" : "\u0000an instance of a class without fields of its own";
  return r;
}

/**
 * Whether `e` was thrown by `JSON.stringify` itself, not by caller code it ran: the first
 * frame of its stack (V8: "    at JSON.stringify (<anonymous>)", Bun: "    at stringify
 * (unknown)", JavaScriptCore elsewhere: "stringify@[native code]"). Without a stack
 * (`Error.stackTraceLimit = 0`), not known: `unknown`.
 */
function thrownByStringify(e, unknown = false) {
  const stack = typeof e.stack === "string" ? e.stack.split("\n") : [];
  for (const line of stack) {
    if (/^\s+at /.test(line)) return /^\s+at (JSON\.stringify \(|stringify \((unknown|native)\))/.test(line);
    if (/^[^\s]*@/.test(line)) return line.startsWith("stringify@[native code]");
  }
  return unknown;
}

/**
 * JSON text of a caller's value (`undefined` stays `undefined`). A cycle or a nesting
 * too deep for the engine is an `INVALID_TYPE` on `field`, a text longer than its
 * longest string `INPUT_TOO_LARGE`; with `config`, an object of a class without fields
 * of its own nested in it `INVALID_TYPE` on its path (`configReplacer`); anything else the caller's own code throws (a
 * getter, a Proxy trap, toJSON) is passed on unchanged.
 */
export function toJson(value, field, config = false, bound = Infinity) {
  if (value === undefined) return undefined;
  // (Saved and put back: a getter or toJSON the text runs may call the package again.)
  const outer = charsLeft;
  // (The root's key, "", is counted as an object's: 3 characters the text has not.)
  charsLeft = bound + 3;
  try {
    return JSON.stringify(value, config ? configReplacer : replacer);
  } catch (e) {
    if (e === TOO_LONG) throw textTooLong(field, null, bound);
    if (e === LONE) throw loneError(value, field);
    // A cycle: only when JSON.stringify itself threw it (a getter's TypeError about its
    // own "circular" dependency is the caller's, passed on). A stack overflow can happen
    // in any frame, the caller's too: the engine's error is kept as the `cause`.
    const cyclic = e instanceof TypeError && /circular|cyclic/i.test(e.message) && thrownByStringify(e, true);
    if (cyclic) throw new ScoreError("the value is cyclic or nested too deep to be read", "INVALID_TYPE", field, { cause: e });
    if (stackExhausted(e))
      throw new ScoreError("the value is nested too deep to be read, or the call was made with too little stack left (from deep recursion?)", "INVALID_TYPE", field, { cause: e });
    // Its text longer than the engine's longest string (an array claiming a billion
    // entries: V8 refuses it before reading them); only when JSON.stringify itself threw
    // it: a getter's or toJSON's own error of that message is the caller's.
    if (e instanceof RangeError && /string length/i.test(e.message) && thrownByStringify(e)) throw engineLimit(field, "its JSON text", e);
    throw e;
  } finally {
    charsLeft = outer;
  }
}

/**
 * `toJson` of a value that must be an object (options, a configuration, a context, a
 * model): one whose JSON is an array is refused (the decoders would read it field by
 * field, in order), as `expected` (options' and configurations' words by default) said
 * with the value: an array or a typed array itself (a context, a model: options and
 * configurations were refused by `notArray` before), or an object whose `toJSON` gave one.
 * `config`: see `toJson`.
 */
export function objectJson(value, field, expected = NOT_ARRAY, config = false, bound = Infinity) {
  const text = toJson(value, field, config, bound);
  if (text !== undefined && text.charCodeAt(0) === 91 /* [ */) {
    let direct;
    try {
      direct = Array.isArray(value) || ArrayBuffer.isView(value);
    } catch {
      direct = false; // a revoked Proxy (whose JSON would have thrown)
    }
    throw direct ? typeError(field, expected, value) : typeError(field, `${expected}, got an object whose toJSON gave an array`);
  }
  return text;
}
