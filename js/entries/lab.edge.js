// Edge runtimes that compile wasm only from a module import (Next.js edge routes, the
// `edge-light` condition): the bundler turns "x.wasm?module" into a WebAssembly.Module.
import internals from "./lab_api.js";
import wasm from "./calibrank_lab.wasm?module";

internals.init(wasm);

export * from "./lab_api.js";
