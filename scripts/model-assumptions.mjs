// What a query-confidence model assumes of the pipeline's input (README, "What the model
// assumes"), measured on ../shared/data/cisi-abstain with the built package:
//   node scripts/model-assumptions.mjs
// A model fitted on half the queries (ids sorted, every other one) is given the other
// half's lists as the model expects them and with the mistakes an app can make; a model
// fitted on every query is given every query with one retriever down (an empty list);
// then the results' confidences in abstained queries under a fitted calibration, and the
// probabilities of the pipeline (lists in file order) against `predictQueryConfidence`
// (ranx's tie order).
import { readFileSync } from "node:fs";
import { Pipeline, rrf } from "calibrank";
import { Qrels, Run, fitPlatt, fitQueryConfidence, predictQueryConfidence } from "calibrank/lab";

const dir = new URL("../../shared/data/cisi-abstain/", import.meta.url);
const text = (f) => readFileSync(new URL(f, dir), "utf8");
/** TREC lines by query id, in file order. */
function byQuery(t) {
  const m = new Map();
  for (const line of t.split("\n")) {
    const q = line.split(/\s+/)[0];
    if (q) m.set(q, [...(m.get(q) ?? []), line]);
  }
  return m;
}
const qrels = byQuery(text("qrels.txt"));
const bm25 = byQuery(text("run.bm25.txt"));
const dense = byQuery(text("run.dense.txt"));
const subset = (m, qs) => qs.flatMap((q) => m.get(q) ?? []).join("\n") + "\n";
/** A query's list as the retriever gave it: ids and scores in file order. */
function list(m, q) {
  const rows = (m.get(q) ?? []).map((l) => l.split(/\s+/));
  return { ids: rows.map((r) => r[2]), scores: rows.map((r) => Number(r[4])) };
}
const fit = (qs) => {
  const runs = [Run.fromTrec(subset(bm25, qs)), Run.fromTrec(subset(dense, qs))];
  const model = fitQueryConfidence(Qrels.fromTrec(subset(qrels, qs)), runs);
  return { model, runs };
};
const queries = [...qrels.keys()].sort();
const half = [queries.filter((_, i) => i % 2 === 0), queries.filter((_, i) => i % 2 === 1)];
const kindOf = (q) => (q.startsWith("ood") ? "out-of-domain" : "in-domain");

/** Outcome counts per kind of query, for the lists `make(q)` gives. */
function tally(pipeline, qs, make) {
  const t = {};
  for (const q of qs) {
    const out = pipeline.run({ lists: make(q) });
    const key = `${kindOf(q)} ${out.outcome.kind}${out.results.length === 0 ? " (no results)" : ""}`;
    t[key] = (t[key] ?? 0) + 1;
  }
  return Object.entries(t).sort().map(([k, n]) => `${k} ${n}`).join(", ");
}
const lists = (q, b = list(bm25, q), d = list(dense, q)) => [{ name: "bm25", ...b }, { name: "dense", ...d }];
const mapDense = (f) => (q) => lists(q, undefined, ((d) => ({ ...d, scores: d.scores.map(f) }))(list(dense, q)));

const [train, test] = half;
const { model } = fit(train);
const pipeline = new Pipeline({ confidence: { model } });
console.log(`Fitted on ${train.length} queries, run on the other ${test.length}:`);
for (const [what, make] of [
  ["lists as in training", (q) => lists(q)],
  ["lists swapped", (q) => lists(q).reverse()],
  ["dense scores x 100", mapDense((s) => s * 100)],
  ["dense as a distance (1 - cosine)", mapDense((s) => 1 - s)],
  // The runs hold 100 documents a query; a RAG app often passes each retriever's top 20.
  ["each list cut to its top 20", (q) => lists(q).map((l) => ({ ...l, ids: l.ids.slice(0, 20), scores: l.scores.slice(0, 20) }))],
]) console.log(`  ${what}: ${tally(pipeline, test, make)}`);
{
  // How far the probabilities move when the lists are shallower than in training.
  const cut = (n) => (q) => lists(q).map((l) => ({ ...l, ids: l.ids.slice(0, n), scores: l.scores.slice(0, n) }));
  for (const n of [50, 20, 10]) {
    let most = 0;
    let changed = 0;
    for (const q of test) {
      const a = pipeline.run({ lists: lists(q) }).outcome;
      const b = pipeline.run({ lists: cut(n)(q) }).outcome;
      most = Math.max(most, Math.abs(a.probability - b.probability));
      if (a.kind !== b.kind) changed++;
    }
    console.log(`  lists cut to their top ${n}: probabilities move by ${most.toFixed(2)} at most, ${changed} of ${test.length} outcomes change`);
  }
  // The remedy: a model fitted on runs cut as the app cuts its lists.
  const top = (m, n) => new Map([...m].map(([q, lines]) => [q, lines.slice(0, n)]));
  const runs20 = [Run.fromTrec(subset(top(bm25, 20), train)), Run.fromTrec(subset(top(dense, 20), train))];
  const model20 = fitQueryConfidence(Qrels.fromTrec(subset(qrels, train)), runs20);
  const p20 = new Pipeline({ confidence: { model: model20 } });
  console.log(`  fitted on the training runs cut to their top 20, given lists cut so: ${tally(p20, test, cut(20))}`);
  runs20.forEach((r) => r.free());
  p20.free();
}

// Results' confidences from Platt's fit on the training half's every fused candidate
// (the README's advice: the scores the pipeline calibrates, every candidate, not the
// top 10 alone): they do not know the query-level outcome.
const scores = [];
const labels = [];
for (const q of train) {
  const relevant = new Set((qrels.get(q) ?? []).map((l) => l.split(/\s+/)).filter((f) => Number(f[3]) > 0).map((f) => f[2]));
  for (const [id, score] of rrf([list(bm25, q).ids, list(dense, q).ids])) {
    scores.push(score);
    labels.push(relevant.has(id) ? 1 : 0);
  }
}
const platt = fitPlatt(scores, labels);
const calibrated = new Pipeline({ calibration: platt, confidence: { model }, minConfidence: 0 });
let kept = 0;
let highest = 0;
for (const q of test) {
  const out = calibrated.run({ lists: lists(q) });
  if (out.outcome.kind !== "abstain") continue;
  // What the default minConfidence (0.3) would still return.
  kept += out.results.filter((r) => r.score >= 0.3).length;
  for (const r of out.results) highest = Math.max(highest, r.score);
}
console.log(`  with Platt's calibration, abstained queries hold ${kept} results of confidence >= 0.3 (the highest ${highest.toFixed(3)})`);
// The same calibration on the held-out out-of-domain queries (nothing relevant in any):
// each one's top result's confidence, and the rank-only outcome (no model) it gives,
// against the seed's sigmoid.
const ood = test.filter((q) => kindOf(q) === "out-of-domain");
const [bySigmoid, byPlatt] = [new Pipeline(), new Pipeline({ calibration: platt })];
let top = 0;
for (const q of ood) top += calibrated.run({ lists: lists(q) }).results[0]?.score ?? 0;
console.log(`  held-out out-of-domain queries (${ood.length}): the top result's Platt confidence ${(top / ood.length).toFixed(2)} on average (none is relevant); rank-only outcomes (no model, the other defaults), the seed's sigmoid: ${tally(bySigmoid, ood, lists)}; Platt: ${tally(byPlatt, ood, lists)}`);
[calibrated, bySigmoid, byPlatt].forEach((p) => p.free());

const whole = fit(queries);
const all = new Pipeline({ confidence: { model: whole.model }, minConfidence: 0 });
console.log(`Fitted on all ${queries.length} queries, run on them (minConfidence 0):`);
const none = { ids: [], scores: [] };
for (const [what, make] of [
  ["both lists", (q) => lists(q)],
  ["bm25 empty", (q) => lists(q, none)],
  ["dense empty", (q) => lists(q, undefined, none)],
]) console.log(`  ${what}: ${tally(all, queries, make)}`);

// The pipeline ranks a list by position, the lab's runs tied scores in ranx's order.
const predicted = predictQueryConfidence(whole.model, whole.runs);
let differ = 0;
let most = 0;
for (const q of queries) {
  const d = Math.abs(all.run({ lists: lists(q) }).outcome.probability - predicted[q]);
  if (d > 0) differ++;
  most = Math.max(most, d);
}
console.log(`Pipeline against predictQueryConfidence: ${differ} of ${queries.length} probabilities differ, by ${most.toPrecision(2)} at most`);
whole.runs.forEach((r) => r.free());
pipeline.free();
calibrated.free();
all.free();
