// Start-up of two builds of the package, compared: `node bench/startup.mjs DIR instantiate
// MODULE` in fresh processes, alternating A and B, ROUNDS (21) each; prints the median
// and quartiles of `new WebAssembly.Module` (compileMs) and of compile + instantiate as
// the entries do it (instantiateMs), and B / A.
//   node bench/startup-ab.mjs A_DIR B_DIR [ROUNDS] [core|pipeline|lab]
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const [a, b, rounds = "21", which = "core"] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: node bench/startup-ab.mjs A_DIR B_DIR [ROUNDS] [core|pipeline|lab]");
  process.exit(2);
}
const script = fileURLToPath(new URL("startup.mjs", import.meta.url));
const runs = { A: [], B: [] };
for (let r = 0; r < Number(rounds); r++)
  for (const [k, dir] of [["A", a], ["B", b]]) runs[k].push(JSON.parse(execFileSync(process.execPath, [script, dir, "instantiate", which], { encoding: "utf8" })));
const q = (xs, p) => [...xs].sort((x, y) => x - y)[Math.round(p * (xs.length - 1))];
const med = {};
for (const k of ["A", "B"])
  for (const f of ["compileMs", "instantiateMs"]) {
    const xs = runs[k].map((o) => o[f]);
    med[k + f] = q(xs, 0.5);
    console.log(`${k} ${k === "A" ? a : b} ${f.padEnd(13)} median ${q(xs, 0.5).toFixed(3)} ms (quartiles ${q(xs, 0.25).toFixed(3)}-${q(xs, 0.75).toFixed(3)})`);
  }
for (const f of ["compileMs", "instantiateMs"]) console.log(`B / A ${f}: ${(med["B" + f] / med["A" + f]).toFixed(3)}`);
