//! The string API's lean path (`Pipeline::run_indexed`: what the wasm binding runs,
//! `run_indexed_docs`, with the results' ids filled in) against the full one
//! (`Pipeline::run_ref`): the same output, bit for bit, or the same
//! error (code, field and message) for every input; and both against an oracle of the
//! pipeline written out on string ids.
#![cfg(not(target_arch = "wasm32"))]

use calibrank::bands::Band;
use calibrank::limits::Limits;
use calibrank::normalize::NormalizeMethod;
use calibrank::pipeline::*;
use proptest::prelude::*;

#[path = "support/interned.rs"]
mod support;
use support::interned;

const IDS: [&str; 12] = [
    "d0",
    "d1",
    "d2",
    "d3",
    "d4",
    "d5",
    "d6",
    "d7",
    "é",
    "",
    "longer-id-9",
    "d11",
];
// The last name repeats the first: two lists of one name are refused.
const NAMES: [&str; 5] = ["semantic", "keyword", "graph", "recent", "semantic"];
const DAY: f64 = 86_400_000.0;

#[derive(Debug, Clone)]
struct Case {
    lists: Vec<(usize, Vec<usize>, Option<f64>)>,
    /// (id, modifiedAt, texts, (fiscal year, cross-encoder score))
    items: Vec<ItemCase>,
    /// The band context's task class: none, one a profile matches, another, one over the
    /// tight limits' maxTextBytes.
    context: Option<usize>,
    now: Option<f64>,
    top_n: Option<u32>,
    query: usize,
    /// 0: texts in the items; 1: held by the caller (`PoolTexts`); 2: held, and the
    /// holder fails.
    held: u8,
    /// The lists' own scores: 0 none; 1 on every list; 2 on every list, the first one
    /// short of an entry; 3 on every list, the first one with a NaN.
    scores: u8,
    /// Finite times (items' and `now`) given as ISO 8601 texts, whose bytes count against
    /// `maxTotalTextBytes`, instead of epoch milliseconds.
    iso: bool,
    /// Items given as they are, a key twice included (a borrowed input may), instead of
    /// once each.
    dups: bool,
}

type Extra = (Option<i32>, Option<f64>);
/// (id, modifiedAt, texts, (fiscal year, cross-encoder score))
type ItemCase = (usize, Option<f64>, [Option<usize>; 4], Extra);

const TASKS: [&str; 3] = ["bugfix", "docs", "a task class longer than twenty bytes"];

fn extra() -> impl Strategy<Value = Extra> {
    (
        prop_oneof![3 => Just(None), 2 => (2018i32..2027).prop_map(Some)],
        prop_oneof![
            2 => Just(None),
            6 => (-5.0f64..5.0).prop_map(Some),
            1 => Just(Some(0.5)),
            1 => Just(Some(f64::NAN))
        ],
    )
}

/// Queries (the last is empty: the heuristic reranker refuses it; the long one is over
/// the tight limits' maxTextBytes).
const QUERIES: [&str; 4] = [
    "How do I configure the graph cache?",
    "d3 UserAuth",
    "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq",
    "  ",
];
/// Item texts (name, type, summary, content take any of them).
const TEXTS: [&str; 7] = [
    "GraphCache",
    "configure the graph cache",
    "class",
    "function",
    "How do I configure the graph cache?",
    "über die Größe des Caches",
    "",
];

fn texts() -> impl Strategy<Value = [Option<usize>; 4]> {
    prop_oneof![
        2 => Just([None; 4]),
        3 => prop::array::uniform4(prop::option::weighted(0.5, 0usize..TEXTS.len())),
    ]
}

fn weight() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        12 => Just(None),
        6 => (0.0f64..3.0).prop_map(Some),
        1 => Just(Some(0.0)),
        1 => Just(Some(-1.0)),
        1 => Just(Some(f64::NAN)),
    ]
}

fn time() -> impl Strategy<Value = Option<f64>> {
    prop_oneof![
        2 => Just(None),
        // Whole days and fractions, some ties between items.
        8 => (0u32..400).prop_map(|d| Some(1.7e12 - f64::from(d) * DAY / 4.0)),
        // Rare: one in the input makes the whole input refused.
        1 => Just(Some(f64::INFINITY)),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(
            (
                0usize..4,
                prop::collection::vec(0usize..IDS.len() + 2, 0..14),
                weight(),
            ),
            0..4,
        ),
        // Items: an id of the lists or one of no list (index >= IDS.len()).
        prop::collection::vec((0usize..IDS.len() + 3, time(), texts(), extra()), 0..14),
        prop_oneof![2 => Just(None), 8 => Just(Some(1.7e12)), 1 => Just(Some(f64::NAN))],
        prop_oneof![3 => Just(None), 1 => (0u32..25).prop_map(Some)],
        prop_oneof![4 => Just(0usize), 4 => Just(1usize), 1 => Just(2usize), 1 => Just(3usize)],
        prop_oneof![6 => Just(0u8), 3 => Just(1u8), 1 => Just(2u8)],
        prop_oneof![4 => Just(None), 2 => (0usize..TASKS.len()).prop_map(Some)],
        prop_oneof![6 => Just(0u8), 6 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
        any::<bool>(),
    )
        .prop_map(
            |(lists, items, now, top_n, query, held, context, scores, iso)| Case {
                lists,
                items,
                context,
                now,
                top_n,
                query,
                held,
                scores,
                iso,
                dups: false,
            },
        )
}

/// A time as the caller gives it: its ISO 8601 text when there is one, else the number.
fn time_ref(t: Option<f64>, text: &Option<String>) -> Option<TimeRef<'_>> {
    match text {
        Some(s) => Some(TimeRef::Iso(s)),
        None => t.map(TimeRef::Millis),
    }
}

/// Epoch milliseconds as an ISO 8601 text (UTC, with milliseconds) that parses back to
/// them exactly.
fn iso_of(ms: f64) -> String {
    let t = ms as i64;
    let (days, rem) = (t.div_euclid(86_400_000), t.rem_euclid(86_400_000));
    // The civil date of a day count (Howard Hinnant's `civil_from_days`).
    let z = days + 719_468;
    let (era, doe) = (z.div_euclid(146_097), z.rem_euclid(146_097));
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let s = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    );
    assert_eq!(calibrank::timestamp::parse_iso8601(&s), Some(ms), "{s}");
    s
}

#[derive(Debug, Clone)]
struct Config {
    top_k: u32,
    top_n: u32,
    method: NormalizeMethod,
    min_relevance: f64,
    threshold: f64,
    steepness: f64,
    min_confidence: f64,
    recency: RecencyMode,
    named_weight: bool,
    /// 0: the default limits; 1: tight ones; 2: only the total text bytes bounded.
    tight: u8,
    /// 0: none, 1: heuristic, 2: cross-encoder.
    rerank: u8,
    candidate_limit: Option<u32>,
    recency_boost: f64,
    profile: bool,
    explain: bool,
    /// A confidence model over two lists: 0 none; 1 on the pipeline's fusion; 2 on its
    /// own (another RRF constant and weights).
    model: u8,
}

fn config() -> impl Strategy<Value = Config> {
    (
        1u32..20,
        1u32..20,
        prop_oneof![
            Just(NormalizeMethod::None),
            Just(NormalizeMethod::Max),
            Just(NormalizeMethod::MinMax),
            Just(NormalizeMethod::ZScore),
            Just(NormalizeMethod::Softmax),
        ],
        prop_oneof![Just(0.0), Just(0.3)],
        (0.0f64..0.08, 1.0f64..200.0),
        prop_oneof![Just(0.0), Just(0.3), 0.0f64..0.7],
        prop_oneof![
            Just(RecencyMode::None),
            Just(RecencyMode::Step),
            Just(RecencyMode::FiscalYear)
        ],
        any::<bool>(),
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 2 => Just(2u8)],
        (
            0u8..3,
            prop::option::of(1u32..8),
            any::<bool>(),
            prop_oneof![Just(0.0), Just(0.8), 0.0f64..3.0],
            any::<bool>(),
            prop_oneof![4 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
        ),
    )
        .prop_map(
            |(
                top_k,
                top_n,
                method,
                min_relevance,
                (threshold, steepness),
                min_confidence,
                recency,
                named_weight,
                tight,
                (rerank, candidate_limit, explain, recency_boost, profile, model),
            )| Config {
                top_k,
                top_n: top_n.min(top_k),
                method,
                min_relevance,
                threshold,
                steepness,
                min_confidence,
                recency,
                named_weight,
                tight,
                rerank,
                candidate_limit,
                explain,
                recency_boost,
                profile,
                model,
            },
        )
}

fn pipeline(c: &Config) -> Pipeline {
    let mut cfg = PipelineConfig {
        top_k: c.top_k,
        top_n: c.top_n,
        min_confidence: c.min_confidence,
        calibration: Calibration::Sigmoid {
            threshold: c.threshold,
            steepness: c.steepness,
        },
        explain: c.explain,
        ..Default::default()
    };
    cfg.normalization.method = c.method;
    cfg.normalization.min_relevance = c.min_relevance;
    cfg.recency.mode = c.recency;
    if c.named_weight {
        cfg.weights.insert("keyword".into(), 0.5);
    }
    cfg.rerank.method = [
        RerankMethod::None,
        RerankMethod::Heuristic,
        RerankMethod::CrossEncoder,
    ][usize::from(c.rerank)];
    cfg.rerank.candidate_limit = c.candidate_limit;
    cfg.rerank.recency_boost = c.recency_boost;
    // The merge stage's boost and the reranker's, apart.
    cfg.recency.boost = c.recency_boost / 2.0 + 0.25;
    if c.profile {
        cfg.bands.profiles.push(calibrank::bands::BandProfile {
            name: "fixes".into(),
            task_class: Some("bugfix".into()),
            language: None,
            build_system: None,
            high_floor: 0.6,
            degraded_floor: 0.2,
        });
    }
    if c.model > 0 {
        let own = c.model == 2;
        cfg.confidence.model = Some(calibrank::confidence::model::QueryConfidenceModel {
            method: "logistic".into(),
            runs: 2,
            k: 5,
            rrf_k: if own { 10.0 } else { cfg.k },
            weights: if own { vec![1.0, 2.5] } else { vec![1.0, 1.0] },
            features: calibrank::confidence::model::feature_names(2),
            mean: vec![0.0, 0.5, 0.5],
            scale: vec![1.0, 0.2, 0.3],
            coefficients: vec![0.7, 1.5, -0.8],
            intercept: 0.1,
            missing_top: vec![0.1, 0.2],
            l2: 1.0,
            training: support::placeholder_training(),
        });
    }
    match c.tight {
        1 => {
            cfg.limits = Limits {
                max_id_bytes: 2,
                max_list_length: 8,
                max_total_text_bytes: 60,
                max_text_bytes: 20,
                ..Limits::default()
            }
        }
        2 => cfg.limits.max_total_text_bytes = 180,
        _ => {}
    }
    Pipeline::new(cfg).expect("a valid configuration")
}

/// Texts held by the caller, answered by id; `asked` counts the calls.
struct Held<'a> {
    texts: Vec<(&'a str, [Option<&'a str>; 4])>,
    fail: bool,
    asked: usize,
}

impl PoolTexts for Held<'_> {
    fn texts(
        &mut self,
        _docs: &[u32],
        ids: &[&str],
    ) -> calibrank::error::Result<Vec<calibrank::rerank::CandidateText<'_>>> {
        self.asked += 1;
        if self.fail {
            return Err(calibrank::error::ScoreError::new(
                calibrank::error::ErrorCode::Internal,
                "",
                "the holder failed",
            ));
        }
        Ok(ids
            .iter()
            .map(|id| match self.texts.iter().find(|(k, _)| k == id) {
                Some(&(_, [name, entity_type, summary, content])) => {
                    calibrank::rerank::CandidateText {
                        name: name.unwrap_or(""),
                        entity_type,
                        summary,
                        content,
                    }
                }
                None => Default::default(),
            })
            .collect())
    }
}

/// An id of the case: one of `IDS`, or of no list (`item-in-no-list-<i>`).
fn id_of(i: usize, others: &[String]) -> &str {
    IDS.get(i)
        .copied()
        .unwrap_or_else(|| &others[i - IDS.len()])
}

/// A case's item keys and times, for the lean path's errors.
#[derive(Default)]
struct Detail<'a> {
    keys: Vec<&'a str>,
    times: Vec<Option<TimeRef<'a>>>,
    now: Option<TimeRef<'a>>,
}

impl InputDetail for Detail<'_> {
    fn item_key(&self, i: usize) -> &str {
        self.keys[i]
    }

    fn time(&self, item: Option<usize>) -> Option<TimeRef<'_>> {
        match item {
            Some(i) => self.times[i],
            None => self.now,
        }
    }
}

/// Both paths on one case: `(full, lean)`.
fn both(
    p: &Pipeline,
    c: &Case,
) -> (
    calibrank::error::Result<PipelineOutput>,
    calibrank::error::Result<PipelineOutput>,
) {
    let others: Vec<String> = (0..3).map(|i| format!("item-in-no-list-{i}")).collect();
    let query = QUERIES[c.query].to_string();
    // Items keyed once each (the caller's object), in the case's order.
    // (key, modifiedAt, texts)
    type Item<'a> = (&'a str, Option<f64>, [Option<&'a str>; 4], Extra);
    let mut items: Vec<Item<'_>> = Vec::new();
    for &(i, t, texts, extra) in &c.items {
        let key = id_of(i, &others);
        if c.dups || !items.iter().any(|(k, ..)| *k == key) {
            items.push((key, t, texts.map(|x| x.map(|x| TEXTS[x])), extra));
        }
    }
    // Times as ISO 8601 texts when the case gives them so: a finite one as its text, one
    // that is not as a text that does not parse (which the bindings read as NaN).
    let iso = |t: Option<f64>| {
        t.filter(|_| c.iso).map(|t| {
            if t.is_finite() {
                iso_of(t)
            } else {
                "not a time".to_string()
            }
        })
    };
    let as_read = |t: Option<f64>, text: &Option<String>| match text {
        Some(s) => Some(calibrank::timestamp::parse_iso8601(s).unwrap_or(f64::NAN)),
        None => t,
    };
    let item_isos: Vec<Option<String>> = items.iter().map(|item| iso(item.1)).collect();
    let now_iso = iso(c.now);
    let context = c.context.map(|t| calibrank::bands::BandContext {
        task_class: Some(TASKS[t].to_string()),
        ..Default::default()
    });
    let names: Vec<&str> = c.lists.iter().map(|l| NAMES[l.0]).collect();
    let weights: Vec<Option<f64>> = c.lists.iter().map(|l| l.2).collect();
    // Each list's own scores, descending with ties, when the case has them.
    let list_scores: Vec<Vec<f64>> = c
        .lists
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mut v: Vec<f64> = (0..l.1.len()).map(|j| 1.0 - (j / 2) as f64 / 8.0).collect();
            if i == 0 && c.scores == 2 {
                v.pop();
            }
            if i == 0 && c.scores == 3 && !v.is_empty() {
                v[0] = f64::NAN;
            }
            v
        })
        .collect();
    let scores_of = |i: usize| (c.scores > 0).then(|| list_scores[i].as_slice());
    let lean_scores: Vec<Option<&[f64]>> = (0..c.lists.len()).map(scores_of).collect();

    let mut full_input = InputRef {
        query: &query,
        lists: c
            .lists
            .iter()
            .zip(&names)
            .enumerate()
            .map(|(i, (l, &name))| ListRef {
                name,
                ids: l.1.iter().map(|&x| id_of(x, &others)).collect(),
                scores: scores_of(i),
                weight: l.2,
            })
            .collect(),
        items: items
            .iter()
            .zip(&item_isos)
            .map(
                |(&(k, t, [name, entity_type, summary, content], (fy, ce)), text)| {
                    (
                        k,
                        ItemRef {
                            name,
                            entity_type,
                            summary,
                            content,
                            modified_at: time_ref(t, text),
                            fiscal_year: fy,
                            cross_encoder_score: ce,
                        },
                    )
                },
            )
            .collect(),
        now: time_ref(c.now, &now_iso),
        context: context.as_ref(),
        interned: None,
        top_n: c.top_n,
    };
    // Interned as the JavaScript does it, for both paths.
    let iv = interned(&full_input);
    full_input.interned = Some(iv.clone());
    let Interned {
        ids,
        docs,
        items: item_docs,
    } = iv;
    // Held texts: the items carry none, the holder answers for the pool.
    let holder = || Held {
        texts: items.iter().map(|&(k, _, t, _)| (k, t)).collect(),
        fail: c.held == 2,
        asked: 0,
    };
    if c.held > 0 {
        for (_, item) in &mut full_input.items {
            (item.name, item.entity_type, item.summary, item.content) = (None, None, None, None);
        }
    }
    let full = if c.held > 0 {
        p.run_owned_with_texts(full_input, &mut holder())
    } else {
        p.run_ref(&full_input)
    };

    let slices: Vec<&[u32]> = docs.iter().map(Vec::as_slice).collect();
    // The ids as the bindings get them: one text (going on with other strings) and bounds.
    let mut text = String::new();
    let mut bounds = vec![0u32];
    for id in &ids {
        text.push_str(id);
        bounds.push(text.len() as u32);
    }
    text.push_str(&query);
    let lean_items: Vec<IndexedItem> = items
        .iter()
        .zip(&item_docs)
        .zip(&item_isos)
        .map(
            |((&(key, modified_ms, texts, (fiscal_year, cross_encoder)), &doc), text)| {
                IndexedItem {
                    key_bytes: key.len(),
                    time_bytes: text.as_ref().map_or(0, String::len),
                    texts: if c.held > 0 { [None; 4] } else { texts },
                    fiscal_year,
                    cross_encoder,
                    modified_ms: as_read(modified_ms, text),
                    doc,
                }
            },
        )
        .collect();
    let mut held = holder();
    let lean_input = IndexedInput {
        query: &query,
        names: &names,
        weights: &weights,
        scores: &lean_scores,
        lists: &slices,
        ids: IdTable {
            text: &text,
            bounds: &bounds,
        },
        items: &lean_items,
        now_ms: as_read(c.now, &now_iso),
        now_bytes: now_iso.as_ref().map_or(0, String::len),
        top_n: c.top_n,
        context: context.as_ref(),
    };
    // Item keys and times as given, for the errors that name them.
    let detail = Detail {
        keys: items.iter().map(|item| item.0).collect(),
        times: items
            .iter()
            .zip(&item_isos)
            .map(|(item, text)| time_ref(item.1, text))
            .collect(),
        now: time_ref(c.now, &now_iso),
    };
    let lean = if c.held > 0 {
        p.run_indexed(&lean_input, Some(&mut held), &detail)
    } else {
        p.run_indexed(&lean_input, None, &detail)
    };
    // The holder is asked at most once, as the full path asks it.
    assert!(held.asked <= 1);
    // What the bindings run (`run_indexed` is it with the ids filled in): no result's id
    // made, its document naming it.
    let mut again = holder();
    let docs_only = if c.held > 0 {
        p.run_indexed_docs(&lean_input, Some(&mut again), &detail)
    } else {
        p.run_indexed_docs(&lean_input, None, &detail)
    };
    if let Ok(d) = docs_only {
        assert!(
            d.results.iter().all(|r| r.id.is_empty()),
            "an id the bindings do not read was made"
        );
    }
    (full, lean)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn the_lean_path_answers_as_the_full_one(c in case(), cfg in config()) {
        let p = pipeline(&cfg);
        let (full, lean) = both(&p, &c);
        match (&full, &lean) {
            // Bit for bit: the Debug text of an f64 differs for different bits (NaN aside,
            // which no output holds).
            (Ok(f), Ok(l)) => prop_assert_eq!(format!("{f:?}"), format!("{l:?}")),
            // The same error: code, field and message.
            (Err(f), Err(l)) => prop_assert_eq!(f, l),
            _ => prop_assert!(false, "the paths disagree: full {full:?}, lean {lean:?}"),
        }
    }
}

#[test]
fn ids_not_cut_at_characters_are_a_wire_error() {
    let cfg = PipelineConfig {
        explain: false,
        min_confidence: 0.0,
        ..Default::default()
    };
    let p = Pipeline::new(cfg).unwrap();
    let list: &[u32] = &[0];
    let lists = [list];
    let detail = Detail::default();
    let run = |bounds: &[u32]| {
        p.run_indexed(
            &IndexedInput {
                names: &["semantic"],
                weights: &[None],
                lists: &lists,
                ids: IdTable { text: "é", bounds },
                ..Default::default()
            },
            None,
            &detail,
        )
    };
    assert_eq!(run(&[0, 2]).expect("a whole id").results[0].id, "é");
    for bounds in [&[0, 1], &[2, 0], &[0, 3]] {
        let e = run(bounds).expect_err("ids not cut at characters");
        assert_eq!(
            (e.code, e.message.as_str()),
            (calibrank::error::ErrorCode::Internal, "wire: ids")
        );
    }
}

#[test]
fn rerankers_and_explanations_take_the_lean_path() {
    let case = Case {
        lists: vec![(0, vec![0, 1, 2], None), (1, vec![2, 3], None)],
        items: vec![
            (
                0,
                Some(1.7e12),
                [Some(0), None, Some(1), None],
                (Some(2024), Some(0.2)),
            ),
            (1, None, [None; 4], (None, Some(3.5))),
            (2, None, [None; 4], (None, Some(-1.0))),
            (3, None, [None; 4], (Some(2019), Some(0.0))),
        ],
        context: None,
        now: Some(1.7e12),
        top_n: None,
        query: 0,
        iso: false,
        held: 0,
        scores: 0,
        dups: false,
    };
    let cfg = |explain: bool, rerank: RerankMethod| PipelineConfig {
        explain,
        rerank: RerankConfig {
            method: rerank,
            ..Default::default()
        },
        min_confidence: 0.0,
        ..Default::default()
    };
    for method in [
        RerankMethod::None,
        RerankMethod::Heuristic,
        RerankMethod::CrossEncoder,
    ] {
        for explain in [false, true] {
            let p = Pipeline::new(cfg(explain, method)).unwrap();
            let (full, lean) = both(&p, &case);
            let lean = lean.expect("the lean path's output");
            // Explanations (contributions, the reranker's values) when asked for.
            assert_eq!(lean.results.iter().all(|r| r.explain.is_some()), explain);
            assert_eq!(full.unwrap(), lean);
        }
    }
    // The heuristic reranker's factors are applied: the item whose name is the
    // query's subject moves up.
    let order = |method| {
        let p = Pipeline::new(cfg(false, method)).unwrap();
        let out = both(&p, &case).1.expect("the lean path's output");
        out.results.iter().map(|r| r.id.clone()).collect::<Vec<_>>()
    };
    assert_ne!(order(RerankMethod::None), order(RerankMethod::Heuristic));
    // The cross-encoder's scores decide the order: d1 (3.5) first.
    assert_eq!(order(RerankMethod::CrossEncoder)[0], "d1");
}

/// A case of one list (`semantic`, of the ids `ids`), the query "d3 UserAuth" and
/// `items`, nothing else.
fn one_list(ids: Vec<usize>, items: Vec<ItemCase>) -> Case {
    Case {
        lists: vec![(0, ids, None)],
        items,
        context: None,
        now: None,
        top_n: None,
        query: 1,
        held: 0,
        scores: 0,
        iso: false,
        dups: false,
    }
}

#[test]
fn every_string_counts_against_max_total_text_bytes() {
    // "d3 UserAuth" (11) + "semantic" (8) + "d0" (2) + the item's key "d0" (2) + its
    // name "GraphCache" (10): 33 bytes.
    let case = one_list(
        vec![0],
        vec![(0, None, [Some(0), None, None, None], (None, None))],
    );
    // And with the item's modifiedAt and `now` as ISO 8601 texts of 24 bytes each
    // ("2023-11-14T22:13:20.000Z"): 81 bytes.
    let mut dated = case.clone();
    dated.items[0].1 = Some(1.7e12);
    dated.now = Some(1.7e12);
    dated.iso = true;
    for (case, max) in [(&case, 33), (&dated, 81)] {
        for (max, accepted) in [(max, true), (max - 1, false)] {
            let mut cfg = PipelineConfig {
                explain: false,
                min_confidence: 0.0,
                ..Default::default()
            };
            cfg.limits.max_total_text_bytes = max;
            let p = Pipeline::new(cfg).unwrap();
            let (full, lean) = both(&p, case);
            assert_eq!(full.is_ok(), accepted, "{full:?}");
            assert_eq!(lean.is_ok(), accepted);
        }
    }
}

#[test]
fn an_item_in_no_list_is_neither_checked_nor_counted() {
    // The lists' strings: "d3 UserAuth" (11) + "semantic" (8) + "d0" (2).
    let listed = one_list(
        vec![0],
        vec![(0, None, [Some(0), None, None, None], (None, Some(0.5)))],
    );
    // With an item in no list ("item-in-no-list-0") that every check would refuse: a
    // cross-encoder score that is not finite, a time without `now`, its texts over the
    // limits below.
    let mut with_other = listed.clone();
    with_other.items.push((
        IDS.len(),
        Some(1.7e12),
        [Some(0), Some(0), Some(0), Some(0)],
        (Some(2020), Some(f64::NAN)),
    ));
    for method in [
        RerankMethod::None,
        RerankMethod::Heuristic,
        RerankMethod::CrossEncoder,
    ] {
        let mut cfg = PipelineConfig {
            explain: true,
            min_confidence: 0.0,
            ..Default::default()
        };
        cfg.rerank.method = method;
        // The listed item's key "d0" (2) and name "GraphCache" (10): 33 bytes in all;
        // 2 entries (a list id, an item).
        cfg.limits.max_total_text_bytes = 33;
        cfg.limits.max_total_entries = 2;
        let p = Pipeline::new(cfg).unwrap();
        let (full, lean) = both(&p, &listed);
        let want = full.expect("the listed input is accepted");
        assert_eq!(lean.as_ref(), Ok(&want));
        let (full, lean) = both(&p, &with_other);
        assert_eq!(full.as_ref(), Ok(&want), "{method:?}");
        assert_eq!(lean.as_ref(), Ok(&want), "{method:?}");
        // The same item in a list is read, and refused.
        let mut listed_too = with_other.clone();
        listed_too.lists[0].1.push(IDS.len());
        let (full, lean) = both(&p, &listed_too);
        let e = full.expect_err("the other item, listed, is read");
        assert_eq!(lean.expect_err("the lean path reads it too"), e);
    }
}

#[test]
fn a_key_given_twice_is_checked_twice_on_both_paths() {
    // d0's item twice: the first with a cross-encoder score that is not finite. Both
    // paths check every item given (the stages read the last one of a key).
    let item = |ce: f64| (0, None, [Some(0), None, None, None], (None, Some(ce)));
    let case = Case {
        dups: true,
        ..one_list(
            vec![1, 0],
            vec![
                (1, None, [None; 4], (None, Some(0.2))),
                item(f64::NAN),
                item(0.5),
            ],
        )
    };
    let p = Pipeline::new(PipelineConfig {
        min_confidence: 0.0,
        ..Default::default()
    })
    .unwrap();
    let (full, lean) = both(&p, &case);
    let e = full.expect_err("the first of the two refused");
    assert_eq!(e.field, "items.d0.crossEncoderScore");
    assert_eq!(lean.expect_err("the lean path refuses it too"), e);
    // Both fine: the same output on both paths.
    let mut fine = case.clone();
    fine.items[1] = item(0.1);
    let (full, lean) = both(&p, &fine);
    assert_eq!(full.expect("accepted"), lean.expect("accepted"));
    // Faults in two items, d1's given last: named in the order of their documents (d1
    // before d0 in the list), not in the items' order.
    let mut two = case.clone();
    two.items.rotate_left(1);
    two.items[2].3 .1 = Some(f64::INFINITY);
    let (full, lean) = both(&p, &two);
    let e = full.expect_err("refused");
    assert_eq!(e.field, "items.d1.crossEncoderScore");
    assert_eq!(lean.expect_err("refused"), e);
    // Two faulty items of one key: the first given is named (the order is stable).
    let mut twice = case.clone();
    twice.items[2] = item(f64::INFINITY);
    let (full, lean) = both(&p, &twice);
    let e = full.expect_err("refused");
    assert!(e.message.contains("NaN"), "{e:?}");
    assert_eq!(lean.expect_err("refused"), e);
}

/// The oracle's answer: each result's (id, score bits, band, explanation as its `Debug`
/// text), the stats, the confidence and the outcome (as their `Debug` text).
type Expected = (
    Vec<(String, u64, Band, String)>,
    PipelineStats,
    String,
    String,
);

/// One candidate as the oracle carries it through the stages.
struct Candidate<'a> {
    id: &'a str,
    fused: f64,
    recency: f64,
    after_recency: f64,
    rerank: RerankExplain,
    tier: f64,
    score: f64,
}

/// A case's list `i`'s own scores, as `both` gives them (descending with ties; the
/// variants `both` breaks on purpose are refused by the checks before any stage).
fn list_scores(c: &Case, i: usize) -> Option<Vec<f64>> {
    (c.scores > 0).then(|| {
        (0..c.lists[i].1.len())
            .map(|j| 1.0 - (j / 2) as f64 / 8.0)
            .collect()
    })
}

/// The pipeline written out as the module documentation of `calibrank::pipeline` states
/// it, on string ids and a map per stage, with the library's per-stage functions (the
/// recency step and tier, the heuristic reranker's factors, the cross-encoder's min-max,
/// normalization, calibration, band floors, query confidence, the confidence model's own
/// `predict` on the lists) as its only parts: an oracle for the order of the stages, the
/// pool, the cuts, the ties, the statistics and each result's explanation, independent of
/// the pipeline's code (whose two paths share their stages). Texts in the items (no
/// holder). `None` where a stage refuses (a missing cross-encoder score, a score that
/// overflows, a normalization that fails, a model the lists do not fit).
fn oracle(p: &Pipeline, c: &Case) -> Option<Expected> {
    use calibrank::bands::{select_floors, BandContext, BandFloors};
    use calibrank::confidence::model::ListView;
    use calibrank::recency::{age_days, step_multiplier};
    use calibrank::rerank::{heuristic_factors, CandidateText, PreparedQuery};
    use std::collections::HashMap;
    let cfg = p.config();
    let others: Vec<String> = (0..3).map(|i| format!("item-in-no-list-{i}")).collect();
    let query = QUERIES[c.query];
    // The items, keyed once each (the first of a repeated key, as `both` keeps them).
    type Item<'a> = (Option<f64>, [Option<&'a str>; 4], Extra);
    let mut items: HashMap<&str, Item<'_>> = HashMap::new();
    for &(i, t, texts, extra) in &c.items {
        items
            .entry(id_of(i, &others))
            .or_insert((t, texts.map(|x| x.map(|x| TEXTS[x])), extra));
    }
    let lists: Vec<Vec<&str>> = c
        .lists
        .iter()
        .map(|l| l.1.iter().map(|&i| id_of(i, &others)).collect())
        .collect();
    let weights: Vec<f64> = c
        .lists
        .iter()
        .map(|&(name, _, weight)| {
            weight.unwrap_or_else(|| cfg.weights.get(NAMES[name]).copied().unwrap_or(1.0))
        })
        .collect();
    let scores: Vec<Option<Vec<f64>>> = (0..c.lists.len()).map(|i| list_scores(c, i)).collect();
    // 1. Fuse: weighted RRF, a repeated id in a list keeps its first rank.
    let mut fused: Vec<(&str, f64, u32)> = Vec::new(); // (id, score, lists it is in)
    let mut stats = PipelineStats {
        lists: c.lists.len() as u32,
        ..Default::default()
    };
    for (list, &w) in lists.iter().zip(&weights) {
        let mut seen: Vec<&str> = Vec::new();
        let mut dup = 0;
        for (pos, &id) in list.iter().enumerate() {
            if seen.contains(&id) {
                dup += 1;
                continue;
            }
            seen.push(id);
            let term = w / (cfg.k + (pos + 1) as f64);
            match fused.iter_mut().find(|f| f.0 == id) {
                Some(f) => {
                    f.1 += term;
                    f.2 += 1;
                }
                None => fused.push((id, 0.0 + term, 1)),
            }
        }
        stats.duplicates.push(dup);
    }
    stats.candidates = fused.len() as u32;
    stats.in_several_lists = fused.iter().filter(|f| f.2 > 1).count() as u32;
    // 2. Recency, 3. the topK pool (score after recency descending, id ascending).
    let rc = &cfg.recency;
    let mut pool: Vec<Candidate<'_>> = fused
        .iter()
        .map(|&(id, s, _)| {
            let m = match (rc.mode, items.get(id)) {
                (RecencyMode::Step, Some(&(Some(t), _, _))) => match c.now {
                    Some(now) => step_multiplier(&rc.steps, age_days(t, now)),
                    None => 1.0,
                },
                (RecencyMode::FiscalYear, Some(&(_, _, (Some(fy), _)))) => {
                    rc.fiscal_year.multiplier(fy, rc.boost)
                }
                _ => 1.0,
            };
            Candidate {
                id,
                fused: s,
                recency: m,
                after_recency: s * m,
                rerank: RerankExplain::None,
                tier: 1.0,
                score: s * m,
            }
        })
        .collect();
    pool.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(b.id)));
    stats.beyond_top_k = pool.len().saturating_sub(cfg.top_k as usize) as u32;
    pool.truncate(cfg.top_k as usize);
    // 4. Rerank, then the fiscal-year boost.
    let rr = &cfg.rerank;
    if rr.method != RerankMethod::None {
        if let Some(limit) = rr.candidate_limit {
            stats.beyond_candidate_limit = pool.len().saturating_sub(limit as usize) as u32;
            pool.truncate(limit as usize);
        }
        match rr.method {
            RerankMethod::Heuristic => {
                let q = PreparedQuery::new(query, rr.heuristic.stopwords.as_deref());
                for cand in &mut pool {
                    let [name, entity_type, summary, content] =
                        items.get(cand.id).map_or([None; 4], |i| i.1);
                    let text = CandidateText {
                        name: name.unwrap_or(""),
                        entity_type,
                        summary,
                        content,
                    };
                    let factors = heuristic_factors(&q, text, &rr.heuristic);
                    cand.score *= factors.multiplier;
                    cand.rerank = RerankExplain::Heuristic { factors };
                }
            }
            RerankMethod::CrossEncoder => {
                let raw: Vec<f64> = pool
                    .iter()
                    .map(|cand| items.get(cand.id).and_then(|i| i.2 .1))
                    .collect::<Option<_>>()?;
                let normalized = calibrank::rerank::cross_encoder_normalize(&raw);
                for ((cand, &raw), n) in pool.iter_mut().zip(&raw).zip(normalized) {
                    cand.score = n;
                    cand.rerank = RerankExplain::CrossEncoder { raw, normalized: n };
                }
            }
            RerankMethod::None => {}
        }
        for cand in &mut pool {
            if let Some(&(_, _, (Some(fy), _))) = items.get(cand.id) {
                cand.tier = rc.fiscal_year.multiplier(fy, rr.recency_boost);
                cand.score *= cand.tier;
            }
        }
        if pool.iter().any(|cand| !cand.score.is_finite()) {
            return None;
        }
    }
    // 5. Normalize, minRelevance; 6. calibrate, minConfidence.
    let reranked: Vec<f64> = pool.iter().map(|cand| cand.score).collect();
    let normalized = calibrank::normalize::normalize(
        &reranked,
        cfg.normalization.method,
        cfg.normalization.temperature,
    )
    .ok()?;
    let mut kept: Vec<(&Candidate<'_>, f64, f64)> = Vec::new();
    for (cand, n) in pool.iter().zip(normalized) {
        if cfg.normalization.method != calibrank::normalize::NormalizeMethod::None
            && n < cfg.normalization.min_relevance
        {
            stats.below_min_relevance += 1;
            continue;
        }
        let cal = cfg.calibration.apply(n);
        if cal < cfg.min_confidence {
            stats.below_min_confidence += 1;
            continue;
        }
        kept.push((cand, n, cal));
    }
    // 7. Order, topN; bands and confidence.
    kept.sort_by(|a, b| {
        b.2.total_cmp(&a.2)
            .then(b.1.total_cmp(&a.1))
            .then(a.0.id.cmp(b.0.id))
    });
    let top_n = c.top_n.unwrap_or(cfg.top_n) as usize;
    stats.beyond_top_n = kept.len().saturating_sub(top_n) as u32;
    kept.truncate(top_n);
    let ctx = c.context.map_or(BandContext::default(), |t| BandContext {
        task_class: Some(TASKS[t].to_string()),
        ..Default::default()
    });
    let defaults = BandFloors {
        high_floor: cfg.bands.high_floor,
        degraded_floor: cfg.bands.degraded_floor,
    };
    let (floors, profile) = select_floors(defaults, &cfg.bands.profiles, &ctx);
    stats.band_profile = profile.map(str::to_string);
    let mut results = Vec::new();
    for &(cand, normalized, cal) in &kept {
        let band = floors.band(cal);
        match band {
            Band::Hit => stats.hits += 1,
            Band::Degraded => stats.degraded += 1,
            Band::Miss => stats.misses += 1,
        }
        // Each list that holds the id, at its first rank there.
        let contributions: Vec<Contribution> = lists
            .iter()
            .enumerate()
            .filter_map(|(li, list)| {
                let pos = list.iter().position(|&id| id == cand.id)?;
                let rank = pos as u32 + 1;
                Some(Contribution {
                    list: NAMES[c.lists[li].0].to_string(),
                    rank,
                    weight: weights[li],
                    contribution: weights[li] / (cfg.k + f64::from(rank)),
                    list_score: scores[li].as_ref().map(|s| s[pos]),
                })
            })
            .collect();
        let explain = cfg.explain.then(|| Explain {
            contributions,
            fused: cand.fused,
            recency_multiplier: cand.recency,
            after_recency: cand.after_recency,
            rerank: cand.rerank.clone(),
            rerank_recency_multiplier: cand.tier,
            after_rerank: cand.score,
            normalized,
            calibrated: cal,
            band,
            band_profile: profile.map(str::to_string),
        });
        results.push((
            cand.id.to_string(),
            cal.to_bits(),
            band,
            format!("{explain:?}"),
        ));
    }
    stats.returned = results.len() as u32;
    let cals: Vec<f64> = kept.iter().map(|k| k.2).collect();
    let mut confidence =
        calibrank::confidence::confidence_of_sorted(&cals, &cfg.confidence.options());
    // A confidence model: its own prediction for the lists (its own fusion of them).
    let outcome = match &cfg.confidence.model {
        Some(model) => {
            let views: Vec<ListView<'_, &str>> = lists
                .iter()
                .zip(&scores)
                .map(|(ids, s)| ListView {
                    ids,
                    scores: s.as_deref(),
                })
                .collect();
            let p = model.predict(&views).ok()?;
            confidence.at_least_one_relevant = p;
            cfg.confidence.outcome(p, OutcomeSource::Model)
        }
        None => cfg
            .confidence
            .outcome(confidence.at_least_one_relevant, OutcomeSource::RankOnly),
    };
    Some((
        results,
        stats,
        format!("{confidence:?}"),
        format!("{outcome:?}"),
    ))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Both paths against the oracle, on every input the full path accepts (texts in
    /// the items: the oracle has no holder).
    #[test]
    fn both_paths_answer_as_the_oracle(c in case(), cfg in config()) {
        let c = Case { held: 0, ..c };
        let p = pipeline(&cfg);
        let (full, lean) = both(&p, &c);
        let Ok(full) = full else { return Ok(()) };
        let want = oracle(&p, &c);
        prop_assert!(want.is_some(), "the oracle refused an input the pipeline accepts: {full:?}");
        let (results, stats, confidence, outcome) = want.unwrap_or_default();
        prop_assert!(lean.is_ok(), "the lean path refused an input the full path accepts");
        for out in [Some(&full), lean.as_ref().ok()].into_iter().flatten() {
            let got: Vec<(String, u64, Band, String)> = out
                .results
                .iter()
                .map(|r| (r.id.clone(), r.score.to_bits(), r.band, format!("{:?}", r.explain)))
                .collect();
            prop_assert_eq!(&got, &results);
            prop_assert_eq!(&out.stats, &stats);
            prop_assert_eq!(format!("{:?}", out.confidence), confidence.clone());
            prop_assert_eq!(format!("{:?}", out.outcome), outcome.clone());
        }
    }
}
