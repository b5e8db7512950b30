//! The JSON writer (`jsonw`) on real outputs: the effective configuration of every
//! pipeline of the golden vectors (and variations: each rerank method, band profiles,
//! Platt and isotonic calibration fitted by the lab), written by `jsonw` and by
//! serde_json, byte for byte. (`Pipeline.config` is the core module's one JSON output
//! since explanations, `fuseMultiQuery`, `classifyBand` and `queryConfidence` answer
//! with typed sections.)

#![cfg(not(target_arch = "wasm32"))]

use calibrank::bands::BandProfile;
use calibrank::pipeline::{Calibration, Pipeline, PipelineConfig, RecencyMode, RerankMethod};
use calibrank::rerank::HeuristicConfig;
use calibrank_wasm_shared::jsonw::{to_string, ToJson};
use serde_json::Value;

fn same<T: ToJson + serde::Serialize + ?Sized>(v: &T, what: &str) {
    let ours = to_string(v);
    let theirs = serde_json::to_string(v).unwrap();
    assert_eq!(ours, theirs, "{what}");
}

fn parse<T: serde::de::DeserializeOwned>(v: &Value) -> T {
    serde_json::from_value(v.clone()).unwrap()
}

/// Each variation of a golden pipeline config (the config as given first).
fn variations(base: &PipelineConfig) -> Vec<PipelineConfig> {
    let scores: Vec<f64> = (0..40).map(|i| f64::from(i) / 40.0).collect();
    let labels: Vec<f64> = (0..40)
        .map(|i| f64::from(u8::from(i % 3 != 0 && i > 12)))
        .collect();
    let platt = calibrank::lab::fit::fit_platt(&scores, &labels).unwrap();
    let isotonic = calibrank::lab::fit::fit_isotonic(&scores, &labels).unwrap();
    let mut out = vec![base.clone()];
    let mut c = base.clone();
    c.rerank.method = RerankMethod::Heuristic;
    c.rerank.heuristic = HeuristicConfig {
        stopwords: Some(vec!["the".into(), "of \"quoted\"\n".into()]),
        ..HeuristicConfig::default()
    };
    c.rerank.candidate_limit = Some(7);
    c.calibration = Calibration::Platt(platt);
    c.bands.profiles = vec![
        BandProfile {
            name: "rust".into(),
            task_class: None,
            language: Some("rust".into()),
            build_system: None,
            high_floor: 0.6,
            degraded_floor: 0.2,
        },
        BandProfile {
            name: "rust-cargo".into(),
            task_class: Some("bugfix".into()),
            language: Some("rust".into()),
            build_system: Some("cargo".into()),
            high_floor: 0.9,
            degraded_floor: 0.1,
        },
    ];
    out.push(c);
    let mut c = base.clone();
    c.rerank.method = RerankMethod::CrossEncoder;
    c.recency.mode = RecencyMode::FiscalYear;
    c.calibration = Calibration::Isotonic(isotonic);
    c.confidence.k = Some(3);
    c.weights.insert("kéy \u{1}".into(), 0.25);
    out.push(c);
    out
}

#[test]
fn golden_configs_as_serde_json() {
    let mut pipelines = 0;
    for case in calibrank::golden::cases() {
        if case["kind"].as_str() != Some("pipeline") {
            continue;
        }
        let base: PipelineConfig = parse(&case["config"]);
        for cfg in variations(&base) {
            let Ok(p) = Pipeline::new(cfg) else { continue };
            same(p.config(), "config");
            pipelines += 1;
        }
    }
    assert!(pipelines >= 6, "{pipelines} pipelines");
}

proptest::proptest! {
    /// The JSON writer's string escaping (fast, for whole outputs) and the field paths'
    /// (small, `calibrank::error::push_json_key`) are two copies of one rule: they agree,
    /// and both are serde_json's.
    #[test]
    fn the_writer_and_the_paths_escape_strings_alike(
        prefix in "[a-z\\[\\]\"]{0,3}",
        s in proptest::prop_oneof![".{0,12}", "[\\x00-\\x1f\"\\\\a-c\u{e9}\u{1F600}]{0,12}"],
    ) {
        let mut writer = prefix.clone();
        calibrank_wasm_shared::push_json_string(&mut writer, &s);
        let mut path = prefix.clone();
        calibrank::error::push_json_key(&mut path, &s);
        proptest::prop_assert_eq!(&writer, &path);
        proptest::prop_assert_eq!(writer, format!("{prefix}{}", serde_json::to_string(&s).unwrap()));
    }
}
