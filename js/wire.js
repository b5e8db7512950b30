// The data-only boundary, JavaScript side (wasm/shared/src/lib.rs is the Rust side).
//
// A call writes one input buffer into the module's memory (sections: text, f64, u32,
// u8, a string table), calls `cr_call(op, bytes)` once, and reads one output buffer.
// Caller code (getters, Proxy traps, toJSON) runs only here, before wasm is entered,
// so an exception it throws never crosses a wasm frame. A wasm trap (a bug) makes the
// module be instantiated afresh, and the call throws a ScoreError `INTERNAL`.
import { ScoreError } from "./score_error.js";

const NONE = 0;
const TEXT = 1;
const F64 = 2;
const U32 = 3;
const U8 = 4;
const STRS = 5;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });
// Unsigned (an address at or above 2 GiB stays positive; `& ~7` would make it negative).
const pad8 = (n) => ((n + 7) >>> 3) * 8;

// Brand checks: `instanceof` is fooled by an object whose prototype was set to a
// built-in's (Object.create(Map.prototype)), whose methods then throw.
const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
/** The kind of a real typed array ("Float64Array", ...), or undefined. */
export const typedArrayKind = (v) => (ArrayBuffer.isView(v) ? typedArrayTag.call(v) : undefined);
// A typed array's length as the engine holds it: an own or inherited `length` property
// (a subclass, `Object.defineProperty`) is caller code and could answer another length
// than the one `set` copies.
const typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "length").get;
const dateTime = Date.prototype.getTime;
/**
 * The time value of `v`, a Date (`v instanceof Date`), read from the Date itself (a
 * subclass's own `getTime` is not called); an object that only inherits from
 * Date.prototype has none and is refused as `typeError(field, expected)`.
 */
export function timeOf(v, field, expected) {
  try {
    return dateTime.call(v);
  } catch {
    throw typeError(field, expected);
  }
}
/** The length of a section's values: the package's own array or a typed array. */
const lengthOf = (v) => (ArrayBuffer.isView(v) ? typedLength.call(v) : v.length);
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

/** A `ScoreError` made on this side of the boundary (messages follow the Rust ones). */
export function scoreError(code, field, message) {
  return new ScoreError(message, code, field);
}

export const typeError = (field, expected) => scoreError("INVALID_TYPE", field, `expected ${expected}`);

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
export function intern(index, id, d, field) {
  try {
    index.set(id, d);
  } catch (e) {
    if (e instanceof RangeError) throw engineLimit(field, `${d + 1} distinct ids`, e);
    throw e;
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

// ------------------------------------------------------------------ JSON

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
const wellFormed = typeof String.prototype.isWellFormed === "function" ? (s) => s.isWellFormed() : (s) => !LONE_RE.test(s);
/**
 * Options and configurations are objects: an array would be read as the fields in their
 * declared order (serde's rule for a struct given as a sequence), so `rrf(lists, [1])`
 * would set `k`. Refused at the top; nested values keep serde's rule.
 */
export function notArray(v, field) {
  // A typed array too: the replacer sends it as an array.
  if (Array.isArray(v) || ArrayBuffer.isView(v)) throw typeError(field, "an object (options and configurations are not read from arrays)");
}
/** Refuses a name that is an identity (a list's name) if it holds a lone surrogate. */
export function wellFormedName(s, field, what, several = "names") {
  if (!wellFormed(s)) throw scoreError("INVALID_TYPE", field, `${what} must be well-formed Unicode: ${shown(s)} holds a lone surrogate, which would be read as U+FFFD and could merge two ${several}`);
}
/** Refuses a text whose words are identities (a TREC file's ids) if it holds a lone surrogate. */
export function wellFormedText(s, field, what) {
  if (wellFormed(s)) return;
  const at = s.search(LONE_RE);
  throw scoreError("INVALID_TYPE", field, `${what} must be well-formed Unicode: a lone surrogate (U+${s.charCodeAt(at).toString(16).toUpperCase()}) at index ${at} would be read as U+FFFD and could merge two ids`);
}
/**
 * Keys whose string values the module compares for equality: ids, and the fields that
 * select a band profile (`context` against `bands.profiles`).
 */
const IDENTITY_KEYS = new Set(["id", "taskClass", "language", "buildSystem"]);
/** What the replacer throws on a lone surrogate in an identity; `lone` says where. */
const LONE = Symbol("lone surrogate");
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
  if (at !== undefined && what === "id") at += `.${key}`;
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
    else for (const k of Object.keys(o)) next.push([o[k], `${path}.${k}`]);
    // Depth first, in the order JSON.stringify reads: the first refused is the one found.
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
  }
  return undefined;
}

/**
 * JSON.stringify's replacer: keeps what JSON would lose (wasm/shared/src/json.rs reads
 * the sentinels back): numbers other than safe integers (as their bits: exact, and no
 * decimal parsing in the module), non-finite numbers, values with no JSON form (their type is then
 * an error where a value is expected), Maps (as objects), typed arrays (as arrays).
 */
function replacer(key, v) {
  // A key (a run's query or document id, a list name) or an `id` is an identity: with a
  // lone surrogate it would reach the module as U+FFFD and merge with another id.
  if (!Array.isArray(this) && !wellFormed(key)) throw loneSurrogate(this, key, "key");
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
    case "object":
      if (v === null) return v;
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
    default:
      return v;
  }
}

/**
 * Whether `e` was thrown by `JSON.stringify` itself, not by caller code it ran: the first
 * frame of its stack (V8: "    at JSON.stringify (<anonymous>)", Bun: "    at stringify
 * (unknown)", JavaScriptCore elsewhere: "stringify@[native code]"). Without a stack
 * (`Error.stackTraceLimit = 0`), not known: false.
 */
function thrownByStringify(e) {
  const stack = typeof e.stack === "string" ? e.stack.split("\n") : [];
  for (const line of stack) {
    if (/^\s+at /.test(line)) return /^\s+at (JSON\.stringify \(|stringify \((unknown|native)\))/.test(line);
    if (/^[^\s]*@/.test(line)) return line.startsWith("stringify@[native code]");
  }
  return false;
}

/**
 * JSON text of a caller's value (`undefined` stays `undefined`). A cycle or a nesting
 * too deep for the engine is an `INVALID_TYPE` on `field`, a text longer than its
 * longest string `INPUT_TOO_LARGE`; anything else the caller's own code throws (a
 * getter, a Proxy trap, toJSON) is passed on unchanged.
 */
export function toJson(value, field) {
  if (value === undefined) return undefined;
  try {
    return JSON.stringify(value, replacer);
  } catch (e) {
    if (e === LONE) throw loneError(value, field);
    if ((e instanceof TypeError && /circular|cyclic/i.test(e.message)) || (e instanceof RangeError && /call stack/i.test(e.message))) {
      throw scoreError("INVALID_TYPE", field, "the value is cyclic or nested too deep to be read");
    }
    // Its text longer than the engine's longest string (an array claiming a billion
    // entries: V8 refuses it before reading them); only when JSON.stringify itself threw
    // it: a getter's or toJSON's own error of that message is the caller's.
    if (e instanceof RangeError && /string length/i.test(e.message) && thrownByStringify(e)) throw engineLimit(field, "its JSON text", e);
    throw e;
  }
}

// ------------------------------------------------------------------ limits

/** `precheck.jsonText`'s bound under the default limits (set when a LimitTable is read). */
let jsonFloor = 0;
/** The longest JSON text an input under `lim` can take: 4 x maxTotalTextBytes + 64 x maxTotalEntries. */
const jsonBound = (lim) => 4 * lim.maxTotalTextBytes + 64 * lim.maxTotalEntries;

/** Limits as the module states them: names, defaults and ceilings (read once). */
export class LimitTable {
  /** Read from the module's DEFAULT_LIMITS output. */
  constructor(out) {
    const names = out.strs();
    const defaults = out.f64s();
    const ceilings = out.f64s();
    const functions = out.strs();
    const budgets = out.f64s();
    this.names = names;
    this.defaults = {};
    // Keyed by name without a prototype (a caller's key such as "toString" finds nothing).
    this.ceilings = Object.create(null);
    this.slot = Object.create(null);
    names.forEach((n, i) => {
      this.defaults[n] = defaults[i];
      this.ceilings[n] = ceilings[i];
      this.slot[n] = i;
    });
    this.budgets = Object.create(null);
    functions.forEach((f, i) => {
      this.budgets[f] = budgets[i];
    });
    // Every limit at its ceiling: what the checks made before copying hold a call to when
    // they cannot stand for the module's (see `effective`).
    this.widest = { atCeilings: true };
    names.forEach((n, i) => {
      this.widest[n] = ceilings[i];
    });
    jsonFloor = Math.max(jsonFloor, jsonBound(this.defaults));
  }

  /**
   * The default limits of `fn` (its own entry budget, if it has one); made once, and
   * never handed to callers (`defaultLimits` copies), so not frozen: V8 copies a frozen
   * object with `{ ...o }` several times slower than a plain one.
   */
  defaultsFor(fn) {
    const b = this.budgets[fn];
    if (b === undefined) return this.defaults;
    this.made ??= Object.create(null);
    return (this.made[fn] ??= { ...this.defaults, maxTotalEntries: b });
  }

  /**
   * The limits a call runs under, for the checks made before copying (the module checks
   * everything again). `widest` (every limit at its ceiling) when these checks cannot
   * stand for the module's: limits that are not valid (a value out of range, an unknown
   * name: the module reports `INVALID_CONFIG` or `UNKNOWN_FIELD` before looking at the
   * data) or given as a `Map` (which the JSON text turns into an object). The module
   * alone checks the call exactly then; the checks here only refuse an input that no
   * limits accept before it is read whole (they were skipped: a list claiming 2^32 - 1
   * entries was read until the engine gave up).
   * Reads the given object's own enumerable keys, those its JSON text (what the module
   * reads) holds, not every limit's name: a missing property costs more to look up than
   * a present one.
   */
  effective(given, fn) {
    const base = this.defaultsFor(fn);
    if (given === undefined || given === null) return base;
    if (typeof given !== "object" || isMap(given)) return this.widest;
    let out = base;
    const keys = Object.keys(given);
    for (let i = 0; i < keys.length; i++) {
      const n = keys[i];
      const v = given[n];
      if (v === undefined || v === null) continue;
      out = this.withLimit(out, base, n, v);
      if (out === null) return this.widest;
    }
    return out;
  }

  /**
   * `lim` with limit `name` set to `value` (a copy of `base` made at the first change,
   * `lim` itself after), or null when the module would refuse the value (an unknown
   * name, not a whole number in 1..ceiling) or `lim` is null already.
   */
  withLimit(lim, base, name, value) {
    if (lim === null) return null;
    const max = this.ceilings[name];
    if (max === undefined || typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) return null;
    const out = lim === base ? { ...base } : lim;
    out[name] = value;
    return out;
  }
}

/**
 * `limit` of `lim` exceeded: named as the call's limit, or as its ceiling when `lim` is
 * `widest` (the call's own limits were left to the module: not valid, or a `Map`).
 */
const tooLarge = (lim, field, what, got, limit) =>
  scoreError("INPUT_TOO_LARGE", field, `${what} is ${got}, above ${lim.atCeilings === true ? "the ceiling" : "the limit"} of ${lim[limit]} (limits.${limit})`);

/** Checks made before an input is copied into wasm memory (`lim` may be null: none). */
export const precheck = {
  lists(lim, n, field) {
    if (lim && n > lim.maxLists) throw tooLarge(lim, field, "the number of lists", n, "maxLists");
  },
  /**
   * A list's `length`, read once by the caller: a whole number (an array's always is; a
   * Proxy's may not be, and the call's tables are sized by it: else `INVALID_TYPE` on
   * `field + suffix`, expected `expected`), within maxListLength (else on `field`).
   */
  length(lim, n, field, expected, suffix = "") {
    if (n >>> 0 !== n) throw typeError(field + suffix, expected);
    if (lim && n > lim.maxListLength) throw tooLarge(lim, field, "the list length", n, "maxListLength");
  },
  array(lim, n, field) {
    if (lim && n > lim.maxListLength) throw tooLarge(lim, field, "the array length", n, "maxListLength");
  },
  entries(lim, n, field) {
    if (lim && n > lim.maxTotalEntries) throw tooLarge(lim, field, "the total number of entries", n, "maxTotalEntries");
  },
  columnar(lim, n, field) {
    if (lim && n > lim.maxColumnarEntries) throw tooLarge(lim, field, "the number of columnar entries", n, "maxColumnarEntries");
  },
  /** `units`: UTF-16 code units, a lower bound of the UTF-8 bytes. */
  text(lim, units, field) {
    if (lim && units > lim.maxTotalTextBytes)
      throw tooLarge(lim, field, "the total length of the strings in bytes", units, "maxTotalTextBytes");
  },
  /**
   * The strings of a call (`units`: their UTF-16 length) against maxTotalTextBytes:
   * when they are over for sure, the error names the string at which the UTF-8 bytes
   * cross the limit (`fieldOf(i)` names string i), as the module would.
   */
  strings(lim, strs, units, fieldOf) {
    if (!lim || units <= lim.maxTotalTextBytes) return;
    let bytes = 0;
    for (let i = 0; i < strs.length; i++) {
      bytes += utf8Length(strs[i]);
      if (bytes > lim.maxTotalTextBytes)
        throw tooLarge(lim, fieldOf(i), "the total length of the strings in bytes", bytes, "maxTotalTextBytes");
    }
  },
  /**
   * `fuseMultiQuery`'s strings against `maxTotalTextBytes` before they are copied: each
   * distinct id once and each ISO timestamp, counted in hit order as the module counts
   * them, so that the field named is the one the module would name. `kinds`, `docs`,
   * `lens`: the call's sections.
   */
  hitTexts(lim, ids, units, isoTexts, isoUnits, lens, docs, kinds) {
    if (!lim || units + isoUnits <= lim.maxTotalTextBytes) return;
    let bytes = 0;
    let next = 0;
    let m = 0;
    for (let i = 0, k = 0; i < lens.length; i++)
      for (let j = 0; j < lens[i]; j++, k++) {
        let field = null;
        if (docs[k] === next) {
          // The module checks the id's own length first.
          const b = utf8Length(ids[next++]);
          precheck.id(lim, b, `queries[${i}][${j}].id`);
          bytes += b;
          if (bytes > lim.maxTotalTextBytes) field = `queries[${i}][${j}].id`;
        }
        if (field === null && kinds[k] === 2) {
          bytes += utf8Length(isoTexts[m++]);
          if (bytes > lim.maxTotalTextBytes) field = `queries[${i}][${j}].timestamp`;
        }
        if (field !== null) throw tooLarge(lim, field, "the total length of the strings in bytes", bytes, "maxTotalTextBytes");
      }
  },
  /**
   * JSON text made from the caller's value: its length bounds the copy, not the limit
   * itself (keys and numbers are not strings of the input), which the module checks
   * exactly. Refused here only when it could not fit any input the limits accept.
   */
  json(lim, length, field) {
    if (!lim) return;
    const bound = jsonBound(lim);
    if (length > bound) throw tooLarge(lim, field, "the JSON text of the input in bytes", length, "maxTotalTextBytes");
  },
  /**
   * Options, a configuration or a `context` as JSON text (undefined: none). The module
   * does not count them against the limits, so the bound is `json`'s for the call's
   * limits or for the default limits, whichever is larger: tightened limits never refuse
   * a configuration the defaults accept, and no text of any length is copied in.
   */
  jsonText(lim, text, field) {
    if (text === undefined) return text;
    const bound = Math.max(lim ? jsonBound(lim) : 0, jsonFloor);
    if (text.length > bound)
      throw scoreError("INPUT_TOO_LARGE", field, `the JSON text is ${text.length} characters, above ${bound} (4 x limits.maxTotalTextBytes + 64 x limits.maxTotalEntries, of this call's limits or of the defaults, whichever is larger)`);
    return text;
  },
  /** One id's UTF-8 length against maxIdBytes. */
  id(lim, bytes, field) {
    if (lim && bytes > lim.maxIdBytes) throw tooLarge(lim, field, "the id length in bytes", bytes, "maxIdBytes");
  },
  oneText(lim, units, field) {
    if (lim && units > lim.maxTextBytes) throw tooLarge(lim, field, "the text length in bytes", units, "maxTextBytes");
  },
  /** Options as JSON text (undefined: none), under `jsonText`'s bound. */
  options(lim, options) {
    notArray(options, "options");
    // `null` is no options, as `undefined` (the module's decoders of a few option types
    // would read the text "null" as a wrong type).
    if (options === null) return undefined;
    return precheck.jsonText(lim, toJson(options, "options"), "options");
  },
  /** `oneText` for field `f` of item `key` (its path built only for the error: this runs for every item text). */
  itemText(lim, units, key, f) {
    if (lim && units > lim.maxTextBytes) precheck.oneText(lim, units, `items.${key}.${f}`);
  },
};

/** The UTF-8 length of `s` as TextEncoder encodes it (a lone surrogate is U+FFFD). */
export function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

// ------------------------------------------------------------------ numbers

/**
 * A `Float64Array` or an array of numbers as something the encoder copies: the typed
 * array itself, or the array after checking each element is a number.
 */
export function numbers(value, field) {
  if (typedArrayKind(value) === "Float64Array") return plainTyped(value, Float64Array);
  if (!Array.isArray(value)) throw typeError(field, "a Float64Array or an array of numbers");
  return checkedCopy(value, (i) => typeError(`${field}[${i}]`, "a number"));
}

/**
 * A typed array of kind `Kind` as it is when its `length` is the engine's (this realm's
 * prototype, no own `length`), else a copy made without running its code: a subclass's
 * or an own `length` getter would be read by the checks made before the call.
 */
export function plainTyped(value, Kind) {
  if (Object.getPrototypeOf(value) === Kind.prototype && !Object.prototype.hasOwnProperty.call(value, "length") && fixedBuffer(value)) return value;
  // A detached buffer has length 0 (and `set` would throw on it).
  const n = typedLength.call(value);
  const copy = new Kind(n);
  if (n > 0) copy.set(value);
  return copy;
}

const typedBuffer = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "buffer").get;
const bufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
const bufferResizable = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "resizable")?.get;
/**
 * Whether a typed array's buffer is an ArrayBuffer of fixed length: not shared (another
 * thread could grow a growable SharedArrayBuffer between the checks and the copy into
 * wasm memory, or write it meanwhile) and not resizable (caller code run after the
 * checks could shrink or grow it). Engine getters only: no caller code runs.
 */
function fixedBuffer(v) {
  const b = typedBuffer.call(v);
  try {
    bufferByteLength.call(b);
  } catch {
    return false; // a SharedArrayBuffer
  }
  return bufferResizable === undefined || !bufferResizable.call(b);
}

/**
 * A copy of an array of numbers, each element read once: the array may be a Proxy whose
 * traps would otherwise run again when the section is written into wasm memory (and
 * could call the package in the middle of that, or answer another length). At the first
 * element that is not a number, `notNumber(i)` gives the error to throw, or null to
 * return null instead.
 */
export function checkedCopy(value, notNumber) {
  const n = value.length;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = value[i];
    if (typeof x !== "number") {
      const e = notNumber(i);
      if (e === null) return null;
      throw e;
    }
    out[i] = x;
  }
  return out;
}

/** Indices: a `Uint32Array` as it is, an array of numbers as f64 (checked by the module). */
export function indices(value, field) {
  if (typedArrayKind(value) === "Uint32Array") return plainTyped(value, Uint32Array);
  if (!Array.isArray(value)) throw typeError(field, "a Uint32Array or an array of whole numbers");
  return checkedCopy(value, (i) => scoreError("INVALID_TYPE", `${field}[${i}]`, "expected a whole number in 0..2^32"));
}

// ------------------------------------------------------------------ encoder

/**
 * Typed arrays kept from one call to the next for an input's tables: a new typed array
 * costs about a microsecond (its backing store is allocated outside the heap and freed
 * by the collector), as much as the rest of a small call. A call takes a `Lease`, asks
 * it for zeroed arrays, and gives it back once the tables are copied into wasm memory.
 * Caller code (getters, Proxies) runs while a call reads its input and may call the
 * package again: a lease taken while another is out hands out fresh arrays, as does any
 * request above `MAX` elements (so a large call leaves nothing large behind).
 */
export class Scratch {
  static MAX = 1 << 16;
  constructor() {
    this.out = false;
    this.lease = new Lease(this, true);
    this.fresh = new Lease(this, false);
  }
  take() {
    if (this.out) return this.fresh;
    this.out = true;
    return this.lease;
  }
  give(lease) {
    if (lease === this.lease) this.out = false;
  }
}

class Lease {
  constructor(scratch, reuse) {
    this.scratch = scratch;
    this.reuse = reuse;
    this.bufs = [];
    this.views = [];
  }
  /**
   * A zeroed array of `n` elements of `Kind` (Uint32Array or Float64Array), kept in slot
   * `i` (one per table, so that a table keeps its buffer whatever the others do).
   */
  array(Kind, n, i, field) {
    if (!this.reuse || n > Scratch.MAX) return allocate(Kind, n, field);
    let b = this.bufs[i];
    if (b === undefined || b.length < n || !(b instanceof Kind)) {
      b = this.bufs[i] = allocate(Kind, Math.max(n, 256), field);
      this.views[i] = undefined;
    }
    b.fill(0, 0, n);
    // The last view of this buffer when it has the length asked for (calls of one size
    // follow each other): making a view costs a few hundred nanoseconds.
    let v = this.views[i];
    if (v === undefined || v.length !== n) v = this.views[i] = b.subarray(0, n);
    return v;
  }
  /** `field`: the input the table is for (named by the error when it cannot be allocated). */
  u32(n, slot, field) {
    return this.array(Uint32Array, n, slot, field);
  }
  f64(n, slot, field) {
    return this.array(Float64Array, n, slot, field);
  }
}

/** The first `n` entries of a table kept by the caller (`null` stays `null`). */
export const firstOf = (a, n) => (a === null || a.length === n ? a : a.subarray(0, n));

/** The sections of one call's input, collected before anything is written. */
export class Input {
  constructor() {
    this.tags = [];
    this.values = [];
    // Bytes needed if every string is ASCII (tried first), and at most (3 bytes per
    // UTF-16 unit).
    this.bound = 0;
    this.worst = 0;
    // The UTF-16 units of each string table, in order, and the running sums of its first
    // strings' lengths when the caller kept them (or null; see `strs`).
    this.units = [];
    this.ends = [];
    // Functions run by `Wire.call` before it writes anything (see `later`).
    this.late = null;
  }
  /**
   * Runs `fn` when the call is made, after every argument was read: it fills a section
   * whose length is already fixed (a handle, looked up after the caller's code that
   * could free the object and make another in its slot has run).
   */
  later(fn) {
    (this.late ??= []).push(fn);
    return this;
  }
  none() {
    this.tags.push(NONE);
    this.values.push(null);
    this.bound += 8;
    this.worst += 8;
    return this;
  }
  /** UTF-8 text (`undefined`: NONE). */
  text(s) {
    if (s === undefined) return this.none();
    this.tags.push(TEXT);
    this.values.push(s);
    this.bound += 16 + s.length;
    this.worst += 16 + 3 * s.length;
    return this;
  }
  /** f64 values: a Float64Array or an array of numbers (`undefined`: NONE). */
  f64s(a) {
    if (a === undefined) return this.none();
    this.tags.push(F64);
    this.values.push(a);
    const n = lengthOf(a);
    this.bound += 16 + 8 * n;
    this.worst += 16 + 8 * n;
    return this;
  }
  u32s(a) {
    if (a === undefined) return this.none();
    this.tags.push(U32);
    this.values.push(a);
    const n = lengthOf(a);
    this.bound += 16 + 4 * n;
    this.worst += 16 + 4 * n;
    return this;
  }
  /** Bytes: a Uint8Array. */
  u8s(a) {
    this.tags.push(U8);
    this.values.push(a);
    const n = lengthOf(a);
    this.bound += 16 + n;
    this.worst += 16 + n;
    return this;
  }
  /** A Uint32Array as U32, any other array of numbers as F64 (see `indices`). */
  indices(a) {
    return typedArrayKind(a) === "Uint32Array" ? this.u32s(a) : this.f64s(a);
  }
  /**
   * A string table; `units` is the sum of the strings' lengths when the caller knows it.
   * `ends`, when the caller kept them as it read the strings: a Uint32Array of the running
   * sums of the lengths of the table's first `ends.length` strings (all of them or a
   * prefix), from which an ASCII table's offsets are copied instead of read from each
   * string again (many strings lie scattered over the heap: a cache miss each;
   * docs/performance.md, "Strings read once").
   */
  strs(list, units, ends = null) {
    if (units === undefined) {
      units = 0;
      for (let i = 0; i < list.length; i++) units += list[i].length;
    }
    this.tags.push(STRS);
    this.values.push(list);
    this.units.push(units);
    this.ends.push(ends);
    this.bound += 32 + 4 * list.length + units;
    this.worst += 32 + 4 * list.length + 3 * units;
    return this;
  }
}

/**
 * A string table of at most this many UTF-16 units is written string by string (see
 * `write`): joining the strings and calling TextEncoder once costs a fixed few hundred
 * nanoseconds, the JavaScript loop a few nanoseconds per character.
 */
const SMALL_TABLE = 96;

/**
 * Writes `s` as UTF-8 at `pos`, before `limit`; returns the end, or -1 if it does not
 * fit. Short ASCII strings skip TextEncoder.
 */
function writeString(u8, pos, s, limit) {
  const n = s.length;
  if (n <= 64 && pos + n <= limit) {
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) break;
      u8[pos + i] = c;
    }
    if (i === n) return pos + n;
  }
  if (n === 0) return pos;
  const r = utf8.encodeInto(s, u8.subarray(pos, limit));
  return r.read < n ? -1 : pos + r.written;
}

/**
 * Writes strings `v` one after the other from `base` and their end offsets (from `base`)
 * at `u32[o + 1..]`; returns the end, or -1 if they do not fit before `limit`.
 */
function writeEach(u8, u32, o, base, v, limit) {
  let end = base;
  for (let i = 0; i < v.length; i++) {
    end = writeString(u8, end, v[i], limit);
    if (end < 0) return -1;
    u32[o + i + 1] = end - base;
  }
  return end;
}

// ------------------------------------------------------------------ decoder

const fromCharCodes = String.fromCharCode;
/** Decodes UTF-8; short ASCII without TextDecoder (one native call, a flat string). */
function readString(u8, start, end) {
  if (end - start <= 128) {
    let ascii = true;
    for (let i = start; i < end; i++) if (u8[i] > 0x7f) ascii = false;
    if (ascii) return fromCharCodes.apply(null, u8.subarray(start, end));
  }
  return fromUtf8.decode(u8.subarray(start, end));
}

/** The sections of one call's output, read in order. Views are valid until the next call. */
export class Output {
  constructor(wire, pos, end) {
    this.w = wire;
    this.pos = pos;
    this.end = end;
    /** The length of the section the last index reader passed. */
    this.n = 0;
  }
  header(want) {
    const tag = this.w.u32[this.pos >>> 2];
    const count = this.w.u32[(this.pos >>> 2) + 1];
    this.pos += 8;
    if (tag === NONE) return -1;
    if (tag !== want) throw scoreError("INTERNAL", "", `wire: output section ${tag}, expected ${want}`);
    return count;
  }
  text() {
    const n = this.header(TEXT);
    if (n < 0) return undefined;
    const s = readString(this.w.u8, this.pos, this.pos + n);
    this.pos += pad8(n);
    return s;
  }
  json() {
    const t = this.text();
    return t === undefined ? undefined : JSON.parse(t);
  }
  // Index readers: no typed array is created (a subarray costs about as much as a small
  // call's other work). Each moves past a section and returns the index of its first
  // element in the wire's view (`w.f64`, `w.u32`, `w.u8`, valid until the next call),
  // its length in `n`; a NONE section gives -1 and `n` 0.
  f64At() {
    const n = this.header(F64);
    if (n < 0) return (this.n = 0), -1;
    const i = this.pos >>> 3;
    this.pos += 8 * n;
    this.n = n;
    return i;
  }
  u32At() {
    const n = this.header(U32);
    if (n < 0) return (this.n = 0), -1;
    const i = this.pos >>> 2;
    this.pos += pad8(4 * n);
    this.n = n;
    return i;
  }
  u8At() {
    const n = this.header(U8);
    if (n < 0) return (this.n = 0), -1;
    const i = this.pos;
    this.pos += pad8(n);
    this.n = n;
    return i;
  }
  /** A view into wasm memory (copy it before the next call). */
  f64View() {
    const i = this.f64At();
    return i < 0 ? undefined : this.w.f64.subarray(i, i + this.n);
  }
  /** A copy (one typed array made, not a view and a copy). */
  f64s() {
    const i = this.f64At();
    return i < 0 ? undefined : this.w.f64.slice(i, i + this.n);
  }
  u32View() {
    const i = this.u32At();
    return i < 0 ? undefined : this.w.u32.subarray(i, i + this.n);
  }
  u32s() {
    const i = this.u32At();
    return i < 0 ? undefined : this.w.u32.slice(i, i + this.n);
  }
  /** A view into wasm memory (copy it before the next call). */
  u8View() {
    const i = this.u8At();
    return i < 0 ? undefined : this.w.u8.subarray(i, i + this.n);
  }
  u8s() {
    const i = this.u8At();
    return i < 0 ? undefined : this.w.u8.slice(i, i + this.n);
  }
  strs() {
    const n = this.header(STRS);
    if (n < 0) return undefined;
    const o = this.pos >>> 2;
    const base = this.pos + pad8(4 * (n + 1));
    const u32 = this.w.u32;
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = readString(this.w.u8, base + u32[o + i], base + u32[o + i + 1]);
    this.pos = base + pad8(u32[o + n]);
    return out;
  }
}

// ------------------------------------------------------------------ the module

/** Instances made so far by every Wire (their `generation`s). */
let instantiations = 0;

/** One instantiated module and the calls into it. */
export class Wire {
  /** `module`: a compiled `WebAssembly.Module`; `imports`: its import object. */
  constructor(module, imports = {}) {
    this.module = module;
    this.imports = imports;
    /** Whether a `cr_call` is running (see `call`). */
    this.busy = false;
    /** The core's function-table slot for its held texts (js/core/held-texts.js; -1 until a `Pipeline` is made). */
    this.textsSlot = -1;
    this.instantiate();
  }

  instantiate() {
    this.x = new WebAssembly.Instance(this.module, this.imports).exports;
    this.memory = this.x.memory;
    this.buffer = null;
    // Numbered across every Wire of the API module: a second `init` (calibrank/init with a
    // main entry in one bundle) makes a new Wire whose instance is not the one the
    // handles made before it live in.
    this.generation = ++instantiations;
  }

  views() {
    const b = this.memory.buffer;
    if (b !== this.buffer) {
      this.buffer = b;
      this.u8 = new Uint8Array(b);
      this.u32 = new Uint32Array(b);
      this.f64 = new Float64Array(b);
    }
  }

  /**
   * Writes `input` (an `Input`), calls operation `op` and returns its `Output`. A call
   * made while another call into this module is running (the only caller code that
   * runs with wasm on the stack is `optimizeFusion`'s `onProgress`, an import of the
   * lab's module) is refused: it would write over the input and output of the call in
   * flight, and a trap in it would restart the instance under that call.
   */
  call(op, input) {
    if (this.busy)
      throw scoreError("REENTRANT_CALL", "", "called while another call into the same module is running (from optimizeFusion's onProgress): call it once that call has returned");
    if (input && input.late !== null) for (const f of input.late) f();
    let ptr, len;
    // Whether the error came from the module (a trap) or from this side's writing.
    let inWasm = false;
    try {
      // Addresses cross as wasm i32: one at or above 2 GiB reads negative in JavaScript.
      inWasm = true;
      ptr = this.x.cr_reserve(input ? input.bound : 0) >>> 0;
      inWasm = false;
      len = input ? this.write(ptr, input, ptr + input.bound) : 0;
      if (len < 0) {
        // Some strings are not ASCII and took more room than the first guess.
        inWasm = true;
        ptr = this.x.cr_reserve(input.worst) >>> 0;
        inWasm = false;
        len = this.write(ptr, input, ptr + input.worst);
        if (len < 0) throw scoreError("INTERNAL", "", "wire: the input does not fit the room reserved for it");
      }
      let p;
      this.busy = true;
      try {
        inWasm = true;
        p = this.x.cr_call(op, len) >>> 0;
        inWasm = false;
      } finally {
        this.busy = false;
      }
      this.views();
      const status = this.u32[p >>> 2];
      const out = new Output(this, p + 8, p + 8 + this.u32[(p >>> 2) + 1]);
      if (status !== 0) {
        const e = JSON.parse(out.text());
        throw new ScoreError(e.message, e.code, e.field);
      }
      return out;
    } catch (e) {
      if (!inWasm && e instanceof RangeError && /string length/i.test(e.message)) {
        // A string table longer than the engine's longest string (its join failed): the
        // module was not entered, so it stays as it is.
        throw engineLimit("", "the strings of the input, joined", e);
      }
      if (inWasm && (e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && !(e instanceof ScoreError)))) {
        // A trap (a bug, or memory exhausted): the instance is in an unknown state.
        this.instantiate();
        throw scoreError("INTERNAL", "", `the WebAssembly module trapped (${e.message}); it was restarted`);
      }
      throw e;
    }
  }

  /** Writes the sections; returns the length, or -1 when they do not fit before `limit`. */
  write(ptr, input, limit) {
    this.views();
    const u8 = this.u8;
    const u32 = this.u32;
    const f64 = this.f64;
    let pos = ptr;
    const { tags, values } = input;
    let table = 0;
    for (let s = 0; s < tags.length; s++) {
      const tag = tags[s];
      const v = values[s];
      const h = pos >>> 2;
      if (pos + 8 > limit) return -1;
      u32[h] = tag;
      pos += 8;
      switch (tag) {
        case NONE:
          u32[h + 1] = 0;
          break;
        case TEXT: {
          const end = writeString(u8, pos, v, limit);
          if (end < 0) return -1;
          u32[h + 1] = end - pos;
          pos = pad8(end);
          break;
        }
        case F64: {
          // Sections hold the package's own arrays or typed arrays (`numbers` and
          // `indices` copy any other array); neither the length nor the brand check
          // below runs caller code (`instanceof` would: a prototype can be a Proxy).
          const n = lengthOf(v);
          if (pos + 8 * n > limit) return -1;
          u32[h + 1] = n;
          if (typedArrayKind(v) === "Float64Array") {
            // A typed array is the caller's own (see `plainTyped`); detached since the
            // checks, its length reads 0 and `set` would throw.
            if (n > 0) f64.set(v, pos >>> 3);
          }
          else {
            const o = pos >>> 3;
            for (let i = 0; i < n; i++) f64[o + i] = v[i];
          }
          pos += 8 * n;
          break;
        }
        case U32: {
          const n = lengthOf(v);
          if (pos + 4 * n > limit) return -1;
          u32[h + 1] = n;
          if (typedArrayKind(v) === "Uint32Array") {
            if (n > 0) u32.set(v, pos >>> 2);
          }
          else {
            const o = pos >>> 2;
            for (let i = 0; i < n; i++) u32[o + i] = v[i];
          }
          pos += pad8(4 * n);
          break;
        }
        case U8: {
          const n = lengthOf(v);
          if (pos + n > limit) return -1;
          u32[h + 1] = n;
          u8.set(v, pos);
          pos += pad8(n);
          break;
        }
        case STRS: {
          const n = v.length;
          u32[h + 1] = n;
          const o = pos >>> 2;
          const base = pos + pad8(4 * (n + 1));
          u32[o] = 0;
          const ends = input.ends[table];
          if (input.units[table++] <= SMALL_TABLE) {
            // A few short strings: written one by one (ASCII ones without TextEncoder),
            // cheaper than joining them first.
            const end = writeEach(u8, u32, o, base, v, limit);
            if (end < 0) return -1;
            pos = pad8(end);
            break;
          }
          // One native join and one encodeInto for the whole table; when every string is
          // ASCII (as many bytes as UTF-16 units) the offsets are the running lengths.
          const joined = v.join("");
          let written = 0;
          if (joined.length > 0) {
            if (base > limit) return -1;
            const r = utf8.encodeInto(joined, u8.subarray(base, limit));
            if (r.read < joined.length) return -1;
            written = r.written;
          }
          let end = base + written;
          if (written === joined.length) {
            let i = 0;
            let off = 0;
            if (ends !== null && ends.length > 0) {
              i = ends.length;
              u32.set(ends, o + 1);
              off = ends[i - 1];
            }
            for (; i < n; i++) {
              off += v[i].length;
              u32[o + i + 1] = off;
            }
          } else {
            end = writeEach(u8, u32, o, base, v, limit);
            if (end < 0) return -1;
          }
          pos = pad8(end);
          break;
        }
      }
    }
    return pos - ptr;
  }
}

// ------------------------------------------------------------------ one module's state

/**
 * What each API module (core.js, lab.js) keeps about its wasm module: the `Wire` once
 * instantiated, a loader an entry registered to instantiate it on the first call, and
 * the limits table read on first use. Operations 1-3 are common to both modules.
 */
export class ModuleState {
  /** `name`: the entry, for the "not initialized" error; `imports`: the module's imports. */
  constructor(name, imports) {
    this.name = name;
    this.imports = imports;
    /** The instantiated module's Wire (null before `init`). */
    this.wire = null;
    this.loader = null;
    this.table = null;
  }

  /** Instantiates the module (a compiled `WebAssembly.Module`); the entries call it. */
  init(module) {
    this.wire = new Wire(module, this.imports);
  }

  /** Registers `load` (returning a compiled module), run on the first call instead. */
  lazy(load) {
    this.loader = load;
  }

  /** The Wire, instantiating the module first if an entry registered a loader. */
  get() {
    if (this.wire === null && this.loader !== null) {
      const load = this.loader;
      this.loader = null;
      this.init(load());
    }
    if (this.wire === null) throw scoreError("INTERNAL", "", `${this.name} is not initialized: import it through one of its entries`);
    return this.wire;
  }

  /** The limits table, read from the module on first use (not at start-up). */
  limits() {
    if (this.table === null) this.table = new LimitTable(this.get().call(3));
    return this.table;
  }

  /** The limits of a call of `fn` with `options` (for the checks made before copying). */
  limitsOf(options, fn) {
    if (options === undefined || options === null || typeof options !== "object") return this.limits().defaultsFor(fn);
    return this.limits().effective(own(options, "limits"), fn);
  }

  /** The package version (operation 1). */
  version() {
    return this.get().call(1).text();
  }

  /** Every error code (operation 2). */
  errorCodes() {
    return this.get().call(2).strs();
  }

  /** A copy of the default limits, those most functions share or those of `fn`. */
  defaultLimits(fn) {
    if (fn !== undefined && typeof fn !== "string") throw typeError("fn", "a function name");
    return { ...this.limits().defaultsFor(fn) };
  }

  /** The hook object an API module default-exports for its entries. */
  hooks() {
    return { init: (module) => this.init(module), lazy: (load) => this.lazy(load) };
  }
}
