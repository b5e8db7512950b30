// Compares two builds of calibrank/lab on runs and judgements given as objects: the
// result (every number by its bits, every key order) or the error (code and field) of
// each call, on hand-written cases and on random runs. Written for the move of run
// objects from JSON text to typed sections (docs/performance.md, "Run objects as typed
// sections"); any two package directories can be compared.
//
//   node bench/run-objects-probe.mjs OLD_PKG_DIR NEW_PKG_DIR [--random N] [--seed S]
//
// Prints each difference (the same error code and field with another message is not
// one; `--messages` lists those too) and a summary line; exits 1 on a difference.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const positional = args.filter((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1].startsWith("--") && args[i - 1] !== "--messages"));
if (positional.length < 2) {
  console.error("usage: node bench/run-objects-probe.mjs OLD_PKG_DIR NEW_PKG_DIR [--random N] [--seed S] [--messages]");
  process.exit(2);
}
const load = (dir) => import(pathToFileURL(resolve(dir, "lab.node.mjs")).href);
const OLD = await load(positional[0]);
const NEW = await load(positional[1]);
const RANDOM = Number(opt("--random", 3000));
let seed = Number(opt("--seed", 1)) >>> 0;
const showMessages = args.includes("--messages");

// ------------------------------------------------------------------ outcomes

const bitsView = new DataView(new ArrayBuffer(8));
const bits = (x) => {
  bitsView.setFloat64(0, x);
  return bitsView.getBigUint64(0).toString(16);
};
/** A value as text: numbers by their bits, keys in their order, handles as their objects. */
function canon(v) {
  if (typeof v === "number") return `n:${bits(v)}`;
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (typeof v.toObject === "function" && typeof v.free === "function") {
    const o = v.toObject();
    v.free();
    return `Handle(${canon(o)})`;
  }
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return `[${Array.from(v, canon).join(",")}]`;
  return `{${Object.keys(v)
    .map((k) => `${JSON.stringify(k)}:${canon(v[k])}`)
    .join(",")}}`;
}
function outcome(f) {
  try {
    return { ok: canon(f()) };
  } catch (e) {
    return { code: e.code ?? `(${e.constructor?.name}) ${e.message}`, field: e.field, message: e.message };
  }
}

let cases = 0;
let differences = 0;
let messageOnly = 0;
/** Runs `make(lib)` (a fresh input per build: no object is shared) with both builds. */
function compare(name, make, { quiet = false } = {}) {
  cases++;
  const a = outcome(() => make(OLD));
  const b = outcome(() => make(NEW));
  const same = a.ok !== undefined ? a.ok === b.ok : a.code === b.code && a.field === b.field;
  if (!same) {
    differences++;
    console.log(`DIFFERENT ${name}\n  old: ${show(a)}\n  new: ${show(b)}`);
  } else if (a.ok === undefined && a.message !== b.message) {
    messageOnly++;
    if (showMessages) console.log(`message ${name}\n  old: ${a.message}\n  new: ${b.message}`);
  } else if (!quiet) console.log(`same      ${name}: ${a.ok !== undefined ? "ok" : `${a.code} ${a.field}`}`);
}
const show = (o) => (o.ok !== undefined ? `ok ${o.ok.slice(0, 300)}` : `${o.code} ${o.field}: ${o.message}`);

// ------------------------------------------------------------------ the calls

const M = ["mrr", "ndcg@3", "map@5", "precision@2", "recall@4"];
const ev = (qrels, run, opts) => (L) => L.evaluate(qrels(), run(), M, opts);
const evq = (qrels, run) => (L) => L.evaluatePerQuery(qrels(), run(), M);
const fuse = (runs, opts) => (L) => L.fuseRuns(runs(), opts);
const runFrom = (o, opts) => (L) => L.Run.fromObject(o(), opts);
const qrelsFrom = (o, opts) => (L) => L.Qrels.fromObject(o(), opts);
const lim = (l) => ({ limits: l });

const Q = () => ({ q1: { d1: 2, d2: 0, d3: 1 }, q2: { a: 1 }, 10: { x: 1 }, 2: { y: 3 } });
const R = () => ({ q1: { d3: 1, d1: 1, d2: 0.5, d9: 1 }, q2: { b: 3, a: 3, c: -0 }, 2: { y: 0.25, 10: 0.25, 1: 0.25 }, 10: {} });

const fixed = [
  ["valid, ties, numeric-like keys", ev(Q, R)],
  ["per query", evq(Q, R)],
  ["trec_eval ties", ev(Q, R, { ties: "trec_eval" })],
  ["Run.fromObject", runFrom(R)],
  ["Qrels.fromObject", qrelsFrom(Q)],
  ["fuseRuns sum", fuse(() => [R(), { q1: { d1: 3, d4: 1 }, 7: { z: 1 } }], { method: "sum" })],
  ["fuseRuns rrf", fuse(() => [R(), R()], { method: "rrf" })],
  ["fuseRuns wsum", fuse(() => [R(), { q1: { d1: 3 } }], { method: "wsum", weights: [0.3, 0.7] })],
  ["fuseRuns of a fused run (ranked object)", (L) => L.fuseRuns([L.fuseRuns([R(), R()], { method: "rrf" }), R()], { method: "sum" })],
  ["evaluate a toObject() with 20 ties", (L) => {
    const r = L.Run.fromObject({ q: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`d${i}`, 1])) });
    const o = r.toObject();
    r.free();
    return L.evaluate({ q: { d7: 1, d13: 1 } }, o, M);
  }],
  ["empty queries", ev(() => ({ q: {} }), () => ({ q: {}, r: {} }))],
  ["empty run", ev(Q, () => ({}))],
  ["NaN score", ev(Q, () => ({ q1: { d1: 1, d2: NaN } }))],
  ["Infinity score", runFrom(() => ({ q1: { d1: Infinity } }))],
  ["-Infinity score in runs[1]", fuse(() => [R(), { q: { d: -Infinity } }], { method: "sum" })],
  ["NaN before a string score", ev(Q, () => ({ q1: { d1: NaN, d2: "x" } }))],
  ["qrels: negative and non-integer grades", ev(() => ({ q1: { d1: -1, d2: 0.5, d3: 2.75 } }), R)],
  ["qrels: NaN grade", ev(() => ({ q1: { d1: NaN, d3: 1 } }), R)],
  ["qrels: Infinity grade", qrelsFrom(() => ({ q1: { d1: Infinity } }))],
  ["huge and tiny scores", fuse(() => [{ q: { a: 1e308, b: 5e-324, c: 2 ** 53 + 2, d: -(2 ** 60) } }], { method: "sum" })],
  ["undefined values skipped", ev(() => ({ q1: { d1: 1, d2: undefined }, q9: undefined }), () => ({ q1: { d2: undefined, d1: 1 }, q3: undefined }))],
  ["string score", ev(Q, () => ({ q1: { d1: "1" } }))],
  ["null score", ev(Q, () => ({ q1: { d1: null } }))],
  ["boolean grade", ev(() => ({ q1: { d1: true } }), R)],
  ["bigint score", runFrom(() => ({ q1: { d1: 1n } }))],
  ["function score", runFrom(() => ({ q1: { d1() {} } }))],
  ["symbol grade", qrelsFrom(() => ({ q1: { d1: Symbol("x") } }))],
  ["object score", ev(Q, () => ({ q1: { d1: { v: 1 } } }))],
  ["array score", ev(() => ({ q1: { d1: [1] } }), R)],
  ["Date score", fuse(() => [{ q: { d: new Date(0) } }], { method: "sum" })],
  ["query value null", ev(Q, () => ({ q1: null }))],
  ["query value a number", ev(() => ({ q1: 3 }), R)],
  ["query value a string", fuse(() => [R(), { q1: "x" }], { method: "sum" })],
  ["query value an array", ev(Q, () => ({ q1: [1, 2] }))],
  ["query value a typed array", ev(Q, () => ({ q1: new Float64Array(2) }))],
  ["query value a Date", ev(Q, () => ({ q1: new Date(0) }))],
  ["run an array", ev(Q, () => [1])],
  ["qrels an array", ev(() => [], R)],
  ["run a typed array", ev(Q, () => new Float64Array(1))],
  ["run a string", runFrom(() => "q1")],
  ["runs[1] null", fuse(() => [R(), null], { method: "sum" })],
  ["runs[0] an array", fuse(() => [[], R()], { method: "sum" })],
  ["runs not an array", fuse(() => ({ 0: R() }), { method: "sum" })],
  ["run a Map", ev(Q, () => new Map([["q1", { d1: 1, d3: 2 }], ["2", new Map([["y", 1], ["1", 2]])]]))],
  ["qrels a Map with integer-like keys", ev(() => new Map([["q2", { a: 1 }], ["10", { x: 1 }], ["2", { y: 1 }]]), R)],
  ["Map with a number key", ev(Q, () => new Map([[1, { d: 1 }]]))],
  ["query Map with a number key", runFrom(() => ({ q: new Map([[1, 1]]) }))],
  ["lone surrogate in a query id", ev(Q, () => ({ ["q\uD800"]: { d: 1 } }))],
  ["lone surrogate in a doc id", ev(Q, () => ({ q1: { d: 1, ["\uDC00d"]: 1 } }))],
  ["lone surrogate in a judged doc id", ev(() => ({ q1: { d1: 1, ["\uDC00d"]: 1 } }), R)],
  ["lone surrogate in runs[1]", fuse(() => [R(), { q1: { ["\uD83D"]: 1 } }], { method: "sum" })],
  ["lone surrogate under a Map", ev(Q, () => new Map([["q1", { ["\uD800"]: 1 }]]))],
  ["lone surrogate after a type error", ev(Q, () => ({ q1: { d1: "x" }, ["\uD800"]: { d: 1 } }))],
  ["well-formed astral ids", ev(() => ({ "q😀": { "d😀": 1 } }), () => ({ "q😀": { "d😀": 1, "é": 2 } }))],
  ["cycle: query value is the run", ev(Q, () => {
    const r = { q1: { d: 1 } };
    r.q2 = r;
    return r;
  })],
  ["getter throws", ev(Q, () => ({ q1: { get d() { throw new Error("boom"); } } }))],
  ["keys with dots and brackets", ev(Q, () => ({ "a.b": { "c[0]": "x" } }))],
  ["unknown metric and a type error", (L) => L.evaluate(Q(), { q1: { d: "x" } }, ["nope"])],
  ["unknown option and a type error", (L) => L.evaluate(Q(), { q1: { d: "x" } }, ["mrr"], { ties: "x" })],
  ["maxTotalEntries at the edge", ev(Q, R, lim({ maxTotalEntries: 16 }))],
  ["maxTotalEntries one under", ev(Q, R, lim({ maxTotalEntries: 15 }))],
  ["maxTotalEntries on qrels", ev(Q, R, lim({ maxTotalEntries: 5 }))],
  ["maxTotalTextBytes at the edge", ev(Q, R, lim({ maxTotalTextBytes: 38 }))],
  ["maxTotalTextBytes one under", ev(Q, R, lim({ maxTotalTextBytes: 37 }))],
  ["maxTotalTextBytes non-ASCII", ev(() => ({ q: { "ééé": 1 } }), () => ({ q: { "ééé": 1, "€": 2 } }), lim({ maxTotalTextBytes: 17 }))],
  ["maxTotalTextBytes non-ASCII one under", ev(() => ({ q: { "ééé": 1 } }), () => ({ q: { "ééé": 1, "€": 2 } }), lim({ maxTotalTextBytes: 16 }))],
  ["maxTotalTextBytes crossed by qrels' bytes, not units", ev(() => ({ q: { "éééééé": 1 } }), () => ({ q: { abcdefghijk: 1 } }), lim({ maxTotalTextBytes: 12 }))],
  ["fuseRuns entries edge", fuse(() => [{ q: { a: 1, b: 2 } }, { q: { a: 1, c: 2 } }], { method: "sum", limits: { maxTotalEntries: 4 } })],
  ["fuseRuns entries over", fuse(() => [{ q: { a: 1, b: 2 } }, { q: { a: 1, c: 2 } }], { method: "sum", limits: { maxTotalEntries: 3 } })],
  ["fuseRuns maxLists", fuse(() => [R(), R(), R()], { method: "sum", limits: { maxLists: 2 } })],
  ["Run.fromObject entries over", runFrom(R, lim({ maxTotalEntries: 7 }))],
  ["Qrels.fromObject text over", qrelsFrom(Q, lim({ maxTotalTextBytes: 10 }))],
  ["invalid limits and a type error", ev(Q, () => ({ q: { d: "x" } }), lim({ maxTotalEntries: 0 }))],
  ["mixed Run and object", (L) => {
    const a = L.Run.fromObject(R());
    try {
      return L.fuseRuns([a, { q1: { d1: 3 } }], { method: "sum" });
    } finally {
      a.free();
    }
  }],
  ["mixed Run and bad object", (L) => {
    const a = L.Run.fromObject(R());
    try {
      return L.fuseRuns([a, { q1: { d1: "x" } }], { method: "sum" });
    } finally {
      a.free();
    }
  }],
  ["optimizeFusion", (L) => L.optimizeFusion(Q(), [R(), { q1: { d2: 5, d1: 1 }, q2: { a: 1 } }], { method: "wsum", metric: "ndcg@3", step: 0.25 })],
  ["optimizeFusion rrf", (L) => L.optimizeFusion(Q(), [R(), { q1: { d2: 5, d1: 1 } }], { method: "rrf", metric: "mrr", kValues: [1, 10, 60] })],
  ["fitQueryConfidence", (L) => L.fitQueryConfidence({ q1: { d1: 1 }, q2: { zz: 1 }, 2: { y: 1 }, 10: { nope: 1 } }, [R(), R()])],
  ["predictQueryConfidence", (L) => {
    const m = L.fitQueryConfidence({ q1: { d1: 1 }, q2: { zz: 1 }, 2: { y: 1 }, 10: { nope: 1 } }, [R(), R()]);
    return L.predictQueryConfidence(m, [R(), { q1: { a: 1 } }]);
  }],
  ["fitQueryConfidence bad qrels", (L) => L.fitQueryConfidence({ q1: { d1: "1" } }, [R()])],
  ["predictQueryConfidence bad run", (L) => {
    const m = L.fitQueryConfidence({ q1: { d1: 1 }, q2: { zz: 1 }, 2: { y: 1 }, 10: { nope: 1 } }, [R(), R()]);
    return L.predictQueryConfidence(m, [R(), { q1: null }]);
  }],
  ["null-prototype objects", ev(() => Object.assign(Object.create(null), { q1: Object.assign(Object.create(null), { d1: 1 }) }), () => Object.assign(Object.create(null), { q1: { d1: 2, d2: 3 } }))],
  ["__proto__ as an own key", ev(() => JSON.parse('{"q1":{"__proto__":1,"d1":1}}'), () => JSON.parse('{"__proto__":{"a":1},"q1":{"__proto__":2,"d1":1}}'))],
];
for (const [name, f] of fixed) compare(name, f);

// ------------------------------------------------------------------ random runs

function rand() {
  // mulberry32
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const int = (n) => Math.floor(rand() * n);
const IDS = ["a", "b", "c", "d1", "d2", "d10", "0", "1", "2", "10", "01", "-1", "1.5", "4294967294", "4294967295", "é", "😀", "x y", "__proto__", "constructor", ""];
const SCORES = [0, -0, 1, 1, 1, 0.5, 0.5, 2, -3, 1e-9, 0.1 + 0.2, 2 ** 53, 2 ** 53 + 2, 7.25, 1e300];
function randomRun(grades, bad) {
  const o = {};
  const nq = int(5);
  for (let q = 0; q < nq; q++) {
    const docs = {};
    const nd = int(24);
    for (let i = 0; i < nd; i++) {
      const id = rand() < 0.7 ? pick(IDS) : `d${int(40)}`;
      docs[id] = grades ? pick([0, 1, 2, 3, -1, 0.5]) : rand() < 0.5 ? pick(SCORES) : Math.round(rand() * 8) / 4;
    }
    o[rand() < 0.5 ? pick(IDS) : `q${int(6)}`] = docs;
  }
  if (bad && rand() < 0.15) {
    const qs = Object.keys(o);
    if (qs.length > 0) {
      const q = pick(qs);
      if (rand() < 0.5) o[q] = pick([null, "s", 3, [1], new Date(0)]);
      else o[q][pick(IDS)] = pick([NaN, Infinity, "1", null, true, { a: 1 }, undefined]);
    }
  }
  return o;
}
const FUSIONS = [
  { method: "sum" },
  { method: "mnz" },
  { method: "max" },
  { method: "rrf" },
  { method: "rbc", params: { phi: 0.8 } },
  { method: "isr" },
  { method: "bordafuse" },
  { method: "condorcet" },
  { method: "wsum", weights: [0.4, 0.6] },
  { method: "sum", norm: "zmuv" },
  { method: "mnz", norm: "rank" },
];
const t0 = performance.now();
const before = differences;
for (let i = 0; i < RANDOM; i++) {
  const s = seed;
  const state = () => {
    seed = s;
  };
  const which = i % 5;
  const make = (L) => {
    state();
    if (which === 0) return L.evaluate(randomRun(true, true), randomRun(false, true), M);
    if (which === 1) return L.evaluatePerQuery(randomRun(true, false), randomRun(false, true), M, { ties: rand() < 0.3 ? "trec_eval" : "ranx" });
    if (which === 2) return L.fuseRuns([randomRun(false, true), randomRun(false, false)], pick(FUSIONS));
    if (which === 3) return L.Run.fromObject(randomRun(false, true));
    return L.Qrels.fromObject(randomRun(true, true));
  };
  compare(`random #${i} (kind ${which}, seed ${s})`, make, { quiet: true });
  // Both builds read the same generator state; move on past it.
  state();
  make({ evaluate() {}, evaluatePerQuery() {}, fuseRuns() {}, Run: { fromObject() {} }, Qrels: { fromObject() {} } });
}
console.log(`random: ${RANDOM} calls in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${differences - before} different`);
console.log(`${cases} cases, ${differences} different, ${messageOnly} with the same code and field but another message`);
process.exit(differences > 0 ? 1 : 0);
