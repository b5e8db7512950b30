//! The order in which ranx ranks the documents of one query.
//!
//! ranx sorts every query's documents by descending score with numba's `np.argsort`,
//! whose default kind is an *unstable* quicksort: median-of-three pivot, Hoare-style
//! partition, insertion sort below 16 elements, larger half pushed on a stack. Tied
//! documents therefore come out in an order that depends on the algorithm and on the
//! order the documents were inserted, and that order changes metric values (on the
//! CISI `bm25_title` run, nDCG@10 moves by 0.002 between tie orders).
//!
//! [`ranx_argsort`] is a line-by-line port of that quicksort
//! (`numba/misc/quicksort.py`, `make_quicksort_impl` with `is_argsort=True`), so that
//! calibrank reproduces ranx's ranking, ties included, for the same input order.

/// Below this partition size numba switches to insertion sort.
const SMALL_QUICKSORT: isize = 15;

/// An index permutation being sorted by `keys[index]` ascending.
struct Permutation<'a> {
    keys: &'a [f64],
    order: Vec<usize>,
}

impl Permutation<'_> {
    /// The key of the element currently at position `pos`.
    fn key(&self, pos: isize) -> f64 {
        usize::try_from(pos)
            .ok()
            .and_then(|p| self.order.get(p))
            .and_then(|&i| self.keys.get(i))
            .copied()
            .unwrap_or(0.0)
    }

    /// The element index currently at position `pos`.
    fn at(&self, pos: isize) -> usize {
        usize::try_from(pos)
            .ok()
            .and_then(|p| self.order.get(p))
            .copied()
            .unwrap_or(0)
    }

    /// Stores element index `value` at position `pos`.
    fn set(&mut self, pos: isize, value: usize) {
        if let Some(slot) = usize::try_from(pos)
            .ok()
            .and_then(|p| self.order.get_mut(p))
        {
            *slot = value;
        }
    }

    /// Swaps the elements at positions `a` and `b`.
    fn swap(&mut self, a: isize, b: isize) {
        let (x, y) = (self.at(a), self.at(b));
        self.set(a, y);
        self.set(b, x);
    }

    /// Insertion sort of positions `low..=high` (numba's `insertion_sort`).
    fn insertion_sort(&mut self, low: isize, high: isize) {
        for i in (low + 1)..=high {
            let k = self.at(i);
            let v = self.key(i);
            let mut j = i;
            while j > low && v < self.key(j - 1) {
                let moved = self.at(j - 1);
                self.set(j, moved);
                j -= 1;
            }
            self.set(j, k);
        }
    }

    /// Partitions positions `low..=high` around a median-of-three pivot and returns the
    /// pivot's final position (numba's `partition`).
    fn partition(&mut self, low: isize, high: isize) -> isize {
        let mid = (low + high) >> 1;
        if self.key(mid) < self.key(low) {
            self.swap(low, mid);
        }
        if self.key(high) < self.key(mid) {
            self.swap(high, mid);
        }
        if self.key(mid) < self.key(low) {
            self.swap(low, mid);
        }
        let pivot = self.key(mid);
        self.swap(high, mid);
        let (mut i, mut j) = (low, high - 1);
        loop {
            while i < high && self.key(i) < pivot {
                i += 1;
            }
            while j >= low && pivot < self.key(j) {
                j -= 1;
            }
            if i >= j {
                break;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
        self.swap(i, high);
        i
    }
}

/// The indices that sort `keys` ascending, exactly as numba's default `np.argsort`
/// (quicksort) returns them, ties included. Keys must not be NaN.
///
/// With no two keys equal (`==`: `-0.0` and `0.0` are a tie) there is one ascending order,
/// which any sort finds: the crate's [`crate::sort::sort_keyed`], O(n log n) on every
/// input. numba's quicksort has no fallback for bad pivots and takes about n² / 4
/// comparisons on some orders that runs have (scores in descending order but for a last
/// document scoring highest: `node bench/run-sort-pattern.mjs`). Its port runs only when
/// keys tie, where the order of the tied documents is its own.
pub(crate) fn ranx_argsort(keys: &[f64]) -> Vec<usize> {
    // The crate's sort of (key, index) pairs (`descending_key` of the negated key: the
    // keys' ascending `total_cmp` order), which the module already holds.
    let pairs: Option<Vec<crate::sort::Keyed>> = keys
        .iter()
        .enumerate()
        .map(|(i, &k)| Some((crate::fuse::descending_key(-k), u32::try_from(i).ok()?)))
        .collect();
    if let Some(mut pairs) = pairs {
        crate::sort::sort_keyed(&mut pairs);
        let at = |p: Option<&crate::sort::Keyed>| p.and_then(|&(_, i)| keys.get(i as usize));
        if (1..pairs.len()).all(|j| at(pairs.get(j - 1)) != at(pairs.get(j))) {
            return pairs.into_iter().map(|(_, i)| i as usize).collect();
        }
    }
    numba_argsort(keys)
}

/// numba's quicksort itself (the line-by-line port), for keys that tie.
fn numba_argsort(keys: &[f64]) -> Vec<usize> {
    let mut perm = Permutation {
        keys,
        order: (0..keys.len()).collect(),
    };
    let Ok(len) = isize::try_from(keys.len()) else {
        return perm.order;
    };
    if len < 2 {
        return perm.order;
    }
    let mut stack: Vec<(isize, isize)> = vec![(0, len - 1)];
    while let Some((mut low, mut high)) = stack.pop() {
        while high - low >= SMALL_QUICKSORT {
            let i = perm.partition(low, high);
            if high - i > i - low {
                if high > i {
                    stack.push((i + 1, high));
                }
                high = i - 1;
            } else {
                if i > low {
                    stack.push((low, i - 1));
                }
                low = i + 1;
            }
        }
        perm.insertion_sort(low, high);
    }
    perm.order
}

/// The document ids of one query in ranx's ranking order: descending score, ties as
/// ranx's quicksort leaves them for documents given in this input order.
pub(crate) fn rank_documents<'a>(docs: &[(&'a str, f64)]) -> Vec<&'a str> {
    let keys: Vec<f64> = docs.iter().map(|&(_, score)| -score).collect();
    ranx_argsort(&keys)
        .into_iter()
        .filter_map(|i| docs.get(i).map(|&(id, _)| id))
        .collect()
}

/// The document ids of one query in trec_eval's order: score descending, then document
/// id descending (byte order, as `strcmp`), whatever the input order
/// (`comp_sim_docno` in trec_eval's `form_res_rels.c`).
pub(crate) fn trec_eval_order<'a>(docs: &[(&'a str, f64)]) -> Vec<&'a str> {
    use crate::sort::StableSort;
    let mut v: Vec<(&'a str, f64)> = docs.to_vec();
    v.stable_sort_by(|a, b| {
        b.1.partial_cmp(&a.1)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| b.0.cmp(a.0))
    });
    v.into_iter().map(|(id, _)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy as _;

    fn is_sorted_permutation(keys: &[f64], order: &[usize]) -> bool {
        let mut seen = order.to_vec();
        seen.sort_unstable();
        seen == (0..keys.len()).collect::<Vec<_>>()
            && order.windows(2).all(|w| keys[w[0]] <= keys[w[1]])
    }

    #[test]
    fn sorts_small_and_large_inputs() {
        for n in [0usize, 1, 2, 5, 15, 16, 17, 40, 100, 257] {
            // A deterministic pseudo-random sequence with many ties.
            let keys: Vec<f64> = (0..n).map(|i| ((i * 7919 + 13) % 11) as f64).collect();
            let order = ranx_argsort(&keys);
            assert!(is_sorted_permutation(&keys, &order), "n = {n}");
        }
    }

    #[test]
    fn small_inputs_keep_ties_in_input_order() {
        // Insertion sort (under 16 elements) is stable.
        let keys = [2.0, 1.0, 2.0, 1.0, 0.0];
        assert_eq!(ranx_argsort(&keys), vec![4, 1, 3, 0, 2]);
    }

    #[test]
    fn large_inputs_reorder_ties_like_numba() {
        // Expected orders printed by numba 0.68 (`@njit def f(a): return np.argsort(a)`).
        let equal = [0.0; 20];
        assert_eq!(
            ranx_argsort(&equal),
            vec![18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 19]
        );
        let mixed: Vec<f64> = (0..40).map(|i| ((i * 7919 + 13) % 11) as f64).collect();
        assert_eq!(
            ranx_argsort(&mixed),
            vec![
                2, 35, 13, 24, 1, 34, 23, 12, 0, 33, 22, 11, 32, 21, 10, 9, 31, 20, 30, 19, 8, 7,
                29, 18, 6, 17, 28, 39, 38, 5, 16, 27, 15, 26, 4, 37, 25, 3, 36, 14
            ]
        );
    }

    proptest::proptest! {
        /// The crate's sort's order where no keys tie is numba's, and keys that tie
        /// (drawn from few values, `-0.0` and `0.0` among them) take numba's order.
        #[test]
        fn the_fast_path_gives_numbas_order(
            keys in proptest::collection::vec(
                proptest::prop_oneof![
                    (-1e6f64..1e6).boxed(),
                    proptest::sample::select(vec![-0.0, 0.0, 1.0, -2.5]).boxed(),
                ],
                0..300,
            ),
            distinct in proptest::bool::ANY,
        ) {
            let keys: Vec<f64> = if distinct {
                keys.iter().enumerate().map(|(i, k)| k + i as f64 * 1e7).collect()
            } else {
                keys
            };
            proptest::prop_assert_eq!(ranx_argsort(&keys), numba_argsort(&keys));
        }
    }

    #[test]
    fn descending_scores_with_the_highest_last() {
        // The order that made numba's quicksort quadratic: here the crate's sort, the
        // same order as the port's.
        let mut keys: Vec<f64> = (0..2_000).map(|i| i as f64).collect();
        keys.push(-1.0);
        let order = ranx_argsort(&keys);
        assert_eq!(order, numba_argsort(&keys));
        assert_eq!(order.first(), Some(&2_000));
    }

    #[test]
    fn ranks_by_descending_score() {
        let docs = [("a", 0.5), ("b", 2.0), ("c", 1.0)];
        assert_eq!(rank_documents(&docs), vec!["b", "c", "a"]);
    }
}
