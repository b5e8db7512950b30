// Times single calls of workload (b) or (c) at one size for several builds in one
// process, round after round (each round: a gc(), then one call per build), for the
// sizes where the benchmark takes one sample (N = 1,000,000):
//   node --expose-gc --max-old-space-size=8000 bench/onecall.mjs b|c N ROUNDS DIR... [--no-gc]
// The first round includes each build's warm-up; read the later ones.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as gen from "./gen.mjs";

const args = process.argv.slice(2);
// --no-gc: no collection before each call (calls in a row, as an application makes them).
const noGc = args.includes("--no-gc");
const [w, n, rounds, ...dirs] = args.filter((a) => a !== "--no-gc");
if (!["b", "c"].includes(w) || !dirs.length) throw new Error("usage: bench/onecall.mjs b|c N ROUNDS DIR...");
const x = gen.makeInputs(Number(n));
const input = w === "c" ? x.inputC : x.inputB;
const builds = [];
for (const d of dirs) {
  const lib = await import(pathToFileURL(join(resolve(d), "node.mjs")).href);
  builds.push([d, new lib.Pipeline(gen.pipelineConfig(w === "c"))]);
}
for (let r = 1; r <= Number(rounds); r++)
  for (const [d, p] of builds) {
    if (!noGc) globalThis.gc?.();
    const t = performance.now();
    p.run(input);
    console.log(`round ${r} ${d}: ${((performance.now() - t) / 1000).toFixed(2)} s`);
  }
