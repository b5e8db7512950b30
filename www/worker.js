// Fusion tuning off the main thread: optimizeFusion's grid search reports its progress
// after every configuration, and the page's progress bar repaints meanwhile.
let lib;
try {
  // optimizeFusion is in the lab entry (calibrank/lab); the worker never loads the core.
  lib = await import("./pkg/lab.browser.js");
  self.postMessage({ type: "ready", version: lib.version() });
} catch (e) {
  self.postMessage({ type: "fatal", message: `calibrank did not load in the worker: ${e.message}` });
}

self.addEventListener("message", (event) => {
  const { id, qrels, runs, options } = event.data || {};
  if (!lib) return;
  try {
    const report = lib.optimizeFusion(qrels, runs, options, (p) => self.postMessage({ id, type: "progress", done: p.done, total: p.total, bestScore: p.bestScore }));
    self.postMessage({ id, type: "done", report });
  } catch (e) {
    self.postMessage({ id, type: "error", error: { name: e.name, code: e.code, field: e.field, message: e.message } });
  }
});
