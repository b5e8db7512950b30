//! The pipeline configuration: every stage's settings, their seed defaults and their
//! validation.

use super::output::{Outcome, OutcomeKind, OutcomeSource};
use crate::bands::{validate_profiles, BandFloors, BandProfile};
use crate::calibrate::{IsotonicModel, PlattModel, Sigmoid};
use crate::confidence::model::QueryConfidenceModel;
use crate::confidence::ConfidenceOptions;
use crate::error::{ErrorCode, Result, ScoreError};
use crate::fuse::{validate_k, validate_weight, DEFAULT_K};
use crate::limits::Limits;
use crate::normalize::{validate_temperature, NormalizeMethod};
use crate::recency::{default_steps, validate_boost, validate_steps, FiscalYearTier, RecencyStep};
use crate::rerank::HeuristicConfig;
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
    /// How the cross-encoder's scores are normalized over the candidates it reranks
    /// (default: seed 004's per-query min-max).
    pub cross_encoder_normalization: CrossEncoderNormalization,
}

/// How a pipeline normalizes the cross-encoder's scores over the candidates it reranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrossEncoderNormalization {
    /// Seed 004's per-query min-max (the default): the best candidate is 1 whatever the
    /// model scored it, so the confidences rank the candidates but cannot say that
    /// nothing relevant was found.
    #[default]
    MinMax,
    /// The scores as the model gave them, for a calibration fitted on them (which can
    /// then say that nothing relevant was found).
    None,
}

impl CrossEncoderNormalization {
    /// The normalization method it is.
    pub fn method(self) -> NormalizeMethod {
        match self {
            CrossEncoderNormalization::MinMax => NormalizeMethod::MinMax,
            CrossEncoderNormalization::None => NormalizeMethod::None,
        }
    }
}

impl Default for RerankConfig {
    fn default() -> Self {
        RerankConfig {
            method: RerankMethod::None,
            heuristic: HeuristicConfig::default(),
            candidate_limit: None,
            recency_boost: 0.8,
            cross_encoder_normalization: CrossEncoderNormalization::MinMax,
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
    /// Normalized scores below this are dropped (default 0.1, within [0, 1]; ignored for
    /// `none`).
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
///
/// Tagged by `method`. An object without `method` is a sigmoid (`{"threshold": 0.02}`,
/// the parameters as `calibrate` takes them); otherwise it reads as serde's internally
/// tagged enum reads it (src/pipeline/tagged.rs).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "method", rename_all = "lowercase")]
pub enum Calibration {
    /// The seed's sigmoid (`threshold` 0.035, `steepness` 150).
    Sigmoid {
        /// Raw score mapped to 0.5.
        threshold: f64,
        /// Steepness (> 0).
        steepness: f64,
    },
    /// Platt scaling fitted from judgements (`fitPlatt`): `1 / (1 + exp(a * raw + b))`;
    /// a pipeline takes `a <= 0` only (a model falling as the score rises would turn its
    /// ranking over).
    Platt(PlattModel),
    /// Isotonic regression fitted from judgements (`fitIsotonic`).
    Isotonic(IsotonicModel),
}

impl<'de> Deserialize<'de> for Calibration {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        super::tagged::calibration(d)
    }
}

impl Default for Calibration {
    fn default() -> Self {
        Sigmoid::default().into()
    }
}

/// The sigmoid of `calibrate`'s parameters as a pipeline's calibration.
impl From<Sigmoid> for Calibration {
    fn from(
        Sigmoid {
            threshold,
            steepness,
        }: Sigmoid,
    ) -> Self {
        Calibration::Sigmoid {
            threshold,
            steepness,
        }
    }
}

/// A fitted Platt model as a pipeline's calibration (checked by [`Pipeline::new`]).
///
/// [`Pipeline::new`]: super::Pipeline::new
impl From<PlattModel> for Calibration {
    fn from(m: PlattModel) -> Self {
        Calibration::Platt(m)
    }
}

/// A fitted isotonic model as a pipeline's calibration.
impl From<IsotonicModel> for Calibration {
    fn from(m: IsotonicModel) -> Self {
        Calibration::Isotonic(m)
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
    /// The configuration's own floors.
    pub(super) fn floors(&self) -> BandFloors {
        BandFloors {
            high_floor: self.high_floor,
            degraded_floor: self.degraded_floor,
        }
    }

    /// The floors that classify a call's results, and the name of the profile they come
    /// from: the most specific profile matching `context`, else the configuration's own
    /// floors (no context matches none).
    pub(super) fn floors_for(
        &self,
        context: Option<&crate::bands::BandContext>,
    ) -> (BandFloors, Option<&str>) {
        let none = crate::bands::BandContext::default();
        crate::bands::select_floors(self.floors(), &self.profiles, context.unwrap_or(&none))
    }
}

/// The query-level confidence of a pipeline: the seeds' figures (`weights`, `k`), an
/// optional model fitted by `fitQueryConfidence`, and the floors of the outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct PipelineConfidence {
    /// Weights of the top-5 slots of `weightedTop5` (exactly five).
    #[serde(deserialize_with = "crate::confidence::five::deserialize")]
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
    /// [`crate::limits::pipeline_limits`]). In a struct literal, fill the rest with
    /// `..Limits::of(LimitedFunction::Pipeline)`: `Limits::default()` is the general
    /// default, whose `max_total_entries` (100,000) is below the pipeline's (400,000).
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
            top_n: DEFAULT_TOP_N,
            recency: RecencyConfig::default(),
            rerank: RerankConfig::default(),
            normalization: NormalizationConfig::default(),
            calibration: Calibration::default(),
            min_confidence: 0.3,
            bands: BandsConfig::default(),
            confidence: PipelineConfidence::default(),
            limits: crate::limits::pipeline_limits(),
            explain: true,
        }
    }
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
    /// The results to return: `top_n` (a call's own `topN`) if given, else the
    /// configuration's. Errors: `INVALID_TOP_N` on `topN` unless `1 <= topN <= topK`.
    pub fn top_n_or(&self, top_n: Option<u32>) -> Result<u32> {
        let n = top_n.unwrap_or(self.top_n);
        if n < 1 || n > self.top_k {
            return Err(top_n_error(self.top_k, f64::from(n)));
        }
        Ok(n)
    }

    /// Validates every value; the error names the offending field by its path.
    pub fn validate(&self) -> Result<()> {
        validate_k(self.k, "k")?;
        for (name, &w) in &self.weights {
            validate_weight(w, || crate::error::key_path("weights", name))?;
        }
        if self.top_k < 1 {
            return Err(ScoreError::new(
                ErrorCode::InvalidTopK,
                "topK",
                "topK must be >= 1, got 0",
            ));
        }
        self.top_n_or(Some(self.top_n)).map_err(|mut e| {
            // A topK below the default topN, which the caller may not have written.
            if self.top_n == DEFAULT_TOP_N {
                e.message.push_str(" (topN is 5 when not given)");
            }
            e
        })?;
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
                "must be >= 1, got 0",
            ));
        }
        validate_boost(self.rerank.recency_boost, "rerank.recencyBoost")?;
        validate_temperature(self.normalization.temperature, "normalization.temperature")?;
        // Every method normalizes into [0, 1]: a floor outside it keeps or drops everything.
        in_unit(
            self.normalization.min_relevance,
            "normalization.minRelevance",
        )?;
        self.calibration
            .validate()
            .map_err(|e| e.within("calibration"))?;
        // The calibrated scores rank the results: a Platt model that falls as the raw
        // score rises (`a > 0`, which `fit_platt` gives for judgements that run against
        // the scores) would turn the topK pool's order over.
        if let Calibration::Platt(m) = &self.calibration {
            if m.a > 0.0 {
                return Err(ScoreError::new(
                    ErrorCode::InvalidCalibration,
                    "calibration.a",
                    format!("must be <= 0, got {}", crate::error::num(m.a)),
                ));
            }
        }
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

/// The results a pipeline returns when its configuration gives no `topN`.
const DEFAULT_TOP_N: u32 = 5;

/// `INVALID_TOP_N` on `topN`: `got` outside `1..=top_k`.
pub fn top_n_error(top_k: u32, got: f64) -> ScoreError {
    ScoreError::new(
        ErrorCode::InvalidTopN,
        "topN",
        format!(
            "topN must satisfy 1 <= topN <= topK = {top_k}, got {}",
            crate::error::num(got)
        ),
    )
}
