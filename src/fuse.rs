//! Stage 1: weighted Reciprocal Rank Fusion of N ranked lists.
//!
//! `score(d) = sum_i w_i / (k + rank_i(d))`, ranks 1-based, summed over the lists that
//! contain `d` (Cormack, Clarke & Buettcher, 2009). Defaults: `k = 60`, every weight 1.
//!
//! * A duplicate id inside one list keeps its best (first) rank; later occurrences are
//!   ignored, still occupy their position, and are counted in [`FuseStats::duplicates`].
//! * Contributions are added in list order, so the same input gives bit-identical
//!   sums everywhere.
//! * **Ties** are broken by id, ascending (byte order of the UTF-8 string) in the string
//!   API, and by index, ascending, in the indexed (columnar) API.

use crate::error::{ErrorCode, Result, ScoreError};
use crate::intern::Interner;

/// Default RRF constant.
pub const DEFAULT_K: f64 = 60.0;

/// The contribution of one list to one item: `weight / (k + rank)`.
#[inline]
pub fn rrf_term(weight: f64, k: f64, rank: u32) -> f64 {
    weight / (k + f64::from(rank))
}

/// Validates the RRF constant: finite and >= 1 (`INVALID_K` on `field`, the option's own
/// name, which the message names too).
pub fn validate_k(k: f64, field: &str) -> Result<()> {
    if k.is_finite() && k >= 1.0 {
        Ok(())
    } else {
        Err(ScoreError::new(
            ErrorCode::InvalidK,
            field,
            // Named as the caller named it (`rrfK` in a query-confidence model): `field`
            // is the option's own name, a binding puts it under its path.
            format!(
                "{field} must be a finite number >= 1, got {}",
                crate::error::num(k)
            ),
        ))
    }
}

/// Validates one weight: finite and >= 0. (Every weight of the crate is checked here:
/// lists', runs', the query-confidence options' and models'.)
pub fn validate_weight(w: f64, field: impl FnOnce() -> String) -> Result<()> {
    if w.is_finite() && w >= 0.0 {
        Ok(())
    } else {
        Err(weight_error(w, field()))
    }
}

/// [`validate_weight`]'s error, out of line: one copy whatever the field's closure.
#[cold]
#[inline(never)]
fn weight_error(w: f64, field: String) -> ScoreError {
    ScoreError::new(
        ErrorCode::InvalidWeight,
        field,
        format!(
            "weight must be a finite number >= 0, got {}",
            crate::error::num(w)
        ),
    )
}

/// The lists' weights as [`rrf_indexed`] takes them: the given ones (which it checks,
/// after `k`, so that a call reports its faults in one order whatever its API), or 1.0
/// for each of `n` lists when none are given.
pub fn weights_or_ones(weights: Option<&[f64]>, n: usize) -> std::borrow::Cow<'_, [f64]> {
    match weights {
        Some(w) => std::borrow::Cow::Borrowed(w),
        None => std::borrow::Cow::Owned(vec![1.0; n]),
    }
}

/// Checks `n` lists' weights in place: one per list, each finite and >= 0.
pub fn check_weights(w: &[f64], n: usize, field: &str) -> Result<()> {
    if w.len() != n {
        return Err(ScoreError::new(
            ErrorCode::LengthMismatch,
            field,
            format!("weights: {}, lists: {n} (one weight per list)", w.len()),
        ));
    }
    for (i, &x) in w.iter().enumerate() {
        validate_weight(x, || format!("{field}[{i}]"))?;
    }
    Ok(())
}

/// Statistics of one fusion.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FuseStats {
    /// Distinct items over all lists.
    pub unique: usize,
    /// Ignored repeated occurrences, per list.
    pub duplicates: Vec<usize>,
    /// Items that appear in more than one list.
    pub in_several_lists: usize,
}

/// Result of the indexed fusion: a dense score per document index.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedFusion {
    /// Score of each document index (0.0 where absent).
    pub scores: Vec<f64>,
    /// How many lists each document index appears in.
    pub list_count: Vec<u32>,
    /// Fusion statistics.
    pub stats: FuseStats,
}

impl IndexedFusion {
    /// Indices of the documents present in at least one list, best first
    /// (score descending, index ascending on ties).
    pub fn order(&self) -> Vec<u32> {
        // Sorting (key, index) pairs compares integers held in place instead of looking
        // scores up at random (`rrfColumnar` in 0.72x the time at 3 x 100,000).
        let mut keyed: Vec<(u64, u32)> = (0u32..)
            .zip(self.list_count.iter().zip(&self.scores))
            .filter(|(_, (&c, _))| c > 0)
            .map(|(i, (_, &s))| (descending_key(s), i))
            .collect();
        crate::sort::sort_keyed(&mut keyed);
        keyed.into_iter().map(|(_, i)| i).collect()
    }
}

/// `n` copies of `value`, allocated fallibly: an allocation failure (in WebAssembly, a
/// request beyond the 4 GiB address space) is `INPUT_TOO_LARGE`, not an abort (found by
/// fuzzing `runColumnar` with `limits.maxTotalEntries` raised to `u32::MAX`).
pub(crate) fn filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>> {
    collected(std::iter::repeat_n(value, n))
}

/// A document's state during [`rrf_indexed`].
#[derive(Clone, Copy)]
struct Slot {
    score: f64,
    /// Lists that hold the document.
    count: u32,
    /// The last list it was met in (`u32::MAX`: none yet).
    last_list: u32,
}

/// The items of `it` in a vector allocated fallibly (see [`filled`]).
fn collected<T>(it: impl ExactSizeIterator<Item = T>) -> Result<Vec<T>> {
    let n = it.len();
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        ScoreError::new(
            ErrorCode::InputTooLarge,
            "nDocs",
            format!("cannot allocate the arrays for nDocs = {n} documents"),
        )
    })?;
    v.extend(it);
    Ok(v)
}

/// Weighted RRF over lists of document indices in `0..n_docs`.
///
/// This is the allocation-light core used by the columnar API and by the string API
/// after interning. Errors: `INVALID_K`, `INVALID_WEIGHT`, `LENGTH_MISMATCH`,
/// `NON_FINITE_SCORE` (field `weights_field`, what the caller calls the weights) when
/// weights near `f64::MAX` make a sum overflow (a bad weight is `weights_field[i]`), `INDEX_OUT_OF_RANGE` (field `lists[i][j]`), `INPUT_TOO_LARGE` (field `nDocs`) when
/// the per-document arrays cannot be allocated (a huge `n_docs` under raised limits).
pub fn rrf_indexed(
    lists: &[&[u32]],
    weights: &[f64],
    weights_field: &str,
    k: f64,
    n_docs: usize,
) -> Result<IndexedFusion> {
    validate_k(k, "k")?;
    check_weights(weights, lists.len(), weights_field)?;
    // One record per document, so that an entry of a list touches one cache line and one
    // page, not three (the documents of a list come in no order: at 3 x 1,000,000 entries
    // a fresh cache after a collection took `runColumnar` 2.4x the time of a warm one
    // with three arrays). Split into the two arrays of the result afterwards, in order.
    let mut slots = filled(
        n_docs,
        Slot {
            score: 0.0,
            count: 0,
            last_list: u32::MAX,
        },
    )?;
    let mut duplicates = vec![0usize; lists.len()];
    for ((li, list), (&w, dup)) in (0u32..)
        .zip(lists.iter())
        .zip(weights.iter().zip(duplicates.iter_mut()))
    {
        for (pos, &doc) in list.iter().enumerate() {
            let Some(slot) = slots.get_mut(doc as usize) else {
                return Err(ScoreError::new(
                    ErrorCode::IndexOutOfRange,
                    format!("lists[{li}][{pos}]"),
                    format!("document index {doc} is not below nDocs = {n_docs}"),
                ));
            };
            if slot.last_list == li {
                *dup += 1;
                continue;
            }
            slot.last_list = li;
            slot.count += 1;
            let rank = u32::try_from(pos + 1).unwrap_or(u32::MAX);
            slot.score += rrf_term(w, k, rank);
        }
    }
    let scores = collected(slots.iter().map(|s| s.score))?;
    let list_count = collected(slots.iter().map(|s| s.count))?;
    drop(slots);
    // A term is at most w / (k + 1), and rounding is monotonic: no sum can pass the sum
    // of those bounds (taken in list order, as each document's sum is). Only when that
    // bound overflows (weights near f64::MAX) are the scores looked over.
    let bound = weights.iter().fold(0.0, |sum, &w| sum + rrf_term(w, k, 1));
    if bound.is_infinite() && scores.iter().any(|s| s.is_infinite()) {
        return Err(ScoreError::new(
            ErrorCode::NonFiniteScore,
            weights_field,
            "a fused score overflows (Infinity); lower the weights",
        ));
    }
    let unique = list_count.iter().filter(|&&c| c > 0).count();
    let in_several_lists = list_count.iter().filter(|&&c| c > 1).count();
    Ok(IndexedFusion {
        scores,
        list_count,
        stats: FuseStats {
            unique,
            duplicates,
            in_several_lists,
        },
    })
}

/// One input list of the string API.
#[derive(Debug, Clone, Copy)]
pub struct RankedList<'a, S: AsRef<str>> {
    /// The ids, best first.
    pub ids: &'a [S],
    /// The list's weight (>= 0).
    pub weight: f64,
}

/// One fused item with the rank it had in each list (`None` where absent).
#[derive(Debug, Clone, PartialEq)]
pub struct FusedItem {
    /// The id.
    pub id: String,
    /// Its RRF score.
    pub score: f64,
    /// Its 1-based rank in each input list, `None` if absent.
    pub ranks: Vec<Option<u32>>,
}

/// Output of [`rrf`]: items best first, and statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct Fusion {
    /// Fused items, score descending, id ascending on ties.
    pub items: Vec<FusedItem>,
    /// Statistics.
    pub stats: FuseStats,
}

/// A `u64` whose ascending order is the descending order of `f64::total_cmp` (equal
/// keys exactly when the bits are equal), so that sorts compare plain integers.
#[inline]
#[doc(hidden)]
pub fn descending_key(x: f64) -> u64 {
    let bits = x.to_bits();
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    };
    !ascending
}

/// The byte order of the ids of document indices `a` and `b` (the tie-break of the
/// string API).
#[doc(hidden)]
pub fn by_id(ids: &[&str], a: u32, b: u32) -> std::cmp::Ordering {
    ids.get(a as usize).cmp(&ids.get(b as usize))
}

/// Every document index of `scores` (all present), best first: score descending, then
/// `id(d)` ascending in byte order (the order of [`Fusion::items`]). `id` is asked only
/// for documents whose scores tie.
pub fn order_by_score_then_id<'a>(scores: &[f64], id: impl Fn(u32) -> &'a str) -> Vec<u32> {
    let mut keyed = keyed(scores);
    crate::sort::sort_keyed_then(&mut keyed, &mut |a, b| id(a).cmp(id(b)));
    keyed.into_iter().map(|(_, d)| d).collect()
}

/// Each document index with its score's [`descending_key`], sorted by key then index:
/// the order of [`order_by_score_then_id`] but for runs of equal keys, which stay in
/// index order (the wasm `rrf` of ids whose bytes the module is not given; its caller
/// orders those runs).
#[doc(hidden)]
pub fn keyed_by_score(scores: &[f64]) -> Vec<crate::sort::Keyed> {
    let mut keyed = keyed(scores);
    crate::sort::sort_keyed(&mut keyed);
    keyed
}

fn keyed(scores: &[f64]) -> Vec<crate::sort::Keyed> {
    (0u32..)
        .zip(scores)
        .map(|(d, &s)| (descending_key(s), d))
        .collect()
}

/// The first half of [`rrf`]: the ids interned in order of first appearance, each list
/// as document indices, and their indexed fusion. The pipeline and the JS binding build
/// on it without materializing a [`FusedItem`] per candidate.
#[derive(Debug)]
#[doc(hidden)]
pub struct InternedFusion<'a> {
    /// The distinct ids; index = document index.
    pub interner: Interner<'a>,
    /// Each list as document indices.
    pub lists: Vec<Vec<u32>>,
    /// The fusion of those indices.
    pub fusion: IndexedFusion,
}

impl InternedFusion<'_> {
    /// Document indices, best first: score descending, id ascending (byte order) on ties,
    /// the order of [`Fusion::items`].
    pub fn order(&self) -> Vec<u32> {
        let ids = &self.interner.ids;
        order_by_score_then_id(&self.fusion.scores, |d| {
            ids.get(d as usize).copied().unwrap_or_default()
        })
    }

    /// The best (first) 1-based rank of each document in each list, `None` where absent:
    /// `n_docs * n_lists` entries, document-major.
    pub fn ranks(&self) -> Vec<Option<u32>> {
        let n_lists = self.lists.len();
        let mut ranks = vec![None; self.interner.ids.len() * n_lists];
        for (li, list) in self.lists.iter().enumerate() {
            for (pos, &d) in list.iter().enumerate() {
                if let Some(slot) = ranks.get_mut(d as usize * n_lists + li) {
                    if slot.is_none() {
                        *slot = Some(u32::try_from(pos + 1).unwrap_or(u32::MAX));
                    }
                }
            }
        }
        ranks
    }
}

/// Interns the ids of `lists` and fuses them (errors as [`rrf_indexed`]'s, the lists'
/// weights named `weights_field`).
#[doc(hidden)]
pub fn rrf_interned<'a, S: AsRef<str>>(
    lists: &[RankedList<'a, S>],
    k: f64,
    weights_field: &str,
) -> Result<InternedFusion<'a>> {
    let (interner, indexed) = Interner::of_lists(lists.iter().map(|l| l.ids));
    let slices: Vec<&[u32]> = indexed.iter().map(Vec::as_slice).collect();
    let weights: Vec<f64> = lists.iter().map(|l| l.weight).collect();
    let fusion = rrf_indexed(&slices, &weights, weights_field, k, interner.ids.len())?;
    Ok(InternedFusion {
        interner,
        lists: indexed,
        fusion,
    })
}

/// Weighted RRF over lists of string ids (see the module documentation).
pub fn rrf<S: AsRef<str>>(lists: &[RankedList<'_, S>], k: f64) -> Result<Fusion> {
    // A list's weight is its own field: checked here, where it is named so (after `k`,
    // as `rrf_indexed` checks them).
    validate_k(k, "k")?;
    for (i, l) in lists.iter().enumerate() {
        validate_weight(l.weight, || format!("lists[{i}].weight"))?;
    }
    // An overflowing sum is the lists' weights' doing.
    let f = rrf_interned(lists, k, "lists")?;
    let n_lists = lists.len();
    let ranks = f.ranks();
    let items: Vec<FusedItem> = f
        .order()
        .into_iter()
        .filter_map(|d| {
            let d = d as usize;
            Some(FusedItem {
                id: (*f.interner.ids.get(d)?).to_string(),
                score: *f.fusion.scores.get(d)?,
                ranks: ranks.get(d * n_lists..(d + 1) * n_lists)?.to_vec(),
            })
        })
        .collect();
    Ok(Fusion {
        items,
        stats: f.fusion.stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list<'a>(ids: &'a [&'a str], weight: f64) -> RankedList<'a, &'a str> {
        RankedList { ids, weight }
    }

    #[test]
    fn seed_000_example_rank_1_and_3() {
        // Rank 1 in semantic, rank 3 in keyword: 1/61 + 1/63. Seed 000's x1.2 recency
        // on top of it (0.038720, the seed's 0.0391) is the pipeline's:
        // tests/pipeline.rs, seed_000_sample_query_stage_by_stage.
        let f = rrf(
            &[list(&["a", "x", "y"], 1.0), list(&["p", "q", "a"], 1.0)],
            DEFAULT_K,
        )
        .unwrap();
        let a = f.items.iter().find(|i| i.id == "a").unwrap();
        assert_eq!(a.score, 1.0 / 61.0 + 1.0 / 63.0);
        assert_eq!(a.ranks, vec![Some(1), Some(3)]);
        assert_eq!(f.items.first().unwrap().id, "a");
    }

    #[test]
    fn seed_000_single_list_rank_10() {
        let ids: Vec<String> = (1..=10).map(|i| format!("d{i}")).collect();
        let f = rrf(
            &[RankedList {
                ids: &ids,
                weight: 1.0,
            }],
            60.0,
        )
        .unwrap();
        let d10 = f.items.iter().find(|i| i.id == "d10").unwrap();
        assert_eq!(d10.score, 1.0 / 70.0);
        assert!((d10.score - 0.0143).abs() < 5e-5);
    }

    #[test]
    fn weights_scale_contributions() {
        let f = rrf(&[list(&["a"], 2.0), list(&["a"], 0.5)], 60.0).unwrap();
        assert_eq!(f.items.first().unwrap().score, 2.0 / 61.0 + 0.5 / 61.0);
        let zero = rrf(&[list(&["a"], 0.0)], 60.0).unwrap();
        assert_eq!(zero.items.first().unwrap().score, 0.0);
    }

    #[test]
    fn duplicates_keep_best_rank_and_are_counted() {
        let f = rrf(&[list(&["a", "b", "a", "a"], 1.0), list(&["b"], 1.0)], 60.0).unwrap();
        assert_eq!(f.stats.duplicates, vec![2, 0]);
        assert_eq!(f.stats.unique, 2);
        assert_eq!(f.stats.in_several_lists, 1);
        let a = f.items.iter().find(|i| i.id == "a").unwrap();
        assert_eq!(a.score, 1.0 / 61.0);
        assert_eq!(a.ranks, vec![Some(1), None]);
    }

    #[test]
    fn ties_break_by_id_ascending() {
        let f = rrf(
            &[list(&["zeta", "m"], 1.0), list(&["alpha", "m2"], 1.0)],
            60.0,
        )
        .unwrap();
        let ids: Vec<&str> = f.items.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, vec!["alpha", "zeta", "m", "m2"]);
        let idx = rrf_indexed(&[&[5, 1], &[2, 0]], &[1.0, 1.0], "weights", 60.0, 6).unwrap();
        assert_eq!(idx.order(), vec![2, 5, 0, 1]);
    }

    #[test]
    fn invalid_inputs_are_typed_errors() {
        assert_eq!(
            rrf(&[list(&["a"], 1.0)], 0.5).unwrap_err().code,
            ErrorCode::InvalidK
        );
        assert_eq!(
            rrf(&[list(&["a"], 1.0)], f64::NAN).unwrap_err().code,
            ErrorCode::InvalidK
        );
        // A RankedList's weight is its own field: the error names it there.
        let e = rrf(&[list(&["a"], 1.0), list(&["a"], -1.0)], 60.0).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidWeight, "lists[1].weight")
        );
        let e = rrf(&[list(&["a"], f64::NAN)], 60.0).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidWeight, "lists[0].weight")
        );
        // rrf_indexed takes the weights as an argument of their own.
        let e = rrf_indexed(&[&[0], &[0]], &[1.0, -1.0], "weights", 60.0, 1).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidWeight, "weights[1]")
        );
        let e = rrf_indexed(&[&[0, 7]], &[1.0], "weights", 60.0, 3).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::IndexOutOfRange, "lists[0][1]")
        );
        let e = rrf_indexed(&[&[0]], &[1.0, 1.0], "weights", 60.0, 3).unwrap_err();
        assert_eq!(e.code, ErrorCode::LengthMismatch);
    }

    #[test]
    fn a_sum_that_overflows_is_non_finite_score_on_the_weights() {
        // Each term is w / (1 + 1) = 0.5e308: four of them pass f64::MAX (about 1.8e308).
        let lists: [&[u32]; 4] = [&[0], &[1, 0], &[0], &[0]];
        let e = rrf_indexed(&lists, &[1e308; 4], "weights", 1.0, 2).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "weights")
        );
        // Three do not (document 0 at ranks 1, 2 and 1).
        let f = rrf_indexed(&lists[..3], &[1e308; 3], "weights", 1.0, 2).unwrap();
        assert_eq!(
            f.scores,
            vec![1e308 / 2.0 + 1e308 / 3.0 + 1e308 / 2.0, 1e308 / 2.0]
        );
        // The string API names the lists, whose weights they are.
        let e = rrf(
            &[
                list(&["a"], 1e308),
                list(&["a"], 1e308),
                list(&["a"], 1e308),
                list(&["a"], 1e308),
            ],
            1.0,
        )
        .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "lists")
        );
    }

    #[test]
    fn empty_lists_fuse_to_nothing() {
        let f = rrf::<&str>(&[], 60.0).unwrap();
        assert!(f.items.is_empty());
        let f = rrf(&[list(&[], 1.0)], 60.0).unwrap();
        assert!(f.items.is_empty());
    }
}
