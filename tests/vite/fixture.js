export const config = { topK: 20, topN: 8, minConfidence: 0, calibration: { method: "sigmoid", threshold: 0.025, steepness: 150 } };
export const input = {
  query: "q",
  lists: [
    { name: "semantic", ids: ["a", "b", "c", "d", "e", "f"] },
    { name: "keyword", ids: ["c", "a", "g", "b"] },
    { name: "graph", ids: ["g", "a"], weight: 0.5 },
  ],
};
