#!/usr/bin/env python3
"""Reference values for `calibrank::fit`, computed with scikit-learn.

Writes tests/data/sklearn_reference.json, which tests/fit_sklearn.rs compares against:

* Platt scaling: `sklearn.calibration._sigmoid_calibration` on scikit-learn's own test
  vector (scores [5, -4, 1], labels [1, 0, 0]) together with the LibSVM values quoted by
  `test_sigmoid_calibration`, on random vectors (fixed numpy seed) and on CISI BM25
  scores (top 20 of every query, label = judged relevant);
* isotonic regression: `IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1)`,
  its fitted thresholds and predictions on a grid that includes out-of-range points;
* calibration quality: `brier_score_loss`, `log_loss` and `calibration_curve` for the
  "uniform" and "quantile" strategies.

Usage (from the repository root):

    pip install scikit-learn
    python3 scripts/sklearn_reference.py

The CISI data is read from ../shared/data/cisi relative to the repository root (override
with CISI_DIR=/path/to/cisi).
"""

import json
import os
import sys
from pathlib import Path

import numpy as np
import scipy
import sklearn
from scipy.special import expit
from sklearn.calibration import _sigmoid_calibration, calibration_curve
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import brier_score_loss, log_loss

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "sklearn_reference.json"
CISI = Path(os.environ.get("CISI_DIR", ROOT.parent / "shared" / "data" / "cisi"))

# The values quoted by scikit-learn's test_sigmoid_calibration ("computed from my python
# port of the C++ code in LibSVM"), i.e. the Lin, Lin & Weng (2007) Newton method.
LIBSVM_AB = (-0.20261354391187855, 0.65236314980010512)

# Log-loss clipping used by calibrank (scikit-learn's historical default eps).
LOG_LOSS_EPS = 1e-15


def floats(values):
    return [float(v) for v in values]


def cisi_top20():
    """BM25 scores of the top-20 documents of every query, label 1 = judged relevant."""
    relevant = set()
    with open(CISI / "qrels.txt") as f:
        for line in f:
            qid, _, doc, rel = line.split()
            if float(rel) > 0:
                relevant.add((qid, doc))
    scores, labels = [], []
    with open(CISI / "run.bm25.txt") as f:
        for line in f:
            qid, _, doc, rank, score, _tag = line.split()
            if int(rank) <= 20:
                scores.append(float(score))
                labels.append(1.0 if (qid, doc) in relevant else 0.0)
    return np.array(scores), np.array(labels)


def platt_case(name, scores, labels, grid):
    a, b = _sigmoid_calibration(scores, labels)
    a, b = float(a), float(b)
    return {
        "name": name,
        "scores": floats(scores),
        "labels": floats(labels),
        "a": a,
        "b": b,
        "grid": floats(grid),
        "predictions": floats(expit(-(a * np.asarray(grid) + b))),
    }


def isotonic_case(name, scores, labels, grid):
    model = IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1)
    model.fit(scores, labels)
    return {
        "name": name,
        "scores": floats(scores),
        "labels": floats(labels),
        "x": floats(model.X_thresholds_),
        "y": floats(model.y_thresholds_),
        "grid": floats(grid),
        "predictions": floats(model.predict(np.asarray(grid, dtype=float))),
    }


def grid_around(scores, n=41):
    """Points spanning beyond both ends of the data, plus every distinct score."""
    lo, hi = float(np.min(scores)), float(np.max(scores))
    span = hi - lo if hi > lo else 1.0
    even = np.linspace(lo - 0.25 * span, hi + 0.25 * span, n)
    return np.concatenate([even, np.unique(scores)])


def quality_case(name, probs, labels):
    probs = np.asarray(probs, dtype=float)
    labels = np.asarray(labels, dtype=float)
    curves = []
    for strategy in ("uniform", "quantile"):
        for n_bins in (1, 2, 5, 10, 15):
            prob_true, prob_pred = calibration_curve(labels, probs, n_bins=n_bins, strategy=strategy)
            curves.append({
                "strategy": strategy,
                "bins": n_bins,
                "probTrue": floats(prob_true),
                "probPred": floats(prob_pred),
            })
    has_extremes = bool(np.any((probs < LOG_LOSS_EPS) | (probs > 1 - LOG_LOSS_EPS)))
    return {
        "name": name,
        "probabilities": floats(probs),
        "labels": floats(labels),
        "brier": float(brier_score_loss(labels, probs)),
        # log_loss of the probabilities clipped to [1e-15, 1 - 1e-15] (calibrank's rule;
        # scikit-learn >= 1.5 clips to machine epsilon only, which is then a no-op here).
        "logLoss": float(log_loss(labels, np.clip(probs, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS), labels=[0, 1])),
        # scikit-learn's own log_loss, for the cases where the two clipping rules agree.
        "sklearnLogLoss": None if has_extremes else float(log_loss(labels, probs, labels=[0, 1])),
        "curves": curves,
    }


def main():
    rng = np.random.RandomState(20240611)
    platt, isotonic, quality = [], [], []

    # --- Platt scaling ----------------------------------------------------------------
    ex_f = np.array([5.0, -4.0, 1.0])
    ex_y = np.array([1.0, 0.0, 0.0])
    platt.append(platt_case("sklearn_test_sigmoid_calibration", ex_f, ex_y, grid_around(ex_f, 9)))

    n = 200
    y = (rng.uniform(size=n) < 0.4).astype(float)
    x = rng.normal(size=n) + 1.5 * y
    platt.append(platt_case("random_overlapping", x, y, grid_around(x)))

    y = (rng.uniform(size=n) < 0.1).astype(float)
    x = 80.0 * (rng.normal(size=n) + 2.0 * y) + 40.0
    platt.append(platt_case("random_imbalanced_large_scale", x, y, grid_around(x)))

    x = rng.uniform(-3, 3, size=n)
    y = (rng.uniform(size=n) < expit(2.0 * x - 0.5)).astype(float)
    platt.append(platt_case("random_logistic", x, y, grid_around(x)))

    x = np.round(rng.uniform(0, 1, size=n), 2)
    y = (rng.uniform(size=n) < x).astype(float)
    platt.append(platt_case("random_unit_interval_ties", x, y, grid_around(x)))

    cisi_x, cisi_y = cisi_top20()
    platt.append(platt_case("cisi_bm25_top20", cisi_x, cisi_y, grid_around(cisi_x)))

    # --- Isotonic regression ----------------------------------------------------------
    x = np.array([1.0, 2.0, 2.0, 3.0, 4.0, 4.0, 4.0, 5.0, 6.0, 7.0, 7.0, 8.0])
    y = np.array([0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0])
    isotonic.append(isotonic_case("small_ties", x, y, grid_around(x, 33)))

    x = np.array([3.0, 1.0, 2.0, 5.0, 4.0])
    y = np.array([1.0, 1.0, 0.0, 1.0, 0.0])
    isotonic.append(isotonic_case("unsorted_input", x, y, grid_around(x, 17)))

    x = np.array([0.5, 0.5, 0.5, 0.5])
    y = np.array([1.0, 0.0, 0.0, 1.0])
    isotonic.append(isotonic_case("single_distinct_score", x, y, [0.0, 0.5, 1.0]))

    x = np.round(rng.uniform(0, 1, size=n), 1)
    y = (rng.uniform(size=n) < x).astype(float)
    isotonic.append(isotonic_case("random_heavy_ties", x, y, grid_around(x)))

    x = rng.normal(size=n)
    y = (rng.uniform(size=n) < expit(1.5 * x)).astype(float)
    isotonic.append(isotonic_case("random_continuous", x, y, grid_around(x)))

    isotonic.append(isotonic_case("cisi_bm25_top20", cisi_x, cisi_y, grid_around(cisi_x)))

    # --- Calibration quality ----------------------------------------------------------
    quality.append(quality_case(
        "sklearn_test_uniform", [0.0, 0.1, 0.2, 0.8, 0.9, 1.0], [0, 0, 0, 1, 1, 1]))
    quality.append(quality_case(
        "sklearn_test_quantile", [0.0, 0.1, 0.2, 0.5, 0.9, 1.0], [0, 0, 0, 0, 1, 1]))
    quality.append(quality_case(
        "sklearn_docstring", [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0], [0, 0, 0, 0, 1, 1, 1, 1, 1]))
    quality.append(quality_case(
        "bin_edges", [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.3, 0.7],
        [0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 1, 1, 0]))
    p = rng.uniform(size=500)
    quality.append(quality_case("random_miscalibrated", p, (rng.uniform(size=500) < p ** 1.5).astype(float)))
    p = np.round(rng.beta(0.5, 2.0, size=300), 2)
    quality.append(quality_case("random_skewed_ties", p, (rng.uniform(size=300) < p).astype(float)))
    iso = IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1).fit(cisi_x, cisi_y)
    quality.append(quality_case("cisi_isotonic_in_sample", iso.predict(cisi_x), cisi_y))

    reference = {
        "generator": "scripts/sklearn_reference.py",
        "versions": {
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "sklearn": sklearn.__version__,
        },
        "libsvmTestVector": {"a": LIBSVM_AB[0], "b": LIBSVM_AB[1]},
        "platt": platt,
        "isotonic": isotonic,
        "quality": quality,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(reference, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(platt)} Platt, {len(isotonic)} isotonic, "
          f"{len(quality)} quality cases")


if __name__ == "__main__":
    main()
