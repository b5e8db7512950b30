// Browsers (plain <script type="module">, Vite, webpack, Parcel): fetch and compile the
// lab's wasm next to this file before the module finishes loading.
import internals from "./lab_api.js";
import { loadWasm, instantiate } from "./load.js";

const module = await loadWasm(new URL("./calibrank_lab.wasm", import.meta.url), "calibrank_lab.wasm");
instantiate(() => internals.init(module), "calibrank_lab.wasm");

export * from "./lab_api.js";
