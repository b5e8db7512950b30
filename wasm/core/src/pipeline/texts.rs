//! The held texts: the pool's item texts, which the JavaScript keeps when the pipeline
//! reranks heuristically, asked of it through a slot of the module's function table
//! ([`host`]) into a buffer kept from one call to the next ([`JsTexts`]).

use super::input::{CONTENT, NAME, SUMMARY, TYPE};
use calibrank::error::{ErrorCode, Result, ScoreError};
use calibrank::pipeline::PoolTexts;
use calibrank::rerank::CandidateText;
use calibrank_wasm_shared::wire::Reader;

thread_local! {
    /// The held texts' buffer, kept from one call to the next ([`JsTexts`]).
    static HELD_BUF: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The pool's item texts, which js/core/pipeline-input.js held back when the pipeline reranks
/// heuristically (only the topK pool's are read): asked of the JavaScript through the
/// function-table slot of [`host`] with the pool's document indices, and written by it
/// into this buffer as two sections: a U32 of flags per document (the item flags' text
/// bits) and a string table of the present texts in field order.
#[derive(Default)]
pub(super) struct JsTexts {
    buf: Vec<u64>,
}

impl JsTexts {
    /// Buffers kept up to this many words (4 MiB); a larger one is freed after its call.
    const KEEP_WORDS: usize = 1 << 19;

    /// With the buffer the last call kept: sized for the pool's texts of the calls before,
    /// they are asked for once (with a new buffer of 4 KiB, a call whose pool held more
    /// text asked twice and grew and zeroed it: `node bench/held-texts-ask.mjs`).
    pub(super) fn kept() -> Self {
        JsTexts {
            buf: HELD_BUF.with(std::cell::Cell::take),
        }
    }

    /// Keeps the buffer for the next call (within [`Self::KEEP_WORDS`]).
    pub(super) fn keep(self) {
        if self.buf.len() <= Self::KEEP_WORDS {
            HELD_BUF.with(|b| b.set(self.buf));
        }
    }
}

impl PoolTexts for JsTexts {
    fn texts(&mut self, docs: &[u32], _ids: &[&str]) -> Result<Vec<CandidateText<'_>>> {
        if docs.is_empty() {
            return Ok(Vec::new());
        }
        let len = host::texts(docs, &mut self.buf)?;
        let bytes = calibrank_wasm_shared::words_as_bytes(&self.buf);
        let mut r = Reader::new(bytes.get(..len).unwrap_or_default());
        let flags = r.u32s()?;
        let strs = r.strs()?;
        if flags.len() != docs.len() {
            return Err(ScoreError::new(ErrorCode::Internal, "", "wire: held texts"));
        }
        let mut next = 0usize;
        let mut take = |f: u32, bit: u32| -> Result<Option<&str>> {
            if f & bit == 0 {
                return Ok(None);
            }
            next += 1;
            strs.get(next - 1).map(Some)
        };
        let mut out = Vec::with_capacity(docs.len());
        for &f in flags {
            out.push(CandidateText {
                name: take(f, NAME)?.unwrap_or(""),
                entity_type: take(f, TYPE)?,
                summary: take(f, SUMMARY)?,
                content: take(f, CONTENT)?,
            });
        }
        Ok(out)
    }
}

/// How the module asks js/core/held-texts.js for the held texts without an import (an import of a
/// JavaScript function costs every instantiation a wrapper V8 compiles, about 0.15 ms of
/// the core's start-up: docs/performance.md "Start-up"): through a slot of the module's
/// exported function table. The slot holds `host::texts_unset` until the JavaScript,
/// before its first call that holds texts back, puts there a wasm function that calls
/// its `writeHeldTexts` (a tiny module's export). It reads no caller value and never
/// throws: the texts were read and checked before the call.
pub(super) mod host {
    use super::{ErrorCode, Result, ScoreError};

    /// The signature of the slot's function: writes the texts of `n` documents (u32
    /// indices at `docs`) at `out`, at most `cap` bytes; returns the bytes written, minus
    /// the bytes needed when they do not fit, or NaN when it failed.
    #[cfg(target_arch = "wasm32")]
    type TextsFn = extern "C" fn(docs: u32, n: u32, out: u32, cap: u32) -> f64;

    /// The slot's function until the JavaScript replaces it: nothing is written.
    #[cfg(target_arch = "wasm32")]
    extern "C" fn texts_unset(_docs: u32, _n: u32, _out: u32, _cap: u32) -> f64 {
        f64::NAN
    }

    /// The slot in the module's function table (`__indirect_function_table`) that
    /// js/core/held-texts.js fills: on wasm a function pointer is its index in that table. Natively
    /// (tests) -1.
    pub fn texts_slot() -> f64 {
        #[cfg(target_arch = "wasm32")]
        {
            f64::from(texts_unset as TextsFn as usize as u32)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            -1.0
        }
    }

    /// The pointer the call goes through (see [`host_texts`]).
    #[cfg(target_arch = "wasm32")]
    static TEXTS: TextsFn = texts_unset;

    /// Calls the function in the slot. The pointer is read with a volatile load, which the
    /// compiler may not replace by the value it knows (`core::hint::black_box` is only a
    /// hint): the call stays an indirect call through the table, which the JavaScript
    /// changes, instead of becoming a direct call to `texts_unset`. (binaryen leaves it so
    /// too: the table is exported.)
    #[cfg(target_arch = "wasm32")]
    #[allow(unsafe_code)]
    fn host_texts(docs: u32, n: u32, out: u32, cap: u32) -> f64 {
        // SAFETY: a read of an initialized, aligned static of a `Copy` type.
        let f: TextsFn = unsafe { core::ptr::read_volatile(&TEXTS) };
        f(docs, n, out, cap)
    }

    fn failed() -> ScoreError {
        ScoreError::new(
            ErrorCode::Internal,
            "",
            "the pool's held texts could not be read",
        )
    }

    /// Asks for the texts of `docs` into `buf` (grown once when they do not fit); returns
    /// the length written.
    #[cfg(target_arch = "wasm32")]
    pub fn texts(docs: &[u32], buf: &mut Vec<u64>) -> Result<usize> {
        if buf.len() < 512 {
            buf.resize(512, 0);
        }
        for _ in 0..2 {
            let cap = u32::try_from(buf.len() * 8).map_err(|_| failed())?;
            // Plain numbers cross; `docs` and `buf` stay alive and unmoved during the
            // call, and the JavaScript writes at most `cap` bytes at `out`.
            let r = host_texts(
                docs.as_ptr() as u32,
                docs.len() as u32,
                buf.as_mut_ptr() as u32,
                cap,
            );
            if r >= 0.0 && r <= f64::from(cap) {
                return Ok(r as usize);
            }
            if !(r < 0.0 && -r <= f64::from(u32::MAX)) {
                break;
            }
            buf.resize((-r as usize).div_ceil(8), 0);
        }
        Err(failed())
    }

    /// Natively (tests, the replay harness) the texts a harness set with
    /// [`crate::native::set_pool_texts`], whatever the documents.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn texts(_docs: &[u32], buf: &mut Vec<u64>) -> Result<usize> {
        crate::native::POOL_TEXTS.with(|t| {
            let t = t.borrow();
            let bytes = t.as_ref().ok_or_else(failed)?;
            buf.clear();
            buf.extend(bytes.chunks(8).map(|c| {
                let mut word = [0u8; 8];
                if let Some(w) = word.get_mut(..c.len()) {
                    w.copy_from_slice(c);
                }
                u64::from_le_bytes(word)
            }));
            Ok(bytes.len())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calibrank_wasm_shared::wire::Writer;

    /// The two sections js/core/held-texts.js's `writeHeldTexts` writes, read back per document.
    #[test]
    fn held_texts_read_per_document() {
        let mut w = Writer::default();
        w.u32s(&[NAME | SUMMARY, 0, TYPE | CONTENT | NAME]);
        w.strs(["Graph cache", "über den Router", "Modul", "", "class"]);
        crate::native::set_pool_texts(Some(w.bytes().to_vec()));
        let mut held = JsTexts::default();
        let got = held.texts(&[4, 0, 9], &["a", "b", "c"]).unwrap();
        let fields: Vec<_> = got
            .iter()
            .map(|t| (t.name.to_string(), t.entity_type, t.summary, t.content))
            .collect();
        assert_eq!(
            fields,
            vec![
                (
                    "Graph cache".to_string(),
                    None,
                    Some("über den Router"),
                    None
                ),
                (String::new(), None, None, None),
                ("Modul".to_string(), Some(""), None, Some("class")),
            ]
        );
        // An answer for another number of documents, or short of strings, is an error.
        let e = held.texts(&[1, 2], &["a", "b"]).unwrap_err();
        assert_eq!(e.code, ErrorCode::Internal);
        let mut w = Writer::default();
        w.u32s(&[NAME | TYPE]);
        w.strs(["only one"]);
        crate::native::set_pool_texts(Some(w.bytes().to_vec()));
        assert_eq!(
            held.texts(&[3], &["a"]).unwrap_err().code,
            ErrorCode::Internal
        );
        crate::native::set_pool_texts(None);
        assert_eq!(
            held.texts(&[3], &["a"]).unwrap_err().code,
            ErrorCode::Internal
        );
        assert!(held.texts(&[], &[]).unwrap().is_empty());
    }
}
