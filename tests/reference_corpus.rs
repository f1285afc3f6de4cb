//! Differential test against the reference implementation's own output.
//!
//! The corpus in `tests/fixtures/reference/` was produced by `scripts/reference/gen_corpus.py`
//! driving the real `agentscope-runtime` 1.1.6.post2 (builder, runner, FastAPI `/process`,
//! `Message` helpers, merge rules, pydantic request validation). Set `AGENTWIRE_CORPUS_DIR` to
//! check a freshly generated corpus instead (`scripts/reference/check.sh` does).
//!
//! Files named `known_gaps*` hold inputs agentwire deliberately cannot reproduce byte for byte
//! (integers beyond 64 bits, the integer literal `-0`); they must still parse.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::fs;
use std::path::PathBuf;

use agentwire::protocol::json::to_pydantic_json;
use agentwire::protocol::{
    merge_data_incrementally, merge_delta_lossy, parse_event, parse_request, Content, Event,
    JsonMap, JsonOptions, Message,
};
use agentwire::ErrorCode;
use serde_json::Value;

fn corpus_dir() -> PathBuf {
    match std::env::var_os("AGENTWIRE_CORPUS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reference"),
    }
}

fn read_lines(path: &PathBuf) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .map(str::to_owned)
        .collect()
}

fn records(name: &str) -> Vec<Value> {
    read_lines(&corpus_dir().join(name))
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Collects failures so that one run reports all of them.
#[derive(Default)]
struct Report {
    checked: usize,
    failures: Vec<String>,
}

impl Report {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checked += 1;
        if !ok {
            self.failures.push(what());
        }
    }

    fn finish(self, label: &str) {
        eprintln!(
            "{label}: {} checks, {} failures",
            self.checked,
            self.failures.len()
        );
        assert!(self.checked > 0, "{label}: empty corpus");
        if !self.failures.is_empty() {
            panic!("{label}:\n{}", self.failures.join("\n\n"));
        }
    }
}

#[test]
fn events_round_trip_byte_for_byte() {
    let dir = corpus_dir().join("events");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".jsonl") && !n.ends_with(".exclude_none.jsonl")
        })
        .collect();
    files.sort();
    let mut report = Report::default();
    let mut events = 0;
    for file in &files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let lines = read_lines(file);
        let excl = read_lines(&dir.join(format!("{stem}.exclude_none.jsonl")));
        assert_eq!(lines.len(), excl.len(), "{stem}: files not line-aligned");
        let gaps = stem.starts_with("known_gaps");
        for (i, (line, want_excl)) in lines.iter().zip(&excl).enumerate() {
            events += 1;
            let event = match parse_event(line) {
                Ok(e) => e,
                Err(e) => {
                    report.check(false, || {
                        format!("{stem}:{}: parse failed: {e:?}\n{line}", i + 1)
                    });
                    continue;
                }
            };
            if gaps {
                continue;
            }
            let got = event.to_json();
            report.check(&got == line, || {
                format!("{stem}:{}: to_json differs\nwant {line}\ngot  {got}", i + 1)
            });
            let via_serde = serde_json::to_string(&event).unwrap();
            let plain_floats = !line.contains("e+");
            report.check(
                !plain_floats || matches!(event, Event::ServerError(_)) || &via_serde == line,
                || {
                    format!(
                        "{stem}:{}: serde_json::to_string differs\nwant {line}\ngot  {via_serde}",
                        i + 1
                    )
                },
            );
            let got = event.to_json_with(JsonOptions::new().omit_nulls(true));
            report.check(&got == want_excl, || {
                format!(
                    "{stem}:{}: omit_nulls differs\nwant {want_excl}\ngot  {got}",
                    i + 1
                )
            });
        }
    }
    eprintln!("{} event lines in {} files", events, files.len());
    report.finish("events");
}

/// Replaces every `msg_<uuid4>` by `msg_<uuid>`: ids the reference generated at random.
fn normalize_ids(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find("\"msg_") {
        let (head, tail) = rest.split_at(p + 5);
        out.push_str(head);
        let cand = tail.get(..36).unwrap_or("");
        let is_uuid = cand.len() == 36
            && cand.char_indices().all(|(i, c)| {
                if matches!(i, 8 | 13 | 18 | 23) {
                    c == '-'
                } else {
                    c.is_ascii_hexdigit()
                }
            })
            && tail.get(36..37) == Some("\"");
        if is_uuid {
            out.push_str("<uuid>");
            rest = &tail[36..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn requests_accepted_and_rejected_like_pydantic() {
    let mut report = Report::default();
    let mut message_mismatches = Vec::new();
    for rec in records("requests.jsonl") {
        let name = rec["name"].as_str().unwrap();
        let body = rec["body"].as_str().unwrap();
        let got = parse_request(body);
        if rec["ok"].as_bool().unwrap() {
            match got {
                Ok(req) => {
                    let want = normalize_ids(rec["dump"].as_str().unwrap());
                    let dump = normalize_ids(&req.to_json());
                    report.check(dump == want, || {
                        format!("{name}: dump differs\nwant {want}\ngot  {dump}")
                    });
                    let want = normalize_ids(rec["dump_exclude_none"].as_str().unwrap());
                    let dump =
                        normalize_ids(&req.to_json_with(JsonOptions::new().omit_nulls(true)));
                    report.check(dump == want, || {
                        format!("{name}: exclude_none dump differs\nwant {want}\ngot  {dump}")
                    });
                }
                Err(e) => report.check(false, || {
                    format!("{name}: rejected but the reference accepts: {e:?}")
                }),
            }
        } else {
            let loc = rec["loc"].as_str().unwrap();
            let msg = rec["msg"].as_str().unwrap();
            match got {
                Ok(req) => report.check(false, || {
                    format!(
                        "{name}: accepted but the reference rejects at {loc}: {}",
                        req.to_json()
                    )
                }),
                Err(e) => {
                    report.check(e.code() == ErrorCode::InvalidRequest, || {
                        format!("{name}: code {:?}, want INVALID_REQUEST", e.code())
                    });
                    let field = e.field().unwrap_or("");
                    report.check(field == loc, || {
                        format!("{name}: field {field:?}, want {loc:?} ({e:?})")
                    });
                    let want = if loc.is_empty() {
                        msg.to_owned()
                    } else {
                        format!("{loc}: {msg}")
                    };
                    if e.message() != want {
                        message_mismatches
                            .push(format!("{name}: {:?} vs reference {want:?}", e.message()));
                    }
                }
            }
        }
    }
    if !message_mismatches.is_empty() {
        eprintln!(
            "message wording differs (location matches):\n  {}",
            message_mismatches.join("\n  ")
        );
    }
    report.finish("requests");
}

fn map(v: &Value) -> JsonMap {
    v.as_object().cloned().unwrap()
}

#[test]
fn merge_rules_match_the_reference() {
    let mut report = Report::default();
    for rec in records("merge.jsonl") {
        let name = rec["name"].as_str().unwrap();
        let (base, delta) = (map(&rec["base"]), map(&rec["delta"]));
        let got = to_pydantic_json(&merge_data_incrementally(&base, &delta));
        let want = rec["builder"].as_str().unwrap();
        report.check(got == want, || {
            format!("{name}: builder rule\nwant {want}\ngot  {got}")
        });
        if let Some(want) = rec["lossy"].as_str() {
            let mut stored = base.clone();
            merge_delta_lossy(&mut stored, &delta);
            let got = to_pydantic_json(&stored);
            report.check(got == want, || {
                format!("{name}: lossy rule\nwant {want}\ngot  {got}")
            });
        }
    }
    report.finish("merge");
}

fn content_of(arg: &Value) -> Content {
    serde_json::from_value(arg.clone()).unwrap()
}

#[test]
fn message_helpers_match_the_reference() {
    let mut report = Report::default();
    for rec in records("message_helpers.jsonl") {
        let name = rec["name"].as_str().unwrap();
        let mut msg: Message = serde_json::from_str(rec["message"].as_str().unwrap()).unwrap();
        for (i, op) in rec["ops"].as_array().unwrap().iter().enumerate() {
            let kind = op["op"].as_str().unwrap();
            let arg = &op["arg"];
            let want_err = !op["error"].is_null();
            let (result, err): (Option<String>, bool) = match kind {
                "add_delta_content" => {
                    let mut c = content_of(arg);
                    match msg.add_delta_content(&mut c) {
                        Ok(true) => (Some(c.to_json()), false),
                        Ok(false) => (None, false),
                        Err(_) => (None, true),
                    }
                }
                "add_content" => {
                    let mut c = content_of(arg);
                    (msg.add_content(&mut c).then(|| c.to_json()), false)
                }
                "content_completed" => (
                    msg.content_completed(arg.as_u64().unwrap() as usize)
                        .map(|c| c.to_json()),
                    false,
                ),
                "get_text_content" => (
                    Some(serde_json::to_string(&msg.get_text_content()).unwrap()),
                    false,
                ),
                "get_image_content" => (
                    Some(serde_json::to_string(&msg.get_image_content()).unwrap()),
                    false,
                ),
                "get_audio_content" => (
                    Some(serde_json::to_string(&msg.get_audio_content()).unwrap()),
                    false,
                ),
                other => panic!("unknown op {other}"),
            };
            let want_result = op["result"].as_str().map(|s| {
                // Python json.dumps(..., ensure_ascii=False) uses ", " between list items.
                if kind.starts_with("get_") {
                    s.replace(", ", ",")
                } else {
                    s.to_owned()
                }
            });
            report.check(err == want_err, || {
                format!(
                    "{name} op {i} {kind}: error {err}, reference error {:?}",
                    op["error"]
                )
            });
            if !want_err {
                report.check(result == want_result, || {
                    format!("{name} op {i} {kind}: result\nwant {want_result:?}\ngot  {result:?}")
                });
            }
            let want_msg = op["message"].as_str().unwrap();
            let got_msg = msg.to_json();
            report.check(got_msg == want_msg, || {
                format!("{name} op {i} {kind}: message\nwant {want_msg}\ngot  {got_msg}")
            });
        }
    }
    report.finish("message helpers");
}

#[test]
fn sse_bodies_are_the_event_lines() {
    // The raw /process bodies: every `data: ` payload parses (codec-free check).
    let dir = corpus_dir().join("sse");
    let mut n = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        for block in text.split("\n\n") {
            if let Some(payload) = block.strip_prefix("data: ") {
                let event =
                    parse_event(payload).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
                assert_eq!(event.to_json(), payload, "{}", path.display());
                n += 1;
            }
        }
    }
    assert!(n > 0);
}
