//! The `AgentApp` helpers the JS `AgentApp` calls: HTTP error answers (`httpError`) and the
//! terminal event of a run whose instance went away (`lostRunEvent`), the comment of a quiet
//! stream (`sseKeepalive`), a stored response's input items (`responsesInputList`) and Responses
//! compaction (`responsesCompactRequest`, `responsesCompaction`) and the error event of the
//! Responses WebSocket mode (`responsesSocketError`).

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::options::builder_options as builder_options_of;
use crate::app::{error_body, HttpErrorCode};
use crate::{Error, ErrorCode};

/// The HTTP error answer for `code` (`"NOT_FOUND"`, `"INVALID_REQUEST"`, …; an agentwire error
/// code from a request mapping is read as `INVALID_JSON` / `INVALID_REQUEST`): an array
/// `[status, body]`, the body the JSON `{"error": {"code", "message", "field"?}}`.
///
/// @throws {AgentwireError} `INVALID_OPTION` for a code that is neither.
#[wasm_bindgen(js_name = httpError, skip_typescript)]
pub fn http_error(
    code: &str,
    message: &str,
    field: Option<String>,
) -> std::result::Result<JsValue, JsValue> {
    let code = HttpErrorCode::from_name(code)
        .or_else(|| {
            [ErrorCode::InvalidJson, ErrorCode::InvalidUtf8]
                .into_iter()
                .find(|c| c.as_str() == code)
                .map(HttpErrorCode::for_request_error)
        })
        .or_else(|| (!code.is_empty()).then_some(HttpErrorCode::InvalidRequest))
        .ok_or_else(|| Error::new(ErrorCode::InvalidOption, "httpError: no code"))?;
    let pair = js_sys::Array::new();
    pair.push(&JsValue::from(code.status()));
    pair.push(&JsValue::from(error_body(code, message, field.as_deref())));
    Ok(pair.into())
}

/// A stored response's input items as `GET /responses/{id}/input_items` lists them
/// ([`input_item_list`](crate::responses::input_item_list)): `messages` the JSON text of the
/// response's input (Agent API messages), the query's `limit`, `order`, `after` and `before` as
/// sent. Returns the list's JSON text.
///
/// @throws {AgentwireError} `INVALID_REQUEST` naming the field of a bad query parameter;
/// `INVALID_OPTION` when `messages` is not the JSON text of an array.
#[wasm_bindgen(js_name = responsesInputList, skip_typescript)]
pub fn responses_input_list(
    messages: &str,
    response_id: &str,
    limit: Option<String>,
    order: Option<String>,
    after: Option<String>,
    before: Option<String>,
) -> std::result::Result<String, JsValue> {
    let messages = match super::convert::json_value(messages, "responsesInputList messages")? {
        serde_json::Value::Array(items) => items,
        _ => {
            return Err(Error::new(
                ErrorCode::InvalidOption,
                "responsesInputList: messages must be an array",
            )
            .into())
        }
    };
    let query = crate::responses::InputListQuery {
        limit: limit.as_deref(),
        order: order.as_deref(),
        after: after.as_deref(),
        before: before.as_deref(),
    };
    Ok(crate::responses::input_item_list(
        &messages,
        response_id,
        &query,
    )?)
}

/// The SSE comment a quiet stream carries ([`KEEPALIVE_COMMENT`](crate::app::KEEPALIVE_COMMENT)).
#[wasm_bindgen(js_name = sseKeepalive, skip_typescript)]
pub fn sse_keepalive() -> Vec<u8> {
    crate::app::KEEPALIVE_COMMENT.to_vec()
}

/// The terminal event of a run whose instance went away (appended to its log by the JS
/// `AgentApp`): what a `ResponseBuilder` of `builderOptions` (JSON text, the run's builder
/// options) writes for `failed({code: "RUN_LOST", message: "The instance running this run went
/// away before it ended."})`, as one SSE event with `id: next` and, where it has one,
/// `sequence_number: next`; for OpenAI Responses the `response.failed` event's `response`
/// carries the output and usage of `log` (the run's logged events) so far. Returns its bytes.
///
/// @throws {AgentwireError} `INVALID_OPTION` for bad builder options or a `next` that is not an
/// integer in 0..2^53; `INVALID_UTF8` / `EVENT_TOO_LARGE` for a Responses log that cannot be
/// read.
#[wasm_bindgen(js_name = lostRunEvent, skip_typescript)]
pub fn lost_run_event(
    builder_options: &str,
    next: f64,
    log: &[u8],
) -> std::result::Result<Vec<u8>, JsValue> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    if !(0.0..=MAX_SAFE).contains(&next) || next.fract() != 0.0 {
        return Err(Error::new(
            ErrorCode::InvalidOption,
            "lostRunEvent: next must be an integer from 0 to 2^53 - 1",
        )
        .with_field("next")
        .into());
    }
    // In range and whole: exact as a u64.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let next = next as u64;
    let options = builder_options_of(Some(builder_options))?;
    Ok(crate::app::lost_run_event(options, next, log)?)
}

/// A `POST /responses/compact` body as an Agent API request
/// ([`compact_request`](crate::responses::compact_request)).
///
/// @throws {AgentwireError} `INVALID_JSON` for malformed JSON, `INVALID_REQUEST` naming the field
/// (`model` when it is missing).
#[wasm_bindgen(js_name = responsesCompactRequest, skip_typescript)]
pub fn responses_compact_request(json: &JsValue) -> std::result::Result<JsValue, JsValue> {
    super::convert::read_request(
        json,
        "responsesCompactRequest",
        crate::responses::compact_request,
    )
}

/// The JSON text of the `response.compaction` answer with id `id`, made at `created_at` (Unix
/// seconds), carrying `messages` (the JSON text of the compacted messages)
/// ([`compaction_answer`](crate::responses::compaction_answer)).
#[wasm_bindgen(js_name = responsesCompaction, skip_typescript)]
pub fn responses_compaction(id: &str, created_at: f64, messages: &str) -> String {
    crate::responses::compaction_answer(id, created_at.max(0.0) as u64, messages)
}

/// The JSON text of a Responses WebSocket `error` event
/// ([`socket_error`](crate::responses::socket_error)).
#[wasm_bindgen(js_name = responsesSocketError, skip_typescript)]
pub fn responses_socket_error(
    status: u16,
    code: &str,
    message: &str,
    param: Option<String>,
) -> String {
    crate::responses::socket_error(status, code, message, param.as_deref())
}
