//! The enforcement stage: raw JSON in, a typed [`Event`] out, with unknown material stripped.

use serde_json::Value;

use super::event::{Event, EventType};
use super::schema;
use crate::{Error, ErrorCode, Result};

/// What enforcement made of one raw event.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // Built once per event and consumed at once.
pub enum Enforced {
    /// A known event, with the JSON-pointer paths of the undescribed material removed from it.
    Event(Event, Vec<String>),
    /// An event of a type AG-UI 1.0 does not define: dropped (the client warns).
    Unknown(String),
}

/// Reads one raw event as `@ag-ui/client` 1.0's enforcement stage does: an unknown `type` is
/// reported as [`Enforced::Unknown`]; unknown properties and unrecognised union members are
/// stripped (paths returned); a malformed known field is an error whose message is the zod
/// issue list naming the field.
///
/// # Errors
///
/// `INVALID_JSON` when the value is not an object or has no string `type` (the client's
/// `Invalid event: …` texts); `PROTOCOL_VIOLATION` for a malformed known field.
///
/// # Example
///
/// ```
/// use agentwire::agui::{enforce_event, Enforced, Event};
/// use serde_json::json;
///
/// let raw = json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi", "x": 1});
/// let Enforced::Event(Event::TextMessageContent(e), stripped) = enforce_event(raw)? else {
///     unreachable!()
/// };
/// assert_eq!((e.delta.as_str(), stripped), ("Hi", vec!["/x".to_owned()]));
/// let bad = enforce_event(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1"}));
/// assert!(bad.unwrap_err().message().contains("delta"));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn enforce_event(value: Value) -> Result<Enforced> {
    enforce(value, false).map(|(e, _)| e)
}

/// As [`enforce_event`]; with `keep`, also returns the event's JSON after stripping.
pub(crate) fn enforce(mut value: Value, keep: bool) -> Result<(Enforced, Option<Value>)> {
    let Value::Object(map) = &value else {
        return Err(Error::new(
            ErrorCode::InvalidJson,
            "Invalid event: the frame is not a JSON object.",
        ));
    };
    let name = match map.get("type") {
        Some(Value::String(t)) if !t.is_empty() => t,
        _ => {
            return Err(Error::new(
                ErrorCode::InvalidJson,
                "Invalid event: the frame carries no event type.",
            ))
        }
    };
    let Some(t) = EventType::from_name(name) else {
        return Ok((Enforced::Unknown(name.clone()), None));
    };
    let stripped = schema::check_event(&mut value, schema::event_schema(t))
        .map_err(|issues| issues.into_error(ErrorCode::ProtocolViolation, t.as_str()))?;
    let Value::Object(map) = value else {
        return Err(Error::new(
            ErrorCode::InvalidJson,
            "Invalid event: the frame is not a JSON object.",
        ));
    };
    let copy = keep.then(|| Value::Object(map.clone()));
    Ok((Enforced::Event(super::read::event(t, map), stripped), copy))
}

/// Parses and enforces one event from JSON text (see [`enforce_event`]).
///
/// # Errors
///
/// `INVALID_JSON` for text that is not a JSON object with a `type`; `PROTOCOL_VIOLATION` for a
/// malformed known field.
pub fn parse_event(text: &str) -> Result<Enforced> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        Error::new(
            ErrorCode::InvalidJson,
            format!("The event is not valid JSON: {e}."),
        )
    })?;
    enforce_event(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_event_type_round_trips() {
        let samples = [
            json!({"type":"TEXT_MESSAGE_START","messageId":"m","role":"user","name":"n"}),
            json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":""}),
            json!({"type":"TEXT_MESSAGE_END","messageId":"m"}),
            json!({"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}),
            json!({"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{"}),
            json!({"type":"TOOL_CALL_END","toolCallId":"c"}),
            json!({"type":"STATE_SNAPSHOT","snapshot":null}),
            json!({"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}),
            json!({"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":"hi"}]}),
            json!({"type":"RAW","event":{"x":1},"source":"openai"}),
            json!({"type":"CUSTOM","name":"n","value":null}),
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.0","input":{"threadId":"t","runId":"r","messages":[],"tools":[],"context":[]}}),
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r","result":{"a":1},"outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"approval"}]},"usage":[{"inputTokens":3}]}),
            json!({"type":"RUN_ERROR","message":"boom","code":"E"}),
            json!({"type":"STEP_STARTED","stepName":"s"}),
            json!({"type":"STEP_FINISHED","stepName":"s"}),
            json!({"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"sub","parentToolCallId":"c"}),
            json!({"type":"SUBAGENT_FINISHED","subagentRunId":"s1","outcome":{"type":"suspended","interruptIds":["i"]}}),
            json!({"type":"SUBAGENT_ERROR","subagentRunId":"s1","message":"x"}),
            json!({"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}),
            json!({"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f","delta":"{}"}),
            json!({"type":"TOOL_CALL_RESULT","messageId":"t","toolCallId":"c","content":[{"type":"text","text":"ok"}],"role":"tool"}),
            json!({"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"plan","content":{},"replace":false}),
            json!({"type":"ACTIVITY_DELTA","messageId":"a","activityType":"plan","patch":[]}),
            json!({"type":"REASONING_START","messageId":"r"}),
            json!({"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}),
            json!({"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":"x"}),
            json!({"type":"REASONING_MESSAGE_END","messageId":"r"}),
            json!({"type":"REASONING_MESSAGE_CHUNK","messageId":"r","delta":"x"}),
            json!({"type":"REASONING_END","messageId":"r"}),
            json!({"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c","encryptedValue":"zz","encryptedValueType":"anthropic/thinking"}),
        ];
        assert_eq!(samples.len(), 31);
        for sample in samples {
            let Enforced::Event(event, stripped) = enforce_event(sample.clone()).unwrap() else {
                panic!("unknown: {sample}");
            };
            assert!(stripped.is_empty(), "{sample}: {stripped:?}");
            let back: Value = serde_json::from_str(&event.to_json()).unwrap();
            assert_eq!(back, sample);
        }
    }

    #[test]
    fn unknown_types_and_bad_frames() {
        assert!(matches!(
            enforce_event(json!({"type":"FUTURE_EVENT"})).unwrap(),
            Enforced::Unknown(t) if t == "FUTURE_EVENT"
        ));
        assert!(enforce_event(json!([1]))
            .unwrap_err()
            .message()
            .contains("not a JSON object"));
        assert!(enforce_event(json!({"type":""}))
            .unwrap_err()
            .message()
            .contains("no event type"));
        let e = enforce_event(
            json!({"type":"REASONING_MESSAGE_START","messageId":"m","role":"assistant"}),
        )
        .unwrap_err();
        assert!(e.message().contains("expected \\\"reasoning\\\""));
    }
}
