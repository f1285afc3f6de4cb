//! Agent API messages (a request's `input`, a snapshot's `output`) as AG-UI messages: the
//! history a UI sends to an AG-UI server, as `@ag-ui/client` holds the same messages after
//! agentwire's AG-UI encoding of them ([`AgUiEncoder`](super::AgUiEncoder)).
//!
//! | Agent API | AG-UI |
//! |---|---|
//! | `message` / `error`: text and refusal parts | `{id, role, content}`: the texts joined; `user` and `system` keep their role, others are `assistant` |
//! | `reasoning` | `{id, role: "reasoning", content}` |
//! | `function_call` / `plugin_call` / `mcp_call` | `{id, role: "assistant", toolCalls: [{id: call_id, type: "function", function: {name, arguments}}]}` |
//! | `*_call_output` | `{id, role: "tool", toolCallId, content}` (a non-string output as JSON text) |
//!
//! A message without an id gets a fresh one (`msg_…`): AG-UI requires ids. Messages without
//! text, parts AG-UI messages cannot hold (images, files, data in a text message) and other
//! message types are left out. Values that are not messages are skipped.

use serde_json::{json, Map, Value};

use crate::protocol::json::value_text;

use crate::protocol::new_id;
use crate::Result;

/// The AG-UI messages for `messages` (Agent API message values, in order).
///
/// # Errors
///
/// Only when a fresh id cannot be made (no randomness source).
pub fn messages_from_agent_api(messages: &[Value]) -> Result<Vec<Value>> {
    let mut out = Vec::with_capacity(messages.len());
    for m in messages {
        let Value::Object(m) = m else {
            continue;
        };
        if let Some(message) = one(m)? {
            out.push(message);
        }
    }
    Ok(out)
}

fn str_of<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

fn parts(m: &Map<String, Value>) -> &[Value] {
    m.get("content")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The first data part's `data` object.
fn data(m: &Map<String, Value>) -> Option<&Map<String, Value>> {
    parts(m).iter().find_map(|p| {
        (p.get("type").and_then(Value::as_str) == Some("data"))
            .then(|| p.get("data").and_then(Value::as_object))
            .flatten()
    })
}

fn id_of(m: &Map<String, Value>) -> Result<String> {
    match str_of(m, "id").filter(|id| !id.is_empty()) {
        Some(id) => Ok(id.to_owned()),
        None => new_id("msg_"),
    }
}

fn one(m: &Map<String, Value>) -> Result<Option<Value>> {
    let kind = str_of(m, "type").unwrap_or("message");
    Ok(match kind {
        "message" | "error" | "reasoning" => {
            let mut texts = parts(m)
                .iter()
                .filter_map(|p| match p.get("type").and_then(Value::as_str) {
                    Some("text") => Some(p.get("text").and_then(Value::as_str).unwrap_or("")),
                    Some("refusal") => Some(p.get("refusal").and_then(Value::as_str).unwrap_or("")),
                    _ => None,
                })
                .peekable();
            if texts.peek().is_none() {
                return Ok(None);
            }
            let content: String = texts.collect();
            let role = match (kind, str_of(m, "role")) {
                ("reasoning", _) => "reasoning",
                (_, Some(role @ ("user" | "system"))) => role,
                _ => "assistant",
            };
            Some(json!({"id": id_of(m)?, "role": role, "content": content}))
        }
        "function_call" | "plugin_call" | "mcp_call" => {
            let Some(data) = data(m) else {
                return Ok(None);
            };
            let id = id_of(m)?;
            let name = str_of(data, "name").unwrap_or("");
            let call_id = str_of(data, "call_id")
                .filter(|c| !c.is_empty())
                .unwrap_or(&id)
                .to_owned();
            let arguments = value_text(data.get("arguments"));
            Some(json!({"id": id, "role": "assistant", "toolCalls": [{
                "id": call_id, "type": "function",
                "function": {"name": name, "arguments": arguments},
            }]}))
        }
        "function_call_output" | "plugin_call_output" | "mcp_call_output" => {
            let Some(data) = data(m) else {
                return Ok(None);
            };
            Some(json!({
                "id": id_of(m)?, "role": "tool",
                "toolCallId": value_text(data.get("call_id")),
                "content": value_text(data.get("output")),
            }))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_each_message_kind_and_mints_missing_ids() {
        let input = json!([
            {"role": "user", "type": "message", "content": [{"type": "text", "text": "Hi"}]},
            {"id": "r", "type": "reasoning", "role": "assistant", "content": [{"type": "text", "text": "hm"}]},
            {"id": "c", "type": "function_call", "role": "assistant", "content": [{"type": "data",
                "data": {"call_id": "call_1", "name": "f", "arguments": {"a": 1}}}]},
            {"id": "o", "type": "function_call_output", "role": "tool", "content": [{"type": "data",
                "data": {"call_id": "call_1", "output": [1]}}]},
            {"id": "a", "type": "message", "role": "assistant", "content": [
                {"type": "text", "text": "Sun"}, {"type": "image", "image_url": "x"}, {"type": "refusal", "refusal": "!"}]},
            {"id": "e", "type": "message", "role": "assistant", "content": [{"type": "image", "image_url": "x"}]},
            {"id": "h", "type": "heartbeat"},
            7,
        ]);
        let out = messages_from_agent_api(input.as_array().unwrap()).unwrap();
        assert_eq!(out.len(), 5);
        let minted = out[0]["id"].as_str().unwrap();
        assert!(minted.starts_with("msg_") && minted.len() > 10, "{minted}");
        assert_eq!(out[0]["role"], "user");
        assert_eq!(out[0]["content"], "Hi");
        assert_eq!(
            out[1],
            json!({"id": "r", "role": "reasoning", "content": "hm"})
        );
        assert_eq!(
            out[2],
            json!({"id": "c", "role": "assistant", "toolCalls": [{"id": "call_1", "type": "function",
                "function": {"name": "f", "arguments": "{\"a\":1}"}}]})
        );
        assert_eq!(
            out[3],
            json!({"id": "o", "role": "tool", "toolCallId": "call_1", "content": "[1]"})
        );
        assert_eq!(
            out[4],
            json!({"id": "a", "role": "assistant", "content": "Sun!"})
        );
    }
}
