// The "Query confidence" panel of the CISI presets: the query-confidence model fitted
// (fitQueryConfidence, in the worker) on half of the sample's judged queries, measured
// on the other half (confidence.js heldOut), applied to the pipeline; and the model
// applied, which this module remembers to carry across the CISI presets.
import { h, fill, fmt, fmtp, full, focusLost } from "./dom.js";
import { withModel, withoutModel, sampleSplit, trainingData, heldOut } from "./confidence.js";
import { request } from "./worker-client.js";
import { stackable } from "./tables.js";

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
