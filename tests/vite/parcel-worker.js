// The worker of tests/vite/parcel-worker-main.js: calibrank/init given the module Parcel
// serves for `npm:calibrank/calibrank_pipeline.wasm`, then the pipeline-only app's call.
import init, { Pipeline } from "calibrank/init";
import { pipelineOnly } from "./fixture.js";

const ready = init(new URL("npm:calibrank/calibrank_pipeline.wasm", import.meta.url));
self.onmessage = async () => {
  await ready;
  const p = new Pipeline(pipelineOnly.config);
  const out = p.run(pipelineOnly.input);
  let errorCode = null;
  try {
    new Pipeline({ topN: 0 });
  } catch (e) {
    errorCode = e.code;
  }
  self.postMessage({ results: out.results, confidence: out.confidence, outcome: out.outcome, errorCode, config: p.config });
  p.free();
};
