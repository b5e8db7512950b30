//! Counting which query terms occur in a candidate text, in time linear in the text
//! whatever the number and the lengths of the terms: a bit-parallel Shift-And matcher for
//! the typical query, an Aho-Corasick automaton for larger term sets (hostile queries
//! made the earlier matcher quadratic: docs/reliability.md, "Reranker").

use super::to_lowercase;
use crate::sort::StableSort;
use std::cell::Cell;

/// Non-empty terms of at most this many bytes in all (the typical query: a dozen short
/// terms) are matched by [`ShiftAnd`], larger sets by [`Automaton`].
const SHIFT_AND_BYTES: usize = <u128 as Word>::CAPACITY;

/// The automaton's state ids are `u32`: term sets of more bytes (or terms) than this,
/// which only a 64-bit caller of the Rust API without limits can build, are matched
/// term by term.
const AUTOMATON_BYTES: usize = (u32::MAX - 1) as usize;

/// Counts how many of a list of terms occur in a text once lowercased, that is
/// `terms.iter().filter(|t| text.to_lowercase().contains(t.as_str())).count()`, in one
/// pass over the text whatever the number and the lengths of the terms (an empty term,
/// which [`super::extract_terms`] never makes, is in every text).
///
/// An ASCII text is not copied: its lowercase is byte-wise, so its bytes are folded with
/// `to_ascii_lowercase` as they are read; other texts are lowercased first. Terms are
/// matched as bytes: a byte match of valid UTF-8 is a match on character boundaries, so
/// the counts are those of `str::contains`.
///
/// The matcher it replaces compared, at each byte of the text, every term starting with
/// that byte: one term `"a" * 1000 + "b"` against a 1 MB summary of `"a"` took 1.2 s in
/// wasm, and more than 64 terms fell back to one `str::contains` scan per term.
#[derive(Clone)]
pub(crate) struct TermMatcher {
    /// How many terms it was built from.
    terms: usize,
    /// How many of them are empty.
    empty: usize,
    kind: MatcherKind,
}

#[derive(Clone)]
enum MatcherKind {
    /// No non-empty term.
    Nothing,
    /// Non-empty terms of at most 64 bytes in all.
    ShiftAnd64(Box<ShiftAnd<u64>>),
    /// Non-empty terms of at most [`SHIFT_AND_BYTES`] bytes in all.
    ShiftAnd128(Box<ShiftAnd<u128>>),
    /// Larger sets of non-empty terms.
    Automaton(Automaton),
    /// Sets beyond [`AUTOMATON_BYTES`]: the non-empty terms, matched one by one.
    Naive(Vec<String>),
}

impl TermMatcher {
    pub(crate) fn new(terms: &[String]) -> Self {
        Self::with_limits(
            terms,
            <u64 as Word>::CAPACITY,
            SHIFT_AND_BYTES,
            AUTOMATON_BYTES,
        )
    }

    /// `new` with other thresholds (term bytes up to which the 64-bit Shift-And, the
    /// 128-bit one and the automaton are used), so that tests run every kind on the same
    /// terms.
    fn with_limits(
        terms: &[String],
        narrow_bytes: usize,
        shift_and_bytes: usize,
        automaton_bytes: usize,
    ) -> Self {
        let words: Vec<&[u8]> = terms
            .iter()
            .map(String::as_bytes)
            .filter(|w| !w.is_empty())
            .collect();
        let bytes = words.iter().fold(0usize, |n, w| n.saturating_add(w.len()));
        let kind = if words.is_empty() {
            MatcherKind::Nothing
        } else if bytes <= narrow_bytes.min(<u64 as Word>::CAPACITY) {
            MatcherKind::ShiftAnd64(Box::new(ShiftAnd::new(&words)))
        } else if bytes <= shift_and_bytes.min(SHIFT_AND_BYTES) {
            MatcherKind::ShiftAnd128(Box::new(ShiftAnd::new(&words)))
        } else if let Some(a) = (bytes <= automaton_bytes.min(AUTOMATON_BYTES))
            .then(|| Automaton::new(&words))
            .flatten()
        {
            MatcherKind::Automaton(a)
        } else {
            MatcherKind::Naive(terms.iter().filter(|t| !t.is_empty()).cloned().collect())
        };
        TermMatcher {
            terms: terms.len(),
            empty: terms.len().saturating_sub(words.len()),
            kind,
        }
    }

    /// How many of the terms `text` contains once lowercased.
    /// How many terms it was built from.
    pub(crate) fn term_count(&self) -> usize {
        self.terms
    }

    /// How many of the terms occur in `text` once lowercased.
    pub(crate) fn hits(&self, text: &str) -> usize {
        let found = match &self.kind {
            MatcherKind::Nothing => 0,
            MatcherKind::ShiftAnd64(m) => m.count(text),
            MatcherKind::ShiftAnd128(m) => m.count(text),
            MatcherKind::Automaton(a) if text.is_ascii() => {
                a.hits(text.as_bytes(), |b| b.to_ascii_lowercase())
            }
            MatcherKind::Automaton(a) => a.hits(to_lowercase(text).as_bytes(), |b| b),
            MatcherKind::Naive(terms) => {
                // Byte windows (a byte match of valid UTF-8 is `str::contains`'s match):
                // `str::contains` would bring the standard library's two-way searcher
                // into the wasm module for a case it never meets.
                let lower = to_lowercase(text);
                let lower = lower.as_bytes();
                terms
                    .iter()
                    .filter(|t| lower.windows(t.len()).any(|w| w == t.as_bytes()))
                    .count()
            }
        };
        found.saturating_add(self.empty)
    }
}

/// A state word of [`ShiftAnd`]: one bit per byte of the terms (`u64` for the typical
/// query, whose terms fit 64 bytes, native in wasm; `u128` up to 128 bytes).
trait Word:
    Copy
    + Eq
    + Default
    + std::ops::BitOr<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::Shl<u32, Output = Self>
{
    /// Bits in the word: the term bytes it holds.
    const CAPACITY: usize;
    /// The word with bit `p` set (0 when `p` is out of range).
    fn bit(p: usize) -> Self;
    fn ones(self) -> u32;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            fn bit(p: usize) -> Self {
                u32::try_from(p).map_or(0, |p| (1 as $t).checked_shl(p).unwrap_or(0))
            }
            fn ones(self) -> u32 {
                self.count_ones()
            }
        }
    };
}
word!(u64);
word!(u128);

/// Bit-parallel Shift-And (Baeza-Yates and Gonnet) over the concatenated terms: bit `p`
/// of the state is set when the text read so far ends with the bytes of `p`'s term up to
/// and including position `p`. One table load, one shift, one or and one and per byte of
/// text.
#[derive(Clone)]
struct ShiftAnd<W: Word> {
    /// `masks[b]`: the positions that hold byte `b`.
    masks: Box<[W; 256]>,
    /// `masks` of the ASCII lowercase of `b`, for ASCII text read without a copy.
    folded: Box<[W; 256]>,
    /// The first position of every term.
    starts: W,
    /// The last position of every term (one per term, duplicates included).
    ends: W,
}

impl<W: Word> ShiftAnd<W> {
    /// `words`: non-empty, at most `W::CAPACITY` bytes in all.
    fn new(words: &[&[u8]]) -> Self {
        let mut m = ShiftAnd {
            masks: Box::new([W::default(); 256]),
            folded: Box::new([W::default(); 256]),
            starts: W::default(),
            ends: W::default(),
        };
        let mut p = 0usize;
        for w in words {
            m.starts |= W::bit(p);
            for &b in *w {
                if let Some(mask) = m.masks.get_mut(usize::from(b)) {
                    *mask |= W::bit(p);
                }
                p += 1;
            }
            m.ends |= W::bit(p.saturating_sub(1));
        }
        *m.folded = *m.masks;
        for upper in b'A'..=b'Z' {
            let lower = Self::mask(&m.masks, upper.to_ascii_lowercase());
            if let Some(folded) = m.folded.get_mut(usize::from(upper)) {
                *folded = lower;
            }
        }
        m
    }

    /// `masks[b]` (a `u8` index into 256 entries: the check compiles away).
    fn mask(masks: &[W; 256], b: u8) -> W {
        masks.get(usize::from(b)).copied().unwrap_or_default()
    }

    /// `masks`: [`Self::masks`], or [`Self::folded`] for ASCII text.
    fn hits(&self, h: &[u8], masks: &[W; 256]) -> usize {
        let mut state = W::default();
        let mut found = W::default();
        // In blocks of 8 bytes without a branch per byte; whether every term was found
        // is checked once per block.
        let mut blocks = h.chunks_exact(8);
        for block in &mut blocks {
            for &b in block {
                // A term's first position is set by `starts`; the bit a shift carries into
                // it from the previous term's last position is or-ed with a set bit, so
                // harmless.
                state = ((state << 1) | self.starts) & Self::mask(masks, b);
                found |= state & self.ends;
            }
            if found == self.ends {
                return found.ones() as usize;
            }
        }
        for &b in blocks.remainder() {
            state = ((state << 1) | self.starts) & Self::mask(masks, b);
            found |= state & self.ends;
        }
        found.ones() as usize
    }

    fn count(&self, text: &str) -> usize {
        if text.is_ascii() {
            self.hits(text.as_bytes(), &self.folded)
        } else {
            self.hits(to_lowercase(text).as_bytes(), &self.masks)
        }
    }
}

/// The root state of the automaton.
const ROOT: u32 = 0;

/// An Aho-Corasick automaton over the bytes of the terms, reporting which distinct terms
/// occur in a text in time linear in the text.
///
/// The trie is built from the sorted terms (each term shares its longest common prefix
/// with the previous one, so no lookups); its edges are stored sparsely, sorted by byte
/// per state (the root's also in a 256-entry table), so memory is linear in the bytes of
/// the terms. Failure links and dictionary-suffix links (`out`: the longest proper suffix
/// state that ends a term) are computed breadth-first.
///
/// Scanning, at each byte the output chain of the current state is walked, but only
/// through states not yet visited for this text: a state is stamped with the text's
/// generation when visited, and the walk stops at a stamped state, whose chain was walked
/// (recursively) when it was stamped. Every state is walked at most once per text, so
/// nested terms (`a`, `aa`, `aaa`, ... against `aaaa...`) cost no more than others.
#[derive(Clone)]
struct Automaton {
    /// Transitions of the root, by byte ([`ROOT`]: none).
    root: Box<[u32; 256]>,
    /// The edges of state `s` are `edge_start[s]..edge_start[s + 1]`.
    edge_start: Vec<u32>,
    /// Edge bytes, ascending per state.
    edge_byte: Vec<u8>,
    /// Edge targets.
    edge_to: Vec<u32>,
    /// Failure link: the state of the longest proper suffix that is in the trie.
    fail: Vec<u32>,
    /// Dictionary-suffix link: the state of the longest proper suffix that ends a term
    /// ([`ROOT`]: none).
    out: Vec<u32>,
    /// How many terms end at each state (duplicates count).
    count: Vec<u32>,
    /// States where at least one term ends.
    terminals: usize,
    /// The generation of the last text that visited each state.
    stamp: Vec<Cell<u32>>,
    /// The generation of the current text (bumped per text).
    generation: Cell<u32>,
}

impl Automaton {
    /// `words`: non-empty; `None` when the states do not fit `u32` ids.
    fn new(words: &[&[u8]]) -> Option<Self> {
        let total = words.iter().fold(0usize, |n, w| n.saturating_add(w.len()));
        if total >= AUTOMATON_BYTES || words.len() >= AUTOMATON_BYTES {
            return None;
        }
        let mut sorted = words.to_vec();
        sorted.stable_sort_by(Ord::cmp);
        // The trie: edge k (in creation order) goes from parent[k] to state k + 1.
        let mut parent: Vec<u32> = Vec::with_capacity(total);
        let mut byte: Vec<u8> = Vec::with_capacity(total);
        let mut count: Vec<u32> = vec![0];
        let mut path: Vec<u32> = vec![ROOT];
        let mut prev: &[u8] = &[];
        for w in sorted {
            let common = prev.iter().zip(w).take_while(|(a, b)| a == b).count();
            path.truncate(common + 1);
            for &b in w.get(common..).unwrap_or_default() {
                let state = u32::try_from(count.len()).ok()?;
                parent.push(path.last().copied().unwrap_or(ROOT));
                byte.push(b);
                count.push(0);
                path.push(state);
            }
            let end = path.last().copied().unwrap_or(ROOT);
            if let Some(c) = count.get_mut(end as usize) {
                *c = c.saturating_add(1);
            }
            prev = w;
        }
        let states = count.len();
        let terminals = count.iter().filter(|&&c| c > 0).count();
        // Edges grouped by state (a counting sort by parent, stable, so that the bytes of
        // a state stay ascending: sorted terms create a state's children in byte order).
        let mut edge_start = vec![0u32; states + 1];
        for &p in &parent {
            if let Some(n) = edge_start.get_mut(p as usize + 1) {
                *n += 1;
            }
        }
        let mut sum = 0u32;
        for n in &mut edge_start {
            sum += *n;
            *n = sum;
        }
        let mut next_slot = edge_start.clone();
        let mut edge_byte = vec![0u8; parent.len()];
        let mut edge_to = vec![ROOT; parent.len()];
        let mut root = Box::new([ROOT; 256]);
        for (k, (&p, &b)) in parent.iter().zip(&byte).enumerate() {
            let child = u32::try_from(k + 1).ok()?;
            let Some(slot) = next_slot.get_mut(p as usize) else {
                continue;
            };
            if let (Some(eb), Some(et)) = (
                edge_byte.get_mut(*slot as usize),
                edge_to.get_mut(*slot as usize),
            ) {
                *eb = b;
                *et = child;
            }
            *slot += 1;
            if p == ROOT {
                if let Some(r) = root.get_mut(usize::from(b)) {
                    *r = child;
                }
            }
        }
        drop((parent, byte, next_slot, path));
        let mut a = Automaton {
            root,
            edge_start,
            edge_byte,
            edge_to,
            fail: vec![ROOT; states],
            out: vec![ROOT; states],
            count,
            terminals,
            stamp: vec![Cell::new(0); states],
            generation: Cell::new(0),
        };
        // Breadth first, so that a state's failure target (shallower) is done before it.
        let mut queue: Vec<u32> = a.edges(ROOT).map(|(_, to)| to).collect();
        let mut head = 0;
        while let Some(&u) = queue.get(head) {
            head += 1;
            let fail_u = a.fail_of(u);
            for (b, v) in a.edges(u).collect::<Vec<_>>() {
                let f = a.next(fail_u, b);
                let out = if a.count_of(f) > 0 { f } else { a.out_of(f) };
                if let (Some(fv), Some(ov)) =
                    (a.fail.get_mut(v as usize), a.out.get_mut(v as usize))
                {
                    *fv = f;
                    *ov = out;
                }
                queue.push(v);
            }
        }
        Some(a)
    }

    fn fail_of(&self, s: u32) -> u32 {
        self.fail.get(s as usize).copied().unwrap_or(ROOT)
    }

    fn out_of(&self, s: u32) -> u32 {
        self.out.get(s as usize).copied().unwrap_or(ROOT)
    }

    fn count_of(&self, s: u32) -> u32 {
        self.count.get(s as usize).copied().unwrap_or(0)
    }

    /// The edges `(byte, target)` of state `s`.
    fn edges(&self, s: u32) -> impl Iterator<Item = (u8, u32)> + '_ {
        let range = self
            .edge_start
            .get(s as usize)
            .zip(self.edge_start.get(s as usize + 1))
            .map_or(0..0, |(&lo, &hi)| lo as usize..hi as usize);
        let bytes = self.edge_byte.get(range.clone()).unwrap_or_default();
        let to = self.edge_to.get(range).unwrap_or_default();
        bytes.iter().copied().zip(to.iter().copied())
    }

    /// The trie edge of state `s` (not the root) on byte `b`.
    fn child(&self, s: u32, b: u8) -> Option<u32> {
        let s = s as usize;
        let Some(&[lo, hi]) = self.edge_start.get(s..s + 2) else {
            return None;
        };
        let (lo, hi) = (lo as usize, hi as usize);
        let i = match hi.checked_sub(lo)? {
            0 => return None,
            // Most states of a large trie have one edge.
            1 => (self.edge_byte.get(lo) == Some(&b)).then_some(lo)?,
            n if n <= 8 => lo + self.edge_byte.get(lo..hi)?.iter().position(|&x| x == b)?,
            _ => lo + self.edge_byte.get(lo..hi)?.binary_search(&b).ok()?,
        };
        self.edge_to.get(i).copied()
    }

    /// The transition from `s` on `b`, following failure links (each one goes to a
    /// shallower state, so over a text they cost at most one step per byte).
    #[inline]
    fn next(&self, mut s: u32, b: u8) -> u32 {
        loop {
            if s == ROOT {
                return self.root.get(usize::from(b)).copied().unwrap_or(ROOT);
            }
            if let Some(to) = self.child(s, b) {
                return to;
            }
            s = self.fail_of(s);
        }
    }

    /// A generation no state is stamped with.
    fn next_generation(&self) -> u32 {
        let mut g = self.generation.get().wrapping_add(1);
        if g == 0 {
            // Once every 2^32 texts: clear the stamps.
            for s in &self.stamp {
                s.set(0);
            }
            g = 1;
        }
        self.generation.set(g);
        g
    }

    fn hits(&self, h: &[u8], fold: impl Fn(u8) -> u8) -> usize {
        let generation = self.next_generation();
        let mut state = ROOT;
        let mut found = 0usize;
        let mut hits = 0usize;
        for &b in h {
            state = self.next(state, fold(b));
            let mut s = state;
            while s != ROOT {
                let Some(stamp) = self.stamp.get(s as usize) else {
                    break;
                };
                if stamp.get() == generation {
                    break;
                }
                stamp.set(generation);
                let n = self.count_of(s);
                if n > 0 {
                    hits = hits.saturating_add(n as usize);
                    found += 1;
                    if found == self.terminals {
                        return hits;
                    }
                }
                s = self.out_of(s);
            }
        }
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The semantic every matcher must reproduce.
    fn naive_hits(text: &str, terms: &[String]) -> usize {
        terms
            .iter()
            .filter(|t| text.to_lowercase().contains(t.as_str()))
            .count()
    }

    use crate::rerank::tests::Rng;

    /// Every kind of matcher for `terms`: the default, the automaton, Shift-And on 64 and
    /// on 128 bits (when the terms fit) and term by term.
    fn all_matchers(terms: &[String]) -> Vec<TermMatcher> {
        vec![
            TermMatcher::new(terms),
            TermMatcher::with_limits(terms, 0, 0, AUTOMATON_BYTES),
            TermMatcher::with_limits(terms, 64, SHIFT_AND_BYTES, 0),
            TermMatcher::with_limits(terms, 0, SHIFT_AND_BYTES, 0),
            TermMatcher::with_limits(terms, 0, 0, 0),
        ]
    }

    #[test]
    fn every_matcher_kind_counts_as_str_contains() {
        // Lowercase pieces for terms (plus a few uppercase ones, which never match), mixed
        // case and multi-byte pieces for texts: nested terms (a, aa, aaa), terms that are
        // prefixes and suffixes of each other, characters whose lowercase is longer
        // (İ -> i̇) or ASCII (the Kelvin sign -> k), and ASCII-only texts.
        let term_pieces = [
            "a", "a", "a", "b", "ab", "ba", "k", "s", "ss", "é", "ß", "ü", "i\u{307}", "x", " ",
            "A", "É",
        ];
        let text_pieces = [
            "a", "a", "A", "b", "B", "ab", "k", "K", "\u{212A}", "s", "S", "ß", "ẞ", "é", "É", "ü",
            "Ü", "İ", "i", "x", " ",
        ];
        let ascii_pieces = ["a", "a", "A", "b", "B", "k", "K", "s", "S", "x", " "];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut kinds = [0usize; 5];
        for round in 0..1500 {
            let n_terms = match round % 5 {
                0 => rng.below(3),
                1..=3 => rng.below(16),
                _ => 20 + rng.below(60),
            };
            let mut terms: Vec<String> =
                (0..n_terms).map(|_| rng.string(&term_pieces, 8)).collect();
            if round % 7 == 0 {
                // Nested: a, aa, aaa, ...
                terms.extend((1..=rng.below(12)).map(|k| "a".repeat(k)));
            }
            if round % 11 == 0 && !terms.is_empty() {
                let dup = terms[rng.below(terms.len())].clone();
                terms.push(dup);
            }
            for m in all_matchers(&terms) {
                kinds[match m.kind {
                    MatcherKind::Nothing => 0,
                    MatcherKind::ShiftAnd64(_) => 1,
                    MatcherKind::ShiftAnd128(_) => 2,
                    MatcherKind::Automaton(_) => 3,
                    MatcherKind::Naive(_) => 4,
                }] += 1;
                // Several texts per matcher: the automaton's stamps carry over.
                for t in 0..8 {
                    let text = match t % 4 {
                        0 => rng.string(&ascii_pieces, 40),
                        1 => rng.string(&text_pieces, 40),
                        2 => "a".repeat(rng.below(20)),
                        _ => terms.concat().to_uppercase(),
                    };
                    assert_eq!(
                        m.hits(&text),
                        naive_hits(&text, &terms),
                        "{text:?} {terms:?}"
                    );
                }
                assert_eq!(m.hits(""), naive_hits("", &terms));
            }
        }
        assert!(kinds.iter().all(|&k| k > 100), "{kinds:?}");
    }

    #[test]
    fn automaton_stamps_survive_generation_wraparound() {
        let terms: Vec<String> = ["aa", "aaa", "ab", "ba", "bab", "zz"]
            .iter()
            .map(|t| t.repeat(30))
            .collect();
        let m = TermMatcher::new(&terms);
        let MatcherKind::Automaton(a) = &m.kind else {
            panic!("expected the automaton");
        };
        a.generation.set(u32::MAX - 3);
        let texts = [
            "a".repeat(200),
            "ab".repeat(100),
            "ba".repeat(99),
            String::new(),
        ];
        for i in 0..12 {
            let text = &texts[i % texts.len()];
            assert_eq!(m.hits(text), naive_hits(text, &terms), "{i}");
        }
        assert!(a.generation.get() < 10);
    }
}
