//! `calibrank_core.wasm` and `calibrank_pipeline.wasm`: the scoring core's exports, a thin
//! table over the `calibrank` crate. Each operation reads its input sections (written by
//! js/core.js in the same order), calls the core and writes its output sections; see
//! `wasm/shared` for the boundary. Nothing here reads a JavaScript value or panics.
//!
//! Built with the `functions` feature (the default) it is `calibrank_core.wasm`: every
//! operation. Built without it, `calibrank_pipeline.wasm`: the `Pipeline` operations
//! alone (`pipeline`), which a bundled app that imports `Pipeline` and none of the
//! other functions loads instead (js/entries/browser.pipeline.js); the other functions
//! are in `functions`.

#![deny(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

#[cfg(feature = "functions")]
mod functions;
mod pipeline;
#[cfg(not(feature = "functions"))]
mod typed;

use calibrank::error::{ErrorCode, Result, ScoreError};
use calibrank::rerank::HeuristicFactors;
use calibrank_wasm_shared::wire::{Numbers, Reader, Writer};

calibrank_wasm_shared::export_io!(dispatch);

/// What tells `calibrank_pipeline.wasm` from `calibrank_core.wasm` before it is
/// instantiated (js/entries/init_api.js, js/wire/module.js `typedConfig`): an export of this
/// name, which does nothing.
#[cfg(all(target_arch = "wasm32", not(feature = "functions")))]
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn cr_pipeline_only() {}

/// The `Pipeline` operations' numbers (js/core/shared.js has the same table; the other
/// functions' are in [`functions`]).
mod op {
    pub const PIPELINE_NEW: u32 = 10;
    pub const PIPELINE_FREE: u32 = 11;
    #[cfg(feature = "functions")]
    pub const PIPELINE_CONFIG: u32 = 12;
    pub const PIPELINE_RUN: u32 = 13;
    pub const PIPELINE_RUN_COLUMNAR: u32 = 14;
    pub const PIPELINE_LIVE: u32 = 15;
}

/// Native only (the replay harness, tests): what the JavaScript's texts function would write.
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub mod native {
    use std::cell::RefCell;

    thread_local! {
        pub(crate) static POOL_TEXTS: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
    }

    /// The bytes the held-texts function answers with (the two sections js/core/held-texts.js writes) for
    /// every call that asks for held texts.
    pub fn set_pool_texts(bytes: Option<Vec<u8>>) {
        POOL_TEXTS.with(|t| *t.borrow_mut() = bytes);
    }
}

fn dispatch(op: u32, r: &mut Reader<'_>, w: &mut Writer) -> Result<()> {
    // calibrank_pipeline.wasm answers none of them: the package's JavaScript carries the
    // limits table for it (js/core/pipeline-defaults.js).
    #[cfg(feature = "functions")]
    if let Some(done) = calibrank_wasm_shared::common_op(op, w) {
        return done;
    }
    match op {
        op::PIPELINE_NEW => pipeline::new(r, w),
        op::PIPELINE_FREE => pipeline::free(r),
        // calibrank_pipeline.wasm writes no JSON: js/core/typed-config.js builds the
        // effective configuration itself.
        #[cfg(feature = "functions")]
        op::PIPELINE_CONFIG => pipeline::config(r, w),
        op::PIPELINE_RUN => pipeline::run(r, w),
        op::PIPELINE_RUN_COLUMNAR => pipeline::run_columnar(r, w),
        op::PIPELINE_LIVE => {
            w.f64s(&[pipeline::live() as f64]);
            Ok(())
        }
        #[cfg(feature = "functions")]
        _ => functions::dispatch(op, r, w),
        #[cfg(not(feature = "functions"))]
        _ => Err(calibrank_wasm_shared::unknown_op(op)),
    }
}

/// Numbers given as a `Float64Array`/number[] (F64) or as a `Uint32Array` (U32) of
/// indices; the F64 form is checked here: whole numbers in `0..2^32`.
pub(crate) fn read_indices(
    r: &mut Reader<'_>,
    field: &str,
    max: u32,
    limit: &str,
) -> Result<Vec<u32>> {
    let (u, f) = match r.u32s_or_f64s()? {
        Numbers::U32(u) => (Some(u), None),
        Numbers::F64(f) => (None, Some(f)),
        Numbers::None => (None, None),
    };
    let n = u.map_or(f.map_or(0, <[f64]>::len), <[u32]>::len);
    if n > max as usize {
        return Err(ScoreError::new(
            ErrorCode::InputTooLarge,
            field,
            format!("{n} entries, above the limit of {max} (limits.{limit})"),
        ));
    }
    if let Some(u) = u {
        return Ok(u.to_vec());
    }
    f.unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            if x >= 0.0 && x <= f64::from(u32::MAX) && x.fract() == 0.0 {
                Ok(x as u32)
            } else {
                Err(ScoreError::new(
                    ErrorCode::InvalidType,
                    format!("{field}[{i}]"),
                    format!(
                        "expected a whole number from 0 to 4294967295, got {}",
                        calibrank::error::num(x)
                    ),
                ))
            }
        })
        .collect()
}

/// `nDocs`: a whole number in `0..2^32`.
pub(crate) fn n_docs(x: f64) -> Result<usize> {
    if x >= 0.0 && x <= f64::from(u32::MAX) && x.fract() == 0.0 {
        Ok(x as usize)
    } else {
        // As every integer field: not a whole number in the type's range is INVALID_TYPE.
        Err(ScoreError::new(
            ErrorCode::InvalidType,
            "nDocs",
            format!(
                "expected a whole number from 0 to 4294967295, got {}",
                calibrank::error::num(x)
            ),
        ))
    }
}

/// The heuristic reranker's factors as they cross (js/core/rerank.js `factorsAt` reads them in
/// this order): `rerank`'s results and the pipeline's explanations.
pub(crate) fn factor_values(f: &HeuristicFactors) -> [f64; 6] {
    [
        f.exact_name,
        f.name_terms,
        f.summary_terms,
        f.short_content,
        f.entity_type,
        f.multiplier,
    ]
}
