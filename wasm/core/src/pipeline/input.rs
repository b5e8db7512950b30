//! The lean reader of [`run`](super::run)'s input sections (js/core/pipeline-input.js
//! `encodeInput` writes them), the item and list flags, and the fiscal year and `topN`
//! as the pipeline reads them.

use super::{context_in, context_of};
use calibrank::bands::BandContext;
use calibrank::error::Result;
use calibrank::pipeline::top_n_error;
use calibrank::pipeline::{
    IdTable, IndexedInput, IndexedItem, InputDetail, PipelineConfig, TimeRef,
};
use calibrank_wasm_shared::wire::Reader;

// Item flags (js/core/pipeline-input.js writes them).
pub(super) const NAME: u32 = 1;
pub(super) const TYPE: u32 = 2;
pub(super) const SUMMARY: u32 = 4;
pub(super) const CONTENT: u32 = 8;
const MOD_NUM: u32 = 16;
pub(super) const MOD_STR: u32 = 32;
pub(super) const FISCAL_YEAR: u32 = 64;
const CROSS_ENCODER: u32 = 128;
/// Item flag bits none of the above (js/core/pipeline-input.js writes none).
const UNKNOWN_ITEM_FLAGS: u32 =
    !(NAME | TYPE | SUMMARY | CONTENT | MOD_NUM | MOD_STR | FISCAL_YEAR | CROSS_ENCODER);
// List flags.
const WEIGHT: u32 = 1;
pub(super) const SCORES: u32 = 2;

/// The input of [`run`](super::run) as read from its sections (js/core/pipeline-input.js
/// `encodeInput`): the lists as slices of the distinct ids' indices, which are read in
/// place from the string table, and each item as an [`IndexedItem`] (no `Vec` of ids per
/// list, no item record).
pub(super) struct Sections<'a> {
    strs: calibrank_wasm_shared::wire::Strs<'a>,
    query: &'a str,
    ids: IdTable<'a>,
    pub(super) names: Vec<&'a str>,
    weights: Vec<Option<f64>>,
    scores: Vec<Option<&'a [f64]>>,
    lists: Vec<&'a [u32]>,
    items: Vec<IndexedItem<'a>>,
    /// The item table (8 numbers per item) and its numbers (3 per item), for the
    /// errors that name an item ([`InputDetail`]).
    item_table: &'a [u32],
    item_nums: &'a [f64],
    /// `now`'s kind (0 none, 1 epoch milliseconds, 2 an ISO 8601 text) and value.
    now: (f64, f64),
    now_ms: Option<f64>,
    top_n: Option<u32>,
    context: Option<BandContext>,
    pub(super) held: bool,
}

impl Sections<'_> {
    pub(super) fn indexed(&self) -> IndexedInput<'_> {
        IndexedInput {
            query: self.query,
            names: &self.names,
            weights: &self.weights,
            scores: &self.scores,
            lists: &self.lists,
            ids: self.ids,
            items: &self.items,
            now_ms: self.now_ms,
            // `now`'s bytes when given as an ISO 8601 text (they count against
            // `maxTotalTextBytes`, as the Rust API counts them).
            now_bytes: match self.now {
                (2.0, at) => self.strs.byte_len(at as usize).unwrap_or(0),
                _ => 0,
            },
            top_n: self.top_n,
            context: self.context.as_ref(),
        }
    }
}

impl InputDetail for Sections<'_> {
    fn item_key(&self, i: usize) -> &str {
        let at = self.item_table.get(i * 8).copied().unwrap_or(u32::MAX);
        self.strs.get(at as usize).unwrap_or_default()
    }

    fn time(&self, item: Option<usize>) -> Option<TimeRef<'_>> {
        let iso = |at: u32| TimeRef::Iso(self.strs.get(at as usize).unwrap_or_default());
        match item {
            Some(i) => {
                let t = self.item_table.get(i * 8..i * 8 + 8)?;
                let flags = t.get(1).copied().unwrap_or(0);
                if flags & MOD_STR != 0 {
                    Some(iso(t.get(6).copied().unwrap_or(u32::MAX)))
                } else if flags & MOD_NUM != 0 {
                    self.item_nums.get(i * 3).copied().map(TimeRef::Millis)
                } else {
                    None
                }
            }
            None => match self.now {
                (2.0, at) => Some(iso(at as u32)),
                (1.0, ms) => Some(TimeRef::Millis(ms)),
                _ => None,
            },
        }
    }
}

/// Reads the input sections of [`run`](super::run); `None` (the reader then discarded) for an input
/// whose fault is found in reading it ([`input_fault`](super::faults::input_fault) names it). ISO 8601 times are read
/// into epoch milliseconds (NaN when they do not parse: the pipeline's checks name them).
pub(super) fn read_input<'a>(config: &PipelineConfig, r: &mut Reader<'a>) -> Option<Sections<'a>> {
    let strs = r.strs().ok()?;
    // The string table over the limit: named at the string that crosses it.
    if strs.bytes() > config.limits.max_total_text_bytes as usize {
        return None;
    }
    let head = r.f64s().ok()?;
    let lists = r.u32s().ok()?;
    let docs = r.u32s().ok()?;
    let weights = r.f64s().ok()?;
    let scores = r.f64s().ok()?;
    let items = r.u32s().ok()?;
    let item_nums = r.f64s().ok()?;
    let context = context_of(context_in(r).ok()?).ok()?;
    if lists.len() % 5 != 0 || items.len() % 8 != 0 || item_nums.len() != items.len() / 8 * 3 {
        return None;
    }
    let &[query_at, now_kind, now, n_docs, held, top_n] = head else {
        return None;
    };
    let iso = |at: f64| {
        let s = strs.get(at as usize).ok()?;
        Some(calibrank::timestamp::parse_iso8601(s).unwrap_or(f64::NAN))
    };
    let now_ms = match now_kind {
        0.0 => None,
        1.0 => Some(now),
        2.0 => Some(iso(now)?),
        _ => return None,
    };
    let n_docs = n_docs as usize;
    if n_docs > strs.len() {
        return None;
    }
    let (text, bounds) = strs.first(n_docs)?;
    let query = if query_at >= 0.0 {
        strs.get(query_at as usize).ok()?
    } else {
        ""
    };
    let n_lists = lists.len() / 5;
    let mut names = Vec::with_capacity(n_lists);
    let mut list_weights = Vec::with_capacity(n_lists);
    let mut slices = Vec::with_capacity(n_lists);
    let mut list_scores = Vec::with_capacity(n_lists);
    let mut score_at = 0usize;
    for (i, l) in lists.chunks_exact(5).enumerate() {
        let &[name, start, count, flags, n_scores] = l else {
            return None;
        };
        list_scores.push(if flags & SCORES != 0 {
            let n = n_scores as usize;
            let s = scores.get(score_at..score_at.checked_add(n)?)?;
            score_at += n;
            Some(s)
        } else {
            None
        });
        names.push(strs.get(name as usize).ok()?);
        list_weights
            .push((flags & WEIGHT != 0).then(|| weights.get(i).copied().unwrap_or(f64::NAN)));
        let (start, count) = (start as usize, count as usize);
        slices.push(docs.get(start..start.checked_add(count)?)?);
    }
    let n_items = items.len() / 8;
    let mut item_refs = Vec::with_capacity(n_items);
    for (t, nums) in items.chunks_exact(8).zip(item_nums.chunks_exact(3)) {
        let &[key, flags, t_name, t_type, t_summary, t_content, modified, doc] = t else {
            return None;
        };
        let &[modified_num, year, cross_encoder] = nums else {
            return None;
        };
        if doc == u32::MAX {
            // An item in no list (the package sends none): not read, and skipped by the
            // pipeline's checks (a row of its own keeps the item indices of the table).
            item_refs.push(IndexedItem {
                doc: u32::MAX,
                ..IndexedItem::default()
            });
            continue;
        }
        if flags & UNKNOWN_ITEM_FLAGS != 0 {
            return None;
        }
        let mut texts = [None; 4];
        for (slot, (at, bit)) in texts.iter_mut().zip([
            (t_name, NAME),
            (t_type, TYPE),
            (t_summary, SUMMARY),
            (t_content, CONTENT),
        ]) {
            if flags & bit != 0 {
                *slot = Some(strs.get(at as usize).ok()?);
            }
        }
        let (modified_ms, time_bytes) = if flags & MOD_NUM != 0 {
            (Some(modified_num), 0)
        } else if flags & MOD_STR != 0 {
            (
                Some(iso(f64::from(modified))?),
                strs.byte_len(modified as usize)?,
            )
        } else {
            (None, 0)
        };
        let fiscal_year = if flags & FISCAL_YEAR != 0 {
            Some(fiscal_year(year)?)
        } else {
            None
        };
        item_refs.push(IndexedItem {
            key_bytes: strs.byte_len(key as usize)?,
            time_bytes,
            texts,
            fiscal_year,
            cross_encoder: (flags & CROSS_ENCODER != 0).then_some(cross_encoder),
            modified_ms,
            doc,
        });
    }
    Some(Sections {
        strs,
        query,
        ids: IdTable { text, bounds },
        names,
        weights: list_weights,
        scores: list_scores,
        lists: slices,
        items: item_refs,
        item_table: items,
        item_nums,
        now: (now_kind, now),
        now_ms,
        top_n: top_n_of(Some(top_n), config.top_k).ok()?,
        context,
        held: held != 0.0,
    })
}

/// A fiscal year as the pipeline reads it: a whole number within `i32`.
pub(super) fn fiscal_year(fy: f64) -> Option<i32> {
    (fy.fract() == 0.0 && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&fy))
        .then_some(fy as i32)
}

/// A call's own `topN` (NaN: not given; js/core checked that it is a whole number), for
/// the pipeline to check against its `topK`; one that no `u32` holds is refused here.
pub(super) fn top_n_of(v: Option<f64>, top_k: u32) -> Result<Option<u32>> {
    match v {
        None => Ok(None),
        Some(v) if v.is_nan() => Ok(None),
        Some(v) if (0.0..=f64::from(u32::MAX)).contains(&v) => Ok(Some(v as u32)),
        Some(v) => Err(top_n_error(top_k, v)),
    }
}
