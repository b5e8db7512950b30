// Workload (c)'s items read as js/core/pipeline-input.js reads them (each listed id
// looked up, then each item's texts type-checked, measured and kept for the pool), in
// variants, timed alone or, with --interleave, each call after the JS baseline's (as
// `make bench` interleaves them: the caches are then cold). Variants: `kept` (today's:
// the texts stored in a kept array, checked in the same loop), `fresh` (a new array per
// call), `noStore` (checked, not stored: a floor), `split` (stored first, checked in a
// loop of their own), `touch` / `touchSplit` (the lookups' loop also reads each record's
// type, so that the item loop finds it in the cache).
//   node bench/items-cold.mjs N [--interleave]
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
const n = Number(process.argv[2] ?? 10000);
const il = process.argv.includes("--interleave");
const x = gen.makeInputs(n);
const items = x.inputC.items;
const ids = [];
{ const seen = new Map(); for (const l of x.strLists) for (const id of l) if (!seen.has(id)) { seen.set(id, ids.length); ids.push(id); } }
const nDocs = ids.length;
const kept = new Array(4 * nDocs).fill(undefined);
const keptFound = new Array(nDocs).fill(undefined);
const jsC = new baseline.Pipeline(gen.pipelineConfig(true));
/** Each listed id looked up, in a loop of its own (as the package does); `touch`: each
 * record's type read there too, so that the item loop finds the record in the cache. */
function lookUp(found, touch) {
  let objs = 0;
  for (let d = 0; d < nDocs; d++) {
    const m = (found[d] = items[ids[d]]);
    if (touch && typeof m === "object") objs++;
  }
  return objs;
}

/** The slot of a text field (1 name, 2 type, 3 summary, 4 content), 0 for any other key: the package's `switch`. */
function fieldOf(f) {
  switch (f) {
    case "name":
      return 1;
    case "type":
      return 2;
    case "summary":
      return 3;
    case "content":
      return 4;
    default:
      return 0;
  }
}

/** The items' texts: checked (`check`) and kept (`held`, or not kept when null) in one loop. */
function readItems(found, held, check) {
  let units = 0;
  for (let d = 0; d < nDocs; d++) {
    const meta = found[d];
    for (const f in meta) {
      const v = meta[f];
      const field = fieldOf(f);
      if (field === 0) continue;
      if (check) {
        if (typeof v !== "string") throw new Error();
        units += v.length;
      }
      if (held) held[4 * d + field - 1] = v;
    }
  }
  return units;
}

/** The kept texts checked in a loop of their own. */
function checkHeld(held) {
  let units = 0;
  for (let i = 0; i < 4 * nDocs; i++) {
    const v = held[i];
    if (v === undefined) continue;
    if (typeof v !== "string") throw new Error();
    units += v.length;
  }
  return units;
}

/** One variant: the lookups (touching each record or not), the texts checked in the item loop or after it. */
function variant({ touch = false, split = false, fresh = false, store = true }) {
  return () => {
    const found = fresh ? new Array(nDocs) : keptFound;
    const held = !store ? null : fresh ? new Array(4 * nDocs) : kept;
    const r = lookUp(found, touch) + readItems(found, held, !split) + (split ? checkHeld(held) : 0);
    if (!fresh) {
      kept.fill(undefined);
      keptFound.fill(undefined);
    }
    return r;
  };
}

const variants = {
  touchSplit: variant({ touch: true, split: true }),
  touch: variant({ touch: true }),
  split: variant({ split: true }),
  kept: variant({}),
  fresh: variant({ fresh: true }),
  noStore: variant({ store: false }),
};
const now = () => performance.now();
for (let round = 0; round < 3; round++) {
  for (const [k, f] of Object.entries(variants)) {
    const ts = [];
    for (let i = 0; i < 80; i++) { if (il) jsC.run(x.inputC); const a = now(); f(); ts.push(now() - a); }
    ts.sort((a, b) => a - b);
    console.log(round, k.padEnd(8), ts[ts.length >> 1].toFixed(3), "ms");
  }
}
