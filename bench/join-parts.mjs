// A string table written into memory as UTF-8 two ways: one `join` of the whole table
// and one `encodeInto` (the package before), and js/wire/input.js `joinedParts` (parts of
// about 16,384 UTF-16 units, each concatenated and encoded with one `encodeInto`). The
// table: workload (b)'s distinct ids (bench/gen.mjs), in order of first appearance, as
// `Pipeline.run` sends them. Prints µs per table, each way, best of 3 rounds.
//   node bench/join-parts.mjs [N,N,...]
import * as gen from "./gen.mjs";
import { joinedParts } from "../js/wire/input.js";

const sizes = (process.argv[2] ?? "1000,10000,100000").split(",").map(Number);
const mem = new Uint8Array(64 << 20);
const utf8 = new TextEncoder();

let sink = 0;
function time(fn, calls) {
  let best = Infinity;
  for (let r = 0; r < 3; r++) {
    for (let i = 0; i < 5; i++) sink += fn();
    const t = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) sink += fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / calls / 1000);
  }
  return best;
}

console.log("N | distinct ids | joined whole, µs | in parts, µs | whole / parts");
for (const n of sizes) {
  const seen = new Set();
  const ids = [];
  for (const l of gen.makeInputs(n).strLists) for (const id of l) if (!seen.has(id)) seen.add(id), ids.push(id);
  const whole = () => utf8.encodeInto(ids.join(""), mem).written;
  const parts = () => joinedParts(mem, 0, ids, mem.length);
  const len = whole();
  const first = mem.slice(0, len);
  if (parts() !== len || !mem.subarray(0, len).every((b, i) => b === first[i])) throw new Error("the two ways wrote different bytes");
  const calls = Math.max(5, Math.round(2e6 / ids.length));
  const a = time(whole, calls);
  const b = time(parts, calls);
  console.log(`${n} | ${ids.length} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a / b).toFixed(2)}`);
}
if (sink < 0) console.log(sink);
