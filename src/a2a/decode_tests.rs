//! Tests of [`A2aDecoder`](super::A2aDecoder) read through the assembler: streams whose task
//! arrives whole.

use serde_json::Value;

use crate::assembler::{AssemblerOptions, StreamAssembler};
use crate::Protocol;

fn assemble(protocol: Protocol, stream: &str) -> StreamAssembler {
    let mut asm = StreamAssembler::new(AssemblerOptions::new().with_protocol(Some(protocol)));
    asm.push(stream.as_bytes()).unwrap();
    asm.finish().unwrap();
    asm
}

fn texts(snapshot: &Value) -> Vec<String> {
    snapshot["output"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c["text"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn a_stream_of_one_completed_task_is_complete_in_both_versions() {
    let v1 = r#"data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a","parts":[{"text":"Hello"}]}]}}}

"#;
    let v03 = r#"data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"},"artifacts":[{"artifactId":"a","parts":[{"kind":"text","text":"Hello"}]}]}}

"#;
    for (protocol, stream) in [(Protocol::A2a, v1), (Protocol::A2a03, v03)] {
        let asm = assemble(protocol, stream);
        assert_eq!(asm.outcome().as_str(), "completed", "{protocol:?}");
        let snapshot = asm.snapshot();
        assert_eq!(snapshot["status"], "completed", "{protocol:?}");
        assert_eq!(texts(&snapshot), ["Hello"], "{protocol:?}");
    }
}

#[test]
fn a_lone_task_in_another_end_state_ends_the_run_with_it() {
    for (state, outcome) in [
        ("TASK_STATE_FAILED", "failed"),
        ("TASK_STATE_CANCELED", "canceled"),
        ("TASK_STATE_REJECTED", "rejected"),
    ] {
        let stream = format!(
            "data: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"task\":{{\"id\":\"t\",\"contextId\":\"c\",\"status\":{{\"state\":\"{state}\"}}}}}}}}\n\n"
        );
        let asm = assemble(Protocol::A2a, &stream);
        assert_eq!(asm.outcome().as_str(), outcome, "{state}");
    }
    // Waiting for input: the run is interrupted where the stream ends.
    let input = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"task\",\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"input-required\"}}}\n\n";
    assert_eq!(
        assemble(Protocol::A2a03, input).snapshot()["status"],
        "incomplete"
    );
}

#[test]
fn a_working_task_first_still_leaves_the_run_open() {
    let working = r#"data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"},"artifacts":[{"artifactId":"a","parts":[{"text":"Hel"}]}]}}}

data: {"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"taskId":"t","contextId":"c","append":true,"artifact":{"artifactId":"a","parts":[{"text":"lo"}]}}}}

"#;
    assert_eq!(
        assemble(Protocol::A2a, working).outcome().as_str(),
        "truncated"
    );
    let done = format!("{working}data: {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"statusUpdate\":{{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{{\"state\":\"TASK_STATE_COMPLETED\"}}}}}}}}\n\n");
    let asm = assemble(Protocol::A2a, &done);
    assert_eq!(asm.outcome().as_str(), "completed");
    assert_eq!(texts(&asm.snapshot()), ["Hello"]);
}

#[test]
fn events_after_a_settled_task_change_nothing() {
    // A completed task, then a late artifact append and a status update to failed: the answer
    // stays the completed task's, and the late events are reported, not applied.
    let stream = concat!(
        r#"data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a","parts":[{"text":"Hello"}]}]}}}"#,
        "\n\n",
        r#"data: {"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"taskId":"t","contextId":"c","artifact":{"artifactId":"a","parts":[{"text":" again"}]},"append":true}}}"#,
        "\n\n",
        r#"data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_FAILED"}}}}"#,
        "\n\n",
    );
    let asm = assemble(Protocol::A2a, stream);
    assert_eq!(asm.outcome().as_str(), "completed");
    let snapshot = asm.snapshot();
    assert_eq!(texts(&snapshot), ["Hello"]);
    let warnings = snapshot["warnings"].to_string();
    assert!(warnings.contains("EVENT_AFTER_END"), "{warnings}");
}

#[test]
fn an_artifact_s_message_type_is_read_from_either_version_s_key() {
    let v1 = r#"data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a","name":"x","parts":[{"text":"Hmm"}],"metadata":{"messageType":"reasoning"}}]}}}

"#;
    let v03 = r#"data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"},"artifacts":[{"artifactId":"a","name":"x","parts":[{"kind":"text","text":"Hmm"}],"metadata":{"message_type":"reasoning"}}]}}

"#;
    for (protocol, stream) in [(Protocol::A2a, v1), (Protocol::A2a03, v03)] {
        let snapshot = assemble(protocol, stream).snapshot();
        assert_eq!(snapshot["output"][0]["type"], "reasoning", "{protocol:?}");
    }
}
