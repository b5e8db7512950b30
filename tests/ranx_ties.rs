//! Ties as ranx 0.3.21 and trec_eval break them: every figure of
//! tests/data/ranx_ties_reference.json (written by scripts/ranx_ties_reference.py) to
//! 1e-9. Random runs with few ties, many ties and large groups of ties, ids that look like
//! integers and ids that do not, every fusion method's fused run evaluated, and the CISI
//! runs as read from their TREC files.

use calibrank::lab::eval::{
    evaluate_ordered, evaluate_ranked, evaluate_ties, parse_qrels, parse_trec_run_ordered,
    Evaluation, Ties,
};
use calibrank::lab::runfusion::{fuse_runs_ordered, FuseRunsOptions};
use calibrank::lab::runs::{ranx_sort, OrderedRun, Qrels};
use serde_json::Value;

#[path = "support/data.rs"]
mod data;

const TOLERANCE: f64 = 1e-9;

fn reference() -> Value {
    data::reference("ranx_ties_reference.json")
}

fn metrics(reference: &Value) -> Vec<String> {
    reference["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// A run as `Run.from_file` holds it: file order, then ranx's sort.
fn ranx_run(text: &str) -> OrderedRun {
    let mut run = parse_trec_run_ordered(text).unwrap();
    ranx_sort(&mut run);
    run
}

/// Compares the means of `ours` with ranx's; returns the mismatches.
fn compare(label: &str, expected: &Value, ours: &Evaluation, metrics: &[String]) -> Vec<String> {
    metrics
        .iter()
        .filter_map(|m| {
            let want = expected[m.as_str()].as_f64().unwrap();
            let got = ours.mean(m).unwrap();
            ((want - got).abs() > TOLERANCE)
                .then(|| format!("{label} {m}: reference {want}, calibrank {got}"))
        })
        .collect()
}

fn names(metrics: &[String]) -> Vec<&str> {
    metrics.iter().map(String::as_str).collect()
}

/// Every fusion of `runs`: the fused dict's order of `first_query`, and the means.
fn check_fusions(
    label: &str,
    qrels: &Qrels,
    runs: &[OrderedRun],
    fusions: &Value,
    first_query: Option<&str>,
    metrics: &[String],
) -> (Vec<String>, usize) {
    let mut errors = Vec::new();
    let mut checked = 0;
    for case in fusions.as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let opts: FuseRunsOptions = serde_json::from_value(case["options"].clone()).unwrap();
        let fused = fuse_runs_ordered(runs, &opts).unwrap();
        if let Some(q) = first_query {
            let want: Vec<&str> = case["firstQuery"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_str().unwrap())
                .collect();
            let got: Vec<&str> = fused[q].iter().map(|(d, _)| d.as_str()).collect();
            if want != got {
                errors.push(format!("{label} {name}: fused order of {q} differs"));
            }
        }
        let ev = evaluate_ranked(qrels, &fused, &names(metrics)).unwrap();
        errors.extend(compare(
            &format!("{label} {name}"),
            &case["means"],
            &ev,
            metrics,
        ));
        checked += metrics.len();
    }
    (errors, checked)
}

#[test]
fn random_runs_match_ranx_ties_included() {
    let reference = reference();
    let metrics = metrics(&reference);
    let mut errors = Vec::new();
    let mut checked = 0;
    for ds in reference["datasets"].as_array().unwrap() {
        let name = ds["name"].as_str().unwrap();
        let qrels = parse_qrels(ds["qrels"].as_str().unwrap()).unwrap();
        let texts: Vec<&str> = ds["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        let runs: Vec<OrderedRun> = texts.iter().map(|t| ranx_run(t)).collect();
        for (i, (run, text)) in runs.iter().zip(&texts).enumerate() {
            let expected = &ds["plain"][i];
            let ranked = evaluate_ranked(&qrels, run, &names(&metrics)).unwrap();
            errors.extend(compare(
                &format!("{name} run {i}"),
                expected,
                &ranked,
                &metrics,
            ));
            // The file's order sorted at evaluation gives the same figures.
            let file_order = parse_trec_run_ordered(text).unwrap();
            let ordered = evaluate_ordered(&qrels, &file_order, &names(&metrics)).unwrap();
            assert_eq!(ordered, ranked, "{name} run {i}");
            checked += metrics.len();
        }
        let (e, n) = check_fusions(
            name,
            &qrels,
            &runs,
            &ds["fusions"],
            ds["firstQuery"].as_str(),
            &metrics,
        );
        errors.extend(e);
        checked += n;
    }
    assert!(
        errors.is_empty(),
        "{} of {checked} figures differ:\n{}",
        errors.len(),
        errors.join("\n")
    );
    assert!(checked > 1000, "{checked}");
}

#[test]
fn cisi_runs_from_their_files_match_ranx() {
    let reference = reference();
    let metrics = metrics(&reference);
    let cisi = &reference["cisi"];
    let read = data::cisi;
    let qrels = parse_qrels(&read("qrels.txt")).unwrap();
    let runs: Vec<OrderedRun> = cisi["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| ranx_run(&read(n.as_str().unwrap())))
        .collect();
    let mut errors = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let ev = evaluate_ranked(&qrels, run, &names(&metrics)).unwrap();
        errors.extend(compare(
            &format!("cisi run {i}"),
            &cisi["plain"][i],
            &ev,
            &metrics,
        ));
    }
    let (e, _) = check_fusions("cisi", &qrels, &runs, &cisi["fusions"], None, &metrics);
    errors.extend(e);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn trec_eval_tie_rule_matches_trec_eval() {
    let reference = reference();
    let measures = reference["trecEvalMeasures"].as_object().unwrap();
    let metrics: Vec<String> = measures
        .values()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let mut errors = Vec::new();
    let mut differs_from_ranx = 0;
    for ds in reference["datasets"].as_array().unwrap() {
        let name = ds["name"].as_str().unwrap();
        let qrels = parse_qrels(ds["qrels"].as_str().unwrap()).unwrap();
        for (i, text) in ds["runs"].as_array().unwrap().iter().enumerate() {
            let run = parse_trec_run_ordered(text.as_str().unwrap()).unwrap();
            let ev = evaluate_ties(&qrels, &run, &names(&metrics), Ties::TrecEval).unwrap();
            errors.extend(compare(
                &format!("{name} run {i} (trec_eval)"),
                &ds["trecEval"][i],
                &ev,
                &metrics,
            ));
            let ranx = evaluate_ties(&qrels, &run, &names(&metrics), Ties::Ranx).unwrap();
            differs_from_ranx += usize::from(ranx != ev);
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // The tied data sets really tell the two rules apart.
    assert!(differs_from_ranx >= 3, "{differs_from_ranx}");
}
