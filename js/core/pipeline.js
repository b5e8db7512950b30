// The scoring pipeline (`Pipeline`): its handle in the module, `run` (the input encoded
// by pipeline-input.js) and `runColumnar`, and the objects built from the module's output.
import { DISPOSE, Input, plainTyped, precheck, objectJson, numbers, scoreError, typeError, typedArrayKind, notArray, timeOf, setOwn } from "../wire.js";
import { OP, pipelineState as state, scratch, isObject, noInheritedKeys, BARE, ownFields, checkKeys, recordError, missingField, BAND, confidenceAt, outcomeAt, columnarRoom } from "./shared.js";
import { callHolding } from "./held-texts.js";
import { encodeInput, encodeContext, topNOf } from "./pipeline-input.js";
import { factorsAt } from "./rerank.js";
import { configLayout, contextLayout, effectiveConfig, configCopy, givenFault } from "./typed-config.js";

/**
 * Puts a pipeline's configuration (`config`) or a run's context (`context`), JSON text
 * or undefined, into `input` as `wire`'s module reads it: the text, or (the Pipeline's
 * own module, which holds no JSON) its numbers and strings.
 */
function putJson(input, wire, text, encode) {
  // No value: one NONE section for either module.
  if (!wire.typedConfig || text === undefined) return input.text(text);
  const { n, s } = encode(text);
  return input.f64s(n).strs(s);
}

const COLUMNAR_FIELDS = ["docs", "offsets", "nDocs", "weights", "modifiedAt", "now", "context", "topN"];
const COLUMNAR_KEYS = new Set(COLUMNAR_FIELDS);
const COLUMNAR_INPUT = "an object with `docs`, `offsets` and `nDocs`";
/** Whether Object.prototype has none of `runColumnar`'s input fields (shared.js `noInheritedKeys`). */
const cleanPrototype = () =>
  noInheritedKeys() && !("docs" in BARE || "offsets" in BARE || "nDocs" in BARE || "weights" in BARE || "modifiedAt" in BARE || "now" in BARE || "context" in BARE || "topN" in BARE);
const w = () => state.get();
const limitsOf = (options, fn) => state.limitsOf(options, fn);
const registry = typeof FinalizationRegistry === "function" ? new FinalizationRegistry((h) => freeHandle(h)) : null;

/**
 * Frees a pipeline's handle in the module instance it was made in (`h.wire` at
 * `h.generation`), if that instance still runs: the Pipeline's state may have moved to
 * another module since (its own, given by an entry after the pipeline was made on the
 * whole core's), which would leave the handle behind in the one still serving the other
 * functions.
 */
function freeHandle(h) {
  if (h.generation === h.wire.generation) h.wire.call(OP.PIPELINE_FREE, new Input().u32s([h.handle]));
}

/**
 * Makes a pipeline of the configuration `text` in `wire`'s module. Its answer: the handle;
 * the effective limits (for the checks made before copying, at `f64[limitsAt]` in
 * `Limits::fields` order); how many candidates' texts the heuristic reranker reads (the
 * topK pool, or its first candidateLimit; -1 without that reranker: given more
 * candidates than that, `run` holds their texts back); and the module's table slot for
 * `writeHeldTexts` (the same for each of its pipelines: kept on the Wire).
 */
function newPipeline(wire, text) {
  let out;
  try {
    out = wire.call(OP.PIPELINE_NEW, putJson(new Input(), wire, text, configLayout));
  } catch (e) {
    // Said of what the caller wrote (a floor given alone, a topN of -1), from either module.
    throw givenFault(e, text, "config");
  }
  const { u32, f64 } = out.w;
  const handle = u32[out.u32At()];
  const limitsAt = out.f64At();
  const hold = out.f64At();
  wire.textsSlot = f64[hold + 1];
  return { wire, handle, f64, limitsAt, holdAbove: f64[hold] };
}

const objectLike = (v) => typeof v === "object" && v !== null;

/**
 * A method of `Pipeline` taken off its object (`const run = p.run`) or `call`ed on
 * something else: `INVALID_TYPE` on `this`, not the engine's TypeError.
 */
const notPipeline = () => typeError("this", "a Pipeline: call the method on one (pipeline.run(input)), not taken off it");

/** A validated scoring pipeline. Free it with `free()` (or `using`); a FinalizationRegistry frees a forgotten one. */
export class Pipeline {
  // The class never names itself in its body: esbuild would then emit
  // `var Pipeline = class _Pipeline`, and stack traces would read `_Pipeline.run`
  // (receivers are checked with `#h in this`, not through a static method). Its `name`
  // is a getter too, so that it stays "Pipeline" in an app whose minifier renames the
  // class. (A getter, not a statement after the class, so that an app that does not use
  // the class can still leave it out.)
  static get name() {
    return "Pipeline";
  }

  #h;
  #text;
  #limits;
  #holdAbove;
  /** The effective configuration, built (or read from the core module) once for `config`. */
  #effective = undefined;
  /** Validates `config` (the design documents' defaults for every missing field). */
  constructor(config) {
    notArray(config, "config");
    const lim = limitsOf(config, "Pipeline");
    const text = precheck.jsonText(lim, objectJson(config === null ? undefined : config, "config", undefined, true, precheck.textBound(lim)), "config");
    const table = state.limits();
    const names = table.names;
    const made = newPipeline(w(), text);
    this.#h = { handle: made.handle, generation: made.wire.generation, wire: made.wire };
    this.#text = text;
    // A copy of the defaults (every name an own key: a spread defines them), then each
    // value: an assignment of a key the object lacked would go through a setter of the
    // same name on Object.prototype (a caller's).
    const limits = { ...table.defaults };
    for (let i = 0; i < names.length; i++) limits[names[i]] = made.f64[made.limitsAt + i];
    this.#limits = limits;
    this.#holdAbove = made.holdAbove;
    if (registry) registry.register(this, this.#h, this.#h);
  }

  /**
   * The handle, re-made if the module was restarted after a trap or given again by an
   * `init` (on a receiver checked with `#h in this`: see `notPipeline`).
   */
  #handle() {
    const h = this.#h;
    if (h === null) throw scoreError("INVALID_TYPE", "this", "the Pipeline was freed (free() or Symbol.dispose) and cannot be used any more");
    // Generations are numbered across Wires: a new Wire has a new one too.
    if (h.generation !== state.wire.generation) {
      // Made again where the Pipeline's operations now run; freed where it was made if
      // that instance still runs (it then serves the other functions).
      freeHandle(h);
      h.handle = newPipeline(state.wire, this.#text).handle;
      h.generation = state.wire.generation;
      h.wire = state.wire;
    }
    return h.handle;
  }

  /** The effective configuration, with every default filled in. */
  get config() {
    if (!(objectLike(this) && #h in this)) throw notPipeline();
    const h = this.#handle();
    // Made once (a configuration does not change), a copy given at each read.
    // calibrank_pipeline.wasm writes no JSON: the same object, built here.
    if (state.wire.typedConfig) return configCopy((this.#effective ??= effectiveConfig(this.#text)));
    return configCopy((this.#effective ??= state.wire.call(OP.PIPELINE_CONFIG, new Input().u32s([h])).json()));
  }

  /** Runs the pipeline: fuse, recency, rerank, normalize, calibrate, filter, topN, bands, confidence. */
  run(input) {
    if (!(objectLike(this) && #h in this)) throw notPipeline();
    this.#handle();
    const lease = scratch.take();
    let e, out;
    try {
      e = encodeInput(input, this.#limits, this.#holdAbove, lease);
      // The handle again, after the caller's getters ran: one of them could have freed
      // this pipeline (and made another in its slot).
      out = this.#call(this.#handle(), e);
    } finally {
      scratch.give(lease);
    }
    return this.#results(out, e);
  }

  /** Copies an encoded input into the module and runs the pipeline on it. */
  #call(h, e) {
    const inp = new Input()
      .u32s([h])
      .strs(e.strs, e.units, e.idEnds)
      .f64s(e.head)
      .u32s(e.listTable)
      .u32s(e.docs)
      .f64s(e.weights)
      .f64s(e.scores)
      .u32s(e.itemTable)
      .f64s(e.itemNums);
    return callHolding(OP.PIPELINE_RUN, putJson(inp, state.wire, e.ctx, contextLayout), e.held);
  }

  /** The objects `run` returns, from the module's output. */
  #results(out, e) {
    // Result ids come back as indices into the distinct ids, the first strings of the
    // call (interned by encodeInput): the strings the caller gave, not decoded copies.
    const { u32, f64, u8 } = out.w;
    const d = out.u32At();
    const n = out.n;
    const sc = out.f64At();
    const b = out.u8At();
    const confidence = confidenceAt(out);
    const st = out.u32At();
    const dup = out.u32At();
    const duplicates = new Array(out.n);
    for (let i = 0; i < duplicates.length; i++) duplicates[i] = u32[dup + i];
    // The keys in the order they always had.
    const stats = {
      lists: u32[st],
      candidates: u32[st + 1],
      inSeveralLists: u32[st + 2],
      duplicates,
      beyondTopK: u32[st + 3],
      beyondCandidateLimit: u32[st + 4],
      belowMinRelevance: u32[st + 5],
      belowMinConfidence: u32[st + 6],
      beyondTopN: u32[st + 7],
      returned: u32[st + 8],
      hits: u32[st + 9],
      degraded: u32[st + 10],
      misses: u32[st + 11],
    };
    const profile = out.text();
    if (profile !== undefined) setOwn(stats, "bandProfile", profile);
    // Each result made whole by a literal, its explanation in it (an assignment of a key an
    // object lacks would go through a setter of that name on Object.prototype, a caller's).
    const ids = e.strs;
    const explained = explanations(out, n, e, profile);
    const results = new Array(n);
    if (explained === null) for (let i = 0; i < n; i++) results[i] = { id: ids[u32[d + i]], score: f64[sc + i], band: BAND[u8[b + i]] };
    else for (let i = 0; i < n; i++) results[i] = { id: ids[u32[d + i]], score: f64[sc + i], band: BAND[u8[b + i]], explain: explained[i] };
    const outcome = outcomeAt(out, confidence);
    const pool = poolAt(out);
    return pool === null ? { results, confidence, outcome, stats } : { results, confidence, outcome, stats, pool };
  }

  /**
   * Columnar fast path: lists as one `Uint32Array` of document indices (`docs`) cut by
   * `offsets`, results as typed arrays.
   */
  runColumnar(input) {
    if (!(objectLike(this) && #h in this)) throw notPipeline();
    this.#handle();
    if (!isObject(input)) throw typeError("input", COLUMNAR_INPUT, input);
    // A misspelled key (`doc`) is named as such, as `run` names it, not left to look like a missing `docs`.
    checkKeys(input, COLUMNAR_KEYS, "", COLUMNAR_INPUT);
    const { docs: docsIn, offsets: offsetsIn, nDocs, weights, modifiedAt, now, context, topN } = cleanPrototype() ? input : ownFields(input, COLUMNAR_FIELDS);
    const lim = this.#limits;
    // A required field not given: INVALID_CONFIG, "missing field", as `run` says of `lists`.
    if (docsIn === undefined) throw recordError(input, "input", COLUMNAR_INPUT) ?? missingField("", "docs");
    if (typedArrayKind(docsIn) !== "Uint32Array") throw recordError(input, "input", COLUMNAR_INPUT) ?? typeError("docs", "a Uint32Array", docsIn);
    const docs = plainTyped(docsIn, Uint32Array);
    precheck.columnar(lim, docs.length, "docs");
    if (offsetsIn === undefined) throw missingField("", "offsets");
    if (typedArrayKind(offsetsIn) !== "Uint32Array") throw typeError("offsets", "a Uint32Array", offsetsIn);
    const offsets = plainTyped(offsetsIn, Uint32Array);
    if (offsets.length > lim.maxLists + 1)
      throw scoreError("INPUT_TOO_LARGE", "offsets", `${offsets.length} entries, above the limit of ${lim.maxLists + 1} (limits.maxLists + 1)`);
    if (nDocs === undefined) throw missingField("", "nDocs");
    if (typeof nDocs !== "number") throw typeError("nDocs", "a number", nDocs);
    const wts = weights === undefined || weights === null ? undefined : numbers(weights, "weights");
    let mt;
    if (modifiedAt !== undefined && modifiedAt !== null) {
      mt = numbers(modifiedAt, "modifiedAt");
      precheck.columnar(lim, mt.length, "modifiedAt");
    }
    const head = [nDocs, 0, 0, topNOf(topN)];
    if (typeof now === "number") {
      head[1] = 1;
      head[2] = now;
    } else if (now instanceof Date) {
      head[1] = 1;
      head[2] = timeOf(now, "now", "epoch milliseconds (a number) or a Date");
    } else if (now !== undefined && now !== null) {
      // Was ignored (then "`now` is required with `modifiedAt`", or nothing at all).
      throw typeError("now", "epoch milliseconds (a number) or a Date", now);
    }
    // The band profile's context, as `run` takes it (JSON; the module checks its fields).
    const ctx = encodeContext(context, lim);
    // The handle looked up after the caller's getters ran (see `run`).
    const wire = state.wire;
    const out = wire.call(OP.PIPELINE_RUN_COLUMNAR, putJson(new Input().u32s([this.#handle()]).f64s(wts).f64s(mt).u32s(docs).u32s(offsets).f64s(head), wire, ctx, contextLayout).roomFor(columnarRoom(lim, nDocs, docs.length)));
    const order = out.u32s();
    const scores = out.f64s();
    const bands = out.u8s();
    const confidence = confidenceAt(out);
    const candidates = out.w.u32[out.u32At()];
    const outcome = outcomeAt(out, confidence);
    const result = { order, scores, bands, confidence, outcome, candidates };
    const profile = out.text();
    if (profile !== undefined) setOwn(result, "bandProfile", profile);
    return result;
  }

  /** Frees the pipeline's memory in the module; later calls throw. */
  free() {
    if (!(objectLike(this) && #h in this)) throw notPipeline();
    this.#release();
  }

  [DISPOSE]() {
    // As `free` is (a receiver that is no Pipeline: INVALID_TYPE on `this`).
    if (!(objectLike(this) && #h in this)) throw notPipeline();
    this.#release();
  }

  #release() {
    const h = this.#h;
    if (h === null) return;
    this.#h = null;
    if (registry) registry.unregister(h);
    freeHandle(h);
  }
}

/**
 * The `explain` of each of the `n` results, built from the module's numbers (two
 * sections, or two NONE when the pipeline does not explain: null then; layout in
 * wasm/core/src/pipeline/output.rs, `write_explanations`), with the keys in the order they always
 * had. List names are the input's (`e`, as `encodeInput` made it); the band profile is
 * the stats'.
 */
function explanations(out, n, e, profile) {
  const at = out.u32At();
  const fat = out.f64At();
  if (at < 0) return null;
  const explained = new Array(n);
  const { u32, f64 } = out.w;
  const names = (i) => e.strs[e.listTable[5 * i]];
  let p = at;
  let q = fat;
  for (let r = 0; r < n; r++) {
    const nc = u32[p];
    const kind = u32[p + 1];
    const band = BAND[u32[p + 2]];
    const hasProfile = u32[p + 3] !== 0;
    p += 4;
    const contributions = new Array(nc);
    for (let j = 0; j < nc; j++, p += 3, q += 3) {
      // Made whole by a literal (see `#results`).
      const list = names(u32[p]);
      const rank = u32[p + 1];
      const weight = f64[q];
      const contribution = f64[q + 1];
      contributions[j] = u32[p + 2] !== 0 ? { list, rank, weight, contribution, listScore: f64[q + 2] } : { list, rank, weight, contribution };
    }
    const fused = f64[q];
    const recencyMultiplier = f64[q + 1];
    const afterRecency = f64[q + 2];
    q += 3;
    let rerank;
    if (kind === 1) {
      rerank = { method: "heuristic", factors: factorsAt(f64, q) };
      q += 6;
    } else if (kind === 2) {
      rerank = { method: "cross_encoder", raw: f64[q], normalized: f64[q + 1] };
      q += 2;
    } else rerank = { method: "none" };
    const x = {
      contributions,
      fused,
      recencyMultiplier,
      afterRecency,
      rerank,
      rerankRecencyMultiplier: f64[q],
      afterRerank: f64[q + 1],
      normalized: f64[q + 2],
      calibrated: f64[q + 3],
      band,
    };
    q += 4;
    if (hasProfile) setOwn(x, "bandProfile", profile);
    explained[r] = x;
  }
  return explained;
}

/**
 * The pool's explanation (one section, NONE without one: null then; layout in
 * wasm/core/src/pipeline/output.rs, `write_pool`).
 */
function poolAt(out) {
  const q = out.f64At();
  if (q < 0) return null;
  const f = out.w.f64;
  const candidates = f[q];
  const normalization = scaleAt(f, q + 6);
  if (f[q + 1] === 0) return { candidates, normalization };
  return { candidates, crossEncoder: scaleAt(f, q + 2), normalization };
}

/** A normalization's scale from its code and three numbers (see `poolAt`). */
function scaleAt(f, q) {
  switch (f[q]) {
    case 1:
      return { method: "max", max: f[q + 1] };
    case 2:
      return { method: "min_max", min: f[q + 1], max: f[q + 2] };
    case 3:
      return { method: "z_score", mean: f[q + 1], sd: f[q + 2], scale: f[q + 3] };
    case 4:
      return { method: "softmax", max: f[q + 1], sum: f[q + 2], temperature: f[q + 3] };
    default:
      return { method: "none" };
  }
}

/** Pipelines alive in the module (for leak tests). */
export function __livePipelines() {
  return liveIn(state);
}

/** Pipelines alive in the module of the ModuleState `st` (the entries' hooks, for tests). */
export const liveIn = (st) => st.get().call(OP.PIPELINE_LIVE).f64View()[0];
