#!/usr/bin/env python3
"""Reference values of ranx's fusion methods, for tests/runfusion_ranx.rs.

Fuses the CISI runs run.bm25.txt and run.dense.txt (../shared/data/cisi relative to the
repository root) with every unsupervised fusion method of ranx, and writes
tests/data/ranx_fusion_reference.json:

* ``cases``: one entry per fusion; ``options`` is the calibrank ``FuseRunsOptions``
  object (camelCase JSON) that must reproduce it, ``full`` the fused scores of every
  document of the first ``len(full_queries)`` queries (repr floats), ``top10`` the ten
  best document ids of every query, ordered by score descending, then doc id ascending.
* ``cpythonSortCases``: permutations produced by CPython's ``sorted`` with deliberately
  inconsistent comparators, to check calibrank's port of ``list.sort`` (CondorcetFuse
  depends on its exact sequence of comparisons).

Two things ranx leaves to chance are pinned here, the same way calibrank pins them:

1. Ties inside an input run. ``Run.from_file`` orders each query's documents with
   numba's unstable quicksort; this script loads the runs itself and orders them by
   score descending, then doc id ascending (calibrank's rule).
2. The initial candidate order of (weighted) CondorcetFuse, which ranx takes from a
   Python ``set`` (it changes with PYTHONHASHSEED). It is patched to doc id ascending.

Run from the repository root (needs ``pip install ranx==0.3.21``; CPython 3.11):

    python3 scripts/ranx_fusion_reference.py
"""

import importlib
import json
import os
import platform
import sys
from collections import defaultdict
from functools import cmp_to_key

from importlib.metadata import version

from numba.typed import List as TypedList
from numba.types import unicode_type
from ranx import Run, fuse
from ranx.fusion.common import create_empty_results_dict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "data", "cisi")
OUT = os.path.join(ROOT, "tests", "data", "ranx_fusion_reference.json")
RUN_FILES = ["run.bm25.txt", "run.dense.txt"]
FULL_QUERIES = 10
WEIGHTS = [0.7, 0.3]

# name, method, norm (DEFAULT: leave ranx's default, i.e. "min-max"; None: no norm),
# ranx params (without weights), weights
DEFAULT = object()
CASES = [
    ("sum", "sum", DEFAULT, {}, None),
    ("mnz", "mnz", DEFAULT, {}, None),
    ("mnz_min_max", "mnz", "min-max", {}, None),
    ("max", "max", DEFAULT, {}, None),
    ("min", "min", DEFAULT, {}, None),
    ("med", "med", DEFAULT, {}, None),
    ("anz", "anz", DEFAULT, {}, None),
    ("gmnz_gamma_0.5", "gmnz", DEFAULT, {"gamma": 0.5}, None),
    ("wsum", "wsum", DEFAULT, {}, WEIGHTS),
    ("wmnz", "wmnz", DEFAULT, {}, WEIGHTS),
    ("mixed", "mixed", DEFAULT, {}, WEIGHTS),
    ("rrf", "rrf", DEFAULT, {}, None),
    ("rrf_k_60", "rrf", DEFAULT, {"k": 60}, None),
    ("rrf_k_10_no_norm", "rrf", None, {"k": 10}, None),
    ("rbc_phi_0.8", "rbc", DEFAULT, {"phi": 0.8}, None),
    ("rbc_phi_0.95_no_norm", "rbc", None, {"phi": 0.95}, None),
    ("isr", "isr", DEFAULT, {}, None),
    ("log_isr", "log_isr", DEFAULT, {}, None),
    ("logn_isr", "logn_isr", DEFAULT, {}, None),
    ("logn_isr_sigma_0.5", "logn_isr", DEFAULT, {"sigma": 0.5}, None),
    ("bordafuse", "bordafuse", DEFAULT, {}, None),
    ("w_bordafuse", "w_bordafuse", DEFAULT, {}, WEIGHTS),
    ("condorcet", "condorcet", DEFAULT, {}, None),
    ("w_condorcet", "w_condorcet", DEFAULT, {}, WEIGHTS),
    ("w_condorcet_equal_weights", "w_condorcet", None, {}, [1.0, 1.0]),
    # every normalization, mostly under sum (which adds nothing of its own)
    ("sum_no_norm", "sum", None, {}, None),
    ("sum_norm_max", "sum", "max", {}, None),
    ("sum_norm_sum", "sum", "sum", {}, None),
    ("sum_norm_zmuv", "sum", "zmuv", {}, None),
    ("sum_norm_rank", "sum", "rank", {}, None),
    ("sum_norm_borda", "sum", "borda", {}, None),
    ("sum_norm_min_max_inverted", "sum", "min-max-inverted", {}, None),
    ("mnz_norm_borda", "mnz", "borda", {}, None),
    ("med_norm_zmuv", "med", "zmuv", {}, None),
    ("max_norm_zmuv", "max", "zmuv", {}, None),
    ("min_norm_rank", "min", "rank", {}, None),
    ("wsum_norm_zmuv", "wsum", "zmuv", {}, WEIGHTS),
    ("rrf_norm_rank", "rrf", "rank", {}, None),
]


def load_run(path):
    """A ranx Run whose per-query order is score descending, then doc id ascending."""
    raw = defaultdict(dict)
    with open(path) as f:
        for line in f:
            q_id, _, doc_id, _, score, _ = line.split()
            raw[q_id][doc_id] = float(score)
    run = Run()
    for q_id in sorted(raw):
        results = create_empty_results_dict()
        for doc_id, score in sorted(raw[q_id].items(), key=lambda x: (-x[1], x[0])):
            results[doc_id] = score
        run.run[q_id] = results
    run.sorted = True
    return run


def sorted_candidates(runs):
    """Replacement for ranx's set-ordered ``get_candidates``: doc id ascending."""
    candidates = TypedList()
    for q_id in runs[0].keys():
        docs = sorted({doc_id for run in runs for doc_id in run[q_id].keys()})
        candidates.append(TypedList(docs) if docs else TypedList.empty_list(unicode_type))
    return candidates


def pin_condorcet_candidates():
    for name in ("ranx.fusion.condorcet", "ranx.fusion.weighted_condorcet"):
        importlib.import_module(name).get_candidates = sorted_candidates


def calibrank_options(method, norm, params, weights):
    options = {"method": method}
    if norm is not DEFAULT:
        options["norm"] = "none" if norm is None else norm
    if weights is not None:
        options["weights"] = weights
    if params:
        options["params"] = {k: float(v) for k, v in params.items()}
    return options


def ranked_ids(results, n):
    return [d for d, _ in sorted(results.items(), key=lambda x: (-x[1], x[0]))[:n]]


# CPython list.sort with inconsistent comparators ----------------------------------
MASK = (1 << 64) - 1


def splitmix64(x):
    """The SplitMix64 finaliser (also written in src/lab/runfusion/pysort.rs's tests)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def make_less(seed, n, shape, noise_permille):
    """less(x, y): a base order on keys (of the given shape) flipped at random."""
    def key(i):
        if shape == "random":
            return splitmix64(seed * 1_000_003 + i) % 1000
        if shape == "ascending":
            return i + splitmix64(seed * 1_000_003 + i) % 5
        if shape == "descending":
            return n - i + splitmix64(seed * 1_000_003 + i) % 5
        return splitmix64(seed * 1_000_003 + i) % 4  # "few": many ties

    keys = [key(i) for i in range(n)]

    def less(x, y):
        h = splitmix64((seed << 40) ^ (x << 20) ^ y)
        if h % 1000 < noise_permille:
            return (h >> 32) % 2 == 0
        return keys[x] < keys[y]

    return less


def cpython_sort_cases():
    cases = []
    seed = 0
    for n in (1, 2, 3, 10, 63, 64, 65, 130, 200, 500):
        for shape in ("random", "ascending", "descending", "few"):
            for noise in (0, 20, 300):
                seed += 1
                less = make_less(seed, n, shape, noise)
                order = sorted(range(n), key=cmp_to_key(lambda x, y: -1 if less(x, y) else 1))
                cases.append({"seed": seed, "n": n, "shape": shape, "noisePermille": noise, "order": order})
    return cases


def main():
    ranx_version = version("ranx")
    if ranx_version != "0.3.21":
        print(f"warning: expected ranx 0.3.21, found {ranx_version}", file=sys.stderr)
    pin_condorcet_candidates()
    runs = [load_run(os.path.join(DATA, name)) for name in RUN_FILES]
    q_ids = sorted(runs[0].keys())
    full_q_ids = q_ids[:FULL_QUERIES]

    cases = []
    for name, method, norm, params, weights in CASES:
        ranx_params = dict(params)
        if weights is not None:
            ranx_params["weights"] = weights
        kwargs = {} if norm is DEFAULT else {"norm": norm}
        fused = fuse(runs=runs, method=method, params=ranx_params, **kwargs)
        as_dict = {q: dict(fused.run[q]) for q in fused.run.keys()}
        cases.append(
            {
                "name": name,
                "options": calibrank_options(method, norm, params, weights),
                "full": {q: as_dict.get(q, {}) for q in full_q_ids},
                "top10": {q: ranked_ids(as_dict.get(q, {}), 10) for q in q_ids},
            }
        )
        print(f"{name}: done", file=sys.stderr)

    reference = {
        "generator": "scripts/ranx_fusion_reference.py",
        "ranxVersion": ranx_version,
        "python": platform.python_version(),
        "runFiles": RUN_FILES,
        "fullQueries": full_q_ids,
        "cases": cases,
        "cpythonSortCases": cpython_sort_cases(),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(reference, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
