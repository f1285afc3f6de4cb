//! The assembler's semantics decisions (DESIGN.md), one case each, with exact codes.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use agentwire::assembler::{AssemblerOptions, Op, PathSegment, StreamAssembler, Update};
use agentwire::codec::Limits;
use agentwire::ErrorCode;
use serde_json::{json, Value};

fn sse(events: &[Value]) -> Vec<u8> {
    events
        .iter()
        .map(|e| format!("data: {e}\n\n"))
        .collect::<String>()
        .into_bytes()
}

fn response(seq: i64, status: &str) -> Value {
    json!({"sequence_number": seq, "object": "response", "status": status, "error": null,
           "id": "resp_1", "created_at": 1700000000, "completed_at": null, "output": null,
           "usage": null, "session_id": "s1"})
}

fn message(seq: i64, id: &str, kind: &str, status: &str, content: Value) -> Value {
    json!({"sequence_number": seq, "object": "message", "status": status, "error": null,
           "id": id, "type": kind, "role": "assistant", "content": content, "code": null,
           "message": null, "usage": null, "metadata": null})
}

fn text(seq: i64, msg: &str, index: i64, delta: bool, status: &str, text: &str) -> Value {
    json!({"sequence_number": seq, "object": "content", "status": status, "error": null,
           "type": "text", "index": index, "delta": delta, "msg_id": msg, "text": text})
}

fn data(seq: i64, msg: &str, delta: bool, status: &str, data: Value) -> Value {
    json!({"sequence_number": seq, "object": "content", "status": status, "error": null,
           "type": "data", "index": 0, "delta": delta, "msg_id": msg, "data": data})
}

fn strict() -> AssemblerOptions {
    AssemblerOptions::new().with_strict(true)
}

fn codes(asm: &StreamAssembler) -> Vec<&'static str> {
    asm.warnings().iter().map(|w| w.code.as_str()).collect()
}

#[test]
fn one_chunk_of_deltas_gives_one_text_update_per_part_in_group_order() {
    let stream = sse(&[
        response(0, "created"),
        response(1, "in_progress"),
        message(2, "m1", "message", "in_progress", Value::Null),
        text(3, "m1", 0, true, "in_progress", "Hel"),
        text(4, "m1", 0, true, "in_progress", "lo"),
        text(5, "m1", 1, true, "in_progress", "second"),
        text(6, "m1", 0, true, "in_progress", "!"),
    ]);
    let mut asm = StreamAssembler::default();
    let updates = asm.push(&stream).unwrap();
    let kinds: Vec<&str> = updates
        .iter()
        .map(|u| match u {
            Update::Response { .. } => "response",
            Update::Message { .. } => "message",
            Update::Text { .. } => "text",
            Update::Content { .. } => "content",
            Update::Arguments { .. } => "arguments",
            Update::Warning(_) => "warning",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["response", "message", "text", "text"]);
    assert!(matches!(&updates[0], Update::Response { status, .. } if status == "in_progress"));
    assert!(matches!(&updates[1], Update::Message { created: true, id, .. } if id == "m1"));
    assert!(
        matches!(&updates[2], Update::Text { index: 0, delta, replace: false, .. } if delta == "Hello!")
    );
    assert!(matches!(&updates[3], Update::Text { index: 1, delta, .. } if delta == "second"));
}

#[test]
fn content_for_an_unannounced_message_creates_it_with_a_warning_or_fails_in_strict_mode() {
    let stream = sse(&[
        response(0, "created"),
        text(1, "ghost", 0, true, "in_progress", "hi"),
    ]);
    let mut asm = StreamAssembler::default();
    asm.push(&stream).unwrap();
    assert_eq!(codes(&asm), ["UNANNOUNCED_MESSAGE"]);
    assert_eq!(asm.snapshot()["output"][0]["content"][0]["text"], "hi");

    let mut asm = StreamAssembler::new(strict());
    let error = asm.push(&stream).unwrap_err();
    assert_eq!(error.code(), ErrorCode::ProtocolViolation);
    assert!(error.message().contains("UNANNOUNCED_MESSAGE"), "{error}");
    let offset = stream.windows(6).position(|w| w == b"\n\ndata").unwrap() as u64 + 2;
    assert_eq!(error.offset(), Some(offset));
    // Poisoned: later calls fail with FINISHED, the snapshot stays readable.
    assert_eq!(asm.push(b"").unwrap_err().code(), ErrorCode::Finished);
    assert_eq!(asm.outcome().as_str(), "truncated");
    assert_eq!(asm.snapshot()["status"], "created");
}

#[test]
fn replayed_sequence_numbers_are_ignored() {
    let stream = sse(&[
        response(0, "created"),
        message(1, "m1", "message", "in_progress", Value::Null),
        text(2, "m1", 0, true, "in_progress", "a"),
        text(3, "m1", 0, true, "in_progress", "b"),
        // Reconnect: the server replays from 2.
        text(2, "m1", 0, true, "in_progress", "a"),
        text(3, "m1", 0, true, "in_progress", "b"),
        text(4, "m1", 0, true, "in_progress", "c"),
    ]);
    for options in [AssemblerOptions::new(), strict()] {
        let mut asm = StreamAssembler::new(options);
        asm.push(&stream).unwrap();
        assert_eq!(asm.snapshot()["output"][0]["content"][0]["text"], "abc");
        assert_eq!(codes(&asm), ["DUPLICATE_EVENT", "DUPLICATE_EVENT"]);
    }
}

#[test]
fn a_bare_error_event_fails_the_run_with_server_error() {
    let mut asm = StreamAssembler::default();
    let updates = asm
        .push(b"data: {\"error\": \"Task None:None is already in RUNNING state.\"}\n\n")
        .unwrap();
    assert_eq!(asm.outcome().as_str(), "failed");
    let snapshot = asm.snapshot();
    assert_eq!(snapshot["status"], "failed");
    assert_eq!(snapshot["error"]["code"], "SERVER_ERROR");
    assert_eq!(
        snapshot["error"]["message"],
        "Task None:None is already in RUNNING state."
    );
    assert!(
        matches!(&updates[0], Update::Response { outcome, .. } if outcome.as_str() == "failed")
    );
}

#[test]
fn data_deltas_deep_merge_and_stream_tool_arguments() {
    let stream = sse(&[
        response(0, "in_progress"),
        message(1, "call", "function_call", "in_progress", Value::Null),
        data(
            2,
            "call",
            true,
            "in_progress",
            json!({"call_id": "c1", "name": "get_weather", "arguments": ""}),
        ),
        data(
            3,
            "call",
            true,
            "in_progress",
            json!({"arguments": "{\"city\": "}),
        ),
        data(
            4,
            "call",
            true,
            "in_progress",
            json!({"arguments": "\"Hang", "n": 1, "meta": {"x": [1]}}),
        ),
    ]);
    let mut asm = StreamAssembler::default();
    let updates = asm.push(&stream).unwrap();
    let args: Vec<_> = updates
        .iter()
        .filter_map(|u| match u {
            Update::Arguments {
                call_id,
                name,
                delta,
                replace,
                ..
            } => Some((call_id.clone(), name.clone(), delta.clone(), *replace)),
            _ => None,
        })
        .collect();
    assert_eq!(
        args,
        [(
            Some("c1".into()),
            Some("get_weather".into()),
            "{\"city\": \"Hang".into(),
            false
        )]
    );
    let calls = asm.tool_calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].arguments, "{\"city\": \"Hang");
    assert_eq!(
        asm.parsed_arguments("call", 0),
        Some(json!({"city": "Hang"}))
    );

    // Mirror ops: the first read is the whole value, later reads only what changed.
    let first = asm.tool_call_changes();
    assert_eq!(
        first.changes[0].ops,
        [Op::Set {
            path: vec![],
            value: json!({"city": "Hang"})
        }]
    );
    assert!(first.changes[0].raw_replace);
    asm.push(&sse(&[
        data(5, "call", true, "in_progress", json!({"arguments": "zhou\"}", "n": 2})),
        data(6, "call", false, "completed", json!({"call_id": "c1", "name": "get_weather", "arguments": "{\"city\": \"Hangzhou\"}", "n": 3, "meta": {"x": [1]}})),
    ]))
    .unwrap();
    let next = asm.tool_call_changes();
    assert_eq!(next.changes[0].raw_delta, "zhou\"}");
    assert!(!next.changes[0].raw_replace);
    assert_eq!(
        next.changes[0].ops,
        [Op::Append {
            path: vec![PathSegment::Key("city".into())],
            text: "zhou".into()
        }]
    );
    let snapshot = asm.snapshot();
    let part = &snapshot["output"][0]["content"][0];
    assert_eq!(part["status"], "completed");
    assert_eq!(
        part["data"],
        json!({"call_id": "c1", "name": "get_weather", "arguments": "{\"city\": \"Hangzhou\"}", "n": 3, "meta": {"x": [1]}})
    );
    assert!(codes(&asm).is_empty(), "{:?}", codes(&asm));
}

#[test]
fn snapshot_style_arguments_replace_without_warnings() {
    // The reference's agentscope adapter streams tool calls as delta:false snapshots.
    let stream = sse(&[
        message(0, "call", "plugin_call", "in_progress", Value::Null),
        data(
            1,
            "call",
            false,
            "in_progress",
            json!({"call_id": "c1", "name": "f", "arguments": ""}),
        ),
        data(
            2,
            "call",
            false,
            "in_progress",
            json!({"call_id": "c1", "name": "f", "arguments": "{}"}),
        ),
        data(
            3,
            "call",
            false,
            "completed",
            json!({"call_id": "c1", "name": "f", "arguments": "{\"a\": 1}"}),
        ),
    ]);
    let mut asm = StreamAssembler::default();
    let updates = asm.push(&stream).unwrap();
    let args: Vec<(String, bool)> = updates
        .iter()
        .filter_map(|u| match u {
            Update::Arguments { delta, replace, .. } => Some((delta.clone(), *replace)),
            _ => None,
        })
        .collect();
    assert_eq!(args, [("{\"a\": 1}".to_owned(), true)]);
    assert!(codes(&asm).is_empty());
}

#[test]
fn a_completed_value_that_disagrees_with_deltas_wins_with_a_warning() {
    let stream = sse(&[
        message(0, "m1", "message", "in_progress", Value::Null),
        text(1, "m1", 0, true, "in_progress", "Hello wrld"),
        text(2, "m1", 0, false, "completed", "Hello world"),
    ]);
    let mut asm = StreamAssembler::default();
    let updates = asm.push(&stream).unwrap();
    assert_eq!(codes(&asm), ["CONTENT_MISMATCH"]);
    assert!(updates
        .iter()
        .any(|u| matches!(u, Update::Text { delta, replace: true, .. } if delta == "Hello world")));
    assert_eq!(
        asm.snapshot()["output"][0]["content"][0]["text"],
        "Hello world"
    );
    let mut strict_asm = StreamAssembler::new(strict());
    assert_eq!(
        strict_asm.push(&stream).unwrap_err().code(),
        ErrorCode::ProtocolViolation
    );
}

#[test]
fn malformed_json_is_a_warning_or_a_strict_error_and_loses_nothing_else() {
    let mut stream = sse(&[message(0, "m1", "message", "in_progress", Value::Null)]);
    stream.extend_from_slice(b"data: {\"object\": \"content\", oops}\n\n");
    stream.extend(sse(&[text(1, "m1", 0, true, "in_progress", "still here")]));
    let mut asm = StreamAssembler::default();
    asm.push(&stream).unwrap();
    assert_eq!(codes(&asm), ["INVALID_EVENT"]);
    assert_eq!(
        asm.snapshot()["output"][0]["content"][0]["text"],
        "still here"
    );

    let mut asm = StreamAssembler::new(strict());
    let error = asm.push(&stream).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidJson);
    // The message announced before the bad event is not lost.
    let updates = asm.take_updates();
    assert!(updates
        .iter()
        .any(|u| matches!(u, Update::Message { id, .. } if id == "m1")));
}

#[test]
fn an_event_over_the_limit_is_fatal_and_keeps_earlier_updates() {
    let options =
        AssemblerOptions::new().with_limits(Limits::new().with_max_event_bytes(200).unwrap());
    let mut asm = StreamAssembler::new(options);
    let mut stream = sse(&[message(0, "m1", "message", "in_progress", Value::Null)]);
    let big = "x".repeat(500);
    stream.extend(sse(&[text(1, "m1", 0, true, "in_progress", &big)]));
    let error = asm.push(&stream).unwrap_err();
    assert_eq!(error.code(), ErrorCode::EventTooLarge);
    assert!(asm
        .take_updates()
        .iter()
        .any(|u| matches!(u, Update::Message { .. })));
    assert_eq!(asm.finish().unwrap_err().code(), ErrorCode::Finished);
    assert_eq!(asm.outcome().as_str(), "truncated");
}

#[test]
fn end_without_terminal_event_is_truncated_and_strict_reports_it() {
    let stream = sse(&[
        message(0, "m1", "message", "in_progress", Value::Null),
        text(1, "m1", 0, true, "in_progress", "partial"),
    ]);
    let mut asm = StreamAssembler::default();
    asm.push(&stream).unwrap();
    assert_eq!(asm.outcome().as_str(), "pending");
    let updates = asm.finish().unwrap();
    assert_eq!(asm.outcome().as_str(), "truncated");
    assert!(updates
        .iter()
        .any(|u| matches!(u, Update::Response { outcome, .. } if outcome.as_str() == "truncated")));
    let warning = asm.warnings().last().unwrap();
    assert_eq!(warning.code.as_str(), "TRUNCATED");
    assert!(warning.message.contains("m1"));
    // Reported where the input ended.
    assert_eq!(warning.offset, Some(stream.len() as u64));
    // Open messages are reported, not silently completed.
    assert_eq!(asm.snapshot()["output"][0]["status"], "in_progress");

    let mut asm = StreamAssembler::new(strict());
    asm.push(&stream).unwrap();
    assert_eq!(
        asm.finish().unwrap_err().code(),
        ErrorCode::ProtocolViolation
    );
    assert_eq!(asm.outcome().as_str(), "truncated");
}

#[test]
fn crlf_done_sentinel_and_a_last_event_without_blank_line() {
    let mut asm = StreamAssembler::default();
    let body = format!(
        "data: {}\r\n\r\ndata: [DONE]\r\n\r\ndata: {}",
        message(0, "m1", "message", "in_progress", Value::Null),
        response(1, "completed")
    );
    asm.push(body.as_bytes()).unwrap();
    asm.finish().unwrap();
    assert_eq!(asm.outcome().as_str(), "completed");
    assert!(codes(&asm).is_empty());
}

#[test]
fn unknown_fields_and_objects_are_kept() {
    let mut event = text(1, "m1", 0, true, "in_progress", "x");
    event["trace"] = json!({"span": 7});
    let stream = sse(&[
        message(0, "m1", "message", "in_progress", Value::Null),
        event,
        json!({"object": "heartbeat_v2", "sequence_number": 2}),
    ]);
    let mut asm = StreamAssembler::default();
    asm.push(&stream).unwrap();
    let snapshot = asm.snapshot();
    assert_eq!(
        snapshot["output"][0]["content"][0]["trace"],
        json!({"span": 7})
    );
    assert_eq!(snapshot["unknownEvents"][0]["object"], "heartbeat_v2");
    assert_eq!(codes(&asm), ["UNKNOWN_EVENT"]);
}

#[test]
fn a_hostile_index_is_refused_without_allocating() {
    let stream = sse(&[
        message(0, "m1", "message", "in_progress", Value::Null),
        text(1, "m1", 4_000_000_000, true, "in_progress", "x"),
    ]);
    let mut asm = StreamAssembler::default();
    asm.push(&stream).unwrap();
    assert_eq!(codes(&asm), ["INVALID_EVENT"]);
}

#[test]
fn a_content_event_of_another_type_does_not_replace_a_part() {
    // A part of an unknown type keeps its fields (here a `text`) as they came; a text delta or
    // a text value aimed at it is refused: a part keeps its type (a tool call's data part
    // cannot be turned into text and disappear from the calls).
    let mut odd = text(1, "m1", 0, true, "in_progress", "old");
    odd["type"] = json!("x-note");
    let stream = sse(&[
        message(0, "m1", "message", "in_progress", Value::Null),
        odd,
        text(2, "m1", 0, true, "in_progress", "new"),
        text(3, "m1", 0, false, "in_progress", "whole"),
    ]);
    let mut asm = StreamAssembler::default();
    let updates = asm.push(&stream).unwrap();
    let part = &asm.snapshot()["output"][0]["content"][0];
    assert_eq!(part["type"], "x-note");
    assert_eq!(part["text"], "old");
    assert_eq!(codes(&asm), ["INVALID_EVENT", "INVALID_EVENT"]);
    assert!(updates.iter().all(|u| !matches!(u, Update::Text { .. })));
    let mut strict = StreamAssembler::new(AssemblerOptions::new().with_strict(true));
    let typed = sse(&[
        message(0, "m1", "message", "in_progress", Value::Null),
        text(1, "m1", 0, true, "in_progress", "old"),
        text(2, "m1", 0, false, "in_progress", "old"),
    ]);
    strict.push(&typed).unwrap();
    let e = strict
        .push(&sse(&[data(
            3,
            "m1",
            false,
            "in_progress",
            json!({"a": 1}),
        )]))
        .unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson);
}

/// A lone surrogate escape (`"\ud800"`) reads as U+FFFD in every protocol the assembler reads,
/// detection included: here in the first event (the response id) and in a text delta.
#[test]
fn lone_surrogates_read_as_replacement_characters_in_every_protocol() {
    use agentwire::builder::{BuilderOptions, MessageOptions, ResponseBuilder};
    use agentwire::Protocol;
    let mut protocols = vec![Protocol::AgentApi];
    if cfg!(feature = "full") {
        protocols.extend([Protocol::OpenAiResponses, Protocol::AgUi]);
    }
    for protocol in protocols {
        let mut rb = ResponseBuilder::new(
            BuilderOptions::new()
                .protocol(protocol)
                .response_id("rid7")
                .thread_id("rid7"),
        )
        .unwrap();
        let (part, mut body) = rb.begin_text(MessageOptions::new()).unwrap();
        body.extend(rb.delta_text(part, "aQQb").unwrap());
        body.extend(rb.finish_text(part).unwrap());
        let text = String::from_utf8(body)
            .unwrap()
            .replace("rid7", "r\\ud800")
            .replace("aQQb", "a\\ud800b");
        assert!(text.contains("\\ud800"), "{protocol:?}: nothing replaced");
        let mut asm = StreamAssembler::new(AssemblerOptions::new());
        let mut updates = asm.push(text.as_bytes()).unwrap();
        updates.extend(asm.finish().unwrap());
        assert_eq!(asm.protocol(), Some(protocol), "{protocol:?}: detected");
        assert!(
            asm.warnings().is_empty(),
            "{protocol:?}: {:?}",
            asm.warnings()
        );
        assert!(
            asm.snapshot().to_string().contains("a\u{fffd}b"),
            "{protocol:?}: {}",
            asm.snapshot()
        );
    }
}

/// A2A (which the builder does not write): the first result and a text part with lone
/// surrogate escapes.
#[cfg(feature = "full")]
#[test]
fn lone_surrogates_read_as_replacement_characters_in_a2a() {
    let stream = concat!(
        r#"data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t\ud800","contextId":"c","status":{"state":"submitted"}}}"#,
        "\n\n",
        r#"data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t\ud800","contextId":"c","artifact":{"artifactId":"m1","parts":[{"kind":"text","text":"a\ud800b"}]},"lastChunk":true}}"#,
        "\n\n",
        r#"data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t\ud800","contextId":"c","status":{"state":"completed"},"final":true}}"#,
        "\n\n",
    );
    let mut asm = StreamAssembler::new(AssemblerOptions::new());
    asm.push(stream.as_bytes()).unwrap();
    asm.finish().unwrap();
    assert_eq!(asm.protocol(), Some(agentwire::Protocol::A2a03));
    assert!(asm.warnings().is_empty(), "{:?}", asm.warnings());
    assert!(
        asm.snapshot().to_string().contains("a\u{fffd}b"),
        "{}",
        asm.snapshot()
    );
    assert_eq!(asm.outcome().as_str(), "completed");
}

/// A2A resubscription (`SubscribeToTask`, `tasks/resubscribe`): the task as it stands comes
/// first, its artifacts still open, and the updates that follow append to them.
#[cfg(feature = "full")]
#[test]
fn the_artifacts_of_a_task_still_going_take_the_appends_that_follow() {
    let stream = concat!(
        r#"data: {"jsonrpc":"2.0","id":2,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"working"},"artifacts":[{"artifactId":"m1","parts":[{"kind":"text","text":"ab"}]}]}}"#,
        "\n\n",
        r#"data: {"jsonrpc":"2.0","id":2,"result":{"kind":"artifact-update","taskId":"t","contextId":"c","append":true,"artifact":{"artifactId":"m1","parts":[{"kind":"text","text":"cd"}]}}}"#,
        "\n\n",
        r#"data: {"jsonrpc":"2.0","id":2,"result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"completed"},"final":true}}"#,
        "\n\n",
    );
    let mut asm = StreamAssembler::new(AssemblerOptions::new());
    asm.push(stream.as_bytes()).unwrap();
    asm.finish().unwrap();
    assert!(asm.warnings().is_empty(), "{:?}", asm.warnings());
    assert_eq!(asm.snapshot()["output"][0]["content"][0]["text"], "abcd");
    assert_eq!(asm.outcome().as_str(), "completed");
}

/// An AG-UI snapshot whose activity content nests deeper than the value limit is skipped with a
/// warning, as an ACTIVITY_SNAPSHOT of the same content is: no message of the stream ever holds
/// a value the renderers refuse.
#[cfg(feature = "full")]
#[test]
fn agui_activity_content_deeper_than_the_limit_is_refused_in_messages_snapshots() {
    let deep = format!("{}1{}", "[".repeat(110), "]".repeat(110));
    let activity = |content: &str| {
        format!(
            r#"{{"type":"MESSAGES_SNAPSHOT","messages":[{{"id":"a1","role":"activity","activityType":"plan","content":{{"steps":{content}}}}}]}}"#
        )
    };
    let run = format!(
        "data: {}\n\ndata: {}\n\ndata: {}\n\ndata: {}\n\n",
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
        activity(&deep),
        activity("[1]"),
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
    );
    let mut asm = StreamAssembler::new(
        AssemblerOptions::new().with_protocol(Some(agentwire::Protocol::AgUi)),
    );
    asm.push(run.as_bytes()).unwrap();
    asm.finish().unwrap();
    let codes: Vec<_> = asm.warnings().iter().map(|w| w.code.as_str()).collect();
    assert!(codes.contains(&"INVALID_EVENT"), "{codes:?}");
    let snapshot = asm.snapshot();
    // The deep snapshot was skipped; the next one applied.
    assert_eq!(snapshot["messages"][0]["content"], json!({"steps": [1]}));
    assert_eq!(snapshot["outcome"], "completed");
}
