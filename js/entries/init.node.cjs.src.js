// `calibrank/init` for Node.js, CommonJS: as the web build, and init() also takes a
// file path or file: URL, or nothing (calibrank_core.wasm next to this file).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import internals from "./core.js";
import { initApi } from "./init_api.js";
import { isFilePath, unreadableWasm } from "./load.js";

const file = "calibrank_core.wasm";
const local = async (input) => {
  let path;
  if (input === undefined) path = join(__dirname, file);
  else if ((typeof input === "string" && input.startsWith("file:")) || (input instanceof URL && input.protocol === "file:")) path = fileURLToPath(input);
  else if (isFilePath(input)) path = input;
  else return undefined;
  let bytes;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw unreadableWasm(path, file, e);
  }
  return WebAssembly.compile(bytes);
};

export const { init, initSync, isInitialized } = initApi(internals, "calibrank", file, local);
export default init;
export * from "./core.js";
