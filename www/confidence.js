// Query confidence ("know when nothing relevant was found"), computed: the configs with
// and without a query-confidence model, the CISI sample's halves (every other judged
// query fits the model, the rest measure it), the training data fitQueryConfidence takes,
// the held-out figures and where a model's probability comes from for one input.
//
// Every probability and figure is the package's: Pipeline.run's outcome, rrf, calibrate,
// queryConfidence, and calibrationError for the held-out AUROC, ECE, Brier and log loss.
// The page labels each held-out query (is a relevant document in the fused top k?).
// The outcome card is outcome.js; the panel of the CISI presets, confidence-panel.js.
import { cisiInput } from "./presets.js";
import { withPipeline, listRun } from "./compute.js";

/** The config without a confidence model (the rank-only estimate). */
export function withoutModel(config) {
  const confidence = { ...(config.confidence || {}) };
  delete confidence.model;
  const out = { ...config, confidence };
  if (Object.keys(confidence).length === 0) delete out.confidence;
  return out;
}

/** The config with `model` as its confidence model. */
export function withModel(config, model) {
  return { ...config, confidence: { ...(config.confidence || {}), model } };
}

/** Halves of the sample's judged queries: every other one in the sample's order. */
export function sampleSplit(sample) {
  const judged = sample.queries.filter((q) => q.qrels && Object.keys(q.qrels).length > 0);
  return { fit: judged.filter((_, i) => i % 2 === 0), test: judged.filter((_, i) => i % 2 === 1) };
}

/** The (qrels, runs) of some sample queries, runs in the sample's list order. */
export function trainingData(sample, queries) {
  return {
    qrels: Object.fromEntries(queries.map((q) => [q.id, q.qrels])),
    runs: sample.runs.map((name) => Object.fromEntries(queries.map((q) => [q.id, listRun(q.runs[name])]))),
  };
}

/** Whether the fused top k (the model's weighted RRF) of a sample query holds a document judged > 0. */
export function relevantInTop(lib, sample, q, model) {
  const fused = lib.rrf(sample.runs.map((name) => q.runs[name].ids), { k: model.rrfK, weights: model.weights });
  return fused.slice(0, model.k).some(([id]) => (q.qrels[id] || 0) > 0);
}

/**
 * The held-out half through the current config: the rank-only outcome (no model) and
 * the model's, each query's label, and AUROC / ECE / Brier / log loss of both.
 */
export function heldOut(lib, sample, config, model, { bins = 10 } = {}) {
  const { test } = sampleSplit(sample);
  const rows = [];
  withPipeline(lib, withoutModel(config), (ro) =>
    withPipeline(lib, withModel(config, model), (mo) => {
      for (const q of test) {
        const input = cisiInput(sample, q);
        rows.push({ id: q.id, text: q.text, ood: q.id.startsWith("ood"), label: relevantInTop(lib, sample, q, model) ? 1 : 0, rankOnly: ro.run(input).outcome, model: mo.run(input).outcome });
      }
    }),
  );
  const labels = rows.map((r) => r.label);
  const figures = (key) => {
    const probs = rows.map((r) => r[key].probability);
    const report = lib.calibrationError(probs, labels, { bins, strategy: "uniform" });
    return { auroc: report.auroc, ece: report.ece, brier: report.brier, logLoss: report.logLoss };
  };
  return { rows, labels, bins, rankOnly: figures("rankOnly"), model: figures("model") };
}

/**
 * Where a model's probability comes from, for one input: each feature's value (the
 * rank-only estimate as the model sees it, each list's best raw score) and the
 * probability with that feature's coefficient set to 0 (and with every one at 0).
 */
export function modelExplanation(lib, config, input, model, seedSigmoid) {
  const lists = input.lists || [];
  const fused = lib.rrf(lists.map((l) => l.ids), { k: model.rrfK, weights: model.weights });
  const top = fused.slice(0, model.k).map(([, s]) => s);
  const rankOnlyP = top.length ? lib.queryConfidence(lib.calibrate(top, seedSigmoid), { k: model.k }).atLeastOneRelevant : null;
  const probabilityWith = (m) => withPipeline(lib, withModel(config, m), (p) => p.run(input).outcome.probability);
  const zeroed = (j) => ({ ...model, coefficients: model.coefficients.map((c, i) => (j === "all" || i === j ? 0 : c)) });
  const features = model.features.map((name, j) => {
    let value = rankOnlyP;
    let missing = false;
    if (j > 0) {
      const scores = lists[j - 1]?.scores || [];
      if (scores.length === 0) {
        value = model.missingTop[j - 1];
        missing = true;
      } else value = scores.reduce((a, b) => (b > a ? b : a));
    }
    return { name, list: j > 0 ? lists[j - 1]?.name : null, value, missing, mean: model.mean[j], scale: model.scale[j], coefficient: model.coefficients[j], without: probabilityWith(zeroed(j)) };
  });
  return { features, interceptOnly: probabilityWith(zeroed("all")), top };
}
