//! Tests of the A2A answers written from a run's log.

use serde_json::{json, Value};

use super::*;
use crate::builder::{BuilderOptions, MessageOptions, ResponseBuilder, TextStream};
use crate::protocol::FixedClock;
use crate::{ErrorCode, Protocol};

fn options(version: A2aVersion, rpc_id: Value) -> BuilderOptions {
    let protocol = match version {
        A2aVersion::V1_0 => Protocol::A2a,
        _ => Protocol::A2a03,
    };
    BuilderOptions::new()
        .protocol(protocol)
        .request_id(rpc_id)
        .response_id("task_1")
        .session_id("ctx_1")
        .event_ids(true)
        .clock(FixedClock(1_700_000_000))
}

/// A whole run's log: "Hello" in two tokens, completed.
fn whole(version: A2aVersion, rpc_id: Value) -> String {
    let (mut ts, mut log) = begin(version, rpc_id);
    log.extend(ts.token("lo").unwrap());
    log.extend(ts.finish().unwrap());
    String::from_utf8(log).unwrap()
}

/// A run still going: its first token only.
fn begin(version: A2aVersion, rpc_id: Value) -> (TextStream, Vec<u8>) {
    let rb = ResponseBuilder::new(options(version, rpc_id)).unwrap();
    let (mut ts, mut log) = TextStream::begin(rb, MessageOptions::new().id("msg_1")).unwrap();
    log.extend(ts.token("Hel").unwrap());
    (ts, log)
}

fn running(version: A2aVersion) -> Vec<u8> {
    begin(version, json!(1)).1
}

fn rebound(log: &str, from: Value, to: Value) -> String {
    String::from_utf8(rebind_id(log.as_bytes(), &from, &to)).unwrap()
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// The task of a completed "Hello" run as each version of the A2A specification writes it:
/// 1.0's `TASK_STATE_*` states and bare text parts, 0.3's `kind`s and lowercase states.
fn check_task(task: &Value, version: A2aVersion) {
    assert_eq!(task["id"], "task_1");
    assert_eq!(task["contextId"], "ctx_1");
    let text: String = task["artifacts"][0]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["text"].as_str().unwrap())
        .collect();
    assert_eq!(text, "Hello");
    match version {
        A2aVersion::V1_0 => {
            assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED");
            assert!(task.get("kind").is_none());
        }
        _ => {
            assert_eq!(task["kind"], "task");
            assert_eq!(task["status"]["state"], "completed");
            assert_eq!(task["artifacts"][0]["parts"][0]["kind"], "text");
        }
    }
}

#[test]
fn the_answers_are_json_rpc_results_with_the_request_s_id() {
    for version in [A2aVersion::V1_0, A2aVersion::V0_3] {
        let log = whole(version, json!("stream-id")).into_bytes();
        for id in [json!(7), json!("$'$&$1"), Value::Null, json!("é\"\n")] {
            let task = parse(&task_answer(&log, &id, version, TaskAnswer::Task, None).unwrap());
            assert_eq!((&task["jsonrpc"], &task["id"]), (&json!("2.0"), &id));
            check_task(&task["result"], version);
            let send = parse(&task_answer(&log, &id, version, TaskAnswer::Send, Some(0)).unwrap());
            assert_eq!((&send["jsonrpc"], &send["id"]), (&json!("2.0"), &id));
            // SendMessage answers 1.0 with `{"task": …}` (a SendMessageResponse), 0.3 with the task.
            let sent = match version {
                A2aVersion::V1_0 => &send["result"]["task"],
                _ => &send["result"],
            };
            check_task(sent, version);
        }
        let send = parse(&task_answer(&log, &json!(1), version, TaskAnswer::Send, None).unwrap());
        let task = match version {
            A2aVersion::V1_0 => &send["result"]["task"],
            _ => &send["result"],
        };
        assert_eq!(task["id"], "task_1");
        assert_eq!(task["artifacts"][0]["parts"].as_array().unwrap().len(), 2);
    }
}

#[test]
fn a_message_answer_and_an_empty_log() {
    let message = b"id: 0\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"agent\",\"parts\":[]}}\n\n";
    let send = task_answer(message, &json!(2), A2aVersion::V0_3, TaskAnswer::Send, None).unwrap();
    assert_eq!(
        send,
        r#"{"jsonrpc":"2.0","id":2,"result":{"kind":"message","messageId":"m","role":"agent","parts":[]}}"#
    );
    // A message is no task.
    let task = task_answer(message, &json!(2), A2aVersion::V0_3, TaskAnswer::Task, None).unwrap();
    assert_eq!(task, r#"{"jsonrpc":"2.0","id":2,"result":null}"#);
    let empty = task_answer(b"", &json!(2), A2aVersion::V1_0, TaskAnswer::Send, None).unwrap();
    assert_eq!(empty, r#"{"jsonrpc":"2.0","id":2,"result":null}"#);
}

#[test]
fn a_log_that_cannot_be_read_is_an_error() {
    let err = task_answer(
        b"data: \xff\n\n",
        &json!(1),
        A2aVersion::V1_0,
        TaskAnswer::Task,
        None,
    )
    .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidUtf8);
    let err = subscribe_head(b"data: {nope\n\n", &json!(1), A2aVersion::V1_0).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidJson);
}

#[test]
fn the_subscribe_head_is_the_task_so_far_and_the_cursor_its_last_event() {
    for version in [A2aVersion::V1_0, A2aVersion::V0_3] {
        let log = running(version);
        let events = String::from_utf8(log.clone())
            .unwrap()
            .matches("\n\n")
            .count();
        let (frame, cursor) = subscribe_head(&log, &json!("sub"), version).unwrap();
        assert_eq!(cursor, i64::try_from(events).unwrap() - 1);
        let text = String::from_utf8(frame).unwrap();
        let data = text
            .strip_prefix("data: ")
            .and_then(|t| t.strip_suffix("\n\n"))
            .unwrap();
        assert!(!data.contains('\n'));
        let head = parse(data);
        assert_eq!(head["id"], "sub");
        // 1.0 streams StreamResponse objects (`{"task": …}`), 0.3 the task itself: working, "Hel".
        let task = match version {
            A2aVersion::V1_0 => &head["result"]["task"],
            _ => &head["result"],
        };
        assert_eq!(task["id"], "task_1");
        let state = match version {
            A2aVersion::V1_0 => "TASK_STATE_WORKING",
            _ => "working",
        };
        assert_eq!(task["status"]["state"], state);
        assert_eq!(task["artifacts"][0]["parts"][0]["text"], "Hel");
    }
    let (frame, cursor) = subscribe_head(b"", &json!(1), A2aVersion::V0_3).unwrap();
    assert_eq!(cursor, -1);
    assert_eq!(
        frame,
        b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}\n\n"
    );
}

#[test]
fn rebinding_replaces_exactly_the_ids_that_are_from() {
    for version in [A2aVersion::V1_0, A2aVersion::V0_3] {
        let log = whole(version, json!("$'"));
        let other = rebound(&log, json!("$'"), json!("$'$'$`"));
        // Each event answers the new id; nothing else changed.
        assert_eq!(other, whole(version, json!("$'$'$`")));
        assert_eq!(rebound(&other, json!("$'$'$`"), json!("$'")), log);
        assert_eq!(rebound(&log, json!(1), json!(2)), log);
        let numbered = whole(version, json!(12));
        assert_eq!(rebound(&numbered, json!(1), json!(2)), numbered);
        assert_eq!(
            rebound(&numbered, json!(12), Value::Null),
            whole(version, Value::Null)
        );
    }
    // An error event is rebound too; an id inside a result, a second data line and a
    // comment are not.
    let chunk = concat!(
        "id: 4\nevent: error\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32603,\"message\":\"x\"}}\n\n",
        "id: 5\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"b\",\"result\":{\"id\":\"a\"}}\n",
        "data: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\n\n",
        ": {\"jsonrpc\":\"2.0\",\"id\":\"a\",\n\n",
        "data: {\"jsonrpc\":\"2.0\",\"id\":\"a\"}\n\n",
    );
    let want = concat!(
        "id: 4\nevent: error\ndata: {\"jsonrpc\":\"2.0\",\"id\":{\"x\":[1]},\"error\":{\"code\":-32603,\"message\":\"x\"}}\n\n",
        "id: 5\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"b\",\"result\":{\"id\":\"a\"}}\n",
        "data: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\n\n",
        ": {\"jsonrpc\":\"2.0\",\"id\":\"a\",\n\n",
        "data: {\"jsonrpc\":\"2.0\",\"id\":\"a\"}\n\n",
    );
    let rebound = rebind_id(chunk.as_bytes(), &json!("a"), &json!({"x": [1]}));
    assert_eq!(String::from_utf8(rebound).unwrap(), want);
}

#[test]
fn rebinding_is_linear_and_keeps_a_partial_tail() {
    let event = b"id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"r\",\"result\":{}}\n\n";
    let chunk: Vec<u8> = event
        .iter()
        .copied()
        .cycle()
        .take(event.len() * 50_000)
        .collect();
    let long_id = json!("x".repeat(1_000));
    let rebound = rebind_id(&chunk, &json!("r"), &long_id);
    assert_eq!(rebound.len(), chunk.len() + 50_000 * 999);
    assert_eq!(rebind_id(&rebound, &long_id, &json!("r")), chunk);
    // A chunk ending mid-line: the line is still read.
    let cut = b"data: {\"jsonrpc\":\"2.0\",\"id\":\"r\",\"res";
    assert_eq!(
        rebind_id(cut, &json!("r"), &json!(5)),
        b"data: {\"jsonrpc\":\"2.0\",\"id\":5,\"res"
    );
}
