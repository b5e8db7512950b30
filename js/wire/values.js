// Reading the caller's values: brand checks, own properties, Maps, dates, and the
// ScoreErrors the boundary throws for what it refuses.
import { ScoreError } from "../score_error.js";
import { withNearestKey, withNearestName, headOf, utf8Length } from "./keys.js";

// Brand checks: `instanceof` is fooled by an object whose prototype was set to a
// built-in's (Object.create(Map.prototype)), whose methods then throw.
const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
/** The kind of a real typed array ("Float64Array", ...), or undefined. */
export const typedArrayKind = (v) => (ArrayBuffer.isView(v) ? typedArrayTag.call(v) : undefined);
// A typed array's length as the engine holds it: an own or inherited `length` property
// (a subclass, `Object.defineProperty`) is caller code and could answer another length
// than the one `set` copies.
export const typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "length").get;
const dateTime = Date.prototype.getTime;
/**
 * The time value of `v`, a Date (`v instanceof Date`), read from the Date itself (a
 * subclass's own `getTime` is not called); an object that only inherits from
 * Date.prototype has none and is refused as `typeError(field, expected)`. `field` is the
 * path, or a function making it: a path built from a key is made only for the error.
 */
export function timeOf(v, field, expected) {
  try {
    return dateTime.call(v);
  } catch {
    throw typeError(typeof field === "function" ? field() : field, expected);
  }
}
/** The length of a section's values: the package's own array or a typed array. */
export const lengthOf = (v) => (ArrayBuffer.isView(v) ? typedLength.call(v) : v.length);
export const hasOwn = Object.prototype.hasOwnProperty;
/**
 * `o[k]`, unless `o` inherits `k` from Object.prototype (a key added there, by a polluted
 * prototype, is not an option or a field); a getter of a class is read.
 */
export const own = (o, k) => (hasOwn.call(o, k) || !(k in Object.prototype) ? o[k] : undefined);
/** Whether key `k` of `o` (from a for-in) comes from Object.prototype rather than from `o`. */
export const fromObjectPrototype = (o, k) => k in Object.prototype && !hasOwn.call(o, k);
const mapHas = Map.prototype.has;
/** Whether `v` is a real Map. */
const objectTag = Object.prototype.toString;
export function isMap(v) {
  // The cheap test first (an exception is costly): a plain object is not a Map.
  if (typeof v !== "object" || v === null || (!(v instanceof Map) && objectTag.call(v) !== "[object Map]")) return false;
  try {
    mapHas.call(v, undefined);
    return true;
  } catch {
    return false;
  }
}

/**
 * A Map's entries as an object, as configurations and run objects read a Map (null when
 * a key is not a string). No prototype: every key is an own property ("__proto__"
 * included, which on a plain object would replace the prototype: the entry lost, and a
 * String prototype's read-only indices made later keys throw).
 */
export function mapAsObject(m) {
  const o = Object.create(null);
  for (const [k, x] of Map.prototype.entries.call(m)) {
    if (typeof k !== "string") return null;
    o[k] = x;
  }
  return o;
}

/**
 * Whether `e` is the engine's "Maximum call stack size exceeded" (V8; SpiderMonkey and
 * JavaScriptCore say "call stack" too): most often the caller's stack nearly full when
 * it called, whichever frame ran out.
 */
export const stackExhausted = (e) => e instanceof RangeError && /call stack/i.test(e.message);

/**
 * The key of the objects' dispose method (for `using`): `Symbol.dispose`, or where the
 * engine has none (Node before 18.18, older browsers) the registered symbol that
 * esbuild's and Babel's lowering of `using` look up instead (a class body's
 * `[Symbol.dispose]` there would name the method "undefined").
 */
export const DISPOSE = typeof Symbol.dispose === "symbol" ? Symbol.dispose : Symbol.for("Symbol.dispose");

/**
 * A `ScoreError` made on this side of the boundary (messages follow the Rust ones), or
 * from a module's answer (js/wire/module.js): an unknown key's or name's message gains
 * the nearest one (js/wire/keys.js), whichever side made it.
 */
export function scoreError(code, field, message) {
  const words = code === "UNKNOWN_FIELD" ? withNearestKey(message) : code === "UNKNOWN_METHOD" ? withNearestName(message) : message;
  return new ScoreError(withHint(words, code, field), code, field);
}

/**
 * The own enumerable key a `Run`, `Qrels` or `Items` carries, its class's name as its
 * value. Their data live in the module that made them (private fields), so a copy made
 * by `structuredClone`, `postMessage` or `JSON.stringify` of an `Items` is a plain object
 * holding this key alone: given back, it is told from an empty run or no items
 * (`clonedHandle`) instead of being read as one.
 */
export const HANDLE_KEY = "calibrankHandle";

/** The error for a copy of a `Run`, `Qrels` or `Items` (`kind`) given at `field`. */
export function clonedHandle(field, kind) {
  const remedy = kind === "Items" ? "send the items themselves and make the Items where they are used" : `send ${kind === "Run" ? "run" : "qrels"}.toObject() (or the TREC text) and make the ${kind} again where it is used`;
  return scoreError("INVALID_TYPE", field, `a copy of ${kind === "Items" ? "an" : "a"} ${kind} (by structuredClone, postMessage or JSON) holds none of its data, which stay in the module that made it: ${remedy}`);
}

/** Whether `v` is a handle's mark (`HANDLE_KEY`'s value). */
export const isHandleKind = (v) => v === "Run" || v === "Qrels" || v === "Items";

/** Marks `o` as a handle of class `kind` (`HANDLE_KEY`). */
export function markHandle(o, kind) {
  Object.defineProperty(o, HANDLE_KEY, { value: kind, enumerable: true });
}

/** A fitted model's key in a calibration without `method` (`{ a, b }` copied from a fit). */
const MODEL_KEY = /(?:^|\.)calibration\.(?:a|b|x|y)$/;
/** Platt's `a` refused for rising (INVALID_CALIBRATION). */
const PLATT_A = /(?:^|\.)calibration\.a$/;

/**
 * What to do, added to two messages whose words alone leave it open (either module's, or
 * this side's): a calibration given a fitted model's keys without its `method`, and a
 * Platt model that falls as the score rises.
 */
function withHint(message, code, field) {
  if (typeof field !== "string") return message;
  // (Only when `method` is among the keys the message lists, i.e. none was given.)
  if (code === "UNKNOWN_FIELD" && MODEL_KEY.test(field) && message.includes("`method`,") && !message.includes("`method: "))
    return `${message} (a fitted model names its method: \`method: "platt"\` with \`a\` and \`b\`, \`method: "isotonic"\` with \`x\` and \`y\`)`;
  if (code === "INVALID_CALIBRATION" && PLATT_A.test(field) && message.startsWith("must be <= 0,") && !message.includes("ranking"))
    return `${message} (a Platt model with a > 0 falls as the score rises and would reverse the ranking: were the labels swapped, or the scores distances?)`;
  return message;
}

/**
 * `INVALID_TYPE` on `field`: "expected `expected`", and ", got `shownValue(v)`" when the
 * value is given (a third argument, even `undefined`).
 */
export const typeError = (field, expected, ...got) =>
  scoreError("INVALID_TYPE", field, got.length === 0 ? `expected ${expected}` : `expected ${expected}, got ${shownValue(got[0])}`);

/**
 * `s` in double quotes as the crate's `error::quoted` writes it: `"`, `\` and the control
 * characters escaped (`\n`, `\r`, `\t`, `\0`, the others as `\u{1b}`), every other
 * character as it is, a lone surrogate too (js/core/typed-config.js and the core module's
 * messages quote alike; their strings are well-formed, `shownValue` makes its own so).
 */
export const quoted = (s) =>
  `"${strReplace.call(s, /["\\\u0000-\u001f\u007f-\u009f]/g, (c) =>
    c === '"' ? '\\"' : c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : c === "\0" ? "\\0" : `\\u{${c.charCodeAt(0).toString(16)}}`,
  )}"`;

/**
 * A name of the caller's (an unknown method, a key or name a configuration check
 * quotes) as the crate's `error::name` shows it: quoted, and when it has more than 64
 * characters its first 64, then "... (N bytes)" (its UTF-8 length).
 */
export function shownName(s) {
  const w = toWellFormed(s);
  const head = headOf(w);
  return head === w ? quoted(w) : `${quoted(head)}... (${utf8Length(w)} bytes)`;
}

// String built-ins taken at load: an error message is made without running what a caller
// may have put on String.prototype since.
const strReplace = String.prototype.replace;
const strToWellFormed = String.prototype.toWellFormed;
/** `s` with each lone surrogate as U+FFFD (what TextEncoder writes, and json.rs reads for the escape JSON.stringify writes). */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const toWellFormed = typeof strToWellFormed === "function" ? (s) => strToWellFormed.call(s) : (s) => strReplace.call(s, LONE, "\uFFFD");

// The other built-ins an object is told apart by, each by a method or getter that
// throws for an object without the internal slot it reads (and runs nothing of the
// caller's): kinds no record, item or configuration is read from.
const abLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
const BRANDS = [
  [Set.prototype.has, "a Set"],
  [WeakMap.prototype.has, "a WeakMap"],
  [WeakSet.prototype.has, "a WeakSet"],
  [Number.prototype.valueOf, "a Number object"],
  [String.prototype.valueOf, "a String object"],
  [Boolean.prototype.valueOf, "a Boolean object"],
  [Symbol.prototype.valueOf, "a Symbol object"],
  [abLength, "an ArrayBuffer"],
];
if (typeof BigInt === "function") BRANDS.push([BigInt.prototype.valueOf, "a BigInt object"]);

/** The brand of a caller's object, read from its internal slots alone (no property, trap or getter). */
function brandOf(v) {
  try {
    if (Array.isArray(v)) return "an array";
  } catch {
    return "an object"; // a revoked Proxy
  }
  const kind = typedArrayKind(v);
  if (kind !== undefined) return `${kind.startsWith("Int") ? "an" : "a"} ${kind}`;
  if (ArrayBuffer.isView(v)) return "a DataView";
  try {
    mapHas.call(v, undefined);
    return "a Map";
  } catch {}
  try {
    dateTime.call(v);
    return "a Date";
  } catch {}
  for (const [check, name] of BRANDS) {
    try {
      // (WeakMap's and WeakSet's `has` take any value; the others none.)
      check.call(v, undefined);
      return name;
    } catch {}
  }
  return "an object";
}

/**
 * Whether `v` is an object of a built-in kind no record is read from (an array, a typed
 * array, a Map, a Set, a Date, a primitive's object...: `shownValue` names it), by its
 * brand alone. For an error path: the checks that fail throw, which costs microseconds.
 * A class instance, a null-prototype object, a Proxy are records.
 */
export const notRecord = (v) => typeof v === "object" && v !== null && brandOf(v) !== "an object";

/**
 * A caller's value as an error message shows it, as the configurations' messages show
 * theirs (`null`, `true`, `1.5`, a string quoted, `an array`, `an object`, `function`,
 * `bigint`, `symbol`, `undefined`; and `a Map`, `a Date`, `a Float32Array`, `a Set`,
 * `a String object`...: `brandOf`), without
 * running any of the caller's code (no getter, trap, `toString` or `Symbol.toPrimitive`:
 * `typeof` and internal-slot brand checks alone). A string is cut after its first 64
 * characters (`…`), a lone surrogate shown as U+FFFD; a revoked Proxy is `an object`,
 * and so is an object `typeof` calls `undefined` (`document.all`).
 */
export function shownValue(v) {
  switch (typeof v) {
    case "string": {
      // The first 64 characters (a pair of surrogates is one), then `…`.
      const head = headOf(v);
      return quoted(toWellFormed(head === v ? v : `${head}…`));
    }
    case "number":
    case "boolean":
      return String(v);
    case "undefined":
      return v === undefined ? "undefined" : "an object";
    case "object":
      return v === null ? "null" : brandOf(v);
    default:
      return typeof v;
  }
}

/** Whether a map key is written `.key` in a field path: not empty, none of `.[]"\` in it. */
const PATH_QUOTED = /[.[\]"\\]/;

/**
 * The segment of a map key (an id, a list's name, a query id) in a field path: `.key`,
 * or `["key"]`, the key as `JSON.stringify` writes it, when the key is empty or holds a
 * character that would make the path ambiguous (`items["README.md"].name`). The module
 * writes its paths by the same rule (`calibrank::error::key_path`).
 */
export const keySegment = (key) => (key !== "" && !PATH_QUOTED.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/** `prefix` and then the map key `key`, as `keySegment` writes it (with no prefix, a plain key alone, as the module's `key_path`). */
export const keyPath = (prefix, key) => (prefix === "" && key !== "" && !PATH_QUOTED.test(key) ? key : prefix + keySegment(key));

/** `prefix`, the map key `key` and the field `field` of its value (`items["README.md"].name`), as the module's `key_field`. */
export const keyField = (prefix, key, field) => `${keyPath(prefix, key)}.${field}`;

/**
 * A ceiling of the JavaScript engine met while the package reads an input, before the
 * module is entered: more distinct ids than its `Map` holds (V8: 2^24), a typed array
 * larger than it allocates (Bun: 2^31 elements of 4 bytes), a string longer than its
 * longest (V8: 2^29 - 24 units). Under limits the module accepts, V8's `Map` and tables
 * are out of reach (the entries stop at 10,000,000: see `LimitTable.effective`); another
 * engine's need not be. `e` is the engine's `RangeError` (its message is kept).
 */
export const engineLimit = (field, what, e) => scoreError("INPUT_TOO_LARGE", field, `${what}: more than this JavaScript engine holds (${e.message})`);

/**
 * `index.set(id, d)` for an id met for the first time. A `Map` has a maximum size in some
 * engines (V8's `RangeError: Map maximum size exceeded`); no caller code runs in `set`
 * (the id is a string), so a `RangeError` here is the engine's.
 */
function intern(index, id, d, field) {
  try {
    index.set(id, d);
  } catch (e) {
    if (e instanceof RangeError) throw engineLimit(field, `${d + 1} distinct ids`, e);
    throw e;
  }
}

/**
 * Up to this many list entries (`rrf`, `Pipeline.run`) or hits (`fuseMultiQuery`) a call
 * interns its ids without a `Map`: each is compared with the distinct ids met before it
 * (`Interner.find`). At 3 lists of 10 ids (30 entries, 20 distinct) that took 0.50-0.64 µs
 * against the `Map`'s 0.74-1.15 µs, whatever the ids (flat strings, parsed from JSON, or
 * cut out of one text by `split`); at 3 lists of 20, 1.52-2.22 µs against 1.33-2.12 µs
 * (`node bench/intern-small.mjs 10`, then `20`).
 */
export const FEW_ENTRIES = 40;

/**
 * The longest id (in UTF-16 units) a call interned without a `Map` compares: ids of the
 * same signature are compared with `===`, unit by unit, so a longer one moves the call to
 * a `Map` of the ids so far, which reads each id once. At most `FEW_ENTRIES` ids of this
 * length compared with each other: about 50,000 units, a few tens of microseconds.
 */
const FEW_UNITS = 64;

/**
 * A string's signature (`Interner.find`): its length and two of its units (the middle
 * and the last one), mixed. Ids of different signatures differ, so `===` runs only for an
 * id and one met before that are most likely the same: between different strings of the
 * same length it compares them unit by unit, slowly for strings cut out of a larger one
 * (`split`, `slice`, a regular expression's match): 2.5 times the `Map`'s time for ids of
 * a long shared prefix, where the signatures made it faster than the `Map`.
 */
function signatureOf(s) {
  const n = s.length;
  return (n << 20) ^ (s.charCodeAt(n >> 1) << 10) ^ s.charCodeAt(n - 1);
}

/**
 * A call's distinct ids, in order of first appearance (`ids`, which the caller may go on
 * filling with its other strings once every id is added): in a `Map` from `FEW_ENTRIES`
 * entries on (`total`, the call's entries), else compared by signature, then `===`, until
 * an id longer than `FEW_UNITS` moves them to a `Map`. `field` names the input in the
 * engine's refusal of a `Map` that large (`intern`).
 */
export class Interner {
  // Declared as fields (defined on the object, not assigned through Object.prototype,
  // where a caller's accessor or read-only value of the same name would take the write).
  ids = [];
  index = null;
  // The ids' signatures while there is no `Map`, and the last one `find` took.
  sigs = [];
  sig = 0;
  field;
  constructor(total, field) {
    if (total > FEW_ENTRIES) this.index = new Map();
    this.field = field;
  }
  /** The index of `id` (any value: only a string can be found), or undefined. */
  find(id) {
    if (this.index !== null) return this.index.get(id);
    if (typeof id !== "string") return undefined;
    const sig = (this.sig = signatureOf(id));
    const { ids, sigs } = this;
    for (let q = 0; q < sigs.length; q++) if (sigs[q] === sig && ids[q] === id) return q;
    return undefined;
  }
  /** Adds string `id`, which `find` was just asked for and did not find; returns its index. */
  add(id) {
    const ids = this.ids;
    const d = ids.length;
    if (this.index !== null) intern(this.index, id, d, this.field);
    else if (id.length <= FEW_UNITS) this.sigs.push(this.sig);
    else {
      const index = new Map();
      for (let q = 0; q < d; q++) index.set(ids[q], q);
      intern(index, id, d, this.field);
      this.index = index;
    }
    ids.push(id);
    return d;
  }
}

/**
 * `new Kind(n)` for a count `n` (a number: nothing else is given, so no caller code runs
 * in the constructor), an engine's refusal to allocate it reported as `engineLimit` on
 * `field`.
 */
export function allocate(Kind, n, field) {
  try {
    return new Kind(n);
  } catch (e) {
    if (e instanceof RangeError && typeof n === "number") throw engineLimit(field, `a table of ${n} entries`, e);
    throw e;
  }
}

/**
 * `o[k] = x` as JSON.parse does it: an own property even for `__proto__`, and never
 * through a setter or a read-only value of the same name on Object.prototype (a caller's),
 * as an assignment of a key `o` lacks would go.
 */
export function setOwn(o, k, x) {
  Object.defineProperty(o, k, { value: x, writable: true, enumerable: true, configurable: true });
}
