//! ranx's fusion methods (`ranx/fusion/*.py`), one query at a time.
//!
//! Each function takes the (normalized) result lists of every run for one query and
//! returns the fused list. Sums run in run order, from 0, as numba's `sum` does.

use super::pysort::sort_by_less;
use super::{ranking, Scores};
use crate::float;
use crate::normalize::total;
use crate::sort::StableSort;
use std::collections::{BTreeSet, HashSet};

/// ranx's score for a document a run missed, in CombMAX.
const MISSING_FOR_MAX: f64 = -1e9;
/// ranx's score for a document a run missed, in CombMIN.
const MISSING_FOR_MIN: f64 = 1e9;

/// The documents of any list, each once, where first met: lists in order, each list in
/// its order (the order ranx's fused dicts insert them in).
pub(super) fn candidates<'a>(lists: &[Scores<'a>]) -> Vec<&'a str> {
    let mut seen = HashSet::new();
    lists
        .iter()
        .flat_map(|l| l.keys().copied())
        .filter(|d| seen.insert(*d))
        .collect()
}

/// The documents of any list, each once, by id: calibrank's stand-in for the Python
/// `set` of candidates that ranx's BordaFuse, borda norm and CondorcetFuse iterate
/// (its order depends on `PYTHONHASHSEED`).
pub(super) fn candidates_by_id<'a>(lists: &[Scores<'a>]) -> Vec<&'a str> {
    let set: BTreeSet<&'a str> = lists.iter().flat_map(|l| l.keys().copied()).collect();
    set.into_iter().collect()
}

/// Scores every candidate with `score(doc)`, candidates in the order first met.
fn combine<'a>(lists: &[Scores<'a>], score: impl Fn(&str) -> f64) -> Scores<'a> {
    candidates(lists)
        .into_iter()
        .map(|d| (d, score(d)))
        .collect()
}

/// The score of `doc` in `list`, or `missing`.
fn get(list: &Scores<'_>, doc: &str, missing: f64) -> f64 {
    list.get(doc).copied().unwrap_or(missing)
}

/// `(score, weight)` of `doc` in the lists that retrieved it, in run order.
fn present(lists: &[Scores<'_>], w: &[f64], doc: &str) -> Vec<(f64, f64)> {
    lists
        .iter()
        .zip(w)
        .filter_map(|(l, w)| l.get(doc).map(|s| (*s, *w)))
        .collect()
}

/// Scores of `doc` in the lists that retrieved it, in run order.
fn present_scores(lists: &[Scores<'_>], doc: &str) -> Vec<f64> {
    lists.iter().filter_map(|l| l.get(doc).copied()).collect()
}

// Score combinations (Fox & Shaw 1993; Lee 1997; Wu & Crestani 2002) ---------------

/// CombSUM: `sum_r s_r(d)`, 0 where missing.
pub(super) fn comb_sum<'a>(lists: &[Scores<'a>]) -> Scores<'a> {
    combine(lists, |d| total(lists.iter().map(|l| get(l, d, 0.0))))
}

/// CombMNZ: `sum(s) * |s|` over the runs that retrieved `d`.
pub(super) fn comb_mnz<'a>(lists: &[Scores<'a>]) -> Scores<'a> {
    combine(lists, |d| {
        let s = present_scores(lists, d);
        total(s.iter().copied()) * s.len() as f64
    })
}

/// CombMAX: `max_r s_r(d)`, -1e9 where missing.
pub(super) fn comb_max<'a>(lists: &[Scores<'a>]) -> Scores<'a> {
    combine(lists, |d| {
        lists
            .iter()
            .map(|l| get(l, d, MISSING_FOR_MAX))
            .fold(f64::NEG_INFINITY, float::max)
    })
}

/// CombMIN: `min_r s_r(d)`, 1e9 where missing.
pub(super) fn comb_min<'a>(lists: &[Scores<'a>]) -> Scores<'a> {
    combine(lists, |d| {
        lists
            .iter()
            .map(|l| get(l, d, MISSING_FOR_MIN))
            .fold(f64::INFINITY, float::min)
    })
}

/// CombMED: the median of the scores of the runs that retrieved `d` (the mean of the two
/// middle ones for an even count).
pub(super) fn comb_med<'a>(lists: &[Scores<'a>]) -> Scores<'a> {
    combine(lists, |d| {
        let mut s = present_scores(lists, d);
        s.stable_sort_by(f64::total_cmp);
        let half = s.len() / 2;
        let at = |i: usize| s.get(i).copied().unwrap_or(f64::NAN);
        if s.len() % 2 == 0 {
            (at(half - 1) + at(half)) / 2.0
        } else {
            at(half)
        }
    })
}

/// CombANZ: `sum(s) / |s|` over the runs that retrieved `d`.
pub(super) fn comb_anz<'a>(lists: &[Scores<'a>]) -> Scores<'a> {
    combine(lists, |d| {
        let s = present_scores(lists, d);
        total(s.iter().copied()) / s.len() as f64
    })
}

/// CombGMNZ: `sum(s) * |s|^gamma` over the runs that retrieved `d`.
pub(super) fn comb_gmnz<'a>(lists: &[Scores<'a>], gamma: f64) -> Scores<'a> {
    combine(lists, |d| {
        let s = present_scores(lists, d);
        total(s.iter().copied()) * libm::pow(s.len() as f64, gamma)
    })
}

/// Weighted sum: `sum_r w_r * s_r(d)`, 0 where missing.
pub(super) fn wsum<'a>(lists: &[Scores<'a>], w: &[f64]) -> Scores<'a> {
    combine(lists, |d| {
        total(lists.iter().zip(w).map(|(l, w)| w * get(l, d, 0.0)))
    })
}

/// Weighted MNZ: `sum(s) * sum(w)` over the runs that retrieved `d`.
pub(super) fn wmnz<'a>(lists: &[Scores<'a>], w: &[f64]) -> Scores<'a> {
    combine(lists, |d| {
        let sw = present(lists, w, d);
        total(sw.iter().map(|(s, _)| *s)) * total(sw.iter().map(|(_, w)| *w))
    })
}

/// Mixed: `sum(w * s) * sqrt(|s|)` over the runs that retrieved `d`.
pub(super) fn mixed<'a>(lists: &[Scores<'a>], w: &[f64]) -> Scores<'a> {
    combine(lists, |d| {
        let sw = present(lists, w, d);
        total(sw.iter().map(|(s, w)| s * w)) * libm::sqrt(sw.len() as f64)
    })
}

/// `sum(s) * ln(|s|)` over the runs that retrieved `d` (Log_ISR's combination).
fn log_comb_mnz<'a>(lists: &[Scores<'a>]) -> Scores<'a> {
    combine(lists, |d| {
        let s = present_scores(lists, d);
        total(s.iter().copied()) * libm::log(s.len() as f64)
    })
}

/// `sum(s) * ln(|s| + sigma)` over the runs that retrieved `d` (LogN_ISR's combination).
fn norm_log_comb_mnz<'a>(lists: &[Scores<'a>], sigma: f64) -> Scores<'a> {
    combine(lists, |d| {
        let s = present_scores(lists, d);
        total(s.iter().copied()) * libm::log(s.len() as f64 + sigma)
    })
}

// Rank-based methods -----------------------------------------------------------------

/// Replaces every score of each list by `score_at(i)`, `i` the document's 0-based rank
/// (`score_at` is called once per rank, not once per list: RBC's is a `pow`).
fn by_rank<'a>(lists: &[Scores<'a>], score_at: impl Fn(usize) -> f64) -> Vec<Scores<'a>> {
    let longest = lists.iter().map(Scores::len).max().unwrap_or(0);
    let at: Vec<f64> = (0..longest).map(score_at).collect();
    lists
        .iter()
        .map(|l| {
            ranking(l)
                .into_iter()
                .zip(&at)
                .map(|((d, _), s)| (d, *s))
                .collect()
        })
        .collect()
}

/// `1 / (i + 1)^2`, ISR's per-run score.
fn inverse_square_rank(i: usize) -> f64 {
    let r = (i + 1) as f64;
    1.0 / (r * r)
}

/// Reciprocal Rank Fusion (Cormack et al. 2009): CombSUM of `1 / (k + i + 1)`.
pub(super) fn rrf<'a>(lists: &[Scores<'a>], k: f64) -> Scores<'a> {
    comb_sum(&by_rank(lists, |i| 1.0 / (k + i as f64 + 1.0)))
}

/// Rank-Biased Centroid (Bailey et al. 2017): CombSUM of `(1 - phi) * phi^i`.
pub(super) fn rbc<'a>(lists: &[Scores<'a>], phi: f64) -> Scores<'a> {
    comb_sum(&by_rank(lists, |i| (1.0 - phi) * libm::pow(phi, i as f64)))
}

/// ISR (Mourão et al. 2015): CombMNZ of `1 / (i + 1)^2`.
pub(super) fn isr<'a>(lists: &[Scores<'a>]) -> Scores<'a> {
    comb_mnz(&by_rank(lists, inverse_square_rank))
}

/// Log_ISR: `sum(1 / (i + 1)^2) * ln(|runs that retrieved d|)`.
pub(super) fn log_isr<'a>(lists: &[Scores<'a>]) -> Scores<'a> {
    log_comb_mnz(&by_rank(lists, inverse_square_rank))
}

/// LogN_ISR: `sum(1 / (i + 1)^2) * ln(|runs that retrieved d| + sigma)`.
pub(super) fn logn_isr<'a>(lists: &[Scores<'a>], sigma: f64) -> Scores<'a> {
    norm_log_comb_mnz(&by_rank(lists, inverse_square_rank), sigma)
}

/// Borda points of every candidate in each list: `N - i` at rank `i`, and
/// `(N - n + 1) / 2` for the candidates a list of `n` missed (`N` candidates). As in
/// ranx's `_borda_score`, each list has its ranked documents first, in its order, then
/// the missed ones (in ranx, in `set` order; here by doc id).
pub(super) fn borda_points<'a>(lists: &[Scores<'a>]) -> Vec<Scores<'a>> {
    let all = candidates_by_id(lists);
    let big_n = all.len() as f64;
    lists
        .iter()
        .map(|l| {
            let unranked = (big_n - l.len() as f64 + 1.0) / 2.0;
            let mut points: Scores<'a> = ranking(l)
                .into_iter()
                .enumerate()
                .map(|(i, (d, _))| (d, big_n - i as f64))
                .collect();
            for d in &all {
                if !l.contains_key(d) {
                    points.insert(d, unranked);
                }
            }
            points
        })
        .collect()
}

/// BordaFuse (Aslam & Montague 2001): CombSUM of the lists' Borda points
/// ([`borda_points`], the method's stage: see `Method::stage`).
pub(super) fn bordafuse<'a>(points: &[Scores<'a>]) -> Scores<'a> {
    comb_sum(points)
}

/// Weighted BordaFuse: weighted sum of the lists' Borda points ([`borda_points`]).
pub(super) fn w_bordafuse<'a>(points: &[Scores<'a>], w: &[f64]) -> Scores<'a> {
    wsum(points, w)
}

/// (Weighted) CondorcetFuse (Montague & Aslam 2002), as ranx computes it.
///
/// `x` goes before `y` when the runs ranking `x` strictly above `y` weigh at least as
/// much as the others (a run that missed both counts for `y`; a run that missed only
/// one ranks the other above it). The candidates, by doc id, are sorted with that
/// comparator by CPython's algorithm; the one at position `i` of `N` scores `N - i`.
/// Unweighted CondorcetFuse is `w = 1` for every run. `None` only on an internal bug.
pub(super) fn condorcet<'a>(lists: &[Scores<'a>], w: &[f64]) -> Option<Scores<'a>> {
    let all: Vec<&'a str> = candidates_by_id(lists);
    // ranks[c * runs + r]: the rank of candidate c in run r, `MISSED` if the run missed
    // it. Candidate-major, so one comparison reads two contiguous rows (with 64 runs,
    // 3x faster than one vector per run).
    const MISSED: usize = usize::MAX;
    let runs = lists.len();
    let mut ranks = vec![MISSED; all.len().checked_mul(runs)?];
    for (r, l) in lists.iter().enumerate() {
        // ranx's `run.index(x)`: the position in the list's order.
        for (i, (d, _)) in ranking(l).into_iter().enumerate() {
            // `all` is sorted by id.
            let c = all.binary_search(&d).ok()?;
            let slot = ranks.get_mut(c * runs + r)?;
            *slot = i;
        }
    }
    let row = |c: usize| ranks.get(c * runs..(c + 1) * runs).unwrap_or(&[]);
    // `x` before `y`: a run votes for x when it ranks x strictly above y (a missed
    // candidate is below every ranked one; a run that missed both votes for y).
    let less = |x: usize, y: usize| {
        let (mut x_votes, mut y_votes) = (0.0, 0.0);
        for ((a, b), w) in row(x).iter().zip(row(y)).zip(w) {
            if a < b {
                x_votes += w;
            } else {
                y_votes += w;
            }
        }
        x_votes >= y_votes
    };
    let mut order: Vec<usize> = (0..all.len()).collect();
    sort_by_less(&mut order, less)?;
    let big_n = all.len() as f64;
    order
        .iter()
        .enumerate()
        .map(|(i, c)| all.get(*c).map(|d| (*d, big_n - i as f64)))
        .collect()
}
