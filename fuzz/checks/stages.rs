//! The `stages` target: each stage's function called alone.

use super::bytes::Bytes;
use super::expect::{check_error, close, in_unit, monotone_le, scale_to_one};
use super::generate::gen_heuristic;
use calibrank::bands::{Band, BandFloors};
use calibrank::calibrate::{calibrate, Sigmoid};
use calibrank::confidence::{query_confidence, ConfidenceOptions};
use calibrank::error::ErrorCode;
use calibrank::normalize::{normalize, NormalizeMethod};
use calibrank::recency::FiscalYearTier;
use calibrank::rerank::{cross_encoder_scores, rerank_heuristic, Candidate};
use calibrank::timestamp::{parse_iso8601, Timestamp};

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
