// `calibrank/lab/init` for Node.js, ES modules: as the web build (no top-level await), and
// init() also takes a file: URL, or nothing (calibrank_lab.wasm next to this file).
import { readFile } from "node:fs/promises";
import internals from "./lab.js";
import { initApi } from "./init_api.js";

const file = "calibrank_lab.wasm";
const local = async (input) => {
  if (input === undefined) input = new URL(file, import.meta.url);
  else if (typeof input === "string" && input.startsWith("file:")) input = new URL(input);
  if (!(input instanceof URL) || input.protocol !== "file:") return undefined;
  return WebAssembly.compile(await readFile(input));
};

export const { init, initSync, isInitialized } = initApi(internals, "calibrank/lab", file, local);
export default init;
export * from "./lab.js";
