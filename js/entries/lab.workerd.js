// Cloudflare Workers (workerd): the runtime hands over the compiled WebAssembly.Module.
import internals from "./lab_api.js";
import wasm from "./calibrank_lab.wasm";

internals.init(wasm);

export * from "./lab_api.js";
