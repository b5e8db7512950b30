// What a few of a call's fixed steps cost alone, in one process (docs/performance-history.md,
// "Small calls' fixed costs"): whether Object.prototype holds any of ten field names,
// asked in a loop over a list of the names (`fields[i] in BARE`, what js/core/shared.js
// `noInheritedKeys` did) or with each name written out (what each record kind's
// `cleanPrototype` does); a small table of zeros made by `new Array(n).fill(0)` or by a
// loop (js/core/pipeline-input.js `zeros`); and the zeroing of the kept typed arrays a
// pipeline call of N = 1,000 asks its lease for (js/wire/input.js `Lease.array`: the
// entries' indices, the item table and its numbers). Prints ns a call, the second round.
//   node bench/small-costs.mjs [CALLS]
const calls = Number(process.argv[2] || 10_000_000);
const BARE = Object.freeze({});
const FIELDS = ["query", "lists", "items", "now", "context", "topN", "name", "ids", "scores", "weight"];

function inLoop(fields) {
  for (const _ in BARE) return false;
  for (let i = 0; i < fields.length; i++) if (fields[i] in BARE) return false;
  return true;
}
function writtenOut() {
  for (const _ in BARE) return false;
  return !("query" in BARE || "lists" in BARE || "items" in BARE || "now" in BARE || "context" in BARE || "topN" in BARE || "name" in BARE || "ids" in BARE || "scores" in BARE || "weight" in BARE);
}
const filled = (n) => new Array(n).fill(0);
function zeros(n) {
  const a = new Array(n);
  for (let i = 0; i < n; i++) a[i] = 0;
  return a;
}
// N = 1,000: 3,000 entries, 1,447 items (8 numbers and 3 floats each).
const docs = new Uint32Array(3000 + 256);
const table = new Uint32Array(8 * 1447 + 256);
const nums = new Float64Array(3 * 1447 + 256);
function zeroed() {
  docs.fill(0, 0, 3000);
  table.fill(0, 0, 8 * 1447);
  nums.fill(0, 0, 3 * 1447);
  return docs[0] + table[0] + nums[0];
}

const cases = [
  ["Object.prototype, ten names in a loop", () => inLoop(FIELDS), calls],
  ["Object.prototype, ten names written out", writtenOut, calls],
  ["new Array(5).fill(0)", () => filled(5).length, calls],
  ["zeros(5)", () => zeros(5).length, calls],
  ["new Array(24).fill(0)", () => filled(24).length, calls],
  ["zeros(24)", () => zeros(24).length, calls],
  ["the lease's tables zeroed, N = 1,000", zeroed, calls / 1000],
];
let sink = 0;
const ns = {};
for (let round = 0; round < 2; round++)
  for (const [name, f, n] of cases) {
    for (let i = 0; i < n / 10; i++) sink += f() ? 1 : 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) sink += f() ? 1 : 0;
    ns[name] = ((performance.now() - t0) * 1e6) / n;
  }
for (const [name] of cases) console.log(`${name.padEnd(42)} ${ns[name].toFixed(1)} ns`);
if (sink === 0) console.log(sink);
