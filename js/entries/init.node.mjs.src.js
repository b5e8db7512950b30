// `calibrank/init` for Node.js, ES modules: as the web build (no top-level await), and
// init() also takes a file path or file: URL, or nothing (calibrank_core.wasm next to this file).
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import internals from "./core.js";
import { initApi } from "./init_api.js";
import { besideThisFile, copyToServerBundle, inputError, isFilePath } from "./load.js";

const file = "calibrank_core.wasm";
// Next to this file, or to a CommonJS bundle of it (a path: as a file: URL).
const here = () => {
  const place = besideThisFile(file, import.meta.url);
  return typeof place === "string" ? pathToFileURL(place) : place;
};
const read = async (url) => {
  try {
    return await readFile(url);
  } catch (e) {
    throw inputError(`calibrank: cannot read ${url} (${e.code || e.message}); ${copyToServerBundle(file)}, or pass init() the file's path, URL or bytes`, e);
  }
};
const local = async (input) => {
  if (input === undefined) input = here();
  else if (typeof input === "string" && input.startsWith("file:")) input = new URL(input);
  // A path is read as given (and named so in an error).
  else if (isFilePath(input)) return WebAssembly.compile(await read(input));
  if (!(input instanceof URL) || input.protocol !== "file:") return undefined;
  return WebAssembly.compile(await read(input));
};

export const { init, initSync, isInitialized } = initApi(internals, "calibrank", file, local);
export default init;
export * from "./core.js";
