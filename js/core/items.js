// `Items`: a corpus's item metadata read and checked once, for many `Pipeline.run`
// calls (`input.items`), which then copy what it holds instead of reading the caller's
// objects again (js/core/pipeline-input.js `holdItems`, `heldRows`).
import { typeError } from "../wire.js";
import { scratch } from "./shared.js";
import { HELD, holdItems } from "./pipeline-input.js";

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
  }

  /** How many items are held (entries whose value is not `undefined`; `null` ones too). */
  get size() {
    const held = typeof this === "object" && this !== null ? HELD.get(this) : undefined;
    if (held === undefined) throw typeError("this", "an Items: read `size` on one");
    return held.flags.length;
  }
}
