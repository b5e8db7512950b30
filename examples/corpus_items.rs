//! `Pipeline::run` given the metadata of a whole corpus: 10 candidates in one list and a
//! map of N items (default 1,000,000), of which only the candidates' are read. Prints
//! the median time of a call (docs/performance-history.md, "Items looked up by the lists' ids"),
//! then the same for `run_with_items` (the map lent, the input without items) and
//! `run_ref` (the items as the borrowed input's slice, every one of them walked):
//! `cargo run --release --example corpus_items [N] [CALLS]`.
use calibrank::pipeline::{InputList, ItemMeta, Pipeline, PipelineConfig, PipelineInput};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>());
    let n = args.next().and_then(Result::ok).unwrap_or(1_000_000);
    let calls = args.next().and_then(Result::ok).unwrap_or(21).max(1);
    let mut input = PipelineInput::default();
    input.lists.push(InputList {
        name: "semantic".into(),
        ids: (0..10).map(|i| format!("d{i}")).collect(),
        scores: None,
        weight: None,
    });
    for i in 0..n {
        let meta = ItemMeta {
            name: Some(format!("item {i}")),
            ..Default::default()
        };
        input.items.insert(format!("d{i}"), meta);
    }
    let mut config = PipelineConfig::default();
    // Room for a map of any size when a call reads every item (before the lookup by id).
    config.limits.max_total_entries = 10_000_000;
    let p = Pipeline::new(config).expect("the configuration");
    let median = |call: &dyn Fn() -> calibrank::Result<calibrank::pipeline::PipelineOutput>| {
        let mut times: Vec<f64> = (0..calls)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(call().expect("the call"));
                t.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times.get(calls / 2).copied().unwrap_or(0.0)
    };
    let run = median(&|| p.run(&input));
    println!("{n} items, 10 candidates: {run:.1} us a call (median of {calls})");
    let lent = PipelineInput {
        items: Default::default(),
        ..input.clone()
    };
    let with_items = median(&|| p.run_with_items(&lent.as_ref(), &input.items));
    println!("run_with_items, the map lent: {with_items:.1} us a call");
    let borrowed = input.as_ref();
    let run_ref = median(&|| p.run_ref(&borrowed));
    println!("run_ref, every item in the input's slice: {run_ref:.1} us a call");
}
