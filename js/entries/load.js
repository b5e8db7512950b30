// Fetching a .wasm in a browser, with an error that says what to do when it is missing
// (a ScoreError on `input`, as the init entries report every input that does not lead
// to the module).
import { ScoreError } from "./score_error.js";

/** A ScoreError on `input` (an input that does not lead to the module), `cause` kept. */
export function inputError(message, cause) {
  const e = new ScoreError(message, "INVALID_TYPE", "input");
  if (cause !== undefined) e.cause = cause;
  return e;
}

/** A string with no scheme (of two letters or more: `C:` is a drive): a file path (Node). */
export const isFilePath = (s) => typeof s === "string" && !/^[a-z][a-z0-9+.-]+:/i.test(s);

/** An error's message, or what it is (a reason of any kind, even one that cannot be printed). */
export function describe(e) {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return "a value that cannot be printed";
  }
}

export const isRequest = (v) => typeof Request === "function" && v instanceof Request;

/** Fetches and compiles a .wasm given as a URL (string or `URL`) or a `Request`. */
export async function loadWasm(input) {
  const url = isRequest(input) ? input.url : input;
  let response;
  try {
    response = await fetch(input);
  } catch (e) {
    throw inputError(`calibrank: could not fetch ${url} (${describe(e)}). If your bundler does not copy the .wasm files of packages, copy node_modules/calibrank/*.wasm next to your bundle (see the README's install section).`, e);
  }
  return compileResponse(response, url);
}

/** Compiles a fetched .wasm (streaming when the server says application/wasm). */
export async function compileResponse(response, url = response.url) {
  if (!response.ok) {
    throw inputError(`calibrank: failed to fetch ${url}: ${response.status} ${response.statusText}. If your bundler does not copy the .wasm files of packages (esbuild, Rollup), copy node_modules/calibrank/*.wasm next to your bundle (see the README's install section).`);
  }
  const type = response.headers.get("content-type") || "";
  if (typeof WebAssembly.compileStreaming === "function" && type.startsWith("application/wasm")) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
