// `fuseMultiQuery` on two builds of the package (A, B: directories like pkg/): 3,000 random
// calls (ties, repeated ids, epoch / ISO / invalid / NaN / -0 timestamps, every method,
// thresholds, verbose) compared by result bits and by error code, field and message.
// With --time: then 3 queries of 10, 1,000 and 100,000 hits (bench/gen.mjs's lists and
// ids, scores by rank), default options, on each build: medians of 7 rounds.
//   node bench/multiquery-parity.mjs A B [--time]
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import { lcg, outcome } from "./parity.mjs";
const [A, B] = process.argv.slice(2).filter((x) => !x.startsWith("--"));
const a = await import(pathToFileURL(`${A}/node.mjs`).href);
const b = await import(pathToFileURL(`${B}/node.mjs`).href);
const run = (lib, q, o) => outcome(() => lib.fuseMultiQuery(q, o));
const { rnd } = lcg(3);
const ts = () => { const r = rnd(); return r < 0.4 ? undefined : r < 0.6 ? Math.floor(rnd() * 2e12) : r < 0.8 ? "2024-0" + (1 + Math.floor(rnd() * 9)) + "-1" + Math.floor(rnd() * 9) : r < 0.85 ? "bad" : r < 0.9 ? NaN : -0; };
let diff = 0;
for (let t = 0; t < 3000; t++) {
  const q = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Array.from({ length: Math.floor(rnd() * 8) }, () => { const h = { id: "d" + Math.floor(rnd() * 12), score: rnd() < 0.1 ? 0.5 : rnd() }; const x = ts(); if (x !== undefined) h.timestamp = x; return h; }));
  const o = { method: ["rrf", "score_sum", "score_max"][t % 3], similarityThreshold: rnd() < 0.5 ? 0 : 0.3, resultsPerQuery: 1 + Math.floor(rnd() * 8), verbose: rnd() < 0.5 };
  const x = run(a, q, o), y = run(b, q, o);
  if (x !== y) { if (diff++ < 3) console.log(x.slice(0, 200), "\n", y.slice(0, 200)); }
}
console.log("3000 random fuseMultiQuery calls:", diff, "differ");

if (process.argv.includes("--time")) {
  const queriesOf = (n) => gen.lists(n).map((l) => Array.from(l, (d, i) => ({ id: gen.docId(d), score: 1 - i / n })));
  const median = (xs) => xs.slice().sort((u, v) => u - v)[xs.length >> 1];
  for (const n of [10, 1000, 100000]) {
    const q = queriesOf(n);
    const reps = n === 10 ? 20000 : n === 1000 ? 300 : 3;
    const rows = [[], []];
    // Raised limits for 300,000 hits only (options cost a small call their JSON text).
    const opts = n > 1000 ? { limits: gen.BENCH_LIMITS } : undefined;
    const time = (lib) => {
      const t = performance.now();
      for (let i = 0; i < reps; i++) lib.fuseMultiQuery(q, opts);
      return ((performance.now() - t) / reps) * 1000;
    };
    time(a), time(b);
    for (let r = 0; r < 7; r++) rows.forEach((row, i) => row.push(time(i === 0 ? a : b)));
    console.log(`3 x ${n} hits: A ${median(rows[0]).toFixed(1)} us, B ${median(rows[1]).toFixed(1)} us per call`);
  }
}
