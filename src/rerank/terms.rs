//! Query terms of the reranker ([`extract_terms`]): split camelCase words
//! (`GraphTraversal` -> `graph traversal`, `HTTPServer` -> `http server`), split on every
//! non-alphanumeric character (so snake_case and kebab-case too), lowercase (Unicode),
//! drop terms of one character and English stopwords, de-duplicate keeping first
//! occurrence.

use super::to_lowercase;
use crate::sort::{sort_keyed_then, Keyed};
use std::borrow::Cow;

/// The built-in English stopwords.
pub const STOPWORDS: &[&str] = &[
    "a", "about", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "how", "i", "if",
    "in", "into", "is", "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "should",
    "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to",
    "us", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with",
    "would", "you", "your",
];

/// A string of at most 8 bytes as one integer (its bytes little-endian, zeros after):
/// distinct for distinct strings of at most 8 bytes without a zero byte.
const fn pack8(mut b: &[u8]) -> u64 {
    let mut x = 0u64;
    let mut shift = 0;
    while let [first, rest @ ..] = b {
        if shift == 64 {
            break;
        }
        x |= (*first as u64) << shift;
        shift += 8;
        b = rest;
    }
    x
}

/// The longest built-in stopword, in bytes. (Indexing in the two tables below runs in the
/// compiler: an index out of bounds there fails the build, never a call.)
#[allow(clippy::indexing_slicing)]
const STOPWORD_MAX: usize = {
    let mut m = 0;
    let mut i = 0;
    while i < STOPWORDS.len() {
        if STOPWORDS[i].len() > m {
            m = STOPWORDS[i].len();
        }
        i += 1;
    }
    m
};
const _: () = assert!(STOPWORD_MAX <= 8);

/// [`STOPWORDS`] packed ([`pack8`]) and sorted as integers, built at compile time.
#[allow(clippy::indexing_slicing)]
const PACKED_STOPWORDS: [u64; STOPWORDS.len()] = {
    let mut t = [0u64; STOPWORDS.len()];
    let mut i = 0;
    while i < t.len() {
        // Insertion sort: 73 entries, once, in the compiler.
        let x = pack8(STOPWORDS[i].as_bytes());
        let mut j = i;
        while j > 0 && t[j - 1] > x {
            t[j] = t[j - 1];
            j -= 1;
        }
        t[j] = x;
        i += 1;
    }
    t
};

/// Whether `t` is one of [`STOPWORDS`]: longer strings at once, the others packed into
/// one integer and found by bisection of [`PACKED_STOPWORDS`] (7 integer comparisons,
/// no string comparison). No stopword holds a zero byte, so a term with one (which
/// packs like a shorter string) is checked against its length as well.
fn is_builtin_stopword(t: &str) -> bool {
    t.len() <= STOPWORD_MAX
        && !t.as_bytes().contains(&0)
        && PACKED_STOPWORDS.binary_search(&pack8(t.as_bytes())).is_ok()
}

/// Splits camelCase: a boundary before an uppercase letter that follows a lowercase
/// letter or digit, or that starts a capitalized word after an uppercase run. Calls
/// `part` with each part, a slice of `word` (no copies: a 1 MB query is ~200,000 words).
fn split_camel<'a>(word: &'a str, mut part: impl FnMut(&'a str)) {
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut chars = word.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let boundary = c.is_uppercase()
            && match prev {
                Some(p) if p.is_lowercase() || p.is_numeric() => true,
                Some(p) if p.is_uppercase() => chars.peek().is_some_and(|&(_, n)| n.is_lowercase()),
                _ => false,
            };
        if boundary && i > start {
            if let Some(p) = word.get(start..i) {
                part(p);
            }
            start = i;
        }
        prev = Some(c);
    }
    if let Some(p) = word.get(start..).filter(|p| !p.is_empty()) {
        part(p);
    }
}

/// The words of an ASCII `query` (runs of ASCII letters and digits), each split as
/// [`split_camel`] splits it, in one pass over the bytes: what `split` on
/// `!char::is_alphanumeric` and [`split_camel`] give for ASCII text (for an ASCII
/// character, `is_alphanumeric`, `is_uppercase`, `is_lowercase` and `is_numeric` are
/// their ASCII forms), without decoding characters.
fn ascii_parts<'a>(query: &'a str, mut part: impl FnMut(&'a str)) {
    let b = query.as_bytes();
    let n = b.len();
    let mut i = 0;
    while i < n {
        while i < n && !b.get(i).is_some_and(u8::is_ascii_alphanumeric) {
            i += 1;
        }
        let mut start = i;
        while let Some(&c) = b.get(i).filter(|c| c.is_ascii_alphanumeric()) {
            if c.is_ascii_uppercase() && i > start {
                let p = b.get(i - 1).copied().unwrap_or(0);
                let boundary = p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && b.get(i + 1).is_some_and(u8::is_ascii_lowercase));
                if boundary {
                    if let Some(w) = query.get(start..i) {
                        part(w);
                    }
                    start = i;
                }
            }
            i += 1;
        }
        if i > start {
            if let Some(w) = query.get(start..i) {
                part(w);
            }
        }
    }
}

/// Up to this many terms, [`extract_terms`] de-duplicates and looks stopwords up by
/// scanning the terms (the typical query; cheaper than sorting), beyond by sorting them.
const LINEAR_TERMS: usize = 16;

/// Extracts query terms (the rules: [`crate::rerank`]'s documentation), in time
/// `O(n log n)` in the length `n` of the query, whatever the query (and `O(m log n)` in
/// the length `m` of a stopword list).
///
/// Terms are de-duplicated keeping the first occurrence: by a scan of at most
/// `LINEAR_TERMS` (16) distinct terms; beyond, every term found is appended to one
/// buffer, and the buffer's terms are sorted (by their first eight bytes, then as
/// strings, then by position: [`sort_keyed_then`]) so that equal terms meet, the first of
/// each kept. (A hash map did this until the twenty-eighth session: with a hash whose
/// keys a caller can know, which the wasm modules' are, words crafted to collide made it
/// quadratic.) ASCII parts are lowercased in a reused buffer. An ASCII query is split in
/// one pass over its bytes (`ascii_parts`). A term is looked up among the 73 built-in
/// stopwords as one integer (`is_builtin_stopword`). A user list is looked up the other
/// way round: each stopword among the terms (no set of the list, which may be long),
/// then the terms found dropped: the same terms, in the same order, as dropping the
/// stopwords before de-duplicating.
pub fn extract_terms(query: &str, stopwords: Option<&[String]>) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    // Beyond LINEAR_TERMS distinct terms: every term found (repeats too), one after the
    // other in `all`, each ending at its entry of `ends` (`terms` is then empty).
    let mut all = String::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut ascii = String::new();
    let mut each_part = |part: &str| {
        // An ASCII string's lowercase is byte-wise.
        let t: Cow<'_, str> = if part.is_ascii() {
            ascii.clear();
            ascii.push_str(part);
            ascii.make_ascii_lowercase();
            Cow::Borrowed(&ascii)
        } else {
            Cow::Owned(to_lowercase(part))
        };
        // Fewer than two characters once lowercased (`İ` makes two), or a built-in
        // stopword.
        if t.chars().nth(1).is_none() || (stopwords.is_none() && is_builtin_stopword(&t)) {
            return;
        }
        if !ends.is_empty() {
            all.push_str(&t);
            ends.push(all.len());
        } else if terms.iter().any(|x| *x == *t) {
        } else if terms.len() < LINEAR_TERMS {
            terms.push(t.into_owned());
        } else {
            for x in terms.drain(..).chain(std::iter::once(t.into_owned())) {
                all.push_str(&x);
                ends.push(all.len());
            }
        }
    };
    if query.is_ascii() {
        ascii_parts(query, &mut each_part);
    } else {
        for word in query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            split_camel(word, &mut each_part);
        }
    }
    if !ends.is_empty() {
        return distinct(&all, &ends, stopwords.unwrap_or_default());
    }
    match stopwords {
        None => terms,
        // At most LINEAR_TERMS terms: flag those in the list.
        Some(list) => {
            let mut stop = [false; LINEAR_TERMS];
            for s in list {
                if let Some(flag) = terms
                    .iter()
                    .position(|t| t == s)
                    .and_then(|i| stop.get_mut(i))
                {
                    *flag = true;
                }
            }
            let mut flags = stop.iter();
            terms.retain(|_| flags.next() != Some(&true));
            terms
        }
    }
}

/// The distinct terms of `all` (term `i` ends at `ends[i]`, starts where term `i - 1`
/// ends) in order of first occurrence, but those in `stop`.
fn distinct(all: &str, ends: &[usize], stop: &[String]) -> Vec<String> {
    let term = |i: u32| -> &str {
        let i = i as usize;
        let start = i
            .checked_sub(1)
            .and_then(|j| ends.get(j))
            .copied()
            .unwrap_or(0);
        let end = ends.get(i).copied().unwrap_or(start);
        all.get(start..end).unwrap_or_default()
    };
    // A term's first eight bytes, big-endian: equal terms have equal keys.
    let prefix = |t: &str| {
        t.bytes()
            .chain(std::iter::repeat(0))
            .take(8)
            .fold(0u64, |k, b| k << 8 | u64::from(b))
    };
    let n = u32::try_from(ends.len()).unwrap_or(u32::MAX);
    let mut order: Vec<Keyed> = (0..n).map(|i| (prefix(term(i)), i)).collect();
    sort_keyed_then(&mut order, &mut |a, b| term(a).cmp(term(b)));
    // The first occurrence of each term: the first of its run (runs are by position).
    let mut first = vec![false; ends.len()];
    let mut previous: Option<&str> = None;
    for &(_, i) in &order {
        let t = term(i);
        if previous != Some(t) {
            if let Some(f) = first.get_mut(i as usize) {
                *f = true;
            }
        }
        previous = Some(t);
    }
    // Each stopword found by binary search in that order.
    for s in stop {
        let key = (prefix(s), s.as_str());
        let at = order.partition_point(|&(k, i)| (k, term(i)) < key);
        if let Some(&(_, i)) = order.get(at).filter(|&&(_, i)| term(i) == s) {
            if let Some(f) = first.get_mut(i as usize) {
                *f = false;
            }
        }
    }
    (0..n)
        .filter(|&i| first.get(i as usize) == Some(&true))
        .map(|i| term(i).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rerank::tests::Rng;

    /// `split_camel` as it was (a copy of every part).
    fn split_camel_reference(word: &str) -> Vec<String> {
        let chars: Vec<char> = word.chars().collect();
        let mut parts = Vec::new();
        let mut current = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let prev = i.checked_sub(1).and_then(|p| chars.get(p));
            let next = chars.get(i + 1);
            let boundary = c.is_uppercase()
                && match prev {
                    Some(p) if p.is_lowercase() || p.is_numeric() => true,
                    Some(p) if p.is_uppercase() => next.is_some_and(|n| n.is_lowercase()),
                    _ => false,
                };
            if boundary && !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
            current.push(c);
        }
        if !current.is_empty() {
            parts.push(current);
        }
        parts
    }

    #[test]
    fn split_camel_matches_reference() {
        // Upper, lower, titlecase (ǅ: neither), digits, letter numerals that are both a
        // case and numeric (Ⅻ, ⅻ), caseless letters and multi-byte characters.
        let chars = [
            "a", "b", "A", "B", "1", "ǅ", "İ", "é", "É", "ß", "ẞ", "Σ", "ς", "Ⅻ", "ⅻ", "٣", "中",
            "_",
        ];
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        for _ in 0..20_000 {
            let word = rng.string(&chars, 10);
            let mut parts = Vec::new();
            split_camel(&word, |p| parts.push(p.to_string()));
            assert_eq!(parts, split_camel_reference(&word), "{word:?}");
        }
    }

    /// The built-in stopwords are sorted and distinct, and `is_builtin_stopword` finds
    /// each and not a word one letter longer, nor other short words.
    #[test]
    fn builtin_stopwords_are_sorted_and_found() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        for w in STOPWORDS {
            assert!(is_builtin_stopword(w), "{w}");
            assert!(!is_builtin_stopword(&format!("{w}x")), "{w}x");
        }
        for t in ["", "graph", "zz", "aa", "thee", "yours"] {
            assert!(!is_builtin_stopword(t), "{t}");
        }
    }

    /// `extract_terms` as it was (quadratic de-duplication, linear stopword scans).
    fn extract_terms_reference(query: &str, stopwords: Option<&[String]>) -> Vec<String> {
        let is_stop = |t: &str| match stopwords {
            Some(list) => list.iter().any(|s| s == t),
            None => STOPWORDS.contains(&t),
        };
        let mut terms: Vec<String> = Vec::new();
        for word in query
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            for part in split_camel_reference(word) {
                let t = part.to_lowercase();
                if t.chars().count() < 2 || is_stop(&t) || terms.contains(&t) {
                    continue;
                }
                terms.push(t);
            }
        }
        terms
    }

    /// Random queries of `words` joined by `seps`, half of them beyond `LINEAR_TERMS`
    /// terms (the hash map), with up to `max_user - 1` user stopwords from `stop_pool` in
    /// two rounds of three: `extract_terms` gives the reference's terms. Every query is
    /// checked to be ASCII when all the pieces are.
    fn matches_reference_on_random_queries(
        seed: u64,
        rounds: usize,
        words: &[&str],
        seps: &[&str],
        stop_pool: &[&str],
        max_user: usize,
    ) {
        let ascii = words.iter().chain(seps).all(|w| w.is_ascii());
        let mut rng = Rng(seed);
        for round in 0..rounds {
            let n = if round % 2 == 0 {
                rng.below(14)
            } else {
                rng.below(60)
            };
            let mut q = String::new();
            for _ in 0..n {
                q.push_str(rng.pick(words));
                q.push_str(rng.pick(seps));
            }
            if ascii {
                assert!(q.is_ascii());
            }
            let user: Vec<String> = (0..rng.below(max_user))
                .map(|_| rng.pick(stop_pool).to_string())
                .collect();
            let stop = (round % 3 != 0).then_some(user.as_slice());
            assert_eq!(
                extract_terms(&q, stop),
                extract_terms_reference(&q, stop),
                "{q:?} {stop:?}"
            );
        }
    }

    #[test]
    fn extract_terms_matches_reference() {
        let words = [
            "GraphTraversal",
            "HTTPServer",
            "XMLHttpRequest",
            "camelCaseWord",
            "version2Parser",
            "parse_json-file",
            "the",
            "The",
            "THE",
            "a",
            "I",
            "how",
            "cat",
            "graph",
            "GRAPH",
            "x",
            "ab",
            "AB",
            "aB",
            "Ab",
            "Über",
            "straße",
            "ÉCOLE",
            "é",
            "ǅ",
            "İstanbul",
            "İ",
            "aİ",
            "ΣΑΣ",
            "123",
            "a1B2",
            "x9",
        ];
        let seps = [" ", " ", "", "-", "_", ".", "?", "  ", "\t", "→"];
        let stop_pool = [
            "cat",
            "graph",
            "the",
            "",
            "GRAPH",
            "über",
            "ab",
            "x9",
            "server",
            "traversal",
            "version2",
            "i\u{307}stanbul",
            "σας",
        ];
        matches_reference_on_random_queries(
            0x2545_F491_4F6C_DD1D,
            3000,
            &words,
            &seps,
            &stop_pool,
            6,
        );
    }

    /// ASCII queries take `ascii_parts` (no character decoding): the same terms as the
    /// reference, with every built-in stopword in every case, camel-case runs, digits,
    /// ASCII separators (a zero byte among them: words holding one are split there, so
    /// `packed_stopwords_are_the_stopwords` tests the zero-byte rule directly) and words
    /// longer than any stopword.
    #[test]
    fn ascii_queries_match_reference() {
        let mut words: Vec<String> = [
            "GraphTraversal",
            "HTTPServer",
            "XMLHttpRequest",
            "aBC",
            "ABc",
            "AbC",
            "a1B2",
            "x9",
            "9x",
            "X9Y",
            "iPhone",
            "IOError",
            "should",
            "Should",
            "SHOULD",
            "shoulder",
            "thes",
            "ab",
            "A",
            "I",
            "\0",
            "th\0",
            "a\0",
            "1",
            "22",
            "abcdefghij",
        ]
        .iter()
        .map(|w| w.to_string())
        .collect();
        for w in STOPWORDS {
            words.push(w.to_string());
            words.push(w.to_ascii_uppercase());
            let mut cap = w.to_string();
            cap[..1].make_ascii_uppercase();
            words.push(cap);
        }
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        // Separators next to the ASCII letters and digits in the code table too.
        let seps = [
            " ", "", "-", "_", ".", "?", "  ", "\t", "'", "/", ":", "@", "[", "`", "{", "\n",
            "\x7f",
        ];
        let stop_pool = ["the", "graph", "ab", "x9", "server", "should"];
        matches_reference_on_random_queries(
            0x9E37_79B9_7F4A_7C15,
            4000,
            &words,
            &seps,
            &stop_pool,
            4,
        );
    }

    #[test]
    fn packed_stopwords_are_the_stopwords() {
        for t in ["th\0", "a\0", "\0", "shoulder", "", "x"] {
            assert!(!is_builtin_stopword(t), "{t:?}");
        }
        let mut sorted: Vec<u64> = STOPWORDS.iter().map(|w| pack8(w.as_bytes())).collect();
        sorted.sort_unstable();
        assert_eq!(sorted, PACKED_STOPWORDS);
    }

    #[test]
    fn term_extraction() {
        assert_eq!(
            extract_terms("GraphTraversal", None),
            vec!["graph", "traversal"]
        );
        assert_eq!(
            extract_terms("HTTPServer parse_json-file", None),
            vec!["http", "server", "parse", "json", "file"]
        );
        assert_eq!(
            extract_terms("How do I configure the Authentication?", None),
            vec!["configure", "authentication"]
        );
        assert_eq!(extract_terms("graph GRAPH Graph", None), vec!["graph"]);
        assert_eq!(
            extract_terms("Über straße ÉCOLE", None),
            vec!["über", "straße", "école"]
        );
        assert_eq!(extract_terms("a b c", None), Vec::<String>::new());
        assert_eq!(
            extract_terms("the cat", Some(&["cat".to_string()])),
            vec!["the"]
        );
        assert_eq!(
            extract_terms("version2Parser", None),
            vec!["version2", "parser"]
        );
    }
}
