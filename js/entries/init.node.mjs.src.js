// `calibrank/init` for Node.js, ES modules: as the web build (no top-level await), and
// init() also takes a file path or file: URL, or nothing (calibrank_core.wasm next to this file).
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import internals from "./core.js";
import { initApi } from "./init_api.js";
import { ScoreError } from "./score_error.js";

const file = "calibrank_core.wasm";
// Next to this file; in a CommonJS bundle of this module (esbuild gives an ESM source the
// "import" condition whatever the output format), import.meta is empty: next to the bundle.
const here = () => {
  const base = import.meta.url;
  if (base) return new URL(file, base);
  if (typeof __dirname === "string") return pathToFileURL(`${__dirname}/${file}`);
  return undefined;
};
const read = async (url) => {
  try {
    return await readFile(url);
  } catch (e) {
    const error = new ScoreError(`calibrank: cannot read ${url} (${e.code || e.message}); copy node_modules/calibrank/*.wasm next to your server bundle, or pass init() the file's path, URL or bytes`, "INVALID_TYPE", "input");
    error.cause = e;
    throw error;
  }
};
const local = async (input) => {
  if (input === undefined) input = here();
  else if (typeof input === "string" && input.startsWith("file:")) input = new URL(input);
  // A string with no scheme (at least two letters: not a drive letter): a file path.
  else if (typeof input === "string" && !/^[a-z][a-z0-9+.-]+:/i.test(input)) return WebAssembly.compile(await read(input));
  if (!(input instanceof URL) || input.protocol !== "file:") return undefined;
  return WebAssembly.compile(await read(input));
};

export const { init, initSync, isInitialized } = initApi(internals, "calibrank", file, local);
export default init;
export * from "./core.js";
