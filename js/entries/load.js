// Loading a .wasm: fetching it in a browser, and where the Node entries look for it, with
// errors that say what to do when it is not there: a ScoreError on `input` when the
// caller said where it is (the init entries report so every input that does not lead to
// the module), `INTERNAL` for a main entry, which has no input and looks where the
// package put it.
import { ScoreError } from "./score_error.js";

/** A ScoreError with `cause` kept (when there is one). */
function scoreError(message, code, field, cause) {
  return new ScoreError(message, code, field, cause === undefined ? undefined : { cause });
}

/** A ScoreError on `input` (an input that does not lead to the module), `cause` kept. */
export const inputError = (message, cause) => scoreError(message, "INVALID_TYPE", "input", cause);

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

/** What to do when `file` (the entry's .wasm) is not where a browser entry looks for it. */
const whereToPut = (file) =>
  `If your bundler does not copy the .wasm files of packages (esbuild, Rollup), copy node_modules/calibrank/${file} next to your bundle; ` +
  `with Vite 7's dev server, add optimizeDeps: { exclude: ["calibrank"] } to vite.config (see the README's install section).`;

/** What to do when `file` is not next to a server bundle. */
const copyToServerBundle = (file) => `copy node_modules/calibrank/${file} next to your server bundle`;

/** `init()` of a Node init entry could not read `file` at `where` (a path or file: URL). */
export const unreadableWasm = (where, file, e) =>
  inputError(`calibrank: cannot read ${where} (${e.code || e.message}); ${copyToServerBundle(file)}, or pass init() the file's path, URL or bytes`, e);

/**
 * Where a Node entry's `file` lies: next to the module (`importMetaUrl`, the entry's
 * `import.meta.url`), or next to a CommonJS bundle of it (esbuild gives an ESM source the
 * "import" condition whatever the output format, and import.meta is empty there). A file:
 * URL, a path, or `undefined`.
 */
export function besideThisFile(file, importMetaUrl) {
  if (importMetaUrl) return new URL(file, importMetaUrl);
  if (typeof __dirname === "string") return `${__dirname}/${file}`;
  return undefined;
}

/**
 * The error of a Node entry that found its .wasm in none of the places `tried` (a server
 * bundle that did not carry it along): what to do, the file system's error as `cause`.
 */
export function missingWasm(file, tried, cause) {
  return scoreError(
    `calibrank: cannot ${cause instanceof WebAssembly.CompileError ? "compile" : "read"} ${file} (tried ${tried.join(", ")}: ${cause ? cause.code || cause.message : "no place to look"}); ` +
      `${copyToServerBundle(file)}, or import from "calibrank/init" (or "calibrank/lab/init") and pass init() the file's path`,
    "INTERNAL",
    "",
    cause,
  );
}

/** The first bytes of a file, printed for an error message (`<!do`, `{"er`). */
function head(bytes) {
  let s = "";
  for (const b of new Uint8Array(bytes, 0, Math.min(8, bytes.byteLength))) s += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".";
  return JSON.stringify(s);
}

/** Whether `bytes` start as every WebAssembly binary does (`\0asm`). */
function isWasm(bytes) {
  const b = new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength));
  return b.length === 4 && b[0] === 0 && b[1] === 0x61 && b[2] === 0x73 && b[3] === 0x6d;
}

/** On `input` when the caller of init() gave what failed, else a main entry's `INTERNAL`. */
const entryError = (given, message, cause) => (given ? inputError(message, cause) : scoreError(message, "INTERNAL", "", cause));

/**
 * A failure to load `file`: on `input` when the caller gave where it is (`given`, the init
 * entries: what to do is theirs), else `INTERNAL` with what to do when a bundler did not
 * put the file where the package looks for it (a main entry's own URL).
 */
function loadError(given, file, message, cause) {
  return entryError(given, `${message} ${given ? serveAt(file) : whereToPut(file)}`, cause);
}

/** What to do when a URL the app gave init() does not lead to `file`. */
const serveAt = (file) => `Serve node_modules/calibrank/${file} at that URL, or give init() the URL where it is.`;

/**
 * The error of a browser entry that cannot make its .wasm's URL from its own
 * (`new URL("./file", import.meta.url)` threw: `import.meta.url` is undefined in workerd,
 * and a `data:` or `blob:` module has no place beside it): the runtime is no browser, or
 * the bundler gave the app this entry where another was meant. (The entries name
 * `import.meta.url` in that expression alone: webpack and Parcel write the source file's
 * path in place of any other use of it, into the app's bundle.)
 */
export function noEntryUrl(file, cause) {
  return scoreError(
    `calibrank: the browser entry cannot find ${file} beside itself: its module URL locates no file (${describe(cause)}). ` +
      `In Cloudflare Workers and other edge runtimes, resolve the package with the "workerd" or "edge-light" condition, whose entries import the .wasm as a module ` +
      `(wrangler and Next.js do; esbuild: --conditions=workerd --loader:.wasm=copy), or import from "calibrank/init" and give init() the module.`,
    "INTERNAL",
    "",
    cause,
  );
}

/**
 * Fetches and compiles `file` (the entry's .wasm) given as a URL (string or `URL`) or a
 * `Request`; `given`: the caller's (an init entry's input), not the entry's own URL.
 */
export async function loadWasm(input, file, given = false) {
  const url = isRequest(input) ? input.url : input;
  let response;
  try {
    response = await fetch(input);
  } catch (e) {
    throw loadError(given, file, `calibrank: could not fetch ${url} (${describe(e)}).`, e);
  }
  return compileResponse(response, file, url, given);
}

/** Compiles a fetched `file` (streaming when the server says application/wasm). */
export async function compileResponse(response, file, url = response.url, given = true) {
  if (!response.ok) {
    throw loadError(given, file, `calibrank: failed to fetch ${url ? url : file}: ${response.status} ${response.statusText}.`);
  }
  const type = response.headers.get("content-type") || "";
  if (typeof WebAssembly.compileStreaming === "function" && type.startsWith("application/wasm")) {
    return compiled(WebAssembly.compileStreaming(response), file, url, given);
  }
  const bytes = await response.arrayBuffer();
  // A server that answers every unknown path with the app's page (a single-page app's
  // fallback, Vite 7's dev server for a pre-bundled package) sends HTML with 200 OK.
  if (!isWasm(bytes)) {
    throw loadError(
      given,
      file,
      `calibrank: ${url ? url : `the Response given for ${file}`} is not WebAssembly (${type ? `${type}, ` : ""}starting ${head(bytes)}): the server answered with another file, as a fallback to index.html does for a missing file.`,
    );
  }
  return compiled(WebAssembly.compile(bytes), file, url, given);
}

/**
 * The module `compiling` gives, or a ScoreError that says why the engine refused it: a
 * page's Content-Security-Policy without 'wasm-unsafe-eval' (Chromium's, Firefox's and
 * Safari's words for it), or bytes that do not compile (a main entry's; an init entry
 * says that the input is not the module).
 */
async function compiled(compiling, file, url, given) {
  try {
    return await compiling;
  } catch (e) {
    if (!(e instanceof WebAssembly.CompileError)) throw e;
    const where = url ? url : file;
    const csp = cspRefusal(e, where, given);
    if (csp !== null) throw csp;
    if (given) throw e;
    throw loadError(false, file, `calibrank: ${where} does not compile (${describe(e)}).`, e);
  }
}

/**
 * The ScoreError of an engine's refusal to compile or instantiate WebAssembly under the
 * page's Content-Security-Policy (`e`: Chromium's and Firefox's CompileError when
 * compiling, Safari's error when instantiating, in their words), or null for another
 * error. `given`: what the caller of init() gave (INVALID_TYPE on `input`), else a main
 * entry's own file (INTERNAL).
 */
export function cspRefusal(e, where, given) {
  // (A ScoreError made already, this one among them, is not the engine's.)
  if (!(e instanceof Error) || e instanceof ScoreError || !/Content.Security|\bCSP\b|unsafe-eval/i.test(describe(e))) return null;
  const message = `calibrank: the page's Content-Security-Policy does not let ${where} compile (${describe(e)}); add 'wasm-unsafe-eval' to its script-src`;
  return entryError(given, message, e);
}

/** Runs `init` (a main entry's instantiation of `file`), its CSP refusal said as such. */
export function instantiate(init, file) {
  try {
    init();
  } catch (e) {
    throw cspRefusal(e, file, false) ?? e;
  }
}
