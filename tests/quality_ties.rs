//! docs/quality.md's calibration and tuning sections read CISI's runs as maps (ties by
//! document id, `fuse_runs` / `evaluate`); the same steps in ranx's order (the order
//! `Run` handles hold, `fuse_runs_ordered` / `evaluate_ranked`) give slightly different
//! figures, which quality.md quotes beside its own: the Platt fit on the fit half's RRF
//! scores, and the RRF tuned on the fit half, measured on the test half. The map reading
//! must give the figures quality.md prints (read from the file), and the ordered one
//! those its paragraph quotes. `cargo test --test quality_ties -- --nocapture` prints them.

use calibrank::lab::eval::{
    evaluate, evaluate_ranked, parse_qrels, parse_trec_run, parse_trec_run_ordered,
};
use calibrank::lab::fit::fit_platt;
use calibrank::lab::optimize::{optimize_fusion, optimize_fusion_ordered, OptimizeOptions};
use calibrank::lab::runfusion::{fuse_runs, fuse_runs_ordered, FuseRunsOptions};
use calibrank::lab::runs::{ranx_sort, OrderedRun, Qrels, Run};
use std::collections::BTreeMap;

#[path = "support/data.rs"]
mod data;

/// `(query, doc) -> score` pairs of `queries` as (scores, labels), as the example pairs them.
fn pairs<'a>(
    docs: impl Fn(&str) -> Vec<(&'a str, f64)>,
    qrels: &Qrels,
    queries: &[String],
) -> (Vec<f64>, Vec<f64>) {
    let (mut s, mut l) = (vec![], vec![]);
    for q in queries {
        let judged = qrels.get(q);
        for (d, score) in docs(q) {
            s.push(score);
            let relevant = judged.and_then(|j| j.get(d)).is_some_and(|&g| g >= 1.0);
            l.push(if relevant { 1.0 } else { 0.0 });
        }
    }
    (s, l)
}

fn subset<T: Clone>(map: &BTreeMap<String, T>, keys: &[String]) -> BTreeMap<String, T> {
    keys.iter()
        .filter_map(|k| Some((k.clone(), map.get(k)?.clone())))
        .collect()
}

/// The Platt `a` and the tuned RRF's row (`| rrf, {"k": ...} | fit | test |`) of quality.md.
fn printed() -> (String, String) {
    let md = data::read(&format!("{}/docs/quality.md", env!("CARGO_MANIFEST_DIR")));
    let a = md
        .split("Platt: a = ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .expect("quality.md's Platt fit")
        .to_string();
    let row = md
        .lines()
        .find(|l| l.starts_with("| rrf, {"))
        .expect("quality.md's tuned RRF row");
    let test = row
        .trim_end_matches(" |")
        .rsplit("| ")
        .next()
        .unwrap()
        .to_string();
    (a, test)
}

#[test]
fn quality_steps_as_maps_and_in_ranx_order() {
    let qrels = parse_qrels(&data::cisi("qrels.txt")).unwrap();
    let names = ["run.bm25.txt", "run.dense.txt"];
    let maps: Vec<Run> = names
        .iter()
        .map(|n| parse_trec_run(&data::cisi(n)).unwrap())
        .collect();
    let ordered: Vec<OrderedRun> = names
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
    let rrf_none = FuseRunsOptions {
        method: "rrf".into(),
        norm: Some("none".into()),
        weights: None,
        params: BTreeMap::new(),
    };
    // Platt on the fit half's RRF scores.
    let as_map = fuse_runs(&maps, &rrf_none).unwrap();
    let in_order = fuse_runs_ordered(&ordered, &rrf_none).unwrap();
    let (s, l) = pairs(
        |q| {
            as_map
                .get(q)
                .into_iter()
                .flatten()
                .map(|(d, &v)| (d.as_str(), v))
                .collect()
        },
        &qrels,
        &fit_q,
    );
    let map_platt = fit_platt(&s, &l).unwrap();
    let (s, l) = pairs(
        |q| {
            in_order
                .get(q)
                .into_iter()
                .flatten()
                .map(|(d, v)| (d.as_str(), *v))
                .collect()
        },
        &qrels,
        &fit_q,
    );
    let ordered_platt = fit_platt(&s, &l).unwrap();
    // RRF tuned on the fit half, measured on the test half.
    let (fit_qrels, test_qrels) = (
        Qrels(subset(&qrels, &fit_q)),
        Qrels(subset(&qrels, &test_q)),
    );
    let opts = OptimizeOptions {
        method: "rrf".into(),
        ..Default::default()
    };
    let rrf_with = |params: &BTreeMap<String, f64>| FuseRunsOptions {
        method: "rrf".into(),
        norm: None,
        weights: None,
        params: params.clone(),
    };
    let fit_maps: Vec<Run> = maps.iter().map(|r| Run(subset(r, &fit_q))).collect();
    let test_maps: Vec<Run> = maps.iter().map(|r| Run(subset(r, &test_q))).collect();
    let best = optimize_fusion(&fit_qrels, &fit_maps, &opts, &mut |_| {})
        .unwrap()
        .best;
    let fused = fuse_runs(&test_maps, &rrf_with(&best.params)).unwrap();
    let map_ndcg = evaluate(&test_qrels, &fused, &["ndcg@10"]).unwrap().means[0].1;
    let fit_ordered: Vec<OrderedRun> = ordered.iter().map(|r| subset(r, &fit_q)).collect();
    let test_ordered: Vec<OrderedRun> = ordered.iter().map(|r| subset(r, &test_q)).collect();
    let best_ordered = optimize_fusion_ordered(&fit_qrels, &fit_ordered, &opts, &mut |_| {})
        .unwrap()
        .best;
    let fused = fuse_runs_ordered(&test_ordered, &rrf_with(&best_ordered.params)).unwrap();
    let ordered_ndcg = evaluate_ranked(&test_qrels, &fused, &["ndcg@10"])
        .unwrap()
        .means[0]
        .1;
    println!(
        "as maps: Platt a = {:.4}, tuned RRF {:?} test nDCG@10 {map_ndcg:.4}",
        map_platt.a, best.params
    );
    println!(
        "in ranx's order: Platt a = {:.4}, tuned RRF {:?} test nDCG@10 {ordered_ndcg:.4}",
        ordered_platt.a, best_ordered.params
    );
    // The map reading is what quality.md prints.
    let (a, test) = printed();
    assert_eq!(
        (format!("{:.4}", map_platt.a), format!("{map_ndcg:.4}")),
        (a, test)
    );
    // The ordered one is what its paragraph quotes.
    let md = data::read(&format!("{}/docs/quality.md", env!("CARGO_MANIFEST_DIR")));
    let quoted = format!(
        "the tuned RRF's test nDCG@10 is {ordered_ndcg:.4}, and the Platt fit's `a` {:.4}",
        ordered_platt.a
    );
    assert!(md.contains(&quoted), "quality.md should say: {quoted}");
}
