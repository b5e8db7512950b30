// Speed probe of several builds of the package, for the size / speed trade-off tables:
//   node --expose-gc bench/probe.mjs [--quick] PKG_DIR...
// loads every build's core entry (DIR/node.mjs: calibrank_core.wasm; every probe is a
// core call) into one process and times a few representative workloads with the
// builds interleaved sample by sample (bench/timing.mjs), so that load drift on the
// machine hits them alike; prints JSON `{ dir: { workload: ms per call } }`.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";
import { compare } from "./timing.mjs";

const quick = process.argv.includes("--quick");
const dirs = process.argv.slice(2).filter((a) => !a.startsWith("--")).map((d) => resolve(d));
const libs = await Promise.all(dirs.map((d) => import(pathToFileURL(join(d, "node.mjs")).href)));
// A long warm-up: with several builds in one process, each one's code must tier up.
const p = { samples: quick ? 7 : 15, minSampleMs: 5, warmupMs: quick ? 300 : 1500 };
const out = Object.fromEntries(dirs.map((d) => [d, {}]));

function probe(name, n, make) {
  const inputs = gen.makeInputs(n);
  const fns = Object.fromEntries(dirs.map((d, i) => [d, make(libs[i], inputs)]));
  const t = compare(fns, p);
  for (const d of dirs) out[d][name] = t[d].medianMs;
}

probe("c_string_1000", 1000, (lib, x) => {
  const pl = new lib.Pipeline(gen.pipelineConfig(true));
  return () => pl.run(x.inputC);
});
probe("a_string_10000", 10000, (lib, x) => () => lib.rrf(x.strLists, { limits: gen.BENCH_LIMITS }));
probe("b_columnar_100000", 100000, (lib, x) => {
  const pl = new lib.Pipeline(gen.pipelineConfig(false));
  return () => pl.runColumnar(x.columnar);
});
probe("a_columnar_100000", 100000, (lib, x) => () => lib.rrfColumnar(x.columnar.docs, x.columnar.offsets, x.columnar.nDocs, { limits: gen.BENCH_LIMITS }));
// The fixed cost of a call: a pipeline over one list of one id (docs/performance.md).
probe("one_id_run", 1, (lib) => {
  const pl = new lib.Pipeline({ explain: false });
  const input = { lists: [{ name: "a", ids: ["x"] }] };
  return () => pl.run(input);
});
probe("rag_c_string_20", 20, (lib, x) => {
  const pl = new lib.Pipeline(gen.pipelineConfig(true));
  return () => pl.run(x.inputC);
});
console.log(JSON.stringify(out));
