// The JS suite and the golden vectors in another runtime (Bun, Deno): a plain script,
// no node:test. Both entries through the package's exports map, as an app in that
// runtime imports them. Exit status 1 on any failure.
//   bun tests/js/runtime-suite.mjs [init]      deno run --allow-read --allow-env tests/js/runtime-suite.mjs [init]
// With the argument `init`: through calibrank/init and calibrank/lab/init instead, after
// `await init()` (which reads the .wasm shipped next to the entry).
const viaInit = (typeof Deno !== "undefined" ? Deno.args : process.argv.slice(2)).includes("init");
const core = viaInit ? await import("calibrank/init") : await import("calibrank");
const lab = viaInit ? await import("calibrank/lab/init") : await import("calibrank/lab");
if (viaInit) await Promise.all([core.init(), lab.init()]);
import { runSuite } from "./suite.js";
import golden from "../golden/vectors.json" with { type: "json" };

const runtime = typeof Bun !== "undefined" ? `Bun ${Bun.version}` : typeof Deno !== "undefined" ? `Deno ${Deno.version.deno}` : `Node ${process.version}`;
const lib = { ...lab, ...core };
if (core.ScoreError !== lab.ScoreError) throw new Error("the two entries have different ScoreError classes");
const result = runSuite(lib, golden, (line) => console.log(line));
console.log(`${runtime}${viaInit ? " (calibrank/init)" : ""}: ${result.passed} passed, ${result.failed} failed (golden vectors included)`);
// Every test the suite registers passed (not a share of them).
if (result.failed > 0 || result.passed !== result.total || result.total < 1) {
  for (const f of result.failures) console.error(f.name, f.error);
  (typeof Deno !== "undefined" ? Deno : process).exit(1);
}
