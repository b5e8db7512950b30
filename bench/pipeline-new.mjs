// `new Pipeline(cfg)` + `free()` in a loop, for a build of the package (DIR like pkg/,
// the default): workload (c)'s configuration and the default one, 4 rounds of 5,000
// calls each (the first round includes the warm-up).
//   node bench/pipeline-new.mjs [DIR]
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";

const lib = await import(pathToFileURL(resolve(process.argv[2] ?? "pkg", "node.mjs")).href);
const CALLS = 5000;

/** Microseconds per `new Pipeline(config)` + `free()`. */
function time(config) {
  const t = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const p = new lib.Pipeline(config);
    p.free();
  }
  return ((performance.now() - t) / CALLS) * 1000;
}

const cfg = gen.pipelineConfig(true);
for (let r = 0; r < 4; r++) {
  const c = time(cfg);
  const d = time(undefined);
  console.log(`new + free: workload (c)'s configuration ${c.toFixed(1)} us, the default ${d.toFixed(1)} us`);
}
