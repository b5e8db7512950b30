//! The `fit` target: Platt, isotonic, calibration error and band proposals.

use super::bytes::Bytes;
use super::expect::{check_error, in_unit, monotone_le};
use super::generate::as_calibration;
use calibrank::bands::BandFloors;
use calibrank::error::ErrorCode;
use calibrank::lab::fit::{
    calibration_error, fit_isotonic, fit_platt, propose_bands, BinStrategy,
    CalibrationErrorOptions, FittedCalibration, ProposeBandsOptions,
};
use calibrank::pipeline::{Pipeline, PipelineConfig};

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
            assert!(r.auroc.is_none_or(in_unit), "auroc {:?}", r.auroc);
            assert_eq!(
                r.auroc.is_some(),
                labels.contains(&0.0) && labels.contains(&1.0),
                "auroc is null for one class only"
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

pub(crate) fn check_fitted_round_trip(model: FittedCalibration) {
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
