// `calibrank/init` for Node.js, ES modules: as the web build (no top-level await), and
// init() also takes a file path or file: URL, or nothing (calibrank_core.wasm next to this
// file, or to a CommonJS bundle of it).
import { readFile } from "node:fs/promises";
import internals from "./core.js";
import { initApi } from "./init_api.js";
import { besideThisFile, isFilePath, unreadableWasm } from "./load.js";

const file = "calibrank_core.wasm";
/** The bytes at `where` (a path or file: URL), or a ScoreError naming it. */
const read = async (where) => {
  try {
    return await readFile(where);
  } catch (e) {
    throw unreadableWasm(where, file, e);
  }
};
const local = async (input) => {
  if (input === undefined) input = besideThisFile(file, import.meta.url);
  else if (typeof input === "string" && input.startsWith("file:")) input = new URL(input);
  // A path is read as given (and named so in an error).
  if (isFilePath(input) || (input instanceof URL && input.protocol === "file:")) return WebAssembly.compile(await read(input));
  return undefined;
};

export const { init, initSync, isInitialized } = initApi(internals, "calibrank", file, local);
export default init;
export * from "./core.js";
