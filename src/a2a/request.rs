//! An A2A `Message` (or a `message/send` / `message/stream` request) → an [`AgentRequest`].

use serde_json::Value;

use crate::codec::write::{raw, string, value};

use super::decode::file_body;
use crate::protocol::json::str_field;
use crate::protocol::{parse_request, AgentRequest, ContentBody, JsonMap};
use crate::{Error, ErrorCode, Result};

/// Maps an A2A request — 1.0 `SendMessage` / `SendStreamingMessage` or 0.3 `message/send` /
/// `message/stream` (the JSON-RPC request, its `params`, or a bare `Message`) — to an
/// [`AgentRequest`]: the message becomes the one input message (`id`
/// = `messageId`, role `user` or `assistant` for `agent`; text → `text`, data → `data`, a file
/// with an `image/*` MIME type → `image`, any other file → `file`), `contextId` becomes
/// `session_id` and `taskId` the request `id`. Unlike the reference (§7.2), which keeps only the
/// text of the user message, every part is kept.
///
/// # Example
///
/// ```
/// use agentwire::a2a::a2a_request;
///
/// let request = a2a_request(r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":
///     {"message":{"kind":"message","messageId":"m1","role":"user","contextId":"c1",
///                 "parts":[{"kind":"text","text":"Hi"}]}}}"#)?;
/// assert_eq!(request.session_id.as_deref(), Some("c1"));
/// assert_eq!(request.input[0].get_text_content(), Some("Hi"));
/// # Ok::<(), agentwire::Error>(())
/// ```
///
/// # Errors
///
/// `INVALID_JSON` for text that is not a JSON object; `INVALID_REQUEST` when no message with a
/// `parts` list is found, or the result fails Agent API request validation.
pub fn a2a_request(json: &str) -> Result<AgentRequest> {
    let v: Value =
        crate::protocol::parse_repairing(json, |t| serde_json::from_str(t)).map_err(|e| {
            Error::new(
                ErrorCode::InvalidJson,
                format!("The A2A request is not JSON: {e}."),
            )
        })?;
    let params = v.get("params").unwrap_or(&v);
    let msg = params
        .get("message")
        .unwrap_or(params)
        .as_object()
        .filter(|m| m.get("parts").is_some_and(Value::is_array))
        .ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidRequest,
                "The A2A request holds no message with a `parts` list.",
            )
            .with_field("params.message")
        })?;
    from_message(msg)
}

/// The request one A2A `Message` (either version) makes: what [`read_call`](super::read_call)
/// hands over, already parsed, without writing and reading it again.
pub(crate) fn from_message(msg: &JsonMap) -> Result<AgentRequest> {
    // A2A 1.0 (`SendMessage` params): read as its 0.3 form.
    let v1 = msg
        .get("role")
        .and_then(Value::as_str)
        .is_some_and(|r| r.starts_with("ROLE_"))
        || msg
            .get("parts")
            .and_then(Value::as_array)
            .is_some_and(|ps| ps.iter().any(|p| p.get("kind").is_none()));
    let converted = v1.then(|| super::compat::v0_3_message(msg));
    let msg = converted.as_ref().unwrap_or(msg);
    let empty = JsonMap::new();
    let mut out = Vec::new();
    raw(&mut out, "{\"input\":[{\"type\":\"message\",\"role\":");
    raw(
        &mut out,
        if str_field(msg, "role") == "agent" {
            "\"assistant\""
        } else {
            "\"user\""
        },
    );
    raw(&mut out, ",\"content\":[");
    let mut first = true;
    for p in msg
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
    {
        let kind = str_field(p, "kind");
        if !matches!(kind, "text" | "data" | "file") {
            continue;
        }
        raw(&mut out, if first { "{" } else { ",{" });
        first = false;
        match kind {
            "text" => {
                raw(&mut out, "\"type\":\"text\",\"text\":");
                string(&mut out, str_field(p, "text"));
            }
            "data" => {
                raw(&mut out, "\"type\":\"data\",\"data\":");
                match p.get("data") {
                    Some(d) => value(&mut out, d),
                    None => raw(&mut out, "{}"),
                }
            }
            _ => {
                // As the Agent API content serialises, without nulls and stream fields.
                let f = p.get("file").and_then(Value::as_object).unwrap_or(&empty);
                match file_body(f, "") {
                    ContentBody::Image { image_url } => {
                        raw(&mut out, "\"type\":\"image\"");
                        opt_field(&mut out, "image_url", image_url.as_deref());
                    }
                    ContentBody::File {
                        file_url,
                        filename,
                        file_data,
                        ..
                    } => {
                        raw(&mut out, "\"type\":\"file\"");
                        opt_field(&mut out, "file_url", file_url.as_deref());
                        opt_field(&mut out, "filename", filename.as_deref());
                        opt_field(&mut out, "file_data", file_data.as_deref());
                    }
                    // `file_body` without a type hint gives an image or a file.
                    _ => {}
                }
            }
        }
        raw(&mut out, "}");
    }
    raw(&mut out, "]");
    let id = str_field(msg, "messageId");
    if !id.is_empty() {
        raw(&mut out, ",\"id\":");
        string(&mut out, id);
    }
    raw(&mut out, "}],\"stream\":true");
    for (from, to) in [("contextId", ",\"session_id\":"), ("taskId", ",\"id\":")] {
        if let Some(s) = msg.get(from).and_then(Value::as_str) {
            raw(&mut out, to);
            string(&mut out, s);
        }
    }
    raw(&mut out, "}");
    parse_request(std::str::from_utf8(&out).unwrap_or_default())
}

/// `,"key":"value"` when there is a value.
fn opt_field(out: &mut Vec<u8>, key: &str, v: Option<&str>) {
    if let Some(v) = v {
        raw(out, ",\"");
        raw(out, key);
        raw(out, "\":");
        string(out, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a2a_1_0_send_message_params_map_as_0_3_ones_do() {
        let v1 = a2a_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":
            {"messageId":"m1","role":"ROLE_USER","contextId":"c1","parts":[{"text":"Hi"},
            {"url":"https://x/a.png","mediaType":"image/png"},{"data":{"k":1}}]}}}"#,
        )
        .unwrap();
        let v03 = a2a_request(
            r#"{"jsonrpc":"2.0","id":1,"method":"message/stream","params":{"message":
            {"kind":"message","messageId":"m1","role":"user","contextId":"c1","parts":[
            {"kind":"text","text":"Hi"},{"kind":"file","file":{"uri":"https://x/a.png",
            "mimeType":"image/png"}},{"kind":"data","data":{"k":1}}]}}}"#,
        )
        .unwrap();
        assert_eq!(v1, v03);
        assert_eq!(v1.session_id.as_deref(), Some("c1"));
        assert_eq!(v1.input[0].get_text_content(), Some("Hi"));
        assert_eq!(v1.input[0].content.as_ref().map(Vec::len), Some(3));
    }
}
