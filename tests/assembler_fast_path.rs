//! The fast reader of content deltas only reads: every stream gives the same update batches,
//! snapshot, tool calls, mirror and error with it and without it
//! (`AssemblerOptions::with_general_path_only`), in tolerant and strict mode, at several
//! chunkings (`assembler_harness::check` compares the two for every input it is given, so the
//! random streams and the fuzz crash inputs are covered too). Here: the reference captures, and
//! streams made of the events at the fast path's edges.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod assembler_harness;

use std::path::Path;

use agentwire::codec::Format;
use assembler_harness::{check, run_reading, Config};
use serde_json::{json, Value};

const CONFIG: Config = Config {
    strict: false,
    format: Format::Auto,
    max_event_bytes: None,
};

fn sse(events: &[Value]) -> Vec<u8> {
    events
        .iter()
        .map(|e| format!("data: {e}\n\n"))
        .collect::<String>()
        .into_bytes()
}

/// Cuts every `step` bytes.
fn cuts(len: usize, step: usize) -> Vec<usize> {
    (step..len).step_by(step).collect()
}

/// Checks `input` whole, cut every 7 and every 61 bytes.
fn check_all(name: &str, input: &[u8]) {
    for step in [input.len().max(1), 7, 61] {
        if let Err(e) = check(input, CONFIG, &cuts(input.len(), step)) {
            panic!("{name} (cut every {step} bytes): {e}");
        }
    }
}

#[test]
fn reference_captures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reference/sse");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        check_all(&path.display().to_string(), &std::fs::read(&path).unwrap());
        seen += 1;
    }
    assert!(
        seen >= 5,
        "reference captures missing from {}",
        dir.display()
    );
}

fn response(seq: i64, status: &str) -> Value {
    json!({"sequence_number": seq, "object": "response", "status": status, "id": "r1"})
}

fn message(seq: i64, id: &str, kind: &str, status: &str) -> Value {
    json!({"sequence_number": seq, "object": "message", "status": status, "id": id, "type": kind, "role": "assistant"})
}

fn text(seq: i64, id: &str, index: i64, piece: &str) -> Value {
    json!({"sequence_number": seq, "object": "content", "status": "in_progress", "type": "text", "index": index, "delta": true, "msg_id": id, "text": piece})
}

fn arguments(seq: i64, id: &str, piece: &str) -> Value {
    json!({"sequence_number": seq, "object": "content", "type": "data", "index": 0, "delta": true, "msg_id": id, "data": {"arguments": piece}})
}

/// Each stream puts one kind of event the fast reader reads (or declines) at a point where
/// the general path decides something: a new part, another status, a completed part or
/// message, another type, a replay, an unknown message, an index out of range, the end.
#[test]
fn the_fast_paths_edges() {
    let call_start = |seq| json!({"sequence_number": seq, "object": "content", "status": "in_progress", "type": "data", "index": 0, "delta": false, "msg_id": "c1", "data": {"call_id": "k1", "name": "f", "arguments": ""}});
    let base = |extra: Vec<Value>| {
        let mut events = vec![
            response(0, "created"),
            response(1, "in_progress"),
            message(2, "m1", "message", "in_progress"),
            text(3, "m1", 0, "Hel"),
            text(4, "m1", 0, "lo"),
            message(5, "c1", "function_call", "in_progress"),
            call_start(6),
            arguments(7, "c1", "{\"a\":"),
        ];
        events.extend(extra);
        events
    };
    let with_status = |status: &str| {
        let mut delta = text(8, "m1", 0, " there");
        delta["status"] = json!(status);
        delta
    };
    let streams: Vec<(&str, Vec<Value>)> = vec![
        (
            "plain",
            base(vec![arguments(8, "c1", "1}"), response(9, "completed")]),
        ),
        (
            "a delta with status completed",
            base(vec![with_status("completed"), text(9, "m1", 0, "!")]),
        ),
        (
            "a delta with status failed",
            base(vec![with_status("failed"), text(9, "m1", 0, "!")]),
        ),
        (
            "a delta with status canceled",
            base(vec![with_status("canceled")]),
        ),
        (
            "a delta without status",
            base(vec![{
                let mut d = text(8, "m1", 0, "!");
                d.as_object_mut().unwrap().remove("status");
                d
            }]),
        ),
        (
            "a delta with another field",
            base(vec![{
                let mut d = text(8, "m1", 0, "!");
                d["extra"] = json!({"k": 1});
                d
            }]),
        ),
        (
            "a delta with a null text",
            base(vec![{
                let mut d = text(8, "m1", 0, "");
                d["text"] = Value::Null;
                d
            }]),
        ),
        (
            "a delta for a new part",
            base(vec![text(8, "m1", 1, "new")]),
        ),
        (
            "a delta for a part out of range",
            base(vec![text(8, "m1", 5000, "far"), text(9, "m1", -1, "neg")]),
        ),
        (
            "a delta for an unknown message",
            base(vec![text(8, "m9", 0, "who")]),
        ),
        (
            "a text delta on a data part",
            base(vec![text(8, "c1", 0, "text")]),
        ),
        (
            "arguments on a text part",
            base(vec![arguments(8, "m1", "x")]),
        ),
        (
            "a replayed delta",
            base(vec![text(4, "m1", 0, "lo"), arguments(7, "c1", "{\"a\":")]),
        ),
        (
            "a delta after the part completed",
            base(vec![
                json!({"sequence_number": 8, "object": "content", "status": "completed", "type": "text", "index": 0, "delta": false, "msg_id": "m1", "text": "Hello"}),
                text(9, "m1", 0, "late"),
            ]),
        ),
        (
            "a delta after the message completed",
            base(vec![
                message(8, "m1", "message", "completed"),
                text(9, "m1", 0, "late"),
            ]),
        ),
        (
            "arguments after the call completed",
            base(vec![
                message(8, "c1", "function_call", "completed"),
                arguments(9, "c1", "1}"),
            ]),
        ),
        (
            "arguments onto non-string arguments",
            base(vec![
                json!({"sequence_number": 8, "object": "content", "type": "data", "index": 0, "delta": false, "msg_id": "c1", "data": {"call_id": "k1", "name": "f", "arguments": {"a": 1}}}),
                arguments(9, "c1", "x"),
            ]),
        ),
        (
            "arguments of a message that is not a call",
            base(vec![
                message(8, "d1", "message", "in_progress"),
                json!({"sequence_number": 9, "object": "content", "type": "data", "index": 0, "delta": false, "msg_id": "d1", "data": {"arguments": "a"}}),
                arguments(10, "d1", "b"),
            ]),
        ),
        (
            "a delta after the end",
            base(vec![
                response(8, "completed"),
                text(9, "m1", 0, "late"),
                arguments(10, "c1", "1}"),
            ]),
        ),
        (
            "deltas without sequence numbers",
            base(vec![{
                let mut d = text(8, "m1", 0, "!");
                d.as_object_mut().unwrap().remove("sequence_number");
                d
            }]),
        ),
    ];
    for (name, events) in streams {
        check_all(name, &sse(&events));
    }
}

/// The comparison itself can fail: a stream whose events the fast reader reads at all gives
/// batches, and the two runs are compared on them.
#[test]
fn the_comparison_sees_the_batches() {
    let input = sse(&[
        response(0, "created"),
        message(1, "m1", "message", "in_progress"),
        text(2, "m1", 0, "a"),
        text(3, "m1", 0, "b"),
    ]);
    let fast = run_reading(&input, CONFIG, &[], true, false).unwrap();
    let general = run_reading(&input, CONFIG, &[], true, true).unwrap();
    assert!(fast.batches.contains("Text"), "{}", fast.batches);
    assert_eq!(fast.batches, general.batches);
}

/// Replays every file of `AGENTWIRE_REPLAY_DIR` (e.g. a fuzz corpus of the `push` target)
/// through the same checks: `AGENTWIRE_REPLAY_DIR=fuzz/corpus/push cargo test --release
/// --test assembler_fast_path -- --ignored`.
#[test]
#[ignore]
fn replay_a_directory() {
    let Ok(dir) = std::env::var("AGENTWIRE_REPLAY_DIR") else {
        panic!("set AGENTWIRE_REPLAY_DIR");
    };
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        if let Some((config, cuts, stream)) = assembler_harness::decode_fuzz_input(&data) {
            if let Err(e) = check(stream, config, &cuts) {
                panic!("{}: {e}", path.display());
            }
            seen += 1;
        }
    }
    eprintln!("replayed {seen} inputs");
}
