// The JS suite and the golden vectors in another runtime (Bun, Deno): a plain script,
// no node:test. Both entries through the package's exports map, as an app in that
// runtime imports them. Exit status 1 on any failure.
//   bun tests/js/runtime-suite.mjs      deno run --allow-read --allow-env tests/js/runtime-suite.mjs
import * as core from "calibrank";
import * as lab from "calibrank/lab";
import { runSuite } from "./suite.js";
import golden from "../golden/vectors.json" with { type: "json" };

const runtime = typeof Bun !== "undefined" ? `Bun ${Bun.version}` : typeof Deno !== "undefined" ? `Deno ${Deno.version.deno}` : `Node ${process.version}`;
const lib = { ...lab, ...core };
if (core.ScoreError !== lab.ScoreError) throw new Error("the two entries have different ScoreError classes");
const result = runSuite(lib, golden, (line) => console.log(line));
console.log(`${runtime}: ${result.passed} passed, ${result.failed} failed (golden vectors included)`);
if (result.failed > 0 || result.passed < 12) {
  for (const f of result.failures) console.error(f.name, f.error);
  (typeof Deno !== "undefined" ? Deno : process).exit(1);
}
