//! An Agent API [`AgentRequest`] → an A2A streaming send: [`streaming_request`], the JSON-RPC
//! request a client sends to an A2A server for the request's last user message: 1.0
//! `SendStreamingMessage` or 0.3 `message/stream`. The reverse of
//! [`a2a_request`](super::a2a_request).
//!
//! A2A carries one message per send (the server keeps the history in the context): only the
//! request's last `user` message goes.
//!
//! | Agent API | A2A `Message` (1.0 / 0.3) |
//! |---|---|
//! | the message's `id` | `messageId` (a fresh `msg_…` when empty) |
//! | `session_id` | `contextId` |
//! | the task id given | `taskId` (a task waiting for input) |
//! | `text` part | `{text}` / `{kind: "text", text}` |
//! | `data` part | `{data}` / `{kind: "data", data}` |
//! | `image`, `audio`, `video`, `file` part | `{url}` or `{raw}` with `mediaType` (and `filename`) / `{kind: "file", file: {uri` or `bytes, mimeType, name}}`; a `data:` URI travels as bytes |
//!
//! Other parts are left out; a message left with no part gets one empty text part (A2A requires
//! one).

use serde_json::{json, Map, Value};

use super::A2aVersion;
use crate::protocol::{new_id, AgentRequest};
use crate::{Error, ErrorCode, Result};

/// The A2A streaming send of `request`'s last user message, as the JSON-RPC request of
/// `version` with id `rpc_id`, in task `task_id` when given (the mapping is documented at the
/// top of `src/a2a/request_out.rs`).
///
/// # Example
///
/// ```
/// use agentwire::a2a::{streaming_request, A2aVersion};
///
/// let request = agentwire::protocol::parse_request(r#"{"session_id":"c1",
///   "input":[{"id":"m1","role":"user","type":"message","content":[{"type":"text","text":"Hi"}]}]}"#)?;
/// let call = streaming_request(&request, A2aVersion::V1_0, &serde_json::json!(1), None)?;
/// assert_eq!(call["method"], "SendStreamingMessage");
/// assert_eq!(call["params"]["message"]["role"], "ROLE_USER");
/// assert_eq!(call["params"]["message"]["parts"][0]["text"], "Hi");
/// assert_eq!(call["params"]["message"]["contextId"], "c1");
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Errors
///
/// `INVALID_REQUEST` (field `input`) when the request has no user message; a fresh id that
/// cannot be made (no randomness source).
pub fn streaming_request(
    request: &AgentRequest,
    version: A2aVersion,
    rpc_id: &Value,
    task_id: Option<&str>,
) -> Result<Value> {
    let v = serde_json::to_value(&request.input).map_err(|e| {
        Error::new(
            ErrorCode::InvalidRequest,
            format!("The request has no JSON form: {e}."),
        )
    })?;
    let last = v
        .as_array()
        .into_iter()
        .flatten()
        .rev()
        .find(|m| {
            m.get("role").and_then(Value::as_str) == Some("user")
                && m.get("type").and_then(Value::as_str).unwrap_or("message") == "message"
        })
        .ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidRequest,
                "A2A sends the last user message; the request has none.",
            )
            .with_field("input")
        })?;
    let v1 = version == A2aVersion::V1_0;
    let mut parts = parts_of(last, v1);
    if parts.is_empty() {
        parts.push(if v1 {
            json!({"text": ""})
        } else {
            json!({"kind": "text", "text": ""})
        });
    }
    let message_id = match last.get("id").and_then(Value::as_str) {
        Some(id) if !id.is_empty() => id.to_owned(),
        _ => new_id("msg_")?,
    };
    let message = a2a_message(
        v1,
        message_id,
        if v1 { "ROLE_USER" } else { "user" },
        parts,
        request.session_id.as_deref().filter(|c| !c.is_empty()),
        task_id.filter(|t| !t.is_empty()),
    );
    Ok(json!({
        "jsonrpc": "2.0",
        "id": rpc_id,
        "method": if v1 { "SendStreamingMessage" } else { "message/stream" },
        "params": {"message": message},
    }))
}

/// The conversation `messages` (Agent API messages, oldest first) as the `history` of task
/// `task_id` in context `context_id`, in `version`: each user or assistant message (type
/// `message`) as an A2A message (`ROLE_USER` / `ROLE_AGENT`; 0.3: `user` / `agent`) with the
/// parts A2A carries, its own id or `<task>-history-<n>`; other messages (tool calls, reasoning)
/// are left out.
///
/// # Example
///
/// ```
/// use agentwire::a2a::{history_messages, A2aVersion};
/// use serde_json::json;
///
/// let messages = [json!({"role":"user","type":"message","content":[{"type":"text","text":"Hi"}]})];
/// let history = history_messages(&messages, A2aVersion::V1_0, "t1", Some("c1"));
/// assert_eq!(history[0], json!({"messageId":"t1-history-0","role":"ROLE_USER","parts":[{"text":"Hi"}],"taskId":"t1","contextId":"c1"}));
/// ```
pub fn history_messages(
    messages: &[Value],
    version: A2aVersion,
    task_id: &str,
    context_id: Option<&str>,
) -> Vec<Value> {
    let v1 = version == A2aVersion::V1_0;
    let mut out = Vec::new();
    for (n, m) in messages.iter().enumerate() {
        if m.get("type").and_then(Value::as_str).unwrap_or("message") != "message" {
            continue;
        }
        let role = match m.get("role").and_then(Value::as_str) {
            Some("user") => {
                if v1 {
                    "ROLE_USER"
                } else {
                    "user"
                }
            }
            Some("assistant") => {
                if v1 {
                    "ROLE_AGENT"
                } else {
                    "agent"
                }
            }
            _ => continue,
        };
        let parts = parts_of(m, v1);
        if parts.is_empty() {
            continue;
        }
        let id = match m.get("id").and_then(Value::as_str) {
            Some(id) if !id.is_empty() => id.to_owned(),
            _ => format!("{task_id}-history-{n}"),
        };
        let message = a2a_message(v1, id, role, parts, context_id, Some(task_id));
        out.push(Value::Object(message));
    }
    out
}

/// The parts of Agent API message `m` that A2A carries, in the version's shape.
fn parts_of(m: &Value, v1: bool) -> Vec<Value> {
    m.get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| part(p, v1))
        .collect()
}

/// An A2A message of the version: `kind` (0.3), `messageId`, `role`, `parts`, then `contextId`
/// and `taskId` when given.
fn a2a_message(
    v1: bool,
    id: String,
    role: &str,
    parts: Vec<Value>,
    context_id: Option<&str>,
    task_id: Option<&str>,
) -> Map<String, Value> {
    let mut message = Map::new();
    if !v1 {
        message.insert("kind".into(), Value::from("message"));
    }
    message.insert("messageId".into(), Value::String(id));
    message.insert("role".into(), Value::from(role));
    message.insert("parts".into(), Value::Array(parts));
    if let Some(c) = context_id {
        message.insert("contextId".into(), Value::from(c));
    }
    if let Some(t) = task_id {
        message.insert("taskId".into(), Value::from(t));
    }
    message
}

/// One Agent API content part as an A2A part of the version (`None`: one A2A cannot carry).
fn part(p: &Value, v1: bool) -> Option<Value> {
    let s = |k: &str| p.get(k).and_then(Value::as_str);
    match s("type")? {
        "text" => {
            let text = s("text").unwrap_or("");
            Some(if v1 {
                json!({"text": text})
            } else {
                json!({"kind": "text", "text": text})
            })
        }
        "data" => {
            let data = p.get("data").cloned().unwrap_or_else(|| json!({}));
            Some(if v1 {
                json!({"data": data})
            } else {
                json!({"kind": "data", "data": data})
            })
        }
        "image" => file(s("image_url")?, "image/*", None, v1),
        "video" => file(s("video_url")?, "video/*", None, v1),
        "audio" => {
            let mime = format!("audio/{}", s("format").unwrap_or("wav"));
            file(s("data")?, &mime, None, v1)
        }
        "file" => {
            let name = s("filename");
            match (s("file_url"), s("file_data")) {
                (Some(url), _) => file(url, "application/octet-stream", name, v1),
                (None, Some(data)) => file(data, "application/octet-stream", name, v1),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A file part: `url` a URL, a `data:` URI (sent as its bytes, with its MIME type) or bare
/// base64 (a file's `file_data`).
fn file(url: &str, mime: &str, name: Option<&str>, v1: bool) -> Option<Value> {
    let base64 = url
        .strip_prefix("data:")
        .and_then(|d| d.split_once(','))
        .and_then(|(head, data)| Some((head.strip_suffix(";base64")?, data)));
    let (bytes, mime) = match base64 {
        Some((media, data)) => (Some(data), if media.is_empty() { mime } else { media }),
        None if url.starts_with("data:") => (None, mime),
        None if url.contains("://") => (None, mime),
        None => (Some(url), mime),
    };
    let mut f = Map::new();
    let key = match (bytes.is_some(), v1) {
        (true, true) => "raw",
        (true, false) => "bytes",
        (false, true) => "url",
        (false, false) => "uri",
    };
    f.insert(key.into(), Value::from(bytes.unwrap_or(url)));
    f.insert(
        (if v1 { "mediaType" } else { "mimeType" }).into(),
        Value::from(mime),
    );
    if let Some(n) = name {
        f.insert(
            (if v1 { "filename" } else { "name" }).into(),
            Value::from(n),
        );
    }
    Some(if v1 {
        Value::Object(f)
    } else {
        json!({"kind": "file", "file": f})
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::a2a::a2a_request;
    use crate::protocol::parse_request;

    const CONVERSATION: &str = r#"{"id":"req_1","session_id":"ctx_1",
      "input":[
        {"id":"m1","type":"message","role":"user","content":[{"type":"text","text":"Weather in Oslo?"}]},
        {"id":"m2","type":"function_call","role":"assistant","content":[{"type":"data",
          "data":{"call_id":"call_1","name":"get_weather","arguments":"{}"}}]},
        {"id":"m4","type":"message","role":"assistant","content":[{"type":"text","text":"Cold."}]},
        {"id":"m5","type":"message","role":"user","content":[{"type":"text","text":"And "},
          {"type":"text","text":"tomorrow?"},{"type":"data","data":{"k":[1,2]}},
          {"type":"image","image_url":"https://x/a.png"},
          {"type":"image","image_url":"data:image/png;base64,iVBO"},
          {"type":"file","file_url":"https://x/a.pdf","filename":"a.pdf"},
          {"type":"refusal","refusal":"no"}]}
      ]}"#;

    #[test]
    fn the_last_user_message_reads_back_the_same_in_both_versions() {
        let request = parse_request(CONVERSATION).unwrap();
        let want = serde_json::to_value(&request.input[3]).unwrap();
        for (version, method) in [
            (A2aVersion::V1_0, "SendStreamingMessage"),
            (A2aVersion::V0_3, "message/stream"),
        ] {
            let call = streaming_request(&request, version, &json!("rq"), Some("task_9")).unwrap();
            assert_eq!(call["method"], method);
            assert_eq!(call["id"], "rq");
            let m = &call["params"]["message"];
            assert_eq!(m["messageId"], "m5");
            assert_eq!(m["taskId"], "task_9");
            let back = a2a_request(&call.to_string()).unwrap();
            assert_eq!(back.session_id.as_deref(), Some("ctx_1"));
            assert_eq!(back.id.as_deref(), Some("task_9"));
            assert_eq!(back.input.len(), 1);
            let got = serde_json::to_value(&back.input[0]).unwrap();
            assert_eq!(got["id"], "m5");
            assert_eq!(got["role"], "user");
            // Every part but the refusal, in order, with the same values.
            let parts = got["content"].as_array().unwrap();
            assert_eq!(parts.len(), 6, "{got}");
            for (i, key) in [
                (0, "text"),
                (1, "text"),
                (2, "data"),
                (3, "image_url"),
                (4, "image_url"),
            ] {
                assert_eq!(
                    parts[i][key], want["content"][i][key],
                    "{version:?} part {i}"
                );
            }
            assert_eq!(parts[5]["file_url"], "https://x/a.pdf");
            assert_eq!(parts[5]["filename"], "a.pdf");
        }
    }

    #[test]
    fn no_user_message_is_a_request_error_and_ids_are_fresh_when_missing() {
        let request = parse_request(
            r#"{"input":[{"type":"message","role":"assistant","content":[{"type":"text","text":"x"}]}]}"#,
        )
        .unwrap();
        let e = streaming_request(&request, A2aVersion::V1_0, &json!(1), None).unwrap_err();
        assert_eq!(
            (e.code(), e.field()),
            (ErrorCode::InvalidRequest, Some("input"))
        );
        let request = parse_request(r#"{"input":[{"id":"","role":"user","content":[]}]}"#).unwrap();
        let call = streaming_request(&request, A2aVersion::V0_3, &json!(1), None).unwrap();
        let m = &call["params"]["message"];
        assert!(m["messageId"].as_str().unwrap().starts_with("msg_"));
        assert_eq!(m["parts"], json!([{"kind": "text", "text": ""}]));
        assert!(m.get("contextId").is_none() && m.get("taskId").is_none());
    }
}
