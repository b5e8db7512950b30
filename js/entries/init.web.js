// `calibrank/init` (browsers, bundlers, Deno, workers): no top-level await; `await init(input)`
// with the URL, Response, bytes or WebAssembly.Module of calibrank_core.wasm, or
// `initSync(module)`, before the first call (js/entries/init_api.js).
import internals from "./core.js";
import { initApi } from "./init_api.js";

export const { init, initSync, isInitialized } = initApi(internals, "calibrank", "calibrank_core.wasm");
export default init;
export * from "./core.js";
