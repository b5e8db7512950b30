// `Pipeline` on calibrank_pipeline.wasm (what a bundled app that imports it alone runs
// on) against `Pipeline` on calibrank_core.wasm (what `make bench` times, through the
// Node entry), in one process, interleaved (bench/timing.mjs): workloads (b) and (c) of
// bench/gen.mjs, string and columnar APIs, and `new Pipeline` itself (the configuration
// crosses as JSON text into the core's module, decoded by js/core/typed-config.js for
// the pipeline's).
//   node --expose-gc bench/pipeline-module-ab.mjs [DIR] [--sizes 10,1000,100000]
// prints the median time per call on each module and pipeline/core.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import { compare, policy } from "./timing.mjs";

const args = process.argv.slice(2);
const i = args.indexOf("--sizes");
const sizes = (i >= 0 ? args.splice(i, 2)[1] : "10,1000,100000").split(",").map(Number);
const dir = resolve(args[0] ?? "pkg");
const compiled = (m) => new WebAssembly.Module(readFileSync(join(dir, `calibrank_${m}.wasm`)));
// Two instances of the API module (plain ESM in the package): one whose Pipeline runs on
// the core's module, one on the pipeline's.
const api = async (tag) => {
  const { default: hooks, ...lib } = await import(`${pathToFileURL(join(dir, "core.js")).href}?${tag}`);
  return { hooks, lib };
};
const core = await api("core");
core.hooks.init(compiled("core"));
const pipe = await api("pipeline");
pipe.hooks.pipeline.init(compiled("pipeline"));
const C = core.lib;
const P = pipe.lib;

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(2)} us` : `${ms.toFixed(2)} ms`);
const row = (name, t) => console.log(`${name.padEnd(24)} core ${fmt(t.A.medianMs).padStart(10)}  pipeline ${fmt(t.B.medianMs).padStart(10)}  pipeline/core ${(t.B.medianMs / t.A.medianMs).toFixed(2)}`);

const cfgB = gen.pipelineConfig(false);
const cfgC = gen.pipelineConfig(true);
row("new Pipeline (b's config)", compare({ A: () => new C.Pipeline(cfgB).free(), B: () => new P.Pipeline(cfgB).free() }, policy(10)));
row("new Pipeline (c's config)", compare({ A: () => new C.Pipeline(cfgC).free(), B: () => new P.Pipeline(cfgC).free() }, policy(10)));
for (const n of sizes) {
  const x = gen.makeInputs(n);
  const p = policy(n);
  const [cb, cc, pb, pc] = [new C.Pipeline(cfgB), new C.Pipeline(cfgC), new P.Pipeline(cfgB), new P.Pipeline(cfgC)];
  row(`b/string N=${n}`, compare({ A: () => cb.run(x.inputB), B: () => pb.run(x.inputB) }, p));
  row(`b/columnar N=${n}`, compare({ A: () => cb.runColumnar(x.columnar), B: () => pb.runColumnar(x.columnar) }, p));
  row(`c/string N=${n}`, compare({ A: () => cc.run(x.inputC), B: () => pc.run(x.inputC) }, p));
  for (const q of [cb, cc, pb, pc]) q.free();
}
