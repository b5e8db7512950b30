// `Pipeline.run` with explanations on two builds of the package (A, B: directories like
// pkg/): 3,000 random pipelines and inputs (every rerank method, step and fiscal-year
// recency, every normalization and calibration, band profiles chosen by `context`, list
// scores with -0, weights up to 1e308, repeated ids, items in no list) compared as JSON
// text with every number as its IEEE 754 bits (so -0 and key order count), errors by
// code, field and message. (A non-finite value never reaches an explanation: the run
// refuses an infinite fused score with NON_FINITE_SCORE.) Then the time of the RAG call
// (workload c, 3 x 20) with and without explanations on each build.
//   node bench/explain-parity.mjs A B [--calls N]
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import { lcg, outcome as text } from "./parity.mjs";

const args = process.argv.slice(2);
const calls = args.includes("--calls") ? Number(args[args.indexOf("--calls") + 1]) : 3000;
const [A, B] = args.filter((x, i) => !x.startsWith("--") && args[i - 1] !== "--calls");
if (!A || !B) throw new Error("usage: node bench/explain-parity.mjs A B [--calls N]");
const a = await import(pathToFileURL(`${A}/node.mjs`).href);
const b = await import(pathToFileURL(`${B}/node.mjs`).href);

const run = (lib, cfg, input) => {
  let p;
  try {
    p = new lib.Pipeline(cfg);
  } catch (e) {
    return `ERR ${e.code} ${e.field} ${e.message}`;
  }
  try {
    return text(() => p.run(input));
  } finally {
    p.free();
  }
};

const { rnd, pick, int } = lcg(11);
const DAY = 86_400_000;
const NOW = 1_767_225_600_000;
const WORDS = ["auth", "token", "cache", "graph", "router", "Query", "parser", "config", "é", "ünïcode"];
const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(" ");

function config() {
  const cfg = { explain: true, minConfidence: pick([0, 0, 0.3]) };
  if (rnd() < 0.5) cfg.k = 1 + int(80);
  const topK = 1 + int(15);
  cfg.topK = topK;
  cfg.topN = 1 + int(topK);
  if (rnd() < 0.3) cfg.weights = { semantic: rnd() * 3, keyword: rnd() < 0.1 ? 1e308 : rnd() };
  const mode = pick(["step", "fiscal_year", "none", undefined]);
  if (mode) cfg.recency = { mode, ...(mode === "fiscal_year" ? { fiscalYear: { window: 1 + int(6), latestYear: 2020 + int(6) }, boost: rnd() } : {}) };
  const method = pick(["none", "heuristic", "cross_encoder", undefined]);
  if (method) cfg.rerank = { method, ...(rnd() < 0.3 ? { candidateLimit: 1 + int(topK) } : {}), ...(rnd() < 0.3 ? { recencyBoost: rnd() } : {}) };
  const norm = pick(["none", "max", "min_max", "z_score", "softmax", undefined]);
  if (norm) cfg.normalization = { method: norm };
  const cal = rnd();
  if (cal < 0.2) cfg.calibration = { method: "platt", a: -rnd() * 10, b: -rnd() * 5 };
  else if (cal < 0.35) cfg.calibration = { method: "isotonic", x: [0, 0.3, 0.6, 1], y: [0, 0.2, 0.7, 1] };
  else if (cal < 0.5) cfg.calibration = { method: "sigmoid", threshold: rnd() * 0.1, steepness: 10 + rnd() * 200 };
  if (rnd() < 0.4)
    cfg.bands = {
      profiles: [
        { name: "ts-strict", taskClass: "code", language: "typescript", highFloor: 0.9, degradedFloor: 0.7 },
        { name: "code", taskClass: "code", highFloor: 0.6, degradedFloor: 0.2 },
      ],
    };
  return cfg;
}

function input() {
  const scored = rnd() < 0.95;
  const nLists = 1 + int(4);
  const names = ["semantic", "keyword", "graph", "recent"];
  const universe = 1 + int(25);
  const lists = [];
  for (let i = 0; i < nLists; i++) {
    const n = int(12);
    const l = { name: names[i], ids: Array.from({ length: n }, () => `d${int(universe)}`) };
    if (rnd() < 0.4) l.scores = Array.from({ length: n }, () => (rnd() < 0.1 ? -0 : rnd() * 10));
    if (rnd() < 0.2) l.weight = rnd() < 0.1 ? 1e308 : rnd() * 2;
    lists.push(l);
  }
  const items = {};
  for (let d = 0; d < universe + 3; d++) {
    if (rnd() < (scored ? 0.03 : 0.3)) continue;
    const m = {};
    if (rnd() < 0.6) m.modifiedAt = rnd() < 0.5 ? NOW - int(60) * DAY : new Date(NOW - int(60) * DAY).toISOString();
    if (rnd() < 0.4) m.fiscalYear = 2015 + int(12);
    if (rnd() < 0.6) m.name = words(1 + int(2)).replace(/ /g, "");
    if (rnd() < 0.5) m.type = pick(["class", "function", "document"]);
    if (rnd() < 0.5) m.summary = words(3 + int(8));
    if (rnd() < 0.2) m.content = words(int(4));
    if (scored || rnd() < 0.5) m.crossEncoderScore = rnd() * 8 - 4;
    items[`d${d}`] = m;
  }
  const x = { query: rnd() < 0.95 ? "auth token cache for the graph router" : undefined, lists, items, now: NOW };
  if (rnd() < 0.4) x.context = pick([{ taskClass: "code", language: "typescript" }, { taskClass: "code" }, { language: "rust" }]);
  return x;
}

let diff = 0;
let errors = 0;
let explained = 0;
for (let t = 0; t < calls; t++) {
  const cfg = config();
  const x = input();
  const p = run(a, cfg, x);
  const q = run(b, cfg, x);
  if (p.startsWith("ERR")) errors++;
  else if (p.includes('"explain"')) explained++;
  if (p !== q && diff++ < 3) console.log(`call ${t}:\n A ${p.slice(0, 400)}\n B ${q.slice(0, 400)}`);
}
console.log(`${calls} random pipelines with explain: ${diff} differ (${explained} gave explained results, ${errors} errors)`);

// The RAG call of workload (c), with and without explanations.
const x = gen.makeInputs(20).inputC;
const cfgC = gen.pipelineConfig(true);
const time = (p, reps) => {
  const t = performance.now();
  for (let i = 0; i < reps; i++) p.run(x);
  return ((performance.now() - t) / reps) * 1000;
};
const builds = [
  [A, a],
  [B, b],
].map(([dir, lib]) => ({ dir, on: new lib.Pipeline({ ...cfgC, explain: true }), off: new lib.Pipeline({ ...cfgC, explain: false }), rows: [] }));
for (const s of builds) time(s.on, 3000), time(s.off, 3000);
for (let r = 0; r < 7; r++) for (const s of builds) s.rows.push([time(s.on, 1000), time(s.off, 1000)]);
const median = (xs) => xs.slice().sort((u, v) => u - v)[xs.length >> 1];
for (const s of builds) console.log(`${s.dir}: RAG call (workload c, 3 x 20) with explain ${median(s.rows.map((r) => r[0])).toFixed(1)} us, without ${median(s.rows.map((r) => r[1])).toFixed(1)} us (medians of 7 rounds of 1,000 calls)`);
