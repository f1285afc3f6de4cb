//! Public-API tests of `agentwire::protocol`: error codes and fields, duplicate keys, the
//! reference's verified examples, and properties (never panics; output re-parses to itself).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use agentwire::protocol::{
    merge_data_incrementally, parse_event, parse_request, AgentResponse, Content, ContentBody,
    ErrorInfo, Event, JsonMap, JsonOptions, Message, MessageType, Role, RunStatus,
};
use agentwire::ErrorCode;
use proptest::prelude::*;
use serde_json::{json, Value};

#[test]
fn duplicate_keys_last_value_first_position() {
    // Reference: model_validate_json(...).model_dump_json() of the same inputs.
    let e = parse_event(
        r#"{"object":"content","type":"text","text":"a","zz":1,"text":"b","zz":2,"type":"text"}"#,
    )
    .unwrap();
    assert_eq!(
        e.to_json(),
        r#"{"sequence_number":null,"object":"content","status":null,"error":null,"type":"text","index":null,"delta":false,"msg_id":null,"text":"b","zz":2}"#
    );
    let e = parse_event(
        r#"{"object":"message","id":"m","id":"m2","content":[{"type":"data","data":{"k":"v"},"q":1}],"q":[],"q":{}}"#,
    )
    .unwrap();
    assert_eq!(
        e.to_json(),
        r#"{"sequence_number":null,"object":"message","status":"created","error":null,"id":"m2","type":"message","role":null,"content":[{"sequence_number":null,"object":"content","status":null,"error":null,"type":"data","index":null,"delta":false,"msg_id":null,"data":{"k":"v"},"q":1}],"code":null,"message":null,"usage":null,"metadata":null,"q":{}}"#
    );
}

#[test]
fn event_errors_have_codes_and_fields() {
    let cases: &[(&str, ErrorCode, Option<&str>)] = &[
        ("", ErrorCode::InvalidJson, None),
        ("{\"object\":", ErrorCode::InvalidJson, None),
        ("[]", ErrorCode::InvalidJson, None),
        ("\"content\"", ErrorCode::InvalidJson, None),
        ("{} trailing", ErrorCode::InvalidJson, None),
        ("{}", ErrorCode::ProtocolViolation, Some("object")),
        (
            r#"{"object":5}"#,
            ErrorCode::ProtocolViolation,
            Some("object"),
        ),
        (
            r#"{"object":"content"}"#,
            ErrorCode::ProtocolViolation,
            Some("type"),
        ),
        (
            r#"{"object":"content","type":7}"#,
            ErrorCode::ProtocolViolation,
            Some("type"),
        ),
        (
            r#"{"object":"content","type":"text","index":"x"}"#,
            ErrorCode::ProtocolViolation,
            Some("index"),
        ),
        (
            r#"{"object":"content","type":"data","data":[1]}"#,
            ErrorCode::ProtocolViolation,
            Some("data"),
        ),
        (
            r#"{"object":"message","status":null}"#,
            ErrorCode::ProtocolViolation,
            Some("status"),
        ),
        (
            r#"{"object":"message","content":[{"type":"text","text":1}]}"#,
            ErrorCode::ProtocolViolation,
            Some("content.0.text"),
        ),
        (
            r#"{"object":"response","created_at":"soon"}"#,
            ErrorCode::ProtocolViolation,
            Some("created_at"),
        ),
        (
            r#"{"object":"response","error":{"code":"x"}}"#,
            ErrorCode::ProtocolViolation,
            Some("error.message"),
        ),
        (
            r#"{"object":"response","output":[{"role":"robot"}]}"#,
            ErrorCode::ProtocolViolation,
            Some("output.0.role"),
        ),
    ];
    for (input, code, field) in cases {
        let e = parse_event(input).unwrap_err();
        assert_eq!(e.code(), *code, "{input}: {e:?}");
        assert_eq!(e.field(), *field, "{input}: {e:?}");
    }
    let e = parse_event(r#"{"object":"content","type":"text","index":"x"}"#).unwrap_err();
    assert_eq!(
        e.message(),
        "index: Input should be a valid integer, unable to parse string as an integer"
    );
}

#[test]
fn request_errors() {
    let e = parse_request(r#"{"session_id":"s"}"#).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidRequest);
    assert_eq!(e.message(), "input: Field required");
    let e = parse_request(r#"{"input":[{"content":[{"type":"text"},{"text":"b"}]}]}"#).unwrap_err();
    assert_eq!(e.field(), Some("input.0.content.1"));
    assert_eq!(
        e.message(),
        "input.0.content.1: Unable to extract tag using discriminator 'type'"
    );
    // Unknown content types are rejected in requests, kept in events.
    assert!(parse_request(r#"{"input":[{"content":[{"type":"input_text"}]}]}"#).is_err());
    assert!(parse_event(r#"{"object":"message","content":[{"type":"input_text"}]}"#).is_ok());
    assert_eq!(
        parse_request("nope").unwrap_err().code(),
        ErrorCode::InvalidJson
    );
}

#[test]
fn reference_text_stream_capture() {
    // §4 capture: text framework, one message, no content-completed event.
    let lines = [
        r#"{"sequence_number":0,"object":"response","status":"created","error":null,"id":"req-1","created_at":1795331115,"completed_at":null,"output":null,"usage":null,"session_id":"s1"}"#,
        r#"{"sequence_number":2,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_9f25","text":"Hi"}"#,
        r#"{"sequence_number":3,"object":"response","status":"failed","error":{"code":"AGENT_UNKNOWN_ERROR","message":"Unknown agent error: RuntimeError: Error"},"id":"req-1","created_at":1795331121,"completed_at":null,"output":null,"usage":null,"session_id":"s1"}"#,
    ];
    for line in lines {
        assert_eq!(parse_event(line).unwrap().to_json(), line);
    }
}

#[test]
fn build_like_the_runner() {
    let mut r = AgentResponse::with_id("req-1", 1795331115);
    r.session_id = Some("s1".into());
    r.sequence_number = Some(0);
    let mut m = Message::with_id("msg_1")
        .with_role(Role::Assistant)
        .with_type(MessageType::PluginCall);
    let mut c = Content::data(
        json!({"call_id": "c1", "name": "f", "arguments": ""})
            .as_object()
            .cloned()
            .unwrap(),
    );
    c.index = None;
    m.add_delta_content(&mut c).unwrap();
    m.completed();
    r.add_new_message(m);
    r.completed(1795331116);
    r.sequence_number = Some(6);
    let json = r.to_json();
    let back = parse_event(&json).unwrap();
    assert_eq!(back, Event::Response(r.clone()));
    assert_eq!(back.to_json(), json);
    r.failed(ErrorInfo::new("E", "boom"));
    assert_eq!(r.status, RunStatus::Failed);
    assert!(r
        .to_json_with(JsonOptions::new().omit_nulls(true))
        .contains(r#""error":{"code":"E","message":"boom"}"#));
}

#[test]
fn merge_is_linear_in_deltas() {
    // 20k string deltas on one key: in place, no quadratic re-copy.
    let mut data = JsonMap::new();
    data.insert("arguments".into(), Value::String(String::new()));
    let delta: JsonMap = json!({"arguments": "xy"}).as_object().cloned().unwrap();
    for _ in 0..20_000 {
        agentwire::protocol::merge_data_into(&mut data, delta.clone());
    }
    assert_eq!(data["arguments"].as_str().unwrap().len(), 40_000);
    let merged = merge_data_incrementally(&data, &delta);
    assert_eq!(merged["arguments"].as_str().unwrap().len(), 40_002);
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "[a-z😀é\\n\"\\\\]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{1,6}", inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn arb_event_object() -> impl Strategy<Value = Value> {
    let object = prop_oneof![
        Just("content"),
        Just("message"),
        Just("response"),
        Just("other")
    ];
    let ty = prop_oneof![
        Just("text"),
        Just("data"),
        Just("image"),
        Just("audio"),
        Just("file"),
        Just("refusal"),
        Just("video"),
        Just("weird")
    ];
    (
        object,
        ty,
        prop::collection::vec(
            (
                prop_oneof![
                    Just("text"),
                    Just("data"),
                    Just("index"),
                    Just("delta"),
                    Just("status"),
                    Just("extra_a"),
                    Just("usage"),
                    Just("metadata"),
                    Just("sequence_number"),
                    Just("msg_id"),
                    Just("format"),
                ],
                arb_json(),
            ),
            0..6,
        ),
    )
        .prop_map(|(object, ty, fields)| {
            let mut m = serde_json::Map::new();
            m.insert("object".into(), json!(object));
            m.insert("type".into(), json!(ty));
            for (k, v) in fields {
                m.insert(k.into(), v);
            }
            Value::Object(m)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_event_never_panics(s in "\\PC{0,64}") {
        let _ = parse_event(&s);
        let _ = parse_request(&s);
    }

    #[test]
    fn accepted_events_reserialise_to_a_fixed_point(v in arb_event_object()) {
        let text = v.to_string();
        if let Ok(event) = parse_event(&text) {
            let once = event.to_json();
            let again = parse_event(&once).expect("our own output must parse");
            prop_assert_eq!(again.to_json(), once.clone());
            let slim = event.to_json_with(JsonOptions::new().omit_nulls(true));
            prop_assert!(parse_event(&slim).is_ok());
            if let Event::Content(c) = &event {
                let unknown = matches!(c.body, ContentBody::Unknown { .. });
                prop_assert!(!unknown || c.type_str() == "weird");
            }
        }
    }
}
