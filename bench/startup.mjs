// One start-up measurement in a fresh process (bench/run.mjs runs it many times):
//   node bench/startup.mjs PKG_DIR
// prints JSON: the time to read the .wasm, compile + instantiate it (initSync, as the
// package's Node entry does), the whole `import` of the package entry, and the first
// pipeline call after that.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dir = process.argv[2];
const ms = () => Number(process.hrtime.bigint()) / 1e6;
const out = {};
if (process.argv[3] === "import") {
  const t0 = ms();
  const lib = await import(pathToFileURL(join(dir, "node.mjs")).href);
  out.importMs = ms() - t0;
  const t1 = ms();
  new lib.Pipeline({ topN: 3 }).run({ lists: [{ name: "a", ids: ["x", "y", "z"] }, { name: "b", ids: ["y", "x"] }] });
  out.firstCallMs = ms() - t1;
} else {
  const glue = await import(pathToFileURL(join(dir, "web", "calibrank.js")).href);
  const t0 = ms();
  const bytes = readFileSync(join(dir, "web", "calibrank_bg.wasm"));
  const t1 = ms();
  glue.initSync({ module: bytes });
  const t2 = ms();
  out.readMs = t1 - t0;
  out.instantiateMs = t2 - t1;
}
console.log(JSON.stringify(out));
