// How often, and for how long, a reranking pipeline's module asks the JavaScript for the
// held texts of its pool (js/core/held-texts.js `writeHeldTexts`): workload (c)
// (bench/gen.mjs) at N, in a copy of the package whose `writeHeldTexts` is timed
// (bench/patched-entry.mjs; the package is not touched). Prints the asks per call and the
// callback's time per call, over CALLS calls after as many warm-up calls.
//   node bench/held-texts-ask.mjs [PKG_DIR] [N] [CALLS]      (defaults: pkg, 1000, 1000)
import * as gen from "./gen.mjs";
import { importPatched } from "./patched-entry.mjs";

const [pkgDir = "pkg", n = "1000", calls = "1000"] = process.argv.slice(2);
const { lib, dispose } = await importPatched(
  pkgDir,
  [
    [
      "function writeHeldTexts(docs, n, out, cap) {",
      "function writeHeldTexts(docs, n, out, cap) {\n  const t0 = performance.now();\n  try {\n    return timedHeldTexts(docs, n, out, cap);\n  } finally {\n    globalThis.__held.ms += performance.now() - t0;\n    globalThis.__held.asks++;\n  }\n}\nfunction timedHeldTexts(docs, n, out, cap) {",
    ],
  ],
  "held-texts-ask",
);
try {
  const inputs = gen.makeInputs(Number(n));
  const p = new lib.Pipeline(gen.pipelineConfig(true));
  const count = Number(calls);
  globalThis.__held = { ms: 0, asks: 0 };
  for (let i = 0; i < count; i++) p.run(inputs.inputC);
  globalThis.__held = { ms: 0, asks: 0 };
  for (let i = 0; i < count; i++) p.run(inputs.inputC);
  const { ms, asks } = globalThis.__held;
  console.log(`${pkgDir}: (c) N=${n}, ${count} calls: ${(asks / count).toFixed(2)} asks a call, the held texts' callback ${((ms / count) * 1000).toFixed(1)} µs a call`);
  p.free();
} finally {
  dispose();
}
