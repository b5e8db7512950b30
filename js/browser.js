// Browsers (plain <script type="module"> and bundlers such as Vite): fetch and
// instantiate the wasm next to this file before the module finishes loading.
import init, { __setErrorClass } from "./web/calibrank.js";
import { ScoreError } from "./score_error.js";

await init({ module_or_path: new URL("./web/calibrank_bg.wasm", import.meta.url) });
__setErrorClass(ScoreError);

export * from "./web/calibrank.js";
export { ScoreError };
