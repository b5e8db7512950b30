//! `Run` and `Qrels` objects kept in wasm memory behind handles (js/lab.js's `Run` and
//! `Qrels` classes), and the run arguments every lab operation takes: a handle (a `U32`
//! section) or JSON text.
//!
//! A run is kept as ranx keeps a `Run`: each query's documents in ranx's sorted order
//! (numba's quicksort of the file's or the object's order, see `calibrank::lab::runs`),
//! so evaluating it ranks in exactly that order and fusing it reads that order.

use calibrank::error::{ErrorCode, Result, ScoreError};
use calibrank::lab::runs::{ranx_sort, OrderedRun, Qrels};
use calibrank::limits::Budget;
use calibrank_wasm_shared::json::{self, Json};
use calibrank_wasm_shared::wire::{tag, Reader, Writer};
use calibrank_wasm_shared::Slab;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::cell::RefCell;
use std::collections::HashSet;

/// What a handle holds.
pub enum Stored {
    /// A run, in ranx's order.
    Run(OrderedRun),
    /// Judgements.
    Qrels(Qrels),
}

thread_local! {
    static STORE: RefCell<Slab<Stored>> = RefCell::new(Slab::default());
}

/// Stores `v` and returns its handle.
pub fn insert(v: Stored) -> u32 {
    STORE.with(|s| s.borrow_mut().insert(v))
}

/// Frees a handle (an unknown one is ignored).
pub fn free(h: u32) {
    STORE.with(|s| {
        s.borrow_mut().remove(h);
    });
}

/// Live handles (the memory test watches this).
pub fn live() -> usize {
    STORE.with(|s| s.borrow().live())
}

/// Runs `f` over the store.
pub fn with<T>(f: impl FnOnce(&Slab<Stored>) -> Result<T>) -> Result<T> {
    STORE.with(|s| f(&s.borrow()))
}

/// The run of handle `h` (`field` names the argument in errors).
pub fn run<'s>(store: &'s Slab<Stored>, h: u32, field: &str) -> Result<&'s OrderedRun> {
    match store.get(h).map_err(|e| e.within(field))? {
        Stored::Run(r) => Ok(r),
        Stored::Qrels(_) => Err(ScoreError::new(
            ErrorCode::InvalidType,
            field,
            "expected a Run or a run object, got a Qrels",
        )),
    }
}

/// The judgements of handle `h`.
pub fn qrels<'s>(store: &'s Slab<Stored>, h: u32, field: &str) -> Result<&'s Qrels> {
    match store.get(h).map_err(|e| e.within(field))? {
        Stored::Qrels(q) => Ok(q),
        Stored::Run(_) => Err(ScoreError::new(
            ErrorCode::InvalidType,
            field,
            "expected a Qrels or a judgements object, got a Run",
        )),
    }
}

/// One run (or qrels) argument: a handle or JSON text.
#[derive(Clone, Copy)]
pub enum Arg<'a> {
    /// A handle (`U32` section of one).
    Handle(u32),
    /// The object as JSON, and whether it came out of the package already in ranx's
    /// order (a fused run, a `Run`'s `toObject()`; see [`order`]).
    Text(&'a str, bool),
}

/// Reads one run or qrels argument: a `U32` handle, or a JSON text preceded by an
/// optional `F64` flag (1: the object came out of the package in ranx's order).
pub fn arg<'a>(r: &mut Reader<'a>) -> Result<Arg<'a>> {
    if r.peek_tag() == Some(tag::U32) {
        return Ok(Arg::Handle(r.u32()?));
    }
    let ranked = if r.peek_tag() == Some(tag::F64) {
        r.f64()? == 1.0
    } else {
        false
    };
    Ok(Arg::Text(r.text()?, ranked))
}

/// Several runs: handles (`U32` section) or a JSON array.
pub enum Args<'a> {
    /// Handles, one per run.
    Handles(&'a [u32]),
    /// A JSON array of run objects, with one "in ranx's order" flag per run (empty: none).
    Text(&'a str, &'a [f64]),
}

/// Reads a runs argument: a `U32` section of handles, or a JSON array preceded by an
/// optional `F64` section of flags (see [`arg`]).
pub fn args<'a>(r: &mut Reader<'a>) -> Result<Args<'a>> {
    if r.peek_tag() == Some(tag::U32) {
        return Ok(Args::Handles(r.u32s()?));
    }
    let flags = if r.peek_tag() == Some(tag::F64) {
        r.f64s()?
    } else {
        &[]
    };
    Ok(Args::Text(r.text()?, flags))
}

/// Puts a decoded run object in the order ranx holds it. An object is read as ranx's
/// `Run(dict)` reads a dict: its key order, then ranx's sort. An object the package
/// itself returned in ranx's order (`ranked`: a fused run, a `Run`'s `toObject()`) is
/// kept as it is when every query's scores still come in non-increasing order (sorting
/// it again could reorder 16 or more tied documents, which ranx does not do to its own
/// fused run); one whose keys JS reordered (integer-like ids) or whose scores were
/// changed is sorted like any other object.
pub fn order(run: &mut OrderedRun, ranked: bool) {
    let non_increasing = || {
        run.values()
            .all(|docs| docs.windows(2).all(|w| matches!(w, [a, b] if a.1 >= b.1)))
    };
    if !(ranked && non_increasing()) {
        ranx_sort(run);
    }
}

/// A run object (`{qid: {docid: score}}`) in the order ranx holds it ([`order`]).
/// Scores must be finite numbers (field `<field>.<qid>.<docid>`); entries and id bytes
/// are charged to `budget`.
pub fn decode_run(
    text: &str,
    field: &str,
    budget: &mut Budget,
    ranked: bool,
) -> Result<OrderedRun> {
    let tree = json::parse(text, field)?;
    let mut run = run_from_tree(&tree, field)?;
    charge(&run, field, budget)?;
    order(&mut run, ranked);
    Ok(run)
}

/// Charges a run's entries and the bytes of its ids.
pub fn charge(run: &OrderedRun, field: &str, budget: &mut Budget) -> Result<()> {
    budget.entries(run.values().map(Vec::len).sum(), field)?;
    let bytes: usize = run
        .iter()
        .map(|(q, docs)| q.len() + docs.iter().map(|(d, _)| d.len()).sum::<usize>())
        .sum();
    budget.text(bytes, field)
}

fn expected_record(field: &str) -> ScoreError {
    ScoreError::new(
        ErrorCode::InvalidType,
        field,
        "expected a record of query id -> document id -> score",
    )
}

/// Reads a parsed run object in its key order.
pub fn run_from_tree(tree: &Json, field: &str) -> Result<OrderedRun> {
    let Json::Obj(queries) = tree else {
        return Err(expected_record(field));
    };
    let mut run = OrderedRun::new();
    for (q, docs) in queries {
        let Json::Obj(docs) = docs else {
            return Err(expected_record(&format!("{field}.{q}")));
        };
        let mut seen = HashSet::with_capacity(docs.len());
        let mut list = Vec::with_capacity(docs.len());
        for (d, v) in docs {
            let at = || format!("{field}.{q}.{d}");
            let Json::Num(s) = v else {
                return Err(ScoreError::new(
                    ErrorCode::InvalidType,
                    at(),
                    "expected a number",
                ));
            };
            calibrank::error::finite(*s, at)?;
            if !seen.insert(d.as_str()) {
                return Err(ScoreError::new(
                    ErrorCode::DuplicateId,
                    at(),
                    format!("document {d:?} is listed twice for query {q:?}"),
                ));
            }
            list.push((d.clone(), *s));
        }
        if run.insert(q.clone(), list).is_some() {
            return Err(ScoreError::new(
                ErrorCode::DuplicateId,
                format!("{field}.{q}"),
                format!("query {q:?} is listed twice"),
            ));
        }
    }
    Ok(run)
}

/// A run serialized as a JSON object in its order.
struct InOrder<'a>(&'a OrderedRun);

/// One query's documents in their order.
struct DocsInOrder<'a>(&'a [(String, f64)]);

impl Serialize for InOrder<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (q, docs) in self.0 {
            m.serialize_entry(q, &DocsInOrder(docs))?;
        }
        m.end()
    }
}

impl Serialize for DocsInOrder<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (d, score) in self.0 {
            m.serialize_entry(d, score)?;
        }
        m.end()
    }
}

/// Writes a run as JSON, each query's documents in the run's order (every score is
/// finite: the parsers and the fusion make no others).
pub fn write_run(w: &mut Writer, run: &OrderedRun) -> Result<()> {
    calibrank_wasm_shared::write_json(w, &InOrder(run))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(scores: &[f64]) -> OrderedRun {
        let docs = scores
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("d{i}"), *s))
            .collect();
        OrderedRun::from([("q".to_string(), docs)])
    }

    fn ids(run: &OrderedRun) -> Vec<&str> {
        run["q"].iter().map(|(d, _)| d.as_str()).collect()
    }

    #[test]
    fn a_ranked_object_in_non_increasing_order_is_kept_as_it_is() {
        // 20 tied documents: numba's quicksort reorders them (tests of ranking.rs).
        let tied = run(&[1.0; 20]);
        let mut kept = tied.clone();
        order(&mut kept, true);
        assert_eq!(ids(&kept), ids(&tied));
        let mut sorted = tied.clone();
        order(&mut sorted, false);
        assert_ne!(ids(&sorted), ids(&tied));
        // Out of order (changed scores, or keys JS reordered): sorted like any object.
        let mut changed = run(&[1.0, 2.0]);
        order(&mut changed, true);
        assert_eq!(ids(&changed), vec!["d1", "d0"]);
    }
}
