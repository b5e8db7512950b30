//! `fuseMultiQuery`'s options as numbers (js/core/multiquery.js `compactOptions`) decode
//! to what the same options as JSON text decode to.

use calibrank_wasm_shared::options::multi_query_options;
use calibrank_wasm_shared::wire::{Reader, Writer};

/// One section written, then read back by `multi_query_options`.
fn decoded(write: impl FnOnce(&mut Writer)) -> String {
    let mut w = Writer::default();
    write(&mut w);
    let mut bytes = w.bytes().to_vec();
    bytes.resize(bytes.len().div_ceil(8) * 8, 0);
    let words: Vec<u64> = bytemuck::cast_slice::<u8, u64>(&bytes).to_vec();
    let mut r = Reader::new(bytemuck::cast_slice(&words));
    format!("{:?}", multi_query_options(&mut r).unwrap())
}

/// A number as the package's JSON text carries it: digits for a safe integer, else its bits.
fn json_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 9007199254740992.0 && !(v == 0.0 && v.is_sign_negative()) {
        format!("{v}")
    } else {
        format!("\"\\u0000#{:016x}\"", v.to_bits())
    }
}

#[test]
fn numbers_and_json_decode_alike() {
    const NAMES: [&str; 7] = [
        "method",
        "resultsPerQuery",
        "similarityThreshold",
        "multiQueryBoost",
        "limit",
        "k",
        "verbose",
    ];
    const METHODS: [&str; 3] = ["rrf", "score_sum", "score_max"];
    let cases: [[f64; 7]; 5] = [
        [f64::NAN; 7],
        [2.0, 7.0, 0.25, 0.5, 3.0, 1.5, 1.0],
        [0.0, f64::NAN, -0.0, f64::NAN, 0.0, 60.0, 0.0],
        [1.0, 100_001.0, 0.6, 2.0, f64::NAN, 0.0, f64::NAN],
        [f64::NAN, 1.0, f64::NAN, 0.1, 4_294_967_295.0, f64::NAN, 1.0],
    ];
    for c in cases {
        let fields: Vec<String> = NAMES
            .iter()
            .zip(c)
            .filter(|(_, v)| !v.is_nan())
            .map(|(name, v)| {
                let value = match *name {
                    "method" => format!("\"{}\"", METHODS[v as usize]),
                    "verbose" => (v != 0.0).to_string(),
                    _ => json_number(v),
                };
                format!("\"{name}\":{value}")
            })
            .collect();
        let json = format!("{{{}}}", fields.join(","));
        assert_eq!(
            decoded(|w| w.f64s(&c)),
            decoded(|w| w.text(&json)),
            "{json}"
        );
    }
    // No options at all: the defaults.
    assert_eq!(decoded(|w| w.f64s(&[f64::NAN; 7])), decoded(|w| w.none()));
}
