// `rrf` and `Pipeline.run` on two builds, for changes to how their strings and tables
// cross (docs/performance-history.md, "Strings read once"; written by the review of that change):
//   node bench/strings-parity.mjs A B [--seed S] [--cases N] [--max N]
// Random calls (list totals around 63/64/65, 95-97 string units, 4,095/4,096/4,097 and
// up to --max entries, now and then about 65,536 (the scratch's bound for a kept table
// until 2026-11-28: such tables are kept too now, and grown); duplicate, non-ASCII,
// astral, lone-surrogate, empty, long and non-string ids; limits that fail the call;
// Proxy lists whose traps call `rrf` or `Pipeline.run` again, or throw; six pipeline
// configurations with items, texts, `now`, scores and weights), each followed by a
// small call that would show a corrupted state. Results compare as bits, errors by
// code, field and message (bench/parity.mjs). Prints the differences (at most 20) and
// a summary line; 1,500 cases take about 15 s.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { lcg, outcome } from "./parity.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : Number(args.splice(i, 2)[1]);
};
const seed0 = opt("--seed", 1);
const CASES = opt("--cases", 1500);
const MAXN = opt("--max", 20000);
if (args.length !== 2) throw new Error("usage: node bench/strings-parity.mjs A B [--seed S] [--cases N] [--max N]");
const [OLD, NEW] = await Promise.all(args.map((d) => import(pathToFileURL(join(resolve(d), "node.mjs")).href)));
// A generator per case (the seed kept below 2^31, lcg's modulus).
const rng = (seed) => lcg((seed >>> 0) % 2147483647 || 1).rnd;

// ---------------------------------------------------------------- generators
function makeGen(R) {
  const int = (n) => Math.floor(R() * n);
  const pick = (a) => a[int(a.length)];
  const pieces = ["a", "b", "doc", "x", "é", "\u00ff", "\u{1F600}", "\uD800", "\uDC00", "\uDBFF", "ü", "z", "-", "\u0000", "ab", "\u4e2d"];
  return {
    int, pick, R,
    id(mode, i) {
      // mode: "ascii", "mixed", "weird"
      if (mode === "ascii") {
        const r = R();
        if (r < 0.02) return "";
        if (r < 0.05) return "L".repeat(100 + int(900)) + i;
        return "d" + i.toString(36) + (R() < 0.3 ? "x".repeat(int(10)) : "");
      }
      let s = R() < 0.5 ? "d" + i : "";
      const n = int(mode === "weird" ? 4 : 2);
      for (let k = 0; k < n; k++) s += mode === "weird" ? pick(pieces) : pick(["a", "é", "\u{1F600}", "q"]);
      if (R() < 0.01) s += "é".repeat(int(300));
      return s;
    },
  };
}

const SIZES = [1, 5, 31, 32, 33, 48, 63, 64, 65, 95, 96, 97, 127, 128, 200, 1000, 4095, 4096, 4097, 5000, 8191, 8192, 10000, 16384];
function pickTotal(g) {
  const r = g.R();
  if (r < 0.7) {
    const s = g.pick(SIZES);
    return Math.max(1, Math.min(MAXN, s + (g.R() < 0.3 ? g.int(3) - 1 : 0)));
  }
  if (r < 0.95) return 1 + g.int(Math.min(MAXN, 6000));
  return Math.min(MAXN, 65530 + g.int(20));
}

/** Lists as plain data: { lists: [[...]], spec } */
function makeLists(g, total) {
  const nLists = 1 + g.int(Math.min(6, total));
  // split total across lists
  const cuts = Array.from({ length: nLists - 1 }, () => g.int(total + 1)).sort((a, b) => a - b);
  const lens = [];
  let prev = 0;
  for (const c of [...cuts, total]) { lens.push(c - prev); prev = c; }
  const mode = g.pick(["ascii", "ascii", "ascii", "mixed", "weird"]);
  const dupRate = g.pick([0, 0.1, 0.5, 0.9]);
  const pool = [];
  let counter = g.int(1000);
  const lists = lens.map((n) => {
    const l = [];
    const seen = new Set();
    for (let j = 0; j < n; j++) {
      let id;
      if (pool.length > 0 && g.R() < dupRate) id = g.pick(pool);
      else { id = g.id(mode, counter++); pool.push(id); }
      l.push(id);
    }
    return l;
  });
  // A non-ASCII id once in an otherwise ASCII table (at a random spot)
  if (mode === "ascii" && g.R() < 0.15 && total > 0) {
    const li = g.int(nLists);
    if (lists[li].length) lists[li][g.int(lists[li].length)] = g.pick(["é", "\uD800", "\u{1F600}", "zé" + g.int(9)]);
  }
  return lists;
}

/** Some caller-code hooks: a plan applied to lists for a given lib. */
function makePlan(g, lists) {
  const plan = { bad: null, proxy: null, reentrant: null };
  const total = lists.reduce((a, l) => a + l.length, 0);
  if (g.R() < 0.12 && total > 0) {
    let li = g.int(lists.length);
    while (lists[li].length === 0) li = (li + 1) % lists.length;
    plan.bad = { li, j: g.int(lists[li].length), v: g.pick([5, null, undefined, {}, ["a"], 1.5, true]) };
  }
  if (g.R() < 0.15 && total > 0) {
    let li = g.int(lists.length);
    while (lists[li].length === 0) li = (li + 1) % lists.length;
    plan.reentrant = {
      li,
      j: g.int(lists[li].length),
      kind: g.pick(["rrf-small", "rrf-big", "rrf-huge", "pipe-small", "pipe-big", "throw", "rrf-err"]),
    };
  }
  if (g.R() < 0.1) plan.proxy = true;
  return plan;
}

function innerInputs(seed) {
  const g = makeGen(rng(seed));
  const a = makeLists(g, 70 + g.int(60));
  const b = makeLists(g, 5 + g.int(20));
  const big = makeLists(g, 4096 + g.int(300));
  return { a, b, big };
}

function applyPlan(lib, lists, plan, log, pipe, seed) {
  const out = lists.map((l) => l.slice());
  if (plan.bad) out[plan.bad.li][plan.bad.j] = plan.bad.v;
  if (plan.reentrant) {
    const { li, j, kind } = plan.reentrant;
    const ins = innerInputs(seed);
    const key = String(j);
    let done = false;
    out[li] = new Proxy(out[li], {
      get(t, k, r) {
        if (k === key && !done) {
          done = true;
          const f = {
            "rrf-small": () => lib.rrf(ins.b),
            "rrf-big": () => lib.rrf(ins.a),
            "rrf-huge": () => lib.rrf(ins.big),
            "pipe-small": () => pipe.run({ lists: ins.b.map((ids, i) => ({ name: "n" + i, ids })) }),
            "pipe-big": () => pipe.run({ query: "d é", lists: ins.big.map((ids, i) => ({ name: "n" + i, ids })) }),
            "rrf-err": () => lib.rrf([...ins.a, [1]]),
            throw: () => { throw new RangeError("trap threw"); },
          }[kind];
          log.push(outcome(f));
          if (kind === "throw") throw new RangeError("trap threw");
        }
        return Reflect.get(t, k, r);
      },
    });
  }
  if (plan.proxy) return out.map((l, i) => (plan.reentrant && plan.reentrant.li === i ? l : new Proxy(l, {})));
  return out;
}

function rrfOptions(g, lists) {
  const r = g.R();
  const ids = new Set(lists.flat());
  let units = 0;
  for (const id of ids) if (typeof id === "string") units += id.length;
  const total = lists.reduce((a, l) => a + l.length, 0);
  if (r < 0.4) return undefined;
  if (r < 0.5) return { k: g.pick([1, 60, 0.5, 1e9]) };
  if (r < 0.58) return { weights: lists.map(() => g.pick([1, 2, 0.5, 0])) };
  if (r < 0.7) return { limits: { maxTotalTextBytes: Math.max(1, units + g.int(7) - 3 - (g.R() < 0.3 ? g.int(units + 1) : 0)) } };
  if (r < 0.78) return { limits: { maxTotalEntries: Math.max(1, total + g.int(3) - 1) } };
  if (r < 0.83) return { limits: { maxIdBytes: g.pick([1, 4, 16, 1000]) } };
  if (r < 0.87) return { limits: new Map([["maxTotalTextBytes", 10]]) };
  if (r < 0.9) return { limits: { maxTotalEntries: 0 } };
  if (r < 0.94) return { k: 30, weights: lists.map(() => 1), limits: { maxTotalTextBytes: Math.max(1, units - 1) } };
  return { k: 7, extra: true };
}

// ---------------------------------------------------------------- pipeline
const CONFIGS = [
  { topK: 1000, topN: 1000, minConfidence: 0 },
  { topK: 100000, topN: 100000, minConfidence: 0, explain: false },
  { rerank: { method: "heuristic" } },
  { topK: 50, topN: 50, minConfidence: 0, rerank: { method: "heuristic" } },
  { topK: 20000, topN: 20000, minConfidence: 0, explain: false, limits: { maxTotalTextBytes: 200000 } },
  { topK: 40, topN: 40, minConfidence: 0, explain: true, rerank: { method: "heuristic", candidateLimit: 8 }, limits: { maxTotalTextBytes: 100000 } },
];

function pipeInput(g, ls, plan, lists) {
  const input = { lists: ls.map((ids, i) => {
    const l = { name: g.R() < 0.1 ? "é" + i : "list" + i, ids };
    if (g.R() < 0.3) l.scores = lists[i].map((_, j) => 1 - j / (lists[i].length + 1));
    if (g.R() < 0.3) l.weight = g.pick([1, 2, 0.5]);
    return l;
  }) };
  if (g.R() < 0.85) input.query = g.pick(["doc", "d é", "x".repeat(50), "graph cache token für Über", "doc", "\u{1F600} a"]);
  if (g.R() < 0.85) input.now = g.pick([1.7e12, "2026-01-01T00:00:00Z", new Date(1.7e12)]);
  if (g.R() < 0.6) {
    const items = {};
    const all = [...new Set(lists.flat().filter((x) => typeof x === "string"))];
    const m = g.pick([0, 5, 60, all.length]);
    for (let i = 0; i < Math.min(m, all.length); i++) {
      const id = all[g.int(all.length)];
      const it = {};
      if (g.R() < 0.7) it.modifiedAt = g.R() < 0.5 ? 1.6e12 + g.int(1e11) : new Date(1.6e12 + g.int(1e11)).toISOString();
      if (g.R() < 0.5) it.name = "name " + id.slice(0, 10);
      if (g.R() < 0.3) it.type = g.pick(["doc", "code"]);
      if (g.R() < 0.4) it.summary = "summary of doc " + g.pick(["graph", "cache", "é", "token"]);
      items[id] = it;
    }
    for (let i = 0; i < g.int(20); i++) items["extra-" + i] = { name: "extra " + i, summary: g.pick(["x", "é".repeat(3)]) };
    if (g.R() < 0.05) items["extra-bad"] = { name: 5 };
    input.items = items;
  }
  if (g.R() < 0.05) input.context = { language: "go" };
  return input;
}

// ---------------------------------------------------------------- main
let n = 0, diffs = 0;
const stats = { rrfOK: 0, rrfErr: 0, pipeOK: 0, pipeErr: 0, reent: 0, big4096: 0, over64: 0 };
const pipesOld = CONFIGS.map((c) => new OLD.Pipeline(c));
const pipesNew = CONFIGS.map((c) => new NEW.Pipeline(c));
const innerOld = new OLD.Pipeline({ topK: 10000, topN: 10000, minConfidence: 0 });
const innerNew = new NEW.Pipeline({ topK: 10000, topN: 10000, minConfidence: 0 });
const t0 = Date.now();
for (let c = 0; c < CASES; c++) {
  const seed = seed0 * 1000003 + c;
  const g = makeGen(rng(seed));
  const total = pickTotal(g);
  const lists = makeLists(g, total);
  const plan = makePlan(g, lists);
  if (total >= 64) stats.over64++;
  if (total >= 4096) stats.big4096++;
  if (plan.reentrant) stats.reent++;
  const doPipe = g.R() < 0.5;
  let res = [];
  for (const [lib, pipes, inner] of [[OLD, pipesOld, innerOld], [NEW, pipesNew, innerNew]]) {
    const gg = makeGen(rng(seed ^ 0x5bd1e995));
    const log = [];
    const ls = applyPlan(lib, lists, plan, log, inner, seed + 7);
    let r;
    if (!doPipe) {
      const opts = rrfOptions(gg, lists);
      let optsArg = opts;
      if (opts && gg.R() < 0.1) {
        // toJSON on the options (JSON path) calling rrf re-entrantly after the interning
        const ins = innerInputs(seed + 11);
        optsArg = { ...opts, limits: new Map([["maxTotalEntries", 1e6]]), toJSON() { log.push(outcome(() => lib.rrf(ins.a))); return { k: opts.k ?? 60 }; } };
      }
      r = outcome(() => lib.rrf(ls, optsArg));
    } else {
      const ci = gg.int(CONFIGS.length);
      const input = pipeInput(gg, ls, plan, lists);
      r = `cfg${ci} ` + outcome(() => pipes[ci].run(input));
    }
    // a follow-up small call to catch state corruption
    const follow = outcome(() => lib.rrf([["a", "b", "é"], ["b", "c"]]));
    res.push({ r, log: log.join("\n"), follow });
  }
  const [a, b] = res;
  if (/^(cfg\d )?ERR /.test(b.r)) doPipe ? stats.pipeErr++ : stats.rrfErr++;
  else doPipe ? stats.pipeOK++ : stats.rrfOK++;
  n++;
  if (a.r !== b.r || a.log !== b.log || a.follow !== b.follow) {
    diffs++;
    console.log(`DIFF seed=${seed} total=${total} pipe=${doPipe} plan=${JSON.stringify(plan)}`);
    const cut = (s) => (s.length > 600 ? s.slice(0, 600) + `...(${s.length})` : s);
    if (a.r !== b.r) console.log("  old:", cut(a.r), "\n  new:", cut(b.r));
    if (a.log !== b.log) console.log("  oldlog:", cut(a.log), "\n  newlog:", cut(b.log));
    if (a.follow !== b.follow) console.log("  follow old:", a.follow, "\n  follow new:", b.follow);
    if (diffs > 20) break;
  }
}
console.log(`seed=${seed0} cases=${n} diffs=${diffs} ${JSON.stringify(stats)} ${((Date.now() - t0) / 1000).toFixed(1)}s`);
