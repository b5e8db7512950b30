export const config = { topK: 20, topN: 8, minConfidence: 0, calibration: { method: "sigmoid", threshold: 0.025, steepness: 150 } };
export const input = {
  query: "q",
  lists: [
    { name: "semantic", ids: ["a", "b", "c", "d", "e", "f"] },
    { name: "keyword", ids: ["c", "a", "g", "b"] },
    { name: "graph", ids: ["g", "a"], weight: 0.5 },
  ],
};
// For the lab entry (calibrank/lab).
export const qrels = { q1: { a: 1, c: 2 }, q2: { b: 1 } };
export const run = { q1: { a: 0.9, b: 0.8, c: 0.3 }, q2: { a: 0.7, b: 0.6 } };
export const metrics = ["ndcg@10", "map", "mrr", "recall@2"];
export const scores = [0.1, 0.2, 0.35, 0.4, 0.55, 0.6, 0.8, 0.9];
export const labels = [0, 0, 1, 0, 1, 0, 1, 1];
// For an app that imports Pipeline alone (pipeline-only.js): the README's first example,
// with a query and item texts for the heuristic reranker, recency and every explanation.
export const pipelineOnly = {
  config: { topN: 3, recency: { mode: "step" }, rerank: { method: "heuristic" } },
  input: {
    query: "How do I configure authentication?",
    lists: [
      { name: "semantic", ids: ["auth.md#L45", "api.md#L120", "oauth.md#L10"] },
      { name: "keyword", ids: ["api.md#L120", "oauth.md#L10", "auth.md#L45"], scores: [12.5, 9.25, 7] },
      { name: "graph", ids: ["auth.md#L45"], weight: 0.5 },
    ],
    items: {
      "auth.md#L45": { name: "Configure authentication", summary: "How to configure the authentication of the API", modifiedAt: "2026-11-18T09:00:00Z" },
      "oauth.md#L10": { name: "OAuth", type: "guide", content: "OAuth 2 flows" },
    },
    now: "2026-11-23T12:00:00Z",
  },
};

/**
 * The pipeline-only app's call, with the `Pipeline` class the app imported (from
 * "calibrank", or "calibrank/init" in a Parcel worker): what the page reports and
 * tests/js/app.mjs `checkPipelineOnly` compares with Node's.
 */
// (A const, as every export here: tests/js/runners.test.mjs turns `export const` into
// CommonJS for Jest.)
export const runPipelineOnly = (Pipeline) => {
  const p = new Pipeline(pipelineOnly.config);
  try {
    const out = p.run(pipelineOnly.input);
    let errorCode = null;
    try {
      new Pipeline({ topN: 0 });
    } catch (e) {
      errorCode = e.code;
    }
    return { results: out.results, confidence: out.confidence, outcome: out.outcome, errorCode, config: p.config };
  } finally {
    p.free();
  }
};
