// Interning the ids of workload (b)'s three lists (bench/gen.mjs) four ways, alone, in
// one process: a `Map` (what js/core/pipeline-input.js `encodeInput` and js/core/fuse.js
// do from 41 entries on), an object without prototype, and open addressing in an
// `Int32Array` over a 32-bit FNV-1a hash of the UTF-16 units (what a hand-made table in
// JavaScript could do) or over a signature of four of them and the length (the small
// calls' signatures of js/wire/values.js `Interner`, made a table's hash). Each
// builds the distinct ids' array and the entries' indices, as `encodeInput` does.
// Prints each way's times over ROUNDS rounds (the collector run before each), sorted.
//   node --expose-gc bench/intern-alternatives.mjs [N] [ROUNDS]
import * as gen from "./gen.mjs";

const n = Number(process.argv[2] || 100000);
const rounds = Number(process.argv[3] || 7);
const lists = gen.makeInputs(n).strLists;
const total = lists.reduce((s, l) => s + l.length, 0);

function viaMap() {
  const index = new Map();
  const strs = [];
  const docs = new Uint32Array(total);
  let k = 0;
  for (const ids of lists)
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j];
      let d = index.get(id);
      if (d === undefined) {
        d = strs.length;
        index.set(id, d);
        strs.push(id);
      }
      docs[k++] = d;
    }
  return strs.length;
}

function viaObject() {
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

function viaOpenAddressing() {
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
      let h = 0x811c9dc5;
      for (let c = 0; c < id.length; c++) h = Math.imul(h ^ id.charCodeAt(c), 16777619);
      let s = h & mask;
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
}

function viaSignatures() {
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
      const m = id.length;
      const h = Math.imul(m ^ (id.charCodeAt(m - 1) << 8) ^ (id.charCodeAt(m >> 1) << 16) ^ (id.charCodeAt((3 * m) >> 2) << 24) ^ id.charCodeAt(m >> 2), 0x9e3779b1);
      let s = (h >>> 16) & mask;
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
}

const ways = [["Map", viaMap], ["object", viaObject], ["open addressing", viaOpenAddressing], ["signatures", viaSignatures]];
const distinct = new Set(ways.map(([, f]) => f()));
if (distinct.size !== 1) throw new Error("the four ways disagree on the number of distinct ids");
console.log(`N = ${n}: ${total} entries, ${[...distinct][0]} distinct ids; ms per interning, ${rounds} rounds each, sorted`);
for (const pass of [1, 2])
  for (const [name, f] of ways) {
    const ts = [];
    for (let r = 0; r < rounds; r++) {
      globalThis.gc?.();
      const t = performance.now();
      f();
      ts.push(performance.now() - t);
    }
    ts.sort((a, b) => a - b);
    console.log(`  pass ${pass} ${name.padEnd(16)} ${ts.map((x) => x.toFixed(2)).join(" ")}`);
  }
