//! The JSON text of the core module's one JSON output, the effective configuration
//! (`Pipeline.config`; the other outputs cross as typed sections), written by hand: the same bytes as
//! `serde_json::to_string` of the same value (the property tests in this file check it),
//! without serde's serializer and core::fmt's float code in the module.
//!
//! What serde's derives do is spelled out per type: `rename_all` (camelCase field names,
//! snake_case / lowercase variant names), `skip_serializing_if = "Option::is_none"`
//! ([`JsonWriter::field_opt`]), an `Option` without it as `null`, internally tagged enums
//! (`tag = "method"`: the tag first, then the variant's fields), maps as objects in key
//! order. Numbers: integers in decimal; a finite `f64` as serde_json prints it (the
//! shortest digits that read back as the value, `1.0` for a whole number, an exponent
//! `e+N` / `e-N` outside `1e-5 <= |v| < 1e16`: serde_json's `zmij` and `ryu` give the
//! same digits and switch to an exponent at the same points; the digits here are
//! [`calibrank::decimal::shortest`]'s, the same again), a NaN or an infinity as `null`.
//! Strings are escaped as serde_json escapes them ([`crate::push_json_string`]).

use calibrank::bands::BandProfile;
use calibrank::confidence::model::{QueryConfidenceModel, TrainingFigures};
use calibrank::limits::Limits;
use calibrank::normalize::NormalizeMethod;
use calibrank::pipeline::{
    BandsConfig, Calibration, CrossEncoderNormalization, NormalizationConfig, PipelineConfidence,
    PipelineConfig, RecencyConfig, RecencyMode, RerankConfig, RerankMethod,
};
use calibrank::recency::{FiscalYearTier, RecencyStep};
use calibrank::rerank::HeuristicConfig;
use std::collections::BTreeMap;

/// Appends JSON values to a string, with the commas between them.
#[derive(Debug, Default)]
pub struct JsonWriter {
    out: String,
    /// No value yet in the innermost object or array (or a key was just written).
    first: bool,
}

// The writer's steps are kept out of line (`#[inline(never)]`): its only caller in the
// core is `Pipeline.config`, which no timed path calls, and each struct's `to_json`
// inlined them per field (1,291 B of the core gzipped, docs/performance-history.md "Cold code out of line").
impl JsonWriter {
    /// An empty writer.
    pub fn new() -> Self {
        JsonWriter {
            out: String::new(),
            first: true,
        }
    }

    /// The text written.
    pub fn finish(self) -> String {
        self.out
    }

    fn sep(&mut self) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
    }

    /// `{`.
    #[inline(never)]
    pub fn begin_object(&mut self) {
        self.sep();
        self.out.push('{');
        self.first = true;
    }

    /// `}`.
    pub fn end_object(&mut self) {
        self.out.push('}');
        self.first = false;
    }

    /// `[`.
    #[inline(never)]
    pub fn begin_array(&mut self) {
        self.sep();
        self.out.push('[');
        self.first = true;
    }

    /// `]`.
    pub fn end_array(&mut self) {
        self.out.push(']');
        self.first = false;
    }

    /// A key of the current object; its value is written next.
    #[inline(never)]
    pub fn key(&mut self, k: &str) {
        self.sep();
        crate::push_json_string(&mut self.out, k);
        self.out.push(':');
        self.first = true;
    }

    /// `"k":v`.
    #[inline(never)]
    pub fn field<T: ToJson + ?Sized>(&mut self, k: &str, v: &T) {
        self.key(k);
        v.to_json(self);
    }

    /// `"k":v` when `v` is `Some` (serde's `skip_serializing_if = "Option::is_none"`).
    #[inline(never)]
    pub fn field_opt<T: ToJson>(&mut self, k: &str, v: &Option<T>) {
        if let Some(v) = v {
            self.field(k, v);
        }
    }

    /// The first field of an internally tagged enum: `"tag":"variant"`.
    pub fn tag(&mut self, tag: &str, variant: &str) {
        self.begin_object();
        self.field(tag, variant);
    }

    /// `null`.
    #[inline(never)]
    pub fn null(&mut self) {
        self.sep();
        self.out.push_str("null");
    }

    /// A string.
    #[inline(never)]
    pub fn str(&mut self, v: &str) {
        self.sep();
        crate::push_json_string(&mut self.out, v);
    }

    /// `true` or `false`.
    #[inline(never)]
    pub fn bool(&mut self, v: bool) {
        self.sep();
        self.out.push_str(if v { "true" } else { "false" });
    }

    /// An integer.
    #[inline(never)]
    pub fn int(&mut self, v: i64) {
        self.sep();
        if v < 0 {
            self.out.push('-');
        }
        let mut n = v.unsigned_abs();
        let mut buf = [0u8; 20];
        let mut at = buf.len();
        loop {
            at -= 1;
            if let Some(b) = buf.get_mut(at) {
                *b = b'0' + (n % 10) as u8;
            }
            n /= 10;
            if n == 0 || at == 0 {
                break;
            }
        }
        for &b in buf.get(at..).unwrap_or_default() {
            self.out.push(char::from(b));
        }
    }

    /// A float as serde_json writes it (`null` when not finite): the shortest digits
    /// laid out as `ryu` lays them out, but for an exponent's `+` (`1e+16`, as
    /// serde_json's `zmij` writes it): [`calibrank::decimal::push`].
    #[inline(never)]
    pub fn f64(&mut self, v: f64) {
        self.sep();
        if v.is_finite() {
            calibrank::decimal::push(&mut self.out, v, calibrank::decimal::Layout::Json);
        } else {
            self.out.push_str("null");
        }
    }
}

/// A value that writes itself as JSON (what `serde::Serialize` + serde_json did).
pub trait ToJson {
    /// Writes `self` into `w`.
    fn to_json(&self, w: &mut JsonWriter);
}

/// Writes `v` as JSON text (the text serde_json would write) into a TEXT section.
pub fn write_json<T: ToJson + ?Sized>(w: &mut crate::wire::Writer, v: &T) -> calibrank::Result<()> {
    w.text(&to_string(v));
    Ok(())
}

/// `v` as JSON text.
pub fn to_string<T: ToJson + ?Sized>(v: &T) -> String {
    let mut w = JsonWriter::new();
    v.to_json(&mut w);
    w.finish()
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn to_json(&self, w: &mut JsonWriter) {
        (**self).to_json(w);
    }
}

impl ToJson for f64 {
    fn to_json(&self, w: &mut JsonWriter) {
        w.f64(*self);
    }
}

impl ToJson for u32 {
    fn to_json(&self, w: &mut JsonWriter) {
        w.int(i64::from(*self));
    }
}

impl ToJson for i32 {
    fn to_json(&self, w: &mut JsonWriter) {
        w.int(i64::from(*self));
    }
}

impl ToJson for bool {
    fn to_json(&self, w: &mut JsonWriter) {
        w.bool(*self);
    }
}

impl ToJson for str {
    fn to_json(&self, w: &mut JsonWriter) {
        w.str(self);
    }
}

impl ToJson for String {
    fn to_json(&self, w: &mut JsonWriter) {
        w.str(self);
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self, w: &mut JsonWriter) {
        match self {
            Some(v) => v.to_json(w),
            None => w.null(),
        }
    }
}

impl<T: ToJson> ToJson for [T] {
    fn to_json(&self, w: &mut JsonWriter) {
        w.begin_array();
        for v in self {
            v.to_json(w);
        }
        w.end_array();
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self, w: &mut JsonWriter) {
        self.as_slice().to_json(w);
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn to_json(&self, w: &mut JsonWriter) {
        self.as_slice().to_json(w);
    }
}

impl<V: ToJson> ToJson for BTreeMap<String, V> {
    fn to_json(&self, w: &mut JsonWriter) {
        w.begin_object();
        for (k, v) in self {
            w.field(k, v);
        }
        w.end_object();
    }
}

/// A unit enum written as its (renamed) variant name.
macro_rules! name_enum {
    ($t:ty { $($v:ident => $s:literal),* $(,)? }) => {
        impl ToJson for $t {
            fn to_json(&self, w: &mut JsonWriter) {
                w.str(match self {
                    $(<$t>::$v => $s,)*
                });
            }
        }
    };
}

name_enum!(RecencyMode { None => "none", Step => "step", FiscalYear => "fiscal_year" });
name_enum!(RerankMethod { None => "none", Heuristic => "heuristic", CrossEncoder => "cross_encoder" });
name_enum!(CrossEncoderNormalization {
    MinMax => "min_max",
    None => "none",
});
name_enum!(NormalizeMethod {
    None => "none",
    Max => "max",
    MinMax => "min_max",
    ZScore => "z_score",
    Softmax => "softmax",
});

/// A struct written as an object of the given fields, in order: `"name": expr`
/// (`?"name": expr` for an `Option` skipped when `None`).
macro_rules! object {
    ($t:ty, |$s:ident| { $($(? $o:tt)? $k:literal : $v:expr),* $(,)? }) => {
        impl ToJson for $t {
            fn to_json(&self, w: &mut JsonWriter) {
                let $s = self;
                w.begin_object();
                $( object!(@field w, $($o)? $k, $v); )*
                w.end_object();
            }
        }
    };
    (@field $w:ident, $k:literal, $v:expr) => { $w.field($k, &$v) };
    (@field $w:ident, opt $k:literal, $v:expr) => { $w.field_opt($k, &$v) };
}

object!(RecencyStep, |s| { "maxAgeDays": s.max_age_days, "multiplier": s.multiplier });
object!(FiscalYearTier, |s| { "window": s.window, "latestYear": s.latest_year });
object!(RecencyConfig, |s| {
    "mode": s.mode,
    "steps": s.steps,
    "fiscalYear": s.fiscal_year,
    "boost": s.boost,
});
object!(HeuristicConfig, |s| {
    "exactNameMultiplier": s.exact_name_multiplier,
    "nameTermWeight": s.name_term_weight,
    "summaryTermWeight": s.summary_term_weight,
    "shortContentChars": s.short_content_chars,
    "shortContentMultiplier": s.short_content_multiplier,
    "typeMultipliers": s.type_multipliers,
    "unknownTypeMultiplier": s.unknown_type_multiplier,
    "stopwords": s.stopwords,
});
object!(RerankConfig, |s| {
    "method": s.method,
    "heuristic": s.heuristic,
    "candidateLimit": s.candidate_limit,
    "recencyBoost": s.recency_boost,
    "crossEncoderNormalization": s.cross_encoder_normalization,
});
object!(NormalizationConfig, |s| {
    "method": s.method,
    "temperature": s.temperature,
    "minRelevance": s.min_relevance,
});
object!(BandProfile, |s| {
    "name": s.name,
    ?opt "taskClass": s.task_class,
    ?opt "language": s.language,
    ?opt "buildSystem": s.build_system,
    "highFloor": s.high_floor,
    "degradedFloor": s.degraded_floor,
});
object!(BandsConfig, |s| {
    "highFloor": s.high_floor,
    "degradedFloor": s.degraded_floor,
    "profiles": s.profiles,
});
object!(TrainingFigures, |s| {
    "queries": s.queries,
    "positives": s.positives,
    "logLoss": s.log_loss,
    "auroc": s.auroc,
    "iterations": s.iterations,
    "converged": s.converged,
});
object!(QueryConfidenceModel, |s| {
    "method": s.method,
    "runs": s.runs,
    "k": s.k,
    "rrfK": s.rrf_k,
    "weights": s.weights,
    "features": s.features,
    "mean": s.mean,
    "scale": s.scale,
    "coefficients": s.coefficients,
    "intercept": s.intercept,
    "missingTop": s.missing_top,
    "l2": s.l2,
    "training": s.training,
});
object!(PipelineConfidence, |s| {
    "weights": s.weights,
    "k": s.k,
    "model": s.model,
    "answerFloor": s.answer_floor,
    "hedgeFloor": s.hedge_floor,
});
object!(PipelineConfig, |s| {
    "k": s.k,
    "weights": s.weights,
    "topK": s.top_k,
    "topN": s.top_n,
    "recency": s.recency,
    "rerank": s.rerank,
    "normalization": s.normalization,
    "calibration": s.calibration,
    "minConfidence": s.min_confidence,
    "bands": s.bands,
    "confidence": s.confidence,
    "limits": s.limits,
    "explain": s.explain,
});

impl ToJson for Limits {
    fn to_json(&self, w: &mut JsonWriter) {
        w.begin_object();
        for (k, v) in self.fields() {
            w.field(k, &v);
        }
        w.end_object();
    }
}

/// `#[serde(tag = "method", rename_all = "lowercase")]`.
impl ToJson for Calibration {
    fn to_json(&self, w: &mut JsonWriter) {
        match self {
            Calibration::Sigmoid {
                threshold,
                steepness,
            } => {
                w.tag("method", "sigmoid");
                w.field("threshold", threshold);
                w.field("steepness", steepness);
            }
            Calibration::Platt(m) => {
                w.tag("method", "platt");
                w.field("a", &m.a);
                w.field("b", &m.b);
            }
            Calibration::Isotonic(m) => {
                w.tag("method", "isotonic");
                w.field("x", &m.x);
                w.field("y", &m.y);
            }
        }
        w.end_object();
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use calibrank::calibrate::{IsotonicModel, PlattModel};
    use proptest::collection::{btree_map, vec};
    use proptest::option::of;
    use proptest::prelude::*;

    /// Any bit pattern (NaN, infinities, subnormals, every exponent), short decimals, whole
    /// numbers, and the zeros.
    fn float() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<u64>().prop_map(f64::from_bits),
            (-1_000_000i64..1_000_000, -12i32..24).prop_map(|(m, e)| m as f64 * 10f64.powi(e)),
            any::<i32>().prop_map(f64::from),
            Just(0.0),
            Just(-0.0),
        ]
    }

    /// Any characters, and often those JSON escapes.
    fn text() -> impl Strategy<Value = String> {
        let special = prop::sample::select(vec![
            '"', '\\', '/', '\n', '\r', '\t', '\u{8}', '\u{c}', '\0', '\u{1f}', '\u{7f}', 'é',
            '\u{2028}', '😀', 'a',
        ]);
        vec(prop_oneof![any::<char>(), special], 0..8).prop_map(|c| c.into_iter().collect())
    }

    fn floats() -> impl Strategy<Value = Vec<f64>> {
        vec(float(), 0..5)
    }

    fn recency() -> impl Strategy<Value = RecencyConfig> {
        let mode = prop::sample::select(vec![
            RecencyMode::None,
            RecencyMode::Step,
            RecencyMode::FiscalYear,
        ]);
        let step = (float(), float()).prop_map(|(max_age_days, multiplier)| RecencyStep {
            max_age_days,
            multiplier,
        });
        (mode, vec(step, 0..4), any::<u32>(), any::<i32>(), float()).prop_map(
            |(mode, steps, window, latest_year, boost)| RecencyConfig {
                mode,
                steps,
                fiscal_year: FiscalYearTier {
                    window,
                    latest_year,
                },
                boost,
            },
        )
    }

    fn heuristic() -> impl Strategy<Value = HeuristicConfig> {
        (
            prop::array::uniform5(float()),
            any::<u32>(),
            btree_map(text(), float(), 0..4),
            of(vec(text(), 0..4)),
        )
            .prop_map(|(f, short_content_chars, type_multipliers, stopwords)| {
                HeuristicConfig {
                    exact_name_multiplier: f[0],
                    name_term_weight: f[1],
                    summary_term_weight: f[2],
                    short_content_chars,
                    short_content_multiplier: f[3],
                    type_multipliers,
                    unknown_type_multiplier: f[4],
                    stopwords,
                }
            })
    }

    fn rerank() -> impl Strategy<Value = RerankConfig> {
        let method = prop::sample::select(vec![
            RerankMethod::None,
            RerankMethod::Heuristic,
            RerankMethod::CrossEncoder,
        ]);
        let scale = prop::sample::select(vec![
            CrossEncoderNormalization::MinMax,
            CrossEncoderNormalization::None,
        ]);
        (method, heuristic(), of(any::<u32>()), float(), scale).prop_map(
            |(method, heuristic, candidate_limit, recency_boost, cross_encoder_normalization)| {
                RerankConfig {
                    method,
                    heuristic,
                    candidate_limit,
                    recency_boost,
                    cross_encoder_normalization,
                }
            },
        )
    }

    fn normalization() -> impl Strategy<Value = NormalizationConfig> {
        let method = prop::sample::select(vec![
            NormalizeMethod::None,
            NormalizeMethod::Max,
            NormalizeMethod::MinMax,
            NormalizeMethod::ZScore,
            NormalizeMethod::Softmax,
        ]);
        (method, float(), float()).prop_map(|(method, temperature, min_relevance)| {
            NormalizationConfig {
                method,
                temperature,
                min_relevance,
            }
        })
    }

    fn calibration() -> impl Strategy<Value = Calibration> {
        prop_oneof![
            (float(), float()).prop_map(|(threshold, steepness)| Calibration::Sigmoid {
                threshold,
                steepness
            }),
            (float(), float()).prop_map(|(a, b)| Calibration::Platt(PlattModel { a, b })),
            (floats(), floats()).prop_map(|(x, y)| Calibration::Isotonic(IsotonicModel { x, y })),
        ]
    }

    fn bands() -> impl Strategy<Value = BandsConfig> {
        let profile = (text(), of(text()), of(text()), of(text()), float(), float()).prop_map(
            |(name, task_class, language, build_system, high_floor, degraded_floor)| BandProfile {
                name,
                task_class,
                language,
                build_system,
                high_floor,
                degraded_floor,
            },
        );
        (float(), float(), vec(profile, 0..3)).prop_map(|(high_floor, degraded_floor, profiles)| {
            BandsConfig {
                high_floor,
                degraded_floor,
                profiles,
            }
        })
    }

    fn model() -> impl Strategy<Value = QueryConfidenceModel> {
        let training = (
            any::<u32>(),
            any::<u32>(),
            float(),
            float(),
            any::<u32>(),
            any::<bool>(),
        )
            .prop_map(
                |(queries, positives, log_loss, auroc, iterations, converged)| TrainingFigures {
                    queries,
                    positives,
                    log_loss,
                    auroc,
                    iterations,
                    converged,
                },
            );
        (
            (text(), any::<u32>(), any::<u32>(), float(), floats()),
            (vec(text(), 0..4), floats(), floats(), floats()),
            (float(), floats(), float(), training),
        )
            .prop_map(
                |(
                    (method, runs, k, rrf_k, weights),
                    (features, mean, scale, coefficients),
                    (intercept, missing_top, l2, training),
                )| QueryConfidenceModel {
                    method,
                    runs,
                    k,
                    rrf_k,
                    weights,
                    features,
                    mean,
                    scale,
                    coefficients,
                    intercept,
                    missing_top,
                    l2,
                    training,
                },
            )
    }

    fn confidence() -> impl Strategy<Value = PipelineConfidence> {
        (
            prop::array::uniform5(float()),
            of(any::<u32>()),
            of(model()),
            float(),
            float(),
        )
            .prop_map(|(weights, k, model, answer_floor, hedge_floor)| {
                PipelineConfidence {
                    weights,
                    k,
                    model,
                    answer_floor,
                    hedge_floor,
                }
            })
    }

    fn limits() -> impl Strategy<Value = Limits> {
        prop::array::uniform8(any::<u32>()).prop_map(|v| Limits {
            max_lists: v[0],
            max_list_length: v[1],
            max_total_entries: v[2],
            max_columnar_entries: v[3],
            max_id_bytes: v[4],
            max_text_bytes: v[5],
            max_total_text_bytes: v[6],
            max_search_work: v[7],
        })
    }

    fn config() -> impl Strategy<Value = PipelineConfig> {
        (
            (
                float(),
                btree_map(text(), float(), 0..4),
                any::<u32>(),
                any::<u32>(),
            ),
            (recency(), rerank(), normalization(), calibration()),
            (float(), bands(), confidence(), limits(), any::<bool>()),
        )
            .prop_map(
                |(
                    (k, weights, top_k, top_n),
                    (recency, rerank, normalization, calibration),
                    (min_confidence, bands, confidence, limits, explain),
                )| PipelineConfig {
                    k,
                    weights,
                    top_k,
                    top_n,
                    recency,
                    rerank,
                    normalization,
                    calibration,
                    min_confidence,
                    bands,
                    confidence,
                    limits,
                    explain,
                },
            )
    }

    /// The writer's text is serde_json's, byte for byte.
    fn same<T: ToJson + serde::Serialize + ?Sized>(v: &T) -> Result<(), TestCaseError> {
        let ours = to_string(v);
        let theirs = serde_json::to_string(v).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(ours, theirs);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn floats_as_serde_json(v in float()) {
            same(&v)?;
            same(&[v, -v])?;
        }

        #[test]
        fn strings_as_serde_json(s in text(), t in any::<String>()) {
            same(&s)?;
            same(&t)?;
        }

        #[test]
        fn pipeline_config_as_serde_json(c in config()) {
            same(&c)?;
        }



    }

    #[test]
    fn floats_at_the_edges() {
        for v in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            1e-5,
            9.999999999999999e-6,
            1e15,
            1e16,
            1e17,
            123456789012345680000.0,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(to_string(&v), serde_json::to_string(&v).unwrap(), "{v:?}");
        }
        assert_eq!(to_string(&1e16), "1e+16");
        assert_eq!(to_string(&2.0), "2.0");
        assert_eq!(to_string(&f64::NAN), "null");
    }
}
