// How a run or judgements argument crosses: a `Run` / `Qrels` handle, or the object.
import { precheck, scoreError, typeError } from "../wire.js";

import { LabObject, Qrels, Run, TOKEN, fromObject, handleOf, isLabObject } from "./handles.js";
import { QRELS_RECORD, RECORD, rankedObjects } from "./runs.js";
import { OP, w } from "./shared.js";

/** Writes a run (or qrels) argument: its handle, or the object (`objects`: see `RunObjects`). */
export function argument(input, value, Class, field, objects) {
  if (isLabObject(value, field)) {
    if (!(value instanceof Class)) throw scoreError("INVALID_TYPE", field, `expected a ${field === "run" ? "Run" : "Qrels"} or a plain object, got a ${value instanceof Run ? "Run" : "Qrels"}`);
    // Checked now, looked up again when the call is made: a later argument's getter
    // could free this object and make another in its slot.
    const slot = [handleOf(value, field)];
    return input.u32s(slot).later(() => {
      slot[0] = handleOf(value, field);
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw typeError(field, Class === Qrels ? QRELS_RECORD : RECORD, value);
  if (Class === Run && rankedObjects.has(value)) input.f64s([1]);
  objects.add(input, value, field, field, undefined, Class === Qrels);
}

/**
 * Writes a runs argument: their handles when every run is a `Run`, else the objects
 * (`objects`: see `RunObjects`), after one "in ranx's order" flag per run. Runs of both
 * kinds: the objects become `Run`s first (freed by the returned function).
 */
export function runsArgument(input, runs, objects) {
  const lim = objects.lim;
  if (!Array.isArray(runs)) throw typeError("runs", "an array of runs", runs);
  // The length and each run read once (a Proxy could answer differently later).
  const n = runs.length;
  precheck.lists(lim, n, "runs", "an array of runs");
  const given = new Array(n);
  // Index access only: a spoofed array's methods may not be Array's.
  let some = false;
  for (let i = 0; i < n; i++) if (isLabObject((given[i] = runs[i]), `runs[${i}]`)) some = true;
  if (!some) {
    const flags = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const r = given[i];
      if (typeof r !== "object" || r === null || Array.isArray(r)) throw typeError(`runs[${i}]`, RECORD, r);
      if (rankedObjects.has(r)) flags[i] = 1;
    }
    input.f64s(flags);
    for (let i = 0; i < n; i++) objects.add(input, given[i], `runs[${i}]`, "runs", runs);
    return { handles: false, release() {} };
  }
  const made = [];
  const rs = new Array(n);
  const hs = new Uint32Array(n);
  try {
    for (let i = 0; i < n; i++) {
      let r = given[i];
      if (r instanceof LabObject && !(r instanceof Run)) throw scoreError("INVALID_TYPE", `runs[${i}]`, "expected a Run or a plain object, got a Qrels");
      if (!(r instanceof Run)) {
        // Its errors named under `runs[i]`, where they are in this call.
        r = new Run(TOKEN, w(), fromObject(OP.RUN_FROM_OBJECT, r, { limits: lim }, `runs[${i}]`, "parseTrecRun"));
        made.push(r);
      }
      hs[i] = handleOf(r, `runs[${i}]`);
      rs[i] = r;
    }
  } catch (e) {
    for (const r of made) r.free();
    throw e;
  }
  // Looked up again when the call is made: a later run's getter (or a later
  // argument's) could have freed a Run and made another in its slot.
  input.u32s(hs).later(() => {
    for (let i = 0; i < n; i++) hs[i] = handleOf(rs[i], `runs[${i}]`);
  });
  return {
    handles: true,
    release() {
      for (const r of made) r.free();
    },
  };
}
