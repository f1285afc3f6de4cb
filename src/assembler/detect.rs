//! Which protocol a stream speaks, from its first event.

use serde_json::Value;

use crate::protocol::JsonValue;
use crate::Protocol;

/// Guesses the protocol of an event payload: Agent API events have an `object` key (or are a
/// bare `{"error": …}`); OpenAI Responses events have a dotted lowercase `type`
/// (`response.created`) or `type: "error"`; AG-UI events have an upper-case `type`
/// (`RUN_STARTED`); A2A results are JSON-RPC envelopes (`jsonrpc`). `None` when the payload says nothing (then the next event decides).
pub(crate) fn detect(payload: &str, sse_event: &str) -> Option<Protocol> {
    if sse_event.starts_with("response.") {
        return Some(Protocol::OpenAiResponses);
    }
    let parsed =
        crate::protocol::parse_repairing(payload, |t| serde_json::from_str::<JsonValue>(t));
    let Ok(Value::Object(map)) = parsed.map(|v| v.0) else {
        return None;
    };
    if map.contains_key("object") {
        return Some(Protocol::AgentApi);
    }
    if map.contains_key("jsonrpc") {
        // A2A: a 0.3 result has `kind`; a 1.0 one is a `StreamResponse` (an error alone says
        // nothing of the version: 1.0).
        let v0_3 = map
            .get("result")
            .and_then(Value::as_object)
            .is_some_and(|r| r.contains_key("kind"));
        return Some(if v0_3 { Protocol::A2a03 } else { Protocol::A2a });
    }
    match map.get("type").and_then(Value::as_str) {
        Some(t) if t.starts_with("response.") || t == "error" => Some(Protocol::OpenAiResponses),
        Some(t) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') => {
            Some(Protocol::AgUi)
        }
        _ if map.contains_key("error") => Some(Protocol::AgentApi),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_protocol() {
        assert_eq!(
            detect(r#"{"sequence_number":0,"object":"response"}"#, "message"),
            Some(Protocol::AgentApi)
        );
        assert_eq!(
            detect(r#"{"error": "busy"}"#, "message"),
            Some(Protocol::AgentApi)
        );
        assert_eq!(
            detect(
                r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
                "message"
            ),
            Some(Protocol::AgUi)
        );
        assert_eq!(
            detect(r#"{"type":"response.created"}"#, "message"),
            Some(Protocol::OpenAiResponses)
        );
        assert_eq!(
            detect("{}", "response.created"),
            Some(Protocol::OpenAiResponses)
        );
        assert_eq!(detect("[DONE]", "message"), None);
        assert_eq!(detect(r#"{"hello":1}"#, "message"), None);
    }
}
