// Node.js (CommonJS; the ESM entry re-exports this one, so there is one ScoreError class
// whichever way the package is loaded): read and compile the wasm synchronously.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import internals from "./core.js";

internals.init(new WebAssembly.Module(readFileSync(join(__dirname, "calibrank_core.wasm"))));

export * from "./core.js";
