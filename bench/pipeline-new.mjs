// `new Pipeline(cfg)` + `free()` in a loop, for a build of the package (DIR like pkg/): workload
// (c)'s configuration and the default one, 4 rounds of 5,000 calls.
//   node bench/pipeline-new.mjs DIR
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
const lib = await import(pathToFileURL(resolve(process.argv[2] ?? "pkg", "node.mjs")).href);
const cfg = gen.pipelineConfig(true);
const T = 5000;
for (let r = 0; r < 4; r++) {
  let t = performance.now(); for (let i = 0; i < T; i++) { const p = new lib.Pipeline(cfg); p.free(); } const a = (performance.now() - t) / T * 1000;
  t = performance.now(); for (let i = 0; i < T; i++) { const p = new lib.Pipeline(); p.free(); } const b = (performance.now() - t) / T * 1000;
  console.log(`new+free (c config) ${a.toFixed(1)} us, default ${b.toFixed(1)} us`);
}
