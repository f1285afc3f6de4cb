//! An Agent API [`AgentRequest`] → an OpenAI Responses `create` body: [`create_request`], the
//! request a client sends to a Responses server for the same conversation. The reverse of
//! [`agent_request`](super::agent_request):
//!
//! | Agent API | Responses `create` |
//! |---|---|
//! | `input` | `input` items ([`input_items`](super::input_items)) |
//! | `model` (or the `model` given) | `model` |
//! | `tools` | function tools flat: `{type: "function", name, description, parameters, strict: false}`; other tools as they are |
//! | `session_id` | `conversation` |
//! | `max_tokens` / `user_id` | `max_output_tokens` / `user` |
//! | `temperature`, `top_p` | the same |
//! | extra keys Responses defines (`previous_response_id`, `metadata`, `reasoning`, `text`, `store`, `tool_choice`, `parallel_tool_calls`, `truncation`, `include`, …) | the same |
//!
//! `stream` is always `true`. Other extra keys (an AG-UI run's `state`, …) are left out: a
//! Responses server refuses fields it does not define.

use serde_json::{json, Map, Value};

use super::input_items;
use crate::protocol::AgentRequest;
use crate::{Error, ErrorCode, Result};

/// The extra keys of a request that are Responses `create` fields, copied as they are.
const PASSED: [&str; 16] = [
    "previous_response_id",
    "metadata",
    "reasoning",
    "text",
    "store",
    "tool_choice",
    "parallel_tool_calls",
    "truncation",
    "include",
    "instructions",
    "max_tool_calls",
    "prompt",
    "prompt_cache_key",
    "safety_identifier",
    "service_tier",
    "top_logprobs",
];

/// The Responses `create` body (`stream: true`) for `request`, with `model` when given (else
/// the request's own; the mapping is documented at the top of `src/responses/request_out.rs`).
///
/// # Example
///
/// ```
/// let request = agentwire::protocol::parse_request(r#"{"session_id":"conv_1","max_tokens":9,
///   "input":[{"role":"user","type":"message","content":[{"type":"text","text":"Hi"}]}]}"#)?;
/// let body = agentwire::responses::create_request(&request, Some("gpt-5-mini"))?;
/// assert_eq!(body["model"], "gpt-5-mini");
/// assert_eq!(body["conversation"], "conv_1");
/// assert_eq!(body["max_output_tokens"], 9);
/// assert_eq!(body["input"][0]["content"][0]["type"], "input_text");
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Errors
///
/// `INVALID_REQUEST` only when the request has no JSON form.
pub fn create_request(request: &AgentRequest, model: Option<&str>) -> Result<Value> {
    let v = serde_json::to_value(request).map_err(|e| {
        Error::new(
            ErrorCode::InvalidRequest,
            format!("The request has no JSON form: {e}."),
        )
    })?;
    let input = v.get("input").and_then(Value::as_array);
    let mut out = Map::new();
    if let Some(m) = model.or(request.model.as_deref()) {
        out.insert("model".into(), Value::from(m));
    }
    out.insert(
        "input".into(),
        Value::Array(input_items(input.map_or(&[], Vec::as_slice))),
    );
    out.insert("stream".into(), Value::Bool(true));
    if let Some(tools) = v.get("tools").and_then(Value::as_array) {
        out.insert(
            "tools".into(),
            Value::Array(tools.iter().map(responses_tool).collect()),
        );
    }
    if let Some(id) = &request.session_id {
        out.insert("conversation".into(), Value::from(id.as_str()));
    }
    if let Some(n) = request.max_tokens {
        out.insert("max_output_tokens".into(), Value::from(n));
    }
    if let Some(user) = &request.user_id {
        out.insert("user".into(), Value::from(user.as_str()));
    }
    for (key, value) in [
        ("temperature", request.temperature),
        ("top_p", request.top_p),
    ] {
        if let Some(x) = value {
            out.insert(key.into(), Value::from(x));
        }
    }
    for key in PASSED {
        if let Some(value) = request.extra.get(key).filter(|v| !v.is_null()) {
            out.insert(key.into(), value.clone());
        }
    }
    Ok(Value::Object(out))
}

/// An Agent API tool as a Responses tool: a function tool flat, anything else as it is.
fn responses_tool(t: &Value) -> Value {
    let Some(f) = t.get("function").and_then(Value::as_object) else {
        return t.clone();
    };
    let mut tool =
        json!({"type": "function", "name": f.get("name").cloned().unwrap_or(Value::Null)});
    if let Value::Object(map) = &mut tool {
        for key in ["description", "parameters"] {
            if let Some(v) = f.get(key).filter(|v| !v.is_null()) {
                map.insert(key.into(), v.clone());
            }
        }
        // OpenAI's default is `true`, which refuses schemas not written for it.
        let strict = f.get("strict").and_then(Value::as_bool).unwrap_or(false);
        map.insert("strict".into(), Value::Bool(strict));
    }
    tool
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_request;
    use crate::responses::agent_request;

    const CONVERSATION: &str = r#"{"id":"req_1","session_id":"conv_1","user_id":"u1",
      "model":"m","max_tokens":64,"temperature":0.5,
      "input":[
        {"id":"m0","type":"message","role":"system","content":[{"type":"text","text":"Be brief."}]},
        {"id":"m1","type":"message","role":"user","content":[{"type":"text","text":"Weather in Oslo?"}]},
        {"id":"m2","type":"function_call","role":"assistant","content":[{"type":"data",
          "data":{"call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},
        {"id":"m3","type":"function_call_output","role":"tool","content":[{"type":"data",
          "data":{"call_id":"call_1","output":"-3°C"}}]},
        {"id":"m4","type":"message","role":"assistant","content":[{"type":"text","text":"Cold: -3°C."}]},
        {"id":"m5","type":"message","role":"user","content":[{"type":"text","text":"And tomorrow?"}]}
      ],
      "tools":[{"type":"function","function":{"name":"get_weather","description":"Weather",
        "parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}],
      "previous_response_id":"resp_0","state":{"step":2}}"#;

    /// Each message as (type, role, texts, call id, name, arguments, output).
    fn conversation(r: &AgentRequest) -> Vec<Value> {
        let v = serde_json::to_value(&r.input).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let parts = m["content"].as_array().cloned().unwrap_or_default();
                let texts: Vec<&str> = parts.iter().filter_map(|p| p["text"].as_str()).collect();
                let data = parts
                    .iter()
                    .find(|p| p["type"] == "data")
                    .map(|p| &p["data"]);
                let field = |k: &str| data.map_or(Value::Null, |d| d[k].clone());
                json!([
                    m["type"],
                    m["role"],
                    texts.join(""),
                    field("call_id"),
                    field("name"),
                    field("arguments"),
                    field("output")
                ])
            })
            .collect()
    }

    #[test]
    fn a_request_written_as_a_create_body_reads_back_as_the_same_conversation() {
        let request = parse_request(CONVERSATION).unwrap();
        let body = create_request(&request, None).unwrap();
        assert_eq!(body["model"], "m");
        assert_eq!(body["stream"], true);
        assert_eq!(body["conversation"], "conv_1");
        assert_eq!(body["max_output_tokens"], 64);
        assert_eq!(body["previous_response_id"], "resp_0");
        assert!(body.get("state").is_none(), "{body}");
        assert_eq!(
            body["tools"][0],
            json!({"type": "function", "name": "get_weather", "description": "Weather", "strict": false,
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}})
        );
        let back = agent_request(&body.to_string()).unwrap();
        assert_eq!(conversation(&back), conversation(&request));
        assert!(back.stream);
        assert_eq!(back.session_id.as_deref(), Some("conv_1"));
        assert_eq!(back.user_id.as_deref(), Some("u1"));
        assert_eq!(back.max_tokens, Some(64));
        assert_eq!(back.temperature, Some(0.5));
        let tools = serde_json::to_value(&back.tools).unwrap();
        assert_eq!(tools, serde_json::to_value(&request.tools).unwrap());
        assert_eq!(
            create_request(&request, Some("gpt-5-mini")).unwrap()["model"],
            "gpt-5-mini"
        );
    }
}
