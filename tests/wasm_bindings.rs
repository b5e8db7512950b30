//! The bindings' own tests, run as wasm in Node by wasm-bindgen-test
//! (`wasm-pack test --node -- --test wasm_bindings`).
#![cfg(target_arch = "wasm32")]

use calibrank::wasm::*;
use js_sys::{Float64Array, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

fn to_js<T: serde::Serialize>(v: &T) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true))
        .unwrap()
}

fn code_of(err: &JsValue) -> (String, String) {
    let get = |k: &str| {
        Reflect::get(err, &k.into())
            .unwrap()
            .as_string()
            .unwrap_or_default()
    };
    (get("code"), get("field"))
}

#[wasm_bindgen_test]
fn rrf_returns_pairs_highest_first() {
    let lists = to_js(&vec![vec!["a", "x", "y"], vec!["p", "q", "a"]]);
    let out: js_sys::Array = js_rrf(lists, None).unwrap().into();
    let first: js_sys::Array = out.get(0).into();
    assert_eq!(first.get(0).as_string().unwrap(), "a");
    assert_eq!(first.get(1).as_f64().unwrap(), 1.0 / 61.0 + 1.0 / 63.0);
    assert_eq!(out.length(), 5);
}

#[wasm_bindgen_test]
fn calibrate_and_normalize_keep_input_order() {
    let scores: JsValue = Float64Array::from(&[0.035, 0.05, 0.01][..]).into();
    let c = js_calibrate(scores, None).unwrap();
    assert_eq!(c[0], 0.5);
    assert!(c[1] > 0.5 && c[2] < 0.5);
    let n = js_normalize(to_js(&vec![3.0, 1.0, 2.0]), "min_max".into(), None).unwrap();
    assert_eq!(n, vec![1.0, 0.0, 0.5]);
}

#[wasm_bindgen_test]
fn errors_carry_code_and_field_and_leave_the_module_usable() {
    let e = js_calibrate(to_js(&vec![0.1, f64::NAN]), None).unwrap_err();
    assert_eq!(code_of(&e), ("NON_FINITE_SCORE".into(), "scores[1]".into()));
    let e = js_normalize(to_js(&vec![1.0]), "minmax".into(), None).unwrap_err();
    assert_eq!(code_of(&e).0, "UNKNOWN_METHOD");
    let e = js_rrf(JsValue::from_str("nope"), None).unwrap_err();
    assert_eq!(code_of(&e).0, "INVALID_TYPE");
    let e = js_classify_band(f64::INFINITY.into(), None).unwrap_err();
    assert_eq!(code_of(&e), ("NON_FINITE_SCORE".into(), "score".into()));
    // Still usable.
    assert_eq!(js_calibrate(to_js(&vec![0.035]), None).unwrap(), vec![0.5]);
}

#[wasm_bindgen_test]
fn registered_error_class_is_used() {
    let class = js_sys::Function::new_no_args("return class Custom extends Error { constructor(m, c, f) { super(m); this.code = c; this.field = f; this.custom = true; } }")
        .call0(&JsValue::NULL)
        .unwrap();
    set_error_class(class.into());
    let e = js_calibrate(to_js(&vec![f64::NAN]), None).unwrap_err();
    assert_eq!(Reflect::get(&e, &"custom".into()).unwrap(), JsValue::TRUE);
    assert!(e.is_instance_of::<js_sys::Error>());
}

#[wasm_bindgen_test]
fn pipeline_runs_with_defaults() {
    let p = JsPipeline::new(None).unwrap();
    let input = serde_json::json!({
        "query": "q",
        "lists": [{"name": "semantic", "ids": ["a", "b"]}, {"name": "keyword", "ids": ["a"]}]
    });
    let out = p.run(tsify::Ts::new_unchecked(to_js(&input))).unwrap();
    let out: calibrank::pipeline::PipelineOutput =
        serde_wasm_bindgen::from_value(out.into()).unwrap();
    assert_eq!(out.stats.candidates, 2);
    assert!(out.results.iter().all(|r| r.score >= 0.3 && r.score <= 1.0));
    let bad = serde_json::json!({"lists": [], "listz": []});
    let e = p.run(tsify::Ts::new_unchecked(to_js(&bad))).unwrap_err();
    assert_eq!(code_of(&e), ("UNKNOWN_FIELD".into(), "input.listz".into()));
    let e = JsPipeline::new(Some(tsify::Ts::new_unchecked(to_js(
        &serde_json::json!({"topN": 0}),
    ))))
    .err()
    .unwrap();
    assert_eq!(code_of(&e), ("INVALID_TOP_N".into(), "topN".into()));
}
