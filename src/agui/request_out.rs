//! An Agent API [`AgentRequest`] → an AG-UI `RunAgentInput`: [`run_agent_input`], the request an
//! AG-UI client sends to an AG-UI server for the same conversation. The reverse of
//! [`agent_request`](super::agent_request):
//!
//! | Agent API | AG-UI `RunAgentInput` |
//! |---|---|
//! | `session_id` / `id` | `threadId` / `runId` (fresh `thread_…` / `run_…` ids when absent) |
//! | `input` | `messages` ([`messages_from_agent_api`](super::messages_from_agent_api)) |
//! | `tools` (function tools) | `{name, description, parameters}` (other tools are left out: AG-UI tools are functions) |
//! | extra keys `state`, `forwarded_props`, `context`, `parent_run_id` | `state` (`{}` when absent), `forwardedProps` (`{}` when absent), `context` (its `{description, value}` entries), `parentRunId` |
//! | `user_id` | `forwardedProps.user_id`, unless `forwardedProps` names one (or it is the reader's default, `default_user_id`) |

use serde_json::{json, Map, Value};

use super::messages_from_agent_api;
use crate::protocol::{new_id, AgentRequest};
use crate::{Error, ErrorCode, Result};

/// The AG-UI `RunAgentInput` for `request` (the mapping is documented at the top of
/// `src/agui/request_out.rs`).
///
/// # Example
///
/// ```
/// let request = agentwire::protocol::parse_request(r#"{"session_id":"t1","id":"r1",
///   "input":[{"role":"user","type":"message","content":[{"type":"text","text":"Hi"}]}]}"#)?;
/// let input = agentwire::agui::run_agent_input(&request)?;
/// assert_eq!(input["threadId"], "t1");
/// assert_eq!(input["messages"][0]["content"], "Hi");
/// let back = agentwire::agui::agent_request(&input.to_string())?;
/// assert_eq!(back.input[0].get_text_content(), Some("Hi"));
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Errors
///
/// Only when a fresh id cannot be made (no randomness source), or the request has no JSON form.
pub fn run_agent_input(request: &AgentRequest) -> Result<Value> {
    let v = serde_json::to_value(request).map_err(|e| {
        Error::new(
            ErrorCode::InvalidRequest,
            format!("The request has no JSON form: {e}."),
        )
    })?;
    let input = v.get("input").and_then(Value::as_array);
    let messages = messages_from_agent_api(input.map_or(&[], Vec::as_slice))?;
    let thread_id = match &request.session_id {
        Some(id) if !id.is_empty() => id.clone(),
        _ => new_id("thread_")?,
    };
    let run_id = match &request.id {
        Some(id) if !id.is_empty() => id.clone(),
        _ => new_id("run_")?,
    };
    let tools: Vec<Value> = request
        .tools
        .iter()
        .flatten()
        .filter_map(|t| serde_json::to_value(t).ok())
        .filter_map(|t| function_tool(&t))
        .collect();
    let extra = &request.extra;
    let mut props = match extra.get("forwarded_props") {
        Some(Value::Object(p)) => p.clone(),
        _ => Map::new(),
    };
    if let Some(user) = request.user_id.as_deref() {
        if user != "default_user_id"
            && !props.contains_key("user_id")
            && !props.contains_key("userId")
        {
            props.insert("user_id".into(), Value::from(user));
        }
    }
    let forwarded = match extra.get("forwarded_props") {
        // A non-object value is kept as it is (AG-UI's `forwardedProps` is any JSON).
        Some(p) if !p.is_object() && !p.is_null() => p.clone(),
        _ => Value::Object(props),
    };
    let context: Vec<Value> = extra
        .get("context")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| {
            let description = c.get("description")?.as_str()?;
            let value = c.get("value")?.as_str()?;
            Some(json!({"description": description, "value": value}))
        })
        .collect();
    let mut out = Map::new();
    out.insert("threadId".into(), Value::String(thread_id));
    out.insert("runId".into(), Value::String(run_id));
    if let Some(Value::String(parent)) = extra.get("parent_run_id") {
        out.insert("parentRunId".into(), Value::String(parent.clone()));
    }
    let state = match extra.get("state") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(s) => s.clone(),
    };
    out.insert("state".into(), state);
    out.insert("messages".into(), Value::Array(messages));
    out.insert("tools".into(), Value::Array(tools));
    out.insert("context".into(), Value::Array(context));
    out.insert("forwardedProps".into(), forwarded);
    Ok(Value::Object(out))
}

/// An Agent API tool (`{type: "function", function: {…}}`, or the flat `{type: "function",
/// name, …}`) as an AG-UI tool; `None` for any other tool.
fn function_tool(t: &Value) -> Option<Value> {
    if t.get("type").and_then(Value::as_str).unwrap_or("function") != "function" {
        return None;
    }
    let f = t.get("function").filter(|f| f.is_object()).unwrap_or(t);
    let name = f.get("name")?.as_str()?;
    let description = f.get("description").and_then(Value::as_str).unwrap_or("");
    let mut tool = json!({"name": name, "description": description});
    if let (Some(p), Value::Object(map)) = (f.get("parameters").filter(|p| !p.is_null()), &mut tool)
    {
        map.insert("parameters".into(), p.clone());
    }
    Some(tool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agui::agent_request;
    use crate::protocol::parse_request;

    /// A conversation with every kind AG-UI carries: system, user, reasoning, a tool call, its
    /// output, the answer; a function tool and one that is not.
    const CONVERSATION: &str = r#"{"id":"req_1","session_id":"s1","user_id":"u1",
      "model":"m","max_tokens":64,
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
        "parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}},
        {"type":"mcp","server_label":"x"}],
      "state":{"step":2},"forwarded_props":{"k":"v"},"context":[{"description":"d","value":"v"}],
      "parent_run_id":"run_0"}"#;

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
                    field("arguments"),
                    field("output")
                ])
            })
            .collect()
    }

    #[test]
    fn a_request_written_as_run_agent_input_reads_back_as_the_same_conversation() {
        let request = parse_request(CONVERSATION).unwrap();
        let input = run_agent_input(&request).unwrap();
        assert_eq!(input["threadId"], "s1");
        assert_eq!(input["runId"], "req_1");
        assert_eq!(input["parentRunId"], "run_0");
        assert_eq!(input["state"], json!({"step": 2}));
        assert_eq!(input["forwardedProps"], json!({"k": "v", "user_id": "u1"}));
        assert_eq!(input["tools"].as_array().unwrap().len(), 1);
        let back = agent_request(&input.to_string()).unwrap();
        assert_eq!(conversation(&back), conversation(&request));
        assert_eq!(back.session_id.as_deref(), Some("s1"));
        assert_eq!(back.id.as_deref(), Some("req_1"));
        assert_eq!(back.user_id.as_deref(), Some("u1"));
        let tools = serde_json::to_value(&back.tools).unwrap();
        assert_eq!(tools[0]["function"]["name"], "get_weather");
        assert_eq!(
            tools[0]["function"]["parameters"]["properties"]["city"]["type"],
            "string"
        );
        assert_eq!(
            back.extra["context"],
            json!([{"description": "d", "value": "v"}])
        );
    }

    #[test]
    fn missing_ids_are_fresh_and_absent_extras_are_empty() {
        let request =
            parse_request(r#"{"input":[{"role":"user","content":[{"type":"text","text":"Hi"}]}]}"#)
                .unwrap();
        let input = run_agent_input(&request).unwrap();
        assert!(input["threadId"].as_str().unwrap().starts_with("thread_"));
        assert!(input["runId"].as_str().unwrap().starts_with("run_"));
        assert_eq!(input["state"], json!({}));
        assert_eq!(input["forwardedProps"], json!({}));
        assert!(input.get("parentRunId").is_none());
        assert_eq!(agent_request(&input.to_string()).unwrap().input.len(), 1);
    }
}
