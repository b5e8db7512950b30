//! Ids interned to dense document indices, numbered in order of first appearance.
//!
//! Ids are first looked up in an open-addressing table keyed by their FxHash (`key`)
//! (linear probing, the slot picked by a multiplicative hash of the key). FxHash has no
//! secret key, so ids can be made to hash alike on purpose (16-byte printable ids collide
//! algebraically): each such id would probe past all the others, quadratic in their
//! number. The table therefore counts its probes and gives up once they pass a few per
//! id (`PROBES_PER_ID`); the call is then redone by sorting (hash, position) pairs with
//! the crate's radix sort, comparing bytes only where hashes are equal: O(n log n)
//! whatever the ids. Ordinary ids stay on the table's one pass.
//!
//! Outputs never depend on hash values or on the path taken: documents are numbered by
//! the first position at which their id appears.

use crate::sort::{sort_keyed_then, Keyed};

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// One FxHash step (the rustc hasher's): the state rotated, the word mixed in, multiplied.
#[inline]
fn fx_add(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED)
}

/// The sort key of an id: FxHash (no key) of its bytes as little-endian words, the last
/// padded with zeros, then of its length (ids that differ only by trailing zero bytes
/// would otherwise hash alike).
#[inline]
fn key(id: &str) -> u64 {
    let mut chunks = id.as_bytes().chunks_exact(8);
    let mut h = 0;
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = fx_add(h, u64::from_le_bytes(w));
    }
    let rem = chunks.remainder();
    if !rem.is_empty() {
        let mut w = [0u8; 8];
        w.iter_mut().zip(rem).for_each(|(d, s)| *d = *s);
        h = fx_add(h, u64::from_le_bytes(w));
    }
    // The last step is a multiply, whose low bits depend only on the low bits of its
    // input: rotating brings the well-mixed high bits down (as rustc-hash 2 does), so
    // that ids such as `doc123456` spread over the radix sort's upper key half too.
    fx_add(h, id.len() as u64).rotate_left(26)
}

/// The distinct ids of some lists, in order of first appearance: the index of an id in
/// [`Interner::ids`] is its document index.
#[derive(Debug, Default)]
#[doc(hidden)]
pub struct Interner<'a> {
    /// The distinct ids; index = document index.
    pub ids: Vec<&'a str>,
}

/// [`Interner::of_lists_and_keys`]'s result.
#[derive(Debug, Default)]
#[doc(hidden)]
pub struct Interned<'a> {
    /// The distinct ids of the lists.
    pub interner: Interner<'a>,
    /// Each list as document indices.
    pub lists: Vec<Vec<u32>>,
    /// The document of each key, `u32::MAX` for a key that is in no list.
    pub keys: Vec<u32>,
}

impl<'a> Interner<'a> {
    /// Interns every id of `lists`, list by list: the interner and each list as document
    /// indices.
    pub fn of_lists<S: AsRef<str> + 'a>(
        lists: impl IntoIterator<Item = &'a [S]> + Clone,
    ) -> (Self, Vec<Vec<u32>>) {
        let out = Self::of_lists_and_keys(lists, std::iter::empty());
        (out.interner, out.lists)
    }

    /// [`Interner::of_lists`], and the document of each of `keys` (an item's id, say):
    /// `u32::MAX` for a key in no list. Keys never add documents.
    pub fn of_lists_and_keys<S: AsRef<str> + 'a>(
        lists: impl IntoIterator<Item = &'a [S]> + Clone,
        keys: impl IntoIterator<Item = &'a str>,
    ) -> Interned<'a> {
        let lens: Vec<usize> = lists.clone().into_iter().map(<[S]>::len).collect();
        let in_lists: usize = lens.iter().sum();
        let mut all: Vec<&'a str> = Vec::with_capacity(in_lists);
        all.extend(lists.into_iter().flatten().map(AsRef::as_ref));
        all.extend(keys);
        let (interner, numbers) = number(&all, in_lists);
        let mut rest = numbers.as_slice();
        let mut docs = Vec::with_capacity(lens.len());
        for len in lens {
            let (list, tail) = rest.split_at(len.min(rest.len()));
            docs.push(list.to_vec());
            rest = tail;
        }
        Interned {
            interner,
            lists: docs,
            keys: rest.to_vec(),
        }
    }

    /// Interns a sequence of ids: the interner and each id's document index.
    pub fn of_ids(ids: impl IntoIterator<Item = &'a str>) -> (Self, Vec<u32>) {
        let all: Vec<&'a str> = ids.into_iter().collect();
        number(&all, all.len())
    }
}

/// The document of each id of `all`, numbered at its first position; only the first
/// `in_lists` positions add documents (a later id in none of them gets `u32::MAX`).
fn number<'a>(all: &[&'a str], in_lists: usize) -> (Interner<'a>, Vec<u32>) {
    // Positions past u32::MAX cannot be numbered (`u32::MAX` is the "in no list" mark);
    // every binding's and the pipeline's limits refuse such inputs long before.
    let all = all.get(..u32::MAX as usize).unwrap_or(all);
    let budget = PROBES_PER_ID.saturating_mul(all.len()).saturating_add(64);
    hashed(all, in_lists, budget).unwrap_or_else(|| sorted(all, in_lists))
}

/// The slots held by other ids that [`hashed`] may pass per id, on average over the
/// call, before it gives the call to [`sorted`]. At the table's fullest (two thirds) an
/// ordinary id passes about one and a key in no list about four (an unsuccessful linear
/// probe's expected length there, less the empty slot it ends on): 8 leaves room for
/// inputs of such keys alone, and ids made to hash alike exceed it after about
/// 4 sqrt(n) of them.
const PROBES_PER_ID: usize = 8;

/// [`number`] by a table with linear probing, or `None` once the slots held by other
/// ids that the lookups pass exceed `budget` in all (ids that hash alike, whether by
/// chance or made to).
fn hashed<'a>(all: &[&'a str], in_lists: usize, budget: usize) -> Option<(Interner<'a>, Vec<u32>)> {
    const EMPTY: u32 = u32::MAX;
    let in_lists = in_lists.min(all.len());
    // At most two thirds full when every list id is distinct.
    let bits = (in_lists + in_lists / 2 + 1)
        .next_power_of_two()
        .max(16)
        .trailing_zeros();
    let mask = (1usize << bits) - 1;
    // (the hash's low half, document) per slot: eight bytes, half the memory to clear
    // and to reach of whole hashes (the bytes are compared where the halves agree).
    let mut slots: Vec<(u32, u32)> = vec![(0, EMPTY); mask + 1];
    let mut ids: Vec<&'a str> = Vec::new();
    let mut docs = Vec::with_capacity(all.len());
    let mut probes = 0usize;
    for (p, &id) in all.iter().enumerate() {
        let h = key(id);
        let tag = h as u32;
        // The upper bits of a multiplicative hash of the key pick the first slot.
        let mut i = (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize;
        let doc = loop {
            let slot = slots.get_mut(i)?;
            if slot.1 == EMPTY {
                if p >= in_lists {
                    break EMPTY;
                }
                let doc = u32::try_from(ids.len()).ok()?;
                ids.push(id);
                *slot = (tag, doc);
                break doc;
            }
            if slot.0 == tag && ids.get(slot.1 as usize) == Some(&id) {
                break slot.1;
            }
            probes += 1;
            if probes > budget {
                return None;
            }
            i = (i + 1) & mask;
        };
        docs.push(doc);
    }
    Some((Interner { ids }, docs))
}

/// [`number`] by sorting: O(n log n) comparisons whatever the ids.
fn sorted<'a>(all: &[&'a str], in_lists: usize) -> (Interner<'a>, Vec<u32>) {
    let n = all.len();
    let at = |p: u32| all.get(p as usize).copied().unwrap_or_default();
    let mut order: Vec<Keyed> = (0u32..).zip(all).map(|(p, id)| (key(id), p)).collect();
    // By key, then bytes, then position: equal ids are adjacent, the first position first.
    sort_keyed_then(&mut order, &mut |a, b| at(a).cmp(at(b)));
    // `first[p]`: the first position of the id at position `p`.
    let mut first = vec![0u32; n];
    let mut start = 0u32;
    let mut prev: Option<Keyed> = None;
    for &(k, p) in &order {
        if prev.is_none_or(|(k0, p0)| k0 != k || at(p0) != at(p)) {
            start = p;
        }
        prev = Some((k, p));
        if let Some(f) = first.get_mut(p as usize) {
            *f = start;
        }
    }
    drop(order);
    // Numbered in position order: a first position gets the next document; a later one
    // takes the document of its first position, numbered before it (`first[p] < p`).
    let mut ids: Vec<&'a str> = Vec::new();
    for p in 0..n {
        let f = first.get(p).copied().unwrap_or(0) as usize;
        let doc = if f != p {
            first.get(f).copied().unwrap_or(u32::MAX)
        } else if p < in_lists {
            ids.push(at(p as u32));
            u32::try_from(ids.len() - 1).unwrap_or(u32::MAX)
        } else {
            u32::MAX
        };
        if let Some(slot) = first.get_mut(p) {
            *slot = doc;
        }
    }
    (Interner { ids }, first)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The reference: a hash map, numbering ids at first appearance.
    fn reference(lists: &[Vec<String>], keys: &[String]) -> (Vec<String>, Vec<Vec<u32>>, Vec<u32>) {
        let mut map: HashMap<&str, u32> = HashMap::new();
        let mut ids = Vec::new();
        let docs = lists
            .iter()
            .map(|l| {
                l.iter()
                    .map(|id| {
                        *map.entry(id).or_insert_with(|| {
                            ids.push(id.clone());
                            ids.len() as u32 - 1
                        })
                    })
                    .collect()
            })
            .collect();
        let keys = keys
            .iter()
            .map(|k| map.get(k.as_str()).copied().unwrap_or(u32::MAX))
            .collect();
        (ids, docs, keys)
    }

    fn interned(lists: &[Vec<String>], keys: &[String]) -> (Vec<String>, Vec<Vec<u32>>, Vec<u32>) {
        let out = Interner::of_lists_and_keys(
            lists.iter().map(Vec::as_slice),
            keys.iter().map(String::as_str),
        );
        (
            out.interner.ids.iter().map(|s| s.to_string()).collect(),
            out.lists,
            out.keys,
        )
    }

    #[test]
    fn numbers_ids_at_first_appearance() {
        let lists = vec![
            vec!["b".to_string(), "a".into(), "b".into()],
            vec![],
            vec!["c".into(), "a".into(), "".into()],
        ];
        let keys = vec!["a".to_string(), "zz".into(), "".into(), "a".into()];
        let (ids, docs, k) = interned(&lists, &keys);
        assert_eq!(ids, ["b", "a", "c", ""]);
        assert_eq!(docs, vec![vec![0, 1, 0], vec![], vec![2, 1, 3]]);
        assert_eq!(k, vec![1, u32::MAX, 3, 1]);
        let (ids, docs) = Interner::of_lists(lists.iter().map(Vec::as_slice));
        assert_eq!(ids.ids, ["b", "a", "c", ""]);
        assert_eq!(docs, vec![vec![0, 1, 0], vec![], vec![2, 1, 3]]);
    }

    #[test]
    fn trailing_zero_bytes_make_another_id() {
        let lists = vec![vec![
            "ab".to_string(),
            "ab\0".into(),
            "ab\0\0".into(),
            "ab".into(),
        ]];
        let (ids, docs, _) = interned(&lists, &[]);
        assert_eq!(ids.len(), 3);
        assert_eq!(docs, vec![vec![0, 1, 2, 0]]);
    }

    /// 16-byte ids whose FxHash words cancel: every one hashes alike.
    pub(crate) fn colliding_ids(n: usize) -> Vec<String> {
        let target = 0x4142_4344_4546_4748u64;
        let mut out = Vec::with_capacity(n);
        let mut w1 = 0x3030_3030_3030_3030u64;
        while out.len() < n {
            w1 = w1.wrapping_add(0x0101_0101_0101_0101) | 0x2020_2020_2020_2020;
            let h1 = w1.wrapping_mul(FX_SEED);
            let w2 = h1.rotate_left(5) ^ target;
            let mut bytes = w1.to_le_bytes().to_vec();
            bytes.extend_from_slice(&w2.to_le_bytes());
            if let Ok(s) = String::from_utf8(bytes) {
                out.push(s);
            }
        }
        out
    }

    /// Each way of numbering on its own: the table (with no probe budget) and the sort.
    fn both_ways(all: &[String], in_lists: usize) -> [(Vec<String>, Vec<u32>); 2] {
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let own =
            |(i, d): (Interner<'_>, Vec<u32>)| (i.ids.iter().map(|s| s.to_string()).collect(), d);
        [
            own(hashed(&all, in_lists, usize::MAX).unwrap()),
            own(sorted(&all, in_lists)),
        ]
    }

    #[test]
    fn colliding_ids_are_told_apart() {
        let ids = colliding_ids(300);
        assert!(ids.windows(2).all(|w| key(&w[0]) == key(&w[1])));
        let lists = vec![ids[..200].to_vec(), ids[100..].to_vec()];
        let keys: Vec<String> = ids.iter().rev().take(250).cloned().collect();
        assert_eq!(interned(&lists, &keys), reference(&lists, &keys));
    }

    /// The table gives up on ids that hash alike once their probes pass the budget (the
    /// sort then numbers them); ordinary ids pass fewer than one other id's slot each
    /// (between a half and one for these).
    #[test]
    fn the_table_gives_up_on_ids_that_hash_alike() {
        let colliding = colliding_ids(2000);
        let all: Vec<&str> = colliding.iter().map(String::as_str).collect();
        let budget = PROBES_PER_ID * all.len() + 64;
        assert!(hashed(&all, all.len(), budget).is_none());
        let ordinary: Vec<String> = (0..2000).map(|i| format!("doc{i}")).collect();
        let all: Vec<&str> = ordinary.iter().map(String::as_str).collect();
        assert!(hashed(&all, all.len(), all.len()).is_some());
    }

    /// Keys in no list (an item for a document no list holds) probe to an empty slot:
    /// at the table's fullest, ten times as many such keys as list ids stay within the
    /// budget.
    #[test]
    fn unknown_keys_stay_on_the_table() {
        for n in [10_922usize, 21_845, 43_690] {
            let ids: Vec<String> = (0..n).map(|i| format!("doc{i}")).collect();
            let keys: Vec<String> = (0..10 * n).map(|i| format!("item{i}")).collect();
            let all: Vec<&str> = ids.iter().chain(&keys).map(String::as_str).collect();
            let budget = PROBES_PER_ID * all.len() + 64;
            assert!(hashed(&all, n, budget).is_some(), "{n}");
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn id() -> impl Strategy<Value = String> {
            prop_oneof![
                "[a-c]{0,3}",
                "[a-c\u{0}]{0,10}",
                (0..40usize).prop_map(|i| format!("doc{i}")),
            ]
        }

        proptest! {
            #[test]
            fn both_ways_number_alike(
                all in prop::collection::vec(id(), 0..80),
                cut in 0usize..80,
            ) {
                let in_lists = cut.min(all.len());
                let [table, sort] = both_ways(&all, in_lists);
                let lists = vec![all[..in_lists].to_vec()];
                let (ids, docs, keys) = reference(&lists, &all[in_lists..]);
                let expected: Vec<u32> = docs.concat().into_iter().chain(keys).collect();
                prop_assert_eq!(&table, &(ids, expected));
                prop_assert_eq!(&table, &sort);
            }

            #[test]
            fn same_numbers_as_a_hash_map(
                lists in prop::collection::vec(prop::collection::vec(id(), 0..40), 0..5),
                keys in prop::collection::vec(id(), 0..30),
            ) {
                prop_assert_eq!(interned(&lists, &keys), reference(&lists, &keys));
            }

            #[test]
            fn the_radix_path_too(n in 256usize..1200, seed in any::<u64>()) {
                let mut x = seed | 1;
                let mut next = move || { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x };
                let lists: Vec<Vec<String>> = (0..3)
                    .map(|_| (0..n / 3).map(|_| format!("d{}", next() % (n as u64))).collect())
                    .collect();
                let keys: Vec<String> = (0..n / 2).map(|_| format!("d{}", next() % (2 * n as u64))).collect();
                prop_assert_eq!(interned(&lists, &keys), reference(&lists, &keys));
                let all: Vec<String> = lists.concat().into_iter().chain(keys).collect();
                let [table, sort] = both_ways(&all, all.len() - n / 2);
                prop_assert_eq!(table, sort);
            }
        }
    }
}
