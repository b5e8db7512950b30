// The table of what each `Items` holds (js/core/items.js makes the entries; js/core/pipeline-input.js
// `encodeInput` reads them), apart from both so that neither imports the other for it.
/**
 * The items an `Items` holds (js/core/items.js `holdItems`), by that object: `index` (each key's
 * row), and by row the item's `flags` (the bits of `encodeInput`'s item table for the
 * numbers it has: `NUMBER_BITS`; its strings are in `order`), `nums` (3 each, as its
 * table), `texts` (5 each: name, type, summary, content, and a
 * `modifiedAt` given as a string), `lens` (those texts' UTF-16 lengths), `order` (the fields of `texts` it has, 3 bits each,
 * first the first in the caller's order, 0 ending them); `stamp`, `slot`, `mark` and
 * `busy` for `encodeInput`'s numbering of a call's documents.
 */
// One table for every copy of the package in a process (its ES module and CommonJS
// builds each have this file): an `Items` made through one serves a `Pipeline` of the
// other. Named for the shape of what it holds (v2: with the texts' lengths, `lens`): a
// build that holds another shape keeps a table of its own, and an `Items` of it is then
// refused by this one as an instance without entries (INVALID_TYPE on `items`).
const HELD_KEY = Symbol.for("calibrank.heldItems.v2");
export const HELD = (globalThis[HELD_KEY] ??= new WeakMap());
