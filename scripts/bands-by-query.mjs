// How optimistic `proposeBands`' held-out hit precision is when a query's candidates fall
// in several folds (README, "Evidence instead of fixed parameters"), measured on
// ../shared/data/cisi-abstain with the built package:
//   node scripts/bands-by-query.mjs
// The judged queries (ids sorted) are split alternately into halves. On each half, every
// query's fused candidates (bm25 and dense, RRF k = 60, top 200) are calibrated by Platt
// scaling fitted on that half, and `proposeBands` (targetPrecision 0.5) proposes floors
// with its folds of items. The same procedure with folds of whole queries (5 folds, each
// query's candidates in one) gives the held-out hit precision by query; the floors
// measured on the other half give the precision on unseen queries.
import { readFileSync } from "node:fs";
import { Pipeline } from "calibrank";
import { applyCalibration, fitPlatt, parseQrels, parseTrecRun, proposeBands } from "calibrank/lab";

const dir = new URL("../../shared/data/cisi-abstain/", import.meta.url);
const text = (f) => readFileSync(new URL(f, dir), "utf8");
const runs = [parseTrecRun(text("run.bm25.txt")), parseTrecRun(text("run.dense.txt"))];
const qrels = parseQrels(text("qrels.txt"));
const queries = Object.keys(qrels).sort();
const TARGET = 0.5;
const FOLDS = 5;

// Each run's documents of query q best first (ties by id), as the pipeline takes a list.
const listsOf = (q) =>
  runs.map((run, i) => {
    const ranked = Object.entries(run[q] ?? {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return { name: `run${i}`, ids: ranked.map(([d]) => d), scores: ranked.map(([, s]) => s) };
  });
const pool = new Pipeline({ explain: true, minConfidence: 0, topK: 200, topN: 200 });
/** The fused candidates of `qs`: score, label (judged > 0) and query of each. */
function candidates(qs) {
  const scores = [];
  const labels = [];
  const of = [];
  for (const q of qs)
    for (const r of pool.run({ lists: listsOf(q) }).results) {
      scores.push(r.explain.normalized);
      labels.push((qrels[q][r.id] ?? 0) > 0 ? 1 : 0);
      of.push(q);
    }
  return { scores, labels, of };
}
/** Hit precision of `floor` over the items `at` of `calibrated` (null if none is a hit). */
function precision(floor, calibrated, labels, at) {
  let hits = 0;
  let relevant = 0;
  for (const i of at) if (calibrated[i] >= floor) (hits++, (relevant += labels[i]));
  return hits === 0 ? null : relevant / hits;
}
const fixed = (p) => (p === null || p === undefined ? "-" : p.toFixed(3));

for (const half of [0, 1]) {
  const fitOn = queries.filter((_, i) => i % 2 === half);
  const testOn = queries.filter((_, i) => i % 2 !== half);
  const fit = candidates(fitOn);
  const test = candidates(testOn);
  const platt = fitPlatt(fit.scores, fit.labels);
  const calibrated = applyCalibration(fit.scores, platt);
  const proposal = proposeBands(calibrated, fit.labels, { targetPrecision: TARGET });
  // Folds of whole queries: floors proposed on the other folds' items, measured on this one's.
  let hits = 0;
  let relevant = 0;
  for (let k = 0; k < FOLDS; k++) {
    const held = new Set(fitOn.filter((_, i) => i % FOLDS === k));
    const train = calibrated.map((_, i) => i).filter((i) => !held.has(fit.of[i]));
    const floor = proposeBands(train.map((i) => calibrated[i]), train.map((i) => fit.labels[i]), { targetPrecision: TARGET }).highFloor;
    for (let i = 0; i < calibrated.length; i++)
      if (held.has(fit.of[i]) && calibrated[i] >= floor) (hits++, (relevant += fit.labels[i]));
  }
  const onTest = precision(proposal.highFloor, applyCalibration(test.scores, platt), test.labels, test.scores.keys());
  console.log(
    `fit on half ${half === 0 ? "A" : "B"}: highFloor ${proposal.highFloor.toFixed(4)}; held-out hit precision with folds of items ${fixed(proposal.heldOut.hit.precision)}, ` +
      `with folds of queries ${fixed(hits === 0 ? null : relevant / hits)}; on the other half ${fixed(onTest)}`,
  );
}
