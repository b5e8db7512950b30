// ranx-compatible evaluation (`evaluate`, `evaluatePerQuery`).
import { Input, precheck, toJson, typeError } from "../wire.js";

import { argument } from "./arguments.js";
import { Qrels, Run } from "./handles.js";
import { RunObjects } from "./runs.js";
import { OP, limitsOf, w } from "./shared.js";

function evaluateInput(qrels, run, metrics, options) {
  const lim = limitsOf(options, "evaluate");
  const opts = precheck.options(lim, options);
  const input = new Input().text(opts);
  const objects = new RunObjects(lim);
  argument(input, qrels, Qrels, "qrels", objects);
  argument(input, run, Run, "run", objects);
  if (!Array.isArray(metrics)) throw typeError("metrics", "an array of metric names", metrics);
  return input.text(precheck.jsonText(lim, toJson(metrics, "metrics"), "metrics"));
}

/** Mean of each metric over the judged queries, as ranx computes them. */
export function evaluate(qrels, run, metrics, options) {
  return w().call(OP.EVALUATE, evaluateInput(qrels, run, metrics, options)).json();
}

/** Per-query values of each metric: metric -> query id -> value. */
export function evaluatePerQuery(qrels, run, metrics, options) {
  return w().call(OP.EVALUATE_PER_QUERY, evaluateInput(qrels, run, metrics, options)).json();
}
