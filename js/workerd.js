// Cloudflare Workers (workerd): the runtime hands us a compiled WebAssembly.Module.
import { initSync, __setErrorClass } from "./web/calibrank.js";
import wasm from "./web/calibrank_bg.wasm";
import { ScoreError } from "./score_error.js";

initSync({ module: wasm });
__setErrorClass(ScoreError);

export * from "./web/calibrank.js";
export { ScoreError };
