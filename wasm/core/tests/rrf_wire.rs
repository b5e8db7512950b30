//! `rrf` (operation 20) on wire input written by hand, natively: the checks the module
//! makes on what the package's JavaScript sends (ids numbered in order of first
//! occurrence, each sent once), which no JavaScript caller can get wrong.
use calibrank_wasm_core::cr_call;
use calibrank_wasm_shared::native::{output, set_input};
use calibrank_wasm_shared::wire::{Reader, Writer};

const RRF: u32 = 20;

/// Runs `rrf` on lists given as indices into `ids`; returns the status and the output.
fn rrf(lens: &[u32], docs: &[u32], ids: &[&str]) -> (u32, Vec<u8>) {
    let mut w = Writer::default();
    // js/core/fuse.js `kWeightsLimits`: no k, no limits given; no weights.
    let mut head = [f64::NAN; 10];
    head[0] = 0.0;
    head[1] = 0.0;
    w.f64s(&head);
    w.none();
    w.u32s(lens);
    w.u32s(docs);
    w.strs(ids.iter().copied());
    set_input(w.bytes());
    cr_call(RRF, w.bytes().len() as u32);
    output()
}

#[test]
fn ids_in_order_of_first_occurrence_are_fused() {
    let (status, out) = rrf(&[2, 2], &[0, 1, 1, 2], &["a", "b", "c"]);
    assert_eq!(status, 0);
    let mut r = Reader::new(&out);
    assert_eq!(r.u32s().unwrap(), &[1, 0, 2]);
    let s = r.f64s().unwrap();
    assert_eq!(s, &[1.0 / 62.0 + 1.0 / 61.0, 1.0 / 61.0, 1.0 / 62.0]);
}

#[test]
fn ids_out_of_order_or_never_used_are_an_internal_error() {
    // An id that no list uses, and ids whose first occurrences are out of order: the
    // module reads each id at its first occurrence, and would otherwise rank strings it
    // never checked.
    for (lens, docs, ids) in [
        (&[1u32][..], &[0u32][..], &["a", "b"][..]),
        (&[2], &[1, 0], &["a", "b"]),
    ] {
        let (status, out) = rrf(lens, docs, ids);
        assert_eq!(status, 1, "{docs:?} {ids:?}");
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("INTERNAL"), "{text}");
    }
}
