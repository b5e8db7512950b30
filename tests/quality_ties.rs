//! docs/quality.md's calibration and tuning sections read CISI's runs as maps (ties by
//! document id); in ranx's order (what `Run` handles and ranx give) the same steps give
//! these figures, which quality.md quotes: the Platt fit on the fit half's RRF scores,
//! and the RRF tuned on the fit half, measured on the test half (ranx 0.3.21 gives
//! 0.3632053 for it). `cargo test --test quality_ties -- --nocapture` prints them.
use calibrank::lab::eval::{evaluate_ranked, parse_qrels, parse_trec_run_ordered};
use calibrank::lab::fit::fit_platt;
use calibrank::lab::optimize::{optimize_fusion_ordered, OptimizeOptions};
use calibrank::lab::runfusion::{fuse_runs_ordered, FuseRunsOptions};
use calibrank::lab::runs::{ranx_sort, OrderedRun, Qrels};
use std::collections::BTreeMap;
#[path = "support/data.rs"]
mod data;
#[test]
fn quality_steps_in_ranx_order() {
    let qrels = parse_qrels(&data::cisi("qrels.txt")).unwrap();
    let runs: Vec<OrderedRun> = ["run.bm25.txt", "run.dense.txt"]
        .iter()
        .map(|n| {
            let mut r = parse_trec_run_ordered(&data::cisi(n)).unwrap();
            ranx_sort(&mut r);
            r
        })
        .collect();
    let mut queries: Vec<String> = qrels.keys().cloned().collect();
    queries.sort_by_key(|q| q.parse::<u64>().unwrap_or(u64::MAX));
    let fit_q: Vec<String> = queries.iter().step_by(2).cloned().collect();
    let test_q: Vec<String> = queries.iter().skip(1).step_by(2).cloned().collect();
    let rrf = fuse_runs_ordered(
        &runs,
        &FuseRunsOptions {
            method: "rrf".into(),
            norm: Some("none".into()),
            weights: None,
            params: BTreeMap::new(),
        },
    )
    .unwrap();
    let (mut s, mut l) = (vec![], vec![]);
    for q in &fit_q {
        let j = qrels.get(q);
        for (d, sc) in rrf.get(q).into_iter().flatten() {
            s.push(*sc);
            l.push(if j.and_then(|j| j.get(d)).is_some_and(|&g| g >= 1.0) {
                1.0
            } else {
                0.0
            });
        }
    }
    let p = fit_platt(&s, &l).unwrap();
    println!("Platt in ranx's order: a = {}, b = {}", p.a, p.b);
    assert_eq!(format!("{:.4} {:.4}", p.a, p.b), "-111.6504 3.2012");
    let sub = |r: &OrderedRun, k: &[String]| -> OrderedRun {
        k.iter()
            .filter_map(|q| Some((q.clone(), r.get(q)?.clone())))
            .collect()
    };
    let fit_runs: Vec<OrderedRun> = runs.iter().map(|r| sub(r, &fit_q)).collect();
    let test_runs: Vec<OrderedRun> = runs.iter().map(|r| sub(r, &test_q)).collect();
    let fit_qrels = Qrels(
        fit_q
            .iter()
            .filter_map(|q| Some((q.clone(), qrels.get(q)?.clone())))
            .collect(),
    );
    let test_qrels = Qrels(
        test_q
            .iter()
            .filter_map(|q| Some((q.clone(), qrels.get(q)?.clone())))
            .collect(),
    );
    let rep = optimize_fusion_ordered(
        &fit_qrels,
        &fit_runs,
        &OptimizeOptions {
            method: "rrf".into(),
            ..Default::default()
        },
        &mut |_| {},
    )
    .unwrap();
    let fused = fuse_runs_ordered(
        &test_runs,
        &FuseRunsOptions {
            method: "rrf".into(),
            norm: None,
            weights: None,
            params: rep.best.params.clone(),
        },
    )
    .unwrap();
    let ndcg = evaluate_ranked(&test_qrels, &fused, &["ndcg@10"])
        .unwrap()
        .means[0]
        .1;
    println!(
        "RRF tuned in ranx's order: {:?}, test nDCG@10 {ndcg}",
        rep.best.params
    );
    assert_eq!(rep.best.params.get("k"), Some(&10.0));
    assert!((ndcg - 0.3632053).abs() < 1e-7, "{ndcg}");
}
