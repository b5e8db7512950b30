#!/usr/bin/env python3
"""Why fitQueryConfidence uses the features it does: candidate feature sets for the
query-level confidence on ../shared/data/cisi-abstain, each fitted as an L2-regularized
logistic regression on standardized features (as calibrank fits it) on one half of the
judged queries (sorted by id, alternate split, as docs/quality.md) and measured on the
other, both ways. Prints AUROC (a relevant document in the fused top 5), ECE (10 bins)
and in-domain vs out-of-domain AUROC per feature set.

Run: $(bash bench/ensure-ranx.sh) bench/qconf-features.py   (needs numpy only)
"""
import collections
import math
import os
import sys

import numpy as np

D = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "cisi-abstain")
D = sys.argv[1] if len(sys.argv) > 1 else D


def read_run(name):
    run = collections.OrderedDict()
    for line in open(os.path.join(D, name)):
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, []).append((d, float(s)))
    for q in run:  # score descending, ties by id (calibrank's `ranked`)
        run[q].sort(key=lambda x: (-x[1], x[0]))
    return run


def rrf(lists, k=60):
    s = collections.defaultdict(float)
    for lst in lists:
        seen = set()
        for i, (d, _) in enumerate(lst):
            if d not in seen:
                seen.add(d)
                s[d] += 1 / (k + i + 1)
    return sorted(s.items(), key=lambda x: (-x[1], x[0]))


def seed_sigmoid(x):
    return 1 / (1 + math.exp(-150 * (x - 0.035)))


def logit(p):
    p = min(max(p, 1e-12), 1 - 1e-12)
    return math.log(p / (1 - p))


def auroc(p, y):
    p, y = np.asarray(p), np.asarray(y)
    pos, neg = p[y == 1], p[y == 0]
    return float(np.mean([(a > b) + 0.5 * (a == b) for a in pos for b in neg]))


def ece(p, y, bins=10):
    p, y = np.asarray(p), np.asarray(y)
    e = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        m = (p >= lo) & ((p < hi) if b < bins - 1 else (p <= hi))
        if m.sum():
            e += m.sum() / len(p) * abs(p[m].mean() - y[m].mean())
    return e


def fit(x, y, lam=1.0, iterations=50):
    mu, sd = x.mean(0), x.std(0)
    sd[sd == 0] = 1
    z = np.hstack([np.ones((len(x), 1)), (x - mu) / sd])
    w = np.zeros(z.shape[1])
    reg = lam * np.eye(z.shape[1])
    reg[0, 0] = 0
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-z @ w))
        g = z.T @ (p - y) + reg @ w
        h = z.T @ (z * (p * (1 - p))[:, None]) + reg
        w -= np.linalg.solve(h, g)
    return lambda x2: 1 / (1 + np.exp(-(np.hstack([np.ones((len(x2), 1)), (x2 - mu) / sd]) @ w)))


bm25, dense = read_run("run.bm25.txt"), read_run("run.dense.txt")
qrels = collections.defaultdict(dict)
for line in open(os.path.join(D, "qrels.txt")):
    q, _, d, rel = line.split()
    qrels[q][d] = float(rel)

rows = []
for q in sorted(qrels):
    lb, ld = bm25.get(q, []), dense.get(q, [])
    fused = rrf([lb, ld])[:5]
    rank_only = 1 - np.prod([1 - seed_sigmoid(s) for _, s in fused])
    def tops(lst):
        return (lst[0][1], lst[0][1] - lst[min(len(lst), 5) - 1][1]) if lst else (0.0, 0.0)
    overlap = len({d for d, _ in lb[:10]} & {d for d, _ in ld[:10]}) / 10
    rows.append({
        "q": q,
        "y": int(any(qrels[q].get(d, 0) > 0 for d, _ in fused)),
        "ood": q.startswith("ood"),
        "rankOnly": logit(rank_only),
        "bm25": tops(lb),
        "dense": tops(ld),
        "overlap": overlap,
    })

SETS = {
    "rankOnly": lambda r: [r["rankOnly"]],
    "top[dense]": lambda r: [r["dense"][0]],
    "top[bm25], top[dense]": lambda r: [r["bm25"][0], r["dense"][0]],
    "rankOnly, top[bm25], top[dense] (calibrank)": lambda r: [r["rankOnly"], r["bm25"][0], r["dense"][0]],
    "+ top-5 gaps": lambda r: [r["rankOnly"], r["bm25"][0], r["dense"][0], r["bm25"][1], r["dense"][1]],
    "+ top-5 gaps + top-10 overlap": lambda r: [r["rankOnly"], r["bm25"][0], r["dense"][0], r["bm25"][1], r["dense"][1], r["overlap"]],
}

a, b = rows[0::2], rows[1::2]
print("| features | held-out | AUROC | ECE | OOD AUROC |\n|---|---|---|---|---|")
for name, f in SETS.items():
    for label, train, test in (("B", a, b), ("A", b, a)):
        model = fit(np.array([f(r) for r in train], float), np.array([r["y"] for r in train], float))
        p = model(np.array([f(r) for r in test], float))
        y = np.array([r["y"] for r in test])
        ind = np.array([0 if r["ood"] else 1 for r in test])
        print(f"| {name} | {label} | {auroc(p, y):.3f} | {ece(p, y):.3f} | {auroc(p, ind):.3f} |")
