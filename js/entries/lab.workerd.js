// Cloudflare Workers (workerd): the runtime hands over the compiled WebAssembly.Module.
import { __init } from "./lab.js";
import wasm from "./calibrank_lab.wasm";

__init(wasm);

export * from "./lab.js";
