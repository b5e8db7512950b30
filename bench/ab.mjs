// A/B of two builds of the package in one process, interleaved (bench/timing.mjs):
//   node --expose-gc bench/ab.mjs DIR_A DIR_B [--sizes 10,1000] [--cisi] [--with-baseline]
// (DIR: pkg/ or a build of bench/build-variant.sh DIR [wasm-opt flags])
// prints the median time per call of each workload for A and B, and B/A.
// --with-baseline: the JS baseline's same call is timed too, its samples around A's and
// B's (J1 A J2 B J3, then J3 B J2 A J1: a baseline sample before each build's, in both
// orders). `make bench` interleaves the package with the baseline too, but with two
// competitors (W J, J W, ...) about half of its samples follow the package's own: this
// is the colder case of the two. The
// baseline's work leaves the caches cold for the package's next sample, which at
// N >= 10,000 (a call or two a sample) can change which variant is faster (workload (c)
// reads every item: docs/performance-history.md, "Cold caches"). It prints the baseline's time
// over each build's too, J1 over A and J3 over B (J2 always follows a build; J1 and J3
// each follow themselves in one order and a build in the other).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
import { compare, policy } from "./timing.mjs";

const [dirA, dirB] = process.argv.slice(2, 4).map((d) => resolve(d));
const i = process.argv.indexOf("--sizes");
const sizes = (i >= 0 ? process.argv[i + 1] : "10,1000,100000").split(",").map(Number);
// Both entries of each build (the lab's for --cisi: parseTrecRun, fuseRuns).
const load = async (d) => ({ ...(await import(pathToFileURL(join(d, "lab.node.mjs")).href)), ...(await import(pathToFileURL(join(d, "node.mjs")).href)) });
const [A, B] = [await load(dirA), await load(dirB)];
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} us` : `${ms.toFixed(2)} ms`);
const withBaseline = process.argv.includes("--with-baseline");
const row = (name, t) =>
  console.log(
    `${name.padEnd(22)} A ${fmt(t.A.medianMs).padStart(10)}  B ${fmt(t.B.medianMs).padStart(10)}  B/A ${(t.B.medianMs / t.A.medianMs).toFixed(2)}` +
      (t.J1 ? `  JS/A ${(t.J1.medianMs / t.A.medianMs).toFixed(2)}  JS/B ${(t.J3.medianMs / t.B.medianMs).toFixed(2)}` : ""),
  );
// A and B, each after the baseline's `js` when asked (three entries, so that both orders
// of the samples put a baseline sample before each build's).
const pair = (a, b, js) => (withBaseline && js ? { J1: js, A: a, J2: js, B: b, J3: js } : { A: a, B: b });
for (const n of sizes) {
  const x = gen.makeInputs(n);
  const p = policy(n);
  const pipes = (lib) => [new lib.Pipeline(gen.pipelineConfig(false)), new lib.Pipeline(gen.pipelineConfig(true))];
  const [ab, ac] = pipes(A);
  const [bb, bc] = pipes(B);
  const { docs, offsets, nDocs } = x.columnar;
  const [jb, jc] = [new baseline.Pipeline(gen.pipelineConfig(false)), new baseline.Pipeline(gen.pipelineConfig(true))];
  row(`a/string N=${n}`, compare(pair(() => A.rrf(x.strLists, { limits: gen.BENCH_LIMITS }), () => B.rrf(x.strLists, { limits: gen.BENCH_LIMITS }), () => baseline.rrf(x.strLists)), p));
  row(`a/columnar N=${n}`, compare(pair(() => A.rrfColumnar(docs, offsets, nDocs), () => B.rrfColumnar(docs, offsets, nDocs), () => baseline.rrfColumnar(docs, offsets, nDocs)), p));
  row(`b/string N=${n}`, compare(pair(() => ab.run(x.inputB), () => bb.run(x.inputB), () => jb.run(x.inputB)), p));
  row(`b/columnar N=${n}`, compare(pair(() => ab.runColumnar(x.columnar), () => bb.runColumnar(x.columnar), () => jb.runColumnar(x.columnar)), p));
  row(`c/string N=${n}`, compare(pair(() => ac.run(x.inputC), () => bc.run(x.inputC), () => jc.run(x.inputC)), p));
}
if (process.argv.includes("--cisi")) {
  const texts = ["run.bm25.txt", "run.dense.txt"].map((f) => readFileSync(join("..", "shared", "data", "cisi", f), "utf8"));
  const [ra, rb] = [texts.map((t) => A.parseTrecRun(t)), texts.map((t) => B.parseTrecRun(t))];
  const p = { samples: 21, minSampleMs: 5, warmupMs: 300 };
  row("CISI parseTrecRun", compare({ A: () => texts.map((t) => A.parseTrecRun(t)), B: () => texts.map((t) => B.parseTrecRun(t)) }, p));
  row("CISI fuseRuns rrf", compare({ A: () => A.fuseRuns(ra, { method: "rrf" }), B: () => B.fuseRuns(rb, { method: "rrf" }) }, p));
  row("CISI fuseRuns mnz", compare({ A: () => A.fuseRuns(ra, { method: "mnz", norm: "min-max" }), B: () => B.fuseRuns(rb, { method: "mnz", norm: "min-max" }) }, p));
}
