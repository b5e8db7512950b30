//! One small stable sort for the whole crate.
//!
//! The standard library's sorts are fast but large: each call site with its own
//! comparator instantiates 10 to 25 KB of WebAssembly (driftsort or ipnsort with their
//! small-sort networks), which made sorting a sixth of the core module and a third of
//! the lab module (`bench/wasm-breakdown.py`). Everything sorts with this merge sort
//! instead: stable, O(n log n), a few hundred bytes per comparator. The two hot paths
//! (the fusion's order of every candidate, the pipeline's topK selection) sort
//! (key, index) pairs ([`sort_keyed`]): by radix from [`RADIX_MIN`] pairs, with this
//! merge sort below it and within runs of equal upper key halves. (They used the
//! standard library's `sort_unstable` there until the twenty-eighth session: 1.9 KB of
//! the core module gzipped, for 6-8% of the columnar (b) call at N = 1,000 and no
//! difference elsewhere: docs/performance-history.md, "Messages without std's formatting
//! tables".)
//! Stability makes it a drop-in replacement for `sort_by`, and for `sort_unstable_by`
//! wherever the comparator is a total order (every call site's is: ties are broken by id
//! or index), so results are the same element for element.

use std::cmp::Ordering;

/// Runs shorter than this are sorted by insertion first.
const RUN: usize = 12;

/// [`sort_keyed`] sorts up to this many pairs by insertion alone: no scratch copy to
/// allocate and merge through (the 15 fused ids of the benchmark's `rrf` call at N = 10,
/// 43 inversions among them, spent more in the merge passes than in the fusion;
/// docs/performance-history.md, "Small `rrf` calls without their strings"). Only there: in
/// [`sort_by`] it made every comparator's copy larger (the lab's module by 727 B
/// gzipped).
const INSERTION_ONLY: usize = 32;

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

/// Sorts `v` stably by `cmp`: insertion sort on runs of `RUN`, then bottom-up merges
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

/// A sort key and an index: the one element type the hot paths sort (by radix, and
/// with [`sort_by`] in its natural order; the partial selection is `select_smallest`). The key is usually [`crate::fuse::descending_key`] of a
/// score; the index identifies the item and breaks ties.
pub type Keyed = (u64, u32);

/// Sorts `v` by key, then index (the pairs are distinct, so the order is total): by
/// insertion up to 32 pairs, the crate's merge sort below [`RADIX_MIN`],
/// a radix sort from there.
pub fn sort_keyed(v: &mut [Keyed]) {
    if v.len() <= INSERTION_ONLY {
        insertion_sort(v, &mut Keyed::cmp);
    } else if v.len() < RADIX_MIN {
        sort_by(v, Keyed::cmp);
    } else {
        radix_sort_keyed(v);
    }
}

/// From this many pairs on, [`sort_keyed`] sorts by radix (below it the comparison sort
/// is as fast and needs no second buffer).
pub const RADIX_MIN: usize = 256;

/// Radix sort of (key, index) pairs by the upper 32 bits of the key, then the merge
/// sort within each run of equal upper halves (for scores' keys, runs of one or two):
/// a least-significant-digit pass per byte of the upper half (a byte equal in every pair
/// is skipped; the four histograms are counted in one first pass), moving the pairs
/// between `v` and a buffer of the same length.
fn radix_sort_keyed(v: &mut [Keyed]) {
    let n = v.len();
    let mut counts = [[0u32; 256]; 4];
    for &(key, _) in v.iter() {
        let hi = key >> 32;
        for (b, c) in counts.iter_mut().enumerate() {
            if let Some(x) = c.get_mut(((hi >> (8 * b)) & 0xff) as usize) {
                *x += 1;
            }
        }
    }
    let mut buf: Vec<Keyed> = Vec::new();
    let mut in_buf = false;
    for (b, c) in counts.iter().enumerate() {
        if c.iter().any(|&x| x as usize == n) {
            continue;
        }
        if buf.is_empty() {
            buf = vec![(0, 0); n];
        }
        let mut at = [0u32; 256];
        let mut sum = 0u32;
        for (a, &x) in at.iter_mut().zip(c.iter()) {
            *a = sum;
            sum += x;
        }
        let shift = 32 + 8 * b;
        let (src, dst): (&[Keyed], &mut [Keyed]) = if in_buf { (&buf, v) } else { (v, &mut buf) };
        for &e in src {
            if let Some(a) = at.get_mut(((e.0 >> shift) & 0xff) as usize) {
                if let Some(slot) = dst.get_mut(*a as usize) {
                    *slot = e;
                }
                *a += 1;
            }
        }
        in_buf = !in_buf;
    }
    if in_buf {
        v.copy_from_slice(&buf);
    }
    for run in v.chunk_by_mut(|a, b| a.0 >> 32 == b.0 >> 32) {
        if run.len() > 1 {
            sort_by(run, Keyed::cmp);
        }
    }
}

/// Keeps the `k` smallest pairs of `v` (by key, then index), in no particular order, when
/// `v` has more than `k > 0`; otherwise leaves `v` as it is.
pub fn select_keyed(v: &mut Vec<Keyed>, k: usize) {
    if v.len() > k && k > 0 {
        select_smallest(v, k);
        v.truncate(k);
    }
}

/// Moves the `k` smallest pairs of `v` to its front, in no particular order (`k` <
/// `v.len()`): quickselect with a median-of-three pivot and a branchless partition,
/// ending in [`sort_keyed`] on a short range, or on the whole remaining range after
/// `2 log2(n)` rounds (so O(n log n) at worst). Smaller than the standard library's
/// `select_nth_unstable` (introselect with median of medians), as fast on scores.
fn select_smallest(v: &mut Vec<Keyed>, k: usize) {
    prefilter(v, k);
    select_in_place(v, k);
}

/// Drops most pairs that cannot be among the `k` smallest when `k` is small next to
/// `v.len()`: the keys of a pseudo-random sample give a key above which fewer than `k`
/// pairs lie only with a tiny probability; the pairs with a larger key are counted, then
/// removed (only if at least `k` pairs remain; pairs with an equal key all stay).
fn prefilter(v: &mut Vec<Keyed>, k: usize) {
    const SAMPLE: usize = 64;
    let n = v.len();
    if n < 512 || k.saturating_mul(8) > n {
        return;
    }
    let mut x = 0x2545_f491u32;
    let mut sample: [Keyed; SAMPLE] = [(0, 0); SAMPLE];
    for s in sample.iter_mut() {
        *s = (v.get(below(&mut x, n)).map_or(u64::MAX, |e| e.0), 0);
    }
    sort_keyed(&mut sample);
    // The expected sample rank of the k-th smallest, plus a wide margin.
    let j = (k * SAMPLE / n + 8).min(SAMPLE - 1);
    let Some(&(bound, _)) = sample.get(j) else {
        return;
    };
    if v.iter().filter(|e| e.0 <= bound).count() >= k {
        v.retain(|e| e.0 <= bound);
    }
}

fn select_in_place(v: &mut [Keyed], k: usize) {
    // The boundary between the `k` smallest and the rest lies in `lo..hi`.
    let (mut lo, mut hi) = (0, v.len());
    let mut rounds = 2 * (usize::BITS - v.len().leading_zeros());
    // Pivot samples at pseudo-random positions (xorshift32, fixed seed): the pairs often
    // come in index order, which is partly score order (ids interned list by list), and
    // fixed positions then made poor pivots.
    let mut x = 0x9e37_79b9u32;
    while hi - lo > 24 && rounds > 0 {
        rounds -= 1;
        let Some(range) = v.get_mut(lo..hi) else {
            return;
        };
        let n = range.len();
        let samples = (below(&mut x, n), below(&mut x, n), below(&mut x, n));
        let p = lo + partition(range, samples);
        // `v[lo..p]` < `v[p]` < `v[p + 1..hi]`: the pairs are distinct.
        match p.cmp(&k) {
            Ordering::Less => lo = p + 1,
            Ordering::Greater => hi = p,
            Ordering::Equal => return,
        }
    }
    if let Some(range) = v.get_mut(lo..hi) {
        sort_keyed(range);
    }
}

/// A pseudo-random position in `0..n` from the xorshift32 state `x` (advanced).
fn below(x: &mut u32, n: usize) -> usize {
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    ((u64::from(*x) * n as u64) >> 32) as usize
}

/// Partitions `v` around the median of its pairs at positions `a`, `b`, `c`; returns
/// the pivot's final position.
fn partition(v: &mut [Keyed], (a, b, c): (usize, usize, usize)) -> usize {
    let at = |i: usize| v.get(i).copied().unwrap_or_default();
    let (x, y, z) = (at(a), at(b), at(c));
    let m = if (x < y) == (y < z) {
        b
    } else if (y < x) == (x < z) {
        a
    } else {
        c
    };
    v.swap(0, m);
    let Some((&mut pivot, rest)) = v.split_first_mut() else {
        return 0;
    };
    // Branchless Lomuto: `rest[..store]` < pivot <= `rest[store..i]`.
    let mut store = 0;
    for i in 0..rest.len() {
        let less = rest.get(i).is_some_and(|x| *x < pivot);
        rest.swap(store, i);
        store += usize::from(less);
    }
    v.swap(0, store);
    store
}

/// Sorts `v` by key, then by `tie` between the indices of equal keys, then by index:
/// the order of a stable sort by (key, `tie`) of pairs listed by index. `tie` is only
/// called within runs of equal keys.
pub fn sort_keyed_then(v: &mut [Keyed], tie: &mut dyn FnMut(u32, u32) -> Ordering) {
    sort_keyed(v);
    for run in v.chunk_by_mut(|a, b| a.0 == b.0) {
        // The run is in index order: a stable sort by `tie` keeps it on ties.
        if let [a, b] = run {
            if tie(b.1, a.1) == Ordering::Less {
                std::mem::swap(a, b);
            }
        } else if run.len() > 2 {
            sort_by(run, |a, b| tie(a.1, b.1));
        }
    }
}

/// [`select_keyed`] then [`sort_keyed_then`]: the first `k` (when `v` has more than
/// `k > 0`) of the order of [`sort_keyed_then`], in that order. The pairs whose key
/// equals the `k`-th smallest key all take part in the sort, so that `tie` decides which
/// of them are kept.
pub fn top_keyed_then(v: &mut Vec<Keyed>, k: usize, tie: &mut dyn FnMut(u32, u32) -> Ordering) {
    let select = v.len() > k && k > 0;
    if select {
        select_smallest(v, k);
        let kth = v.iter().take(k).map(|e| e.0).max().unwrap_or(0);
        let mut end = k;
        for i in k..v.len() {
            if v.get(i).is_some_and(|e| e.0 == kth) {
                v.swap(end, i);
                end += 1;
            }
        }
        v.truncate(end);
    }
    sort_keyed_then(v, tie);
    if select {
        v.truncate(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_stable_sort() {
        let mut x = 0x2545_f491u32;
        for n in [
            0usize, 1, 2, 11, 12, 13, 24, 25, 32, 33, 34, 100, 1000, 4097,
        ] {
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
    /// The radix path (from `RADIX_MIN` pairs) gives the standard sort's order for keys
    /// spread over the whole range, keys sharing upper halves, one key, the keys of
    /// scores, and indices in order, reversed or shuffled.
    #[test]
    fn radix_sort_orders_as_the_standard_sort() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in [RADIX_MIN - 1, RADIX_MIN, RADIX_MIN + 1, 1000, 5000, 20_000] {
            for kind in 0..5 {
                let mut v: Vec<Keyed> = (0u32..)
                    .take(n)
                    .map(|i| {
                        let r = next();
                        let key = match kind {
                            0 => r,
                            1 => ((r % 7) << 32) | (r >> 40),
                            2 => 42,
                            3 => crate::fuse::descending_key(1.0 / (60.0 + (r % 5000) as f64)),
                            _ => (r % 3) << 56 | (r & 0xffff_ffff),
                        };
                        (key, i)
                    })
                    .collect();
                for order in 0..3 {
                    match order {
                        1 => v.reverse(),
                        2 => {
                            for i in (1..v.len()).rev() {
                                v.swap(i, next() as usize % (i + 1));
                            }
                        }
                        _ => {}
                    }
                    let mut want = v.clone();
                    want.sort_unstable();
                    let mut got = v.clone();
                    sort_keyed(&mut got);
                    assert_eq!(got, want, "n = {n}, keys {kind}, order {order}");
                }
            }
        }
    }

    #[test]
    fn keyed_orders_match_a_stable_sort_by_key_then_tie() {
        let mut x = 0x1234_5678u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for n in [
            0usize, 1, 2, 3, 5, 12, 13, 25, 26, 32, 33, 40, 100, 1000, 5000,
        ] {
            for distinct in [1u32, 2, 5, 1000] {
                // Ids with repeats, keys with many ties.
                let ids: Vec<String> = (0..n).map(|_| format!("d{}", next() % 7)).collect();
                let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
                let v: Vec<Keyed> = (0u32..)
                    .take(n)
                    .map(|i| (u64::from(next() % distinct), i))
                    .collect();
                let tie = |a: u32, b: u32| ids[a as usize].cmp(ids[b as usize]);
                let mut want = v.clone();
                want.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| tie(a.1, b.1)));
                let mut got = v.clone();
                sort_keyed_then(&mut got, &mut |a, b| tie(a, b));
                assert_eq!(got, want, "n = {n}, distinct = {distinct}");
                for k in [
                    0usize,
                    1,
                    2,
                    3,
                    10,
                    30,
                    n / 2,
                    n.saturating_sub(1),
                    n,
                    n + 1,
                ] {
                    let mut top = v.clone();
                    top_keyed_then(&mut top, k, &mut |a, b| tie(a, b));
                    let mut want_k = want.clone();
                    if n > k && k > 0 {
                        want_k.truncate(k);
                    }
                    assert_eq!(top, want_k, "n = {n}, distinct = {distinct}, k = {k}");
                    let mut sel = v.clone();
                    select_keyed(&mut sel, k);
                    sort_keyed(&mut sel);
                    let mut plain = v.clone();
                    plain.sort();
                    if n > k && k > 0 {
                        plain.truncate(k);
                    }
                    assert_eq!(sel, plain);
                }
            }
        }
    }
}
