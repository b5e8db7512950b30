//! Shared data shapes for evaluation and run-level fusion: TREC-style runs and
//! relevance judgements in their JSON form `Record<queryId, Record<docId, number>>`.
//!
//! Two shapes of run:
//!
//! * [`Run`], a `BTreeMap` per query: every iteration order is the byte order of the
//!   ids, which makes tie handling reproducible but is not the order a file lists;
//! * [`OrderedRun`], a list per query that keeps an order: the file's, a JSON object's,
//!   or the order ranx keeps a run in once it has sorted it ([`ranx_sort`]).
//!
//! # How ranx orders tied documents
//!
//! ranx 0.3.21 keeps each query's results in a numba typed dict, which remembers
//! insertion order, and every tie is decided by that order:
//!
//! * `Run(dict)` and `Run.from_file` (`ranx/data_structures/run.py`, `Run.__init__`:
//!   `self.run = create_and_sort(q_ids, doc_ids, scores)`) insert the documents in the
//!   dict's (the file's) order, then `create_and_sort`
//!   (`ranx/data_structures/common.py`) calls `sort_dict_by_key` (query ids sorted) and
//!   `sort_dict_of_dict_by_value`, which rebuilds each query's dict in the order of
//!   `typed_list_argosrt([-v for v in values])`, i.e. numba's `np.argsort` of the
//!   negated scores: an unstable quicksort (median of three, insertion sort below 16
//!   elements), ported line by line in [`ranx_sort`].
//! * `evaluate` (`ranx/meta/evaluate.py`, `convert_run` -> `Run.to_typed_list`) ranks
//!   by that dict order as it stands; a run whose `sorted` flag is false (every fused
//!   run) is sorted first by `Run.sort()`, the same `sort_dict_of_dict_by_value`.
//! * Normalizations (`ranx/normalization/*.py`) build a new dict in the input's order
//!   (`for doc_id in results.keys()`); `min-max-inverted` then re-sorts
//!   (`normalized_run.sort()`).
//! * Fusion methods (`ranx/fusion/*.py`, e.g. `_comb_sum`) insert each candidate when
//!   first met, walking the runs in order and each run's dict in its order; rank-based
//!   methods (`_rrf_score`, `_isr_score`, `_rbc_score`, `_borda_score`, `_rank_norm`)
//!   give rank `i` to the `i`-th key of that dict. The fused run is not sorted
//!   (`Run()` with `run.run = ...`), so `evaluate` sorts its insertion order.
//! * Exceptions: BordaFuse, borda normalization and CondorcetFuse take their candidates
//!   from a Python `set`, whose order depends on `PYTHONHASHSEED`; calibrank uses doc id
//!   order there (see `crate::lab::runfusion`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Defines a map of query id -> document id -> number as a type of its own, so that a
/// run and judgements cannot be swapped: the map itself through `Deref` (read it as a
/// `BTreeMap`), built with `From` or `collect()`, the JSON form
/// `Record<queryId, Record<docId, number>>` through serde.
macro_rules! query_doc_map {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub BTreeMap<String, BTreeMap<String, f64>>);

        impl $name {
            /// An empty one.
            pub fn new() -> Self {
                Self::default()
            }
        }

        impl<const N: usize> From<[(String, BTreeMap<String, f64>); N]> for $name {
            fn from(a: [(String, BTreeMap<String, f64>); N]) -> Self {
                $name(BTreeMap::from(a))
            }
        }

        impl std::ops::Deref for $name {
            type Target = BTreeMap<String, BTreeMap<String, f64>>;
            fn deref(&self) -> &Self::Target {
                &self.0
            }
        }

        impl std::ops::DerefMut for $name {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.0
            }
        }

        impl From<BTreeMap<String, BTreeMap<String, f64>>> for $name {
            fn from(m: BTreeMap<String, BTreeMap<String, f64>>) -> Self {
                $name(m)
            }
        }

        impl FromIterator<(String, BTreeMap<String, f64>)> for $name {
            fn from_iter<I: IntoIterator<Item = (String, BTreeMap<String, f64>)>>(
                iter: I,
            ) -> Self {
                $name(iter.into_iter().collect())
            }
        }

        impl IntoIterator for $name {
            type Item = (String, BTreeMap<String, f64>);
            type IntoIter = std::collections::btree_map::IntoIter<String, BTreeMap<String, f64>>;
            fn into_iter(self) -> Self::IntoIter {
                self.0.into_iter()
            }
        }

        impl<'a> IntoIterator for &'a $name {
            type Item = (&'a String, &'a BTreeMap<String, f64>);
            type IntoIter = std::collections::btree_map::Iter<'a, String, BTreeMap<String, f64>>;
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter()
            }
        }
    };
}

query_doc_map! {
    /// A run: for each query id, each retrieved document id with its score.
    Run
}

query_doc_map! {
    /// Relevance judgements: for each query id, each judged document id with its grade,
    /// a whole number (0 = not relevant; grades > 0 are relevant at the default
    /// relevance level, 1; negative grades are kept, as TREC qrels hold them). Every
    /// function that takes judgements refuses a grade that is not finite or not whole
    /// ([`check_grade`]). A type apart from [`Run`]: passing
    /// one where the other is expected does not compile.
    ///
    /// ```
    /// use calibrank::lab::{eval::evaluate, runs::{Qrels, Run}};
    /// use std::collections::BTreeMap;
    /// let qrels = Qrels::from([("q1".to_string(), BTreeMap::from([("d1".to_string(), 1.0)]))]);
    /// let run = Run::from([("q1".to_string(), BTreeMap::from([("d1".to_string(), 0.9)]))]);
    /// let report = evaluate(&qrels, &run, &["ndcg@10"]).unwrap();
    /// assert_eq!(report.means, vec![("ndcg@10".to_string(), 1.0)]);
    /// ```
    ///
    /// The same call with the two swapped is refused by the compiler:
    ///
    /// ```compile_fail
    /// use calibrank::lab::{eval::evaluate, runs::{Qrels, Run}};
    /// use std::collections::BTreeMap;
    /// let qrels = Qrels::from([("q1".to_string(), BTreeMap::from([("d1".to_string(), 1.0)]))]);
    /// let run = Run::from([("q1".to_string(), BTreeMap::from([("d1".to_string(), 0.9)]))]);
    /// let report = evaluate(&run, &qrels, &["ndcg@10"]).unwrap();
    /// ```
    Qrels
}

/// Why a fractional grade is refused, for the messages of every way judgements enter.
pub(crate) const GRADES_ARE_WHOLE: &str =
    "relevance grades are whole numbers, as in trec_eval and ranx";

/// Checks one relevance grade: a finite number (`NON_FINITE_SCORE`, "must be a finite
/// number, got NaN") and a whole one of 64 bits (`INVALID_TYPE`, "must be a whole number
/// (...), got 0.5", or 1e+20), on `field` (`qrels.<qid>.<docid>` where the judgements
/// are an argument).
/// Negative grades and 0 are grades like any other (TREC qrels hold -1, "judged
/// non-relevant"); only grades at or above a metric's relevance level count as relevant.
///
/// Every way judgements enter applies it: [`crate::lab::eval::parse_qrels`] (whose
/// fractional grade is the same `INVALID_TYPE`, on `line N`),
/// [`crate::lab::eval::qrels_from_json`], the evaluations, [`crate::lab::optimize`] and
/// [`crate::lab::fit::fit_query_confidence`], and the lab module's judgements objects.
/// A grade between 0 and 1 was relevant to `fitQueryConfidence` (`> 0`) and not to
/// `evaluate` (`>= 1`, its default relevance level); whole grades leave no such gap.
pub fn check_grade(grade: f64, field: impl FnOnce() -> String) -> crate::error::Result<()> {
    if !grade.is_finite() {
        Err(crate::error::not_finite(
            crate::error::ErrorCode::NonFiniteScore,
            field(),
            grade,
        ))
    } else if grade.fract() != 0.0 {
        Err(fractional_grade(field(), grade, GRADES_ARE_WHOLE))
    } else if !(-I64_BOUND..=I64_BOUND).contains(&grade) {
        Err(fractional_grade(
            field(),
            grade,
            "of 64 bits, -9223372036854775808 to 9223372036854775807, as in a qrels file",
        ))
    } else {
        Ok(())
    }
}

/// 2^63: grades lie in the 64-bit integers, as a qrels file's relevance column is read
/// (`parse_qrels`); an object's grade of 1e20 was taken, then failed `ndcg_burges` as too
/// large, where the same grade in a file was refused when read. 2^63 itself is taken:
/// the file's largest grades (2^63 - 512 up to i64::MAX) are 2^63 as doubles.
const I64_BOUND: f64 = 9_223_372_036_854_775_808.0;

/// A grade that is not a whole number (or not one of 64 bits), `why` said in brackets:
/// `INVALID_TYPE` on `field`, the grade given.
#[cold]
#[inline(never)]
fn fractional_grade(field: String, grade: f64, why: &str) -> crate::error::ScoreError {
    crate::error::ScoreError::new(
        crate::error::ErrorCode::InvalidType,
        field,
        format!(
            "must be a whole number ({why}), got {}",
            crate::error::num(grade)
        ),
    )
}

impl Qrels {
    /// Checks every grade ([`check_grade`]); `field` is the judgements' path
    /// (`qrels`: errors on `qrels.<qid>.<docid>`; empty: on `<qid>.<docid>`), each id as
    /// [`crate::error::key_path`] writes it.
    pub fn check_grades(&self, field: &str) -> crate::error::Result<()> {
        for (qid, grades) in self {
            for (doc, &grade) in grades {
                check_grade(grade, || {
                    crate::error::key_path(&crate::error::key_path(field, qid), doc)
                })?;
            }
        }
        Ok(())
    }
}

/// A run whose documents keep an order: for each query id, the retrieved documents with
/// their scores, in the order the file (or JSON object, or ranx's sort) lists them.
pub type OrderedRun = BTreeMap<String, Vec<(String, f64)>>;

/// Reorders one query's documents as ranx's `sort_dict_by_value` does: numba's unstable
/// quicksort of the negated scores, over the current order.
pub fn ranx_sort_query(docs: &mut Vec<(String, f64)>) {
    let keys: Vec<f64> = docs.iter().map(|(_, s)| -*s).collect();
    let order = crate::lab::eval::ranx_argsort(&keys);
    let mut slots: Vec<Option<(String, f64)>> =
        std::mem::take(docs).into_iter().map(Some).collect();
    *docs = order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect();
}

/// Sorts every query of `run` as ranx's `Run.sort()` / `create_and_sort` does.
pub fn ranx_sort(run: &mut OrderedRun) {
    for docs in run.values_mut() {
        ranx_sort_query(docs);
    }
}

/// A [`Run`] as an [`OrderedRun`] ranked by score descending, then doc id ascending
/// (byte order), `0.0` and `-0.0` tied: calibrank's rule for a run that carries no
/// order of its own.
pub fn ranked_by_id(run: &Run) -> OrderedRun {
    run.iter()
        .map(|(q, docs)| (q.clone(), crate::lab::runfusion::ranked(docs)))
        .collect()
}

/// An [`OrderedRun`] as a [`Run`] (a later duplicate overwrites an earlier one), its
/// ids copied; [`into_run`] moves them.
pub fn to_run(run: &OrderedRun) -> Run {
    into_run(run.clone())
}

/// An [`OrderedRun`] as a [`Run`] (a later duplicate overwrites an earlier one).
pub fn into_run(run: OrderedRun) -> Run {
    run.into_iter()
        .map(|(qid, docs)| (qid, docs.into_iter().collect()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranx_sort_orders_by_score_and_keeps_small_ties_in_input_order() {
        let mut docs: Vec<(String, f64)> = [("z", 1.0), ("a", 1.0), ("m", 2.0)]
            .iter()
            .map(|(d, s)| (d.to_string(), *s))
            .collect();
        ranx_sort_query(&mut docs);
        let ids: Vec<&str> = docs.iter().map(|(d, _)| d.as_str()).collect();
        assert_eq!(ids, vec!["m", "z", "a"]);
    }
}
