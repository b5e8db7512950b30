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
