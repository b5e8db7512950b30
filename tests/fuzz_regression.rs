//! Replays the saved fuzz corpus (`fuzz/corpus/<target>/`) and the crash reproducers
//! (`fuzz/regressions/<target>/`) through the fuzz targets' own checks, on stable Rust:
//! every input must pass, so a fixed bug stays fixed. `make fuzz` (nightly, cargo-fuzz)
//! grows the corpus; see docs/reliability.md.

#[path = "../fuzz/checks/mod.rs"]
#[allow(dead_code)]
// The checks' tolerances use std's min / max, whose zero signs do not matter there.
#[allow(clippy::disallowed_methods)]
mod checks;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs every saved input of every target; reports all failures at once.
fn replay(kind: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind);
    let mut failures = Vec::new();
    let mut count = 0;
    for (name, check) in checks::TARGETS {
        for file in inputs(&root.join(name)) {
            let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            count += 1;
            if catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
                failures.push(file.display().to_string());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} saved inputs fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    count
}

#[test]
fn corpus_inputs_pass_every_check() {
    let n = replay("corpus");
    eprintln!("replayed {n} corpus inputs");
    assert!(
        n >= checks::TARGETS.len(),
        "the corpus is missing (fuzz/corpus/<target>/)"
    );
}

#[test]
fn crash_reproducers_stay_fixed() {
    let n = replay("regressions");
    eprintln!("replayed {n} crash reproducers");
    // None at all means they were not found, not that they pass.
    assert!(
        n >= 1,
        "no crash reproducer was replayed (fuzz/regressions/<target>/)"
    );
    // Nor is one left out: each file under fuzz/regressions/ is in a target's folder.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join("regressions");
    let on_disk: usize = std::fs::read_dir(&root)
        .expect("fuzz/regressions/")
        .filter_map(|e| e.ok())
        .map(|e| inputs(&e.path()).len())
        .sum();
    assert_eq!(n, on_disk, "reproducers outside the fuzz targets' folders");
}

#[test]
fn every_target_has_a_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join("corpus");
    for (name, _) in checks::TARGETS {
        assert!(
            !inputs(&root.join(name)).is_empty(),
            "no corpus for fuzz target {name}"
        );
    }
}

/// The bugs the fuzzers found, written out (the byte reproducers above depend on the
/// decoder in `fuzz/checks/bytes.rs`; these do not).
#[test]
fn fuzz_findings_stay_fixed() {
    use calibrank::confidence::{query_confidence, ConfidenceOptions};
    use calibrank::error::ErrorCode;
    use calibrank::normalize::{normalize, NormalizeMethod};
    use calibrank::rerank::{cross_encoder_scores, rerank_heuristic, Candidate, HeuristicConfig};
    use std::collections::BTreeMap;

    // z-score and min-max of finite scores near f64::MAX: finite, ordered.
    let huge = [f64::MAX, f64::MAX, 0.0, -f64::MAX];
    for method in [NormalizeMethod::ZScore, NormalizeMethod::MinMax] {
        let out = normalize(&huge, method, 1.0).unwrap();
        assert!(
            out.iter().all(|x| x.is_finite() && (0.0..=1.0).contains(x)),
            "{method:?}: {out:?}"
        );
        assert!(out[0] > out[2] && out[2] > out[3], "{method:?}: {out:?}");
    }
    // z-score of distinct subnormal scores is not a flat 0.5.
    let tiny = normalize(&[f64::from_bits(1), 0.0], NormalizeMethod::ZScore, 1.0).unwrap();
    assert!(tiny[0] > tiny[1], "{tiny:?}");

    // Multi-query score sums that overflow are an error.
    let hit = |id: &str| calibrank::multiquery::QueryHit {
        id: id.into(),
        score: f64::MAX,
        timestamp: None,
    };
    let opts = calibrank::multiquery::MultiQueryOptions {
        method: calibrank::multiquery::MultiQueryMethod::ScoreSum,
        ..Default::default()
    };
    let e = calibrank::multiquery::fuse_multi_query(&[vec![hit("a")], vec![hit("a")]], &opts)
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::NonFiniteScore);

    // ndcg_burges of a grade of 2000 overflows: an error, not NaN.
    let qrels = calibrank::lab::runs::Qrels::from([(
        "q".to_string(),
        BTreeMap::from([("d".to_string(), 2000.0)]),
    )]);
    let run = calibrank::lab::runs::Run::from([(
        "q".to_string(),
        BTreeMap::from([("d".to_string(), 1.0)]),
    )]);
    let e = calibrank::lab::eval::evaluate(&qrels, &run, &["ndcg_burges"]).unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str()),
        (ErrorCode::NonFiniteScore, "qrels.q")
    );

    // Confidence weights whose sum overflows are refused.
    let e = query_confidence(
        &[1.0, 1.0],
        &ConfidenceOptions {
            weights: [f64::MAX; 5],
            k: None,
        },
    )
    .unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str()),
        (ErrorCode::InvalidWeight, "weights")
    );

    // Rerank: overflowing multipliers are an error; -0.0 ties with 0.0 (ties by id).
    let cand = |id: &str, score: f64| Candidate {
        id: id.into(),
        score,
        name: "x".into(),
        entity_type: None,
        summary: None,
        content: None,
    };
    let big = HeuristicConfig {
        unknown_type_multiplier: f64::MAX,
        exact_name_multiplier: f64::MAX,
        ..Default::default()
    };
    let e = rerank_heuristic("x", &[cand("a", 1.0)], &big).unwrap_err();
    assert_eq!(e.code, ErrorCode::NonFiniteScore);
    // No query, as in the pipeline: EMPTY_QUERY, not every factor 1.
    for q in ["", " \t\n"] {
        let e = rerank_heuristic(q, &[cand("a", 1.0)], &HeuristicConfig::default()).unwrap_err();
        assert_eq!((e.code, e.field.as_str()), (ErrorCode::EmptyQuery, "query"));
    }
    let out = rerank_heuristic(
        "q",
        &[cand("b", 0.0), cand("a", -0.0)],
        &HeuristicConfig::default(),
    )
    .unwrap();
    assert_eq!(
        out.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );

    // The cross-encoder boost is validated.
    let tier = calibrank::recency::FiscalYearTier::default();
    assert_eq!(
        cross_encoder_scores(&[1.0], &[Some(2025)], &tier, f64::NAN)
            .unwrap_err()
            .code,
        ErrorCode::InvalidConfig
    );
    assert!(
        cross_encoder_scores(&[-f64::MAX, f64::MAX], &[None, None], &tier, 0.8)
            .unwrap()
            .iter()
            .all(|s| s.is_finite())
    );

    // A document count that cannot be allocated is INPUT_TOO_LARGE, not an abort.
    let e = calibrank::fuse::rrf_indexed(&[], &[], "weights", 60.0, usize::MAX).unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str()),
        (ErrorCode::InputTooLarge, "nDocs")
    );
}

#[test]
fn short_and_empty_inputs_pass() {
    // Every prefix of a few patterns: the decoder's zero-fill path.
    for (name, check) in checks::TARGETS {
        for pattern in [
            &[][..],
            &[0u8; 64][..],
            &[0xffu8; 64][..],
            &[1u8, 2, 3, 255, 254, 7, 31, 15, 128, 64][..],
        ] {
            for len in 0..=pattern.len() {
                let data = &pattern[..len];
                if catch_unwind(AssertUnwindSafe(|| check(data))).is_err() {
                    panic!("target {name} fails on {data:?}");
                }
            }
        }
    }
}
