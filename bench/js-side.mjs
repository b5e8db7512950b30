// What the package's JavaScript alone costs, against the JS baseline's whole call: the
// floor of a string-API call whatever the module does.
//   node bench/js-side.mjs [DIR] [--rounds R] [--only a10,b10,...]
// DIR: the package (pkg/). The script imports a patched copy of DIR/node.mjs
// (bench/patched-entry.mjs) in which, while a flag is set, `rrf` and
// `Pipeline.run` return right after the input is written into wasm memory: the caller's
// input has been read, validated, interned, encoded and copied (everything the
// JavaScript does before `cr_call`, the `cr_reserve` call included), and neither the
// module nor the building of the output objects runs, nor what the JavaScript does
// during the call (the held texts a pipeline with the reranker asks for at N >= 1,000):
// the figure is a lower bound of the JavaScript's share. Each workload is then timed as two pairs in one process
// (bench/timing.mjs's `compare`, interleaved, 1 s warm-up): the JS side alone against
// the baseline (bench/baseline), and the whole call against the baseline. "baseline / JS
// side" is the best ratio any module could give: a module that took no time at all and
// built no output. Each figure is the median over the rounds (each ratio of a pair timed
// together).
import { resolve } from "node:path";
import * as gen from "./gen.mjs";
import * as baseline from "./baseline/calibrank-baseline.mjs";
import { importPatched } from "./patched-entry.mjs";
import { compare, median } from "./timing.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const rounds = Number(opt("--rounds", "3"));
const only = opt("--only", "a10,b10,c20,a1000,b1000,c1000").split(",");
const dir = resolve(args[0] ?? "pkg");

// Stops `rrf` (op 20) and `Pipeline.run` (op 13) after the write while the flag is set.
const { lib, dispose } = await importPatched(
  dir,
  [
    ["p = this.x.cr_call(op, len)", "if (globalThis.__calibrankJsSide && (op === 13 || op === 20)) return null;\n        $&"],
    ["    return this.#results(out, e);", "    if (out === null) return null;\n$&"],
    // rrf: the end of its call's line.
    [".strs(ids, units, firstOf(ends, ids.length)));", "$&\n    if (out === null) return null;"],
  ],
  "js-side",
);

const us = (ms) => (ms * 1000).toFixed(2).padStart(8);
console.log(`bench/js-side.mjs: ${dir}, ${rounds} round(s), median of the rounds (us per call)`);
console.log("workload | JS side alone | baseline | baseline / JS side | whole call | baseline | baseline / whole call");
for (const w of only) {
  const kind = w[0];
  const n = Number(w.slice(1));
  const x = gen.makeInputs(n);
  let side, whole;
  if (kind === "a") {
    whole = () => lib.rrf(x.strLists, { limits: gen.BENCH_LIMITS });
  } else {
    const p = new lib.Pipeline(gen.pipelineConfig(kind === "c"));
    const input = kind === "b" ? x.inputB : x.inputC;
    whole = () => p.run(input);
  }
  side = () => {
    globalThis.__calibrankJsSide = true;
    try {
      if (whole() !== null) throw new Error("bench/js-side.mjs: the patch did not stop the call");
    } finally {
      globalThis.__calibrankJsSide = false;
    }
  };
  const base = gen.competitors(lib, baseline, kind, x).js;
  const r = { side: [], whole: [], base: [], base2: [] };
  for (let i = 0; i < rounds; i++) {
    const t = compare({ wasm: side, js: base }, { samples: 21, minSampleMs: 5, warmupMs: 1000 });
    const u = compare({ wasm: whole, js: base }, { samples: 21, minSampleMs: 5, warmupMs: 1000 });
    r.side.push(t.wasm.medianMs);
    r.base.push(t.js.medianMs);
    r.whole.push(u.wasm.medianMs);
    r.base2.push(u.js.medianMs);
    // Ratios per round (each pair measured interleaved), their medians printed.
    (r.ratioSide ??= []).push(t.js.medianMs / t.wasm.medianMs);
    (r.ratioWhole ??= []).push(u.js.medianMs / u.wasm.medianMs);
  }
  console.log(
    `${w.padEnd(8)} | ${us(median(r.side))} | ${us(median(r.base))} | ${median(r.ratioSide).toFixed(2).padStart(6)}x | ${us(median(r.whole))} | ${us(median(r.base2))} | ${median(r.ratioWhole).toFixed(2).padStart(6)}x`,
  );
}
dispose();
