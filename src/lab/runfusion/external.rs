//! Fusion as two search engines do it: Qdrant's distribution-based score fusion and
//! the score combinations of OpenSearch's `normalization-processor`.
//!
//! Both engines compute in `f32`; calibrank computes the same formulas in `f64`.
//!
//! **Qdrant DBSF** (`lib/segment/src/common/score_fusion.rs`, `ScoreFusion::dbsf`): per
//! query and run, mean and *sample* variance (Welford, divisor `n - 1`) in rank order;
//! `lo = mean - 3 std`, `hi = mean + 3 std`; every score becomes `(s - lo) / (hi - lo)`,
//! *not* clipped, so outliers fall outside [0, 1]. A list of one document, or with
//! `lo == hi`, scores 0.5. The fused score is `sum_r w_r * norm_r(d)` over the runs that
//! retrieved `d` (Qdrant's optional per-list weights, default 1). Qdrant's inference of
//! "smaller is better" lists (first score < last) is not replicated: larger is better.
//!
//! **OpenSearch** (`neural-search`, `MinMaxScoreNormalizationTechnique` without lower
//! bounds, `ArithmeticMean` / `GeometricMean` / `HarmonicMean` combination techniques):
//! per query and run, `n = (s - min) / (max - min)`, then `n == 0` becomes 0.001 (so the
//! lowest retrieved document stays distinguishable from a missing one) and a list whose
//! scores are all equal scores 1.0. A document a run missed has score 0.0 for it (the
//! zero-filled per-document score array of `ScoreCombiner`). Then, with weights `w`
//! (default 1):
//!
//! * arithmetic: `sum(w * s) / sum(w)` over the scores `>= 0`, i.e. every run, missing
//!   ones counting 0;
//! * geometric: `exp(sum(w * ln s) / sum(w))` over the scores `> 0`, i.e. missing runs
//!   are skipped;
//! * harmonic: `sum(w) / sum(w / s)` over the scores `> 0`, missing runs skipped;
//!
//! and 0 when no weight is left. OpenSearch requires weights in [0, 1] summing to 1;
//! calibrank accepts any non-negative weights (all three means are invariant to scaling
//! the weights). Its min-max takes the true maximum, where OpenSearch starts from
//! `Float.MIN_VALUE` (which only matters for negative scores, which Lucene never gives).

use super::methods::{candidates, wsum};
use super::{ranking, Scores};
use crate::float;
use crate::normalize::total;

/// What OpenSearch's min-max gives the lowest score (instead of 0).
const OPENSEARCH_MIN_SCORE: f64 = 0.001;
/// What OpenSearch's min-max gives every score of a list whose scores are all equal.
const OPENSEARCH_SINGLE_RESULT_SCORE: f64 = 1.0;

/// Qdrant's `distr_norm`: maps mean -/+ 3 sample standard deviations to 0 / 1.
pub(super) fn qdrant_distr_norm<'a>(l: &Scores<'a>) -> Scores<'a> {
    let xs: Vec<f64> = ranking(l).into_iter().map(|(_, s)| s).collect();
    if xs.len() < 2 {
        return l.keys().map(|d| (*d, 0.5)).collect();
    }
    let (mut mean, mut aggregate) = (0.0, 0.0);
    for (k, x) in xs.iter().enumerate() {
        let old_delta = x - mean;
        mean += old_delta / (k + 1) as f64;
        aggregate += old_delta * (x - mean);
    }
    let std = libm::sqrt(aggregate / (xs.len() as f64 - 1.0));
    let (lo, hi) = (mean - 3.0 * std, mean + 3.0 * std);
    l.iter()
        .map(|(d, s)| (*d, if lo == hi { 0.5 } else { (s - lo) / (hi - lo) }))
        .collect()
}

/// Qdrant's distribution-based score fusion: weighted sum of the lists'
/// [`qdrant_distr_norm`]ed scores (the method's stage: see `Method::stage`).
pub(super) fn dbsf<'a>(normalized: &[Scores<'a>], w: &[f64]) -> Scores<'a> {
    wsum(normalized, w)
}

/// OpenSearch's `min_max` normalization (no lower bounds).
pub(super) fn opensearch_min_max<'a>(l: &Scores<'a>) -> Scores<'a> {
    let lo = l.values().copied().fold(f64::INFINITY, float::min);
    let hi = l.values().copied().fold(f64::NEG_INFINITY, float::max);
    let one = |s: f64| {
        if hi == lo && s == hi {
            return OPENSEARCH_SINGLE_RESULT_SCORE;
        }
        let n = (s - lo) / (hi - lo);
        if n == 0.0 {
            OPENSEARCH_MIN_SCORE
        } else {
            n
        }
    };
    l.iter().map(|(d, s)| (*d, one(*s))).collect()
}

/// Scores every candidate of the lists, normalized by OpenSearch's min-max
/// ([`opensearch_min_max`], the means' stage: see `Method::stage`), from its per-run
/// `(score, weight)` pairs, score 0.0 for a run that missed it.
fn opensearch_combine<'a>(
    normalized: &[Scores<'a>],
    w: &[f64],
    combine: impl Fn(&[(f64, f64)]) -> f64,
) -> Scores<'a> {
    candidates(normalized)
        .into_iter()
        .map(|d| {
            let sw: Vec<(f64, f64)> = normalized
                .iter()
                .zip(w)
                .map(|(l, w)| (l.get(d).copied().unwrap_or(0.0), *w))
                .collect();
            (d, combine(&sw))
        })
        .collect()
}

/// OpenSearch `arithmetic_mean`: `sum(w * s) / sum(w)` over the scores `>= 0`.
pub(super) fn arithmetic_mean<'a>(lists: &[Scores<'a>], w: &[f64]) -> Scores<'a> {
    opensearch_combine(lists, w, |sw| {
        let kept: Vec<&(f64, f64)> = sw.iter().filter(|(s, _)| *s >= 0.0).collect();
        let weights = total(kept.iter().map(|(_, w)| *w));
        if weights == 0.0 {
            0.0
        } else {
            total(kept.iter().map(|(s, w)| s * w)) / weights
        }
    })
}

/// OpenSearch `geometric_mean`: `exp(sum(w * ln s) / sum(w))` over the scores `> 0`.
pub(super) fn geometric_mean<'a>(lists: &[Scores<'a>], w: &[f64]) -> Scores<'a> {
    opensearch_combine(lists, w, |sw| {
        let kept: Vec<&(f64, f64)> = sw.iter().filter(|(s, _)| *s > 0.0).collect();
        let weights = total(kept.iter().map(|(_, w)| *w));
        if weights == 0.0 {
            0.0
        } else {
            libm::exp(total(kept.iter().map(|(s, w)| w * libm::log(*s))) / weights)
        }
    })
}

/// OpenSearch `harmonic_mean`: `sum(w) / sum(w / s)` over the scores `> 0`.
pub(super) fn harmonic_mean<'a>(lists: &[Scores<'a>], w: &[f64]) -> Scores<'a> {
    opensearch_combine(lists, w, |sw| {
        let kept: Vec<&(f64, f64)> = sw.iter().filter(|(s, _)| *s > 0.0).collect();
        let harmonics = total(kept.iter().map(|(s, w)| w / s));
        if harmonics > 0.0 {
            total(kept.iter().map(|(_, w)| *w)) / harmonics
        } else {
            0.0
        }
    })
}
