"""ranx side of the batch benchmark: fuse every CISI query of two TREC runs with ranx.

    python3 bench/ranx_fuse.py RUN_A RUN_B [SAMPLES [QRELS]]

Prints JSON: ranx's version, the median time of `Run.from_file` (both files) and of
`fuse(runs, norm=..., method=...)` for RRF and CombMNZ with min-max, each timed after a
warm-up (the first call compiles ranx's numba kernels), and the number of fused entries;
with QRELS, also `evaluate(qrels, run_a, METRICS)` (case "evaluate").
"""

import importlib.metadata
import json
import statistics
import sys
import time
import warnings

warnings.filterwarnings("ignore")  # numba's type-safety warnings on ranx's kernels

from ranx import Qrels, Run, evaluate, fuse

METRICS = ["ndcg@10", "map@100", "recall@100", "mrr"]


def median_ms(fn, samples, min_sample_s=0.005):
    fn()
    inner = 1
    while True:
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        if time.perf_counter() - t >= min_sample_s or inner >= 1 << 16:
            break
        inner *= 2
    times = []
    for _ in range(samples):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t) / inner * 1000)
    return statistics.median(times)


def main():
    a, b = sys.argv[1], sys.argv[2]
    samples = int(sys.argv[3]) if len(sys.argv) > 3 else 21
    runs = [Run.from_file(a, kind="trec"), Run.from_file(b, kind="trec")]
    out = {"ranx": importlib.metadata.version("ranx"), "python": sys.version.split()[0], "cases": []}
    out["cases"].append({"case": "parse", "medianMs": median_ms(lambda: [Run.from_file(a, kind="trec"), Run.from_file(b, kind="trec")], samples)})
    for method in ("rrf", "mnz"):
        # Warm-up: numba compiles on the first call.
        fused = fuse(runs=runs, norm="min-max", method=method)
        entries = sum(len(docs) for docs in fused.to_dict().values())
        ms = median_ms(lambda: fuse(runs=runs, norm="min-max", method=method), samples)
        out["cases"].append({"case": method, "medianMs": ms, "entries": entries})
    if len(sys.argv) > 4:
        qrels = Qrels.from_file(sys.argv[4], kind="trec")
        evaluate(qrels, runs[0], METRICS)
        ms = median_ms(lambda: evaluate(qrels, runs[0], METRICS), samples)
        out["cases"].append({"case": "evaluate", "medianMs": ms})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
