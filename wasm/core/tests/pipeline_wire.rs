//! `Pipeline.run` (operation 13) through the module's own reader, natively: random
//! inputs encoded as js/core/pipeline-input.js `encodeInput` encodes them (each distinct
//! id once, first in the string table; the lists as indices; items as a table), run
//! through the dispatch, and compared with the Rust API's `Pipeline::run_ref` on the same
//! input: the same results (score bits), bands, confidence, stats and outcome, or the
//! same error (code, field and message). This checks the reader (`read_input`), the
//! errors it names in reading (`input_fault`) and the lean path together against the
//! full path of the Rust API, which shares none of that code.
#![cfg(not(target_arch = "wasm32"))]

use calibrank::bands::{Band, BandContext};
use calibrank::error::ScoreError;
use calibrank::pipeline::{InputRef, ItemRef, ListRef, Pipeline, PipelineConfig, TimeRef};
use calibrank_wasm_core::cr_call;
use calibrank_wasm_shared::error_json;
use calibrank_wasm_shared::native::{output, set_input};
use calibrank_wasm_shared::wire::{Reader, Writer};
use proptest::prelude::*;

const NEW: u32 = 10;
const FREE: u32 = 11;
const RUN: u32 = 13;

const POOL: [&str; 9] = ["a", "b", "c", "d", "é", "", "x/y#1", "long-id-07", "e"];
const NAMES: [&str; 4] = ["semantic", "keyword", "graph", "semantic"];
const QUERIES: [&str; 3] = ["auth token cache", "GraphCache", " "];
const TEXTS: [&str; 4] = ["GraphCache", "configure the auth token cache", "über", ""];
const DAY: f64 = 86_400_000.0;
const NOW: f64 = 1.7e12;

#[derive(Debug, Clone)]
enum Time {
    Ms(f64),
    Iso(String),
}

#[derive(Debug, Clone)]
struct Item {
    key: usize,
    texts: [Option<usize>; 4],
    modified: Option<Time>,
    /// A whole number but in the tests below, which send one that is not.
    fiscal_year: Option<f64>,
    cross_encoder: Option<f64>,
}

#[derive(Debug, Clone)]
struct Case {
    config: String,
    query: usize,
    lists: Vec<(usize, Vec<usize>, Option<f64>, u8)>,
    items: Vec<Item>,
    now: Option<Time>,
    context: Option<&'static str>,
    top_n: Option<u32>,
    /// Every id of the pool given an item (with a cross-encoder score) when the case's
    /// items leave it out: the cross-encoder reranker then has a score for every
    /// candidate.
    fill: bool,
}

fn time() -> impl Strategy<Value = Time> {
    prop_oneof![
        24 => (0u32..400).prop_map(|d| Time::Ms(NOW - f64::from(d) * DAY / 4.0)),
        // Whole days before `NOW` (2023-11-14T22:13:20Z), most on or next to the default
        // recency steps' boundaries (7 and 30 days), one after it.
        12 => prop_oneof![
            Just("11-07"), Just("11-08"), Just("10-15"), Just("10-16"), Just("11-14"), Just("11-20")
        ]
        .prop_map(|day| Time::Iso(format!("2023-{day}T22:13:20Z"))),
        1 => Just(Time::Iso("not a date".into())),
        1 => Just(Time::Ms(f64::INFINITY)),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    (
        0usize..POOL.len() + 2,
        prop::array::uniform4(prop::option::weighted(0.3, 0usize..TEXTS.len())),
        prop::option::weighted(0.6, time()),
        prop::option::weighted(0.3, prop_oneof![Just(2019.0), Just(2024.0)]),
        prop::option::weighted(
            0.4,
            prop_oneof![6 => Just(0.5), 6 => Just(-2.0), 6 => Just(3.5), 1 => Just(f64::INFINITY)],
        ),
    )
        .prop_map(|(key, texts, modified, fiscal_year, cross_encoder)| Item {
            key,
            texts,
            modified,
            fiscal_year,
            cross_encoder,
        })
}

fn config() -> impl Strategy<Value = String> {
    (
        1u32..12,
        prop_oneof!["none", "step", "fiscal_year"],
        prop_oneof!["none", "heuristic", "cross_encoder"],
        prop_oneof!["none", "max", "min_max", "softmax"],
        any::<bool>(),
        prop_oneof![4 => Just(""), 1 => Just(r#","limits":{"maxIdBytes":9,"maxTextBytes":24,"maxTotalTextBytes":120,"maxListLength":6}"#)],
    )
        .prop_map(|(top_k, recency, rerank, method, weights, limits)| {
            let weights = if weights { r#","weights":{"keyword":2}"# } else { "" };
            format!(
                r#"{{"topK":{top_k},"topN":{},"minConfidence":0,"explain":false,"recency":{{"mode":"{recency}"}},"rerank":{{"method":"{rerank}"}},"normalization":{{"method":"{method}"}}{weights}{limits}}}"#,
                top_k.min(5)
            )
        })
}

fn case() -> impl Strategy<Value = Case> {
    (
        config(),
        prop_oneof![6 => Just(0usize), 6 => Just(1usize), 1 => Just(2usize)],
        prop::collection::vec(
            (
                prop_oneof![6 => Just(0usize), 1 => Just(3usize)],
                prop::collection::vec(0usize..POOL.len(), 0..9),
                prop::option::weighted(
                    0.2,
                    prop_oneof![3 => Just(0.0), 3 => Just(2.0), 1 => Just(-1.0)],
                ),
                // 0: no scores; 1: scores; 2: scores one short.
                prop_oneof![12 => Just(0u8), 6 => Just(1u8), 1 => Just(2u8)],
            ),
            0..4,
        ),
        prop::collection::vec(item(), 0..8),
        // `now`: mostly `NOW` itself, as a number or a text (whole-day ages then fall
        // on the recency steps' boundaries).
        prop::option::weighted(
            0.8,
            prop_oneof![
                6 => Just(Time::Ms(NOW)),
                3 => Just(Time::Iso("2023-11-14T22:13:20Z".into())),
                2 => time(),
            ],
        ),
        prop::option::weighted(0.3, prop_oneof![Just("bugfix"), Just("docs")]),
        prop::option::weighted(
            0.2,
            prop_oneof![8 => 1u32..3, 1 => Just(0u32), 1 => Just(9u32)],
        ),
        any::<bool>(),
    )
        .prop_map(
            |(config, query, mut lists, items, now, context, top_n, fill)| {
                // Each list its own name, but where the case picked the last (a repeat
                // of the first: two lists of one name are refused).
                for (i, l) in lists.iter_mut().enumerate() {
                    if l.0 != 3 {
                        l.0 = i;
                    }
                }
                Case {
                    config,
                    query,
                    lists,
                    items,
                    now,
                    context,
                    top_n,
                    fill,
                }
            },
        )
}

/// An item key of the case: one of `POOL`, or of no list.
fn key_of(i: usize) -> String {
    POOL.get(i)
        .map_or_else(|| format!("item-in-no-list-{i}"), |s| s.to_string())
}

fn scores_of(list: &(usize, Vec<usize>, Option<f64>, u8)) -> Option<Vec<f64>> {
    let n = list.1.len() + usize::from(list.3 == 2);
    (list.3 > 0).then(|| (0..n).map(|j| 1.0 - j as f64 / 16.0).collect())
}

/// The items of a case, each key once (the first), as a caller's object holds them.
fn items_of(c: &Case) -> Vec<(String, Item)> {
    let mut out: Vec<(String, Item)> = Vec::new();
    for it in &c.items {
        let key = key_of(it.key);
        if !out.iter().any(|(k, _)| *k == key) {
            out.push((key, it.clone()));
        }
    }
    if c.fill {
        for (i, id) in POOL.iter().enumerate() {
            if !out.iter().any(|(k, _)| k == id) {
                let item = Item {
                    key: i,
                    texts: [None; 4],
                    modified: None,
                    fiscal_year: None,
                    cross_encoder: Some(i as f64 / 4.0 - 1.0),
                };
                out.push((id.to_string(), item));
            }
        }
    }
    out
}

fn time_ref(t: &Time) -> TimeRef<'_> {
    match t {
        Time::Ms(ms) => TimeRef::Millis(*ms),
        Time::Iso(s) => TimeRef::Iso(s),
    }
}

/// Numbers as their bits (outputs compared bit for bit).
fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

/// What the module answers: `Ok` the output's sections as comparable text, `Err` the
/// error's JSON; and the bytes of the call's string table.
fn module_run(c: &Case) -> (Result<String, String>, usize) {
    module_run_with(c, None)
}

/// [`module_run`] with an item in no list (key `unlisted`) sent first, as the package
/// never sends one: the module must not read it.
fn module_run_with(c: &Case, unlisted: Option<&Item>) -> (Result<String, String>, usize) {
    let mut w = Writer::default();
    w.opt_text(Some(&c.config));
    set_input(w.bytes());
    cr_call(NEW, w.bytes().len() as u32);
    let (status, out) = output();
    assert_eq!(status, 0, "{}", String::from_utf8_lossy(&out));
    let h = Reader::new(&out).u32s().expect("the handle")[0];

    // The string table: the distinct ids in order of first occurrence, then the query,
    // the list names, the items' texts, `now`.
    let mut strs: Vec<String> = Vec::new();
    let mut docs = Vec::new();
    let mut table = Vec::new();
    for (_, ids, _, _) in &c.lists {
        for &i in ids {
            let id = POOL[i].to_string();
            let d = match strs.iter().position(|s| *s == id) {
                Some(d) => d,
                None => {
                    strs.push(id);
                    strs.len() - 1
                }
            };
            docs.push(d as u32);
        }
    }
    let n_docs = strs.len();
    let mut head = vec![strs.len() as f64, 0.0, 0.0, n_docs as f64, 0.0, f64::NAN];
    strs.push(QUERIES[c.query].to_string());
    let mut weights = Vec::new();
    let mut scores = Vec::new();
    let mut at = 0u32;
    for list in &c.lists {
        let (name, ids, weight, _) = list;
        let mut flags = 0;
        let mut n_scores = 0;
        if let Some(w) = weight {
            flags |= 1;
            weights.push(*w);
        } else {
            weights.push(0.0);
        }
        if let Some(s) = scores_of(list) {
            flags |= 2;
            n_scores = s.len() as u32;
            scores.extend(s);
        }
        table.extend([strs.len() as u32, at, ids.len() as u32, flags, n_scores]);
        strs.push(NAMES[*name].to_string());
        at += ids.len() as u32;
    }
    let mut item_table = Vec::new();
    let mut item_nums = Vec::new();
    // As js/core/pipeline-input.js sends them: looked up by the lists' ids, in the
    // order of first occurrence (an item in no list is not read).
    let items = items_of(c);
    let listed: Vec<(usize, Item)> = (0..n_docs)
        .filter_map(|d| {
            let (_, it) = items.iter().find(|(k, _)| *k == strs[d])?;
            Some((d, it.clone()))
        })
        .collect();
    let rows = unlisted
        .map(|it| (usize::MAX, it.clone()))
        .into_iter()
        .chain(listed);
    for (d, it) in rows {
        let mut t = [0u32; 8];
        if d == usize::MAX {
            (t[0], t[7]) = (strs.len() as u32, u32::MAX);
            strs.push("unlisted".to_string());
        } else {
            (t[0], t[7]) = (d as u32, d as u32);
        }
        let mut nums = [0.0; 3];
        for (f, text) in it.texts.iter().enumerate() {
            if let Some(x) = text {
                t[1] |= 1 << f;
                t[2 + f] = strs.len() as u32;
                strs.push(TEXTS[*x].to_string());
            }
        }
        match &it.modified {
            Some(Time::Ms(ms)) => {
                t[1] |= 16;
                nums[0] = *ms;
            }
            Some(Time::Iso(s)) => {
                t[1] |= 32;
                t[6] = strs.len() as u32;
                strs.push(s.clone());
            }
            None => {}
        }
        if let Some(fy) = it.fiscal_year {
            t[1] |= 64;
            nums[1] = fy;
        }
        if let Some(x) = it.cross_encoder {
            t[1] |= 128;
            nums[2] = x;
        }
        item_table.extend(t);
        item_nums.extend(nums);
    }
    match &c.now {
        Some(Time::Ms(ms)) => (head[1], head[2]) = (1.0, *ms),
        Some(Time::Iso(s)) => {
            (head[1], head[2]) = (2.0, strs.len() as f64);
            strs.push(s.clone());
        }
        None => {}
    }
    if let Some(n) = c.top_n {
        head[5] = f64::from(n);
    }
    let context = c.context.map(|t| format!(r#"{{"taskClass":"{t}"}}"#));

    let mut w = Writer::default();
    w.u32s(&[h]);
    w.strs(strs.iter().map(String::as_str));
    w.f64s(&head);
    w.u32s(&table);
    w.u32s(&docs);
    w.f64s(&weights);
    w.f64s(&scores);
    w.u32s(&item_table);
    w.f64s(&item_nums);
    w.opt_text(context.as_deref());
    set_input(w.bytes());
    cr_call(RUN, w.bytes().len() as u32);
    let (status, out) = output();
    let answer = if status == 0 {
        let mut r = Reader::new(&out);
        let ids: Vec<&str> = r
            .u32s()
            .expect("docs")
            .iter()
            .map(|&d| strs[d as usize].as_str())
            .collect();
        let scores = bits(r.f64s().expect("scores"));
        let bands = r.u8s().expect("bands").to_vec();
        let confidence = bits(r.f64s().expect("confidence"));
        let stats = r.u32s().expect("stats").to_vec();
        let duplicates = r.u32s().expect("duplicates").to_vec();
        let profile = r.opt_text().expect("profile").map(str::to_string);
        r.opt_u32s().expect("explanations");
        r.opt_f64s().expect("explanations");
        let outcome = r.u8s().expect("outcome").to_vec();
        Ok(format!("{ids:?} {scores:?} {bands:?} {confidence:?} {stats:?} {duplicates:?} {profile:?} {outcome:?}"))
    } else {
        // The error's code, field and message, shown as the JSON they were sent as
        // before 2026-11-29 (`error_json`).
        let mut r = Reader::new(&out);
        let [code, field, message] = [(); 3].map(|()| r.text().expect("a text"));
        let json = |x: &str| serde_json::to_string(x).expect("a string");
        Err(format!(
            r#"{{"code":{},"field":{},"message":{}}}"#,
            json(code),
            json(field),
            json(message)
        ))
    };
    let mut w = Writer::default();
    w.u32s(&[h]);
    set_input(w.bytes());
    cr_call(FREE, w.bytes().len() as u32);
    (answer, strs.iter().map(String::len).sum())
}

/// What the Rust API answers for the same case, in the form of [`module_run`].
fn rust_run(c: &Case) -> Result<String, ScoreError> {
    let config: PipelineConfig = serde_json::from_str(&c.config).expect("a configuration");
    let p = Pipeline::new(config).expect("a valid configuration");
    let items = items_of(c);
    let scores: Vec<Option<Vec<f64>>> = c.lists.iter().map(scores_of).collect();
    let context = c.context.map(|t| BandContext {
        task_class: Some(t.to_string()),
        ..Default::default()
    });
    let input = InputRef {
        query: QUERIES[c.query],
        lists: c
            .lists
            .iter()
            .zip(&scores)
            .map(|((name, ids, weight, _), s)| ListRef {
                name: NAMES[*name],
                ids: ids.iter().map(|&i| POOL[i]).collect(),
                scores: s.as_deref(),
                weight: *weight,
            })
            .collect(),
        items: items
            .iter()
            .map(|(key, it)| {
                let [name, entity_type, summary, content] = it.texts.map(|t| t.map(|x| TEXTS[x]));
                (
                    key.as_str(),
                    ItemRef {
                        name,
                        entity_type,
                        summary,
                        content,
                        modified_at: it.modified.as_ref().map(time_ref),
                        fiscal_year: it.fiscal_year.map(|fy| fy as i32),
                        cross_encoder_score: it.cross_encoder,
                    },
                )
            })
            .collect(),
        now: c.now.as_ref().map(time_ref),
        context: context.as_ref(),
        interned: None,
        top_n: c.top_n,
    };
    let out = p.run_ref(&input)?;
    let band = |b: Band| match b {
        Band::Miss => 0u8,
        Band::Degraded => 1,
        Band::Hit => 2,
    };
    let ids: Vec<&str> = out.results.iter().map(|r| r.id.as_str()).collect();
    let scores = bits(&out.results.iter().map(|r| r.score).collect::<Vec<_>>());
    let bands: Vec<u8> = out.results.iter().map(|r| band(r.band)).collect();
    let q = &out.confidence;
    let confidence = bits(&[
        q.weighted_top5,
        q.expected_precision,
        q.at_least_one_relevant,
        f64::from(q.k),
    ]);
    let s = &out.stats;
    let stats = vec![
        s.lists,
        s.candidates,
        s.in_several_lists,
        s.beyond_top_k,
        s.beyond_candidate_limit,
        s.below_min_relevance,
        s.below_min_confidence,
        s.beyond_top_n,
        s.returned,
        s.hits,
        s.degraded,
        s.misses,
    ];
    let outcome: Vec<u8> = vec![
        match out.outcome.kind {
            calibrank::pipeline::OutcomeKind::Abstain => 0,
            calibrank::pipeline::OutcomeKind::Hedge => 1,
            calibrank::pipeline::OutcomeKind::Answer => 2,
        },
        u8::from(out.outcome.source == calibrank::pipeline::OutcomeSource::Model),
    ];
    Ok(format!(
        "{ids:?} {scores:?} {bands:?} {confidence:?} {stats:?} {:?} {:?} {outcome:?}",
        s.duplicates, s.band_profile
    ))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_module_answers_as_the_rust_api(c in case()) {
        let (module, table_bytes) = module_run(&c);
        let rust = rust_run(&c);
        let max_total = if c.config.contains("maxTotalTextBytes") { 120 } else { usize::MAX };
        if table_bytes > max_total {
            // The call's strings over maxTotalTextBytes: the module reports the first
            // fault in the order it reads the sections (the number of lists, a list's
            // length, the string at which its table crosses the limit: each distinct id
            // once there, ISO 8601 times too); the Rust API counts every list entry's id
            // and the same times, so its strings are over too: it refuses the input as
            // well, with this error or one of its checks made before it (`topN`, ...).
            let m = module.expect_err("a string table over the limit");
            prop_assert!(m.contains("\"code\":\"INPUT_TOO_LARGE\""), "{m}");
            prop_assert!(rust.is_err(), "module {m}, Rust API {rust:?}");
            return Ok(());
        }
        match (&module, &rust) {
            (Ok(m), Ok(r)) => prop_assert_eq!(m, r),
            // The module's errors name a configuration value within `config`.
            (Err(m), Err(e)) => prop_assert!(
                *m == error_json(e) || *m == error_json(&e.clone().within("config")),
                "module {m}, Rust API {}", error_json(e)
            ),
            _ => prop_assert!(false, "module {module:?}, Rust API {rust:?}"),
        }
    }
}

/// A case of one list (`a`, `b`) and one item, `a`, for the tests below.
fn one_item(config: &str, item: Item) -> Case {
    Case {
        config: config.to_string(),
        query: 0,
        lists: vec![(0, vec![0, 1], None, 0)],
        items: vec![item],
        now: Some(Time::Ms(NOW)),
        context: None,
        top_n: None,
        fill: false,
    }
}

const PLAIN: &str = r#"{"minConfidence":0,"recency":{"mode":"fiscal_year"}}"#;

#[test]
fn a_fiscal_year_that_is_not_a_whole_number_is_named() {
    let item = |fy| Item {
        key: 0,
        texts: [None; 4],
        modified: None,
        fiscal_year: Some(fy),
        cross_encoder: None,
    };
    assert!(module_run(&one_item(PLAIN, item(2024.0))).0.is_ok());
    for fy in [2024.5, 1e10, f64::NAN] {
        let e = module_run(&one_item(PLAIN, item(fy)))
            .0
            .expect_err("refused");
        assert!(
            e.starts_with(r#"{"code":"INVALID_TYPE","field":"items.a.fiscalYear","message":"expected a whole number (a year)"#),
            "{e}"
        );
    }
}

#[test]
fn an_item_in_no_list_is_not_read_by_the_module() {
    let item = |fy| Item {
        key: 0,
        texts: [Some(0), None, None, None],
        modified: None,
        fiscal_year: Some(fy),
        cross_encoder: None,
    };
    // A row of an item in no list, with a fiscal year the module would refuse: unread.
    let want = module_run(&one_item(PLAIN, item(2024.0))).0;
    assert!(want.is_ok(), "{want:?}");
    assert_eq!(
        module_run_with(&one_item(PLAIN, item(2024.0)), Some(&item(2024.5))).0,
        want
    );
    // With the listed item's fiscal year refused as well, the error names the listed
    // item, not the row before it.
    let e = module_run_with(&one_item(PLAIN, item(2024.5)), Some(&item(1e10)))
        .0
        .expect_err("refused");
    assert!(
        e.starts_with(r#"{"code":"INVALID_TYPE","field":"items.a.fiscalYear","message":"expected a whole number (a year), got 2024.5"#),
        "{e}"
    );
    // A fault the pipeline's checks name by the item's index in the table (a score that
    // is not finite): the unlisted row keeps the listed item's index.
    let scored = |x| Item {
        cross_encoder: Some(x),
        ..item(2024.0)
    };
    let e = module_run_with(&one_item(PLAIN, scored(f64::NAN)), Some(&scored(0.5)))
        .0
        .expect_err("refused");
    assert!(
        e.starts_with(r#"{"code":"NON_FINITE_SCORE","field":"items.a.crossEncoderScore""#),
        "{e}"
    );
}

#[test]
fn strings_over_max_total_text_bytes_are_named_where_they_cross_it() {
    // The query (16 bytes), the ids (1 + 1), the list name (8), then the item's name
    // (10) and summary (30): 66 bytes in all, crossing 50 at the summary.
    let config = r#"{"minConfidence":0,"limits":{"maxTotalTextBytes":50}}"#;
    let item = Item {
        key: 0,
        texts: [Some(0), None, Some(1), None],
        modified: None,
        fiscal_year: None,
        cross_encoder: None,
    };
    let e = module_run(&one_item(config, item.clone()))
        .0
        .expect_err("refused");
    assert!(
        e.starts_with(r#"{"code":"INPUT_TOO_LARGE","field":"items.a.summary","message":"the total length of the strings in bytes is 66, above the limit of 50"#),
        "{e}"
    );
    // Within it, the pipeline's own count (each list entry's id and each item key: the
    // key `a` once more, 67 bytes) decides.
    let config = r#"{"minConfidence":0,"limits":{"maxTotalTextBytes":67}}"#;
    let answer = module_run(&one_item(config, item)).0;
    assert!(answer.is_ok(), "{answer:?}");
}
