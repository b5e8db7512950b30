//! A port of CPython 3.11's `list.sort` (timsort with the powersort merge policy),
//! comparison for comparison.
//!
//! CondorcetFuse sorts candidates with a pairwise-majority comparator that need not be
//! transitive, nor even antisymmetric: then the result depends on exactly which pairs the
//! sort algorithm compares, in which order. ranx sorts with Python's `sorted`, so this
//! module replays CPython's algorithm (`Objects/listobject.c`: `count_run`, `binarysort`,
//! `gallop_left`, `gallop_right`, `merge_lo`, `merge_hi`, `merge_at`, `powerloop`,
//! `merge_force_collapse`, `merge_compute_minrun`) over element ids, asking only
//! `less(x, y)`, the question CPython asks through `<`. CPython 3.13 changed how
//! `count_run` detects descending runs; this port follows 3.11 and 3.12.
//!
//! Unlike Rust's own sorts it never panics on an inconsistent comparator. Every index
//! is checked; a broken invariant (a bug here) surfaces as `None`.

/// When a merge gets into galloping mode (CPython's `MIN_GALLOP`).
const MIN_GALLOP: usize = 7;

/// Sorts `items` in place as CPython's `list.sort` would with `x < y` answered by
/// `less(x, y)`. Returns `None` only if an internal invariant breaks.
pub(crate) fn sort_by_less<F: FnMut(usize, usize) -> bool>(
    items: &mut Vec<usize>,
    less: F,
) -> Option<()> {
    let n = items.len();
    if n < 2 {
        return Some(());
    }
    let mut ms = MergeState {
        keys: std::mem::take(items),
        less,
        min_gallop: MIN_GALLOP,
        pending: Vec::new(),
        listlen: n,
    };
    let outcome = ms.sort();
    *items = ms.keys;
    outcome
}

/// One run waiting to be merged: `keys[base..base + len]`.
#[derive(Debug, Clone, Copy)]
struct Pending {
    base: usize,
    len: usize,
    /// Powersort's node level of the boundary between this run and the next.
    power: u32,
}

struct MergeState<F> {
    keys: Vec<usize>,
    less: F,
    min_gallop: usize,
    pending: Vec<Pending>,
    listlen: usize,
}

fn get(v: &[usize], i: usize) -> Option<usize> {
    v.get(i).copied()
}

fn set(v: &mut [usize], i: usize, x: usize) -> Option<()> {
    *v.get_mut(i)? = x;
    Some(())
}

/// `dst[d..d + n] = src[s..s + n]` for two different arrays.
fn copy(dst: &mut [usize], d: usize, src: &[usize], s: usize, n: usize) -> Option<()> {
    let from = src.get(s..s.checked_add(n)?)?;
    dst.get_mut(d..d.checked_add(n)?)?.copy_from_slice(from);
    Some(())
}

/// `v[d..d + n] = v[s..s + n]` within one array (memmove).
fn shift(v: &mut [usize], d: usize, s: usize, n: usize) -> Option<()> {
    let end = s.checked_add(n)?.max(d.checked_add(n)?);
    if end > v.len() {
        return None;
    }
    v.copy_within(s..s + n, d);
    Some(())
}

/// The position where `key` belongs in the sorted `a`, left of any equal elements:
/// `a[k-1] < key <= a[k]`. `hint` (`< a.len()`) is where the search starts.
fn gallop_left<F: FnMut(usize, usize) -> bool>(
    less: &mut F,
    key: usize,
    a: &[usize],
    hint: usize,
) -> Option<usize> {
    let n = a.len();
    let (mut lastofs, mut ofs): (usize, usize) = (0, 1);
    // Offsets are kept shifted by +1 (so that hint - ofs may be -1) in `lo`.
    let (mut lo, mut hi);
    if less(get(a, hint)?, key) {
        let maxofs = n - hint;
        while ofs < maxofs {
            if less(get(a, hint + ofs)?, key) {
                lastofs = ofs;
                ofs = (ofs << 1) + 1;
            } else {
                break;
            }
        }
        ofs = ofs.min(maxofs);
        lo = lastofs + hint + 1;
        hi = ofs + hint;
    } else {
        let maxofs = hint + 1;
        while ofs < maxofs {
            if less(get(a, hint - ofs)?, key) {
                break;
            }
            lastofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(maxofs);
        lo = hint + 1 - ofs;
        hi = hint - lastofs;
    }
    while lo < hi {
        let m = lo + ((hi - lo) >> 1);
        if less(get(a, m)?, key) {
            lo = m + 1;
        } else {
            hi = m;
        }
    }
    Some(hi)
}

/// Like [`gallop_left`], but right of any equal elements: `a[k-1] <= key < a[k]`.
fn gallop_right<F: FnMut(usize, usize) -> bool>(
    less: &mut F,
    key: usize,
    a: &[usize],
    hint: usize,
) -> Option<usize> {
    let n = a.len();
    let (mut lastofs, mut ofs): (usize, usize) = (0, 1);
    let (mut lo, mut hi);
    if less(key, get(a, hint)?) {
        let maxofs = hint + 1;
        while ofs < maxofs {
            if less(key, get(a, hint - ofs)?) {
                lastofs = ofs;
                ofs = (ofs << 1) + 1;
            } else {
                break;
            }
        }
        ofs = ofs.min(maxofs);
        lo = hint + 1 - ofs;
        hi = hint - lastofs;
    } else {
        let maxofs = n - hint;
        while ofs < maxofs {
            if less(key, get(a, hint + ofs)?) {
                break;
            }
            lastofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(maxofs);
        lo = lastofs + hint + 1;
        hi = ofs + hint;
    }
    while lo < hi {
        let m = lo + ((hi - lo) >> 1);
        if less(key, get(a, m)?) {
            hi = m;
        } else {
            lo = m + 1;
        }
    }
    Some(hi)
}

/// Powersort's level of the boundary between runs `[s1, s1 + n1)` and
/// `[s1 + n1, s1 + n1 + n2)` in a list of `n` (CPython's `powerloop`).
fn powerloop(s1: usize, n1: usize, n2: usize, n: usize) -> u32 {
    let mut result = 0;
    let mut a = 2 * s1 + n1;
    let mut b = a + n1 + n2;
    loop {
        result += 1;
        if a >= n {
            a -= n;
            b -= n;
        } else if b >= n {
            break;
        }
        a <<= 1;
        b <<= 1;
    }
    result
}

/// CPython's `merge_compute_minrun`.
fn compute_minrun(mut n: usize) -> usize {
    let mut r = 0;
    while n >= 64 {
        r |= n & 1;
        n >>= 1;
    }
    n + r
}

/// How a merge loop ended (the `goto` targets of CPython's merges).
enum Exit {
    Succeed,
    CopyRest,
}

impl<F: FnMut(usize, usize) -> bool> MergeState<F> {
    fn lt(&mut self, x: usize, y: usize) -> bool {
        (self.less)(x, y)
    }

    fn sort(&mut self) -> Option<()> {
        let minrun = compute_minrun(self.listlen);
        let mut lo = 0;
        let mut nremaining = self.listlen;
        while nremaining > 0 {
            let (mut n, descending) = self.count_run(lo, lo + nremaining)?;
            if descending {
                self.keys.get_mut(lo..lo + n)?.reverse();
            }
            if n < minrun {
                let force = nremaining.min(minrun);
                self.binarysort(lo, lo + force, lo + n)?;
                n = force;
            }
            self.found_new_run(n)?;
            self.pending.push(Pending {
                base: lo,
                len: n,
                power: 0,
            });
            lo += n;
            nremaining -= n;
        }
        self.merge_force_collapse()
    }

    /// Length of the run starting at `lo` (ending before `hi`), and whether it is
    /// strictly descending (CPython 3.11's `count_run`).
    fn count_run(&mut self, lo: usize, hi: usize) -> Option<(usize, bool)> {
        if lo + 1 >= hi {
            return Some((1, false));
        }
        let mut n = 2;
        let descending = self.lt(get(&self.keys, lo + 1)?, get(&self.keys, lo)?);
        for i in lo + 2..hi {
            let next_smaller = self.lt(get(&self.keys, i)?, get(&self.keys, i - 1)?);
            if next_smaller != descending {
                break;
            }
            n += 1;
        }
        Some((n, descending))
    }

    /// Binary insertion sort of `keys[lo..hi]`, of which `keys[lo..start]` is sorted.
    fn binarysort(&mut self, lo: usize, hi: usize, start: usize) -> Option<()> {
        for start in start.max(lo + 1)..hi {
            let pivot = get(&self.keys, start)?;
            let (mut l, mut r) = (lo, start);
            while l < r {
                let p = l + ((r - l) >> 1);
                if self.lt(pivot, get(&self.keys, p)?) {
                    r = p;
                } else {
                    l = p + 1;
                }
            }
            shift(&mut self.keys, l + 1, l, start - l)?;
            set(&mut self.keys, l, pivot)?;
        }
        Some(())
    }

    fn found_new_run(&mut self, n2: usize) -> Option<()> {
        let Some(last) = self.pending.last().copied() else {
            return Some(());
        };
        let power = powerloop(last.base, last.len, n2, self.listlen);
        while self.pending.len() > 1 && self.pending.get(self.pending.len() - 2)?.power > power {
            self.merge_at(self.pending.len() - 2)?;
        }
        self.pending.last_mut()?.power = power;
        Some(())
    }

    fn merge_force_collapse(&mut self) -> Option<()> {
        while self.pending.len() > 1 {
            let mut n = self.pending.len() - 2;
            if n > 0 && self.pending.get(n - 1)?.len < self.pending.get(n + 1)?.len {
                n -= 1;
            }
            self.merge_at(n)?;
        }
        Some(())
    }

    /// Merges pending runs `i` and `i + 1`.
    fn merge_at(&mut self, i: usize) -> Option<()> {
        let a = *self.pending.get(i)?;
        let b = *self.pending.get(i + 1)?;
        self.pending.get_mut(i)?.len = a.len + b.len;
        if i + 1 >= self.pending.len() {
            return None;
        }
        self.pending.remove(i + 1);

        // Where does b start in a? Elements of a before that are already in place.
        let first_b = get(&self.keys, b.base)?;
        let k = gallop_right(
            &mut self.less,
            first_b,
            self.keys.get(a.base..a.base + a.len)?,
            0,
        )?;
        let (base_a, na) = (a.base + k, a.len - k);
        if na == 0 {
            return Some(());
        }
        // Where does a end in b? Elements of b after that are already in place.
        let last_a = get(&self.keys, base_a + na - 1)?;
        let nb = gallop_left(
            &mut self.less,
            last_a,
            self.keys.get(b.base..b.base + b.len)?,
            b.len - 1,
        )?;
        if nb == 0 {
            return Some(());
        }
        if na <= nb {
            self.merge_lo(base_a, na, nb)
        } else {
            self.merge_hi(base_a, na, nb)
        }
    }

    /// Merges `keys[base..base+na]` with the `nb` elements after it, `na <= nb`, copying
    /// run a aside. Positions follow from the counts left: a's next element is
    /// `tmp[na0 - na]`, b's is `keys[end - nb]`, the destination `keys[end - na - nb]`.
    fn merge_lo(&mut self, base: usize, na0: usize, nb0: usize) -> Option<()> {
        let tmp = self.keys.get(base..base + na0)?.to_vec();
        let end = base + na0 + nb0;
        let (mut na, mut nb) = (na0, nb0);
        let pa = |na: usize| na0 - na;
        let pb = |nb: usize| end - nb;
        let dest = |na: usize, nb: usize| end - na - nb;

        let exit = 'merge: {
            let first_b = get(&self.keys, pb(nb))?;
            set(&mut self.keys, dest(na, nb), first_b)?;
            nb -= 1;
            if nb == 0 {
                break 'merge Exit::Succeed;
            }
            if na == 1 {
                break 'merge Exit::CopyRest;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut acount, mut bcount) = (0, 0);
                // One element at a time until one run wins consistently.
                loop {
                    let (xb, xa) = (get(&self.keys, pb(nb))?, get(&tmp, pa(na))?);
                    if self.lt(xb, xa) {
                        set(&mut self.keys, dest(na, nb), xb)?;
                        nb -= 1;
                        bcount += 1;
                        acount = 0;
                        if nb == 0 {
                            break 'merge Exit::Succeed;
                        }
                        if bcount >= min_gallop {
                            break;
                        }
                    } else {
                        set(&mut self.keys, dest(na, nb), xa)?;
                        na -= 1;
                        acount += 1;
                        bcount = 0;
                        if na == 1 {
                            break 'merge Exit::CopyRest;
                        }
                        if acount >= min_gallop {
                            break;
                        }
                    }
                }
                // Galloping.
                min_gallop += 1;
                loop {
                    min_gallop -= usize::from(min_gallop > 1);
                    self.min_gallop = min_gallop;
                    let xb = get(&self.keys, pb(nb))?;
                    let k = gallop_right(&mut self.less, xb, tmp.get(pa(na)..na0)?, 0)?;
                    acount = k;
                    if k > 0 {
                        copy(&mut self.keys, dest(na, nb), &tmp, pa(na), k)?;
                        na -= k;
                        if na == 1 {
                            break 'merge Exit::CopyRest;
                        }
                        if na == 0 {
                            break 'merge Exit::Succeed;
                        }
                    }
                    set(&mut self.keys, dest(na, nb), xb)?;
                    nb -= 1;
                    if nb == 0 {
                        break 'merge Exit::Succeed;
                    }
                    let xa = get(&tmp, pa(na))?;
                    let k = gallop_left(&mut self.less, xa, self.keys.get(pb(nb)..end)?, 0)?;
                    bcount = k;
                    if k > 0 {
                        shift(&mut self.keys, dest(na, nb), pb(nb), k)?;
                        nb -= k;
                        if nb == 0 {
                            break 'merge Exit::Succeed;
                        }
                    }
                    set(&mut self.keys, dest(na, nb), xa)?;
                    na -= 1;
                    if na == 1 {
                        break 'merge Exit::CopyRest;
                    }
                    if acount < MIN_GALLOP && bcount < MIN_GALLOP {
                        break;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        match exit {
            Exit::Succeed => copy(&mut self.keys, dest(na, nb), &tmp, pa(na), na),
            Exit::CopyRest => {
                // The last element of a belongs at the end of the merge.
                shift(&mut self.keys, dest(na, nb), pb(nb), nb)?;
                set(&mut self.keys, end - 1, get(&tmp, pa(na))?)
            }
        }
    }

    /// Merges `keys[base..base+na]` with the `nb` elements after it, `na > nb`, copying
    /// run b aside and filling from the right. a's next element is `keys[base + na - 1]`,
    /// b's `tmp[nb - 1]`, the destination `keys[base + na + nb - 1]`.
    fn merge_hi(&mut self, base: usize, na0: usize, nb0: usize) -> Option<()> {
        let tmp = self.keys.get(base + na0..base + na0 + nb0)?.to_vec();
        let (mut na, mut nb) = (na0, nb0);
        let pa = |na: usize| base + na - 1;
        let pb = |nb: usize| nb - 1;
        let dest = |na: usize, nb: usize| base + na + nb - 1;

        let exit = 'merge: {
            let last_a = get(&self.keys, pa(na))?;
            set(&mut self.keys, dest(na, nb), last_a)?;
            na -= 1;
            if na == 0 {
                break 'merge Exit::Succeed;
            }
            if nb == 1 {
                break 'merge Exit::CopyRest;
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut acount, mut bcount) = (0, 0);
                loop {
                    let (xb, xa) = (get(&tmp, pb(nb))?, get(&self.keys, pa(na))?);
                    if self.lt(xb, xa) {
                        set(&mut self.keys, dest(na, nb), xa)?;
                        na -= 1;
                        acount += 1;
                        bcount = 0;
                        if na == 0 {
                            break 'merge Exit::Succeed;
                        }
                        if acount >= min_gallop {
                            break;
                        }
                    } else {
                        set(&mut self.keys, dest(na, nb), xb)?;
                        nb -= 1;
                        bcount += 1;
                        acount = 0;
                        if nb == 1 {
                            break 'merge Exit::CopyRest;
                        }
                        if bcount >= min_gallop {
                            break;
                        }
                    }
                }
                min_gallop += 1;
                loop {
                    min_gallop -= usize::from(min_gallop > 1);
                    self.min_gallop = min_gallop;
                    let xb = get(&tmp, pb(nb))?;
                    let k = na
                        - gallop_right(
                            &mut self.less,
                            xb,
                            self.keys.get(base..base + na)?,
                            na - 1,
                        )?;
                    acount = k;
                    if k > 0 {
                        // a[na-k..na] moves right, to end just before the destination.
                        shift(&mut self.keys, dest(na, nb) + 1 - k, pa(na) + 1 - k, k)?;
                        na -= k;
                        if na == 0 {
                            break 'merge Exit::Succeed;
                        }
                    }
                    set(&mut self.keys, dest(na, nb), xb)?;
                    nb -= 1;
                    if nb == 1 {
                        break 'merge Exit::CopyRest;
                    }
                    let xa = get(&self.keys, pa(na))?;
                    let k = nb - gallop_left(&mut self.less, xa, tmp.get(..nb)?, nb - 1)?;
                    bcount = k;
                    if k > 0 {
                        copy(&mut self.keys, dest(na, nb) + 1 - k, &tmp, nb - k, k)?;
                        nb -= k;
                        if nb == 1 {
                            break 'merge Exit::CopyRest;
                        }
                        if nb == 0 {
                            break 'merge Exit::Succeed;
                        }
                    }
                    set(&mut self.keys, dest(na, nb), xa)?;
                    na -= 1;
                    if na == 0 {
                        break 'merge Exit::Succeed;
                    }
                    if acount < MIN_GALLOP && bcount < MIN_GALLOP {
                        break;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        };
        match exit {
            // What is left of b goes to the front.
            Exit::Succeed => copy(&mut self.keys, base + na, &tmp, 0, nb),
            Exit::CopyRest => {
                // The first element of b belongs at the front of the merge.
                shift(&mut self.keys, base + 1, base, na)?;
                set(&mut self.keys, base, get(&tmp, 0)?)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64, as in scripts/ranx_fusion_reference.py.
    fn splitmix64(x: u64) -> u64 {
        let mut x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }

    /// The comparator of the reference script's `make_less`.
    fn make_less(
        seed: u64,
        n: usize,
        shape: &str,
        noise_permille: u64,
    ) -> impl FnMut(usize, usize) -> bool {
        let keys: Vec<u64> = (0..n as u64)
            .map(|i| {
                let h = splitmix64(seed * 1_000_003 + i);
                match shape {
                    "random" => h % 1000,
                    "ascending" => i + h % 5,
                    "descending" => n as u64 - i + h % 5,
                    _ => h % 4,
                }
            })
            .collect();
        move |x, y| {
            let h = splitmix64((seed << 40) ^ ((x as u64) << 20) ^ y as u64);
            if h % 1000 < noise_permille {
                (h >> 32) % 2 == 0
            } else {
                keys[x] < keys[y]
            }
        }
    }

    #[test]
    fn consistent_comparators_sort() {
        let mut v: Vec<usize> = (0..300).map(|i| (i * 7919) % 300).collect();
        sort_by_less(&mut v, |a, b| a < b).unwrap();
        assert_eq!(v, (0..300).collect::<Vec<_>>());
        // Stable: sort by x / 10 keeps the input order within a group.
        let input: Vec<usize> = (0..500).rev().collect();
        let mut v = input.clone();
        sort_by_less(&mut v, |a, b| a / 10 < b / 10).unwrap();
        let mut expected = input;
        expected.sort_by_key(|x| x / 10);
        assert_eq!(v, expected);
    }

    #[test]
    fn never_panics_on_random_comparators() {
        for seed in 0..50u64 {
            for n in [0usize, 1, 2, 7, 64, 65, 300, 1000] {
                let mut v: Vec<usize> = (0..n).collect();
                sort_by_less(&mut v, make_less(seed, n, "random", 500)).unwrap();
                let mut seen = v.clone();
                seen.sort_unstable();
                assert_eq!(seen, (0..n).collect::<Vec<_>>(), "a permutation");
            }
        }
    }

    #[test]
    fn matches_cpython_sorted() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/ranx_fusion_reference.json"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let reference: serde_json::Value = serde_json::from_str(&text).unwrap();
        let cases = reference["cpythonSortCases"].as_array().unwrap();
        assert!(cases.len() >= 100);
        for case in cases {
            let n = case["n"].as_u64().unwrap() as usize;
            let less = make_less(
                case["seed"].as_u64().unwrap(),
                n,
                case["shape"].as_str().unwrap(),
                case["noisePermille"].as_u64().unwrap(),
            );
            let expected: Vec<usize> = case["order"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as usize)
                .collect();
            let mut v: Vec<usize> = (0..n).collect();
            sort_by_less(&mut v, less).unwrap();
            assert_eq!(v, expected, "case {case}");
        }
    }

    #[test]
    fn helpers() {
        assert_eq!(compute_minrun(63), 63);
        assert_eq!(compute_minrun(64), 32);
        assert_eq!(compute_minrun(200), 50);
        assert_eq!(compute_minrun(65), 33);
        let a = [1, 3, 3, 5];
        let mut lt = |x: usize, y: usize| x < y;
        assert_eq!(gallop_left(&mut lt, 3, &a, 0), Some(1));
        assert_eq!(gallop_right(&mut lt, 3, &a, 3), Some(3));
        assert_eq!(gallop_left(&mut lt, 9, &a, 2), Some(4));
        assert_eq!(gallop_right(&mut lt, 0, &a, 2), Some(0));
    }
}
