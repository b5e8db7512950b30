//! The pipeline's targets: `pipeline`, `config_json`, `columnar`.

use super::bytes::Bytes;
use super::expect::{
    check_error, close, in_unit, COLUMNAR_CODES, CONFIG_CODES, JSON_CODES, RUN_CODES,
};
use super::fusion::FUSE_RUNS_CODES;
use super::generate::{gen_config, gen_input};
use calibrank::bands::{select_floors, BandContext, BandFloors};
use calibrank::calibrate::Sigmoid;
use calibrank::confidence::ConfidenceOptions;
use calibrank::error::{from_json, ErrorCode};
use calibrank::lab::fit::{CalibrationErrorOptions, FittedCalibration, ProposeBandsOptions};
use calibrank::lab::runfusion::{fuse_runs, FuseRunsOptions};
use calibrank::lab::runs::Run;
use calibrank::limits::Limits;
use calibrank::multiquery::MultiQueryOptions;
use calibrank::pipeline::{
    split_offsets, ColumnarInput, InputList, ItemMeta, Pipeline, PipelineConfig, PipelineInput,
    PipelineOutput, RecencyMode, RerankMethod,
};
use calibrank::rerank::HeuristicConfig;
use calibrank::timestamp::Timestamp;
use std::collections::{BTreeMap, BTreeSet};

/// The pipeline's output contract (seed 000) and the consistency of its report.
pub(crate) fn check_output(cfg: &PipelineConfig, input: &PipelineInput, out: &PipelineOutput) {
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
pub(crate) fn run_pipeline(
    config: PipelineConfig,
    input: &PipelineInput,
) -> Option<PipelineOutput> {
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
    pub(crate) fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
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
