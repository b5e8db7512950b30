// calibrank/init: the core without top-level await. Nothing is loaded at import; call
// `await init(input)` (or `initSync(module)`) once, then use the API as from "calibrank".
// Until then every function that needs the module throws a ScoreError (code INTERNAL)
// that says so (`new Items(...)`, read in JavaScript alone, works before it).

export * from "./core.js";

/** An instance type of a global class, when the compiler's libs declare it (else never). */
type GlobalInstance<K extends string> = typeof globalThis extends { [P in K]: { prototype: infer T } } ? T : never;
// (WebAssembly.Module is an empty interface: without `object`, a number would pass.)
type CompiledModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer T } } } ? T & object : never;

/**
 * Where the .wasm is: its URL (a string or `URL`; Node builds also read `file:` URLs and
 * file paths), a `Request` or `Response`, its bytes, or a compiled `WebAssembly.Module`.
 */
export type InitInput =
  | string
  | GlobalInstance<"URL">
  | GlobalInstance<"Request">
  | GlobalInstance<"Response">
  | ArrayBuffer
  | ArrayBufferView
  | CompiledModule;

/**
 * Compiles and instantiates calibrank_core.wasm; resolves once every function can be
 * called (at once when already done). In Node, `init()` with no input reads the file
 * shipped next to the entry. A bad input, or one that does not lead to this module (a
 * URL, Request or file that cannot be read, a promise that rejects, bytes or a module
 * that are not its .wasm), rejects
 * with ScoreError `INVALID_TYPE` on `input`; `init` can then be called again.
 * Given calibrank_pipeline.wasm instead (about 80 KB against 117 KB gzipped), only `Pipeline` can be called; the other functions throw ScoreError `INTERNAL`.
 */
declare function init(input?: InitInput | PromiseLike<InitInput>): Promise<void>;
/**
 * The same, synchronously: from the module's bytes or a compiled `WebAssembly.Module`;
 * throws ScoreError `INVALID_TYPE` on `input` as `init` rejects.
 */
export declare function initSync(module: ArrayBuffer | ArrayBufferView | CompiledModule): void;
/** Whether `init` or `initSync` has completed. */
export declare function isInitialized(): boolean;

export { init };
export default init;
