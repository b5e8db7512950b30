//! Property tests of the pipeline's contract and of the stages' algebra (proptest).
//!
//! Every property runs `PROPTEST_CASES` cases (default 512); see docs/reliability.md.

// Reference values here use std's f64::min / max: their zero signs do not matter to
// these checks (the crate's own code uses crate::float).
#![allow(clippy::disallowed_methods)]
#![cfg(not(target_arch = "wasm32"))]

use calibrank::bands::{Band, BandFloors};
use calibrank::calibrate::{calibrate, IsotonicModel, PlattModel, Sigmoid};
use calibrank::error::Result as ScoreResult;
use calibrank::fuse::{rrf, RankedList};
use calibrank::lab::fit::{fit_isotonic, fit_platt};
use calibrank::lab::runfusion::{fuse_runs, FuseRunsOptions};
use calibrank::lab::runs::{Qrels, Run};
use calibrank::multiquery::{fuse_multi_query, MultiQueryMethod, MultiQueryOptions, QueryHit};
use calibrank::normalize::{normalize, NormalizeMethod, PoolScale, MAX_FLOOR};
use calibrank::pipeline::{
    split_offsets, Calibration, ColumnarInput, CrossEncoderNormalization, InputList, ItemMeta,
    Pipeline, PipelineConfig, PipelineInput, PoolTexts, RecencyConfig, RecencyMode, RerankExplain,
    RerankMethod,
};
use calibrank::recency::{default_steps, FiscalYearTier, RecencyStep};
use calibrank::rerank::CandidateText;
use calibrank::timestamp::{Timestamp, MS_PER_DAY};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

fn cases() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// Ids from a small alphabet, so that lists overlap and contain duplicates.
fn id() -> impl Strategy<Value = String> {
    (0u8..24).prop_map(|i| format!("d{i}"))
}

fn lists() -> impl Strategy<Value = Vec<Vec<String>>> {
    prop::collection::vec(prop::collection::vec(id(), 0..16), 0..6)
}

fn method() -> impl Strategy<Value = NormalizeMethod> {
    prop_oneof![
        Just(NormalizeMethod::None),
        Just(NormalizeMethod::Max),
        Just(NormalizeMethod::MinMax),
        Just(NormalizeMethod::ZScore),
        Just(NormalizeMethod::Softmax),
    ]
}

/// A recency configuration: none, step (the seed's steps or others, strictly increasing)
/// or fiscal-year tiers (any window, latest year and boosts, the rerank stage's too).
fn recency() -> impl Strategy<Value = (RecencyConfig, f64)> {
    let steps = prop_oneof![
        Just(default_steps()),
        prop::collection::vec((0.5f64..20.0, 0.5f64..2.0), 0..4).prop_map(|v| {
            let mut age = 0.0;
            v.into_iter()
                .map(|(gap, multiplier)| {
                    age += gap;
                    RecencyStep {
                        max_age_days: age,
                        multiplier,
                    }
                })
                .collect()
        }),
    ];
    (
        0u8..3,
        steps,
        1u32..8,
        2018i32..2030,
        0.0f64..2.0,
        0.0f64..2.0,
    )
        .prop_map(|(mode, steps, window, latest_year, boost, rerank_boost)| {
            let mode = [
                RecencyMode::None,
                RecencyMode::Step,
                RecencyMode::FiscalYear,
            ][mode as usize];
            (
                RecencyConfig {
                    mode,
                    steps,
                    fiscal_year: FiscalYearTier {
                        window,
                        latest_year,
                    },
                    boost,
                },
                rerank_boost,
            )
        })
}

/// A calibration: the seed's sigmoid with any parameters, Platt (a <= 0, as a pipeline
/// takes) or isotonic knots spread over the raw scores' usual range.
fn calibration() -> impl Strategy<Value = Calibration> {
    prop_oneof![
        (0.0f64..0.1, 1.0f64..400.0).prop_map(|(threshold, steepness)| Calibration::Sigmoid {
            threshold,
            steepness
        }),
        (-60.0f64..=0.0, -4.0f64..4.0).prop_map(|(a, b)| Calibration::Platt(PlattModel { a, b })),
        prop::collection::vec((0.0f64..1.0, 0.0f64..=1.0), 1..6).prop_map(|knots| {
            let mut x: Vec<f64> = knots.iter().map(|k| k.0).collect();
            let mut y: Vec<f64> = knots.iter().map(|k| k.1).collect();
            x.sort_by(f64::total_cmp);
            x.dedup();
            y.truncate(x.len());
            y.sort_by(f64::total_cmp);
            Calibration::Isotonic(IsotonicModel { x, y })
        }),
    ]
}

/// A valid configuration: `1 <= topN <= topK`, any normalization, any recency mode, any
/// rerank method (candidate limit or not; any normalization of the cross-encoder), a sigmoid, Platt or isotonic calibration, and
/// `minConfidence` mostly 0 or the seed's 0.3 (a uniform draw in [0, 1] left ~40% of the
/// cases with nothing to check).
fn config() -> impl Strategy<Value = PipelineConfig> {
    (
        (1u32..24, 0u32..24, 1.0f64..200.0),
        method(),
        calibration(),
        prop_oneof![4 => Just(0.0), 4 => Just(0.3), 2 => 0.0f64..1.0],
        0.0f64..0.5,
        any::<bool>(),
        recency(),
        (0u8..3, prop::option::of(1u32..30), any::<bool>()),
    )
        .prop_map(
            |(
                (top_k, n, k),
                method,
                calibration,
                min_confidence,
                min_relevance,
                explain,
                (recency, rerank_boost),
                (rerank, candidate_limit, cross_encoder_normalization),
            )| {
                let mut c = PipelineConfig {
                    k,
                    top_k,
                    top_n: 1 + n % top_k,
                    min_confidence,
                    explain,
                    recency,
                    calibration,
                    ..Default::default()
                };
                c.normalization.method = method;
                c.normalization.min_relevance = min_relevance;
                c.rerank.method = [
                    RerankMethod::None,
                    RerankMethod::Heuristic,
                    RerankMethod::CrossEncoder,
                ][rerank as usize];
                c.rerank.candidate_limit = candidate_limit;
                c.rerank.recency_boost = rerank_boost;
                // The cross-encoder's raw scores (below 0 too) are no input for `max`,
                // which refuses a score below 0 (tests/pipeline.rs says so).
                c.rerank.cross_encoder_normalization =
                    if cross_encoder_normalization && method != NormalizeMethod::Max {
                        CrossEncoderNormalization::None
                    } else {
                        CrossEncoderNormalization::MinMax
                    };
                c
            },
        )
}

fn input(lists: &[Vec<String>], weights: &[f64]) -> PipelineInput {
    PipelineInput {
        lists: lists
            .iter()
            .enumerate()
            .map(|(i, ids)| InputList {
                name: format!("l{i}"),
                ids: ids.clone(),
                scores: None,
                weight: weights.get(i).copied(),
            })
            .collect(),
        ..Default::default()
    }
}

/// Words the query and the item texts are made of, so that some terms match.
const WORDS: [&str; 8] = [
    "token", "cache", "router", "auth", "graph", "Token", "über", "config",
];

fn text() -> impl Strategy<Value = Option<String>> {
    prop::option::of(
        prop::collection::vec(0usize..WORDS.len(), 0..5)
            .prop_map(|w| w.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ")),
    )
}

fn item() -> impl Strategy<Value = ItemMeta> {
    (text(), text(), text(), text()).prop_map(|(name, entity_type, summary, content)| ItemMeta {
        name,
        entity_type,
        summary,
        content,
        ..Default::default()
    })
}

/// `now` of the generated inputs (2023-11-14T22:13:20Z).
const NOW_MS: f64 = 1.7e12;

/// Entity types: the seed's multipliers' (class x1.3 ... file x0.7) and one without.
const TYPES: [&str; 6] = ["class", "function", "file", "module", "document", "widget"];

/// An item with every field the stages read: texts for the heuristic reranker (content
/// short or long, for the stub penalty), a modification time (up to 60 days old, or in
/// the future) and a fiscal year (around the tiers' windows), and always a cross-encoder
/// score (on a coarse grid, so that ties occur), as the cross-encoder needs one for
/// every candidate.
fn rich_item() -> impl Strategy<Value = ItemMeta> {
    (
        text(),
        prop::option::of(prop::sample::select(TYPES.to_vec())),
        text(),
        prop::option::of(prop_oneof![Just("stub".to_string()), Just("x".repeat(80))]),
        prop::option::of(-5.0f64..60.0),
        prop::option::of(2010i32..2032),
        (-40i32..40).prop_map(|s| f64::from(s) / 4.0),
    )
        .prop_map(
            |(name, entity_type, summary, content, age, fiscal_year, ce)| ItemMeta {
                name,
                entity_type: entity_type.map(str::to_string),
                summary,
                content,
                modified_at: age.map(|days| Timestamp::Millis(NOW_MS - days * MS_PER_DAY)),
                fiscal_year,
                cross_encoder_score: Some(ce),
            },
        )
}

/// A whole pipeline input: 1 to 5 lists (some with their own scores, some with a
/// weight), a non-empty query of the items' words, items for every id, and `now`.
fn full_input() -> impl Strategy<Value = PipelineInput> {
    (
        prop::collection::vec(
            (
                prop::collection::vec(id(), 0..16),
                any::<bool>(),
                prop::option::of(0.0f64..3.0),
                prop::collection::vec(-10.0f64..10.0, 16),
            ),
            1..6,
        ),
        prop::collection::vec(0usize..WORDS.len(), 1..4),
        prop::collection::vec(rich_item(), 24),
    )
        .prop_map(|(lists, query, items)| PipelineInput {
            query: query
                .iter()
                .map(|&i| WORDS[i])
                .collect::<Vec<_>>()
                .join(" "),
            lists: lists
                .into_iter()
                .enumerate()
                .map(|(i, (ids, with_scores, weight, scores))| InputList {
                    name: format!("l{i}"),
                    scores: with_scores.then(|| scores[..ids.len()].to_vec()),
                    ids,
                    weight,
                })
                .collect(),
            items: items
                .into_iter()
                .enumerate()
                .map(|(i, m)| (format!("d{i}"), m))
                .collect(),
            now: Some(Timestamp::Millis(NOW_MS)),
            ..Default::default()
        })
}

/// The texts of the original items, handed out by id as the package's JavaScript does by
/// document; records what it was asked.
struct Held<'a> {
    items: &'a BTreeMap<String, ItemMeta>,
    asked: Vec<Vec<String>>,
}

impl PoolTexts for Held<'_> {
    fn texts(&mut self, docs: &[u32], ids: &[&str]) -> ScoreResult<Vec<CandidateText<'_>>> {
        assert_eq!(docs.len(), ids.len());
        self.asked.push(ids.iter().map(|s| s.to_string()).collect());
        let items = self.items;
        Ok(ids
            .iter()
            .map(|id| match items.get(*id) {
                Some(m) => CandidateText {
                    name: m.name.as_deref().unwrap_or(""),
                    entity_type: m.entity_type.as_deref(),
                    summary: m.summary.as_deref(),
                    content: m.content.as_deref(),
                },
                None => CandidateText::default(),
            })
            .collect())
    }
}

/// A score through a pool's scale, as the README writes each method.
fn renormalized(x: f64, scale: &PoolScale) -> f64 {
    match *scale {
        PoolScale::None => x,
        PoolScale::Max { max } => x / max,
        // A span beyond f64::MAX (finite ends near -/+ f64::MAX) measured on halved values.
        PoolScale::MinMax { min, max } if max - min == f64::INFINITY => {
            (x / 2.0 - min / 2.0) / (max / 2.0 - min / 2.0)
        }
        PoolScale::MinMax { min, max } if max > min => (x - min) / (max - min),
        PoolScale::MinMax { .. } => 1.0,
        PoolScale::ZScore { mean, sd, scale } if sd > 0.0 => {
            0.5 * (1.0 + libm::erf((x / scale - mean) / sd / std::f64::consts::SQRT_2))
        }
        PoolScale::ZScore { .. } => 0.5,
        PoolScale::Softmax {
            max,
            sum,
            temperature,
        } => libm::exp((x - max) / temperature) / sum,
    }
}

fn band_rank(b: Band) -> u8 {
    match b {
        Band::Miss => 0,
        Band::Degraded => 1,
        Band::Hit => 2,
    }
}

/// `a <= b`, bit for bit: calibration is monotone exactly (the logistic has one form,
/// `1 / (1 + exp(-x))`; its earlier two-branch form stepped back by an ulp between
/// neighbouring inputs, found by fuzzing `fit`, reproducer `platt_monotone_within_ulps`).
fn monotone_le(a: f64, b: f64) -> bool {
    a <= b
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

/// Score by id, for comparing fusions.
fn by_id(items: impl IntoIterator<Item = (String, f64)>) -> BTreeMap<String, f64> {
    items.into_iter().collect()
}

fn assert_same_fusion(
    a: &BTreeMap<String, f64>,
    b: &BTreeMap<String, f64>,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (id, s) in a {
        let t = b[id];
        prop_assert!(close(*s, t), "{}: {} vs {}", id, s, t);
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases())]

    /// Seed 000's contract: at most topN results (so at most topK), every score in
    /// [0, 1] and at least minConfidence, sorted descending, no id twice, every band the
    /// floors' band of its score; through every stage (recency, reranking, list scores,
    /// fitted calibrations).
    #[test]
    fn pipeline_contract(cfg in config(), input in full_input()) {
        let pipeline = Pipeline::new(cfg.clone()).expect("a valid configuration");
        let out = pipeline.run(&input).expect("valid input");
        prop_assert!(out.results.len() <= cfg.top_n as usize);
        let floors = BandFloors { high_floor: cfg.bands.high_floor, degraded_floor: cfg.bands.degraded_floor };
        let mut ids = BTreeSet::new();
        for r in &out.results {
            prop_assert!((0.0..=1.0).contains(&r.score), "score {}", r.score);
            prop_assert!(r.score >= cfg.min_confidence);
            prop_assert!(ids.insert(r.id.clone()));
            prop_assert_eq!(r.band, floors.band(r.score));
        }
        for w in out.results.windows(2) {
            prop_assert!(w[0].score >= w[1].score, "{} then {}", w[0].score, w[1].score);
        }
        for v in [out.confidence.expected_precision, out.confidence.at_least_one_relevant, out.confidence.weighted_top5] {
            prop_assert!((0.0..=1.0 + 1e-12).contains(&v), "confidence figure {}", v);
        }
    }

    /// Texts held out of the input and handed over for the pool alone give the output of
    /// the input with its texts, explanations included; the reranker asks once, for at
    /// most the pool's documents (topK, then the candidate limit).
    #[test]
    fn held_texts_give_the_output_of_the_whole_input(
        cfg in config(),
        lists in lists(),
        items in prop::collection::btree_map(id(), item(), 0..24),
        query in prop::collection::vec(0usize..WORDS.len(), 1..4),
        limit in prop::option::of(1u32..30),
    ) {
        let mut cfg = cfg;
        cfg.rerank.method = RerankMethod::Heuristic;
        cfg.rerank.candidate_limit = limit;
        let pipeline = Pipeline::new(cfg.clone()).expect("a valid configuration");
        let mut whole = input(&lists, &[]);
        whole.query = query.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ");
        whole.items = items.clone();
        let expected = pipeline.run(&whole);
        let mut stripped = whole.as_ref();
        for (_, m) in stripped.items.iter_mut() {
            m.name = None;
            m.entity_type = None;
            m.summary = None;
            m.content = None;
        }
        let mut held = Held { items: &items, asked: Vec::new() };
        let got = pipeline.run_owned_with_texts(stripped, &mut held);
        prop_assert_eq!(&got, &expected);
        let out = expected.expect("valid input");
        prop_assert_eq!(held.asked.len(), 1);
        let asked = &held.asked[0];
        let pool = (cfg.top_k.min(limit.unwrap_or(u32::MAX))) as usize;
        prop_assert_eq!(asked.len(), pool.min(out.stats.candidates as usize));
        for r in &out.results {
            prop_assert!(asked.contains(&r.id), "{} was not asked for", r.id);
        }
    }

    /// The explanation reproduces the pool's stages: each result's `normalized` is its
    /// `afterRerank` through the pool's scale, and a cross-encoder's `rerank.normalized`
    /// its raw score through the pool's raw range, bit for bit by the formulas the README
    /// gives (written out here, not the crate's); the pool counts what was normalized.
    #[test]
    fn the_pool_explains_normalization(
        cfg in config(),
        lists in lists(),
        texts in prop::collection::btree_map(id(), item(), 0..24),
        raw in prop::collection::vec(prop_oneof![-20.0f64..20.0, Just(f64::MAX), Just(-f64::MAX), Just(0.0)], 24),
        rerank in 0u8..3,
        limit in prop::option::of(1u32..30),
        temperature in 0.05f64..10.0,
    ) {
        let mut cfg = cfg;
        cfg.explain = true;
        cfg.normalization.temperature = temperature;
        cfg.rerank.method = [RerankMethod::None, RerankMethod::Heuristic, RerankMethod::CrossEncoder][rerank as usize];
        cfg.rerank.candidate_limit = limit;
        let mut inp = input(&lists, &[]);
        inp.query = "auth token cache".into();
        inp.items = texts;
        for (i, r) in raw.iter().enumerate() {
            inp.items.entry(format!("d{i}")).or_default().cross_encoder_score = Some(*r);
        }
        let out = Pipeline::new(cfg.clone()).expect("a valid configuration").run(&inp).expect("valid input");
        let s = &out.stats;
        let normalized = s.candidates - s.beyond_top_k - s.beyond_candidate_limit;
        let Some(pool) = out.pool.as_deref() else {
            prop_assert_eq!(normalized, 0);
            return Ok(());
        };
        prop_assert_eq!(pool.candidates, normalized);
        prop_assert_eq!(pool.cross_encoder.is_some(), cfg.rerank.method == RerankMethod::CrossEncoder);
        // The cross-encoder's scale is of the method configured for it (softmax at 1).
        if let Some(ce) = pool.cross_encoder {
            let method = match ce {
                PoolScale::None => NormalizeMethod::None,
                PoolScale::Max { .. } => NormalizeMethod::Max,
                PoolScale::MinMax { .. } => NormalizeMethod::MinMax,
                PoolScale::ZScore { .. } => NormalizeMethod::ZScore,
                PoolScale::Softmax { temperature: t, .. } => {
                    prop_assert_eq!(t, 1.0);
                    NormalizeMethod::Softmax
                }
            };
            prop_assert_eq!(method, cfg.rerank.cross_encoder_normalization.method());
        }
        let expected_method = match pool.normalization {
            PoolScale::None => NormalizeMethod::None,
            PoolScale::Max { .. } => NormalizeMethod::Max,
            PoolScale::MinMax { .. } => NormalizeMethod::MinMax,
            PoolScale::ZScore { .. } => NormalizeMethod::ZScore,
            PoolScale::Softmax { temperature: t, .. } => {
                prop_assert_eq!(t, temperature);
                NormalizeMethod::Softmax
            }
        };
        prop_assert_eq!(expected_method, cfg.normalization.method);
        for r in &out.results {
            let e = r.explain.as_ref().expect("explained");
            let again = renormalized(e.after_rerank, &pool.normalization);
            prop_assert_eq!(again.to_bits(), e.normalized.to_bits(), "{}: {:?}", r.id, pool);
            if let RerankExplain::CrossEncoder { raw, normalized } = e.rerank {
                let again = renormalized(raw, &pool.cross_encoder.expect("a range"));
                prop_assert_eq!(again.to_bits(), normalized.to_bits());
            }
        }
    }

    /// Raising topN (same topK) only appends results: the ranking is a prefix order.
    #[test]
    fn top_n_results_are_prefixes(cfg in config(), input in full_input()) {
        let short = Pipeline::new(PipelineConfig { top_n: 1, ..cfg.clone() }).expect("valid");
        let long = Pipeline::new(cfg).expect("valid");
        let a = short.run(&input).expect("valid input").results;
        let b = long.run(&input).expect("valid input").results;
        prop_assert!(a.len() <= b.len());
        for (x, y) in a.iter().zip(&b) {
            prop_assert_eq!(&x.id, &y.id);
            prop_assert_eq!(x.score.to_bits(), y.score.to_bits());
        }
    }

    /// The columnar path ranks exactly as the string path (ids = zero-padded indices),
    /// and classifies alike with or without a context that selects a band profile.
    #[test]
    fn columnar_matches_run(mut cfg in config(), lists in prop::collection::vec(prop::collection::vec(0u32..24, 0..16), 0..6), floors in (0.0f64..=1.0, 0.0f64..=1.0), with_context in any::<bool>()) {
        // The columnar path has no texts and no item metadata: no reranking, no fiscal
        // years (it refuses both).
        cfg.rerank.method = RerankMethod::None;
        if cfg.recency.mode == RecencyMode::FiscalYear {
            cfg.recency.mode = RecencyMode::Step;
        }
        cfg.bands.profiles = vec![calibrank::bands::BandProfile {
            name: "p".into(),
            task_class: Some("chat".into()),
            language: None,
            build_system: None,
            high_floor: floors.0.max(floors.1),
            degraded_floor: floors.0.min(floors.1),
        }];
        let context = with_context.then(|| calibrank::bands::BandContext { task_class: Some("chat".into()), ..Default::default() });
        let pipeline = Pipeline::new(cfg).expect("valid");
        let mut docs = Vec::new();
        let mut offsets = vec![0u32];
        for l in &lists {
            docs.extend_from_slice(l);
            offsets.push(u32::try_from(docs.len()).expect("small"));
        }
        let slices = split_offsets(&docs, &offsets).expect("valid offsets");
        let col = pipeline
            .run_columnar(&ColumnarInput { lists: &slices, n_docs: 24, context: context.as_ref(), ..Default::default() })
            .expect("valid columnar input");
        let string_lists: Vec<Vec<String>> = lists.iter().map(|l| l.iter().map(|d| format!("{d:03}")).collect()).collect();
        let out = pipeline.run(&PipelineInput { context: context.clone(), ..input(&string_lists, &[]) }).expect("valid input");
        prop_assert_eq!(&col.bands, &out.results.iter().map(|r| r.band).collect::<Vec<_>>());
        let ids: Vec<String> = col.order.iter().map(|d| format!("{d:03}")).collect();
        prop_assert_eq!(ids, out.results.iter().map(|r| r.id.clone()).collect::<Vec<_>>());
        for (s, r) in col.scores.iter().zip(&out.results) {
            prop_assert_eq!(s.to_bits(), r.score.to_bits());
        }
    }

    /// Calibration is monotone (non-decreasing, bit for bit) and so preserves the order of
    /// scores.
    #[test]
    fn sigmoid_calibration_preserves_order(scores in prop::collection::vec(-1.0f64..1.0, 0..40), threshold in -0.5f64..0.5, steepness in 0.001f64..1e4) {
        let sigmoid = Sigmoid { threshold, steepness };
        let out = calibrate(&scores, &sigmoid).expect("valid");
        for (i, &s) in scores.iter().enumerate() {
            prop_assert!((0.0..=1.0).contains(&out[i]));
            for (j, &t) in scores.iter().enumerate() {
                if s <= t {
                    prop_assert!(monotone_le(out[i], out[j]), "calibrate({}) = {} > calibrate({}) = {}", s, out[i], t, out[j]);
                }
            }
        }
    }

    /// Fitted calibrations (Platt with a <= 0, isotonic) are monotone probabilities.
    #[test]
    fn fitted_calibration_is_monotone(pairs in prop::collection::vec((-10.0f64..10.0, any::<bool>()), 2..60), mut probes in prop::collection::vec(-20.0f64..20.0, 1..30)) {
        let scores: Vec<f64> = pairs.iter().map(|p| p.0).collect();
        let mut labels: Vec<f64> = pairs.iter().map(|p| if p.1 { 1.0 } else { 0.0 }).collect();
        labels[0] = 1.0;
        labels[1] = 0.0;
        probes.extend_from_slice(&scores);
        probes.sort_by(f64::total_cmp);
        let platt = fit_platt(&scores, &labels).expect("both classes");
        let iso = fit_isotonic(&scores, &labels).expect("both classes");
        let p: Vec<f64> = probes.iter().map(|&x| platt.predict(x)).collect();
        let q: Vec<f64> = probes.iter().map(|&x| iso.predict(x)).collect();
        for w in q.windows(2) {
            prop_assert!(w[0] <= w[1], "isotonic not monotone");
        }
        for w in p.windows(2) {
            prop_assert!(if platt.a <= 0.0 { monotone_le(w[0], w[1]) } else { monotone_le(w[1], w[0]) }, "Platt not monotone");
        }
        prop_assert!(p.iter().chain(&q).all(|v| (0.0..=1.0).contains(v)));
    }

    /// The weighted top-5 is a figure in [0, 1] for every weights it accepts (summing to
    /// at most 1, within `WEIGHT_SUM_SLACK`), and weights summing above that are refused.
    #[test]
    fn weighted_top5_stays_in_unit(raw in prop::array::uniform5(0.0f64..=1.0), total in 0.0f64..=1.0, over in 1e-8f64..4.0, scores in prop::collection::vec(prop_oneof![Just(1.0), 0.0f64..=1.0], 0..8)) {
        use calibrank::confidence::{query_confidence, ConfidenceOptions, WEIGHT_SUM_SLACK};
        let sum: f64 = raw.iter().sum();
        let scaled = |to: f64| raw.map(|w| if sum > 1e-6 { w / sum * to } else { 0.0 });
        let c = query_confidence(&scores, &ConfidenceOptions { weights: scaled(total), k: None }).expect("weights summing to at most 1");
        prop_assert!((0.0..=1.0).contains(&c.weighted_top5), "weightedTop5 {}", c.weighted_top5);
        // Exactly 1 and a little above it, as decimals' rounding gives, also pass; with
        // perfect scores (often drawn), the figure is then held to 1.
        let c = query_confidence(&scores, &ConfidenceOptions { weights: scaled(1.0 + WEIGHT_SUM_SLACK / 2.0), k: None }).expect("within the slack");
        prop_assert!((0.0..=1.0).contains(&c.weighted_top5), "weightedTop5 {}", c.weighted_top5);
        let c = query_confidence(&[1.0; 5], &ConfidenceOptions { weights: scaled(1.0 + WEIGHT_SUM_SLACK / 2.0), k: None }).expect("within the slack");
        prop_assert!(c.weighted_top5 <= 1.0 && (sum <= 1e-6 || c.weighted_top5 > 0.999), "weightedTop5 {}", c.weighted_top5);
        if sum > 1e-6 {
            let e = query_confidence(&scores, &ConfidenceOptions { weights: scaled(1.0 + over), k: None }).unwrap_err();
            prop_assert_eq!(e.field.as_str(), "weights");
        }
    }

    /// Bands are monotone in the score: a higher score never gets a lower band; a score
    /// at a floor is in the band above it (seed 002: `score >= high_floor` is a hit,
    /// `degraded_floor <= score < high_floor` degraded). Floors are drawn among the
    /// defaults and 0 and 1 too, and each score is sometimes exactly one of the floors.
    #[test]
    fn bands_are_monotone(a in floor(), b in floor(), s in score_or_floor(), t in score_or_floor()) {
        let floors = BandFloors { high_floor: a.max(b), degraded_floor: a.min(b) };
        prop_assert!(floors.validate().is_ok());
        let (s, t) = (s.resolve(&floors), t.resolve(&floors));
        let (lo, hi) = (s.min(t), s.max(t));
        prop_assert!(band_rank(floors.band(lo)) <= band_rank(floors.band(hi)));
        if lo >= floors.high_floor { prop_assert_eq!(floors.band(lo), Band::Hit); }
        if hi < floors.degraded_floor { prop_assert_eq!(floors.band(hi), Band::Miss); }
        for x in [lo, hi] {
            if floors.degraded_floor <= x && x < floors.high_floor {
                prop_assert_eq!(floors.band(x), Band::Degraded);
            }
        }
    }

    /// RRF does not depend on the order of the lists (same ids, scores within 1e-12:
    /// the float sums run in list order).
    #[test]
    fn rrf_is_symmetric(lists in lists(), weights in prop::collection::vec(0.0f64..3.0, 6), k in 1.0f64..100.0, rotate in 0usize..6) {
        let ranked: Vec<RankedList<'_, String>> = lists.iter().zip(&weights).map(|(ids, &weight)| RankedList { ids, weight }).collect();
        let mut permuted = ranked.clone();
        permuted.reverse();
        let n = permuted.len();
        if n > 0 { permuted.rotate_left(rotate % n); }
        let a = rrf(&ranked, k).expect("valid");
        let b = rrf(&permuted, k).expect("valid");
        assert_same_fusion(&by_id(a.items.into_iter().map(|i| (i.id, i.score))), &by_id(b.items.into_iter().map(|i| (i.id, i.score))))?;
    }

    /// Multi-query fusion does not depend on the order of the queries.
    #[test]
    fn multi_query_is_symmetric(
        queries in prop::collection::vec(prop::collection::vec((id(), 0.0f64..1.0), 0..12), 0..5),
        method in prop_oneof![Just(MultiQueryMethod::Rrf), Just(MultiQueryMethod::ScoreSum), Just(MultiQueryMethod::ScoreMax)],
    ) {
        let hits: Vec<Vec<QueryHit>> = queries.iter().map(|q| q.iter().map(|(id, s)| QueryHit { id: id.clone(), score: *s, timestamp: None }).collect()).collect();
        let mut reversed = hits.clone();
        reversed.reverse();
        let opts = MultiQueryOptions { method, limit: 1000, similarity_threshold: 0.0, ..Default::default() };
        let a = fuse_multi_query(&hits, &opts).expect("valid");
        let b = fuse_multi_query(&reversed, &opts).expect("valid");
        assert_same_fusion(&by_id(a.results.into_iter().map(|r| (r.id, r.score))), &by_id(b.results.into_iter().map(|r| (r.id, r.score))))?;
    }

    /// Run fusion with a symmetric method does not depend on the order of the runs.
    #[test]
    fn run_fusion_is_symmetric(
        runs in prop::collection::vec(prop::collection::btree_map(id(), 0.0f64..10.0, 0..10), 1..4),
        method in prop::sample::select(vec![
            "sum", "mnz", "max", "min", "med", "anz", "gmnz", "rrf", "rbc", "isr", "log_isr", "logn_isr", "bordafuse",
            "condorcet", "wsum", "dbsf", "arithmetic_mean", "geometric_mean", "harmonic_mean",
        ]),
        norm in prop::sample::select(vec!["min-max", "max", "sum", "zmuv", "rank", "borda", "none"]),
    ) {
        let runs: Vec<Run> = runs.into_iter().map(|docs| Run::from([("q".to_string(), docs)])).collect();
        let mut reversed = runs.clone();
        reversed.reverse();
        let mut params = BTreeMap::new();
        match method {
            "rbc" => { params.insert("phi".to_string(), 0.8); }
            "gmnz" => { params.insert("gamma".to_string(), 0.5); }
            _ => {}
        }
        let opts = FuseRunsOptions { method: method.to_string(), norm: Some(norm.to_string()), weights: None, params };
        let a = fuse_runs(&runs, &opts).expect("valid");
        let b = fuse_runs(&reversed, &opts).expect("valid");
        let empty = BTreeMap::new();
        let (a, b) = (a.get("q").unwrap_or(&empty), b.get("q").unwrap_or(&empty));
        assert_same_fusion(a, b)?;
    }

    /// Every normalization keeps the order (ties stay ties) and maps into [0, 1]
    /// (`max` of non-negative scores included; `max` refuses a negative score). Scores
    /// on a small integer grid (ties), negative, constant vectors, and extremes
    /// (+/-1e300, +/-f64::MAX, subnormals, zeros of both signs).
    #[test]
    fn normalization_preserves_order(scores in edge_scores(), method in method(), temperature in 0.05f64..10.0) {
        if method == NormalizeMethod::Max && scores.iter().any(|&s| s < 0.0) {
            let e = normalize(&scores, method, temperature).unwrap_err();
            prop_assert_eq!(e.code, calibrank::ErrorCode::NegativeValue);
            return Ok(());
        }
        let out = normalize(&scores, method, temperature).expect("valid");
        for (i, &s) in scores.iter().enumerate() {
            if method != NormalizeMethod::None {
                prop_assert!((0.0..=1.0).contains(&out[i]), "{:?}: {}", method, out[i]);
            }
            for (j, &t) in scores.iter().enumerate() {
                if s < t { prop_assert!(out[i] <= out[j], "{:?}: {} -> {} but {} -> {}", method, s, out[i], t, out[j]); }
                // Equal scores give equal values; the same bits, the same bits (0 and -0
                // are a tie that `none` and `max` pass through with their signs).
                if s == t { prop_assert!(out[i] == out[j], "{:?}: {} -> {} but {} -> {}", method, s, out[i], t, out[j]); }
                if s.to_bits() == t.to_bits() { prop_assert_eq!(out[i].to_bits(), out[j].to_bits(), "{:?}: {}", method, s); }
            }
        }
    }

    /// `normalize` (its own loops for none and softmax) and `normalize_scaled` (the
    /// pipeline's, every value through the scale) give the same bits, and the scale
    /// `normalize_scaled` reports recomputes each value.
    #[test]
    fn normalize_and_its_scale_agree(
        scores in prop_oneof![
            prop::collection::vec(prop_oneof![-1e3f64..1e3, 0.0f64..1e-300, Just(f64::MAX), Just(-f64::MAX), Just(0.0), Just(-0.0)], 0..40),
            // Scores near each other, so that softmax's terms are neither 0 nor 1.
            prop::collection::vec(0.0f64..3.0, 1..40),
        ],
        method in method(),
        temperature in prop_oneof![0.05f64..10.0, Just(f64::MIN_POSITIVE), Just(1e300)],
    ) {
        let plain = normalize(&scores, method, temperature);
        let scaled = calibrank::normalize::normalize_scaled(&scores, method, temperature);
        match (plain, scaled) {
            (Ok(a), Ok((b, scale))) => {
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                prop_assert_eq!(bits(&a), bits(&b));
                prop_assert_eq!(scale.is_none(), scores.is_empty());
                if let Some(scale) = scale {
                    for (s, n) in scores.iter().zip(&b) {
                        prop_assert_eq!(renormalized(*s, &scale).to_bits(), n.to_bits(), "{} under {:?}", s, scale);
                    }
                }
            }
            (Err(a), Err(b)) => prop_assert_eq!((a.code, a.field), (b.code, b.field)),
            (a, b) => prop_assert!(false, "{:?} against {:?}", a, b),
        }
    }

    /// min-max is idempotent; so is max once the maximum reaches its floor (0.001).
    #[test]
    fn normalization_is_idempotent(scores in prop::collection::vec(prop_oneof![-1e6f64..1e6, 0.0f64..1.0, Just(0.0)], 1..40)) {
        let once = normalize(&scores, NormalizeMethod::MinMax, 1.0).expect("valid");
        let twice = normalize(&once, NormalizeMethod::MinMax, 1.0).expect("valid");
        prop_assert_eq!(&once, &twice);
        let non_negative: Vec<f64> = scores.iter().map(|s| s.abs()).collect();
        let once = normalize(&non_negative, NormalizeMethod::Max, 1.0).expect("valid");
        let max = non_negative.iter().copied().fold(0.0, f64::max);
        if max >= MAX_FLOOR {
            let twice = normalize(&once, NormalizeMethod::Max, 1.0).expect("valid");
            prop_assert_eq!(&once, &twice);
        }
    }
}

/// A band floor: anywhere in [0, 1], or one of the seed's defaults, 0 or 1.
fn floor() -> impl Strategy<Value = f64> {
    prop_oneof![
        0.0f64..=1.0,
        prop::sample::select(vec![0.0, 0.65, 0.85, 1.0])
    ]
}

/// A score, or one of the floors exactly (known once the floors are drawn).
#[derive(Debug, Clone, Copy)]
enum ScoreOrFloor {
    Score(f64),
    High,
    Degraded,
}

impl ScoreOrFloor {
    fn resolve(self, floors: &BandFloors) -> f64 {
        match self {
            ScoreOrFloor::Score(s) => s,
            ScoreOrFloor::High => floors.high_floor,
            ScoreOrFloor::Degraded => floors.degraded_floor,
        }
    }
}

fn score_or_floor() -> impl Strategy<Value = ScoreOrFloor> {
    prop_oneof![
        2 => (-0.5f64..1.5).prop_map(ScoreOrFloor::Score),
        1 => Just(ScoreOrFloor::High),
        1 => Just(ScoreOrFloor::Degraded),
    ]
}

/// Scores with ties and edge values: a small integer grid (negative included),
/// continuous values, extremes (+/-1e300, +/-f64::MAX, subnormals, the smallest normal,
/// zeros of both signs); some vectors constant.
fn edge_scores() -> impl Strategy<Value = Vec<f64>> {
    let value = || {
        prop_oneof![
            3 => (-3i32..=3).prop_map(f64::from),
            2 => 0.0f64..100.0,
            1 => -100.0f64..0.0,
            1 => prop::sample::select(vec![
                1e300, -1e300, f64::MAX, -f64::MAX, 5e-324, -5e-324, 1e-310, f64::MIN_POSITIVE, 0.0, -0.0,
            ]),
        ]
    };
    prop_oneof![
        3 => prop::collection::vec(value(), 1..40),
        1 => (value(), 1usize..40).prop_map(|(v, n)| vec![v; n]),
    ]
}

/// Hits of one query: ids of the small alphabet, similarities >= 0 (a grid of tenths,
/// for ties, or any value up to 1).
fn non_negative_hits() -> impl Strategy<Value = Vec<QueryHit>> {
    prop::collection::vec(
        (
            id(),
            prop_oneof![(0u8..=10).prop_map(|t| f64::from(t) / 10.0), 0.0f64..=1.0],
        ),
        0..12,
    )
    .prop_map(|hits| {
        hits.into_iter()
            .map(|(id, score)| QueryHit {
                id,
                score,
                timestamp: None,
            })
            .collect()
    })
}

fn multi_query_method() -> impl Strategy<Value = MultiQueryMethod> {
    prop_oneof![
        Just(MultiQueryMethod::Rrf),
        Just(MultiQueryMethod::ScoreSum),
        Just(MultiQueryMethod::ScoreMax),
    ]
}

proptest! {
    #![proptest_config(cases())]

    /// Seed 001: a message found by one more query never scores lower ("messages in
    /// multiple queries naturally get higher scores"; score_max "applies incremental
    /// boost for each additional query"), for every method, with similarities >= 0:
    /// `item` is put into one more query (anywhere in it, its similarity above the
    /// threshold), the other queries unchanged. Under rrf it always gains.
    #[test]
    fn one_more_query_never_lowers_a_score(
        queries in prop::collection::vec(non_negative_hits(), 0..5),
        extra in non_negative_hits(),
        item in id(),
        at in 0usize..12,
        item_score in 0.5f64..=1.0,
        threshold in prop_oneof![Just(0.0), 0.0f64..0.5],
        method in multi_query_method(),
        boost in 0.0f64..=1.0,
        k in 1.0f64..100.0,
    ) {
        let opts = MultiQueryOptions {
            method,
            results_per_query: 100,
            similarity_threshold: threshold,
            multi_query_boost: boost,
            limit: 1000,
            k,
            verbose: true,
        };
        let score_of = |out: &calibrank::multiquery::MultiQueryOutput| {
            out.results.iter().find(|r| r.id == item).map(|r| (r.score, r.appeared_in_query_count))
        };
        let before = fuse_multi_query(&queries, &opts).expect("valid");
        let mut extra = extra;
        extra.insert(at.min(extra.len()), QueryHit { id: item.clone(), score: item_score, timestamp: None });
        let mut more = queries.clone();
        more.push(extra);
        let after = fuse_multi_query(&more, &opts).expect("valid");
        let (new, count) = score_of(&after).expect("the item is found by the extra query");
        prop_assert!(new >= 0.0);
        match score_of(&before) {
            Some((old, old_count)) => {
                prop_assert_eq!(count, old_count.map(|c| c + 1));
                prop_assert!(new >= old, "{:?}: {} fell to {}", method, old, new);
                if method == MultiQueryMethod::Rrf {
                    prop_assert!(new > old, "rrf: {} did not rise ({})", old, new);
                }
            }
            None => prop_assert_eq!(count, Some(1)),
        }
    }

    /// Seed 001, single query: "all fusion methods should produce identical results
    /// (ordered by similarity score)". One query's hits sorted by similarity (ties from a
    /// grid, repeated ids, any threshold and cut): rrf, score_sum and score_max return
    /// the same ids in the same order, and score_sum and score_max the same scores (the
    /// similarities). Without timestamps: the seed breaks equal scores by timestamp
    /// first, which rrf's distinct ranks never meet.
    #[test]
    fn a_single_query_ranks_alike_under_every_method(
        hits in non_negative_hits(),
        threshold in prop_oneof![Just(0.0), 0.0f64..1.0],
        results_per_query in 1u32..16,
        limit in 1u32..16,
        boost in 0.0f64..=1.0,
        k in 1.0f64..100.0,
    ) {
        let mut hits = hits;
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        let queries = vec![hits];
        let run = |method| {
            let opts = MultiQueryOptions { method, results_per_query, similarity_threshold: threshold, multi_query_boost: boost, limit, k, verbose: false };
            fuse_multi_query(&queries, &opts).expect("valid").results
        };
        let rrf = run(MultiQueryMethod::Rrf);
        let sum = run(MultiQueryMethod::ScoreSum);
        let max = run(MultiQueryMethod::ScoreMax);
        let ids = |r: &[calibrank::multiquery::MultiQueryResult]| r.iter().map(|x| x.id.clone()).collect::<Vec<_>>();
        prop_assert_eq!(ids(&rrf), ids(&sum));
        prop_assert_eq!(ids(&rrf), ids(&max));
        for (s, m) in sum.iter().zip(&max) {
            prop_assert_eq!(s.score.to_bits(), m.score.to_bits());
        }
        // And the order is the query's own: each id's first hit, above the threshold.
        let mut seen = BTreeSet::new();
        let expected: Vec<String> = queries[0]
            .iter()
            .take(results_per_query as usize)
            .filter(|h| h.score >= threshold && seen.insert(h.id.clone()))
            .map(|h| h.id.clone())
            .take(limit as usize)
            .collect();
        prop_assert_eq!(ids(&rrf), expected);
    }

    /// Seed 003: `maxScore = max(scores, 0.001)`, each score divided by it: the best
    /// result is exactly 1 when the largest score reaches the floor, below 1 otherwise
    /// (a weak set stays weak), and every score lies in [0, 1]. Through `normalize` and
    /// through a pipeline normalizing by max (its first result, the pool's best after
    /// reranking, when it reaches the floor).
    #[test]
    fn max_normalization_puts_the_best_at_one(
        scores in prop::collection::vec(prop_oneof![0.0f64..2.0, 0.0f64..0.002, Just(MAX_FLOOR), Just(0.0), Just(1e300), Just(5e-324)], 1..30),
        cfg in config(),
        input in full_input(),
        // Lists weighted 0.01 fuse below max's floor (0.01 / 61 per list): the branch
        // where the best result stays under 1 (drawn alone, 2 cases in 512 reached it).
        tiny in any::<bool>(),
    ) {
        let out = normalize(&scores, NormalizeMethod::Max, 1.0).expect("non-negative");
        let (best, max) = scores.iter().enumerate().fold((0, f64::NEG_INFINITY), |(b, m), (i, &s)| if s > m { (i, s) } else { (b, m) });
        if max >= MAX_FLOOR {
            prop_assert_eq!(out[best], 1.0);
        } else {
            prop_assert!(out[best] < 1.0, "{} -> {}", max, out[best]);
            prop_assert_eq!(out[best], max / MAX_FLOOR);
        }
        prop_assert!(out.iter().all(|v| (0.0..=1.0).contains(v)));

        let mut cfg = cfg;
        cfg.normalization.method = NormalizeMethod::Max;
        cfg.explain = true;
        // (The cross-encoder's raw scores may be below 0, which max refuses.)
        cfg.rerank.cross_encoder_normalization = CrossEncoderNormalization::MinMax;
        let mut input = input;
        if tiny {
            for l in &mut input.lists {
                l.weight = Some(0.01);
            }
        }
        let run = Pipeline::new(cfg).expect("valid").run(&input).expect("valid input");
        if let Some(first) = run.results.first() {
            let e = first.explain.as_ref().expect("explained");
            let pool_max = run.results.iter().map(|r| r.explain.as_ref().expect("explained").after_rerank).fold(f64::NEG_INFINITY, f64::max);
            prop_assert_eq!(e.after_rerank, pool_max);
            if e.after_rerank >= MAX_FLOOR {
                prop_assert_eq!(e.normalized, 1.0);
            } else {
                prop_assert!(e.normalized < 1.0);
            }
        }
    }

    /// Recency through the pipeline: an older item never gets a larger multiplier, by
    /// age (seed 000's steps, x1.2 under 7 days, x1.1 under 30, or any steps whose
    /// multipliers fall with age and stay >= 1) or by fiscal year (seed 004's tiers, any
    /// window, latest year and boost >= 0, at the merge and after reranking, the latter
    /// whatever the mode); a multiplier lies in [1, the largest step] or [1, 1 + boost].
    #[test]
    fn an_older_item_never_gets_a_larger_recency_multiplier(
        input in full_input(),
        fiscal in any::<bool>(),
        custom in prop::option::of(prop::collection::vec((0.5f64..20.0, 1.0f64..3.0), 1..4)),
        tier in (1u32..8, 2018i32..2030),
        boosts in (0.0f64..2.0, 0.0f64..2.0),
    ) {
        let steps = match custom {
            None => default_steps(),
            Some(v) => {
                let mut multipliers: Vec<f64> = v.iter().map(|s| s.1).collect();
                multipliers.sort_by(|a, b| b.total_cmp(a));
                let mut age = 0.0;
                v.iter().zip(multipliers).map(|(s, multiplier)| { age += s.0; RecencyStep { max_age_days: age, multiplier } }).collect()
            }
        };
        let top = steps.iter().map(|s| s.multiplier).fold(1.0, f64::max);
        let mut cfg = PipelineConfig { top_k: 24, top_n: 24, min_confidence: 0.0, explain: true, ..Default::default() };
        cfg.recency = RecencyConfig {
            mode: if fiscal { RecencyMode::FiscalYear } else { RecencyMode::Step },
            steps,
            fiscal_year: FiscalYearTier { window: tier.0, latest_year: tier.1 },
            boost: boosts.0,
        };
        cfg.rerank.method = RerankMethod::Heuristic;
        cfg.rerank.recency_boost = boosts.1;
        let out = Pipeline::new(cfg).expect("valid").run(&input).expect("valid input");
        let age = |id: &str| input.items[id].modified_at.as_ref().map(|t| t.to_millis("t").unwrap());
        let year = |id: &str| input.items[id].fiscal_year;
        for r in &out.results {
            let e = r.explain.as_ref().expect("explained");
            let merge_range = if fiscal { 1.0..=1.0 + boosts.0 } else { 1.0..=top };
            prop_assert!(merge_range.contains(&e.recency_multiplier), "{}", e.recency_multiplier);
            // The tier after reranking applies whatever recency.mode (README).
            prop_assert!((1.0..=1.0 + boosts.1).contains(&e.rerank_recency_multiplier), "{}", e.rerank_recency_multiplier);
            for o in &out.results {
                let f = o.explain.as_ref().expect("explained");
                // `o` is older than `r`: modified earlier, or of an earlier fiscal year.
                let earlier_year = matches!((year(&o.id), year(&r.id)), (Some(a), Some(b)) if a < b);
                let modified_earlier = matches!((age(&o.id), age(&r.id)), (Some(a), Some(b)) if a < b);
                if (fiscal && earlier_year) || (!fiscal && modified_earlier) {
                    prop_assert!(f.recency_multiplier <= e.recency_multiplier, "{} (older) x{} > {} x{}", o.id, f.recency_multiplier, r.id, e.recency_multiplier);
                }
                if earlier_year {
                    prop_assert!(f.rerank_recency_multiplier <= e.rerank_recency_multiplier, "{} (older) x{} > {} x{}", o.id, f.rerank_recency_multiplier, r.id, e.rerank_recency_multiplier);
                }
            }
        }
    }
}

/// Runs of 2 lists over `queries` queries (scores any finite value in a wide range,
/// repeated scores allowed), and judgements of one document per query, graded 0 or 1.
fn qc_data() -> impl Strategy<Value = (Qrels, Vec<Run>)> {
    let run = prop::collection::btree_map(
        (0u8..12).prop_map(|q| format!("q{q}")),
        prop::collection::btree_map(id(), (-50i32..50).prop_map(|s| f64::from(s) / 4.0), 0..8),
        1..12,
    );
    let judged = prop::collection::btree_map(
        (0u8..12).prop_map(|q| format!("q{q}")),
        (id(), 0u8..2).prop_map(|(d, g)| BTreeMap::from([(d, f64::from(g))])),
        0..12,
    );
    // Half the cases hold a query with its relevant document retrieved and one without:
    // both classes, so that the fit runs (drawn alone, four cases in five were refused
    // for one class or none).
    (
        judged.prop_map(Qrels),
        prop::collection::vec(run.prop_map(Run), 2..=2),
        any::<bool>(),
    )
        .prop_map(|(mut qrels, mut runs, both)| {
            if both {
                qrels
                    .0
                    .insert("qa".into(), BTreeMap::from([("da".into(), 1.0)]));
                qrels
                    .0
                    .insert("qb".into(), BTreeMap::from([("db".into(), 0.0)]));
                if let Some(r) = runs.first_mut() {
                    r.0.insert("qa".into(), BTreeMap::from([("da".into(), 3.0)]));
                    r.0.insert("qb".into(), BTreeMap::from([("dc".into(), 3.0)]));
                }
            }
            (qrels, runs)
        })
}

proptest! {
    #![proptest_config(cases())]

    /// fitQueryConfidence never panics; it either fits a valid model whose probabilities
    /// lie in [0, 1], the same model every time, or names its error; and the pipeline
    /// with that model gives the model's probability.
    #[test]
    fn query_confidence_fit_is_total_and_deterministic(
        (qrels, runs) in qc_data(),
        // RRF's k down to 1 and weights up to 20: fused tops far above the rank-only
        // feature's sigmoid, whose logit its clamp keeps finite.
        rrf_k in prop_oneof![Just(60.0), 1.0f64..100.0],
        weights in prop::option::of(prop::collection::vec(0.0f64..20.0, 2..=2)),
    ) {
        use calibrank::lab::fit::{fit_query_confidence, predict_query_confidence, FitQueryConfidenceOptions};
        let opts = FitQueryConfidenceOptions { rrf_k, weights, ..Default::default() };
        match fit_query_confidence(&qrels, &runs, &opts) {
            Ok(model) => {
                prop_assert!(model.validate().is_ok());
                // The same model from borrowed runs (`&[&Run]`), and again.
                let borrowed: Vec<&Run> = runs.iter().collect();
                prop_assert_eq!(&model, &fit_query_confidence(&qrels, &borrowed, &opts).unwrap());
                prop_assert_eq!(predict_query_confidence(&model, &borrowed).unwrap(), predict_query_confidence(&model, &runs).unwrap());
                prop_assert!(model.training.positives > 0 && model.training.positives < model.training.queries);
                let p = predict_query_confidence(&model, &runs).unwrap();
                for (q, &v) in &p {
                    prop_assert!((0.0..=1.0).contains(&v), "{} -> {}", q, v);
                }
                // One query through a pipeline configured with the model.
                if let Some((q, &expected)) = p.iter().next() {
                    let lists = runs
                        .iter()
                        .enumerate()
                        .map(|(i, r)| {
                            let ranked = calibrank::lab::fit::ranked(r, q);
                            let v = ranked.view();
                            InputList {
                                name: format!("r{i}"),
                                ids: v.ids.iter().map(|s| s.to_string()).collect(),
                                scores: v.scores.map(<[f64]>::to_vec),
                                weight: None,
                            }
                        })
                        .collect();
                    let mut cfg = PipelineConfig::default();
                    cfg.confidence.model = Some(model.clone());
                    let out = Pipeline::new(cfg).unwrap().run(&PipelineInput { lists, ..Default::default() }).unwrap();
                    prop_assert_eq!(out.confidence.at_least_one_relevant.to_bits(), expected.to_bits());
                    prop_assert_eq!(out.outcome.probability.to_bits(), expected.to_bits());
                }
            }
            Err(e) => {
                prop_assert!(["qrels", "runs"].contains(&e.field.as_str()), "{:?}", e);
            }
        }
    }
}
