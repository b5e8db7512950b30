//! ranx's normalizations (`ranx/normalization/*.py`), one query of one run at a time.
//!
//! Every normalized list keeps the input's order (ranx builds each normalized dict by
//! walking the input's keys); sums and means run over the documents in that order, as
//! ranx's `extract_scores` reads them. `min-max-inverted` re-sorts afterwards, as ranx's
//! `min_max_norm(run, invert=True)` calls `normalized_run.sort()`.

use super::{ranking, Norm, Scores};
use crate::float;
use crate::normalize::total;

/// ranx's floor for every denominator.
const EPS: f64 = 1e-9;

/// Normalizes every list with `norm`.
pub(super) fn apply<'a>(norm: Norm, lists: &[Scores<'a>]) -> Vec<Scores<'a>> {
    if norm == Norm::Borda {
        let candidates = super::methods::candidates_by_id(lists);
        return lists.iter().map(|l| borda(l, &candidates)).collect();
    }
    lists
        .iter()
        .map(|l| match norm {
            Norm::None | Norm::Borda => l.clone(),
            Norm::MinMax => min_max(l),
            Norm::MinMaxInverted => {
                let mut inverted = min_max_inverted(l);
                inverted.ranx_sort();
                inverted
            }
            Norm::Max => max(l),
            Norm::Sum => sum(l),
            Norm::Zmuv => zmuv(l),
            Norm::Rank => rank(l),
        })
        .collect()
}

/// The scores in the list's order.
fn scores(l: &Scores<'_>) -> Vec<f64> {
    ranking(l).into_iter().map(|(_, s)| s).collect()
}

fn lowest(l: &Scores<'_>) -> f64 {
    l.values().copied().fold(f64::INFINITY, float::min)
}

fn highest(l: &Scores<'_>) -> f64 {
    l.values().copied().fold(f64::NEG_INFINITY, float::max)
}

fn map<'a>(l: &Scores<'a>, f: impl Fn(f64) -> f64) -> Scores<'a> {
    l.iter().map(|(d, s)| (*d, f(*s))).collect()
}

/// `(s - min) / max(max - min, 1e-9)`: all-equal scores all become 0.
pub(super) fn min_max<'a>(l: &Scores<'a>) -> Scores<'a> {
    let (lo, hi) = (lowest(l), highest(l));
    map(l, |s| (s - lo) / float::max(hi - lo, EPS))
}

/// `(max - s) / max(max - min, 1e-9)`, for runs where smaller is better.
pub(super) fn min_max_inverted<'a>(l: &Scores<'a>) -> Scores<'a> {
    let (lo, hi) = (lowest(l), highest(l));
    map(l, |s| (hi - s) / float::max(hi - lo, EPS))
}

/// `s / max(max, 1e-9)`.
pub(super) fn max<'a>(l: &Scores<'a>) -> Scores<'a> {
    let hi = highest(l);
    map(l, |s| s / float::max(hi, EPS))
}

/// `(s - min) / max(sum - min * n, 1e-9)`.
pub(super) fn sum<'a>(l: &Scores<'a>) -> Scores<'a> {
    let lo = lowest(l);
    let denominator = total(scores(l)) - lo * l.len() as f64;
    map(l, |s| (s - lo) / float::max(denominator, EPS))
}

/// `(s - mean) / max(std, 1e-9)`, population standard deviation (numba's `np.std`).
pub(super) fn zmuv<'a>(l: &Scores<'a>) -> Scores<'a> {
    let xs = scores(l);
    let n = xs.len() as f64;
    let mean = total(xs.iter().copied()) / n;
    let variance = total(xs.iter().map(|x| (x - mean) * (x - mean))) / n;
    let std = libm::sqrt(variance);
    map(l, |s| (s - mean) / float::max(std, EPS))
}

/// `1 - i / n` for the document at 0-based rank `i` of `n`.
pub(super) fn rank<'a>(l: &Scores<'a>) -> Scores<'a> {
    let n = l.len() as f64;
    ranking(l)
        .into_iter()
        .enumerate()
        .map(|(i, (d, _))| (d, 1.0 - i as f64 / n))
        .collect()
}

/// Over all candidates (documents of any run) of the query, `N` of them: `1 - i / N` for
/// the document at rank `i`, `0.5 - (n - 1) / (2 N)` for those this run (of `n`) missed.
///
/// ranx's `_borda_norm` lists the normalized documents in the order of its candidates, a
/// Python `set` (hash order); calibrank's stand-in for that order is doc id order, so the
/// normalized list is in doc id order (it is what rank-based methods then read).
pub(super) fn borda<'a>(l: &Scores<'a>, candidates: &[&'a str]) -> Scores<'a> {
    let (n, big_n) = (l.len() as f64, candidates.len() as f64);
    let missed = 0.5 - (n - 1.0) / (2.0 * big_n);
    candidates
        .iter()
        .map(|d| match l.position(d) {
            Some(i) => (*d, 1.0 - i as f64 / big_n),
            None => (*d, missed),
        })
        .collect()
}
