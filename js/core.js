// calibrank: the scoring core. Every function reads the caller's values in JavaScript,
// writes one input buffer and makes one call into calibrank_core.wasm (js/wire.js); the
// numbers all come from the module. The parts, as the pipeline's stages (js/core/):
//   shared.js         the module's state, operation numbers, readers shared by all
//   scores.js         normalize, calibrate, classifyBand, queryConfidence, version, limits
//   fuse.js           rrf, rrfColumnar
//   multiquery.js     fuseMultiQuery
//   rerank.js         rerank
//   pipeline-input.js a pipeline's input encoded for the module
//   held-texts.js     the texts a reranking pipeline holds back until the module asks
//   pipeline.js       Pipeline
//   items.js          Items: a corpus's item metadata read once for many runs
//   held.js           the items an `Items` holds, shared by every copy of the package
//   typed-config.js   a configuration decoded and checked as the module would
//   pipeline-defaults.js  generated: what calibrank_pipeline.wasm does not carry
// scripts/build-pkg.sh bundles them into the package's core.js (js/wire.js and
// js/score_error.js stay modules of their own, shared with the lab).
import { ScoreError } from "./score_error.js";
import { holdsPipelineAlone } from "./wire.js";
import { state, pipelineState } from "./core/shared.js";
import { setTextsModule } from "./core/held-texts.js";
import { liveIn } from "./core/pipeline.js";

export { ScoreError };
export { version, errorCodes, defaultLimits, normalize, calibrate, classifyBand, queryConfidence } from "./core/scores.js";
export { rrf, rrfColumnar } from "./core/fuse.js";
export { fuseMultiQuery } from "./core/multiquery.js";
export { rerank } from "./core/rerank.js";
export { Pipeline, __livePipelines } from "./core/pipeline.js";
export { Items } from "./core/items.js";
export { __heldTextsCalls } from "./core/held-texts.js";
export { __dropScratch } from "./core/shared.js";

// For the entry modules only (`export *` does not re-export a default export): `init`
// instantiates the module (calibrank_core.wasm, which serves `Pipeline` too); `lazy`
// registers a loader run on the first call instead (Node), so importing the package costs
// nothing where it is never called; `texts` takes calibrank_texts.wasm compiled (the
// entries of engines that compile no wasm from bytes: see js/core/held-texts.js,
// TEXTS_MODULE). `pipeline.init` / `pipeline.misfit` / `pipeline.holds` instantiate, check
// and recognize `Pipeline`'s own module (calibrank_pipeline.wasm), and `share` / `shared`
// hand the whole core's loading from one browser entry to the other
// (js/entries/browser.js).
let sharedLoad = null;
export default {
  ...state.hooks(),
  texts: setTextsModule,
  pipeline: { init: (module) => pipelineState.init(module), misfit: (module) => pipelineState.misfit(module), holds: holdsPipelineAlone },
  // Pipelines alive in the whole core's module, whichever module Pipeline runs on (tests).
  livePipelinesInCore: () => liveIn(state),
  share: (loading) => {
    sharedLoad = loading;
  },
  shared: () => sharedLoad,
};
