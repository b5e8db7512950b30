// Every function of calibrank but Pipeline, for browsers and bundlers (js/entries/browser.js):
// fetch and compile calibrank_core.wasm next to this file before the module finishes
// loading. The loading is handed to browser.pipeline.js (`share`) before it is awaited,
// so that Pipeline, when the app imports it too, runs on this module instead of
// fetching its own.
import internals, * as api from "./core.js";
import { loadWasm, instantiate, noEntryUrl } from "./load.js";

// The URL made where bundlers look for it (webpack, Vite, Parcel copy the file it names);
// a runtime that gives the module no URL of its own is said so, not left a TypeError.
let url;
try {
  url = new URL("./calibrank_core.wasm", import.meta.url);
} catch (e) {
  throw noEntryUrl("calibrank_core.wasm", e);
}
const loading = loadWasm(url, "calibrank_core.wasm");
internals.share(loading);
const module = await loading;
instantiate(() => internals.init(module), "calibrank_core.wasm");

// Bindings of this file's own (not re-exports): a bundler that drops a side-effect-free
// file whose exports are all re-exports would drop the loading above with it.
export const version = api.version;
export const errorCodes = api.errorCodes;
export const defaultLimits = api.defaultLimits;
export const normalize = api.normalize;
export const calibrate = api.calibrate;
export const classifyBand = api.classifyBand;
export const queryConfidence = api.queryConfidence;
export const rrf = api.rrf;
export const rrfColumnar = api.rrfColumnar;
export const fuseMultiQuery = api.fuseMultiQuery;
export const rerank = api.rerank;
export const __dropScratch = api.__dropScratch;
