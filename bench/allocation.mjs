// What a `Pipeline.run` call allocates on the JavaScript heap, and what its main parts do
// (the interning Map, the string table's join, `Object.keys(items)`), against the JS
// baseline's call: the growth of `heapUsed` over 400 calls each, after a collection, in a
// process whose young generation (512 MB) holds them all without another
// (docs/performance-history.md, "A call's company").
//   node bench/allocation.mjs [DIR] [N]   (defaults: pkg, 1000; re-runs itself with the flags)
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";

const FLAGS = ["--max-semi-space-size=512", "--min-semi-space-size=512", "--expose-gc"];
if (!process.execArgv.includes(FLAGS[0])) {
  const r = spawnSync(process.execPath, [...FLAGS, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}
const dir = process.argv[2] ?? "pkg";
const n = Number(process.argv[3] ?? 1000);
const lib = await import(pathToFileURL(resolve(dir, "node.mjs")).href);
const x = gen.makeInputs(n);
const CALLS = 400;
function perCall(name, f) {
  for (let i = 0; i < 200; i++) f();
  // A young generation emptied before the calls (else a scavenge could fall among them).
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < CALLS; i++) f();
  const kb = (process.memoryUsage().heapUsed - before) / CALLS / 1024;
  console.log(`${name.padEnd(44)} ${kb.toFixed(1).padStart(8)} KB a call`);
}
console.log(`N = ${n} per list, ${dir}`);
for (const w of ["b", "c"]) {
  const comp = gen.competitors(lib, baseline, w, x);
  perCall(`(${w}) Pipeline.run`, comp.wasm);
  perCall(`(${w}) the JS baseline`, comp.js);
}
const ids = [...new Set(x.strLists.flat())];
perCall("interning the lists' ids in a Map", () => {
  const m = new Map();
  for (const l of x.strLists) for (let j = 0; j < l.length; j++) if (m.get(l[j]) === undefined) m.set(l[j], m.size);
  return m.size;
});
perCall("the distinct ids joined", () => ids.join("").length);
perCall("Object.keys(items)", () => Object.keys(x.inputB.items).length);
