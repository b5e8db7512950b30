#!/usr/bin/env python3
"""Reference values for `calibrank::eval`, computed with ranx 0.3.21.

Writes tests/data/ranx_metrics_reference.json, which tests/eval_ranx.rs compares against
(every mean and every per-query value, to 1e-9). Cases:

* the three CISI runs (bm25, dense, bm25_title) against the CISI judgements, read with
  `Run.from_file` / `Qrels.from_file` ("order": "file": ties are ranked as ranx ranks
  them for the file's line order; calibrank: `parse_trec_run_ordered` +
  `evaluate_ordered`);
* the same runs given to ranx as dicts whose documents are listed in id order
  ("order": "id": calibrank: `parse_trec_run` + `evaluate`);
* graded judgements derived from CISI's binary ones (rule below; the judgements
  themselves are written into the JSON as "gradedQrels"), to tell Jarvelin's gain from
  Burges', and relevance levels (`-lN`) apart.

Usage (from the repository root):

    pip install ranx==0.3.21
    python3 scripts/ranx_metrics_reference.py

The CISI data is read from ../shared/data/cisi relative to the repository root (override
with CISI_DIR=/path/to/cisi).
"""

import json
import os
from importlib.metadata import version
from pathlib import Path

from ranx import Qrels, Run, evaluate

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "ranx_metrics_reference.json"
CISI = Path(os.environ.get("CISI_DIR", ROOT.parent / "shared" / "data" / "cisi"))

RUNS = ["run.bm25.txt", "run.dense.txt", "run.bm25_title.txt"]

BINARY_METRICS = [
    "ndcg@10", "ndcg@100", "ndcg_burges@10", "ndcg", "dcg@10", "dcg_burges@10",
    "map@100", "map", "map@10", "mrr", "mrr@10", "precision@10", "precision@100",
    "precision", "recall@10", "recall@100", "recall", "hit_rate@10", "hit_rate@1",
    "hits@10", "hits", "r-precision", "f1@10", "f1", "rbp.8",
]

GRADED_METRICS = [
    "ndcg@10", "ndcg@100", "ndcg_burges@10", "ndcg_burges", "dcg@10", "dcg_burges@10",
    "map@100", "mrr", "precision@10", "recall@100", "r-precision", "rbp.95",
    "ndcg@10-l2", "ndcg_burges@10-l3", "map-l2", "recall@100-l3", "r-precision-l2",
    "ndcg@10-l0", "hits@10-l0", "precision@10-l0", "mrr-l2",
]

GRADED_RULE = (
    "judged relevant doc d: grade 1 + int(d) % 3; plus, for every query, each document of "
    "the bm25 run's top 10 that is not judged: grade 0 if int(d) is even, else -1"
)


def read_run_file(name):
    """The run as {qid: {doc: score}}, in file order."""
    run = {}
    with open(CISI / name) as f:
        for line in f:
            qid, _, doc, _, score, _ = line.split()
            run.setdefault(qid, {})[doc] = float(score)
    return run


def id_ordered(run):
    """The same run with queries and each query's documents listed in id order."""
    return {q: dict(sorted(docs.items())) for q, docs in sorted(run.items())}


def graded_qrels():
    """Graded judgements derived from CISI's binary ones (see GRADED_RULE)."""
    binary = Qrels.from_file(str(CISI / "qrels.txt")).to_dict()
    bm25 = Run.from_file(str(CISI / "run.bm25.txt"))
    graded = {}
    for qid in sorted(binary):
        grades = {doc: 1 + int(doc) % 3 for doc in binary[qid]}
        for doc in list(bm25[qid].keys())[:10]:
            if doc not in grades:
                grades[doc] = 0 if int(doc) % 2 == 0 else -1
        graded[qid] = dict(sorted(grades.items()))
    return graded


def case(run_name, order, qrels_name, qrels, run, metrics):
    means = evaluate(qrels, run, metrics)
    return {
        "run": run_name,
        "order": order,
        "qrels": qrels_name,
        "metrics": metrics,
        "means": {m: float(means[m]) for m in metrics},
        "perQuery": {m: {q: float(v) for q, v in sorted(run.scores[m].items())} for m in metrics},
    }


def main():
    assert version("ranx") == "0.3.21", f"ranx 0.3.21 expected, found {version('ranx')}"
    binary = Qrels.from_file(str(CISI / "qrels.txt"))
    graded_dict = graded_qrels()
    cases = []
    for name in RUNS:
        as_dict = read_run_file(name)
        cases.append(case(name, "file", "qrels.txt", binary, Run.from_file(str(CISI / name)), BINARY_METRICS))
        cases.append(case(name, "id", "qrels.txt", binary, Run(id_ordered(as_dict)), BINARY_METRICS))
        cases.append(case(name, "file", "graded", Qrels(graded_dict), Run.from_file(str(CISI / name)), GRADED_METRICS))
    doc = {
        "generator": "scripts/ranx_metrics_reference.py",
        "versions": {pkg: version(pkg) for pkg in ("ranx", "numba", "numpy")},
        "gradedRule": GRADED_RULE,
        "gradedQrels": graded_dict,
        "cases": cases,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    for c in cases:
        if c["qrels"] == "qrels.txt" and c["order"] == "file":
            print(f"{c['run']:22s} ndcg@10 {c['means']['ndcg@10']:.4f}  recall@100 {c['means']['recall@100']:.4f}")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
