// Instructions per call, counted by valgrind's callgrind: a deterministic figure on a
// shared machine where wall-clock times move by 2x from one minute to the next.
//
//   node bench/icount.mjs [--pkg DIR]... [--workloads a10,b10,c10,rag,one] [--calls 2000]
//
// For every competitor (each package DIR's core entry, and the JS baseline) and workload,
// `node --single-threaded --predictable` runs under callgrind twice: a warm-up of 3,000
// calls then `calls` more, and a warm-up then 3 x `calls`; the difference of the two
// totals over 2 x `calls` is the cost of one call with start-up, compilation and warm-up
// cancelled out (--predictable makes V8's tiering repeatable; see `fixed` for the rest).
// Instructions are not time (a cache miss costs more than an add), but they rank builds
// and competitors without the machine's noise; the timed benchmark (`make bench`) stays
// the reference. Compare counts only within one run of this script:
// another harness leaves another heap, and what a GC costs per call changes with it.
import { spawnSync } from "node:child_process";
import { resolve, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args[i + 1];
};
const pkgs = args.flatMap((a, i) => (a === "--pkg" ? [resolve(args[i + 1])] : []));
if (pkgs.length === 0) pkgs.push(resolve(here, "../pkg"));

// Child mode: run one workload `calls` times after the warm-up.
if (args[0] === "--child") {
  const [, side, workload, calls] = args;
  const gen = await import("./gen.mjs");
  const lib = side === "js" ? await import("./baseline/calibrank-baseline.mjs") : await import(pathToFileURL(join(side, "node.mjs")).href);
  const n = workload === "rag" ? 20 : workload === "one" ? 1 : Number(workload.slice(1));
  const x = gen.makeInputs(n);
  let f;
  if (workload.startsWith("a")) f = side === "js" ? () => lib.rrf(x.strLists) : () => lib.rrf(x.strLists, { limits: gen.BENCH_LIMITS });
  else if (workload === "one") {
    const pl = new lib.Pipeline({ explain: false });
    const input = { lists: [{ name: "a", ids: ["x"] }] };
    f = () => pl.run(input);
  } else {
    const rerank = workload.startsWith("c") || workload === "rag";
    const pl = new lib.Pipeline(gen.pipelineConfig(rerank));
    const input = rerank ? x.inputC : x.inputB;
    f = () => pl.run(input);
  }
  for (let i = 0; i < 3000; i++) f();
  for (let i = 0, m = Number(calls); i < m; i++) f();
  process.exit(0);
}

const calls = Number(opt("--calls", 2000));
const workloads = opt("--workloads", "a10,b10,c10,rag,one").split(",");
const self = fileURLToPath(import.meta.url);

// Fixed here: address space layout randomization (off with `setarch -R`), V8's random
// seed, and the parts of garbage collection scheduled by time (incremental marking's
// steps, the memory reducer). Three single runs of 2,000 calls then agree within 0.3% of
// their totals, but the per-call figure, a difference of two runs, still moved from
// 38,561 to 53,645 instructions for one build of (a) at N = 10 between two runs of this
// script (2026-11-23): a collection of the old generation lands in one window or the
// other. Trust it for large differences only; bench/wasm-icount.sh counts the module's
// share deterministically, and timed ratios (`make bench`) are the reference.
const valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"];
const fixed = spawnSync("setarch", ["--help"]).status === 0 ? ["setarch", process.arch === "arm64" ? "aarch64" : "x86_64", "-R", ...valgrind] : valgrind;

function instructions(side, workload, m) {
  const r = spawnSync(
    fixed[0],
    [...fixed.slice(1), process.execPath, "--single-threaded", "--predictable", "--random-seed=1", "--no-incremental-marking", "--no-memory-reducer", self, "--child", side, workload, String(m)],
    { encoding: "utf8", maxBuffer: 1 << 26 },
  );
  const hit = /Collected : (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !hit) throw new Error(`callgrind failed (${side} ${workload}):\n${r.stderr.slice(-2000)}`);
  return Number(hit[1]);
}
const perCall = (side, workload) => (instructions(side, workload, 3 * calls) - instructions(side, workload, calls)) / (2 * calls);

const rows = [];
for (const workload of workloads) {
  const js = workload === "one" ? NaN : perCall("js", workload);
  for (const pkg of pkgs) {
    const wasm = perCall(pkg, workload);
    rows.push({ workload, pkg, wasm: Math.round(wasm), js: Math.round(js), ratio: js / wasm });
    console.error(`${workload} ${pkg}: ${Math.round(wasm)} instructions per call; JS baseline ${Math.round(js)}; JS / wasm ${(js / wasm).toFixed(2)}`);
  }
}
console.log("| workload | package | wasm (instructions per call) | JS baseline | JS / wasm |");
console.log("|---|---|---:|---:|---:|");
for (const r of rows) console.log(`| ${r.workload} | ${r.pkg} | ${r.wasm.toLocaleString("en")} | ${Number.isNaN(r.js) ? "-" : r.js.toLocaleString("en")} | ${Number.isNaN(r.ratio) ? "-" : r.ratio.toFixed(2)} |`);
