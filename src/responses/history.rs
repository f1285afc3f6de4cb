//! Agent API messages (a request's `input`, a snapshot's `output`) as OpenAI Responses `input`
//! items: the history a client sends to a Responses server that does not store responses (or
//! with `store: false`). The reverse is [`agent_request`](super::agent_request)'s reading of
//! `input`.
//!
//! | Agent API | Responses `input` item |
//! |---|---|
//! | `message` / `error` from `user` or `system` | `{type: "message", role, content}` with `input_text`, `input_image`, `input_file` and `input_audio` parts |
//! | `message` / `error` from `assistant` | `{type: "message", role: "assistant", content}` with `output_text` (`annotations: []`) and `refusal` parts |
//! | `reasoning` | `{type: "reasoning", summary: [{type: "summary_text", text}]}` (with its `id` when it has one) |
//! | `function_call` | `{type: "function_call", call_id, name, arguments}` (arguments as JSON text) |
//! | `function_call_output` | `{type: "function_call_output", call_id, output}` (a non-string output as JSON text) |
//! | `plugin_call` / `plugin_call_output` | `custom_tool_call {call_id, name, input}` / `custom_tool_call_output {call_id, output}` |
//! | `mcp_approval_request` / `mcp_approval_response` | the same items, their fields from the data part |
//!
//! Messages with no part an item can hold, data parts and other message types (`mcp_call`,
//! `heartbeat`, …) are left out; values that are not messages are skipped.

use serde_json::{json, Map, Value};

use crate::protocol::json::value_text;

/// The Responses `input` items for `messages` (Agent API message values, in order).
pub fn input_items(messages: &[Value]) -> Vec<Value> {
    messages
        .iter()
        .filter_map(Value::as_object)
        .filter_map(one)
        .collect()
}

fn str_of<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

fn parts(m: &Map<String, Value>) -> impl Iterator<Item = &Map<String, Value>> {
    m.get("content")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_object)
}

fn data(m: &Map<String, Value>) -> Option<&Map<String, Value>> {
    parts(m)
        .find(|p| str_of(p, "type") == Some("data"))
        .and_then(|p| p.get("data").and_then(Value::as_object))
}

fn text_of<'a>(p: &'a Map<String, Value>, key: &str) -> &'a str {
    str_of(p, key).unwrap_or("")
}

/// A part of a message written by `assistant` (`output`) or by anyone else.
fn part(p: &Map<String, Value>, output: bool) -> Option<Value> {
    let t = str_of(p, "type")?;
    Some(match (t, output) {
        ("text", true) => {
            json!({"type": "output_text", "text": text_of(p, "text"), "annotations": []})
        }
        ("refusal", true) => json!({"type": "refusal", "refusal": text_of(p, "refusal")}),
        ("text", false) => json!({"type": "input_text", "text": text_of(p, "text")}),
        ("refusal", false) => json!({"type": "input_text", "text": text_of(p, "refusal")}),
        ("image", false) => {
            json!({"type": "input_image", "image_url": str_of(p, "image_url")?, "detail": "auto"})
        }
        ("audio", false) => json!({"type": "input_audio", "input_audio": {
            "data": str_of(p, "data")?, "format": str_of(p, "format").unwrap_or("wav")}}),
        ("file", false) => {
            let mut f = Map::new();
            f.insert("type".into(), Value::from("input_file"));
            for key in ["file_url", "file_id", "file_data", "filename"] {
                if let Some(v) = str_of(p, key) {
                    f.insert(key.into(), Value::from(v));
                }
            }
            Value::Object(f)
        }
        _ => return None,
    })
}

pub(super) fn one(m: &Map<String, Value>) -> Option<Value> {
    match str_of(m, "type").unwrap_or("message") {
        "message" | "error" => {
            let role = str_of(m, "role")
                .filter(|r| matches!(*r, "user" | "system" | "developer"))
                .unwrap_or("assistant");
            let output = role == "assistant";
            let content: Vec<Value> = parts(m).filter_map(|p| part(p, output)).collect();
            (!content.is_empty())
                .then(|| json!({"type": "message", "role": role, "content": content}))
        }
        "reasoning" => {
            let summary: Vec<Value> = parts(m)
                .filter(|p| str_of(p, "type") == Some("text"))
                .map(|p| json!({"type": "summary_text", "text": text_of(p, "text")}))
                .collect();
            if summary.is_empty() {
                return None;
            }
            let mut item = json!({"type": "reasoning", "summary": summary});
            if let (Some(id), Value::Object(map)) = (str_of(m, "id"), &mut item) {
                map.insert("id".into(), Value::from(id));
            }
            Some(item)
        }
        "function_call" => {
            let d = data(m)?;
            Some(
                json!({"type": "function_call", "call_id": value_text(d.get("call_id")),
                "name": value_text(d.get("name")), "arguments": value_text(d.get("arguments"))}),
            )
        }
        "function_call_output" => {
            let d = data(m)?;
            Some(
                json!({"type": "function_call_output", "call_id": value_text(d.get("call_id")),
                "output": value_text(d.get("output"))}),
            )
        }
        "plugin_call" => {
            let d = data(m)?;
            let input = d.get("input").or_else(|| d.get("arguments"));
            Some(
                json!({"type": "custom_tool_call", "call_id": value_text(d.get("call_id")),
                "name": value_text(d.get("name")), "input": value_text(input)}),
            )
        }
        "plugin_call_output" => {
            let d = data(m)?;
            Some(
                json!({"type": "custom_tool_call_output", "call_id": value_text(d.get("call_id")),
                "output": value_text(d.get("output"))}),
            )
        }
        "mcp_approval_request" => {
            let d = data(m)?;
            Some(
                json!({"type": "mcp_approval_request", "id": str_of(m, "id").unwrap_or_default(),
                "name": value_text(d.get("name")), "arguments": value_text(d.get("arguments")),
                "server_label": value_text(d.get("server_label"))}),
            )
        }
        "mcp_approval_response" => {
            let d = data(m)?;
            let mut item = json!({"type": "mcp_approval_response",
                "approval_request_id": value_text(d.get("approval_request_id")),
                "approve": d.get("approve").and_then(Value::as_bool).unwrap_or(false)});
            if let (Some(reason), Value::Object(map)) =
                (d.get("reason").and_then(Value::as_str), &mut item)
            {
                map.insert("reason".into(), Value::from(reason));
            }
            Some(item)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::responses::agent_request;

    #[test]
    fn a_history_read_back_keeps_texts_calls_and_outputs() {
        let history = json!([
            {"role": "system", "type": "message", "content": [{"type": "text", "text": "Be brief."}]},
            {"role": "user", "type": "message", "content": [{"type": "text", "text": "Weather?"},
                {"type": "image", "image_url": "https://x/y.png"}]},
            {"id": "c", "type": "function_call", "role": "assistant", "content": [{"type": "data",
                "data": {"call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
            {"type": "function_call_output", "role": "tool", "content": [{"type": "data",
                "data": {"call_id": "call_1", "output": {"sky": "clear"}}}]},
            {"type": "message", "role": "assistant", "content": [{"type": "text", "text": "Clear."}]},
            {"type": "heartbeat"},
        ]);
        let items = input_items(history.as_array().unwrap());
        assert_eq!(items.len(), 5);
        assert_eq!(items[1]["content"][1]["type"], "input_image");
        assert_eq!(items[4]["content"][0]["type"], "output_text");
        let back = agent_request(&json!({"input": items}).to_string()).unwrap();
        let back = serde_json::to_value(&back.input).unwrap();
        assert_eq!(back[0]["role"], "system");
        assert_eq!(back[1]["content"][0]["text"], "Weather?");
        assert_eq!(back[1]["content"][1]["image_url"], "https://x/y.png");
        assert_eq!(back[2]["content"][0]["data"]["name"], "get_weather");
        assert_eq!(
            back[2]["content"][0]["data"]["arguments"],
            "{\"city\":\"Paris\"}"
        );
        assert_eq!(
            back[3]["content"][0]["data"]["output"],
            "{\"sky\":\"clear\"}"
        );
        assert_eq!(back[4]["role"], "assistant");
        assert_eq!(back[4]["content"][0]["text"], "Clear.");
    }
}
