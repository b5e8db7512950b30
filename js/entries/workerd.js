// Cloudflare Workers (workerd): the runtime hands over the compiled WebAssembly.Module.
import internals from "./core.js";
import wasm from "./calibrank_core.wasm";

internals.init(wasm);

export * from "./core.js";
