//! calibrank's `optimize_fusion` against ranx 0.3.21's `optimize_fusion` on the CISI runs
//! (bm25 + dense, the judged queries): every configuration ranx tried scores the same,
//! and the best is ranx's, for `rbc` (`phi` at ranx's step of 0.01), `rrf`, three
//! weighted methods, `gmnz` (`gamma`) and `logn_isr` (`sigma`). tests/data/ranx_optimize_reference.json is written by
//! scripts/ranx_optimize_reference.py.

use calibrank::lab::eval::{parse_qrels, parse_trec_run_ordered};
use calibrank::lab::optimize::{optimize_fusion_ordered, OptimizeOptions, Trial};
use serde_json::Value;
use std::collections::BTreeSet;

#[path = "support/data.rs"]
mod data;
use data::cisi;

const TOLERANCE: f64 = 1e-9;

/// A configuration as the reference writes it: `phi` or `k` alone, or the weights.
fn config_of(trial: &Trial) -> Vec<f64> {
    match &trial.weights {
        Some(w) => w.clone(),
        None => trial.params.values().copied().collect(),
    }
}

fn numbers(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(a) => a.iter().map(|x| x.as_f64().unwrap()).collect(),
        x => vec![x.as_f64().unwrap()],
    }
}

fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
}

#[test]
fn searches_try_what_ranx_tries_and_keep_what_ranx_keeps() {
    let reference: Value = data::reference("ranx_optimize_reference.json");
    let qrels = parse_qrels(&cisi("qrels.txt")).unwrap();
    let judged: BTreeSet<&str> = qrels.keys().map(String::as_str).collect();
    assert_eq!(judged.len() as u64, reference["queries"].as_u64().unwrap());
    // The judged queries' lines only, in file order (ranx's Run.from_file).
    let runs: Vec<_> = reference["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| {
            let text = cisi(name.as_str().unwrap());
            let kept: String = text
                .lines()
                .filter(|l| {
                    l.split_whitespace()
                        .next()
                        .is_some_and(|q| judged.contains(q))
                })
                .flat_map(|l| [l, "\n"])
                .collect();
            parse_trec_run_ordered(&kept).unwrap()
        })
        .collect();
    for case in reference["cases"].as_array().unwrap() {
        let method = case["method"].as_str().unwrap();
        let opts = OptimizeOptions {
            method: method.into(),
            metric: reference["metric"].as_str().unwrap().into(),
            ..Default::default()
        };
        let report = optimize_fusion_ordered(&qrels, &runs, &opts, &mut |_| {}).unwrap();
        let ranx_trials = case["trials"].as_array().unwrap();
        let mut compared = 0;
        for t in ranx_trials {
            let config = numbers(&t["config"]);
            let ours = report.trials.iter().find(|o| same(&config_of(o), &config));
            let Some(ours) = ours else {
                // ranx's `phi` grid ends at 1, which scores every document 0; ours stops
                // a step before it.
                assert!(
                    method == "rbc" && config == [1.0],
                    "{method}: ranx tried {config:?}, calibrank did not"
                );
                continue;
            };
            let want = t["score"].as_f64().unwrap();
            assert!(
                (ours.score - want).abs() < TOLERANCE,
                "{method} {config:?}: calibrank {} ranx {want}",
                ours.score
            );
            compared += 1;
        }
        assert_eq!(
            compared,
            report.trials.len(),
            "{method}: every configuration calibrank tried, ranx tried"
        );
        let best = numbers(
            &case["best"]
                .as_object()
                .unwrap()
                .values()
                .next()
                .unwrap()
                .clone(),
        );
        assert!(
            same(&config_of(&report.best), &best),
            "{method}: calibrank keeps {:?}, ranx {best:?}",
            config_of(&report.best)
        );
    }
}
