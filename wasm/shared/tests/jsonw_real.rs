//! The JSON writer (`jsonw`) on real outputs: every core case of the golden vectors (and
//! variations of its pipelines: each rerank method, band profiles with a context, Platt
//! and isotonic calibration fitted by the lab, explanations on), written by `jsonw` and
//! by serde_json, byte for byte.

#![cfg(not(target_arch = "wasm32"))]

use calibrank::bands::{BandFloors, BandProfile};
use calibrank::confidence::{query_confidence, ConfidenceOptions};
use calibrank::multiquery::{fuse_multi_query, MultiQueryOptions, QueryHit};
use calibrank::pipeline::{
    Calibration, Explain, Pipeline, PipelineConfig, PipelineInput, RecencyMode, RerankMethod,
};
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
fn golden_outputs_as_serde_json() {
    let mut pipelines = 0;
    let mut explained = 0;
    for case in calibrank::golden::cases() {
        match case["kind"].as_str().unwrap_or("") {
            "pipeline" => {
                let base: PipelineConfig = parse(&case["config"]);
                let mut input: PipelineInput = parse(&case["input"]);
                input.context = Some(calibrank::bands::BandContext {
                    task_class: Some("bugfix".into()),
                    language: Some("rust".into()),
                    build_system: Some("cargo".into()),
                });
                for cfg in variations(&base) {
                    let Ok(p) = Pipeline::new(cfg) else { continue };
                    same(p.config(), "config");
                    let Ok(out) = p.run(&input) else { continue };
                    let explains: Vec<&Option<Explain>> =
                        out.results.iter().map(|x| &x.explain).collect();
                    explained += explains.iter().filter(|e| e.is_some()).count();
                    same(&explains, "explanations");
                    same(
                        &query_confidence(
                            &out.results.iter().map(|r| r.score).collect::<Vec<_>>(),
                            &ConfidenceOptions::default(),
                        )
                        .unwrap(),
                        "queryConfidence",
                    );
                    pipelines += 1;
                }
            }
            "multiquery" => {
                let queries: Vec<Vec<QueryHit>> = parse(&case["queries"]);
                let mut opts: MultiQueryOptions = parse(&case["options"]);
                for verbose in [false, true] {
                    opts.verbose = verbose;
                    same(&fuse_multi_query(&queries, &opts).unwrap(), "multiquery");
                }
            }
            "confidence" => {
                let scores: Vec<f64> = parse(&case["scores"]);
                let c = query_confidence(&scores, &ConfidenceOptions::default()).unwrap();
                same(&c, "confidence");
            }
            "band" => {
                let scores: Vec<f64> = parse(&case["scores"]);
                for s in scores {
                    let floors = BandFloors::default();
                    same(&floors.classify(s, None).unwrap(), "classify");
                    same(
                        &floors.classify(s, Some("doc \"1\"".into())).unwrap(),
                        "classify",
                    );
                }
            }
            _ => {}
        }
    }
    assert!(pipelines >= 6, "{pipelines} pipelines run");
    assert!(explained > 0, "no explanation written");
}
