//! The string API's lean path: a pipeline input the bindings already interned (each
//! distinct id once, the lists as indices, each item's fields by its document), run
//! without building the borrowed [`super::InputRef`] (a `Vec` of ids per
//! list, an item record per item, two passes of checks over both).
//!
//! It covers every input and every configuration: `modifiedAt` and `now` in epoch
//! milliseconds (the bindings read ISO 8601 times into them first, and pass their texts'
//! lengths, which count against `maxTotalTextBytes`), item texts given with
//! the input or held by the caller (the heuristic reranker reads them), fiscal years,
//! cross-encoder scores, the lists' own scores (a confidence model reads them), a band
//! context. It gives exactly what [`Pipeline::run_ref`] gives for the same input, its
//! output or its error (code, field and message): quick checks answer yes or no, and
//! only an input they refuse is borrowed as `run_ref` reads it and checked by `run_ref`'s
//! own checks, which name its first fault ([`InputDetail`] gives the item keys and the
//! times as given, which those checks name); both paths then
//! run the same stages (stages.rs). A property test compares the two on outputs and
//! errors, and both against an oracle.

use super::config::{RecencyMode, RerankMethod};
use super::input::{InputRef, ItemRef, ListRef, TimeRef};
use super::output::PipelineOutput;
use super::stages::{with_ids, Checked, Ids};
use super::{Pipeline, PoolTexts};
use crate::bands::BandContext;
use crate::error::{ErrorCode, Result, ScoreError};

/// The distinct ids of an [`IndexedInput`] as one text: id `d` is
/// `text[bounds[d]..bounds[d + 1]]` (the string table the bindings receive, read in
/// place; an id is sliced only to break a tie or to name a result).
#[derive(Debug, Clone, Copy, Default)]
pub struct IdTable<'a> {
    /// The ids' UTF-8 text (it may go on with other strings).
    pub text: &'a str,
    /// `len() + 1` bounds, non-decreasing.
    pub bounds: &'a [u32],
}

impl<'a> IdTable<'a> {
    /// The number of ids.
    pub fn len(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Id `d` (`None`: no such id, or bounds that do not cut the text at characters).
    pub fn get(&self, d: u32) -> Option<&'a str> {
        let d = d as usize;
        let (&a, &b) = (self.bounds.get(d)?, self.bounds.get(d.checked_add(1)?)?);
        self.text.get(a as usize..b as usize)
    }

    /// The length of id `d` in bytes.
    fn byte_len(&self, d: u32) -> Option<usize> {
        let d = d as usize;
        let (&a, &b) = (self.bounds.get(d)?, self.bounds.get(d.checked_add(1)?)?);
        (b as usize).checked_sub(a as usize)
    }
}

/// One item of an [`IndexedInput`]: the length of its key in bytes, its fields (times in
/// epoch milliseconds, and the length of an ISO 8601 time's text) and its document
/// (`u32::MAX`: in no list, and then not read).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct IndexedItem<'a> {
    /// The length of the item's key (its id) in bytes.
    pub key_bytes: usize,
    /// The length in bytes of `modifiedAt` given as an ISO 8601 text (0 when given in
    /// epoch milliseconds or not at all): it counts against `maxTotalTextBytes`.
    pub time_bytes: usize,
    /// Name, type, summary and content (the heuristic reranker's), if given.
    pub texts: [Option<&'a str>; 4],
    /// Fiscal year (fiscal-year recency, and the boost after reranking), if given.
    pub fiscal_year: Option<i32>,
    /// Cross-encoder score (any `f64`: one that is not finite is refused, as `run_ref`
    /// refuses it), if given.
    pub cross_encoder: Option<f64>,
    /// `modifiedAt` in epoch milliseconds, if given (any `f64`: one that is not finite,
    /// such as an ISO 8601 text the caller could not read, is refused with the error
    /// [`InputDetail::time`] gives).
    pub modified_ms: Option<f64>,
    /// The index of its id among [`IndexedInput::ids`], or `u32::MAX`.
    pub doc: u32,
}

/// A pipeline input interned by the caller (see the module documentation). The lists are `lists[i]`, named `names[i]`, with their own weight
/// `weights[i]` if given; `ids` are the distinct ids, in order of first appearance.
#[derive(Debug, Clone, Copy, Default)]
pub struct IndexedInput<'a> {
    /// The query text (only its length is checked).
    pub query: &'a str,
    /// The lists' names.
    pub names: &'a [&'a str],
    /// The lists' own weights.
    pub weights: &'a [Option<f64>],
    /// The lists' own scores, parallel to their ids (empty: none has any).
    pub scores: &'a [Option<&'a [f64]>],
    /// Each list as indices into `ids`, best first.
    pub lists: &'a [&'a [u32]],
    /// The distinct ids.
    pub ids: IdTable<'a>,
    /// The items, in any order (a fault is named in the order of their documents, as
    /// [`Pipeline::run_ref`] names it).
    pub items: &'a [IndexedItem<'a>],
    /// The current time in epoch milliseconds.
    pub now_ms: Option<f64>,
    /// The length in bytes of `now` given as an ISO 8601 text (0 otherwise).
    pub now_bytes: usize,
    /// The call's own `topN`.
    pub top_n: Option<u32>,
    /// The context that selects a band profile.
    pub context: Option<&'a BandContext>,
}

/// What only an error message of the lean path reads: item keys, and times as given (a
/// number, or an ISO 8601 text, which the [`IndexedInput`] holds read into epoch
/// milliseconds). Asked only for an input the quick checks refuse. `#[doc(hidden)]` API.
#[doc(hidden)]
pub trait InputDetail {
    /// The key of item `i` (in the order of [`IndexedInput::items`]).
    fn item_key(&self, i: usize) -> &str;
    /// Item `i`'s `modifiedAt` (`Some(i)`) or the input's `now` (`None`), as given.
    fn time(&self, item: Option<usize>) -> Option<TimeRef<'_>>;
}

/// The items a run reads, with their index: those in a list (an item in no list is
/// neither checked nor counted, as [`Pipeline::run_ref`] does not read it).
fn read_items<'b>(
    input: &'b IndexedInput<'_>,
) -> impl Iterator<Item = (usize, &'b IndexedItem<'b>)> + 'b {
    input
        .items
        .iter()
        .enumerate()
        .filter(|(_, item)| item.doc != u32::MAX)
}

fn wire_error(what: &str) -> ScoreError {
    ScoreError::new(ErrorCode::Internal, "", format!("wire: {what}"))
}

impl Pipeline {
    /// The lists' effective weights, or `None` when a list's own weight is one the
    /// checks refuse (or the lists' tables differ in length).
    fn indexed_weights(&self, input: &IndexedInput<'_>) -> Option<Vec<f64>> {
        if input.weights.len() != input.names.len() || input.lists.len() != input.names.len() {
            return None;
        }
        let mut out = Vec::with_capacity(input.names.len());
        for (name, &w) in input.names.iter().zip(input.weights) {
            if w.is_some_and(|w| !(w.is_finite() && w >= 0.0)) {
                return None;
            }
            out.push(self.list_weight(name, w));
        }
        Some(out)
    }

    /// True when `run_ref` would accept the input as far as its checks go (limits, list
    /// names, ids, items, times); the fusion's own checks come later.
    fn indexed_input_ok(&self, input: &IndexedInput<'_>) -> bool {
        let limits = &self.config.limits;
        let n_lists = input.lists.len();
        if !(input.scores.is_empty() || input.scores.len() == n_lists) {
            return false;
        }
        if limits.check_lists(n_lists, "lists").is_err()
            || limits
                .check_lengths(input.lists.iter().map(|l| l.len()), "lists")
                .is_err()
        {
            return false;
        }
        if input.query.len() > limits.max_text_bytes as usize {
            return false;
        }
        let max_id = limits.max_id_bytes as usize;
        // Every string of the input, each list entry's id counted where it occurs (as
        // `run_ref` counts them).
        let mut bytes = input.query.len() + input.now_bytes;
        for (i, (name, list)) in input.names.iter().zip(input.lists).enumerate() {
            if name.len() > max_id || input.names.iter().take(i).any(|n| n == name) {
                return false;
            }
            bytes += name.len();
            if let Some(Some(s)) = input.scores.get(i) {
                if s.len() != list.len() || s.iter().any(|x| !x.is_finite()) {
                    return false;
                }
            }
            for &d in *list {
                match input.ids.byte_len(d) {
                    Some(n) => bytes += n,
                    None => return false,
                }
            }
        }
        // Each id cut at characters and within maxIdBytes.
        let IdTable { text, bounds } = input.ids;
        if bounds.iter().any(|&b| !text.is_char_boundary(b as usize)) {
            return false;
        }
        for pair in bounds.windows(2) {
            let &[a, b] = pair else { return false };
            if b < a || (b - a) as usize > max_id {
                return false;
            }
        }
        let mut any_mtime = false;
        // The items read, counted as they are checked (against maxTotalEntries below: the
        // answer is yes or no, so the order of the checks does not matter here).
        let mut n_read = 0usize;
        for (_, item) in read_items(input) {
            n_read += 1;
            if item.key_bytes > max_id {
                return false;
            }
            bytes += item.key_bytes + item.time_bytes;
            for t in item.texts.iter().flatten() {
                if t.len() > limits.max_text_bytes as usize {
                    return false;
                }
                bytes += t.len();
            }
            if let Some(m) = item.modified_ms {
                if !m.is_finite() {
                    return false;
                }
                any_mtime = true;
            }
            if item.cross_encoder.is_some_and(|x| !x.is_finite()) {
                return false;
            }
        }
        let entries: usize = input.lists.iter().map(|l| l.len()).sum();
        if limits
            .check_entries(entries.saturating_add(n_read), "items")
            .is_err()
            || bytes > limits.max_total_text_bytes as usize
            || (self.config.rerank.method == RerankMethod::Heuristic
                && crate::rerank::require_query(input.query).is_err())
            || input
                .context
                .is_some_and(|c| super::run::check_context(limits, c).is_err())
        {
            return false;
        }
        match input.now_ms {
            Some(now) => now.is_finite(),
            None => !(any_mtime && self.config.recency.mode == RecencyMode::Step),
        }
    }

    /// The first fault of an input the quick checks (`indexed_input_ok`) refused, as
    /// `run_ref`'s checks name it (the same order, codes, fields and messages).
    fn indexed_error(&self, input: &IndexedInput<'_>, detail: &dyn InputDetail) -> ScoreError {
        match self.indexed_fault(input, detail) {
            Err(e) => e,
            Ok(()) => wire_error("refused without a fault"),
        }
    }

    fn indexed_fault(&self, input: &IndexedInput<'_>, detail: &dyn InputDetail) -> Result<()> {
        let limits = &self.config.limits;
        let n_lists = input.lists.len();
        if input.names.len() != n_lists
            || input.weights.len() != n_lists
            || !(input.scores.is_empty() || input.scores.len() == n_lists)
        {
            return Err(wire_error("lists"));
        }
        let IdTable { text, bounds } = input.ids;
        if bounds.iter().any(|&b| !text.is_char_boundary(b as usize))
            || bounds.windows(2).any(|p| !matches!(p, &[a, b] if a <= b))
        {
            return Err(wire_error("ids"));
        }
        // `run_parts`' first checks, then `run_ref`'s own (`validate_input`) on the same
        // input borrowed as `run_ref` reads it: the same fault, named alike, by
        // construction.
        limits.check_lists(n_lists, "lists")?;
        limits.check_lengths(input.lists.iter().map(|l| l.len()), "lists")?;
        let mut lists = Vec::with_capacity(n_lists);
        for (i, (&name, list)) in input.names.iter().zip(input.lists).enumerate() {
            let ids = list
                .iter()
                .map(|&d| input.ids.get(d).ok_or_else(|| wire_error("doc index")))
                .collect::<Result<Vec<&str>>>()?;
            lists.push(ListRef {
                name,
                ids,
                scores: input.scores.get(i).copied().flatten(),
                weight: input.weights.get(i).copied().flatten(),
            });
        }
        let full = InputRef {
            query: input.query,
            lists,
            items: Vec::new(),
            now: input.now_ms.and(detail.time(None)),
            context: input.context,
            interned: None,
            top_n: input.top_n,
        };
        // The items in the order of their documents, as `run_ref` reads them.
        let docs: Vec<u32> = input.items.iter().map(|i| i.doc).collect();
        let order = super::run::doc_order(&docs, input.ids.len());
        let read = || {
            order.iter().filter_map(|&i| {
                let i = i as usize;
                let item = input.items.get(i)?;
                let [name, entity_type, summary, content] = item.texts;
                let meta = ItemRef {
                    name,
                    entity_type,
                    summary,
                    content,
                    modified_at: item.modified_ms.and(detail.time(Some(i))),
                    fiscal_year: item.fiscal_year,
                    cross_encoder_score: item.cross_encoder,
                };
                Some(((detail.item_key(i), meta), item.doc))
            })
        };
        self.validate_input(&full, read, order.len(), Vec::new())
            .map(|_| ())
    }

    /// Runs the pipeline on an interned input: what [`Pipeline::run_ref`] gives for the
    /// same input, its output or its error (see the module documentation). `held` holds
    /// the items' texts when they carry none (see [`PoolTexts`]; asked once, for the
    /// pool's, as [`Pipeline::run_owned_with_texts`] asks). `#[doc(hidden)]` API.
    #[doc(hidden)]
    pub fn run_indexed(
        &self,
        input: &IndexedInput<'_>,
        held: Option<&mut dyn PoolTexts>,
        detail: &dyn InputDetail,
    ) -> Result<PipelineOutput> {
        self.run_indexed_docs(input, held, detail)
            .map(|out| with_ids(out, Ids::Table(input.ids)))
    }

    /// [`Pipeline::run_indexed`] with the results' ids left empty: each result's `doc`
    /// names it (the bindings return documents, whose ids their caller holds, and make no
    /// `String` per result). `#[doc(hidden)]` API.
    #[doc(hidden)]
    pub fn run_indexed_docs(
        &self,
        input: &IndexedInput<'_>,
        held: Option<&mut dyn PoolTexts>,
        detail: &dyn InputDetail,
    ) -> Result<PipelineOutput> {
        let top_n = self.config.top_n_or(input.top_n)?;
        let weights = match self.indexed_weights(input) {
            Some(w) if self.indexed_input_ok(input) => w,
            _ => return Err(self.indexed_error(input, detail)),
        };
        let checked = Checked {
            query: input.query,
            names: input.names,
            weights: &weights,
            scores: input.scores,
            lists: input.lists,
            ids: Ids::Table(input.ids),
            items: input.items,
            now_ms: input.now_ms,
            context: input.context,
            top_n,
        };
        self.stages(&checked, held)
    }
}
