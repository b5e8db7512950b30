// `Items`: a corpus's item metadata read and checked once, for many `Pipeline.run`
// calls (`input.items`), which then copy what it holds instead of reading the caller's
// objects again (js/core/pipeline-input.js `internHeld`, `heldRows`).
import { typeError, isMap, scoreError, markHandle } from "../wire.js";
import { scratch, isObject } from "./shared.js";
import { HELD } from "./held.js";
import { encodeInput } from "./pipeline-input.js";
import { LIMIT_TABLE } from "./pipeline-defaults.js";

const mapKeys = Map.prototype.keys;

/**
 * Item metadata (`{ id: { name?, type?, summary?, content?, modifiedAt?, fiscalYear?,
 * crossEncoderScore? } }` or a `Map`) read once: pass it as `input.items` to
 * `Pipeline.run`. Every entry is read and checked as `run` checks an item it reads (its
 * keys, the kinds of its values: the same errors, on `items.<id>`); the values
 * themselves (a date's form, a number being finite) and the limits are checked by each
 * call that lists the item, as for an object. A copy: later changes to `items` are not
 * seen.
 */
export class Items {
  // Named by a getter, as `Pipeline` (a minifier may rename the class).
  static get name() {
    return "Items";
  }

  constructor(items) {
    const lease = scratch.take();
    try {
      HELD.set(this, holdItems(items, lease));
    } finally {
      scratch.give(lease);
    }
    // A copy (structuredClone, postMessage) keeps this mark alone: refused when given
    // back, where it would be read as no items (js/wire/values.js `HANDLE_KEY`).
    markHandle(this, "Items");
  }

  // `Object.prototype.toString` says "[object Items]"; the declarations brand the class
  // with it, so that a Set of ids or a lab `Run` (refused by `run`) is no `Items` to the
  // compiler either, while the ES module's and the CommonJS build's stay one type.
  get [Symbol.toStringTag]() {
    return "Items";
  }

  /** How many items are held (entries whose value is not `undefined`; `null` ones too). */
  get size() {
    const held = typeof this === "object" && this !== null ? HELD.get(this) : undefined;
    if (held === undefined) throw typeError("this", "an Items: read `size` on one");
    return held.flags.length;
  }
}

// No limit on the corpus an `Items` reads: each call that lists its items checks them
// against its pipeline's limits.
const UNLIMITED = Object.fromEntries(LIMIT_TABLE.names.map((name) => [name, Infinity]));
// The item table's bits of a modifiedAt given as a number, a fiscalYear and a
// crossEncoderScore.
const NUMBER_BITS = 16 | 64 | 128;

/**
 * Reads every entry of `items` (a record's own string keys, enumerable or not, as `run`
 * finds them by lookup; or a `Map`'s, every one a string) as
 * `Pipeline.run` reads an item, with the same checks and errors (`encodeInput` on a list
 * of every key, with no limit: each call checks its own), and holds a copy of what it
 * read (`HELD`).
 */
function holdItems(items, lease) {
  const same = HELD.get(items);
  if (same !== undefined) return same;
  let keys;
  if (isMap(items)) {
    // Its keys as Map.prototype.keys gives them (as `run` looks entries up with the `get`
    // the package found). A key that is not a string no list id could find: refused
    // rather than held as nothing (`new Map([[1, meta]])` held no item without a word).
    keys = [];
    for (const key of mapKeys.call(items)) {
      if (typeof key !== "string") throw typeError("items", "a Map whose keys are ids (strings)", key);
      keys.push(key);
    }
  } else if (isObject(items)) keys = Object.getOwnPropertyNames(items);
  else throw typeError("items", "an object mapping ids to metadata", items);
  let e;
  try {
    e = encodeInput({ lists: [{ name: "items", ids: keys }], items }, UNLIMITED, -1, lease);
  } catch (err) {
    // Only the keys make up the list: a fault of the list is the items' own.
    if (err instanceof Error && typeof err.field === "string" && err.field.startsWith("lists")) throw scoreError(err.code, "items", err.message);
    throw err;
  }
  const { itemTable, itemNums, strs } = e;
  const rows = itemTable.length / 8;
  const index = new Map();
  const flags = new Uint8Array(rows);
  const nums = new Float64Array(3 * rows);
  const texts = new Array(5 * rows);
  // Each text's UTF-16 units, so that a call checks and counts the texts it holds back
  // without reading the strings (each one a read from memory at large N).
  const lens = new Uint32Array(5 * rows);
  const order = new Uint32Array(rows);
  const at = [];
  for (let r = 0; r < rows; r++) {
    const t = 8 * r;
    index.set(strs[itemTable[t]], r);
    const f = itemTable[t + 1];
    flags[r] = f & NUMBER_BITS;
    for (let x = 0; x < 3; x++) nums[3 * r + x] = itemNums[3 * r + x];
    // The fields given as strings, in the order their strings were met (the caller's).
    at.length = 0;
    for (let x = 1; x <= 5; x++) {
      if (!(f & (x < 5 ? 1 << (x - 1) : 32))) continue;
      const i = itemTable[t + 1 + x];
      texts[5 * r + x - 1] = strs[i];
      lens[5 * r + x - 1] = strs[i].length;
      at.push(i * 8 + x);
    }
    at.sort((a, b) => a - b);
    let o = 0;
    for (let j = at.length - 1; j >= 0; j--) o = o * 8 + (at[j] & 7);
    order[r] = o;
  }
  return { index, flags, nums, texts, lens, order, stamp: new Uint32Array(rows), slot: new Uint32Array(rows), mark: 0, busy: false };
}
