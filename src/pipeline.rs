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
//! * **rerank** (`rerank.method`): `heuristic` multiplies by the reranker's factors
//!   computed from `items[id]` (name, type, summary, content); `cross_encoder` replaces
//!   the score by the min-max normalized `items[id].crossEncoderScore` of the first
//!   `rerank.candidateLimit` items (the rest are dropped and counted). After either, an
//!   item with a `fiscalYear` is multiplied by `1 + rerank.recencyBoost * tier`.
//! * **normalize** (`normalization.method`, default `none`), then items below
//!   `normalization.minRelevance` are dropped (only when a method is set).
//! * **calibrate** (`calibration`), then items below `minConfidence` are dropped.
//! * Results are sorted by calibrated score (descending; ties by the pre-calibration
//!   score, then id) and cut to `topN`; each gets its band from the floors of the most
//!   specific matching profile for `input.context`; the query confidence is computed on
//!   the returned scores.
//!
//! Contract (seed 000): `1 <= topN <= topK`, at most `topN` results, every score within
//! [0, 1], sorted descending. The output is checked before it is returned.

use crate::bands::{select_floors, validate_profiles, Band, BandContext, BandFloors, BandProfile};
use crate::calibrate::{IsotonicModel, PlattModel, Sigmoid};
use crate::confidence::model::{ListView, QueryConfidenceModel};
use crate::confidence::{confidence_of_sorted, ConfidenceOptions, QueryConfidence};
use crate::error::{finite, ErrorCode, Result, ScoreError};
use crate::fuse::{
    descending_key, rrf_interned, rrf_pre_interned, validate_k, validate_weight, InternedFusion,
    RankedList, DEFAULT_K,
};
use crate::limits::Limits;
use crate::normalize::{normalize, validate_temperature, NormalizeMethod};
use crate::recency::{
    age_days, default_steps, step_multiplier, validate_boost, validate_steps, FiscalYearTier,
    RecencyStep,
};
use crate::rerank::{
    cross_encoder_normalize, heuristic_factors, CandidateText, HeuristicConfig, HeuristicFactors,
    PreparedQuery,
};
use crate::sort::StableSort;
use crate::timestamp::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Recency modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RecencyMode {
    /// No recency boost.
    None,
    /// Step boost by age (seed 000).
    #[default]
    Step,
    /// Fiscal-year tier boost (seed 004).
    FiscalYear,
}

/// Recency configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RecencyConfig {
    /// `step` (default), `fiscal_year` or `none`.
    pub mode: RecencyMode,
    /// Age steps for `step` (default x1.2 < 7 days, x1.1 < 30 days).
    pub steps: Vec<RecencyStep>,
    /// Tier parameters for `fiscal_year` (window 5, latest year 2025).
    pub fiscal_year: FiscalYearTier,
    /// Boost for `fiscal_year` at the merge stage (default 0.80).
    pub boost: f64,
}

impl Default for RecencyConfig {
    fn default() -> Self {
        RecencyConfig {
            mode: RecencyMode::Step,
            steps: default_steps(),
            fiscal_year: FiscalYearTier::default(),
            boost: 0.8,
        }
    }
}

/// Rerank methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RerankMethod {
    /// No reranking (default).
    #[default]
    None,
    /// The heuristic multiplicative reranker (seed 003).
    Heuristic,
    /// External cross-encoder scores (seed 004).
    CrossEncoder,
}

/// Rerank configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RerankConfig {
    /// `none` (default), `heuristic` or `cross_encoder`.
    pub method: RerankMethod,
    /// Factors of the heuristic reranker.
    pub heuristic: HeuristicConfig,
    /// Candidates reranked (the best after recency); `None`: the whole topK pool.
    pub candidate_limit: Option<u32>,
    /// Fiscal-year boost after reranking (default 0.80).
    pub recency_boost: f64,
}

impl Default for RerankConfig {
    fn default() -> Self {
        RerankConfig {
            method: RerankMethod::None,
            heuristic: HeuristicConfig::default(),
            candidate_limit: None,
            recency_boost: 0.8,
        }
    }
}

/// Normalization configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct NormalizationConfig {
    /// `none` (default), `max`, `min_max`, `z_score` or `softmax`.
    pub method: NormalizeMethod,
    /// Softmax temperature (default 1).
    pub temperature: f64,
    /// Normalized scores below this are dropped (default 0.1; ignored for `none`).
    pub min_relevance: f64,
}

impl Default for NormalizationConfig {
    fn default() -> Self {
        NormalizationConfig {
            method: NormalizeMethod::None,
            temperature: 1.0,
            min_relevance: 0.1,
        }
    }
}

/// How raw scores become confidences: the seed's sigmoid, or a model fitted from
/// judgements (the objects `fitPlatt` / `fitIsotonic` return plug in as they are).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "lowercase")]
pub enum Calibration {
    /// The seed's sigmoid (`threshold` 0.035, `steepness` 150).
    Sigmoid {
        /// Raw score mapped to 0.5.
        #[serde(default = "default_threshold")]
        threshold: f64,
        /// Steepness (> 0).
        #[serde(default = "default_steepness")]
        steepness: f64,
    },
    /// Platt scaling fitted from judgements (`fitPlatt`): `1 / (1 + exp(a * raw + b))`.
    Platt(PlattModel),
    /// Isotonic regression fitted from judgements (`fitIsotonic`).
    Isotonic(IsotonicModel),
}

fn default_threshold() -> f64 {
    Sigmoid::default().threshold
}
fn default_steepness() -> f64 {
    Sigmoid::default().steepness
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration::Sigmoid {
            threshold: default_threshold(),
            steepness: default_steepness(),
        }
    }
}

fn sigmoid(threshold: f64, steepness: f64) -> Sigmoid {
    Sigmoid {
        threshold,
        steepness,
    }
}

impl Calibration {
    /// Validates parameters.
    pub fn validate(&self) -> Result<()> {
        match self {
            Calibration::Sigmoid {
                threshold,
                steepness,
            } => sigmoid(*threshold, *steepness).validate(),
            Calibration::Platt(m) => m.validate(),
            Calibration::Isotonic(m) => m.validate(),
        }
    }

    /// [`Calibration::apply`] of every score, in input order.
    pub fn apply_many(&self, raw: &[f64]) -> Vec<f64> {
        match self {
            Calibration::Isotonic(m) => m.predict_many(raw),
            _ => raw.iter().map(|&s| self.apply(s)).collect(),
        }
    }

    /// The confidence of one raw score.
    pub fn apply(&self, raw: f64) -> f64 {
        match self {
            Calibration::Sigmoid {
                threshold,
                steepness,
            } => sigmoid(*threshold, *steepness).apply(raw),
            Calibration::Platt(m) => m.predict(raw),
            Calibration::Isotonic(m) => m.predict(raw),
        }
    }
}

/// Band configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct BandsConfig {
    /// Default lowest score of a hit (0.85).
    pub high_floor: f64,
    /// Default lowest score of a degraded result (0.65).
    pub degraded_floor: f64,
    /// Named profiles per (taskClass, language, buildSystem).
    pub profiles: Vec<BandProfile>,
}

impl Default for BandsConfig {
    fn default() -> Self {
        let d = BandFloors::default();
        BandsConfig {
            high_floor: d.high_floor,
            degraded_floor: d.degraded_floor,
            profiles: Vec::new(),
        }
    }
}

impl BandsConfig {
    fn floors(&self) -> BandFloors {
        BandFloors {
            high_floor: self.high_floor,
            degraded_floor: self.degraded_floor,
        }
    }
}

/// The query-level confidence of a pipeline: the seeds' figures (`weights`, `k`), an
/// optional model fitted by `fitQueryConfidence`, and the floors of the outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct PipelineConfidence {
    /// Weights of the top-5 slots of `weightedTop5`.
    pub weights: [f64; 5],
    /// How many top scores `expectedPrecision` and the rank-only `atLeastOneRelevant`
    /// use (default: all returned).
    pub k: Option<u32>,
    /// A fitted query-confidence model: `atLeastOneRelevant` becomes its probability
    /// for the input lists (matched to the model's runs by position).
    pub model: Option<QueryConfidenceModel>,
    /// Lowest probability of an `answer` outcome (default 0.5).
    pub answer_floor: f64,
    /// Lowest probability of a `hedge` outcome; below it, `abstain` (default 0.2).
    pub hedge_floor: f64,
}

/// Default `answerFloor`: answer when a relevant result is more likely than not.
pub const DEFAULT_ANSWER_FLOOR: f64 = 0.5;
/// Default `hedgeFloor`: hedge down to a one-in-five chance, abstain below.
pub const DEFAULT_HEDGE_FLOOR: f64 = 0.2;

impl Default for PipelineConfidence {
    fn default() -> Self {
        let seeds = ConfidenceOptions::default();
        PipelineConfidence {
            weights: seeds.weights,
            k: seeds.k,
            model: None,
            answer_floor: DEFAULT_ANSWER_FLOOR,
            hedge_floor: DEFAULT_HEDGE_FLOOR,
        }
    }
}

impl PipelineConfidence {
    /// The seeds' options.
    pub fn options(&self) -> ConfidenceOptions {
        ConfidenceOptions {
            weights: self.weights,
            k: self.k,
        }
    }

    /// Validates the seeds' options, the model and the floors
    /// (`0 <= hedgeFloor <= answerFloor <= 1`).
    pub fn validate(&self) -> Result<()> {
        self.options().validate()?;
        if let Some(m) = &self.model {
            m.validate().map_err(|e| e.within("model"))?;
        }
        in_unit(self.answer_floor, "answerFloor")?;
        in_unit(self.hedge_floor, "hedgeFloor")?;
        if self.hedge_floor > self.answer_floor {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                "hedgeFloor",
                format!(
                    "hedgeFloor ({}) must not exceed answerFloor ({})",
                    crate::error::num(self.hedge_floor),
                    crate::error::num(self.answer_floor)
                ),
            ));
        }
        Ok(())
    }

    /// The outcome of a probability.
    pub fn outcome(&self, probability: f64, source: OutcomeSource) -> Outcome {
        let kind = if probability >= self.answer_floor {
            OutcomeKind::Answer
        } else if probability >= self.hedge_floor {
            OutcomeKind::Hedge
        } else {
            OutcomeKind::Abstain
        };
        Outcome {
            kind,
            probability,
            source,
        }
    }
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

/// The pipeline configuration. Every field has the seed's default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct PipelineConfig {
    /// RRF constant (default 60, >= 1).
    pub k: f64,
    /// Weight per list name (default 1 for every list).
    pub weights: BTreeMap<String, f64>,
    /// Candidate pool after fusion and recency (default 10).
    pub top_k: u32,
    /// Results returned (default 5, `1 <= topN <= topK`).
    pub top_n: u32,
    /// Recency boost.
    pub recency: RecencyConfig,
    /// Reranking.
    pub rerank: RerankConfig,
    /// Normalization.
    pub normalization: NormalizationConfig,
    /// Calibration (default: the seed's sigmoid).
    pub calibration: Calibration,
    /// Calibrated scores below this are dropped (default 0.3).
    pub min_confidence: f64,
    /// Band floors and profiles.
    pub bands: BandsConfig,
    /// Query confidence: the seeds' figures, an optional fitted model, the outcome
    /// floors.
    pub confidence: PipelineConfidence,
    /// Input size limits (missing fields: the pipeline's defaults,
    /// `Limits::defaults_for("Pipeline")`).
    #[serde(
        default = "crate::limits::pipeline_limits",
        deserialize_with = "crate::limits::deserialize_pipeline_limits"
    )]
    pub limits: Limits,
    /// Attach an `explain` record to every result (default true).
    pub explain: bool,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        PipelineConfig {
            k: DEFAULT_K,
            weights: BTreeMap::new(),
            top_k: 10,
            top_n: 5,
            recency: RecencyConfig::default(),
            rerank: RerankConfig::default(),
            normalization: NormalizationConfig::default(),
            calibration: Calibration::default(),
            min_confidence: 0.3,
            bands: BandsConfig::default(),
            confidence: PipelineConfidence::default(),
            limits: Limits::defaults_for("Pipeline"),
            explain: true,
        }
    }
}

/// A model error about the input lists names them (`lists`, `lists[i].scores`); any
/// other is the model's own, under `field`.
fn within_model_error(e: ScoreError, field: &str) -> ScoreError {
    if e.field.starts_with("lists") {
        e
    } else {
        e.within(field)
    }
}

/// A reranked score that overflowed is the config's doing (multipliers near `f64::MAX`):
/// `NON_FINITE_SCORE` naming the config value, not a later stage.
fn reranked_finite(w: &Work<'_>, field: &str) -> Result<()> {
    if w.after_rerank.is_finite() {
        return Ok(());
    }
    Err(ScoreError::new(
        ErrorCode::NonFiniteScore,
        field,
        format!(
            "the reranked score of {:?} overflows ({}); lower the multipliers",
            w.id,
            crate::error::num(w.after_rerank)
        ),
    ))
}

/// Bytes of every string of a pipeline input: the query, list names and ids, item ids
/// and texts, the context.
fn input_text_bytes(input: &InputRef<'_>) -> usize {
    let opt = |t: &Option<&str>| t.map_or(0, str::len);
    let lists: usize = input
        .lists
        .iter()
        .map(|l| l.name.len() + l.ids.iter().map(|id| id.len()).sum::<usize>())
        .sum();
    let items: usize = input
        .items
        .iter()
        .map(|(id, m)| {
            id.len() + opt(&m.name) + opt(&m.entity_type) + opt(&m.summary) + opt(&m.content)
        })
        .sum();
    input.query.len() + lists + items
}

fn in_unit(v: f64, field: &str) -> Result<()> {
    if v.is_finite() && (0.0..=1.0).contains(&v) {
        Ok(())
    } else {
        Err(ScoreError::new(
            ErrorCode::InvalidConfig,
            field,
            format!("must be within [0, 1], got {}", crate::error::num(v)),
        ))
    }
}

impl PipelineConfig {
    /// Validates every value; the error names the offending field by its path.
    pub fn validate(&self) -> Result<()> {
        validate_k(self.k, "k")?;
        for (name, &w) in &self.weights {
            validate_weight(w, || format!("weights.{name}"))?;
        }
        if self.top_k < 1 {
            return Err(ScoreError::new(
                ErrorCode::InvalidTopK,
                "topK",
                "topK must be >= 1",
            ));
        }
        if self.top_n < 1 || self.top_n > self.top_k {
            return Err(ScoreError::new(
                ErrorCode::InvalidTopN,
                "topN",
                format!(
                    "topN must satisfy 1 <= topN <= topK = {}, got {}",
                    self.top_k, self.top_n
                ),
            ));
        }
        validate_steps(&self.recency.steps, "recency.steps")?;
        self.recency.fiscal_year.validate("recency.fiscalYear")?;
        validate_boost(self.recency.boost, "recency.boost")?;
        self.rerank
            .heuristic
            .validate()
            .map_err(|e| e.within("rerank.heuristic"))?;
        if self.rerank.candidate_limit == Some(0) {
            return Err(ScoreError::new(
                ErrorCode::InvalidConfig,
                "rerank.candidateLimit",
                "must be >= 1",
            ));
        }
        validate_boost(self.rerank.recency_boost, "rerank.recencyBoost")?;
        validate_temperature(self.normalization.temperature, "normalization.temperature")?;
        finite(self.normalization.min_relevance, || {
            "normalization.minRelevance".into()
        })?;
        self.calibration
            .validate()
            .map_err(|e| e.within("calibration"))?;
        in_unit(self.min_confidence, "minConfidence")?;
        self.bands
            .floors()
            .validate()
            .map_err(|e| e.within("bands"))?;
        validate_profiles(&self.bands.profiles).map_err(|e| e.within("bands"))?;
        self.confidence
            .validate()
            .map_err(|e| e.within("confidence"))?;
        self.limits.validate()
    }
}

/// One input list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InputList {
    /// Strategy name (`semantic`, `keyword`, `graph`, ...), unique within an input.
    pub name: String,
    /// Ids, best first.
    pub ids: Vec<String>,
    /// The strategy's own scores, parallel to `ids` (reported in explanations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<f64>>,
    /// Weight of this list (overrides `config.weights[name]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
}

/// Metadata of one item, for recency and reranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ItemMeta {
    /// Name (heuristic reranker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Entity type (heuristic reranker).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    /// Summary (heuristic reranker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Content (heuristic reranker's short-content rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Modification time (step recency).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified_at: Option<Timestamp>,
    /// Fiscal year (fiscal-year recency).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fiscal_year: Option<i32>,
    /// External cross-encoder score (cross-encoder rerank).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_encoder_score: Option<f64>,
}

/// The pipeline input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PipelineInput {
    /// The query text (required by the heuristic reranker).
    #[serde(default)]
    pub query: String,
    /// Ranked lists, one per strategy.
    pub lists: Vec<InputList>,
    /// Metadata by item id.
    #[serde(default)]
    pub items: BTreeMap<String, ItemMeta>,
    /// The current time for step recency (epoch ms or ISO 8601).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now: Option<Timestamp>,
    /// Context that selects a band profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<BandContext>,
}

/// A point in time as given, borrowed ([`Timestamp`] without the copy).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeRef<'a> {
    /// Epoch milliseconds.
    Millis(f64),
    /// An ISO 8601 date or date-time.
    Iso(&'a str),
}

impl TimeRef<'_> {
    /// Epoch milliseconds; `field` names the input for errors.
    pub fn to_millis(self, field: &str) -> Result<f64> {
        match self {
            TimeRef::Millis(ms) => Timestamp::Millis(ms).to_millis(field),
            TimeRef::Iso(s) => crate::timestamp::parse_iso8601(s).ok_or_else(|| {
                ScoreError::new(
                    ErrorCode::InvalidTimestamp,
                    field,
                    format!("cannot parse {s:?} as an ISO 8601 date or date-time"),
                )
            }),
        }
    }
}

impl<'a> From<&'a Timestamp> for TimeRef<'a> {
    fn from(t: &'a Timestamp) -> Self {
        match t {
            Timestamp::Millis(ms) => TimeRef::Millis(*ms),
            Timestamp::Iso(s) => TimeRef::Iso(s),
        }
    }
}

/// One input list, borrowed.
#[derive(Debug, Clone, PartialEq)]
pub struct ListRef<'a> {
    /// Strategy name.
    pub name: &'a str,
    /// Ids, best first.
    pub ids: Vec<&'a str>,
    /// The strategy's own scores, parallel to `ids`.
    pub scores: Option<&'a [f64]>,
    /// Weight of this list.
    pub weight: Option<f64>,
}

/// Metadata of one item, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ItemRef<'a> {
    /// Name (heuristic reranker).
    pub name: Option<&'a str>,
    /// Entity type (heuristic reranker).
    pub entity_type: Option<&'a str>,
    /// Summary (heuristic reranker).
    pub summary: Option<&'a str>,
    /// Content (short-content rule).
    pub content: Option<&'a str>,
    /// Modification time (step recency).
    pub modified_at: Option<TimeRef<'a>>,
    /// Fiscal year (fiscal-year recency).
    pub fiscal_year: Option<i32>,
    /// Cross-encoder score.
    pub cross_encoder_score: Option<f64>,
}

/// The ids of an input already interned by the caller (the JS layer): each distinct id
/// once, the lists as indices into them, and each item's index (`u32::MAX` for an item
/// in no list). The lists' `ids` must be these ids (`ids[docs[i][j]]`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Interned<'a> {
    /// Distinct ids, in order of first appearance.
    pub ids: Vec<&'a str>,
    /// Each list as indices into `ids`.
    pub docs: Vec<Vec<u32>>,
    /// Each item's index into `ids`, parallel to [`InputRef::items`].
    pub items: Vec<u32>,
}

/// The pipeline input, borrowed: what [`Pipeline::run_ref`] reads. The bindings decode
/// into it straight from their string table (no copy of any string); [`PipelineInput`]
/// lends itself as one with [`PipelineInput::as_ref`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InputRef<'a> {
    /// The query text.
    pub query: &'a str,
    /// Ranked lists.
    pub lists: Vec<ListRef<'a>>,
    /// Metadata by item id, in the caller's order (an id at most once). Validation
    /// reports the first invalid item in this order.
    pub items: Vec<(&'a str, ItemRef<'a>)>,
    /// The current time.
    pub now: Option<TimeRef<'a>>,
    /// Context that selects a band profile.
    pub context: Option<&'a BandContext>,
    /// The ids already interned (fusion then skips hashing them).
    pub interned: Option<Interned<'a>>,
}

/// Item texts kept out of an input until the reranker needs them: the heuristic
/// reranker reads the name, type, summary and content of the topK pool only, so a caller
/// holding the texts elsewhere (the package's JavaScript, which would otherwise copy every
/// item's text into wasm memory) can supply those of the pool alone
/// ([`Pipeline::run_owned_with_texts`]).
///
/// The input's items then carry no texts, and the caller has checked the held texts
/// against the limits itself (the pipeline sees only the pool's).
pub trait PoolTexts {
    /// The texts of the pool's documents, one entry per document in the order given:
    /// `docs` are indices into the fusion's distinct ids (for an interned input, into
    /// [`Interned::ids`]) and `ids` the same documents' ids. A document without an item
    /// (or without texts) gets an empty name and no other text.
    fn texts(&mut self, docs: &[u32], ids: &[&str]) -> Result<Vec<CandidateText<'_>>>;
}

impl PipelineInput {
    /// This input as an [`InputRef`] (items in id order).
    pub fn as_ref(&self) -> InputRef<'_> {
        InputRef {
            query: &self.query,
            lists: self
                .lists
                .iter()
                .map(|l| ListRef {
                    name: &l.name,
                    ids: l.ids.iter().map(String::as_str).collect(),
                    scores: l.scores.as_deref(),
                    weight: l.weight,
                })
                .collect(),
            items: self
                .items
                .iter()
                .map(|(id, m)| {
                    (
                        id.as_str(),
                        ItemRef {
                            name: m.name.as_deref(),
                            entity_type: m.entity_type.as_deref(),
                            summary: m.summary.as_deref(),
                            content: m.content.as_deref(),
                            modified_at: m.modified_at.as_ref().map(TimeRef::from),
                            fiscal_year: m.fiscal_year,
                            cross_encoder_score: m.cross_encoder_score,
                        },
                    )
                })
                .collect(),
            now: self.now.as_ref().map(TimeRef::from),
            context: self.context.as_ref(),
            interned: None,
        }
    }
}

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
}

/// A validated pipeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipeline {
    config: PipelineConfig,
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Working state of one candidate.
#[derive(Clone)]
struct Work<'a> {
    id: &'a str,
    doc: u32,
    meta: Option<&'a ItemRef<'a>>,
    ranks: Vec<Option<u32>>,
    fused: f64,
    recency_multiplier: f64,
    after_recency: f64,
    rerank: RerankExplain,
    rerank_recency_multiplier: f64,
    after_rerank: f64,
    normalized: f64,
    calibrated: f64,
}

impl Pipeline {
    /// Validates `config` and builds a pipeline.
    pub fn new(config: PipelineConfig) -> Result<Self> {
        config.validate()?;
        Ok(Pipeline { config })
    }

    /// The configuration.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    fn validate_input(&self, input: &InputRef<'_>) -> Result<Option<f64>> {
        let limits = &self.config.limits;
        limits.check_lists(input.lists.len(), "lists")?;
        limits.check_lengths(input.lists.iter().map(|l| l.ids.len()), "lists")?;
        let list_entries: usize = input.lists.iter().map(|l| l.ids.len()).sum();
        limits.check_entries(list_entries.saturating_add(input.items.len()), "items")?;
        limits.check_text(input.query, || "query".into())?;
        limits.check_total_text(input_text_bytes(input), "input")?;
        for (i, list) in input.lists.iter().enumerate() {
            if input.lists.iter().take(i).any(|l| l.name == list.name) {
                return Err(ScoreError::new(
                    ErrorCode::DuplicateId,
                    format!("lists[{i}].name"),
                    format!("list name {:?} is used twice", list.name),
                ));
            }
            if let Some(w) = list.weight {
                validate_weight(w, || format!("lists[{i}].weight"))?;
            }
            if let Some(scores) = &list.scores {
                if scores.len() != list.ids.len() {
                    return Err(ScoreError::new(
                        ErrorCode::LengthMismatch,
                        format!("lists[{i}].scores"),
                        format!("{} scores for {} ids", scores.len(), list.ids.len()),
                    ));
                }
                crate::error::all_finite(scores, &format!("lists[{i}].scores"))?;
            }
            for (j, id) in list.ids.iter().enumerate() {
                limits.check_id(id, || format!("lists[{i}].ids[{j}]"))?;
            }
        }
        let mut any_mtime = false;
        for (id, meta) in &input.items {
            let field = |f: &str| format!("items.{id}.{f}");
            let meta = *meta;
            for (name, text) in [
                ("name", &meta.name),
                ("type", &meta.entity_type),
                ("summary", &meta.summary),
                ("content", &meta.content),
            ] {
                if let Some(t) = text {
                    limits.check_text(t, || field(name))?;
                }
            }
            if let Some(s) = meta.cross_encoder_score {
                finite(s, || field("crossEncoderScore"))?;
            }
            if let Some(t) = meta.modified_at {
                // The field path is formatted only on error (not once per item).
                t.to_millis("").map_err(|e| ScoreError {
                    field: field("modifiedAt"),
                    ..e
                })?;
                any_mtime = true;
            }
        }
        let now = match input.now {
            Some(t) => Some(t.to_millis("now")?),
            None => None,
        };
        if any_mtime && now.is_none() && self.config.recency.mode == RecencyMode::Step {
            return Err(ScoreError::new(
                ErrorCode::InvalidTimestamp,
                "now",
                "`now` is required when items carry `modifiedAt` and recency.mode is `step` (calibrank never reads the clock)",
            ));
        }
        if self.config.rerank.method == RerankMethod::Heuristic && input.query.trim().is_empty() {
            return Err(ScoreError::new(
                ErrorCode::EmptyQuery,
                "query",
                "the heuristic reranker needs a non-empty query",
            ));
        }
        Ok(now)
    }

    fn list_weight(&self, list: &ListRef<'_>) -> f64 {
        list.weight
            .or_else(|| self.config.weights.get(list.name).copied())
            .unwrap_or(1.0)
    }

    fn merge_recency(&self, meta: Option<&ItemRef<'_>>, now: Option<f64>) -> Result<f64> {
        let rc = &self.config.recency;
        Ok(match (rc.mode, meta) {
            (
                RecencyMode::Step,
                Some(ItemRef {
                    modified_at: Some(t),
                    ..
                }),
            ) => {
                let (Some(now), Ok(m)) = (now, t.to_millis("modifiedAt")) else {
                    return Ok(1.0);
                };
                step_multiplier(&rc.steps, age_days(m, now))
            }
            (
                RecencyMode::FiscalYear,
                Some(ItemRef {
                    fiscal_year: Some(fy),
                    ..
                }),
            ) => rc.fiscal_year.multiplier(*fy, rc.boost),
            _ => 1.0,
        })
    }

    fn rerank_stage(
        &self,
        pool: &mut Vec<Work<'_>>,
        input: &InputRef<'_>,
        held: Option<&mut dyn PoolTexts>,
        stats: &mut PipelineStats,
    ) -> Result<()> {
        let rc = &self.config.rerank;
        if rc.method == RerankMethod::None {
            for w in pool.iter_mut() {
                w.after_rerank = w.after_recency;
            }
            return Ok(());
        }
        if let Some(limit) = rc.candidate_limit {
            let limit = limit as usize;
            stats.beyond_candidate_limit = count(pool.len().saturating_sub(limit));
            pool.truncate(limit);
        }
        match rc.method {
            RerankMethod::Heuristic => {
                let q = PreparedQuery::new(input.query, rc.heuristic.stopwords.as_deref());
                let fetched = match held {
                    Some(source) => {
                        let docs: Vec<u32> = pool.iter().map(|w| w.doc).collect();
                        let ids: Vec<&str> = pool.iter().map(|w| w.id).collect();
                        let texts = source.texts(&docs, &ids)?;
                        if texts.len() != pool.len() {
                            return Err(ScoreError::new(
                                ErrorCode::Internal,
                                "",
                                "the held texts are not the pool's",
                            ));
                        }
                        Some(texts)
                    }
                    None => None,
                };
                for (i, w) in pool.iter_mut().enumerate() {
                    let text = match &fetched {
                        Some(t) => t.get(i).copied().unwrap_or_default(),
                        None => {
                            let meta = w.meta;
                            CandidateText {
                                name: meta.and_then(|m| m.name).unwrap_or(""),
                                entity_type: meta.and_then(|m| m.entity_type),
                                summary: meta.and_then(|m| m.summary),
                                content: meta.and_then(|m| m.content),
                            }
                        }
                    };
                    let factors = heuristic_factors(&q, text, &rc.heuristic);
                    w.after_rerank = w.after_recency * factors.multiplier;
                    w.rerank = RerankExplain::Heuristic { factors };
                    reranked_finite(w, "rerank.heuristic")?;
                }
            }
            RerankMethod::CrossEncoder => {
                let raw: Vec<f64> = pool
                    .iter()
                    .map(|w| {
                        w.meta.and_then(|m| m.cross_encoder_score).ok_or_else(|| {
                            ScoreError::new(
                                ErrorCode::EmptyInput,
                                format!("items.{}.crossEncoderScore", w.id),
                                "the cross_encoder reranker needs a crossEncoderScore for every candidate",
                            )
                        })
                    })
                    .collect::<Result<_>>()?;
                for ((w, r), n) in pool.iter_mut().zip(&raw).zip(cross_encoder_normalize(&raw)) {
                    w.after_rerank = n;
                    w.rerank = RerankExplain::CrossEncoder {
                        raw: *r,
                        normalized: n,
                    };
                }
            }
            RerankMethod::None => {}
        }
        let tier = &self.config.recency.fiscal_year;
        for w in pool.iter_mut() {
            if let Some(fy) = w.meta.and_then(|m| m.fiscal_year) {
                w.rerank_recency_multiplier = tier.multiplier(fy, rc.recency_boost);
                w.after_rerank *= w.rerank_recency_multiplier;
                reranked_finite(w, "rerank.recencyBoost")?;
            }
        }
        Ok(())
    }

    /// The best (first) 1-based rank in each list of each pool document, for the
    /// explanations (one pass over the lists).
    fn pool_ranks(
        &self,
        fused: &InternedFusion<'_>,
        pool: &[crate::sort::Keyed],
    ) -> Vec<Vec<Option<u32>>> {
        let n_lists = fused.lists.len();
        let mut slot = vec![u32::MAX; fused.interner.ids.len()];
        for (i, &(_, d)) in (0u32..).zip(pool) {
            if let Some(s) = slot.get_mut(d as usize) {
                *s = i;
            }
        }
        let mut ranks = vec![vec![None; n_lists]; pool.len()];
        for (li, list) in fused.lists.iter().enumerate() {
            for (pos, &d) in list.iter().enumerate() {
                let Some(&i) = slot.get(d as usize) else {
                    continue;
                };
                if let Some(r) = ranks.get_mut(i as usize).and_then(|r| r.get_mut(li)) {
                    if r.is_none() {
                        *r = Some(u32::try_from(pos + 1).unwrap_or(u32::MAX));
                    }
                }
            }
        }
        ranks
    }

    /// Runs the pipeline on one input.
    pub fn run(&self, input: &PipelineInput) -> Result<PipelineOutput> {
        self.run_ref(&input.as_ref())
    }

    /// Runs the pipeline on a borrowed input (see [`InputRef`]).
    pub fn run_ref(&self, input: &InputRef<'_>) -> Result<PipelineOutput> {
        self.run_parts(input, input.interned.clone(), None)
    }

    /// [`Pipeline::run_ref`] on an input it may take apart: the interned ids and lists
    /// are used as they are instead of copied (the bindings' path).
    pub fn run_owned(&self, mut input: InputRef<'_>) -> Result<PipelineOutput> {
        let interned = input.interned.take();
        self.run_parts(&input, interned, None)
    }

    /// [`Pipeline::run_owned`] on an input whose items carry no texts: the heuristic
    /// reranker asks `texts` for those of the pool's documents (once per call, after the
    /// topK pool and the candidate limit). The output is the one of the same input with
    /// the texts in its items.
    pub fn run_owned_with_texts(
        &self,
        mut input: InputRef<'_>,
        texts: &mut dyn PoolTexts,
    ) -> Result<PipelineOutput> {
        let interned = input.interned.take();
        self.run_parts(&input, interned, Some(texts))
    }

    /// The pipeline on `input`, whose `interned` part (if any) is given apart, owned.
    fn run_parts<'a>(
        &self,
        input: &InputRef<'a>,
        interned: Option<Interned<'a>>,
        held: Option<&mut dyn PoolTexts>,
    ) -> Result<PipelineOutput> {
        let cfg = &self.config;
        let now = self.validate_input(input)?;

        // 1. Fuse.
        let weights: Vec<f64> = input.lists.iter().map(|l| self.list_weight(l)).collect();
        let (fused, item_docs) = match interned {
            Some(iv) => (
                rrf_pre_interned(iv.ids, iv.docs, &weights, cfg.k)?,
                Some(iv.items),
            ),
            None => {
                let lists: Vec<RankedList<'_, &str>> = input
                    .lists
                    .iter()
                    .zip(&weights)
                    .map(|(l, &weight)| RankedList {
                        ids: &l.ids,
                        weight,
                    })
                    .collect();
                (rrf_interned(&lists, cfg.k)?, None)
            }
        };
        let fusion = &fused.fusion;
        let mut stats = PipelineStats {
            lists: count(input.lists.len()),
            candidates: count(fusion.stats.unique),
            in_several_lists: count(fusion.stats.in_several_lists),
            duplicates: fusion.stats.duplicates.iter().map(|&d| count(d)).collect(),
            ..Default::default()
        };

        // 2. Recency at the merge stage. Items are matched to documents through the
        // interner (one hash lookup per item, not a BTreeMap search per candidate).
        let ids = &fused.interner.ids;
        let mut metas: Vec<Option<&ItemRef<'_>>> = vec![None; ids.len()];
        match &item_docs {
            Some(item_docs) => {
                for ((_, meta), &d) in input.items.iter().zip(item_docs) {
                    if let Some(slot) = metas.get_mut(d as usize) {
                        *slot = Some(meta);
                    }
                }
            }
            None => {
                for (id, meta) in &input.items {
                    if let Some(slot) = fused
                        .interner
                        .get(id)
                        .and_then(|d| metas.get_mut(d as usize))
                    {
                        *slot = Some(meta);
                    }
                }
            }
        }
        let mut multipliers = Vec::with_capacity(ids.len());
        for meta in &metas {
            multipliers.push(self.merge_recency(*meta, now)?);
        }

        // 3. The topK pool: the topK best after recency (ties: id ascending), selected
        // without sorting every candidate; only they get a working record.
        let mut keyed: Vec<crate::sort::Keyed> = (0u32..)
            .zip(fusion.scores.iter().zip(&multipliers))
            .map(|(d, (&s, &m))| (descending_key(s * m), d))
            .collect();
        let top_k = cfg.top_k as usize;
        stats.beyond_top_k = count(keyed.len().saturating_sub(top_k));
        crate::sort::top_keyed_then(&mut keyed, top_k, &mut |a, b| crate::fuse::by_id(ids, a, b));
        let mut ranks = if cfg.explain {
            self.pool_ranks(&fused, &keyed)
        } else {
            Vec::new()
        }
        .into_iter();
        let mut pool: Vec<Work<'_>> = Vec::with_capacity(keyed.len());
        for &(_, doc) in &keyed {
            let d = doc as usize;
            let id = ids.get(d).copied().unwrap_or_default();
            let fused_score = fusion.scores.get(d).copied().unwrap_or(0.0);
            let recency_multiplier = multipliers.get(d).copied().unwrap_or(1.0);
            pool.push(Work {
                id,
                doc,
                meta: metas.get(d).copied().flatten(),
                ranks: ranks.next().unwrap_or_default(),
                fused: fused_score,
                recency_multiplier,
                after_recency: fused_score * recency_multiplier,
                rerank: RerankExplain::None,
                rerank_recency_multiplier: 1.0,
                after_rerank: 0.0,
                normalized: 0.0,
                calibrated: 0.0,
            });
        }

        // 4. Rerank.
        self.rerank_stage(&mut pool, input, held, &mut stats)?;

        // 5. Normalize, then minRelevance.
        let method = cfg.normalization.method;
        let reranked: Vec<f64> = pool.iter().map(|w| w.after_rerank).collect();
        let normalized = normalize(&reranked, method, cfg.normalization.temperature)
            .map_err(|e| e.within("normalization"))?;
        for (w, n) in pool.iter_mut().zip(normalized) {
            w.normalized = n;
        }
        if method != NormalizeMethod::None {
            let before = pool.len();
            pool.retain(|w| w.normalized >= cfg.normalization.min_relevance);
            stats.below_min_relevance = count(before - pool.len());
        }

        // 6. Calibrate, then minConfidence.
        for w in pool.iter_mut() {
            w.calibrated = cfg.calibration.apply(w.normalized);
        }
        let before = pool.len();
        pool.retain(|w| w.calibrated >= cfg.min_confidence);
        stats.below_min_confidence = count(before - pool.len());

        // 7. Final order and topN.
        pool.stable_sort_by(|a, b| {
            b.calibrated
                .total_cmp(&a.calibrated)
                .then_with(|| b.normalized.total_cmp(&a.normalized))
                .then_with(|| a.id.cmp(b.id))
        });
        stats.beyond_top_n = count(pool.len().saturating_sub(cfg.top_n as usize));
        pool.truncate(cfg.top_n as usize);

        // 8. Bands and confidence.
        let ctx = input.context.cloned().unwrap_or_default();
        let (floors, profile) = select_floors(cfg.bands.floors(), &cfg.bands.profiles, &ctx);
        stats.band_profile = profile.map(str::to_string);
        let scores: Vec<f64> = pool.iter().map(|w| w.calibrated).collect();
        let mut confidence: QueryConfidence =
            confidence_of_sorted(&scores, &cfg.confidence.options());
        let outcome = match &cfg.confidence.model {
            Some(model) => {
                let views: Vec<ListView<'_, &str>> = input
                    .lists
                    .iter()
                    .map(|l| ListView {
                        ids: &l.ids,
                        scores: l.scores,
                    })
                    .collect();
                model.check_lists(views.len())?;
                // The lists are fused already: the same fusion is reused when the model
                // assumes the pipeline's, else their document indices are fused again
                // with the model's settings (no id is hashed twice).
                let scores = if model.rrf_k == cfg.k && model.weights == weights {
                    fusion.scores.clone()
                } else {
                    let slices: Vec<&[u32]> = fused.lists.iter().map(Vec::as_slice).collect();
                    crate::fuse::rrf_indexed(&slices, &model.weights, model.rrf_k, ids.len())?
                        .scores
                };
                let top = crate::confidence::model::top_k(scores, model.k);
                let p = model
                    .features_with_top(&top, &views)
                    .map(|x| model.predict_features(&x))
                    .map_err(|e| within_model_error(e, "confidence.model"))?;
                confidence.at_least_one_relevant = p;
                cfg.confidence.outcome(p, OutcomeSource::Model)
            }
            None => cfg
                .confidence
                .outcome(confidence.at_least_one_relevant, OutcomeSource::RankOnly),
        };
        let results: Vec<PipelineResult> = pool
            .into_iter()
            .map(|w| {
                let band = floors.band(w.calibrated);
                match band {
                    Band::Hit => stats.hits += 1,
                    Band::Degraded => stats.degraded += 1,
                    Band::Miss => stats.misses += 1,
                }
                let explain = cfg
                    .explain
                    .then(|| self.explain(&w, input, &weights, band, profile));
                PipelineResult {
                    id: w.id.to_string(),
                    doc: w.doc,
                    score: w.calibrated,
                    band,
                    explain,
                }
            })
            .collect();
        stats.returned = count(results.len());
        let out = PipelineOutput {
            results,
            confidence,
            outcome,
            stats,
        };
        check_contract(&out, cfg.top_n)?;
        Ok(out)
    }

    fn explain(
        &self,
        w: &Work<'_>,
        input: &InputRef<'_>,
        weights: &[f64],
        band: Band,
        profile: Option<&str>,
    ) -> Explain {
        let contributions = input
            .lists
            .iter()
            .zip(weights)
            .zip(&w.ranks)
            .filter_map(|((list, &weight), rank)| {
                let rank = (*rank)?;
                let list_score = list
                    .scores
                    .and_then(|s| s.get((rank as usize).saturating_sub(1)).copied());
                Some(Contribution {
                    list: list.name.to_string(),
                    rank,
                    weight,
                    contribution: crate::fuse::rrf_term(weight, self.config.k, rank),
                    list_score,
                })
            })
            .collect();
        Explain {
            contributions,
            fused: w.fused,
            recency_multiplier: w.recency_multiplier,
            after_recency: w.after_recency,
            rerank: w.rerank.clone(),
            rerank_recency_multiplier: w.rerank_recency_multiplier,
            after_rerank: w.after_rerank,
            normalized: w.normalized,
            calibrated: w.calibrated,
            band,
            band_profile: profile.map(str::to_string),
        }
    }
}

/// Seed 000's output contract.
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

/// Splits a concatenated index array by `offsets` (`nLists + 1` entries, starting at 0,
/// non-decreasing, ending at `docs.len()`).
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
#[derive(Debug, Clone, Copy)]
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
        cfg.limits.check_lists(input.lists.len(), "offsets")?;
        cfg.limits
            .check_columnar_lengths(input.lists.iter().map(|l| l.len()), "docs")?;
        cfg.limits.check_columnar(input.n_docs, "nDocs")?;
        let weights = crate::fuse::resolve_weights(input.weights, input.lists.len(), "weights")?;
        let fusion =
            crate::fuse::rrf_indexed(input.lists, &weights, cfg.k, input.n_docs).map_err(|e| {
                if e.field.starts_with("lists") {
                    ScoreError {
                        field: e.field.replacen("lists", "docs", 1),
                        ..e
                    }
                } else {
                    e
                }
            })?;
        let mut scores = fusion.scores;
        if let (RecencyMode::Step, Some(mtimes)) = (cfg.recency.mode, input.modified_ms) {
            if mtimes.len() != input.n_docs {
                return Err(ScoreError::new(
                    ErrorCode::LengthMismatch,
                    "modifiedAt",
                    format!("{} times for nDocs = {}", mtimes.len(), input.n_docs),
                ));
            }
            let now = input.now_ms.ok_or_else(|| {
                ScoreError::new(
                    ErrorCode::InvalidTimestamp,
                    "now",
                    "`now` is required with `modifiedAt`",
                )
            })?;
            finite(now, || "now".into()).map_err(|e| ScoreError {
                code: ErrorCode::InvalidTimestamp,
                ..e
            })?;
            for ((s, &m), &c) in scores.iter_mut().zip(mtimes).zip(&fusion.list_count) {
                if c > 0 && m.is_finite() {
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
        let normalized = normalize(
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
        kept.stable_sort_by(|a, b| {
            b.2.total_cmp(&a.2)
                .then_with(|| b.1.total_cmp(&a.1))
                .then(a.0.cmp(&b.0))
        });
        kept.truncate(cfg.top_n as usize);
        let (floors, _) = select_floors(
            cfg.bands.floors(),
            &cfg.bands.profiles,
            &BandContext::default(),
        );
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
        })
    }
}
