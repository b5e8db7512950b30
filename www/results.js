// The outputs of the pipeline mode: the query-level result and its figures, the
// per-stage explanation (one panel per stage, from result.explain), the calibration curve
// with its quick controls, relative vs absolute scores, the final ranking, and (CISI
// presets) the judgements and query-confidence cards.
import { h, fill, $$, fmt, fmtp, full } from "./dom.js";
import * as charts from "./charts.js";
import { renderOutcome } from "./outcome.js";
import { confidencePanel } from "./confidence-panel.js";
import { describeError, showProblem, notice } from "./notices.js";
import { card, figureBox, emptyFigure, width, bandChip, cursor, chartCache } from "./figures.js";
import { listsOf, itemsOf } from "./input-editor.js";
import { createEvaluationPanel } from "./evaluation.js";
import { tableRoles } from "./tables.js";
import { FLOOR_CONTROLS } from "./schema.js";

// The heuristic reranker's factors (explain.rerank.factors), their product `multiplier`.
const HEURISTIC_FACTORS = ["exactName", "nameTerms", "summaryTerms", "entityType", "shortContent"];

/**
 * The most rows the charts draw (the returned results first, then the best-scored dropped
 * candidates): a pool of 1,000 drawn whole made the stage charts 57,000 px tall and every
 * edit take 0.5 to 1 s, where the package answers in a millisecond. The stage card says
 * how many are left out.
 */
export const CHART_ROWS = 60;

/**
 * The most rows the final ranking lists until asked for all ("Show all"): with 1,000
 * returned results, rebuilding the whole table made ten keystrokes take about 3 s, 0.8 s
 * since (`node bench/playground-edits.mjs`, against the page of an older revision).
 */
export const RANKING_ROWS = 200;

/**
 * The pipeline outputs over `ctx` = { out (containers, emptied by the caller on a
 * rebuild), state, lib, sample, defaults, result, evaluation, changed(opts), commit(opts), recompute(),
 * renderOutputs(), writeUrl() } and `form` (createForm: the quick controls).
 * Returns { build(root), render() }.
 */
export function createPipelineView(ctx, form) {
  const { out } = ctx;
  const { quickControls } = form;
  const evaluationPanel = createEvaluationPanel(ctx);
  let rankingAll = false; // the whole ranking listed (its "Show all" pressed), until the outputs are rebuilt
  let rankingKey = null; // what the ranking table shows (renderRanking rebuilds it only when that changes)

  function buildPipelineOutputs(root) {
    out.outcome = h("div", { class: "outcome-box" });
    out.summary = h("div", { class: "summary" });
    root.append(card("result", "Result", out.outcome, out.summary));

    out.stageLegend = h("div", { class: "legend" });
    const dropped = h("input", { type: "checkbox", id: "show-dropped", checked: ctx.state.view.showDropped });
    dropped.addEventListener("change", () => {
      ctx.state.view.showDropped = dropped.checked;
      ctx.renderOutputs();
      ctx.writeUrl();
    });
    out.stages = figureBox("stage-chart", "The pipeline, stage by stage");
    root.append(card("stages", "The pipeline, stage by stage",
      h("p", { class: "note", text: "Each result's value after every stage, from result.explain. Hover a bar, or focus the chart and use the arrow keys, to see the contributing lists and ranks." }),
      (out.chartCap = h("p", { class: "note", id: "chart-cap", hidden: true })),
      (out.explainOff = h("p", { class: "note", id: "explain-off", hidden: true, text: "explain is off in the configuration: the results come without their explanation, so these stages are those of a shadow run with explain on (the same input and configuration, every candidate of the topK pool kept)." })),
      h("div", { class: "toolbar" }, out.stageLegend, h("span", { class: "checkbox" }, dropped, h("label", { for: "show-dropped", text: "Show dropped candidates (faded)" }))),
      out.stages));

    out.curveControls = h("div", {});
    out.curve = figureBox("curve-chart", "Calibration curve");
    out.curveNote = h("p", { class: "note" });
    root.append(card("calibration", "Calibration curve", out.curveNote, out.curveControls, out.curve));

    out.relFig = h("figure", { class: "chart", id: "relative-chart", tabindex: "0", role: "group", "aria-label": "Max-normalized scores. Use the arrow keys to step through the results." });
    out.absFig = h("figure", { class: "chart", id: "absolute-chart", tabindex: "0", role: "group", "aria-label": "Calibrated scores. Use the arrow keys to step through the results." });
    out.relative = h("div", { class: "pair" }, out.relFig, out.absFig);
    root.append(card("relative", "Relative vs absolute",
      h("p", { class: "note", text: "The same results: max-normalization, normalize(scores, \"max\") of the scores before normalization, always puts the best at 1.0 however weak it is; the calibrated confidence keeps an absolute meaning across queries." }),
      out.relative));

    out.ranking = h("div", {});
    rankingAll = false;
    rankingKey = null;
    root.append(card("ranking", "Final ranking", out.ranking));

    if (ctx.state.judgements && ctx.sample) {
      out.evaluation = h("div", {});
      root.append(card("evaluation", "Judgements: calibration quality, fitting and fusion tuning", out.evaluation));
      evaluationPanel.build(out.evaluation);
      out.confidence = confidencePanel({
        lib: ctx.lib,
        sample: ctx.sample,
        getState: () => ctx.state,
        commit: () => ctx.commit({ rebuildControls: true }),
        notice,
        problem: (e) => showProblem(e.code ? { title: "The package rejected the fit", code: e.code, field: e.field, message: e.message } : describeError(e, ctx.lib)),
      });
      root.append(card("query-confidence", "Query confidence: know when nothing relevant was found", out.confidence.root));
    }
  }

  function renderCurveControls() {
    const cal = ctx.result?.effective?.calibration || ctx.defaults.calibration;
    // Slider ranges follow the raw scores (not the threshold, so a drag never rescales).
    const rawMax = Math.max(0, ...(ctx.result?.rows || []).filter((x) => x.explain).map((x) => x.explain.normalized));
    const tMax = cal.method === "sigmoid" ? Math.max(niceMax(rawMax * 2), niceMax(cal.threshold)) : 0;
    const sMax = cal.method === "sigmoid" ? Math.max(400, niceMax(cal.steepness)) : 0;
    // A fitted calibration's note shows its parameters: they are in the key (a refit or
    // an edit of `a` showed the old ones).
    const key = cal.method === "sigmoid" ? `sigmoid:${tMax}:${sMax}` : `${cal.method}:${JSON.stringify(cal)}`;
    if (out.curveControls.dataset.key === key) return;
    const sigmoid = cal.method === "sigmoid"
      ? [
          { label: "Sigmoid threshold", path: "config.calibration.threshold", min: 0, max: tMax, step: tMax / 500, value: cal.threshold },
          { label: "Sigmoid steepness", path: "config.calibration.steepness", min: 1, max: sMax, step: 1, value: cal.steepness },
        ]
      : [];
    const sameSigmoid = cal.method === "sigmoid" && out.curveControls.dataset.method === "sigmoid";
    out.curveControls.dataset.key = key;
    out.curveControls.dataset.method = cal.method;
    if (sameSigmoid) {
      // Only the sliders' ranges moved (a threshold or steepness typed past them, or a
      // field cleared back to the default): set in place. Rebuilt, the controls lost what
      // was being typed: the new field showed the default and the next keys were
      // appended to it (0.035, then "1.5" typed, gave 0.03515).
      for (const { path, max, step, value } of sigmoid) {
        const range = $$(`input[type="range"][data-path="${path}"]`, out.curveControls)[0];
        if (!range) continue;
        range.max = String(max);
        range.step = String(step);
        range.value = String(value);
      }
      return;
    }
    const items = [...sigmoid];
    items.push(...FLOOR_CONTROLS);
    items.push({ label: "minConfidence (drop below)", path: "config.minConfidence", min: 0, max: 1, step: 0.01 });
    const active = document.activeElement?.dataset?.path;
    const wasRange = document.activeElement?.type === "range";
    fill(out.curveControls, quickControls(items));
    if (cal.method !== "sigmoid") {
      out.curveControls.prepend(h("p", { class: "note", text: `Fitted ${cal.method} calibration in use${cal.method === "platt" ? `: a = ${fmt(cal.a)}, b = ${fmt(cal.b)}` : ` (${cal.x.length} knots)`}. Choose "sigmoid" in Configuration › Calibration to go back.` }));
    }
    if (active) $$(`[data-path="${CSS.escape(active)}"]`, out.curveControls).find((el) => (el.type === "range") === wasRange)?.focus();
  }

  function niceMax(x) {
    if (!(x > 0)) return 1;
    const p = 10 ** Math.floor(Math.log10(x));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x) return m * p;
    return 10 * p;
  }

  /** Says how many of the rows the charts could draw they leave out (CHART_ROWS), if any. */
  function renderChartCap(drawable, rows) {
    const left = drawable.length - rows.length;
    out.chartCap.hidden = left === 0;
    if (left === 0) return;
    const returned = rows.filter((x) => x.returned).length;
    const allReturned = drawable.filter((x) => x.returned).length;
    out.chartCap.dataset.drawn = rows.length;
    out.chartCap.dataset.of = drawable.length;
    out.chartCap.textContent =
      returned < allReturned
        ? `The charts on this page draw the first ${rows.length} of the ${allReturned} returned results (the final ranking lists ${allReturned > RANKING_ROWS ? `the first ${RANKING_ROWS}, all on request` : "them all"})${drawable.length > allReturned ? ` and none of the ${drawable.length - allReturned} dropped candidates` : ""}.`
        : `The charts on this page draw ${rows.length} of the ${drawable.length} candidates: the ${returned} returned, then the ${rows.length - returned} best-scored of the ${drawable.length - allReturned} dropped; the other ${left} are counted in the summary, not drawn. Untick “Show dropped candidates” to draw the returned results alone.`;
  }

  function renderPipeline() {
    const r = ctx.result;
    // Every chart's width, read before anything is written: a read after a write makes the
    // browser lay the page out again, and did so once per chart.
    const widths = { stages: width(out.stages), curve: width(out.curve), relative: width(out.relative, 300), evaluation: out.evaluation ? evaluationPanel.chartWidth() : 0 };
    const shown = ctx.state.view.showDropped ? r.rows : r.rows.filter((x) => x.returned);
    const drawable = shown.filter((x) => x.explain);
    const rows = drawable.slice(0, CHART_ROWS);
    renderChartCap(drawable, rows);
    const listNames = [...new Set(listsOf(ctx.state).map((l) => String(l?.name)))];

    // The query-level outcome, then query confidence, bands, stats, metrics.
    renderOutcome(out.outcome, { lib: ctx.lib, state: ctx.state, result: r, seedSigmoid: { threshold: ctx.defaults.calibration.threshold, steepness: ctx.defaults.calibration.steepness } });
    const c = r.out.confidence;
    const s = r.out.stats;
    // Per list (input order): ids listed again, which the package ignores.
    const duplicates = (s.duplicates || []).map((n, i) => [String(listsOf(ctx.state)[i]?.name ?? `list ${i + 1}`), n]).filter(([, n]) => n > 0);
    const undrawn = s.beyondTopK + s.beyondCandidateLimit;
    const metric = (key, label, value, hint) => h("div", { class: "metric", "data-key": key, "data-value": full(value) }, h("span", { class: "metric-label", text: label }), h("span", { class: "metric-value", text: fmt(value, 3) }), hint ? h("span", { class: "metric-hint", text: hint }) : null);
    const figures = [
      metric("weightedTop5", "Query confidence (weighted top-5)", c.weightedTop5),
      metric("expectedPrecision", "Expected precision", c.expectedPrecision, `mean of the top ${c.k}`),
      metric("atLeastOneRelevant", "P(at least one relevant)", c.atLeastOneRelevant, r.out.outcome.source === "model" ? "from the fitted model" : `over the top ${c.k}`),
    ];
    if (r.metrics) figures.push(metric("ndcg10", "nDCG@10 vs judgements", r.metrics.fused["ndcg@10"], listMetricsHint(r.metrics)));
    fill(out.summary,
      h("div", { class: "metrics" }, figures),
      h("p", { class: "stats", "data-stats": JSON.stringify(s) },
        `${s.returned} returned of ${s.candidates} candidates (${s.inSeveralLists} in several lists): `,
        bandChip("hit"), ` ${s.hits}  `, bandChip("degraded"), ` ${s.degraded}  `, bandChip("miss"), ` ${s.misses}. `,
        `Dropped: ${s.beyondTopK} beyond topK, ${s.beyondCandidateLimit} beyond the rerank limit, ${s.belowMinRelevance} below minRelevance, ${s.belowMinConfidence} below minConfidence, ${s.beyondTopN} beyond topN.`,
        undrawn > 0 ? h("span", { "data-undrawn": undrawn, text: ` The charts draw the candidates that reach normalization: the ${undrawn} beyond topK or the rerank limit are counted here, not drawn.` }) : null,
        duplicates.length ? h("span", { "data-duplicates": JSON.stringify(s.duplicates), text: ` Repeated ids ignored (an id's first place in a list counts): ${duplicates.map(([name, n]) => `${n} in ${name}`).join(", ")}.` }) : null,
        s.bandProfile ? ` Band profile: ${s.bandProfile}.` : ""));

    // Stage chart.
    out.explainOff.hidden = r.effective.explain !== false;
    fill(out.stageLegend, listNames.map((n, i) => h("span", { class: "legend-item" }, h("span", { class: "swatch", "data-color": i }), n)),
      charts.BANDS.map((b) => h("span", { class: "legend-item" }, h("span", { class: `swatch band-${b}` }), b)));
    $$(".swatch[data-color]", out.stageLegend).forEach((el) => (el.style.background = charts.LIST_COLORS[Number(el.dataset.color) % charts.LIST_COLORS.length]));
    if (rows.length === 0) {
      emptyFigure(out.stages, r.out.results.length ? "explain is off: turn it on to see the stages." : "No candidate reached calibration.");
    } else {
      const w = widths.stages;
      const cols = w >= 1100 ? 3 : w >= 640 ? 2 : 1;
      const panelWidth = Math.floor((w - (cols - 1) * 16) / cols);
      const panels = charts.stagePanels(rows, { width: panelWidth, listNames, effective: r.effective, floors: r.floors, pool: r.pool, cache: chartCache });
      fill(out.stages, h("div", { class: "panels", "data-cols": cols }, panels.map((p) => h("div", { class: "panel-chart", "data-panel": p.key }, h("h3", { text: p.title }), h("p", { class: "panel-note", text: p.note }), p.svg))));
      cursor(out.stages, rows.map((x) => x.id), describeRow);
    }

    // Calibration curve.
    const cal = r.effective.calibration;
    out.curveNote.textContent =
      cal.method === "sigmoid"
        ? `1 / (1 + exp(−${fmtp(cal.steepness)} · (raw − ${fmtp(cal.threshold)}))), evaluated by the package over the raw-score axis; the results sit on it, coloured by band. Move a floor or the threshold: the bands re-colour at once.`
        : `The fitted ${cal.method} calibration, evaluated by the package (applyCalibration) over the raw-score axis.`;
    if (r.floors.profile) out.curveNote.textContent += ` Band profile “${r.floors.profile}” is in force (floors ${fmtp(r.floors.highFloor)} / ${fmtp(r.floors.degradedFloor)}); the floor sliders set the default floors.`;
    renderCurveControls();
    const cw = widths.curve;
    fill(out.curve, charts.calibrationCurve({
      points: r.curvePoints,
      rows,
      width: cw,
      floors: r.floors,
      minConfidence: r.effective.minConfidence,
      threshold: cal.method === "sigmoid" ? cal.threshold : undefined,
      domain: r.curveDomain,
      labelPoints: rows.filter((x) => x.returned).length <= 6,
    }));
    cursor(out.curve, rows.map((x) => x.id), describeRow);

    // Relative vs absolute.
    const rw = widths.relative;
    const pairCols = rw >= 620 ? 2 : 1;
    const pw = Math.floor((rw - (pairCols - 1) * 16) / pairCols);
    const ra = charts.relativeAbsolute(rows, { width: pw, floors: r.floors, cache: chartCache });
    fill(out.relFig, h("figcaption", { text: `Relative: normalize(raw, "${r.relativeMethod}")` }), ra.relative);
    fill(out.absFig, h("figcaption", { text: "Absolute: calibrated confidence" }), ra.absolute);
    out.relative.dataset.cols = pairCols;
    cursor(out.relFig, rows.map((x) => x.id), describeRow);
    cursor(out.absFig, rows.map((x) => x.id), describeRow);

    renderRanking();
    if (out.evaluation) evaluationPanel.render(widths.evaluation);
    if (out.confidence) out.confidence.render();
  }

  function listMetricsHint(m) {
    return Object.entries(m).filter(([k]) => k !== "fused").map(([k, v]) => `${k} ${fmt(v["ndcg@10"], 3)}`).join(" · ");
  }

  function nameOf(id) {
    const name = itemsOf(ctx.state)[id]?.name;
    return typeof name === "string" ? name : undefined;
  }

  function describeRow(id) {
    const row = ctx.result.rows.find((x) => x.id === id);
    if (!row) return [id];
    const x = row.explain;
    const lines = [];
    const name = nameOf(id);
    lines.push({ strong: name && name !== id ? `${id} · ${name}` : id });
    lines.push(row.returned ? `#${row.rank}, ${row.band}, calibrated ${fmt(row.score)}` : `dropped (${row.reason}), ${row.band}, calibrated ${fmt(row.score)}`);
    if (x) {
      for (const c of x.contributions) lines.push(`${c.list} rank ${c.rank}${c.listScore !== undefined ? ` (score ${fmt(c.listScore)})` : ""}, weight ${fmtp(c.weight)}: +${fmt(c.contribution)}`);
      lines.push(`fused ${fmt(x.fused)} · ×${fmtp(x.recencyMultiplier)} recency → ${fmt(x.afterRecency)}`);
      // The rerank stage's fiscal-year multiplier (rerank.recencyBoost) comes after the
      // reranker's own: afterRerank = afterRecency × factors × it (heuristic), or the
      // normalized cross-encoder score × it.
      const fy = (always) => (always || x.rerankRecencyMultiplier !== 1 ? ` ×${fmtp(x.rerankRecencyMultiplier)} fiscal year` : "");
      if (x.rerank.method === "heuristic") {
        const f = x.rerank.factors;
        lines.push(`heuristic ×${fmtp(f.multiplier)}${fy(false)} → ${fmt(x.afterRerank)}`);
        lines.push(`heuristic factors: ${HEURISTIC_FACTORS.map((k) => `${k} ×${fmtp(f[k])}`).join(" · ")}`);
      } else if (x.rerank.method === "cross_encoder") lines.push(`cross-encoder ${fmt(x.rerank.raw)} → ${fmt(x.rerank.normalized)}${fy(true)} → ${fmt(x.afterRerank)}`);
      else if (x.rerankRecencyMultiplier !== 1) lines.push(`rerank none${fy(true)} → ${fmt(x.afterRerank)}`);
      lines.push(`normalized ${fmt(x.normalized)} → calibrated ${fmt(x.calibrated)}`);
    }
    if (row.judgement !== undefined) lines.push(row.judgement > 0 ? "judged relevant" : "not judged relevant");
    return lines;
  }

  function renderRanking() {
    const r = ctx.result;
    if (r.out.results.length === 0) {
      // No candidate at all (no list, or only empty ones) is not a filter's doing: the
      // package's own count says which.
      const candidates = r.out.stats.candidates;
      const text =
        candidates === 0
          ? "The input has no candidates: add ids to a ranked list (Table, JSON or TREC run tab) or pick a preset."
          : "No result passed the filters (minRelevance, minConfidence). Lower minConfidence or the sigmoid threshold to see results.";
      fill(out.ranking, h("p", { class: "empty", "data-empty": candidates === 0 ? "no-candidates" : "filtered", text }));
      rankingKey = null;
      return;
    }
    const hasJudgements = Boolean(ctx.state.judgements);
    const returned = r.rows.filter((x) => x.returned);
    const rows = rankingAll ? returned : returned.slice(0, RANKING_ROWS);
    // Everything the table shows: an edit that changes none of it (the query typed, with
    // no reranker reading it) leaves the table as it is.
    const key = JSON.stringify([hasJudgements, rankingAll, returned.length, rows.map((row) => {
      const x = row.explain;
      return [row.id, row.rank, row.score, row.band, row.judgement, nameOf(row.id), x ? [x.fused, x.afterRecency, x.afterRerank, x.normalized] : null];
    })]);
    if (key === rankingKey) return;
    rankingKey = key;
    const head = h("tr", {},
      ["#", "id", "name", "confidence · band"].map((t) => h("th", { scope: "col", text: t })),
      hasJudgements ? h("th", { scope: "col", text: "judged" }) : null,
      ["fused", "raw score"].map((t) => h("th", { scope: "col", class: "num", text: t })));
    const body = h("tbody");
    for (const row of rows) body.append(rankingRow(row, hasJudgements));
    // Stacked into a grid on phones (style.css): its roles set explicitly (tables.js).
    const table = h("div", { class: "table-scroll" }, tableRoles(h("table", { class: "ranking", id: "ranking-table" }, h("caption", { class: "visually-hidden", text: "Final ranking" }), h("thead", {}, head), body)));
    fill(out.ranking, rankingCap(returned.length, rows.length), table);
  }

  /** The ranking's "Show all" (or "Show the first …") line, when it has more rows than RANKING_ROWS. */
  function rankingCap(total, listed) {
    if (total <= RANKING_ROWS) return null;
    const hadFocus = document.activeElement?.id === "ranking-all";
    const toggle = h("button", { type: "button", class: "secondary", id: "ranking-all", text: rankingAll ? `Show the first ${RANKING_ROWS}` : `Show all ${total}` });
    toggle.addEventListener("click", () => {
      rankingAll = !rankingAll;
      renderRanking();
    });
    const line = h("p", { class: "note", id: "ranking-cap", "data-listed": listed, "data-of": total },
      rankingAll ? `All ${total} returned results. ` : `The first ${listed} of the ${total} returned results (the charts draw fewer still). `, toggle);
    // The button rebuilt keeps the focus it had.
    if (hadFocus) queueMicrotask(() => toggle.focus());
    return line;
  }

  function rankingRow(row, hasJudgements) {
    const x = row.explain;
    const bar = h("span", { class: `bar band-${row.band}` });
    bar.style.width = `${Math.max(0, Math.min(1, row.score)) * 100}%`;
    return h("tr", {
      "data-id": row.id,
      "data-rank": row.rank,
      "data-score": full(row.score),
      "data-band": row.band,
      "data-fused": x ? full(x.fused) : undefined,
      "data-after-recency": x ? full(x.afterRecency) : undefined,
      "data-after-rerank": x ? full(x.afterRerank) : undefined,
      "data-normalized": x ? full(x.normalized) : undefined,
      "data-judgement": row.judgement,
    },
    h("td", { class: "num rank-cell", text: row.rank }),
    h("th", { scope: "row", class: "id-cell", title: row.id, text: row.id }),
    h("td", { class: "name-cell", text: nameOf(row.id) || "" }),
    h("td", { class: "score-cell" }, h("span", { class: "score-line" }, h("span", { class: "score-num", text: fmt(row.score, 4) }), bandChip(row.band)), h("span", { class: "bar-track" }, bar)),
    hasJudgements ? h("td", { class: ["judged", row.judgement > 0 ? "yes" : null], text: row.judgement > 0 ? "✓ relevant" : "not relevant" }) : null,
    h("td", { class: "num fused-cell", text: x ? fmt(x.fused) : "" }),
    h("td", { class: "num raw-cell", text: x ? fmt(x.normalized) : "" }));
  }

  /** The outcome and the returned results in a sentence (announced to screen readers). */
  function summary() {
    const { out: o } = ctx.result;
    const n = o.results.length;
    const bands = ["hit", "degraded", "miss"].map((b) => [b, o.results.filter((x) => x.band === b).length]).filter(([, k]) => k > 0);
    const returned = n === 0 ? "No result returned" : `${n} result${n === 1 ? "" : "s"} returned (${bands.map(([b, k]) => `${k} ${b}`).join(", ")})`;
    return `Outcome: ${o.outcome.kind}, probability ${fmt(o.outcome.probability, 2)}. ${returned} of ${o.stats.candidates} candidates.`;
  }

  return { build: buildPipelineOutputs, render: renderPipeline, summary };
}
