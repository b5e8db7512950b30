//! fitQueryConfidence's Newton fit on real judgements (../shared/data/cisi-abstain):
//! `training.converged` says whether the fit reached its optimum.

use calibrank::lab::eval::{parse_qrels, parse_trec_run};
use calibrank::lab::fit::{fit_query_confidence, FitQueryConfidenceOptions};
use calibrank::lab::runs::Qrels;

#[path = "support/data.rs"]
mod data;
use data::cisi_abstain;

/// On the first 49 judged queries (in id order) the gradient stalls at about 5e-9, where
/// the objective no longer moves in floating point: the fit is at its optimum, and ran to
/// `maxIterations` saying `converged: false` before the stall was taken for convergence
/// (a walkthrough: an independent Newton fit reaches the same coefficients within 1e-10).
#[test]
fn a_fit_whose_gradient_stalls_at_the_rounding_floor_has_converged() {
    let runs = [
        parse_trec_run(&cisi_abstain("run.bm25.txt")).unwrap(),
        parse_trec_run(&cisi_abstain("run.dense.txt")).unwrap(),
    ];
    let all = parse_qrels(&cisi_abstain("qrels.txt")).unwrap();
    let first: Qrels = all
        .iter()
        .take(49)
        .map(|(q, g)| (q.clone(), g.clone()))
        .collect();
    let fit = |max_iterations| {
        let opts = FitQueryConfidenceOptions {
            max_iterations,
            ..Default::default()
        };
        fit_query_confidence(&first, &runs, &opts).unwrap()
    };
    let m = fit(100);
    assert!(m.training.converged, "{:?}", m.training);
    assert!(m.training.iterations < 20, "{:?}", m.training);
    // More iterations change nothing: it was there already.
    let more = fit(1000);
    assert_eq!(more.coefficients, m.coefficients);
    assert_eq!(more.intercept, m.intercept);
    assert_eq!(more.training, m.training);
}

/// A query the judgements list with no document (`{}`) has nothing relevant, as one
/// judged all 0 has (and as `evaluate` and ranx count it): it was skipped, and a model
/// fitted on unanswerable queries written that way learnt from the answerable ones alone.
#[test]
fn a_query_judged_with_no_document_has_nothing_relevant() {
    let runs = [
        parse_trec_run(&cisi_abstain("run.bm25.txt")).unwrap(),
        parse_trec_run(&cisi_abstain("run.dense.txt")).unwrap(),
    ];
    let all = parse_qrels(&cisi_abstain("qrels.txt")).unwrap();
    let unanswerable = all
        .values()
        .filter(|g| g.values().all(|&v| v <= 0.0))
        .count();
    assert_eq!(unanswerable, 70);
    let empty: Qrels = all
        .iter()
        .map(|(q, g)| {
            let g = if g.values().all(|&v| v <= 0.0) {
                Default::default()
            } else {
                g.clone()
            };
            (q.clone(), g)
        })
        .collect();
    let opts = FitQueryConfidenceOptions::default();
    let zeros = fit_query_confidence(&all, &runs, &opts).unwrap();
    let empties = fit_query_confidence(&empty, &runs, &opts).unwrap();
    assert_eq!(empties, zeros);
    assert_eq!(empties.training.queries, 146);
}
