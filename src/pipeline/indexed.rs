//! The string API's lean path: a pipeline input the bindings already interned (each
//! distinct id once, the lists as indices, each item's fields by its document), run
//! without building the borrowed [`super::InputRef`] (a `Vec` of ids per
//! list, an item record per item, two passes of checks over both).
//!
//! It covers every input and every configuration: `modifiedAt` and `now` in epoch
//! milliseconds (the bindings read ISO 8601 times into them first), item texts given with
//! the input or held by the caller (the heuristic reranker reads them), fiscal years,
//! cross-encoder scores, the lists' own scores (a confidence model reads them), a band
//! context. Its checks answer yes or no where those of [`Pipeline::run_ref`] name the
//! fault; both then run the same stages (stages.rs), so it gives exactly what `run_ref`
//! gives (a property test compares the two, and both against an oracle). Any input
//! `run_ref` would refuse gives `None`: the caller then runs `run_ref`, which reports the
//! error with its code and field path. The lean path never reports an error itself.

use super::config::{RecencyMode, RerankMethod};
use super::output::PipelineOutput;
use super::stages::{Checked, Ids};
use super::{Pipeline, PoolTexts};
use crate::bands::BandContext;

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
/// epoch milliseconds) and its document (`u32::MAX`: in no list).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct IndexedItem<'a> {
    /// The length of the item's key (its id) in bytes.
    pub key_bytes: usize,
    /// Name, type, summary and content (the heuristic reranker's), if given.
    pub texts: [Option<&'a str>; 4],
    /// Fiscal year (fiscal-year recency, and the boost after reranking), if given.
    pub fiscal_year: Option<i32>,
    /// Cross-encoder score (any `f64`: one that is not finite makes the input one the
    /// lean path does not take), if given.
    pub cross_encoder: Option<f64>,
    /// `modifiedAt` in epoch milliseconds, if given (any `f64`: one that is not finite
    /// makes the input one the lean path does not take).
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
    /// The items, in the caller's order.
    pub items: &'a [IndexedItem<'a>],
    /// The current time in epoch milliseconds.
    pub now_ms: Option<f64>,
    /// The call's own `topN`.
    pub top_n: Option<u32>,
    /// The context that selects a band profile.
    pub context: Option<&'a BandContext>,
}

impl Pipeline {
    /// The lists' effective weights, or `None` when the lean path does not take them
    /// (a list's own weight refused by the checks of `run_ref`).
    fn indexed_weights(&self, input: &IndexedInput<'_>) -> Option<Vec<f64>> {
        if input.weights.len() != input.names.len() || input.lists.len() != input.names.len() {
            return None;
        }
        let mut out = Vec::with_capacity(input.names.len());
        for (name, w) in input.names.iter().zip(input.weights) {
            match w {
                Some(w) if !(w.is_finite() && *w >= 0.0) => return None,
                Some(w) => out.push(*w),
                None => out.push(self.config.weights.get(*name).copied().unwrap_or(1.0)),
            }
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
        let entries: usize = input.lists.iter().map(|l| l.len()).sum();
        if limits
            .check_entries(entries.saturating_add(input.items.len()), "items")
            .is_err()
            || input.query.len() > limits.max_text_bytes as usize
        {
            return false;
        }
        let max_id = limits.max_id_bytes as usize;
        // Every string of the input, each list entry's id counted where it occurs (as
        // `run_ref` counts them).
        let mut bytes = input.query.len();
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
        for item in input.items {
            if item.key_bytes > max_id {
                return false;
            }
            bytes += item.key_bytes;
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
        if bytes > limits.max_total_text_bytes as usize
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

    /// Runs the pipeline on an interned input: `Some` with the output
    /// [`Pipeline::run_ref`] gives for the same input, or `None` when the configuration
    /// or the input is one the lean path does not take, or one `run_ref` refuses (see
    /// the module documentation). Used by the bindings; `#[doc(hidden)]` API.
    #[doc(hidden)]
    pub fn run_indexed(&self, input: &IndexedInput<'_>) -> Option<PipelineOutput> {
        self.run_indexed_with_texts(input, None)
    }

    /// [`Pipeline::run_indexed`] on an input whose items' texts are held by `held` (see
    /// [`PoolTexts`]; asked once for the pool's, as [`Pipeline::run_owned_with_texts`]
    /// asks). `None` as `run_indexed` gives it, and when `held` fails (the full path then
    /// reports it). `#[doc(hidden)]` API.
    #[doc(hidden)]
    pub fn run_indexed_with_texts(
        &self,
        input: &IndexedInput<'_>,
        held: Option<&mut dyn PoolTexts>,
    ) -> Option<PipelineOutput> {
        let top_n = self.config.top_n_or(input.top_n).ok()?;
        if !self.indexed_input_ok(input) {
            return None;
        }
        let weights = self.indexed_weights(input)?;
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
        self.stages(&checked, held).ok()
    }
}
