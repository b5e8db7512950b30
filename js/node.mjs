// Node.js, ES modules: load the wasm synchronously from the package directory.
import { readFileSync } from "node:fs";
import { initSync, __setErrorClass } from "./web/calibrank.js";
import { ScoreError } from "./score_error.js";

initSync({ module: readFileSync(new URL("./web/calibrank_bg.wasm", import.meta.url)) });
__setErrorClass(ScoreError);

export * from "./web/calibrank.js";
export { ScoreError };
