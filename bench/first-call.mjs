// The first calls of `fuseMultiQuery` at its default limit (3 x 100,000 hits) in this
// fresh process, for docs/performance-history.md "Growing the memory" and "fuseMultiQuery's hits
// as typed sections": the first call pays for growing the module's memory with the
// caller's heap around it. Run it on two builds, alternating, in fresh processes:
//   node bench/first-call.mjs [PKG_DIR] [CALLS]      (defaults: pkg, 3)
// and, for the cost of growing a memory one page at a time against a few large steps
// (with 300,000 objects in the JavaScript heap; no package involved):
//   node bench/first-call.mjs --grow
// and for the cost of each growth beside a larger heap (3,000,000 objects): a memory
// taken from 2 to 136 MiB in 1, 2, 3 and 4 equal growths, the new pages written
// ("A large columnar call grows the memory once"):
//   node --max-old-space-size=4096 bench/first-call.mjs --grow-steps
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
if (args[0] === "--grow-steps") {
  const heap = Array.from({ length: 3_000_000 }, (_, i) => ({ id: "doc-" + i, a: i, b: [i] }));
  for (const steps of [1, 2, 3, 4]) {
    const m = new WebAssembly.Memory({ initial: 32 });
    const grow = (136 * 16 - 32) / steps;
    const t = performance.now();
    for (let i = 0; i < steps; i++) {
      const at = m.buffer.byteLength;
      m.grow(grow);
      new Uint8Array(m.buffer).fill(1, at);
    }
    console.log(`2 -> 136 MiB in ${steps} growth(s): ${(performance.now() - t).toFixed(0)} ms (${heap.length} objects in the heap)`);
  }
} else if (args[0] === "--grow") {
  const heap = Array.from({ length: 300_000 }, (_, i) => ({ a: "x" + i, b: i / 3 }));
  const time = (label, steps, pages) => {
    const m = new WebAssembly.Memory({ initial: 17 });
    const t = performance.now();
    for (let i = 0; i < steps; i++) m.grow(pages);
    console.log(`${label}: ${(performance.now() - t).toFixed(0)} ms (${heap.length} objects in the heap)`);
  };
  time("1,700 growths of 1 page", 1700, 1);
  time("17 growths of 100 pages", 17, 100);
} else {
  const [dir = "pkg", calls = "3"] = args;
  const lib = await import(pathToFileURL(join(resolve(dir), "node.mjs")).href);
  lib.version();
  const queries = [0, 1, 2].map((q) => Array.from({ length: 100_000 }, (_, i) => ({ id: "d" + ((i * 7 + q * 13) % 150_000), score: 1 / (i + 2) })));
  const ms = [];
  for (let k = 0; k < Number(calls); k++) {
    const t = performance.now();
    lib.fuseMultiQuery(queries);
    ms.push(Math.round(performance.now() - t));
  }
  console.log(`${dir}: fuseMultiQuery of 3 x 100,000 hits, calls in a fresh process: ${ms.join(" / ")} ms`);
}
