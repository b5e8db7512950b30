// Node.js, CommonJS: the module is read and compiled on the first call (not at require
// time, so a bundler that moves this file never breaks an import that is not called);
// a .wasm that is not next to this file (or does not compile) is a ScoreError that says
// what to do.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import internals from "./core.js";
import { missingWasm } from "./load.js";

const name = "calibrank_core.wasm";

internals.lazy(() => {
  const path = join(__dirname, name);
  try {
    return new WebAssembly.Module(readFileSync(path));
  } catch (e) {
    throw missingWasm(name, [path], e);
  }
});

export * from "./core.js";
