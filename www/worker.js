// The lab off the main thread: optimizeFusion's grid search reports its progress after
// every configuration (the page's progress bar repaints meanwhile), and
// fitQueryConfidence fits the query-confidence model on the sample's judged queries.
let lib;
try {
  // optimizeFusion and fitQueryConfidence are in the lab entry (calibrank/lab); the
  // worker never loads the core.
  lib = await import("./pkg/lab.browser.js");
  self.postMessage({ type: "ready", version: lib.version() });
} catch (e) {
  self.postMessage({ type: "fatal", message: `calibrank did not load in the worker: ${e.message}` });
}

const OPS = {
  optimizeFusion: ({ id, qrels, runs, options }) =>
    lib.optimizeFusion(qrels, runs, options, (p) => self.postMessage({ id, type: "progress", done: p.done, total: p.total, bestScore: p.bestScore })),
  fitQueryConfidence: ({ qrels, runs, options }) => lib.fitQueryConfidence(qrels, runs, options),
};

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const { id } = data;
  if (!lib) return;
  try {
    const op = OPS[data.op || "optimizeFusion"];
    if (!op) throw new Error(`unknown operation ${data.op}`);
    self.postMessage({ id, type: "done", report: op(data) });
  } catch (e) {
    self.postMessage({ id, type: "error", error: { name: e.name, code: e.code, field: e.field, message: e.message } });
  }
});
