// Browsers (plain <script type="module">, Vite, webpack, Parcel): fetch and compile the
// lab's wasm next to this file before the module finishes loading.
import internals from "./lab_api.js";
import { loadWasm, instantiate, noEntryUrl } from "./load.js";

// As the core's browser entry makes its URL (js/entries/browser.functions.js).
let url;
try {
  url = new URL("./calibrank_lab.wasm", import.meta.url);
} catch (e) {
  throw noEntryUrl("calibrank_lab.wasm", e);
}
const module = await loadWasm(url, "calibrank_lab.wasm");
instantiate(() => internals.init(module), "calibrank_lab.wasm");

export * from "./lab_api.js";
