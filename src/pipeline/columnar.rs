//! The columnar fast path: lists of document indices instead of string ids, no
//! reranking.

use super::config::{RecencyMode, RerankMethod};
use super::output::{Outcome, OutcomeSource};
use super::{count, Pipeline};
use crate::bands::{Band, BandContext};
use crate::confidence::{confidence_of_sorted, QueryConfidence};
use crate::error::{ErrorCode, Result, ScoreError};
use crate::fuse::descending_key;
use crate::normalize::{normalize_scaled, NormalizeMethod};
use crate::recency::{age_days, step_multiplier};
use crate::sort::StableSort;

/// `INDEX_OUT_OF_RANGE` of [`crate::fuse::rrf_indexed`] (and of
/// [`Pipeline::run_columnar`]) for lists that are consecutive slices of one flat `docs`
/// (as [`split_offsets`] cuts them), at its place in `docs`:
/// `docs[j]` instead of `lists[i][pos]`, the first index not below `n_docs`, in list
/// order as the fusion meets it. Other errors are returned as they are.
#[doc(hidden)]
pub fn flat_index_error(e: ScoreError, lists: &[&[u32]], n_docs: usize) -> ScoreError {
    if e.code != ErrorCode::IndexOutOfRange {
        return e;
    }
    let mut base = 0usize;
    for list in lists {
        if let Some(pos) = list.iter().position(|&d| d as usize >= n_docs) {
            return ScoreError {
                field: format!("docs[{}]", base + pos),
                ..e
            };
        }
        base += list.len();
    }
    e
}

/// Splits a concatenated index array by `offsets` (`nLists + 1` entries, starting at 0,
/// non-decreasing, ending at `docs.len()`).
#[doc(hidden)]
pub fn split_offsets<'a>(docs: &'a [u32], offsets: &[u32]) -> Result<Vec<&'a [u32]>> {
    if offsets.first().is_some_and(|&o| o != 0) {
        return Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            "offsets[0]",
            "offsets must start at 0",
        ));
    }
    if offsets.last().is_some_and(|&o| o as usize != docs.len()) {
        return Err(ScoreError::new(
            ErrorCode::LengthMismatch,
            format!("offsets[{}]", offsets.len().saturating_sub(1)),
            format!("the last offset must equal docs.length = {}", docs.len()),
        ));
    }
    if offsets.is_empty() && !docs.is_empty() {
        return Err(ScoreError::new(
            ErrorCode::LengthMismatch,
            "offsets",
            "offsets must have nLists + 1 entries",
        ));
    }
    let mut lists = Vec::with_capacity(offsets.len().saturating_sub(1));
    for (i, pair) in offsets.windows(2).enumerate() {
        let [a, b] = pair else { continue };
        let list = docs.get(*a as usize..*b as usize).ok_or_else(|| {
            ScoreError::new(
                ErrorCode::InvalidConfig,
                format!("offsets[{}]", i + 1),
                "offsets must be non-decreasing",
            )
        })?;
        lists.push(list);
    }
    Ok(lists)
}

/// Input of the columnar path: lists of document indices instead of string ids.
/// `Default` is no list: build one with `..Default::default()` for the fields you leave out.
#[derive(Debug, Clone, Copy, Default)]
pub struct ColumnarInput<'a> {
    /// One slice of document indices per list, best first.
    pub lists: &'a [&'a [u32]],
    /// Weight per list (default 1).
    pub weights: Option<&'a [f64]>,
    /// Number of documents; every index is below it.
    pub n_docs: usize,
    /// Modification time per document in epoch ms (NaN: unknown), for step recency.
    pub modified_ms: Option<&'a [f64]>,
    /// Current time in epoch ms.
    pub now_ms: Option<f64>,
    /// The context that selects a band profile (`None`: the default floors), as in
    /// [`crate::pipeline::PipelineInput::context`].
    pub context: Option<&'a BandContext>,
    /// Results to return, in place of the configuration's `topN`, as in
    /// [`crate::pipeline::PipelineInput::top_n`].
    pub top_n: Option<u32>,
}

/// Output of the columnar path: parallel arrays, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnarOutput {
    /// Document indices.
    pub order: Vec<u32>,
    /// Calibrated scores.
    pub scores: Vec<f64>,
    /// Bands.
    pub bands: Vec<Band>,
    /// Query confidence.
    pub confidence: QueryConfidence,
    /// Answer, hedge or abstain (rank-only: the columnar path has no list scores).
    pub outcome: Outcome,
    /// Distinct documents fused.
    pub candidates: u32,
    /// The name of the band profile whose floors classified the results (`None`: the
    /// configuration's own floors), as `PipelineStats::band_profile` in [`Pipeline::run`].
    pub band_profile: Option<String>,
}

impl Pipeline {
    /// The columnar fast path: the same stages as [`Pipeline::run`] except reranking
    /// (which needs text; a configured rerank method is an `INVALID_CONFIG` error) and
    /// fiscal-year recency. Ties are broken by document index instead of id.
    pub fn run_columnar(&self, input: &ColumnarInput<'_>) -> Result<ColumnarOutput> {
        let cfg = &self.config;
        if cfg.rerank.method != RerankMethod::None {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                "rerank.method",
                "reranking needs text: use run(), not runColumnar()",
            ));
        }
        if cfg.recency.mode == RecencyMode::FiscalYear {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                "recency.mode",
                "fiscal_year recency needs item metadata: use run()",
            ));
        }
        if cfg.confidence.model.is_some() {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                "confidence.model",
                "the confidence model reads each list's raw scores, which runColumnar() does not take: use run()",
            ));
        }
        let top_n = cfg.top_n_or(input.top_n)?;
        cfg.limits.check_lists(input.lists.len(), "offsets")?;
        cfg.limits
            .check_columnar_lengths(input.lists.iter().map(|l| l.len()))?;
        cfg.limits.check_columnar(input.n_docs, "nDocs")?;
        if let Some(c) = input.context {
            super::run::check_context(&cfg.limits, c)?;
        }
        // `now`, when given, is a finite time whatever the recency mode, as `run` has it
        // (it was read, and NaN or an infinity let through, only by step recency with
        // `modifiedAt`).
        // Said as `run` says it ("timestamp must be finite epoch milliseconds").
        if let Some(now) = input.now_ms {
            crate::timestamp::Timestamp::Millis(now).to_millis("now")?;
        }
        // One time per document in every recency mode (a short array would leave
        // documents unread, a long one times of no document): checked with the input's
        // other shapes, before the fusion allocates its tables for `nDocs`.
        if let Some(mtimes) = input.modified_ms {
            if mtimes.len() != input.n_docs {
                return Err(ScoreError::new(
                    ErrorCode::LengthMismatch,
                    "modifiedAt",
                    format!(
                        "times: {}, nDocs: {} (one time per document)",
                        mtimes.len(),
                        input.n_docs
                    ),
                ));
            }
        }
        let weights = crate::fuse::weights_or_ones(input.weights, input.lists.len());
        // An index error names `lists[i][j]` (the slices given); the bindings, which cut
        // the slices from one flat array, report it there (`flat_index_error`).
        let fusion =
            crate::fuse::rrf_indexed(input.lists, &weights, "weights", cfg.k, input.n_docs)?;
        let mut scores = fusion.scores;
        if let Some(mtimes) = input.modified_ms {
            // `now` is needed, and read, by step recency alone.
            let now = if cfg.recency.mode == RecencyMode::Step {
                let now = input.now_ms.ok_or_else(|| {
                    ScoreError::new(
                        ErrorCode::InvalidTimestamp,
                        "now",
                        "`now` is required with `modifiedAt`",
                    )
                })?;
                Some(now)
            } else {
                None
            };
            // NaN is an unknown time; an infinite one is refused in every recency mode,
            // as `run` refuses it (only a listed document's: the others are not read).
            for (i, ((s, &m), &c)) in
                (0u32..).zip(scores.iter_mut().zip(mtimes).zip(&fusion.list_count))
            {
                if c == 0 || m.is_nan() {
                    continue;
                }
                if m.is_infinite() {
                    return Err(infinite_time(i));
                }
                if let Some(now) = now {
                    *s *= step_multiplier(&cfg.recency.steps, age_days(m, now));
                }
            }
        }
        // The topK pool: partial selection, then a full sort of the pool only.
        // (Score descending, index ascending) is the order of (key, index).
        let mut pool: Vec<crate::sort::Keyed> = (0u32..)
            .zip(fusion.list_count.iter().zip(&scores))
            .filter(|(_, (&c, _))| c > 0)
            .map(|(i, (_, &s))| (descending_key(s), i))
            .collect();
        crate::sort::select_keyed(&mut pool, cfg.top_k as usize);
        crate::sort::sort_keyed(&mut pool);
        let raw: Vec<f64> = pool
            .iter()
            .map(|&(_, d)| scores.get(d as usize).copied().unwrap_or(0.0))
            .collect();
        // The pool's first (scores descending) is infinite when a recency multiplier
        // overflowed a score (fusion checks its own sums).
        if raw.first().is_some_and(|s| s.is_infinite()) {
            return Err(super::stages::recency_overflow(""));
        }
        // The pipeline's loop (`normalize_scaled`), as `run`'s: one in the module.
        let (normalized, _) = normalize_scaled(
            &raw,
            cfg.normalization.method,
            cfg.normalization.temperature,
        )
        .map_err(|e| e.within("normalization"))?;
        let mut kept: Vec<(u32, f64, f64)> = pool
            .iter()
            .zip(&normalized)
            .filter(|(_, &n)| {
                cfg.normalization.method == NormalizeMethod::None
                    || n >= cfg.normalization.min_relevance
            })
            .map(|(&(_, d), &n)| (d, n, cfg.calibration.apply(n)))
            .filter(|&(_, _, c)| c >= cfg.min_confidence)
            .collect();
        // Calibrated descending; then the pool's order (raw score descending, then
        // index), which the stable sort keeps: as `run` orders equal ones by the score
        // after reranking, then id.
        kept.stable_sort_by(|a, b| b.2.total_cmp(&a.2));
        kept.truncate(top_n as usize);
        let (floors, profile) = cfg.bands.floors_for(input.context);
        let out_scores: Vec<f64> = kept.iter().map(|k| k.2).collect();
        let confidence = confidence_of_sorted(&out_scores, &cfg.confidence.options());
        Ok(ColumnarOutput {
            order: kept.iter().map(|k| k.0).collect(),
            bands: out_scores.iter().map(|&s| floors.band(s)).collect(),
            outcome: cfg
                .confidence
                .outcome(confidence.at_least_one_relevant, OutcomeSource::RankOnly),
            confidence,
            scores: out_scores,
            candidates: count(fusion.stats.unique),
            band_profile: profile.map(str::to_string),
        })
    }
}

/// `modifiedAt[i]` is infinite: `INVALID_TIMESTAMP`, as `run` refuses it.
#[cold]
#[inline(never)]
fn infinite_time(i: u32) -> ScoreError {
    ScoreError::new(
        ErrorCode::InvalidTimestamp,
        format!("modifiedAt[{i}]"),
        "must be finite epoch milliseconds (NaN: unknown)",
    )
}
