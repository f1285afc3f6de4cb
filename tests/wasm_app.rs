//! wasm-bindgen tests of the exports the JS `AgentApp` calls (internal: no TypeScript), run in
//! Node by `cargo test --target wasm32-unknown-unknown --test wasm_app`: the A2A answers
//! written from a run's log, the id rebinding of a logged A2A stream, the `RUN_LOST` event.
#![cfg(target_arch = "wasm32")]
#![cfg(feature = "full")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use agentwire::wasm::a2a::{a2a_answer, a2a_rebind_id, a2a_subscribe_head};
use agentwire::wasm::app::lost_run_event;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

/// A run's A2A 1.0 log: the task, a text artifact, the final status (JSON-RPC id 1).
const LOG: &str = concat!(
    "id: 0\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}\n\n",
    "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"artifactUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"text\":\"Hi\"}]}}}}\n\n",
    "id: 2\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}}\n\n",
);

const TASK: &str = r#"{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a","parts":[{"text":"Hi"}]}]}"#;

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap()
}

/// The code of a thrown `AgentwireError`, and its field.
fn code<T: std::fmt::Debug>(result: Result<T, JsValue>) -> (String, Option<String>) {
    let error = result.expect_err("expected a thrown error");
    assert!(error.is_instance_of::<js_sys::Error>());
    (
        get(&error, "code").as_string().unwrap(),
        get(&error, "field").as_string(),
    )
}

#[wasm_bindgen_test]
fn a2a_answer_writes_the_whole_response_with_any_id() {
    let answer = a2a_answer(LOG.as_bytes(), r#"{"id":"$'$&","kind":"task"}"#).unwrap();
    assert_eq!(
        answer,
        format!(r#"{{"jsonrpc":"2.0","id":"$'$&","result":{TASK}}}"#)
    );
    let send = a2a_answer(LOG.as_bytes(), r#"{"id":7,"kind":"send","version":"1.0"}"#).unwrap();
    assert_eq!(
        send,
        format!(r#"{{"jsonrpc":"2.0","id":7,"result":{{"task":{TASK}}}}}"#)
    );
    let none = a2a_answer(b"", r#"{"kind":"send","version":"0.3"}"#).unwrap();
    assert_eq!(none, r#"{"jsonrpc":"2.0","id":null,"result":null}"#);
    assert_eq!(
        code(a2a_answer(LOG.as_bytes(), r#"{"id":1,"kind":"get"}"#)),
        ("INVALID_OPTION".into(), Some("kind".into()))
    );
    assert_eq!(
        code(a2a_answer(
            LOG.as_bytes(),
            r#"{"kind":"task","historyLength":-1}"#
        )),
        ("INVALID_OPTION".into(), Some("historyLength".into()))
    );
    assert_eq!(
        code(a2a_answer(LOG.as_bytes(), r#"{"kind":"task","extra":1}"#)).0,
        "INVALID_OPTION"
    );
    assert_eq!(
        code(a2a_answer(b"data: \xff\n\n", r#"{"kind":"task"}"#)).0,
        "INVALID_UTF8"
    );
}

#[wasm_bindgen_test]
fn a2a_subscribe_head_gives_the_frame_and_the_cursor() {
    let head = a2a_subscribe_head(LOG.as_bytes(), r#"{"id":"s","version":"1.0"}"#).unwrap();
    let frame = get(&head, "frame")
        .dyn_into::<Uint8Array>()
        .unwrap()
        .to_vec();
    assert_eq!(
        String::from_utf8(frame).unwrap(),
        format!("data: {{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"result\":{{\"task\":{TASK}}}}}\n\n")
    );
    assert_eq!(get(&head, "cursor").as_f64(), Some(2.0));
    let head = a2a_subscribe_head(b"", r#"{"id":1,"version":"0.3"}"#).unwrap();
    assert_eq!(get(&head, "cursor").as_f64(), Some(-1.0));
    assert_eq!(
        code(a2a_subscribe_head(b"", r#"{"id":1,"version":"2"}"#)),
        ("INVALID_OPTION".into(), Some("version".into()))
    );
}

#[wasm_bindgen_test]
fn a2a_rebind_id_replaces_ids_as_data() {
    let rebound = a2a_rebind_id(LOG.as_bytes(), "1", r#""$'""#).unwrap();
    assert_eq!(
        String::from_utf8(rebound).unwrap(),
        LOG.replace("\"id\":1,", "\"id\":\"$'\",")
    );
    // An id that is not the stream's changes nothing.
    assert_eq!(
        a2a_rebind_id(LOG.as_bytes(), "2", "3").unwrap(),
        LOG.as_bytes()
    );
    assert_eq!(
        code(a2a_rebind_id(LOG.as_bytes(), "1", "$'")).0,
        "INVALID_OPTION"
    );
}

#[wasm_bindgen_test]
fn lost_run_event_is_one_numbered_failure_event() {
    let event = lost_run_event(r#"{"protocol":"agent-api","responseId":"r"}"#, 5.0, b"").unwrap();
    let text = String::from_utf8(event).unwrap();
    assert!(
        text.starts_with("id: 5\ndata: {\"sequence_number\":5,"),
        "{text}"
    );
    assert!(text.contains("\"code\":\"RUN_LOST\""));
    assert!(text.ends_with("}\n\n") && text.matches("\n\n").count() == 1);
    for next in [-1.0, 1.5, f64::NAN, 1e300] {
        assert_eq!(
            code(lost_run_event("{}", next, b"")),
            ("INVALID_OPTION".into(), Some("next".into()))
        );
    }
    assert_eq!(
        code(lost_run_event(r#"{"protocol":"nope"}"#, 0.0, b"")),
        ("INVALID_OPTION".into(), Some("protocol".into()))
    );
}
