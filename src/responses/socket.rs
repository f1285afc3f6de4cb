//! OpenAI Responses WebSocket mode: what a server sends on the socket besides the streaming
//! events (which are the `data` of the SSE events, one per message): the error event of a turn
//! that could not start, `{"type":"error","status":…,"error":{"type","code","message","param"}}`.

use serde_json::Value;

/// The JSON text of a WebSocket `error` event: `status` the HTTP status the same request would
/// have had over HTTP, `code` a machine-readable code (`previous_response_not_found`, …),
/// `param` the request field at fault, if any. The error's `type` follows the status
/// (`invalid_request_error`, `authentication_error`, `rate_limit_error`, `server_error`).
///
/// # Example
///
/// ```
/// use agentwire::responses::socket_error;
///
/// let event = socket_error(400, "previous_response_not_found", "Previous response not found.", Some("previous_response_id"));
/// let value: serde_json::Value = serde_json::from_str(&event).unwrap();
/// assert_eq!(value["type"], "error");
/// assert_eq!(value["status"], 400);
/// assert_eq!(value["error"]["type"], "invalid_request_error");
/// assert_eq!(value["error"]["param"], "previous_response_id");
/// ```
pub fn socket_error(status: u16, code: &str, message: &str, param: Option<&str>) -> String {
    let kind = match status {
        401 | 403 => "authentication_error",
        429 => "rate_limit_error",
        500.. => "server_error",
        _ => "invalid_request_error",
    };
    let text = |s: &str| Value::String(s.to_owned()).to_string();
    let param = param.map_or_else(|| "null".to_owned(), text);
    format!(
        r#"{{"type":"error","status":{status},"error":{{"type":"{kind}","code":{code},"message":{message},"param":{param}}}}}"#,
        code = text(code),
        message = text(message),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_event_escapes_what_it_carries_and_types_it_by_status() {
        for (status, kind) in [
            (400, "invalid_request_error"),
            (401, "authentication_error"),
            (429, "rate_limit_error"),
            (503, "server_error"),
        ] {
            let value: Value =
                serde_json::from_str(&socket_error(status, "c\"1", "m\n\u{1}", None)).unwrap();
            assert_eq!(value["error"]["type"], kind);
            assert_eq!(value["error"]["code"], "c\"1");
            assert_eq!(value["error"]["message"], "m\n\u{1}");
            assert!(value["error"]["param"].is_null());
        }
    }
}
