//! The first fault of an input the lean reader ([`read_input`](super::input::read_input))
//! could not take, found by walking its sections in the order the module reads them, and
//! the string bytes it charges against `maxTotalTextBytes` ([`TextBudget`]).

use super::input::{
    fiscal_year, top_n_of, CONTENT, FISCAL_YEAR, MOD_STR, NAME, SCORES, SUMMARY, TYPE,
};
use super::{context_in, context_of};
use calibrank::error::{key_field, ErrorCode, Result, ScoreError};
use calibrank::limits::Limits;
use calibrank::pipeline::PipelineConfig;
use calibrank_wasm_shared::wire::Reader;

/// The first fault of a call's input in the order the module reads its sections
/// (js/core/pipeline-input.js `encodeInput` writes them), for an input the lean reader
/// ([`read_input`](super::input::read_input)) could not take: the number of lists, a list's length, a string
/// table over `maxTotalTextBytes` (named at the string that crosses it: the strings are
/// charged in input order, each distinct id where it first occurs), the entries, a fiscal
/// year that is not a whole number, the context, the call's `topN`, or sections the
/// package's JavaScript would not write. `r` is the reader at the input's first section.
pub(super) fn input_fault(r: &mut Reader<'_>, config: &PipelineConfig) -> ScoreError {
    match walk_input(r, config) {
        Err(e) => e,
        Ok(()) => ScoreError::new(ErrorCode::Internal, "", "wire: pipeline input"),
    }
}

fn walk_input(r: &mut Reader<'_>, config: &PipelineConfig) -> Result<()> {
    let limits = &config.limits;
    let strs = r.strs()?;
    let mut text = TextBudget::new(limits, strs.bytes());
    let head = r.f64s()?;
    let lists = r.u32s()?;
    let docs = r.u32s()?;
    let _weights = r.f64s()?;
    let scores = r.f64s()?;
    let items = r.u32s()?;
    let item_nums = r.f64s()?;
    let context = context_in(r)?;
    let n_docs = head.get(3).copied().unwrap_or(0.0) as usize;
    if let Some(&q) = head.first().filter(|&&q| q >= 0.0) {
        text.charge(strs.get(q as usize)?, &|| "query".into())?;
    }
    let n_lists = lists.len() / 5;
    limits.check_lists(n_lists, "lists")?;
    // Each list's length and their total, as the pipeline's own checks name them.
    limits.check_lengths(
        lists
            .chunks_exact(5)
            .map(|l| l.get(2).map_or(0, |&n| n as usize)),
        "lists",
    )?;
    let mut score_at = 0usize;
    let mut next_new = 0u32;
    let mut entries = 0usize;
    for i in 0..n_lists {
        let &[name, start, count, flags, n_scores] = chunk::<5, _>(lists, i)?;
        let (start, count, n_scores) = (start as usize, count as usize, n_scores as usize);
        if flags & SCORES != 0 {
            scores
                .get(score_at..score_at + n_scores)
                .ok_or_else(|| ScoreError::new(ErrorCode::Internal, "", "wire: scores"))?;
            score_at += n_scores;
        }
        text.charge(strs.get(name as usize)?, &|| format!("lists[{i}].name"))?;
        let d = docs
            .get(start..start + count)
            .ok_or_else(|| ScoreError::new(ErrorCode::Internal, "", "wire: docs"))?;
        entries += count;
        for (j, &doc) in d.iter().enumerate() {
            if doc as usize >= n_docs {
                return Err(ScoreError::new(ErrorCode::Internal, "", "wire: doc index"));
            }
            if doc == next_new {
                // Each distinct id is in the table once: charged where it first occurs.
                text.charge(strs.get(doc as usize)?, &|| format!("lists[{i}].ids[{j}]"))?;
                next_new += 1;
            }
        }
    }
    let n_items = items.len() / 8;
    // Only the items of the lists' ids are read (their keys are charged above, with the
    // lists' ids); an item in no list (its document `u32::MAX`) is neither checked nor
    // counted, as the Rust API does not read it.
    let in_lists = |t: &[u32]| t.get(7).is_some_and(|&d| d != u32::MAX);
    let n_read = items.chunks_exact(8).filter(|t| in_lists(t)).count();
    limits.check_entries(entries.saturating_add(n_read), "items")?;
    for i in 0..n_items {
        let t = chunk::<8, _>(items, i)?;
        if !in_lists(t) {
            continue;
        }
        let &[_, year, _] = chunk::<3, _>(item_nums, i)?;
        let &[key, flags, t_name, t_type, t_summary, t_content, modified, _] = t;
        let key = strs.get(key as usize)?;
        for (at, bit, name) in [
            (t_name, NAME, "name"),
            (t_type, TYPE, "type"),
            (t_summary, SUMMARY, "summary"),
            (t_content, CONTENT, "content"),
            (modified, MOD_STR, "modifiedAt"),
        ] {
            if flags & bit != 0 {
                let s = strs.get(at as usize)?;
                text.charge(s, &|| key_field("items", key, name))?;
            }
        }
        if flags & FISCAL_YEAR != 0 && fiscal_year(year).is_none() {
            return Err(ScoreError::new(
                ErrorCode::InvalidType,
                key_field("items", key, "fiscalYear"),
                format!(
                    "expected a whole number (a year), got {}",
                    calibrank::error::num(year)
                ),
            ));
        }
    }
    // head[1]: 0 no `now`, 1 epoch ms in head[2], 2 a string (its index in head[2]).
    if let (Some(2.0), Some(v)) = (head.get(1).copied(), head.get(2).copied()) {
        text.charge(strs.get(v as usize)?, &|| "now".into())?;
    }
    context_of(context)?;
    top_n_of(head.get(5).copied(), config.top_k)?;
    Ok(())
}

/// Row `i` of a table of rows of `N` (an array: its fields are read without bounds
/// checks, so without panic paths).
fn chunk<const N: usize, T: Copy>(xs: &[T], i: usize) -> Result<&[T; N]> {
    xs.get(i * N..(i + 1) * N)
        .and_then(|row| row.try_into().ok())
        .ok_or_else(|| ScoreError::new(ErrorCode::Internal, "", "wire: short table"))
}

/// The running total of string bytes, checked only when the whole is over the limit.
struct TextBudget<'l> {
    limits: &'l Limits,
    over: bool,
    bytes: usize,
}

impl<'l> TextBudget<'l> {
    fn new(limits: &'l Limits, total: usize) -> Self {
        TextBudget {
            limits,
            over: total > limits.max_total_text_bytes as usize,
            bytes: 0,
        }
    }

    /// (`field` as a `dyn`: one copy of this for the five fields.)
    #[inline(never)]
    fn charge(&mut self, s: &str, field: &dyn Fn() -> String) -> Result<()> {
        if self.over {
            self.bytes += s.len();
            if self.bytes > self.limits.max_total_text_bytes as usize {
                return self.limits.check_total_text(self.bytes, &field());
            }
        }
        Ok(())
    }
}
