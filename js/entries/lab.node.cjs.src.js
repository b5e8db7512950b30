// Node.js, CommonJS: the module is read and compiled on the first call (not at require
// time, so a bundler that moves this file never breaks an import that is not called).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import internals from "./lab_api.js";

internals.lazy(() => new WebAssembly.Module(readFileSync(join(__dirname, "calibrank_lab.wasm"))));

export * from "./lab_api.js";
