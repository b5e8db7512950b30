//! Retrieval evaluation: TREC runs and judgements, and the metrics of
//! [ranx](https://github.com/AmenRa/ranx) 0.3.21, value for value.
//!
//! ```
//! use calibrank::lab::eval::{evaluate, parse_qrels, parse_trec_run};
//!
//! let qrels = parse_qrels("q1 0 d1 1\nq1 0 d3 1\n").unwrap();
//! let run = parse_trec_run("q1 Q0 d1 1 9.5 bm25\nq1 Q0 d2 2 7.0 bm25\nq1 Q0 d3 3 6.5 bm25\n").unwrap();
//! let result = evaluate(&qrels, &run, &["mrr", "recall@2"]).unwrap();
//! assert_eq!(result.mean("mrr"), Some(1.0));
//! assert_eq!(result.mean("recall@2"), Some(0.5));
//! ```
//!
//! This pair ranks a query's tied documents by id. For the figures ranx gives on a TREC
//! file (its own tie order: what the package's `evaluate` gives, and what a dataset's
//! published ranx figures are), read it with [`parse_trec_run_ordered`] and evaluate with
//! [`evaluate_ordered`] ("Ties" below).
//!
//! # Agreement with ranx
//!
//! * **Metrics**: see [`MetricKind`] and [`Metric::parse`]; every formula follows ranx's
//!   numba code, including its edge cases (precision@k divides by `k` even for shorter
//!   rankings, MAP divides by the number of relevant documents, nDCG divides by 1 when
//!   the ideal DCG is 0, every metric is 0 for a query without relevant documents).
//! * **Queries**: the mean is over the queries of the judgements. A judged query absent
//!   from the run scores 0; a run query absent from the judgements is ignored. (ranx
//!   refuses mismatched query sets unless `make_comparable=True`; see below.)
//! * **Ties**: documents are ranked by descending score, and tied documents are put in
//!   exactly the order ranx's (unstable) numba quicksort puts them for the same input
//!   order (the source lines are listed in [`crate::lab::runs`]). [`evaluate`] takes a
//!   [`Run`], whose documents are in id order: its values equal ranx's for a run dict
//!   listing each query's documents in id order. [`evaluate_ordered`] takes an
//!   [`OrderedRun`] that keeps file order: with [`parse_trec_run_ordered`] its values
//!   equal `ranx.evaluate(Qrels.from_file(..), Run.from_file(..), metrics)` for the same
//!   files. [`evaluate_ranked`] takes a run already in the order ranx holds it (a fused
//!   run from [`crate::lab::runfusion::fuse_runs_ordered`], a run passed through
//!   [`crate::lab::runs::ranx_sort`]) and ranks it as it is, as ranx's `evaluate` ranks
//!   its own sorted `Run`. [`evaluate_ties`] with [`Ties::TrecEval`] ranks as trec_eval
//!   does instead (score descending, then document id descending).
//! * `make_comparable=True` makes ranx sort an already sorted run a second time, which
//!   can reorder ties again; calibrank sorts once, so on tied runs with mismatched
//!   query sets its values can differ from that ranx mode.
//! * Transcendental functions come from `libm`, so results are bit-identical across
//!   native and WebAssembly builds; they agree with ranx (numpy) to about 1e-15.

mod measures;
mod metric;
mod parse;
mod ranking;

pub use metric::{Metric, MetricKind};
pub use parse::{
    parse_qrels, parse_trec_run, parse_trec_run_ordered, qrels_from_json, run_from_json,
    run_from_json_ordered, run_to_trec, text_lines, OrderedRun, TextLines,
};
pub(crate) use ranking::ranx_argsort;

use crate::error::{key_path, ErrorCode, Result, ScoreError};
use crate::lab::runs::{Qrels, Run};
use measures::Judged;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};

/// How documents with equal scores are ranked.
///
/// * `Ranx` (default): as ranx 0.3.21 ranks them: numba's unstable quicksort of the
///   negated scores over the run's order (see [`crate::lab::runs`] for the source lines).
/// * `TrecEval`: as trec_eval ranks them: score descending, then document id descending
///   (byte order): trec_eval's `comp_sim_docno` (`form_res_rels.c`) compares
///   `strcmp(docno2, docno1)` once the scores are equal. The run's order plays no part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ties {
    /// ranx's order (the default).
    #[default]
    Ranx,
    /// trec_eval's order.
    TrecEval,
}

/// The result of [`evaluate`]: mean and per-query values of each requested metric.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluation {
    /// `(metric name as requested, mean over the judged queries)`, in request order.
    pub means: Vec<(String, f64)>,
    /// For each judged query id, its value of every metric, in request order.
    pub per_query: BTreeMap<String, Vec<f64>>,
}

impl Evaluation {
    /// The mean of the metric requested as `name` (the first one, if requested twice).
    pub fn mean(&self, name: &str) -> Option<f64> {
        self.means.iter().find(|(m, _)| m == name).map(|&(_, v)| v)
    }

    /// The per-query values of the metric requested as `name`, by query id.
    pub fn query_values(&self, name: &str) -> Option<BTreeMap<&str, f64>> {
        let column = self.means.iter().position(|(m, _)| m == name)?;
        self.per_query
            .iter()
            .map(|(qid, values)| values.get(column).map(|&v| (qid.as_str(), v)))
            .collect()
    }
}

/// Evaluates `run` against `qrels` with ranx metrics such as `ndcg@10`, `map@100`,
/// `mrr`, `recall@100` or `r-precision` (see [`Metric::parse`]).
///
/// Each query's documents enter ranx's sort in id order (see the module docs on ties).
///
/// Errors: no metric or no judged query ([`ErrorCode::EmptyInput`], field `metrics` /
/// `qrels`); an unknown metric ([`ErrorCode::UnknownMethod`], field `metrics[i]`) or a
/// bad cut-off ([`ErrorCode::InvalidConfig`], field `metrics[i]`); a NaN or infinite
/// score or grade ([`ErrorCode::NonFiniteScore`], field `run.<qid>.<docid>` or
/// `qrels.<qid>.<docid>`, each id as [`crate::error::key_path`] writes it: `qrels["q.1"].d`);
/// a grade that is not a whole number ([`ErrorCode::InvalidType`], field
/// `qrels.<qid>.<docid>`: see [`crate::lab::runs::check_grade`]).
pub fn evaluate(qrels: &Qrels, run: &Run, metrics: &[&str]) -> Result<Evaluation> {
    for (qid, docs) in run {
        for (doc, &score) in docs {
            crate::error::finite(score, || key_path(&key_path("run", qid), doc))?;
        }
    }
    evaluate_with(qrels, metrics, |qid| {
        let docs: Vec<(&str, f64)> = run
            .get(qid)
            .map(|docs| {
                docs.iter()
                    .map(|(doc, &score)| (doc.as_str(), score))
                    .collect()
            })
            .unwrap_or_default();
        ranking::rank_documents(&docs)
    })
}

/// [`evaluate`] for a run that keeps each query's documents in input order, so that
/// ties are ranked exactly as ranx ranks them when it reads the same TREC file (or JSON
/// object). Errors as for [`evaluate`], plus [`ErrorCode::DuplicateId`] (field
/// `run.<qid>[i]`) for a document listed twice in one query.
pub fn evaluate_ordered(qrels: &Qrels, run: &OrderedRun, metrics: &[&str]) -> Result<Evaluation> {
    evaluate_ties(qrels, run, metrics, Ties::Ranx)
}

/// [`evaluate_ordered`] with the tie rule `ties`: [`Ties::Ranx`] sorts the run's order
/// as ranx does; [`Ties::TrecEval`] ranks by score descending, then document id
/// descending, whatever the run's order.
pub fn evaluate_ties(
    qrels: &Qrels,
    run: &OrderedRun,
    metrics: &[&str],
    ties: Ties,
) -> Result<Evaluation> {
    check_ordered(run)?;
    evaluate_with(qrels, metrics, |qid| {
        let docs: Vec<(&str, f64)> = run
            .get(qid)
            .map(|docs| {
                docs.iter()
                    .map(|(doc, score)| (doc.as_str(), *score))
                    .collect()
            })
            .unwrap_or_default();
        match ties {
            Ties::Ranx => ranking::rank_documents(&docs),
            Ties::TrecEval => ranking::trec_eval_order(&docs),
        }
    })
}

/// Evaluates a run whose order is already its ranking (a ranx `Run` once sorted: a
/// handle made by `Run.fromTrec`, `Run.fromObject` or sorted by a first evaluation):
/// documents are ranked in exactly the order given, scores are not compared. Errors as
/// for [`evaluate_ordered`].
pub fn evaluate_ranked(qrels: &Qrels, run: &OrderedRun, metrics: &[&str]) -> Result<Evaluation> {
    check_ordered(run)?;
    evaluate_ranked_checked(qrels, run, metrics)
}

/// [`evaluate_ranked`] for a run already checked (finite scores, no document twice in a
/// query), as the lab's `Run` handles are when they are made: skips the checks.
#[doc(hidden)]
pub fn evaluate_ranked_checked(
    qrels: &Qrels,
    run: &OrderedRun,
    metrics: &[&str],
) -> Result<Evaluation> {
    evaluate_with(qrels, metrics, |qid| {
        run.get(qid)
            .map(|docs| docs.iter().map(|(doc, _)| doc.as_str()).collect::<Vec<_>>())
            .unwrap_or_default()
    })
}

/// Evaluates rankings already checked (each query's documents once, scores finite):
/// `rank_query(qid)` is the judged query's documents, best first (an unjudged query is
/// not asked for). The search of [`crate::lab::optimize`] scores its fusions so, without
/// building a run.
pub(crate) fn evaluate_rankings<'r, R: AsRef<[&'r str]>>(
    qrels: &Qrels,
    metrics: &[&str],
    rank_query: impl Fn(&str) -> R,
) -> Result<Evaluation> {
    evaluate_with(qrels, metrics, rank_query)
}

/// Every score finite, no document twice in one query.
fn check_ordered(run: &OrderedRun) -> Result<()> {
    for (qid, docs) in run {
        let mut seen = HashSet::new();
        for (i, (doc, score)) in docs.iter().enumerate() {
            crate::error::finite(*score, || key_path("run", qid) + &format!("[{i}]"))?;
            if !seen.insert(doc.as_str()) {
                let message = format!(
                    "document {} is listed twice for query {}",
                    crate::error::name(doc),
                    crate::error::name(qid)
                );
                return Err(ScoreError::new(
                    ErrorCode::DuplicateId,
                    key_path("run", qid) + &format!("[{i}]"),
                    message,
                ));
            }
        }
    }
    Ok(())
}

/// Validates the metrics and judgements, then scores every judged query, ranking its
/// documents with `rank_query`.
fn evaluate_with<'r, R: AsRef<[&'r str]>>(
    qrels: &Qrels,
    metrics: &[&str],
    rank_query: impl Fn(&str) -> R,
) -> Result<Evaluation> {
    let parsed = parse_metrics(metrics)?;
    check_qrels(qrels)?;
    let per_query: BTreeMap<String, Vec<f64>> = qrels
        .iter()
        .map(|(qid, grades)| {
            let ranking = rank_query(qid);
            // Grades looked up once per query, judged once per relevance level.
            let looked_up: Vec<Option<f64>> = ranking
                .as_ref()
                .iter()
                .map(|d| grades.get(*d).copied())
                .collect();
            let mut judged: Vec<(i64, Judged)> = Vec::new();
            let values = parsed
                .iter()
                .map(|metric| {
                    let at = judged
                        .iter()
                        .position(|(level, _)| *level == metric.rel_lvl)
                        .unwrap_or_else(|| {
                            judged.push((
                                metric.rel_lvl,
                                Judged::from_grades(&looked_up, grades, metric.rel_lvl),
                            ));
                            judged.len() - 1
                        });
                    judged
                        .get(at)
                        .map_or(0.0, |(_, j)| measures::score(metric, j))
                })
                .collect();
            (qid.clone(), values)
        })
        .collect();
    let means: Vec<(String, f64)> = metrics
        .iter()
        .enumerate()
        .map(|(column, name)| (name.to_string(), column_mean(&per_query, column)))
        .collect();
    check_finite_values(&per_query, &means)?;
    Ok(Evaluation { means, per_query })
}

/// Huge grades overflow the gain-based metrics (`dcg_burges` from grade 1024 on, sums of
/// grades near `f64::MAX`): that is a `NON_FINITE_SCORE` error (field `qrels.<qid>`, or
/// `metrics[i]` for an overflowing mean), never a NaN or infinite value.
fn check_finite_values(
    per_query: &BTreeMap<String, Vec<f64>>,
    means: &[(String, f64)],
) -> Result<()> {
    for (qid, values) in per_query {
        if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            let name = means.get(i).map_or("", |(name, _)| name.as_str());
            return Err(ScoreError::new(
                ErrorCode::NonFiniteScore,
                key_path("qrels", qid),
                format!(
                    "{name} of query {} overflows ({}): the grades are too large for this metric",
                    crate::error::name(qid),
                    crate::error::num(*v)
                ),
            ));
        }
    }
    if let Some((i, (name, v))) = means.iter().enumerate().find(|(_, (_, v))| !v.is_finite()) {
        return Err(ScoreError::new(
            ErrorCode::NonFiniteScore,
            format!("metrics[{i}]"),
            format!("the mean of {name} overflows ({})", crate::error::num(*v)),
        ));
    }
    Ok(())
}

/// Parses every requested metric; errors name `metrics[i]`.
fn parse_metrics(metrics: &[&str]) -> Result<Vec<Metric>> {
    if metrics.is_empty() {
        return Err(ScoreError::new(
            ErrorCode::EmptyInput,
            "metrics",
            "no metric requested",
        ));
    }
    metrics
        .iter()
        .enumerate()
        .map(|(i, name)| {
            Metric::parse(name).map_err(|mut e| {
                e.field = format!("metrics[{i}]");
                e
            })
        })
        .collect()
}

/// The judgements must name at least one query and hold finite whole grades
/// ([`crate::lab::runs::check_grade`], on `qrels.<qid>.<docid>`).
pub(crate) fn check_qrels(qrels: &Qrels) -> Result<()> {
    if qrels.is_empty() {
        return Err(ScoreError::new(
            ErrorCode::EmptyInput,
            "qrels",
            "no judged query",
        ));
    }
    qrels.check_grades("qrels")
}

/// The mean of one metric over all queries.
fn column_mean(per_query: &BTreeMap<String, Vec<f64>>, column: usize) -> f64 {
    let sum: f64 = per_query
        .values()
        .filter_map(|values| values.get(column))
        .sum();
    sum / per_query.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qrels() -> Qrels {
        parse_qrels("q1 0 a 1\nq1 0 c 2\nq2 0 x 1\nq3 0 y 0\n").unwrap()
    }

    fn run() -> Run {
        parse_trec_run(
            "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq2 Q0 x 1 1 t\nq9 Q0 z 1 5 t\n",
        )
        .unwrap()
    }

    #[test]
    fn means_over_judged_queries() {
        let result = evaluate(&qrels(), &run(), &["mrr", "ndcg@3", "hits"]).unwrap();
        // q1: mrr 1; q2: mrr 1; q3 has no relevant document: 0. q9 is not judged.
        assert_eq!(
            result.per_query.keys().collect::<Vec<_>>(),
            vec!["q1", "q2", "q3"]
        );
        assert_eq!(result.mean("mrr"), Some(2.0 / 3.0));
        assert_eq!(result.mean("hits"), Some(1.0));
        // q1: DCG = 1 + 2/log2(4) = 2; IDCG = 2 + 1/log2(3).
        let q1 = 2.0 / (2.0 + 1.0 / 3f64.log2());
        let ndcg = result.query_values("ndcg@3").unwrap();
        assert!((ndcg["q1"] - q1).abs() < 1e-12);
        assert_eq!(ndcg["q2"], 1.0);
        assert_eq!(ndcg["q3"], 0.0);
        assert!((result.mean("ndcg@3").unwrap() - (q1 + 1.0) / 3.0).abs() < 1e-12);
    }

    #[test]
    fn judged_query_missing_from_run_scores_zero() {
        let mut run = run();
        run.remove("q2");
        let result = evaluate(&qrels(), &run, &["recall@10"]).unwrap();
        assert_eq!(result.per_query["q2"], vec![0.0]);
    }

    #[test]
    fn ordered_and_unordered_agree_without_ties() {
        let text = "q1 Q0 c 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 a 3 1 t\n";
        let metrics = ["ndcg@2", "map", "precision@1"];
        let a = evaluate(&qrels(), &parse_trec_run(text).unwrap(), &metrics).unwrap();
        let b =
            evaluate_ordered(&qrels(), &parse_trec_run_ordered(text).unwrap(), &metrics).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn ties_follow_input_order_in_the_ordered_variant() {
        // Two tied documents: ranx's sort keeps small inputs in input order.
        let qrels = parse_qrels("q 0 b 1\n").unwrap();
        let ordered = parse_trec_run_ordered("q Q0 b 1 1 t\nq Q0 a 2 1 t\n").unwrap();
        let result = evaluate_ordered(&qrels, &ordered, &["mrr"]).unwrap();
        assert_eq!(result.mean("mrr"), Some(1.0));
        // In a Run the documents are in id order: a comes first.
        let run = parse_trec_run("q Q0 b 1 1 t\nq Q0 a 2 1 t\n").unwrap();
        assert_eq!(
            evaluate(&qrels, &run, &["mrr"]).unwrap().mean("mrr"),
            Some(0.5)
        );
    }

    #[test]
    fn errors_name_the_field() {
        let e = evaluate(&qrels(), &run(), &["ndcg@10", "ndgc"]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::UnknownMethod, "metrics[1]")
        );
        let e = evaluate(&qrels(), &run(), &["map@0"]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidConfig, "metrics[0]")
        );
        let e = evaluate(&qrels(), &run(), &[]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::EmptyInput, "metrics")
        );
        let e = evaluate(&Qrels::new(), &run(), &["map"]).unwrap_err();
        assert_eq!((e.code, e.field.as_str()), (ErrorCode::EmptyInput, "qrels"));
        let mut bad = run();
        bad.get_mut("q1").unwrap().insert("n".into(), f64::NAN);
        let e = evaluate(&qrels(), &bad, &["map"]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "run.q1.n")
        );
        let mut bad = qrels();
        bad.get_mut("q2").unwrap().insert("n".into(), f64::INFINITY);
        let e = evaluate(&bad, &run(), &["map"]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "qrels.q2.n")
        );
        let mut dup = OrderedRun::new();
        dup.insert("q1".into(), vec![("a".into(), 1.0), ("a".into(), 2.0)]);
        let e = evaluate_ordered(&qrels(), &dup, &["map"]).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::DuplicateId, "run.q1[1]")
        );
    }

    #[test]
    fn serializes_in_camel_case() {
        let result = evaluate(&qrels(), &run(), &["mrr"]).unwrap();
        let json = serde_json::to_string(&result).unwrap();
        assert!(json.starts_with(r#"{"means":[["mrr","#), "{json}");
        assert!(json.contains(r#""perQuery":{"q1":[1.0]"#), "{json}");
    }
}
