// The judgements card of the CISI presets: the sample's calibration quality (reliability
// diagram and bins, ECE, nDCG), fitting the calibration (Platt, isotonic), proposing band
// floors, and fusion tuning (optimize.js).
import { h, fill, fmt, fmtp, full, nextId, setPath } from "./dom.js";
import { buildPreset } from "./presets.js";
import * as charts from "./charts.js";
import { buildOptimizer } from "./optimize.js";
import { describeError, showProblem, clearProblemFrom, notice, problemText } from "./notices.js";
import { figureBox, emptyFigure, width, chartCache, cursor } from "./figures.js";

/** A reliability bin's range: "0.30–0.40". */
const binRange = (b) => `${fmt(b.lower, 2)}–${fmt(b.upper, 2)}`;

/** A reliability bin in words: "0.30–0.40: n=265, mean 0.333, 16.6% relevant". */
function describeBin(b) {
  return [{ strong: `${binRange(b)}: n=${b.count}, mean ${fmt(b.meanConfidence, 3)}, ${fmt(b.fractionPositive * 100, 1)}% relevant` }];
}

/**
 * The judgements panel over `ctx` = { state, lib, sample, evaluation, changed(opts),
 * commit(opts), recompute() }. Returns { build(host), render() }.
 */
export function createEvaluationPanel(ctx) {
  const evalUi = {};

  function buildEvaluationSkeleton(host) {
    const binsId = nextId("bins");
    const stratId = nextId("strat");
    const bins = h("select", { id: binsId }, [5, 10, 15, 20].map((n) => h("option", { value: n, text: n, selected: n === ctx.state.view.bins })));
    const strategy = h("select", { id: stratId }, ["uniform", "quantile"].map((s) => h("option", { value: s, text: s, selected: s === ctx.state.view.binStrategy })));
    const onBins = () => {
      ctx.state.view.bins = Number(bins.value);
      ctx.state.view.binStrategy = strategy.value;
      ctx.recompute();
    };
    bins.addEventListener("change", onBins);
    strategy.addEventListener("change", onBins);
    evalUi.caption = h("p", { class: "note" });
    evalUi.error = h("p", { class: "field-error", id: "evaluation-error", hidden: true });
    evalUi.metrics = h("div", { class: "metrics" });
    evalUi.chart = figureBox("reliability-chart", "Reliability diagram: one bar and dot per bin, the dot's area its count", "bins");
    evalUi.table = h("div", {});

    const fitPlatt = h("button", { type: "button", id: "fit-platt", text: "Fit Platt scaling" });
    const fitIso = h("button", { type: "button", id: "fit-isotonic", text: "Fit isotonic regression" });
    const restore = h("button", { type: "button", id: "restore-sigmoid", class: "secondary", text: "Back to the preset's sigmoid" });
    evalUi.fitNote = h("p", { class: "note", "aria-live": "polite" });
    evalUi.actions = [fitPlatt, fitIso];
    fitPlatt.addEventListener("click", () => fit("platt"));
    fitIso.addEventListener("click", () => fit("isotonic"));
    restore.addEventListener("click", () => {
      const base = buildPreset(ctx.state.preset, ctx.sample);
      ctx.state.config.calibration = base.config.calibration;
      if (!ctx.state.config.calibration) delete ctx.state.config.calibration;
      evalUi.fitNote.textContent = "Calibration restored.";
      ctx.changed({ rebuildControls: true });
    });

    const targetId = nextId("target");
    evalUi.target = h("input", { id: targetId, type: "number", min: 0.05, max: 1, step: 0.05, value: 0.85, class: "narrow" });
    const propose = h("button", { type: "button", id: "propose-bands", text: "Propose band floors" });
    evalUi.proposal = h("div", { "aria-live": "polite" });
    propose.addEventListener("click", proposeFloors);
    evalUi.actions.push(propose);

    evalUi.optimize = buildOptimizer({
      lib: ctx.lib,
      getEvaluation: () => ctx.evaluation,
      getState: () => ctx.state,
      commit: () => ctx.commit({ rebuildControls: true }),
      notice,
      problem: (e) => showProblem(e.code ? { title: "The package rejected the search", code: e.code, field: e.field, message: e.message } : describeError(e, ctx.lib)),
    });

    fill(host,
      evalUi.error,
      evalUi.caption,
      evalUi.metrics,
      h("h3", { text: "Reliability diagram" }),
      h("p", { class: "note", text: "A dot's area is its bin's count (n in the table). Hover a bin, or focus the chart and use the arrow keys, to read it." }),
      h("div", { class: "field-row" },
        h("div", { class: "field" }, h("label", { for: binsId, text: "Bins" }), bins),
        h("div", { class: "field" }, h("label", { for: stratId, text: "Strategy" }), strategy)),
      h("div", { class: "split" }, evalUi.chart, evalUi.table),
      h("h3", { text: "Fit the calibration from the judgements" }),
      h("p", { class: "note", text: "Fits on (raw score before calibration, relevant or not) for every candidate of every sample query; the fitted model becomes the pipeline's calibration." }),
      h("div", { class: "button-row" }, fitPlatt, fitIso, restore),
      evalUi.fitNote,
      h("h3", { text: "Propose band floors" }),
      h("div", { class: "field-row" }, h("div", { class: "field fixed" }, h("label", { for: targetId, text: "Target precision of the hit band" }), evalUi.target), h("div", { class: "button-row" }, propose)),
      evalUi.proposal,
      h("h3", { text: "Optimize fusion" }),
      evalUi.optimize.root);
  }

  /** The reliability chart's width (read by the caller with the other charts' before any write). */
  const chartWidth = () => width(evalUi.chart);

  function renderEvaluation(chartW = chartWidth()) {
    const ev = ctx.evaluation;
    if (!ev) return;
    evalUi.error.hidden = !ev.error;
    for (const b of evalUi.actions) b.disabled = Boolean(ev.error);
    if (ev.error) return renderRefused(ev);
    evalUi.error.removeAttribute("data-query");
    const positives = ev.labels.filter((l) => l === 1).length;
    evalUi.caption.textContent = `All ${ctx.sample.queries.length} CISI sample queries through the current configuration: ${ev.labels.length} candidates (the topK pool of each query), ${positives} judged relevant.`;
    const rep = ev.report;
    const metric = (key, label, value) => h("div", { class: "metric small", "data-key": key, "data-value": full(value) }, h("span", { class: "metric-label", text: label }), h("span", { class: "metric-value", text: fmt(value, 3) }));
    fill(evalUi.metrics,
      metric("ece", "ECE", rep.ece), metric("mce", "MCE", rep.mce), metric("brier", "Brier", rep.brier), metric("logLoss", "Log loss", rep.logLoss), metric("auroc", "AUROC", rep.auroc),
      ...Object.entries(ev.metrics).map(([name, m]) => metric(`ndcg-${name}`, `nDCG@10 ${name === "fused" ? "pipeline" : name}`, m["ndcg@10"])));
    fill(evalUi.chart, charts.reliability(rep, { width: chartW, cache: chartCache }));
    const byId = new Map(rep.bins.map((b, i) => [charts.binId(i), b]).filter(([, b]) => b.count > 0));
    cursor(evalUi.chart, [...byId.keys()], (id) => describeBin(byId.get(id)));
    fill(evalUi.table, h("div", { class: "table-scroll" }, h("table", { class: "bins", id: "bins-table" },
      h("caption", { text: "Reliability bins" }),
      h("thead", {}, h("tr", {}, ["bin", "n", "mean conf.", "relevant"].map((t, i) => h("th", { scope: "col", class: i ? "num" : null, text: t })))),
      h("tbody", {}, rep.bins.map((b) => h("tr", { "data-count": b.count, "data-mean": full(b.meanConfidence), "data-fraction": full(b.fractionPositive) },
        h("td", { text: binRange(b) }), h("td", { class: "num", text: b.count }), h("td", { class: "num", text: b.count ? fmt(b.meanConfidence, 3) : "–" }), h("td", { class: "num", text: b.count ? fmt(b.fractionPositive, 3) : "–" })))))));
  }

  /**
   * A sample query the package refused through this config: said in the card (the page's
   * own query passed, its outputs stand), the sample's figures emptied until it passes.
   */
  function renderRefused(ev) {
    const q = ev.query;
    const which = q ? `Sample query ${q.id.startsWith("ood") ? q.id : `Q${q.id}`} (“${q.text.length > 60 ? q.text.slice(0, 57).trimEnd() + "…" : q.text}”)` : "The sample";
    evalUi.error.textContent = `${which} could not be scored with this configuration: ${problemText(ev.error)}. The outputs above are the current query's; the sample's figures come back once every sample query passes.`;
    if (q) evalUi.error.dataset.query = q.id;
    else evalUi.error.removeAttribute("data-query");
    evalUi.caption.textContent = "";
    fill(evalUi.metrics);
    emptyFigure(evalUi.chart, "No reliability diagram: a sample query was refused.");
    fill(evalUi.table);
    fill(evalUi.proposal);
  }

  async function fit(method) {
    const ev = ctx.evaluation;
    if (!ev || ev.error) return;
    let model;
    try {
      model = method === "platt" ? ctx.lib.fitPlatt(ev.raws, ev.labels) : ctx.lib.fitIsotonic(ev.raws, ev.labels);
    } catch (e) {
      showProblem(describeError(e, ctx.lib));
      return;
    }
    ctx.state.config.calibration = model;
    const what = method === "platt" ? `Platt: a = ${fmt(model.a)}, b = ${fmt(model.b)}` : `Isotonic: ${model.x.length} knots`;
    // Said once the package has taken it or not (a Platt model with a > 0, judgements
    // against the scores, is refused by the pipeline: the problem panel says why).
    evalUi.fitNote.textContent = (await ctx.commit({ rebuildControls: true })) ? `${what}, now the pipeline's calibration.` : `${what}: refused by the pipeline.`;
  }

  function proposeFloors() {
    const ev = ctx.evaluation;
    if (!ev || ev.error) return;
    try {
      const target = Number(evalUi.target.value);
      const p = ctx.lib.proposeBands(ev.probs, ev.labels, { targetPrecision: target });
      const m = (b) => (b === null || b === undefined ? "–" : fmt(b, 3));
      const apply = h("button", { type: "button", id: "apply-bands", text: `Apply floors ${fmtp(p.highFloor)} / ${fmtp(p.degradedFloor)}` });
      apply.addEventListener("click", async () => {
        setPath(ctx.state, "config.bands.highFloor", p.highFloor);
        setPath(ctx.state, "config.bands.degradedFloor", p.degradedFloor);
        if (await ctx.commit({ rebuildControls: true })) notice("Band floors applied.");
      });
      fill(evalUi.proposal,
        h("p", { "data-high-floor": full(p.highFloor), "data-degraded-floor": full(p.degradedFloor) },
          `High floor ${fmtp(p.highFloor)}, degraded floor ${fmtp(p.degradedFloor)} (${p.count} judged, ${p.positives} relevant; target ${fmt(p.targetPrecision, 2)} ${p.targetReached ? "reached" : "not reached"}). `,
          `Held out over ${p.folds.length} folds: hit precision ${m(p.heldOut.hit.precision)} (${p.heldOut.hit.count} results), recall ${m(p.heldOut.hit.recall)}; degraded precision ${m(p.heldOut.degraded.precision)} (${p.heldOut.degraded.count} results).`),
        p.warnings.length ? h("ul", { class: "warnings" }, p.warnings.map((w) => h("li", { text: w }))) : null,
        h("div", { class: "button-row" }, apply));
      clearProblemFrom("proposal");
    } catch (e) {
      // The proposal before, for another target, goes with its Apply button.
      fill(evalUi.proposal);
      showProblem({ ...describeError(e, ctx.lib), source: "proposal" });
    }
  }

  return { build: buildEvaluationSkeleton, render: renderEvaluation, chartWidth };
}
