// What the reads the string API's contract asks of the package's JavaScript cost in V8,
// one by one, on workload (b)'s or (c)'s input (bench/gen.mjs): enumerating the items and
// reading each one's fields (type checks included), interning the lists' ids in a Map,
// looking the items up, joining the ids. The floor under `Pipeline.run`'s JavaScript
// side (docs/performance-history.md, "The floor"); (c)'s item texts are held back at N >= 1,000
// (only the pool's cross): the ids are joined alone, and with the texts. The pieces, timed
// alone, do not add up to what they cost together (each alone runs over less memory):
// the last line times them in one pass, as a minimal `encodeInput` would make it (no
// encoding, no tables but the ids'), the floor of any JavaScript side under the contract.
//   node bench/js-costs.mjs [N] [b|c]   (N per list, default 1000; workload, default b)
import * as gen from "./gen.mjs";

const n = Number(process.argv[2] ?? 1000);
const workload = process.argv[3] ?? "b";
if (!(n > 0) || !["b", "c"].includes(workload)) {
  console.error("usage: node bench/js-costs.mjs [N] [b|c]");
  process.exit(2);
}
const x = gen.makeInputs(n);
const items = (workload === "b" ? x.inputB : x.inputC).items;
const lists = x.strLists;
const ids = [...new Set(lists.flat())];
const keys = Object.keys(items);
const idSet = new Set(ids);
const strs = ids.concat(keys.filter((k) => !idSet.has(k)));
const enc = new TextEncoder();
const out = new Uint8Array(4 * strs.reduce((a, s) => a + s.length, 0) + 16);
const reps = Math.max(200, Math.floor(2e6 / n));
function time(name, f) {
  const until = performance.now() + 1000;
  while (performance.now() < until) f();
  const best = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) f();
    best.push(((performance.now() - t0) / reps) * 1000);
  }
  best.sort((a, b) => a - b);
  console.log(`${name.padEnd(52)} ${best[3].toFixed(1).padStart(8)} us`);
}
console.log(`(${workload}) N = ${n}: ${lists.flat().length} list entries, ${ids.length} distinct ids, ${keys.length} items (median of 7 runs of ${reps} calls)`);
time("Object.keys(items)", () => Object.keys(items).length);
time("for (k in items)", () => {
  let c = 0;
  for (const k in items) c++;
  return c;
});
time("Object.keys(items), each item's fields read and typed", () => {
  let c = 0;
  const ks = Object.keys(items);
  for (let i = 0; i < ks.length; i++) {
    const meta = items[ks[i]];
    for (const f in meta) {
      const v = meta[f];
      if (typeof v === "string") c += v.length;
      else if (typeof v === "number") c++;
    }
  }
  return c;
});
time("intern the lists' ids (Map get / set)", () => {
  const m = new Map();
  for (const l of lists)
    for (let j = 0; j < l.length; j++) {
      const id = l[j];
      if (m.get(id) === undefined) m.set(id, m.size);
    }
  return m.size;
});
const index = new Map(ids.map((id, i) => [id, i]));
time("look every item key up in that Map", () => {
  let c = 0;
  for (let i = 0; i < keys.length; i++) if (index.get(keys[i]) !== undefined) c++;
  return c;
});
time("items[id] for every list entry (what the baseline reads)", () => {
  let c = 0;
  for (const l of lists) for (let j = 0; j < l.length; j++) if (items[l[j]] !== undefined) c++;
  return c;
});
time("join the distinct ids and keys, encodeInto", () => enc.encodeInto(strs.join(""), out).written);
// With the items' texts too: what crosses when they are not held back (a pipeline with
// the reranker given no more items than its pool, as the RAG call at N = 20).
const withTexts = strs.concat(keys.flatMap((k) => Object.values(items[k]).filter((v) => typeof v === "string")));
const outTexts = new Uint8Array(4 * withTexts.reduce((a, t) => a + t.length, 0) + 16);
time("join the ids, keys and item texts, encodeInto", () => enc.encodeInto(withTexts.join(""), outTexts).written);
// All of the contract's reads in one pass: the ids interned, every item's key looked up
// and its fields read and type-checked, the texts' lengths summed (the limits).
time("all of the above but the join, in one pass", () => gen.contractReads(lists, items));
