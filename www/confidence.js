// Query-level outcome ("know when nothing relevant was found"): the pipeline's
// answer / hedge / abstain for the current query and where its probability comes from,
// and, for the CISI presets, the query-confidence model fitted (fitQueryConfidence, in
// the worker) on half of the sample's judged queries and measured on the other half.
//
// Every probability is the package's (Pipeline.run's outcome, calibrationError, rrf,
// calibrate, queryConfidence); the page compares and counts (the held-out AUROC is the
// fraction of (relevant, not relevant) pairs ranked the right way) and formats.
import { h, fill, fmt, fmtp, full, focusLost } from "./dom.js";
import { cisiInput } from "./presets.js";
import { withPipeline } from "./compute.js";
import { request } from "./worker-client.js";
import { stackable } from "./tables.js";

// ------------------------------------------------------------------ computation

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

/** A list as a run of one query ({ id: score }, first occurrence wins). */
function runOf(list) {
  const run = {};
  list.ids.forEach((id, i) => {
    if (!(id in run)) run[id] = list.scores[i];
  });
  return run;
}

/** The (qrels, runs) of some sample queries, runs in the sample's list order. */
export function trainingData(sample, queries) {
  return {
    qrels: Object.fromEntries(queries.map((q) => [q.id, q.qrels])),
    runs: sample.runs.map((name) => Object.fromEntries(queries.map((q) => [q.id, runOf(q.runs[name])]))),
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

// ------------------------------------------------------------------ outcome card

const KIND_TEXT = {
  answer: "Answer: a relevant result is likely in the top results",
  hedge: "Hedge: show the results, say they may not answer the query",
  abstain: "Abstain: nothing relevant was likely found",
};

/** The query-level outcome of the current run, its floors and the explanation. */
export function renderOutcome(el, { lib, state, result, seedSigmoid }) {
  const o = result.out.outcome;
  const conf = result.effective.confidence;
  const c = result.out.confidence;
  const model = conf.model;
  const pct = (x) => `${Math.max(0, Math.min(100, x * 100))}%`;
  const scale = h("div", { class: "outcome-scale", "aria-hidden": "true" },
    h("span", { class: "seg seg-abstain" }), h("span", { class: "seg seg-hedge" }), h("span", { class: "seg seg-answer" }),
    h("span", { class: "marker" }));
  const [abstainSeg, hedgeSeg, answerSeg, marker] = scale.children;
  abstainSeg.style.width = pct(conf.hedgeFloor);
  hedgeSeg.style.width = pct(conf.answerFloor - conf.hedgeFloor);
  answerSeg.style.width = pct(1 - conf.answerFloor);
  marker.style.left = pct(o.probability);
  const source = o.source === "model" ? "the fitted query-confidence model" : "the rank-only estimate (no model)";
  const head = h("div", { class: `outcome outcome-${o.kind}`, id: "outcome", "data-kind": o.kind, "data-probability": full(o.probability), "data-source": o.source, "data-answer-floor": full(conf.answerFloor), "data-hedge-floor": full(conf.hedgeFloor) },
    h("div", { class: "outcome-main" },
      h("span", { class: `chip outcome-chip outcome-${o.kind}`, text: o.kind }),
      h("span", { class: "outcome-text", text: KIND_TEXT[o.kind] })),
    h("p", { class: "outcome-figures" },
      `P(a relevant document in the top results) = `, h("strong", { text: fmt(o.probability, 3) }), `, from ${source}. `,
      `Floors: answer ≥ ${fmtp(conf.answerFloor)}, hedge ≥ ${fmtp(conf.hedgeFloor)}, abstain below (confidence.answerFloor / hedgeFloor).`),
    scale);
  const parts = [head];
  if (!model) {
    parts.push(h("p", { class: "note", id: "outcome-explain" },
      `Without a model, the probability is the seeds' rank-only estimate, confidence.atLeastOneRelevant = 1 − ∏(1 − pᵢ) over the ${c.k} calibrated score${c.k === 1 ? "" : "s"} returned. `,
      "It reads how the lists agree at the top, not whether anything matched the query: off-topic queries get confident-looking fused scores too. ",
      state.judgements ? "Fit a model from the judgements below (Query confidence) to use the retrievers' raw scores as well." : "A model fitted from judged queries (fitQueryConfidence in calibrank/lab) also uses the retrievers' raw scores."));
  } else {
    let ex = null;
    try {
      ex = modelExplanation(lib, state.config, state.input, model, seedSigmoid);
    } catch {
      ex = null;
    }
    parts.push(h("p", { class: "note", id: "outcome-explain" },
      `The model (logistic regression, fitted on ${model.training.queries} judged queries) predicts whether the fused top ${model.k} (RRF, k = ${fmtp(model.rrfK)}, of the ${model.runs} lists matched by position) holds a relevant document, `,
      `from standardized features: p = 1 / (1 + exp(−(intercept + Σ coefficient · (value − mean) / scale))), intercept ${fmt(model.intercept, 3)}. `,
      "“Without” is the probability with that feature's coefficient set to 0: how much the feature moves this query."));
    if (ex) {
      const label = (f) => (f.name === "rankOnly" ? "rankOnly: rank-only estimate P (enters as log-odds)" : `${f.name}: best raw score of ${f.list ?? "list"}${f.missing ? " (empty list: training's lowest)" : ""}`);
      parts.push(h("div", { class: "table-scroll" }, stackable(h("table", { class: "features", id: "outcome-features" },
        h("caption", { text: "The model's features for this query" }),
        h("thead", {}, h("tr", {}, ["feature", "value", "training mean", "scale", "coefficient", "p without it"].map((t, i) => h("th", { scope: "col", class: i ? "num" : null, text: t })))),
        h("tbody", {},
          ex.features.map((f) => h("tr", { "data-feature": f.name, "data-value": full(f.value), "data-without": full(f.without) },
            h("th", { scope: "row", text: label(f) }), h("td", { class: "num", text: f.name === "rankOnly" ? `P = ${fmt(f.value, 3)}` : fmt(f.value) }), h("td", { class: "num", text: f.name === "rankOnly" ? `log-odds ${fmt(f.mean, 3)}` : fmt(f.mean) }),
            h("td", { class: "num", text: fmt(f.scale) }), h("td", { class: "num", text: fmt(f.coefficient, 3) }), h("td", { class: "num", text: fmt(f.without, 3) }))),
          h("tr", { "data-feature": "intercept-only", "data-without": full(ex.interceptOnly) },
            h("th", { scope: "row", text: "every coefficient at 0 (intercept only)" }), h("td", {}), h("td", {}), h("td", {}), h("td", { class: "num", text: fmt(model.intercept, 3) }), h("td", { class: "num", text: fmt(ex.interceptOnly, 3) })))))));
    }
  }
  fill(el, ...parts);
}

// ------------------------------------------------------------------ query confidence panel (CISI presets)

let fitted = null; // { model, fitIds, testIds } of the last fit
let applied = null; // the model applied to the pipeline, carried across the CISI presets

/** A CISI preset's state with the applied model (the presets share the runs' order). */
export function carryModel(s) {
  if (applied && s.mode === "pipeline" && String(s.preset).startsWith("cisi-")) s.config = withModel(s.config, applied);
  return s;
}

/**
 * Takes the model of a CISI state being shown as the one to carry (or none, if it has
 * none): a link or a reload brings the state's model but not this module's memory of it,
 * and the next CISI preset dropped it though the notice says it stays on.
 */
export function adoptModel(s) {
  if (s && s.mode === "pipeline" && String(s.preset).startsWith("cisi-")) applied = s.config?.confidence?.model ?? null;
}

/** Forgets the applied model (a preset restored as it was). */
export function forgetModel() {
  applied = null;
}

/**
 * The "Query confidence" panel: `ctx` = { lib, sample, getState, commit (applies the change
 * now; resolves whether the package accepted it), notice, problem(error) }. Returns
 * { root, render }.
 */
export function confidencePanel(ctx) {
  const { lib, sample } = ctx;
  const split = sampleSplit(sample);
  const fitBtn = h("button", { type: "button", id: "fit-confidence", text: `Fit on ${split.fit.length} queries, measure on ${split.test.length}` });
  const status = h("p", { class: "note", id: "confidence-status", "aria-live": "polite" });
  const box = h("div", { id: "confidence-result" });
  let cacheKey = "";
  let cached = null;
  const available = typeof lib.fitQueryConfidence === "function";
  if (!available) {
    fitBtn.disabled = true;
    status.textContent = "fitQueryConfidence is not in this build of calibrank.";
  }
  fitBtn.addEventListener("click", async () => {
    // Disabled while the worker fits, it loses the focus: it takes it back after.
    const hadFocus = document.activeElement === fitBtn;
    fitBtn.disabled = true;
    status.textContent = "Fitting in the worker…";
    try {
      const { qrels, runs } = trainingData(sample, split.fit);
      const model = await request({ op: "fitQueryConfidence", qrels, runs, options: {} });
      fitted = { model, fitIds: split.fit.map((q) => q.id), testIds: split.test.map((q) => q.id) };
      cacheKey = "";
      status.textContent = `Fitted in the worker: ${model.training.iterations} Newton iteration${model.training.iterations === 1 ? "" : "s"}${model.training.converged ? ", converged" : ", not converged"}.`;
      render();
    } catch (e) {
      if (e.cancelled) status.textContent = "The worker was stopped (a fusion search was cancelled): fit again.";
      else {
        status.textContent = "The fit failed.";
        ctx.problem(e);
      }
    } finally {
      fitBtn.disabled = !available;
      if (hadFocus && focusLost()) fitBtn.focus();
    }
  });

  /** "Back to the rank-only estimate": the model out of the configuration, and no longer carried. */
  function removeButton(inUse) {
    const remove = h("button", { type: "button", id: "remove-confidence-model", class: "secondary", text: "Back to the rank-only estimate", disabled: !inUse });
    remove.addEventListener("click", async () => {
      applied = null;
      const s = ctx.getState();
      s.config = withoutModel(s.config);
      if (await ctx.commit()) ctx.notice("The outcome comes from the rank-only estimate again.");
    });
    return remove;
  }

  /**
   * Fills the panel's box, the focus kept on the button that had it (rebuilt), else (now
   * disabled: "Use this model" once in use) on the box's first enabled button, else on
   * the fit button.
   */
  function fillBox(...parts) {
    const focused = box.contains(document.activeElement) ? document.activeElement.id : null;
    fill(box, ...parts);
    if (!focused || !focusLost()) return;
    const target = [box.querySelector(`#${CSS.escape(focused)}`), ...box.querySelectorAll("button")].find((b) => b && !b.disabled) || fitBtn;
    target.focus();
  }

  function render() {
    const state = ctx.getState();
    const inUse = state.config.confidence?.model || null;
    if (!fitted) {
      // A model from a link or before a reload: in use, and removable here too.
      fillBox(inUse ? [h("p", { class: "note", id: "confidence-in-use", text: `A query-confidence model is in the pipeline's configuration (fitted on ${inUse.training.queries} queries; it stays on for the CISI presets); fit one here to measure it on the held-out half.` }), h("div", { class: "button-row" }, removeButton(inUse))] : null);
      return;
    }
    const model = fitted.model;
    const key = JSON.stringify(withoutModel(state.config));
    if (key !== cacheKey) {
      try {
        cached = heldOut(lib, sample, withoutModel(state.config), model);
      } catch (e) {
        cached = { error: e };
      }
      cacheKey = key;
    }
    const ev = cached;
    const isApplied = Boolean(inUse) && JSON.stringify(inUse) === JSON.stringify(model);
    const t = model.training;
    const parts = [
      h("h3", { text: "The fitted model" }),
      h("p", { class: "note" }, `Fitted on the queries ${fitted.fitIds.map((id) => (id.startsWith("ood") ? id : `Q${id}`)).join(", ")} (every other judged query of the sample). Label: the fused top ${model.k} (RRF, k = ${fmtp(model.rrfK)}) holds a document judged > 0.`),
      h("div", { class: "metrics", id: "confidence-training", "data-training": JSON.stringify(t) },
        [["queries", "training queries", t.queries, 0], ["positives", "with a relevant doc in the top " + model.k, t.positives, 0], ["logLoss", "training log loss", t.logLoss, 3], ["auroc", "training AUROC", t.auroc, 3]].map(([k, label, v, d]) =>
          h("div", { class: "metric small", "data-key": k, "data-value": full(v) }, h("span", { class: "metric-label", text: label }), h("span", { class: "metric-value", text: fmt(v, d) })))),
      h("div", { class: "table-scroll" }, stackable(h("table", { class: "features", id: "confidence-model", "data-model": JSON.stringify(model) },
        h("caption", { text: "Coefficients of the standardized features" }),
        h("thead", {}, h("tr", {}, ["feature", "mean", "scale", "coefficient"].map((x, i) => h("th", { scope: "col", class: i ? "num" : null, text: x })))),
        h("tbody", {},
          model.features.map((f, j) => h("tr", { "data-feature": f, "data-coefficient": full(model.coefficients[j]) },
            h("th", { scope: "row", text: f === "rankOnly" ? "rankOnly (log-odds of the rank-only estimate)" : `${f}: best raw score of ${sample.runs[j - 1]}` }),
            h("td", { class: "num", text: fmt(model.mean[j]) }), h("td", { class: "num", text: fmt(model.scale[j]) }), h("td", { class: "num", text: fmt(model.coefficients[j], 3) }))),
          h("tr", { "data-feature": "intercept", "data-coefficient": full(model.intercept) }, h("th", { scope: "row", text: "intercept" }), h("td", {}), h("td", {}), h("td", { class: "num", text: fmt(model.intercept, 3) })))))),
      h("p", { class: "note" }, `L2 penalty ${fmtp(model.l2)}; an empty list takes its training's lowest best score (${model.missingTop.map((x) => fmt(x)).join(", ")}).`),
    ];
    if (ev.error) parts.push(h("p", { class: "field-error", text: `The held-out half could not be scored with this configuration: ${ev.error.message}` }));
    else {
      const positives = ev.labels.filter((l) => l === 1).length;
      const row = (name, keyName, f) => h("tr", { "data-estimate": keyName, "data-auroc": full(f.auroc ?? NaN), "data-ece": full(f.ece), "data-brier": full(f.brier) },
        h("th", { scope: "row", text: name }), h("td", { class: "num", text: f.auroc === null ? "–" : fmt(f.auroc, 3) }), h("td", { class: "num", text: fmt(f.ece, 3) }), h("td", { class: "num", text: fmt(f.brier, 3) }), h("td", { class: "num", text: fmt(f.logLoss, 3) }));
      parts.push(
        h("h3", { text: "Held out" }),
        h("p", { class: "note" }, `The other ${ev.rows.length} judged queries (${positives} with a relevant document in the top ${model.k}; ${ev.rows.filter((r) => r.ood).length} out of domain), through the current configuration. ECE: ${ev.bins} equal-width bins; on so few queries it is mostly binning noise: see the quality report (make quality, cisi-abstain) for the 146-query figures.`),
        h("div", { class: "table-scroll" }, stackable(h("table", { class: "features", id: "confidence-heldout" },
          h("caption", { text: "Held-out figures" }),
          h("thead", {}, h("tr", {}, ["estimate", "AUROC", "ECE", "Brier", "log loss"].map((x, i) => h("th", { scope: "col", class: i ? "num" : null, text: x })))),
          h("tbody", {}, row("rank-only (no model)", "rankOnly", ev.rankOnly), row("fitted model", "model", ev.model))))),
        h("div", { class: "table-scroll" }, stackable(h("table", { class: "features", id: "confidence-queries" },
          h("caption", { text: "Held-out queries: outcome without and with the model" }),
          h("thead", {}, h("tr", {}, ["query", "relevant in top " + model.k, "rank-only", "model"].map((x, i) => h("th", { scope: "col", class: i > 1 ? "num" : null, text: x })))),
          h("tbody", {}, ev.rows.map((r) => h("tr", { "data-id": r.id, "data-label": r.label, "data-rank-only": full(r.rankOnly.probability), "data-rank-only-kind": r.rankOnly.kind, "data-model": full(r.model.probability), "data-model-kind": r.model.kind },
            h("th", { scope: "row", text: `${r.id.startsWith("ood") ? r.id : `Q${r.id}`} · ${r.text.length > 48 ? r.text.slice(0, 45).trimEnd() + "…" : r.text}` }),
            h("td", { text: r.label ? "yes" : r.ood ? "no (out of domain)" : "no" }),
            h("td", { class: "num" }, `${fmt(r.rankOnly.probability, 3)} `, h("span", { class: `chip outcome-chip outcome-${r.rankOnly.kind}`, text: r.rankOnly.kind })),
            h("td", { class: "num" }, `${fmt(r.model.probability, 3)} `, h("span", { class: `chip outcome-chip outcome-${r.model.kind}`, text: r.model.kind })))))))));
    }
    const apply = h("button", { type: "button", id: "apply-confidence-model", text: isApplied ? "The model is in use" : "Use this model in the pipeline", disabled: isApplied });
    apply.addEventListener("click", async () => {
      applied = model;
      const s = ctx.getState();
      s.config = withModel(s.config, model);
      if (await ctx.commit()) ctx.notice("The query-confidence model now gives the outcome (it stays on for the CISI presets).");
    });
    parts.push(h("div", { class: "button-row" }, apply, removeButton(inUse)));
    fillBox(...parts);
  }

  const root = h("div", {},
    h("p", { class: "note" },
      "fitQueryConfidence (calibrank/lab) learns, from judged queries, the probability that the fused top 5 holds a relevant document, from the rank-only estimate and each list's best raw score. ",
      `The sample has ${sample.queries.length} judged queries, ${sample.queries.filter((q) => q.id.startsWith("ood")).length} of them out of domain (medical or everyday queries run against CISI, judged all 0: nothing relevant exists). `,
      "The model is fitted on every other one, in a Web Worker, and measured on the rest against the rank-only estimate."),
    h("div", { class: "button-row" }, fitBtn), status, box);
  return { root, render };
}
