// The query-level outcome card of every pipeline page: the pipeline's answer / hedge /
// abstain for the current query, its floors, and where its probability comes from (the
// rank-only estimate, or a fitted model's features). Every probability is the package's
// (Pipeline.run's outcome; confidence.js modelExplanation); the page formats and draws.
import { h, fill, fmt, fmtp, full } from "./dom.js";
import { modelExplanation } from "./confidence.js";
import { stackable } from "./tables.js";

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
