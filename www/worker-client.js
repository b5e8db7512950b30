// The playground's Web Worker (worker.js, the lab module off the main thread): one
// instance shared by fusion tuning and the query-confidence fit.
let worker = null;
let workerReady = null;
let job = 0;

/** The worker, started on first use; resolves once its wasm module is loaded. */
export function getWorker() {
  if (!worker) {
    const w = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    worker = w;
    workerReady = new Promise((resolve, reject) => {
      const onMessage = (e) => {
        if (e.data?.type === "ready") {
          w.removeEventListener("message", onMessage);
          resolve(w);
        } else if (e.data?.type === "fatal") reject(new Error(e.data.message));
      };
      w.addEventListener("message", onMessage);
      w.addEventListener("error", (e) => reject(new Error(e.message || "the worker failed to start")), { once: true });
    });
  }
  return workerReady;
}

/** Requests waiting on the worker: each one's `reject`. */
const pending = new Set();

/**
 * Stops the worker (a cancelled job); the next getWorker() starts a new one. Every
 * request still waiting on it (another panel's too, queued behind the cancelled job)
 * is rejected with an error marked `cancelled`, so that its panel can say so and
 * enable its button again (a fit queued behind a cancelled search waited for ever).
 */
export function terminateWorker() {
  if (worker) worker.terminate();
  worker = null;
  workerReady = null;
  const waiting = [...pending];
  pending.clear();
  for (const reject of waiting) reject(Object.assign(new Error("the worker was stopped (a job was cancelled)"), { cancelled: true }));
}

/** A fresh job id. */
export const nextJob = () => ++job;

/**
 * Posts `message` (with a fresh id) and resolves with the worker's `done` answer;
 * `onProgress` gets its progress reports. A package error comes back as an Error
 * carrying the ScoreError's name, code and field; a stopped worker (`terminateWorker`)
 * as an Error marked `cancelled`.
 */
export function request(message, onProgress) {
  return new Promise((resolve, reject) => {
    let w = null;
    let onMessage = null;
    const fail = (e) => {
      pending.delete(fail);
      if (w && onMessage) w.removeEventListener("message", onMessage);
      reject(e);
    };
    pending.add(fail);
    getWorker().then((ready) => {
      // Stopped while it started: already rejected.
      if (!pending.has(fail)) return;
      w = ready;
      const id = nextJob();
      onMessage = (e) => {
        const d = e.data;
        if (d.id !== id) return;
        if (d.type === "progress") onProgress?.(d);
        else if (d.type === "done") {
          pending.delete(fail);
          w.removeEventListener("message", onMessage);
          resolve(d.report);
        } else if (d.type === "error") fail(Object.assign(new Error(d.error.message), d.error));
      };
      w.addEventListener("message", onMessage);
      w.postMessage({ ...message, id });
    }, fail);
  });
}
