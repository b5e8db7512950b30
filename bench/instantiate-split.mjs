// What instantiating a module costs apart from its code: `new WebAssembly.Instance` of
// the package's core module (given a stub for each import it has: none since the
// fifteenth session, one, `calibrank.texts`, before), then of tiny hand-made modules with
// a memory of 17 pages (the core's), with and without one imported JavaScript function
// (V8 compiles a wasm-to-JS wrapper for each at instantiation), each in a fresh process,
// alternating; medians of ROUNDS (21). OTHER_DIR (another build of the package, e.g. an
// older commit's) adds its core as a row of its own.
//   node bench/instantiate-split.mjs [PKG_DIR] [ROUNDS] [OTHER_DIR]
import { execFileSync } from "node:child_process";
import { resolve, join } from "node:path";

const [dir = "pkg", rounds = "21", other] = process.argv.slice(2);
const coreOf = (d) => join(resolve(d), "calibrank_core.wasm");
const probe = `
const [what, file] = process.argv.slice(1);
let bytes;
const sec = (id, body) => [id, body.length, ...body];
if (what.startsWith("core")) bytes = require("fs").readFileSync(file);
else {
  // (type (func (param i32 i32 i32 i32) (result i32))), [(import "c" "t" (func 0))],
  // (memory (export "memory") 17)
  const imp = what === "import" ? sec(2, [1, 1, 99, 1, 116, 0, 0]) : [];
  bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, ...sec(1, [1, 0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f]), ...imp, ...sec(5, [1, 0, 17]), ...sec(7, [1, 6, 109, 101, 109, 111, 114, 121, 2, 0])]);
}
const m = new WebAssembly.Module(bytes);
const imports = {};
for (const i of WebAssembly.Module.imports(m)) (imports[i.module] ??= {})[i.name] = () => 0;
const t = process.hrtime.bigint();
new WebAssembly.Instance(m, imports);
console.log(Number(process.hrtime.bigint() - t) / 1e6);`;
const rows = [
  ["core", coreOf(dir)],
  ...(other ? [[`core of ${other}`, coreOf(other)]] : []),
  ["memory only", ""],
  ["import", ""],
];
const ms = rows.map(() => []);
for (let r = 0; r < Number(rounds); r++) rows.forEach(([k, file], i) => ms[i].push(Number(execFileSync(process.execPath, ["-e", probe, k, file]))));
const q = (a, p) => [...a].sort((x, y) => x - y)[Math.round(p * (a.length - 1))];
rows.forEach(([k], i) => console.log(`${k.padEnd(30)} new WebAssembly.Instance: median ${q(ms[i], 0.5).toFixed(3)} ms (quartiles ${q(ms[i], 0.25).toFixed(3)}-${q(ms[i], 0.75).toFixed(3)})`));
