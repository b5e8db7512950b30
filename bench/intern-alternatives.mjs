// Interning the ids of workload (b)'s three lists (bench/gen.mjs) four ways (the fourth
// up to N = 10,000), alone, in one process: a `Map` (what js/core/pipeline-input.js `encodeInput` and js/core/fuse.js
// do from 41 entries on), an object without prototype, and open addressing in an
// `Int32Array` over a 32-bit FNV-1a hash of the UTF-16 units (what a hand-made table in
// JavaScript could do) or over a signature of four of them and the length (the small
// calls' signatures of js/wire/values.js `Interner`, made a table's hash). Each
// builds the distinct ids' array and the entries' indices, as `encodeInput` does.
// Prints each way's times over ROUNDS rounds (the collector run before each), sorted.
// --fresh: each round interns lists parsed anew from their JSON text (parsed outside the
// timing), strings no one has read, as an application's calls get them; without it, the
// same strings every round, as `make bench` gives them.
//   node --expose-gc bench/intern-alternatives.mjs [N] [ROUNDS] [--fresh]
import * as gen from "./gen.mjs";

const args = process.argv.slice(2);
const fresh = args.includes("--fresh");
const [nArg, roundsArg] = args.filter((a) => a !== "--fresh");
const n = Number(nArg || 100000);
const rounds = Number(roundsArg || 7);
const benchLists = gen.makeInputs(n).strLists;
const text = JSON.stringify(benchLists);
const total = benchLists.reduce((s, l) => s + l.length, 0);

const viaMap = (lists) => gen.internByMap(lists).ids.length;

function viaObject(lists) {
  const index = Object.create(null);
  const strs = [];
  const docs = new Uint32Array(total);
  let k = 0;
  for (const ids of lists)
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j];
      let d = index[id];
      if (d === undefined) {
        d = strs.length;
        index[id] = d;
        strs.push(id);
      }
      docs[k++] = d;
    }
  return strs.length;
}

/** Open addressing in an `Int32Array`, each id's first slot `hash(id) & mask`. */
const openAddressing = (hash) =>
  function viaOpenAddressing(lists) {
    let cap = 1;
    while (cap < 2 * total) cap *= 2;
    const mask = cap - 1;
    const slots = new Int32Array(cap).fill(-1);
    const strs = [];
    const docs = new Uint32Array(total);
    let k = 0;
    for (const ids of lists)
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        let s = hash(id) & mask;
        let d;
        for (;;) {
          const v = slots[s];
          if (v === -1) {
            d = strs.length;
            slots[s] = d;
            strs.push(id);
            break;
          }
          if (strs[v] === id) {
            d = v;
            break;
          }
          s = (s + 1) & mask;
        }
        docs[k++] = d;
      }
    return strs.length;
  };

/** 32-bit FNV-1a of the UTF-16 units. */
function fnv1a(id) {
  let h = 0x811c9dc5;
  for (let c = 0; c < id.length; c++) h = Math.imul(h ^ id.charCodeAt(c), 16777619);
  return h;
}

/** The length and four units (the small calls' signatures, made a table's hash). */
function signature(id) {
  const m = id.length;
  return Math.imul(m ^ (id.charCodeAt(m - 1) << 8) ^ (id.charCodeAt(m >> 1) << 16) ^ (id.charCodeAt((3 * m) >> 2) << 24) ^ id.charCodeAt(m >> 2), 0x9e3779b1) >>> 16;
}

// The signatures' table only up to N = 10,000: its slots cluster (ids that differ only
// in units it does not read share a hash), and at N = 100,000 it runs for minutes.
const ways = [["Map", viaMap], ["object", viaObject], ["open addressing", openAddressing(fnv1a)], ...(n <= 10000 ? [["signatures", openAddressing(signature)]] : [])];
const distinct = new Set(ways.map(([, f]) => f(JSON.parse(text))));
if (distinct.size !== 1) throw new Error("the ways disagree on the number of distinct ids");
console.log(`N = ${n}: ${total} entries, ${[...distinct][0]} distinct ids; ms per interning, ${rounds} rounds each, sorted${fresh ? "; lists parsed anew for each round" : ""}`);
for (const pass of [1, 2])
  for (const [name, f] of ways) {
    const ts = [];
    for (let r = 0; r < rounds; r++) {
      const lists = fresh ? JSON.parse(text) : benchLists;
      globalThis.gc?.();
      const t = performance.now();
      f(lists);
      ts.push(performance.now() - t);
    }
    ts.sort((a, b) => a - b);
    console.log(`  pass ${pass} ${name.padEnd(16)} ${ts.map((x) => x.toFixed(2)).join(" ")}`);
  }
