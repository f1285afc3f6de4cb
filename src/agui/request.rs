//! AG-UI `RunAgentInput` → Agent API [`AgentRequest`]: [`agent_request`], the mapping of the
//! reference's AG-UI adapter (`reference/agentscope-protocol.md` §7.3), with its gaps fixed.
//!
//! | AG-UI                                   | Agent API                                               |
//! |-----------------------------------------|---------------------------------------------------------|
//! | `runId` / `threadId`                    | `id` / `session_id`; `stream: true`                      |
//! | `forwardedProps.user_id` (or `userId`)  | `user_id` (default `"default_user_id"`)                  |
//! | `tools[]`                               | `{type: "function", function: {name, description, parameters}}` (absent parameters: an empty object schema) |
//! | `state`, `forwardedProps`, `parentRunId`, `context` | extra keys `state`, `forwarded_props`, `parent_run_id`, `context` (`null` / `[]` when absent) |
//! | `resume` (answers to the previous run's interrupts) | extra key `resume`, the entries as AG-UI writes them (`{interruptId, status, payload?, metadata?}`; absent when absent) |
//! | `developer` / `system` message          | `message`, role `system`, one text part                  |
//! | `user` message                          | `message`, role `user`: text → `text`, image → `image` (`image_url`: the URL or a `data:` URI), audio → `audio`, video → `video`, document → `file`; no parts → one empty text part |
//! | `assistant` with `toolCalls`            | its text (if any) as a `message`, then a `function_call` message with one data part `{call_id, name, arguments}` per call (`arguments` `"{}"` when empty) |
//! | `assistant` with text only              | `message`, role `assistant`                              |
//! | `tool`                                  | `function_call_output`, role `tool`, data `{call_id, name: null, output}` (`output`: the text, content parts as JSON text, or `"error: <error>"`) |
//! | `reasoning`                             | `reasoning` message, role `assistant`, one text part     |
//! | `activity`, empty `assistant`           | dropped                                                  |
//!
//! Message ids are kept. The input is read as the reference's `FlexibleRunAgentInput`:
//! `messages` may be absent, and the snake_case spellings `thread_id`, `run_id`,
//! `parent_run_id` and `forwarded_props` are accepted.

use serde_json::Value;

use super::content::{Content, ContentPart, MediaPart, PartSource};
use super::message::Message;
use super::RunAgentInput;
use crate::codec::write::{raw, string, value};
use crate::protocol::{parse_request, AgentRequest};
use crate::{Error, ErrorCode, Result};

/// Maps an AG-UI `RunAgentInput` body to the Agent API request the reference's AG-UI adapter
/// hands its runner (the mapping is documented at the top of `src/agui/request.rs`).
///
/// # Example
///
/// ```
/// let body = r#"{"threadId":"t1","runId":"r1","forwardedProps":{"user_id":"u1"},
///   "messages":[{"id":"m1","role":"user","content":"Hi"}]}"#;
/// let request = agentwire::agui::agent_request(body)?;
/// assert_eq!(request.session_id.as_deref(), Some("t1"));
/// assert_eq!(request.id.as_deref(), Some("r1"));
/// assert_eq!(request.user_id.as_deref(), Some("u1"));
/// assert_eq!(request.input.len(), 1);
///
/// let err = agentwire::agui::agent_request(r#"{"runId":"r1"}"#).unwrap_err();
/// assert_eq!(err.field(), Some("threadId"));
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Errors
///
/// `INVALID_JSON` for text that is not JSON; `INVALID_REQUEST` naming the field for a missing or
/// malformed one (e.g. `RunAgentInput` without `threadId`).
pub fn agent_request(json: &str) -> Result<AgentRequest> {
    let mut v: Value = crate::protocol::parse_repairing(json, |t| serde_json::from_str(t))
        .map_err(|e| {
            Error::new(
                ErrorCode::InvalidJson,
                format!("The RunAgentInput is not JSON: {e}."),
            )
        })?;
    if let Value::Object(map) = &mut v {
        for (snake, camel) in [
            ("thread_id", "threadId"),
            ("run_id", "runId"),
            ("parent_run_id", "parentRunId"),
            ("forwarded_props", "forwardedProps"),
        ] {
            if !map.contains_key(camel) {
                if let Some(x) = map.remove(snake) {
                    map.insert(camel.to_owned(), x);
                }
            }
        }
        if !map.contains_key("messages") {
            map.insert("messages".to_owned(), Value::Array(Vec::new()));
        }
    }
    let (input, _) = RunAgentInput::from_value_with_warnings(v)?;
    agent_request_from_input(&input)
}

/// As [`agent_request`], from an input already read.
///
/// # Errors
///
/// `INVALID_REQUEST` if the request it maps to is not a valid Agent API request (it always is
/// for a validated input).
pub fn agent_request_from_input(input: &RunAgentInput) -> Result<AgentRequest> {
    let mut out = Vec::new();
    raw(&mut out, "{\"input\":[");
    let mut first = true;
    for m in &input.messages {
        write_message(&mut out, m, &mut first);
    }
    raw(&mut out, "],\"stream\":true,\"id\":");
    string(&mut out, &input.run_id);
    raw(&mut out, ",\"session_id\":");
    string(&mut out, &input.thread_id);
    raw(&mut out, ",\"user_id\":");
    let props = input.forwarded_props.as_ref();
    match ["user_id", "userId"]
        .iter()
        .find_map(|k| props.and_then(|p| p.get(*k)))
    {
        Some(id) => value(&mut out, id),
        None => string(&mut out, "default_user_id"),
    }
    raw(&mut out, ",\"tools\":[");
    for (n, t) in input.tools.iter().enumerate() {
        raw(&mut out, if n == 0 { "" } else { "," });
        raw(&mut out, "{\"type\":\"function\",\"function\":{\"name\":");
        string(&mut out, &t.name);
        raw(&mut out, ",\"description\":");
        string(&mut out, &t.description);
        raw(&mut out, ",\"parameters\":");
        match &t.parameters {
            Some(p) => value(&mut out, p),
            None => raw(
                &mut out,
                "{\"type\":\"object\",\"properties\":{},\"required\":[]}",
            ),
        }
        raw(&mut out, "}}");
    }
    raw(&mut out, "],\"state\":");
    opt_value(&mut out, input.state.as_ref());
    raw(&mut out, ",\"forwarded_props\":");
    opt_value(&mut out, props);
    raw(&mut out, ",\"parent_run_id\":");
    match &input.parent_run_id {
        Some(id) => string(&mut out, id),
        None => raw(&mut out, "null"),
    }
    raw(&mut out, ",\"context\":[");
    for (n, c) in input.context.iter().enumerate() {
        raw(
            &mut out,
            if n == 0 {
                "{\"description\":"
            } else {
                ",{\"description\":"
            },
        );
        string(&mut out, &c.description);
        raw(&mut out, ",\"value\":");
        string(&mut out, &c.value);
        raw(&mut out, "}");
    }
    raw(&mut out, "]");
    if let Some(entries) = &input.resume {
        // The answers to the interrupts the previous run left, as AG-UI writes them.
        raw(&mut out, ",\"resume\":");
        let entries = serde_json::to_value(entries)
            .map_err(|e| Error::new(ErrorCode::InvalidJson, e.to_string()))?;
        value(&mut out, &entries);
    }
    raw(&mut out, "}");
    parse_request(std::str::from_utf8(&out).unwrap_or_default())
}

fn opt_value(out: &mut Vec<u8>, v: Option<&Value>) {
    match v {
        Some(v) => value(out, v),
        None => raw(out, "null"),
    }
}

/// Starts an input message: `{"id":…,"type":…,"role":…,"content":[`.
fn head(out: &mut Vec<u8>, first: &mut bool, id: &str, ty: &str, role: &str) {
    raw(out, if *first { "{\"id\":" } else { ",{\"id\":" });
    *first = false;
    string(out, id);
    raw(out, ",\"type\":\"");
    raw(out, ty);
    raw(out, "\",\"role\":\"");
    raw(out, role);
    raw(out, "\",\"content\":[");
}

/// A message holding one text part.
fn text_message(out: &mut Vec<u8>, first: &mut bool, id: &str, ty: &str, role: &str, text: &str) {
    head(out, first, id, ty, role);
    raw(out, "{\"type\":\"text\",\"text\":");
    string(out, text);
    raw(out, "}]}");
}

fn write_message(out: &mut Vec<u8>, m: &Message, first: &mut bool) {
    match m {
        Message::Developer(t) | Message::System(t) => {
            text_message(out, first, &t.common.id, "message", "system", &t.content);
        }
        Message::User(u) => {
            head(out, first, &u.common.id, "message", "user");
            match &u.content {
                Content::Text(s) => {
                    raw(out, "{\"type\":\"text\",\"text\":");
                    string(out, s);
                    raw(out, "}");
                }
                Content::Parts(parts) if parts.is_empty() => {
                    raw(out, "{\"type\":\"text\",\"text\":\"\"}");
                }
                Content::Parts(parts) => {
                    for (n, p) in parts.iter().enumerate() {
                        raw(out, if n == 0 { "" } else { "," });
                        user_part(out, p);
                    }
                }
            }
            raw(out, "]}");
        }
        Message::Assistant(a) => {
            let text = a.content.as_deref().unwrap_or("");
            let calls = a.tool_calls.as_deref().unwrap_or_default();
            if !text.is_empty() {
                text_message(out, first, &a.common.id, "message", "assistant", text);
            }
            if !calls.is_empty() {
                head(out, first, &a.common.id, "function_call", "assistant");
                for (n, c) in calls.iter().enumerate() {
                    raw(out, if n == 0 { "" } else { "," });
                    raw(out, "{\"type\":\"data\",\"data\":{\"call_id\":");
                    string(out, &c.id);
                    raw(out, ",\"name\":");
                    string(out, &c.function.name);
                    raw(out, ",\"arguments\":");
                    let args = c.function.arguments.as_str();
                    string(out, if args.is_empty() { "{}" } else { args });
                    raw(out, "}}");
                }
                raw(out, "]}");
            }
        }
        Message::Tool(t) => {
            head(out, first, &t.common.id, "function_call_output", "tool");
            raw(out, "{\"type\":\"data\",\"data\":{\"call_id\":");
            string(out, &t.tool_call_id);
            raw(out, ",\"name\":null,\"output\":");
            match (&t.content, t.error.as_deref()) {
                (Content::Text(s), _) if !s.is_empty() => string(out, s),
                (Content::Parts(p), _) if !p.is_empty() => {
                    let mut json = Vec::new();
                    raw(&mut json, "[");
                    for (n, part) in p.iter().enumerate() {
                        raw(&mut json, if n == 0 { "" } else { "," });
                        part_json(&mut json, part);
                    }
                    raw(&mut json, "]");
                    string(out, std::str::from_utf8(&json).unwrap_or_default());
                }
                (_, Some(e)) => string(out, &format!("error: {e}")),
                _ => raw(out, "\"\""),
            }
            raw(out, "}}]}");
        }
        Message::Reasoning(r) => {
            text_message(
                out,
                first,
                &r.common.id,
                "reasoning",
                "assistant",
                &r.content,
            );
        }
        Message::Activity(_) => {}
    }
}

/// A media part's URL, or its inline data as a `data:` URI.
fn source_url(p: &MediaPart) -> String {
    match &p.source {
        PartSource::Url { value, .. } | PartSource::File { value, .. } => value.clone(),
        PartSource::Data { value, mime_type } => format!("data:{mime_type};base64,{value}"),
    }
}

/// One user content part as an Agent API content part.
fn user_part(out: &mut Vec<u8>, p: &ContentPart) {
    match p {
        ContentPart::Text { text, .. } => {
            raw(out, "{\"type\":\"text\",\"text\":");
            string(out, text);
        }
        ContentPart::Image(m) => {
            raw(out, "{\"type\":\"image\",\"image_url\":");
            string(out, &source_url(m));
        }
        ContentPart::Audio(m) => {
            raw(out, "{\"type\":\"audio\",\"data\":");
            string(out, &source_url(m));
            let format = match &m.source {
                PartSource::Data { mime_type, .. } => Some(mime_type.as_str()),
                PartSource::Url { mime_type, .. } | PartSource::File { mime_type, .. } => {
                    mime_type.as_deref()
                }
            };
            if let Some(f) = format.and_then(|m| m.strip_prefix("audio/")) {
                raw(out, ",\"format\":");
                string(out, f);
            }
        }
        ContentPart::Video(m) => {
            raw(out, "{\"type\":\"video\",\"video_url\":");
            string(out, &source_url(m));
        }
        ContentPart::Document(m) => {
            match &m.source {
                PartSource::Data { .. } => raw(out, "{\"type\":\"file\",\"file_data\":"),
                PartSource::File { .. } => raw(out, "{\"type\":\"file\",\"file_id\":"),
                PartSource::Url { .. } => raw(out, "{\"type\":\"file\",\"file_url\":"),
            }
            match &m.source {
                PartSource::File { value, .. } => string(out, value),
                _ => string(out, &source_url(m)),
            }
            if let Some(name) = m
                .metadata
                .as_ref()
                .and_then(|md| md.get("filename"))
                .and_then(Value::as_str)
            {
                raw(out, ",\"filename\":");
                string(out, name);
            }
        }
    }
    raw(out, "}");
}

/// An AG-UI content part as AG-UI JSON (for a tool output's text).
fn part_json(out: &mut Vec<u8>, p: &ContentPart) {
    let (ty, m) = match p {
        ContentPart::Text { text, .. } => {
            raw(out, "{\"type\":\"text\",\"text\":");
            string(out, text);
            raw(out, "}");
            return;
        }
        ContentPart::Image(m) => ("image", m),
        ContentPart::Audio(m) => ("audio", m),
        ContentPart::Video(m) => ("video", m),
        ContentPart::Document(m) => ("document", m),
    };
    raw(out, "{\"type\":\"");
    raw(out, ty);
    raw(out, "\",\"source\":{\"type\":\"");
    let (kind, v, mime) = match &m.source {
        PartSource::Data { value, mime_type } => ("data", value, Some(mime_type)),
        PartSource::Url { value, mime_type } => ("url", value, mime_type.as_ref()),
        PartSource::File {
            value, mime_type, ..
        } => ("file", value, mime_type.as_ref()),
    };
    raw(out, kind);
    raw(out, "\",\"value\":");
    string(out, v);
    if let Some(mime) = mime {
        raw(out, ",\"mimeType\":");
        string(out, mime);
    }
    raw(out, "}}");
}

#[cfg(test)]
mod tests {
    use super::agent_request;

    #[test]
    fn resume_entries_reach_the_agent_request_as_ag_ui_writes_them() {
        let body = r#"{"threadId":"t","runId":"r2","messages":[],"resume":[{"interruptId":"i1","status":"resolved","payload":{"approved":true}},{"interruptId":"i2","status":"cancelled"}]}"#;
        let request = agent_request(body).unwrap();
        assert_eq!(
            request.extra.get("resume"),
            Some(&serde_json::json!([
                {"interruptId":"i1","status":"resolved","payload":{"approved":true}},
                {"interruptId":"i2","status":"cancelled"}
            ]))
        );
        let without = agent_request(r#"{"threadId":"t","runId":"r1","messages":[]}"#).unwrap();
        assert!(!without.extra.contains_key("resume"));
    }
}
