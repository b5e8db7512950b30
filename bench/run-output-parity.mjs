// The lab's run outputs on two builds of the package (A, B: directories like pkg/):
// `parseTrecRun`, `parseQrels`, `fuseRuns` given objects, and `Run` / `Qrels`
// `toObject()`, on 2,000 random TREC texts and runs (integer-like ids, which objects
// order first, "__proto__" and other Object.prototype names as ids, non-ASCII ids, ties,
// repeated lines, negative zero, NaN and infinite scores in runs given as objects, bad
// lines), compared as JSON text with every number as its bits (key order counts) plus
// each object's prototype, errors by code, field and message. Then the time of each on
// CISI (`../shared/data/cisi`), medians of 7 rounds.
//   node bench/run-output-parity.mjs A B [--cases N]
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { lcg, outcome } from "./parity.mjs";

const args = process.argv.slice(2);
const cases = args.includes("--cases") ? Number(args[args.indexOf("--cases") + 1]) : 2000;
const [A, B] = args.filter((x, i) => !x.startsWith("--") && args[i - 1] !== "--cases");
if (!A || !B) throw new Error("usage: node bench/run-output-parity.mjs A B [--cases N]");
const a = await import(pathToFileURL(`${A}/lab.node.mjs`).href);
const b = await import(pathToFileURL(`${B}/lab.node.mjs`).href);

const shape = (o) => {
  if (typeof o !== "object" || o === null) return o;
  const protos = [Object.getPrototypeOf(o) === Object.prototype];
  for (const k of Object.keys(o)) if (typeof o[k] === "object" && o[k] !== null) protos.push(Object.getPrototypeOf(o[k]) === Object.prototype);
  return protos.join("");
};
const text = (f) => outcome(f, { suffix: shape });

const { rnd, pick } = lcg(7);
// Ids of TREC lines have no spaces; objects' ids may.
const IDS = ["d1", "10", "2", "007", "__proto__", "constructor", "toString", "dé", "文書", "-1", "1e3", "4294967295", "4294967294"];
const QIDS = ["q1", "2", "10", "__proto__", "hasOwnProperty", "qé"];
const OBJECT_IDS = [...IDS, "x y", ""];
const score = () => {
  const r = rnd();
  return r < 0.05 ? "-0" : r < 0.1 ? "0" : (rnd() * 20 - 5).toFixed(Math.floor(rnd() * 6));
};
// One call in ten gets one bad line (a short line, a NaN or overflowing score, a negative
// grade), so that errors are compared too.
const bad = (lines, line) => {
  if (rnd() < 0.1) lines.splice(Math.floor(rnd() * (lines.length + 1)), 0, line);
  return lines.join("\n");
};

function trecRun() {
  const lines = [];
  for (let i = Math.floor(rnd() * 14); i > 0; i--) lines.push(`${pick(QIDS)} Q0 ${pick(IDS)} ${1 + Math.floor(rnd() * 9)} ${score()} run`);
  return bad(lines, pick(["bad line", "q Q0 d 1 nan run", "q Q0 d 1 1e309 run"]));
}
function trecQrels() {
  const lines = [];
  for (let i = Math.floor(rnd() * 12); i > 0; i--) lines.push(`${pick(QIDS)} 0 ${pick(IDS)} ${Math.floor(rnd() * 4)}`);
  return bad(lines, pick(["q 0", "q 0 d -2"]));
}
function runObject() {
  const run = {};
  for (let i = Math.floor(rnd() * 4); i > 0; i--) {
    const docs = {};
    for (let j = Math.floor(rnd() * 6); j > 0; j--) {
      const r = rnd();
      const v = r < 0.05 ? -0 : r < 0.08 ? NaN : r < 0.1 ? Infinity : r < 0.15 ? 1 : rnd() * 10;
      Object.defineProperty(docs, pick(OBJECT_IDS), { value: v, enumerable: true, writable: true, configurable: true });
    }
    Object.defineProperty(run, pick(QIDS), { value: docs, enumerable: true, writable: true, configurable: true });
  }
  return run;
}

let diff = 0;
let errors = 0;
const compare = (what, f) => {
  const x = text(() => f(a));
  const y = text(() => f(b));
  if (x.startsWith("ERR")) errors++;
  if (x !== y && diff++ < 5) console.log(`${what}:\n A ${x.slice(0, 300)}\n B ${y.slice(0, 300)}`);
};
for (let t = 0; t < cases; t++) {
  const run = trecRun();
  const qrels = trecQrels();
  compare("parseTrecRun", (lib) => lib.parseTrecRun(run));
  compare("parseQrels", (lib) => lib.parseQrels(qrels));
  const objs = [runObject(), runObject()];
  const method = pick(["rrf", "sum", "max", "mnz", "wsum"]);
  const options = { method, ...(rnd() < 0.5 ? { norm: pick(["min-max", "max", "sum", "zmuv", "rank"]) } : {}) };
  compare("fuseRuns", (lib) => lib.fuseRuns(objs, options));
  compare("Run.toObject", (lib) => {
    const r = lib.Run.fromTrec(run);
    try {
      return r.toObject();
    } finally {
      r.free();
    }
  });
  compare("Qrels.toObject", (lib) => {
    const q = lib.Qrels.fromObject(lib.parseQrels(qrels));
    try {
      return q.toObject();
    } finally {
      q.free();
    }
  });
}
console.log(`${cases} x 5 random calls: ${diff} differ (${errors} errors on A)`);

// CISI: the outputs at their size.
const cisi = join(dirname(fileURLToPath(import.meta.url)), "../../shared/data/cisi");
let texts;
try {
  texts = ["run.bm25.txt", "run.dense.txt", "qrels.txt"].map((f) => readFileSync(join(cisi, f), "utf8"));
} catch {
  console.log(`CISI not found at ${cisi}: timings skipped`);
  process.exit(0);
}
const median = (xs) => xs.slice().sort((u, v) => u - v)[xs.length >> 1];
const time = (f, reps = 10) => {
  const t = performance.now();
  for (let i = 0; i < reps; i++) f();
  return (performance.now() - t) / reps;
};
const work = (lib) => {
  const runs = texts.slice(0, 2).map((t) => lib.parseTrecRun(t));
  const handle = lib.Run.fromTrec(texts[0]);
  return {
    "parseTrecRun (both runs)": () => texts.slice(0, 2).map((t) => lib.parseTrecRun(t)),
    parseQrels: () => lib.parseQrels(texts[2]),
    "fuseRuns (rrf, objects)": () => lib.fuseRuns(runs, { method: "rrf" }),
    "Run.toObject": () => handle.toObject(),
  };
};
const ws = [work(a), work(b)];
const rows = Object.keys(ws[0]).map((k) => [k, [], []]);
for (let r = 0; r < 7; r++)
  for (const row of rows)
    for (let i = 0; i < 2; i++) row[i + 1].push(time(ws[i][row[0]]));
for (const [k, x, y] of rows) console.log(`CISI ${k}: A ${median(x).toFixed(2)} ms, B ${median(y).toFixed(2)} ms`);
