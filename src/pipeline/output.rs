//! The pipeline output: results with their explanations, stage statistics, the
//! query-level outcome, and the output contract.

use crate::bands::Band;
use crate::confidence::QueryConfidence;
use crate::error::{ErrorCode, Result, ScoreError};
use crate::normalize::PoolScale;
use crate::rerank::HeuristicFactors;
use serde::{Deserialize, Serialize};

// For the doc links only.
#[cfg(doc)]
use super::input::InputRef;

/// One list's contribution to one result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contribution {
    /// List name.
    pub list: String,
    /// 1-based rank in that list.
    pub rank: u32,
    /// The list's weight.
    pub weight: f64,
    /// `weight / (k + rank)`.
    pub contribution: f64,
    /// The list's own score for the item, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_score: Option<f64>,
}

/// What the rerank stage did to one result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum RerankExplain {
    /// No reranking.
    None,
    /// Heuristic factors.
    Heuristic {
        /// The factors.
        factors: HeuristicFactors,
    },
    /// Cross-encoder score, raw and normalized.
    CrossEncoder {
        /// The raw score.
        raw: f64,
        /// After per-query min-max.
        normalized: f64,
    },
}

/// A result's value after every stage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Explain {
    /// Which lists contributed, at which rank.
    pub contributions: Vec<Contribution>,
    /// RRF score.
    pub fused: f64,
    /// Merge-stage recency multiplier.
    pub recency_multiplier: f64,
    /// Score after recency.
    pub after_recency: f64,
    /// The rerank stage.
    pub rerank: RerankExplain,
    /// Rerank-stage fiscal-year multiplier.
    pub rerank_recency_multiplier: f64,
    /// Score after reranking.
    pub after_rerank: f64,
    /// Score after normalization.
    pub normalized: f64,
    /// Calibrated confidence.
    pub calibrated: f64,
    /// Final band.
    pub band: Band,
    /// Band profile used (none: the default floors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band_profile: Option<String>,
}

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PipelineResult {
    /// Item id.
    pub id: String,
    /// The id's index among the input's distinct ids: the caller's own table for an
    /// input interned by the caller ([`InputRef::interned`]), otherwise the order of
    /// first appearance in the lists. Not serialized: the bindings return it instead of
    /// the id, which the caller already holds.
    #[serde(skip)]
    pub doc: u32,
    /// Calibrated confidence in [0, 1].
    pub score: f64,
    /// Band.
    pub band: Band,
    /// Explanation (when `config.explain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<Explain>,
}

/// Counts of what happened along the pipeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PipelineStats {
    /// Number of lists.
    pub lists: u32,
    /// Distinct items fused.
    pub candidates: u32,
    /// Items found by more than one list.
    pub in_several_lists: u32,
    /// Ignored repeated ids, per list (in input order).
    pub duplicates: Vec<u32>,
    /// Items beyond the topK pool.
    pub beyond_top_k: u32,
    /// Items beyond the rerank candidate limit.
    pub beyond_candidate_limit: u32,
    /// Items dropped by `minRelevance`.
    pub below_min_relevance: u32,
    /// Items dropped by `minConfidence`.
    pub below_min_confidence: u32,
    /// Items cut by `topN`.
    pub beyond_top_n: u32,
    /// Results returned.
    pub returned: u32,
    /// Results per band: hit, degraded, miss.
    pub hits: u32,
    /// Degraded results.
    pub degraded: u32,
    /// Missed results.
    pub misses: u32,
    /// Band profile used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band_profile: Option<String>,
}

impl PipelineStats {
    /// The fusion's counts: lists, distinct candidates, those in several lists, the
    /// repeated ids per list (the other counts at 0, for the later stages).
    pub(super) fn of_fusion(lists: usize, fusion: &crate::fuse::FuseStats) -> Self {
        PipelineStats {
            lists: super::count(lists),
            candidates: super::count(fusion.unique),
            in_several_lists: super::count(fusion.in_several_lists),
            duplicates: fusion.duplicates.iter().map(|&d| super::count(d)).collect(),
            ..Default::default()
        }
    }

    /// One more result in `band`.
    pub(super) fn count_band(&mut self, band: Band) {
        match band {
            Band::Hit => self.hits += 1,
            Band::Degraded => self.degraded += 1,
            Band::Miss => self.misses += 1,
        }
    }
}

impl Contribution {
    /// List `list`'s part of a fused score: its 1-based `rank` there, its weight, its RRF
    /// term with constant `k`, and its own score at that rank if it has scores.
    pub(super) fn of(list: &str, rank: u32, weight: f64, k: f64, scores: Option<&[f64]>) -> Self {
        Contribution {
            list: list.to_string(),
            rank,
            weight,
            contribution: crate::fuse::rrf_term(weight, k, rank),
            list_score: scores.and_then(|s| s.get((rank as usize).saturating_sub(1)).copied()),
        }
    }
}

/// The first 1-based rank of each of `docs` in each list, `None` where absent:
/// `ranks[r * lists.len() + li]` for `docs[r]` and list `li` (one pass over the lists).
pub(super) fn first_ranks(lists: &[&[u32]], docs: &[u32], n_docs: usize) -> Vec<Option<u32>> {
    let n_lists = lists.len();
    let mut slot = vec![u32::MAX; n_docs];
    for (r, &d) in (0u32..).zip(docs) {
        if let Some(s) = slot.get_mut(d as usize) {
            *s = r;
        }
    }
    let mut ranks = vec![None; docs.len().saturating_mul(n_lists)];
    for (li, list) in lists.iter().enumerate() {
        for (pos, &d) in list.iter().enumerate() {
            let Some(&r) = slot.get(d as usize) else {
                continue;
            };
            if r == u32::MAX {
                continue;
            }
            let at = (r as usize).saturating_mul(n_lists).saturating_add(li);
            if let Some(rank) = ranks.get_mut(at) {
                if rank.is_none() {
                    *rank = Some(u32::try_from(pos + 1).unwrap_or(u32::MAX));
                }
            }
        }
    }
    ranks
}

/// The pipeline output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PipelineOutput {
    /// Results, calibrated score descending, at most topN.
    pub results: Vec<PipelineResult>,
    /// Query confidence over the returned scores (`atLeastOneRelevant`: the model's
    /// probability when one is configured).
    pub confidence: QueryConfidence,
    /// Answer, hedge or abstain.
    pub outcome: Outcome,
    /// Stage statistics.
    pub stats: PipelineStats,
    /// What the rerank and normalization stages read from the whole pool (when
    /// `config.explain` and the pool is not empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<Box<PoolExplain>>,
}

/// The pool's part of the explanation: what a result's `rerank.normalized` and
/// `normalized` were computed from besides its own score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PoolExplain {
    /// The candidates scored by the rerank and normalization stages: the topK pool
    /// (without those beyond the reranker's `candidateLimit`).
    pub candidates: u32,
    /// The scale of the cross-encoder's normalization (`rerank.crossEncoderNormalization`: a
    /// [`PoolScale::MinMax`] by default), when it reranks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_encoder: Option<PoolScale>,
    /// The normalization's scale: `normalized = normalization.apply(afterRerank)`.
    pub normalization: PoolScale,
}

/// What to do with a query's results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutcomeKind {
    /// Show the results: a relevant one is likely (`probability >= answerFloor`).
    Answer,
    /// Show them with a caveat (`hedgeFloor <= probability < answerFloor`).
    Hedge,
    /// Say that nothing relevant was found (`probability < hedgeFloor`).
    Abstain,
}

/// Where the outcome's probability comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OutcomeSource {
    /// The fitted model (`confidence.model`).
    Model,
    /// The rank-only estimate over the returned scores (no model configured).
    RankOnly,
}

/// The query-level outcome.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// Answer, hedge or abstain.
    pub kind: OutcomeKind,
    /// The probability that a relevant result is in the top k.
    pub probability: f64,
    /// Model or rank-only.
    pub source: OutcomeSource,
}

/// Seed 000's output contract.
#[doc(hidden)]
pub fn check_contract(out: &PipelineOutput, top_n: u32) -> Result<()> {
    let broken = |what: &str| {
        Err(ScoreError::new(
            ErrorCode::Internal,
            "results",
            format!("output contract violated: {what}"),
        ))
    };
    if out.results.len() > top_n as usize {
        return broken("more than topN results");
    }
    if out.results.iter().any(|r| !(0.0..=1.0).contains(&r.score)) {
        return broken("a score outside [0, 1]");
    }
    if out
        .results
        .windows(2)
        .any(|p| matches!(p, [a, b] if a.score < b.score))
    {
        return broken("scores not descending");
    }
    Ok(())
}
