#!/usr/bin/env python3
"""Reference values for ranx's tie order, written to tests/data/ranx_ties_reference.json.

tests/ranx_ties.rs (and tests/js/node.test.mjs through the package's Run handles) compare
calibrank against every figure of it to 1e-9. Made with ranx 0.3.21 and trec_eval (the
`pytrec-eval-terrier` package, trec_eval 9.0.8 compiled in) from PyPI:

* four random data sets (seeded, so the file is reproducible): 3 runs of 40 queries,
  8 to 30 documents per run and query out of 60, listed in random file order, and
  graded judgements (grades 0-3) of 10 documents per query. Scores:
    - "uniform": uniform in [-3, 30], to 6 decimals (few ties), document ids that do
      not look like integers ("d123");
    - "tenth": the same rounded to one decimal (many ties), ids "d123" and, in a second
      set, ids that look like integers ("123");
    - "coarse": integers 0-4 (large groups of ties, past the 16 elements where numba's
      quicksort stops being an insertion sort), integer-like ids.
  For each set: `ranx.evaluate` of every run read with `Run.from_file` (file order), and
  of `ranx.fuse(runs, ...)` for every unsupervised fusion method and every
  normalization; the fused run's first query as ranx's dict holds it (insertion order,
  which decides its ties when `evaluate` sorts it); trec_eval's means of every run for
  the measures both compute.
* the CISI runs run.bm25.txt and run.dense.txt (../shared/data/cisi): the same fusions
  of the runs as read by `Run.from_file`.

ranx's BordaFuse, borda normalization and CondorcetFuse iterate a Python `set` of
candidates (its order changes with PYTHONHASHSEED); the set is replaced by the sorted
candidates, calibrank's stand-in. Run from the repository root:

    python3 scripts/ranx_ties_reference.py     # needs ranx==0.3.21, pytrec-eval-terrier
"""

import importlib
import json
import os
import random
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

from numba.typed import List as TypedList
from numba.types import unicode_type
from ranx import Qrels, Run, evaluate, fuse

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "ranx_ties_reference.json"
CISI = Path(os.environ.get("CISI_DIR", ROOT.parent / "shared" / "data" / "cisi"))

METRICS = [
    "ndcg@10", "ndcg", "ndcg_burges@10", "map@100", "map", "mrr", "precision@5",
    "recall@20", "r-precision", "hits@10",
]

# trec_eval measure -> the calibrank (ranx) metric computing the same figure.
TREC_EVAL = {
    "map": "map", "map_cut_100": "map@100", "ndcg": "ndcg", "ndcg_cut_10": "ndcg@10",
    "recip_rank": "mrr", "P_5": "precision@5", "recall_20": "recall@20", "Rprec": "r-precision",
}

DATASETS = [("uniform_str", "uniform", "str"), ("tenth_str", "tenth", "str"),
            ("tenth_int", "tenth", "int"), ("coarse_int", "coarse", "int")]

DEFAULT = object()
W3 = [0.5, 0.3, 0.2]
# name, method, norm (DEFAULT: ranx's default "min-max"; None: no norm), params, weights?
FUSIONS = [
    ("sum", "sum", DEFAULT, {}, False),
    ("mnz", "mnz", DEFAULT, {}, False),
    ("max", "max", DEFAULT, {}, False),
    ("min", "min", DEFAULT, {}, False),
    ("med", "med", DEFAULT, {}, False),
    ("anz", "anz", DEFAULT, {}, False),
    ("gmnz", "gmnz", DEFAULT, {"gamma": 0.5}, False),
    ("wsum", "wsum", DEFAULT, {}, True),
    ("wmnz", "wmnz", DEFAULT, {}, True),
    ("mixed", "mixed", DEFAULT, {}, True),
    ("rrf", "rrf", DEFAULT, {}, False),
    ("rrf_no_norm", "rrf", None, {"k": 10}, False),
    ("rbc", "rbc", DEFAULT, {"phi": 0.8}, False),
    ("isr", "isr", DEFAULT, {}, False),
    ("log_isr", "log_isr", DEFAULT, {}, False),
    ("logn_isr", "logn_isr", DEFAULT, {}, False),
    ("bordafuse", "bordafuse", DEFAULT, {}, False),
    ("w_bordafuse", "w_bordafuse", DEFAULT, {}, True),
    ("condorcet", "condorcet", DEFAULT, {}, False),
    ("w_condorcet", "w_condorcet", DEFAULT, {}, True),
    ("sum_no_norm", "sum", None, {}, False),
    ("sum_norm_max", "sum", "max", {}, False),
    ("sum_norm_sum", "sum", "sum", {}, False),
    ("sum_norm_zmuv", "sum", "zmuv", {}, False),
    ("sum_norm_rank", "sum", "rank", {}, False),
    ("sum_norm_borda", "sum", "borda", {}, False),
    ("rrf_norm_borda", "rrf", "borda", {}, False),
    ("sum_norm_min_max_inverted", "sum", "min-max-inverted", {}, False),
    ("rrf_norm_min_max_inverted", "rrf", "min-max-inverted", {}, False),
    ("max_norm_rank", "max", "rank", {}, False),
]


def sorted_candidates(runs):
    """Replaces ranx's set-ordered ``get_candidates``: candidates in doc id order."""
    candidates = TypedList()
    for q_id in runs[0].keys():
        docs = sorted({doc_id for run in runs for doc_id in run[q_id].keys()})
        candidates.append(TypedList(docs) if docs else TypedList.empty_list(unicode_type))
    return candidates


def pin_candidates():
    for name in ("ranx.fusion.bordafuse", "ranx.fusion.weighted_bordafuse",
                 "ranx.fusion.condorcet", "ranx.fusion.weighted_condorcet",
                 "ranx.normalization.borda_norm"):
        importlib.import_module(name).get_candidates = sorted_candidates


def make_dataset(seed, scores, ids):
    rng = random.Random(seed)
    qids = [str(q) for q in range(1, 41)] if ids == "int" else [f"q{q}" for q in range(1, 41)]
    runs = [[] for _ in range(3)]
    qrels = []
    for q in qids:
        numbers = rng.sample(range(1, 5000), 60)
        pool = [str(n) if ids == "int" else f"d{n}" for n in numbers]
        for r in range(3):
            docs = rng.sample(pool, rng.randint(8, 30))
            for rank, d in enumerate(docs, 1):
                if scores == "coarse":
                    s = float(rng.randint(0, 4))
                else:
                    s = round(rng.uniform(-3.0, 30.0), 1 if scores == "tenth" else 6)
                runs[r].append(f"{q} Q0 {d} {rank} {s!r} r{r}")
        judged = rng.sample(pool, 10)
        grades = [rng.choice([0, 1, 1, 2, 3]) for _ in judged]
        if max(grades) == 0:
            grades[0] = 1
        qrels.extend(f"{q} 0 {d} {g}" for d, g in zip(judged, grades))
    return ["\n".join(lines) + "\n" for lines in runs], "\n".join(qrels) + "\n"


def options(method, norm, params, weighted, n_runs):
    o = {"method": method}
    if norm is not DEFAULT:
        o["norm"] = "none" if norm is None else norm
    if weighted:
        o["weights"] = W3 if n_runs == 3 else [0.7, 0.3]
    if params:
        o["params"] = {k: float(v) for k, v in params.items()}
    return o


def means(qrels, run):
    result = evaluate(qrels, run, METRICS)
    return {m: float(result[m]) for m in METRICS}


def fusions(qrels, load_runs, first_query):
    out = []
    for name, method, norm, params, weighted in FUSIONS:
        runs = load_runs()
        o = options(method, norm, params, weighted, len(runs))
        ranx_params = dict(params)
        if weighted:
            ranx_params["weights"] = o["weights"]
        kwargs = {} if norm is DEFAULT else {"norm": norm}
        fused = fuse(runs=runs, method=method, params=ranx_params, **kwargs)
        # The fused dict's order before evaluate sorts it (its ids; the scores are
        # checked through the evaluation and, on CISI, by tests/runfusion_ranx.rs).
        first = list(fused.run[first_query].keys())
        out.append({"name": name, "options": o, "firstQuery": first, "means": means(qrels, fused)})
    return out


def trec_eval(qrels_text, run_text):
    import pytrec_eval

    qrels, run = {}, {}
    for line in qrels_text.splitlines():
        q, _, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
    for line in run_text.splitlines():
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, {})[d] = float(s)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, set(TREC_EVAL)).evaluate(run)
    assert sorted(per_query) == sorted(qrels), "every judged query is in the run"
    # Means over the queries, summed in query id order.
    return {
        TREC_EVAL[m]: sum(per_query[q][m] for q in sorted(per_query)) / len(per_query)
        for m in TREC_EVAL
    }


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def main():
    assert version("ranx") == "0.3.21", f"ranx 0.3.21 expected, found {version('ranx')}"
    pin_candidates()
    datasets = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed, (name, scores, ids) in enumerate(DATASETS, 1):
            run_texts, qrels_text = make_dataset(seed, scores, ids)
            paths = [write(tmp, f"{name}.{i}.trec", t) for i, t in enumerate(run_texts)]
            qrels = Qrels.from_file(write(tmp, f"{name}.qrels", qrels_text), kind="trec")
            load = lambda: [Run.from_file(p, kind="trec") for p in paths]
            first_query = sorted(load()[0].keys())[0]
            datasets.append({
                "name": name,
                "runs": run_texts,
                "qrels": qrels_text,
                "plain": [means(qrels, run) for run in load()],
                "firstQuery": first_query,
                "fusions": fusions(qrels, load, first_query),
                "trecEval": [trec_eval(qrels_text, t) for t in run_texts],
            })
            print(f"{name}: done", file=sys.stderr)
    qrels = Qrels.from_file(str(CISI / "qrels.txt"), kind="trec")
    load = lambda: [Run.from_file(str(CISI / n), kind="trec") for n in ("run.bm25.txt", "run.dense.txt")]
    cisi = {
        "runs": ["run.bm25.txt", "run.dense.txt"],
        "plain": [means(qrels, run) for run in load()],
        "fusions": [dict(f, firstQuery=None) for f in fusions(qrels, load, sorted(load()[0].keys())[0])],
    }
    doc = {
        "generator": "scripts/ranx_ties_reference.py",
        "versions": {p: version(p) for p in ("ranx", "numba", "numpy", "pytrec-eval-terrier")},
        "metrics": METRICS,
        "trecEvalMeasures": TREC_EVAL,
        "datasets": datasets,
        "cisi": cisi,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
