// Fusion tuning (optimizeFusion of calibrank/lab) in the Web Worker, so the progress
// bar repaints while the grid runs: the "Optimize fusion" part of the judgements card.
import { h, fill, fmt, fmtp, full, focusLost } from "./dom.js";
import { request, terminateWorker } from "./worker-client.js";

const OPT_METHODS = ["rrf", "wsum", "wmnz", "mixed", "w_bordafuse", "w_condorcet", "dbsf", "rbc", "arithmetic_mean", "geometric_mean", "harmonic_mean"];
const OPT_METRICS = ["ndcg@10", "ndcg@20", "map@20", "mrr", "precision@10", "recall@20"];

/**
 * The "Optimize fusion" controls: ctx = { lib, getEvaluation, getState, commit (applies the
 * change now; resolves whether the package accepted it), notice, problem }.
 */
export function buildOptimizer(ctx) {
  const { lib } = ctx;
  const methodId = "optimize-method";
  const metricId = "optimize-metric";
  const gridId = "optimize-grid";
  const method = h("select", { id: methodId }, OPT_METHODS.map((m) => h("option", { value: m, text: m })));
  const metric = h("select", { id: metricId }, OPT_METRICS.map((m) => h("option", { value: m, text: m })));
  const grid = h("select", { id: gridId });
  const gridOptions = () => {
    const m = method.value;
    const opts = m === "rrf"
      ? [["k10", "k = 10, 20, …, 100"], ["k1", "k = 1, 2, …, 200"]]
      : [["default", m === "rbc" ? "ranx's step (0.01)" : "ranx's step (0.1)"], ["0.1", "step 0.1"], ["0.05", "step 0.05"], ["0.02", "step 0.02"], ["0.01", "step 0.01"], ["0.005", "step 0.005"]];
    fill(grid, opts.map(([v, t]) => h("option", { value: v, text: t })));
  };
  gridOptions();
  method.addEventListener("change", gridOptions);
  const run = h("button", { type: "button", id: "optimize-run", text: "Optimize fusion" });
  const cancel = h("button", { type: "button", class: "secondary", text: "Cancel", hidden: true });
  const progress = h("progress", { id: "optimize-progress", max: 1, value: 0, "aria-label": "Optimization progress" });
  const status = h("p", { class: "note", id: "optimize-status", "aria-live": "polite", text: "Grid search with optimizeFusion over the sample's BM25 and dense runs, in a Web Worker." });
  const resultBox = h("div", { id: "optimize-result" });
  const available = typeof lib.optimizeFusion === "function";
  if (!available) {
    run.disabled = true;
    status.textContent = "optimizeFusion is not in this build of calibrank.";
  }
  run.addEventListener("click", async () => {
    const ev = ctx.getEvaluation();
    if (!ev) return;
    if (ev.error) {
      status.textContent = "The sample's judgements could not be read through this configuration (the card says which query the package refused): mend it to search.";
      return;
    }
    const options = { method: method.value, metric: metric.value };
    if (method.value === "rrf") options.kValues = grid.value === "k1" ? Array.from({ length: 200 }, (_, i) => i + 1) : Array.from({ length: 10 }, (_, i) => (i + 1) * 10);
    // "default": no step sent, so the search takes ranx's (0.1 for weights, 0.01 for phi).
    else if (grid.value !== "default") options.step = Number(grid.value);
    // Disabled while the worker searches, it loses the focus: it takes it back after
    // (unless the focus went to Cancel, or elsewhere, meanwhile).
    const hadFocus = document.activeElement === run;
    run.disabled = true;
    cancel.hidden = false;
    progress.value = 0;
    progress.removeAttribute("data-done");
    let updates = 0;
    status.textContent = "Starting the worker…";
    fill(resultBox);
    try {
      const report = await new Promise((resolve, reject) => {
        cancel.onclick = () => {
          terminateWorker();
          reject(Object.assign(new Error("cancelled"), { cancelled: true }));
        };
        request({ op: "optimizeFusion", qrels: ev.qrels, runs: ev.runs, options }, (d) => {
          progress.max = d.total;
          progress.value = d.done;
          progress.dataset.updates = ++updates;
          status.textContent = `${d.done} of ${d.total} configurations, best ${metric.value} so far ${fmt(d.bestScore, 4)}`;
        }).then(resolve, reject);
      });
      progress.dataset.done = "true";
      showOptimizeResult(ctx, resultBox, report, ev);
      status.textContent = `Done: ${report.trials.length} configurations tried.`;
    } catch (e) {
      if (e.cancelled) status.textContent = "Cancelled.";
      else {
        status.textContent = "The search failed.";
        ctx.problem(e);
      }
    } finally {
      const cancelHadFocus = document.activeElement === cancel;
      run.disabled = false;
      cancel.hidden = true;
      if ((hadFocus || cancelHadFocus) && focusLost()) run.focus();
    }
  });
  const root = h("div", {},
    h("div", { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: methodId, text: "Method" }), method),
      h("div", { class: "field" }, h("label", { for: metricId, text: "Metric" }), metric),
      h("div", { class: "field" }, h("label", { for: gridId, text: "Grid" }), grid)),
    h("div", { class: "button-row" }, run, cancel),
    progress, status, resultBox);
  return { root };
}

function showOptimizeResult(ctx, box, report, ev) {
  const best = report.best;
  const params = Object.entries(best.params).map(([k, v]) => `${k} = ${fmtp(v)}`);
  if (best.weights) params.push(`weights ${ev.runNames.map((n, i) => `${n} ${fmtp(best.weights[i])}`).join(", ")}`);
  const parts = [h("p", { "data-best-score": full(best.score) }, `Best ${report.metric} ${fmt(best.score, 4)} with ${report.method}: ${params.join("; ") || "defaults"}.`)];
  if (report.method === "rrf" && best.params.k !== undefined) {
    const apply = h("button", { type: "button", text: `Use k = ${best.params.k} in the pipeline` });
    apply.addEventListener("click", async () => {
      ctx.getState().config.k = best.params.k;
      if (await ctx.commit()) ctx.notice(`k set to ${best.params.k}.`);
    });
    parts.push(h("div", { class: "button-row" }, apply));
  } else if (best.weights) {
    const apply = h("button", { type: "button", text: "Use these weights as list weights" });
    apply.addEventListener("click", async () => {
      ctx.getState().config.weights = Object.fromEntries(ev.runNames.map((n, i) => [n, best.weights[i]]));
      if (await ctx.commit()) ctx.notice("List weights set (the pipeline fuses with weighted RRF; the weights were tuned for " + report.method + ").");
    });
    parts.push(h("div", { class: "button-row" }, apply, h("span", { class: "note", text: `The pipeline fuses with weighted RRF; these weights were tuned for ${report.method}.` })));
  }
  // The tried grid as a small table (the 8 best). Of the configurations tied at a score,
  // the reported best comes first (the package keeps one of them, ranx's: for RRF the last
  // k of the grid), the others in grid order: cut at 8, the table listed k = 20..90 of a
  // tie and left out the best, k = 100.
  const same = (t) => JSON.stringify([t.params, t.weights ?? null]) === JSON.stringify([best.params, best.weights ?? null]);
  const ranked = report.trials.map((t, i) => ({ t, i, best: same(t) })).sort((a, b) => b.t.score - a.t.score || b.best - a.best || a.i - b.i);
  const top = ranked.slice(0, 8);
  const tied = report.trials.filter((t) => t.score === best.score).length;
  parts.push(h("div", { class: "table-scroll" }, h("table", { class: "trials" },
    h("caption", { text: tied > 1 ? `Best configurations (${tied} reach the best score; the reported one first)` : "Best configurations" }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "configuration" }), h("th", { scope: "col", class: "num", text: report.metric }))),
    h("tbody", {}, top.map(({ t, best: isBest }) => h("tr", { "data-best": isBest ? "" : undefined, class: isBest ? "best" : undefined, "data-score": full(t.score) },
      h("td", { text: [...Object.entries(t.params).map(([k, v]) => `${k} = ${fmtp(v)}`), t.weights ? `weights ${t.weights.map((x) => fmtp(x)).join(" / ")}` : "", isBest ? "(reported best)" : ""].filter(Boolean).join(", ") }),
      h("td", { class: "num", text: fmt(t.score, 4) })))))));
  fill(box, ...parts);
}
