//! The per-query formulas, each as ranx 0.3.21 computes it (`ranx/metrics/*.py`).
//!
//! Notation: the ranking has `n` documents; `rel_i` is the grade of the document at rank
//! `i` (1-based) if it is relevant (grade `>= rel_lvl`) and 0 otherwise; `R` is the
//! number of relevant judged documents; `@k` keeps the top `min(k, n)` ranks. Every
//! metric is 0 for a query without relevant documents.

use super::metric::{Metric, MetricKind};
use crate::sort::StableSort;
use std::collections::BTreeMap;

/// One query's ranking seen through its judgements at one relevance level.
pub(crate) struct Judged {
    /// For each ranked document, its grade if it is relevant, else `None`.
    ranked: Vec<Option<f64>>,
    /// The grades of the relevant judged documents, highest first (the ideal ranking).
    ideal: Vec<f64>,
}

impl Judged {
    /// Judges `ranking` (document ids, best first) against `grades` at `rel_lvl`.
    #[cfg(test)]
    pub(crate) fn new(ranking: &[&str], grades: &BTreeMap<String, f64>, rel_lvl: i64) -> Self {
        let looked_up: Vec<Option<f64>> = ranking.iter().map(|d| grades.get(*d).copied()).collect();
        Judged::from_grades(&looked_up, grades, rel_lvl)
    }

    /// The judged ranking from the grade of every ranked document (`None`: not judged),
    /// looked up once for all the metrics of a query.
    pub(crate) fn from_grades(
        looked_up: &[Option<f64>],
        grades: &BTreeMap<String, f64>,
        rel_lvl: i64,
    ) -> Self {
        // Relevance levels are small integers; the conversion is exact below 2^53.
        let level = rel_lvl as f64;
        let relevant = |grade: f64| if grade >= level { Some(grade) } else { None };
        let ranked = looked_up.iter().map(|g| g.and_then(relevant)).collect();
        let mut ideal: Vec<f64> = grades.values().copied().filter_map(relevant).collect();
        ideal.stable_sort_by(|a, b| b.total_cmp(a));
        Judged { ranked, ideal }
    }

    /// `R`, the number of relevant judged documents.
    fn relevant(&self) -> usize {
        self.ideal.len()
    }

    /// The ranking's top `k` ranks (all of it for `None`).
    fn top(&self, k: Option<u64>) -> &[Option<f64>] {
        // A cut-off past the ranking (one that even overflows `usize`, as 2^32 does on
        // wasm32) is the whole ranking.
        let len = self.ranked.len();
        let depth = k.map_or(len, |k| usize::try_from(k).map_or(len, |k| k.min(len)));
        self.ranked.get(..depth).unwrap_or(&[])
    }

    /// The number of relevant documents in the top `k`.
    fn hits(&self, k: Option<u64>) -> usize {
        self.top(k).iter().filter(|rel| rel.is_some()).count()
    }
}

/// The value of `metric` for one judged query.
pub(crate) fn score(metric: &Metric, q: &Judged) -> f64 {
    if q.relevant() == 0 {
        return 0.0;
    }
    let k = metric.cutoff;
    match metric.kind {
        MetricKind::Hits => q.hits(k) as f64,
        MetricKind::HitRate => hit_rate(q, k),
        MetricKind::Precision => precision(q, k),
        MetricKind::Recall => recall(q, k),
        MetricKind::F1 => f1(q, k),
        MetricKind::RPrecision => precision(q, Some(q.relevant() as u64)),
        MetricKind::Mrr => reciprocal_rank(q, k),
        MetricKind::Map => average_precision(q, k),
        MetricKind::Dcg => dcg(q.top(k), jarvelin),
        MetricKind::DcgBurges => dcg(q.top(k), burges),
        MetricKind::Ndcg => ndcg(q, k, jarvelin),
        MetricKind::NdcgBurges => ndcg(q, k, burges),
        MetricKind::Rbp => rank_biased_precision(q, metric.persistence.unwrap_or(0.0)),
    }
}

/// `1` if a relevant document is in the top k, else `0`.
fn hit_rate(q: &Judged, k: Option<u64>) -> f64 {
    if q.hits(k) > 0 {
        1.0
    } else {
        0.0
    }
}

/// `hits@k / k`: ranx divides by `k` even when the ranking is shorter (by `n` without
/// a cut-off).
fn precision(q: &Judged, k: Option<u64>) -> f64 {
    // `u64`, not `usize`: `@4294967296` divides by 2^32 on every target.
    let denominator = k.unwrap_or(q.ranked.len() as u64);
    if denominator == 0 {
        return 0.0;
    }
    q.hits(k) as f64 / denominator as f64
}

/// `hits@k / R`.
fn recall(q: &Judged, k: Option<u64>) -> f64 {
    q.hits(k) as f64 / q.relevant() as f64
}

/// `2 P R / (P + R)` with `P = hits@k / k`, `R = hits@k / R` (0 when both are 0).
fn f1(q: &Judged, k: Option<u64>) -> f64 {
    let p = precision(q, k);
    let r = recall(q, k);
    if p + r == 0.0 {
        return 0.0;
    }
    2.0 * ((p * r) / (p + r))
}

/// `1 / rank` of the first relevant document in the top k (0 if none).
fn reciprocal_rank(q: &Judged, k: Option<u64>) -> f64 {
    match q.top(k).iter().position(Option::is_some) {
        Some(i) => 1.0 / (i + 1) as f64,
        None => 0.0,
    }
}

/// `sum over relevant ranks r <= k of precision@r, / R` (R, not `min(k, R)`).
fn average_precision(q: &Judged, k: Option<u64>) -> f64 {
    let mut hits = 0usize;
    let mut sum = 0.0;
    for (i, rel) in q.top(k).iter().enumerate() {
        if rel.is_some() {
            hits += 1;
            sum += hits as f64 / (i + 1) as f64;
        }
    }
    sum / q.relevant() as f64
}

/// Järvelin and Kekäläinen's gain: the grade itself.
fn jarvelin(grade: f64) -> f64 {
    grade
}

/// Burges et al.'s gain: `2^grade - 1`.
fn burges(grade: f64) -> f64 {
    libm::pow(2.0, grade) - 1.0
}

/// `sum_i gain(rel_i) / log2(i + 1)` over the given ranks (1-based `i`).
fn discounted_sum(grades: impl Iterator<Item = f64>, gain: fn(f64) -> f64) -> f64 {
    // From +0.0: a query the run lacks scores 0, not -0.
    crate::normalize::total(
        grades
            .enumerate()
            .map(|(i, rel)| gain(rel) / libm::log2((i + 2) as f64)),
    )
}

/// DCG of the given ranks; non-relevant documents have grade 0.
fn dcg(ranks: &[Option<f64>], gain: fn(f64) -> f64) -> f64 {
    discounted_sum(ranks.iter().map(|rel| rel.unwrap_or(0.0)), gain)
}

/// `DCG@k / IDCG@k`, where IDCG@k is the DCG of the relevant grades sorted best first;
/// ranx divides by 1 when IDCG is 0.
fn ndcg(q: &Judged, k: Option<u64>, gain: fn(f64) -> f64) -> f64 {
    let ideal_depth = k.map_or(usize::MAX, |k| usize::try_from(k).unwrap_or(usize::MAX));
    let ideal = discounted_sum(q.ideal.iter().copied().take(ideal_depth), gain);
    let ideal = if ideal == 0.0 { 1.0 } else { ideal };
    dcg(q.top(k), gain) / ideal
}

/// `(1 - p) * sum_i rel_i * p^(i-1)` over the whole ranking (the grade is the weight).
fn rank_biased_precision(q: &Judged, p: f64) -> f64 {
    let weighted = crate::normalize::total(
        q.ranked
            .iter()
            .enumerate()
            .map(|(i, rel)| rel.unwrap_or(0.0) * libm::pow(p, i as f64)),
    );
    (1.0 - p) * weighted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grades(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
        pairs.iter().map(|&(d, g)| (d.to_string(), g)).collect()
    }

    fn value(name: &str, ranking: &[&str], judged: &BTreeMap<String, f64>) -> f64 {
        let metric = Metric::parse(name).unwrap();
        score(&metric, &Judged::new(ranking, judged, metric.rel_lvl))
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Ranking a b c d e; relevant: a (grade 2), c (grade 1), x (grade 3, not retrieved);
    /// z is judged non-relevant (grade 0).
    fn example() -> (Vec<&'static str>, BTreeMap<String, f64>) {
        (
            vec!["a", "b", "c", "d", "e"],
            grades(&[("a", 2.0), ("c", 1.0), ("x", 3.0), ("z", 0.0)]),
        )
    }

    #[test]
    fn ndcg_by_hand() {
        let (ranking, judged) = example();
        // DCG@3 = 2/log2(2) + 0 + 1/log2(4) = 2.5.
        // IDCG@3 = 3/log2(2) + 2/log2(3) + 1/log2(4).
        let idcg3 = 3.0 + 2.0 / 3f64.log2() + 0.5;
        assert!(close(value("ndcg@3", &ranking, &judged), 2.5 / idcg3));
        assert!(close(value("dcg@3", &ranking, &judged), 2.5));
        // Burges: gains 3 and 1; ideal gains 7, 3, 1.
        let burges_idcg3 = 7.0 + 3.0 / 3f64.log2() + 0.5;
        assert!(close(
            value("ndcg_burges@3", &ranking, &judged),
            3.5 / burges_idcg3
        ));
        // Without a cut-off the whole ranking and all relevant grades count.
        assert!(close(value("ndcg", &ranking, &judged), 2.5 / idcg3));
        // @1: DCG 2, IDCG 3.
        assert!(close(value("ndcg@1", &ranking, &judged), 2.0 / 3.0));
    }

    #[test]
    fn set_metrics_by_hand() {
        let (ranking, judged) = example();
        assert_eq!(value("hits@3", &ranking, &judged), 2.0);
        assert_eq!(value("hit_rate@1", &ranking, &judged), 1.0);
        assert!(close(value("precision@3", &ranking, &judged), 2.0 / 3.0));
        // precision@10 divides by 10 although only 5 documents are ranked.
        assert!(close(value("precision@10", &ranking, &judged), 0.2));
        assert!(close(value("precision", &ranking, &judged), 0.4));
        assert!(close(value("recall@3", &ranking, &judged), 2.0 / 3.0));
        assert!(close(value("recall@1", &ranking, &judged), 1.0 / 3.0));
        // f1@3: P = R = 2/3.
        assert!(close(value("f1@3", &ranking, &judged), 2.0 / 3.0));
        // R = 3: two relevant in the top 3.
        assert!(close(value("r-precision", &ranking, &judged), 2.0 / 3.0));
    }

    #[test]
    fn rank_metrics_by_hand() {
        let (ranking, judged) = example();
        assert_eq!(value("mrr", &ranking, &judged), 1.0);
        let late = ["b", "d", "c"];
        assert!(close(value("mrr", &late, &judged), 1.0 / 3.0));
        assert_eq!(value("mrr@2", &late, &judged), 0.0);
        // AP = (1/1 + 2/3) / 3 (R = 3, the unretrieved x counts).
        assert!(close(
            value("map", &ranking, &judged),
            (1.0 + 2.0 / 3.0) / 3.0
        ));
        assert!(close(value("map@2", &ranking, &judged), 1.0 / 3.0));
        // RBP.5 = 0.5 * (2 * 1 + 1 * 0.25).
        assert!(close(value("rbp.5", &ranking, &judged), 0.5 * 2.25));
    }

    #[test]
    fn relevance_level_filters_grades() {
        let (ranking, judged) = example();
        // -l2: only a (2) and x (3) are relevant.
        assert!(close(value("recall-l2", &ranking, &judged), 0.5));
        let idcg = 3.0 + 2.0 / 3f64.log2();
        assert!(close(value("ndcg@3-l2", &ranking, &judged), 2.0 / idcg));
        // -l0: z (grade 0) becomes relevant too; R = 4.
        assert!(close(value("recall-l0", &ranking, &judged), 0.5));
    }

    #[test]
    fn no_relevant_documents_scores_zero() {
        let judged = grades(&[("a", 0.0), ("b", -1.0)]);
        for name in [
            "ndcg@10",
            "map",
            "mrr",
            "precision@5",
            "recall",
            "f1",
            "r-precision",
            "rbp.9",
        ] {
            assert_eq!(value(name, &["a", "b"], &judged), 0.0, "{name}");
        }
    }

    #[test]
    fn empty_ranking_scores_zero() {
        let (_, judged) = example();
        for name in [
            "ndcg@10",
            "map",
            "mrr",
            "precision",
            "precision@5",
            "recall",
            "f1",
            "hits",
        ] {
            assert_eq!(value(name, &[], &judged), 0.0, "{name}");
        }
    }
}
