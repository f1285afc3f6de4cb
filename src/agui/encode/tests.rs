use super::*;
use crate::translate::{TranslateOptions, Translator};
use crate::ErrorCode;
use crate::Protocol;

/// Translates Agent API payloads (one per line, as the reference writes them) with ids `t`/`r`.
fn translate(lines: &[&str]) -> String {
    let input: String = lines.iter().map(|l| format!("data: {l}\n\n")).collect();
    let options = TranslateOptions::new().with_thread_id("t").with_run_id("r");
    let mut t = Translator::with_options(Protocol::AgentApi, Protocol::AgUi, options).unwrap();
    let mut out = t.push(input.as_bytes()).unwrap();
    out.extend(t.finish().unwrap());
    String::from_utf8(out).unwrap()
}

/// The events as `TYPE key=value …` lines, for compact expectations.
fn lines(sse: &str) -> Vec<String> {
    sse.split("\n\n")
        .filter(|f| !f.is_empty())
        .map(|f| {
            let v: Value = serde_json::from_str(f.strip_prefix("data: ").unwrap()).unwrap();
            let map = v.as_object().unwrap();
            let mut s = map["type"].as_str().unwrap().to_owned();
            for (k, v) in map.iter().filter(|(k, _)| *k != "type") {
                s.push_str(&format!(" {k}={v}"));
            }
            s
        })
        .collect()
}

const CREATED: &str = r#"{"object":"response","status":"created","id":"resp","session_id":"s"}"#;

#[test]
fn exact_bytes_of_a_text_run() {
    let out = translate(&[
        CREATED,
        r#"{"object":"content","type":"text","delta":true,"msg_id":"m","index":0,"text":"Hé \"q\""}"#,
        r#"{"object":"message","status":"completed","id":"m","type":"message","role":"user","content":[{"type":"text","text":"Hé \"q\""}]}"#,
        r#"{"object":"response","status":"completed","id":"resp"}"#,
    ]);
    assert_eq!(
        out,
        concat!(
            "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"protocolVersion\":\"1.0\"}\n\n",
            "data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n\n",
            "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"Hé \\\"q\\\"\"}\n\n",
            "data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n\n",
            "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n",
        )
    );
}

#[test]
fn non_streamed_text_is_sent_once_and_ended() {
    let out = translate(&[
        CREATED,
        r#"{"object":"message","status":"in_progress","id":"m","type":"message","role":"system"}"#,
        r#"{"object":"content","status":"completed","type":"text","delta":false,"msg_id":"m","index":0,"text":"whole"}"#,
        r#"{"object":"message","status":"completed","id":"m","type":"message","content":[{"type":"text","text":"whole"}]}"#,
        // Only the final output carries this one.
        r#"{"object":"response","status":"completed","output":[{"id":"late","type":"reasoning","status":"completed","content":[{"type":"text","text":"why"}]}]}"#,
    ]);
    assert_eq!(
        lines(&out),
        [
            r#"RUN_STARTED threadId="t" runId="r" protocolVersion="1.0""#,
            r#"TEXT_MESSAGE_START messageId="m" role="system""#,
            r#"TEXT_MESSAGE_CONTENT messageId="m" delta="whole""#,
            r#"TEXT_MESSAGE_END messageId="m""#,
            r#"REASONING_START messageId="late""#,
            r#"REASONING_MESSAGE_START messageId="late" role="reasoning""#,
            r#"REASONING_MESSAGE_CONTENT messageId="late" delta="why""#,
            r#"REASONING_MESSAGE_END messageId="late""#,
            r#"REASONING_END messageId="late""#,
            r#"RUN_FINISHED threadId="t" runId="r""#,
        ]
    );
}

#[test]
fn snapshots_extend_or_are_dropped() {
    let out = translate(&[
        CREATED,
        r#"{"object":"content","type":"text","delta":false,"status":"in_progress","msg_id":"m","index":0,"text":"Hel"}"#,
        r#"{"object":"content","type":"text","delta":false,"status":"in_progress","msg_id":"m","index":0,"text":"Hello"}"#,
        // Contradicts what was sent: cannot be retracted.
        r#"{"object":"content","type":"text","delta":false,"status":"in_progress","msg_id":"m","index":0,"text":"Bye"}"#,
        r#"{"object":"content","type":"text","delta":true,"msg_id":"m","index":0,"text":""}"#,
        r#"{"object":"response","status":"completed"}"#,
    ]);
    assert_eq!(
        lines(&out)[1..4],
        [
            r#"TEXT_MESSAGE_START messageId="m" role="assistant""#,
            r#"TEXT_MESSAGE_CONTENT messageId="m" delta="Hel""#,
            r#"TEXT_MESSAGE_CONTENT messageId="m" delta="lo""#,
        ]
    );
    assert_eq!(lines(&out)[4], r#"TEXT_MESSAGE_END messageId="m""#);
}

#[test]
fn tool_calls_wait_for_id_and_name_stream_deltas_and_hold_snapshot_arguments() {
    let out = translate(&[
        CREATED,
        r#"{"object":"message","status":"in_progress","id":"c","type":"plugin_call","role":"assistant"}"#,
        r#"{"object":"content","type":"data","delta":true,"msg_id":"c","index":0,"data":{"call_id":"call_1"}}"#,
        r#"{"object":"content","type":"data","delta":true,"msg_id":"c","index":0,"data":{"name":"f","arguments":"{\"a\":"}}"#,
        r#"{"object":"content","type":"data","delta":true,"msg_id":"c","index":0,"data":{"arguments":"1}"}}"#,
        r#"{"object":"content","type":"data","delta":false,"status":"completed","msg_id":"c","index":0,"data":{"call_id":"call_1","name":"f","arguments":"{\"a\":1}"}}"#,
        // agentscope's snapshots: "{}" first, the real arguments at completion.
        r#"{"object":"content","type":"data","delta":false,"status":"in_progress","msg_id":"d","index":0,"data":{"call_id":"call_2","name":"g","arguments":"{}"}}"#,
        r#"{"object":"content","type":"data","delta":false,"status":"completed","msg_id":"d","index":0,"data":{"call_id":"call_2","name":"g","arguments":"{\"b\":2}"}}"#,
        r#"{"object":"content","type":"data","delta":false,"status":"completed","msg_id":"o","index":0,"data":{"call_id":"call_2","output":{"x":[1]}}}"#,
        r#"{"object":"response","status":"completed"}"#,
    ]);
    assert_eq!(
        lines(&out)[1..],
        [
            r#"TOOL_CALL_START toolCallId="call_1" toolCallName="f" parentMessageId="c""#,
            r#"TOOL_CALL_ARGS toolCallId="call_1" delta="{\"a\":""#,
            r#"TOOL_CALL_ARGS toolCallId="call_1" delta="1}""#,
            r#"TOOL_CALL_END toolCallId="call_1""#,
            r#"TOOL_CALL_START toolCallId="call_2" toolCallName="g" parentMessageId="d""#,
            r#"TOOL_CALL_ARGS toolCallId="call_2" delta="{\"b\":2}""#,
            r#"TOOL_CALL_END toolCallId="call_2""#,
            r#"TOOL_CALL_RESULT messageId="o" toolCallId="call_2" content="{\"x\":[1]}" role="tool""#,
            r#"RUN_FINISHED threadId="t" runId="r""#,
        ]
    );
}

#[test]
fn terminals_close_what_is_open_and_nothing_follows() {
    let open = [
        CREATED,
        r#"{"object":"content","type":"text","delta":true,"msg_id":"m","index":0,"text":"a"}"#,
        r#"{"object":"content","type":"data","delta":true,"msg_id":"c","index":0,"data":{"call_id":"k","name":"f","arguments":"{"}}"#,
        r#"{"object":"message","status":"in_progress","id":"r","type":"reasoning"}"#,
        r#"{"object":"content","type":"text","delta":true,"msg_id":"r","index":0,"text":"hm"}"#,
    ];
    let closes = [
        r#"TEXT_MESSAGE_END messageId="m""#,
        r#"TOOL_CALL_END toolCallId="k""#,
        r#"REASONING_MESSAGE_END messageId="r""#,
        r#"REASONING_END messageId="r""#,
    ];
    for (last, terminal) in [
        (
            r#"{"object":"response","status":"failed","error":{"code":"E","message":"boom"},"usage":{"prompt_tokens":3,"completion_tokens":2,"completion_tokens_details":{"reasoning_tokens":1},"input_tokens_details":{"cached_tokens":-1}}}"#,
            r#"RUN_ERROR message="boom" code="E" usage=[{"inputTokens":3,"outputTokens":2,"reasoningTokens":1}]"#,
        ),
        (
            r#"{"object":"response","status":"rejected"}"#,
            r#"RUN_ERROR message="agent run failed" code="unknown_error""#,
        ),
        (
            r#"{"object":"response","status":"canceled"}"#,
            r#"RUN_FINISHED threadId="t" runId="r" outcome={"type":"cancelled"}"#,
        ),
        (
            r#"{"error":"server exploded"}"#,
            r#"RUN_ERROR message="server exploded" code="SERVER_ERROR""#,
        ),
        // No terminal at all: finish() ends the run.
        (
            r#"{"object":"response","status":"in_progress"}"#,
            r#"RUN_ERROR message="The stream ended before the run did." code="INCOMPLETE_STREAM""#,
        ),
    ] {
        let mut input = open.to_vec();
        input.push(last);
        input.push(r#"{"object":"content","type":"text","delta":true,"msg_id":"z","index":0,"text":"late"}"#);
        input.push(r#"{"object":"response","status":"completed"}"#);
        let got = lines(&translate(&input));
        let n = got.len();
        if last.contains("in_progress") {
            // The late events of this input are a run that goes on: it completes normally.
            assert_eq!(got[n - 1], r#"RUN_FINISHED threadId="t" runId="r""#);
            continue;
        }
        assert_eq!(got[n - 5..n - 1], closes, "{last}");
        assert_eq!(got[n - 1], terminal, "{last}");
    }
    let got = lines(&translate(&open));
    assert_eq!(
        got.last().unwrap(),
        r#"RUN_ERROR message="The stream ended before the run did." code="INCOMPLETE_STREAM""#
    );
    // An empty input writes nothing.
    assert_eq!(translate(&[]), "");
}

#[test]
fn media_parts_become_custom_events_once() {
    let out = translate(&[
        CREATED,
        r#"{"object":"content","type":"image","delta":false,"status":"completed","msg_id":"m","index":1,"image_url":"https://x/y.png"}"#,
        r#"{"object":"message","status":"completed","id":"m","type":"message","content":[{"type":"text","index":0,"text":"see"},{"type":"image","index":1,"image_url":"https://x/y.png"}]}"#,
        r#"{"object":"message","status":"completed","id":"h","type":"heartbeat","content":[{"type":"text","text":"skip me"}]}"#,
        r#"{"object":"response","status":"completed"}"#,
    ]);
    assert_eq!(
        lines(&out)[1..],
        [
            r#"CUSTOM name="agent-api.content" value={"object":"content","status":"completed","type":"image","index":1,"delta":false,"msg_id":"m","image_url":"https://x/y.png"}"#,
            r#"TEXT_MESSAGE_START messageId="m" role="assistant""#,
            r#"TEXT_MESSAGE_CONTENT messageId="m" delta="see""#,
            r#"TEXT_MESSAGE_END messageId="m""#,
            r#"RUN_FINISHED threadId="t" runId="r""#,
        ]
    );
}

#[test]
fn ndjson_framing_and_auto_rejected() {
    let mut enc = AgUiEncoder::new(Format::Ndjson)
        .unwrap()
        .with_thread_id("t")
        .with_run_id("r");
    let r = AgentResponse::with_id("x".to_owned(), 0);
    let mut out = Vec::new();
    enc.encode(&BuilderEvent::Response(&r), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"protocolVersion\":\"1.0\"}\n"
    );
    assert_eq!(enc.content_type(), "application/x-ndjson");
    assert!(!enc.is_ended());
    let e = AgUiEncoder::new(Format::Auto).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidOption);
}

#[test]
fn usage_counts_outside_the_token_range_are_left_out() {
    let mut usage = JsonMap::new();
    usage.insert("total_tokens".into(), Value::from(1u64 << 53));
    usage.insert("input_tokens".into(), Value::from(-1));
    let mut out = Vec::new();
    usage_json(&mut out, &usage);
    assert!(out.is_empty());
    usage.insert("output_tokens".into(), Value::from(7));
    usage_json(&mut out, &usage);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        ",\"usage\":[{\"outputTokens\":7}]"
    );
}
