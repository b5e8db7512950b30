// The entries without top-level await (`calibrank/init`, `calibrank/lab/init`): nothing
// is loaded at import; the app calls `await init(input)` (or `initSync(module)`) once,
// with the .wasm wherever it put it. The same shape as wasm-bindgen's `--target web`
// output (`init` / `initSync`), so that IIFE and CommonJS bundles and older build
// targets work, and tools that place the .wasm themselves (a `?url` import, a copy step,
// a Worker binding, inlined bytes) hand it over.
import { ScoreError } from "./score_error.js";
import { loadWasm, compileResponse, inputError, describe, isRequest, cspRefusal } from "./load.js";

const isModule = (v) => typeof WebAssembly.Module === "function" && v instanceof WebAssembly.Module;
const isBytes = (v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v);
// The bytes as the engine compiles them: a DataView (an ArrayBufferView, which the
// declarations accept) is refused by `WebAssembly.compile`, so it is read as the bytes
// it views.
const bytesOf = (v) => (v instanceof DataView ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : v);
const isResponse = (v) => typeof Response === "function" && v instanceof Response;

/**
 * `init`, `initSync` and `isInitialized` for one module. `internals` is the API module's
 * hook object; `name` the entry ("calibrank", "calibrank/lab"); `file` the .wasm's name;
 * `local` (Node builds) turns a file: URL or no input into the compiled module. The core's
 * entry also takes calibrank_pipeline.wasm, for an app that calls `Pipeline` alone.
 */
export function initApi(internals, name, file, local = null) {
  let ready = false;
  let pending = null;
  const how = `call (and await) init() from "${name}/init" first, with the URL, bytes, Response or WebAssembly.Module of ${file}`;
  // Until init: every call throws this (a loader that throws stays registered).
  internals.lazy(() => {
    throw new ScoreError(`${name} is not initialized: ${how}`, "INTERNAL", "");
  });

  const badInput = (got) =>
    inputError(`${name}/init: init() takes the URL (string or URL), Request, Response, bytes (ArrayBuffer or typed array) or WebAssembly.Module of ${file}; got ${got}`);
  const badSyncInput = (got) =>
    inputError(`${name}/init: initSync() takes the bytes (ArrayBuffer or typed array) or WebAssembly.Module of ${file} (a URL or Response needs await init()); got ${got}`);

  // What the engine says of bytes or a module that are not this entry's .wasm, as a
  // ScoreError on `input` (the engine's error as its `cause`).
  const notOurs = (what, e) =>
    e instanceof Error
      ? inputError(`${name}/init: ${what} cannot be ${file} (${e.name}: ${e.message})`, e)
      : inputError(`${name}/init: ${what} is not ${file}: ${e}`);
  const isWasmError = (e) => e instanceof WebAssembly.CompileError || e instanceof WebAssembly.LinkError;
  /**
   * Why `what` (the caller's) did not become the module: the page's policy refusing
   * WebAssembly, a module of another kind, or (any other error) the error itself.
   */
  const refused = (what, e) => cspRefusal(e, `${what} for ${file}`, true) ?? (isWasmError(e) ? notOurs(what, e) : e);

  function compileSync(input) {
    if (isModule(input)) return input;
    if (isBytes(input)) {
      try {
        return new WebAssembly.Module(bytesOf(input));
      } catch (e) {
        throw refused("the bytes given", e);
      }
    }
    throw badSyncInput(input === null ? "null" : typeof input);
  }

  async function compile(input) {
    try {
      return await compileAny(input);
    } catch (e) {
      throw refused("what was given", e);
    }
  }

  async function compileAny(input) {
    // A promise of the input (`fetch(url)`): a rejection (a failed fetch) is an input
    // that does not lead to the module, as a URL that cannot be read is. (Awaiting
    // anything else gives it back as it is.)
    try {
      input = await input;
    } catch (e) {
      throw inputError(`${name}/init: the promise given for ${file} rejected (${describe(e)})`, e);
    }
    if (isModule(input)) return input;
    if (isBytes(input)) return WebAssembly.compile(bytesOf(input));
    if (isResponse(input)) return compileResponse(input, file);
    if (local !== null) {
      const module = await local(input);
      if (module !== undefined) return module;
    }
    if (typeof input === "string" || input instanceof URL || isRequest(input)) return loadWasm(input, file, true);
    throw badInput(input === undefined ? "no input" : input === null ? "null" : typeof input);
  }

  // Settled once the module is ready, by whichever call made it so: an `init` waiting
  // for an input that never settles (a hung `fetch`) resolves when `initSync` (or another
  // call) has made the module ready.
  let readied;
  const whenReady = new Promise((resolve) => {
    readied = resolve;
  });

  /** `field`: where a module of another release is refused (null: the entry found it). */
  function start(module, field = "input") {
    // Once only: an `init` still pending when `initSync` ran does not instantiate the
    // module again under the pipelines made in between.
    if (ready) return;
    // calibrank_pipeline.wasm (the core's entry only): `Pipeline` runs on it, and the
    // other functions say that they need the whole core's module.
    const pipelineOnly = internals.pipeline !== undefined && internals.pipeline.holds(module);
    const target = pipelineOnly ? internals.pipeline : internals;
    const why = target.misfit(module);
    if (why !== null) throw notOurs("the module given", why);
    try {
      target.init(module, field);
    } catch (e) {
      throw refused("the module given", e);
    }
    if (pipelineOnly) {
      internals.lazy(() => {
        throw new ScoreError(`${name} was initialized with calibrank_pipeline.wasm, which holds Pipeline alone: this function needs ${file}, given to the first init() (a later init() keeps the module of the first: reload, or restart the process)`, "INTERNAL", "");
      });
    }
    ready = true;
    readied();
  }

  /**
   * Compiles and instantiates the module; resolves once every function can be called.
   * While another call's attempt is under way, this call waits for it (one fetch and one
   * compile for callers that start at once) and, if it fails, tries its own input.
   */
  async function init(input) {
    if (ready) return;
    const earlier = pending;
    if (earlier === null) {
      // No input: the entry finds its own file (Node), so a module of another release
      // there is the package's fault, not an input's.
      const field = input === undefined ? null : "input";
      const mine = (pending = compile(input)
        .then((module) => start(module, field))
        .catch((e) => {
          // A failure (in compiling or in instantiating) leaves init() to be called again.
          if (pending === mine) pending = null;
          // initSync made the module ready meanwhile: nothing is left to do.
          if (ready) return;
          throw e;
        }));
      return Promise.race([mine, whenReady]);
    }
    try {
      await Promise.race([earlier, whenReady]);
    } catch {
      // That call's input failed (its caller is told): this call's own is tried.
    }
    if (ready) return;
    return init(input);
  }

  /** The same, synchronously, from a compiled module or the module's bytes. */
  function initSync(input) {
    if (ready) return;
    start(compileSync(input));
  }

  return { init, initSync, isInitialized: () => ready };
}
