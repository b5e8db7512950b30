//! One small stable sort for the whole crate.
//!
//! The standard library's sorts are fast but large: each call site with its own
//! comparator instantiates 10 to 25 KB of WebAssembly (driftsort or ipnsort with their
//! small-sort networks), which made sorting a sixth of the core module and a third of
//! the lab module (`bench/wasm-breakdown.py`). Everything except the two hot paths
//! (the fusion's order of every candidate, the pipeline's topK selection) sorts with
//! this merge sort instead: stable, O(n log n), a few hundred bytes per comparator.
//! Stability makes it a drop-in replacement for `sort_by`, and for `sort_unstable_by`
//! wherever the comparator is a total order (every call site's is: ties are broken by id
//! or index), so results are the same element for element.

use std::cmp::Ordering;

/// Runs shorter than this are sorted by insertion first.
const RUN: usize = 12;

/// Sorting with [`sort_by`] as a method.
pub trait StableSort<T> {
    /// Sorts stably by `cmp`.
    fn stable_sort_by<F: FnMut(&T, &T) -> Ordering>(&mut self, cmp: F);
}

impl<T: Clone> StableSort<T> for [T] {
    fn stable_sort_by<F: FnMut(&T, &T) -> Ordering>(&mut self, cmp: F) {
        sort_by(self, cmp);
    }
}

/// Sorts `v` stably by `cmp`: insertion sort on runs of [`RUN`], then bottom-up merges
/// through one scratch copy.
pub fn sort_by<T: Clone, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], mut cmp: F) {
    let n = v.len();
    if n < 2 {
        return;
    }
    for run in v.chunks_mut(RUN) {
        insertion_sort(run, &mut cmp);
    }
    if n <= RUN {
        return;
    }
    let mut scratch: Vec<T> = v.to_vec();
    let mut width = RUN;
    // Whether the sorted runs are in `v` (else in `scratch`).
    let mut in_v = true;
    while width < n {
        if in_v {
            merge_pass(v, &mut scratch, width, &mut cmp);
        } else {
            merge_pass(&scratch, v, width, &mut cmp);
        }
        in_v = !in_v;
        width = width.saturating_mul(2);
    }
    if !in_v {
        v.clone_from_slice(&scratch);
    }
}

fn insertion_sort<T, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], cmp: &mut F) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 {
            let (Some(a), Some(b)) = (v.get(j - 1), v.get(j)) else {
                break;
            };
            if cmp(b, a) != Ordering::Less {
                break;
            }
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Merges each pair of adjacent sorted runs of `width` from `src` into `dst`.
fn merge_pass<T: Clone, F: FnMut(&T, &T) -> Ordering>(
    src: &[T],
    dst: &mut [T],
    width: usize,
    cmp: &mut F,
) {
    let pair = width.saturating_mul(2);
    for (s, d) in src.chunks(pair).zip(dst.chunks_mut(pair)) {
        let (a, b) = s.split_at(width.min(s.len()));
        let mut a = a.iter().peekable();
        let mut b = b.iter().peekable();
        for slot in d.iter_mut() {
            // Stable: the left run's element first unless the right one is smaller.
            let from_b = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => cmp(y, x) == Ordering::Less,
                (None, Some(_)) => true,
                _ => false,
            };
            let next = if from_b { b.next() } else { a.next() };
            if let Some(x) = next {
                slot.clone_from(x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_stable_sort() {
        let mut x = 0x2545_f491u32;
        for n in [0usize, 1, 2, 11, 12, 13, 24, 25, 100, 1000, 4097] {
            let v: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    (x % 17, i)
                })
                .collect();
            let mut ours = v.clone();
            let mut std = v.clone();
            // Equal keys keep their order: the second field records it.
            ours.stable_sort_by(|a, b| a.0.cmp(&b.0));
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "n = {n}");
            let mut desc = v.clone();
            sort_by(&mut desc, |a, b| b.cmp(a));
            let mut want = v;
            want.sort_by(|a, b| b.cmp(a));
            assert_eq!(desc, want);
        }
    }
}
