//! The `AgentApp` helpers the JS `AgentApp` calls: HTTP error answers.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

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
