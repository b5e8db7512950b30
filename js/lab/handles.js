// Run and Qrels: runs and judgements held in the module by handle.
// A `Run` or `Qrels` lives in the module's memory: parsed once, kept in ranx's order,
// passed to every lab function by handle. Freeing follows wasm-bindgen's conventions:
// `free()` (idempotent), `Symbol.dispose` (for `using`), and a FinalizationRegistry that
// frees an object the program dropped without freeing it (a safety net: when, if ever,
// it runs is up to the engine).
import { DISPOSE, Input, markHandle, precheck, scoreError, typeError, wellFormedName } from "../wire.js";

import { argument } from "./arguments.js";
import { RunObjects, rankedObjects, runOfSections } from "./runs.js";
import { OP, limitsOf, state, w } from "./shared.js";
import { trecText } from "./trec.js";


/** Guards the constructors: only this module makes handles. */
export const TOKEN = Symbol("calibrank/lab handle");
/**
 * Marks `Run` and `Qrels` of every copy of this module (a registered symbol): the ESM and
 * CommonJS entries each load their own copy, with its own wasm instance, whose handles
 * mean nothing to the other (a `Run` of one was read as an empty object by the other).
 */
const BRAND = Symbol.for("calibrank/lab Run or Qrels");

/**
 * Whether `value` is a `Run` or `Qrels` of this copy; one of another copy is refused
 * (`INVALID_TYPE` on `field`).
 */
export function isLabObject(value, field) {
  if (value instanceof LabObject) return true;
  if (typeof value === "object" && value !== null && value[BRAND] === true)
    throw typeError(field, "a Run or Qrels of this copy of calibrank/lab (this one was made by another copy: calibrank/lab and calibrank/lab/init, and in Node the ESM and CommonJS entries, each load their own module, so make it with the entry you pass it to)");
  return false;
}

/** Handle records ({ handle, generation }) of live objects, by object. */
const records = new WeakMap();

const registry = typeof FinalizationRegistry === "function" ? new FinalizationRegistry((h) => freeHandle(h)) : null;

function freeHandle(h) {
  if (state.wire !== null && h.generation === state.wire.generation) state.wire.call(OP.HANDLE_FREE, new Input().u32s([h.handle]));
}

/** The handle of a live object (throws for a freed one, or one lost in a module restart). */
export function handleOf(o, field = "this") {
  const h = records.get(o);
  if (!(o instanceof LabObject)) throw notLabObject(field);
  const name = o instanceof Run ? "Run" : o instanceof Qrels ? "Qrels" : "Run or Qrels";
  // Never made (an object made from the prototype, or the prototype itself): not freed.
  if (h === undefined) throw typeError(field, `a ${name} made by fromTrec(text) or fromObject(obj) (this one was made from the prototype)`);
  if (h === null) throw scoreError("INVALID_TYPE", field, `the ${name} was freed (free() or Symbol.dispose) and cannot be used any more`);
  // Generations are numbered across Wires (js/wire/module.js): one names its instance.
  if (state.wire === null || h.generation !== state.wire.generation)
    throw scoreError("INVALID_TYPE", field, `the ${name} was lost when calibrank/lab restarted after an internal error; make it again`);
  return h.handle;
}

/** A method of `Run` or `Qrels` called on something else (taken off its object, or `call`ed). */
const notLabObject = (field) => typeError(field, "a Run or Qrels: call the method on one (run.toObject()), not taken off it");

/** What `Run` and `Qrels` share. */
export class LabObject {
  // Its own name, as `Pipeline` keeps its own (js/core/pipeline.js).
  static get name() {
    return "LabObject";
  }

  constructor(token, wr, handle) {
    if (token !== TOKEN) throw typeError("this", "a Run or Qrels made by fromTrec(text) or fromObject(obj)");
    const h = { handle, generation: wr.generation };
    records.set(this, h);
    if (registry) registry.register(this, h, h);
    // A copy (structuredClone, postMessage) keeps this mark alone: refused when given
    // back, where it would be read as an empty run (js/wire/values.js `HANDLE_KEY`).
    markHandle(this, this instanceof Qrels ? "Qrels" : "Run");
  }

  /** `{ queryId: { docId: score } }`; a run's documents in its (ranx's) order. */
  toObject() {
    const o = runOfSections(w().call(OP.HANDLE_TO_OBJECT, new Input().u32s([handleOf(this)])));
    if (this instanceof Run) rankedObjects.add(o);
    return o;
  }

  /** Number of queries (ranx's `size`). */
  get size() {
    handleOf(this);
    return this.queryIds.length;
  }

  /** The query ids, sorted (ranx sorts them too). */
  get queryIds() {
    return w().call(OP.HANDLE_INFO, new Input().u32s([handleOf(this)])).strs();
  }

  /**
   * A new `Run` (`Qrels`) of the queries `queryIds` names, each as it is here (a run's
   * documents in the same order): a split by query that keeps ranx's figures, where a
   * run object of the same queries is sorted again. An id this one does not hold is
   * left out. Free it as any other.
   */
  select(queryIds) {
    handleOf(this);
    if (!Array.isArray(queryIds)) throw typeError("queryIds", "an array of query ids (strings)", queryIds);
    // Its length and each id read once (a Proxy could answer differently later).
    const n = queryIds.length;
    const ids = new Array(n);
    for (let i = 0; i < n; i++) {
      const q = queryIds[i];
      if (typeof q !== "string") throw typeError(`queryIds[${i}]`, "a string", q);
      wellFormedName(q, `queryIds[${i}]`, "a query id", "ids");
      ids[i] = q;
    }
    // The handle again, after the caller's code (a Proxy's trap) ran.
    const made = w().call(OP.HANDLE_SELECT, new Input().u32s([handleOf(this)]).strs(ids)).u32View()[0];
    return this instanceof Run ? newRun(made) : newQrels(made);
  }

  /** Frees the object's memory in the module; later uses throw. Idempotent. */
  free() {
    release(this);
  }

  [DISPOSE]() {
    release(this);
  }

  get [BRAND]() {
    return true;
  }
}

// The classes below never name themselves in their bodies (the helpers around them
// do): esbuild would then emit `var Run = class _Run`, and stack traces would read
// `_Run.fromTrec`. Their `name` getters keep "Run" and "Qrels" in an app whose minifier
// renames them.

/** `free()` and `Symbol.dispose` of a `Run` or `Qrels`. */
function release(o) {
  const h = records.get(o);
  if (h === undefined && !(o instanceof LabObject)) throw notLabObject("this");
  if (h === undefined || h === null) return;
  // Freed in the module first: refused there (REENTRANT_CALL, from optimizeFusion's
  // onProgress), the object stays live and a later free() frees it.
  freeHandle(h);
  records.set(o, null);
  if (registry) registry.unregister(h);
}

/** Whether `o` is a `Run` (for its own methods, which do not name their class). */
const isRun = (o) => o instanceof Run;

/** A new `Run` (`Qrels`) around handle `h` of the current module. */
const newRun = (h) => new Run(TOKEN, w(), h);
const newQrels = (h) => new Qrels(TOKEN, w(), h);

function fromText(op, text, options, fn) {
  const wr = w();
  const out = wr.call(op, trecText(text, options, fn));
  return out.u32View()[0];
}

export function fromObject(op, obj, options, field, fn) {
  if (isLabObject(obj, field)) throw typeError(field, "a plain object (this is already a Run or Qrels)");
  const lim = limitsOf(options, fn);
  // The object's path goes along: the module names its errors under it.
  const input = new Input().text(precheck.options(lim, options)).text(field);
  argument(input, obj, op === OP.RUN_FROM_OBJECT ? Run : Qrels, field, new RunObjects(lim));
  return w().call(op, input).u32View()[0];
}

/**
 * A run held in the module, as ranx holds a `Run`: each query's documents in the order
 * ranx sorts them (numba's quicksort of the file's or the object's order), which decides
 * how tied scores rank. Make one with `Run.fromTrec(text)` or `Run.fromObject(obj)`.
 */
export class Run extends LabObject {
  // Its own name, as `Pipeline` keeps its own (js/core/pipeline.js).
  static get name() {
    return "Run";
  }

  /** Parses a TREC run (`qid Q0 docid rank score tag`), keeping the file's order. */
  static fromTrec(text, options) {
    return newRun(fromText(OP.RUN_FROM_TREC, text, options, "parseTrecRun"));
  }

  /** A run from `{ queryId: { docId: score } }`, in the object's key order. */
  static fromObject(obj, options) {
    return newRun(fromObject(OP.RUN_FROM_OBJECT, obj, options, "run", "parseTrecRun"));
  }

  /**
   * One query's documents best first, in this run's (ranx's) order, with their scores:
   * `{ ids, scores }`, as a pipeline's list takes them (empty for a query the run does
   * not hold).
   */
  ranking(queryId) {
    if (!isRun(this)) throw this instanceof LabObject ? typeError("this", "a Run (a Qrels holds no ranking)", this) : typeError("this", "a Run: call the method on one (run.ranking(q)), not taken off it");
    const h = handleOf(this);
    if (typeof queryId !== "string") throw typeError("queryId", "a string", queryId);
    wellFormedName(queryId, "queryId", "a query id", "ids");
    const out = w().call(OP.RUN_RANKING, new Input().u32s([h]).text(queryId));
    const ids = out.strs();
    return { ids, scores: Array.from(out.f64View()) };
  }
}

/** Relevance judgements held in the module. Make them with `Qrels.fromTrec` or `Qrels.fromObject`. */
export class Qrels extends LabObject {
  // Its own name, as `Pipeline` keeps its own (js/core/pipeline.js).
  static get name() {
    return "Qrels";
  }

  /** Parses TREC qrels (`qid iter docid rel`). */
  static fromTrec(text, options) {
    return newQrels(fromText(OP.QRELS_FROM_TREC, text, options, "parseQrels"));
  }

  /** Judgements from `{ queryId: { docId: grade } }`. */
  static fromObject(obj, options) {
    return newQrels(fromObject(OP.QRELS_FROM_OBJECT, obj, options, "qrels", "parseQrels"));
  }
}

/** `Run`s and `Qrels` alive in the module (for leak tests). */
export function __liveHandles() {
  return w().call(OP.HANDLES_LIVE).f64View()[0];
}
