//! An OpenAI Responses `create` request (`POST /responses`) → an [`AgentRequest`].

use serde_json::{json, Map, Value};

use super::ResponseEcho;
use crate::protocol::{parse_request, AgentRequest};
use crate::{Error, ErrorCode, Result};

/// Maps an OpenAI Responses `create` request body to an [`AgentRequest`], as the reference's
/// `convert_responses_request_to_agent_request` does (`reference/agentscope-protocol.md` §7.1),
/// with its losses fixed:
///
/// - `input` as a string is one `user` message; as a list, each item becomes a message: a
///   message item (with or without `type: "message"`; `input_text`/`output_text` → text,
///   `refusal`, `input_image` → image, `input_audio` → audio, `input_file` → file),
///   `reasoning` (its `summary` and `content` texts), `function_call` / `function_call_output`,
///   `custom_tool_call` / `custom_tool_call_output` (as `plugin_call` / `plugin_call_output`),
///   `mcp_approval_request` / `mcp_approval_response` (their fields as a data part), a
///   `compaction` item (the messages it stands for when agentwire wrote it, see
///   [`compaction_answer`](super::compaction_answer); else its fields as a data part); other
///   item types are skipped.
/// - `instructions` becomes a first `system` message and `developer` messages become `system`
///   ones (the reference drops both); `max_output_tokens` → `max_tokens` and `user` → `user_id`
///   (the reference drops them); `conversation` (a string or `{id}`) → `session_id`; `tools`
///   (`{type, name, description, parameters}`) → Agent API tools; `model`, `temperature`,
///   `top_p` are copied; `stream` is kept as sent (default `false`, OpenAI's).
/// - Everything else (`previous_response_id`, `metadata`, `reasoning`, `text`, …) is kept as an
///   extra top-level key of the request.
///
/// # Errors
///
/// `INVALID_JSON` for text that is not a JSON object; `INVALID_REQUEST` naming the field for
/// an `input` that is missing or neither a string nor a list, an item or part that is not an
/// object, `content` of the wrong type, `tools` that are not a list of objects, or a result
/// that fails Agent API request validation (e.g. a `temperature` that is not a number).
///
/// # Example
///
/// ```
/// use agentwire::responses::agent_request;
///
/// let request = agent_request(r#"{"model":"m","instructions":"Be brief.",
///     "input":[{"role":"user","content":[{"type":"input_text","text":"Hi"}]}],"stream":true}"#)?;
/// assert_eq!(request.input.len(), 2);
/// assert_eq!(request.input[1].get_text_content(), Some("Hi"));
/// assert!(request.stream);
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn agent_request(json: &str) -> Result<AgentRequest> {
    map_request(read_body(json)?)
}

/// [`agent_request`] and the [`ResponseEcho`] of the same body (what each `response` object of
/// the answer repeats of it), from one reading: what a server answering `POST /responses` needs.
///
/// # Errors
///
/// Those of [`agent_request`], and `INVALID_REQUEST` naming the field for an echoed field of
/// the wrong type ([`ResponseEcho::from_request`]).
///
/// # Example
///
/// ```
/// use agentwire::responses::agent_request_with_echo;
///
/// let (request, echo) = agent_request_with_echo(r#"{"input":"Hi","instructions":"Be brief."}"#)?;
/// assert_eq!(request.input.len(), 2);
/// assert_eq!(echo.get("instructions"), Some(&serde_json::json!("Be brief.")));
/// assert_eq!(echo.get("tools"), Some(&serde_json::json!([])));
/// # Ok::<(), agentwire::Error>(())
/// ```
pub fn agent_request_with_echo(json: &str) -> Result<(AgentRequest, ResponseEcho)> {
    let body = read_body(json)?;
    // First: its errors name the request's own fields (`max_output_tokens`, not `max_tokens`).
    let echo = ResponseEcho::from_request(&body)?;
    Ok((map_request(body)?, echo))
}

/// The request body as a JSON object.
pub(super) fn read_body(json: &str) -> Result<Map<String, Value>> {
    let body: Value = crate::protocol::parse_repairing(json, |t| serde_json::from_str::<Value>(t))
        .map_err(|e| {
            Error::new(
                ErrorCode::InvalidJson,
                format!("The Responses request is not JSON: {e}."),
            )
        })?;
    let Value::Object(body) = body else {
        return Err(Error::new(
            ErrorCode::InvalidJson,
            "The Responses request is not a JSON object.",
        ));
    };
    Ok(body)
}

/// A `create` body (read by [`read_body`]) as an Agent API request.
pub(super) fn map_request(mut body: Map<String, Value>) -> Result<AgentRequest> {
    let mut input = Vec::new();
    if let Some(instructions) = body.remove("instructions") {
        match instructions {
            Value::String(text) if !text.is_empty() => {
                input.push(message("system", vec![text_part(text)]))
            }
            Value::String(_) | Value::Null => {}
            _ => return Err(invalid("`instructions` must be a string.", "instructions")),
        }
    }
    match body.remove("input") {
        Some(Value::String(text)) => input.push(message("user", vec![text_part(text)])),
        Some(Value::Array(items)) => {
            for (i, item) in items.into_iter().enumerate() {
                // A compaction agentwire answered: the messages it stands for, in its place.
                if let Some(messages) = super::compact::compacted_messages(&item) {
                    input.extend(messages);
                    continue;
                }
                if let Some(m) = item_message(item, i)? {
                    input.push(m);
                }
            }
        }
        None | Some(Value::Null) => {
            return Err(invalid("The Responses request has no `input`.", "input"));
        }
        Some(_) => {
            return Err(invalid(
                "`input` must be a string or a list of items.",
                "input",
            ))
        }
    }
    let mut out = Map::new();
    out.insert("input".into(), Value::Array(input));
    out.insert(
        "stream".into(),
        Value::Bool(
            body.remove("stream")
                .and_then(|s| s.as_bool())
                .unwrap_or(false),
        ),
    );
    if let Some(tools) = body.remove("tools") {
        out.insert("tools".into(), agent_tools(tools)?);
    }
    if let Some(n) = body.remove("max_output_tokens") {
        out.insert("max_tokens".into(), n);
    }
    if let Some(user) = body.remove("user") {
        out.insert("user_id".into(), user);
    }
    match body.remove("conversation") {
        Some(Value::String(id)) => {
            out.insert("session_id".into(), Value::String(id));
        }
        Some(Value::Object(c)) => {
            if let Some(id) = c.get("id").filter(|id| id.is_string()) {
                out.insert("session_id".into(), id.clone());
            }
        }
        _ => {}
    }
    for (key, value) in body {
        // `input`/`stream`/`tools` are taken; other Agent API names are the same in both.
        out.entry(key).or_insert(value);
    }
    parse_request(&Value::Object(out).to_string())
}

fn invalid(message: &str, field: &str) -> Error {
    Error::new(ErrorCode::InvalidRequest, message).with_field(field)
}

fn text_part(text: String) -> Value {
    json!({"type": "text", "text": text})
}

fn message(role: &str, content: Vec<Value>) -> Value {
    json!({"type": "message", "role": role, "content": content})
}

/// One `input` item as an Agent API message (`None`: a type agentwire does not carry).
fn item_message(item: Value, i: usize) -> Result<Option<Value>> {
    let Value::Object(mut item) = item else {
        return Err(invalid(
            "Each `input` item must be an object.",
            &format!("input.{i}"),
        ));
    };
    let kind = item
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("message")
        .to_string();
    let data = |item: &mut Map<String, Value>, keys: &[&str]| {
        let mut data = Map::new();
        for k in keys {
            if let Some(v) = item.remove(*k) {
                data.insert((*k).to_string(), v);
            }
        }
        json!([{"type": "data", "data": data}])
    };
    let with_id = |mut m: Value, item: &Map<String, Value>| {
        if let (Some(id), Value::Object(map)) = (item.get("id").filter(|v| v.is_string()), &mut m) {
            map.insert("id".into(), id.clone());
        }
        m
    };
    Ok(Some(match kind.as_str() {
        "message" => {
            let role = match item.get("role").and_then(Value::as_str) {
                Some("developer") | Some("system") => "system",
                Some("assistant") => "assistant",
                Some("tool") => "tool",
                _ => "user",
            };
            let content = match item.remove("content") {
                Some(Value::String(text)) => vec![text_part(text)],
                Some(Value::Array(parts)) => {
                    let mut out = Vec::new();
                    for (j, part) in parts.into_iter().enumerate() {
                        if let Some(p) = content_part(part, i, j)? {
                            out.push(p);
                        }
                    }
                    out
                }
                None | Some(Value::Null) => Vec::new(),
                Some(_) => {
                    return Err(invalid(
                        "A message's `content` must be a string or a list of parts.",
                        &format!("input.{i}.content"),
                    ))
                }
            };
            with_id(message(role, content), &item)
        }
        "reasoning" => {
            let mut parts = Vec::new();
            for key in ["summary", "content"] {
                if let Some(Value::Array(list)) = item.get(key) {
                    for p in list {
                        if let Some(t) = p.get("text").and_then(Value::as_str) {
                            parts.push(text_part(t.to_string()));
                        }
                    }
                }
            }
            with_id(
                json!({"type": "reasoning", "role": "assistant", "content": parts}),
                &item,
            )
        }
        "function_call" => with_id(
            json!({"type": "function_call", "role": "assistant",
                   "content": data(&mut item, &["call_id", "name", "arguments"])}),
            &item,
        ),
        "function_call_output" => json!({"type": "function_call_output", "role": "tool",
            "content": data(&mut item, &["call_id", "output"])}),
        "custom_tool_call" => json!({"type": "plugin_call", "role": "assistant",
            "content": data(&mut item, &["call_id", "name", "input", "id"])}),
        "custom_tool_call_output" => json!({"type": "plugin_call_output", "role": "tool",
            "content": data(&mut item, &["call_id", "output", "id"])}),
        // Human in the loop: an approval asked, and its answer (the Agent API's own types).
        "mcp_approval_request" => with_id(
            json!({"type": "mcp_approval_request", "role": "assistant",
                   "content": data(&mut item, &["name", "arguments", "server_label"])}),
            &item,
        ),
        "mcp_approval_response" => json!({"type": "mcp_approval_response", "role": "user",
            "content": data(&mut item, &["approval_request_id", "approve", "reason", "id"])}),
        // A compaction another server wrote: kept, its fields as data.
        "compaction" => json!({"type": "compaction", "role": "system",
            "content": data(&mut item, &["encrypted_content", "id", "created_by"])}),
        _ => return Ok(None),
    }))
}

/// One part of a message's `content` as Agent API content (`None`: a part it does not carry).
fn content_part(part: Value, i: usize, j: usize) -> Result<Option<Value>> {
    let Value::Object(p) = part else {
        return Err(invalid(
            "Each content part must be an object.",
            &format!("input.{i}.content.{j}"),
        ));
    };
    let s = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_string);
    Ok(match p.get("type").and_then(Value::as_str) {
        Some("input_text" | "output_text" | "text") => {
            Some(text_part(s("text").unwrap_or_default()))
        }
        Some("refusal") => {
            Some(json!({"type": "refusal", "refusal": s("refusal").unwrap_or_default()}))
        }
        Some("input_image") => s("image_url").map(|url| json!({"type": "image", "image_url": url})),
        Some("input_audio") => p
            .get("input_audio")
            .map(|a| json!({"type": "audio", "data": a.get("data"), "format": a.get("format")})),
        Some("input_file") => {
            let mut f = Map::new();
            f.insert("type".into(), Value::from("file"));
            for (from, to) in [
                ("file_url", "file_url"),
                ("file_id", "file_id"),
                ("file_data", "file_data"),
                ("filename", "filename"),
            ] {
                if let Some(v) = s(from) {
                    f.insert(to.into(), Value::String(v));
                }
            }
            Some(Value::Object(f))
        }
        _ => None,
    })
}

/// Responses `tools` → Agent API tools: a function tool's `name`, `description` and
/// `parameters` move into `function`; other tools are kept as they are.
fn agent_tools(tools: Value) -> Result<Value> {
    let Value::Array(tools) = tools else {
        return Err(invalid("`tools` must be a list.", "tools"));
    };
    let mut out = Vec::new();
    for (i, tool) in tools.into_iter().enumerate() {
        let Value::Object(mut t) = tool else {
            return Err(invalid(
                "Each tool must be an object.",
                &format!("tools.{i}"),
            ));
        };
        if t.get("type").and_then(Value::as_str) == Some("function") && !t.contains_key("function")
        {
            let mut function = Map::new();
            for k in ["name", "description", "parameters"] {
                if let Some(v) = t.remove(k) {
                    function.insert(k.to_string(), v);
                }
            }
            out.push(json!({"type": "function", "function": function}));
        } else {
            out.push(Value::Object(t));
        }
    }
    Ok(Value::Array(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_input_shape_maps_as_the_reference_does_and_what_it_drops_is_kept() {
        let r = agent_request(
            r#"{"model":"m","instructions":"Be brief.","max_output_tokens":50,"user":"u1",
            "conversation":{"id":"conv_1"},"previous_response_id":"resp_0","temperature":0.5,
            "tools":[{"type":"function","name":"get_weather","description":"d","parameters":{"type":"object"}}],
            "input":[
              {"role":"developer","content":"Use metric units."},
              {"type":"message","role":"user","content":[{"type":"input_text","text":"Weather?"},
                {"type":"input_image","image_url":"https://x/a.png"},{"type":"input_file","file_url":"https://x/a.pdf","filename":"a.pdf"}]},
              {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Think"}]},
              {"type":"function_call","id":"fc_1","call_id":"c1","name":"get_weather","arguments":"{}"},
              {"type":"function_call_output","call_id":"c1","output":"Sunny"},
              {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Sunny."}]},
              {"type":"item_reference","id":"x"}
            ]}"#,
        )
        .unwrap();
        let v = serde_json::to_value(&r).unwrap();
        let types: Vec<_> = r.input.iter().map(|m| m.message_type.as_str()).collect();
        assert_eq!(
            types,
            [
                "message",
                "message",
                "message",
                "reasoning",
                "function_call",
                "function_call_output",
                "message"
            ]
        );
        assert_eq!(v["input"][0]["role"], "system");
        assert_eq!(v["input"][0]["content"][0]["text"], "Be brief.");
        assert_eq!(v["input"][1]["role"], "system");
        assert_eq!(v["input"][2]["content"][1]["image_url"], "https://x/a.png");
        assert_eq!(v["input"][2]["content"][2]["filename"], "a.pdf");
        assert_eq!(
            v["input"][4]["content"][0]["data"],
            json!({"call_id":"c1","name":"get_weather","arguments":"{}"})
        );
        assert_eq!(
            v["input"][5]["content"][0]["data"],
            json!({"call_id":"c1","output":"Sunny"})
        );
        assert_eq!(v["max_tokens"], 50);
        assert_eq!(v["user_id"], "u1");
        assert_eq!(v["session_id"], "conv_1");
        assert_eq!(v["previous_response_id"], "resp_0");
        assert_eq!(v["tools"][0]["function"]["name"], "get_weather");
        assert!(!r.stream);
    }

    #[test]
    fn malformed_requests_name_the_field() {
        for (body, code, field) in [
            ("[]", ErrorCode::InvalidJson, None),
            ("{", ErrorCode::InvalidJson, None),
            (r#"{"model":"m"}"#, ErrorCode::InvalidRequest, Some("input")),
            (r#"{"input":5}"#, ErrorCode::InvalidRequest, Some("input")),
            (
                r#"{"input":[5]}"#,
                ErrorCode::InvalidRequest,
                Some("input.0"),
            ),
            (
                r#"{"input":[{"role":"user","content":5}]}"#,
                ErrorCode::InvalidRequest,
                Some("input.0.content"),
            ),
            (
                r#"{"input":[{"role":"user","content":[1]}]}"#,
                ErrorCode::InvalidRequest,
                Some("input.0.content.0"),
            ),
            (
                r#"{"input":"hi","tools":{}}"#,
                ErrorCode::InvalidRequest,
                Some("tools"),
            ),
            (
                r#"{"input":"hi","instructions":5}"#,
                ErrorCode::InvalidRequest,
                Some("instructions"),
            ),
        ] {
            let e = agent_request(body).unwrap_err();
            assert_eq!((e.code(), e.field()), (code, field), "{body}");
        }
        assert!(agent_request(r#"{"input":"hi","temperature":"hot"}"#).is_err());
    }

    #[test]
    fn deep_and_wide_requests_are_refused_or_read_in_linear_time() {
        // Nesting past the reader's limit: a clear error, no stack overflow.
        let deep = format!(
            r#"{{"input":[{{"type":"function_call_output","call_id":"c","output":{}1{}}}]}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(
            agent_request(&deep).unwrap_err().code(),
            ErrorCode::InvalidJson
        );
        // 20,000 items, each with parts: read whole (every one kept, in order).
        let item = r#"{"role":"user","content":[{"type":"input_text","text":"x"},{"type":"input_image","image_url":"https://x/a.png"}]}"#;
        let wide = format!(r#"{{"input":[{}]}}"#, vec![item; 20_000].join(","));
        let r = agent_request(&wide).unwrap();
        assert_eq!(r.input.len(), 20_000);
        assert!(r
            .input
            .iter()
            .all(|m| m.content.as_ref().map(Vec::len) == Some(2)));
    }
}
