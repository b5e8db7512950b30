// What a new JavaScript array of `n` slots costs a call, against one kept from call to
// call and emptied after use (js/wire/input.js `Lease.kept`; e.g. the array of the texts
// a pipeline call holds back: 4 slots per distinct id, 57,776 for workload (c) at
// N = 10,000). V8 allocates an array of more than 16,384 slots (128 KiB) apart from its
// pages, mapped and zeroed for each allocation. Per call, each way: a quarter of the
// slots written (one text per item, as (c) has three of four), then dropped or emptied.
//   node bench/large-arrays.mjs [N,N,...] [CALLS]
const sizes = (process.argv[2] ?? "5776,16384,20000,57776,577724").split(",").map(Number);
const calls = Number(process.argv[3] ?? 400);

function fresh(n) {
  const a = new Array(n);
  for (let i = 0; i < n; i += 4) a[i] = "x";
  return a;
}

const kept = { a: null, used: 0 };
function reused(n) {
  for (let i = 0; i < kept.used; i++) kept.a[i] = undefined;
  if (kept.a === null || kept.a.length < n) kept.a = new Array(n);
  kept.used = n;
  const a = kept.a;
  for (let i = 0; i < n; i += 4) a[i] = "x";
  return a;
}

let sink = 0;
function time(fn, n) {
  for (let i = 0; i < 20; i++) sink += fn(n).length;
  const t = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink += fn(n).length;
  return Number(process.hrtime.bigint() - t) / calls / 1000;
}

console.log("slots | new array, µs a call | kept and emptied, µs a call");
for (const n of sizes) {
  const a = [time(fresh, n), time(fresh, n)];
  const b = [time(reused, n), time(reused, n)];
  console.log(`${n} | ${Math.min(...a).toFixed(1)} | ${Math.min(...b).toFixed(1)}`);
}
if (sink < 0) console.log(sink);
