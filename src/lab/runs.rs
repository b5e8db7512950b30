//! Shared data shapes for evaluation and run-level fusion: TREC-style runs and
//! relevance judgements in their JSON form `Record<queryId, Record<docId, number>>`.
//!
//! `BTreeMap` keeps every iteration order deterministic (byte order of the ids), which
//! is what makes tie handling reproducible across runtimes.

use std::collections::BTreeMap;

/// A run: for each query id, each retrieved document id with its score.
pub type Run = BTreeMap<String, BTreeMap<String, f64>>;

/// Relevance judgements: for each query id, each judged document id with its grade
/// (0 = not relevant; grades > 0 are relevant).
pub type Qrels = BTreeMap<String, BTreeMap<String, f64>>;
