//! calibrank's run fusion against ranx 0.3.21 on the CISI runs (bm25 + dense).
//!
//! tests/data/ranx_fusion_reference.json is written by scripts/ranx_fusion_reference.py:
//! for every case, the fused scores of every document of the first queries, and the top
//! ten doc ids of every query (score descending, then doc id ascending).

use calibrank::lab::runfusion::{fuse_runs, ranked, FuseRunsOptions, METHODS};
use calibrank::lab::runs::Run;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const TOLERANCE: f64 = 1e-9;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A minimal TREC run parser: `qid Q0 docid rank score tag`; a repeated doc keeps the
/// last score, as ranx's loader does.
fn parse_trec_run(path: &Path) -> Run {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut run = Run::new();
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        assert_eq!(fields.len(), 6, "{}:{}: {line:?}", path.display(), n + 1);
        let score: f64 = fields[4].parse().unwrap();
        run.entry(fields[0].to_string())
            .or_default()
            .insert(fields[2].to_string(), score);
    }
    run
}

struct Reference {
    runs: Vec<Run>,
    full_queries: Vec<String>,
    cases: Vec<Value>,
}

fn load() -> Reference {
    let text =
        std::fs::read_to_string(manifest().join("tests/data/ranx_fusion_reference.json")).unwrap();
    let reference: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(reference["ranxVersion"], "0.3.21");
    let data = manifest().join("../shared/data/cisi");
    let runs = reference["runFiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| parse_trec_run(&data.join(f.as_str().unwrap())))
        .collect();
    let full_queries = reference["fullQueries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap().to_string())
        .collect();
    let cases = reference["cases"].as_array().unwrap().clone();
    Reference {
        runs,
        full_queries,
        cases,
    }
}

fn check_case(reference: &Reference, case: &Value) -> Result<(), String> {
    let name = case["name"].as_str().unwrap();
    let opts: FuseRunsOptions =
        serde_json::from_value(case["options"].clone()).map_err(|e| format!("{name}: {e}"))?;
    let fused = fuse_runs(&reference.runs, &opts).map_err(|e| format!("{name}: {e}"))?;

    // Every document and score of the first queries.
    for q in &reference.full_queries {
        let expected = case["full"][q].as_object().unwrap();
        let got = fused
            .get(q)
            .ok_or_else(|| format!("{name}: query {q} missing"))?;
        let expected_ids: BTreeSet<&str> = expected.keys().map(String::as_str).collect();
        let got_ids: BTreeSet<&str> = got.keys().map(String::as_str).collect();
        if expected_ids != got_ids {
            return Err(format!(
                "{name} q{q}: documents differ: {:?}",
                expected_ids.symmetric_difference(&got_ids)
            ));
        }
        for (d, e) in expected {
            let (e, g) = (e.as_f64().unwrap(), got[d]);
            if (e - g).abs() > TOLERANCE {
                return Err(format!("{name} q{q} {d}: ranx {e:?}, calibrank {g:?}"));
            }
        }
    }

    // The top ten of every query; a different id is accepted only where calibrank's own
    // scores tie within the tolerance.
    let top10 = case["top10"].as_object().unwrap();
    assert_eq!(top10.len(), fused.len(), "{name}: query count");
    for (q, ids) in top10 {
        let got_results: &BTreeMap<String, f64> = fused
            .get(q)
            .ok_or_else(|| format!("{name}: query {q} missing"))?;
        let got = ranked(got_results);
        for (i, id) in ids.as_array().unwrap().iter().enumerate() {
            let id = id.as_str().unwrap();
            let (got_id, got_score) = got
                .get(i)
                .ok_or_else(|| format!("{name} q{q}: fewer than {} results", i + 1))?;
            if got_id != id {
                let theirs = got_results
                    .get(id)
                    .ok_or_else(|| format!("{name} q{q}: {id} missing"))?;
                if (theirs - got_score).abs() > TOLERANCE {
                    return Err(format!("{name} q{q} rank {}: ranx {id}, calibrank {got_id} ({got_score} vs {theirs})", i + 1));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn every_ranx_method_matches_ranx() {
    let reference = load();
    assert_eq!(reference.runs.len(), 2);
    let failures: Vec<String> = reference
        .cases
        .iter()
        .filter_map(|c| check_case(&reference, c).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        reference.cases.len(),
        failures.join("\n")
    );

    // Every ranx method is covered, and every normalization.
    let covered: BTreeSet<&str> = reference
        .cases
        .iter()
        .map(|c| c["options"]["method"].as_str().unwrap())
        .collect();
    for m in METHODS
        .iter()
        .filter(|m| !["dbsf", "arithmetic_mean", "geometric_mean", "harmonic_mean"].contains(m))
    {
        assert!(covered.contains(m), "no ranx reference for {m}");
    }
    let norms: BTreeSet<&str> = reference
        .cases
        .iter()
        .filter_map(|c| c["options"]["norm"].as_str())
        .collect();
    for n in [
        "min-max",
        "min-max-inverted",
        "max",
        "sum",
        "zmuv",
        "rank",
        "borda",
        "none",
    ] {
        assert!(norms.contains(n), "no ranx reference for norm {n}");
    }
}

#[test]
fn engine_methods_run_on_cisi() {
    // Qdrant / OpenSearch have no ranx reference; check they fuse the same documents as
    // CombSUM and give scores in their documented ranges.
    let reference = load();
    let sum = fuse_runs(&reference.runs, &FuseRunsOptions::new("sum")).unwrap();
    for method in ["dbsf", "arithmetic_mean", "geometric_mean", "harmonic_mean"] {
        let fused = fuse_runs(&reference.runs, &FuseRunsOptions::new(method)).unwrap();
        assert_eq!(fused.len(), sum.len(), "{method}");
        for (q, results) in &fused {
            assert_eq!(
                results.keys().collect::<Vec<_>>(),
                sum[q].keys().collect::<Vec<_>>(),
                "{method} q{q}"
            );
            if method != "dbsf" {
                assert!(
                    results.values().all(|s| (0.0..=1.0).contains(s)),
                    "{method} q{q}"
                );
            }
        }
    }
}
