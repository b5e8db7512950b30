// The module's limits table (names, defaults, ceilings) and the size checks made before
// anything is copied (`precheck`), with the errors the module would give.
import { notArray, objectJson, textTooLong } from "./json.js";
import { isMap, keyField, scoreError, typeError } from "./values.js";
import { utf8Length } from "./keys.js";

/** `precheck.jsonText`'s bound under the default limits (set when a LimitTable is read). */
let textFloor = 0;
/** The longest JSON text an input under `lim` can take: 4 x maxTotalTextBytes + 64 x maxTotalEntries. */
const jsonBound = (lim) => 4 * lim.maxTotalTextBytes + 64 * lim.maxTotalEntries;

/**
 * The functions `defaultLimits(fn)` answers for: every function of the two entries that
 * takes `limits` (js/types/core.d.ts `LimitedFunction`; tests/js/node.test.mjs keeps the
 * two lists equal). Those with an entry budget of their own (src/limits.rs
 * `ENTRY_BUDGETS`) get it; the others get the common defaults.
 */
export const LIMITED_FUNCTIONS = Object.freeze([
  "Pipeline", "rrf", "rrfColumnar", "fuseMultiQuery", "rerank", "normalize", "calibrate", "queryConfidence",
  "parseTrecRun", "parseQrels", "evaluate", "evaluatePerQuery", "fuseRuns", "optimizeFusion", "fitPlatt", "fitIsotonic",
  "applyCalibration", "calibrationError", "proposeBands", "fitQueryConfidence", "predictQueryConfidence",
  "evaluateQueryConfidence",
]);

/**
 * Methods that take limits under another function's name: a `Run` or `Qrels` made from
 * TREC text or an object reads as `parseTrecRun` / `parseQrels` do, with their limits.
 * `defaultLimits` answers for them too.
 */
export const LIMIT_ALIASES = new Map([
  ["Run.fromTrec", "parseTrecRun"],
  ["Run.fromObject", "parseTrecRun"],
  ["Qrels.fromTrec", "parseQrels"],
  ["Qrels.fromObject", "parseQrels"],
]);

/**
 * The parts of the module's DEFAULT_LIMITS output (operation 3), in its order: the limits'
 * names, defaults and ceilings, the functions with an entry budget of their own and those
 * budgets (scripts/pipeline-defaults.mjs writes them out for calibrank_pipeline.wasm,
 * which has no such operation).
 */
export function limitParts(out) {
  return { names: out.strs(), defaults: [...out.f64s()], ceilings: [...out.f64s()], functions: out.strs(), budgets: [...out.f64s()] };
}

/** Limits as the module states them: names, defaults and ceilings (read once). */
export class LimitTable {
  // Fields declared (defined, not assigned: js/wire/input.js `Scratch`).
  names;
  defaults;
  ceilings;
  slot;
  budgets;
  widest;
  made;
  lastSlots;
  /** From the parts of the module's DEFAULT_LIMITS output (`limitParts`). */
  constructor({ names, defaults, ceilings, functions, budgets }) {
    this.names = names;
    // Made with Object.fromEntries, which defines each key: an assignment would go
    // through a setter of the same name on Object.prototype (a caller's).
    this.defaults = Object.fromEntries(names.map((n, i) => [n, defaults[i]]));
    // Keyed by name without a prototype (a caller's key such as "toString" finds nothing).
    // (Without a prototype, an assignment meets no setter either.)
    this.ceilings = Object.create(null);
    this.slot = Object.create(null);
    names.forEach((n, i) => {
      this.ceilings[n] = ceilings[i];
      this.slot[n] = i;
    });
    this.budgets = Object.create(null);
    functions.forEach((f, i) => {
      this.budgets[f] = budgets[i];
    });
    // Every limit at its ceiling: what the checks made before copying hold a call to when
    // they cannot stand for the module's (see `effective`).
    this.widest = Object.fromEntries([["atCeilings", true], ...names.map((n, i) => [n, ceilings[i]])]);
    textFloor = Math.max(textFloor, this.defaults.maxTextBytes);
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
   * The limits of a call of `fn` given in the compact form (`kWeightsLimits` in
   * js/core/fuse.js): `head[from + slot]` is each limit given, in the module's order, NaN
   * where none is. `widest` when a value is one the module refuses (not a whole number in
   * 1..ceiling). The last answer is kept and given again while the values are the
   * previous call's (a caller passing the same limits call after call), and made again
   * when they differ: making the object cost a small call as much as the rest of its
   * options. Never handed to callers, never changed.
   */
  ofSlots(fn, head, from) {
    const names = this.names;
    const last = this.lastSlots;
    let same = last !== undefined && last.fn === fn;
    for (let i = 0; i < names.length; i++) {
      const x = head[from + i];
      if (x !== x) {
        if (same && last.values[i] === last.values[i]) same = false;
        continue;
      }
      if (!this.accepts(names[i], x)) return this.widest;
      if (same && last.values[i] !== x) same = false;
    }
    if (same) return last.lim;
    const base = this.defaultsFor(fn);
    let lim = base;
    const values = new Array(names.length);
    for (let i = 0; i < names.length; i++) {
      const x = (values[i] = head[from + i]);
      // Each value accepted above: never null.
      if (x === x) lim = this.withLimit(lim, base, names[i], x);
    }
    this.lastSlots = { fn, values, lim };
    return lim;
  }

  /** Whether the module takes `value` for limit `name`: a known name, a whole number in 1..ceiling. */
  accepts(name, value) {
    const max = this.ceilings[name];
    return max !== undefined && typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= max;
  }

  /**
   * `lim` with limit `name` set to `value` (a copy of `base` made at the first change,
   * `lim` itself after), or null when the module would refuse the value (an unknown
   * name, not a whole number in 1..ceiling) or `lim` is null already.
   */
  withLimit(lim, base, name, value) {
    if (lim === null || !this.accepts(name, value)) return null;
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
  /**
   * The number of lists (of runs, of queries), read once by the caller: a whole number
   * (a Proxy's `length` may be anything, and the call's tables are sized by it: else
   * `INVALID_TYPE` on `field`, expected `expected`), within maxLists.
   */
  lists(lim, n, field, expected) {
    if (n >>> 0 !== n) throw typeError(field, expected);
    if (lim && n > lim.maxLists) throw tooLarge(lim, field, `the number of ${field === "runs" || field === "queries" || field === "metrics" ? field : "lists"}`, n, "maxLists");
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
  /**
   * `units`: UTF-16 code units, a lower bound of the UTF-8 bytes (or the bytes); `s` the
   * text when `units` counts its UTF-16 units, for the error to say its bytes.
   */
  text(lim, units, field, s) {
    if (lim && units > lim.maxTotalTextBytes)
      throw tooLarge(lim, field, "the total length of the strings in bytes", s === undefined ? units : utf8Length(s), "maxTotalTextBytes");
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
   * The distinct ids of lists checked as the module checks them, in its order, before
   * anything is copied: each id at its first occurrence (`docs` holds each entry's id
   * index, numbered in order of first occurrence; `lens` each list's length) against
   * maxIdBytes, then the running total of the strings' UTF-8 bytes against
   * maxTotalTextBytes; with `isoTexts`, the ISO timestamp of each entry whose `kinds[k]`
   * is 2 counts after its id (`fuseMultiQuery`'s hits). `field(i, j, what)` names entry j
   * of list i (`what`: "id" or "timestamp").
   */
  listStrings(lim, ids, lens, docs, field, isoTexts = null, kinds = null) {
    if (!lim) return;
    let bytes = 0;
    let next = 0;
    let m = 0;
    for (let i = 0, k = 0; i < lens.length; i++)
      for (let j = 0; j < lens[i]; j++, k++) {
        if (docs[k] === next) {
          const b = utf8Length(ids[next++]);
          precheck.id(lim, b, field(i, j, "id"));
          bytes += b;
          if (bytes > lim.maxTotalTextBytes) precheck.text(lim, bytes, field(i, j, "id"));
        }
        if (kinds !== null && kinds[k] === 2) {
          bytes += utf8Length(isoTexts[m++]);
          if (bytes > lim.maxTotalTextBytes) precheck.text(lim, bytes, field(i, j, "timestamp"));
        }
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
    // The bound said as it is (the message named maxTotalTextBytes and its value, while
    // the bound applied is this one: a review's finding).
    if (length > bound) throw scoreError("INPUT_TOO_LARGE", field, `the JSON text is ${length} characters, above ${bound} (4 x limits.maxTotalTextBytes + 64 x limits.maxTotalEntries)`);
  },
  /**
   * The longest JSON text of options, a configuration or a `context`: 2 x `maxTextBytes`
   * characters (room for one text at its own bound, which the module then names on its
   * path) of the call's limits or of the default limits, whichever is larger (tightened
   * limits never refuse a configuration the defaults accept). The module does not count
   * them against the other limits: the bound alone keeps a configuration cheap to read
   * (bench/limits.mjs times configurations at it: "new Pipeline, recency steps" and the
   * rows after it). It was 4 x maxTotalTextBytes + 64 x maxTotalEntries, 153.6 million
   * characters for a Pipeline, where a review's 12 million recency steps took 23 s.
   */
  textBound(lim) {
    return 2 * Math.max(lim ? lim.maxTextBytes : 0, textFloor);
  },
  /** Options, a configuration or a `context` as JSON text (undefined: none), under `textBound`. */
  jsonText(lim, text, field) {
    if (text === undefined) return text;
    const bound = precheck.textBound(lim);
    if (text.length > bound) throw textTooLong(field, text.length, bound);
    return text;
  },
  /** One id's UTF-8 length against maxIdBytes. */
  id(lim, bytes, field) {
    if (lim && bytes > lim.maxIdBytes) throw tooLarge(lim, field, "the id length in bytes", bytes, "maxIdBytes");
  },
  /**
   * A text's size against maxTextBytes: `units` its UTF-16 units (a text of more units
   * than the limit is over it in UTF-8 too) or its UTF-8 bytes; `s` the text itself when
   * `units` counts UTF-16 units, for the error to say its bytes.
   */
  oneText(lim, units, field, s) {
    if (lim && units > lim.maxTextBytes) throw tooLarge(lim, field, "the text length in bytes", s === undefined ? units : utf8Length(s), "maxTextBytes");
  },
  /** Options as JSON text (undefined: none), under `jsonText`'s bound. */
  options(lim, options) {
    notArray(options, "options");
    // `null` is no options, as `undefined` (the module's decoders of a few option types
    // would read the text "null" as a wrong type).
    if (options === null) return undefined;
    return precheck.jsonText(lim, objectJson(options, "options", undefined, false, precheck.textBound(lim)), "options");
  },
  /** `oneText` for field `f` of item `key` (its path built only for the error: this runs for every item text). */
  itemText(lim, units, key, f, s) {
    if (lim && units > lim.maxTextBytes) precheck.oneText(lim, units, keyField("items", key, f), s);
  },
};

// The UTF-8 length of a string: js/wire/keys.js, where error messages need it too.
export { utf8Length };
