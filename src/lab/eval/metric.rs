//! Metric names, spelled as ranx spells them: `name[@k][-lN]`.
//!
//! * `@k` keeps the top `k` documents of the ranking (`k >= 1`; without it the whole
//!   ranking counts);
//! * `-lN` sets the relevance level: judged grades `>= N` are relevant (default 1);
//! * `rbp.95` (or `rbp@95`) is rank-biased precision with persistence 0.95.
//!
//! ranx reads `@0` as "no cut-off" and silently ignores a cut-off on `r-precision`;
//! calibrank rejects both as [`ErrorCode::InvalidConfig`] rather than guess.

use crate::error::{ErrorCode, Result, ScoreError};
use std::fmt;

/// The metrics ranx 0.3.21 computes (all but `bpref`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetricKind {
    /// `hits`: the number of relevant documents retrieved.
    Hits,
    /// `hit_rate`: 1 if any relevant document is retrieved, else 0 (trec_eval's `success`).
    HitRate,
    /// `precision`: retrieved relevant documents / `k` (/ run length without `@k`).
    Precision,
    /// `recall`: retrieved relevant documents / relevant documents.
    Recall,
    /// `f1`: the harmonic mean of precision and recall.
    F1,
    /// `r-precision`: precision at R, the number of relevant documents.
    RPrecision,
    /// `mrr`: reciprocal rank of the first relevant document.
    Mrr,
    /// `map`: average precision, the sum of precision at each relevant hit / R.
    Map,
    /// `dcg`: discounted cumulative gain with Järvelin's gain (the grade).
    Dcg,
    /// `dcg_burges`: discounted cumulative gain with Burges' gain `2^grade - 1`.
    DcgBurges,
    /// `ndcg`: `dcg` over the ideal `dcg` of the judgements.
    Ndcg,
    /// `ndcg_burges`: `dcg_burges` over its ideal value.
    NdcgBurges,
    /// `rbp`: rank-biased precision `(1 - p) * sum grade_i * p^(i-1)`.
    Rbp,
}

impl MetricKind {
    /// Every kind, in documentation order.
    pub const ALL: [MetricKind; 13] = [
        MetricKind::Hits,
        MetricKind::HitRate,
        MetricKind::Precision,
        MetricKind::Recall,
        MetricKind::F1,
        MetricKind::RPrecision,
        MetricKind::Mrr,
        MetricKind::Map,
        MetricKind::Dcg,
        MetricKind::DcgBurges,
        MetricKind::Ndcg,
        MetricKind::NdcgBurges,
        MetricKind::Rbp,
    ];

    /// The ranx name of the metric.
    pub const fn name(self) -> &'static str {
        match self {
            MetricKind::Hits => "hits",
            MetricKind::HitRate => "hit_rate",
            MetricKind::Precision => "precision",
            MetricKind::Recall => "recall",
            MetricKind::F1 => "f1",
            MetricKind::RPrecision => "r-precision",
            MetricKind::Mrr => "mrr",
            MetricKind::Map => "map",
            MetricKind::Dcg => "dcg",
            MetricKind::DcgBurges => "dcg_burges",
            MetricKind::Ndcg => "ndcg",
            MetricKind::NdcgBurges => "ndcg_burges",
            MetricKind::Rbp => "rbp",
        }
    }

    /// The kind named `name` (a ranx name, without cut-off).
    fn from_name(name: &str) -> Option<Self> {
        MetricKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// A parsed metric: what to compute, down to which rank, at which relevance level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metric {
    /// The measure.
    pub kind: MetricKind,
    /// `@k`: only the top `k` documents count; `None`: the whole ranking.
    pub cutoff: Option<u64>,
    /// Judged grades `>= rel_lvl` are relevant (ranx's `rel_lvl`, default 1).
    pub rel_lvl: i64,
    /// The persistence `p` of `rbp` (in `[0, 1)`); `None` for every other metric.
    pub persistence: Option<f64>,
}

impl Metric {
    /// Parses a ranx metric name such as `ndcg@10`, `map`, `recall@100`,
    /// `r-precision`, `ndcg_burges@10-l2` or `rbp.95`.
    ///
    /// Errors: an unknown name is [`ErrorCode::UnknownMethod`]; a bad cut-off,
    /// relevance level or persistence is [`ErrorCode::InvalidConfig`]. The field is
    /// `metric`.
    pub fn parse(name: &str) -> Result<Metric> {
        let (base, rel_lvl) = match name.split_once("-l") {
            Some((base, level)) => (base, parse_rel_lvl(level)?),
            None => (name, 1),
        };
        if let Some(rest) = base.strip_prefix("rbp") {
            return parse_rbp(rest, rel_lvl);
        }
        let (base, cutoff) = match base.split_once('@') {
            Some((base, k)) => (base, Some(parse_cutoff(k)?)),
            None => (base, None),
        };
        let kind = MetricKind::from_name(base).ok_or_else(|| unknown(name))?;
        if cutoff.is_some() && kind == MetricKind::RPrecision {
            return Err(invalid(
                "r-precision takes no cut-off (its cut-off is R)".to_string(),
            ));
        }
        Ok(Metric {
            kind,
            cutoff,
            rel_lvl,
            persistence: None,
        })
    }
}

impl fmt::Display for Metric {
    /// The canonical ranx spelling (`ndcg@10`, `rbp.95`, `map-l2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        if let Some(p) = self.persistence {
            let digits = format!("{p}");
            write!(f, ".{}", digits.strip_prefix("0.").unwrap_or("0"))?;
        }
        if let Some(k) = self.cutoff {
            write!(f, "@{k}")?;
        }
        if self.rel_lvl != 1 {
            write!(f, "-l{}", self.rel_lvl)?;
        }
        Ok(())
    }
}

/// `rbp` followed by `.DIGITS` or `@DIGITS`: persistence `0.DIGITS`.
fn parse_rbp(rest: &str, rel_lvl: i64) -> Result<Metric> {
    let digits = rest
        .strip_prefix('.')
        .or_else(|| rest.strip_prefix('@'))
        .unwrap_or("");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(format!(
            "rbp needs its persistence as digits after a dot, e.g. rbp.95; got {}",
            crate::error::name(rest)
        )));
    }
    let p = format!("0.{digits}")
        .parse::<f64>()
        .map_err(|_| invalid(format!("bad persistence {digits:?}")))?;
    Ok(Metric {
        kind: MetricKind::Rbp,
        cutoff: None,
        rel_lvl,
        persistence: Some(p),
    })
}

/// The `k` of `@k`: an integer >= 1.
/// `u64` on every target (a `usize` refused `@4294967296` on wasm32 only).
fn parse_cutoff(k: &str) -> Result<u64> {
    match k.parse::<u64>() {
        Ok(k) if k >= 1 => Ok(k),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(invalid(format!(
            "cut-off {} is above the largest, @{}",
            crate::error::name(&format!("@{k}")),
            u64::MAX
        ))),
        _ => Err(invalid(format!(
            "cut-off {} must be an integer >= 1",
            crate::error::name(&format!("@{k}"))
        ))),
    }
}

/// The `N` of `-lN`: an integer.
fn parse_rel_lvl(level: &str) -> Result<i64> {
    level.parse::<i64>().map_err(|_| {
        invalid(format!(
            "relevance level {} must be an integer",
            crate::error::name(&format!("-l{level}"))
        ))
    })
}

/// An [`ErrorCode::InvalidConfig`] on the metric.
fn invalid(message: String) -> ScoreError {
    ScoreError::new(ErrorCode::InvalidConfig, "metric", message)
}

/// An [`ErrorCode::UnknownMethod`] listing the supported names.
fn unknown(name: &str) -> ScoreError {
    let names: Vec<&str> = MetricKind::ALL.iter().map(|k| k.name()).collect();
    ScoreError::new(
        ErrorCode::UnknownMethod,
        "metric",
        format!(
            "unknown metric {}; expected one of {} (with optional @k and -lN)",
            crate::error::name(name),
            names.join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ranx_names() {
        let m = Metric::parse("ndcg@10").unwrap();
        assert_eq!(
            (m.kind, m.cutoff, m.rel_lvl),
            (MetricKind::Ndcg, Some(10), 1)
        );
        let m = Metric::parse("map").unwrap();
        assert_eq!((m.kind, m.cutoff), (MetricKind::Map, None));
        // A cut-off is a u64 on every target (wasm32's usize ends at 2^32 - 1).
        let m = Metric::parse("precision@18446744073709551615").unwrap();
        assert_eq!(m.cutoff, Some(u64::MAX));
        let e = Metric::parse("precision@18446744073709551616").unwrap_err();
        assert_eq!(
            e.message,
            "cut-off \"@18446744073709551616\" is above the largest, @18446744073709551615"
        );
        let e = Metric::parse(&format!("ndcg@{}", "9".repeat(5000))).unwrap_err();
        assert!(e.message.len() < 200, "{}", e.message);
        let m = Metric::parse("r-precision").unwrap();
        assert_eq!(m.kind, MetricKind::RPrecision);
        let m = Metric::parse("ndcg_burges@5-l2").unwrap();
        assert_eq!(
            (m.kind, m.cutoff, m.rel_lvl),
            (MetricKind::NdcgBurges, Some(5), 2)
        );
        let m = Metric::parse("r-precision-l2").unwrap();
        assert_eq!((m.kind, m.rel_lvl), (MetricKind::RPrecision, 2));
        let m = Metric::parse("rbp.95").unwrap();
        assert_eq!((m.kind, m.persistence), (MetricKind::Rbp, Some(0.95)));
        assert_eq!(Metric::parse("rbp@8").unwrap().persistence, Some(0.8));
        for kind in MetricKind::ALL {
            if kind != MetricKind::Rbp {
                assert_eq!(Metric::parse(kind.name()).unwrap().kind, kind);
            }
        }
    }

    #[test]
    fn displays_canonical_names() {
        for name in [
            "ndcg@10",
            "map",
            "r-precision",
            "hit_rate@10-l2",
            "rbp.95",
            "rbp.5-l0",
        ] {
            assert_eq!(Metric::parse(name).unwrap().to_string(), name);
        }
        assert_eq!(Metric::parse("rbp@8").unwrap().to_string(), "rbp.8");
    }

    #[test]
    fn rejects_bad_names() {
        for (name, code) in [
            ("ndgc@10", ErrorCode::UnknownMethod),
            ("NDCG", ErrorCode::UnknownMethod),
            ("", ErrorCode::UnknownMethod),
            ("bpref", ErrorCode::UnknownMethod),
            ("ndcg@0", ErrorCode::InvalidConfig),
            ("ndcg@-3", ErrorCode::InvalidConfig),
            ("ndcg@ten", ErrorCode::InvalidConfig),
            ("ndcg@", ErrorCode::InvalidConfig),
            ("map-lx", ErrorCode::InvalidConfig),
            ("r-precision@10", ErrorCode::InvalidConfig),
            ("rbp", ErrorCode::InvalidConfig),
            ("rbp.9x", ErrorCode::InvalidConfig),
        ] {
            let e = Metric::parse(name).unwrap_err();
            assert_eq!(e.code, code, "{name}");
            assert_eq!(e.field, "metric");
        }
    }
}
