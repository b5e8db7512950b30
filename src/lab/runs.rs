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

use std::collections::BTreeMap;

/// A run: for each query id, each retrieved document id with its score.
pub type Run = BTreeMap<String, BTreeMap<String, f64>>;

/// Relevance judgements: for each query id, each judged document id with its grade
/// (0 = not relevant; grades > 0 are relevant).
pub type Qrels = BTreeMap<String, BTreeMap<String, f64>>;

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
