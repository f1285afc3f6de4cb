//! OpenAI Responses compaction (`POST /responses/compact`): the request as an Agent API request
//! for an app's compaction hook, the answer (`response.compaction`) around the messages the hook
//! made of the conversation, and those messages read back when a later request's `input` carries
//! the answer's `compaction` item.
//!
//! The item's `encrypted_content` is opaque to clients: agentwire puts the JSON text of the
//! compacted Agent API messages there (not encrypted: a client could send the same messages as
//! input itself), and a request whose `input` holds such an item gives the agent those messages
//! in its place. A `compaction` item agentwire did not write reaches the agent as a `compaction`
//! message with the item's fields as a data part.

use serde_json::{Map, Value};

use super::request::{map_request, read_body};
use crate::protocol::AgentRequest;
use crate::{Error, ErrorCode, Result};

/// Reads a `POST /responses/compact` body (`model`, `input`, `previous_response_id`,
/// `instructions`, `prompt_cache_key`) as an Agent API request, as
/// [`agent_request`](super::agent_request) reads a `create` body; `input` may be left out
/// (compacting the conversation of `previous_response_id` alone).
///
/// # Errors
///
/// `INVALID_JSON` for text that is not a JSON object; `INVALID_REQUEST` naming `model` when it is
/// missing or not a string, and those of [`agent_request`](super::agent_request).
///
/// # Example
///
/// ```
/// use agentwire::responses::compact_request;
///
/// let request = compact_request(r#"{"model":"m","input":"We launch on Tuesday."}"#)?;
/// assert_eq!(request.input[0].get_text_content(), Some("We launch on Tuesday."));
/// assert!(compact_request(r#"{"input":"Hi"}"#).is_err());
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn compact_request(json: &str) -> Result<AgentRequest> {
    let mut body = read_body(json)?;
    if !body.get("model").is_some_and(Value::is_string) {
        return Err(Error::new(
            ErrorCode::InvalidRequest,
            "A compact request needs `model` (a string).",
        )
        .with_field("model"));
    }
    if body.get("input").is_none_or(Value::is_null) {
        body.insert("input".into(), Value::Array(Vec::new()));
    }
    body.remove("stream");
    map_request(body)
}

/// The answer to a compact request: the JSON text of a `response.compaction` object with id `id`,
/// made at `created_at` (Unix seconds), whose one output item (`compaction`, id `id`) carries
/// `messages` (the JSON text of the compacted Agent API messages) as its `encrypted_content`.
///
/// # Example
///
/// ```
/// use agentwire::responses::compaction_answer;
///
/// let answer = compaction_answer("cmp_1", 1_700_000_000, r#"[{"role":"user","content":[]}]"#);
/// let value: serde_json::Value = serde_json::from_str(&answer).unwrap();
/// assert_eq!(value["object"], "response.compaction");
/// assert_eq!(value["output"][0]["type"], "compaction");
/// ```
pub fn compaction_answer(id: &str, created_at: u64, messages: &str) -> String {
    // Written as text: the answer's shape is fixed, only the two strings need escaping.
    let id = Value::String(id.to_owned()).to_string();
    let content = Value::String(messages.to_owned()).to_string();
    format!(
        concat!(
            r#"{{"id":{id},"object":"response.compaction","output":[{{"type":"compaction","id":{id},"#,
            r#""encrypted_content":{content},"created_by":"agentwire"}}],"created_at":{created_at},"#,
            r#""usage":{{"input_tokens":0,"output_tokens":0,"total_tokens":0,"#,
            r#""input_tokens_details":{{"cached_tokens":0}},"output_tokens_details":{{"reasoning_tokens":0}}}}}}"#
        ),
        id = id,
        content = content,
        created_at = created_at
    )
}

/// The messages an `input` item of type `compaction` written by agentwire carries (its
/// `encrypted_content`: the JSON text of a list of message objects); `None` for any other item.
pub(super) fn compacted_messages(item: &Value) -> Option<Vec<Value>> {
    let item = item.as_object()?;
    if item.get("type").and_then(Value::as_str) != Some("compaction") {
        return None;
    }
    let text = item.get("encrypted_content")?.as_str()?;
    // serde_json refuses nesting past its recursion limit: a hostile text cannot overflow.
    let Ok(Value::Array(messages)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    messages
        .iter()
        .all(|m| m.as_object().is_some_and(is_message))
        .then_some(messages)
}

/// Whether an object looks like an Agent API message (a `role`, `content` a list if any).
fn is_message(m: &Map<String, Value>) -> bool {
    m.get("role").is_some_and(Value::is_string)
        && m.get("content").is_none_or(|c| c.is_array() || c.is_null())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::responses::agent_request;
    use serde_json::json;

    #[test]
    fn a_compaction_answer_fed_back_as_input_gives_the_agent_its_messages() {
        let messages = r#"[{"type":"message","role":"assistant","content":[{"type":"text","text":"Launch on Tuesday."}]}]"#;
        let answer: Value = serde_json::from_str(&compaction_answer("cmp_1", 7, messages)).unwrap();
        let mut input = answer["output"].as_array().unwrap().clone();
        input.push(json!({"type": "message", "role": "user", "content": "When?"}));
        let request = agent_request(&json!({"model": "m", "input": input}).to_string()).unwrap();
        let texts: Vec<_> = request.input.iter().map(|m| m.get_text_content()).collect();
        assert_eq!(texts, [Some("Launch on Tuesday."), Some("When?")]);
        assert_eq!(
            serde_json::to_value(&request.input[0]).unwrap()["role"],
            "assistant"
        );
    }

    #[test]
    fn a_compaction_item_of_another_writer_is_kept_as_a_compaction_message() {
        for content in ["opaque", "[1,2]", r#"[{"content":"x"}]"#, "{}"] {
            let body = json!({"model": "m", "input": [{"type": "compaction", "id": "c9", "encrypted_content": content}]});
            let request = agent_request(&body.to_string()).unwrap();
            assert_eq!(request.input.len(), 1, "{content}");
            let v = serde_json::to_value(&request.input[0]).unwrap();
            assert_eq!(v["type"], "compaction");
            assert_eq!(v["content"][0]["data"]["encrypted_content"], content);
        }
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let body =
            json!({"model": "m", "input": [{"type": "compaction", "encrypted_content": deep}]});
        assert!(agent_request(&body.to_string()).is_ok());
    }

    #[test]
    fn a_compact_request_needs_a_model_and_may_leave_input_out() {
        let e = compact_request(r#"{"input":"x"}"#).unwrap_err();
        assert_eq!(e.field(), Some("model"));
        let e = compact_request(r#"{"model":3,"input":"x"}"#).unwrap_err();
        assert_eq!(e.field(), Some("model"));
        let r = compact_request(r#"{"model":"m","previous_response_id":"resp_1"}"#).unwrap();
        assert!(r.input.is_empty());
        assert!(compact_request("[]").is_err());
    }
}
