//! `Calibration`'s hand-written `Deserialize` (src/pipeline/tagged.rs) against serde's
//! derive, which it replaced: given `method`, the same value or the same error (its words
//! and its position in the text), read alone, inside a struct and through `from_json`;
//! without `method`, a sigmoid.
#![cfg(not(target_arch = "wasm32"))]

use calibrank::calibrate::{IsotonicModel, PlattModel, Sigmoid};
use calibrank::error::{from_json, ErrorCode};
use calibrank::pipeline::Calibration;
use proptest::prelude::*;
use proptest::sample::select;
use serde::Deserialize;

fn default_threshold() -> f64 {
    Sigmoid::default().threshold
}
fn default_steepness() -> f64 {
    Sigmoid::default().steepness
}

/// The derive as it was (the public type's attributes before the tag's default).
mod derived {
    use super::*;
    #[derive(Debug, Deserialize)]
    #[serde(tag = "method", rename_all = "lowercase", deny_unknown_fields)]
    pub enum Calibration {
        Sigmoid {
            #[serde(default = "default_threshold")]
            threshold: f64,
            #[serde(default = "default_steepness")]
            steepness: f64,
        },
        Platt(PlattModel),
        Isotonic(IsotonicModel),
    }
}

fn from_derived(c: derived::Calibration) -> Calibration {
    match c {
        derived::Calibration::Sigmoid {
            threshold,
            steepness,
        } => Calibration::Sigmoid {
            threshold,
            steepness,
        },
        derived::Calibration::Platt(m) => Calibration::Platt(m),
        derived::Calibration::Isotonic(m) => Calibration::Isotonic(m),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Within<C> {
    #[allow(dead_code)]
    #[serde(default)]
    before: Option<u8>,
    calibration: C,
    #[allow(dead_code)]
    #[serde(default)]
    after: Option<u8>,
}

/// What reader `C` makes of `text` (its values turned into a `Calibration` by `into`), as
/// comparable strings (values by their bits): read alone, inside a struct, and through
/// `from_json`.
fn readings_of<C: serde::de::DeserializeOwned>(
    text: &str,
    into: fn(C) -> Calibration,
) -> Vec<String> {
    let show = |r: Result<C, String>| match r {
        Ok(c) => format!("ok {}", bits(&into(c))),
        Err(e) => format!("error {e}"),
    };
    let within = format!(r#"{{"before": 1, "calibration": {text}, "after": 2}}"#);
    vec![
        show(serde_json::from_str::<C>(text).map_err(|e| e.to_string())),
        show(
            serde_json::from_str::<Within<C>>(&within)
                .map(|w| w.calibration)
                .map_err(|e| e.to_string()),
        ),
        show(
            from_json::<Within<C>>(&within, "config")
                .map(|w| w.calibration)
                .map_err(|e| format!("{:?} {} {}", e.code, e.field, e.message)),
        ),
    ]
}

/// The hand-written reader's readings, a fault inside a field's value put back as the
/// derive put it: the reader says its place (`in `.a`: ` before serde's words, and
/// `config.calibration.a` as the typed error's field) where the derive's has none.
fn readings(text: &str) -> Vec<String> {
    let mut r = readings_of::<Calibration>(text, |c| c);
    let place = r
        .first()
        .and_then(|e| e.strip_prefix("error in `"))
        .and_then(|rest| rest.split_once("`: "))
        .map(|(p, _)| p.to_string());
    if let Some(p) = place {
        // Every reading says the same place: the text alone, inside a struct, and typed.
        for e in r.iter_mut().take(2) {
            assert!(e.contains(&format!("in `{p}`: ")), "{e}");
            *e = e.replacen(&format!("in `{p}`: "), "", 1);
        }
        if let Some(t) = r.get_mut(2) {
            let field = format!("config.calibration{p} ");
            assert!(t.contains(&field), "{t} (place {p})");
            *t = t.replacen(&field, "config.calibration ", 1);
        }
    }
    r
}

#[test]
fn a_fault_inside_a_field_s_value_is_said_where_it_is() {
    let typed = |text: &str| {
        let within = format!(r#"{{"calibration": {text}}}"#);
        let e = from_json::<Within<Calibration>>(&within, "config").unwrap_err();
        (e.code, e.field, e.message)
    };
    let number = |got: &str| format!("expected a number, got {got}");
    for (text, field, message) in [
        (
            r#"{"method":"platt","a":"x","b":1}"#,
            "config.calibration.a",
            number("\"x\""),
        ),
        (
            r#"{"b":1,"method":"platt","a":true}"#,
            "config.calibration.a",
            number("true"),
        ),
        (
            r#"{"method":"isotonic","x":[0,"a"],"y":[0,1]}"#,
            "config.calibration.x[1]",
            number("\"a\""),
        ),
        (
            r#"{"method":"isotonic","x":[0,1],"y":{}}"#,
            "config.calibration.y",
            "expected an array, got an object".into(),
        ),
        (
            r#"["isotonic",[0,1],[0,null]]"#,
            "config.calibration[2][1]",
            number("null"),
        ),
        (
            r#"["platt","x",1]"#,
            "config.calibration[1]",
            number("\"x\""),
        ),
        (
            r#"{"threshold":[1]}"#,
            "config.calibration.threshold",
            number("an array"),
        ),
        (
            r#"{"method":"sigmoid","steepness":"2"}"#,
            "config.calibration.steepness",
            number("\"2\""),
        ),
    ] {
        assert_eq!(
            typed(text),
            (ErrorCode::InvalidType, field.to_string(), message),
            "{text}"
        );
    }
    // Serde's own words carry the place for a caller of serde_json.
    let e = serde_json::from_str::<Calibration>(r#"{"method":"platt","a":"x","b":1}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "in `.a`: invalid type: string \"x\", expected f64"
    );
    // A fault of the fields as a whole is the derive's, on the calibration or its key.
    assert_eq!(
        typed(r#"{"method":"platt","a":1}"#).1,
        "config.calibration.b"
    );
    assert_eq!(
        typed(r#"{"method":"platt","a":1,"b":2,"c":3}"#).1,
        "config.calibration.c"
    );
    assert_eq!(typed(r#"["platt",1]"#).1, "config.calibration");
}

/// The derive's readings.
fn derived_readings(text: &str) -> Vec<String> {
    readings_of::<derived::Calibration>(text, from_derived)
}

fn bits(c: &Calibration) -> String {
    let b = |x: &f64| format!("{:016x}", x.to_bits());
    match c {
        Calibration::Sigmoid {
            threshold,
            steepness,
        } => format!("sigmoid {} {}", b(threshold), b(steepness)),
        Calibration::Platt(m) => format!("platt {} {}", b(&m.a), b(&m.b)),
        Calibration::Isotonic(m) => {
            let l = |v: &[f64]| v.iter().map(b).collect::<Vec<_>>().join(",");
            format!("isotonic [{}] [{}]", l(&m.x), l(&m.y))
        }
    }
}

/// Texts serde's derive was seen to read in ways a rewrite could miss.
const CASES: &[&str] = &[
    r#"{"method":"platt","a":1}"#,
    r#"{"method":"platt","a":1,"b":2}"#,
    r#"{"a":1,"b":2,"method":"platt"}"#,
    r#"{"method":"platt","a":1,"b":2,"c":3}"#,
    r#"{"method":"platt","a":"x","b":2}"#,
    r#"{"method":"platt","a":null,"b":2}"#,
    r#"{"method":"sigmoid","threshold":null}"#,
    r#"{"method":"sigmoid","x":1}"#,
    r#"{"method":"sigmoid","threshold":1,"threshold":2}"#,
    r#"{"method":"sigmoid","method":"sigmoid"}"#,
    r#"{"method":"sigmoid","method":"beta"}"#,
    r#"{"method":"beta"}"#,
    r#"{"method":null}"#,
    r#"{"method":1}"#,
    r#"{"method":{}}"#,
    r#"{"method":"Sigmoid"}"#,
    r#"{"meth\u006fd":"platt","a":1,"b":2}"#,
    r#"{"method":"sigmoid","steepness":-0}"#,
    r#"{"method":"sigmoid","steepness":-0.0}"#,
    r#"{"method":"sigmoid","steepness":1e400}"#,
    r#"{"method":"sigmoid","steepness":18446744073709551616}"#,
    r#"{"method":"isotonic","x":[1,2],"y":[0,1]}"#,
    r#"{"method":"isotonic","x":"ab","y":[]}"#,
    r#"{"method":"isotonic","x":[1,"a"],"y":[]}"#,
    r#"{"method":"isotonic","x":[1],"y":[0],"x":[2]}"#,
    r#"{"method":"isotonic"}"#,
    r#"{"method":"sigmoid","threshold":{"method":"x"}}"#,
    r#"["sigmoid"]"#,
    r#"["sigmoid", 0.5]"#,
    r#"["sigmoid", 0.5, 2, 9]"#,
    r#"["platt", 1]"#,
    r#"["platt", 1, 2, 3]"#,
    r#"["beta"]"#,
    r#"[]"#,
    r#"5"#,
    r#""sigmoid""#,
    r#"null"#,
    r#"{"method":"platt","a":1,"b":2"#,
];

#[test]
fn the_derive_s_readings_are_kept() {
    // Every listed text has its tag (`meth\u006fd` is `method` once read), or is no object.
    for text in CASES {
        assert_eq!(readings(text), derived_readings(text), "{text}");
    }
}

#[test]
fn without_method_a_sigmoid() {
    for (bare, tagged) in [
        (r#"{}"#, r#"{"method":"sigmoid"}"#),
        (
            r#"{"threshold":0.02}"#,
            r#"{"method":"sigmoid","threshold":0.02}"#,
        ),
        (
            r#"{"steepness":9,"threshold":-0}"#,
            r#"{"method":"sigmoid","steepness":9,"threshold":-0}"#,
        ),
    ] {
        let tagged: Calibration = serde_json::from_str(tagged).unwrap();
        assert_eq!(
            serde_json::from_str::<Calibration>(bare).unwrap(),
            tagged,
            "{bare}"
        );
    }
    // Errors are the sigmoid's: Platt's fields are unknown to it. An unknown key's error
    // lists `method` too (the key a misspelt one was meant to be).
    let e = serde_json::from_str::<Calibration>(r#"{"a":1,"b":2}"#).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("unknown field `a`, expected one of `method`, `threshold`, `steepness`"),
        "{e}"
    );
    let e = from_json::<Calibration>(r#"{"metod":"platt","a":1}"#, "c").unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str()),
        (ErrorCode::UnknownField, "c.metod")
    );
    assert!(
        e.message
            .contains("expected one of `method`, `threshold`, `steepness`"),
        "{}",
        e.message
    );
}

/// A JSON value of a calibration's keys and kinds: objects (with their tag, or without),
/// arrays (tag first, or not), repeated keys, values of every kind.
fn value(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        select(vec![
            "0",
            "-0",
            "-0.0",
            "1",
            "1.5",
            "-2",
            "0.035",
            "150",
            "1e400",
            "18446744073709551616",
            "-9223372036854775809",
            "2.5e-3"
        ])
        .prop_map(String::from),
        select(vec![
            r#""sigmoid""#,
            r#""platt""#,
            r#""isotonic""#,
            r#""beta""#,
            r#""""#,
            r#""\u0073igmoid""#
        ])
        .prop_map(String::from),
        select(vec!["null", "true", "false"]).prop_map(String::from),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        4 => leaf,
        1 => prop::collection::vec(value(depth - 1), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
        1 => object(depth - 1),
    ]
    .boxed()
}

const KEYS: &[&str] = &["threshold", "steepness", "a", "b", "x", "y", "c", "Method"];

/// An object of the keys, `method` (also written `meth\u006fd`) among them or not.
fn object(depth: u32) -> BoxedStrategy<String> {
    let mut keys = KEYS.to_vec();
    keys.extend(["method", "meth\\u006fd"]);
    object_of(depth, keys)
}

fn object_of(depth: u32, keys: Vec<&'static str>) -> BoxedStrategy<String> {
    let key = select(keys);
    prop::collection::vec((key, value(depth)), 0..6)
        .prop_map(|e| {
            format!(
                "{{{}}}",
                e.iter()
                    .map(|(k, v)| format!(r#""{k}":{v}"#))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .boxed()
}

fn calibration_text() -> BoxedStrategy<String> {
    let tag = select(vec![
        r#""sigmoid""#,
        r#""platt""#,
        r#""isotonic""#,
        r#""beta""#,
        "0",
        "null",
        "[]",
    ]);
    let numbers = prop::collection::vec(
        select(vec!["0", "1", "-1", "0.5", "2", "1e400", "\"a\"", "null"]),
        0..4,
    )
    .prop_map(|v| format!("[{}]", v.join(",")));
    let field = (
        select(vec![
            "threshold",
            "steepness",
            "a",
            "b",
            "x",
            "y",
            "c",
            "method",
        ]),
        prop_oneof![3 => value(1), 2 => numbers],
    );
    prop_oneof![
        // An object with `method` somewhere among its entries.
        4 => (tag.clone(), prop::collection::vec(field, 0..5), 0usize..6).prop_map(|(t, mut rest, at)| {
            let mut entries: Vec<String> = rest.drain(..).map(|(k, v)| format!(r#""{k}":{v}"#)).collect();
            entries.insert(at.min(entries.len()), format!(r#""method":{t}"#));
            format!("{{{}}}", entries.join(","))
        }),
        // The array form, tag first.
        1 => (tag, prop::collection::vec(value(1), 0..4)).prop_map(|(t, v)| {
            let mut items = vec![t.to_string()];
            items.extend(v);
            format!("[{}]", items.join(","))
        }),
    ]
    .boxed()
}

/// An object's keys in the text's order (repeated ones as often as given).
struct Keys(Vec<String>);

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some((k, _)) = m.next_entry::<String, serde::de::IgnoredAny>()? {
                    keys.push(k);
                }
                Ok(Keys(keys))
            }
        }
        d.deserialize_map(V)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Given `method` (or as an array), the derive's value or error, and its position.
    #[test]
    fn tagged_texts_read_as_the_derive_read_them(text in calibration_text()) {
        prop_assert_eq!(readings(&text), derived_readings(&text), "{}", text);
    }

    /// Without `method`, an object reads as the same object with `"method": "sigmoid"`
    /// first (value, or error words without their position).
    #[test]
    fn untagged_objects_read_as_sigmoids(text in object_of(2, KEYS.to_vec())) {
        let tagged = if text == "{}" { r#"{"method":"sigmoid"}"#.to_string() } else { format!(r#"{{"method":"sigmoid",{}"#, &text[1..]) };
        let words = |t: &str| match from_json::<Calibration>(t, "c") {
            Ok(c) => format!("ok {}", bits(&c)),
            // A syntax fault (1e400) is said with its position, which the tag moves.
            Err(e) if e.code == ErrorCode::ParseError => format!("{:?}", e.code),
            Err(e) => format!("{:?} {} {}", e.code, e.field, e.message),
        };
        // With a fitted model's key among them, the first key no calibration has is said
        // first (a misspelt `method`); else the same reading as tagged, an unknown key's
        // error listing `method` among the keys.
        let keys = serde_json::from_str::<Keys>(&text).map(|k| k.0).unwrap_or_default();
        let model = ["a", "b", "x", "y"];
        let stray = keys.iter().find(|k| !model.contains(&k.as_str()) && !["threshold", "steepness"].contains(&k.as_str()));
        match stray {
            Some(k) if keys.iter().any(|k| model.contains(&k.as_str())) && !text.contains("1e400") => {
                let want = format!("UnknownField c.{k} unknown field `{k}`, expected one of `method`, `threshold`, `steepness`");
                prop_assert_eq!(words(&text), want, "{}", text);
            }
            _ => {
                let untagged = words(&text).replace("expected one of `method`, `threshold`, `steepness`", "expected `threshold` or `steepness`");
                prop_assert_eq!(untagged, words(&tagged), "{}", text);
            }
        }
    }
}
