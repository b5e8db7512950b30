//! The hand-written decoders (`decode`) against serde's derived `Deserialize` over the
//! same tree (`json::decode`): for random trees shaped like each configuration, valid
//! and mutated (wrong types, unknown, repeated and missing keys, null, NaN, huge
//! integers, arrays for structs, values that are not JSON, nested junk), both give the
//! same value (compared by `Debug`, so `-0` and NaN count) or an error with the same
//! code and field. Then real values, decoded and checked field by field.

use calibrank::bands::{BandContext, BandFloors};
use calibrank::calibrate::Sigmoid;
use calibrank::confidence::model::QueryConfidenceModel;
use calibrank::confidence::ConfidenceOptions;
use calibrank::error::{ErrorCode, Result};
use calibrank::limits::{LimitedFunction, PartialLimits};
use calibrank::multiquery::MultiQueryOptions;
use calibrank::pipeline::{Calibration, PipelineConfig, RerankMethod};
use calibrank::rerank::HeuristicConfig;
use calibrank_wasm_shared::decode::{self, Decode, KWeights, NormalizeOptions};
use calibrank_wasm_shared::json::{self, Json};
use calibrank_wasm_shared::options;
use proptest::prelude::*;
use proptest::sample::select;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::fmt::Debug;

/// The shape of a value.
#[derive(Clone)]
enum S {
    Num,
    Int,
    Bool,
    Str,
    /// A `method` tag: this name when strict.
    Tag(&'static str),
    /// Weights of the top-5 slots (five numbers when strict; 0 to 6 otherwise).
    Five,
    Opt(Box<S>),
    List(Box<S>),
    Map(Box<S>),
    Enum(&'static [&'static str]),
    Obj(Vec<(&'static str, S)>),
    OneOf(Vec<S>),
}

fn opt(s: S) -> S {
    S::Opt(Box::new(s))
}
fn list(s: S) -> S {
    S::List(Box::new(s))
}
fn obj(fields: &[(&'static str, S)]) -> S {
    S::Obj(fields.to_vec())
}

fn partial_limits() -> S {
    let keys = [
        "maxLists",
        "maxListLength",
        "maxTotalEntries",
        "maxColumnarEntries",
        "maxIdBytes",
        "maxTextBytes",
        "maxTotalTextBytes",
        "maxSearchWork",
    ];
    S::Obj(keys.iter().map(|k| (*k, opt(S::Int))).collect())
}

fn heuristic() -> S {
    obj(&[
        ("exactNameMultiplier", S::Num),
        ("nameTermWeight", S::Num),
        ("summaryTermWeight", S::Num),
        ("shortContentChars", S::Int),
        ("shortContentMultiplier", S::Num),
        ("typeMultipliers", S::Map(Box::new(S::Num))),
        ("unknownTypeMultiplier", S::Num),
        ("stopwords", opt(list(S::Str))),
    ])
}

fn calibration() -> S {
    S::OneOf(vec![
        obj(&[
            ("method", S::Tag("sigmoid")),
            ("threshold", S::Num),
            ("steepness", S::Num),
        ]),
        obj(&[("method", S::Tag("platt")), ("a", S::Num), ("b", S::Num)]),
        obj(&[
            ("method", S::Tag("isotonic")),
            ("x", list(S::Num)),
            ("y", list(S::Num)),
        ]),
    ])
}

fn model() -> S {
    obj(&[
        ("method", S::Str),
        ("runs", S::Int),
        ("k", S::Int),
        ("rrfK", S::Num),
        ("weights", list(S::Num)),
        ("features", list(S::Str)),
        ("mean", list(S::Num)),
        ("scale", list(S::Num)),
        ("coefficients", list(S::Num)),
        ("intercept", S::Num),
        ("missingTop", list(S::Num)),
        ("l2", S::Num),
        (
            "training",
            obj(&[
                ("queries", S::Int),
                ("positives", S::Int),
                ("logLoss", S::Num),
                ("auroc", S::Num),
                ("iterations", S::Int),
                ("converged", S::Bool),
            ]),
        ),
    ])
}

fn confidence_options() -> S {
    obj(&[("weights", S::Five), ("k", opt(S::Int))])
}

fn band_floors() -> S {
    obj(&[("highFloor", S::Num), ("degradedFloor", S::Num)])
}

fn band_context() -> S {
    obj(&[
        ("taskClass", opt(S::Str)),
        ("language", opt(S::Str)),
        ("buildSystem", opt(S::Str)),
    ])
}

fn pipeline_config() -> S {
    obj(&[
        ("k", S::Num),
        ("weights", S::Map(Box::new(S::Num))),
        ("topK", S::Int),
        ("topN", S::Int),
        (
            "recency",
            obj(&[
                ("mode", S::Enum(&["none", "step", "fiscal_year"])),
                (
                    "steps",
                    list(obj(&[("maxAgeDays", S::Num), ("multiplier", S::Num)])),
                ),
                (
                    "fiscalYear",
                    obj(&[("window", S::Int), ("latestYear", S::Int)]),
                ),
                ("boost", S::Num),
            ]),
        ),
        (
            "rerank",
            obj(&[
                ("method", S::Enum(&["none", "heuristic", "cross_encoder"])),
                ("heuristic", heuristic()),
                ("candidateLimit", opt(S::Int)),
                ("recencyBoost", S::Num),
            ]),
        ),
        (
            "normalization",
            obj(&[
                (
                    "method",
                    S::Enum(&["none", "max", "min_max", "z_score", "softmax"]),
                ),
                ("temperature", S::Num),
                ("minRelevance", S::Num),
            ]),
        ),
        ("calibration", calibration()),
        ("minConfidence", S::Num),
        (
            "bands",
            obj(&[
                ("highFloor", S::Num),
                ("degradedFloor", S::Num),
                (
                    "profiles",
                    list(obj(&[
                        ("name", S::Str),
                        ("taskClass", opt(S::Str)),
                        ("language", opt(S::Str)),
                        ("buildSystem", opt(S::Str)),
                        ("highFloor", S::Num),
                        ("degradedFloor", S::Num),
                    ])),
                ),
            ]),
        ),
        (
            "confidence",
            obj(&[
                ("weights", S::Five),
                ("k", opt(S::Int)),
                ("model", opt(model())),
                ("answerFloor", S::Num),
                ("hedgeFloor", S::Num),
            ]),
        ),
        ("limits", opt(partial_limits())),
        ("explain", S::Bool),
    ])
}

fn multi_query_options() -> S {
    obj(&[
        ("method", S::Enum(&["rrf", "score_sum", "score_max"])),
        ("resultsPerQuery", S::Int),
        ("similarityThreshold", S::Num),
        ("multiQueryBoost", S::Num),
        ("limit", S::Int),
        ("k", S::Num),
        ("verbose", S::Bool),
    ])
}

// ---------------------------------------------------------------- Generators

fn num() -> BoxedStrategy<f64> {
    prop_oneof![
        4 => select(vec![
            0.0,
            -0.0,
            1.0,
            2.0,
            3.0,
            0.5,
            -1.0,
            1.5,
            60.0,
            2025.0,
            4_294_967_295.0,
            4_294_967_296.0,
            2_147_483_647.0,
            2_147_483_648.0,
            -2_147_483_648.0,
            -2_147_483_649.0,
            9_007_199_254_740_991.0,
            9_007_199_254_740_992.0,
            -9_007_199_254_740_993.0,
            1e300,
            -1e300,
            1e-300,
            f64::MAX,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ]),
        2 => (-10i64..100).prop_map(|x| x as f64),
        1 => any::<f64>(),
    ]
    .boxed()
}

const WORDS: &[&str] = &[
    "",
    "a",
    "x",
    "a`b",
    "`",
    "method",
    "sigmoid",
    "platt",
    "isotonic",
    "Sigmoid",
    "none",
    "step",
    "fiscal_year",
    "heuristic",
    "cross_encoder",
    "rrf",
    "score_sum",
    "score_max",
    "max",
    "min_max",
    "z_score",
    "softmax",
    "logistic",
    "2024-01-01",
    "2024-01-01T10:00:00Z",
    "\u{0}",
    "é",
];

/// Keys: every field name of every shape, and words.
const KEYS: &[&str] = &[
    "k",
    "weights",
    "topK",
    "topN",
    "recency",
    "rerank",
    "normalization",
    "calibration",
    "minConfidence",
    "bands",
    "confidence",
    "limits",
    "explain",
    "mode",
    "steps",
    "fiscalYear",
    "boost",
    "method",
    "heuristic",
    "threshold",
    "steepness",
    "a",
    "b",
    "x",
    "y",
    "id",
    "score",
    "name",
    "type",
    "timestamp",
    "temperature",
    "highFloor",
    "maxLists",
    "model",
    "training",
    "taskClass",
    "",
    "a`b",
    "zz",
];

fn word() -> BoxedStrategy<String> {
    prop_oneof![
        3 => select(WORDS).prop_map(String::from),
        1 => prop::collection::vec(select(vec!['a', 'b', '`', '\u{0}', 'é']), 0..4)
            .prop_map(String::from_iter),
        // Pieces of serde's words in a key: a reading of the words that stops at them
        // names the wrong key (the decoders said `config.a` for the key "a`, expected b").
        1 => prop::collection::vec(
            select(vec!["a", "`", "`, expected ", "`, there are no fields", ".", "method"]),
            1..4,
        )
        .prop_map(|v| v.concat()),
    ]
    .boxed()
}

fn key() -> BoxedStrategy<String> {
    prop_oneof![3 => select(KEYS).prop_map(String::from), 1 => word()].boxed()
}

/// Any tree: null, booleans, numbers, strings, values that are not JSON, nested.
fn junk() -> BoxedStrategy<Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        num().prop_map(Json::Num),
        word().prop_map(Json::Str),
        select(vec!["function", "symbol", "bigint"]).prop_map(Json::Invalid),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Arr),
            prop::collection::vec((key(), inner), 0..4).prop_map(Json::Obj),
        ]
    })
    .boxed()
}

/// A tree of shape `s`: half of them strict (valid unless a value is out of its
/// range), the others mutated at every level.
fn gen(s: &S) -> BoxedStrategy<Json> {
    prop_oneof![shaped(s, true), shaped(s, false)].boxed()
}

/// A tree of shape `s`; unless `strict`, now and then replaced by junk (at every level).
fn shaped(s: &S, strict: bool) -> BoxedStrategy<Json> {
    let valid: BoxedStrategy<Json> = match s {
        S::Num => num().prop_map(Json::Num).boxed(),
        S::Int if strict => (0u32..100).prop_map(|x| Json::Num(f64::from(x))).boxed(),
        S::Int => prop_oneof![
            3 => (0u32..100).prop_map(|x| Json::Num(f64::from(x))),
            1 => num().prop_map(Json::Num),
        ]
        .boxed(),
        S::Bool => any::<bool>().prop_map(Json::Bool).boxed(),
        S::Str => word().prop_map(Json::Str).boxed(),
        S::Tag(name) if strict => Just(Json::Str((*name).into())).boxed(),
        S::Five if strict => prop::collection::vec(num().prop_map(Json::Num), 5..6)
            .prop_map(Json::Arr)
            .boxed(),
        S::Five => prop::collection::vec(num().prop_map(Json::Num), 0..7)
            .prop_map(Json::Arr)
            .boxed(),
        S::Tag(_) => prop_oneof![
            3 => select(vec!["sigmoid", "platt", "isotonic"]).prop_map(|n| Json::Str(n.into())),
            1 => select(vec![0.0, -0.0, 1.0, 2.0, 3.0, 1.5, -1.0]).prop_map(Json::Num),
            1 => word().prop_map(Json::Str),
        ]
        .boxed(),
        S::Opt(inner) => prop_oneof![1 => Just(Json::Null), 3 => shaped(inner, strict)].boxed(),
        S::List(inner) => prop::collection::vec(shaped(inner, strict), 0..7)
            .prop_map(Json::Arr)
            .boxed(),
        S::Map(inner) => prop::collection::vec((word(), shaped(inner, strict)), 0..4)
            .prop_map(Json::Obj)
            .boxed(),
        S::Enum(names) if strict => select(*names).prop_map(|n| Json::Str(n.into())).boxed(),
        S::Enum(names) => prop_oneof![
            6 => select(*names).prop_map(|n| Json::Str(n.into())),
            1 => (select(*names), prop_oneof![3 => Just(Json::Null), 1 => junk()])
                .prop_map(|(n, v)| Json::Obj(vec![(n.into(), v)])),
            1 => word().prop_map(Json::Str),
        ]
        .boxed(),
        S::Obj(fields) => object(fields, strict),
        S::OneOf(shapes) => {
            let all: Vec<BoxedStrategy<Json>> = shapes.iter().map(|s| shaped(s, strict)).collect();
            (0..all.len())
                .prop_flat_map(move |i| all[i].clone())
                .boxed()
        }
    };
    if strict {
        valid
    } else {
        prop_oneof![14 => valid, 1 => junk()].boxed()
    }
}

/// An object of some of `fields` (each kept with probability 4/5) and now and then
/// extra keys (unknown, or repeating a field), in random order; or, one time in
/// twelve, the array form (the fields' values in order, cut or extended). When
/// `strict`: every field, no extra key, the array form whole.
fn object(fields: &[(&'static str, S)], strict: bool) -> BoxedStrategy<Json> {
    let parts: Vec<BoxedStrategy<(bool, String, Json)>> = fields
        .iter()
        .map(|(k, s)| {
            let k = (*k).to_string();
            (0u8..5, shaped(s, strict))
                .prop_map(move |(p, v)| (strict || p != 0, k.clone(), v))
                .boxed()
        })
        .collect();
    let extra = if strict {
        Just(Vec::new()).boxed()
    } else {
        prop_oneof![
            4 => Just(Vec::new()),
            1 => prop::collection::vec((key(), junk()), 1..3),
        ]
        .boxed()
    };
    (parts, extra, 0u8..12, 0usize..20)
        .prop_flat_map(move |(parts, extra, form, cut)| {
            if form == 0 {
                let mut items: Vec<Json> = parts.into_iter().map(|(_, _, v)| v).collect();
                if !strict {
                    items.truncate(cut);
                }
                items.extend(extra.into_iter().map(|(_, v)| v));
                Just(Json::Arr(items)).boxed()
            } else {
                let mut entries: Vec<(String, Json)> = parts
                    .into_iter()
                    .filter(|(keep, _, _)| *keep)
                    .map(|(_, k, v)| (k, v))
                    .collect();
                entries.extend(extra);
                Just(entries).prop_shuffle().prop_map(Json::Obj).boxed()
            }
        })
        .boxed()
}

// ---------------------------------------------------------------- Comparison

type Outcome = std::result::Result<String, (ErrorCode, String)>;

/// A value shown, or an error's code and field (and an unknown key's message, which
/// lists the keys there are: the hand-written decoders list them as serde's derives do).
fn outcome<T>(r: Result<T>, show: impl Fn(&T) -> String) -> Outcome {
    r.map(|v| show(&v)).map_err(|e| {
        if e.code == ErrorCode::UnknownField {
            (e.code, format!("{} {}", e.field, e.message))
        } else {
            (e.code, e.field)
        }
    })
}

/// `T` decoded from `tree` by serde with `serde_path_to_error` tracking the path, as the
/// Rust API's `from_json` decodes (the reference for the paths of [`json::decode`]).
fn tracked<T: DeserializeOwned>(tree: &Json, what: &str) -> Result<T> {
    calibrank::error::deserialize_at(tree)
        .map_err(|(e, at)| calibrank::error::from_serde_at(e.message(), what, &at))
}

/// Both decoders of `T` over `tree` (with a field name and without), and serde with
/// `serde_path_to_error`.
fn same<T: Decode + DeserializeOwned + Debug>(
    tree: &Json,
) -> std::result::Result<(), TestCaseError> {
    for what in ["config", ""] {
        let ours = outcome(decode::decode::<T>(tree, what), |v| format!("{v:?}"));
        let serde = outcome(json::decode::<T>(tree, what), |v| format!("{v:?}"));
        prop_assert_eq!(&ours, &serde, "tree {:?}", tree);
        let reference = outcome(tracked::<T>(tree, what), |v| format!("{v:?}"));
        prop_assert_eq!(ours, reference, "serde_path_to_error, tree {:?}", tree);
    }
    Ok(())
}

/// `NormalizeOptions` as lib.rs's derived struct decoded it.
#[derive(Deserialize, Default, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
struct SerdeOpts {
    temperature: Option<f64>,
}

/// `KWeights` as options.rs's derived struct decoded it.
#[derive(Deserialize, Default, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
struct SerdeKWeights {
    k: Option<f64>,
    weights: Option<Vec<f64>>,
}

fn cases(n: u32) -> ProptestConfig {
    ProptestConfig::with_cases(n)
}

proptest! {
    #![proptest_config(cases(3000))]

    #[test]
    fn same_pipeline_config(tree in gen(&pipeline_config())) {
        same::<PipelineConfig>(&tree)?;
    }
}

proptest! {
    #![proptest_config(cases(1500))]

    #[test]
    fn calibration_tagged(tree in gen(&calibration())) {
        same::<Calibration>(&tree)?;
    }

    /// An object without `method` reads as the same object with `"method": "sigmoid"`
    /// first: the same value, or the same error.
    #[test]
    fn calibration_without_method_is_a_sigmoid(tree in gen(&calibration())) {
        if let Json::Obj(entries) = &tree {
            let bare: Vec<(String, Json)> = entries.iter().filter(|(k, _)| k != "method").cloned().collect();
            let mut tagged = vec![("method".to_string(), Json::Str("sigmoid".into()))];
            tagged.extend(bare.iter().cloned());
            let (bare, tagged) = (Json::Obj(bare), Json::Obj(tagged));
            same::<Calibration>(&bare)?;
            let show = |t: &Json| format!("{:?}", outcome(json::decode::<Calibration>(t, "config"), |v| format!("{v:?}")));
            // Untagged, an unknown key's words list `method` too; with a fitted model's
            // key among the keys, the first key no calibration has is said first.
            let listed = "expected one of `method`, `threshold`, `steepness`";
            let keys: Vec<&str> = match &bare { Json::Obj(e) => e.iter().map(|(k, _)| k.as_str()).collect(), _ => Vec::new() };
            let model = ["a", "b", "x", "y"];
            let stray = keys.iter().find(|k| !model.contains(k) && !["threshold", "steepness"].contains(k));
            // (Every value is buffered first, as serde buffers an internally tagged enum:
            // a value that is not JSON is said before any key.)
            fn json(v: &Json) -> bool {
                match v {
                    Json::Invalid(_) => false,
                    Json::Arr(items) => items.iter().all(json),
                    Json::Obj(entries) => entries.iter().all(|(_, x)| json(x)),
                    _ => true,
                }
            }
            match stray {
                Some(k) if keys.iter().any(|k| model.contains(k)) && json(&bare) => {
                    let want = format!("{:?}", Err::<String, _>((ErrorCode::UnknownField, format!("{} unknown field {}, {listed}", calibrank::error::key_path("config", k), calibrank::error::key_name(k)))));
                    prop_assert_eq!(show(&bare), want, "tree {:?}", bare);
                }
                _ => prop_assert_eq!(show(&bare).replace(listed, "expected `threshold` or `steepness`"), show(&tagged), "tree {:?}", bare),
            }
        }
    }

    #[test]
    fn query_confidence_model(tree in gen(&model())) {
        same::<QueryConfidenceModel>(&tree)?;
    }

    #[test]
    fn same_partial_limits(tree in gen(&partial_limits())) {
        same::<PartialLimits>(&tree)?;
    }

    #[test]
    fn multi_query(opts in gen(&multi_query_options())) {
        same::<MultiQueryOptions>(&opts)?;
    }

    #[test]
    fn rerank(opts in gen(&heuristic())) {
        same::<HeuristicConfig>(&opts)?;
    }

    #[test]
    fn small_options(
        sigmoid in gen(&obj(&[("threshold", S::Num), ("steepness", S::Num)])),
        conf in gen(&confidence_options()),
        floors in gen(&band_floors()),
        context in gen(&band_context()),
    ) {
        same::<Sigmoid>(&sigmoid)?;
        same::<ConfidenceOptions>(&conf)?;
        same::<BandFloors>(&floors)?;
        same::<BandContext>(&context)?;
    }

    #[test]
    fn local_options(
        normalize in gen(&obj(&[("temperature", opt(S::Num))])),
        kw in gen(&obj(&[("k", opt(S::Num)), ("weights", opt(list(S::Num)))])),
    ) {
        let ours = outcome(decode::decode::<NormalizeOptions>(&normalize, "options"), |o| format!("{:?}", o.temperature));
        let serde = outcome(json::decode::<SerdeOpts>(&normalize, "options"), |o| format!("{:?}", o.temperature));
        prop_assert_eq!(ours, serde, "tree {:?}", normalize);
        let ours = outcome(decode::decode::<KWeights>(&kw, "options"), |o| format!("{:?} {:?}", o.k, o.weights));
        let serde = outcome(json::decode::<SerdeKWeights>(&kw, "options"), |o| format!("{:?} {:?}", o.k, o.weights));
        prop_assert_eq!(&ours, &serde, "tree {:?}", kw);
        let reference = outcome(tracked::<SerdeKWeights>(&kw, "options"), |o| format!("{:?} {:?}", o.k, o.weights));
        prop_assert_eq!(ours, reference, "serde_path_to_error, tree {:?}", kw);
    }

    /// Through the text and `limits`: `decode_with_limits` against `with_limits`.
    #[test]
    fn with_limits(fields in gen(&heuristic()), limits in gen(&opt(partial_limits())), put in any::<bool>()) {
        let tree = match fields {
            Json::Obj(mut f) if put => {
                f.push(("limits".into(), limits));
                Json::Obj(f)
            }
            t => t,
        };
        let text = to_text(&tree);
        let show = |v: &(calibrank::limits::Limits, HeuristicConfig)| format!("{v:?}");
        let ours = outcome(options::decode_with_limits::<HeuristicConfig>(Some(&text), "options", LimitedFunction::Rerank), show);
        let serde = outcome(options::with_limits::<HeuristicConfig>(Some(&text), "options", LimitedFunction::Rerank), show);
        prop_assert_eq!(ours, serde, "text {}", text);
    }
}

/// JSON text of a tree as js/wire/json.js sends it: its sentinels, and numbers that are not
/// safe integers as their bits ([`json::wire_text`]).
fn to_text(j: &Json) -> String {
    json::wire_text(&plain_text(j)).expect("JSON")
}

/// JSON text of a tree with js/wire/json.js's sentinels, numbers in decimal.
fn plain_text(j: &Json) -> String {
    let string = |s: &str| serde_json::to_string(s).unwrap_or_default();
    match j {
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Num(x) if x.is_nan() => string("\u{0}NaN"),
        Json::Num(x) if x.is_infinite() => string(if *x > 0.0 {
            "\u{0}Infinity"
        } else {
            "\u{0}-Infinity"
        }),
        Json::Num(x) => format!("{x:?}"),
        Json::Str(s) if s.starts_with('\u{0}') => string(&format!("\u{0}{s}")),
        Json::Str(s) => string(s),
        Json::Invalid(kind) => string(&format!("\u{0}{kind}")),
        Json::Arr(items) => format!(
            "[{}]",
            items.iter().map(plain_text).collect::<Vec<_>>().join(",")
        ),
        Json::Obj(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{}:{}", string(k), plain_text(v)))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

#[test]
fn to_text_round_trips() {
    let t = Json::Obj(vec![
        ("a".into(), Json::Num(f64::NAN)),
        ("\u{0}b".into(), Json::Str("\u{0}c".into())),
        (
            "d".into(),
            Json::Arr(vec![
                Json::Num(-0.0),
                Json::Invalid("bigint"),
                Json::Num(1e300),
            ]),
        ),
    ]);
    let back = json::parse(&to_text(&t), "x").unwrap();
    assert_eq!(format!("{back:?}"), format!("{t:?}"));
}

// ---------------------------------------------------------------- Real values

/// Ordinary JSON as the package's JavaScript sends it (numbers that are not safe
/// integers as their bits), decoded.
fn from_text<T: Decode>(text: &str, what: &str) -> Result<T> {
    decode::from_text(&json::wire_text(text).expect("JSON"), what)
}

fn parse(text: &str, what: &str) -> Result<Json> {
    json::parse(&json::wire_text(text).expect("JSON"), what)
}

fn err<T: Decode + Debug>(text: &str, what: &str) -> (ErrorCode, String) {
    let e = from_text::<T>(text, what).unwrap_err();
    (e.code, e.field)
}

#[test]
fn a_real_pipeline_config() {
    let c: PipelineConfig = from_text(
        r#"{"k": 30, "weights": {"semantic": 1.5, "keyword": 0.5}, "topK": 20, "topN": 3,
            "recency": {"mode": "fiscal_year", "fiscalYear": {"window": 4, "latestYear": 2024}},
            "rerank": {"method": "heuristic", "candidateLimit": 8,
                       "heuristic": {"typeMultipliers": {"class": 2}, "stopwords": ["the"]}},
            "normalization": {"method": "min_max", "minRelevance": 0.2},
            "calibration": {"method": "platt", "a": -3.5, "b": 1},
            "bands": {"profiles": [{"name": "rust", "language": "rust",
                                    "highFloor": 0.9, "degradedFloor": 0.6}]},
            "confidence": {"weights": [0.4, 0.3, 0.2, 0.1, 0], "k": 3, "answerFloor": 0.6},
            "limits": {"maxLists": 8}, "explain": false}"#,
        "config",
    )
    .unwrap();
    assert_eq!(c.k, 30.0);
    assert_eq!(c.weights.get("semantic"), Some(&1.5));
    assert_eq!((c.top_k, c.top_n), (20, 3));
    assert_eq!(c.recency.fiscal_year.window, 4);
    assert_eq!(c.recency.fiscal_year.latest_year, 2024);
    assert_eq!(c.recency.boost, 0.8);
    assert_eq!(c.rerank.method, RerankMethod::Heuristic);
    assert_eq!(c.rerank.candidate_limit, Some(8));
    assert_eq!(c.rerank.heuristic.type_multipliers.len(), 1);
    assert_eq!(c.rerank.heuristic.exact_name_multiplier, 3.0);
    assert_eq!(c.rerank.heuristic.stopwords, Some(vec!["the".to_string()]));
    assert_eq!(c.normalization.min_relevance, 0.2);
    assert_eq!(c.normalization.temperature, 1.0);
    assert!(matches!(c.calibration, Calibration::Platt(m) if m.a == -3.5 && m.b == 1.0));
    assert_eq!(c.bands.profiles[0].language.as_deref(), Some("rust"));
    assert_eq!(c.bands.profiles[0].task_class, None);
    assert_eq!(c.confidence.weights, [0.4, 0.3, 0.2, 0.1, 0.0]);
    assert_eq!(c.confidence.k, Some(3));
    assert_eq!(c.confidence.hedge_floor, 0.2);
    assert_eq!(c.limits.max_lists, 8);
    assert_eq!(
        c.limits.max_id_bytes,
        calibrank::limits::pipeline_limits().max_id_bytes
    );
    assert!(!c.explain);
    // And the same through serde.
    let s: PipelineConfig = json::decode(
        &parse(
            &to_text(
                &parse(
                    r#"{"calibration": {"method": "isotonic", "x": [0, 1], "y": [0.1, 0.9]}}"#,
                    "c",
                )
                .unwrap(),
            ),
            "c",
        )
        .unwrap(),
        "c",
    )
    .unwrap();
    let d: PipelineConfig = from_text(
        r#"{"calibration": {"method": "isotonic", "x": [0, 1], "y": [0.1, 0.9]}}"#,
        "c",
    )
    .unwrap();
    assert_eq!(s, d);
    assert_eq!(
        from_text::<PipelineConfig>("{}", "config").unwrap(),
        PipelineConfig::default()
    );
}

#[test]
fn real_inputs() {
    let m: MultiQueryOptions =
        from_text(r#"{"method": "score_max", "limit": 3}"#, "options").unwrap();
    assert_eq!(m.limit, 3);
    assert_eq!(
        m.results_per_query,
        MultiQueryOptions::default().results_per_query
    );
    let ctx: BandContext = from_text(r#"{"language": "go"}"#, "input.context").unwrap();
    assert_eq!(ctx.language.as_deref(), Some("go"));
}

#[test]
fn real_errors() {
    use ErrorCode::*;
    let e = err::<PipelineConfig>;
    assert_eq!(
        e(r#"{"rerank": {"methd": "heuristic"}}"#, "config"),
        (UnknownField, "config.rerank.methd".into())
    );
    assert_eq!(
        e(r#"{"rerank": {"method": "bm25"}}"#, "config"),
        (UnknownMethod, "config.rerank.method".into())
    );
    assert_eq!(
        e(r#"{"calibration": {"method": "beta"}}"#, "config"),
        (UnknownMethod, "config.calibration.method".into())
    );
    // Without `method`, a sigmoid: Platt's fields are not its own.
    assert_eq!(
        e(r#"{"calibration": {"a": 1}}"#, "config"),
        (UnknownField, "config.calibration.a".into())
    );
    assert_eq!(
        e(r#"{"calibration": []}"#, "config"),
        (InvalidConfig, "config.calibration.method".into())
    );
    let c: PipelineConfig = from_text(r#"{"calibration": {"steepness": 40}}"#, "config").unwrap();
    assert_eq!(
        c.calibration,
        Calibration::Sigmoid {
            threshold: 0.035,
            steepness: 40.0
        }
    );
    assert_eq!(
        e(r#"{"calibration": {"method": "platt", "a": 1}}"#, "config"),
        (InvalidConfig, "config.calibration.b".into())
    );
    assert_eq!(
        e(r#"{"topK": 2.5}"#, "config"),
        (InvalidType, "config.topK".into())
    );
    assert_eq!(
        e(r#"{"topK": -1}"#, "config"),
        (InvalidType, "config.topK".into())
    );
    assert_eq!(
        e(r#"{"topK": 4294967296}"#, "config"),
        (InvalidType, "config.topK".into())
    );
    assert_eq!(
        e(r#"{"k": "60"}"#, "config"),
        (InvalidType, "config.k".into())
    );
    assert_eq!(
        e(r#"{"k": 1, "k": 2}"#, "config"),
        (InvalidType, "config.k".into())
    );
    assert_eq!(
        e(r#"{"limits": {"maxList": 3}}"#, "config"),
        (UnknownField, "config.limits.maxList".into())
    );
    assert_eq!(e(r#"{"k": 1"#, "config"), (ParseError, "config".into()));
    // NaN reaches a number field (its validation refuses it later), not an integer one.
    let s: Sigmoid = from_text(r#"{"steepness": "\u0000NaN"}"#, "options").unwrap();
    assert!(s.steepness.is_nan());
    assert_eq!(
        err::<PartialLimits>(r#"{"maxLists": "\u0000NaN"}"#, "options.limits"),
        (InvalidType, "options.limits.maxLists".into())
    );
}

/// Both decoders of `T` over `text` (ordinary JSON), as `(code, field)`; they must agree.
fn both<T: Decode + DeserializeOwned + Debug>(text: &str, what: &str) -> (ErrorCode, String) {
    let tree = parse(text, what).unwrap();
    let ours = decode::decode::<T>(&tree, what).unwrap_err();
    let serde = json::decode::<T>(&tree, what).unwrap_err();
    assert_eq!(
        (ours.code, &ours.field),
        (serde.code, &serde.field),
        "{text}"
    );
    let reference = tracked::<T>(&tree, what).unwrap_err();
    assert_eq!(
        (ours.code, &ours.field),
        (reference.code, &reference.field),
        "{text}"
    );
    (ours.code, ours.field)
}

/// Field paths inside configurations (docs/reliability.md): a struct field or map key
/// adds `.key`, an array element `[i]`; unknown and missing fields are on their object
/// and `.key`, an unknown method on the method's own path; inside the buffered
/// `Calibration` the path stops at the enum.
#[test]
fn nested_field_paths() {
    use ErrorCode::*;
    let c = |text: &str| both::<PipelineConfig>(text, "config");
    let f = |code, field: &str| (code, field.to_string());
    // Three levels, an unknown key.
    assert_eq!(
        c(r#"{"recency": {"fiscalYear": {"windw": 3}}}"#),
        f(UnknownField, "config.recency.fiscalYear.windw")
    );
    assert_eq!(
        c(r#"{"recency": {"fiscalYear": {"window": -3}}}"#),
        f(InvalidType, "config.recency.fiscalYear.window")
    );
    assert_eq!(c(r#"{"topK": "x"}"#), f(InvalidType, "config.topK"));
    assert_eq!(
        c(r#"{"bands": {"hit": "x"}}"#),
        f(UnknownField, "config.bands.hit")
    );
    assert_eq!(
        c(r#"{"rerank": {"terms": [1]}}"#),
        f(UnknownField, "config.rerank.terms")
    );
    // Array elements, and an element's fields.
    assert_eq!(
        c(r#"{"recency": {"steps": [{"maxAgeDays": 1, "multiplier": 2}, {"maxAgeDays": "3"}]}}"#),
        f(InvalidType, "config.recency.steps[1].maxAgeDays")
    );
    assert_eq!(
        c(r#"{"recency": {"steps": [{"maxAgeDays": 1, "multiplier": 2}, {"maxAgeDays": 3}]}}"#),
        f(InvalidConfig, "config.recency.steps[1].multiplier")
    );
    assert_eq!(
        c(
            r#"{"bands": {"profiles": [{"name": "p", "highFloor": 1, "degradedFloor": 0, "lang": "go"}]}}"#
        ),
        f(UnknownField, "config.bands.profiles[0].lang")
    );
    assert_eq!(
        c(r#"{"rerank": {"heuristic": {"stopwords": ["a", 2]}}}"#),
        f(InvalidType, "config.rerank.heuristic.stopwords[1]")
    );
    assert_eq!(
        c(r#"{"confidence": {"weights": [1, 1, "x", 1, 1]}}"#),
        f(InvalidType, "config.confidence.weights[2]")
    );
    assert_eq!(
        c(r#"{"confidence": {"weights": [1, 1]}}"#),
        f(InvalidType, "config.confidence.weights")
    );
    // Map keys.
    assert_eq!(
        c(r#"{"weights": {"semantic": 1, "keyword": "x"}}"#),
        f(InvalidType, "config.weights.keyword")
    );
    assert_eq!(
        c(r#"{"rerank": {"heuristic": {"typeMultipliers": {"class": true}}}}"#),
        f(InvalidType, "config.rerank.heuristic.typeMultipliers.class")
    );
    // A model, four levels down.
    assert_eq!(
        c(
            r#"{"confidence": {"model": {"method": "logistic", "runs": 1, "k": 1, "rrfK": 60,
              "weights": [], "features": [], "mean": [], "scale": [], "coefficients": [],
              "intercept": 0, "missingTop": [], "l2": 1,
              "training": {"queries": 1, "positives": 1, "logLoss": 0, "auroc": 0.5,
                           "iterations": 1, "converged": "yes"}}}}"#
        ),
        f(InvalidType, "config.confidence.model.training.converged")
    );
    // Methods: on the method's own path; a unit variant given as `{"name": value}` has
    // its value under the name.
    assert_eq!(
        c(r#"{"normalization": {"method": "minmax"}}"#),
        f(UnknownMethod, "config.normalization.method")
    );
    assert_eq!(
        c(r#"{"normalization": {"method": 3}}"#),
        f(InvalidType, "config.normalization.method")
    );
    assert_eq!(
        c(r#"{"normalization": {"method": {"max": 1}}}"#),
        f(InvalidType, "config.normalization.method.max")
    );
    // A struct given as an array: its elements by index.
    assert_eq!(
        c(r#"{"recency": {"fiscalYear": [4, "x"]}}"#),
        f(InvalidType, "config.recency.fiscalYear[1]")
    );
    // The buffered Calibration: every fault where it is, the value of a field of the
    // variant too (src/pipeline/tagged.rs places it), and `.key` for an unknown or
    // missing field; in the array form, the fields counted after the tag.
    assert_eq!(
        c(r#"{"calibration": {"method": "platt", "a": "x", "b": 1}}"#),
        f(InvalidType, "config.calibration.a")
    );
    assert_eq!(
        c(r#"{"calibration": ["platt", 1, "x"]}"#),
        f(InvalidType, "config.calibration[2]")
    );
    assert_eq!(
        c(r#"{"calibration": ["isotonic", [0, 1], [0, null]]}"#),
        f(InvalidType, "config.calibration[2][1]")
    );
    assert_eq!(
        c(r#"{"calibration": {"threshold": true}}"#),
        f(InvalidType, "config.calibration.threshold")
    );
    assert_eq!(
        c(r#"{"calibration": {"method": "platt", "a": 1, "b": 1, "c": 1}}"#),
        f(UnknownField, "config.calibration.c")
    );
    assert_eq!(
        c(r#"{"calibration": {"method": "isotonic", "x": [0, "\u0000function"], "y": []}}"#),
        f(InvalidType, "config.calibration.x[1]")
    );
    // The one case the path cannot tell apart (docs/reliability.md): an unknown key in
    // the buffer named as the enum itself.
    assert_eq!(
        c(r#"{"calibration": {"method": "platt", "a": 1, "b": 1, "calibration": 1}}"#),
        f(UnknownField, "config.calibration")
    );
    assert_eq!(
        c(r#"{"calibration": ["beta"]}"#),
        f(UnknownMethod, "config.calibration[0]")
    );
    assert_eq!(
        c(r#"{"calibration": {"method": "sigmoid", "method": "platt"}}"#),
        f(InvalidType, "config.calibration.method")
    );
    // Options, and `what` left out.
    assert_eq!(
        both::<MultiQueryOptions>(r#"{"method": "score_mean"}"#, "options"),
        f(UnknownMethod, "options.method")
    );
    assert_eq!(
        both::<PipelineConfig>(r#"{"recency": {"fiscalYear": {"windw": 3}}}"#, ""),
        f(UnknownField, "recency.fiscalYear.windw")
    );
    // Through options.rs (limits split off first).
    let o = |text: &str| {
        let e = options::decode_with_limits::<KWeights>(
            Some(&json::wire_text(text).unwrap()),
            "options",
            LimitedFunction::Rrf,
        )
        .unwrap_err();
        (e.code, e.field)
    };
    assert_eq!(
        o(r#"{"weights": [1, "x"]}"#),
        f(InvalidType, "options.weights[1]")
    );
    assert_eq!(o(r#"{"k": "x"}"#), f(InvalidType, "options.k"));
    assert_eq!(
        o(r#"{"limits": {"maxLists": "x"}}"#),
        f(InvalidType, "options.limits.maxLists")
    );
}

/// Every field the types serialize is a key their decoders read back to the same value:
/// a field added to a root type without its line in decode.rs fails here.
#[test]
fn decoders_read_every_serialized_field() {
    fn check<T: Decode + serde::Serialize + Debug>(v: &T) {
        let text = serde_json::to_string(v).unwrap();
        let back: T = from_text(&text, "x").unwrap();
        assert_eq!(format!("{back:?}"), format!("{v:?}"), "{text}");
    }
    let model = QueryConfidenceModel {
        method: "logistic".into(),
        runs: 2,
        k: 5,
        rrf_k: 60.0,
        weights: vec![1.0, 0.5],
        features: vec!["rankOnly".into(), "top[0]".into(), "top[1]".into()],
        mean: vec![0.1, 0.2, 0.3],
        scale: vec![1.0, 2.0, 0.5],
        coefficients: vec![0.7, -0.2, 1.5],
        intercept: -0.25,
        missing_top: vec![0.01, 0.02],
        l2: 1.0,
        training: calibrank::confidence::model::TrainingFigures {
            queries: 40,
            positives: 31,
            log_loss: 0.42,
            auroc: 0.81,
            iterations: 7,
            converged: true,
        },
    };
    let mut c: PipelineConfig = from_text(
        r#"{"rerank": {"method": "cross_encoder", "candidateLimit": 4,
                       "heuristic": {"stopwords": ["a", "the"]}},
            "recency": {"mode": "none", "steps": [{"maxAgeDays": 3, "multiplier": 1.5}]},
            "normalization": {"method": "softmax", "temperature": 0.5},
            "weights": {"semantic": 2},
            "bands": {"profiles": [{"name": "p", "taskClass": "t", "language": "l",
                                    "buildSystem": "b", "highFloor": 0.9, "degradedFloor": 0.7}]}}"#,
        "config",
    )
    .unwrap();
    c.confidence.model = Some(model.clone());
    c.confidence.k = Some(3);
    check(&c);
    for calibration in [
        Calibration::default(),
        Calibration::Platt(calibrank::calibrate::PlattModel { a: -2.0, b: 0.5 }),
        Calibration::Isotonic(calibrank::calibrate::IsotonicModel {
            x: vec![0.0, 1.0],
            y: vec![0.2, 0.8],
        }),
    ] {
        c.calibration = calibration;
        check(&c);
    }
    check(&model);
    check(&MultiQueryOptions::default());
    check(&HeuristicConfig::default());
    check(&Sigmoid::default());
    check(&ConfidenceOptions::default());
    check(&BandFloors::default());
    check(&BandContext {
        task_class: Some("t".into()),
        language: Some("l".into()),
        build_system: Some("b".into()),
    });
}

/// An unknown key's message lists the keys of its struct as serde's derive lists them
/// (the same words, the keys in the same order), at the top and nested, in the array of
/// profiles and inside a calibration's variant; an options object also lists `limits`
/// (taken off before decoding), but only for its own keys.
#[test]
fn unknown_keys_list_the_keys_there_are() {
    fn serde_words<T: Decode + DeserializeOwned + Debug>(text: &str, what: &str) -> String {
        twin_words::<T, T>(text, what)
    }
    // `S`: serde's derive of the same keys (T's own, or a struct that mirrors them).
    fn twin_words<T: Decode + Debug, S: DeserializeOwned + Debug>(
        text: &str,
        what: &str,
    ) -> String {
        let tree = parse(text, what).unwrap();
        let ours = decode::decode::<T>(&tree, what).unwrap_err();
        let serde = json::decode::<S>(&tree, what).unwrap_err();
        assert_eq!(ours.code, ErrorCode::UnknownField, "{text}");
        assert_eq!(
            (&ours.field, &ours.message),
            (&serde.field, &serde.message),
            "{text}"
        );
        ours.message
    }
    assert_eq!(
        serde_words::<PipelineConfig>(r#"{"topk":5}"#, "config"),
        "unknown field `topk`, expected one of `k`, `weights`, `topK`, `topN`, `recency`, `rerank`, \
         `normalization`, `calibration`, `minConfidence`, `bands`, `confidence`, `limits`, `explain`"
    );
    serde_words::<PipelineConfig>(r#"{"recency":{"stpes":[]}}"#, "config");
    serde_words::<PipelineConfig>(r#"{"rerank":{"heuristic":{"x":1}}}"#, "config");
    serde_words::<PipelineConfig>(
        r#"{"bands":{"profiles":[{"name":"a","highFloor":0.9,"degradedFloor":0.5,"lang":"x"}]}}"#,
        "config",
    );
    serde_words::<PipelineConfig>(r#"{"limits":{"maxList":3}}"#, "config");
    serde_words::<BandContext>(r#"{"langauge":"rust"}"#, "context");
    serde_words::<BandFloors>(r#"{"high":1}"#, "options");
    // One key, two keys: serde's "`a`" and "`a` or `b`".
    assert_eq!(
        twin_words::<NormalizeOptions, SerdeOpts>(r#"{"temp":1}"#, "options"),
        "unknown field `temp`, expected `temperature`"
    );
    assert_eq!(
        twin_words::<KWeights, SerdeKWeights>(r#"{"kk":1}"#, "options"),
        "unknown field `kk`, expected `k` or `weights`"
    );
    // A calibration's variant (buffered by serde: the error is on the enum).
    let tree = parse(r#"{"method":"sigmoid","treshold":0.5}"#, "calibration").unwrap();
    let e = decode::decode::<Calibration>(&tree, "calibration").unwrap_err();
    assert_eq!(
        (e.code, e.field.as_str(), e.message.as_str()),
        (
            ErrorCode::UnknownField,
            "calibration.treshold",
            "unknown field `treshold`, expected `threshold` or `steepness`"
        )
    );
    // Options: `limits` too, at the top only.
    let words = |text: &str| {
        options::decode_with_limits::<KWeights>(Some(text), "options", LimitedFunction::Rrf)
            .unwrap_err()
            .message
    };
    assert_eq!(
        words(r#"{"kk":1}"#),
        "unknown field `kk`, expected one of `k`, `weights`, `limits`"
    );
    let e = options::decode_with_limits::<NormalizeOptions>(
        Some(r#"{"temp":1}"#),
        "options",
        LimitedFunction::Normalize,
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "unknown field `temp`, expected `temperature` or `limits`"
    );
    let e = options::decode_with_limits::<PartialLimits>(
        Some(r#"{"limits":{"maxList":1}}"#),
        "options",
        LimitedFunction::Rrf,
    )
    .unwrap_err();
    assert_eq!(e.field, "options.limits.maxList");
    assert!(!e.message.ends_with("`limits`"), "{}", e.message);
    let e = options::decode_with_limits::<MultiQueryOptions>(
        Some(r#"{"limits":null,"verbos":true}"#),
        "options",
        LimitedFunction::FuseMultiQuery,
    )
    .unwrap_err();
    assert!(e.message.ends_with("`verbose`, `limits`"), "{}", e.message);
}

/// A value of the wrong kind is said with the value given, as the lab's messages say it
/// (js/core/typed-config.js says it alike: tests/js/pipeline-module.test.mjs).
#[test]
fn type_errors_show_the_value_given() {
    let said = |text: &str| {
        let e = from_text::<PipelineConfig>(text, "config").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidType, "{text}");
        (e.field, e.message)
    };
    let cases = [
        (
            r#"{"topK":"10"}"#,
            "config.topK",
            r#"expected a whole number from 0 to 4294967295, got "10""#,
        ),
        (
            r#"{"topK":-3}"#,
            "config.topK",
            "expected a whole number from 0 to 4294967295, got -3",
        ),
        (
            r#"{"topN":1.5}"#,
            "config.topN",
            "expected a whole number from 0 to 4294967295, got 1.5",
        ),
        (
            r#"{"topK":null}"#,
            "config.topK",
            "expected a whole number from 0 to 4294967295, got null",
        ),
        (r#"{"k":true}"#, "config.k", "expected a number, got true"),
        (
            r#"{"explain":[1]}"#,
            "config.explain",
            "expected a boolean, got an array",
        ),
        (
            r#"{"recency":{"steps":{}}}"#,
            "config.recency.steps",
            "expected an array, got an object",
        ),
        (
            r#"{"recency":{"mode":3}}"#,
            "config.recency.mode",
            "expected a name (a string), got 3",
        ),
        (
            r#"{"recency":{"mode":{"step":5}}}"#,
            "config.recency.mode.step",
            "expected null, got 5",
        ),
        (
            r#"{"calibration":{"method":7}}"#,
            "config.calibration.method",
            "expected a name (a string), got 7",
        ),
        (
            r#"{"calibration":"x\n\"y\u0001"}"#,
            "config.calibration",
            r#"expected an object, got "x\n\"y\u{1}""#,
        ),
        (
            r#"{"recency":{"fiscalYear":[3,2020,5]}}"#,
            "config.recency.fiscalYear",
            "expected an object, got an array of 3",
        ),
        (
            r#"{"confidence":{"weights":[1,2,3]}}"#,
            "config.confidence.weights",
            "expected an array of 5 numbers, got an array of 3",
        ),
    ];
    for (text, field, message) in cases {
        assert_eq!(
            said(text),
            (field.to_string(), message.to_string()),
            "{text}"
        );
    }
}
