// `make bench-limits`: the time of every exported call (of both entries, "calibrank" and
// "calibrank/lab") at the largest input its default limits accept (src/limits.rs), in Node. The limits promise that one call stays well
// under a second; this is the measurement behind that promise (docs/reliability.md).
//
//   node --max-old-space-size=8192 bench/limits.mjs [--out FILE] [--reps N] [--only NAME] [--no-first]
//
// Each input is the worst shape the defaults allow for that call (every entry distinct,
// the longest strings the text budget allows, ...). Each call runs once to warm up, then
// --reps times (default 3); the table shows the median and the slowest. The script also
// checks that one entry more than the limit is refused with INPUT_TOO_LARGE. Unless
// --no-first, each call's first run is also timed alone in a fresh process (memory
// growth and compilation included, with the input's JavaScript heap around it).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as lib from "calibrank";
import * as lab from "calibrank/lab";
import * as gen from "./gen.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const outFile = option("--out", join(root, "bench", "limits.json"));
const reps = Number(option("--reps", 3));
const only = option("--only", null);
// `--first NAME` (used by the script itself): time the first call of case NAME alone, in
// this fresh process, and print it as JSON. `--no-first`: skip those processes.
const first = option("--first", null);
const withFirst = !args.includes("--no-first");

// The scoring core ("calibrank") and the lab ("calibrank/lab") state the same limits.
const D = lib.defaultLimits();
if (JSON.stringify(lab.defaultLimits()) !== JSON.stringify(D)) throw new Error(`the lab's default limits differ: ${JSON.stringify(lab.defaultLimits())}`);

/** The benchmark's pipeline config under the default limits. */
function config(rerank, extra = {}) {
  const { limits, ...rest } = gen.pipelineConfig(rerank);
  return { ...rest, ...extra };
}
const E = D.maxTotalEntries;
// Functions with an entry budget of their own (src/limits.rs ENTRY_BUDGETS).
const EB = (fn) => lib.defaultLimits(fn).maxTotalEntries;

// ------------------------------------------------------------------ input builders

/** `n` distinct string ids shaped like the benchmark's (`docs/7/chunk-123.md#L45`). */
const ids = (n, offset = 0) => Array.from({ length: n }, (_, i) => gen.docId(i + offset));

/** `k` lists splitting `total` distinct ids. */
function splitLists(k, total) {
  const per = Math.floor(total / k);
  return Array.from({ length: k }, (_, l) => ids(per, l * per));
}

/** A run with `queries` queries of `perQuery` documents (scores descending). */
const run = gen.runObject;

function trecText(lines, qrels) {
  const out = [];
  const perQuery = 100;
  for (let i = 0; i < lines; i++) {
    const q = Math.floor(i / perQuery);
    const r = i % perQuery;
    out.push(qrels ? `q${q} 0 doc-${r * 13}-${q} ${r % 3}` : `q${q} Q0 doc-${r * 13}-${q} ${r + 1} ${(1 - r / perQuery).toFixed(6)} bench`);
  }
  return out.join("\n");
}

/** A text of exactly `bytes` ASCII bytes made of the reranker's vocabulary. */
const textOf = (bytes) => "authentication token cache router graph ".repeat(Math.ceil(bytes / 40)).slice(0, bytes);

function scoresAndLabels(n) {
  const s = new Float64Array(n);
  const l = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s[i] = ((i * 2654435761) % 1000003) / 1000003;
    // Labels that depend on the score (relevant the more often the higher it is), so that
    // the fits have an optimum to find: labels independent of it leave Platt's Newton
    // method at its start, and hid its cost at a million rows.
    l[i] = ((i * 40503) % 1000) / 1000 < 0.05 + 0.3 * s[i] ? 1 : 0;
  }
  return [s, l];
}

// ------------------------------------------------------------------ the cases

/**
 * Each case: [name, input description, () => call]. A builder runs once, outside the
 * timing, and returns the call.
 */
const cases = [];
const add = (name, what, build) => cases.push({ name, what, build });

// Pipeline.run, workload (c) of the benchmark: 3 lists, items with name, type, summary
// and modification time, heuristic rerank. Entries are list ids plus items: n per list
// over a universe of 1.5 n documents gives about 1.44 n items, so 4.44 n <= E.
add("Pipeline.run (c)", `3 lists + items = ${EB("Pipeline") / 1000}k entries, rerank on`, () => {
  let n = Math.floor(EB("Pipeline") / 4.44);
  let x = gen.makeInputs(n);
  while (3 * n + Object.keys(x.inputC.items).length > EB("Pipeline")) x = gen.makeInputs((n -= 500));
  const p = new lib.Pipeline(config(true));
  return { call: () => p.run(x.inputC), entries: 3 * n + Object.keys(x.inputC.items).length };
});
add("Pipeline.run (c), explain, all results", "as above, topK = topN = every candidate, explain on", () => {
  let n = Math.floor(EB("Pipeline") / 4.44);
  let x = gen.makeInputs(n);
  while (3 * n + Object.keys(x.inputC.items).length > EB("Pipeline")) x = gen.makeInputs((n -= 500));
  const all = Object.keys(x.inputC.items).length;
  const p = new lib.Pipeline(config(true, { topK: all, topN: all, explain: true, minConfidence: 0 }));
  return { call: () => p.run(x.inputC), entries: 3 * n + all };
});
add("Pipeline.run, texts", "31 items with 1 MB summaries + 1 MB query (32 MB of text), rerank on", () => {
  const n = Math.floor(D.maxTotalTextBytes / D.maxTextBytes) - 1;
  const items = {};
  const list = ids(n);
  for (const id of list) items[id] = { name: "AuthTokenCache", type: "class", summary: textOf(D.maxTextBytes - 64) };
  const p = new lib.Pipeline({ rerank: { method: "heuristic" }, explain: true });
  const input = { query: textOf(D.maxTextBytes - 64), lists: [{ name: "s", ids: list }], items };
  return { call: () => p.run(input), entries: 2 * n };
});
// Configurations at their bound: 2 x maxTextBytes characters of JSON text (js/wire/limits.js
// `textBound`), the largest arrays and maps a configuration can hold.
/** The most elements `make(n)` can hold under the bound (found by doubling, then bisection). */
function atTextBound(make) {
  const fits = (n) => JSON.stringify(make(n)).length <= 2 * D.maxTextBytes;
  let lo = 1;
  while (fits(2 * lo)) lo *= 2;
  let hi = 2 * lo;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
add("new Pipeline, recency steps", "a configuration of 2 x maxTextBytes characters: [maxAgeDays, multiplier] steps", () => {
  const make = (n) => ({ recency: { steps: Array.from({ length: n }, (_, i) => [i + 1, 1]) } });
  const config = make(atTextBound(make));
  return { call: () => new lib.Pipeline(config).free(), entries: config.recency.steps.length };
});
add("Pipeline.run, recency steps", "the steps above, 10,000 items each with a modification time (a step found per item)", () => {
  const make = (n) => ({ recency: { steps: Array.from({ length: n }, (_, i) => [i + 1, 2]) }, topK: 10_000, topN: 10, minConfidence: 0, explain: false });
  const p = new lib.Pipeline(make(atTextBound(make)));
  const list = ids(10_000);
  const items = Object.fromEntries(list.map((id, d) => [id, { modifiedAt: gen.NOW - (d % 5000) * 86_400_000 * 37 }]));
  return { call: () => p.run({ lists: [{ name: "s", ids: list }], items, now: gen.NOW }), entries: 2 * list.length };
});
add("new Pipeline, weights by name", "a configuration of 2 x maxTextBytes characters: weights (2) of lists named l0, l1, ...", () => {
  const make = (n) => ({ weights: Object.fromEntries(Array.from({ length: n }, (_, i) => [`l${i}`, 2])) });
  const n = atTextBound(make);
  const config = make(n);
  return { call: () => new lib.Pipeline(config).free(), entries: n };
});
add("Pipeline.run, stopwords", "stopwords filling 2 x maxTextBytes characters, a query of maxTextBytes, rerank on", () => {
  const make = (n) => ({ rerank: { method: "heuristic", heuristic: { stopwords: Array.from({ length: n }, (_, i) => `w${i}`) } } });
  const n = atTextBound(make);
  const p = new lib.Pipeline(make(n));
  const query = Array.from({ length: Math.floor(D.maxTextBytes / 8) }, (_, i) => `q${i}`).join(" ");
  const input = { query, lists: [{ name: "s", ids: ids(1000) }], items: Object.fromEntries(ids(1000).map((id) => [id, { name: "AuthTokenCache" }])) };
  return { call: () => p.run(input), entries: n };
});
add("Pipeline.runColumnar", "4 lists x 1M indices over 4M documents, recency on", () => {
  const per = D.maxListLength;
  const lists = D.maxColumnarEntries / per;
  const docs = new Uint32Array(lists * per);
  for (let l = 0; l < lists; l++) for (let i = 0; i < per; i++) docs[l * per + i] = (i * 7919 + l * 104729) % D.maxColumnarEntries;
  const offsets = Uint32Array.from({ length: lists + 1 }, (_, i) => i * per);
  const modifiedAt = new Float64Array(D.maxColumnarEntries).map((_, d) => gen.modifiedAt(d) ?? NaN);
  const p = new lib.Pipeline(config(false));
  return { call: () => p.runColumnar({ docs, offsets, nDocs: D.maxColumnarEntries, modifiedAt, now: gen.NOW }), entries: docs.length };
});
add("rrf", `3 lists, ${EB("rrf") / 1000}k distinct ids`, () => {
  const lists = splitLists(3, EB("rrf"));
  return { call: () => lib.rrf(lists), entries: EB("rrf") };
});
add("rrf, long ids", "3 lists, 31k ids of 1 KB (32 MB)", () => {
  const n = Math.floor(D.maxTotalTextBytes / D.maxIdBytes) - 1;
  const lists = [0, 1, 2].map((l) => Array.from({ length: Math.floor(n / 3) }, (_, i) => `${l}/${i}/`.padEnd(D.maxIdBytes, "x")));
  return { call: () => lib.rrf(lists), entries: n };
});
add("rrfColumnar", "4 lists x 1M indices over 4M documents", () => {
  const per = D.maxListLength;
  const lists = D.maxColumnarEntries / per;
  const docs = new Uint32Array(lists * per);
  for (let l = 0; l < lists; l++) for (let i = 0; i < per; i++) docs[l * per + i] = (i * 7919 + l * 104729) % D.maxColumnarEntries;
  const offsets = Uint32Array.from({ length: lists + 1 }, (_, i) => i * per);
  return { call: () => lib.rrfColumnar(docs, offsets, D.maxColumnarEntries), entries: docs.length };
});
add("fuseMultiQuery", `3 queries, ${EB("fuseMultiQuery") / 1000}k hits`, () => {
  const queries = splitLists(3, EB("fuseMultiQuery")).map((l) => l.map((id, i) => ({ id, score: 1 - i / l.length })));
  return { call: () => lib.fuseMultiQuery(queries), entries: EB("fuseMultiQuery") };
});
add("rerank", `${EB("rerank") / 1000}k candidates with name, type, summary`, () => {
  const cands = Array.from({ length: EB("rerank") }, (_, d) => ({ id: gen.docId(d), name: gen.nameOf(d), type: gen.typeOf(d), score: 1 / (d + 1), summary: gen.summaryOf(d) }));
  return { call: () => lib.rerank(gen.QUERY, cands), entries: EB("rerank") };
});
add("rerank, texts", "31 candidates with 1 MB summaries + 1 MB query", () => {
  const n = Math.floor(D.maxTotalTextBytes / D.maxTextBytes) - 1;
  const cands = Array.from({ length: n }, (_, d) => ({ id: `d${d}`, name: "AuthTokenCache", type: "class", score: 1, summary: textOf(D.maxTextBytes - 64) }));
  const q = textOf(D.maxTextBytes - 64);
  return { call: () => lib.rerank(q, cands), entries: n };
});
// Hostile reranker queries (the matcher used to be quadratic): a 1 MB query of distinct
// words, and 64 long terms sharing their first 1,000 bytes against 1 MB of that byte,
// each with 31 candidates of 1 MB.
const TEXTS = Math.floor(D.maxTotalTextBytes / D.maxTextBytes) - 1;
add("rerank, 1 MB query of distinct words", `~150,000 distinct terms, ${TEXTS - 1} candidates with 1 MB summaries`, () => {
  let q = "";
  for (let i = 0; q.length < D.maxTextBytes - 16; i++) q += `w${i.toString(36)} `;
  const cands = Array.from({ length: TEXTS - 1 }, (_, d) => ({ id: `d${d}`, name: "x", score: 1, summary: textOf(D.maxTextBytes - 64) }));
  return { call: () => lib.rerank(q, cands), entries: TEXTS - 1 };
});
add("rerank, long terms vs 1 MB of one letter", `64 terms "a"x1000 + "b" + i, ${TEXTS - 1} candidates with 1 MB of "a"`, () => {
  const q = Array.from({ length: 64 }, (_, i) => "a".repeat(1000) + "b" + i.toString(36)).join(" ");
  const a = "a".repeat(D.maxTextBytes - 64);
  const cands = Array.from({ length: TEXTS - 1 }, (_, d) => ({ id: `d${d}`, name: "x", score: 1, summary: a }));
  return { call: () => lib.rerank(q, cands), entries: TEXTS - 1 };
});
const [S, L] = scoresAndLabels(D.maxListLength);
const numeric = (name, f) => add(name, "1M scores (Float64Array)", () => ({ call: f, entries: D.maxListLength }));
numeric("normalize (softmax)", () => lib.normalize(S, "softmax"));
add("normalize (min_max), number[]", "1M scores (array of numbers)", () => {
  const a = Array.from(S);
  return { call: () => lib.normalize(a, "min_max"), entries: a.length };
});
numeric("calibrate", () => lib.calibrate(S));
numeric("queryConfidence", () => lib.queryConfidence(S));
numeric("fitPlatt", () => lab.fitPlatt(S, L));
numeric("fitIsotonic", () => lab.fitIsotonic(S, L));
add("applyCalibration (isotonic)", "1M scores, a 1M-point isotonic model", () => {
  const x = Array.from({ length: D.maxListLength }, (_, i) => i / D.maxListLength);
  const model = { method: "isotonic", x, y: x };
  return { call: () => lab.applyCalibration(S, model), entries: D.maxListLength };
});
numeric("calibrationError", () => lab.calibrationError(S, L, { bins: 100 }));
numeric("proposeBands", () => lab.proposeBands(S, L));
add("parseTrecRun", `${EB("parseTrecRun") / 1000}k lines`, () => {
  const text = trecText(EB("parseTrecRun"), false);
  return { call: () => lab.parseTrecRun(text), entries: EB("parseTrecRun") };
});
add("parseQrels", `${EB("parseQrels") / 1000}k lines`, () => {
  const text = trecText(EB("parseQrels"), true);
  return { call: () => lab.parseQrels(text), entries: EB("parseQrels") };
});
add("evaluate", `qrels ${EB("evaluate") / 2000}k + run ${EB("evaluate") / 2000}k entries, ${EB("evaluate") / 200} queries, 4 metrics`, () => {
  const qrels = gen.qrelsObject(EB("evaluate") / 200, 100, 1);
  const r = run(EB("evaluate") / 200, 100, 2);
  return { call: () => lab.evaluate(qrels, r, ["ndcg@10", "map@100", "recall@100", "mrr"]), entries: EB("evaluate") };
});
add("evaluatePerQuery", "as above", () => {
  const qrels = gen.qrelsObject(EB("evaluatePerQuery") / 200, 100, 1);
  const r = run(EB("evaluatePerQuery") / 200, 100, 2);
  return { call: () => lab.evaluatePerQuery(qrels, r, ["ndcg@10", "map@100", "recall@100", "mrr"]), entries: EB("evaluatePerQuery") };
});
// fuseRuns: its own entry budget.
const FR = EB("fuseRuns");
add("fuseRuns (rrf)", `3 runs x ${Math.floor(FR / 300) * 100} entries, ${Math.floor(FR / 300)} queries`, () => {
  const runs = [0, 1, 2].map((s) => run(Math.floor(FR / 300), 100, s));
  return { call: () => lab.fuseRuns(runs, { method: "rrf" }), entries: 3 * Math.floor(FR / 300) * 100 };
});
add("fuseRuns (condorcet)", `64 runs x ${Math.floor(FR / 64)} distinct documents, 1 query`, () => {
  const per = Math.floor(FR / D.maxLists);
  const runs = Array.from({ length: D.maxLists }, (_, r) => ({ q: Object.fromEntries(Array.from({ length: per }, (_, i) => [`r${r}-d${i}`, 1 - i / per])) }));
  return { call: () => lab.fuseRuns(runs, { method: "condorcet" }), entries: per * D.maxLists };
});
add("fuseRuns (rbc)", `2 runs x ${FR / 2000}k entries, 1 query`, () => {
  const runs = [0, 1].map((s) => run(1, FR / 2, s));
  return { call: () => lab.fuseRuns(runs, { method: "rbc", params: { phi: 0.8 } }), entries: FR };
});
// optimizeFusion: runs and qrels share maxTotalEntries (2 runs of P entries, qrels of
// P / 10), and the configurations x (2P entries + P / 10 judgements) fill maxSearchWork.
const P = Math.floor(E / 2.1 / 100) * 100;
const TRIALS = Math.floor(D.maxSearchWork / (2 * P + P / 10));
add("optimizeFusion (wsum)", `2 runs x ${P} entries, ${TRIALS} configurations (step 1/${TRIALS - 1})`, () => {
  const runs = [1, 2].map((s) => run(P / 100, 100, s));
  const qrels = gen.qrelsObject(P / 100, 10, 0);
  return { call: () => lab.optimizeFusion(qrels, runs, { method: "wsum", metric: "ndcg@10", step: 1 / (TRIALS - 1) }), entries: 2.1 * P };
});
add("optimizeFusion (rrf)", `2 runs x ${P} entries, ${TRIALS} values of k`, () => {
  const runs = [1, 2].map((s) => run(P / 100, 100, s));
  const qrels = gen.qrelsObject(P / 100, 10, 0);
  const kValues = Array.from({ length: TRIALS }, (_, i) => 10 * (i + 1));
  return { call: () => lab.optimizeFusion(qrels, runs, { method: "rrf", metric: "ndcg@10", kValues }), entries: 2.1 * P };
});

// The costliest method per unit of maxSearchWork (a Borda count per configuration): 3
// runs at the default step 0.1, 66 weight vectors x (3 P3 entries + P3 / 10 judgements).
const P3 = Math.floor(D.maxSearchWork / 66 / 3.1 / 100) * 100;
add("optimizeFusion (w_bordafuse)", `3 runs x ${P3} entries, 66 weight vectors (step 0.1)`, () => {
  const runs = [1, 2, 3].map((s) => run(P3 / 100, 100, s));
  const qrels = gen.qrelsObject(P3 / 100, 10, 0);
  return { call: () => lab.optimizeFusion(qrels, runs, { method: "w_bordafuse", metric: "ndcg@10" }), entries: 3.1 * P3 };
});

// The longest grid: rbc's 99 values of phi (ranx's step 0.01, the default) x (2 PR
// entries + PR / 10 judgements).
const PR = Math.floor(D.maxSearchWork / 99 / 2.1 / 100) * 100;
add("optimizeFusion (rbc)", `2 runs x ${PR} entries, 99 values of phi (step 0.01)`, () => {
  const runs = [1, 2].map((s) => run(PR / 100, 100, s));
  const qrels = gen.qrelsObject(PR / 100, 10, 0);
  return { call: () => lab.optimizeFusion(qrels, runs, { method: "rbc", metric: "ndcg@10" }), entries: 2.1 * PR };
});

// fitQueryConfidence / predictQueryConfidence: 2 runs of P entries; qrels of one
// judgement per query, every other query judged 0 (so both classes occur).
const QC = Math.floor(E / 2.01 / 100);
const qcQrels = (runs) => Object.fromEntries(Array.from({ length: QC }, (_, q) => [`q${q}`, { [Object.keys(runs[0][`q${q}`])[0]]: q % 2 }]));
add("fitQueryConfidence", `2 runs x ${QC * 100} entries, ${QC} judged queries`, () => {
  const runs = [1, 2].map((s) => run(QC, 100, s));
  const qrels = qcQrels(runs);
  return { call: () => lab.fitQueryConfidence(qrels, runs), entries: 2 * QC * 100 + QC };
});
add("predictQueryConfidence", `2 runs x ${QC * 100} entries`, () => {
  const runs = [1, 2].map((s) => run(QC, 100, s));
  const model = lab.fitQueryConfidence(qcQrels(runs), runs);
  return { call: () => lab.predictQueryConfidence(model, runs), entries: 2 * QC * 100 };
});

// ------------------------------------------------------------------ measure

if (first !== null) {
  // A first call pays for growing the module's memory (and compiling the functions it
  // runs) with the caller's heap around it: what the first search of a page sees.
  const c = cases.find((x) => x.name === first);
  if (!c) throw new Error(`no case ${first}`);
  const built = c.build();
  const t0 = performance.now();
  built.call();
  console.log(JSON.stringify({ name: c.name, firstMs: performance.now() - t0 }));
  process.exit(0);
}

/** The first call of case `name` in a fresh process (`--first`), in ms. */
function firstCall(name) {
  const out = spawnSync(process.execPath, ["--max-old-space-size=8192", fileURLToPath(import.meta.url), "--first", name], { encoding: "utf8", maxBuffer: 1 << 24 });
  if (out.status !== 0) throw new Error(`--first ${name}: ${out.stderr.slice(-500)}`);
  return JSON.parse(out.stdout.trim().split("\n").pop()).firstMs;
}

const results = [];
console.error(`limits: ${JSON.stringify(D)}`);
console.error(`machine: ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, load ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
for (const c of cases) {
  if (only && !c.name.includes(only)) continue;
  let built;
  try {
    built = c.build();
    built.call();
  } catch (e) {
    results.push({ name: c.name, input: c.what, error: `${e.code ?? e.name}: ${e.message}` });
    console.error(`${c.name}: FAILED at the default limits: ${e.code ?? ""} ${e.message}`);
    continue;
  }
  const times = [];
  for (let i = 0; i < reps; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    built.call();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const r = { name: c.name, input: c.what, entries: built.entries, medianMs: times[Math.floor(times.length / 2)], maxMs: times[times.length - 1] };
  if (withFirst) r.firstMs = firstCall(c.name);
  results.push(r);
  const firstText = r.firstMs === undefined ? "" : `, first call in a fresh process ${r.firstMs.toFixed(0)} ms`;
  console.error(`${c.name.padEnd(40)} ${r.medianMs.toFixed(0).padStart(6)} ms (max ${r.maxMs.toFixed(0)}${firstText})  ${c.what}`);
}

// One entry over: refused, whatever the call.
const over = [
  ["rrf", () => lib.rrf(splitLists(1, EB("rrf") + 1))],
  // The item must be one a list names: an entry whose key is in no list is never read
  // nor counted (README, "The pipeline").
  ["Pipeline.run", () => {
    const listed = ids(EB("Pipeline"));
    return new lib.Pipeline().run({ lists: [{ name: "a", ids: listed }], items: { [listed[0]]: {} } });
  }],
  ["parseTrecRun", () => lab.parseTrecRun(trecText(EB("parseTrecRun") + 1, false))],
  ["fuseRuns", () => lab.fuseRuns([run(1, FR / 2 + 1, 1), run(1, FR / 2, 2)], { method: "sum" })],
  ["rrfColumnar", () => lib.rrfColumnar(new Uint32Array(D.maxColumnarEntries + 1), new Uint32Array([0, D.maxListLength, 2 * D.maxListLength, 3 * D.maxListLength, 4 * D.maxListLength, D.maxColumnarEntries + 1]), 1)],
];
const refused = [];
for (const [name, f] of over) {
  if (only && !name.includes(only)) continue;
  try {
    f();
    refused.push({ name, refused: false });
  } catch (e) {
    refused.push({ name, refused: e.code === "INPUT_TOO_LARGE", code: e.code, field: e.field });
  }
}
for (const r of refused) console.error(`one over the limit: ${r.name}: ${r.refused ? `INPUT_TOO_LARGE (${r.field})` : `NOT refused (${r.code})`}`);

const worst = results.filter((r) => r.medianMs !== undefined).sort((a, b) => b.medianMs - a.medianMs)[0];
const summary = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${cpus().length} x ${cpus()[0]?.model}`,
  loadavg: loadavg(),
  limits: D,
  results,
  oneOver: refused,
  slowest: worst && { name: worst.name, medianMs: worst.medianMs },
  slowestFirst: withFirst ? results.filter((r) => r.firstMs !== undefined).sort((a, b) => b.firstMs - a.firstMs).map((r) => ({ name: r.name, firstMs: r.firstMs }))[0] : undefined,
};
writeFileSync(outFile, JSON.stringify(summary, null, 2) + "\n");
if (summary.slowestFirst) console.log(`slowest first call (a fresh process): ${summary.slowestFirst.name} ${summary.slowestFirst.firstMs.toFixed(0)} ms`);
console.log(`slowest call at the default limits: ${worst?.name} ${worst?.medianMs.toFixed(0)} ms (median of ${reps}); ${results.filter((r) => r.error).length} failed; ${refused.filter((r) => !r.refused).length} over-limit inputs accepted. Wrote ${outFile}`);
if (results.some((r) => r.error) || refused.some((r) => !r.refused)) process.exit(1);
