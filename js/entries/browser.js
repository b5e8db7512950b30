// Browsers (plain <script type="module">, Vite, webpack, Parcel): fetch and compile the
// core's wasm next to this file before the module finishes loading.
import internals from "./core.js";
import { loadWasm } from "./load.js";

internals.init(await loadWasm(new URL("./calibrank_core.wasm", import.meta.url), "calibrank_core.wasm"));

export * from "./core.js";
