//! The golden vectors of the lab's functions (`fuseRuns`, `evaluate`, `fit`), and the
//! whole golden file (see [`crate::golden`], which computes the core's cases).

use crate::error::Result;
use crate::golden::{bits, cases, f64s};
use serde_json::{json, Value};

/// Computes the expected output of one case, the lab's or the core's (the `expected`
/// member is ignored).
pub fn compute(case: &Value) -> Result<Value> {
    let kind = case["kind"].as_str().unwrap_or("");
    Ok(match kind {
        "fuseRuns" => {
            let runs: Vec<crate::lab::runs::Run> =
                crate::error::from_json(&case["runs"].to_string(), "runs")?;
            let opts: crate::lab::runfusion::FuseRunsOptions =
                crate::error::from_json(&case["options"].to_string(), "options")?;
            let fused = crate::lab::runfusion::fuse_runs(&runs, &opts)?;
            json!(fused
                .iter()
                .map(|(q, docs)| (
                    q.clone(),
                    Value::Object(
                        docs.iter()
                            .map(|(d, s)| (d.clone(), json!(bits(*s))))
                            .collect()
                    )
                ))
                .collect::<serde_json::Map<_, _>>())
        }
        "evaluate" => {
            let qrels: crate::lab::runs::Qrels =
                crate::error::from_json(&case["qrels"].to_string(), "qrels")?;
            let run: crate::lab::runs::Run =
                crate::error::from_json(&case["run"].to_string(), "run")?;
            let metrics: Vec<String> =
                crate::error::from_json(&case["metrics"].to_string(), "metrics")?;
            let names: Vec<&str> = metrics.iter().map(String::as_str).collect();
            let ev = crate::lab::eval::evaluate(&qrels, &run, &names)?;
            json!(ev
                .means
                .iter()
                .map(|(m, v)| (m.clone(), json!(bits(*v))))
                .collect::<serde_json::Map<_, _>>())
        }
        "fit" => {
            let (s, l) = (f64s(&case["scores"]), f64s(&case["labels"]));
            let p = crate::lab::fit::fit_platt(&s, &l)?;
            let iso = crate::lab::fit::fit_isotonic(&s, &l)?;
            let probe = f64s(&case["probe"]);
            json!({
                "platt": [bits(p.a), bits(p.b)],
                "isotonic": probe.iter().map(|&x| bits(iso.predict(x))).collect::<Vec<_>>(),
            })
        }
        "queryConfidence" => query_confidence(case)?,
        _ => return crate::golden::compute(case),
    })
}

/// Fits the model, predicts every query, and runs one query through a `Pipeline` with
/// the model: every number as bits, the outcome kinds as they are.
fn query_confidence(case: &Value) -> Result<Value> {
    use crate::pipeline::{Pipeline, PipelineConfig, PipelineInput};
    let runs: Vec<crate::lab::runs::Run> =
        crate::error::from_json(&case["runs"].to_string(), "runs")?;
    let qrels: crate::lab::runs::Qrels =
        crate::error::from_json(&case["qrels"].to_string(), "qrels")?;
    let opts: crate::lab::fit::FitQueryConfidenceOptions =
        crate::error::from_json(&case["options"].to_string(), "options")?;
    let model = crate::lab::fit::fit_query_confidence(&qrels, &runs, &opts)?;
    let all = |v: &[f64]| v.iter().map(|&x| bits(x)).collect::<Vec<_>>();
    let predictions = crate::lab::fit::predict_query_confidence(&model, &runs)?;
    let mut outcomes = Vec::new();
    for q in ["q00", "q01", "q11", "q16"] {
        let lists: Vec<Value> = runs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let ranked = crate::lab::fit::ranked(r, q);
                let v = ranked.view();
                json!({"name": format!("run{i}"), "ids": v.ids, "scores": v.scores})
            })
            .collect();
        let mut confidence: crate::pipeline::PipelineConfidence =
            crate::error::from_json(&case["outcome"].to_string(), "outcome")?;
        confidence.model = Some(model.clone());
        let cfg = PipelineConfig {
            min_confidence: 0.0,
            explain: false,
            confidence,
            ..Default::default()
        };
        let input: PipelineInput =
            crate::error::from_json(&json!({"lists": lists}).to_string(), "input")?;
        let out = Pipeline::new(cfg)?.run(&input)?;
        outcomes.push(json!([
            q,
            bits(out.confidence.at_least_one_relevant),
            out.outcome.kind
        ]));
    }
    Ok(json!({
        "coefficients": all(&model.coefficients),
        "intercept": bits(model.intercept),
        "mean": all(&model.mean),
        "scale": all(&model.scale),
        "missingTop": all(&model.missing_top),
        "training": [model.training.queries, model.training.positives, bits(model.training.log_loss), bits(model.training.auroc)],
        "predictions": predictions.iter().map(|(q, p)| (q.clone(), json!(bits(*p)))).collect::<serde_json::Map<_, _>>(),
        "pipeline": outcomes,
    }))
}

/// The golden file: every case with its expected output.
pub fn generate() -> Result<Value> {
    let mut all = Vec::new();
    for mut case in cases() {
        let expected = compute(&case)?;
        if let Some(obj) = case.as_object_mut() {
            obj.insert("expected".into(), expected);
        }
        all.push(case);
    }
    Ok(
        json!({ "format": "calibrank golden vectors v1; floats in `expected` are IEEE-754 bit patterns (hex)", "cases": all }),
    )
}
