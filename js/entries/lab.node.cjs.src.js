// Node.js (CommonJS; the ESM entry re-exports this one, so there is one SlabError class
// whichever way the package is loaded): read and compile the wasm synchronously.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import internals from "./lab.js";

internals.init(new WebAssembly.Module(readFileSync(join(__dirname, "calibrank_lab.wasm"))));

export * from "./lab.js";
