// Workload (c)'s items read as js/core/pipeline-input.js reads them (each listed id
// looked up, then each item's texts type-checked, measured and kept for the pool), in
// variants, timed alone or, with --interleave, each call after the JS baseline's (the
// caches then cold). Only the texts' steps are modelled (not the items' other fields,
// the limits' checks or the item tables). Variants:
// - `package`: as the package does it: the lookups' loop reads each record's type (its
//   check for an inherited value, `typeof meta === "function"`, in standard mode: from
//   128 distinct ids on), `found` kept only from `Lease.KEEP_FROM` (16,384) slots on, the
//   texts kept (always over 16,384 slots here from N = 3,000 on) and checked in the item
//   loop; the kept arrays emptied within the call, as `Lease` empties them;
// - `split`: the same, the texts checked in a loop of their own after the item loop;
// - `untouched`: the lookups without reading the records;
// - `fresh`: new arrays for both every call;
// - `noStore`: checked, not kept (the read-once contract forbids it: a floor).
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
 * record's type read there too (as the package's standard mode does). */
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

/** One variant (see the header). */
function variant({ touch = true, split = false, fresh = false, store = true }) {
  const keepFound = !fresh && nDocs >= 16384;
  return () => {
    const found = keepFound ? keptFound : new Array(nDocs);
    const held = !store ? null : fresh ? new Array(4 * nDocs) : kept;
    const r = lookUp(found, touch) + readItems(found, held, !split) + (split ? checkHeld(held) : 0);
    if (held === kept) kept.fill(undefined);
    if (keepFound) keptFound.fill(undefined);
    return r;
  };
}

const variants = {
  package: variant({}),
  split: variant({ split: true }),
  untouched: variant({ touch: false }),
  fresh: variant({ fresh: true }),
  noStore: variant({ store: false }),
};
// Warm-up: each variant optimized before the first round.
for (let i = 0; i < 20; i++) for (const f of Object.values(variants)) f();
const now = () => performance.now();
for (let round = 0; round < 3; round++) {
  for (const [k, f] of Object.entries(variants)) {
    const ts = [];
    for (let i = 0; i < 80; i++) { if (il) jsC.run(x.inputC); const a = now(); f(); ts.push(now() - a); }
    ts.sort((a, b) => a - b);
    console.log(round, k.padEnd(10), ts[ts.length >> 1].toFixed(3), "ms");
  }
}
