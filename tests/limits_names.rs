//! The functions that take limits are named in two places: the crate's
//! `LIMITED_FUNCTIONS` (what `Limits::defaults_for` accepts) and the package's
//! js/wire/limits.js (what `defaultLimits(fn)` accepts). They must not drift apart.

use calibrank::limits::{Limits, LIMITED_FUNCTIONS};

#[test]
fn rust_and_javascript_name_the_same_functions() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/js/wire/limits.js");
    let js = std::fs::read_to_string(path).expect("js/wire/limits.js");
    let start = js
        .find("LIMITED_FUNCTIONS = Object.freeze([")
        .expect("the list in js/wire/limits.js");
    let rest = &js[start..];
    let body = &rest[rest.find('[').unwrap() + 1..rest.find("]);").unwrap()];
    let js_names: Vec<&str> = body
        .split(',')
        .map(|s| s.trim().trim_matches('"'))
        .filter(|s| !s.is_empty())
        .collect();
    assert_eq!(js_names, LIMITED_FUNCTIONS.to_vec());
    for f in LIMITED_FUNCTIONS {
        assert!(Limits::defaults_for(f).is_ok(), "{f}");
    }
}
