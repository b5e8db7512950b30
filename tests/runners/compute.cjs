// What an app's tests compute with the package (tests/js/runners.test.mjs runs it under
// Jest and Vitest from the packed tarball, and in Node from pkg/, and compares): the
// fixture's pipeline, an error of each entry, the lab's evaluation and Platt fit (as the
// bundled apps of tests/vite/ do), and a reranking pipeline given more candidates than it
// reranks, whose texts stay in JavaScript until the module asks for the pool's (the
// module of 55 bytes compiled from bytes, in the runner's realm). Numbers come back as
// JSON, which keeps every bit of a double.
module.exports = function compute(lib, lab, fixture) {
  const { Pipeline, ScoreError, calibrate } = lib;
  const code = (f) => {
    try {
      f();
      return null;
    } catch (e) {
      return e instanceof ScoreError ? e.code : `not a ScoreError: ${e}`;
    }
  };
  const out = new Pipeline(fixture.config).run(fixture.input);
  const ids = [];
  const items = {};
  for (let i = 0; i < 40; i++) {
    const id = `docs/${i}/résumé-${(i * 7919) % 97}.md`;
    ids.push(id);
    items[id] = { name: i % 3 === 0 ? "authTokenCache" : `chunk ${i}`, type: i % 2 ? "function" : "file", summary: `Configure the authentication token cache — part ${i}`, modifiedAt: 1_700_000_000_000 + i * 86_400_000 };
  }
  const reranking = new Pipeline({ topK: 10, topN: 5, minConfidence: 0, rerank: { method: "heuristic" } });
  const held = reranking.run({ query: "authentication token cache", lists: [{ name: "a", ids }, { name: "b", ids: ids.slice().reverse() }], items, now: 1_704_000_000_000 });
  reranking.free();
  return {
    results: out.results.map((r) => [r.id, r.score, r.band]),
    confidence: out.confidence,
    errorCode: code(() => new Pipeline({ topN: 0 })),
    half: calibrate([0.035])[0],
    evaluation: lab.evaluate(fixture.qrels, fixture.run, fixture.metrics),
    platt: lab.fitPlatt(fixture.scores, fixture.labels),
    labErrorCode: code(() => lab.fitPlatt([0.2, 0.4], [0, 2])),
    sameScoreError: ScoreError === lab.ScoreError,
    held: held.results.map((r) => [r.id, r.score, r.band]),
    heldStats: held.stats,
  };
};
