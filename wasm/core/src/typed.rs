//! A pipeline's configuration and a run's context as `calibrank_pipeline.wasm` receives
//! them: decoded by the package's JavaScript (js/core/typed-config.js, which decodes as
//! `calibrank_wasm_shared::decode` does for `calibrank_core.wasm`, errors included) and
//! sent as numbers (F64) and strings (STRS) in field order. This module holds no JSON
//! parser and no decoder of JSON: reading these back is all it does here. The values are
//! checked afterwards as every configuration is (`Pipeline::new`).
//!
//! The layout, field by field in the order of the structs' declarations in
//! typed-config.js: a defaulted field is a flag (0: not given, its default) followed by
//! its value when given; a required field is its value; an `Option` is a flag (0: `None`)
//! followed by the value; a list or map its length, then its items (a map's keys are
//! strings, its values numbers); a unit variant its index; a boolean 0 or 1; a string
//! the next string of the table.

use calibrank::bands::{BandContext, BandProfile};
use calibrank::calibrate::{IsotonicModel, PlattModel, Sigmoid};
use calibrank::confidence::model::{QueryConfidenceModel, TrainingFigures};
use calibrank::error::{ErrorCode, Result, ScoreError};
use calibrank::limits::{pipeline_limits, PartialLimits};
use calibrank::normalize::NormalizeMethod;
use calibrank::pipeline::{
    BandsConfig, Calibration, CrossEncoderNormalization, NormalizationConfig, PipelineConfidence,
    PipelineConfig, RecencyConfig, RecencyMode, RerankConfig, RerankMethod,
};
use calibrank::recency::{FiscalYearTier, RecencyStep};
use calibrank::rerank::HeuristicConfig;
use calibrank_wasm_shared::wire::Strs;
use std::collections::BTreeMap;

/// The numbers and strings of one value, read in order. Reading never fails on the way
/// (past the end: zeros and empty strings), which keeps the readers below straight-line
/// code without a path out per field; [`Flat::done`] says at the end whether the layout
/// was followed.
pub struct Flat<'a> {
    n: &'a [f64],
    s: Strs<'a>,
    i: usize,
    j: usize,
    bad: bool,
}

/// The package's JavaScript wrote something else than this layout (a bug, not an input).
#[cold]
#[inline(never)]
fn malformed() -> ScoreError {
    ScoreError::new(
        ErrorCode::Internal,
        "",
        "wire: typed configuration off its layout",
    )
}

impl<'a> Flat<'a> {
    /// Reads `n` and `s` from their start.
    pub fn new(n: &'a [f64], s: Strs<'a>) -> Self {
        Flat {
            n,
            s,
            i: 0,
            j: 0,
            bad: false,
        }
    }

    #[inline(never)]
    fn num(&mut self) -> f64 {
        let x = self.n.get(self.i).copied();
        self.i += 1;
        self.bad |= x.is_none();
        x.unwrap_or(0.0)
    }

    /// A number that must be a whole number within `lo..=hi` (JavaScript checked the
    /// values; anything else is a layout not followed).
    #[inline(never)]
    fn whole(&mut self, lo: f64, hi: f64) -> f64 {
        let x = self.num();
        self.bad |= !(x >= lo && x <= hi && x.fract() == 0.0);
        x
    }

    #[inline(never)]
    fn flag(&mut self) -> bool {
        self.whole(0.0, 1.0) != 0.0
    }

    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    #[inline(never)]
    fn u32(&mut self) -> u32 {
        self.whole(0.0, f64::from(u32::MAX)) as u32
    }

    #[allow(clippy::cast_possible_truncation)]
    #[inline(never)]
    fn i32(&mut self) -> i32 {
        self.whole(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
    }

    /// A count of items, each at least one number or string further on (no more than
    /// are left, whatever the number says).
    #[inline(never)]
    fn len(&mut self) -> usize {
        let n = self.u32() as usize;
        let left = (self.n.len() + self.s.len()).saturating_sub(self.i + self.j);
        self.bad |= n > left;
        n.min(left)
    }

    #[inline(never)]
    fn string(&mut self) -> String {
        let s = self.s.get(self.j).ok();
        self.j += 1;
        self.bad |= s.is_none();
        s.unwrap_or_default().to_string()
    }

    fn opt<T>(&mut self, read: fn(&mut Self) -> T) -> Option<T> {
        self.flag().then(|| read(self))
    }

    /// Item by item (no room reserved for the count given: an item may take more memory
    /// than the numbers it is read from), until the count or the end of the layout.
    fn list<T>(&mut self, read: fn(&mut Self) -> T) -> Vec<T> {
        let n = self.len();
        let mut out = Vec::new();
        for _ in 0..n {
            if self.bad {
                break;
            }
            out.push(read(self));
        }
        out
    }

    fn map(&mut self) -> BTreeMap<String, f64> {
        let n = self.len();
        let mut out = BTreeMap::new();
        for _ in 0..n {
            if self.bad {
                break;
            }
            let k = self.string();
            calibrank::rerank::insert_number(&mut out, k, self.num());
        }
        out
    }

    fn unit<T: Copy>(&mut self, table: &[T]) -> Option<T> {
        let t = table.get(self.u32() as usize).copied();
        self.bad |= t.is_none();
        t
    }

    /// An error unless every number and string was read, and nothing more.
    fn done(&self) -> Result<()> {
        if !self.bad && self.i == self.n.len() && self.j == self.s.len() {
            Ok(())
        } else {
            Err(malformed())
        }
    }
}

/// Sets `$place` from `$read` if the defaulted field's flag says it was given.
macro_rules! def {
    ($f:ident, $place:expr, $read:expr) => {
        if $f.flag() {
            $place = $read;
        }
    };
}
/// The same for a unit variant (left at its default when the index is not one).
macro_rules! def_unit {
    ($f:ident, $place:expr, $table:expr) => {
        if $f.flag() {
            if let Some(t) = $f.unit($table) {
                $place = t;
            }
        }
    };
}

fn nums(f: &mut Flat<'_>) -> Vec<f64> {
    f.list(Flat::num)
}

fn strings(f: &mut Flat<'_>) -> Vec<String> {
    f.list(Flat::string)
}

/// A pipeline's configuration (none given: no layout at all, the defaults; wasm/core/src/pipeline/mod.rs).
pub fn pipeline_config(f: &mut Flat<'_>) -> Result<PipelineConfig> {
    let mut c = PipelineConfig::default();
    def!(f, c.k, f.num());
    def!(f, c.weights, f.map());
    def!(f, c.top_k, f.u32());
    def!(f, c.top_n, f.u32());
    def!(f, c.recency, recency(f));
    def!(f, c.rerank, rerank(f));
    def!(f, c.normalization, normalization(f));
    def!(f, c.calibration, calibration(f));
    def!(f, c.min_confidence, f.num());
    def!(f, c.bands, bands(f));
    def!(f, c.confidence, confidence(f));
    def!(
        f,
        c.limits,
        f.opt(partial_limits)
            .unwrap_or_default()
            .over(pipeline_limits())
    );
    def!(f, c.explain, f.flag());
    f.done()?;
    Ok(c)
}

fn recency(f: &mut Flat<'_>) -> RecencyConfig {
    let mut c = RecencyConfig::default();
    def_unit!(
        f,
        c.mode,
        &[
            RecencyMode::None,
            RecencyMode::Step,
            RecencyMode::FiscalYear
        ]
    );
    def!(f, c.steps, f.list(step));
    def!(f, c.fiscal_year, fiscal_year(f));
    def!(f, c.boost, f.num());
    c
}

fn step(f: &mut Flat<'_>) -> RecencyStep {
    RecencyStep {
        max_age_days: f.num(),
        multiplier: f.num(),
    }
}

fn fiscal_year(f: &mut Flat<'_>) -> FiscalYearTier {
    let mut c = FiscalYearTier::default();
    def!(f, c.window, f.u32());
    def!(f, c.latest_year, f.i32());
    c
}

fn rerank(f: &mut Flat<'_>) -> RerankConfig {
    let mut c = RerankConfig::default();
    def_unit!(
        f,
        c.method,
        &[
            RerankMethod::None,
            RerankMethod::Heuristic,
            RerankMethod::CrossEncoder,
        ]
    );
    def!(f, c.heuristic, heuristic(f));
    def!(f, c.candidate_limit, f.opt(Flat::u32));
    def!(f, c.recency_boost, f.num());
    def_unit!(
        f,
        c.cross_encoder_normalization,
        &[
            CrossEncoderNormalization::MinMax,
            CrossEncoderNormalization::None
        ]
    );
    c
}

fn heuristic(f: &mut Flat<'_>) -> HeuristicConfig {
    let mut c = HeuristicConfig::default();
    def!(f, c.exact_name_multiplier, f.num());
    def!(f, c.name_term_weight, f.num());
    def!(f, c.summary_term_weight, f.num());
    def!(f, c.short_content_chars, f.u32());
    def!(f, c.short_content_multiplier, f.num());
    def!(f, c.type_multipliers, f.map());
    def!(f, c.unknown_type_multiplier, f.num());
    def!(f, c.stopwords, f.opt(strings));
    c
}

fn normalization(f: &mut Flat<'_>) -> NormalizationConfig {
    let mut c = NormalizationConfig::default();
    def_unit!(
        f,
        c.method,
        &[
            NormalizeMethod::None,
            NormalizeMethod::Max,
            NormalizeMethod::MinMax,
            NormalizeMethod::ZScore,
            NormalizeMethod::Softmax,
        ]
    );
    def!(f, c.temperature, f.num());
    def!(f, c.min_relevance, f.num());
    c
}

/// A calibration: its variant's index (sigmoid, platt, isotonic), then its fields.
fn calibration(f: &mut Flat<'_>) -> Calibration {
    match f.u32() {
        1 => Calibration::Platt(PlattModel {
            a: f.num(),
            b: f.num(),
        }),
        2 => Calibration::Isotonic(IsotonicModel {
            x: nums(f),
            y: nums(f),
        }),
        t => {
            f.bad |= t != 0;
            let mut s = Sigmoid::default();
            def!(f, s.threshold, f.num());
            def!(f, s.steepness, f.num());
            s.into()
        }
    }
}

fn bands(f: &mut Flat<'_>) -> BandsConfig {
    let mut c = BandsConfig::default();
    def!(f, c.high_floor, f.num());
    def!(f, c.degraded_floor, f.num());
    def!(f, c.profiles, f.list(profile));
    c
}

fn profile(f: &mut Flat<'_>) -> BandProfile {
    let mut p = BandProfile {
        name: f.string(),
        task_class: None,
        language: None,
        build_system: None,
        high_floor: 0.0,
        degraded_floor: 0.0,
    };
    def!(f, p.task_class, f.opt(Flat::string));
    def!(f, p.language, f.opt(Flat::string));
    def!(f, p.build_system, f.opt(Flat::string));
    p.high_floor = f.num();
    p.degraded_floor = f.num();
    p
}

fn confidence(f: &mut Flat<'_>) -> PipelineConfidence {
    let mut c = PipelineConfidence::default();
    if f.flag() {
        for w in &mut c.weights {
            *w = f.num();
        }
    }
    def!(f, c.k, f.opt(Flat::u32));
    def!(f, c.model, f.opt(model));
    def!(f, c.answer_floor, f.num());
    def!(f, c.hedge_floor, f.num());
    c
}

fn model(f: &mut Flat<'_>) -> QueryConfidenceModel {
    QueryConfidenceModel {
        method: f.string(),
        runs: f.u32(),
        k: f.u32(),
        rrf_k: f.num(),
        weights: nums(f),
        features: strings(f),
        mean: nums(f),
        scale: nums(f),
        coefficients: nums(f),
        intercept: f.num(),
        missing_top: nums(f),
        l2: f.num(),
        training: TrainingFigures {
            queries: f.u32(),
            positives: f.u32(),
            log_loss: f.num(),
            auroc: f.num(),
            iterations: f.u32(),
            converged: f.flag(),
        },
    }
}

fn partial_limits(f: &mut Flat<'_>) -> PartialLimits {
    PartialLimits {
        max_lists: f.opt(Flat::u32),
        max_list_length: f.opt(Flat::u32),
        max_total_entries: f.opt(Flat::u32),
        max_columnar_entries: f.opt(Flat::u32),
        max_id_bytes: f.opt(Flat::u32),
        max_text_bytes: f.opt(Flat::u32),
        max_total_text_bytes: f.opt(Flat::u32),
        max_search_work: f.opt(Flat::u32),
    }
}

/// A run's context: a state first (1 a context, 2 the error the package's JavaScript
/// found in it, as code, field and message strings, returned where the core's module
/// would meet it; no context: no layout at all).
pub fn context(f: &mut Flat<'_>) -> Result<Option<BandContext>> {
    let out = match f.u32() {
        1 => {
            let mut c = BandContext::default();
            def!(f, c.task_class, f.opt(Flat::string));
            def!(f, c.language, f.opt(Flat::string));
            def!(f, c.build_system, f.opt(Flat::string));
            Some(c)
        }
        2 => {
            let name = f.string();
            let code = ErrorCode::ALL.into_iter().find(|c| c.as_str() == name);
            let (field, message) = (f.string(), f.string());
            f.done()?;
            return Err(ScoreError::new(code.ok_or_else(malformed)?, field, message));
        }
        _ => {
            f.bad = true;
            None
        }
    };
    f.done()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use calibrank_wasm_shared::wire::{Reader, Writer};

    /// `n` and `strs` as the sections the JavaScript writes, read back by `read`.
    fn with<T>(n: &[f64], strs: &[&str], read: impl FnOnce(&mut Flat<'_>) -> T) -> T {
        let mut w = Writer::default();
        w.f64s(n);
        w.strs(strs.iter().copied());
        let bytes = w.bytes().to_vec();
        let mut r = Reader::new(&bytes);
        let n = r.f64s().expect("numbers");
        let s = r.strs().expect("strings");
        read(&mut Flat::new(n, s))
    }

    #[test]
    fn no_field_given_is_the_default_configuration() {
        let c = with(&[0.0; 13], &[], pipeline_config).expect("the defaults");
        assert_eq!(c, PipelineConfig::default());
    }

    #[test]
    fn fields_given_are_read_in_order_and_the_others_keep_their_defaults() {
        // k 30, weights {a: 2}, topK 20, then every other field not given but the
        // calibration (platt 1.5, -2) and explain (false).
        let n = [
            1.0, 30.0, 1.0, 1.0, 2.0, 1.0, 20.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.5, -2.0, 0.0, 0.0,
            0.0, 0.0, 1.0, 0.0,
        ];
        let c = with(&n, &["a"], pipeline_config).expect("a configuration");
        let d = PipelineConfig::default();
        assert_eq!(c.k, 30.0);
        assert_eq!(c.weights.get("a"), Some(&2.0));
        assert_eq!(c.top_k, 20);
        assert_eq!(c.top_n, d.top_n);
        assert_eq!(
            c.calibration,
            Calibration::Platt(PlattModel { a: 1.5, b: -2.0 })
        );
        assert!(!c.explain);
        assert_eq!(c.rerank, d.rerank);
    }

    #[test]
    fn a_layout_not_followed_is_an_internal_error_not_a_trap() {
        for (n, s) in [
            (&[1.0][..], &[][..]),                               // ends inside a field
            (&[0.0; 14][..], &[][..]),                           // a number left over
            (&[0.0; 13][..], &["x"][..]),                        // a string left over
            (&[0.0, 1.0, 1e300][..], &[][..]),                   // a map longer than what is left
            (&[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 9.0][..], &[][..]), // no such recency mode
        ] {
            let e = with(n, s, pipeline_config).expect_err("malformed");
            assert_eq!(e.code, ErrorCode::Internal, "{n:?} {s:?}");
        }
    }

    #[test]
    fn counts_and_indices_that_are_not_whole_numbers_in_range_break_the_layout() {
        // A list of 2^32 - 1 profiles with a few numbers behind it: read item by item
        // until the end, nothing reserved for the count.
        // (k to minConfidence not given; bands given, its floors not, its profiles given.)
        let mut n = vec![
            0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0,
        ];
        n.push(f64::from(u32::MAX));
        n.extend([0.0; 40]);
        let e = with(&n, &["a", "b"], pipeline_config).expect_err("malformed");
        assert_eq!(e.code, ErrorCode::Internal);
        for bad in [f64::NAN, -5.0, 1.5, 2.0, 1e300] {
            // The first flag (`k` given) must be 0 or 1.
            let mut n = vec![bad];
            n.extend([0.0; 12]);
            let e = with(&n, &[], pipeline_config).expect_err("malformed");
            assert_eq!(e.code, ErrorCode::Internal, "{bad}");
        }
        // A calibration's variant index of 1.5 is not Platt's.
        let mut n = vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.5, 0.5, 0.5];
        n.extend([0.0; 5]);
        let e = with(&n, &[], pipeline_config).expect_err("malformed");
        assert_eq!(e.code, ErrorCode::Internal);
    }

    #[test]
    fn a_context_or_the_error_found_in_it() {
        let c = with(&[1.0, 1.0, 1.0, 0.0, 1.0, 0.0], &["bugfix"], context).expect("a context");
        assert_eq!(
            c,
            Some(BandContext {
                task_class: Some("bugfix".into()),
                language: None,
                build_system: None,
            })
        );
        assert_eq!(
            with(&[0.0], &[], context).expect_err("no state 0").code,
            ErrorCode::Internal
        );
        let e = with(
            &[2.0],
            &["UNKNOWN_FIELD", "context.x", "unknown field `x`"],
            context,
        )
        .expect_err("the error sent");
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::UnknownField, "context.x")
        );
        let e = with(&[2.0], &["NO_SUCH_CODE", "context", "?"], context).expect_err("malformed");
        assert_eq!(e.code, ErrorCode::Internal);
    }
}
