// What the reads the string API's contract asks of the package's JavaScript cost in V8,
// one by one, on workload (b)'s input (bench/gen.mjs): enumerating the items, interning
// the lists' ids in a Map, looking the items up, joining the strings. The floor under
// `Pipeline.run`'s JavaScript side (docs/performance.md, "The floor").
//   node bench/js-costs.mjs [N]   (N per list, default 1000)
import * as gen from "./gen.mjs";

const n = Number(process.argv[2] ?? 1000);
const x = gen.makeInputs(n);
const items = x.inputB.items;
const lists = x.strLists;
const ids = [...new Set(lists.flat())];
const keys = Object.keys(items);
const strs = ids.concat(keys.filter((k) => !ids.includes(k)));
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
console.log(`N = ${n}: ${lists.flat().length} list entries, ${ids.length} distinct ids, ${keys.length} items (median of 7 runs of ${reps} calls)`);
time("Object.keys(items)", () => Object.keys(items).length);
time("for (k in items)", () => {
  let c = 0;
  for (const k in items) c++;
  return c;
});
time("Object.keys(items) and each item's own keys (for-in)", () => {
  let c = 0;
  const ks = Object.keys(items);
  for (let i = 0; i < ks.length; i++) for (const f in items[ks[i]]) c++;
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
time("join the distinct strings, encodeInto", () => enc.encodeInto(strs.join(""), out).written);
