// A page whose scoring runs in a module Web Worker built by Parcel 2
// (tests/js/bundlers.test.mjs): Parcel wraps each module of a worker's bundle in a
// function, where the main entries' top-level await cannot run, so the worker imports
// calibrank/init (the README's "In a Web Worker").
const worker = new Worker(new URL("./parcel-worker.js", import.meta.url), { type: "module" });
worker.onerror = (e) => {
  window.__result = { workerError: e.message || String(e) };
};
worker.onmessage = ({ data }) => {
  window.__result = data;
  document.getElementById("out").textContent = JSON.stringify(data, null, 2);
};
worker.postMessage("run");
