//! Stage 8: the whole pipeline behind one validated configuration.
//!
//! `fuse -> recency -> topK pool -> rerank -> normalize -> minRelevance ->
//! calibrate -> minConfidence -> topN -> bands -> confidence`
//!
//! * **fuse**: weighted RRF of the input lists ([`crate::fuse`]); a list's weight is its
//!   own `weight`, else `config.weights[name]`, else 1.
//! * **recency** (`recency.mode`): `step` multiplies by the age step of the item's
//!   `modifiedAt` relative to the input's `now` (required when any item has
//!   `modifiedAt`); `fiscal_year` multiplies by `1 + recency.boost * tier`;
//!   `none` skips. Items without the needed metadata get x1.
//! * **topK pool**: the `topK` best items after recency go on (seed 000's
//!   `fused[:top_k]`); the rest are counted in `stats.beyondTopK`.
//! * **rerank** (`rerank.method`): the first `rerank.candidateLimit` items are reranked
//!   (the rest are dropped and counted, whichever the method); `heuristic` multiplies by
//!   the reranker's factors computed from `items[id]` (name, type, summary, content);
//!   `cross_encoder` replaces the score by the min-max normalized
//!   `items[id].crossEncoderScore`. After either, an item with a `fiscalYear` is
//!   multiplied by `1 + rerank.recencyBoost * tier`.
//! * **normalize** (`normalization.method`, default `none`), then items below
//!   `normalization.minRelevance` are dropped (only when a method is set).
//! * **calibrate** (`calibration`), then items below `minConfidence` are dropped.
//! * Results are sorted by calibrated score (descending; ties by the score after
//!   reranking, which the normalization keeps in order, then id) and cut to `topN`;
//!   each gets its band from the floors of the most specific matching profile for
//!   `input.context`; the query confidence is computed on the returned scores, its
//!   `atLeastOneRelevant` by the confidence model instead when one is set (from the
//!   lists' raw scores: [`crate::confidence::model`]), and the outcome from it.
//!
//! Contract (seed 000): `1 <= topN <= topK`, at most `topN` results, every score within
//! [0, 1], sorted descending. The output is checked before it is returned.

mod columnar;
mod config;
mod indexed;
mod input;
mod output;
mod run;
mod stages;
mod tagged;
pub(crate) use tagged::PLACED;

pub use columnar::{flat_index_error, split_offsets, ColumnarInput, ColumnarOutput};
#[doc(hidden)]
pub use config::top_n_error;
pub use config::{
    BandsConfig, Calibration, CrossEncoderNormalization, NormalizationConfig, PipelineConfidence,
    PipelineConfig, RecencyConfig, RecencyMode, RerankConfig, RerankMethod, DEFAULT_ANSWER_FLOOR,
    DEFAULT_HEDGE_FLOOR,
};
#[doc(hidden)]
pub use indexed::{IdTable, IndexedInput, IndexedItem, InputDetail};
pub use input::{
    InputList, InputRef, Interned, ItemMeta, ItemRef, ListRef, PipelineInput, PoolTexts, TimeRef,
};
pub use output::{
    check_contract, Contribution, Explain, Outcome, OutcomeKind, OutcomeSource, PipelineOutput,
    PipelineResult, PipelineStats, PoolExplain, RerankExplain,
};

use crate::error::Result;

/// A validated pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipeline {
    config: PipelineConfig,
}

impl Pipeline {
    /// Validates `config` and builds a pipeline.
    // `#[inline]`: compiled in the caller's crate, with the caller's drop of a refused
    // configuration (calibrank_pipeline.wasm held a second copy of the drop of its maps).
    #[inline]
    pub fn new(config: PipelineConfig) -> Result<Self> {
        config.validate()?;
        Ok(Pipeline { config })
    }

    /// The configuration.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    /// A list's weight: its own, else the configuration's for its name, else 1.
    fn list_weight(&self, name: &str, own: Option<f64>) -> f64 {
        own.or_else(|| self.config.weights.get(name).copied())
            .unwrap_or(1.0)
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
