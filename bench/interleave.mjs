// What the company of another workload costs `Pipeline.run`: workload (b) (or c) through
// the package timed alone, then interleaved sample by sample (bench/timing.mjs's
// `compare`, as `make bench` times it) with code that only allocates short-lived garbage,
// with a Map-and-sort of the same lists, and with the JS baseline itself; then alone
// again, and the JS baseline alone. The package's call allocates about 250 KB at
// N = 1,000 (the interning Map, the string table's join, `Object.keys`:
// bench/allocation.mjs), so it meets the scavenges another workload's garbage brings on.
//   node --expose-gc bench/interleave.mjs [PKG_DIR] [N] [b|c]   (defaults: pkg, 1000, b)
// Run it again with `--max-semi-space-size=128 --min-semi-space-size=128` (a young
// generation eight times the default) to see how much of the difference the scavenges are.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
import { compare, policy } from "./timing.mjs";

const lib = await import(pathToFileURL(resolve(process.argv[2] ?? "pkg", "node.mjs")).href);
const n = Number(process.argv[3] ?? 1000);
const w = process.argv[4] ?? "b";
const x = gen.makeInputs(n);
const comp = gen.competitors(lib, baseline, w, x);
const garbage = () => {
  let a;
  for (let i = 0; i < 3 * n; i++) a = [i, i + 1, { x: i }, new Array(20)];
  return a;
};
const mapSort = () => {
  const m = new Map();
  for (const l of x.strLists) for (const id of l) m.set(id, (m.get(id) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1]);
};
const us = (r) => `${(r.medianMs * 1e3).toFixed(1)} us`;
// No collection between samples at any size: the garbage a call's company leaves is
// part of what is measured.
const p = { ...policy(n), gcEachSample: false };
console.log(`(${w}) N = ${n}, Pipeline.run of ${process.argv[2] ?? "pkg"}`);
console.log(`  alone                     ${us(compare({ w: comp.wasm }, p).w)}`);
for (const [name, f] of [["with garbage", garbage], ["with a Map and a sort", mapSort], ["with the JS baseline", comp.js]]) {
  const r = compare({ w: comp.wasm, other: f }, p);
  console.log(`  ${name.padEnd(25)} ${us(r.w)} (the other: ${us(r.other)})`);
}
console.log(`  alone again               ${us(compare({ w: comp.wasm }, p).w)}`);
console.log(`  the JS baseline alone     ${us(compare({ js: comp.js }, p).js)}`);
