#!/usr/bin/env python3
"""Reference searches of ranx's optimize_fusion, for tests/optimize_ranx.rs.

Tunes the fusion of the CISI runs run.bm25.txt and run.dense.txt (../shared/data/cisi
relative to the repository root) on CISI's judgements with ranx's ``optimize_fusion``,
each method with ranx's own defaults but the metric (ndcg@10, calibrank's default), and
writes tests/data/ranx_optimize_reference.json: for each method, the best configuration
and the optimization report (every configuration tried, with its score).

The runs are read with ``Run.from_file`` (file order, as calibrank's
``parse_trec_run_ordered``), keeping the judged queries only: ranx's search requires the
runs and the judgements to hold the same queries.

Run from the repository root (needs ``pip install ranx==0.3.21``; CPython 3.11):

    python3 scripts/ranx_optimize_reference.py
"""

import ast
import json
import os
import sys
import tempfile

from importlib.metadata import version

from ranx import Qrels, Run, optimize_fusion

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "data", "cisi")
OUT = os.path.join(ROOT, "tests", "data", "ranx_optimize_reference.json")
RUN_FILES = ["run.bm25.txt", "run.dense.txt"]
METRIC = "ndcg@10"
METHODS = ["rbc", "rrf", "wsum", "wmnz", "mixed", "gmnz", "logn_isr"]


def judged_run(path, queries, tmp):
    """The run's lines of the judged queries, read by Run.from_file."""
    with open(path) as f:
        lines = [line for line in f if line.split() and line.split()[0] in queries]
    out = os.path.join(tmp, os.path.basename(path))
    with open(out, "w") as f:
        f.writelines(lines)
    return Run.from_file(out, kind="trec")


def as_numbers(v):
    """A configuration as JSON numbers: a weight vector as a list, `k` or `phi` as one.
    The report's keys are the configurations' str() (`(np.float64(0.1), ...)`, `0.01`)."""
    if isinstance(v, str):
        v = ast.literal_eval(v.replace("np.float64(", "("))
    return [float(x) for x in v] if isinstance(v, (list, tuple)) else float(v)


def main():
    ranx_version = version("ranx")
    if ranx_version != "0.3.21":
        print(f"warning: expected ranx 0.3.21, found {ranx_version}", file=sys.stderr)
    qrels = Qrels.from_file(os.path.join(DATA, "qrels.txt"), kind="trec")
    queries = set(qrels.keys())
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        runs = [judged_run(os.path.join(DATA, name), queries, tmp) for name in RUN_FILES]
        for method in METHODS:
            best, report = optimize_fusion(
                qrels=qrels, runs=runs, method=method, metric=METRIC,
                return_optimization_report=True, show_progress=False,
            )
            trials = [{"config": as_numbers(c), "score": float(s)} for c, s in zip(report.configs, report.results)]
            best = {k: as_numbers(v) for k, v in best.items()}
            cases.append({"method": method, "best": best, "trials": trials})
    data = {"ranx": ranx_version, "runs": RUN_FILES, "metric": METRIC, "queries": len(queries), "cases": cases}
    with open(OUT, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(cases)} searches")


if __name__ == "__main__":
    main()
