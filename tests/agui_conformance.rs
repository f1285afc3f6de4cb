//! The published AG-UI conformance corpus (`../shared/conformance/ag-ui/streams`, beside the
//! repository: [`conformance_dir`]), run
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]
//! natively through `agui::Client`: every `expect` key a consumer can observe is checked.
//! The JS twin (`tests/js/agui-conformance.test.mjs`) runs the same corpus through the built
//! package as SSE bytes.

use std::path::{Path, PathBuf};

use agentwire::agui::{Changes, Client, RunAgentInput};
use serde_json::{json, Value};

/// Fixtures not applicable to a consumer of the stream, with the reason.
const SKIPPED: &[(&str, &str)] = &[
    (
        "current-peer-declares-protocol-version",
        "request-side only, and pins the 1.1 client's protocolVersion '1.1'; agentwire speaks 1.0",
    ),
    (
        "era-0-0-39-flattens-content",
        "request-side downgrade for a pinned 0.0.39 peer (translation the spec only permits)",
    ),
    (
        "era-0-0-57-subagent-dropped-with-warning",
        "version-gated downgrade for a pinned 0.0.57 peer (translation the spec only permits)",
    ),
    (
        "era-pinned-peer-omits-protocol-version",
        "request-side only: what a pinned client sends",
    ),
];

fn subset(expected: &Value, actual: &Value, path: &str) -> Result<(), String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, v) in e {
                let Some(av) = a.get(k) else {
                    return Err(format!("{path}.{k}: missing"));
                };
                subset(v, av, &format!("{path}.{k}"))?;
            }
            Ok(())
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                return Err(format!("{path}: length {} != {}", a.len(), e.len()));
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                subset(ev, av, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        (e, a) if e == a => Ok(()),
        (e, a) => Err(format!("{path}: {a} != {e}")),
    }
}

fn lookup<'a>(events: &'a [Value], key: &str) -> Option<&'a Value> {
    let mut parts = key.split('.');
    let index: usize = parts.next()?.parse().ok()?;
    let mut at = events.get(index)?;
    for p in parts {
        at = match at {
            Value::Array(items) => items.get(p.parse::<usize>().ok()?)?,
            other => other.get(p)?,
        };
    }
    Some(at)
}

fn run_fixture(fixture: &Value) -> Result<(), String> {
    let mut client = Client::new().with_event_recording(true);
    let mut changes = Changes::default();
    let stream = fixture["stream"].as_array().ok_or("no stream")?;
    for raw in stream {
        let _ = client.push(raw.clone(), &mut changes);
    }
    let expect = &fixture["expect"];
    let rejected = client.rejection().map(|e| e.message().to_owned());
    let warnings: Vec<String> = changes.warnings.iter().map(|w| w.message.clone()).collect();
    let events = &changes.events;
    let messages = serde_json::to_value(client.messages()).map_err(|e| e.to_string())?;
    for (key, want) in expect.as_object().ok_or("no expect")? {
        match key.as_str() {
            "outcome" => {
                let got = if rejected.is_some() {
                    "failed"
                } else {
                    "completed"
                };
                if want != got {
                    return Err(format!("outcome {got} (rejection: {rejected:?})"));
                }
            }
            "errorContains" => {
                let needle = want.as_str().unwrap_or_default();
                if !rejected.as_deref().unwrap_or("").contains(needle) {
                    return Err(format!("error {rejected:?} lacks {needle:?}"));
                }
            }
            "runError" => {
                let found = events.iter().any(|e| {
                    e["type"] == "RUN_ERROR"
                        && match want {
                            Value::String(s) => {
                                e["message"].as_str().unwrap_or("").contains(s.as_str())
                            }
                            _ => true,
                        }
                });
                if !found {
                    return Err("no RUN_ERROR delivered".into());
                }
            }
            "eventTypes" => {
                let got: Vec<&Value> = events.iter().map(|e| &e["type"]).collect();
                let want: Vec<&Value> = want.as_array().unwrap().iter().collect();
                if got != want {
                    return Err(format!("eventTypes {got:?}"));
                }
            }
            "eventTypesAbsent" => {
                for t in want.as_array().unwrap() {
                    if events.iter().any(|e| &e["type"] == t) {
                        return Err(format!("{t} delivered"));
                    }
                }
            }
            "eventPaths" => {
                for (path, value) in want.as_object().unwrap() {
                    if lookup(events, path) != Some(value) {
                        return Err(format!("eventPaths {path}: {:?}", lookup(events, path)));
                    }
                }
            }
            "eventAbsentPaths" => {
                for path in want.as_array().unwrap() {
                    if lookup(events, path.as_str().unwrap()).is_some() {
                        return Err(format!("eventAbsentPaths {path} present"));
                    }
                }
            }
            "warnings" => {
                for needle in want.as_array().unwrap() {
                    let needle = needle.as_str().unwrap();
                    if !warnings.iter().any(|w| w.contains(needle)) {
                        return Err(format!("no warning contains {needle:?}: {warnings:?}"));
                    }
                }
            }
            "noWarnings" => {
                if want == true && !warnings.is_empty() {
                    return Err(format!("warnings: {warnings:?}"));
                }
            }
            "messageCount" => {
                if messages.as_array().map(Vec::len) != want.as_u64().map(|n| n as usize) {
                    return Err(format!("messageCount: {messages}"));
                }
            }
            "messages" => subset(want, &messages, "messages")?,
            "state" => subset(want, client.state(), "state")?,
            "request" => {
                // What a client would send for the fixture's input: legacy parts upgraded.
                let mut input = fixture.get("input").cloned().unwrap_or(json!({}));
                input["threadId"] = json!("t");
                input["runId"] = json!("r");
                input["protocolVersion"] = json!("1.0");
                if input.get("messages").is_none() {
                    input["messages"] = json!([]);
                }
                let (input, _) =
                    RunAgentInput::from_value_with_warnings(input).map_err(|e| e.to_string())?;
                subset(want, &serde_json::to_value(input).unwrap(), "request")?;
            }
            other => return Err(format!("unknown expect key {other}")),
        }
    }
    Ok(())
}

/// Conformance suite `name`: the suites live outside the repository, in
/// `<repo root>/../shared/conformance` (`AGENTWIRE_CONFORMANCE` names another directory holding
/// them), and are read from there, never copied in.
fn conformance_dir(name: &str) -> PathBuf {
    let base = match std::env::var_os("AGENTWIRE_CONFORMANCE") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"),
    };
    let dir = base.join(name);
    assert!(
        dir.is_dir(),
        "conformance suite {name} not found at {}: the suites live in <repo root>/../shared/conformance \
         (set AGENTWIRE_CONFORMANCE to their directory)",
        dir.display()
    );
    dir
}

#[test]
fn conformance_corpus() {
    let dir = conformance_dir("ag-ui").join("streams");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    let (mut passed, mut skipped, mut failed) = (0, 0, Vec::new());
    for path in &names {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if SKIPPED.iter().any(|(n, _)| *n == name) {
            skipped += 1;
            continue;
        }
        let fixture: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        match run_fixture(&fixture) {
            Ok(()) => passed += 1,
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "ag-ui conformance: {passed} passed, {skipped} skipped, {} failed",
        failed.len()
    );
    assert!(failed.is_empty(), "failures:\n{}", failed.join("\n"));
    assert_eq!(passed + skipped, names.len());
}
