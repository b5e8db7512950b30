// Seed 001's performance tests for multi-query fusion, through the built package:
//   node --expose-gc bench/multiquery.mjs [DIR]        (DIR defaults to pkg)
// 1. Latency of `fuseMultiQuery` for 1, 5 and 10 queries of 20 and 100 hits each (the
//    seed's default `resultsPerQuery` and its cap), every method, against a few lines of
//    idiomatic JavaScript doing the same (`baselineFuse` below: a `Map`, the seed's
//    formulas and tie rules), timed interleaved in this process (bench/timing.mjs);
//    "x faster" is the baseline's time over the package's.
// 2. Memory for each `resultsPerQuery` (20, 100, 1,000, 10,000 over 10 queries of 10,000
//    hits): the module's linear memory after the calls (it only grows, in 64 KiB
//    pages), and whether it stays flat over 200 more calls (a leak would grow it). The
//    test of that is tests/js/memory.test.mjs; this prints the figures.
// The seed's "fusion overhead under 5% of the query time" is about its server's search
// time, which a client-side library does not have: the latencies are printed instead.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compare } from "./timing.mjs";
import { makeQueries } from "./gen.mjs";

const dir = resolve(process.argv[2] || "pkg");
const memories = [];
const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(RealInstance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    memories.push(instance.exports.memory);
    return instance;
  },
});
const lib = await import(pathToFileURL(join(dir, "node.mjs")).href);
lib.version();
WebAssembly.Instance = RealInstance;
const pages = () => memories[0].buffer.byteLength / 65536;

/** Seed 001's fusion in plain JavaScript (the defaults: threshold 0.6, boost 0.1, k 60). */
function baselineFuse(queries, { method = "rrf", resultsPerQuery = 20, similarityThreshold = 0.6, multiQueryBoost = 0.1, limit = 10, k = 60 } = {}) {
  const seen = new Map();
  queries.forEach((hits, q) => {
    let rank = 0;
    const here = new Set();
    for (const h of hits.slice(0, resultsPerQuery)) {
      if (h.score < similarityThreshold || here.has(h.id)) continue;
      here.add(h.id);
      rank++;
      let e = seen.get(h.id);
      if (!e) seen.set(h.id, (e = { id: h.id, timestamp: h.timestamp, scores: [], ranks: [] }));
      e.scores.push(h.score);
      e.ranks.push(rank);
      if (h.timestamp !== undefined && (e.timestamp === undefined || h.timestamp > e.timestamp)) e.timestamp = h.timestamp;
    }
  });
  const out = [];
  for (const e of seen.values()) {
    let score;
    if (method === "rrf") score = e.ranks.reduce((s, r) => s + 1 / (k + r), 0);
    else if (method === "score_sum") score = e.scores.reduce((s, x) => s + x, 0);
    else score = Math.max(...e.scores) * (1 + multiQueryBoost * (e.scores.length - 1));
    out.push({ id: e.id, score, timestamp: e.timestamp, best: Math.min(...e.ranks) });
  }
  out.sort((a, b) => b.score - a.score || (b.timestamp ?? -Infinity) - (a.timestamp ?? -Infinity) || a.best - b.best || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.slice(0, limit).map(({ id, score }) => ({ id, score }));
}

console.log(`fuseMultiQuery (${dir}), Node ${process.version}`);
console.log("queries x hits | method | package | JS baseline | x faster");
for (const nq of [1, 5, 10])
  for (const n of [20, 100])
    for (const method of ["rrf", "score_sum", "score_max"]) {
      const queries = makeQueries(nq, n);
      const opts = { method, resultsPerQuery: n };
      // Same ids in the same order (the scores may differ in the last bit: the baseline's
      // sums are JavaScript's, in its own order).
      const got = lib.fuseMultiQuery(queries, opts).results.map((r) => r.id).join();
      const want = baselineFuse(queries, opts).map((r) => r.id).join();
      if (got !== want) throw new Error(`${nq} x ${n} ${method}: the baseline disagrees:\n${got}\n${want}`);
      const t = compare({ wasm: () => lib.fuseMultiQuery(queries, opts), js: () => baselineFuse(queries, opts) }, { samples: 11, minSampleMs: 5, warmupMs: 300 });
      const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
      console.log(`${nq} x ${n} | ${method} | ${us(t.wasm.medianMs)} | ${us(t.js.medianMs)} | ${(t.js.medianMs / t.wasm.medianMs).toFixed(2)}x`);
    }

console.log("\nresultsPerQuery | wasm memory after the first call | after 200 more | flat");
const big = makeQueries(10, 10_000);
for (const resultsPerQuery of [20, 100, 1_000, 10_000]) {
  const opts = { resultsPerQuery, similarityThreshold: 0, verbose: true, limit: 100 };
  lib.fuseMultiQuery(big, opts);
  globalThis.gc?.();
  const first = pages();
  for (let i = 0; i < 200; i++) lib.fuseMultiQuery(big, opts);
  console.log(`${resultsPerQuery} | ${first} pages (${((first * 65536) / 2 ** 20).toFixed(1)} MiB) | ${pages()} pages | ${pages() === first ? "yes" : "NO"}`);
}
