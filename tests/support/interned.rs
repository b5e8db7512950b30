//! Test helpers shared by tests/pipeline.rs and tests/indexed.rs (each includes it with
//! `#[path]`).

use calibrank::confidence::model::TrainingFigures;
use calibrank::pipeline::{InputRef, Interned};

/// Training figures for a query-confidence model written by hand (the pipeline reads
/// none of them).
pub fn placeholder_training() -> TrainingFigures {
    TrainingFigures {
        queries: 10,
        positives: 5,
        log_loss: 0.5,
        auroc: 0.8,
        iterations: 5,
        converged: true,
    }
}

/// The input interned as the bindings send it: distinct ids in order of first
/// appearance, each list as indices, each item's index (`u32::MAX` if in no list).
pub fn interned<'a>(input: &InputRef<'a>) -> Interned<'a> {
    let mut ids: Vec<&'a str> = Vec::new();
    let mut docs = Vec::new();
    for l in &input.lists {
        let mut d = Vec::new();
        for &id in &l.ids {
            let at = ids.iter().position(|&x| x == id).unwrap_or_else(|| {
                ids.push(id);
                ids.len() - 1
            });
            d.push(at as u32);
        }
        docs.push(d);
    }
    let items = input
        .items
        .iter()
        .map(|(k, _)| {
            ids.iter()
                .position(|x| x == k)
                .map_or(u32::MAX, |i| i as u32)
        })
        .collect();
    Interned { ids, docs, items }
}
