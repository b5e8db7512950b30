//! The fusing targets: `rrf`, `rrf_indexed`, `multiquery`, `runfusion`, `optimize`.

use super::bytes::Bytes;
use super::eval::{gen_metric, gen_qrels};
use super::expect::{check_error, close};
use calibrank::error::ErrorCode;
use calibrank::fuse::{rrf, rrf_indexed, RankedList};
use calibrank::lab::optimize::{optimize_fusion, OptimizeOptions};
use calibrank::lab::runfusion::{fuse_runs, ranked, FuseRunsOptions, METHODS, NORMS};
use calibrank::lab::runs::Run;
use calibrank::multiquery::{fuse_multi_query, MultiQueryMethod, MultiQueryOptions, QueryHit};
use std::collections::{BTreeMap, BTreeSet};

/// Each id's weighted-RRF sum, recomputed directly (an id counted once per list, at its
/// first rank there).
pub(crate) fn direct_rrf(lists: &[(Vec<String>, f64)], k: f64) -> BTreeMap<&str, f64> {
    let mut sums = BTreeMap::new();
    for (ids, w) in lists {
        let mut here = BTreeSet::new();
        for (pos, id) in ids.iter().enumerate() {
            if here.insert(id.as_str()) {
                let rank = u32::try_from(pos + 1).expect("short list");
                *sums.entry(id.as_str()).or_insert(0.0) += w / (k + f64::from(rank));
            }
        }
    }
    sums
}

/// Each document index's weighted-RRF sum and its number of lists, recomputed directly
/// (the caller accepted every index: one out of range fails here).
pub(crate) fn direct_rrf_indexed(
    lists: &[Vec<u32>],
    weights: &[f64],
    k: f64,
    n_docs: usize,
) -> (Vec<f64>, Vec<u32>) {
    let mut sums = vec![0.0f64; n_docs];
    let mut count = vec![0u32; n_docs];
    for (list, w) in lists.iter().zip(weights) {
        let mut here = BTreeSet::new();
        for (pos, &d) in list.iter().enumerate() {
            assert!((d as usize) < n_docs, "an out-of-range index was accepted");
            if here.insert(d) {
                sums[d as usize] += w / (k + (pos + 1) as f64);
                count[d as usize] += 1;
            }
        }
    }
    (sums, count)
}

/// `fuse::rrf` against a direct recomputation of every score.
pub fn rrf_strings(data: &[u8]) {
    let mut b = Bytes::new(data);
    let k = if b.bool() { b.f64() } else { 60.0 };
    let n_lists = b.below(6);
    let lists: Vec<(Vec<String>, f64)> = (0..n_lists)
        .map(|_| ((0..b.below(24)).map(|_| b.id()).collect(), b.f64_or(1.0)))
        .collect();
    let ranked: Vec<RankedList<'_, String>> = lists
        .iter()
        .map(|(ids, w)| RankedList { ids, weight: *w })
        .collect();
    let fusion = match rrf(&ranked, k) {
        Ok(f) => f,
        Err(e) => {
            check_error(
                &e,
                &[
                    ErrorCode::InvalidK,
                    ErrorCode::InvalidWeight,
                    ErrorCode::NonFiniteScore,
                ],
                "rrf",
            );
            let bad_k = !(k.is_finite() && k >= 1.0);
            let bad_w = lists.iter().any(|(_, w)| !(w.is_finite() && *w >= 0.0));
            if e.code == ErrorCode::NonFiniteScore {
                // Only a sum that overflows, of valid weights.
                assert!(
                    !bad_k && !bad_w,
                    "rrf: overflow before a bad k or weight: {e}"
                );
                assert_eq!(e.field, "lists");
                assert!(
                    direct_rrf(&lists, k).values().any(|s| !s.is_finite()),
                    "rrf: NON_FINITE_SCORE without an overflow"
                );
                return;
            }
            assert!(bad_k || bad_w, "rrf refused valid input: {e}");
            return;
        }
    };
    let expected = direct_rrf(&lists, k);
    assert_eq!(fusion.items.len(), expected.len());
    assert_eq!(fusion.stats.unique, expected.len());
    for (i, item) in fusion.items.iter().enumerate() {
        let want = expected
            .get(item.id.as_str())
            .expect("a fused id is an input id");
        assert_eq!(
            item.score.to_bits(),
            want.to_bits(),
            "score of {:?}",
            item.id
        );
        assert!(
            item.score.is_finite(),
            "an overflow must be NON_FINITE_SCORE"
        );
        assert_eq!(item.ranks.len(), lists.len());
        if i > 0 {
            let prev = &fusion.items[i - 1];
            assert!(
                prev.score > item.score || (prev.score == item.score && prev.id < item.id),
                "order: {:?} {} before {:?} {}",
                prev.id,
                prev.score,
                item.id,
                item.score
            );
        }
    }
}

/// `fuse::rrf_indexed` on raw indices (out of range ones included).
pub fn rrf_indices(data: &[u8]) {
    let mut b = Bytes::new(data);
    let k = if b.bool() { b.f64() } else { 60.0 };
    let n_docs = if b.byte() % 16 == 15 {
        usize::from(b.u16())
    } else {
        usize::from(b.byte() % 40)
    };
    let lists: Vec<Vec<u32>> = (0..b.below(6))
        .map(|_| {
            (0..b.below(32))
                .map(|_| {
                    if b.byte() % 32 == 31 {
                        b.u32()
                    } else {
                        u32::from(b.byte() % 42)
                    }
                })
                .collect()
        })
        .collect();
    let weights: Vec<f64> = (0..lists.len() + usize::from(b.byte() % 16 == 15))
        .map(|_| b.f64_or(1.0))
        .collect();
    let slices: Vec<&[u32]> = lists.iter().map(Vec::as_slice).collect();
    let f = match rrf_indexed(&slices, &weights, "weights", k, n_docs) {
        Ok(f) => f,
        Err(e) => {
            check_error(
                &e,
                &[
                    ErrorCode::InvalidK,
                    ErrorCode::InvalidWeight,
                    ErrorCode::LengthMismatch,
                    ErrorCode::IndexOutOfRange,
                    ErrorCode::NonFiniteScore,
                ],
                "rrf_indexed",
            );
            if e.code == ErrorCode::NonFiniteScore {
                // Valid input whose sums overflow: recomputed, one is infinite.
                assert_eq!(e.field, "weights");
                assert!(
                    direct_rrf_indexed(&lists, &weights, k, n_docs)
                        .0
                        .iter()
                        .any(|s| !s.is_finite()),
                    "rrf_indexed: NON_FINITE_SCORE without an overflow"
                );
            }
            return;
        }
    };
    assert_eq!(f.scores.len(), n_docs);
    assert_eq!(f.list_count.len(), n_docs);
    let (expected, count) = direct_rrf_indexed(&lists, &weights, k, n_docs);
    for (d, (got, want)) in f.scores.iter().zip(&expected).enumerate() {
        assert_eq!(got.to_bits(), want.to_bits(), "score of {d}");
    }
    assert_eq!(f.list_count, count);
    let order = f.order();
    assert_eq!(order.len(), count.iter().filter(|&&c| c > 0).count());
    for w in order.windows(2) {
        let (a, b) = (w[0] as usize, w[1] as usize);
        assert!(f.scores[a] > f.scores[b] || (f.scores[a] == f.scores[b] && a < b));
    }
}

/// `multiquery::fuse_multi_query` with every method.
pub fn multiquery(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mut opts = MultiQueryOptions {
        method: b.pick(&[
            MultiQueryMethod::Rrf,
            MultiQueryMethod::ScoreSum,
            MultiQueryMethod::ScoreMax,
        ]),
        verbose: b.bool(),
        ..Default::default()
    };
    if b.bool() {
        opts.results_per_query = b.count_u32();
        opts.similarity_threshold = b.f64_or(0.0);
        opts.multi_query_boost = b.f64_or(0.1);
        opts.limit = b.count_u32();
        opts.k = b.f64_or(60.0);
    }
    let queries: Vec<Vec<QueryHit>> = (0..b.below(6))
        .map(|_| {
            (0..b.below(30))
                .map(|_| QueryHit {
                    id: b.id(),
                    score: if b.bool() {
                        b.f64()
                    } else {
                        0.6 + 0.4 * b.unit()
                    },
                    timestamp: if b.bool() { Some(b.timestamp()) } else { None },
                })
                .collect()
        })
        .collect();
    let out = match fuse_multi_query(&queries, &opts) {
        Ok(out) => out,
        Err(e) => {
            return check_error(
                &e,
                &[
                    ErrorCode::NonFiniteScore,
                    ErrorCode::InvalidTimestamp,
                    ErrorCode::InvalidConfig,
                    ErrorCode::InvalidK,
                ],
                "fuse_multi_query",
            )
        }
    };
    assert!(out.results.len() <= opts.limit as usize);
    assert!(out.results.len() <= out.stats.unique_items as usize);
    assert_eq!(out.stats.queries as usize, queries.len());
    let all: BTreeSet<&str> = queries.iter().flatten().map(|h| h.id.as_str()).collect();
    let mut seen = BTreeSet::new();
    for (i, r) in out.results.iter().enumerate() {
        assert!(
            r.score.is_finite(),
            "fused score {} for finite inputs",
            r.score
        );
        assert!(all.contains(r.id.as_str()) && seen.insert(r.id.as_str()));
        if i > 0 {
            assert!(out.results[i - 1].score >= r.score, "not descending");
        }
        assert_eq!(r.query_scores.is_some(), opts.verbose);
        assert_eq!(r.query_ranks.is_some(), opts.verbose);
        if let (Some(ranks), Some(count)) = (&r.query_ranks, r.appeared_in_query_count) {
            assert_eq!(ranks.len(), count as usize);
            assert!(count >= 1);
            if opts.method == MultiQueryMethod::Rrf {
                let mut by_query: Vec<(usize, u32)> = ranks
                    .iter()
                    .map(|(q, &rank)| (q.parse::<usize>().expect("query index key"), rank))
                    .collect();
                by_query.sort_unstable();
                let want = by_query.iter().fold(0.0, |acc, &(_, rank)| {
                    acc + 1.0 / (opts.k + f64::from(rank))
                });
                assert!(close(want, r.score), "rrf score {} != {want}", r.score);
            }
        }
    }
}

pub(crate) const FUSE_RUNS_CODES: &[ErrorCode] = &[
    ErrorCode::EmptyInput,
    ErrorCode::UnknownMethod,
    ErrorCode::LengthMismatch,
    ErrorCode::InvalidWeight,
    ErrorCode::InvalidConfig,
    // A parameter the method does not take (INVALID_CONFIG before the fortieth session).
    ErrorCode::UnknownField,
    ErrorCode::NonFiniteScore,
];

pub(crate) fn gen_run(b: &mut Bytes<'_>) -> Run {
    let mut run = Run::new();
    for _ in 0..b.below(4) {
        let q = b.pick(&["q1", "q2", "q3", "q"]).to_string();
        let docs: BTreeMap<String, f64> = (0..b.below(12))
            .map(|_| (b.id(), if b.bool() { b.f64() } else { 10.0 * b.unit() }))
            .collect();
        run.insert(q, docs);
    }
    run
}

/// `runfusion::fuse_runs` with every method of `METHODS` on the same runs.
pub fn runfusion(data: &[u8]) {
    let mut b = Bytes::new(data);
    let runs: Vec<Run> = (0..b.below(5)).map(|_| gen_run(&mut b)).collect();
    let norm = match b.byte() % 16 {
        0..=7 => None,
        8 => Some("min_max".to_string()),
        9 => Some("bogus".to_string()),
        _ => Some(b.pick(&NORMS).to_string()),
    };
    let weights: Option<Vec<f64>> = if b.bool() {
        Some(
            (0..runs.len() + b.below(2))
                .map(|_| b.f64_or(0.5))
                .collect(),
        )
    } else {
        None
    };
    let weights_everywhere = b.byte() % 8 == 7;
    let param = |b: &mut Bytes<'_>, typical: f64| {
        if b.bool() {
            Some(b.f64_or(typical))
        } else {
            None
        }
    };
    let (k, phi, sigma, gamma) = (
        param(&mut b, 60.0),
        param(&mut b, 0.8),
        param(&mut b, 0.01),
        param(&mut b, 0.5),
    );
    let bogus = b.byte() % 16 == 15;
    let extra_methods = ["bayesfuse", "", "RRF"];
    for method in METHODS.iter().chain(&extra_methods) {
        let mut params = BTreeMap::new();
        let own = match *method {
            "rrf" => Some(("k", k)),
            "rbc" => Some(("phi", phi.or(Some(0.5)))),
            "logn_isr" => Some(("sigma", sigma)),
            "gmnz" => Some(("gamma", gamma.or(Some(1.0)))),
            _ => None,
        };
        if let Some((name, Some(v))) = own {
            params.insert(name.to_string(), v);
        }
        if bogus {
            params.insert("bogus".to_string(), 1.0);
        }
        let weighted = matches!(
            *method,
            "wsum"
                | "wmnz"
                | "mixed"
                | "w_bordafuse"
                | "w_condorcet"
                | "dbsf"
                | "arithmetic_mean"
                | "geometric_mean"
                | "harmonic_mean"
        );
        let opts = FuseRunsOptions {
            method: method.to_string(),
            norm: norm.clone(),
            weights: if weighted || weights_everywhere {
                weights.clone()
            } else {
                None
            },
            params,
        };
        let fused = match fuse_runs(&runs, &opts) {
            Ok(f) => f,
            Err(e) => {
                check_error(&e, FUSE_RUNS_CODES, method);
                continue;
            }
        };
        assert!(METHODS.contains(method), "unknown method {method} accepted");
        let queries: BTreeSet<&String> = runs.iter().flat_map(|r| r.keys()).collect();
        assert_eq!(
            fused.keys().collect::<BTreeSet<_>>(),
            queries,
            "{method}: query set"
        );
        for (q, results) in &fused {
            let docs: BTreeSet<&String> = runs
                .iter()
                .filter_map(|r| r.get(q))
                .flat_map(|d| d.keys())
                .collect();
            assert_eq!(
                results.keys().collect::<BTreeSet<_>>(),
                docs,
                "{method}: documents of {q}"
            );
            assert!(
                results.values().all(|s| s.is_finite()),
                "{method}: non-finite fused score"
            );
            let order = ranked(results);
            for w in order.windows(2) {
                assert!(w[0].1 >= w[1].1 || (w[0].1 == 0.0 && w[1].1 == 0.0));
            }
        }
        assert_eq!(
            fuse_runs(&runs, &opts).as_ref(),
            Ok(&fused),
            "{method}: not deterministic"
        );
    }
}

/// `optimize::optimize_fusion`: a grid search over weights or parameters, scored by a
/// metric (grids kept small: at most a few hundred fusions per input).
pub fn optimize(data: &[u8]) {
    let mut b = Bytes::new(data);
    let qrels = gen_qrels(&mut b);
    let runs: Vec<Run> = (0..b.below(5)).map(|_| gen_run(&mut b)).collect();
    let mut opts = OptimizeOptions {
        method: b
            .pick(&[
                "wsum",
                "rrf",
                "rbc",
                "wmnz",
                "dbsf",
                "sum",
                "w_condorcet",
                "x",
            ])
            .to_string(),
        ..Default::default()
    };
    if b.bool() {
        opts.metric = gen_metric(&mut b);
    }
    if b.bool() {
        opts.norm = Some(b.pick(&NORMS).to_string());
    }
    opts.step = match b.byte() % 8 {
        0..=3 => Some(if runs.len() > 2 { 0.25 } else { 0.1 }),
        4 => Some(0.5),
        5 => Some(1.0),
        6 => Some(b.pick(&[0.0, -0.5, 0.3, 1e-9, f64::NAN, 2.0])),
        _ => None,
    };
    if b.bool() {
        opts.k_values = (0..b.below(6)).map(|_| b.f64_or(10.0)).collect();
    }
    let mut progress = Vec::new();
    let result = optimize_fusion(&qrels, &runs, &opts, &mut |p| {
        progress.push((p.done, p.total, p.best_score))
    });
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            let mut codes = FUSE_RUNS_CODES.to_vec();
            // INVALID_TYPE: a fractional grade.
            codes.extend([
                ErrorCode::InputTooLarge,
                ErrorCode::EmptyInput,
                ErrorCode::InvalidType,
            ]);
            return check_error(&e, &codes, "optimize_fusion");
        }
    };
    let total = report.trials.len();
    assert!(total >= 1);
    assert_eq!(progress.len(), total, "one progress call per configuration");
    for (i, &(done, t, best)) in progress.iter().enumerate() {
        assert_eq!((done, t), (i + 1, total));
        assert!(best.is_finite());
    }
    let max = report
        .trials
        .iter()
        .map(|t| t.score)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        report.best.score.is_finite() && report.best.score == max,
        "best {} but max {max}",
        report.best.score
    );
    assert!(report.trials.contains(&report.best));
    for t in &report.trials {
        if let Some(w) = &t.weights {
            assert_eq!(w.len(), runs.len());
            assert!(w.iter().all(|x| x.is_finite() && *x >= 0.0));
            assert!(
                (w.iter().sum::<f64>() - 1.0).abs() < 1e-9,
                "weights {w:?} do not sum to 1"
            );
        }
    }
}
