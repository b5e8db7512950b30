// Ways to list and read a large `items` record (bench/gen.mjs's input of workload b): the
// keys alone (`Object.keys`), the keys then each item's fields, `for-in` with an own-key
// check, `Object.entries`, `Object.values`; medians of ROUNDS after a warm-up, in one
// process; and each distinct list id looked up, which the package's `encodeInput` does
// since the twenty-fifth session (it listed the keys with `Object.keys` before).
//   node bench/items-keys.mjs N [ROUNDS]      (e.g. 1000 200, 100000 15)
import { makeInputs } from "./gen.mjs";

const N = Number(process.argv[2] || 1000);
const R = Number(process.argv[3] || 20);
const inputs = makeInputs(N);
const items = inputs.inputB.items;
// The lists' distinct ids, in order of first appearance.
const ids = [...new Set(inputs.strLists.flat())];
const fields = (m) => {
  let s = 0;
  for (const f in m) {
    const v = m[f];
    if (typeof v === "number") s += v;
  }
  return s;
};
const ways = {
  "Object.keys alone": () => Object.keys(items).length,
  "Object.keys, then each item read": () => {
    let s = 0;
    const ks = Object.keys(items);
    for (let i = 0; i < ks.length; i++) s += fields(items[ks[i]]);
    return s;
  },
  "for-in with an own-key check": () => {
    let s = 0;
    for (const k in items) if (Object.prototype.hasOwnProperty.call(items, k)) s += fields(items[k]);
    return s;
  },
  "Object.entries": () => {
    let s = 0;
    const es = Object.entries(items);
    for (let i = 0; i < es.length; i++) s += fields(es[i][1]);
    return s;
  },
  "Object.values alone": () => Object.values(items).length,
  "each distinct list id looked up": () => {
    let s = 0;
    for (let i = 0; i < ids.length; i++) {
      const meta = items[ids[i]];
      if (meta !== undefined) s += fields(meta);
    }
    return s;
  },
};
for (let w = 0; w < 3; w++) for (const f of Object.values(ways)) f();
const t = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
for (let r = 0; r < R; r++)
  for (const k in ways) {
    const t0 = performance.now();
    ways[k]();
    t[k].push(performance.now() - t0);
  }
console.log(`${Object.keys(items).length} items (N = ${N}), medians of ${R}:`);
for (const k in t) console.log(`  ${k.padEnd(34)} ${[...t[k]].sort((a, b) => a - b)[R >> 1].toFixed(3)} ms`);
