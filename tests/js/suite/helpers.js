// The suite's assertions and shared inputs. Plain functions, no test framework: the same
// files run in Node, Chromium, workerd, Bun and Deno.

export const hexOf = (x) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, "0");
};

export class AssertionError extends Error {}

export function assert(cond, message) {
  if (!cond) throw new AssertionError(message || "assertion failed");
}

/** The order of two strings' UTF-8 bytes (as TextEncoder writes them), for sorting. */
export function byBytes(a, b) {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** JSON with object keys sorted, so key order never matters. */
export function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

export function eq(actual, expected, message) {
  const a = canonical(actual);
  const e = canonical(expected);
  if (a !== e) throw new AssertionError(`${message || "not equal"}: got ${a}, expected ${e}`);
}

export function throwsScoreError(lib, fn, code, field) {
  try {
    fn();
  } catch (err) {
    assert(err instanceof lib.ScoreError, `expected ScoreError, got ${err && err.constructor && err.constructor.name}: ${err}`);
    assert(err instanceof Error, "ScoreError must be an Error");
    eq(err.name, "ScoreError", "name");
    eq(err.code, code, "code");
    if (field !== undefined) eq(err.field, field, "field");
    assert(typeof err.message === "string" && err.message.length > 0, "message");
    return err;
  }
  throw new AssertionError(`expected ScoreError ${code}, nothing was thrown`);
}

/**
 * Query `q`'s lists for a pipeline, one per run (`{ queryId: { docId: score } }`), named
 * run0, run1, ...: each run's ranking, score descending, ties by id (code-unit order,
 * byte order for the ASCII ids of the tests), with its scores.
 */
export function queryLists(runs, q) {
  return runs.map((run, i) => {
    const docs = Object.entries(run[q] || {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return { name: `run${i}`, ids: docs.map((d) => d[0]), scores: docs.map((d) => d[1]) };
  });
}

/** The input of the design documents' seed 000 example, made anew for each use. */
export function seedInput() {
  const day = 86_400_000;
  return {
    query: "authentication",
    lists: [
      { name: "semantic", ids: ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"] },
      { name: "keyword", ids: ["K", "B", "A", "L"], scores: [9.1, 8.5, 7.25, 3.0] },
    ],
    items: { A: { modifiedAt: 95 * day }, J: { modifiedAt: new Date(40 * day).toISOString() } },
    now: 100 * day,
  };
}

/** A linear congruential generator of 32-bit values from `seed` (the tests' fixed inputs). */
export function lcg(seed) {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
}
