// A pipeline's input, encoded for the module (`encodeInput`; wasm/core/src/pipeline/input.rs
// `read_input` reads it): each distinct id interned once, the lists as indices, the
// items as a table, every string of the call in one table.
import { precheck, objectJson, numbers, typeError, keyPath, keyField, isMap, hasOwn, fromObjectPrototype, wellFormedName, firstOf, timeOf, utf8Length, Interner, emptyInstance, allocate, notRecord, plainObjectExpected, HANDLE_KEY, clonedHandle, isHandleKind } from "../wire.js";
import { isObject, unknownField, missingField, noInheritedKeys, ownFields, checkKeys, recordError, BARE } from "./shared.js";
import { canHoldTexts } from "./held-texts.js";
import { HELD } from "./held.js";

const ITEM_KEYS = new Set(["name", "type", "summary", "content", "modifiedAt", "fiscalYear", "crossEncoderScore"]);
const INPUT_FIELDS = ["query", "lists", "items", "now", "context", "topN"];
const LIST_FIELDS = ["name", "ids", "scores", "weight"];
const INPUT_KEYS = new Set(INPUT_FIELDS);
const INPUT = "an object with `lists`";
const LIST = "an object with `name` and `ids`";
const ITEM = "an object with the item's fields";
const ITEMS = "an object mapping ids to metadata";
const LIST_KEYS = new Set(LIST_FIELDS);
/** Whether Object.prototype has none of the input's and lists' fields (shared.js `noInheritedKeys`). */
const cleanPrototype = () =>
  noInheritedKeys() &&
  !("query" in BARE || "lists" in BARE || "items" in BARE || "now" in BARE || "context" in BARE || "topN" in BARE || "name" in BARE || "ids" in BARE || "scores" in BARE || "weight" in BARE);
const ObjectPrototype = Object.prototype;
// The lease's kept arrays (js/wire/input.js `Lease.kept`): the items found, the texts held.
const KEPT_FOUND = 0;
const KEPT_HELD = 1;
const mapGet = Map.prototype.get;
const objectTag = Object.prototype.toString;
const getPrototypeOf = Object.getPrototypeOf;
/** Prototypes of built-in kinds whose objects are no items (see `encodeInput`). */
const BUILT_IN_PROTOS = new Set([String.prototype, Number.prototype, Boolean.prototype, Symbol.prototype, Set.prototype, WeakMap.prototype, WeakSet.prototype, ArrayBuffer.prototype]);
/**
 * Why an object that gave no item field is no item (what is expected instead), or null
 * (an empty item: a record without fields, `{}`, of Object.prototype, of no prototype or
 * of a prototype without a `constructor` of its own): see `encodeInput`.
 */
function noItem(meta) {
  // A record whose prototype is Object.prototype is no Map, Date or class instance: its
  // tag alone can say (a boxed primitive given that prototype).
  const plain = getPrototypeOf(meta) === ObjectPrototype;
  if ((!plain && (meta instanceof Map || meta instanceof Date)) || objectTag.call(meta) !== "[object Object]") return ITEM;
  return !plain && emptyInstance(meta, false) ? `${ITEM}, not an instance of a class without fields of its own (a Pipeline?), which would be read as an item without any` : null;
}

/**
 * An array of `n` zeros, for a small table of a call (`new Array(n).fill(0)` took 31 ns
 * for 5, this loop 10: `node bench/small-costs.mjs`).
 */
function zeros(n) {
  const a = new Array(n);
  for (let i = 0; i < n; i++) a[i] = 0;
  return a;
}

// Object.prototype's own properties in a standard engine (ES2024 and Annex B), and its
// `__proto__` accessor as the package found it.
const setHas = Set.prototype.has;
const { get: protoGet, set: protoSet } = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__") ?? {};
const STANDARD_PROTO_KEYS = new Set(["constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__", "__lookupSetter__", "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "__proto__", "toLocaleString"]);

/**
 * Whether Object.prototype holds only standard properties (a subset of
 * `STANDARD_PROTO_KEYS`), each a function but `__proto__`, which is the accessor it was
 * when the package loaded: a value a record inherits from it is then a function or, for
 * `__proto__`, the record's prototype (Object.prototype itself).
 */
export function standardObjectPrototype() {
  const names = Object.getOwnPropertyNames(ObjectPrototype);
  for (let i = 0; i < names.length; i++) {
    const n = names[i];
    if (!setHas.call(STANDARD_PROTO_KEYS, n)) return false;
    const d = Object.getOwnPropertyDescriptor(ObjectPrototype, n);
    if (n === "__proto__") {
      if (protoGet === undefined || d.get !== protoGet || d.set !== protoSet) return false;
    } else if (d.get !== undefined || d.set !== undefined || typeof d.value !== "function") return false;
  }
  return true;
}

/**
 * From this many distinct ids on, `encodeInput` looks `Object.prototype` over (twice: a
 * getter of the caller's could change it while the items are read) rather than ask
 * `key in Object.prototype` for each item found: a look-over cost 0.49 µs, a key asked
 * 8 ns (Node 20, this machine; `node bench/proto-lookover.mjs`), so the two break even
 * at about 120 ids.
 */
const LOOK_OVER_FROM = 128;

/** A call's own `topN` for the module (NaN: none; the module checks it against `topK`). */
export function topNOf(topN) {
  if (topN === undefined || topN === null) return NaN;
  if (!Number.isInteger(topN)) throw typeError("topN", "a whole number", topN);
  return topN;
}

/** Timestamp field (epoch ms number, ISO string, or a Date): [kind, value]. */
function timestamp(v, strs, field) {
  if (typeof v === "number") return [1, v];
  if (typeof v === "string") {
    strs.push(v);
    return [2, strs.length - 1];
  }
  if (v instanceof Date) return [1, timeOf(v, field, "epoch milliseconds or an ISO 8601 string")];
  throw typeError(field, "epoch milliseconds or an ISO 8601 string", v);
}

/**
 * Encodes a pipeline input (wasm/core/src/pipeline/input.rs `read_input` reads it); its
 * large tables come from `lease` (see `Scratch`), valid until the lease is given back.
 */
export function encodeInput(input, lim, holdAbove, lease, keyByKey = false) {
  if (!isObject(input)) throw typeError("input", INPUT, input);
  checkKeys(input, INPUT_KEYS, "", INPUT);
  // Keys inherited from Object.prototype are not fields. Whether it has an enumerable
  // key is checked once per call; only then is each field read through `own` (a shared
  // helper's keyed loads cost about 10% of (b) at N = 10 when made for every call).
  const cleanProto = cleanPrototype();
  const { query, lists, items, now, context, topN } = cleanProto ? input : ownFields(input, INPUT_FIELDS);
  let units = 0;
  // query, now's kind and value, distinct ids, texts held, topN (NaN: the pipeline's).
  const head = [-1, 0, 0, 0, 0, topNOf(topN)];
  if (query !== undefined && query !== null) {
    if (typeof query !== "string") throw typeError("query", "a string", query);
    precheck.oneText(lim, query.length, "query", query);
  }
  // A required key not given is INVALID_CONFIG, "missing field", as in every input of the
  // package (rerank's candidates, fuseMultiQuery's hits) and as the Rust API's serde says.
  if (lists === undefined) throw recordError(input, "input", INPUT) ?? missingField("", "lists");
  if (!Array.isArray(lists)) throw typeError("lists", "an array of lists", lists);
  const nLists = lists.length;
  precheck.lists(lim, nLists, "lists", "an array of lists");
  const listTable = zeros(5 * nLists);
  const weights = zeros(nLists);
  let scores = [];
  let entries = 0;
  const listObjs = new Array(nLists);
  for (let i = 0; i < nLists; i++) {
    const l = lists[i];
    if (!isObject(l)) throw typeError(`lists[${i}]`, LIST, l);
    checkKeys(l, LIST_KEYS, `lists[${i}]`, LIST);
    const { name, ids, scores: sc, weight } = cleanProto ? l : ownFields(l, LIST_FIELDS);
    if (name === undefined) throw recordError(l, `lists[${i}]`, LIST) ?? missingField(`lists[${i}]`, "name");
    if (typeof name !== "string") throw typeError(`lists[${i}].name`, "a string", name);
    wellFormedName(name, `lists[${i}].name`, "a list name");
    if (ids === undefined) throw recordError(l, `lists[${i}]`, LIST) ?? missingField(`lists[${i}]`, "ids");
    if (!Array.isArray(ids)) throw typeError(`lists[${i}].ids`, "an array of strings", ids);
    // Its length read once (a Proxy could answer differently later).
    const n = ids.length;
    precheck.length(lim, n, `lists[${i}]`, "an array of strings", ".ids");
    entries += n;
    listObjs[i] = [name, ids, sc, weight, n];
  }
  precheck.entries(lim, entries, "lists");
  // Items held by an `Items` (js/core/items.js): their ids are found in its index.
  const corpus = HELD.get(items);
  // The distinct ids first (interned: each crosses once), then every other string. (A
  // call of a few short ids interns them without a `Map`: js/wire/values.js `Interner`.)
  const interner = corpus === undefined ? new Interner(entries, "lists") : null;
  // Every string of the call, the distinct ids first.
  const strs = interner !== null ? interner.ids : [];
  // UTF-16 units of the ids of every list entry (the module's total counts each
  // occurrence; see the held mode below).
  let occUnits = 0;
  // Large tables as typed arrays (written into the call with one copy), small ones as
  // arrays (a typed array costs about a microsecond to make).
  const docs = entries >= 64 ? lease.u32(entries, 0, "lists") : new Array(entries);
  // The ids' running lengths, kept while each id is at hand (see `Input.strs`): from
  // `TAKEN_FROM` entries on.
  const ends = entries >= TAKEN_FROM ? lease.u32(entries, 3, "lists") : null;
  // With held items, the row of each distinct id's item (-1: none).
  let rowOf = null;
  if (corpus === undefined) {
    let k = 0;
    for (let i = 0; i < nLists; i++) {
      const ids = listObjs[i][1];
      const n = listObjs[i][4];
      const t = 5 * i;
      listTable[t + 1] = k;
      listTable[t + 2] = n;
      for (let j = 0; j < n; j++) {
        const id = ids[j];
        let d = interner.find(id);
        if (d === undefined) {
          if (typeof id !== "string") throw typeError(`lists[${i}].ids[${j}]`, "a string", id);
          d = interner.add(id);
          units += id.length;
          if (ends !== null) ends[d] = units;
        }
        occUnits += id.length;
        docs[k++] = d;
      }
    }
  } else ({ rowOf, units, occUnits } = internHeld(corpus, listObjs, listTable, docs, ends, strs));
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
      if (typeof weight !== "number") throw typeError(`lists[${i}].weight`, "a number", weight);
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
  // id's index) and 3 f64 (modifiedAt as a number, fiscalYear, crossEncoderScore) each.
  // Every item is looked up by a list's id, so its row's document is that id's index (the
  // module takes 2^32 - 1 for an item in no list; the package sends none, and the held
  // texts below are kept by document).
  let itemTable = [];
  let itemNums = [];
  // Held mode (a pipeline whose heuristic reranker reads the texts of `holdAbove`
  // candidates at most, given more candidates than that): the texts of items are checked here
  // but not copied into the call; they are kept by document (the texts of the item of
  // document d at `heldTexts[4 * d + field - 1]`, in the lease's array of at least that
  // length, written in place: pushing four slots per item measured 20% of (c)'s
  // `encodeInput` at N = 1,000) for `writeHeldTexts` (the pool's, found by their
  // documents: a table from documents to items cost its callback 4-7 µs of (c)'s call at
  // N = 1,000, `node bench/held-texts-ask.mjs`) or for the call after all (below).
  let hold = false;
  let heldTexts = null;
  let heldUnits = 0;
  let keyUnits = 0;
  let inline = false;
  // Object.prototype looked over instead of each item's key (see `LOOK_OVER_FROM`).
  let standard = false;
  if (corpus !== undefined) {
    const r = heldRows(corpus, rowOf, nDocs, strs, entries, lim, holdAbove, lease);
    ({ itemTable, itemNums, heldTexts, hold, inline } = r);
    units += r.units;
    heldUnits = r.heldUnits;
    keyUnits = r.keyUnits;
  } else if (items !== undefined && items !== null) {
    // Items are looked up by the lists' ids, each distinct id once, in the order of
    // first appearance: an entry whose key is in no list is never read (neither checked
    // nor counted), so a caller may pass the metadata of a whole corpus. Listing the
    // keys instead (Object.keys, then each key's index looked up) cost (b) a quarter of
    // its time at N = 1,000 (docs/performance-history.md, "Items looked up by the lists' ids").
    const asMap = isMap(items);
    if (!asMap && !isObject(items)) throw typeError("items", ITEMS, items);
    // Only own entries are items. Of a record whose prototype is Object.prototype (with
    // no enumerable key added there: `cleanProto`) or null, a lookup can find an
    // inherited value only under a key of Object.prototype's own (its methods,
    // `__proto__`, or a key someone defined there as non-enumerable): only a value
    // found under such a key is checked (`key in Object.prototype` costs (b) about 5% at
    // N = 1,000: from `LOOK_OVER_FROM` ids on, when Object.prototype holds its standard
    // properties alone, whose values are functions and, for `__proto__`, the prototype
    // itself, a value of neither kind is known to be the record's own). Any other
    // record's every value is checked. (A Proxy answers the lookups through its `get`
    // trap.)
    const proto = asMap ? null : Object.getPrototypeOf(items);
    const anyOwn = !asMap && !(proto === null || (proto === ObjectPrototype && cleanProto));
    // An object of a class without entries of its own (a Pipeline, a Run given as items)
    // would be no items: refused (an empty record or Map is no items, as written). A
    // typed array's entries are its indices, a String object's its characters: refused
    // as an array is, whatever the lists' ids. Told by identity checks (`BUILT_IN_PROTOS`),
    // since a record of a class of the caller's comes here at every call: `notRecord`'s
    // brand checks throw (microseconds), so they only word the error.
    if (anyOwn && (ArrayBuffer.isView(items) || BUILT_IN_PROTOS.has(proto) || emptyInstance(items, false)))
      throw typeError("items", notRecord(items) ? ITEMS : `${ITEMS} (a plain object or a Map), not an instance of a class without entries of its own (a Pipeline, a Run?), which would be read as no items`, items);
    standard = !keyByKey && !asMap && !anyOwn && nDocs >= LOOK_OVER_FROM && standardObjectPrototype();
    const lookUp = (key) => {
      const meta = asMap ? mapGet.call(items, key) : items[key];
      if (meta === undefined || asMap) return meta;
      const maybeInherited = anyOwn || (standard ? typeof meta === "function" || meta === ObjectPrototype : key in ObjectPrototype);
      return maybeInherited && !hasOwn.call(items, key) ? undefined : meta;
    };
    // The items are looked up (each once) and counted before any is read: near
    // maxTotalEntries the limit is then the error before an item's fault, as the module
    // checks them; and a loop of lookups alone lets the processor wait for several of
    // them at once (the caller's records lie scattered over the heap), where one loop
    // doing every step per item waited for each in turn: `node bench/items-passes.mjs`
    // gives the figures. (So a lookup that throws, a Proxy's trap or a getter of the
    // record, comes before any item's fault, and the items' own getters run after every
    // lookup: README, "The pipeline".)
    const found = lease.kept(KEPT_FOUND, nDocs);
    let n = 0;
    for (let d = 0; d < nDocs; d++) if ((found[d] = lookUp(strs[d])) !== undefined) n++;
    // No id found: perhaps a copy of an `Items` (or of a `Run`: structuredClone,
    // postMessage), which holds its mark alone. Looked up only then: no call pays for it.
    if (n === 0 && nDocs > 0 && !asMap) {
      const mark = lookUp(HANDLE_KEY);
      if (isHandleKind(mark)) throw clonedHandle("items", mark);
    }
    precheck.entries(lim, entries + n, "items");
    hold = holdAbove >= 0 && nDocs > holdAbove && canHoldTexts();
    if (hold) heldTexts = lease.kept(KEPT_HELD, 4 * nDocs);
    itemTable = nDocs >= 8 ? lease.u32(8 * nDocs, 1, "items") : zeros(8 * nDocs);
    itemNums = nDocs >= 8 ? lease.f64(3 * nDocs, 2, "items") : zeros(3 * nDocs);
    let i = -1;
    for (let d = 0; d < nDocs; d++) {
      const key = strs[d];
      const meta = found[d];
      if (meta === undefined) continue;
      i++;
      const t = 8 * i;
      // The item's key is the list id `d` (its string is in the table once).
      itemTable[t] = d;
      itemTable[t + 7] = d;
      keyUnits += key.length;
      if (meta === null) continue;
      // (A String object's entries are its characters: the items refused, not the entry.)
      if (!isObject(meta)) {
        if (key === HANDLE_KEY && isHandleKind(meta)) throw clonedHandle("items", meta);
        throw recordError(asMap ? null : items, "items", ITEMS) ?? typeError(keyPath("items", key), ITEM, meta);
      }
      let flags = 0;
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
              itemNums[3 * i] = timeOf(v, () => keyField("items", key, "modifiedAt"), "epoch milliseconds or an ISO 8601 string");
            } else throw typeError(keyField("items", key, "modifiedAt"), "epoch milliseconds or an ISO 8601 string", v);
            break;
          case "fiscalYear":
            if (v === undefined || v === null) break;
            if (typeof v !== "number") throw typeError(keyField("items", key, "fiscalYear"), "a whole number (a year)", v);
            flags |= 64;
            itemNums[3 * i + 1] = v;
            break;
          case "crossEncoderScore":
            if (v === undefined || v === null) break;
            if (typeof v !== "number") throw typeError(keyField("items", key, "crossEncoderScore"), "a number", v);
            flags |= 128;
            itemNums[3 * i + 2] = v;
            break;
          default:
            // An unknown key the item inherits (from a prototype of its own) is ignored.
            // A `Run` or `Items` (or a copy of one) given as an item holds its mark.
            if (f === HANDLE_KEY && isHandleKind(v)) {
              const expected = noItem(meta);
              throw expected !== null ? typeError(keyPath("items", key), expected, meta) : clonedHandle(keyPath("items", key), v);
            }
            if (hasOwn.call(meta, f)) throw recordError(meta, keyPath("items", key), ITEM) ?? unknownField(keyPath("items", key), f, ITEM_KEYS);
        }
        if (bit !== 0 && v !== undefined && v !== null) {
          if (typeof v !== "string") throw typeError(keyField("items", key, f), "a string", v);
          precheck.itemText(lim, v.length, key, f, v);
          const field = bit === 1 ? 1 : bit === 2 ? 2 : bit === 4 ? 3 : 4;
          if (hold) {
            // Over the limit in UTF-8 only? Then the module must see it (inline below).
            if (3 * v.length > lim.maxTextBytes && utf8Length(v) > lim.maxTextBytes) inline = true;
            heldUnits += v.length;
            heldTexts[4 * d + field - 1] = v;
          } else {
            flags |= bit;
            itemTable[t + 1 + field] = strs.length;
            strs.push(v);
            units += v.length;
          }
        }
      }
      // A Map, a Date, a boxed primitive, an Error, a Promise... (any object whose tag is
      // not Object's) has no fields of its own to read, nor has an object of a class
      // without entries of its own (a Pipeline): refused rather than read as an item
      // without fields (checked only for an item that gave none: off the common path; a
      // record whose prototype is Object.prototype can be none of them but by its tag).
      if (flags === 0) {
        const expected = noItem(meta);
        if (expected !== null) throw typeError(keyPath("items", key), expected, meta);
      }
      itemTable[t + 1] = flags;
    }
    // The items found: the tables' first entries (their number, counted above, within
    // maxTotalEntries).
    const m = i + 1;
    if (m < nDocs) {
      if (Array.isArray(itemTable)) {
        itemTable.length = 8 * m;
        itemNums.length = 3 * m;
      } else {
        itemTable = itemTable.subarray(0, 8 * m);
        itemNums = itemNums.subarray(0, 3 * m);
      }
    }
    // A getter of the caller's changed Object.prototype while the items were read: read
    // again, each key asked (`keyByKey`).
    if (standard && !standardObjectPrototype()) return encodeInput(input, lim, holdAbove, lease, true);
  }
  if (now !== undefined && now !== null) {
    const [kind, v] = timestamp(now, strs, "now");
    head[1] = kind;
    head[2] = v;
    if (kind === 2) units += now.length;
  }
  const ctx = encodeContext(context, lim);
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
      // In the items' order, after every other string (item i's document is the last
      // number of its row: every item found here is a list's document).
      for (let i = 0; 8 * i < itemTable.length; i++) {
        const at = 4 * itemTable[8 * i + 7];
        for (let f = 0; f < 4; f++) if (heldTexts[at + f] !== undefined) put(i, f + 1, heldTexts[at + f]);
      }
      hold = false;
    }
  }
  if (inline) return encodeInput(input, lim, -1, lease, keyByKey);
  if (hold) head[4] = 1;
  precheck.strings(lim, strs, units, (i) => inputField(i, head, nLists, listTable, docs, itemTable, strs));
  const held = hold ? { texts: heldTexts, nDocs, asked: false } : null;
  return { strs, units, idEnds: firstOf(ends, nDocs), listTable, docs, weights, scores, itemTable, itemNums, head, ctx, held };
}

const TEXT_FIELDS = ["name", "type", "summary", "content"];

/**
 * `encodeInput`'s interning of the lists' ids when its items are held by an `Items`
 * (`corpus`): an id of the held items is found in their index (one lookup, where
 * interning looked it up and then added it to a `Map` of the call's), and its document
 * kept by their row: `stamp[r]` is this call's mark once row r has its document,
 * `slot[r]`. Ids of no held item are interned in a `Map` of the call's. A caller's code
 * run while the lists are read (a Proxy's trap) may run another call with the same
 * items: that call numbers its documents in stamps of its own. Fills `listTable`'s
 * offsets and lengths, `docs`, `ends` and `strs` as the object path does; returns the
 * row of each document's item (-1: none) and the ids' UTF-16 units (distinct, and of
 * every entry).
 */
function internHeld(corpus, listObjs, listTable, docs, ends, strs) {
  const rowOf = [];
  const index = corpus.index;
  const rows = corpus.flags.length;
  const nested = corpus.busy;
  let stamp = corpus.stamp;
  let slot = corpus.slot;
  let mark = 1;
  if (nested) {
    stamp = allocate(Uint32Array, rows, "items");
    slot = allocate(Uint32Array, rows, "items");
  } else {
    corpus.busy = true;
    mark = corpus.mark = (corpus.mark + 1) >>> 0;
    if (mark === 0) {
      stamp.fill(0);
      mark = corpus.mark = 1;
    }
  }
  let units = 0;
  let occUnits = 0;
  let others = null;
  let k = 0;
  try {
    for (let i = 0; i < listObjs.length; i++) {
      const ids = listObjs[i][1];
      const n = listObjs[i][4];
      listTable[5 * i + 1] = k;
      listTable[5 * i + 2] = n;
      for (let j = 0; j < n; j++) {
        const id = ids[j];
        const r = index.get(id);
        let d;
        if (r !== undefined) {
          if (stamp[r] === mark) d = slot[r];
          else {
            stamp[r] = mark;
            d = slot[r] = strs.length;
            strs.push(id);
            rowOf.push(r);
            units += id.length;
            if (ends !== null) ends[d] = units;
          }
        } else {
          if (typeof id !== "string") throw typeError(`lists[${i}].ids[${j}]`, "a string", id);
          others ??= new Map();
          d = others.get(id);
          if (d === undefined) {
            d = strs.length;
            others.set(id, d);
            strs.push(id);
            rowOf.push(-1);
            units += id.length;
            if (ends !== null) ends[d] = units;
          }
        }
        occUnits += id.length;
        docs[k++] = d;
      }
    }
  } finally {
    if (!nested) corpus.busy = false;
  }
  return { rowOf, units, occUnits };
}

/**
 * The item tables of a call whose items are held (`encodeInput`): the rows of the
 * documents that have one (`rowOf[d]`), in the order of the documents, as the object
 * path writes them; the texts held back (`holdAbove`) or pushed onto `strs`.
 */
function heldRows(held, rowOf, nDocs, strs, entries, lim, holdAbove, lease) {
  let n = 0;
  for (let d = 0; d < nDocs; d++) if (rowOf[d] >= 0) n++;
  precheck.entries(lim, entries + n, "items");
  const hold = holdAbove >= 0 && nDocs > holdAbove && canHoldTexts();
  const heldTexts = hold ? lease.kept(KEPT_HELD, 4 * nDocs) : null;
  const itemTable = n >= 8 ? lease.u32(8 * n, 1, "items") : zeros(8 * n);
  const itemNums = n >= 8 ? lease.f64(3 * n, 2, "items") : zeros(3 * n);
  const { flags: hf, nums, texts, lens, order } = held;
  let units = 0;
  let heldUnits = 0;
  let keyUnits = 0;
  let inline = false;
  let i = 0;
  for (let d = 0; d < nDocs; d++) {
    const r = rowOf[d];
    if (r < 0) continue;
    const key = strs[d];
    const t = 8 * i;
    itemTable[t] = d;
    itemTable[t + 7] = d;
    keyUnits += key.length;
    // The numbers' bits; the strings' below.
    let flags = hf[r];
    itemNums[3 * i] = nums[3 * r];
    itemNums[3 * i + 1] = nums[3 * r + 1];
    itemNums[3 * i + 2] = nums[3 * r + 2];
    for (let o = order[r]; o !== 0; o >>>= 3) {
      const x = o & 7;
      const v = texts[5 * r + x - 1];
      const m = lens[5 * r + x - 1];
      if (x === 5) {
        flags |= 32;
        itemTable[t + 6] = strs.length;
        strs.push(v);
        units += m;
        continue;
      }
      precheck.itemText(lim, m, key, TEXT_FIELDS[x - 1], v);
      if (hold) {
        if (3 * m > lim.maxTextBytes && utf8Length(v) > lim.maxTextBytes) inline = true;
        heldUnits += m;
        heldTexts[4 * d + x - 1] = v;
      } else {
        flags |= 1 << (x - 1);
        itemTable[t + 1 + x] = strs.length;
        strs.push(v);
        units += m;
      }
    }
    itemTable[t + 1] = flags;
    i++;
  }
  return { itemTable, itemNums, heldTexts, hold, inline, units, heldUnits, keyUnits };
}

/**
 * A band context (`run`'s and `runColumnar`'s `context`) as the JSON text the module
 * decodes and checks, or `undefined` when none is given.
 */
export function encodeContext(context, lim) {
  if (context === undefined || context === null) return undefined;
  if (!isObject(context)) throw typeError("context", "an object", context);
  const text = objectJson(context, "context", "an object", false, precheck.textBound(lim));
  // An object of a class without fields of its own (a Set, a Pipeline) would be read as
  // the empty context, as a plain `{}` is: refused as options are (`notArray`), checked
  // only for a context whose text is `{}`.
  // (A `Run`'s or an `Items`' text holds its mark, `HANDLE_KEY`, alone.)
  if (text !== undefined && (text.length === 2 || (text.length < 32 && text.startsWith(`{"${HANDLE_KEY}":`))) && emptyInstance(context)) throw typeError("context", plainObjectExpected("a Pipeline, a Set?"), context);
  return precheck.jsonText(lim, text, "context");
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
    if (itemTable[t] === i) return keyPath("items", key);
    const flags = itemTable[t + 1];
    for (let f = 0; f < 5; f++) if (flags & (f < 4 ? 1 << f : 32) && itemTable[t + 2 + f] === i) return keyField("items", key, names[f]);
  }
  return "input";
}
