// A small call's ids interned three ways, alone, in one process, by the package's own
// code (js/wire/values.js `Interner`): in a `Map` (as from `FEW_ENTRIES` entries on), and
// as below that line, compared by signature first, then `===`; and, for the record of why
// the signatures, compared by `===` alone. Ids of several kinds: the benchmark's
// (bench/gen.mjs), UUIDs and URL-like ids of a long shared prefix, each as flat strings,
// cut out of one text by `split` (as ids parsed out of a response are), or parsed from
// JSON. 3 lists of N ids (2N distinct, each list sharing half its ids with the next).
// Prints ns a call, the second of two rounds.
//   node bench/intern-small.mjs [N] [CALLS]     (N default 10: 30 entries)
import { Interner } from "../js/wire/values.js";
import { docId } from "./gen.mjs";

const m = Number(process.argv[2] || 10);
const calls = Number(process.argv[3] || 200_000);
const hex = (n, i) => ((i * 2654435761) >>> 0).toString(16).padStart(8, "0").repeat(8).slice(0, n);
const uuid = (i) => `${hex(8, i)}-${hex(4, i + 1)}-${hex(4, i + 2)}-${hex(4, i + 3)}-${hex(12, i + 4)}`;
const url = (i) => `https://docs.example.com/handbook/section-a/page-${1000 + i}`;
const lists = (ids) => [ids.slice(0, m), ids.slice(m / 2, 1.5 * m), ids.slice(m, 2 * m)];
const flat = (f) => () => lists(Array.from({ length: 2 * m }, (_, i) => f(i).split("").join("")));
const sliced = (f) => () => lists(Array.from({ length: 2 * m }, (_, i) => f(i)).join("\n").split("\n"));
const kinds = {
  "benchmark's, flat": flat((i) => docId(i * 7)),
  "UUIDs, flat": flat(uuid),
  "UUIDs, split": sliced(uuid),
  "URLs, flat": flat(url),
  "URLs, split": sliced(url),
  "URLs, JSON.parse": () => lists(JSON.parse(JSON.stringify(Array.from({ length: 2 * m }, (_, i) => url(i))))),
};

/** The lists interned by an `Interner` made for `total` entries (Infinity: in its `Map`; 0: without one). */
function interned(ls, total) {
  const interner = new Interner(total, "lists");
  let units = 0;
  for (const l of ls)
    for (let j = 0; j < l.length; j++) {
      const id = l[j];
      if (interner.find(id) === undefined) {
        if (typeof id !== "string") throw new TypeError("id");
        interner.add(id);
        units += id.length;
      }
    }
  return interner.ids.length + units;
}

function compared(ls) {
  const ids = [];
  let units = 0;
  for (const l of ls)
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
        ids.push(id);
        units += id.length;
      }
    }
  return ids.length + units;
}

let sink = 0;
console.log(`3 lists of ${m} ids (${3 * m} entries, ${2 * m} distinct), ns a call`);
console.log("ids | Map | === alone | signature, then === (the package)");
for (const [kind, make] of Object.entries(kinds)) {
  const inputs = Array.from({ length: 64 }, make);
  const ns = {};
  for (let round = 0; round < 2; round++)
    for (const [name, f] of [["map", (ls) => interned(ls, Infinity)], ["compared", compared], ["signed", (ls) => interned(ls, 0)]]) {
      for (let i = 0; i < calls / 10; i++) sink += f(inputs[i & 63]);
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) sink += f(inputs[i & 63]);
      ns[name] = ((performance.now() - t0) * 1e6) / calls;
    }
  console.log(`${kind} | ${ns.map.toFixed(0)} | ${ns.compared.toFixed(0)} | ${ns.signed.toFixed(0)}`);
}
if (sink === 0) console.log(sink);
