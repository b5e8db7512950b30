//! Configurations and inputs made from the fuzzer's bytes.

use super::bytes::Bytes;
use super::expect::scale_to_one;
use calibrank::bands::{BandContext, BandProfile};
use calibrank::calibrate::{IsotonicModel, PlattModel};
use calibrank::lab::fit::FittedCalibration;
use calibrank::limits::Limits;
use calibrank::normalize::NormalizeMethod;
use calibrank::pipeline::{
    Calibration, InputList, ItemMeta, PipelineConfig, PipelineInput, RecencyMode, RerankMethod,
};
use calibrank::recency::{FiscalYearTier, RecencyStep};
use calibrank::rerank::HeuristicConfig;

pub(crate) fn gen_limits(b: &mut Bytes<'_>) -> Limits {
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

pub(crate) fn gen_heuristic(b: &mut Bytes<'_>) -> HeuristicConfig {
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

pub(crate) fn gen_fitted(b: &mut Bytes<'_>) -> FittedCalibration {
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
pub(crate) fn as_calibration(model: FittedCalibration) -> Calibration {
    match model {
        FittedCalibration::Platt(m) => Calibration::Platt(m),
        FittedCalibration::Isotonic(m) => Calibration::Isotonic(m),
    }
}

pub(crate) fn gen_config(b: &mut Bytes<'_>) -> PipelineConfig {
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

pub(crate) fn gen_input(b: &mut Bytes<'_>) -> PipelineInput {
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
