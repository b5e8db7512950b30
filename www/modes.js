// The two single-function modes: multi-query fusion (fuseMultiQuery, seed 001) and bands
// (classifyBand, seed 002), each with its controls (left column) and outputs (right).
import { h, fill, $$, fmt, fmtp, full, nextId, describe } from "./dom.js";
import * as charts from "./charts.js";
import { CONFIG_GROUPS, MULTI_OPTIONS, FLOOR_CONTROLS } from "./schema.js";
import { showProblem, fieldMessage } from "./notices.js";
import { section } from "./form.js";
import { card, figureBox, emptyFigure, width, bandChip, cursor } from "./figures.js";
import { stackable } from "./tables.js";

/**
 * The multi-query and bands views over `ctx` = { out (containers), state, result,
 * changed(), commit() (applies now; returns whether the package accepted it) }, the
 * bound inputs of `form` (createForm) and `configForm` (createConfigForm: the band floor
 * fields). Returns { buildMultiControls, buildBandsControls, buildMultiOutputs,
 * buildBandsOutputs, renderMulti, renderBands, multiSummary, bandsSummary }.
 */
export function createModeViews(ctx, form, configForm) {
  const { out } = ctx;
  const { numberInput, selectInput, quickControls } = form;
  const { configField } = configForm;

  // ---- multi-query controls (seed 001)

  function buildMultiControls(root) {
    const id = nextId("mq");
    const msg = h("p", { class: "field-error", hidden: true });
    const ta = h("textarea", { id, rows: 16, class: "code", spellcheck: "false" });
    const message = fieldMessage(ta, msg);
    ta.value = JSON.stringify(ctx.state.multi.queries, null, 1).replace(/\{\n\s+/g, "{ ").replace(/,\n\s+"/g, ', "').replace(/\n\s+\}/g, " }");
    const apply = h("button", { type: "button", id: "apply-multi-json", text: "Apply queries" });
    apply.addEventListener("click", () => {
      try {
        const parsed = JSON.parse(ta.value);
        if (!Array.isArray(parsed)) throw new SyntaxError("expected an array of queries, each an array of { id, score, timestamp? }");
        ctx.state.multi.queries = parsed;
        message.clear();
        // Refused, the package's error goes beside the text too.
        if (!ctx.commit()) message.showProblem();
      } catch (e) {
        message.show(`Invalid JSON: ${e.message}`);
        showProblem({ title: "Invalid JSON", message: e.message });
      }
    });
    root.append(section("Queries and their hits", { note: "One array per query, hits best first: { id, score, timestamp? }. fuseMultiQuery keeps the hits at or above similarityThreshold." },
      h("label", { for: id, class: "block-label", text: "Queries (JSON)" }), ta, msg, h("div", { class: "button-row" }, apply)));
    const fields = MULTI_OPTIONS.map((f) => {
      const path = `multi.options.${f.path}`;
      const fid = nextId("mo");
      const control = f.type === "select" ? selectInput(path, f.options, { id: fid }) : numberInput(path, { id: fid, min: f.min, max: f.max, step: f.step || "any", optional: true, placeholder: `default ${f.default}` });
      return h("div", { class: "field" }, h("label", { for: fid, text: f.label }), control, f.help ? describe(control, h("p", { class: "help", text: f.help })) : null);
    });
    root.append(section("fuseMultiQuery options", { note: "Empty fields use the seed defaults." }, h("div", { class: "fields" }, fields)));
  }

  // ---- bands controls (seed 002)

  function buildBandsControls(root) {
    const id = nextId("scores");
    const msg = h("p", { class: "field-error", hidden: true });
    const ta = h("input", { id, type: "text", class: "code", spellcheck: "false", value: ctx.state.bands.scores.join(", ") });
    const message = fieldMessage(ta, msg);
    ta.addEventListener("input", () => {
      const parts = ta.value.split(/[\s,;]+/).filter(Boolean);
      const nums = parts.map(Number);
      if (nums.some((n) => !Number.isFinite(n))) {
        // The problem box says it too, in place of a package error about the text before
        // (the outputs, of the scores before, marked stale).
        const text = "Scores are numbers separated by commas or spaces.";
        showProblem({ title: "The scores could not be read", message: `${text} Not a finite number: ${parts.filter((p) => !Number.isFinite(Number(p))).join(", ")}.` });
        message.show(text);
        return;
      }
      message.clear();
      ctx.state.bands.scores = nums;
      if (!ctx.commit()) message.showProblem();
    });
    root.append(section("Scores to classify", { note: "Calibrated scores or cosine similarities in [-1, 1], classified by classifyBand with the floors below (below 0: a miss)." },
      h("label", { for: id, class: "block-label", text: "Scores" }), ta, msg));
    // classifyBand takes the two floors (profiles need a pipeline context).
    const group = CONFIG_GROUPS.find((g) => g.key === "bands");
    const fields = group.fields.filter((f) => f.path !== "bands.profiles").map((f) => configField(f, () => {}));
    root.append(section("Band floors", {}, h("div", { class: "fields" }, fields)));
  }

  // ---- multi-query outputs

  function buildMultiOutputs(root) {
    out.multi = h("div", {});
    out.multiChart = figureBox("multi-chart", "Multi-query fusion by method");
    out.multiTable = h("div", {});
    const method = selectInput("multi.options.method", ["rrf", "score_sum", "score_max"], { id: "multi-method" });
    root.append(card("multiquery", "Multi-query fusion (fuseMultiQuery)",
      h("p", { class: "note", text: "Items found by several queries gain: RRF sums 1/(k + rank), score_sum sums the similarities, score_max boosts the best similarity by multiQueryBoost per extra query." }),
      h("div", { class: "field inline" }, h("label", { for: "multi-method", text: "Method" }), method),
      out.multi, out.multiChart, out.multiTable));
  }

  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  function renderMulti() {
    const r = ctx.result;
    const m = r.main;
    fill(out.multi, h("p", { class: "stats", "data-stats": JSON.stringify(m.stats) },
      `${m.stats.queries} queries, ${m.stats.uniqueItems} items (${m.stats.itemsInMultipleQueries} in several queries), ${plural(m.stats.belowThreshold, "hit")} below the similarity threshold, ${m.stats.beyondResultsPerQuery} beyond resultsPerQuery.`));
    if (m.results.length === 0) {
      // Nothing to chart: say why instead of drawing empty panels.
      const filtered = m.stats.belowThreshold > 0;
      const why = filtered ? "below-threshold" : "no-hits";
      const text = filtered
        ? "Every hit is below similarityThreshold: lower it to see results."
        : "No hits to fuse: give each query its hits in the JSON box (Queries and their hits) or pick a preset.";
      emptyFigure(out.multiChart, text, { "data-empty": why });
      fill(out.multiTable);
      return;
    }
    const order = r.main.results.map((x) => x.id);
    for (const res of Object.values(r.byMethod)) for (const x of res.results) if (!order.includes(x.id)) order.push(x.id);
    const w = width(out.multiChart);
    const cols = w >= 900 ? 3 : 1;
    const pw = Math.floor((w - (cols - 1) * 16) / cols);
    const panels = charts.multiPanels(r.byMethod, { width: pw, order, selected: r.method });
    fill(out.multiChart, h("div", { class: "panels", "data-cols": cols }, panels.map((p) => h("div", { class: ["panel-chart", p.method === r.method ? "selected" : null], "data-panel": p.method }, h("h3", { text: p.method === r.method ? `${p.method} (selected)` : p.method }), p.svg))));
    cursor(out.multiChart, order, (id) => {
      const lines = [{ strong: id }];
      for (const [method, res] of Object.entries(r.byMethod)) {
        const i = res.results.findIndex((x) => x.id === id);
        lines.push(i < 0 ? `${method}: not returned` : `${method}: #${i + 1}, ${fmt(res.results[i].score)}`);
      }
      const x = m.results.find((y) => y.id === id);
      if (x?.queryRanks) lines.push(Object.entries(x.queryRanks).map(([q, rank]) => `query ${Number(q) + 1} rank ${rank} (${fmt(x.queryScores[q])})`).join("; "));
      return lines;
    });
    const nq = ctx.state.multi.queries.length;
    const head = h("tr", {}, ["#", "id", "score", "queries"].map((t) => h("th", { scope: "col", text: t })), Array.from({ length: nq }, (_, q) => h("th", { scope: "col", text: `query ${q + 1}: rank (score)` })));
    const body = h("tbody", {}, m.results.map((x, i) => h("tr", { "data-id": x.id, "data-score": full(x.score), "data-rank": i + 1 },
      h("td", { class: "num", text: i + 1 }), h("th", { scope: "row", class: "id-cell", title: x.id, text: x.id }), h("td", { class: "num", text: fmt(x.score) }), h("td", { class: "num", text: x.appearedInQueryCount ?? "" }),
      Array.from({ length: nq }, (_, q) => h("td", { class: "num", text: x.queryRanks?.[q] !== undefined ? `#${x.queryRanks[q]} (${fmt(x.queryScores[q])})` : "–" })))));
    fill(out.multiTable, h("div", { class: "table-scroll" }, stackable(h("table", { class: "ranking", id: "multi-table" }, h("caption", { text: `Fused with ${r.method}` }), h("thead", {}, head), body))));
  }

  // ---- bands outputs

  function buildBandsOutputs(root) {
    out.bands = h("div", {});
    out.bandsChart = figureBox("bands-chart", "Scores on the bands");
    const controls = quickControls(FLOOR_CONTROLS);
    root.append(card("bands", "Bands: hit, degraded, miss (classifyBand)",
      h("p", { class: "note", text: "hit when score ≥ high floor, degraded when degraded floor ≤ score < high floor, miss below. Move a floor: the scores re-colour at once." }),
      controls, out.bandsChart, out.bands));
  }

  function renderBands() {
    const r = ctx.result;
    if (r.rows.length === 0) {
      emptyFigure(out.bandsChart, "No scores to classify: type scores in [-1, 1] in the Scores box.", { "data-empty": "no-scores" });
      fill(out.bands);
      return;
    }
    fill(out.bandsChart, charts.bandStrip(r.rows, { width: width(out.bandsChart), floors: r.floors }));
    const ids = r.rows.map((x) => String(x.index));
    $$("[data-index]", out.bandsChart).forEach((el) => el.setAttribute("data-id", el.dataset.index));
    cursor(out.bandsChart, ids, (id) => {
      const row = r.rows[Number(id)];
      return [{ strong: `score ${fmt(row.score)}` }, `classifyBand → ${JSON.stringify(row.outcome)}`];
    });
    fill(out.bands, h("div", { class: "table-scroll" }, stackable(h("table", { class: "ranking", id: "bands-table" },
      h("caption", { text: `Floors: high ${fmtp(r.floors.highFloor)}, degraded ${fmtp(r.floors.degradedFloor)}` }),
      h("thead", {}, h("tr", {}, ["score", "band", "RetrievalOutcome"].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, r.rows.map((x) => h("tr", { "data-score": full(x.score), "data-band": x.outcome.kind }, h("td", { class: "num", text: fmt(x.score) }), h("td", {}, bandChip(x.outcome.kind)), h("td", {}, h("code", { text: JSON.stringify(x.outcome) })))))))));
  }

  /** The current mode's results in a sentence (announced to screen readers). */
  function multiSummary() {
    const r = ctx.result;
    const q = r.main.stats.queries;
    return `${plural(r.main.results.length, "item")} fused with ${r.method} from ${q} quer${q === 1 ? "y" : "ies"}.`;
  }

  function bandsSummary() {
    const rows = ctx.result.rows;
    const counts = ["hit", "degraded", "miss"].map((b) => `${rows.filter((x) => x.outcome.kind === b).length} ${b}`);
    return `${plural(rows.length, "score")} classified: ${counts.join(", ")}.`;
  }

  return { buildMultiControls, buildBandsControls, buildMultiOutputs, buildBandsOutputs, renderMulti, renderBands, multiSummary, bandsSummary };
}
