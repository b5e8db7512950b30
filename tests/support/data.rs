//! The files the ranx tests read: CISI's, beside the checkout (../shared/data/cisi), and
//! the references in tests/data/ (tests/eval_ranx.rs, optimize_ranx.rs and ranx_ties.rs
//! include it with `#[path]`).
#![allow(dead_code)]

/// A file's text; the test fails naming the file it cannot read.
pub fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// A file of ../shared/data/cisi (`qrels.txt`, `run.bm25.txt`, ...).
pub fn cisi(name: &str) -> String {
    read(&format!(
        "{}/../shared/data/cisi/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
}

/// A file of ../shared/data/cisi-abstain (CISI with 70 queries that have nothing relevant).
pub fn cisi_abstain(name: &str) -> String {
    read(&format!(
        "{}/../shared/data/cisi-abstain/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
}

/// A reference of tests/data/ (`ranx_metrics_reference.json`, ...), parsed.
pub fn reference(name: &str) -> serde_json::Value {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&read(&path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}
