// One start-up measurement in a fresh process (bench/run.mjs and bench/size.mjs run it
// many times):
//   node bench/startup.mjs PKG_DIR instantiate [core|pipeline|lab]
//        the time to read the module's .wasm (calibrank_core.wasm by default), compile it
//        and instantiate it as the package's entries do (synchronous
//        `new WebAssembly.Module`, then the API module's init hook: instantiation;
//        `pipeline`: calibrank_pipeline.wasm through the core's `pipeline` hook, as the
//        browser entry of an app that imports Pipeline alone hands it over)
//   node bench/startup.mjs PKG_DIR compile-async [core|lab]
//        `await WebAssembly.compile(bytes)` of the module alone
//   node bench/startup.mjs PKG_DIR import
//        the whole `import` of the package's core entry (node.mjs) and the first pipeline
//        call after it
// prints JSON.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [dir, mode = "instantiate", which = "core"] = process.argv.slice(2);
const ms = () => Number(process.hrtime.bigint()) / 1e6;
const out = {};
if (mode === "import") {
  const t0 = ms();
  const lib = await import(pathToFileURL(join(dir, "node.mjs")).href);
  out.importMs = ms() - t0;
  const t1 = ms();
  const p = new lib.Pipeline({ topN: 3 });
  p.run({ lists: [{ name: "a", ids: ["x", "y", "z"] }, { name: "b", ids: ["y", "x"] }] });
  out.firstCallMs = ms() - t1;
  p.free();
} else if (mode === "instantiate" && (which === "core" || which === "pipeline" || which === "lab")) {
  // The API module (core.js / lab_api.js, plain ESM in the package) without its entry, so
  // that nothing is compiled before the clock starts.
  const api = await import(pathToFileURL(join(dir, which === "lab" ? "lab_api.js" : "core.js")).href);
  // The entries' hook (not part of the API): `default.init` (or `__init` in early builds).
  const init = which === "pipeline" ? api.default?.pipeline?.init : (api.default?.init ?? api.__init);
  if (typeof init !== "function") throw new Error(`the ${which} API module has no init hook for its entries`);
  const t0 = ms();
  const bytes = readFileSync(join(dir, `calibrank_${which}.wasm`));
  const t1 = ms();
  const module = new WebAssembly.Module(bytes);
  const t2 = ms();
  init(module);
  const t3 = ms();
  out.module = which;
  out.readMs = t1 - t0;
  out.compileMs = t2 - t1;
  out.instantiateMs = t3 - t1; // compile + instantiate (+ the limits call), as the entry does
  if (which === "pipeline") new api.Pipeline().free();
  else if (typeof api.version() !== "string") throw new Error("the module does not answer");
} else if (mode === "compile-async" && (which === "core" || which === "lab")) {
  // `WebAssembly.compile` (the engine may validate on background threads) against the
  // entry's synchronous `new WebAssembly.Module`, whose figure is compileMs above.
  const bytes = readFileSync(join(dir, `calibrank_${which}.wasm`));
  const t0 = ms();
  await WebAssembly.compile(bytes);
  out.module = which;
  out.compileAsyncMs = ms() - t0;
} else {
  console.error("usage: node bench/startup.mjs PKG_DIR instantiate [core|pipeline|lab] | PKG_DIR compile-async [core|lab] | PKG_DIR import");
  process.exit(2);
}
console.log(JSON.stringify(out));
