//! The heuristic reranker on hostile inputs: query preparation is linear in the query
//! and term matching linear in each text, whatever the number and the lengths of the
//! terms. These inputs took minutes with the quadratic de-duplication and the byte-by-byte
//! term comparisons; they run in milliseconds now (no timing is asserted: they just run).
//! Plus a property test of the term factors against the naive definition.
#![cfg(not(target_arch = "wasm32"))]

use calibrank::rerank::{
    extract_terms, heuristic_factors, rerank_heuristic, Candidate, CandidateText, HeuristicConfig,
    PreparedQuery,
};
use proptest::prelude::*;

/// Distinct lowercase words of two letters or more, never a stopword (`q` + base 26).
fn word(mut i: usize) -> String {
    let mut w = String::from("q");
    loop {
        w.push(char::from(b'a' + (i % 26) as u8));
        i /= 26;
        if i == 0 {
            return w;
        }
    }
}

fn candidate(id: &str, name: &str, summary: String) -> Candidate {
    Candidate {
        id: id.into(),
        score: 1.0,
        name: name.into(),
        entity_type: None,
        summary: Some(summary),
        content: None,
    }
}

/// `1 + hits / terms * weight` when there is at least one hit, with `hits` computed the
/// naive way.
fn naive_factor(text: &str, terms: &[String], weight: f64) -> f64 {
    let lower = text.to_lowercase();
    let hits = terms.iter().filter(|t| lower.contains(t.as_str())).count();
    if terms.is_empty() || hits == 0 {
        1.0
    } else {
        1.0 + (hits as f64 / terms.len() as f64) * weight
    }
}

#[test]
fn query_of_200k_distinct_words() {
    let words: Vec<String> = (0..200_000).map(word).collect();
    let query = words.join(" ");
    let terms = extract_terms(&query, None);
    assert_eq!(terms, words);
    let cfg = HeuristicConfig::default();
    let out = rerank_heuristic(
        &query,
        &[candidate("x", "QA", "qb and qc, not qzz".into())],
        &cfg,
    )
    .unwrap();
    // "qa" in the name; "qb", "qc", "qz" ("qzz" contains it) and "qzz" in the summary.
    assert!(words.contains(&"qzz".to_string()));
    assert_eq!(out[0].factors.name_terms, 1.0 + (1.0 / 200_000.0) * 1.5);
    assert_eq!(out[0].factors.summary_terms, 1.0 + (4.0 / 200_000.0) * 0.5);
}

#[test]
fn query_of_repeated_words_keeps_first_occurrences() {
    // 300,000 words, 1,000 distinct, in a scrambled order.
    let query: Vec<String> = (0..300_000usize).map(|i| word((i * 7919) % 1000)).collect();
    let terms = extract_terms(&query.join(" "), None);
    let mut expected: Vec<String> = Vec::new();
    for w in &query[..1000] {
        if !expected.contains(w) {
            expected.push(w.clone());
        }
    }
    assert_eq!(expected.len(), 1000);
    assert_eq!(terms, expected);
}

#[test]
fn long_terms_against_a_megabyte_of_one_letter() {
    // 64 terms "a" * 1000 + "b" + i: none occurs in "a" * 1,000,000; the old matcher
    // compared ~1000 bytes per term at every byte of the text.
    let query: Vec<String> = (0..64)
        .map(|i| format!("{}b{i}", "a".repeat(1000)))
        .collect();
    let query = query.join(" ");
    let q = PreparedQuery::new(&query, None);
    assert_eq!(q.terms.len(), 64);
    let cfg = HeuristicConfig::default();
    let summary = "a".repeat(1_000_000);
    let f = heuristic_factors(
        &q,
        CandidateText {
            name: &summary,
            summary: Some(&summary),
            ..Default::default()
        },
        &cfg,
    );
    assert_eq!((f.name_terms, f.summary_terms), (1.0, 1.0));
    // One of them at the very end: one hit ("...ab7", and no term ends in "b7x").
    let summary = format!("{}B7", "A".repeat(1_000_000));
    let f = heuristic_factors(
        &q,
        CandidateText {
            name: "n",
            summary: Some(&summary),
            ..Default::default()
        },
        &cfg,
    );
    assert_eq!(f.summary_terms, 1.0 + (1.0 / 64.0) * 0.5);
    // Through rerank_heuristic, several candidates of 1 MB.
    let cands: Vec<Candidate> = (0..4)
        .map(|i| candidate(&format!("c{i}"), "n", "a".repeat(1_000_000)))
        .collect();
    for r in rerank_heuristic(&query, &cands, &cfg).unwrap() {
        assert_eq!(r.factors.summary_terms, 1.0);
    }
}

#[test]
fn nested_terms_against_a_megabyte_of_one_letter() {
    // Terms aa, aaa, ..., a^1000 (every one a suffix of the next) and zz, never found,
    // so the scan cannot stop early.
    let mut parts: Vec<String> = (2..=1000).map(|k| "a".repeat(k)).collect();
    parts.push("zz".into());
    let q = PreparedQuery::new(&parts.join(" "), None);
    assert_eq!(q.terms, parts);
    let cfg = HeuristicConfig::default();
    let summary = "a".repeat(1_000_000);
    let f = heuristic_factors(
        &q,
        CandidateText {
            name: "aaa",
            summary: Some(&summary),
            ..Default::default()
        },
        &cfg,
    );
    let n = parts.len() as f64;
    assert_eq!(f.name_terms, 1.0 + (2.0 / n) * 1.5);
    assert_eq!(f.summary_terms, 1.0 + ((n - 1.0) / n) * 0.5);
    // 999 bytes of "a": every term but a^1000 and zz.
    let f = heuristic_factors(
        &q,
        CandidateText {
            name: &"A".repeat(999),
            ..Default::default()
        },
        &cfg,
    );
    assert_eq!(f.name_terms, 1.0 + ((n - 2.0) / n) * 1.5);
}

#[test]
fn a_million_user_stopwords() {
    // The query: words 0..100,000; the stopwords: the even ones among 2,000,000 words
    // (half of them in the query), plus duplicates.
    let query: Vec<String> = (0..100_000).map(word).collect();
    let mut stopwords: Vec<String> = (0..1_000_000).map(|i| word(2 * i)).collect();
    stopwords.extend((0..1000).map(|i| word(2 * i)));
    let cfg = HeuristicConfig {
        stopwords: Some(stopwords),
        ..Default::default()
    };
    let terms = extract_terms(&query.join(" "), cfg.stopwords.as_deref());
    let odd: Vec<String> = query.iter().skip(1).step_by(2).cloned().collect();
    assert_eq!(terms, odd);
    let out = rerank_heuristic(
        &query.join(" "),
        &[candidate("x", "qa qb", "qc qd".into())],
        &cfg,
    )
    .unwrap();
    // qa and qc are stopwords (even); qb and qd are terms.
    assert_eq!(out[0].factors.name_terms, 1.0 + (1.0 / 50_000.0) * 1.5);
    assert_eq!(out[0].factors.summary_terms, 1.0 + (1.0 / 50_000.0) * 0.5);
}

/// Query words: camelCase, acronyms, stopwords, single letters, repeats, non-ASCII.
fn query_word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "GraphTraversal",
        "HTTPServer",
        "graph",
        "Graph",
        "graphs",
        "raph",
        "the",
        "a",
        "aa",
        "aaa",
        "aaaa",
        "ab",
        "ba",
        "abab",
        "Über",
        "straße",
        "ÉCOLE",
        "école",
        "İstanbul",
        "token_cache",
        "x9",
        "KELVIN",
    ])
    .prop_map(String::from)
}

/// Text pieces: the query's words in other cases, their parts, and characters whose
/// lowercase differs in length (İ) or is ASCII (the Kelvin sign).
fn text_piece() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "graph",
        "GRAPH",
        "Traversal",
        "http",
        "server",
        "a",
        "A",
        "aa",
        "b",
        "B",
        "über",
        "ÜBER",
        "STRASSE",
        "straẞe",
        "École",
        "İ",
        "i",
        "\u{212A}elvin",
        "token",
        "cache",
        " ",
        "-",
        "x9",
    ])
    .prop_map(String::from)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512),
        ..ProptestConfig::default()
    })]

    /// The name and summary factors are exactly those of the naive definition, for the
    /// small (Shift-And) and large (automaton) term sets alike.
    #[test]
    fn term_factors_match_the_naive_definition(
        words in prop::collection::vec(query_word(), 0..40),
        long in prop::collection::vec(prop::collection::vec(query_word(), 1..4), 0..30),
        names in prop::collection::vec(prop::collection::vec(text_piece(), 0..30), 1..5),
        summary in prop::collection::vec(text_piece(), 0..60),
    ) {
        // Long camelCase words make term sets beyond the Shift-And capacity.
        let long: Vec<String> = long.iter().map(|w| w.concat()).collect();
        let query = format!("{} {}", words.join(" "), long.join(" "));
        let q = PreparedQuery::new(&query, None);
        let cfg = HeuristicConfig::default();
        let summary = summary.concat();
        for name in names {
            let name = name.concat();
            let f = heuristic_factors(
                &q,
                CandidateText { name: &name, summary: Some(&summary), ..Default::default() },
                &cfg,
            );
            prop_assert_eq!(f.name_terms, naive_factor(&name, &q.terms, 1.5));
            prop_assert_eq!(f.summary_terms, naive_factor(&summary, &q.terms, 0.5));
        }
    }
}
