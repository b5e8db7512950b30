// What instantiating a module costs apart from its code: `new WebAssembly.Instance` of the
// package's core module (its only import, `calibrank.texts`, given a stub), then of tiny
// hand-made modules with a memory of 17 pages (the core's), with and without one
// imported JavaScript function (V8 compiles a wasm-to-JS wrapper for each at
// instantiation), each in a fresh process, alternating; medians of ROUNDS (21). And the
// core with its import given as a wasm function (a tiny module's export) instead of a
// JavaScript one: what a trampoline for the held texts would save.
//   node bench/instantiate-split.mjs [PKG_DIR] [ROUNDS]
import { execFileSync } from "node:child_process";
import { resolve, join } from "node:path";

const [dir = "pkg", rounds = "21"] = process.argv.slice(2);
const wasm = join(resolve(dir), "calibrank_core.wasm");
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
if (what === "core, import a wasm function") {
  // \`calibrank.texts\` (i32 x 4 -> f64) given as the export of a tiny module made here
  // (its compile and instantiation timed too): a wasm import needs no wrapper.
  const tiny = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, ...sec(1, [1, 0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7c]), ...sec(3, [1, 0]), ...sec(7, [1, 1, 102, 0, 0]), ...sec(10, [1, 11, 0, 0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0x0b])]);
  imports.calibrank.texts = new WebAssembly.Instance(new WebAssembly.Module(tiny), {}).exports.f;
}
new WebAssembly.Instance(m, imports);
console.log(Number(process.hrtime.bigint() - t) / 1e6);`;
const kinds = ["core", "core, import a wasm function", "memory only", "import"];
const ms = Object.fromEntries(kinds.map((k) => [k, []]));
for (let r = 0; r < Number(rounds); r++) for (const k of kinds) ms[k].push(Number(execFileSync(process.execPath, ["-e", probe, k, wasm])));
const q = (a, p) => [...a].sort((x, y) => x - y)[Math.round(p * (a.length - 1))];
for (const k of kinds) console.log(`${k.padEnd(30)} new WebAssembly.Instance: median ${q(ms[k], 0.5).toFixed(3)} ms (quartiles ${q(ms[k], 0.25).toFixed(3)}-${q(ms[k], 0.75).toFixed(3)})`);
