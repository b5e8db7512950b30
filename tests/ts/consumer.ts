// A TypeScript consumer of the package, compiled with `tsc --strict --noEmit`
// against the package's own .d.ts (resolved through the exports map): the core from
// "calibrank", evaluation and tuning from "calibrank/lab".
import {
  Pipeline,
  Items,
  ScoreError,
  rrf,
  rrfColumnar,
  fuseMultiQuery,
  rerank,
  normalize,
  calibrate,
  classifyBand,
  queryConfidence,
  defaultLimits,
  errorCodes,
  version,
  __livePipelines,
  __heldTextsCalls,
  type Limits,
  type ErrorCode,
  type Calibration,
  type PipelineConfig,
  type PipelineInput,
  type RrfOptions,
  type WithLimits,
  type PipelineOutput,
  type PoolScale,
  type RetrievalOutcome,
  type Band,
  type Explain,
  type PipelineResult,
  type Outcome,
  type QueryConfidenceModel,
  type ReadonlyArrays,
  type Sigmoid,
  type BandProfile,
} from "calibrank";
import {
  ScoreError as LabScoreError,
  optimizeFusion,
  fitPlatt,
  fitIsotonic,
  applyCalibration,
  calibrationError,
  proposeBands,
  evaluate,
  evaluatePerQuery,
  fuseRuns,
  parseTrecRun,
  parseQrels,
  defaultLimits as labDefaultLimits,
  Run,
  Qrels,
  __liveHandles,
  fitQueryConfidence,
  predictQueryConfidence,
  evaluateQueryConfidence,
  type QueryConfidenceEvaluation,
  type RunObject,
  type QrelsObject,
  type OptimizeProgress,
  type TunedFusionMethod,
  type OptimizeReport,
  type FuseRunsOptions,
} from "calibrank/lab";
// @ts-expect-error: the lab functions are not in the core entry
import { fitPlatt as notInCore } from "calibrank";
// @ts-expect-error: the core's functions are not in the lab entry
import { rrf as notInLab } from "calibrank/lab";

const config: PipelineConfig = {
  topK: 20,
  topN: 5,
  recency: { mode: "step", steps: [{ maxAgeDays: 7, multiplier: 1.2 }] },
  calibration: { method: "sigmoid", threshold: 0.02 },
  bands: { highFloor: 0.9, degradedFloor: 0.6, profiles: [{ name: "rust", language: "rust", highFloor: 0.8, degradedFloor: 0.5 }] },
};
const input: PipelineInput = {
  query: "authentication",
  lists: [{ name: "semantic", ids: ["a", "b"] }, { name: "keyword", ids: ["b"], scores: [3.5], weight: 0.5 }],
  items: { a: { modifiedAt: "2026-11-01T00:00:00Z", type: "class" } },
  now: Date.now(),
};
const out: PipelineOutput = new Pipeline(config).run(input);
// A call's own topN (a number; a string is a type error).
const perCall: PipelineOutput = new Pipeline(config).run({ ...input, topN: 2 });
// @ts-expect-error topN is a number
new Pipeline(config).run({ ...input, topN: "2" });
// Items read once, for many runs (a record or a Map; its size a number).
const held = new Items(new Map([["a", { modifiedAt: new Date(), name: "Auth" }]]));
const viaHeld: PipelineOutput = new Pipeline(config).run({ ...input, items: held });
const heldSize: number = held.size + new Items({ b: null }).size;
// @ts-expect-error an Items is made from items, not from a list
new Items(["a"]);
// Another object with a `size` is no Items (the runtime refuses them): a Set of ids, a
// plain object, a lab Run.
// @ts-expect-error a Set is not items
new Items(new Set(["a"]));
// @ts-expect-error nor is an object with a size
const fakeItems: Items = { size: 0 };
// @ts-expect-error a Set given as a pipeline's items
new Pipeline().run({ lists: [], items: new Set(["a"]) });
console.log(fakeItems);
console.log(viaHeld.results.length, heldSize);
for (const r of out.results) {
  const band: Band = r.band;
  const fused: number | undefined = r.explain?.fused;
  console.log(r.id.toUpperCase(), r.score.toFixed(3), band, fused);
}
const top5: number = out.confidence.weightedTop5;
// A pipeline's `explain` written as a literal types its results' `explain`: present for
// `true`, absent for `false`, maybe for a configuration typed `PipelineConfig` or without it.
const explaining = new Pipeline({ ...config, explain: true });
const alwaysExplained: Explain[] = explaining.run(input).results.map((r) => r.explain);
const silent = new Pipeline({ explain: false });
const neverExplained: undefined[] = silent.run(input).results.map((r) => r.explain);
// The pool's scale narrows on its method: each method's numbers, no other's.
const scale: PoolScale | undefined = explaining.run(input).pool?.normalization;
if (scale?.method === "min_max") {
  const span: number = scale.max - scale.min;
  // @ts-expect-error min-max has no mean
  const notMinMax: number = scale.mean;
}
const ce = explaining.run(input).pool?.crossEncoder;
const ceMin: number | undefined = ce?.method === "min_max" ? ce.min : undefined;
// @ts-expect-error the cross-encoder's scores kept raw have no range
const ceRange: number | undefined = ce?.min;
new Pipeline({ rerank: { method: "cross_encoder", crossEncoderNormalization: "none" } });
// @ts-expect-error the cross-encoder's scores: min_max or none
new Pipeline({ rerank: { crossEncoderNormalization: "z_score" } });
const noPool: undefined = silent.run(input).pool;
// @ts-expect-error a pipeline with explain false gives no pool
const poolThere: PoolScale = silent.run(input).pool!.normalization;
// @ts-expect-error a pipeline with explain false gives no explanation
const notThere: Explain = silent.run(input).results[0]!.explain;
// @ts-expect-error a pipeline whose explain is not known from its type may give none
const maybe: Explain[] = new Pipeline(config).run(input).results.map((r) => r.explain);
// @ts-expect-error nor one made without a configuration (its type does not say the default)
const byDefault: Explain[] = new Pipeline().run(input).results.map((r) => r.explain);
// A pipeline not known to explain is no Pipeline<true> (nor its output a
// PipelineOutput<true>): its results may lack what one that explains guarantees.
const fromConfig = new Pipeline(config);
// @ts-expect-error a Pipeline<boolean> is not a Pipeline<true>
const notSure: Pipeline<true> = fromConfig;
// @ts-expect-error nor its output a PipelineOutput<true>
const notSureOut: PipelineOutput<true> = fromConfig.run(input);
// @ts-expect-error nor a Pipeline<false>
const notSilent: Pipeline<false> = fromConfig;
// @ts-expect-error a pipeline that explains is no Pipeline<false>
const notLean: Pipeline<false> = explaining;
// A configuration kept in a const keeps its literal with `satisfies` (not without).
const kept = { topN: 3, explain: true } satisfies PipelineConfig;
const viaKept: Explain[] = new Pipeline(kept).run(input).results.map((r) => r.explain);
const widened = { topN: 3, explain: true };
// @ts-expect-error a const object's `explain` is a boolean: its results may have none
const viaWidened: Explain[] = new Pipeline(widened).run(input).results.map((r) => r.explain);
console.log(viaKept, viaWidened);
// A Pipeline<false> is one whose configuration says `explain: false` (the default is true).
// @ts-expect-error explain not given: the pipeline explains
const leanByName: Pipeline<false> = new Pipeline({ topN: 3 });
// @ts-expect-error nor without a configuration
const leanByDefault: Pipeline<false> = new Pipeline();
// @ts-expect-error nor with null
new Pipeline<false>(null);
class Lean extends Pipeline<false> {
  constructor() {
    // @ts-expect-error a subclass's super() needs it too
    super();
  }
}
const lean: Pipeline<false> = new Pipeline({ topN: 3, explain: false });
// @ts-expect-error a Pipeline<never> cannot be made (it would pass for any Pipeline<E>)
new Pipeline<never>({ explain: false });
console.log(notSure, notSureOut, notSilent, notLean, leanByName, leanByDefault, Lean, lean);
// What compiled before the types took `explain` still does: a result written out, an
// interface or a class on PipelineResult, a Pipeline variable, a subclass.
const written: PipelineResult = { id: "a", score: 0.5, band: "hit" };
interface TaggedResult extends PipelineResult {
  tag: string;
}
class OwnResult implements PipelineResult {
  id = "a";
  score = 0.5;
  band: Band = "hit";
}
let reassigned: Pipeline = new Pipeline(config);
reassigned = new Pipeline({ explain: false });
class Mine extends Pipeline {}
const tagged: TaggedResult = { ...written, tag: "t" };
console.log(tagged, new OwnResult(), reassigned, new Mine());
// Each is a Pipeline, and its output a PipelineOutput (the types without a parameter).
const anyPipelines: Pipeline[] = [explaining, silent, new Pipeline(null)];
const anyOutputs: PipelineOutput[] = anyPipelines.map((p) => p.run(input));
const anyResult: PipelineResult | undefined = explaining.run(input).results[0];
console.log(alwaysExplained.length, neverExplained.length, notThere, maybe, byDefault, anyOutputs.length, anyResult?.explain?.fused);

const pairs: Array<[id: string, score: number]> = rrf([["a", "b"], ["b"]], { k: 60, weights: [1, 2] });
const col: { order: Uint32Array; scores: Float64Array } = rrfColumnar(new Uint32Array([0, 1, 1]), new Uint32Array([0, 2, 3]), 2);
const mq = fuseMultiQuery([[{ id: "a", score: 0.9, timestamp: "2026-01-01" }]], { method: "score_max", verbose: true });
const count: number | undefined = mq.results[0]?.appearedInQueryCount;
const reranked = rerank("GraphTraversal", [{ id: "g", score: 0.1, name: "GraphTraversal", type: "class" }]);
const rs: number = reranked[0]!.rerankedScore;
const n: Float64Array = normalize(new Float64Array([1, 2]), "min_max");
const c: Float64Array = calibrate([0.03], { steepness: 120 });
const q = queryConfidence(c);
const p1: number = q.atLeastOneRelevant;

// RetrievalOutcome is a union discriminated on `kind`.
const outcome: RetrievalOutcome = classifyBand(0.9, { highFloor: 0.85 });
switch (outcome.kind) {
  case "hit":
  case "degraded":
    console.log(outcome.score);
    break;
  case "miss":
    // @ts-expect-error: a miss carries no score
    console.log(outcome.score);
    break;
}
// @ts-expect-error: "excellent" is not a band kind
const wrong: RetrievalOutcome = { kind: "excellent", score: 1 };
// @ts-expect-error: normalize takes one of the documented method names
normalize([1], "minmax");
// @ts-expect-error: topN is a number
new Pipeline({ topN: "5" });

try {
  new Pipeline({ topN: 0 });
} catch (e) {
  if (e instanceof ScoreError) {
    const code: ErrorCode = e.code;
    const field: string = e.field;
    // @ts-expect-error: codes are a closed union
    const nope: ErrorCode = "NOT_A_CODE";
    console.log(code, field, nope);
  }
}
const report = optimizeFusion({ q: { a: 1 } }, [{ q: { a: 1, b: 2 } }, { q: { b: 1, a: 2 } }], { method: "rrf", metric: "mrr" });
const bestK: number | undefined = report.best.params["k"];
const fitted = fitPlatt([0.1, 0.9], [0, 1]);
const tuned = new Pipeline({ calibration: fitted });
console.log(top5, pairs, col, count, rs, n, p1, wrong, bestK, tuned);

// Limits: defaults fully typed, per-call limits in every function's options.
const limits: Required<Limits> = defaultLimits();
const entries: number = limits.maxTotalEntries;
const rrfEntries: number = defaultLimits("rrf").maxTotalEntries;
const labEntries: number = defaultLimits("evaluatePerQuery").maxTotalEntries;
console.log(rrfEntries, labEntries);
// @ts-expect-error: function names are case-sensitive (a ScoreError UNKNOWN_METHOD at run time)
defaultLimits("pipeline");
rrf([["a"]], { k: 60, limits: { maxTotalEntries: 2 * entries } });
const run = parseTrecRun("q1 Q0 d1 1 1.0 t", { limits: { maxTotalTextBytes: 1_000_000 } });
const ndcg: number | undefined = evaluate({ q1: { d1: 1 } }, run, ["ndcg@10"], { limits: { maxTotalEntries: 10 } })["ndcg@10"];
// The metrics written as literals key the result: each one asked for is there.
const means = evaluate({ q1: { d1: 1 } }, run, ["ndcg@10", "mrr"]);
const sureNdcg: number = means["ndcg@10"] + means.mrr;
// @ts-expect-error a metric not asked for is not in the result
const notAsked: number = means.map;
const perQueryMrr: Record<string, number> = evaluatePerQuery({ q1: { d1: 1 } }, run, ["mrr"]).mrr;
// Names only known as strings give a record of strings, each maybe absent.
const someNames: string[] = ["mrr"];
// @ts-expect-error a name not known to have been asked for may be absent
const maybeMrr: number = evaluate({ q1: { d1: 1 } }, run, someNames)["mrr"];
console.log(sureNdcg, notAsked, perQueryMrr, maybeMrr);
new Pipeline({ limits: { maxColumnarEntries: 8_000_000 } });
// @ts-expect-error: a misspelled limit
rrf([["a"]], { limits: { maxEntries: 10 } });
// @ts-expect-error: limits are numbers
calibrate([0.1], { limits: { maxListLength: "10" } });
console.log(ndcg);

// `null` where the declarations allow it is the default; elsewhere it does not compile
// (and is INVALID_TYPE at run time).
rrf([["a"]], { k: null, weights: null, limits: null });
rrf([["a"]], { limits: { maxTotalEntries: null } });
new Pipeline({ limits: null, rerank: { candidateLimit: null }, confidence: { k: null, model: null } });
normalize([1, 2], "softmax", { temperature: null });
// @ts-expect-error: calibrate's threshold has a value of its own by default: null is refused
calibrate([0.1], { threshold: null });
// @ts-expect-error: so has the Pipeline's k
new Pipeline({ k: null });
evaluate({ q1: { d1: 1 } }, { q1: { d1: 1 } }, ["mrr"], { ties: null, limits: { maxLists: null } });

// The lab entry shares the core's ScoreError class and limits.
const sameClass: typeof ScoreError = LabScoreError;
const labLimits: Required<Limits> = labDefaultLimits();
const codes: ErrorCode[] = errorCodes();
const ver: string = version();
console.log(sameClass, labLimits, codes, ver, notInCore, notInLab);

// Runs, qrels, metrics and run fusion.
const qrels: QrelsObject = parseQrels("q1 0 d1 1");
const perQuery: Record<string, Record<string, number>> = evaluatePerQuery(qrels, run, ["mrr"]);
const fusedRun: RunObject = fuseRuns([run, run], { method: "wsum", weights: [0.5, 0.5], limits: { maxLists: 4 } });

// Run and Qrels handles: every lab function takes them; fuseRuns of Runs is a Run.
const runHandle: Run = Run.fromTrec("q1 Q0 d1 1 1.0 t", { limits: { maxTotalTextBytes: 1_000 } });
const qrelsHandle: Qrels = Qrels.fromObject({ q1: { d1: 1 } });
const fusedHandle: Run = fuseRuns([runHandle, Run.fromObject(fusedRun)], { method: "rrf" });
// Methods and normalizations are the module's names (a typo is a compile error).
// @ts-expect-error "rff" is no fusion method
fuseRuns([run, run], { method: "rff" });
// @ts-expect-error "minmax" is no normalization (ranx writes "min-max")
fuseRuns([run, run], { method: "sum", norm: "minmax" });
// @ts-expect-error optimizeFusion has nothing to tune in "sum"
optimizeFusion(qrelsHandle, [runHandle, fusedRun], { method: "sum" });
// @ts-expect-error a Run is no pipeline's items (it has a size, not the Items brand)
new Pipeline().run({ lists: [], items: runHandle });
// The report names its method as the union does (a string would not be one).
const tunedMethod: TunedFusionMethod = report.method;
console.log(tunedMethod);
const tied: number | undefined = evaluate(qrelsHandle, fusedHandle, ["mrr"], { ties: "trec_eval" }).mrr;
const handleSize: number = runHandle.size;
const ids: string[] = fusedHandle.queryIds;
const asObject: RunObject = fusedHandle.toObject();
// A split by query keeps each kind; one query's list fits a pipeline's.
const fitHalf: Run = fusedHandle.select(["q1"]);
const judgedHalf: Qrels = qrelsHandle.select(["q1"] as const);
const oneList: { ids: string[]; scores: number[] } = fitHalf.ranking("q1");
new Pipeline().run({ lists: [{ name: "fused", ...oneList }] });
// @ts-expect-error a Qrels has no ranking
judgedHalf.ranking("q1");
// @ts-expect-error select takes query ids, not one
fitHalf.select("q1");
optimizeFusion(qrelsHandle, [runHandle, fusedRun], { method: "wsum" });
// @ts-expect-error: ties is "ranx" or "trec_eval"
evaluate(qrelsHandle, runHandle, ["mrr"], { ties: "random" });
// @ts-expect-error: judgements where the run goes
evaluate(qrelsHandle, qrelsHandle, ["mrr"]);
// @ts-expect-error: made by fromTrec / fromObject only
new Run();
{
  using scoped = Qrels.fromTrec("q1 0 d1 1");
  console.log(scoped.size);
}
fusedHandle.free();
runHandle[Symbol.dispose]();
qrelsHandle.free();
console.log(tied, handleSize, ids, asObject, __liveHandles());
// The core's diagnostics are declared (the runtime exports them).
const liveCount: number = __livePipelines() + __heldTextsCalls();
console.log(liveCount);
// @ts-expect-error: fuseRuns needs its options (at least `method`)
fuseRuns([run, run]);
// @ts-expect-error: fuseRuns's method is required
fuseRuns([run], { norm: "min-max" });
// @ts-expect-error: a misspelled limit in a lab function
evaluate(qrels, run, ["mrr"], { limits: { maxRuns: 2 } });
const progress: OptimizeProgress[] = [];
const tunedK = optimizeFusion(qrels, [run, fusedRun], { method: "rrf", kValues: [10, 60] }, (p) => {
  progress.push(p);
  const left: number = p.total - p.done;
  console.log(left, p.bestScore.toFixed(3));
});
const trialWeights: number[] | undefined = tunedK.trials[0]?.weights;
// A tuned setting goes back into fuseRuns as it is: the report is typed by its method.
const reFused: RunObject = fuseRuns([run, fusedRun], { method: tunedK.method, weights: tunedK.best.weights, params: tunedK.best.params });
const bestKOf: number = tunedK.best.params.k;
const tunedW = optimizeFusion(qrels, [run, fusedRun], { method: "wsum", norm: "zmuv", step: 0.5 });
const wBest: number[] = tunedW.best.weights;
fuseRuns([run, fusedRun], { method: tunedW.method, norm: "zmuv", weights: tunedW.best.weights, params: tunedW.best.params });
const tunedPhi = optimizeFusion(qrelsHandle, [runHandle, fusedRun], { method: "rbc", step: 0.5 });
fuseRuns([runHandle, fusedHandle], { method: tunedPhi.method, params: tunedPhi.best.params });
// No method: wsum's search, and wsum's trials.
const wsumWeights: number[] = optimizeFusion(qrels, [run, fusedRun]).best.weights;
const bestPhi: number = tunedPhi.best.params.phi;
// @ts-expect-error rrf's tuned k is no parameter of wsum
fuseRuns([run, fusedRun], { method: "wsum", params: tunedK.best.params });
// @ts-expect-error a weighted search's best weights are no rrf option
fuseRuns([run, fusedRun], { method: "rrf", weights: tunedW.best.weights });
// A method known only as the union: the report's trials are any method's.
declare const someMethod: TunedFusionMethod;
const anyReport: OptimizeReport = optimizeFusion(qrels, [run, fusedRun], { method: someMethod });
const anyK: number | undefined = anyReport.best.params["k"];
// A method that may be absent is wsum's search at run time: any method's report, not rrf's.
declare const maybeRrf: { method?: "rrf" };
const unsure = optimizeFusion(qrels, [run, fusedRun], maybeRrf);
const unsureMethod: TunedFusionMethod = unsure.method;
// @ts-expect-error the search is not known to be rrf's
const unsureRrf: "rrf" = unsure.method;
// The report of old stays an interface: extended, its trials pushed to.
interface MyReport extends OptimizeReport {
  label: string;
}
const mine: MyReport = { ...tunedK, label: "k" };
mine.trials.push(tunedW.best);
console.log(unsureMethod, unsureRrf);
console.log(reFused, bestKOf, bestPhi, wBest, wsumWeights, anyK);
console.log(perQuery, trialWeights);

// Fitted calibrations are core `Calibration`s.
const iso: Calibration = fitIsotonic(new Float64Array([0.1, 0.9]), [0, 1]);
const applied: Float64Array = applyCalibration([0.5], iso, { limits: { maxListLength: 10 } });
applyCalibration([0.5], { method: "sigmoid", threshold: 0.02 });
// @ts-expect-error: not a calibration method
applyCalibration([0.5], { method: "beta", a: 1, b: 2 });
// @ts-expect-error: a Platt model needs both `a` and `b`
applyCalibration([0.5], { method: "platt", a: 1 });

// Calibration error and band floors from evidence.
const calErr = calibrationError([0.2, 0.8], [0, 1], { bins: 5, strategy: "quantile" });
const ece: number = calErr.ece;
const meanOfBin: number | null | undefined = calErr.bins[0]?.meanConfidence;
// @ts-expect-error: an empty bin's mean confidence is null
const alwaysMean: number = calErr.bins[0]!.meanConfidence;
// @ts-expect-error: the bin strategy is "uniform" or "quantile"
calibrationError([0.2], [1], { strategy: "equal" });
const proposal = proposeBands([0.2, 0.8, 0.9], [0, 1, 1], { targetPrecision: 0.9, folds: 2, seed: 1 });
const heldOutPrecision: number | null = proposal.heldOut.hit.precision;
new Pipeline({ bands: { highFloor: proposal.highFloor, degradedFloor: proposal.degradedFloor } });
// @ts-expect-error: a proposal whole is no band configuration (UNKNOWN_FIELD at run time)
new Pipeline({ bands: proposal });
// @ts-expect-error: nor as classifyBand's floors (UNKNOWN_FIELD on options.targetPrecision)
classifyBand(0.9, proposal);
// @ts-expect-error: nor spread into a band profile
new Pipeline({ bands: { profiles: [{ name: "p", ...proposal }] } });
classifyBand(0.9, { highFloor: proposal.highFloor, degradedFloor: proposal.degradedFloor });
// The guard is no field of what the pipeline gives back (Effective<> leaves it out).
type GuardKept = "targetPrecision" extends keyof EffectiveBands ? true : false;
type EffectiveBands = ReturnType<typeof effectiveBandsOf>;
const effectiveBandsOf = () => new Pipeline().config.bands;
const guardKept: GuardKept = false;
const profilesKept: BandProfile[] = effectiveBandsOf().profiles;
// @ts-expect-error: no such field
console.log(new Pipeline().config.bands.targetPrecision, guardKept, profilesKept);
console.log(applied, ece, meanOfBin, alwaysMean, heldOutPrecision, proposal.warnings.join("\n"));

// Pipeline is Disposable (the declarations bring lib esnext.disposable themselves).
{
  using scoped = new Pipeline({ topN: 1 });
  console.log(scoped.run(input).results.length, scoped.config.topN);
}
const disposable: Disposable = new Pipeline();
disposable[Symbol.dispose]();

// Query confidence: a model fitted in the lab plugs into the core's pipeline; the outcome
// is a union on `kind`.
const qcModel: QueryConfidenceModel = fitQueryConfidence({ q: { a: 1 }, r: { b: 0 } }, [{ q: { a: 3 }, r: { b: 1 } }], { k: 3, l2: 0.5 });
const qcP: Record<string, number> = predictQueryConfidence(qcModel, [{ q: { a: 3 } }]);
// Measured on held-out judged queries: AUROC null when one class, labels as booleans.
const qcEval: QueryConfidenceEvaluation = evaluateQueryConfidence(qcModel, { q: { a: 1 } }, [{ q: { a: 3 } }], { limits: { maxTotalEntries: 10 } });
const qcAuroc: number | null = qcEval.auroc;
const qcRelevant: boolean | undefined = qcEval.perQuery["q"]?.relevant;
// @ts-expect-error the AUROC may be null
const qcAurocNumber: number = qcEval.auroc;
console.log(qcAuroc, qcRelevant, qcAurocNumber);
{
  using qcRun = Run.fromObject({ q: { a: 3 }, r: { b: 1 } });
  using qcQrels = Qrels.fromObject({ q: { a: 1 }, r: { b: 0 } });
  predictQueryConfidence(fitQueryConfidence(qcQrels, [qcRun], { k: 3 }), [qcRun]);
}
const withModel = new Pipeline({ confidence: { model: qcModel, answerFloor: 0.6, hedgeFloor: 0.25 } });
const qcOut: Outcome = withModel.run({ lists: [{ name: "bm25", ids: ["a"], scores: [3] }] }).outcome;
switch (qcOut.kind) {
  case "answer":
  case "hedge":
  case "abstain":
    console.log(qcOut.probability, qcOut.source, qcP);
    break;
  default: {
    const never: never = qcOut;
    console.log(never);
  }
}
// @ts-expect-error: not an outcome kind
const wrongKind: Outcome["kind"] = "maybe";
// @ts-expect-error: the floors are numbers
new Pipeline({ confidence: { answerFloor: "high" } });
console.log(wrongKind);

// The entries without top-level await: init() takes a URL, Response, bytes or module.
import init, { initSync, isInitialized, Pipeline as InitPipeline, type InitInput } from "calibrank/init";
import { init as initLab, fitPlatt as initFitPlatt, ScoreError as InitScoreError } from "calibrank/lab/init";
const wasmUrl: InitInput = new URL("https://example.com/calibrank_core.wasm");
void init(wasmUrl).then(() => new InitPipeline({ topN: 1 }));
void init(fetch("/calibrank_core.wasm"));
void initLab(new Uint8Array(8));
initSync(new ArrayBuffer(8));
const ready: boolean = isInitialized();
const sameError: boolean = InitScoreError === ScoreError;
console.log(ready, sameError, initFitPlatt);
// @ts-expect-error: a number is not a place for the .wasm
void init(42);
// @ts-expect-error: initSync cannot fetch
initSync("/calibrank_core.wasm");

// Read-only inputs (`as const`, ReadonlyArray) and Dates are taken where the runtime takes them.
const frozenLists = [["a", "b"], ["b"]] as const;
rrf(frozenLists);
const frozenIds: readonly string[] = Object.freeze(["a", "b"]);
new Pipeline().run({ lists: [{ name: "s", ids: frozenIds, scores: new Float64Array([0.9, 0.8]) }], now: new Date(), items: { a: { modifiedAt: new Date(0) } } });
rrf([["a"]], { weights: new Float64Array([1]) });
const frozenMetrics: readonly string[] = ["mrr"];
evaluate({ q1: { d1: 1 } }, run, frozenMetrics);
normalize(Object.freeze([1, 2]), "max");
const outcome2: RetrievalOutcome = classifyBand(0.9);
// @ts-expect-error: classifyBand names no item
console.log(outcome2.kind === "hit" ? outcome2.item : undefined);
// A Map of items, as the runtime reads it.
new Pipeline().run({ lists: [{ name: "s", ids: ["a"] }], items: new Map([["a", { name: "A" }]]) });
// An entry given null is an item with no fields (a row whose metadata is NULL).
new Pipeline().run({ lists: [{ name: "s", ids: ["a", "b"] }], items: { a: null, b: { name: "B" } } });
new Pipeline().run({ lists: [{ name: "s", ids: ["a"] }], items: new Map([["a", null]]) });
// The input types stay data types a caller builds and changes.
const built: PipelineInput = { lists: [], items: {}, now: 0 };
built.lists.push({ name: "s", ids: [] });
built.lists[0]?.ids.push("a");
built.items!["a"] = { modifiedAt: 0 };
const nowMs: number = typeof built.now === "number" ? built.now : 0;
console.log(nowMs, new Pipeline().run(built).results.length);
const effectiveMaxLists: number = new Pipeline({ limits: { maxLists: 4 } }).config.limits.maxLists;
const givenLimits: RrfOptions & WithLimits = { limits: { maxLists: 2 } };
console.log(effectiveMaxLists, givenLimits.limits?.maxLists);
new Pipeline().runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, modifiedAt: [0], now: new Date(), context: { taskClass: "chat" }, topN: 1 });
// Read-only arrays in configurations and options (`as const`), as the runtime reads them.
const steps = [{ maxAgeDays: 7, multiplier: 1.2 }] as const;
const frozenConfig = {
  recency: { mode: "step", steps },
  rerank: { method: "heuristic", heuristic: { stopwords: ["the", "a"] } },
  confidence: { weights: [0.35, 0.25, 0.2, 0.12, 0.08] },
  bands: { profiles: [{ name: "p", language: "en", highFloor: 0.8, degradedFloor: 0.5 }] },
} as const;
new Pipeline(frozenConfig).free();
fuseRuns([run, run], { method: "wsum", weights: [0.5, 0.5] as const });
// params and weights by method: rbc's phi and gmnz's gamma are required (ranx has no
// default), rrf takes k, only the weighted methods take weights.
fuseRuns([run, run], { method: "rbc", params: { phi: 0.8 } });
fuseRuns([run, run], { method: "rrf", params: { k: 10 } });
fuseRuns([run, run], { method: "rrf" });
fuseRuns([run, run], { method: "logn_isr", params: {} });
fuseRuns([run, run], { method: "sum", params: {}, weights: null });
fuseRuns([run, run], { method: "dbsf", weights: [1, 2] });
// @ts-expect-error rbc needs params.phi
fuseRuns([run, run], { method: "rbc" });
// @ts-expect-error gmnz needs params.gamma
fuseRuns([run, run], { method: "gmnz", params: {} });
// @ts-expect-error rrf's parameter is k, not K
fuseRuns([run, run], { method: "rrf", params: { K: 60 } });
// @ts-expect-error rrf takes no phi
fuseRuns([run, run], { method: "rrf", params: { phi: 0.5 } });
// @ts-expect-error sum takes no weights
fuseRuns([run, run], { method: "sum", weights: [1] });
// A method known only at run time: annotated with the union.
const chosen: FuseRunsOptions = { method: "wsum", weights: [0.3, 0.7] };
fuseRuns([run, run], chosen);
optimizeFusion({ q: { a: 1 } }, [run, run], { method: "rrf", kValues: [10, 60] as const });
const frozenModel = fitQueryConfidence({ q: { a: 1 } }, [run], { weights: [1] as const });
new Pipeline({ confidence: { model: frozenModel } }).free();
applyCalibration([0.5], { method: "isotonic", x: [0, 1], y: [0, 1] } as const);
const frozenQc: ReadonlyArrays<QueryConfidenceModel> = Object.freeze({ ...frozenModel, weights: [1] as const });
predictQueryConfidence(frozenQc, [run]);
new Pipeline({ confidence: { model: frozenQc } }).free();
rerank("q", [{ id: "a", score: 1, name: "A" }], { stopwords: ["the"] as const });
// typeMultipliers' keys are lowercase (the candidate's type is lowercased before the
// lookup; a key with an uppercase letter is INVALID_CONFIG at run time).
rerank("q", [{ id: "a", score: 1, name: "A", type: "Class" }], { typeMultipliers: { class: 2, "test-file": 0.5 } });
// @ts-expect-error an uppercase key can never match
rerank("q", [{ id: "a", score: 1, name: "A" }], { typeMultipliers: { Class: 2 } });
new Pipeline({ rerank: { method: "heuristic", heuristic: { typeMultipliers: { module: 0.8 } } } }).free();
queryConfidence([0.9], { weights: [0.35, 0.25, 0.2, 0.12, 0.08] as const });
// Configuration types stay data a caller builds and changes.
const builtConfig: PipelineConfig = { recency: { steps: [] } };
builtConfig.recency?.steps?.push({ maxAgeDays: 3, multiplier: 1.5 });
new Pipeline(builtConfig).free();
// Under exactOptionalPropertyTypes (tsconfig.json): a caller's optional fields pass
// through as they are (the runtime reads `undefined` as not given, as the types now say).
declare const doc: { title: string; updated?: number; summary?: string; topN?: number };
new Pipeline({ topN: doc.topN, rerank: { candidateLimit: undefined } }).run({
  lists: [{ name: "s", ids: ["a"], weight: undefined }],
  items: { a: { name: doc.title, modifiedAt: doc.updated, summary: doc.summary } },
  now: undefined,
});
rerank("q", [{ id: "a", score: 1, name: doc.title, summary: doc.summary }], { limits: { maxTextBytes: undefined } });
// A sigmoid calibration is a `Sigmoid` with its method: its optional fields take
// `undefined` too, and a `Sigmoid` spreads into it.
declare const sig: Sigmoid;
new Pipeline({ calibration: { method: "sigmoid", threshold: undefined } }).free();
new Pipeline({ calibration: { method: "sigmoid", ...sig } }).free();
// Without `method`, a sigmoid (its parameters as `calibrate` takes them); the effective
// configuration names the method always.
const bareSigmoid = new Pipeline({ calibration: { threshold: 0.02 } });
const effectiveMethod: "sigmoid" | "platt" | "isotonic" = bareSigmoid.config.calibration.method;
console.log(effectiveMethod);
const effective = bareSigmoid.config.calibration;
bareSigmoid.free();
new Pipeline({ calibration: { ...sig } }).free();
applyCalibration([0.5], { steepness: 90 });
// @ts-expect-error: a Platt model's fields need their `method`
new Pipeline({ calibration: { a: -2, b: 1 } });
// `Calibration` itself stays a union tagged by `method` (what `Pipeline.config` gives and
// the fits return): a switch on it is exhaustive.
function describeCalibration(c: Calibration): string {
  switch (c.method) {
    case "sigmoid":
      return `sigmoid ${c.threshold ?? 0.035}`;
    case "platt":
      return `platt ${c.a}`;
    case "isotonic":
      return `isotonic ${c.x.length}`;
    default: {
      const none: never = c;
      return none;
    }
  }
}
console.log(describeCalibration(effective));
// @ts-expect-error: a sigmoid has no Platt fields (with its parameters, `method` left out)
new Pipeline({ calibration: { threshold: 0.02, a: 1 } });
// @ts-expect-error: nor isotonic knots
applyCalibration([0.5], { steepness: 9, x: [0, 1], y: [0, 1] });
// The effective configuration's sigmoid has its two parameters, and no fields of a model.
if (effective.method === "sigmoid") {
  const both: [number, number] = [effective.threshold, effective.steepness];
  console.log(both);
  // @ts-expect-error: no `a` on the effective sigmoid
  console.log(effective.a);
}
// In inputs, `null` is an absent optional field, as the runtime reads it (a database
// row's NULL columns pass as they are).
declare const row: { title: string | null; updated: number | null; kind: string | null };
new Pipeline().run({
  query: null,
  lists: [{ name: "s", ids: ["a"], weight: null, scores: null }],
  items: { a: { name: row.title, modifiedAt: row.updated, type: row.kind, fiscalYear: null, crossEncoderScore: null, summary: null, content: null } },
  now: null,
  context: null,
  topN: null,
});
rerank("q", [{ id: "a", score: 1, name: "a", type: row.kind, summary: null, content: null }]);
// What the runtime reads as not given is typed so (a review of the declarations against
// the runtime): `null` in runColumnar's optional fields and in a band context or
// profile, an `undefined` items entry (a `Partial` record), typed arrays of weights.
new Pipeline({ bands: { profiles: [{ name: "p", language: null, taskClass: row.kind, highFloor: 0.9, degradedFloor: 0.5 }] } }).runColumnar({
  docs: new Uint32Array([0]),
  offsets: new Uint32Array([0, 1]),
  nDocs: 1,
  weights: null,
  modifiedAt: null,
  now: null,
  context: { language: row.kind, buildSystem: null },
  topN: null,
});
new Pipeline().runColumnar({ docs: new Uint32Array([0]), offsets: new Uint32Array([0, 1]), nDocs: 1, context: null });
declare const partial: Partial<Record<string, { name: string }>>;
new Items(partial);
new Items(new Map<string, { name: string } | undefined>([["a", undefined]]));
new Pipeline().run({ lists: [{ name: "s", ids: ["a"] }], items: partial });
new Pipeline().run({ lists: [{ name: "s", ids: ["a"] }], items: { a: undefined } });
queryConfidence([0.9], { weights: new Float64Array([0.2, 0.2, 0.2, 0.2, 0.2]) });
fuseRuns([run, run], { method: "wsum", weights: new Float64Array([0.5, 0.5]) });
optimizeFusion({ q: { a: 1 } }, [run, run], { method: "rrf", kValues: new Float64Array([10, 60]) });
fitQueryConfidence({ q: { a: 1 } }, [run], { weights: new Float64Array([1]) });
