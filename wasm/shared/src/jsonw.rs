//! The JSON text of the core module's outputs, written by hand: the same bytes as
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
//! same digits and switch to an exponent at the same points), a NaN or an infinity as
//! `null`. Strings are escaped as serde_json escapes them ([`crate::push_json_string`]).

use calibrank::bands::{Band, BandProfile, RetrievalOutcome};
use calibrank::confidence::model::{QueryConfidenceModel, TrainingFigures};
use calibrank::confidence::QueryConfidence;
use calibrank::limits::Limits;
use calibrank::multiquery::{MultiQueryOutput, MultiQueryResult, MultiQueryStats};
use calibrank::normalize::NormalizeMethod;
use calibrank::pipeline::{
    BandsConfig, Calibration, Contribution, Explain, NormalizationConfig, PipelineConfidence,
    PipelineConfig, RecencyConfig, RecencyMode, RerankConfig, RerankExplain, RerankMethod,
};
use calibrank::recency::{FiscalYearTier, RecencyStep};
use calibrank::rerank::{HeuristicConfig, HeuristicFactors};
use std::collections::BTreeMap;

/// Appends JSON values to a string, with the commas between them.
#[derive(Debug, Default)]
pub struct JsonWriter {
    out: String,
    /// No value yet in the innermost object or array (or a key was just written).
    first: bool,
}

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
    pub fn key(&mut self, k: &str) {
        self.sep();
        crate::push_json_string(&mut self.out, k);
        self.out.push(':');
        self.first = true;
    }

    /// `"k":v`.
    pub fn field<T: ToJson + ?Sized>(&mut self, k: &str, v: &T) {
        self.key(k);
        v.to_json(self);
    }

    /// `"k":v` when `v` is `Some` (serde's `skip_serializing_if = "Option::is_none"`).
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
    pub fn null(&mut self) {
        self.sep();
        self.out.push_str("null");
    }

    /// A string.
    pub fn str(&mut self, v: &str) {
        self.sep();
        crate::push_json_string(&mut self.out, v);
    }

    /// `true` or `false`.
    pub fn bool(&mut self, v: bool) {
        self.sep();
        self.out.push_str(if v { "true" } else { "false" });
    }

    /// An integer.
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

    /// A float as serde_json writes it (`null` when not finite).
    pub fn f64(&mut self, v: f64) {
        self.sep();
        if !v.is_finite() {
            self.out.push_str("null");
            return;
        }
        let mut buf = ryu::Buffer::new();
        let s = buf.format_finite(v);
        // ryu writes `1e16`, serde_json (zmij) `1e+16`; the digits are the same.
        match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => {
                self.out.push_str(m);
                self.out.push_str("e+");
                self.out.push_str(e);
            }
            _ => self.out.push_str(s),
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

name_enum!(Band { Miss => "miss", Degraded => "degraded", Hit => "hit" });
name_enum!(RecencyMode { None => "none", Step => "step", FiscalYear => "fiscal_year" });
name_enum!(RerankMethod { None => "none", Heuristic => "heuristic", CrossEncoder => "cross_encoder" });
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
object!(Contribution, |s| {
    "list": s.list,
    "rank": s.rank,
    "weight": s.weight,
    "contribution": s.contribution,
    ?opt "listScore": s.list_score,
});
object!(HeuristicFactors, |s| {
    "exactName": s.exact_name,
    "nameTerms": s.name_terms,
    "summaryTerms": s.summary_terms,
    "shortContent": s.short_content,
    "entityType": s.entity_type,
    "multiplier": s.multiplier,
});
object!(Explain, |s| {
    "contributions": s.contributions,
    "fused": s.fused,
    "recencyMultiplier": s.recency_multiplier,
    "afterRecency": s.after_recency,
    "rerank": s.rerank,
    "rerankRecencyMultiplier": s.rerank_recency_multiplier,
    "afterRerank": s.after_rerank,
    "normalized": s.normalized,
    "calibrated": s.calibrated,
    "band": s.band,
    ?opt "bandProfile": s.band_profile,
});
object!(QueryConfidence, |s| {
    "weightedTop5": s.weighted_top5,
    "expectedPrecision": s.expected_precision,
    "atLeastOneRelevant": s.at_least_one_relevant,
    "k": s.k,
});
object!(MultiQueryResult, |s| {
    "id": s.id,
    "score": s.score,
    ?opt "queryScores": s.query_scores,
    ?opt "queryRanks": s.query_ranks,
    ?opt "appearedInQueryCount": s.appeared_in_query_count,
});
object!(MultiQueryStats, |s| {
    "queries": s.queries,
    "uniqueItems": s.unique_items,
    "itemsInMultipleQueries": s.items_in_multiple_queries,
    "meanQueriesPerItem": s.mean_queries_per_item,
    "belowThreshold": s.below_threshold,
    "beyondResultsPerQuery": s.beyond_results_per_query,
    "duplicates": s.duplicates,
});
object!(MultiQueryOutput, |s| { "results": s.results, "stats": s.stats });

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

/// `#[serde(tag = "method", rename_all = "snake_case")]`.
impl ToJson for RerankExplain {
    fn to_json(&self, w: &mut JsonWriter) {
        match self {
            RerankExplain::None => w.tag("method", "none"),
            RerankExplain::Heuristic { factors } => {
                w.tag("method", "heuristic");
                w.field("factors", factors);
            }
            RerankExplain::CrossEncoder { raw, normalized } => {
                w.tag("method", "cross_encoder");
                w.field("raw", raw);
                w.field("normalized", normalized);
            }
        }
        w.end_object();
    }
}

/// `#[serde(tag = "kind", rename_all = "lowercase")]`, `item` skipped when `None`.
impl ToJson for RetrievalOutcome {
    fn to_json(&self, w: &mut JsonWriter) {
        match self {
            RetrievalOutcome::Hit { item, score } | RetrievalOutcome::Degraded { item, score } => {
                let kind = if matches!(self, RetrievalOutcome::Hit { .. }) {
                    "hit"
                } else {
                    "degraded"
                };
                w.tag("kind", kind);
                w.field_opt("item", item);
                w.field("score", score);
            }
            RetrievalOutcome::Miss => w.tag("kind", "miss"),
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
        (method, heuristic(), of(any::<u32>()), float()).prop_map(
            |(method, heuristic, candidate_limit, recency_boost)| RerankConfig {
                method,
                heuristic,
                candidate_limit,
                recency_boost,
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

    fn factors() -> impl Strategy<Value = HeuristicFactors> {
        prop::array::uniform6(float()).prop_map(|f| HeuristicFactors {
            exact_name: f[0],
            name_terms: f[1],
            summary_terms: f[2],
            short_content: f[3],
            entity_type: f[4],
            multiplier: f[5],
        })
    }

    fn band() -> impl Strategy<Value = Band> {
        prop::sample::select(vec![Band::Miss, Band::Degraded, Band::Hit])
    }

    fn explain() -> impl Strategy<Value = Explain> {
        let contribution = (text(), any::<u32>(), float(), float(), of(float())).prop_map(
            |(list, rank, weight, contribution, list_score)| Contribution {
                list,
                rank,
                weight,
                contribution,
                list_score,
            },
        );
        let rerank = prop_oneof![
            Just(RerankExplain::None),
            factors().prop_map(|factors| RerankExplain::Heuristic { factors }),
            (float(), float())
                .prop_map(|(raw, normalized)| RerankExplain::CrossEncoder { raw, normalized }),
        ];
        (
            vec(contribution, 0..4),
            prop::array::uniform7(float()),
            rerank,
            band(),
            of(text()),
        )
            .prop_map(|(contributions, f, rerank, band, band_profile)| Explain {
                contributions,
                fused: f[0],
                recency_multiplier: f[1],
                after_recency: f[2],
                rerank,
                rerank_recency_multiplier: f[3],
                after_rerank: f[4],
                normalized: f[5],
                calibrated: f[6],
                band,
                band_profile,
            })
    }

    fn outcome() -> impl Strategy<Value = RetrievalOutcome> {
        prop_oneof![
            (of(text()), float()).prop_map(|(item, score)| RetrievalOutcome::Hit { item, score }),
            (of(text()), float())
                .prop_map(|(item, score)| RetrievalOutcome::Degraded { item, score }),
            Just(RetrievalOutcome::Miss),
        ]
    }

    fn query_confidence() -> impl Strategy<Value = QueryConfidence> {
        (float(), float(), float(), any::<u32>()).prop_map(
            |(weighted_top5, expected_precision, at_least_one_relevant, k)| QueryConfidence {
                weighted_top5,
                expected_precision,
                at_least_one_relevant,
                k,
            },
        )
    }

    fn multi_query() -> impl Strategy<Value = MultiQueryOutput> {
        let result = (
            text(),
            float(),
            of(btree_map(text(), float(), 0..3)),
            of(btree_map(text(), any::<u32>(), 0..3)),
            of(any::<u32>()),
        )
            .prop_map(
                |(id, score, query_scores, query_ranks, appeared_in_query_count)| {
                    MultiQueryResult {
                        id,
                        score,
                        query_scores,
                        query_ranks,
                        appeared_in_query_count,
                    }
                },
            );
        let stats =
            (prop::array::uniform6(any::<u32>()), float()).prop_map(|(n, mean)| MultiQueryStats {
                queries: n[0],
                unique_items: n[1],
                items_in_multiple_queries: n[2],
                mean_queries_per_item: mean,
                below_threshold: n[3],
                beyond_results_per_query: n[4],
                duplicates: n[5],
            });
        (vec(result, 0..4), stats).prop_map(|(results, stats)| MultiQueryOutput { results, stats })
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

        #[test]
        fn explanations_as_serde_json(e in vec(of(explain()), 0..4)) {
            // As pipeline::run writes them: references to each result's `explain`.
            let refs: Vec<&Option<Explain>> = e.iter().collect();
            same(&refs)?;
        }

        #[test]
        fn outcome_as_serde_json(o in outcome(), c in query_confidence()) {
            same(&o)?;
            same(&c)?;
        }

        #[test]
        fn multi_query_output_as_serde_json(m in multi_query()) {
            same(&m)?;
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
