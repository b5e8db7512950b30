//! calibrank::lab::eval against ranx 0.3.21 on the CISI runs: every mean and every
//! per-query value of tests/data/ranx_metrics_reference.json (written by
//! scripts/ranx_metrics_reference.py) within 1e-9.

use calibrank::lab::eval::{
    evaluate, evaluate_ordered, parse_qrels, parse_trec_run, parse_trec_run_ordered,
    qrels_from_json, run_to_trec, Evaluation,
};
use calibrank::lab::runs::Qrels;
use serde_json::Value;
use std::collections::BTreeMap;

#[path = "support/data.rs"]
mod data;
use data::cisi;

const TOLERANCE: f64 = 1e-9;

fn reference() -> Value {
    data::reference("ranx_metrics_reference.json")
}

/// The judgements a reference case names.
fn case_qrels(reference: &Value, name: &str) -> Qrels {
    match name {
        "qrels.txt" => parse_qrels(&cisi("qrels.txt")).unwrap(),
        "graded" => qrels_from_json(&reference["gradedQrels"].to_string()).unwrap(),
        other => panic!("unknown qrels {other}"),
    }
}

/// calibrank's evaluation of one reference case.
fn evaluate_case(reference: &Value, case: &Value) -> Evaluation {
    let qrels = case_qrels(reference, case["qrels"].as_str().unwrap());
    let text = cisi(case["run"].as_str().unwrap());
    let metrics: Vec<&str> = case["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    match case["order"].as_str().unwrap() {
        "file" => evaluate_ordered(&qrels, &parse_trec_run_ordered(&text).unwrap(), &metrics),
        "id" => evaluate(&qrels, &parse_trec_run(&text).unwrap(), &metrics),
        other => panic!("unknown order {other}"),
    }
    .unwrap()
}

/// Compares one case; returns the mismatches as readable lines.
fn compare_case(case: &Value, ours: &Evaluation) -> Vec<String> {
    let label = format!("{} / {} / {}", case["run"], case["order"], case["qrels"]);
    let mut errors = Vec::new();
    for metric in case["metrics"].as_array().unwrap() {
        let metric = metric.as_str().unwrap();
        let expected = case["means"][metric].as_f64().unwrap();
        let got = ours.mean(metric).unwrap();
        if (got - expected).abs() > TOLERANCE {
            errors.push(format!(
                "{label}: mean {metric}: ranx {expected}, calibrank {got}"
            ));
        }
        let values = ours.query_values(metric).unwrap();
        let expected_queries = case["perQuery"][metric].as_object().unwrap();
        assert_eq!(
            values.len(),
            expected_queries.len(),
            "{label} {metric}: query count"
        );
        for (qid, expected) in expected_queries {
            let expected = expected.as_f64().unwrap();
            let got = values[qid.as_str()];
            if (got - expected).abs() > TOLERANCE {
                errors.push(format!(
                    "{label}: {metric} q{qid}: ranx {expected}, calibrank {got}"
                ));
            }
        }
    }
    errors
}

#[test]
fn matches_ranx_on_every_case() {
    let reference = reference();
    assert_eq!(reference["versions"]["ranx"], "0.3.21");
    let cases = reference["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 9);
    let mut errors = Vec::new();
    let mut compared = 0usize;
    for case in cases {
        let ours = evaluate_case(&reference, case);
        compared += case["metrics"].as_array().unwrap().len() * (1 + ours.per_query.len());
        errors.extend(compare_case(case, &ours));
    }
    assert!(
        errors.is_empty(),
        "{} mismatches:\n{}",
        errors.len(),
        errors.join("\n")
    );
    assert!(compared > 10_000, "compared only {compared} values");
}

#[test]
fn readme_figures() {
    let qrels = parse_qrels(&cisi("qrels.txt")).unwrap();
    let expected = [
        ("run.bm25.txt", 0.3493, 0.4175),
        ("run.dense.txt", 0.4238, 0.4706),
        ("run.bm25_title.txt", 0.2271, 0.2541),
    ];
    for (name, ndcg10, recall100) in expected {
        let run = parse_trec_run_ordered(&cisi(name)).unwrap();
        let result = evaluate_ordered(&qrels, &run, &["ndcg@10", "recall@100"]).unwrap();
        assert!(
            (result.mean("ndcg@10").unwrap() - ndcg10).abs() < 5e-5,
            "{name}"
        );
        assert!(
            (result.mean("recall@100").unwrap() - recall100).abs() < 5e-5,
            "{name}"
        );
    }
}

#[test]
fn tie_order_matters_on_bm25_title() {
    // The same scores give different values depending on the order ranx sorts ties in;
    // both orders are checked against ranx above, this shows the check is not vacuous.
    let qrels = parse_qrels(&cisi("qrels.txt")).unwrap();
    let text = cisi("run.bm25_title.txt");
    let by_file = evaluate_ordered(
        &qrels,
        &parse_trec_run_ordered(&text).unwrap(),
        &["ndcg@10"],
    );
    let by_id = evaluate(&qrels, &parse_trec_run(&text).unwrap(), &["ndcg@10"]);
    let (a, b) = (by_file.unwrap().means[0].1, by_id.unwrap().means[0].1);
    assert!((a - b).abs() > 1e-4, "{a} vs {b}");
}

#[test]
fn cisi_files_round_trip_through_run_to_trec() {
    for name in ["run.bm25.txt", "run.dense.txt", "run.bm25_title.txt"] {
        let run = parse_trec_run(&cisi(name)).unwrap();
        assert_eq!(run.len(), 76);
        assert!(run.values().all(|docs| docs.len() == 100));
        let again = parse_trec_run(&run_to_trec(&run, "copy").unwrap()).unwrap();
        assert_eq!(again, run, "{name}");
    }
    let qrels = parse_qrels(&cisi("qrels.txt")).unwrap();
    assert_eq!(qrels.len(), 76);
    let judged: usize = qrels.values().map(BTreeMap::len).sum();
    assert_eq!(judged, 3114);
}

/// A judged query the run lacks scores +0.0 (an empty sum of gains started at -0.0).
#[test]
fn a_judged_query_the_run_lacks_scores_positive_zero() {
    use std::collections::BTreeMap;
    let qrels = calibrank::lab::runs::Qrels::from([
        ("q1".to_string(), BTreeMap::from([("d1".to_string(), 1.0)])),
        ("q2".to_string(), BTreeMap::from([("d2".to_string(), 2.0)])),
    ]);
    let run = calibrank::lab::runs::Run::from([(
        "q1".to_string(),
        BTreeMap::from([("d1".to_string(), 0.5)]),
    )]);
    let metrics = [
        "ndcg@10",
        "ndcg_burges@10",
        "dcg@10",
        "rbp.8",
        "map",
        "mrr",
        "precision@5",
    ];
    let e = calibrank::lab::eval::evaluate(&qrels, &run, &metrics).unwrap();
    for m in metrics {
        let q2 = e.query_values(m).unwrap()["q2"];
        assert_eq!(q2.to_bits(), 0, "{m}: {q2:?}");
    }
}
