// `runColumnar` (workload b) and `rrfColumnar` (workload a) of several builds in one
// process, interleaved round by round (the order reversed every other round), three
// calls a sample, warm (no collection between calls): medians per build. With --cold,
// one call a sample, each after the JS baseline's `runColumnar` and a full collection
// (as `make bench` times N >= 100,000: the collection's walk of the heap leaves the
// caches cold).
//   node --max-old-space-size=8000 [--expose-gc] bench/columnar-ab.mjs [--cold] N ROUNDS DIR...
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";

const argv = process.argv.slice(2);
const cold = argv[0] === "--cold";
if (cold && typeof globalThis.gc !== "function") throw new Error("--cold needs node --expose-gc");
const [n, rounds, ...dirs] = cold ? argv.slice(1) : argv;
if (!n || !rounds || dirs.length === 0) throw new Error("usage: bench/columnar-ab.mjs N ROUNDS DIR...");
const libs = await Promise.all(dirs.map((d) => import(pathToFileURL(join(resolve(d), "node.mjs")).href)));
const inputs = gen.makeInputs(Number(n));
const { docs, offsets, nDocs } = inputs.columnar;
const pipes = libs.map((l) => new l.Pipeline({ ...gen.pipelineConfig(false), limits: gen.BENCH_LIMITS }));
const now = () => Number(process.hrtime.bigint()) / 1e6;
const calls = libs.map((l, j) => ({
  b: () => pipes[j].runColumnar(inputs.columnar),
  a: () => l.rrfColumnar(docs, offsets, nDocs, { limits: gen.BENCH_LIMITS }),
}));
const times = dirs.map(() => ({ b: [], a: [] }));
const js = new baseline.Pipeline(gen.pipelineConfig(false));
const per = cold ? 1 : 3;
for (const c of calls) c.b(), c.a();
for (let r = 0; r < Number(rounds); r++) {
  for (let i = 0; i < dirs.length; i++) {
    const j = r % 2 ? dirs.length - 1 - i : i;
    for (const w of ["b", "a"]) {
      if (cold) {
        js.runColumnar(inputs.columnar);
        globalThis.gc();
      }
      const t = now();
      for (let k = 0; k < per; k++) calls[j][w]();
      times[j][w].push((now() - t) / per);
    }
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
for (let j = 0; j < dirs.length; j++) console.log(`${dirs[j]}: runColumnar (b) ${median(times[j].b).toFixed(2)} ms, rrfColumnar (a) ${median(times[j].a).toFixed(2)} ms (N = ${n}, ${rounds} rounds${cold ? ", cold" : ""})`);
