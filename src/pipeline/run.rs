//! The full path into the pipeline: a borrowed input checked with a typed error (code
//! and field path) for each fault, its ids interned, then the stages (stages.rs).

use super::config::{RecencyMode, RerankMethod};
use super::indexed::IndexedItem;
use super::input::{InputRef, Interned, ItemRef, PipelineInput, PoolTexts, TimeRef};
use super::stages::{with_ids, Checked, Ids};
use super::Pipeline;
use crate::error::{finite, ErrorCode, Result, ScoreError};
use crate::fuse::validate_weight;
use crate::intern::Interner;
use crate::pipeline::PipelineOutput;

/// A band context's strings are texts (`maxTextBytes` each), named `context.<field>`.
/// Inlined: as a call of its own it cost `run` (b) at N = 10 about 1,000 more module
/// instructions (`bench/wasm-icount.sh`), the code around it compiled differently.
#[inline(always)]
pub(super) fn check_context(
    limits: &crate::limits::Limits,
    c: &crate::bands::BandContext,
) -> Result<()> {
    for (name, text) in [
        ("taskClass", &c.task_class),
        ("language", &c.language),
        ("buildSystem", &c.build_system),
    ] {
        if let Some(t) = text {
            limits.check_text(t, || format!("context.{name}"))?;
        }
    }
    Ok(())
}

/// Step recency without the time to measure ages from.
pub(super) fn now_required() -> ScoreError {
    ScoreError::new(
        ErrorCode::InvalidTimestamp,
        "now",
        "`now` is required when items carry `modifiedAt` and recency.mode is `step` (calibrank never reads the clock)",
    )
}

/// Bytes of every string of a pipeline input: the query, list names and the id of every
/// list entry, item ids and texts, and the times given as ISO 8601 texts (the context's
/// strings are checked one by one, [`check_context`]). The bindings' reader counts the
/// same (its string table, which holds each distinct id once, is never more).
fn input_text_bytes<'a>(
    input: &InputRef<'a>,
    items: impl Iterator<Item = (&'a str, ItemRef<'a>)>,
) -> usize {
    let opt = |t: &Option<&str>| t.map_or(0, str::len);
    let lists: usize = input
        .lists
        .iter()
        .map(|l| l.name.len() + l.ids.iter().map(|id| id.len()).sum::<usize>())
        .sum();
    let items: usize = items
        .map(|(id, m)| {
            id.len()
                + opt(&m.name)
                + opt(&m.entity_type)
                + opt(&m.summary)
                + opt(&m.content)
                + iso_bytes(m.modified_at)
        })
        .sum();
    input.query.len() + lists + items + iso_bytes(input.now)
}

/// The bytes of a time given as an ISO 8601 text (0 for epoch milliseconds or none).
pub(super) fn iso_bytes(t: Option<TimeRef<'_>>) -> usize {
    match t {
        Some(TimeRef::Iso(s)) => s.len(),
        _ => 0,
    }
}

/// The caller's interning: a list of indices per list, as long as it, each index among
/// the ids and naming its entry's id (bytes compared, nothing hashed), and an index per
/// item of a borrowed input naming its key or `u32::MAX`. Not checked: that the ids are
/// distinct (that would hash them, which interning spares). Was not checked: a list's
/// extra indices were fused, a missing list said "1 weights given for 0 lists", and an
/// index of another id fused or read that id's entry silently.
fn check_interned(
    iv: &Interned<'_>,
    input: &InputRef<'_>,
    source: ItemSource<'_, '_>,
) -> Result<()> {
    let mismatch = |field: String, message: String| {
        Err(ScoreError::new(ErrorCode::LengthMismatch, field, message))
    };
    if iv.docs.len() != input.lists.len() {
        return mismatch(
            "interned.docs".into(),
            format!(
                "lists of indices: {}, lists: {} (one per list)",
                iv.docs.len(),
                input.lists.len()
            ),
        );
    }
    for (i, (d, l)) in iv.docs.iter().zip(&input.lists).enumerate() {
        if d.len() != l.ids.len() {
            return mismatch(
                format!("interned.docs[{i}]"),
                format!(
                    "indices: {}, the list's ids: {} (one index per id)",
                    d.len(),
                    l.ids.len()
                ),
            );
        }
    }
    let n = iv.ids.len();
    for (i, (d, l)) in iv.docs.iter().zip(&input.lists).enumerate() {
        if let Some(j) = d.iter().position(|&x| x as usize >= n) {
            return Err(ScoreError::new(
                ErrorCode::OutOfRange,
                format!("interned.docs[{i}][{j}]"),
                format!("an index below the {n} interned ids is needed"),
            ));
        }
        // Each index names its entry's id (a comparison of bytes, no hashing): an index
        // of another id fused the entry as that id's document, silently.
        if let Some(j) = d
            .iter()
            .zip(&l.ids)
            .position(|(&x, id)| iv.ids.get(x as usize) != Some(id))
        {
            return Err(not_its_id(format!("interned.docs[{i}][{j}]")));
        }
    }
    if let ItemSource::Slice(items) = source {
        if iv.items.len() != items.len() {
            return mismatch(
                "interned.items".into(),
                format!(
                    "interned items: {}, items: {} (one index per item)",
                    iv.items.len(),
                    items.len()
                ),
            );
        }
        // An item's index names its key, or is u32::MAX (in no list).
        if let Some(k) = iv
            .items
            .iter()
            .zip(items)
            .position(|(&x, (key, _))| x != u32::MAX && iv.ids.get(x as usize) != Some(key))
        {
            return Err(not_its_id(format!("interned.items[{k}]")));
        }
    }
    Ok(())
}

/// An interned index that does not name its entry's id (`field`).
#[cold]
#[inline(never)]
fn not_its_id(field: String) -> ScoreError {
    ScoreError::new(
        ErrorCode::InvalidType,
        field,
        "the index must name this entry's id among the interned ids (ids[index] == id)",
    )
}

/// Where a run's items come from: a borrowed input's, in the caller's order (a key may
/// be given twice), or a [`PipelineInput`]'s map, read in place (not copied into an
/// `InputRef` first: a call would then hold every item twice) and looked up by the
/// lists' ids.
#[derive(Clone, Copy)]
enum ItemSource<'s, 'a> {
    Slice(&'s [(&'a str, ItemRef<'a>)]),
    Map(&'a std::collections::BTreeMap<String, super::input::ItemMeta>),
}

/// The indices of the items that have a document (`item_docs[i]`, `u32::MAX`: in no
/// list), ordered by document; items of one document keep their order, and a document
/// out of range (`n_docs` or more) sorts after every other. Sorted as the stages sort
/// (`sort_keyed`, by document, then index).
pub(super) fn doc_order(item_docs: &[u32], n_docs: usize) -> Vec<u32> {
    let last = n_docs as u64;
    let mut keyed: Vec<crate::sort::Keyed> = (0u32..)
        .zip(item_docs)
        .filter(|&(_, &d)| d != u32::MAX)
        .map(|(i, &d)| (u64::from(d).min(last), i))
        .collect();
    crate::sort::sort_keyed(&mut keyed);
    keyed.into_iter().map(|(_, i)| i).collect()
}

impl Pipeline {
    /// Checks the input; gives `now` and the items as the stages read them (times in
    /// epoch milliseconds).
    ///
    /// Only the items whose key is an id of the lists are read: `read` gives them
    /// (`n_read` of them) with their documents, in the order their faults are looked for
    /// (an item in no list is neither checked nor counted). The lists were checked
    /// against the limits on lists and entries first (`run_parts`).
    pub(super) fn validate_input<'a, I>(
        &self,
        input: &InputRef<'a>,
        read: impl Fn() -> I,
        n_read: usize,
        mut items: Vec<IndexedItem<'a>>,
    ) -> Result<(Option<f64>, Vec<IndexedItem<'a>>)>
    where
        I: Iterator<Item = ((&'a str, ItemRef<'a>), u32)>,
    {
        let limits = &self.config.limits;
        let list_entries: usize = input.lists.iter().map(|l| l.ids.len()).sum();
        limits.check_entries(list_entries.saturating_add(n_read), "items")?;
        limits.check_text(input.query, || "query".into())?;
        limits.check_total_text(input_text_bytes(input, read().map(|(x, _)| x)), "input")?;
        if let Some(c) = input.context {
            check_context(limits, c)?;
        }
        for (i, list) in input.lists.iter().enumerate() {
            // A list's name is an identifier (the key of its weight, named in explanations).
            limits.check_id(list.name, || format!("lists[{i}].name"))?;
            if input.lists.iter().take(i).any(|l| l.name == list.name) {
                return Err(ScoreError::new(
                    ErrorCode::DuplicateId,
                    format!("lists[{i}].name"),
                    format!("list name {} is used twice", crate::error::name(list.name)),
                ));
            }
            if let Some(w) = list.weight {
                validate_weight(w, || format!("lists[{i}].weight"))?;
            }
            if let Some(scores) = &list.scores {
                if scores.len() != list.ids.len() {
                    return Err(ScoreError::new(
                        ErrorCode::LengthMismatch,
                        format!("lists[{i}].scores"),
                        format!(
                            "scores: {}, ids: {} (one score per id)",
                            scores.len(),
                            list.ids.len()
                        ),
                    ));
                }
                crate::error::all_finite(scores, &format!("lists[{i}].scores"))?;
            }
            for (j, id) in list.ids.iter().enumerate() {
                limits.check_id(id, || format!("lists[{i}].ids[{j}]"))?;
            }
        }
        let mut any_mtime = false;
        items.clear();
        items.reserve(n_read);
        for ((id, meta), doc) in read() {
            // An item's key is an id; named by the object alone (the key may be long).
            limits.check_id(id, || "items".into())?;
            let field = |f: &str| crate::error::key_field("items", id, f);
            for (name, text) in [
                ("name", &meta.name),
                ("type", &meta.entity_type),
                ("summary", &meta.summary),
                ("content", &meta.content),
            ] {
                if let Some(t) = text {
                    limits.check_text(t, || field(name))?;
                }
            }
            if let Some(s) = meta.cross_encoder_score {
                finite(s, || field("crossEncoderScore"))?;
            }
            let modified_ms = match meta.modified_at {
                // The field path is formatted only on error (not once per item).
                Some(t) => Some(t.to_millis("").map_err(|e| ScoreError {
                    field: field("modifiedAt"),
                    ..e
                })?),
                None => None,
            };
            any_mtime |= modified_ms.is_some();
            items.push(IndexedItem {
                key_bytes: id.len(),
                time_bytes: iso_bytes(meta.modified_at),
                texts: [meta.name, meta.entity_type, meta.summary, meta.content],
                fiscal_year: meta.fiscal_year,
                cross_encoder: meta.cross_encoder_score,
                modified_ms,
                doc,
            });
        }
        let now = match input.now {
            Some(t) => Some(t.to_millis("now")?),
            None => None,
        };
        if any_mtime && now.is_none() && self.config.recency.mode == RecencyMode::Step {
            return Err(now_required());
        }
        if self.config.rerank.method == RerankMethod::Heuristic {
            crate::rerank::require_query(input.query)?;
        }
        Ok((now, items))
    }

    /// Runs the pipeline on one input.
    pub fn run(&self, input: &PipelineInput) -> Result<PipelineOutput> {
        // Its items read in place (see `ItemSource`).
        self.run_parts(
            &input.as_ref_without_items(),
            ItemSource::Map(&input.items),
            None,
            None,
        )
    }

    /// Runs the pipeline on a borrowed input whose items are looked up in `items`, a map
    /// the caller keeps (a corpus's metadata, shared by every call and thread): as
    /// [`Pipeline::run`] reads its input's map, only the lists' ids are looked up, each
    /// once, so the map's size costs a call nothing. `input.items` must then be empty
    /// (`INVALID_TYPE` on `items` otherwise: the items come from one place).
    pub fn run_with_items<'a>(
        &self,
        input: &InputRef<'a>,
        items: &'a std::collections::BTreeMap<String, super::input::ItemMeta>,
    ) -> Result<PipelineOutput> {
        if !input.items.is_empty() {
            return Err(ScoreError::new(
                ErrorCode::InvalidType,
                "items",
                "the items come from the map given to run_with_items: leave the input's empty",
            ));
        }
        self.run_parts(input, ItemSource::Map(items), input.interned.clone(), None)
    }

    /// Runs the pipeline on a borrowed input (see [`InputRef`]).
    pub fn run_ref(&self, input: &InputRef<'_>) -> Result<PipelineOutput> {
        self.run_parts(
            input,
            ItemSource::Slice(&input.items),
            input.interned.clone(),
            None,
        )
    }

    /// [`Pipeline::run_ref`] on an input it may take apart: the interned ids and lists
    /// are used as they are instead of copied.
    pub fn run_owned(&self, mut input: InputRef<'_>) -> Result<PipelineOutput> {
        let interned = input.interned.take();
        self.run_parts(&input, ItemSource::Slice(&input.items), interned, None)
    }

    /// [`Pipeline::run_owned`] on an input whose items carry no texts: the heuristic
    /// reranker asks `texts` for those of the pool's documents (once per call, after the
    /// topK pool and the candidate limit). The output is the one of the same input with
    /// the texts in its items.
    pub fn run_owned_with_texts(
        &self,
        mut input: InputRef<'_>,
        texts: &mut dyn PoolTexts,
    ) -> Result<PipelineOutput> {
        let interned = input.interned.take();
        self.run_parts(
            &input,
            ItemSource::Slice(&input.items),
            interned,
            Some(texts),
        )
    }

    /// The pipeline on `input`, whose `interned` part (if any) is given apart, owned.
    fn run_parts<'a>(
        &self,
        input: &InputRef<'a>,
        source: ItemSource<'_, 'a>,
        interned: Option<Interned<'a>>,
        held: Option<&mut dyn PoolTexts>,
    ) -> Result<PipelineOutput> {
        // The call's own topN first, as runColumnar checks it.
        let top_n = self.config.top_n_or(input.top_n)?;
        let limits = &self.config.limits;
        limits.check_lists(input.lists.len(), "lists")?;
        limits.check_lengths(input.lists.iter().map(|l| l.ids.len()), "lists")?;
        // The items' table made first, before the interner's: allocated after it, the
        // table (about 120 bytes an item) made glibc's allocator map and unmap it on
        // every call, which took the native harness's (b) at N = 1,000 from 107 to
        // 170 µs (page faults).
        let list_entries: usize = input.lists.iter().map(|l| l.ids.len()).sum();
        let given = match source {
            ItemSource::Slice(s) => s.len(),
            ItemSource::Map(m) => m.len(),
        };
        let table = Vec::with_capacity(given.min(list_entries));
        // The ids interned (as many as the limits just checked allow): each distinct id
        // once, the lists as indices; a borrowed input's items' documents found by their
        // keys (one hash lookup per item; `u32::MAX`: in no list, and then not read).
        let (ids, docs, item_docs) = match interned {
            Some(iv) => {
                check_interned(&iv, input, source)?;
                (iv.ids, iv.docs, iv.items)
            }
            None => {
                let keys: &[(&'a str, ItemRef<'a>)] = match source {
                    ItemSource::Slice(s) => s,
                    ItemSource::Map(_) => &[],
                };
                let out = Interner::of_lists_and_keys(
                    input.lists.iter().map(|l| l.ids.as_slice()),
                    keys.iter().map(|&(id, _)| id),
                );
                (out.interner.ids, out.lists, out.keys)
            }
        };
        let (now_ms, items) = match source {
            // Looked up by the lists' ids, in the documents' order (an entry whose key is
            // in no list is not read): a corpus-sized map costs a lookup per id.
            ItemSource::Map(map) => {
                let found: Vec<(&'a str, &'a super::input::ItemMeta, u32)> = (0u32..)
                    .zip(&ids)
                    .filter_map(|(d, id)| {
                        let (key, meta) = map.get_key_value(*id)?;
                        Some((key.as_str(), meta, d))
                    })
                    .collect();
                let read = || found.iter().map(|&(k, m, d)| ((k, m.as_item_ref()), d));
                self.validate_input(input, read, found.len(), table)?
            }
            // Read in the caller's order; an input refused there is checked again in the
            // order of the documents (the ids' first appearance in the lists, as the
            // bindings read the items), whose first fault is the error.
            ItemSource::Slice(slice) => {
                let in_lists = || {
                    slice
                        .iter()
                        .copied()
                        .zip(item_docs.iter().copied())
                        .filter(|&(_, d)| d != u32::MAX)
                };
                let n_read = item_docs.iter().filter(|&&d| d != u32::MAX).count();
                match self.validate_input(input, in_lists, n_read, table) {
                    Ok(v) => v,
                    Err(_) => {
                        let order = doc_order(&item_docs, ids.len());
                        let by_doc = || {
                            order.iter().filter_map(|&i| {
                                let i = i as usize;
                                Some((*slice.get(i)?, *item_docs.get(i)?))
                            })
                        };
                        self.validate_input(input, by_doc, order.len(), Vec::new())?
                    }
                }
            }
        };
        let weights: Vec<f64> = input
            .lists
            .iter()
            .map(|l| self.list_weight(l.name, l.weight))
            .collect();
        let lists: Vec<&[u32]> = docs.iter().map(Vec::as_slice).collect();
        let names: Vec<&str> = input.lists.iter().map(|l| l.name).collect();
        let scores: Vec<Option<&[f64]>> = input.lists.iter().map(|l| l.scores).collect();
        let checked = Checked {
            query: input.query,
            names: &names,
            weights: &weights,
            scores: &scores,
            lists: &lists,
            ids: Ids::Strs(&ids),
            items: &items,
            now_ms,
            context: input.context,
            top_n,
        };
        self.stages(&checked, held)
            .map(|out| with_ids(out, checked.ids))
    }
}
