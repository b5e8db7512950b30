// Edge runtimes that compile wasm only from a module import (Next.js edge routes, the
// `edge-light` condition): the bundler turns "x.wasm?module" into a WebAssembly.Module.
import internals from "./core.js";
import wasm from "./calibrank_core.wasm?module";
import texts from "./calibrank_texts.wasm?module";

internals.init(wasm);
// The held texts' function (core.js TEXTS_MODULE): this engine compiles no wasm from bytes.
internals.texts(texts);

export * from "./core.js";
