//! The lab's evaluation targets: `eval_parse`, `evaluate`.

use super::bytes::Bytes;
use super::expect::{check_error, in_unit};
use super::fusion::gen_run;
use calibrank::error::ErrorCode;
use calibrank::lab::eval::{
    evaluate, evaluate_ordered, parse_qrels, parse_trec_run, parse_trec_run_ordered,
    qrels_from_json, run_from_json, run_from_json_ordered, run_to_trec, Metric, MetricKind,
    OrderedRun,
};
use calibrank::lab::runs::{Qrels, Run};
use std::collections::BTreeMap;

/// The text parsers (TREC run, qrels, JSON run and qrels), their agreement, and the
/// TREC round trip.
pub fn eval_parse(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let parse_codes = &[
        ErrorCode::ParseError,
        ErrorCode::NonFiniteScore,
        ErrorCode::DuplicateId,
    ];
    // Judgements' parsers also refuse a fractional grade (`INVALID_TYPE`).
    let qrels_codes = &[
        ErrorCode::ParseError,
        ErrorCode::NonFiniteScore,
        ErrorCode::DuplicateId,
        ErrorCode::InvalidType,
    ];
    match (parse_trec_run(&text), parse_trec_run_ordered(&text)) {
        (Ok(run), Ok(ordered)) => {
            check_ordered_matches(&run, &ordered);
            let again =
                parse_trec_run(&run_to_trec(&run, "tag").expect("a parsed run is writable"))
                    .expect("run_to_trec output parses");
            assert_eq!(bits(&again), bits(&run), "TREC round trip");
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            check_error(&a, parse_codes, "parse_trec_run");
        }
        (a, b) => panic!("parse_trec_run and parse_trec_run_ordered disagree: {a:?} / {b:?}"),
    }
    match parse_qrels(&text) {
        Ok(q) => assert!(q
            .values()
            .flat_map(|d| d.values())
            .all(|g| g.is_finite() && g.fract() == 0.0)),
        Err(e) => check_error(&e, qrels_codes, "parse_qrels"),
    }
    match (run_from_json(&text), run_from_json_ordered(&text)) {
        (Ok(run), Ok(ordered)) => {
            check_ordered_matches(&run, &ordered);
            // run_to_trec refuses exactly the ids TREC text cannot hold (empty, or with
            // whitespace): what it writes parses back to the same run.
            let plain = run
                .keys()
                .chain(run.values().flat_map(|d| d.keys()))
                .all(|s| !s.is_empty() && !s.contains(char::is_whitespace));
            match run_to_trec(&run, "") {
                Ok(text) => {
                    let again = parse_trec_run(&text).expect("run_to_trec output parses");
                    assert_eq!(bits(&again), bits(&run), "JSON -> TREC round trip");
                }
                Err(e) => {
                    assert!(!plain, "a parsed run with plain ids is writable: {e:?}");
                    assert_eq!(e.code, ErrorCode::InvalidType, "run_to_trec: {e:?}");
                }
            }
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            check_error(&a, parse_codes, "run_from_json");
        }
        (a, b) => panic!("run_from_json and run_from_json_ordered disagree: {a:?} / {b:?}"),
    }
    match qrels_from_json(&text) {
        Ok(q) => assert!(q
            .values()
            .flat_map(|d| d.values())
            .all(|g| g.is_finite() && g.fract() == 0.0)),
        Err(e) => check_error(&e, qrels_codes, "qrels_from_json"),
    }
}

pub(crate) fn bits(run: &Run) -> BTreeMap<&String, BTreeMap<&String, u64>> {
    run.iter()
        .map(|(q, d)| (q, d.iter().map(|(id, s)| (id, s.to_bits())).collect()))
        .collect()
}

pub(crate) fn check_ordered_matches(run: &Run, ordered: &OrderedRun) {
    assert_eq!(run.len(), ordered.len());
    for (q, docs) in ordered {
        let plain = run.get(q).expect("same queries");
        assert_eq!(plain.len(), docs.len(), "a duplicate document was accepted");
        for (d, s) in docs {
            assert!(s.is_finite());
            assert_eq!(plain.get(d).map(|x| x.to_bits()), Some(s.to_bits()));
        }
    }
}

pub(crate) fn gen_metric(b: &mut Bytes<'_>) -> String {
    let base = b.pick(&[
        "hits",
        "hit_rate",
        "precision",
        "recall",
        "f1",
        "r-precision",
        "mrr",
        "map",
        "dcg",
        "dcg_burges",
        "ndcg",
        "ndcg_burges",
        "rbp",
        "bpref",
        "NDCG",
        "",
    ]);
    let mut name = base.to_string();
    match b.byte() % 8 {
        0..=3 => {}
        4 | 5 => name.push_str(&format!(
            "@{}",
            b.pick(&["1", "3", "10", "0", "-1", "18446744073709551616", "x", ""])
        )),
        6 => name.push_str(b.pick(&[".95", ".5", ".", ".0", ".99999", "@95", ".1e3"])),
        _ => name.push_str(&b.raw_text(6)),
    }
    if b.byte() % 4 == 3 {
        name.push_str(&format!(
            "-l{}",
            b.pick(&["2", "0", "-3", "x", "9223372036854775807", ""])
        ));
    }
    name
}

/// Judgements with grades small and odd (NaN, huge, negative). Grades are whole
/// numbers (a fraction is `INVALID_TYPE`): an odd finite one is cut to its whole part but
/// for one in eight (by its low bits, so that the same bytes give the same judgements),
/// which the functions must refuse.
pub(crate) fn gen_qrels(b: &mut Bytes<'_>) -> Qrels {
    let mut qrels = Qrels::new();
    for _ in 0..b.below(4) {
        let grades: BTreeMap<String, f64> = (0..b.below(8))
            .map(|_| {
                (
                    b.id(),
                    if b.bool() {
                        let g = b.f64();
                        if g.is_finite() && g.to_bits() & 7 != 0 {
                            g.trunc()
                        } else {
                            g
                        }
                    } else {
                        f64::from(b.byte() % 4)
                    },
                )
            })
            .collect();
        qrels.insert(b.pick(&["q1", "q2", "q3", "q"]).to_string(), grades);
    }
    qrels
}

/// `eval::evaluate` (and `evaluate_ordered` with the same, id-ordered run) with ranx
/// metric names, valid and not.
pub fn evaluate_metrics(data: &[u8]) {
    let mut b = Bytes::new(data);
    let qrels = gen_qrels(&mut b);
    let run = gen_run(&mut b);
    let metrics: Vec<String> = (0..b.below(5)).map(|_| gen_metric(&mut b)).collect();
    let names: Vec<&str> = metrics.iter().map(String::as_str).collect();
    let codes = &[
        ErrorCode::EmptyInput,
        ErrorCode::UnknownMethod,
        ErrorCode::InvalidConfig,
        ErrorCode::NonFiniteScore,
        // A fractional grade.
        ErrorCode::InvalidType,
    ];
    let ordered: OrderedRun = run
        .iter()
        .map(|(q, d)| {
            (
                q.clone(),
                d.iter().map(|(id, s)| (id.clone(), *s)).collect(),
            )
        })
        .collect();
    let result = evaluate(&qrels, &run, &names);
    match (&result, evaluate_ordered(&qrels, &ordered, &names)) {
        (Ok(a), Ok(b)) => assert_eq!(
            a, &b,
            "evaluate and evaluate_ordered disagree on an id-ordered run"
        ),
        (Err(a), Err(b)) => assert_eq!(
            a.code, b.code,
            "evaluate and evaluate_ordered fail differently"
        ),
        (a, b) => panic!("evaluate and evaluate_ordered disagree: {a:?} / {b:?}"),
    }
    let ev = match result {
        Ok(ev) => ev,
        Err(e) => return check_error(&e, codes, "evaluate"),
    };
    assert_eq!(ev.means.len(), names.len());
    assert_eq!(
        ev.per_query.keys().collect::<Vec<_>>(),
        qrels.keys().collect::<Vec<_>>()
    );
    let all_small = qrels
        .values()
        .flat_map(|d| d.values())
        .all(|g| g.abs() <= 16.0);
    for (column, (name, mean)) in ev.means.iter().enumerate() {
        let values: Vec<f64> = ev.per_query.values().map(|v| v[column]).collect();
        if all_small {
            assert!(mean.is_finite(), "{name}: mean {mean}");
        }
        let metric = Metric::parse(name).expect("an evaluated metric parses");
        let bounded = matches!(
            metric.kind,
            MetricKind::HitRate
                | MetricKind::Precision
                | MetricKind::Recall
                | MetricKind::F1
                | MetricKind::RPrecision
                | MetricKind::Mrr
                | MetricKind::Map
        );
        if bounded {
            for v in &values {
                assert!(in_unit(*v), "{name} = {v}");
            }
        }
    }
}
