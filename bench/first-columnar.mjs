// The first `runColumnar` of workload (b) in a process whose heap holds the benchmark's
// inputs, with the collections V8 makes during it (run it with --trace-gc: the lines
// between CALL START and CALL END). V8 answers a growth of wasm memory with a full
// collection or not depending on where its marking stands; this order of steps (the
// inputs, the pipeline, the call; no observer) is the one that showed it
// (docs/performance-history.md, "A large columnar call grows the memory once"):
//   node --trace-gc --max-old-space-size=8000 bench/first-columnar.mjs DIR [N]
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";

const [dir = "pkg", n = "1000000"] = process.argv.slice(2);
const lib = await import(pathToFileURL(join(resolve(dir), "node.mjs")).href);
const inputs = gen.makeInputs(Number(n));
const p = new lib.Pipeline({ ...gen.pipelineConfig(false), limits: gen.BENCH_LIMITS });
const now = () => Number(process.hrtime.bigint()) / 1e6;
console.log("CALL START");
let t = now();
p.runColumnar(inputs.columnar);
console.log("CALL END", (now() - t).toFixed(0), "ms");
t = now();
p.runColumnar(inputs.columnar);
console.log("second call", (now() - t).toFixed(0), "ms");
