// Timing helpers shared by the benchmark scripts.
//
// A sample runs a function `inner` times in a row (inner chosen so that one sample lasts
// at least `minSampleMs`), the reported figure is the median over samples of the time
// per call. Competitors are interleaved sample by sample (A B, B A, A B, ...) so that
// drifts in machine load hit both alike.

const now = () => Number(process.hrtime.bigint()) / 1e6; // ms

/**
 * The repetition policy for one size: fewer samples for the big inputs. The warm-up of
 * the small sizes is long enough for V8 to have optimized both sides: with 200 ms, the
 * JS baseline's `Pipeline.run` at N = 10 was often still unoptimized when the samples
 * began (10.6 us per call at steady state, 14-23 us timed after 200 ms of calls), which
 * made the package look 1.1x-1.4x faster where it is 0.65x (2026-11-23, seventh session;
 * docs/performance.md). `quick` (`make bench-quick`) takes 5 samples and caps the
 * warm-up at 300 ms above N = 1,000 only: the 1 s of the small sizes stays, for the reason
 * above. `drift` in the results flags samples that still moved (bench/targets.mjs then
 * gives no verdict for the targets that read them). From
 * N = 100,000 on (single-call samples), `gcEachSample`: `compare` runs a collection
 * before every sample (under `node --expose-gc`), so that no sample pays for the
 * garbage of the one before it.
 */
export function policy(n, quick = false) {
  let p;
  if (n <= 1_000) p = { samples: 21, minSampleMs: 5, warmupMs: 1000 };
  else if (n <= 10_000) p = { samples: 21, minSampleMs: 5, warmupMs: 500 };
  else if (n <= 100_000) p = { samples: 7, minSampleMs: 0, warmupMs: 0 };
  else p = { samples: 1, minSampleMs: 0, warmupMs: 0 }; // N = 1,000,000: one warm-up call, one timed call
  if (quick) p = { ...p, samples: Math.min(p.samples, 5), warmupMs: n <= 1_000 ? p.warmupMs : Math.min(p.warmupMs, 300) };
  return { ...p, gcEachSample: n >= 100_000 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function calibrateInner(fn, minSampleMs) {
  if (minSampleMs <= 0) return 1;
  let inner = 1;
  for (;;) {
    const t = now();
    for (let i = 0; i < inner; i++) fn();
    if (now() - t >= minSampleMs || inner >= 1 << 20) return inner;
    inner *= 2;
  }
}

/**
 * Times competitors `{ name: fn }`, interleaved. Returns `{ name: { medianMs, minMs,
 * samples, inner } }` (per call). With `p.gcEachSample` (as `policy` sets it for the
 * large inputs) and `node --expose-gc`, a collection runs before every sample, outside
 * the timed region.
 */
export function compare(competitors, p) {
  const gcEachSample = p.gcEachSample === true;
  const names = Object.keys(competitors);
  // Warm-up: at least one call each, then until warmupMs has passed, alternating.
  for (const name of names) competitors[name]();
  const t0 = now();
  while (now() - t0 < p.warmupMs) for (const name of names) competitors[name]();
  const inner = Object.fromEntries(names.map((name) => [name, calibrateInner(competitors[name], p.minSampleMs)]));
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let s = 0; s < p.samples; s++) {
    const order = s % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const fn = competitors[name];
      const k = inner[name];
      if (gcEachSample && globalThis.gc) globalThis.gc();
      const t = now();
      for (let i = 0; i < k; i++) fn();
      times[name].push((now() - t) / k);
    }
  }
  // drift: the median of the last third of the samples over the first third's (1.0 at
  // a steady state; far from it, the warm-up was too short or the machine changed speed).
  const drift = (xs) => {
    const k = Math.floor(xs.length / 3);
    return k === 0 ? 1 : median(xs.slice(-k)) / median(xs.slice(0, k));
  };
  return Object.fromEntries(names.map((name) => [name, { medianMs: median(times[name]), minMs: Math.min(...times[name]), samples: p.samples, inner: inner[name], drift: drift(times[name]) }]));
}

export { median, now };
