// What the lone-surrogate checks add to `JSON.stringify` with the package's replacer
// (docs/reliability.md "Lone surrogates in ids"): 3 x 1,000 hits stringified with a
// replacer of the same shape without and with the checks (keys of non-array holders,
// strings under `id`), interleaved, 5 rounds of 200 calls each.
//   node bench/replacer-cost.mjs
const hits = Array.from({ length: 3 }, (_, q) => Array.from({ length: 1000 }, (_, i) => ({ id: "doc-" + ((i * 7 + q) % 1500), score: (i + 1) / 3001, timestamp: 1700000000000 + i })));
function without(k, v) {
  switch (typeof v) {
    case "number": return Number.isSafeInteger(v) ? v : "x";
    case "string": return v.charCodeAt(0) === 0 ? "\u0000" + v : v;
    default: return v;
  }
}
function checked(k, v) {
  if (!Array.isArray(this) && !k.isWellFormed()) throw new Error("key");
  switch (typeof v) {
    case "number": return Number.isSafeInteger(v) ? v : "x";
    case "string":
      if (k === "id" && !v.isWellFormed()) throw new Error("id");
      return v.charCodeAt(0) === 0 ? "\u0000" + v : v;
    default: return v;
  }
}
const time = (r) => {
  const t = performance.now();
  for (let i = 0; i < 200; i++) JSON.stringify(hits, r);
  return ((performance.now() - t) / 200) * 1000;
};
for (let i = 0; i < 50; i++) (time(without), time(checked));
for (let round = 0; round < 5; round++) {
  const a = time(without);
  const b = time(checked);
  console.log(`without ${a.toFixed(0)} µs, with the checks ${b.toFixed(0)} µs: ${(((b - a) / a) * 100).toFixed(1)}%`);
}
