// Cloudflare Workers (workerd): the runtime hands over the compiled WebAssembly.Module.
import internals from "./core.js";
import wasm from "./calibrank_core.wasm";
import texts from "./calibrank_texts.wasm";

internals.init(wasm);
// The held texts' function (core.js TEXTS_MODULE): this engine compiles no wasm from bytes.
internals.texts(texts);

export * from "./core.js";
