// What one unit of each search's work costs, the figures behind `maxSearchWork`'s units
// (src/limits.rs `FOLD_WORK_PER_UNIT`, `FIT_WORK_PER_UNIT`): optimizeFusion's unit is a
// run entry fused and judged once per configuration; proposeBands' an item in a fold
// (folds x items); fitQueryConfidence's a term of a Newton step (judged queries x
// (runs + 1)^2). Prints nanoseconds per unit and how many of each cost one of
// optimizeFusion's. Each call is timed once after a warm-up call, with limits raised.
//
//   node bench/work-units.mjs [PKG_DIR]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const pkgDir = resolve(process.argv[2] ?? "pkg");
const lab = await import(pathToFileURL(`${pkgDir}/lab.node.mjs`).href);
const cisi = resolve(new URL("../../shared/data/cisi/", import.meta.url).pathname);
const RAISED = { maxSearchWork: 4294967295, maxTotalEntries: 10000000, maxListLength: 10000000 };

/** Milliseconds of `f()`, after one call to warm up. */
function timed(f) {
  f();
  const t = performance.now();
  f();
  return performance.now() - t;
}

// optimizeFusion: CISI's BM25 and dense runs by rbc at ranx's grid (99 configurations).
const qrels = lab.parseQrels(readFileSync(`${cisi}/qrels.txt`, "utf8"));
const runs = ["run.bm25.txt", "run.dense.txt"].map((f) => lab.parseTrecRun(readFileSync(`${cisi}/${f}`, "utf8")));
const entries = runs.reduce((n, r) => n + Object.values(r).reduce((m, q) => m + Object.keys(q).length, 0), 0);
const judged = Object.values(qrels).reduce((n, q) => n + Math.max(Object.keys(q).length, 1), 0);
const optUnits = 99 * (entries + judged);
const optMs = timed(() => lab.optimizeFusion(qrels, runs, { method: "rbc", metric: "ndcg@10" }));
const optNs = (optMs * 1e6) / optUnits;
console.log(`optimizeFusion (rbc, CISI): 99 x (${entries} entries + ${judged} judgements) = ${optUnits} units in ${optMs.toFixed(0)} ms: ${optNs.toFixed(0)} ns a unit`);

// proposeBands: leave-one-out over N items (N^2 item-folds; the rest of the call is linear).
const N = 10000;
const scores = Float64Array.from({ length: N }, (_, i) => ((i * 7919) % N) / N);
const labels = Float64Array.from(scores, (s, i) => (s > 0.5 ? i % 3 !== 0 : i % 3 === 0) ? 1 : 0);
const pbMs = timed(() => lab.proposeBands(scores, labels, { folds: N, limits: RAISED }));
const pbNs = (pbMs * 1e6) / (N * N);
console.log(`proposeBands: ${N} folds x ${N} items in ${pbMs.toFixed(0)} ms: ${pbNs.toFixed(1)} ns an item-fold, ${(optNs / pbNs).toFixed(1)} to a unit of optimizeFusion's`);

// fitQueryConfidence: 64 runs (65 features) x Q judged queries, every other one relevant.
const Q = 760;
const R = 64;
// Top scores that tell the relevant queries apart, but not perfectly (a fit that iterates).
const relevant = (q) => (q % 2 === 1) !== (q % 7 === 0);
const qcRuns = Array.from({ length: R }, (_, r) =>
  Object.fromEntries(Array.from({ length: Q }, (_, q) => [`q${q}`, { [`d${q}`]: 3 + (q % 2) + ((q * (r + 3)) % 11) / 10, [`e${q}`]: 1, [`f${q}`]: 0.5 }])),
);
const qcQrels = Object.fromEntries(Array.from({ length: Q }, (_, q) => [`q${q}`, { [`d${q}`]: relevant(q) ? 1 : 0 }]));
let iterations = 0;
const qcMs = timed(() => {
  iterations = lab.fitQueryConfidence(qcQrels, qcRuns, { limits: RAISED }).training.iterations;
});
const terms = Q * (R + 1) ** 2;
const qcNs = (qcMs * 1e6) / terms;
console.log(`fitQueryConfidence: ${Q} queries x (${R + 1} features)^2 = ${terms} terms a step (${iterations} iterations) in ${qcMs.toFixed(0)} ms: ${qcNs.toFixed(1)} ns a term, ${(optNs / qcNs).toFixed(1)} to a unit of optimizeFusion's`);
