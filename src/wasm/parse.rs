//! `parseRequest` and `parseEvent`: one JSON document in, one plain object out.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

#[cfg(feature = "full")]
use super::convert::read_request;
#[cfg(feature = "client")]
use super::convert::{to_js, Text};
#[cfg(feature = "client")]
use crate::protocol;

/// Parses and validates an Agent API request (the body of `POST /process`).
///
/// `json` is the JSON text, as a string or as UTF-8 bytes. The result is a plain object: the
/// request with every default filled in and keys in the reference's order, exactly as the
/// reference's `AgentRequest.model_dump()` gives it; unknown top-level keys are kept.
///
/// @throws {AgentwireError} `INVALID_JSON` for malformed JSON, `INVALID_UTF8` for bytes that are
/// not UTF-8, `INVALID_REQUEST` (with `field`) when validation fails.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = parseRequest, unchecked_return_type = "AgentRequest")]
pub fn parse_request(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] json: &JsValue,
) -> Result<JsValue, JsValue> {
    read_request(json, "parseRequest", protocol::parse_request)
}

/// Parses one Agent API event (`object` is `"response"`, `"message"` or `"content"`).
///
/// `json` is the JSON text of one event (an SSE `data:` payload or an NDJSON line), as a string
/// or as UTF-8 bytes. The result is a plain object with every field of the event, `null`s kept,
/// keys in the reference's order.
///
/// @throws {AgentwireError} `INVALID_JSON` for malformed JSON, `INVALID_UTF8` for bytes that are
/// not UTF-8, and a validation code (with `field` when known) for JSON that is not a valid event.
#[cfg(feature = "client")]
#[wasm_bindgen(js_name = parseEvent, unchecked_return_type = "AgentEvent")]
pub fn parse_event(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] json: &JsValue,
) -> Result<JsValue, JsValue> {
    let text = Text::from_js(json, "parseEvent")?;
    let event = protocol::parse_event(text.as_str()?)?;
    Ok(to_js(&event)?)
}

/// The size of this module's WebAssembly memory, in bytes. WebAssembly memory grows but never
/// shrinks: watch this to check that long-lived pages free their assemblers.
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    // Pages of 64 KiB; at most 65,536 of them (4 GiB), exact as a JS number.
    #[allow(clippy::cast_precision_loss)]
    let bytes = (core::arch::wasm32::memory_size(0) as f64) * 65536.0;
    bytes
}

/// This module's `WebAssembly.Memory`, for the package's JS classes that read results from it
/// (not part of the public API).
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}
