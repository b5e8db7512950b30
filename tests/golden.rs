//! The committed golden vectors are reproduced bit for bit by the native build (the
//! same file is checked in Node, Chromium and workerd by the JS suites).
#[test]
fn golden_vectors_reproduce_bit_for_bit() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/vectors.json"
    ))
    .unwrap();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert!(cases.len() >= 15);
    for (i, case) in cases.iter().enumerate() {
        let got = calibrank::lab::golden::compute(case).unwrap();
        assert_eq!(got, case["expected"], "case {i} ({})", case["kind"]);
    }
    // The file is exactly what the generator writes today.
    let regenerated = calibrank::lab::golden::generate().unwrap();
    assert_eq!(regenerated["cases"], file["cases"]);
}
