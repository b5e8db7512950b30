// Pipeline, for browsers and bundlers (js/entries/browser.js): on calibrank_core.wasm when
// browser.functions.js is loading it (the app imports another function too, or there is
// no bundler), else on calibrank_pipeline.wasm fetched and compiled from next to this
// file (an app that imports Pipeline alone: the smaller module).
import internals, * as api from "./core.js";
import { loadWasm, instantiate, noEntryUrl } from "./load.js";

// One turn first. Native modules and webpack start sibling modules in order, each up to
// its first await: meanwhile an entry evaluated after this one begins its loading.
// Bundlers that flatten the modules into one run them one after the other: Rollup,
// esbuild and Vite in browser.js's order, the functions' entry first; Parcel not always
// (then this entry cannot know, and fetches its own).
await 0;
const whole = internals.shared();
if (whole !== null) await whole;
else {
  // As browser.functions.js makes its URL.
  let url;
  try {
    url = new URL("./calibrank_pipeline.wasm", import.meta.url);
  } catch (e) {
    throw noEntryUrl("calibrank_pipeline.wasm", e);
  }
  const module = await loadWasm(url, "calibrank_pipeline.wasm");
  instantiate(() => internals.pipeline.init(module), "calibrank_pipeline.wasm");
}

// Bindings of this file's own (not re-exports): a bundler that drops a side-effect-free
// file whose exports are all re-exports would drop the loading above with it.
export const Pipeline = api.Pipeline;
export const Items = api.Items;
export const __livePipelines = api.__livePipelines;
export const __heldTextsCalls = api.__heldTextsCalls;
