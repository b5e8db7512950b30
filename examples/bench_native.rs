//! Native side of `make bench`: the benchmark workloads through the Rust API, timed the
//! same way as bench/run.mjs times the wasm package (median of repeated samples after
//! warm-up), printed as JSON on stdout.
//!
//! ```text
//! cargo run --release --example bench_native -- [--sizes 10,100,...] [--quick]
//!     [--cisi DIR]                         also time run fusion on DIR/run.{bm25,dense}.txt
//! cargo run --release --example bench_native -- --profile WORKLOAD API N CALLS
//!     runs one workload CALLS times (for perf / callgrind); WORKLOAD a|b|c, API string|columnar
//! ```
//!
//! The inputs come from the same generator as bench/gen.mjs (xorshift32 and integer
//! arithmetic only), so both sides fuse the very same lists.

use calibrank::fuse::{rrf, rrf_indexed, RankedList};
use calibrank::lab::runfusion::{fuse_runs, FuseRunsOptions};
use calibrank::normalize::NormalizeMethod;
use calibrank::pipeline::{
    Calibration, ColumnarInput, InputList, ItemMeta, NormalizationConfig, Pipeline, PipelineConfig,
    PipelineInput, RerankConfig, RerankMethod,
};
use calibrank::timestamp::Timestamp;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

const NOW: f64 = 1_767_225_600_000.0;
const N_LISTS: usize = 3;
const LIST_NAMES: [&str; 3] = ["semantic", "keyword", "graph"];
const QUERY: &str = "How do I configure the authentication token cache for the GraphQL router?";
const NAME_WORDS: [&str; 16] = [
    "Auth",
    "Token",
    "Session",
    "Graph",
    "Traversal",
    "Cache",
    "Index",
    "Query",
    "Parser",
    "Config",
    "Router",
    "Handler",
    "Storage",
    "Queue",
    "Retry",
    "Metrics",
];
const NAME_SUFFIX: [&str; 4] = ["Service", "Manager", "", "Builder"];
const TYPES: [&str; 11] = [
    "class",
    "function",
    "method",
    "interface",
    "type",
    "document",
    "section",
    "file",
    "module",
    "widget",
    "Class",
];
const SUMMARY_WORDS: [&str; 32] = [
    "the",
    "authentication",
    "token",
    "cache",
    "is",
    "configured",
    "by",
    "router",
    "graph",
    "query",
    "returns",
    "a",
    "session",
    "handler",
    "for",
    "each",
    "request",
    "storage",
    "layer",
    "retries",
    "failed",
    "writes",
    "and",
    "metrics",
    "index",
    "parser",
    "builds",
    "tree",
    "from",
    "input",
    "config",
    "values",
];

struct XorShift32(u32);

impl XorShift32 {
    fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
}

fn below(r: u32, n: usize) -> usize {
    ((u64::from(r) * n as u64) >> 32) as usize
}

fn universe(n: usize) -> usize {
    n + n / 2
}

fn mix(d: usize) -> u32 {
    (d as u32).wrapping_mul(2_654_435_761)
}

fn lists(n: usize) -> Vec<Vec<u32>> {
    let u = universe(n);
    (0..N_LISTS as u32)
        .map(|l| {
            let seed = 0x9e37_79b9u32 ^ (l + 1).wrapping_mul(0x85eb_ca6b);
            let mut rng = XorShift32(if seed == 0 { 1 } else { seed });
            let mut a: Vec<u32> = (0..u as u32).collect();
            for i in 0..n {
                let j = i + below(rng.next(), u - i);
                a.swap(i, j);
            }
            a.truncate(n);
            a
        })
        .collect()
}

fn doc_id(d: usize) -> String {
    format!("docs/{}/chunk-{}.md#L{}", d % 97, d, (d * 31) % 400 + 1)
}

fn modified_at(d: usize) -> Option<f64> {
    (d % 5 != 0).then(|| NOW - f64::from(mix(d) % 129_600) * 60_000.0)
}

fn name_of(d: usize) -> String {
    format!(
        "{}{}{}",
        NAME_WORDS[d % 16],
        NAME_WORDS[(d >> 4) % 16],
        NAME_SUFFIX[(d >> 8) % 4]
    )
}

fn summary_of(d: usize) -> String {
    (0..12)
        .map(|i| SUMMARY_WORDS[((mix(d + i * 7919) >> 7) % 32) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

fn pipeline_config(rerank: bool) -> PipelineConfig {
    PipelineConfig {
        // Raised as in bench/gen.mjs (BENCH_LIMITS): 3 x 1,000,000 string ids is over
        // the string path's default of 200,000 entries.
        limits: calibrank::limits::Limits {
            max_total_entries: 10_000_000,
            max_total_text_bytes: 512 << 20,
            max_columnar_entries: 50_000_000,
            ..Default::default()
        },
        k: 60.0,
        top_k: 100,
        top_n: 10,
        rerank: RerankConfig {
            method: if rerank {
                RerankMethod::Heuristic
            } else {
                RerankMethod::None
            },
            ..Default::default()
        },
        normalization: NormalizationConfig {
            method: NormalizeMethod::MinMax,
            min_relevance: 0.1,
            ..Default::default()
        },
        calibration: Calibration::Sigmoid {
            threshold: 0.5,
            steepness: 8.0,
        },
        min_confidence: 0.3,
        explain: false,
        ..Default::default()
    }
}

struct Inputs {
    n_docs: usize,
    idx: Vec<Vec<u32>>,
    str_lists: Vec<Vec<String>>,
    input_b: PipelineInput,
    input_c: PipelineInput,
    mtimes: Vec<f64>,
}

fn make_inputs(n: usize) -> Inputs {
    let idx = lists(n);
    let u = universe(n);
    let str_lists: Vec<Vec<String>> = idx
        .iter()
        .map(|l| l.iter().map(|&d| doc_id(d as usize)).collect())
        .collect();
    let mut items_b = BTreeMap::new();
    let mut items_c = BTreeMap::new();
    for l in &idx {
        for &d in l {
            let d = d as usize;
            let m = modified_at(d).map(Timestamp::Millis);
            items_b.insert(
                doc_id(d),
                ItemMeta {
                    modified_at: m.clone(),
                    ..Default::default()
                },
            );
            items_c.insert(
                doc_id(d),
                ItemMeta {
                    name: Some(name_of(d)),
                    entity_type: Some(TYPES[d % TYPES.len()].to_string()),
                    summary: Some(summary_of(d)),
                    modified_at: m,
                    ..Default::default()
                },
            );
        }
    }
    let input = |items| PipelineInput {
        query: QUERY.into(),
        lists: str_lists
            .iter()
            .zip(LIST_NAMES)
            .map(|(ids, name)| InputList {
                name: name.into(),
                ids: ids.clone(),
                scores: None,
                weight: None,
            })
            .collect(),
        items,
        now: Some(Timestamp::Millis(NOW)),
        context: None,
        ..Default::default()
    };
    let mtimes = (0..u).map(|d| modified_at(d).unwrap_or(f64::NAN)).collect();
    Inputs {
        n_docs: u,
        input_b: input(items_b),
        input_c: input(items_c),
        idx,
        str_lists,
        mtimes,
    }
}

/// Result summary used to check that native and wasm computed the same thing.
#[derive(Default)]
struct Check {
    count: usize,
    first: String,
    first_score: f64,
}

fn workload<'a>(inputs: &'a Inputs, name: &str, api: &str) -> Box<dyn Fn() -> Check + 'a> {
    let is_b = name == "b";
    let pb = Pipeline::new(pipeline_config(false)).expect("valid config");
    let pc = Pipeline::new(pipeline_config(true)).expect("valid config");
    let slices = move || {
        inputs
            .idx
            .iter()
            .map(Vec::as_slice)
            .collect::<Vec<&[u32]>>()
    };
    match (name, api) {
        ("a", "string") => Box::new(move || {
            let ranked: Vec<RankedList<'_, String>> = inputs
                .str_lists
                .iter()
                .map(|ids| RankedList { ids, weight: 1.0 })
                .collect();
            let f = rrf(&ranked, 60.0).expect("rrf");
            let first = f
                .items
                .first()
                .map(|i| (i.id.clone(), i.score))
                .unwrap_or_default();
            Check {
                count: f.items.len(),
                first: first.0,
                first_score: first.1,
            }
        }),
        ("a", "columnar") => Box::new(move || {
            let lists = slices();
            let f =
                rrf_indexed(&lists, &[1.0; N_LISTS], "weights", 60.0, inputs.n_docs).expect("rrf");
            let order = f.order();
            let scores: Vec<f64> = order.iter().map(|&d| f.scores[d as usize]).collect();
            Check {
                count: order.len(),
                first: order[0].to_string(),
                first_score: scores[0],
            }
        }),
        ("b", "string") | ("c", "string") => Box::new(move || {
            let (p, input) = if is_b {
                (&pb, &inputs.input_b)
            } else {
                (&pc, &inputs.input_c)
            };
            let out = p.run(input).expect("run");
            let first = out
                .results
                .first()
                .map(|r| (r.id.clone(), r.score))
                .unwrap_or_default();
            Check {
                count: out.results.len(),
                first: first.0,
                first_score: first.1,
            }
        }),
        ("b", "columnar") => Box::new(move || {
            let lists = slices();
            let out = pb
                .run_columnar(&ColumnarInput {
                    lists: &lists,
                    n_docs: inputs.n_docs,
                    modified_ms: Some(&inputs.mtimes),
                    now_ms: Some(NOW),
                    ..Default::default()
                })
                .expect("run_columnar");
            Check {
                count: out.order.len(),
                first: out.order.first().map(u32::to_string).unwrap_or_default(),
                first_score: out.scores.first().copied().unwrap_or(0.0),
            }
        }),
        _ => panic!("unknown workload {name}/{api}"),
    }
}

/// Samples and repetitions: the same policy as bench/run.mjs.
struct Policy {
    samples: usize,
    min_sample: Duration,
    warmup: Duration,
}

fn policy(n: usize, quick: bool) -> Policy {
    let (samples, min_ms, warm_ms) = match n {
        0..=10_000 => (21, 5, 200),
        10_001..=100_000 => (7, 0, 0),
        _ => (1, 0, 0),
    };
    let samples = if quick { samples.min(5) } else { samples };
    Policy {
        samples,
        min_sample: Duration::from_millis(min_ms),
        warmup: Duration::from_millis(warm_ms),
    }
}

/// Median time of one call in nanoseconds, and the number of calls per sample.
fn measure(f: &dyn Fn() -> Check, p: &Policy) -> (f64, usize, Check) {
    let check = f();
    let start = Instant::now();
    while start.elapsed() < p.warmup {
        black_box(f());
    }
    // Calls per sample so that one sample lasts at least min_sample.
    let mut inner = 1usize;
    while !p.min_sample.is_zero() {
        let t = Instant::now();
        for _ in 0..inner {
            black_box(f());
        }
        if t.elapsed() >= p.min_sample || inner >= 1 << 20 {
            break;
        }
        inner *= 2;
    }
    let mut times: Vec<f64> = (0..p.samples)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..inner {
                black_box(f());
            }
            t.elapsed().as_nanos() as f64 / inner as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], inner, check)
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("string")
}

fn time_runfusion(dir: &str, out: &mut String) {
    let read = |f: &str| {
        std::fs::read_to_string(format!("{dir}/{f}")).unwrap_or_else(|e| panic!("{dir}/{f}: {e}"))
    };
    let texts = [read("run.bm25.txt"), read("run.dense.txt")];
    let parse = || {
        texts
            .iter()
            .map(|t| calibrank::lab::eval::parse_trec_run(t).expect("run"))
            .collect::<Vec<_>>()
    };
    let runs = parse();
    let p = Policy {
        samples: 21,
        min_sample: Duration::from_millis(5),
        warmup: Duration::from_millis(300),
    };
    let mut rows = Vec::new();
    let (parse_ns, _, _) = measure(
        &|| Check {
            count: parse().len(),
            ..Default::default()
        },
        &p,
    );
    rows.push(format!(
        "{{\"case\":\"parse\",\"median_ns\":{parse_ns:.0}}}"
    ));
    for (method, norm) in [("rrf", None), ("mnz", Some("min-max"))] {
        let opts = FuseRunsOptions {
            norm: norm.map(Into::into),
            ..FuseRunsOptions::new(method)
        };
        let (ns, _, check) = measure(
            &|| {
                let fused = fuse_runs(&runs, &opts).expect("fuse");
                Check {
                    count: fused.values().map(BTreeMap::len).sum(),
                    ..Default::default()
                }
            },
            &p,
        );
        rows.push(format!(
            "{{\"case\":\"{method}\",\"median_ns\":{ns:.0},\"entries\":{}}}",
            check.count
        ));
    }
    let _ = write!(out, ",\"runfusion\":[{}]", rows.join(","));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--profile") {
        let [_, w, api, n, calls] = args.as_slice() else {
            panic!("--profile WORKLOAD API N CALLS")
        };
        let inputs = make_inputs(n.parse().expect("N"));
        let f = workload(&inputs, w, api);
        let t = Instant::now();
        let calls: u32 = calls.parse().expect("CALLS");
        for _ in 0..calls {
            black_box(f());
        }
        eprintln!(
            "{calls} calls, {:.3} ms each",
            t.elapsed().as_secs_f64() * 1e3 / f64::from(calls)
        );
        return;
    }
    let mut sizes = vec![10, 100, 1_000, 10_000, 100_000, 1_000_000];
    let mut quick = false;
    let mut cisi = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--sizes" => {
                sizes = it
                    .next()
                    .expect("--sizes LIST")
                    .split(',')
                    .map(|s| s.trim().parse().expect("size"))
                    .collect()
            }
            "--quick" => quick = true,
            "--cisi" => cisi = Some(it.next().expect("--cisi DIR").clone()),
            other => panic!("unknown argument {other}"),
        }
    }
    let mut out = String::from("{\"results\":[");
    let mut first = true;
    for &n in &sizes {
        let inputs = make_inputs(n);
        for (w, api) in [
            ("a", "string"),
            ("a", "columnar"),
            ("b", "string"),
            ("b", "columnar"),
            ("c", "string"),
        ] {
            let f = workload(&inputs, w, api);
            let (ns, inner, check) = measure(&*f, &policy(n, quick));
            if !first {
                out.push(',');
            }
            first = false;
            let _ = write!(
                out,
                "{{\"workload\":\"{w}\",\"api\":\"{api}\",\"n\":{n},\"median_ns\":{ns:.1},\"calls_per_sample\":{inner},\"check\":{{\"count\":{},\"first\":{},\"firstScore\":{:?}}}}}",
                check.count,
                json_str(&check.first),
                check.first_score
            );
            eprintln!("native {w}/{api} N={n}: {:.3} ms", ns / 1e6);
        }
    }
    out.push(']');
    if let Some(dir) = cisi {
        time_runfusion(&dir, &mut out);
    }
    out.push('}');
    println!("{out}");
}
