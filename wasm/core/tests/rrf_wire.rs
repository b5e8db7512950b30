//! `rrf` (operation 20) on wire input written by hand, natively: the checks the module
//! makes on what the package's JavaScript sends (ids numbered in order of first
//! occurrence, each sent once), which no JavaScript caller can get wrong.
use calibrank_wasm_core::cr_call;
use calibrank_wasm_shared::native::{output, set_input};
use calibrank_wasm_shared::wire::{Reader, Writer};

const RRF: u32 = 20;

/// Runs `rrf` on lists given as indices into `ids`; returns the status and the output.
fn rrf(lens: &[u32], docs: &[u32], ids: &[&str]) -> (u32, Vec<u8>) {
    let mut w = head();
    w.u32s(lens);
    w.u32s(docs);
    w.strs(ids.iter().copied());
    run(w)
}

/// Runs `rrf` on lists given as indices into `n_ids` ids of which only the count is sent
/// (js/core/fuse.js's small calls).
fn rrf_of_count(lens: &[u32], docs: &[u32], n_ids: u32) -> (u32, Vec<u8>) {
    let mut w = head();
    w.u32s(lens);
    w.u32s(docs);
    w.u32s(&[n_ids]);
    run(w)
}

fn run(w: Writer) -> (u32, Vec<u8>) {
    set_input(w.bytes());
    cr_call(RRF, w.bytes().len() as u32);
    output()
}

/// The options' sections: the compact form with nothing given.
fn head() -> Writer {
    let mut w = Writer::default();
    // js/core/fuse.js `kWeightsLimits`: no k, no limits given; no weights.
    let mut head = [f64::NAN; 10];
    head[0] = 0.0;
    head[1] = 0.0;
    w.f64s(&head);
    w.none();
    w
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

#[test]
fn given_the_ids_count_alone_ties_stay_in_index_order_and_are_flagged() {
    // Lists [c, a] and [b, d, a]: b and c tie at rank 1, a is in both, d alone at rank 2.
    // Ids (first occurrence): c = 0, a = 1, b = 2, d = 3.
    let (status, out) = rrf_of_count(&[2, 3], &[0, 1, 2, 3, 1], 4);
    assert_eq!(status, 0);
    let mut r = Reader::new(&out);
    assert_eq!(r.u32s().unwrap(), &[1, 0, 2, 3]);
    let s = r.f64s().unwrap();
    assert_eq!(
        s,
        &[1.0 / 62.0 + 1.0 / 63.0, 1.0 / 61.0, 1.0 / 61.0, 1.0 / 62.0]
    );
    // 1 where an entry's score equals the one before it: c then b, in index order (the
    // JavaScript orders them by their bytes).
    assert_eq!(r.u8s().unwrap(), &[0, 0, 1, 0]);
    // The same lists with the ids: the tie ordered by bytes (b before c), no flags.
    let (status, out) = rrf(&[2, 3], &[0, 1, 2, 3, 1], &["c", "a", "b", "d"]);
    assert_eq!(status, 0);
    let mut r = Reader::new(&out);
    assert_eq!(r.u32s().unwrap(), &[1, 2, 0, 3]);
    r.f64s().unwrap();
    assert!(r.u8s().is_err());
}

#[test]
fn a_count_that_is_not_the_lists_ids_is_an_internal_error() {
    for (docs, n) in [(&[0u32, 1][..], 3u32), (&[0, 1], 1), (&[1, 0], 2)] {
        let (status, out) = rrf_of_count(&[2], docs, n);
        assert_eq!(status, 1, "{docs:?} {n}");
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("INTERNAL"), "{text}");
    }
}
