//! The pipeline input: owned ([`PipelineInput`], as JSON gives it) and borrowed
//! ([`InputRef`], what the run reads), and the item texts a caller may hold back
//! ([`PoolTexts`]).

use crate::bands::BandContext;
use crate::error::Result;
use crate::rerank::CandidateText;
use crate::timestamp::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

// For the doc links only.
#[cfg(doc)]
use super::Pipeline;

/// One input list (`Default`: no name, no ids; `InputList { name, ids,
/// ..Default::default() }`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InputList {
    /// Strategy name (`semantic`, `keyword`, `graph`, ...), unique within an input.
    pub name: String,
    /// Ids, best first.
    pub ids: Vec<String>,
    /// The strategy's own scores, parallel to `ids` (reported in explanations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<f64>>,
    /// Weight of this list (overrides `config.weights[name]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
}

/// Metadata of one item, for recency and reranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ItemMeta {
    /// Name (heuristic reranker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Entity type (heuristic reranker).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub entity_type: Option<String>,
    /// Summary (heuristic reranker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Content (heuristic reranker's short-content rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Modification time (step recency).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified_at: Option<Timestamp>,
    /// Fiscal year (fiscal-year recency).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fiscal_year: Option<i32>,
    /// External cross-encoder score (cross-encoder rerank).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_encoder_score: Option<f64>,
}

/// The pipeline input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PipelineInput {
    /// The query text (required by the heuristic reranker).
    #[serde(default)]
    pub query: String,
    /// Ranked lists, one per strategy.
    pub lists: Vec<InputList>,
    /// Metadata by item id, looked up by the lists' ids: an entry whose key is in no
    /// list is never read (neither checked nor counted against the limits).
    #[serde(default)]
    pub items: BTreeMap<String, ItemMeta>,
    /// The current time for step recency (epoch ms or ISO 8601).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now: Option<Timestamp>,
    /// Context that selects a band profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<BandContext>,
    /// Results to return for this query, in place of the configuration's `topN` (seed
    /// 000: a per-call parameter); `1 <= topN <= topK`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_n: Option<u32>,
}

/// A point in time as given, borrowed ([`Timestamp`] without the copy).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeRef<'a> {
    /// Epoch milliseconds.
    Millis(f64),
    /// An ISO 8601 date or date-time.
    Iso(&'a str),
}

impl TimeRef<'_> {
    /// Epoch milliseconds; `field` names the input for errors.
    pub fn to_millis(self, field: &str) -> Result<f64> {
        match self {
            TimeRef::Millis(ms) => Timestamp::Millis(ms).to_millis(field),
            TimeRef::Iso(s) => crate::timestamp::iso_to_millis(s, field),
        }
    }
}

impl<'a> From<&'a Timestamp> for TimeRef<'a> {
    fn from(t: &'a Timestamp) -> Self {
        match t {
            Timestamp::Millis(ms) => TimeRef::Millis(*ms),
            Timestamp::Iso(s) => TimeRef::Iso(s),
        }
    }
}

/// One input list, borrowed.
#[derive(Debug, Clone, PartialEq)]
pub struct ListRef<'a> {
    /// Strategy name.
    pub name: &'a str,
    /// Ids, best first.
    pub ids: Vec<&'a str>,
    /// The strategy's own scores, parallel to `ids`.
    pub scores: Option<&'a [f64]>,
    /// Weight of this list.
    pub weight: Option<f64>,
}

/// Metadata of one item, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ItemRef<'a> {
    /// Name (heuristic reranker).
    pub name: Option<&'a str>,
    /// Entity type (heuristic reranker).
    pub entity_type: Option<&'a str>,
    /// Summary (heuristic reranker).
    pub summary: Option<&'a str>,
    /// Content (short-content rule).
    pub content: Option<&'a str>,
    /// Modification time (step recency).
    pub modified_at: Option<TimeRef<'a>>,
    /// Fiscal year (fiscal-year recency).
    pub fiscal_year: Option<i32>,
    /// Cross-encoder score.
    pub cross_encoder_score: Option<f64>,
}

/// The ids of an input already interned by the caller: each distinct id once, the lists
/// as indices into them, and each item's index (`u32::MAX` for an item in no list). The
/// lists' `ids` must be these ids (`ids[docs[i][j]]`) and an item's key its id: a call
/// checks both (`INVALID_TYPE` on `interned.docs[i][j]` or `interned.items[k]`), not that
/// the ids are distinct (which would hash them, the work interning spares): an id given
/// twice is two documents.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Interned<'a> {
    /// Distinct ids, in order of first appearance.
    pub ids: Vec<&'a str>,
    /// Each list as indices into `ids`.
    pub docs: Vec<Vec<u32>>,
    /// Each item's index into `ids`, parallel to [`InputRef::items`].
    pub items: Vec<u32>,
}

/// The pipeline input, borrowed: what [`Pipeline::run_ref`] reads, every string a slice
/// of the caller's (no copy of any string); [`PipelineInput`] lends itself as one with
/// [`PipelineInput::as_ref`]. (The wasm bindings read a call's sections into
/// [`super::IndexedInput`] instead.)
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InputRef<'a> {
    /// The query text.
    pub query: &'a str,
    /// Ranked lists.
    pub lists: Vec<ListRef<'a>>,
    /// Metadata by item id, in the caller's order (an id at most once). Validation
    /// reports the first invalid item in this order.
    pub items: Vec<(&'a str, ItemRef<'a>)>,
    /// The current time.
    pub now: Option<TimeRef<'a>>,
    /// Context that selects a band profile.
    pub context: Option<&'a BandContext>,
    /// The ids already interned (fusion then skips hashing them).
    pub interned: Option<Interned<'a>>,
    /// Results to return, in place of the configuration's `topN`.
    pub top_n: Option<u32>,
}

/// Item texts kept out of an input until the reranker needs them: the heuristic
/// reranker reads the name, type, summary and content of the topK pool only, so a caller
/// holding the texts elsewhere (the package's JavaScript, which would otherwise copy every
/// item's text into wasm memory) can supply those of the pool alone
/// ([`Pipeline::run_owned_with_texts`]).
///
/// The input's items then carry no texts, and the caller has checked the held texts
/// against the limits itself (the pipeline sees only the pool's).
pub trait PoolTexts {
    /// The texts of the pool's documents, one entry per document in the order given:
    /// `docs` are indices into the fusion's distinct ids (for an interned input, into
    /// [`Interned::ids`]) and `ids` the same documents' ids. A document without an item
    /// (or without texts) gets an empty name and no other text.
    fn texts(&mut self, docs: &[u32], ids: &[&str]) -> Result<Vec<CandidateText<'_>>>;
}

impl ItemMeta {
    /// This item's fields, borrowed.
    pub fn as_item_ref(&self) -> ItemRef<'_> {
        ItemRef {
            name: self.name.as_deref(),
            entity_type: self.entity_type.as_deref(),
            summary: self.summary.as_deref(),
            content: self.content.as_deref(),
            modified_at: self.modified_at.as_ref().map(TimeRef::from),
            fiscal_year: self.fiscal_year,
            cross_encoder_score: self.cross_encoder_score,
        }
    }
}

impl PipelineInput {
    /// This input as an [`InputRef`] without its items (`Pipeline::run` reads them in
    /// place).
    pub(crate) fn as_ref_without_items(&self) -> InputRef<'_> {
        InputRef {
            query: &self.query,
            lists: self
                .lists
                .iter()
                .map(|l| ListRef {
                    name: &l.name,
                    ids: l.ids.iter().map(String::as_str).collect(),
                    scores: l.scores.as_deref(),
                    weight: l.weight,
                })
                .collect(),
            items: Vec::new(),
            now: self.now.as_ref().map(TimeRef::from),
            context: self.context.as_ref(),
            interned: None,
            top_n: self.top_n,
        }
    }

    /// This input as an [`InputRef`] (items in id order).
    pub fn as_ref(&self) -> InputRef<'_> {
        InputRef {
            items: self
                .items
                .iter()
                .map(|(id, m)| (id.as_str(), m.as_item_ref()))
                .collect(),
            ..self.as_ref_without_items()
        }
    }
}
