//! Tests of [`TaskFold`](super::TaskFold).

use super::*;
use serde_json::json;

fn fold(results: &[Value]) -> TaskFold {
    let mut fold = TaskFold::new();
    for r in results {
        fold.push_result(r.clone());
    }
    fold
}

#[test]
fn artifacts_are_added_replaced_and_appended_by_id() {
    let f = fold(&[
        json!({"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_SUBMITTED"}}}),
        json!({"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[{"text":"1"}],"metadata":{"x":1}}}}),
        json!({"artifactUpdate":{"taskId":"t","append":true,"artifact":{"artifactId":"a","parts":[{"text":"2"}],"metadata":{"y":2}}}}),
        json!({"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"b","parts":[{"text":"b"}]}}}),
        json!({"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"b","parts":[{"text":"B"}]}}}),
        json!({"artifactUpdate":{"taskId":"t","append":true,"artifact":{"artifactId":"new","parts":[{"text":"n"}]}}}),
    ]);
    assert_eq!(
        fold_task(&f)["artifacts"],
        json!([{"artifactId":"a","parts":[{"text":"1"},{"text":"2"}],"metadata":{"x":1,"y":2}},
               {"artifactId":"b","parts":[{"text":"B"}]},
               {"artifactId":"new","parts":[{"text":"n"}]}])
    );
}

fn fold_task(f: &TaskFold) -> Value {
    f.task_result(None).unwrap()
}

#[test]
fn status_messages_move_into_history_and_history_is_trimmed() {
    let m = |t: &str| json!({"messageId":t,"role":"ROLE_AGENT","parts":[{"text":t}]});
    let f = fold(&[
        json!({"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING","message":m("1")},"metadata":{"a":1}}}),
        json!({"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING","message":m("2")},"metadata":{"b":2}}}),
        json!({"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}),
    ]);
    let task = fold_task(&f);
    assert_eq!(task["id"], "t");
    assert_eq!(task["history"], json!([m("1"), m("2")]));
    assert_eq!(task["metadata"], json!({"a":1,"b":2}));
    assert_eq!(task["status"], json!({"state":"TASK_STATE_COMPLETED"}));
    assert_eq!(f.task_result(Some(1)).unwrap()["history"], json!([m("2")]));
    assert!(f.task_result(Some(0)).unwrap().get("history").is_none());
    assert_eq!(
        f.send_message_result(A2aVersion::V1_0, Some(0)).unwrap(),
        json!({"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"a":1,"b":2}}})
    );
}

#[test]
fn a_message_answer_and_0_3_results_are_read() {
    let f = fold(&[json!({"kind":"message","messageId":"m","role":"agent","parts":[]})]);
    assert_eq!(
        f.send_message_result(A2aVersion::V0_3, None).unwrap(),
        json!({"kind":"message","messageId":"m","role":"agent","parts":[]})
    );
    let f = fold(&[
        json!({"kind":"task","id":"t","contextId":"c","status":{"state":"submitted"}}),
        json!({"kind":"status-update","taskId":"t","contextId":"c","final":true,"status":{"state":"completed"}}),
    ]);
    assert_eq!(
        f.send_message_result(A2aVersion::V0_3, None).unwrap(),
        json!({"kind":"task","id":"t","contextId":"c","status":{"state":"completed"}})
    );
}

#[test]
fn nothing_after_the_end_changes_the_answer() {
    let done = json!({"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}});
    let late = [
        json!({"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"x","parts":[{"text":"late"}]}}}),
        json!({"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING","message":{"messageId":"m","parts":[]}}}}),
        json!({"task":{"id":"other","status":{}}}),
        json!({"message":{"messageId":"m2","parts":[]}}),
    ];
    let settled = fold(&[json!({"task":{"id":"t","status":{}}}), done.clone()]);
    let mut with_late = vec![json!({"task":{"id":"t","status":{}}}), done];
    with_late.extend(late.iter().cloned());
    assert_eq!(
        fold(&with_late).task_result(None),
        settled.task_result(None)
    );
    // A message answer, then anything: the message stays the answer.
    let mut f = fold(&[json!({"kind":"message","messageId":"m","role":"agent","parts":[]})]);
    f.push_result(json!({"kind":"task","id":"t","status":{"state":"working"}}));
    assert!(f.task().is_none());
    assert_eq!(f.message().unwrap()["messageId"], "m");
    // An error ends it too.
    let mut f = TaskFold::new();
    f.push(b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"x\"}}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t\",\"status\":{}}}}\n\n").unwrap();
    assert!(f.task().is_none());
}

#[test]
fn a_stream_of_any_split_and_its_errors_are_read() {
    let stream = b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t\",\"status\":{}}}}\n\ndata: nope\n\nevent: error\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"x\"}}\n\n";
    for split in 0..stream.len() {
        let mut f = TaskFold::new();
        let a = f.push(&stream[..split]);
        let b = f.push(&stream[split..]);
        let c = f.finish();
        let errors: Vec<_> = [a, b, c].into_iter().filter_map(|r| r.err()).collect();
        assert_eq!(errors.len(), 1, "{split}");
        assert_eq!(errors[0].code(), ErrorCode::InvalidJson);
        assert_eq!(f.task().unwrap()["id"], "t");
        assert_eq!(f.error().unwrap()["code"], -32603);
    }
}
