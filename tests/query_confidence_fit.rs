//! fitQueryConfidence's Newton fit on real judgements (../shared/data/cisi-abstain):
//! `training.converged` says whether the fit reached its optimum.

use calibrank::confidence::model::QueryConfidenceModel;
use calibrank::lab::eval::{parse_qrels, parse_trec_run};
use calibrank::lab::fit::{fit_query_confidence, rows, FitQueryConfidenceOptions};
use calibrank::lab::runs::{Qrels, Run};

#[path = "support/data.rs"]
mod data;
use data::cisi_abstain;

/// cisi-abstain's BM25 and dense runs, in the order a model takes them.
fn runs() -> [Run; 2] {
    ["run.bm25.txt", "run.dense.txt"].map(|n| parse_trec_run(&cisi_abstain(n)).unwrap())
}

/// The largest component of the penalized log loss's gradient at the model's
/// coefficients, computed here from the rows the fit read.
fn largest_gradient(qrels: &Qrels, runs: &[Run], m: &QueryConfidenceModel) -> f64 {
    let rows = rows(qrels, runs, &m.weights, m.rrf_k, m.k).unwrap();
    let mut g = vec![0.0; m.coefficients.len() + 1];
    for (x, &y) in rows.features.iter().zip(&rows.labels) {
        let z: Vec<f64> = x
            .iter()
            .zip(m.mean.iter().zip(&m.scale))
            .map(|(&v, (&mu, &s))| (v - mu) / s)
            .collect();
        let eta = m.intercept
            + m.coefficients
                .iter()
                .zip(&z)
                .map(|(c, v)| c * v)
                .sum::<f64>();
        let p = 1.0 / (1.0 + libm::exp(-eta));
        g[0] += p - y;
        for (gj, v) in g.iter_mut().skip(1).zip(&z) {
            *gj += (p - y) * v;
        }
    }
    for (gj, c) in g.iter_mut().skip(1).zip(&m.coefficients) {
        *gj += m.l2 * c;
    }
    g.iter()
        .map(|v| v.abs())
        .fold(0.0f64, |a, v| if v > a { v } else { a })
}

/// On the first 49 judged queries (in id order) the objective stops moving in floating
/// point while the gradient is about 5e-9: the fit ran to `maxIterations` saying
/// `converged: false` before such steps were taken for what they are (the optimum's
/// neighbourhood, where full Newton steps finish the fit).
#[test]
fn a_fit_whose_gradient_stalls_at_the_rounding_floor_has_converged() {
    let runs = runs();
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
    // At the optimum: the penalized log loss's gradient at the coefficients returned,
    // computed here from the rows the fit read, is at the rounding floor (a fit stopped
    // a step early has one of 1e-3 or more).
    let largest = largest_gradient(&first, &runs, &m);
    assert!(largest < 1e-9, "gradient {largest:e}");
    // More iterations change nothing.
    assert_eq!(fit(1000), m);
}

/// A query the judgements list with no document (`{}`) has nothing relevant, as one
/// judged all 0 has (and as `evaluate` and ranx count it): it was skipped, and a model
/// fitted on unanswerable queries written that way learnt from the answerable ones alone.
#[test]
fn a_query_judged_with_no_document_has_nothing_relevant() {
    let runs = runs();
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

/// On every judged query at weak penalties the objective stops moving in floating point
/// while the gradient is still about 5e-8 (an independent review's exact fit and
/// scikit-learn's LogisticRegression put the coefficients 1e-5 away, relatively): the
/// fit then goes on with full Newton steps while the gradient shrinks, and reports
/// `converged` with the gradient below the stated 1e-9.
#[test]
fn weak_penalties_converge_below_the_stated_tolerance() {
    let runs = runs();
    let all = parse_qrels(&cisi_abstain("qrels.txt")).unwrap();
    for l2 in [1e-2, 1e-3, 1e-4, 1.0] {
        let fit = |max_iterations| {
            let opts = FitQueryConfidenceOptions {
                l2,
                max_iterations,
                ..Default::default()
            };
            fit_query_confidence(&all, &runs, &opts).unwrap()
        };
        let m = fit(100);
        assert!(m.training.converged, "l2 {l2}: {:?}", m.training);
        let largest = largest_gradient(&all, &runs, &m);
        assert!(largest < 1e-9, "l2 {l2}: gradient {largest:e}");
        assert_eq!(fit(1000), m, "l2 {l2}");
        // A budget of exactly the steps taken gives the same fit, converged too (the
        // gradient after the last step was not looked at: `converged: false`).
        assert_eq!(fit(m.training.iterations), m, "l2 {l2}");
    }
}

/// `evaluate_query_confidence` on held-out queries: each judged query's probability is
/// `predict_query_confidence`'s and its label the fit's (`rows`), the figures made of
/// them; on cisi-abstain's halves (ids sorted, taken alternately) the AUROCs the README
/// gives, 0.946 and 0.934.
#[test]
fn a_model_is_measured_on_held_out_queries() {
    use calibrank::lab::fit::{auroc, evaluate_query_confidence, predict_query_confidence};
    let runs = runs();
    let all = parse_qrels(&cisi_abstain("qrels.txt")).unwrap();
    let ids: Vec<&String> = all.keys().collect();
    let half = |r: usize| -> Qrels {
        ids.iter()
            .enumerate()
            .filter(|(i, _)| i % 2 == r)
            .map(|(_, q)| ((*q).clone(), all[*q].clone()))
            .collect()
    };
    let mut aurocs = Vec::new();
    for (fit_on, test_on) in [(half(0), half(1)), (half(1), half(0))] {
        let model = fit_query_confidence(&fit_on, &runs, &Default::default()).unwrap();
        let e = evaluate_query_confidence(&model, &test_on, &runs).unwrap();
        let p = predict_query_confidence(&model, &runs).unwrap();
        let r = rows(&test_on, &runs, &model.weights, model.rrf_k, model.k).unwrap();
        assert_eq!(e.per_query.len(), r.queries.len());
        assert_eq!(e.queries as usize, r.queries.len());
        let mut probabilities = Vec::new();
        for (q, &y) in r.queries.iter().zip(&r.labels) {
            let got = e.per_query[q];
            assert_eq!(got.probability.to_bits(), p[q].to_bits(), "{q}");
            assert_eq!(got.relevant, y > 0.0, "{q}");
            probabilities.push(got.probability);
        }
        assert_eq!(e.auroc, auroc(&probabilities, &r.labels));
        let positives = r.labels.iter().filter(|&&y| y > 0.0).count();
        assert_eq!(e.positives as usize, positives);
        let brier = probabilities
            .iter()
            .zip(&r.labels)
            .map(|(p, y)| (p - y) * (p - y))
            .sum::<f64>()
            / probabilities.len() as f64;
        assert_eq!(e.brier.to_bits(), brier.to_bits());
        aurocs.push(format!("{:.3}", e.auroc.unwrap()));
    }
    assert_eq!(aurocs, ["0.946", "0.934"]);
    // No judged query retrieved: nothing to measure.
    let model = fit_query_confidence(&all, &runs, &Default::default()).unwrap();
    let unretrieved: Qrels = [("nowhere".to_string(), Default::default())]
        .into_iter()
        .collect();
    let e = evaluate_query_confidence(&model, &unretrieved, &runs).unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str()),
        (calibrank::error::ErrorCode::EmptyInput, "qrels")
    );
}

#[test]
fn a_top_fused_to_certainty_keeps_the_rank_only_feature_finite() {
    // With rrfK = 1 a document first in both runs fuses to 1/2 + 1/2 = 1, far above the
    // sigmoid's threshold: its probability rounds to 1, and the logit of the rank-only
    // feature would be infinite without its clamp (the fit then refused valid runs as
    // NON_FINITE_SCORE on `mean[0]`).
    use std::collections::BTreeMap;
    let mut qrels = BTreeMap::new();
    let mut runs = [BTreeMap::new(), BTreeMap::new()];
    for q in 0..8 {
        let qid = format!("q{q}");
        let label = if q % 2 == 0 { 1.0 } else { 0.0 };
        qrels.insert(qid.clone(), BTreeMap::from([(format!("d{q}"), label)]));
        let docs: BTreeMap<String, f64> = (0..5)
            .map(|d| {
                (
                    format!("d{}", (q + d) % 10),
                    10.0 - d as f64 - q as f64 * 0.1,
                )
            })
            .collect();
        for run in &mut runs {
            run.insert(qid.clone(), docs.clone());
        }
    }
    let runs = runs.map(Run);
    let opts = FitQueryConfidenceOptions {
        rrf_k: 1.0,
        ..Default::default()
    };
    let m = fit_query_confidence(&Qrels(qrels), &runs, &opts).unwrap();
    assert!(m.mean.iter().chain(&m.scale).all(|v| v.is_finite()));
    // The top's fused score is 1; the feature is the clamp's logit: finite.
    let top = calibrank::confidence::model::rank_only_of_top(&[1.0]);
    assert!((27.6..27.7).contains(&top), "{top}"); // logit(1 - 1e-12)
    let p = calibrank::lab::fit::predict_query_confidence(&m, &runs).unwrap();
    assert_eq!(p.len(), 8);
    assert!(p
        .iter()
        .all(|(_, v)| v.is_finite() && (0.0..=1.0).contains(v)));
}

#[test]
fn a_fit_s_steps_are_held_to_the_search_work_limit() {
    // 40 judged queries of 3 runs: 40 x (3 + 1)^2 = 640 terms a step, 5 a unit of
    // maxSearchWork: 128 units fit, 127 do not (INPUT_TOO_LARGE on `runs`).
    use calibrank::error::ErrorCode;
    use calibrank::lab::fit::fit_query_confidence_limited;
    use calibrank::limits::Limits;
    use std::collections::BTreeMap;
    let runs: Vec<Run> = (0..3)
        .map(|s| {
            Run((0..40)
                .map(|q| {
                    let docs = BTreeMap::from([
                        (format!("d{q}"), f64::from(3 - s)),
                        (format!("e{q}"), 1.0),
                    ]);
                    (format!("q{q}"), docs)
                })
                .collect())
        })
        .collect();
    let qrels = Qrels(
        (0..40)
            .map(|q| {
                (
                    format!("q{q}"),
                    BTreeMap::from([(format!("d{q}"), f64::from(q % 2))]),
                )
            })
            .collect(),
    );
    let opts = FitQueryConfidenceOptions::default();
    let at = |w: u32| Limits {
        max_search_work: w,
        ..Default::default()
    };
    assert!(fit_query_confidence_limited(&qrels, &runs, &opts, &at(128)).is_ok());
    let e = fit_query_confidence_limited(&qrels, &runs, &opts, &at(127)).unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str()),
        (ErrorCode::InputTooLarge, "runs")
    );
    assert!(
        e.message
            .contains("40 judged queries x (4 features)^2 = 640"),
        "{}",
        e.message
    );
    // Without limits, as before.
    assert!(fit_query_confidence(&qrels, &runs, &opts).is_ok());
}
