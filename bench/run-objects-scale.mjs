// How the lab's run outputs scale with a run's size (docs/reliability.md, "The lab's
// budgets"; performance-history.md, "Tried again in the forty-fifth session").
//   node --max-old-space-size=8192 bench/run-objects-scale.mjs json [--sizes N,...]
//     `JSON.parse` of a run's JSON text (100 documents per query, ids unique to their
//     query) against the same objects built by assignment, each timed 4 times in one
//     process (sorted times printed).
//   node --max-old-space-size=8192 bench/run-objects-scale.mjs parse [--sizes N,...] [--int-ids] DIR...
//     `parseTrecRun`, `Run.fromTrec` and `parseQrels` of that many TREC lines (the limits
//     raised), for each build DIR (a package like pkg/), the builds interleaved call by
//     call: the median of 5 calls of each.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const mode = args[0];
const option = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const sizes = option("--sizes", "100000,200000,300000,400000").split(",").map(Number);
const intIds = args.includes("--int-ids");
const dirs = args.slice(1).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--sizes");
const docId = (q, r) => (intIds ? String((r * 13 + q * 7) % 100000) : `doc-${r * 13}-${q}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (f) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

if (mode === "json") {
  for (const n of sizes) {
    const run = {};
    const qids = [];
    const docs = [];
    const scores = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const q = Math.floor(i / 100);
      if (i % 100 === 0) qids.push(`q${q}`);
      docs.push(docId(q, i % 100));
      scores[i] = 1 - (i % 100) / 100;
      (run[`q${q}`] ??= {})[docs[i]] = scores[i];
    }
    const text = JSON.stringify(run);
    const assign = () => {
      const out = {};
      for (let q = 0, k = 0; q < qids.length; q++) {
        const o = {};
        for (let j = 0; j < 100 && k < n; j++, k++) o[docs[k]] = scores[k];
        out[qids[q]] = o;
      }
      return out;
    };
    const parsed = Array.from({ length: 4 }, () => time(() => JSON.parse(text))).sort((a, b) => a - b);
    const built = Array.from({ length: 4 }, () => time(assign)).sort((a, b) => a - b);
    console.log(`${n} entries: JSON.parse ${parsed.map((t) => t.toFixed(0)).join(" ")} ms; assignment ${built.map((t) => t.toFixed(0)).join(" ")} ms`);
  }
} else if (mode === "parse" && dirs.length > 0) {
  const labs = await Promise.all(dirs.map((d) => import(pathToFileURL(join(resolve(d), "lab.node.mjs")).href)));
  const text = (n, qrels) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const q = Math.floor(i / 100);
      const r = i % 100;
      out.push(qrels ? `q${q} 0 ${docId(q, r)} ${r % 3}` : `q${q} Q0 ${docId(q, r)} ${r + 1} ${(1 - r / 100).toFixed(6)} bench`);
    }
    return out.join("\n");
  };
  const calls = [
    ["parseTrecRun", false, (lab, t, limits) => lab.parseTrecRun(t, { limits })],
    ["Run.fromTrec", false, (lab, t, limits) => lab.Run.fromTrec(t, { limits }).free()],
    ["parseQrels", true, (lab, t, limits) => lab.parseQrels(t, { limits })],
  ];
  for (const n of sizes) {
    const limits = { maxTotalEntries: Math.max(n, 100_000) };
    for (const [name, qrels, call] of calls) {
      const t = text(n, qrels);
      const times = dirs.map(() => []);
      labs.forEach((lab) => call(lab, t, limits));
      for (let rep = 0; rep < 5; rep++) {
        const order = rep % 2 ? [...labs.keys()].reverse() : [...labs.keys()];
        for (const i of order) times[i].push(time(() => call(labs[i], t, limits)));
      }
      console.log(`${n} lines${intIds ? " (integer-like ids)" : ""}, ${name}: ${dirs.map((d, i) => `${d} ${median(times[i]).toFixed(1)} ms`).join(", ")}`);
    }
  }
} else {
  console.error("usage: node bench/run-objects-scale.mjs json [--sizes N,...] | parse [--sizes N,...] [--int-ids] DIR...");
  process.exit(2);
}
