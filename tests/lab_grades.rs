//! Relevance grades are whole numbers in every way judgements enter the lab's Rust API
//! (`calibrank::lab::runs::check_grade`): a fractional grade is `INVALID_TYPE` with the
//! grade in the message, on `line N` for TREC text, `<qid>.<docid>` for
//! `qrels_from_json`, `qrels.<qid>.<docid>` for the functions that take judgements.
//! Whole grades are taken as they were: 0, 1, 2 and -1 (TREC qrels hold -1).
//!
//! `evaluate` (relevant: grade >= 1, its default level) and `fit_query_confidence`
//! (relevant: grade > 0) disagreed on 0.5; with whole grades they cannot.

use calibrank::error::{ErrorCode, ScoreError};
use calibrank::lab::eval::{
    evaluate, evaluate_ordered, evaluate_ranked, evaluate_ties, parse_qrels, qrels_from_json, Ties,
};
use calibrank::lab::fit::{fit_query_confidence, rows, FitQueryConfidenceOptions};
use calibrank::lab::optimize::{optimize_fusion, OptimizeOptions};
use calibrank::lab::runs::{ranked_by_id, Qrels, Run};
use std::collections::BTreeMap;

/// Whole grades accepted today, and kept.
const WHOLE: [f64; 4] = [0.0, 1.0, 2.0, -1.0];

fn map(entries: &[(&str, &[(&str, f64)])]) -> BTreeMap<String, BTreeMap<String, f64>> {
    entries
        .iter()
        .map(|(q, docs)| {
            let docs = docs.iter().map(|(d, s)| (d.to_string(), *s)).collect();
            (q.to_string(), docs)
        })
        .collect()
}

/// Judgements whose document `a` of query `q1` has `grade`: q2's top document is
/// relevant, q3's judged document is not (so the query-confidence fit has both kinds
/// whatever q1's label).
fn qrels(grade: f64) -> Qrels {
    Qrels(map(&[
        ("q1", &[("a", grade)]),
        ("q2", &[("c", 1.0)]),
        ("q3", &[("e", 0.0)]),
    ]))
}

fn runs() -> Vec<Run> {
    let one = map(&[
        ("q1", &[("a", 3.0), ("b", 2.0)]),
        ("q2", &[("c", 3.0), ("d", 1.0)]),
        ("q3", &[("e", 2.0), ("f", 1.0)]),
    ]);
    let two = map(&[
        ("q1", &[("a", 0.9), ("b", 0.1)]),
        ("q2", &[("d", 0.8), ("c", 0.7)]),
        ("q3", &[("f", 0.6), ("e", 0.5)]),
    ]);
    vec![Run(one), Run(two)]
}

/// Every entry point of the Rust API that takes judgements, given `qrels`.
fn entry_points(qrels: &Qrels) -> Vec<(&'static str, Result<(), ScoreError>)> {
    let runs = runs();
    let run = &runs[0];
    let ordered = ranked_by_id(run);
    let metrics = ["mrr"];
    let options = OptimizeOptions {
        method: "rrf".into(),
        metric: "mrr".into(),
        k_values: vec![60.0],
        ..OptimizeOptions::default()
    };
    vec![
        ("evaluate", evaluate(qrels, run, &metrics).map(drop)),
        (
            "evaluate_ordered",
            evaluate_ordered(qrels, &ordered, &metrics).map(drop),
        ),
        (
            "evaluate_ties",
            evaluate_ties(qrels, &ordered, &metrics, Ties::TrecEval).map(drop),
        ),
        (
            "evaluate_ranked",
            evaluate_ranked(qrels, &ordered, &metrics).map(drop),
        ),
        (
            "optimize_fusion",
            optimize_fusion(qrels, &runs, &options, &mut |_| {}).map(drop),
        ),
        (
            "fit_query_confidence",
            fit_query_confidence(qrels, &runs, &FitQueryConfidenceOptions::default()).map(drop),
        ),
        ("rows", rows(qrels, &runs, &[1.0, 1.0], 60.0, 5).map(drop)),
    ]
}

/// A grade beyond the 64-bit integers, which a qrels file's relevance column cannot hold
/// (`parse_qrels`: "outside the 64-bit integers"), is refused in an object too: 1e20 was
/// taken, then failed `ndcg_burges` as "too large"; the largest whole doubles inside are
/// grades.
#[test]
fn every_entry_point_refuses_a_grade_beyond_64_bits() {
    for grade in [1e20, -1e20, 9_223_372_036_854_777_856.0, 1e300] {
        for (name, result) in entry_points(&qrels(grade)) {
            let e = result.expect_err(name);
            assert_eq!(
                (e.code, e.field.as_str()),
                (ErrorCode::InvalidType, "qrels.q1.a"),
                "{name} {grade}"
            );
            assert!(
                e.message.starts_with(
                    "must be a whole number (of 64 bits, -9223372036854775808 to \
                     9223372036854775807, as in a qrels file), got "
                ),
                "{}",
                e.message
            );
        }
    }
    // -2^63, 2^63 (what a file's i64::MAX becomes as a double: parse_qrels then evaluate
    // refused its own grade, a diff review's case) and the double below it are taken.
    for grade in [
        -9_223_372_036_854_775_808.0,
        9_223_372_036_854_775_808.0,
        9_223_372_036_854_774_784.0,
    ] {
        let q = qrels(grade);
        assert!(
            entry_points(&q).into_iter().any(|(_, r)| r.is_ok()),
            "{grade}"
        );
        assert!(q.check_grades("qrels").is_ok(), "{grade}");
    }
}

#[test]
fn every_entry_point_refuses_a_fractional_grade_on_its_path() {
    for (name, result) in entry_points(&qrels(0.5)) {
        let e = result.expect_err(name);
        assert_eq!(
            (e.code, e.field.as_str(), e.message.as_str()),
            (
                ErrorCode::InvalidType,
                "qrels.q1.a",
                "must be a whole number (relevance grades are whole numbers, as in trec_eval and ranx), got 0.5"
            ),
            "{name}"
        );
    }
    // Any fraction, negative ones and those above 1 too; the path as key_path writes it.
    for grade in [0.25, 1.5, -0.5, 2.000_000_1] {
        let mut q = qrels(1.0);
        q.get_mut("q2").unwrap().insert("d.1".into(), grade);
        for (name, result) in entry_points(&q) {
            let e = result.expect_err(name);
            assert_eq!(
                (e.code, e.field.as_str()),
                (ErrorCode::InvalidType, "qrels.q2[\"d.1\"]"),
                "{name} {grade}"
            );
            assert!(
                e.message.ends_with(&format!(", got {grade}")),
                "{}",
                e.message
            );
        }
    }
    // A grade that is not finite stays NON_FINITE_SCORE, in the fit too (it read NaN as
    // not relevant, and infinity as relevant).
    for grade in [f64::NAN, f64::INFINITY] {
        for (name, result) in entry_points(&qrels(grade)) {
            let e = result.expect_err(name);
            assert_eq!(
                (e.code, e.field.as_str()),
                (ErrorCode::NonFiniteScore, "qrels.q1.a"),
                "{name} {grade}"
            );
        }
    }
}

#[test]
fn every_entry_point_takes_whole_grades() {
    for grade in WHOLE {
        for (name, result) in entry_points(&qrels(grade)) {
            assert!(result.is_ok(), "{name} {grade}: {result:?}");
        }
    }
}

#[test]
fn trec_text_refuses_a_fractional_grade_with_the_same_code() {
    let e = parse_qrels("q1 0 a 1\nq1 0 b 0.5\n").unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str(), e.message.as_str()),
        (
            ErrorCode::InvalidType,
            "line 2",
            "line 2: relevance \"0.5\" is not a whole number (relevance grades are whole numbers, as in trec_eval and ranx)"
        )
    );
    // Any other `rel` that is not an integer stays a parse error (`1.0` included: the
    // column holds integers, as ranx's and trec_eval's readers ask).
    for rel in ["x", "1.0", "NaN", "inf", "1e3"] {
        let e = parse_qrels(&format!("q1 0 a {rel}\n")).unwrap_err();
        assert_eq!(e.code, ErrorCode::ParseError, "{rel}");
    }
    for grade in WHOLE {
        let q = parse_qrels(&format!("q1 0 a {grade}\n")).unwrap();
        assert_eq!(q["q1"]["a"], grade);
    }
}

#[test]
fn json_judgements_refuse_a_fractional_grade_with_the_same_code() {
    let e = qrels_from_json(r#"{"q1": {"a": 1, "b": 0.5}}"#).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (ErrorCode::InvalidType, "q1.b"));
    assert!(e.message.ends_with(", got 0.5"), "{}", e.message);
    for grade in ["0", "1", "2", "-1", "2.0"] {
        let q = qrels_from_json(&format!(r#"{{"q1": {{"a": {grade}}}}}"#)).unwrap();
        assert_eq!(q["q1"]["a"], grade.parse::<f64>().unwrap());
    }
}

/// With whole grades, `evaluate`'s relevance (grade >= 1) and the query-confidence
/// fit's (grade > 0) are one: q1 counts as answered by both exactly when its grade is
/// 1 or more.
#[test]
fn evaluate_and_the_query_confidence_fit_agree_on_every_whole_grade() {
    let runs = runs();
    for grade in WHOLE {
        let qrels = qrels(grade);
        let hits = evaluate(&qrels, &runs[0], &["hits@5"]).unwrap();
        let relevant_to_evaluate = hits.query_values("hits@5").unwrap()["q1"] > 0.0;
        let rows = rows(&qrels, &runs, &[1.0, 1.0], 60.0, 5).unwrap();
        let at = rows.queries.iter().position(|q| q == "q1").unwrap();
        let relevant_to_fit = rows.labels[at] == 1.0;
        assert_eq!(relevant_to_evaluate, relevant_to_fit, "grade {grade}");
        assert_eq!(relevant_to_fit, grade >= 1.0, "grade {grade}");
    }
}

/// A qrels file's largest grade, read and then evaluated: taken throughout.
#[test]
fn a_files_largest_grade_is_taken_by_every_entry_point() {
    let q = calibrank::lab::eval::parse_qrels("q1 0 a 9223372036854775807\n").unwrap();
    assert!(q.check_grades("qrels").is_ok());
}
