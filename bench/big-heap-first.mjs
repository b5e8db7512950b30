// The first call of a workload in a process whose JavaScript heap holds the benchmark's
// inputs (hundreds of MB at N = 1,000,000), then the second: how long each takes, how
// many full collections ran during the first, and the module's memory after it. Each
// growth of wasm memory can bring on a full collection of that heap (docs/performance-history.md,
// "Growing the memory"). One process per call of this script:
//   node --max-old-space-size=8000 bench/big-heap-first.mjs DIR a|ac|b|bc|c N
// (a: rrf, ac: rrfColumnar, b / c: Pipeline.run, bc: runColumnar; DIR a built package.)
import { PerformanceObserver, constants } from "node:perf_hooks";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";

const [dir = "pkg", w = "bc", n = "1000000"] = process.argv.slice(2);
const memories = [];
const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(RealInstance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    if (instance.exports.memory) memories.push(instance.exports.memory);
    return instance;
  },
});
const lib = await import(pathToFileURL(join(resolve(dir), "node.mjs")).href);
// The inputs first, then the module's instance (made by the Pipeline's construction):
// the heap is then as full as a caller's, with its garbage not yet collected.
const inputs = gen.makeInputs(Number(n));
const p = new lib.Pipeline({ ...gen.pipelineConfig(w === "c"), limits: gen.BENCH_LIMITS });
const { docs, offsets, nDocs } = inputs.columnar;
const fn = {
  a: () => lib.rrf(inputs.strLists, { limits: gen.BENCH_LIMITS }),
  ac: () => lib.rrfColumnar(docs, offsets, nDocs, { limits: gen.BENCH_LIMITS }),
  b: () => p.run(inputs.inputB),
  bc: () => p.runColumnar(inputs.columnar),
  c: () => p.run(inputs.inputC),
}[w];
if (!fn) throw new Error(`unknown workload ${w}`);
let majors = 0;
let counting = false;
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (counting && e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
});
obs.observe({ entryTypes: ["gc"] });
const mib = () => (memories.at(-1).buffer.byteLength / 2 ** 20).toFixed(1);
const before = mib();
const now = () => Number(process.hrtime.bigint()) / 1e6;
counting = true;
let t = now();
fn();
const first = now() - t;
// The observer's entries arrive asynchronously.
await new Promise((r) => setTimeout(r, 100));
counting = false;
const grown = mib();
t = now();
fn();
const second = now() - t;
obs.disconnect();
console.log(`${w} N=${n}: first ${first.toFixed(0)} ms (${majors} full collections), second ${second.toFixed(0)} ms; wasm memory ${before} -> ${grown} MiB`);
