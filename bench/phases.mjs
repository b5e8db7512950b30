// Where a string-API call's time goes, phase by phase: a patched copy of the package's
// Node entry (bench/patched-entry.mjs) records a timestamp at each step of `rrf` and
// `Pipeline.run` (reading and interning the input, writing each section into wasm
// memory: the string table's strings (in parts: js/wire/input.js `joinedParts`) and its
// offsets; the module; the output
// objects), and the script prints the median of each step over the calls.
//   node --expose-gc bench/phases.mjs [DIR] [--calls K] [--interleave] a|b|c N [a|b|c N ...]
// --interleave: the JS baseline's same call (bench/baseline) runs, untimed, before each
// timed call: its work evicts the package's from the processor's caches, which the
// figures then show step by step (colder than `make bench`, where about half of the
// package's samples follow its own call).
// e.g. `node --expose-gc bench/phases.mjs pkg a 100000 b 1000`. Workloads and inputs are
// bench/gen.mjs's (a: rrf, b: Pipeline.run, c: with the heuristic reranker). At
// N >= 100,000 the collector runs before each call (as bench/ab.mjs does). The marks
// (a `performance.now()` each) add to the steps: compare a step across builds with this
// script, not with other scripts' figures for the whole call. The
// held texts a pipeline with the reranker writes when the module asks for them (c at
// N >= 1,000) count in "the module". One workload per process for figures to compare:
// a large one first leaves the heap large.
import { resolve } from "node:path";
import * as gen from "./gen.mjs";
import { importPatched } from "./patched-entry.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";

const args = process.argv.slice(2);
const at = args.indexOf("--calls");
const calls = at >= 0 ? Number(args.splice(at, 2)[1]) : 0;
const il = args.indexOf("--interleave");
const interleave = il >= 0 && args.splice(il, 1).length === 1;
const dir = /^[abc]$/.test(args[0]) ? "pkg" : args.shift();
if (args.length === 0 || args.length % 2 !== 0) throw new Error("usage: node --expose-gc bench/phases.mjs [DIR] [--calls K] [--interleave] a|b|c N [a|b|c N ...]");

let marks = null;
// Set while the module runs: the held texts a pipeline with the reranker answers the
// module's import with are written then, and their steps belong to "the module".
let inModule = false;
globalThis.__calibrankMark = (name, wire) => {
  if (marks !== null && !(wire && inModule)) marks.push(name, performance.now());
};
globalThis.__calibrankInModule = (v) => (inModule = v);
const M = (name) => `globalThis.__calibrankMark(${JSON.stringify(name)});`;
const W = (name) => `globalThis.__calibrankMark(${JSON.stringify(name)}, true);`;
const { lib, dispose } = await importPatched(
  resolve(dir),
  [
    // rrf
    ["function rrf(lists, options) {", `$&\n  ${M("rrf called")}`],
    ["    const input = writeKWeightsLimits(new Input(), opts, options).u32s(lens).u32s(docs);", `${M("lists read and interned")}\n$&`],
    ["  if (lean) orderTies(result, out.u8At(), out.w.u8, n);", `$&\n  ${M("output objects built, ties ordered")}`],
    // Pipeline.run
    ["      e = encodeInput(input, this.#limits, this.#holdAbove, lease);", `      ${M("run called")}\n$&\n      ${M("input encoded (rest)")}`],
    ["  const nDocs = strs.length;", `  ${M("lists read and interned")}\n$&`],
    ['    itemNums = nDocs >= 8 ? lease.f64(3 * nDocs, 2, "items") : zeros(3 * nDocs);', `$&\n    ${M("items' tables made")}`],
    // (An expression: the bundler renames the names the line declares.)
    ['= timestamp(now, strs, "now");', `= (${M("items read").slice(0, -1)}, timestamp(now, strs, "now"));`],
    ["    return this.#results(out, e);", `    const r = this.#results(out, e);\n    ${M("output objects built")}\n    return r;`],
    // the wire, both
    ["  write(ptr, input, limit) {", `$&\n    ${W("checks, the call's buffer")}\n    const r = this.write2(ptr, input, limit);\n    ${W("write: the strings' offsets, later sections")}\n    return r;\n  }\n  write2(ptr, input, limit) {`],
    ["          let end = joinedParts(u8, base, v, limit);", `${W("write: sections before the strings")}\n$&\n${W("write: the strings, in parts")}`],
    ["p = this.x.cr_call(op, len)", `globalThis.__calibrankInModule(true);\n        $&`],
    ["        inWasm = false;\n      } finally {", `        ${M("the module")}\n$&\n        globalThis.__calibrankInModule(false);`],
  ],
  "phases",
);

try {
  for (let a = 0; a < args.length; a += 2) {
    const w = args[a];
    const n = Number(args[a + 1]);
    const x = gen.makeInputs(n);
    const p = w === "a" ? null : new lib.Pipeline(gen.pipelineConfig(w === "c"));
    const call = w === "a" ? () => lib.rrf(x.strLists, { limits: gen.BENCH_LIMITS }) : () => p.run(w === "b" ? x.inputB : x.inputC);
    const jsP = w === "a" ? null : new baseline.Pipeline(gen.pipelineConfig(w === "c"));
    const other = !interleave ? () => {} : w === "a" ? () => baseline.rrf(x.strLists) : () => jsP.run(w === "b" ? x.inputB : x.inputC);
    const k = calls || (n >= 100_000 ? 9 : n >= 10_000 ? 60 : 400);
    const warm = Date.now() + (n >= 100_000 ? 0 : 1000);
    do {
      call();
      other();
    } while (Date.now() < warm);
    const steps = new Map();
    for (let c = 0; c < k; c++) {
      other();
      if (n >= 100_000) globalThis.gc?.();
      marks = [];
      call();
      for (let i = 2; i < marks.length; i += 2) {
        const key = marks[i];
        if (!steps.has(key)) steps.set(key, []);
        steps.get(key).push(marks[i + 1] - marks[i - 1]);
      }
      if (!steps.has("total")) steps.set("total", []);
      steps.get("total").push(marks[marks.length - 1] - marks[1]);
      marks = null;
    }
    console.log(`${w} N=${n}: median of ${k} calls${interleave ? ", each after the JS baseline's" : ""}, each step since the one before`);
    for (const [key, ts] of steps) {
      const s = ts.sort((x, y) => x - y)[ts.length >> 1];
      console.log(`  ${key.padEnd(46)} ${s < 1 ? `${(s * 1000).toFixed(1)} µs` : `${s.toFixed(2)} ms`}`);
    }
    p?.free();
  }
} finally {
  dispose();
}
