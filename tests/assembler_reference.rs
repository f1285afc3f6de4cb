//! The assembler against streams produced by the real reference implementation
//! (`agentscope-runtime` 1.1.6.post2; see `scripts/reference/gen_corpus.py`): whatever the
//! chunking, the assembled `output` equals the reference's own final `output` (ignoring the
//! stale nested fields the reference leaves), the outcome matches its terminal status, and the
//! same stream cut before its terminal event gives `truncated` with every message so far.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::PathBuf;

use agentwire::assembler::{AssemblerOptions, StreamAssembler, Update};
use serde_json::Value;

fn corpus_dir() -> PathBuf {
    match std::env::var_os("AGENTWIRE_CORPUS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reference"),
    }
}

/// Every reference SSE stream of the corpus.
fn streams() -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir().join("sse");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sse"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    // Streams the reference's builder and runner produced, kept as one payload per line.
    let dir = corpus_dir().join("events");
    for path in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let is_stream = (name.starts_with("builder_") || name.starts_with("runner_"))
            && name.ends_with(".jsonl")
            && !name.ends_with(".exclude_none.jsonl");
        if is_stream {
            let text = std::fs::read_to_string(&path).unwrap();
            let sse: String = text.lines().map(|l| format!("data: {l}\n\n")).collect();
            out.push((name, sse.into_bytes()));
        }
    }
    out.sort();
    assert!(out.len() >= 8, "corpus has too few streams");
    out
}

/// The `data:` payloads of a reference stream (which uses only `data: …\n\n`).
fn payloads(stream: &[u8]) -> Vec<Value> {
    std::str::from_utf8(stream)
        .unwrap()
        .split("\n\n")
        .filter_map(|e| e.strip_prefix("data: "))
        .map(|p| serde_json::from_str(p).unwrap())
        .collect()
}

/// Removes the fields the reference leaves stale inside `output` (DESIGN.md: nested
/// `sequence_number`, `status`, `delta`; `index`/`msg_id` null after `add_content`).
fn normalize_output(output: &Value) -> Value {
    let mut output = output.clone();
    for message in output.as_array_mut().into_iter().flatten() {
        let parts = message.get_mut("content").and_then(Value::as_array_mut);
        for (i, part) in parts.into_iter().flatten().enumerate() {
            let part = part.as_object_mut().unwrap();
            part.remove("sequence_number");
            part.remove("status");
            part.remove("delta");
            if part.get("index").is_some_and(Value::is_null) {
                part.insert("index".into(), Value::from(i));
            }
            part.remove("msg_id");
        }
    }
    output
}

fn assemble(stream: &[u8], cuts: &[usize]) -> (StreamAssembler, Vec<Update>) {
    let mut asm = StreamAssembler::new(AssemblerOptions::new());
    let mut updates = Vec::new();
    let mut start = 0;
    for &cut in cuts.iter().chain(std::iter::once(&stream.len())) {
        updates.extend(asm.push(&stream[start..cut]).unwrap());
        start = cut;
    }
    updates.extend(asm.finish().unwrap());
    (asm, updates)
}

/// Deterministic pseudo-random cut points (xorshift), sizes 1..=max.
fn random_cuts(len: usize, max: usize, seed: u64) -> Vec<usize> {
    let mut state = seed | 1;
    let mut cuts = Vec::new();
    let mut at = 0;
    loop {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        at += 1 + (state as usize) % max;
        if at >= len {
            return cuts;
        }
        cuts.push(at);
    }
}

fn expected_outcome(last: &Value) -> &'static str {
    match (
        last.get("object").and_then(Value::as_str),
        last.get("status").and_then(Value::as_str),
    ) {
        (Some("response"), Some("completed")) => "completed",
        (Some("response"), Some("failed")) => "failed",
        (None, _) if last.get("error").is_some() => "failed",
        _ => "truncated",
    }
}

#[test]
fn output_equals_the_reference_output_at_every_chunking() {
    for (name, stream) in streams() {
        let events = payloads(&stream);
        let last = events.last().unwrap();
        let reference_output = last.get("output").filter(|o| !o.is_null());
        let mut chunkings: Vec<Vec<usize>> = vec![vec![], (1..stream.len()).collect()];
        for seed in 1..=8 {
            chunkings.push(random_cuts(stream.len(), 1 + seed as usize * 7, seed));
        }
        let mut first: Option<Value> = None;
        for cuts in &chunkings {
            let (asm, _) = assemble(&stream, cuts);
            let snapshot = asm.snapshot();
            assert_eq!(
                snapshot["outcome"],
                expected_outcome(last),
                "{name}: outcome"
            );
            if let Some(reference_output) = reference_output {
                assert_eq!(
                    normalize_output(&snapshot["output"]),
                    normalize_output(reference_output),
                    "{name}: output with {} cuts",
                    cuts.len()
                );
            }
            match &first {
                None => first = Some(snapshot),
                Some(first) => {
                    assert_eq!(first, &snapshot, "{name}: chunking changed the snapshot")
                }
            }
        }
        let snapshot = first.unwrap();
        if last.get("object").and_then(Value::as_str) == Some("response") {
            for key in [
                "id",
                "status",
                "session_id",
                "created_at",
                "completed_at",
                "error",
                "usage",
            ] {
                assert_eq!(snapshot[key], last[key], "{name}: response.{key}");
            }
        }
    }
}

#[test]
fn cut_before_the_terminal_event_is_truncated_with_every_message() {
    for (name, stream) in streams() {
        let events = payloads(&stream);
        let Some(end) = stream
            .windows(2)
            .rposition(|w| w == b"\n\n")
            .and_then(|last_end| {
                stream[..last_end]
                    .windows(2)
                    .rposition(|w| w == b"\n\n")
                    .map(|p| p + 2)
            })
        else {
            continue;
        };
        let cut = &stream[..end];
        let (asm, _) = assemble(cut, &random_cuts(cut.len(), 9, 3));
        let snapshot = asm.snapshot();
        assert_eq!(snapshot["outcome"], "truncated", "{name}");
        let announced: Vec<&str> = events[..events.len() - 1]
            .iter()
            .filter_map(|e| match e.get("object").and_then(Value::as_str) {
                Some("message") => e.get("id").and_then(Value::as_str),
                Some("content") => e.get("msg_id").and_then(Value::as_str),
                _ => None,
            })
            .collect();
        let ids: Vec<&str> = snapshot["output"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_str().unwrap())
            .collect();
        for id in announced {
            assert!(
                ids.contains(&id),
                "{name}: message {id} missing after truncation"
            );
        }
        assert!(
            snapshot["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w["code"] == "TRUNCATED"),
            "{name}: no TRUNCATED warning"
        );
    }
}

#[test]
fn folded_updates_rebuild_the_snapshot_text() {
    for (name, stream) in streams() {
        let (asm, updates) = assemble(&stream, &random_cuts(stream.len(), 40, 11));
        let mut texts: std::collections::HashMap<(String, usize), String> = Default::default();
        for update in updates {
            if let Update::Text {
                message_id,
                index,
                delta,
                replace,
            } = update
            {
                let text = texts.entry((message_id, index)).or_default();
                if replace {
                    text.clear();
                }
                text.push_str(&delta);
            }
        }
        let snapshot = asm.snapshot();
        for message in snapshot["output"].as_array().unwrap() {
            for part in message["content"].as_array().into_iter().flatten() {
                if part["type"] == "text" {
                    let key = (
                        message["id"].as_str().unwrap().to_owned(),
                        part["index"].as_u64().unwrap() as usize,
                    );
                    let folded = texts.get(&key).map(String::as_str).unwrap_or("");
                    assert_eq!(
                        folded,
                        part["text"].as_str().unwrap_or(""),
                        "{name} {key:?}"
                    );
                }
            }
        }
    }
}
