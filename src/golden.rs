//! Golden vectors: fixed inputs and their outputs as exact IEEE-754 bit patterns
//! (16 hex digits). `cargo run --example golden` writes `tests/golden/vectors.json`;
//! the native test, Node, Chromium and workerd each recompute every case and compare
//! bit for bit.
//!
//! This module computes the core's cases; the lab's cases (`fuseRuns`, `evaluate`,
//! `fit`) and the whole file are computed by the lab's `golden` module, so that the
//! core does not depend on the lab. [`cases`] lists every case of the file, the lab's
//! included (inputs only).

use crate::bands::BandFloors;
use crate::calibrate::{calibrate, Sigmoid};
use crate::confidence::{query_confidence, ConfidenceOptions};
use crate::error::Result;
use crate::fuse::{rrf, RankedList};
use crate::multiquery::{fuse_multi_query, MultiQueryOptions, QueryHit};
use crate::normalize::{normalize, NormalizeMethod};
use crate::pipeline::{Pipeline, PipelineConfig, PipelineInput};
use crate::rerank::{rerank_heuristic, Candidate, HeuristicConfig};
use serde_json::{json, Value};

/// The bit pattern of `x` as 16 lowercase hex digits.
pub fn bits(x: f64) -> String {
    format!("{:016x}", x.to_bits())
}

/// The numbers of a JSON array (nothing for anything else).
pub(crate) fn f64s(v: &Value) -> Vec<f64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default()
}

fn bits_all(xs: &[f64]) -> Vec<String> {
    xs.iter().map(|&x| bits(x)).collect()
}

/// A deterministic pseudo-random sequence (splitmix64) mapped to [lo, hi).
fn uniform(seed: u64, n: usize, lo: f64, hi: f64) -> Vec<f64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            lo + (hi - lo) * ((z >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

/// Computes the expected output of one core case (the `expected` member is ignored); any
/// kind it does not know is read as a `pipeline` case.
pub fn compute(case: &Value) -> Result<Value> {
    let kind = case["kind"].as_str().unwrap_or("");
    Ok(match kind {
        "calibrate" => {
            let s = Sigmoid {
                threshold: case["threshold"].as_f64().unwrap_or(0.035),
                steepness: case["steepness"].as_f64().unwrap_or(150.0),
            };
            json!(bits_all(&calibrate(&f64s(&case["scores"]), &s)?))
        }
        "normalize" => {
            let m = NormalizeMethod::parse(case["method"].as_str().unwrap_or(""))?;
            json!(bits_all(&normalize(
                &f64s(&case["scores"]),
                m,
                case["temperature"].as_f64().unwrap_or(1.0)
            )?))
        }
        "rrf" => {
            let lists: Vec<Vec<String>> =
                crate::error::from_json(&case["lists"].to_string(), "lists")?;
            let weights = f64s(&case["weights"]);
            let ranked: Vec<RankedList<'_, String>> = lists
                .iter()
                .enumerate()
                .map(|(i, ids)| RankedList {
                    ids,
                    weight: weights.get(i).copied().unwrap_or(1.0),
                })
                .collect();
            let fused = rrf(&ranked, case["k"].as_f64().unwrap_or(60.0))?;
            json!(fused
                .items
                .iter()
                .map(|i| json!([i.id, bits(i.score)]))
                .collect::<Vec<_>>())
        }
        "multiquery" => {
            let queries: Vec<Vec<QueryHit>> =
                crate::error::from_json(&case["queries"].to_string(), "queries")?;
            let opts: MultiQueryOptions =
                crate::error::from_json(&case["options"].to_string(), "options")?;
            let out = fuse_multi_query(&queries, &opts)?;
            json!(out
                .results
                .iter()
                .map(|r| json!([r.id, bits(r.score)]))
                .collect::<Vec<_>>())
        }
        "rerank" => {
            let cands: Vec<Candidate> =
                crate::error::from_json(&case["candidates"].to_string(), "candidates")?;
            let out = rerank_heuristic(
                case["query"].as_str().unwrap_or(""),
                &cands,
                &HeuristicConfig::default(),
            )?;
            json!(out
                .iter()
                .map(|r| json!([r.id, bits(r.reranked_score)]))
                .collect::<Vec<_>>())
        }
        "confidence" => {
            let c = query_confidence(&f64s(&case["scores"]), &ConfidenceOptions::default())?;
            json!([
                bits(c.weighted_top5),
                bits(c.expected_precision),
                bits(c.at_least_one_relevant)
            ])
        }
        "band" => {
            let floors = BandFloors::default();
            json!(f64s(&case["scores"])
                .iter()
                .map(|&s| floors.band(s))
                .collect::<Vec<_>>())
        }
        _ => {
            // "pipeline"
            let cfg: PipelineConfig =
                crate::error::from_json(&case["config"].to_string(), "config")?;
            let input: PipelineInput =
                crate::error::from_json(&case["input"].to_string(), "input")?;
            let out = Pipeline::new(cfg)?.run(&input)?;
            let c = out.confidence;
            json!({
                "results": out.results.iter().map(|r| json!([r.id, bits(r.score), r.band])).collect::<Vec<_>>(),
                "confidence": [bits(c.weighted_top5), bits(c.expected_precision), bits(c.at_least_one_relevant)],
            })
        }
    })
}

/// The golden cases, without expected values.
pub fn cases() -> Vec<Value> {
    let raw = uniform(7, 64, 0.0, 0.08);
    let signed = uniform(11, 40, -12.0, 9.0);
    let ids: Vec<String> = (0..40).map(|i| format!("doc-{i:02}")).collect();
    let shuffled = |seed: u64| {
        let keys = uniform(seed, ids.len(), 0.0, 1.0);
        let mut v: Vec<(f64, &String)> = keys.into_iter().zip(&ids).collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v.into_iter()
            .take(25)
            .map(|(_, id)| id.clone())
            .collect::<Vec<_>>()
    };
    let (l1, l2, l3) = (shuffled(1), shuffled(2), shuffled(3));
    let mut out = vec![
        json!({"kind": "calibrate", "scores": raw, "threshold": 0.035, "steepness": 150.0}),
        json!({"kind": "calibrate", "scores": [0.0391, 0.0143, 0.035, 0.05, 0.03, 0.01, 2.0/61.0], "threshold": 0.035, "steepness": 150.0}),
        json!({"kind": "calibrate", "scores": signed, "threshold": -0.5, "steepness": 0.7}),
    ];
    for m in ["max", "min_max", "z_score", "softmax"] {
        out.push(json!({"kind": "normalize", "method": m, "scores": uniform(5, 30, 0.0, 3.0), "temperature": 0.37}));
    }
    out.push(
        json!({"kind": "normalize", "method": "softmax", "scores": signed, "temperature": 2.5}),
    );
    // Signed zeros: std's f64::min / max answered min(-0, 0) differently natively and in
    // wasm32, and the sign of a min-max value decides a later tie (crate::float).
    for scores in [json!([-0.0, 0.0, 1.0]), json!([0.0, -0.0, 1.0])] {
        out.push(json!({"kind": "normalize", "method": "min_max", "scores": scores}));
    }
    out.push(json!({"kind": "rrf", "lists": [l1, l2, l3], "k": 60.0, "weights": [1.0, 0.7, 1.3]}));
    out.push(json!({"kind": "rrf", "lists": [["a", "x", "y"], ["p", "q", "a"]], "k": 60.0, "weights": [1.0, 1.0]}));
    let hits = |seed: u64, list: &[String]| {
        let s = uniform(seed, list.len(), 0.5, 1.0);
        let mut v: Vec<(f64, &String)> = s.into_iter().zip(list).collect();
        v.sort_by(|a, b| b.0.total_cmp(&a.0));
        v.into_iter()
            .map(|(score, id)| json!({"id": id, "score": score}))
            .collect::<Vec<_>>()
    };
    for m in ["rrf", "score_sum", "score_max"] {
        out.push(json!({"kind": "multiquery", "queries": [hits(21, &l1), hits(22, &l2), hits(23, &l3)], "options": {"method": m, "limit": 15}}));
    }
    out.push(json!({"kind": "multiquery", "queries": [[{"id": "a", "score": 0.0}, {"id": "b", "score": -0.0}], [{"id": "b", "score": 0.0}, {"id": "a", "score": -0.0}]],
        "options": {"method": "score_max", "similarityThreshold": -1.0, "multiQueryBoost": 0.0}}));
    out.push(json!({"kind": "rerank", "query": "GraphTraversal edges", "candidates": [
        {"id": "gt", "score": 0.016, "name": "GraphTraversal", "type": "class", "summary": "walks graph edges"},
        {"id": "rs", "score": 0.0161, "name": "RelationshipStore", "type": "class", "summary": "stores edges"},
        {"id": "tf", "score": 0.0159, "name": "traversal.ts", "type": "file", "content": "export {}"},
        {"id": "md", "score": 0.0158, "name": "graph", "type": "module", "content": "x".repeat(80)}
    ]}));
    out.push(json!({"kind": "confidence", "scores": uniform(9, 7, 0.0, 1.0)}));
    let run_of = |seed: u64, list: &[String]| {
        let s = uniform(seed, list.len(), 0.0, 20.0);
        let docs: serde_json::Map<String, Value> = list
            .iter()
            .zip(s)
            .map(|(d, x)| (d.clone(), json!(x)))
            .collect();
        json!({"q1": docs.clone(), "q2": docs.into_iter().take(12).collect::<serde_json::Map<_, _>>()})
    };
    let (r1, r2, r3) = (run_of(31, &l1), run_of(32, &l2), run_of(33, &l3));
    for (method, extra) in [
        ("sum", json!({})),
        ("mnz", json!({})),
        ("rrf", json!({"params": {"k": 20.0}})),
        ("wsum", json!({"weights": [0.2, 0.5, 0.3]})),
        ("logn_isr", json!({})),
        ("bordafuse", json!({})),
        ("condorcet", json!({})),
        ("dbsf", json!({})),
        ("geometric_mean", json!({"weights": [1.0, 2.0, 3.0]})),
        ("max", json!({"norm": "zmuv"})),
    ] {
        let mut options = json!({"method": method});
        if let (Some(o), Some(e)) = (options.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        out.push(json!({"kind": "fuseRuns", "runs": [r1, r2, r3], "options": options}));
    }
    let qrels = json!({"q1": l2.iter().take(6).map(|d| (d.clone(), json!(1.0))).collect::<serde_json::Map<_, _>>(), "q2": {"doc-03": 2.0, "doc-17": 1.0}});
    out.push(json!({"kind": "evaluate", "qrels": qrels, "run": r1, "metrics": ["ndcg@10", "ndcg_burges@5", "map@100", "mrr", "precision@5", "recall@20", "hit_rate@3", "r-precision", "f1@10"]}));
    let fit_scores = uniform(41, 60, -3.0, 4.0);
    let fit_labels: Vec<f64> = fit_scores
        .iter()
        .zip(uniform(42, 60, 0.0, 1.0))
        .map(|(s, u)| {
            if u < 1.0 / (1.0 + libm::exp(-1.3 * s + 0.4)) {
                1.0
            } else {
                0.0
            }
        })
        .collect();
    out.push(json!({"kind": "fit", "scores": fit_scores, "labels": fit_labels, "probe": uniform(43, 15, -5.0, 6.0)}));
    out.push(json!({"kind": "band", "scores": [0.95, 0.85, 0.8499999999999999, 0.75, 0.65, 0.64, 0.4, 0.0, 1.0]}));
    let items: serde_json::Map<String, Value> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            (
                id.clone(),
                json!({"modifiedAt": 1_700_000_000_000.0 - (i as f64) * 86_400_000.0 * 1.7}),
            )
        })
        .collect();
    let lists = json!([{"name": "semantic", "ids": l1}, {"name": "keyword", "ids": l2}, {"name": "graph", "ids": l3}]);
    out.push(json!({"kind": "pipeline", "config": {"topK": 20, "topN": 10, "minConfidence": 0.0}, "input": {"query": "q", "lists": lists, "items": items, "now": 1_700_000_000_000.0}}));
    out.push(json!({"kind": "pipeline", "config": {"topK": 20, "topN": 10, "minConfidence": 0.1, "weights": {"graph": 0.5},
        "normalization": {"method": "z_score"}, "calibration": {"method": "sigmoid", "threshold": 0.4, "steepness": 6.0},
        "bands": {"highFloor": 0.7, "degradedFloor": 0.5}}, "input": {"query": "q", "lists": lists}}));
    out.push(json!({"kind": "pipeline", "config": {"topK": 15, "topN": 8, "minConfidence": 0.0, "recency": {"mode": "fiscal_year"},
        "rerank": {"method": "cross_encoder", "candidateLimit": 12}, "calibration": {"method": "sigmoid", "threshold": 0.6, "steepness": 5.0}},
        "input": {"query": "q", "lists": [{"name": "dense", "ids": l1}, {"name": "sparse", "ids": l2}],
            "items": ids.iter().enumerate().map(|(i, id)| (id.clone(), json!({"fiscalYear": 2018 + (i as i64 % 9), "crossEncoderScore": signed.get(i).copied().unwrap_or(0.0)}))).collect::<serde_json::Map<_, _>>()}}));
    out.push(json!({"kind": "pipeline", "config": {"minConfidence": 0.0, "recency": {"mode": "none"}, "rerank": {"method": "cross_encoder"}},
        "input": {"query": "q", "lists": [{"name": "a", "ids": ["x", "y", "z"]}],
            "items": {"x": {"crossEncoderScore": 1.0}, "y": {"crossEncoderScore": -0.0}, "z": {"crossEncoderScore": 0.0}}}}));
    out.push(json!({"kind": "fuseRuns", "runs": [{"q": {"a": -0.0, "b": 0.0, "c": 1.0}}, {"q": {"a": 0.0, "b": -0.0, "c": 0.5}}],
        "options": {"method": "max", "norm": "none"}}));
    out.push(json!({"kind": "fuseRuns", "runs": [{"q": {"a": -0.0, "b": 0.0, "c": 1.0}}, {"q": {"a": 0.0, "b": -0.0, "c": 0.5}}],
        "options": {"method": "min", "norm": "min-max"}}));
    out.push(query_confidence_case());
    out.extend(later_cases(&l1));
    out
}

/// Cases added after the first 38 (appended, so that those stay as they were): paths
/// no earlier case reached.
fn later_cases(l1: &[String]) -> Vec<Value> {
    let mut out = Vec::new();
    // The heuristic reranker's exact-name factor (x3: the trimmed query against the name,
    // both lowercased) and its ties by id.
    out.push(json!({"kind": "rerank", "query": "  GraphTraversal ", "candidates": [
        {"id": "gt", "score": 0.016, "name": "graphTRAVERSAL", "type": "Class"},
        {"id": "rs", "score": 0.048, "name": "RelationshipStore", "type": "class", "summary": "graph edges"},
        {"id": "b2", "score": 0.02, "name": "Graph", "type": "section"},
        {"id": "b1", "score": 0.02, "name": "Graph", "type": "section"},
        {"id": "tf", "score": 0.05, "name": "traversal.ts", "type": "file", "content": "export {}"}
    ]}));
    // A pipeline with the heuristic reranker whose calibration saturates: every score is
    // 1, so the order is the score after reranking's, then the id's (x1 and x2 fuse
    // equal: ranks 5 and 6, then 6 and 5).
    let texts = |name: &str, ty: &str| json!({"name": name, "type": ty});
    out.push(json!({"kind": "pipeline",
        "config": {"topK": 10, "topN": 10, "minConfidence": 0.0, "recency": {"mode": "none"}, "rerank": {"method": "heuristic"},
            "calibration": {"method": "sigmoid", "threshold": 0.0, "steepness": 100000.0}},
        "input": {"query": "GraphTraversal", "lists": [
            {"name": "dense", "ids": ["gt", "rs", "tf", "md", "x1", "x2"]},
            {"name": "sparse", "ids": ["rs", "gt", "md", "tf", "x2", "x1"]}],
            "items": {"gt": texts("GraphTraversal", "class"), "rs": texts("RelationshipStore", "class"),
                "tf": {"name": "traversal.ts", "type": "file", "content": "export {}"}, "md": {"name": "graph", "type": "module", "summary": "graph traversal helpers"},
                "x1": texts("Graph", "section"), "x2": texts("Graph", "section")}}}));
    // `max` normalization under its floor (every fused score below 0.001), then
    // minRelevance.
    let ids: Vec<String> = (0..12).map(|i| format!("w{i:02}")).collect();
    out.push(json!({"kind": "pipeline",
        "config": {"topK": 12, "topN": 12, "minConfidence": 0.0, "weights": {"weak": 0.02},
            "normalization": {"method": "max", "minRelevance": 0.3}, "calibration": {"method": "sigmoid", "threshold": 0.3, "steepness": 10.0}},
        "input": {"query": "q", "lists": [{"name": "weak", "ids": ids}]}}));
    // `min_max` over a pool of equal scores (each normalized to 1), the ties by id.
    out.push(json!({"kind": "pipeline",
        "config": {"minConfidence": 0.0, "normalization": {"method": "min_max"}},
        "input": {"query": "q", "lists": [{"name": "a", "ids": ["r"]}, {"name": "b", "ids": ["p"]}, {"name": "c", "ids": ["q"]}]}}));
    // Multi-query ties: equal combined scores ordered by the newest timestamp (an item
    // without one after every item with one), then the best rank, then the id.
    let h = |id: &str, ts: Option<f64>| match ts {
        Some(t) => json!({"id": id, "score": 0.7, "timestamp": t}),
        None => json!({"id": id, "score": 0.7}),
    };
    out.push(json!({"kind": "multiquery", "queries": [
        [h("a", Some(1.0e12)), h("b", None), h("c", Some(5.0e11)), h("f", None)],
        [h("d", None), h("b", Some(2.0e12)), h("a", Some(1.0e11))],
        [h("e", None), h("g", None)]],
        "options": {"method": "score_sum"}}));
    // The cross-encoder's scores kept raw (signed logits; no fiscal-year boost after them),
    // calibrated by a sigmoid of the logit's scale.
    let signed_ce = uniform(51, 12, -6.0, 6.0);
    let first = l1.get(..12).unwrap_or(l1);
    out.push(json!({"kind": "pipeline",
        "config": {"topK": 12, "topN": 12, "minConfidence": 0.0, "recency": {"mode": "none"},
            "rerank": {"method": "cross_encoder", "crossEncoderNormalization": "none"},
            "calibration": {"method": "sigmoid", "threshold": 0.0, "steepness": 1.0}},
        "input": {"query": "q", "lists": [{"name": "dense", "ids": first}],
            "items": first.iter().zip(&signed_ce).enumerate().map(|(i, (id, ce))| (id.clone(), if i % 3 == 0 {
                json!({"crossEncoderScore": ce, "fiscalYear": 2025})
            } else {
                json!({"crossEncoderScore": ce})
            })).collect::<serde_json::Map<_, _>>()}}));
    out
}

/// `fitQueryConfidence` / `predictQueryConfidence` / a `Pipeline` with the model: two
/// runs of 24 queries over documents with integer-like ids; two queries in three have a
/// relevant document, judged within the first ranks (sometimes below the top 5), and
/// their runs score higher. The lab computes it.
fn query_confidence_case() -> Value {
    let mut runs = vec![serde_json::Map::new(), serde_json::Map::new()];
    let mut qrels = serde_json::Map::new();
    for q in 0..24u64 {
        let qid = format!("q{q:02}");
        let answerable = q % 3 != 0;
        let base = if answerable { 0.55 } else { 0.25 };
        let pick = uniform(100 + q, 1, 0.0, 1.0)
            .first()
            .copied()
            .unwrap_or(0.0);
        let mut lists = Vec::new();
        for (r, run) in runs.iter_mut().enumerate() {
            let seed = 1000 + 10 * q + r as u64;
            let noise = uniform(seed, 12, 0.0, 0.2);
            let docs: Vec<u64> = uniform(seed + 5, 12, 0.0, 40.0)
                .iter()
                .map(|&x| x as u64)
                .collect();
            let scale = if r == 0 { 20.0 } else { 1.0 };
            let mut m = serde_json::Map::new();
            for (i, (d, n)) in docs.iter().zip(&noise).enumerate() {
                let score = scale * (base + 0.1 * pick + n - 0.03 * i as f64);
                m.entry(d.to_string()).or_insert(json!(score));
            }
            lists.push(docs);
            run.insert(qid.clone(), Value::Object(m));
        }
        let first = lists.first().cloned().unwrap_or_default();
        let judged_at = (pick * 8.0) as usize;
        let doc = first.get(judged_at).copied().unwrap_or(0).to_string();
        qrels.insert(qid, json!({ doc: if answerable { 1.0 } else { 0.0 } }));
    }
    json!({"kind": "queryConfidence", "runs": runs, "qrels": qrels, "options": {"k": 3, "l2": 0.5},
        "outcome": {"answerFloor": 0.4, "hedgeFloor": 0.2}})
}
