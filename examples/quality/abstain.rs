//! The "know when nothing relevant was found" section of the quality report, on
//! `../shared/data/cisi-abstain` (CISI plus 70 queries with nothing relevant).
//!
//! Protocol: the judged queries sorted by id are split alternately into halves A and B.
//! A query-confidence model (`fitQueryConfidence`, defaults) is fitted on one half and
//! measured on the other, both ways. Compared on the held-out half:
//! * the rank-only estimate: a default `Pipeline` (minConfidence 0, so that the top 5
//!   are all returned) over the bm25 and dense lists, `confidence.atLeastOneRelevant`;
//! * the default `Pipeline` as it is (minConfidence 0.3): its `outcome.probability`, the
//!   rank-only estimate over the results that pass minConfidence;
//! * Platt scaling fitted on the rank-only estimate of the fit half;
//! * the model, through a `Pipeline` configured with it.
//!
//! Label: the fused top 5 holds a document judged > 0. ECE: 10 equal-width bins.
//! "ECE floor": the mean ECE that a perfectly calibrated predictor with the same
//! probabilities would show on as many queries (labels drawn from the probabilities
//! themselves, 2,000 draws of a fixed pseudo-random sequence): with 73 queries, binning
//! noise alone gives an ECE of this size.

use calibrank::calibrate::PlattModel;
use calibrank::confidence::model::QueryConfidenceModel;
use calibrank::error::Result;
use calibrank::lab::eval::parse_qrels;
use calibrank::lab::fit::{
    auroc, calibration_error, fit_platt, fit_query_confidence, ranked, CalibrationErrorOptions,
    FitQueryConfidenceOptions,
};
use calibrank::lab::runs::{Qrels, Run};
use calibrank::pipeline::{
    InputList, OutcomeKind, Pipeline, PipelineConfidence, PipelineConfig, PipelineInput,
};
use std::fmt::Write as _;

/// Figures of one direction (fit on one half, measured on the other).
pub struct Direction {
    pub label: String,
    pub rank_only: Figures,
    pub default: Figures,
    pub platt: Figures,
    pub model: Figures,
    pub model_json: String,
    pub outcomes: [[usize; 3]; 3],
    /// Held-out (queries, labels, model probabilities), for the pooled rows.
    pub held_out: (Vec<String>, Vec<f64>, Vec<f64>),
    /// The rank-only estimates of the same held-out queries.
    pub held_out_rank_only: Vec<f64>,
    /// The default pipeline's outcome probabilities of the same held-out queries.
    pub held_out_default: Vec<f64>,
}

/// AUROC (relevant in top 5), the same among in-domain queries alone, ECE, ECE floor,
/// AUROC in-domain vs out-of-domain.
#[derive(Clone, Copy)]
pub struct Figures {
    pub auroc: f64,
    pub auroc_in_domain: f64,
    pub ece: f64,
    pub ece_floor: f64,
    pub ood_auroc: f64,
}

fn is_ood(q: &str) -> bool {
    q.starts_with("ood")
}

fn input(runs: &[Run], q: &str) -> PipelineInput {
    let lists = ["bm25", "dense"]
        .iter()
        .zip(runs)
        .map(|(name, run)| {
            let r = ranked(run, q);
            let view = r.view();
            InputList {
                name: (*name).into(),
                ids: view.ids.iter().map(|s| s.to_string()).collect(),
                scores: view.scores.map(<[f64]>::to_vec),
                weight: None,
            }
        })
        .collect();
    PipelineInput {
        lists,
        ..Default::default()
    }
}

fn pipeline(model: Option<QueryConfidenceModel>) -> Result<Pipeline> {
    Pipeline::new(PipelineConfig {
        min_confidence: 0.0,
        ..default_pipeline_config(model)
    })
}

/// A default `Pipeline`'s configuration (minConfidence 0.3), without explanations.
fn default_pipeline_config(model: Option<QueryConfidenceModel>) -> PipelineConfig {
    PipelineConfig {
        explain: false,
        confidence: PipelineConfidence {
            model,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// splitmix64: a fixed pseudo-random sequence for the ECE floor.
fn splitmix(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

fn ece(p: &[f64], y: &[f64]) -> Result<f64> {
    Ok(calibration_error(p, y, &CalibrationErrorOptions::default())?.ece)
}

fn figures(p: &[f64], y: &[f64], queries: &[String]) -> Result<Figures> {
    let mut state = 42u64;
    let draws = 2000;
    let mut floor = 0.0;
    for _ in 0..draws {
        let sim: Vec<f64> = p
            .iter()
            .map(|&pi| if splitmix(&mut state) < pi { 1.0 } else { 0.0 })
            .collect();
        floor += ece(p, &sim)?;
    }
    let in_domain: Vec<f64> = queries
        .iter()
        .map(|q| if is_ood(q) { 0.0 } else { 1.0 })
        .collect();
    // Relevant in the top 5 or not, among the in-domain queries alone (an out-of-domain
    // query is always a negative: the pooled AUROC mostly measures telling them apart).
    let (p_in, y_in): (Vec<f64>, Vec<f64>) = queries
        .iter()
        .zip(p.iter().zip(y))
        .filter(|(q, _)| !is_ood(q))
        .map(|(_, (&pi, &yi))| (pi, yi))
        .unzip();
    Ok(Figures {
        auroc: auroc(p, y).unwrap_or(f64::NAN),
        auroc_in_domain: auroc(&p_in, &y_in).unwrap_or(f64::NAN),
        ece: ece(p, y)?,
        ece_floor: floor / draws as f64,
        ood_auroc: auroc(p, &in_domain).unwrap_or(f64::NAN),
    })
}

fn subset(q: &Qrels, keys: &[String]) -> Qrels {
    keys.iter()
        .filter_map(|k| Some((k.clone(), q.get(k)?.clone())))
        .collect()
}

/// Runs one direction.
fn direction(
    label: &str,
    qrels: &Qrels,
    runs: &[Run],
    fit_q: &[String],
    test_q: &[String],
) -> Result<Direction> {
    let model = fit_query_confidence(
        &subset(qrels, fit_q),
        runs,
        &FitQueryConfidenceOptions::default(),
    )?;
    let rank_only = pipeline(None)?;
    let default = Pipeline::new(default_pipeline_config(None))?;
    let with_model = pipeline(Some(model.clone()))?;
    // Labels and rank-only estimates of both halves (Platt is fitted on the fit half).
    let rows = |qs: &[String]| -> Result<(Vec<f64>, Vec<f64>)> {
        let sub = subset(qrels, qs);
        let r = calibrank::lab::fit::rows(&sub, runs, &model.weights, model.rrf_k, model.k)?;
        let mut est = Vec::new();
        for q in &r.queries {
            est.push(
                rank_only
                    .run(&input(runs, q))?
                    .confidence
                    .at_least_one_relevant,
            );
        }
        Ok((r.labels, est))
    };
    let (fit_y, fit_ro) = rows(fit_q)?;
    let platt: PlattModel = fit_platt(&fit_ro, &fit_y)?;
    let test_rows = calibrank::lab::fit::rows(
        &subset(qrels, test_q),
        runs,
        &model.weights,
        model.rrf_k,
        model.k,
    )?;
    let (test_y, test_ro) = rows(test_q)?;
    let mut test_default = Vec::new();
    for q in &test_rows.queries {
        test_default.push(default.run(&input(runs, q))?.outcome.probability);
    }
    let mut model_p = Vec::new();
    let mut outcomes = [[0usize; 3]; 3];
    for (q, &y) in test_rows.queries.iter().zip(&test_y) {
        let out = with_model.run(&input(runs, q))?;
        model_p.push(out.confidence.at_least_one_relevant);
        let group = if is_ood(q) {
            2
        } else if y > 0.0 {
            0
        } else {
            1
        };
        let kind = match out.outcome.kind {
            OutcomeKind::Answer => 0,
            OutcomeKind::Hedge => 1,
            OutcomeKind::Abstain => 2,
        };
        if let Some(c) = outcomes.get_mut(group).and_then(|g| g.get_mut(kind)) {
            *c += 1;
        }
    }
    let platt_p: Vec<f64> = test_ro.iter().map(|&x| platt.predict(x)).collect();
    Ok(Direction {
        label: label.into(),
        rank_only: figures(&test_ro, &test_y, &test_rows.queries)?,
        default: figures(&test_default, &test_y, &test_rows.queries)?,
        platt: figures(&platt_p, &test_y, &test_rows.queries)?,
        model: figures(&model_p, &test_y, &test_rows.queries)?,
        model_json: serde_json::to_string(&model).unwrap_or_default(),
        outcomes,
        held_out: (test_rows.queries.clone(), test_y, model_p),
        held_out_rank_only: test_ro,
        held_out_default: test_default,
    })
}

/// Writes the section; returns both directions for the checks.
pub fn section(
    md: &mut String,
    dir: &str,
    read: impl Fn(&str, &str) -> String,
) -> Result<Vec<Direction>> {
    let qrels = parse_qrels(&read(dir, "qrels.txt"))?;
    let runs = vec![
        calibrank::lab::eval::parse_trec_run(&read(dir, "run.bm25.txt"))?,
        calibrank::lab::eval::parse_trec_run(&read(dir, "run.dense.txt"))?,
    ];
    let queries: Vec<String> = qrels.keys().cloned().collect();
    let a: Vec<String> = queries.iter().step_by(2).cloned().collect();
    let b: Vec<String> = queries.iter().skip(1).step_by(2).cloned().collect();
    let dirs = vec![
        direction("fit A, test B", &qrels, &runs, &a, &b)?,
        direction("fit B, test A", &qrels, &runs, &b, &a)?,
    ];
    let n_ood = queries.iter().filter(|q| is_ood(q)).count();
    let _ = writeln!(
        md,
        "\n## Know when nothing relevant was found (cisi-abstain)\n"
    );
    let _ = writeln!(md, "`../shared/data/cisi-abstain`: {} judged queries, {} of them out of domain (nothing relevant in the collection). The judged queries sorted by id are split alternately into halves A and B; `fitQueryConfidence` (defaults: top 5, RRF k = 60, L2 = 1) is fitted on one half and measured on the other, both ways. Label: the fused top 5 of bm25 and dense holds a document judged > 0. *Rank-only*: a default `Pipeline` with `minConfidence: 0` (`1 - prod(1 - p_i)` over the top 5 calibrated scores, the package's estimate without a model; the seeds give none). *Platt*: `fitPlatt` on the fit half's rank-only estimates. *Model*: a `Pipeline` with `confidence: {{ model }}`. ECE: 10 equal-width bins. *ECE floor*: the mean ECE a perfectly calibrated predictor with the same probabilities shows on as many queries (labels drawn from the probabilities, 2,000 draws): on about 73 queries, binning noise alone is this large. *OOD AUROC*: in-domain (CISI) against out-of-domain queries.\n", queries.len(), n_ood);
    let _ = writeln!(md, "| held-out half | estimate | AUROC (relevant in top 5) | AUROC in domain | ECE | ECE floor | OOD AUROC |\n|---|---|---|---|---|---|---|");
    let row = |md: &mut String, half: &str, name: &str, f: Figures| {
        let _ = writeln!(
            md,
            "| {half} | {name} | {:.4} | {:.4} | {:.4} | {:.4} | {:.4} |",
            f.auroc, f.auroc_in_domain, f.ece, f.ece_floor, f.ood_auroc
        );
    };
    for d in &dirs {
        for (name, f) in [
            ("rank-only", d.rank_only),
            ("default `Pipeline`", d.default),
            ("Platt on rank-only", d.platt),
            ("model", d.model),
        ] {
            row(md, &d.label, name, f);
        }
    }
    let mut pooled = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for d in &dirs {
        pooled.0.extend(d.held_out.0.iter().cloned());
        pooled.1.extend(d.held_out.1.iter().copied());
        pooled.2.extend(d.held_out.2.iter().copied());
        pooled.3.extend(d.held_out_rank_only.iter().copied());
        pooled.4.extend(d.held_out_default.iter().copied());
    }
    // The rank-only estimates need no fit: pooled, they are every judged query's.
    let half = format!("both, pooled ({} held-out predictions)", pooled.0.len());
    for (name, p) in [
        ("rank-only", &pooled.3),
        ("default `Pipeline`", &pooled.4),
        ("model", &pooled.2),
    ] {
        row(md, &half, name, figures(p, &pooled.1, &pooled.0)?);
    }
    let _ = writeln!(md, "\nThe issue that asked for this quoted the rank-only estimate at AUROC 0.87 and ECE 0.33 on this collection, measured before this report existed and with settings it does not state; the pooled rank-only row above is the same estimate (a `Pipeline` with `minConfidence: 0`, label as defined above) on every judged query. *Default `Pipeline`*: `outcome.probability` of a `Pipeline` with every default (`minConfidence` 0.3), what an app reads without a model: the same estimate over the results that pass `minConfidence` (0 when none does). *AUROC in domain*: relevant in the top 5 or not among the in-domain queries alone; an out-of-domain query is always a negative, so the first AUROC mostly measures telling them apart, and this one what is left: whether an answerable query's top 5 caught a relevant document.");
    let _ = writeln!(md, "\nOutcomes of the model's pipeline on the held-out half (defaults: answer at p >= 0.5, hedge at p >= 0.2, abstain below):\n\n| held-out half | queries | answer | hedge | abstain |\n|---|---|---|---|---|");
    for d in &dirs {
        for (name, row) in [
            "in domain, relevant in top 5",
            "in domain, none in top 5",
            "out of domain",
        ]
        .iter()
        .zip(d.outcomes)
        {
            let _ = writeln!(
                md,
                "| {} | {name} | {} | {} | {} |",
                d.label, row[0], row[1], row[2]
            );
        }
    }
    let _ = writeln!(md, "\nTargets (held-out half): ECE <= 0.05; AUROC no lower than the rank-only estimate's; OOD AUROC >= 0.98. The ECE target is below the floor of a perfectly calibrated predictor on 73 queries, so no estimate can be expected to meet it on one half; the pooled row is the closer test. Caveat: the feature set was picked among six candidates by their figures on these same two halves (`bench/qconf-features.py`), so the held-out figures are mildly optimistic; the L2 penalty was not tuned (1 throughout), and no other collection with unanswerable queries was available to check them on.\n");
    for d in &dirs {
        let m = d.model;
        let _ = writeln!(
            md,
            "- {}: ECE {:.4} ({}; floor {:.4}); AUROC {:.4} vs rank-only {:.4} ({}); OOD AUROC {:.4} ({}).",
            d.label,
            m.ece,
            if m.ece <= 0.05 { "met" } else { "missed" },
            m.ece_floor,
            m.auroc,
            d.rank_only.auroc,
            if m.auroc >= d.rank_only.auroc { "met" } else { "missed" },
            m.ood_auroc,
            if m.ood_auroc >= 0.98 { "met" } else { "missed" },
        );
    }
    if let Some(d) = dirs.first() {
        let _ = writeln!(
            md,
            "\nThe model fitted on half A, as `fitQueryConfidence` returns it:\n\n```json\n{}\n```",
            d.model_json
        );
    }
    Ok(dirs)
}
