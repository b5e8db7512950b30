//! The checks behind every fuzz target, shared by the cargo-fuzz targets (`fuzz/`, nightly)
//! and by the stable regression test `tests/fuzz_regression.rs`, which replays the saved
//! corpus (`fuzz/corpus/<target>/`) and the crash reproducers (`fuzz/regressions/<target>/`)
//! through the same functions.
//!
//! Each target decodes its bytes itself ([`Bytes`]: no `arbitrary`, so that the stable test
//! needs no extra dependency), biased towards the values that break numeric code: NaN, the
//! infinities, -0.0, subnormals, `f64::MAX`, huge counts (`u32::MAX`, `usize::MAX`) and
//! over-long ids and texts. Every call must either succeed and satisfy the documented
//! invariants of its output, or fail with a [`ScoreError`] whose code is one the function
//! documents (never `INTERNAL`) and whose message is not empty. A panic is a failure.

use calibrank::bands::{select_floors, Band, BandContext, BandFloors, BandProfile};
use calibrank::calibrate::{calibrate, IsotonicModel, PlattModel, Sigmoid};
use calibrank::confidence::{query_confidence, ConfidenceOptions};
use calibrank::error::{from_json, ErrorCode, ScoreError};
use calibrank::fuse::{rrf, rrf_indexed, RankedList};
use calibrank::lab::eval::{
    evaluate, evaluate_ordered, parse_qrels, parse_trec_run, parse_trec_run_ordered,
    qrels_from_json, run_from_json, run_from_json_ordered, run_to_trec, Metric, MetricKind,
    OrderedRun,
};
use calibrank::lab::fit::{
    calibration_error, fit_isotonic, fit_platt, propose_bands, BinStrategy,
    CalibrationErrorOptions, FittedCalibration, ProposeBandsOptions,
};
use calibrank::lab::optimize::{optimize_fusion, OptimizeOptions};
use calibrank::lab::runfusion::{fuse_runs, ranked, FuseRunsOptions, METHODS, NORMS};
use calibrank::lab::runs::{Qrels, Run};
use calibrank::limits::Limits;
use calibrank::multiquery::{fuse_multi_query, MultiQueryMethod, MultiQueryOptions, QueryHit};
use calibrank::normalize::{normalize, NormalizeMethod};
use calibrank::pipeline::{
    split_offsets, Calibration, ColumnarInput, InputList, ItemMeta, Pipeline, PipelineConfig,
    PipelineInput, PipelineOutput, RecencyMode, RerankMethod,
};
use calibrank::recency::{FiscalYearTier, RecencyStep};
use calibrank::rerank::{cross_encoder_scores, rerank_heuristic, Candidate, HeuristicConfig};
use calibrank::timestamp::{parse_iso8601, Timestamp};
use std::collections::{BTreeMap, BTreeSet};

/// One target's check.
pub type Check = fn(&[u8]);

/// Every target: its name (the directory of its corpus) and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("config_json", config_json),
    ("pipeline", pipeline),
    ("columnar", columnar),
    ("rrf", rrf_strings),
    ("rrf_indexed", rrf_indices),
    ("multiquery", multiquery),
    ("runfusion", runfusion),
    ("optimize", optimize),
    ("eval_parse", eval_parse),
    ("evaluate", evaluate_metrics),
    ("fit", fit),
    ("stages", stages),
];

// ------------------------------------------------------------------ decoding bytes

/// A reader of fuzzer bytes. Past the end every read returns zeros, and zero always
/// decodes to the most ordinary choice (`false`, length 0, the default, 0.0), so short
/// inputs are ordinary inputs.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }

    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos = self.pos.saturating_add(1);
        b
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | (u64::from(self.u32()) << 32)
    }

    fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// A number below `n` (`n` <= 256).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::from(self.byte()) % n
        }
    }

    fn pick<T: Clone>(&mut self, options: &[T]) -> T {
        let i = self.below(options.len());
        options[i].clone()
    }

    /// A float in [0, 1].
    fn unit(&mut self) -> f64 {
        f64::from(self.u16()) / 65535.0
    }

    /// Any float, biased towards the ones that break numeric code.
    fn f64(&mut self) -> f64 {
        match self.byte() % 32 {
            0..=11 => self.unit(),
            12 => f64::NAN,
            13 => f64::INFINITY,
            14 => f64::NEG_INFINITY,
            15 => -0.0,
            16 => f64::from_bits(1),
            17 => f64::from_bits(self.u64() & 0x000f_ffff_ffff_ffff),
            18 => f64::MIN_POSITIVE,
            19 => f64::MAX,
            20 => f64::MIN,
            21 => f64::EPSILON,
            22 => f64::from_bits(self.u64()),
            23 => -self.unit(),
            24 => f64::from(self.byte() as i8),
            25 => f64::from(self.u32()),
            26 => 1e300 * self.unit(),
            27 => 1e-300 * self.unit(),
            28 => 1.0 + f64::EPSILON * f64::from(self.byte()),
            29 => -f64::from(self.u32()) * 1e3,
            30 => f64::from(self.u16()) / 1000.0,
            _ => 1.0,
        }
    }

    /// `typical` most of the time, any float otherwise.
    fn f64_or(&mut self, typical: f64) -> f64 {
        if self.bool() {
            self.f64()
        } else {
            typical
        }
    }

    /// A count, biased towards the boundaries and the huge.
    fn count_u32(&mut self) -> u32 {
        match self.byte() % 16 {
            0..=9 => u32::from(self.byte() % 12),
            10 => 0,
            11 => u32::MAX,
            12 => u32::MAX - 1,
            13 => 1 << 31,
            14 => u32::from(self.u16()),
            _ => self.u32(),
        }
    }

    fn count_usize(&mut self) -> usize {
        match self.byte() % 16 {
            0..=9 => usize::from(self.byte() % 12),
            10 => 0,
            11 => usize::MAX,
            12 => usize::MAX / 2 + 1,
            13 => u32::MAX as usize + 1,
            14 => usize::from(self.u16()),
            _ => self.u64() as usize,
        }
    }

    /// Up to `max` raw bytes as (lossy) UTF-8.
    fn raw_text(&mut self, max: usize) -> String {
        let n = self.below(max.min(255) + 1);
        let bytes: Vec<u8> = (0..n).map(|_| self.byte()).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// An id: mostly from a small alphabet (so lists overlap), sometimes odd or over-long.
    fn id(&mut self) -> String {
        match self.byte() % 16 {
            0..=10 => format!("d{}", self.byte() % 12),
            11 => self.raw_text(12),
            12 => "x".repeat(1025 + usize::from(self.byte())),
            13 => self
                .pick(&["", " ", "\0", "İ", "ß", "日本", "a b", "\u{202e}rtl", "💥"])
                .to_string(),
            14 => format!("d{}", self.u32()),
            _ => format!("D{}", self.byte() % 4),
        }
    }

    /// A word of text for names, summaries and queries.
    fn word(&mut self) -> String {
        match self.byte() % 8 {
            0..=5 => self
                .pick(&[
                    "auth",
                    "Authentication",
                    "configure",
                    "the",
                    "API",
                    "oauthToken",
                    "XMLHttpRequest",
                    "a",
                    "",
                    " ",
                    "İstanbul",
                    "straße",
                    "日本語",
                    "getUserId",
                    "HTTPServer2Go",
                    "ǅ",
                    "ΣΑΣ",
                ])
                .to_string(),
            6 => self.raw_text(24),
            _ => "word ".repeat(usize::from(self.byte())),
        }
    }

    fn text(&mut self) -> String {
        let n = self.below(5);
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }

    fn timestamp(&mut self) -> Timestamp {
        match self.byte() % 8 {
            0..=2 => Timestamp::Millis(1.7e12 + f64::from(self.u32()) * 1000.0),
            3 => Timestamp::Millis(self.f64()),
            4 | 5 => Timestamp::Iso(
                self.pick(&[
                    "2026-11-18T09:00:00Z",
                    "2024-02-29",
                    "2023-02-29",
                    "2026-01-01T00:00:00.123+14:00",
                    "0000-01-01",
                    "9999-12-31T23:59:59.999-23:59",
                    "2026-13-01",
                    "2026-1-1",
                    "2026-11-18 09:00",
                    "2026-11-18T24:00:00Z",
                    "2026-11-18T09:00:00.1234567890123456789Z",
                    "",
                ])
                .to_string(),
            ),
            _ => Timestamp::Iso(self.raw_text(40)),
        }
    }

    fn rest(&mut self) -> &'a [u8] {
        let start = self.pos.min(self.data.len());
        self.pos = self.data.len();
        &self.data[start..]
    }
}

// ------------------------------------------------------------------ shared assertions

/// A failure must carry one of `allowed` codes (never `INTERNAL`) and a message.
fn check_error(e: &ScoreError, allowed: &[ErrorCode], what: &str) {
    assert!(
        ErrorCode::ALL.contains(&e.code),
        "{what}: unknown code {:?}",
        e.code
    );
    assert_ne!(e.code, ErrorCode::Internal, "{what}: internal error {e}");
    assert!(
        allowed.contains(&e.code),
        "{what}: undocumented code {} ({e})",
        e.code
    );
    assert!(
        !e.message.is_empty(),
        "{what}: empty message for {}",
        e.code
    );
    assert!(!e.code.as_str().is_empty());
}

fn in_unit(x: f64) -> bool {
    (0.0..=1.0).contains(&x)
}

/// Confidence weights summing above 1 are refused: half the time, weights whose sum is a
/// positive number are scaled to sum to 1 (within rounding: the slack that holds
/// `weightedTop5` to 1), so that generated configurations run.
fn scale_to_one(weights: &mut [f64; 5], b: &mut Bytes<'_>) {
    let sum: f64 = weights.iter().sum();
    if sum > 1.0
        && sum.is_finite()
        && weights.iter().all(|w| w.is_finite() && *w >= 0.0)
        && b.bool()
    {
        for w in weights.iter_mut() {
            *w /= sum;
        }
    }
}

/// `a <= b`, bit for bit: calibration is monotone exactly (the logistic has one form,
/// `1 / (1 + exp(-x))`; its earlier two-branch form stepped back by an ulp between
/// neighbouring inputs, found by fuzzing `fit`, reproducer `platt_monotone_within_ulps`).
fn monotone_le(a: f64, b: f64) -> bool {
    a <= b
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1e-300)
}

const CONFIG_CODES: &[ErrorCode] = &[
    ErrorCode::InvalidK,
    ErrorCode::InvalidWeight,
    ErrorCode::InvalidTopK,
    ErrorCode::InvalidTopN,
    ErrorCode::InvalidConfig,
    ErrorCode::InvalidCalibration,
    ErrorCode::InvalidBands,
    ErrorCode::NonFiniteScore,
    ErrorCode::EmptyInput,
    ErrorCode::LengthMismatch,
];

const RUN_CODES: &[ErrorCode] = &[
    ErrorCode::InputTooLarge,
    ErrorCode::DuplicateId,
    ErrorCode::InvalidWeight,
    ErrorCode::LengthMismatch,
    ErrorCode::NonFiniteScore,
    ErrorCode::InvalidTimestamp,
    ErrorCode::EmptyQuery,
    ErrorCode::EmptyInput,
];

const COLUMNAR_CODES: &[ErrorCode] = &[
    ErrorCode::InputTooLarge,
    ErrorCode::InvalidConfig,
    ErrorCode::InvalidWeight,
    ErrorCode::LengthMismatch,
    ErrorCode::IndexOutOfRange,
    ErrorCode::InvalidTimestamp,
    ErrorCode::NonFiniteScore,
];

const JSON_CODES: &[ErrorCode] = &[
    ErrorCode::ParseError,
    ErrorCode::UnknownField,
    ErrorCode::InvalidConfig,
    ErrorCode::UnknownMethod,
    ErrorCode::InvalidType,
];

// ------------------------------------------------------------------ config and input generators

fn gen_limits(b: &mut Bytes<'_>) -> Limits {
    let mut l = Limits::default();
    if b.bool() {
        let small = |b: &mut Bytes<'_>, default: u32| match b.byte() % 4 {
            0 => default,
            1 => u32::from(b.byte() % 8),
            2 => u32::MAX,
            _ => u32::from(b.u16()),
        };
        l.max_lists = small(b, l.max_lists);
        l.max_list_length = small(b, l.max_list_length);
        l.max_total_entries = small(b, l.max_total_entries);
        l.max_id_bytes = small(b, l.max_id_bytes);
        l.max_text_bytes = small(b, l.max_text_bytes);
    }
    l
}

fn gen_heuristic(b: &mut Bytes<'_>) -> HeuristicConfig {
    let mut h = HeuristicConfig::default();
    if b.bool() {
        h.exact_name_multiplier = b.f64_or(h.exact_name_multiplier);
        h.name_term_weight = b.f64_or(h.name_term_weight);
        h.summary_term_weight = b.f64_or(h.summary_term_weight);
        h.short_content_chars = if b.bool() {
            b.count_u32()
        } else {
            h.short_content_chars
        };
        h.short_content_multiplier = b.f64_or(h.short_content_multiplier);
        h.unknown_type_multiplier = b.f64_or(h.unknown_type_multiplier);
        for _ in 0..b.below(3) {
            h.type_multipliers.insert(b.word(), b.f64());
        }
        if b.bool() {
            h.stopwords = Some((0..b.below(4)).map(|_| b.word()).collect());
        }
    }
    h
}

fn gen_fitted(b: &mut Bytes<'_>) -> FittedCalibration {
    if b.bool() {
        FittedCalibration::Platt(PlattModel {
            a: b.f64_or(-20.0),
            b: b.f64_or(1.0),
        })
    } else {
        let n = b.below(6);
        let mut x: Vec<f64> = (0..n).map(|_| b.f64()).collect();
        let mut y: Vec<f64> = (0..n + usize::from(b.byte() % 8 == 7))
            .map(|_| b.f64())
            .collect();
        if b.bool() {
            x.sort_by(f64::total_cmp);
            x.dedup();
            y.truncate(x.len());
            y.sort_by(f64::total_cmp);
        }
        FittedCalibration::Isotonic(IsotonicModel { x, y })
    }
}

/// A fitted model as a pipeline calibration.
fn as_calibration(model: FittedCalibration) -> Calibration {
    match model {
        FittedCalibration::Platt(m) => Calibration::Platt(m),
        FittedCalibration::Isotonic(m) => Calibration::Isotonic(m),
    }
}

fn gen_config(b: &mut Bytes<'_>) -> PipelineConfig {
    let mut c = PipelineConfig::default();
    if b.bool() {
        c.k = b.pick(&[60.0, 1.0, 0.5, 0.0, 1e308, f64::NAN]);
        if b.bool() {
            c.k = b.f64();
        }
    }
    for _ in 0..b.below(3) {
        c.weights.insert(
            b.pick(&["a", "b", "c", "semantic"]).to_string(),
            b.f64_or(2.0),
        );
    }
    if b.bool() {
        c.top_k = b.count_u32();
        c.top_n = b.count_u32();
    }
    if b.bool() {
        c.recency.mode = b.pick(&[
            RecencyMode::Step,
            RecencyMode::None,
            RecencyMode::FiscalYear,
        ]);
        if b.bool() {
            c.recency.steps = (0..b.below(4))
                .map(|_| RecencyStep {
                    max_age_days: b.f64_or(7.0),
                    multiplier: b.f64_or(1.5),
                })
                .collect();
        }
        if b.bool() {
            c.recency.fiscal_year = FiscalYearTier {
                window: b.count_u32(),
                latest_year: b.u32() as i32,
            };
        }
        c.recency.boost = b.f64_or(c.recency.boost);
    }
    if b.bool() {
        c.rerank.method = b.pick(&[
            RerankMethod::Heuristic,
            RerankMethod::CrossEncoder,
            RerankMethod::None,
        ]);
        c.rerank.heuristic = gen_heuristic(b);
        c.rerank.candidate_limit = if b.bool() { Some(b.count_u32()) } else { None };
        c.rerank.recency_boost = b.f64_or(c.rerank.recency_boost);
    }
    if b.bool() {
        c.normalization.method = b.pick(&[
            NormalizeMethod::MinMax,
            NormalizeMethod::Max,
            NormalizeMethod::ZScore,
            NormalizeMethod::Softmax,
            NormalizeMethod::None,
        ]);
        c.normalization.temperature = b.f64_or(1.0);
        c.normalization.min_relevance = b.f64_or(0.1);
    }
    if b.bool() {
        c.calibration = match b.byte() % 3 {
            0 => Calibration::Sigmoid {
                threshold: b.f64_or(0.02),
                steepness: b.f64_or(150.0),
            },
            _ => as_calibration(gen_fitted(b)),
        };
    }
    if b.bool() {
        c.min_confidence = b.pick(&[0.0, 0.5, 1.0]);
        if b.bool() {
            c.min_confidence = b.f64();
        }
    }
    if b.bool() {
        c.bands.high_floor = b.f64_or(0.85);
        c.bands.degraded_floor = b.f64_or(0.65);
        for _ in 0..b.below(4) {
            c.bands.profiles.push(BandProfile {
                name: b.pick(&["p", "q", "", "r"]).to_string(),
                task_class: if b.bool() {
                    Some(b.pick(&["fix", "doc"]).to_string())
                } else {
                    None
                },
                language: if b.bool() {
                    Some(b.pick(&["rust", "go"]).to_string())
                } else {
                    None
                },
                build_system: if b.bool() {
                    Some(b.pick(&["cargo", "make"]).to_string())
                } else {
                    None
                },
                high_floor: b.f64_or(0.9),
                degraded_floor: b.f64_or(0.5),
            });
        }
    }
    if b.bool() {
        for w in c.confidence.weights.iter_mut() {
            *w = b.f64_or(*w);
        }
        scale_to_one(&mut c.confidence.weights, b);
        c.confidence.k = if b.bool() { Some(b.count_u32()) } else { None };
    }
    c.limits = gen_limits(b);
    c.explain = !b.bool();
    c
}

fn gen_input(b: &mut Bytes<'_>) -> PipelineInput {
    let mut input = PipelineInput {
        query: b.text(),
        ..Default::default()
    };
    let n_lists = match b.byte() % 16 {
        15 => 65,
        n => usize::from(n % 5),
    };
    for i in 0..n_lists {
        let name = if b.byte() % 8 == 7 {
            b.word()
        } else {
            ["a", "b", "c", "d", "e"]
                .get(i % 5)
                .copied()
                .unwrap_or("f")
                .to_string()
        };
        let n = b.below(16);
        let ids: Vec<String> = (0..n).map(|_| b.id()).collect();
        let scores = match b.byte() % 4 {
            0 | 1 => None,
            2 => Some((0..ids.len()).map(|_| b.f64()).collect()),
            _ => Some((0..b.below(8)).map(|_| b.f64()).collect()),
        };
        let weight = if b.bool() { Some(b.f64_or(0.5)) } else { None };
        input.lists.push(InputList {
            name: if i >= 5 { format!("l{i}") } else { name },
            ids,
            scores,
            weight,
        });
    }
    let all_ids: Vec<String> = input
        .lists
        .iter()
        .flat_map(|l| l.ids.iter().cloned())
        .collect();
    for _ in 0..b.below(6) {
        let id = if all_ids.is_empty() || b.byte() % 4 == 3 {
            b.id()
        } else {
            b.pick(&all_ids)
        };
        let meta = ItemMeta {
            name: if b.bool() { Some(b.text()) } else { None },
            entity_type: if b.bool() {
                Some(b.pick(&["class", "File", "module", "x"]).to_string())
            } else {
                None
            },
            summary: if b.bool() { Some(b.text()) } else { None },
            content: if b.bool() { Some(b.text()) } else { None },
            modified_at: if b.bool() { Some(b.timestamp()) } else { None },
            fiscal_year: if b.bool() {
                Some(b.pick(&[2025, 2021, 2030, 1900, i32::MIN, i32::MAX]))
            } else {
                None
            },
            cross_encoder_score: if b.bool() { Some(b.f64_or(0.5)) } else { None },
        };
        input.items.insert(id, meta);
    }
    if b.bool() {
        input.now = Some(b.timestamp());
    }
    if b.bool() {
        input.context = Some(BandContext {
            task_class: if b.bool() { Some("fix".into()) } else { None },
            language: if b.bool() { Some("rust".into()) } else { None },
            build_system: if b.bool() { Some("cargo".into()) } else { None },
        });
    }
    input
}

// ------------------------------------------------------------------ pipeline

/// The pipeline's output contract (seed 000) and the consistency of its report.
fn check_output(cfg: &PipelineConfig, input: &PipelineInput, out: &PipelineOutput) {
    let n = out.results.len();
    assert!(
        cfg.top_n >= 1 && cfg.top_n <= cfg.top_k,
        "a pipeline was built with topN {} topK {}",
        cfg.top_n,
        cfg.top_k
    );
    assert!(
        n <= cfg.top_n as usize,
        "{n} results for topN {}",
        cfg.top_n
    );
    let listed: BTreeSet<&str> = input
        .lists
        .iter()
        .flat_map(|l| l.ids.iter().map(String::as_str))
        .collect();
    let ctx = input.context.clone().unwrap_or_default();
    let floors = BandFloors {
        high_floor: cfg.bands.high_floor,
        degraded_floor: cfg.bands.degraded_floor,
    };
    let (floors, profile) = select_floors(floors, &cfg.bands.profiles, &ctx);
    let mut seen = BTreeSet::new();
    for (i, r) in out.results.iter().enumerate() {
        assert!(
            r.score.is_finite() && in_unit(r.score),
            "score {} outside [0, 1]",
            r.score
        );
        assert!(
            r.score >= cfg.min_confidence,
            "score {} below minConfidence {}",
            r.score,
            cfg.min_confidence
        );
        if let Some(prev) = i.checked_sub(1).and_then(|p| out.results.get(p)) {
            assert!(
                prev.score >= r.score,
                "scores not descending: {} then {}",
                prev.score,
                r.score
            );
        }
        assert!(seen.insert(r.id.as_str()), "id {:?} returned twice", r.id);
        assert!(
            listed.contains(r.id.as_str()),
            "id {:?} is in no list",
            r.id
        );
        assert_eq!(r.band, floors.band(r.score), "band of {}", r.score);
        match (&r.explain, cfg.explain) {
            (Some(e), true) => {
                assert_eq!(e.calibrated.to_bits(), r.score.to_bits());
                assert_eq!(e.band, r.band);
                assert_eq!(e.band_profile.as_deref(), profile);
                assert!(
                    !e.contributions.is_empty(),
                    "a result with no contributing list"
                );
                let sum = e
                    .contributions
                    .iter()
                    .fold(0.0, |acc, c| acc + c.contribution);
                assert!(
                    close(sum, e.fused),
                    "fused {} != sum of contributions {sum}",
                    e.fused
                );
                for c in &e.contributions {
                    let list = input
                        .lists
                        .iter()
                        .find(|l| l.name == c.list)
                        .expect("a contribution names an input list");
                    let at = list
                        .ids
                        .get(c.rank as usize - 1)
                        .expect("the rank is within its list");
                    assert_eq!(
                        at, &r.id,
                        "rank {} of list {} is not {}",
                        c.rank, c.list, r.id
                    );
                }
                assert!(close(e.fused * e.recency_multiplier, e.after_recency));
            }
            (None, false) => {}
            (e, explain) => panic!("explain is {} with config.explain {explain}", e.is_some()),
        }
    }
    let s = &out.stats;
    assert_eq!(s.returned as usize, n);
    assert_eq!((s.hits + s.degraded + s.misses) as usize, n);
    assert_eq!(s.lists as usize, input.lists.len());
    assert_eq!(s.candidates as usize, listed.len());
    assert_eq!(
        s.beyond_top_k as usize,
        listed.len().saturating_sub(cfg.top_k as usize)
    );
    assert_eq!(s.band_profile.as_deref(), profile);
    assert_eq!(s.duplicates.len(), input.lists.len());
    let q = &out.confidence;
    assert!(
        in_unit(q.expected_precision),
        "expectedPrecision {}",
        q.expected_precision
    );
    assert!(
        in_unit(q.at_least_one_relevant),
        "atLeastOneRelevant {}",
        q.at_least_one_relevant
    );
    assert!(
        q.weighted_top5.is_finite() && q.weighted_top5 >= 0.0,
        "weightedTop5 {}",
        q.weighted_top5
    );
    // A configuration's weights sum to at most 1 (the pipeline refuses others).
    assert!(q.weighted_top5 <= 1.0, "weightedTop5 {}", q.weighted_top5);
    assert!(q.k as usize <= n);
}

/// Builds, runs twice (determinism) and checks; returns the output when there is one.
fn run_pipeline(config: PipelineConfig, input: &PipelineInput) -> Option<PipelineOutput> {
    let cfg = config.clone();
    let pipeline = match Pipeline::new(config) {
        Ok(p) => p,
        Err(e) => {
            check_error(&e, CONFIG_CODES, "Pipeline::new");
            return None;
        }
    };
    // A valid configuration survives a JSON round trip unchanged.
    let json = serde_json::to_string(&cfg).expect("a valid config serializes");
    let back: PipelineConfig =
        from_json(&json, "config").unwrap_or_else(|e| panic!("{json} does not parse back: {e}"));
    assert_eq!(back, cfg, "JSON round trip of {json}");
    match pipeline.run(input) {
        Ok(out) => {
            check_output(&cfg, input, &out);
            assert_eq!(pipeline.run(input).as_ref(), Ok(&out), "two runs differ");
            Some(out)
        }
        Err(e) => {
            check_error(&e, RUN_CODES, "Pipeline::run");
            None
        }
    }
}

/// `Pipeline::new` + `run` on a generated configuration and input.
pub fn pipeline(data: &[u8]) {
    let mut b = Bytes::new(data);
    let config = gen_config(&mut b);
    let input = gen_input(&mut b);
    run_pipeline(config, &input);
}

/// JSON text parsed as a configuration (or another option type, chosen by the first
/// byte); a configuration that validates is run on a fixed input.
pub fn config_json(data: &[u8]) {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(text);
    fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
        match from_json::<T>(text, "options") {
            Ok(v) => Some(v),
            Err(e) => {
                check_error(&e, JSON_CODES, "from_json");
                None
            }
        }
    }
    match selector % 8 {
        0..=2 => {
            if let Some(config) = parse::<PipelineConfig>(&text) {
                let input = PipelineInput {
                    query: "configure authentication".into(),
                    lists: vec![
                        InputList {
                            name: "a".into(),
                            ids: vec!["x".into(), "y".into(), "z".into()],
                            scores: None,
                            weight: None,
                        },
                        InputList {
                            name: "b".into(),
                            ids: vec!["y".into(), "w".into()],
                            scores: Some(vec![0.9, 0.1]),
                            weight: Some(2.0),
                        },
                    ],
                    items: BTreeMap::from([(
                        "y".to_string(),
                        ItemMeta {
                            name: Some("Authentication".into()),
                            cross_encoder_score: Some(1.5),
                            fiscal_year: Some(2024),
                            ..Default::default()
                        },
                    )]),
                    now: None,
                    context: None,
                    ..Default::default()
                };
                let mut input2 = input.clone();
                if let Some(item) = input2.items.get_mut("y") {
                    item.cross_encoder_score = None;
                }
                run_pipeline(config.clone(), &input);
                run_pipeline(config, &input2);
            }
        }
        3 => {
            if let Some(input) = parse::<PipelineInput>(&text) {
                run_pipeline(PipelineConfig::default(), &input);
                let mut permissive = PipelineConfig {
                    min_confidence: 0.0,
                    ..Default::default()
                };
                permissive.recency.mode = RecencyMode::FiscalYear;
                run_pipeline(permissive, &input);
            }
        }
        4 => {
            if let Some(opts) = parse::<MultiQueryOptions>(&text) {
                let _ = opts.validate();
            }
            if let Some(opts) = parse::<FuseRunsOptions>(&text) {
                let runs = vec![Run::from([(
                    "q".to_string(),
                    BTreeMap::from([("d".to_string(), 1.0)]),
                )])];
                if let Err(e) = fuse_runs(&runs, &opts) {
                    check_error(&e, FUSE_RUNS_CODES, "fuse_runs");
                }
            }
        }
        5 => {
            if let Some(model) = parse::<FittedCalibration>(&text) {
                if model.validate().is_ok() {
                    for x in [f64::MIN, -1.0, 0.0, 0.5, 1.0, f64::MAX] {
                        let p = model.predict(x);
                        assert!(in_unit(p), "a valid fitted model predicts {p} at {x}");
                    }
                }
            }
        }
        6 => {
            if let Some(opts) = parse::<HeuristicConfig>(&text) {
                let _ = opts.validate();
            }
            let _ = parse::<ProposeBandsOptions>(&text);
            let _ = parse::<CalibrationErrorOptions>(&text);
        }
        _ => {
            if let Some(s) = parse::<Sigmoid>(&text) {
                let _ = s.validate();
            }
            let _ = parse::<BandFloors>(&text);
            let _ = parse::<ConfidenceOptions>(&text);
            let _ = parse::<Limits>(&text);
        }
    }
}

/// `Pipeline::run_columnar`, and its agreement with `Pipeline::run` on the same lists
/// (ids are zero-padded indices, so both tie-break orders agree).
pub fn columnar(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mut cfg = gen_config(&mut b);
    if b.bool() {
        cfg.rerank.method = RerankMethod::None;
        if cfg.recency.mode == RecencyMode::FiscalYear {
            cfg.recency.mode = RecencyMode::Step;
        }
    }
    let n_docs: usize = match b.byte() % 32 {
        0..=27 => usize::from(b.byte() % 24),
        28 => Limits::default().max_total_entries as usize + 1,
        29 => u32::MAX as usize,
        30 => usize::from(b.u16()),
        _ => 0,
    };
    if n_docs > 5_000_000 {
        // A huge nDocs under raised limits would allocate gigabytes natively (libFuzzer's
        // malloc limit); in wasm the allocation fails cleanly (INPUT_TOO_LARGE).
        cfg.limits.max_total_entries = cfg
            .limits
            .max_total_entries
            .min(Limits::default().max_total_entries);
    }
    let n_lists = b.below(5);
    let mut docs: Vec<u32> = Vec::new();
    let mut offsets: Vec<u32> = vec![0];
    for _ in 0..n_lists {
        for _ in 0..b.below(12) {
            let bound = u32::try_from(n_docs.min(30)).unwrap_or(30) + 2;
            docs.push(if b.byte() % 32 == 31 {
                b.u32()
            } else {
                u32::from(b.byte()) % bound
            });
        }
        offsets.push(u32::try_from(docs.len()).unwrap_or(u32::MAX));
    }
    match b.byte() % 16 {
        15 => offsets.reverse(),
        14 => offsets.clear(),
        13 => offsets.push(0),
        12 => {
            if let Some(last) = offsets.last_mut() {
                *last = last.saturating_add(1);
            }
        }
        _ => {}
    }
    let weights: Option<Vec<f64>> = if b.bool() {
        Some((0..n_lists + b.below(2)).map(|_| b.f64_or(1.0)).collect())
    } else {
        None
    };
    let modified: Option<Vec<f64>> = if b.bool() {
        let len = if b.byte() % 8 == 7 {
            b.below(4)
        } else {
            n_docs.min(64)
        };
        Some(
            (0..len)
                .map(|_| {
                    if b.bool() {
                        f64::NAN
                    } else {
                        1.7e12 - f64::from(b.byte()) * 86_400_000.0 / 4.0
                    }
                })
                .collect(),
        )
    } else {
        None
    };
    let now = if b.bool() {
        Some(b.f64_or(1.7e12))
    } else {
        None
    };
    let pipeline = match Pipeline::new(cfg.clone()) {
        Ok(p) => p,
        Err(e) => return check_error(&e, CONFIG_CODES, "Pipeline::new"),
    };
    let lists = match split_offsets(&docs, &offsets) {
        Ok(l) => l,
        Err(e) => {
            return check_error(
                &e,
                &[ErrorCode::InvalidConfig, ErrorCode::LengthMismatch],
                "split_offsets",
            )
        }
    };
    let input = ColumnarInput {
        lists: &lists,
        weights: weights.as_deref(),
        n_docs,
        modified_ms: modified.as_deref(),
        now_ms: now,
        ..Default::default()
    };
    let out = match pipeline.run_columnar(&input) {
        Ok(out) => out,
        Err(e) => return check_error(&e, COLUMNAR_CODES, "run_columnar"),
    };
    let n = out.order.len();
    assert!(n <= cfg.top_n as usize);
    assert_eq!(out.scores.len(), n);
    assert_eq!(out.bands.len(), n);
    let (floors, _) = select_floors(
        BandFloors {
            high_floor: cfg.bands.high_floor,
            degraded_floor: cfg.bands.degraded_floor,
        },
        &cfg.bands.profiles,
        &BandContext::default(),
    );
    let present: BTreeSet<u32> = lists.iter().flat_map(|l| l.iter().copied()).collect();
    assert_eq!(out.candidates as usize, present.len());
    let mut seen = BTreeSet::new();
    for (i, (&d, &s)) in out.order.iter().zip(&out.scores).enumerate() {
        assert!(
            (d as usize) < n_docs && present.contains(&d),
            "document {d}"
        );
        assert!(seen.insert(d), "document {d} twice");
        assert!(
            s.is_finite() && in_unit(s) && s >= cfg.min_confidence,
            "score {s}"
        );
        if i > 0 {
            assert!(out.scores[i - 1] >= s, "scores not descending");
        }
        assert_eq!(out.bands[i], floors.band(s));
    }
    assert!(
        in_unit(out.confidence.expected_precision) && in_unit(out.confidence.at_least_one_relevant)
    );

    // The string path on the same lists gives the same ranking, bit for bit.
    if n_docs > 1 << 16 {
        return;
    }
    let id = |d: u32| format!("{d:010}");
    let string_input = PipelineInput {
        lists: lists
            .iter()
            .enumerate()
            .map(|(i, l)| InputList {
                name: format!("l{i}"),
                ids: l.iter().map(|&d| id(d)).collect(),
                scores: None,
                weight: Some(
                    weights
                        .as_ref()
                        .and_then(|w| w.get(i).copied())
                        .unwrap_or(1.0),
                ),
            })
            .collect(),
        items: match (&modified, cfg.recency.mode) {
            (Some(m), RecencyMode::Step) => (0u32..)
                .zip(m)
                .filter(|(d, t)| t.is_finite() && present.contains(d))
                .map(|(d, &t)| {
                    (
                        id(d),
                        ItemMeta {
                            modified_at: Some(Timestamp::Millis(t)),
                            ..Default::default()
                        },
                    )
                })
                .collect(),
            _ => BTreeMap::new(),
        },
        now: now.map(Timestamp::Millis),
        ..Default::default()
    };
    if let Ok(reference) = pipeline.run(&string_input) {
        let ids: Vec<String> = out.order.iter().map(|&d| id(d)).collect();
        let ref_ids: Vec<&String> = reference.results.iter().map(|r| &r.id).collect();
        assert_eq!(
            ids.iter().collect::<Vec<_>>(),
            ref_ids,
            "columnar and string rankings differ"
        );
        for (s, r) in out.scores.iter().zip(&reference.results) {
            assert_eq!(
                s.to_bits(),
                r.score.to_bits(),
                "columnar and string scores differ"
            );
        }
    }
}

// ------------------------------------------------------------------ fusion

/// Each id's weighted-RRF sum, recomputed directly (an id counted once per list, at its
/// first rank there).
fn direct_rrf(lists: &[(Vec<String>, f64)], k: f64) -> BTreeMap<&str, f64> {
    let mut sums = BTreeMap::new();
    for (ids, w) in lists {
        let mut here = BTreeSet::new();
        for (pos, id) in ids.iter().enumerate() {
            if here.insert(id.as_str()) {
                let rank = u32::try_from(pos + 1).expect("short list");
                *sums.entry(id.as_str()).or_insert(0.0) += w / (k + f64::from(rank));
            }
        }
    }
    sums
}

/// Each document index's weighted-RRF sum and its number of lists, recomputed directly
/// (the caller accepted every index: one out of range fails here).
fn direct_rrf_indexed(
    lists: &[Vec<u32>],
    weights: &[f64],
    k: f64,
    n_docs: usize,
) -> (Vec<f64>, Vec<u32>) {
    let mut sums = vec![0.0f64; n_docs];
    let mut count = vec![0u32; n_docs];
    for (list, w) in lists.iter().zip(weights) {
        let mut here = BTreeSet::new();
        for (pos, &d) in list.iter().enumerate() {
            assert!((d as usize) < n_docs, "an out-of-range index was accepted");
            if here.insert(d) {
                sums[d as usize] += w / (k + (pos + 1) as f64);
                count[d as usize] += 1;
            }
        }
    }
    (sums, count)
}

/// `fuse::rrf` against a direct recomputation of every score.
pub fn rrf_strings(data: &[u8]) {
    let mut b = Bytes::new(data);
    let k = if b.bool() { b.f64() } else { 60.0 };
    let n_lists = b.below(6);
    let lists: Vec<(Vec<String>, f64)> = (0..n_lists)
        .map(|_| ((0..b.below(24)).map(|_| b.id()).collect(), b.f64_or(1.0)))
        .collect();
    let ranked: Vec<RankedList<'_, String>> = lists
        .iter()
        .map(|(ids, w)| RankedList { ids, weight: *w })
        .collect();
    let fusion = match rrf(&ranked, k) {
        Ok(f) => f,
        Err(e) => {
            check_error(
                &e,
                &[
                    ErrorCode::InvalidK,
                    ErrorCode::InvalidWeight,
                    ErrorCode::NonFiniteScore,
                ],
                "rrf",
            );
            let bad_k = !(k.is_finite() && k >= 1.0);
            let bad_w = lists.iter().any(|(_, w)| !(w.is_finite() && *w >= 0.0));
            if e.code == ErrorCode::NonFiniteScore {
                // Only a sum that overflows, of valid weights.
                assert!(
                    !bad_k && !bad_w,
                    "rrf: overflow before a bad k or weight: {e}"
                );
                assert_eq!(e.field, "lists");
                assert!(
                    direct_rrf(&lists, k).values().any(|s| !s.is_finite()),
                    "rrf: NON_FINITE_SCORE without an overflow"
                );
                return;
            }
            assert!(bad_k || bad_w, "rrf refused valid input: {e}");
            return;
        }
    };
    let expected = direct_rrf(&lists, k);
    assert_eq!(fusion.items.len(), expected.len());
    assert_eq!(fusion.stats.unique, expected.len());
    for (i, item) in fusion.items.iter().enumerate() {
        let want = expected
            .get(item.id.as_str())
            .expect("a fused id is an input id");
        assert_eq!(
            item.score.to_bits(),
            want.to_bits(),
            "score of {:?}",
            item.id
        );
        assert!(
            item.score.is_finite(),
            "an overflow must be NON_FINITE_SCORE"
        );
        assert_eq!(item.ranks.len(), lists.len());
        if i > 0 {
            let prev = &fusion.items[i - 1];
            assert!(
                prev.score > item.score || (prev.score == item.score && prev.id < item.id),
                "order: {:?} {} before {:?} {}",
                prev.id,
                prev.score,
                item.id,
                item.score
            );
        }
    }
}

/// `fuse::rrf_indexed` on raw indices (out of range ones included).
pub fn rrf_indices(data: &[u8]) {
    let mut b = Bytes::new(data);
    let k = if b.bool() { b.f64() } else { 60.0 };
    let n_docs = if b.byte() % 16 == 15 {
        usize::from(b.u16())
    } else {
        usize::from(b.byte() % 40)
    };
    let lists: Vec<Vec<u32>> = (0..b.below(6))
        .map(|_| {
            (0..b.below(32))
                .map(|_| {
                    if b.byte() % 32 == 31 {
                        b.u32()
                    } else {
                        u32::from(b.byte() % 42)
                    }
                })
                .collect()
        })
        .collect();
    let weights: Vec<f64> = (0..lists.len() + usize::from(b.byte() % 16 == 15))
        .map(|_| b.f64_or(1.0))
        .collect();
    let slices: Vec<&[u32]> = lists.iter().map(Vec::as_slice).collect();
    let f = match rrf_indexed(&slices, &weights, "weights", k, n_docs) {
        Ok(f) => f,
        Err(e) => {
            check_error(
                &e,
                &[
                    ErrorCode::InvalidK,
                    ErrorCode::InvalidWeight,
                    ErrorCode::LengthMismatch,
                    ErrorCode::IndexOutOfRange,
                    ErrorCode::NonFiniteScore,
                ],
                "rrf_indexed",
            );
            if e.code == ErrorCode::NonFiniteScore {
                // Valid input whose sums overflow: recomputed, one is infinite.
                assert_eq!(e.field, "weights");
                assert!(
                    direct_rrf_indexed(&lists, &weights, k, n_docs)
                        .0
                        .iter()
                        .any(|s| !s.is_finite()),
                    "rrf_indexed: NON_FINITE_SCORE without an overflow"
                );
            }
            return;
        }
    };
    assert_eq!(f.scores.len(), n_docs);
    assert_eq!(f.list_count.len(), n_docs);
    let (expected, count) = direct_rrf_indexed(&lists, &weights, k, n_docs);
    for (d, (got, want)) in f.scores.iter().zip(&expected).enumerate() {
        assert_eq!(got.to_bits(), want.to_bits(), "score of {d}");
    }
    assert_eq!(f.list_count, count);
    let order = f.order();
    assert_eq!(order.len(), count.iter().filter(|&&c| c > 0).count());
    for w in order.windows(2) {
        let (a, b) = (w[0] as usize, w[1] as usize);
        assert!(f.scores[a] > f.scores[b] || (f.scores[a] == f.scores[b] && a < b));
    }
}

/// `multiquery::fuse_multi_query` with every method.
pub fn multiquery(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mut opts = MultiQueryOptions {
        method: b.pick(&[
            MultiQueryMethod::Rrf,
            MultiQueryMethod::ScoreSum,
            MultiQueryMethod::ScoreMax,
        ]),
        verbose: b.bool(),
        ..Default::default()
    };
    if b.bool() {
        opts.results_per_query = b.count_u32();
        opts.similarity_threshold = b.f64_or(0.0);
        opts.multi_query_boost = b.f64_or(0.1);
        opts.limit = b.count_u32();
        opts.k = b.f64_or(60.0);
    }
    let queries: Vec<Vec<QueryHit>> = (0..b.below(6))
        .map(|_| {
            (0..b.below(30))
                .map(|_| QueryHit {
                    id: b.id(),
                    score: if b.bool() {
                        b.f64()
                    } else {
                        0.6 + 0.4 * b.unit()
                    },
                    timestamp: if b.bool() { Some(b.timestamp()) } else { None },
                })
                .collect()
        })
        .collect();
    let out = match fuse_multi_query(&queries, &opts) {
        Ok(out) => out,
        Err(e) => {
            return check_error(
                &e,
                &[
                    ErrorCode::NonFiniteScore,
                    ErrorCode::InvalidTimestamp,
                    ErrorCode::InvalidConfig,
                    ErrorCode::InvalidK,
                ],
                "fuse_multi_query",
            )
        }
    };
    assert!(out.results.len() <= opts.limit as usize);
    assert!(out.results.len() <= out.stats.unique_items as usize);
    assert_eq!(out.stats.queries as usize, queries.len());
    let all: BTreeSet<&str> = queries.iter().flatten().map(|h| h.id.as_str()).collect();
    let mut seen = BTreeSet::new();
    for (i, r) in out.results.iter().enumerate() {
        assert!(
            r.score.is_finite(),
            "fused score {} for finite inputs",
            r.score
        );
        assert!(all.contains(r.id.as_str()) && seen.insert(r.id.as_str()));
        if i > 0 {
            assert!(out.results[i - 1].score >= r.score, "not descending");
        }
        assert_eq!(r.query_scores.is_some(), opts.verbose);
        assert_eq!(r.query_ranks.is_some(), opts.verbose);
        if let (Some(ranks), Some(count)) = (&r.query_ranks, r.appeared_in_query_count) {
            assert_eq!(ranks.len(), count as usize);
            assert!(count >= 1);
            if opts.method == MultiQueryMethod::Rrf {
                let mut by_query: Vec<(usize, u32)> = ranks
                    .iter()
                    .map(|(q, &rank)| (q.parse::<usize>().expect("query index key"), rank))
                    .collect();
                by_query.sort_unstable();
                let want = by_query.iter().fold(0.0, |acc, &(_, rank)| {
                    acc + 1.0 / (opts.k + f64::from(rank))
                });
                assert!(close(want, r.score), "rrf score {} != {want}", r.score);
            }
        }
    }
}

const FUSE_RUNS_CODES: &[ErrorCode] = &[
    ErrorCode::EmptyInput,
    ErrorCode::UnknownMethod,
    ErrorCode::LengthMismatch,
    ErrorCode::InvalidWeight,
    ErrorCode::InvalidConfig,
    // A parameter the method does not take (INVALID_CONFIG before the fortieth session).
    ErrorCode::UnknownField,
    ErrorCode::NonFiniteScore,
];

fn gen_run(b: &mut Bytes<'_>) -> Run {
    let mut run = Run::new();
    for _ in 0..b.below(4) {
        let q = b.pick(&["q1", "q2", "q3", "q"]).to_string();
        let docs: BTreeMap<String, f64> = (0..b.below(12))
            .map(|_| (b.id(), if b.bool() { b.f64() } else { 10.0 * b.unit() }))
            .collect();
        run.insert(q, docs);
    }
    run
}

/// `runfusion::fuse_runs` with every method of `METHODS` on the same runs.
pub fn runfusion(data: &[u8]) {
    let mut b = Bytes::new(data);
    let runs: Vec<Run> = (0..b.below(5)).map(|_| gen_run(&mut b)).collect();
    let norm = match b.byte() % 16 {
        0..=7 => None,
        8 => Some("min_max".to_string()),
        9 => Some("bogus".to_string()),
        _ => Some(b.pick(&NORMS).to_string()),
    };
    let weights: Option<Vec<f64>> = if b.bool() {
        Some(
            (0..runs.len() + b.below(2))
                .map(|_| b.f64_or(0.5))
                .collect(),
        )
    } else {
        None
    };
    let weights_everywhere = b.byte() % 8 == 7;
    let param = |b: &mut Bytes<'_>, typical: f64| {
        if b.bool() {
            Some(b.f64_or(typical))
        } else {
            None
        }
    };
    let (k, phi, sigma, gamma) = (
        param(&mut b, 60.0),
        param(&mut b, 0.8),
        param(&mut b, 0.01),
        param(&mut b, 0.5),
    );
    let bogus = b.byte() % 16 == 15;
    let extra_methods = ["bayesfuse", "", "RRF"];
    for method in METHODS.iter().chain(&extra_methods) {
        let mut params = BTreeMap::new();
        let own = match *method {
            "rrf" => Some(("k", k)),
            "rbc" => Some(("phi", phi.or(Some(0.5)))),
            "logn_isr" => Some(("sigma", sigma)),
            "gmnz" => Some(("gamma", gamma.or(Some(1.0)))),
            _ => None,
        };
        if let Some((name, Some(v))) = own {
            params.insert(name.to_string(), v);
        }
        if bogus {
            params.insert("bogus".to_string(), 1.0);
        }
        let weighted = matches!(
            *method,
            "wsum"
                | "wmnz"
                | "mixed"
                | "w_bordafuse"
                | "w_condorcet"
                | "dbsf"
                | "arithmetic_mean"
                | "geometric_mean"
                | "harmonic_mean"
        );
        let opts = FuseRunsOptions {
            method: method.to_string(),
            norm: norm.clone(),
            weights: if weighted || weights_everywhere {
                weights.clone()
            } else {
                None
            },
            params,
        };
        let fused = match fuse_runs(&runs, &opts) {
            Ok(f) => f,
            Err(e) => {
                check_error(&e, FUSE_RUNS_CODES, method);
                continue;
            }
        };
        assert!(METHODS.contains(method), "unknown method {method} accepted");
        let queries: BTreeSet<&String> = runs.iter().flat_map(|r| r.keys()).collect();
        assert_eq!(
            fused.keys().collect::<BTreeSet<_>>(),
            queries,
            "{method}: query set"
        );
        for (q, results) in &fused {
            let docs: BTreeSet<&String> = runs
                .iter()
                .filter_map(|r| r.get(q))
                .flat_map(|d| d.keys())
                .collect();
            assert_eq!(
                results.keys().collect::<BTreeSet<_>>(),
                docs,
                "{method}: documents of {q}"
            );
            assert!(
                results.values().all(|s| s.is_finite()),
                "{method}: non-finite fused score"
            );
            let order = ranked(results);
            for w in order.windows(2) {
                assert!(w[0].1 >= w[1].1 || (w[0].1 == 0.0 && w[1].1 == 0.0));
            }
        }
        assert_eq!(
            fuse_runs(&runs, &opts).as_ref(),
            Ok(&fused),
            "{method}: not deterministic"
        );
    }
}

/// `optimize::optimize_fusion`: a grid search over weights or parameters, scored by a
/// metric (grids kept small: at most a few hundred fusions per input).
pub fn optimize(data: &[u8]) {
    let mut b = Bytes::new(data);
    let qrels = gen_qrels(&mut b);
    let runs: Vec<Run> = (0..b.below(5)).map(|_| gen_run(&mut b)).collect();
    let mut opts = OptimizeOptions {
        method: b
            .pick(&[
                "wsum",
                "rrf",
                "rbc",
                "wmnz",
                "dbsf",
                "sum",
                "w_condorcet",
                "x",
            ])
            .to_string(),
        ..Default::default()
    };
    if b.bool() {
        opts.metric = gen_metric(&mut b);
    }
    if b.bool() {
        opts.norm = Some(b.pick(&NORMS).to_string());
    }
    opts.step = match b.byte() % 8 {
        0..=3 => {
            if runs.len() > 2 {
                0.25
            } else {
                0.1
            }
        }
        4 => 0.5,
        5 => 1.0,
        6 => b.pick(&[0.0, -0.5, 0.3, 1e-9, f64::NAN, 2.0]),
        _ => 0.2,
    };
    if b.bool() {
        opts.k_values = (0..b.below(6)).map(|_| b.f64_or(10.0)).collect();
    }
    let mut progress = Vec::new();
    let result = optimize_fusion(&qrels, &runs, &opts, &mut |p| {
        progress.push((p.done, p.total, p.best_score))
    });
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            let mut codes = FUSE_RUNS_CODES.to_vec();
            // INVALID_TYPE: a fractional grade.
            codes.extend([
                ErrorCode::InputTooLarge,
                ErrorCode::EmptyInput,
                ErrorCode::InvalidType,
            ]);
            return check_error(&e, &codes, "optimize_fusion");
        }
    };
    let total = report.trials.len();
    assert!(total >= 1);
    assert_eq!(progress.len(), total, "one progress call per configuration");
    for (i, &(done, t, best)) in progress.iter().enumerate() {
        assert_eq!((done, t), (i + 1, total));
        assert!(best.is_finite());
    }
    let max = report
        .trials
        .iter()
        .map(|t| t.score)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        report.best.score.is_finite() && report.best.score == max,
        "best {} but max {max}",
        report.best.score
    );
    assert!(report.trials.contains(&report.best));
    for t in &report.trials {
        if let Some(w) = &t.weights {
            assert_eq!(w.len(), runs.len());
            assert!(w.iter().all(|x| x.is_finite() && *x >= 0.0));
            assert!(
                (w.iter().sum::<f64>() - 1.0).abs() < 1e-9,
                "weights {w:?} do not sum to 1"
            );
        }
    }
}

// ------------------------------------------------------------------ evaluation

/// The text parsers (TREC run, qrels, JSON run and qrels), their agreement, and the
/// TREC round trip.
pub fn eval_parse(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let parse_codes = &[
        ErrorCode::ParseError,
        ErrorCode::NonFiniteScore,
        ErrorCode::DuplicateId,
    ];
    // Judgements' parsers also refuse a fractional grade (`INVALID_TYPE`).
    let qrels_codes = &[
        ErrorCode::ParseError,
        ErrorCode::NonFiniteScore,
        ErrorCode::DuplicateId,
        ErrorCode::InvalidType,
    ];
    match (parse_trec_run(&text), parse_trec_run_ordered(&text)) {
        (Ok(run), Ok(ordered)) => {
            check_ordered_matches(&run, &ordered);
            let again =
                parse_trec_run(&run_to_trec(&run, "tag").expect("a parsed run is writable"))
                    .expect("run_to_trec output parses");
            assert_eq!(bits(&again), bits(&run), "TREC round trip");
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            check_error(&a, parse_codes, "parse_trec_run");
        }
        (a, b) => panic!("parse_trec_run and parse_trec_run_ordered disagree: {a:?} / {b:?}"),
    }
    match parse_qrels(&text) {
        Ok(q) => assert!(q
            .values()
            .flat_map(|d| d.values())
            .all(|g| g.is_finite() && g.fract() == 0.0)),
        Err(e) => check_error(&e, qrels_codes, "parse_qrels"),
    }
    match (run_from_json(&text), run_from_json_ordered(&text)) {
        (Ok(run), Ok(ordered)) => {
            check_ordered_matches(&run, &ordered);
            // run_to_trec refuses exactly the ids TREC text cannot hold (empty, or with
            // whitespace): what it writes parses back to the same run.
            let plain = run
                .keys()
                .chain(run.values().flat_map(|d| d.keys()))
                .all(|s| !s.is_empty() && !s.contains(char::is_whitespace));
            match run_to_trec(&run, "") {
                Ok(text) => {
                    let again = parse_trec_run(&text).expect("run_to_trec output parses");
                    assert_eq!(bits(&again), bits(&run), "JSON -> TREC round trip");
                }
                Err(e) => {
                    assert!(!plain, "a parsed run with plain ids is writable: {e:?}");
                    assert_eq!(e.code, ErrorCode::InvalidType, "run_to_trec: {e:?}");
                }
            }
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            check_error(&a, parse_codes, "run_from_json");
        }
        (a, b) => panic!("run_from_json and run_from_json_ordered disagree: {a:?} / {b:?}"),
    }
    match qrels_from_json(&text) {
        Ok(q) => assert!(q
            .values()
            .flat_map(|d| d.values())
            .all(|g| g.is_finite() && g.fract() == 0.0)),
        Err(e) => check_error(&e, qrels_codes, "qrels_from_json"),
    }
}

fn bits(run: &Run) -> BTreeMap<&String, BTreeMap<&String, u64>> {
    run.iter()
        .map(|(q, d)| (q, d.iter().map(|(id, s)| (id, s.to_bits())).collect()))
        .collect()
}

fn check_ordered_matches(run: &Run, ordered: &OrderedRun) {
    assert_eq!(run.len(), ordered.len());
    for (q, docs) in ordered {
        let plain = run.get(q).expect("same queries");
        assert_eq!(plain.len(), docs.len(), "a duplicate document was accepted");
        for (d, s) in docs {
            assert!(s.is_finite());
            assert_eq!(plain.get(d).map(|x| x.to_bits()), Some(s.to_bits()));
        }
    }
}

fn gen_metric(b: &mut Bytes<'_>) -> String {
    let base = b.pick(&[
        "hits",
        "hit_rate",
        "precision",
        "recall",
        "f1",
        "r-precision",
        "mrr",
        "map",
        "dcg",
        "dcg_burges",
        "ndcg",
        "ndcg_burges",
        "rbp",
        "bpref",
        "NDCG",
        "",
    ]);
    let mut name = base.to_string();
    match b.byte() % 8 {
        0..=3 => {}
        4 | 5 => name.push_str(&format!(
            "@{}",
            b.pick(&["1", "3", "10", "0", "-1", "18446744073709551616", "x", ""])
        )),
        6 => name.push_str(b.pick(&[".95", ".5", ".", ".0", ".99999", "@95", ".1e3"])),
        _ => name.push_str(&b.raw_text(6)),
    }
    if b.byte() % 4 == 3 {
        name.push_str(&format!(
            "-l{}",
            b.pick(&["2", "0", "-3", "x", "9223372036854775807", ""])
        ));
    }
    name
}

/// Judgements with grades small and odd (NaN, huge, negative). Grades are whole
/// numbers (a fraction is `INVALID_TYPE`): an odd finite one is cut to its whole part but
/// for one in eight (by its low bits, so that the same bytes give the same judgements),
/// which the functions must refuse.
fn gen_qrels(b: &mut Bytes<'_>) -> Qrels {
    let mut qrels = Qrels::new();
    for _ in 0..b.below(4) {
        let grades: BTreeMap<String, f64> = (0..b.below(8))
            .map(|_| {
                (
                    b.id(),
                    if b.bool() {
                        let g = b.f64();
                        if g.is_finite() && g.to_bits() & 7 != 0 {
                            g.trunc()
                        } else {
                            g
                        }
                    } else {
                        f64::from(b.byte() % 4)
                    },
                )
            })
            .collect();
        qrels.insert(b.pick(&["q1", "q2", "q3", "q"]).to_string(), grades);
    }
    qrels
}

/// `eval::evaluate` (and `evaluate_ordered` with the same, id-ordered run) with ranx
/// metric names, valid and not.
pub fn evaluate_metrics(data: &[u8]) {
    let mut b = Bytes::new(data);
    let qrels = gen_qrels(&mut b);
    let run = gen_run(&mut b);
    let metrics: Vec<String> = (0..b.below(5)).map(|_| gen_metric(&mut b)).collect();
    let names: Vec<&str> = metrics.iter().map(String::as_str).collect();
    let codes = &[
        ErrorCode::EmptyInput,
        ErrorCode::UnknownMethod,
        ErrorCode::InvalidConfig,
        ErrorCode::NonFiniteScore,
        // A fractional grade.
        ErrorCode::InvalidType,
    ];
    let ordered: OrderedRun = run
        .iter()
        .map(|(q, d)| {
            (
                q.clone(),
                d.iter().map(|(id, s)| (id.clone(), *s)).collect(),
            )
        })
        .collect();
    let result = evaluate(&qrels, &run, &names);
    match (&result, evaluate_ordered(&qrels, &ordered, &names)) {
        (Ok(a), Ok(b)) => assert_eq!(
            a, &b,
            "evaluate and evaluate_ordered disagree on an id-ordered run"
        ),
        (Err(a), Err(b)) => assert_eq!(
            a.code, b.code,
            "evaluate and evaluate_ordered fail differently"
        ),
        (a, b) => panic!("evaluate and evaluate_ordered disagree: {a:?} / {b:?}"),
    }
    let ev = match result {
        Ok(ev) => ev,
        Err(e) => return check_error(&e, codes, "evaluate"),
    };
    assert_eq!(ev.means.len(), names.len());
    assert_eq!(
        ev.per_query.keys().collect::<Vec<_>>(),
        qrels.keys().collect::<Vec<_>>()
    );
    let all_small = qrels
        .values()
        .flat_map(|d| d.values())
        .all(|g| g.abs() <= 16.0);
    for (column, (name, mean)) in ev.means.iter().enumerate() {
        let values: Vec<f64> = ev.per_query.values().map(|v| v[column]).collect();
        if all_small {
            assert!(mean.is_finite(), "{name}: mean {mean}");
        }
        let metric = Metric::parse(name).expect("an evaluated metric parses");
        let bounded = matches!(
            metric.kind,
            MetricKind::HitRate
                | MetricKind::Precision
                | MetricKind::Recall
                | MetricKind::F1
                | MetricKind::RPrecision
                | MetricKind::Mrr
                | MetricKind::Map
        );
        if bounded {
            for v in &values {
                assert!(in_unit(*v), "{name} = {v}");
            }
        }
    }
}

// ------------------------------------------------------------------ calibration fitting

/// `fit_platt`, `fit_isotonic`, `calibration_error` and `propose_bands`.
pub fn fit(data: &[u8]) {
    let mut b = Bytes::new(data);
    let n = b.below(48);
    let unit_scores = b.bool();
    let scores: Vec<f64> = (0..n)
        .map(|_| match (unit_scores, b.byte() % 8) {
            (_, 7) => b.f64(),
            (true, _) => b.unit(),
            (false, k) => f64::from(k) * 0.1 + b.unit() * f64::from(b.byte() % 3),
        })
        .collect();
    let labels: Vec<f64> = (0..n + usize::from(b.byte() % 32 == 31))
        .map(|_| match b.byte() % 16 {
            0..=6 => 0.0,
            7..=13 => 1.0,
            14 => b.pick(&[-0.0, 0.5, 2.0, f64::NAN, -1.0]),
            _ => b.f64(),
        })
        .collect();
    let probes: Vec<f64> = (0..b.below(8))
        .map(|_| b.f64())
        .filter(|x| x.is_finite())
        .collect();
    let judged_codes = &[
        ErrorCode::LengthMismatch,
        ErrorCode::EmptyInput,
        ErrorCode::NonFiniteScore,
        ErrorCode::InvalidLabels,
        ErrorCode::InvalidConfig,
        ErrorCode::OutOfRange,
    ];

    match fit_platt(&scores, &labels) {
        Ok(model) => {
            model.validate().expect("a fitted Platt model is valid");
            let mut xs: Vec<f64> = scores.iter().chain(&probes).copied().collect();
            xs.sort_by(f64::total_cmp);
            let ps: Vec<f64> = xs.iter().map(|&x| model.predict(x)).collect();
            for p in &ps {
                assert!(in_unit(*p), "Platt predicts {p}");
            }
            // Monotone in the direction of -a: order-preserving (or reversing) throughout.
            for (i, w) in ps.windows(2).enumerate() {
                let ok = if model.a <= 0.0 {
                    monotone_le(w[0], w[1])
                } else {
                    monotone_le(w[1], w[0])
                };
                assert!(
                    ok,
                    "Platt {model:?} is not monotone: p({}) = {}, p({}) = {}",
                    xs[i],
                    w[0],
                    xs[i + 1],
                    w[1]
                );
            }
            check_fitted_round_trip(model.into());
        }
        Err(e) => check_error(&e, judged_codes, "fit_platt"),
    }
    match fit_isotonic(&scores, &labels) {
        Ok(model) => {
            model.validate().expect("a fitted isotonic model is valid");
            let mut xs: Vec<f64> = scores
                .iter()
                .chain(&probes)
                .chain(&model.x)
                .copied()
                .collect();
            xs.sort_by(f64::total_cmp);
            let ps: Vec<f64> = xs.iter().map(|&x| model.predict(x)).collect();
            for p in &ps {
                assert!(in_unit(*p), "isotonic predicts {p}");
            }
            for w in ps.windows(2) {
                assert!(
                    w[0] <= w[1],
                    "isotonic is not monotone: {} then {}",
                    w[0],
                    w[1]
                );
            }
            check_fitted_round_trip(model.into());
        }
        Err(e) => check_error(&e, judged_codes, "fit_isotonic"),
    }
    let opts = CalibrationErrorOptions {
        bins: if b.bool() { b.count_usize() as u64 } else { 10 },
        strategy: if b.bool() {
            BinStrategy::Quantile
        } else {
            BinStrategy::Uniform
        },
    };
    match calibration_error(&scores, &labels, &opts) {
        Ok(r) => {
            assert_eq!(r.count, n);
            for (what, v) in [("ece", r.ece), ("mce", r.mce), ("brier", r.brier)] {
                assert!(in_unit(v), "{what} = {v}");
            }
            assert!(
                r.log_loss.is_finite() && r.log_loss >= 0.0,
                "log loss {}",
                r.log_loss
            );
            assert!(r.bins.len() as u64 <= opts.bins);
            assert_eq!(
                r.bins.iter().map(|b| b.count).sum::<usize>(),
                n,
                "every probability falls in one bin"
            );
            for bin in &r.bins {
                assert!(bin.lower <= bin.upper);
                assert_eq!(bin.mean_confidence.is_some(), bin.count > 0);
                assert!(
                    bin.mean_confidence.is_none_or(in_unit)
                        && bin.fraction_positive.is_none_or(in_unit)
                );
            }
        }
        Err(e) => check_error(&e, judged_codes, "calibration_error"),
    }
    let opts = ProposeBandsOptions {
        target_precision: b.f64_or(0.85),
        folds: if b.bool() { b.count_usize() as u64 } else { 5 },
        seed: b.u64(),
    };
    match propose_bands(&scores, &labels, &opts) {
        Ok(p) => {
            assert!(
                in_unit(p.degraded_floor)
                    && in_unit(p.high_floor)
                    && p.degraded_floor <= p.high_floor,
                "{p:?}"
            );
            BandFloors {
                high_floor: p.high_floor,
                degraded_floor: p.degraded_floor,
            }
            .validate()
            .expect("proposed floors are valid");
            assert_eq!(p.folds.len() as u64, opts.folds);
            assert_eq!(p.count, n);
            assert_eq!(p.folds.iter().map(|f| f.size).sum::<usize>(), n);
            for f in &p.folds {
                assert!(
                    in_unit(f.degraded_floor)
                        && in_unit(f.high_floor)
                        && f.degraded_floor <= f.high_floor
                );
            }
            for m in [
                p.held_out.hit,
                p.held_out.degraded,
                p.in_sample.hit,
                p.in_sample.degraded,
            ] {
                assert!(
                    m.precision.is_none_or(in_unit)
                        && m.recall.is_none_or(in_unit)
                        && in_unit(m.coverage),
                    "{m:?}"
                );
            }
        }
        Err(e) => check_error(&e, judged_codes, "propose_bands"),
    }
}

fn check_fitted_round_trip(model: FittedCalibration) {
    model.validate().expect("fitted models validate");
    let json = serde_json::to_string(&model).expect("serializes");
    let back: FittedCalibration = serde_json::from_str(&json).expect("parses back");
    assert_eq!(back, model);
    // And it can be used as a pipeline calibration, unless it falls as the score rises
    // (a Platt model with a > 0: judgements against the scores), which a pipeline
    // refuses on its slope.
    let falls = matches!(&model, FittedCalibration::Platt(m) if m.a > 0.0);
    let config = PipelineConfig {
        calibration: as_calibration(model),
        ..Default::default()
    };
    match Pipeline::new(config) {
        Ok(_) => assert!(!falls, "a falling Platt model was taken"),
        Err(e) => {
            assert!(falls, "a fitted model is a valid calibration: {e:?}");
            assert_eq!(
                (e.code, e.field.as_str()),
                (ErrorCode::InvalidCalibration, "calibration.a")
            );
        }
    }
}

// ------------------------------------------------------------------ stages

/// normalize, calibrate, rerank, confidence, bands and timestamps.
pub fn stages(data: &[u8]) {
    let mut b = Bytes::new(data);
    let scores: Vec<f64> = (0..b.below(24)).map(|_| b.f64()).collect();
    let finite = scores.iter().all(|s| s.is_finite());

    // normalize: every method; output in input order, finite, idempotent where it should be.
    let temperature = b.f64_or(1.0);
    for method in [
        NormalizeMethod::None,
        NormalizeMethod::Max,
        NormalizeMethod::MinMax,
        NormalizeMethod::ZScore,
        NormalizeMethod::Softmax,
    ] {
        match normalize(&scores, method, temperature) {
            Ok(out) => {
                assert!(finite, "{method:?} accepted a non-finite score");
                assert_eq!(out.len(), scores.len());
                for (i, o) in out.iter().enumerate() {
                    assert!(
                        o.is_finite(),
                        "{method:?}: {o} from finite scores {scores:?}"
                    );
                    if method != NormalizeMethod::None {
                        assert!(
                            *o >= 0.0 && (method == NormalizeMethod::Max || *o <= 1.0),
                            "{method:?}: {o}"
                        );
                    }
                    for (j, p) in out.iter().enumerate() {
                        if scores[i] < scores[j] {
                            assert!(
                                o <= p,
                                "{method:?} reverses an order: {scores:?} -> {out:?}"
                            );
                        }
                    }
                }
                let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                if method == NormalizeMethod::MinMax
                    || (method == NormalizeMethod::Max && max >= calibrank::normalize::MAX_FLOOR)
                {
                    let twice =
                        normalize(&out, method, temperature).expect("normalized scores normalize");
                    for (x, y) in out.iter().zip(&twice) {
                        assert!(
                            close(*x, *y) || (x - y).abs() < 1e-12,
                            "{method:?} is not idempotent: {x} -> {y}"
                        );
                    }
                }
            }
            Err(e) => check_error(
                &e,
                &[
                    ErrorCode::NonFiniteScore,
                    ErrorCode::NegativeValue,
                    ErrorCode::InvalidConfig,
                ],
                "normalize",
            ),
        }
    }

    // calibrate: in [0, 1] and order-preserving.
    let sigmoid = Sigmoid {
        threshold: b.f64_or(0.035),
        steepness: b.f64_or(150.0),
    };
    match calibrate(&scores, &sigmoid) {
        Ok(out) => {
            for (i, o) in out.iter().enumerate() {
                assert!(in_unit(*o), "calibrated {o}");
                for (j, p) in out.iter().enumerate() {
                    if scores[i] < scores[j] {
                        assert!(
                            monotone_le(*o, *p),
                            "calibration reverses an order: {} -> {o}, {} -> {p}",
                            scores[i],
                            scores[j]
                        );
                    }
                }
            }
        }
        Err(e) => check_error(
            &e,
            &[ErrorCode::NonFiniteScore, ErrorCode::InvalidCalibration],
            "calibrate",
        ),
    }

    // query confidence.
    let mut copts = ConfidenceOptions {
        weights: std::array::from_fn(|i| {
            if b.bool() {
                b.f64()
            } else {
                [0.35, 0.25, 0.2, 0.12, 0.08][i]
            }
        }),
        k: if b.bool() { Some(b.count_u32()) } else { None },
    };
    scale_to_one(&mut copts.weights, &mut b);
    match query_confidence(&scores, &copts) {
        Ok(q) => {
            assert!(
                in_unit(q.expected_precision) && in_unit(q.at_least_one_relevant),
                "{q:?}"
            );
            assert!(in_unit(q.weighted_top5), "{q:?}");
        }
        Err(e) => check_error(
            &e,
            &[
                ErrorCode::NonFiniteScore,
                ErrorCode::OutOfRange,
                ErrorCode::InvalidWeight,
                ErrorCode::InvalidConfig,
            ],
            "query_confidence",
        ),
    }

    // bands: monotone in the score.
    let floors = BandFloors {
        high_floor: b.f64_or(0.85),
        degraded_floor: b.f64_or(0.65),
    };
    let mut sorted: Vec<f64> = scores.clone();
    sorted.sort_by(f64::total_cmp);
    let mut last = None;
    for &s in &sorted {
        match floors.classify(s, None) {
            Ok(outcome) => {
                let band = outcome.band();
                assert_eq!(band, floors.band(s));
                let rank = |b: Band| match b {
                    Band::Miss => 0,
                    Band::Degraded => 1,
                    Band::Hit => 2,
                };
                if let Some(prev) = last {
                    assert!(rank(prev) <= rank(band), "bands not monotone");
                }
                last = Some(band);
            }
            Err(e) => check_error(
                &e,
                &[
                    ErrorCode::InvalidBands,
                    ErrorCode::NonFiniteScore,
                    ErrorCode::OutOfRange,
                ],
                "classify",
            ),
        }
    }

    // rerank.
    let cfg = gen_heuristic(&mut b);
    let query = b.text();
    let candidates: Vec<Candidate> = scores
        .iter()
        .map(|&score| Candidate {
            id: b.id(),
            score: if b.bool() { score } else { b.unit() },
            name: b.text(),
            entity_type: if b.bool() {
                Some(b.pick(&["class", "FILE", "x"]).to_string())
            } else {
                None
            },
            summary: if b.bool() { Some(b.text()) } else { None },
            content: if b.bool() { Some(b.text()) } else { None },
        })
        .collect();
    match rerank_heuristic(&query, &candidates, &cfg) {
        Ok(out) => {
            assert_eq!(out.len(), candidates.len());
            for (i, r) in out.iter().enumerate() {
                assert!(
                    r.reranked_score.is_finite() && r.reranked_score >= 0.0,
                    "reranked score {}",
                    r.reranked_score
                );
                assert!(r.factors.multiplier.is_finite() && r.factors.multiplier >= 0.0);
                if i > 0 {
                    let p = &out[i - 1];
                    assert!(
                        p.reranked_score > r.reranked_score
                            || (p.reranked_score == r.reranked_score && p.id < r.id)
                    );
                }
            }
        }
        Err(e) => check_error(
            &e,
            &[
                ErrorCode::NonFiniteScore,
                ErrorCode::NegativeValue,
                ErrorCode::DuplicateId,
                ErrorCode::InvalidConfig,
                ErrorCode::EmptyQuery,
            ],
            "rerank_heuristic",
        ),
    }
    let years: Vec<Option<i32>> = (0..scores.len() + usize::from(b.byte() % 16 == 15))
        .map(|_| {
            if b.bool() {
                Some(2020 + i32::from(b.byte() % 8))
            } else {
                None
            }
        })
        .collect();
    match cross_encoder_scores(&scores, &years, &FiscalYearTier::default(), b.f64_or(0.8)) {
        Ok(out) => assert!(
            out.iter().all(|s| s.is_finite() && *s >= 0.0),
            "cross-encoder scores {out:?}"
        ),
        Err(e) => check_error(
            &e,
            &[
                ErrorCode::NonFiniteScore,
                ErrorCode::LengthMismatch,
                ErrorCode::InvalidConfig,
            ],
            "cross_encoder_scores",
        ),
    }

    // timestamps.
    let text = String::from_utf8_lossy(b.rest());
    if let Some(ms) = parse_iso8601(&text) {
        assert!(ms.is_finite(), "{text:?} parsed to {ms}");
    }
    if let Err(e) = Timestamp::Iso(text.into_owned()).to_millis("t") {
        check_error(&e, &[ErrorCode::InvalidTimestamp], "timestamp");
    }
}
