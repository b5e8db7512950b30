// The worker of tests/vite/parcel-worker-main.js: calibrank/init given the module Parcel
// serves for `npm:calibrank/calibrank_pipeline.wasm`, then the pipeline-only app's call.
import init, { Pipeline } from "calibrank/init";
import { runPipelineOnly } from "./fixture.js";

const ready = init(new URL("npm:calibrank/calibrank_pipeline.wasm", import.meta.url));
self.onmessage = async () => {
  await ready;
  self.postMessage(runPipelineOnly(Pipeline));
};
