// One `fuseMultiQuery` workload in a loop, for a profile or a quick before/after: 10
// queries of 100 hits (bench/multiquery.mjs's hits), `score_sum`, 3,000 warm-up calls,
// then the time per call over 5,000.
//   node bench/multiquery-loop.mjs [DIR]                       (DIR defaults to pkg)
//   node --cpu-prof --cpu-prof-dir=D bench/multiquery-loop.mjs, then
//   node bench/cpuprof-summary.mjs D/FILE [--lines fuseMultiQuery DIR/node.mjs]
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { makeQueries } from "./gen.mjs";

const dir = resolve(process.argv[2] || "pkg");
const lib = await import(pathToFileURL(join(dir, "node.mjs")).href);
const queries = makeQueries(10, 100);
const opts = { method: "score_sum", resultsPerQuery: 100 };
for (let i = 0; i < 3000; i++) lib.fuseMultiQuery(queries, opts);
const calls = 5000;
const t0 = performance.now();
for (let i = 0; i < calls; i++) lib.fuseMultiQuery(queries, opts);
console.log(`${dir}: 10 queries x 100 hits, ${(((performance.now() - t0) / calls) * 1000).toFixed(1)} µs a call`);
