// Cloudflare Workers (workerd): the runtime hands over the compiled WebAssembly.Module.
import { __init } from "./core.js";
import wasm from "./calibrank_core.wasm";

__init(wasm);

export * from "./core.js";
