// A small call's ids read and interned in a `Map`, and each compared with the distinct
// ids before it (what js/core/fuse.js `rrf` and js/core/pipeline-input.js do up to
// js/wire/values.js `FEW_ENTRIES` entries), against the same reads and checks without
// interning, alone, in one process: what interning costs a call of workload (a) at
// N = 10 (3 lists of 10 ids), and where comparing stops paying (N = 20: 60 entries).
//   node bench/intern-small.mjs [N] [CALLS]
import * as gen from "./gen.mjs";

const n = Number(process.argv[2] || 10);
const calls = Number(process.argv[3] || 1_000_000);
const lists = gen.makeInputs(n).strLists;
const total = lists.reduce((s, l) => s + l.length, 0);

function withMap() {
  const index = new Map();
  const ids = [];
  const docs = new Array(total);
  let k = 0;
  let units = 0;
  for (const l of lists)
    for (let j = 0; j < l.length; j++) {
      const id = l[j];
      let d = index.get(id);
      if (d === undefined) {
        if (typeof id !== "string") throw new TypeError("id");
        d = ids.length;
        index.set(id, d);
        ids.push(id);
        units += id.length;
      }
      docs[k++] = d;
    }
  return ids.length + units;
}

function compared() {
  const ids = [];
  const docs = new Array(total);
  let k = 0;
  let units = 0;
  for (const l of lists)
    for (let j = 0; j < l.length; j++) {
      const id = l[j];
      let d;
      for (let q = 0; q < ids.length; q++)
        if (ids[q] === id) {
          d = q;
          break;
        }
      if (d === undefined) {
        if (typeof id !== "string") throw new TypeError("id");
        d = ids.length;
        ids.push(id);
        units += id.length;
      }
      docs[k++] = d;
    }
  return ids.length + units;
}

function readsOnly() {
  const all = new Array(total);
  let k = 0;
  let units = 0;
  for (const l of lists)
    for (let j = 0; j < l.length; j++) {
      const id = l[j];
      if (typeof id !== "string") throw new TypeError("id");
      all[k++] = id;
      units += id.length;
    }
  return all.length + units;
}

let sink = 0;
const ways = [["Map", withMap], ["compared", compared], ["reads only", readsOnly]];
for (const [name, f] of [...ways, ...ways]) {
  for (let i = 0; i < calls / 5; i++) sink += f();
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) sink += f();
  console.log(`${name}: ${(((performance.now() - t0) * 1e6) / calls).toFixed(1)} ns a call (N = ${n}, ${total} ids)`);
}
if (sink === 0) console.log(sink);
