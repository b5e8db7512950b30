//! `Run` and `Qrels` objects kept in wasm memory behind handles (js/lab/handles.js's `Run` and
//! `Qrels` classes), and the run arguments every lab operation takes: a handle (a `U32`
//! section) or an object, read by js/lab/runs.js into typed sections (see [`Object`]).
//!
//! A run is kept as ranx keeps a `Run`: each query's documents in ranx's sorted order
//! (numba's quicksort of the file's or the object's order, see `calibrank::lab::runs`),
//! so evaluating it ranks in exactly that order and fusing it reads that order.

use calibrank::error::{key_path, ErrorCode, Result, ScoreError};
use calibrank::lab::runs::{check_grade, into_run, ranx_sort, OrderedRun, Qrels};
use calibrank::limits::Budget;
use calibrank_wasm_shared::wire::{tag, Reader, Strs, Writer};
use calibrank_wasm_shared::Slab;
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
    static STORE: RefCell<Slab<Stored>> = const { RefCell::new(Slab::new()) };
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

/// The run of handle `h` (`field` names the argument in errors), its entries and id
/// bytes charged to the call's `budget` as an object's are (a run held by a handle is no cheaper to fuse
/// or evaluate than the same run given as an object, only to read).
pub fn run<'s>(
    store: &'s Slab<Stored>,
    h: u32,
    field: &str,
    budget: &mut Budget,
) -> Result<&'s OrderedRun> {
    match store.get(h).map_err(|e| e.within(field))? {
        Stored::Run(r) => {
            charge(r, field, budget)?;
            Ok(r)
        }
        Stored::Qrels(_) => Err(ScoreError::new(
            ErrorCode::InvalidType,
            field,
            "expected a Run or a run object, got a Qrels",
        )),
    }
}

/// The judgements of handle `h` (charged to a call's budget where the call reads its
/// arguments: `decode_qrels` in lib.rs).
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

/// One run (or qrels) argument: a handle or an object.
#[derive(Clone, Copy)]
pub enum Arg<'a> {
    /// A handle (`U32` section of one).
    Handle(u32),
    /// A run or judgements object, as js/lab/runs.js read it.
    Object(Object<'a>),
}

/// A run (or judgements) object `{ queryId: { docId: score } }` as js/lab/runs.js writes it:
/// the query ids (`STRS`), each query's number of documents (`U32`), the document ids
/// (`STRS`) and their scores (`F64`), in the object's key order, then either `NONE` or
/// the value of the wrong type at which the reading stopped (`TEXT` field, `TEXT`
/// message: the entries before it are in the sections, so that an error before it is
/// found first, as when the object was read whole).
#[derive(Clone, Copy)]
pub struct Object<'a> {
    qids: Strs<'a>,
    counts: &'a [u32],
    docs: Strs<'a>,
    scores: &'a [f64],
    bad: Option<(&'a str, &'a str)>,
    /// Whether the object came out of the package already in ranx's order (a fused run,
    /// a `Run`'s `toObject()`; see [`order`]).
    ranked: bool,
}

fn wire_error(message: &str) -> ScoreError {
    ScoreError::new(ErrorCode::Internal, "", format!("wire: {message}"))
}

/// Reads the sections of one object (see [`Object`]).
fn object<'a>(r: &mut Reader<'a>, ranked: bool) -> Result<Object<'a>> {
    let qids = r.strs()?;
    let counts = r.u32s()?;
    let docs = r.strs()?;
    let scores = r.f64s()?;
    let bad = match r.opt_text()? {
        None => None,
        Some(field) => Some((field, r.text()?)),
    };
    let total = counts
        .iter()
        .try_fold(0usize, |t, &n| t.checked_add(n as usize));
    if counts.len() != qids.len() || total != Some(docs.len()) || docs.len() != scores.len() {
        return Err(wire_error("a run object's sections do not agree"));
    }
    Ok(Object {
        qids,
        counts,
        docs,
        scores,
        bad,
        ranked,
    })
}

impl<'a> Object<'a> {
    /// Query `i`'s id and its documents' ids and scores (`object` checked the counts).
    fn query(&self, i: usize, start: usize) -> Result<(&'a str, Docs<'a>)> {
        let n = self.counts.get(i).copied().unwrap_or(0) as usize;
        let scores = self
            .scores
            .get(start..start + n)
            .ok_or_else(|| wire_error("scores"))?;
        Ok((
            self.qids.get(i)?,
            Docs {
                ids: self.docs,
                start,
                scores,
            },
        ))
    }

    /// The error of the value at which js/lab/runs.js stopped reading, if any.
    fn bad(&self) -> Result<()> {
        match self.bad {
            None => Ok(()),
            Some((field, message)) => Err(ScoreError::new(ErrorCode::InvalidType, field, message)),
        }
    }
}

/// One query's documents in an [`Object`].
struct Docs<'a> {
    ids: Strs<'a>,
    start: usize,
    scores: &'a [f64],
}

impl<'a> Docs<'a> {
    /// Document `j`'s id and score.
    fn get(&self, j: usize) -> Result<(&'a str, f64)> {
        let s = self
            .scores
            .get(j)
            .copied()
            .ok_or_else(|| wire_error("scores"))?;
        Ok((self.ids.get(self.start + j)?, s))
    }
}

/// Reads one run or qrels argument: a `U32` handle, or an object (see [`Object`])
/// preceded by an optional `F64` flag (1: the object came out of the package in ranx's
/// order).
pub fn arg<'a>(r: &mut Reader<'a>) -> Result<Arg<'a>> {
    if r.peek_tag() == Some(tag::U32) {
        return Ok(Arg::Handle(r.u32()?));
    }
    let ranked = if r.peek_tag() == Some(tag::F64) {
        r.f64()? == 1.0
    } else {
        false
    };
    Ok(Arg::Object(object(r, ranked)?))
}

/// Several runs: handles (`U32` section) or objects.
pub enum Args<'a> {
    /// Handles, one per run.
    Handles(&'a [u32]),
    /// Run objects.
    Objects(Vec<Object<'a>>),
}

/// Reads a runs argument: a `U32` section of handles, or an `F64` section of one "in
/// ranx's order" flag per run (see [`arg`]) followed by the runs' objects.
pub fn args<'a>(r: &mut Reader<'a>) -> Result<Args<'a>> {
    if r.peek_tag() == Some(tag::U32) {
        return Ok(Args::Handles(r.u32s()?));
    }
    let flags = r.f64s()?;
    let runs = flags
        .iter()
        .map(|&f| object(r, f == 1.0))
        .collect::<Result<Vec<_>>>()?;
    Ok(Args::Objects(runs))
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
/// Scores must be finite numbers (field `<field>.<qid>.<docid>`, each id as
/// `calibrank::error::key_path` writes it); entries and id bytes
/// are charged to `budget`.
pub fn decode_run(obj: &Object<'_>, field: &str, budget: &mut Budget) -> Result<OrderedRun> {
    let mut run = read(obj, field, true)?;
    charge(&run, field, budget)?;
    order(&mut run, obj.ranked);
    Ok(run)
}

/// Judgements from an object (`{qid: {docid: grade}}`); entries and id bytes are
/// charged to `budget`. Grades must be finite whole numbers (`NON_FINITE_SCORE`, or
/// `INVALID_TYPE` for `0.5`, field `<field>.<qid>.<docid>`, the ids as `key_path` writes
/// them), as `parseQrels`, `qrels_from_json` and `evaluate` ask
/// (`calibrank::lab::runs::check_grade`): `fitQueryConfidence` read NaN as not relevant,
/// and 0.5 as relevant where `evaluate` read it as not.
pub fn decode_qrels(obj: &Object<'_>, field: &str, budget: &mut Budget) -> Result<Qrels> {
    let run = read(obj, field, false)?;
    charge(&run, field, budget)?;
    Ok(Qrels(into_run(run).0))
}

/// An object's entries in its order, then the error at which js/lab/runs.js stopped reading
/// (if any). Every value must be finite, and whole for judgements; `scores`: document ids distinct per query too
/// (a run's rule; js/lab/runs.js sends judgements no duplicate).
fn read(obj: &Object<'_>, field: &str, scores: bool) -> Result<OrderedRun> {
    let mut run = OrderedRun::new();
    let mut start = 0;
    for i in 0..obj.qids.len() {
        let (q, docs) = obj.query(i, start)?;
        let n = docs.scores.len();
        let mut seen = HashSet::with_capacity(if scores { n } else { 0 });
        let mut list = Vec::with_capacity(n);
        for j in 0..n {
            let (d, s) = docs.get(j)?;
            let at = || key_path(&key_path(field, q), d);
            if scores {
                calibrank::error::finite(s, at)?;
            } else {
                // A grade: finite and whole, as every way judgements enter asks.
                check_grade(s, at)?;
            }
            if scores && !seen.insert(d) {
                return Err(ScoreError::new(
                    ErrorCode::DuplicateId,
                    at(),
                    format!(
                        "document {} is listed twice for query {}",
                        calibrank::error::name(d),
                        calibrank::error::name(q)
                    ),
                ));
            }
            list.push((d.to_string(), s));
        }
        if run.insert(q.to_string(), list).is_some() && scores {
            return Err(ScoreError::new(
                ErrorCode::DuplicateId,
                key_path(field, q),
                format!("query {} is listed twice", calibrank::error::name(q)),
            ));
        }
        start += n;
    }
    obj.bad()?;
    Ok(run)
}

/// Charges a run's entries and the bytes of its ids.
pub fn charge(run: &OrderedRun, field: &str, budget: &mut Budget) -> Result<()> {
    let queries = run.iter().map(|(q, docs)| {
        let ids: usize = docs.iter().map(|(d, _)| d.len()).sum();
        (docs.len(), q.len() + ids)
    });
    charge_queries(queries, field, budget)
}

/// Charges judgements' entries and the bytes of their ids (a `Qrels` handle's, as
/// [`decode_qrels`] charges an object's through [`charge`]).
pub fn charge_qrels(qrels: &Qrels, field: &str, budget: &mut Budget) -> Result<()> {
    let queries = qrels.iter().map(|(q, grades)| {
        let ids: usize = grades.keys().map(String::len).sum();
        (grades.len(), q.len() + ids)
    });
    charge_queries(queries, field, budget)
}

/// Charges each query's `(entries, bytes of its id and its documents' ids)`.
fn charge_queries(
    queries: impl Iterator<Item = (usize, usize)>,
    field: &str,
    budget: &mut Budget,
) -> Result<()> {
    let (entries, bytes) = queries.fold((0usize, 0usize), |(e, b), (n, m)| {
        (e.saturating_add(n), b.saturating_add(m))
    });
    budget.entries(entries, field)?;
    budget.text(bytes, field)
}

/// Writes a run or judgements as js/lab/runs.js `runOfSections` builds their object from
/// (the form an object argument crosses in too): the query ids (STRS), each query's count
/// of documents (U32), the documents (STRS) and their scores or grades (F64), each
/// query's documents in order. Numbers cross as they are, NaN and the infinities
/// included. Each section is written straight from `queries`.
fn write_sections<'r, D>(w: &mut Writer, queries: impl Iterator<Item = (&'r str, D)> + Clone)
where
    D: Iterator<Item = (&'r str, f64)> + Clone,
{
    w.strs(queries.clone().map(|(q, _)| q));
    let counts: Vec<u32> = queries
        .clone()
        .map(|(_, docs)| u32::try_from(docs.count()).unwrap_or(u32::MAX))
        .collect();
    w.u32s(&counts);
    w.strs(queries.clone().flat_map(|(_, docs)| docs.map(|(d, _)| d)));
    let n = counts.iter().map(|&c| c as usize).sum();
    w.f64s_from(n, queries.flat_map(|(_, docs)| docs.map(|(_, s)| s)));
}

/// Writes a run ([`write_sections`]), each query's documents in the run's order.
pub fn write_run(w: &mut Writer, run: &OrderedRun) -> Result<()> {
    write_sections(
        w,
        run.iter()
            .map(|(q, docs)| (q.as_str(), docs.iter().map(|(d, s)| (d.as_str(), *s)))),
    );
    Ok(())
}

/// Writes judgements ([`write_sections`]), each query's documents in id order.
pub fn write_qrels(w: &mut Writer, qrels: &Qrels) -> Result<()> {
    write_sections(
        w,
        qrels
            .iter()
            .map(|(q, grades)| (q.as_str(), grades.iter().map(|(d, g)| (d.as_str(), *g)))),
    );
    Ok(())
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

    /// The sections of one object argument, as js/lab/runs.js writes them.
    fn sections(
        qids: &[&str],
        counts: &[u32],
        docs: &[&str],
        scores: &[f64],
        bad: Option<(&str, &str)>,
    ) -> Vec<u64> {
        let mut w = Writer::default();
        w.strs(qids.iter().copied());
        w.u32s(counts);
        w.strs(docs.iter().copied());
        w.f64s(scores);
        match bad {
            None => w.none(),
            Some((f, m)) => {
                w.text(f);
                w.text(m);
            }
        }
        w.bytes()
            .chunks(8)
            .map(|c| {
                let mut word = [0u8; 8];
                word[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(word)
            })
            .collect()
    }

    fn decoded(words: &[u64], qrels: bool) -> Result<String> {
        let mut r = Reader::new(calibrank_wasm_shared::words_as_bytes(words));
        let Arg::Object(o) = arg(&mut r)? else {
            panic!("not an object")
        };
        let mut budget = Budget::new(calibrank::limits::Limits::default());
        Ok(if qrels {
            format!("{:?}", decode_qrels(&o, "qrels", &mut budget)?)
        } else {
            format!("{:?}", decode_run(&o, "run", &mut budget)?)
        })
    }

    #[test]
    fn object_sections_decode_in_order_and_stop_where_js_stopped() {
        let ok = sections(&["q", "p"], &[2, 0], &["b", "a"], &[1.0, 2.0], None);
        assert_eq!(
            decoded(&ok, false).unwrap(),
            r#"{"p": [], "q": [("a", 2.0), ("b", 1.0)]}"#
        );
        assert_eq!(
            decoded(&ok, true).unwrap(),
            r#"Qrels({"p": {}, "q": {"a": 2.0, "b": 1.0}})"#
        );
        // A non-finite score before the value of the wrong type is found first.
        let bad = Some(("run.q.c", "expected a number"));
        let nan = sections(&["q"], &[1], &["a"], &[f64::NAN], bad);
        let e = decoded(&nan, false).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "run.q.a")
        );
        let typed = sections(&["q"], &[1], &["a"], &[1.0], bad);
        let e = decoded(&typed, false).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidType, "run.q.c")
        );
        // Judgements' grades must be finite too, named under their argument.
        let e = decoded(&nan, true).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::NonFiniteScore, "qrels.q.a")
        );
        // And whole (`Qrels.fromObject`, and judgements objects given to evaluate,
        // optimizeFusion, fitQueryConfidence): 0.5 is INVALID_TYPE on its path, the
        // grade in the message, before the value of the wrong type; whole grades pass.
        let half = sections(&["q"], &[2], &["a", "b"], &[1.0, 0.5], bad);
        let e = decoded(&half, true).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_str()),
            (ErrorCode::InvalidType, "qrels.q.b")
        );
        assert!(e.message.ends_with(", got 0.5"), "{}", e.message);
        let whole = sections(
            &["q"],
            &[4],
            &["a", "b", "c", "d"],
            &[0.0, 1.0, 2.0, -1.0],
            None,
        );
        assert_eq!(
            decoded(&whole, true).unwrap(),
            r#"Qrels({"q": {"a": 0.0, "b": 1.0, "c": 2.0, "d": -1.0}})"#
        );
        // A run's scores are any finite numbers still.
        assert!(decoded(&half, false).is_err_and(|e| e.field == "run.q.c"));
        // Sections that do not agree are the wire's error, not a panic.
        for words in [
            sections(&["q"], &[2], &["a"], &[1.0], None),
            sections(&["q", "p"], &[1], &["a"], &[1.0], None),
            sections(&["q"], &[1], &["a"], &[], None),
            sections(&["q"], &[u32::MAX], &["a"], &[1.0], None),
        ] {
            assert_eq!(
                decoded(&words, false).unwrap_err().code,
                ErrorCode::Internal
            );
        }
        let dup = sections(&["q"], &[2], &["a", "a"], &[1.0, 2.0], None);
        assert_eq!(
            decoded(&dup, false).unwrap_err().code,
            ErrorCode::DuplicateId
        );
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
