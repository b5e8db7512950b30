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

/** Stops the worker (a cancelled job); the next getWorker() starts a new one. */
export function terminateWorker() {
  if (worker) worker.terminate();
  worker = null;
  workerReady = null;
}

/** A fresh job id. */
export const nextJob = () => ++job;

/**
 * Posts `message` (with a fresh id) and resolves with the worker's `done` answer;
 * `onProgress` gets its progress reports. A package error comes back as an Error
 * carrying the ScoreError's name, code and field.
 */
export async function request(message, onProgress) {
  const w = await getWorker();
  const id = nextJob();
  return new Promise((resolve, reject) => {
    const onMessage = (e) => {
      const d = e.data;
      if (d.id !== id) return;
      if (d.type === "progress") onProgress?.(d);
      else if (d.type === "done") {
        w.removeEventListener("message", onMessage);
        resolve(d.report);
      } else if (d.type === "error") {
        w.removeEventListener("message", onMessage);
        reject(Object.assign(new Error(d.error.message), d.error));
      }
    };
    w.addEventListener("message", onMessage);
    w.postMessage({ ...message, id });
  });
}
