#![no_main]
// Checks live in fuzz/checks/, shared with tests/fuzz_regression.rs.
libfuzzer_sys::fuzz_target!(|data: &[u8]| calibrank_fuzz::multiquery(data));
