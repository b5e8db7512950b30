//! Tests of run fusion (`calibrank::lab::runfusion`).
//! Hand-computed examples for every method and normalization, and the error cases.
//!
//! The two-run example used throughout, one query `q`:
//!
//! | run | ranking (score) |
//! | --- | --- |
//! | A | a (3), b (2), c (1) |
//! | B | b (0.9), c (0.5), d (0.1) |

use calibrank::error::ErrorCode;
use calibrank::lab::runfusion::*;
use calibrank::lab::runs::Run;
use std::collections::BTreeMap;

fn run(q: &str, docs: &[(&str, f64)]) -> Run {
    let mut r = Run::new();
    r.insert(
        q.to_string(),
        docs.iter().map(|(d, s)| (d.to_string(), *s)).collect(),
    );
    r
}

fn example() -> Vec<Run> {
    vec![
        run("q", &[("a", 3.0), ("b", 2.0), ("c", 1.0)]),
        run("q", &[("b", 0.9), ("c", 0.5), ("d", 0.1)]),
    ]
}

fn opts(
    method: &str,
    norm: Option<&str>,
    weights: Option<Vec<f64>>,
    params: &[(&str, f64)],
) -> FuseRunsOptions {
    FuseRunsOptions {
        method: method.to_string(),
        norm: norm.map(str::to_string),
        weights,
        params: params.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
    }
}

/// Fuses the example with no normalization (unless `norm` says otherwise).
fn fuse(
    method: &str,
    norm: Option<&str>,
    weights: Option<Vec<f64>>,
    params: &[(&str, f64)],
) -> Vec<(String, f64)> {
    let out = fuse_runs(
        &example(),
        &opts(method, norm.or(Some("none")), weights, params),
    )
    .unwrap();
    assert_eq!(out.len(), 1);
    ranked(&out["q"])
}

fn assert_scores(got: &[(String, f64)], expected: &[(&str, f64)]) {
    let got_ids: Vec<&str> = got.iter().map(|(d, _)| d.as_str()).collect();
    let expected_ids: Vec<&str> = expected.iter().map(|(d, _)| *d).collect();
    assert_eq!(got_ids, expected_ids, "order of {got:?}");
    for ((d, g), (_, e)) in got.iter().zip(expected) {
        assert!((g - e).abs() <= 1e-12, "{d}: got {g}, expected {e}");
    }
}

// Score combinations ------------------------------------------------------------------

#[test]
fn comb_sum_counts_missing_as_zero() {
    assert_scores(
        &fuse("sum", None, None, &[]),
        &[("a", 3.0), ("b", 2.9), ("c", 1.5), ("d", 0.1)],
    );
}

#[test]
fn comb_mnz_multiplies_by_hits() {
    assert_scores(
        &fuse("mnz", None, None, &[]),
        &[("b", 5.8), ("a", 3.0), ("c", 3.0), ("d", 0.1)],
    );
}

#[test]
fn comb_max_min_med_anz() {
    assert_scores(
        &fuse("max", None, None, &[]),
        &[("a", 3.0), ("b", 2.0), ("c", 1.0), ("d", 0.1)],
    );
    assert_scores(
        &fuse("min", None, None, &[]),
        &[("a", 3.0), ("b", 0.9), ("c", 0.5), ("d", 0.1)],
    );
    assert_scores(
        &fuse("med", None, None, &[]),
        &[("a", 3.0), ("b", 1.45), ("c", 0.75), ("d", 0.1)],
    );
    assert_scores(
        &fuse("anz", None, None, &[]),
        &[("a", 3.0), ("b", 1.45), ("c", 0.75), ("d", 0.1)],
    );
}

#[test]
fn comb_max_and_min_use_ranx_stand_ins_for_missing() {
    // A document missing from a run counts -1e9 in max and 1e9 in min, as in ranx.
    let runs = vec![run("q", &[("a", -2e9)]), run("q", &[("b", 2e9)])];
    let max = fuse_runs(&runs, &opts("max", Some("none"), None, &[])).unwrap();
    assert_eq!(max["q"]["a"], -1e9);
    let min = fuse_runs(&runs, &opts("min", Some("none"), None, &[])).unwrap();
    assert_eq!(min["q"]["b"], 1e9);
}

#[test]
fn comb_med_of_three() {
    let runs = vec![
        run("q", &[("a", 1.0)]),
        run("q", &[("a", 7.0)]),
        run("q", &[("a", 3.0)]),
    ];
    let out = fuse_runs(&runs, &opts("med", Some("none"), None, &[])).unwrap();
    assert_eq!(out["q"]["a"], 3.0);
}

#[test]
fn comb_gmnz() {
    assert_scores(
        &fuse("gmnz", None, None, &[("gamma", 2.0)]),
        &[("b", 11.6), ("c", 6.0), ("a", 3.0), ("d", 0.1)],
    );
}

#[test]
fn weighted_combinations() {
    let w = Some(vec![1.0, 2.0]);
    assert_scores(
        &fuse("wsum", None, w.clone(), &[]),
        &[("b", 3.8), ("a", 3.0), ("c", 2.0), ("d", 0.2)],
    );
    assert_scores(
        &fuse("wmnz", None, w.clone(), &[]),
        &[("b", 8.7), ("c", 4.5), ("a", 3.0), ("d", 0.2)],
    );
    let r2 = std::f64::consts::SQRT_2;
    assert_scores(
        &fuse("mixed", None, w, &[]),
        &[("b", 3.8 * r2), ("a", 3.0), ("c", 2.0 * r2), ("d", 0.2)],
    );
    // Default weights are 1.
    assert_scores(
        &fuse("wsum", None, None, &[]),
        &fuse("sum", None, None, &[])
            .iter()
            .map(|(d, s)| (d.as_str(), *s))
            .collect::<Vec<_>>(),
    );
}

// Rank-based methods -------------------------------------------------------------------

#[test]
fn rrf_default_k_is_60() {
    let expected = [
        ("b", 1.0 / 62.0 + 1.0 / 61.0),
        ("c", 1.0 / 63.0 + 1.0 / 62.0),
        ("a", 1.0 / 61.0),
        ("d", 1.0 / 63.0),
    ];
    assert_scores(&fuse("rrf", None, None, &[]), &expected);
    assert_scores(&fuse("rrf", None, None, &[("k", 60.0)]), &expected);
    assert_scores(
        &fuse("rrf", None, None, &[("k", 0.0)]),
        &[
            ("b", 1.5),
            ("a", 1.0),
            ("c", 1.0 / 3.0 + 0.5),
            ("d", 1.0 / 3.0),
        ],
    );
}

#[test]
fn rbc() {
    assert_scores(
        &fuse("rbc", None, None, &[("phi", 0.5)]),
        &[("b", 0.75), ("a", 0.5), ("c", 0.375), ("d", 0.125)],
    );
}

#[test]
fn isr_family() {
    // Per run: 1, 1/4, 1/9 by rank.
    let c = 1.0 / 9.0 + 0.25;
    assert_scores(
        &fuse("isr", None, None, &[]),
        &[("b", 2.5), ("a", 1.0), ("c", 2.0 * c), ("d", 1.0 / 9.0)],
    );
    let ln2 = std::f64::consts::LN_2;
    assert_scores(
        &fuse("log_isr", None, None, &[]),
        &[("b", 1.25 * ln2), ("c", c * ln2), ("a", 0.0), ("d", 0.0)],
    );
    let (l1, l2) = (libm::log(1.01), libm::log(2.01));
    assert_scores(
        &fuse("logn_isr", None, None, &[]),
        &[("b", 1.25 * l2), ("c", c * l2), ("a", l1), ("d", l1 / 9.0)],
    );
    let (l1, l2) = (libm::log(1.5), libm::log(2.5));
    assert_scores(
        &fuse("logn_isr", None, None, &[("sigma", 0.5)]),
        &[("b", 1.25 * l2), ("a", l1), ("c", c * l2), ("d", l1 / 9.0)],
    );
}

#[test]
fn bordafuse() {
    // N = 4 candidates. A: a 4, b 3, c 2, d (4-3+1)/2 = 1. B: b 4, c 3, d 2, a 1.
    assert_scores(
        &fuse("bordafuse", None, None, &[]),
        &[("b", 7.0), ("a", 5.0), ("c", 5.0), ("d", 3.0)],
    );
    assert_scores(
        &fuse("w_bordafuse", None, Some(vec![1.0, 2.0]), &[]),
        &[("b", 11.0), ("c", 8.0), ("a", 6.0), ("d", 5.0)],
    );
}

#[test]
fn condorcet_follows_cpython_sort_on_an_intransitive_majority() {
    // a-b, a-c and a-d split 1-1 (a tie says "before" both ways); b beats c and d,
    // c beats d. CPython: count_run sees b < a (descending run [a, b] -> [b, a]), then
    // binary insertion puts c before a (tie) after b, and d after c, before a (tie).
    assert_scores(
        &fuse("condorcet", None, None, &[]),
        &[("b", 4.0), ("c", 3.0), ("d", 2.0), ("a", 1.0)],
    );
    assert_scores(
        &fuse("w_condorcet", None, Some(vec![1.0, 1.0]), &[]),
        &fuse("condorcet", None, None, &[])
            .iter()
            .map(|(d, s)| (d.as_str(), *s))
            .collect::<Vec<_>>(),
    );
    // Run A outweighs run B: A's order, then d (which only B ranks).
    assert_scores(
        &fuse("w_condorcet", None, Some(vec![2.0, 1.0]), &[]),
        &[("a", 4.0), ("b", 3.0), ("c", 2.0), ("d", 1.0)],
    );
}

// Qdrant and OpenSearch ---------------------------------------------------------------------

#[test]
fn qdrant_dbsf() {
    // A: mean 2, sample std 1 -> [-1, 5]: a 4/6, b 3/6, c 2/6.
    // B: mean 0.5, sample std 0.4 -> [-0.7, 1.7]: b 1.6/2.4, c 1.2/2.4, d 0.8/2.4.
    assert_scores(
        &fuse("dbsf", None, None, &[]),
        &[
            ("b", 0.5 + 2.0 / 3.0),
            ("c", 1.0 / 3.0 + 0.5),
            ("a", 2.0 / 3.0),
            ("d", 1.0 / 3.0),
        ],
    );
    assert_scores(
        &fuse("dbsf", None, Some(vec![0.5, 2.0]), &[]),
        &[
            ("b", 0.25 + 4.0 / 3.0),
            ("c", 1.0 / 6.0 + 1.0),
            ("d", 2.0 / 3.0),
            ("a", 1.0 / 3.0),
        ],
    );
    // dbsf needs no norm of its own by default.
    assert_eq!(default_norm("dbsf"), Some("none"));
}

#[test]
fn qdrant_dbsf_does_not_clip_and_handles_degenerate_lists() {
    // Scores 0 x 19 and 10: mean 0.5, sample std sqrt(5) -> 10 maps above 1.
    let mut docs: Vec<(String, f64)> = (0..19).map(|i| (format!("d{i:02}"), 0.0)).collect();
    docs.push(("top".to_string(), 10.0));
    let refs: Vec<(&str, f64)> = docs.iter().map(|(d, s)| (d.as_str(), *s)).collect();
    let out = fuse_runs(&[run("q", &refs)], &opts("dbsf", None, None, &[])).unwrap();
    let std = libm::sqrt(5.0);
    let expected = (10.0 - (0.5 - 3.0 * std)) / (6.0 * std);
    assert!(expected > 1.0);
    assert!((out["q"]["top"] - expected).abs() < 1e-12);
    // One document, or all-equal scores: 0.5.
    let out = fuse_runs(
        &[run("q", &[("x", 7.0)]), run("q", &[("x", 2.0), ("y", 2.0)])],
        &opts("dbsf", None, None, &[]),
    )
    .unwrap();
    assert_eq!(out["q"]["x"], 1.0);
    assert_eq!(out["q"]["y"], 0.5);
}

#[test]
fn opensearch_means() {
    // min-max: A: a 1, b 0.5, c 0 -> 0.001. B: b 1, c 0.5, d 0.001. Missing: 0.
    assert_scores(
        &fuse("arithmetic_mean", None, None, &[]),
        &[("b", 0.75), ("a", 0.5), ("c", 0.2505), ("d", 0.0005)],
    );
    assert_scores(
        &fuse("geometric_mean", None, None, &[]),
        &[
            ("a", 1.0),
            ("b", libm::sqrt(0.5)),
            ("c", libm::sqrt(0.0005)),
            ("d", 0.001),
        ],
    );
    assert_scores(
        &fuse("harmonic_mean", None, None, &[]),
        &[
            ("a", 1.0),
            ("b", 2.0 / 3.0),
            ("c", 2.0 / 1002.0),
            ("d", 0.001),
        ],
    );
    let w = Some(vec![0.25, 0.75]);
    assert_scores(
        &fuse("arithmetic_mean", None, w.clone(), &[]),
        &[
            ("b", 0.875),
            ("c", 0.25 * 0.001 + 0.75 * 0.5),
            ("a", 0.25),
            ("d", 0.75 * 0.001),
        ],
    );
    assert_scores(
        &fuse("geometric_mean", None, w.clone(), &[]),
        &[
            ("a", 1.0),
            ("b", libm::pow(0.5, 0.25)),
            (
                "c",
                libm::exp(0.25 * libm::log(0.001) + 0.75 * libm::log(0.5)),
            ),
            ("d", 0.001),
        ],
    );
    assert_scores(
        &fuse("harmonic_mean", None, w, &[]),
        &[
            ("a", 1.0),
            ("b", 1.0 / (0.25 / 0.5 + 0.75)),
            ("c", 1.0 / (250.0 + 1.5)),
            ("d", 0.001),
        ],
    );
}

#[test]
fn opensearch_min_max_of_equal_scores_is_one() {
    let out = fuse_runs(
        &[run("q", &[("x", 2.0), ("y", 2.0)])],
        &opts("arithmetic_mean", None, None, &[]),
    )
    .unwrap();
    assert_eq!(out["q"]["x"], 1.0);
    assert_eq!(out["q"]["y"], 1.0);
    // Zero weights: 0.
    let out = fuse_runs(
        &example(),
        &opts("geometric_mean", None, Some(vec![0.0, 0.0]), &[]),
    )
    .unwrap();
    assert!(out["q"].values().all(|s| *s == 0.0));
}

// Normalizations ------------------------------------------------------------------------

fn norm_of(norm: &str) -> BTreeMap<String, f64> {
    // sum over a single run returns the normalized run itself.
    let out = fuse_runs(&example()[..1], &opts("sum", Some(norm), None, &[])).unwrap();
    out["q"].clone()
}

fn assert_map(got: &BTreeMap<String, f64>, expected: &[(&str, f64)]) {
    assert_eq!(got.len(), expected.len(), "{got:?}");
    for (d, e) in expected {
        assert!(
            (got[*d] - e).abs() <= 1e-12,
            "{d}: got {}, expected {e}",
            got[*d]
        );
    }
}

#[test]
fn normalizations() {
    assert_map(&norm_of("min-max"), &[("a", 1.0), ("b", 0.5), ("c", 0.0)]);
    assert_map(&norm_of("min_max"), &[("a", 1.0), ("b", 0.5), ("c", 0.0)]);
    assert_map(
        &norm_of("min-max-inverted"),
        &[("a", 0.0), ("b", 0.5), ("c", 1.0)],
    );
    assert_map(
        &norm_of("max"),
        &[("a", 1.0), ("b", 2.0 / 3.0), ("c", 1.0 / 3.0)],
    );
    // sum: (s - 1) / (6 - 1 * 3)
    assert_map(
        &norm_of("sum"),
        &[("a", 2.0 / 3.0), ("b", 1.0 / 3.0), ("c", 0.0)],
    );
    // zmuv: mean 2, population std sqrt(2/3)
    let sd = libm::sqrt(2.0 / 3.0);
    assert_map(
        &norm_of("zmuv"),
        &[("a", 1.0 / sd), ("b", 0.0), ("c", -1.0 / sd)],
    );
    assert_map(
        &norm_of("rank"),
        &[("a", 1.0), ("b", 2.0 / 3.0), ("c", 1.0 / 3.0)],
    );
    assert_map(&norm_of("none"), &[("a", 3.0), ("b", 2.0), ("c", 1.0)]);
}

#[test]
fn borda_norm_covers_every_candidate() {
    // N = 4; A (n = 3): 1 - i/4, missing 0.5 - 2/8. B likewise.
    let out = fuse_runs(&example(), &opts("max", Some("borda"), None, &[])).unwrap();
    assert_map(
        &out["q"],
        &[("a", 1.0), ("b", 1.0), ("c", 0.75), ("d", 0.5)],
    );
    // Every candidate is in every normalized run, so mnz multiplies everything by 2.
    let out = fuse_runs(&example(), &opts("mnz", Some("borda"), None, &[])).unwrap();
    assert_map(&out["q"], &[("a", 2.5), ("b", 3.5), ("c", 2.5), ("d", 1.5)]);
}

#[test]
fn degenerate_normalizations() {
    let equal = vec![run("q", &[("x", 2.0), ("y", 2.0)])];
    let out = fuse_runs(&equal, &opts("sum", Some("min-max"), None, &[])).unwrap();
    assert_map(&out["q"], &[("x", 0.0), ("y", 0.0)]);
    let out = fuse_runs(&equal, &opts("sum", Some("zmuv"), None, &[])).unwrap();
    assert_map(&out["q"], &[("x", 0.0), ("y", 0.0)]);
    // max of a non-positive run divides by 1e-9.
    let out = fuse_runs(
        &[run("q", &[("x", -1.0), ("y", 0.0)])],
        &opts("sum", Some("max"), None, &[]),
    )
    .unwrap();
    assert_map(&out["q"], &[("x", -1.0 / 1e-9), ("y", 0.0)]);
}

#[test]
fn default_norm_is_min_max_for_ranx_methods() {
    for m in METHODS {
        let expected =
            if ["dbsf", "arithmetic_mean", "geometric_mean", "harmonic_mean"].contains(&m) {
                "none"
            } else {
                "min-max"
            };
        assert_eq!(default_norm(m), Some(expected), "{m}");
    }
    assert_eq!(default_norm("nope"), None);
    let explicit = fuse_runs(&example(), &opts("sum", Some("min-max"), None, &[])).unwrap();
    let default = fuse_runs(&example(), &opts("sum", None, None, &[])).unwrap();
    assert_eq!(explicit, default);
    // min-max: A a 1, b .5, c 0; B b 1, c .5, d 0.
    assert_map(
        &default["q"],
        &[("a", 1.0), ("b", 1.5), ("c", 0.5), ("d", 0.0)],
    );
}

// Ties, queries, output ------------------------------------------------------------------

#[test]
fn ties_rank_by_doc_id() {
    let tied = vec![run("q", &[("z", 1.0), ("m", 1.0), ("a", 1.0)])];
    let out = fuse_runs(&tied, &opts("rrf", Some("none"), None, &[("k", 0.0)])).unwrap();
    assert_map(&out["q"], &[("a", 1.0), ("m", 0.5), ("z", 1.0 / 3.0)]);
    let r = ranked(&out["q"]);
    assert_eq!(
        r.iter().map(|(d, _)| d.as_str()).collect::<Vec<_>>(),
        ["a", "m", "z"]
    );
    let mut zeros = BTreeMap::new();
    zeros.insert("b".to_string(), -0.0);
    zeros.insert("a".to_string(), 0.0);
    assert_eq!(ranked(&zeros)[0].0, "a");
}

#[test]
fn queries_are_the_union_and_one_run_is_enough() {
    let runs = vec![run("q1", &[("a", 1.0)]), run("q2", &[("b", 1.0)])];
    let out = fuse_runs(&runs, &opts("mnz", None, None, &[])).unwrap();
    assert_eq!(out.keys().collect::<Vec<_>>(), ["q1", "q2"]);
    let mut empty = Run::new();
    empty.insert("q3".to_string(), BTreeMap::new());
    let out = fuse_runs(&[empty], &opts("condorcet", None, None, &[])).unwrap();
    assert!(out["q3"].is_empty());
    for m in METHODS {
        let w = ["wsum", "wmnz", "mixed", "w_bordafuse", "w_condorcet"]
            .contains(&m)
            .then(|| vec![1.0, 1.0]);
        let params: &[(&str, f64)] = match m {
            "rbc" => &[("phi", 0.8)],
            "gmnz" => &[("gamma", 1.0)],
            _ => &[],
        };
        let out = fuse_runs(&runs, &opts(m, None, w, params)).unwrap();
        assert_eq!(out["q1"].len() + out["q2"].len(), 2, "{m}");
    }
}

#[test]
fn overflow_is_an_error() {
    let runs = vec![run("q", &[("x", -1e300), ("y", 0.0)])];
    let e = fuse_runs(&runs, &opts("sum", Some("max"), None, &[])).unwrap_err();
    assert_eq!(e.code, ErrorCode::NonFiniteScore);
    assert_eq!(e.field, "runs");
    assert!(
        e.message.contains(r#"document "x" for query "q""#),
        "{}",
        e.message
    );
}

// Errors -----------------------------------------------------------------------------------

fn err(runs: &[Run], o: FuseRunsOptions) -> (ErrorCode, String) {
    let e = fuse_runs(runs, &o).unwrap_err();
    (e.code, e.field)
}

#[test]
fn error_cases() {
    let ex = example();
    let code = |c: ErrorCode, f: &str| (c, f.to_string());
    assert_eq!(
        err(&[], opts("sum", None, None, &[])),
        code(ErrorCode::EmptyInput, "runs")
    );
    assert_eq!(
        err(&ex, opts("nope", None, None, &[])),
        code(ErrorCode::UnknownMethod, "method")
    );
    assert_eq!(
        err(&ex, opts("probfuse", None, None, &[])),
        code(ErrorCode::UnknownMethod, "method")
    );
    assert_eq!(
        err(&ex, opts("sum", Some("l2"), None, &[])),
        code(ErrorCode::UnknownMethod, "norm")
    );
    assert_eq!(
        err(&ex, opts("wsum", None, Some(vec![1.0]), &[])),
        code(ErrorCode::LengthMismatch, "weights")
    );
    assert_eq!(
        err(&ex, opts("wsum", None, Some(vec![1.0, -1.0]), &[])),
        code(ErrorCode::InvalidWeight, "weights[1]")
    );
    assert_eq!(
        err(&ex, opts("wsum", None, Some(vec![f64::NAN, 1.0]), &[])),
        code(ErrorCode::InvalidWeight, "weights[0]")
    );
    assert_eq!(
        err(&ex, opts("rrf", None, Some(vec![1.0, 1.0]), &[])),
        code(ErrorCode::InvalidConfig, "weights")
    );
    // A parameter the method does not take: UNKNOWN_FIELD, worded as every unknown key
    // (its parameters listed; the package's JavaScript adds the nearest).
    assert_eq!(
        err(&ex, opts("rrf", None, None, &[("phi", 0.5)])),
        code(ErrorCode::UnknownField, "params.phi")
    );
    assert_eq!(
        err(&ex, opts("sum", None, None, &[("k", 1.0)])),
        code(ErrorCode::UnknownField, "params.k")
    );
    for (method, key, message) in [
        ("rbc", "hpi", "unknown field `hpi`, expected `phi`"),
        ("gmnz", "agmma", "unknown field `agmma`, expected `gamma`"),
        ("logn_isr", "sigm", "unknown field `sigm`, expected `sigma`"),
        ("rrf", "phi", "unknown field `phi`, expected `k`"),
        ("sum", "k", "unknown field `k`, there are no fields"),
    ] {
        let e = fuse_runs(&ex, &opts(method, None, None, &[(key, 0.5)])).unwrap_err();
        assert_eq!(
            (e.code, e.field, e.message.as_str()),
            (ErrorCode::UnknownField, format!("params.{key}"), message),
            "{method}"
        );
    }
    assert_eq!(
        err(&ex, opts("rrf", None, None, &[("k", -1.0)])),
        code(ErrorCode::InvalidConfig, "params.k")
    );
    assert_eq!(
        err(&ex, opts("rrf", None, None, &[("k", f64::INFINITY)])),
        code(ErrorCode::InvalidConfig, "params.k")
    );
    assert_eq!(
        err(&ex, opts("rbc", None, None, &[])),
        code(ErrorCode::InvalidConfig, "params.phi")
    );
    assert_eq!(
        err(&ex, opts("rbc", None, None, &[("phi", 1.5)])),
        code(ErrorCode::InvalidConfig, "params.phi")
    );
    assert_eq!(
        err(&ex, opts("logn_isr", None, None, &[("sigma", 2.0)])),
        code(ErrorCode::InvalidConfig, "params.sigma")
    );
    assert_eq!(
        err(&ex, opts("gmnz", None, None, &[])),
        code(ErrorCode::InvalidConfig, "params.gamma")
    );
    assert_eq!(
        err(&ex, opts("gmnz", None, None, &[("gamma", f64::NAN)])),
        code(ErrorCode::InvalidConfig, "params.gamma")
    );
    // Every parameter that is not finite is out of range: INVALID_CONFIG, with its value.
    for (method, param) in [
        ("rrf", "k"),
        ("rbc", "phi"),
        ("logn_isr", "sigma"),
        ("gmnz", "gamma"),
    ] {
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let e = fuse_runs(&ex, &opts(method, None, None, &[(param, v)])).unwrap_err();
            assert_eq!(
                (e.code, e.field.as_str()),
                (ErrorCode::InvalidConfig, format!("params.{param}").as_str()),
                "{method} {param} {v}"
            );
            assert_eq!(
                e.message,
                format!("must be a finite number, got {}", calibrank::error::num(v))
            );
        }
    }
    let bad = vec![run("q", &[("a", f64::NAN)])];
    assert_eq!(
        err(&bad, opts("sum", None, None, &[])),
        code(ErrorCode::NonFiniteScore, "runs[0].q.a")
    );
}

#[test]
fn options_json() {
    let o: FuseRunsOptions =
        serde_json::from_str(r#"{"method":"wsum","norm":"zmuv","weights":[0.7,0.3],"params":{}}"#)
            .unwrap();
    assert_eq!(o, opts("wsum", Some("zmuv"), Some(vec![0.7, 0.3]), &[]));
    let o: FuseRunsOptions = serde_json::from_str(r#"{"method":"rrf","params":{"k":10}}"#).unwrap();
    assert_eq!(o, opts("rrf", None, None, &[("k", 10.0)]));
    assert_eq!(
        serde_json::to_string(&o).unwrap(),
        r#"{"method":"rrf","params":{"k":10.0}}"#
    );
    assert!(
        serde_json::from_str::<FuseRunsOptions>(r#"{"method":"rrf","normalization":"max"}"#)
            .is_err()
    );
    assert!(serde_json::from_str::<FuseRunsOptions>(r#"{"norm":"max"}"#).is_err());
}

/// Runs lent, not given: `fuse_runs` and `optimize_fusion` take references to runs the
/// caller keeps (`&[&Run]`), with the output of the runs themselves.
#[test]
fn runs_are_taken_by_reference_too() {
    use calibrank::lab::optimize::{optimize_fusion, OptimizeOptions};
    use calibrank::lab::runs::Qrels;
    let runs = example();
    let o = opts("rrf", None, None, &[]);
    let lent = fuse_runs(&[&runs[0], &runs[1]], &o).unwrap();
    assert_eq!(lent, fuse_runs(&runs, &o).unwrap());
    let qrels: Qrels = [(
        "q".to_string(),
        [("b".to_string(), 1.0)].into_iter().collect(),
    )]
    .into_iter()
    .collect();
    let search = OptimizeOptions {
        method: "rrf".into(),
        metric: "mrr".into(),
        ..Default::default()
    };
    let a = optimize_fusion(&qrels, &[&runs[0], &runs[1]], &search, &mut |_| {}).unwrap();
    let b = optimize_fusion(&qrels, &runs, &search, &mut |_| {}).unwrap();
    assert_eq!(a, b);
}

/// The README's "Where the lab parts from ranx": libm's `pow`, which gmnz uses, is not
/// correctly rounded. A document in both runs, each score 0.5, under gmnz at gamma 1.5
/// scores (0.5 + 0.5) * 2^1.5: 2.82842712474619 here, where glibc's correctly rounded
/// `pow` (ranx's) gives 2.8284271247461903, one unit in the last place above.
#[test]
fn gmnz_pow_is_libm_s_one_ulp_below_the_correctly_rounded_value() {
    let runs = [run("q", &[("d", 0.5)]), run("q", &[("d", 0.5)])];
    let out = fuse_runs(&runs, &opts("gmnz", Some("none"), None, &[("gamma", 1.5)])).unwrap();
    let got = out["q"]["d"];
    assert_eq!(got, 2.82842712474619);
    assert_eq!(got.to_bits() + 1, 2.8284271247461903f64.to_bits());
}
