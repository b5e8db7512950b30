// `calibrank/init` for Node.js, CommonJS: as the web build, and init() also takes a
// file: URL, or nothing (calibrank_core.wasm next to this file).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import internals from "./core.js";
import { initApi } from "./init_api.js";

const file = "calibrank_core.wasm";
const local = async (input) => {
  let path;
  if (input === undefined) path = join(__dirname, file);
  else if ((typeof input === "string" && input.startsWith("file:")) || (input instanceof URL && input.protocol === "file:")) path = fileURLToPath(input);
  else return undefined;
  return WebAssembly.compile(await readFile(path));
};

export const { init, initSync, isInitialized } = initApi(internals, "calibrank", file, local);
export default init;
export * from "./core.js";
