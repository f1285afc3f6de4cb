//! Conversions between JS values and Rust, in one place.
//!
//! Values out are plain JSON-compatible objects (no class instances, nothing to free): maps
//! become plain objects with their keys in order, `None` becomes `null` (never dropped), and
//! numbers become JS numbers.

use serde::Serialize;
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::{JsCast, JsValue};

use crate::{Error, ErrorCode, Result};

/// JSON text passed from JS as a `string` or as UTF-8 bytes in a `Uint8Array`.
pub enum Text {
    /// A JS string, already decoded.
    Str(String),
    /// The bytes of a `Uint8Array`, not yet checked for UTF-8.
    Bytes(Vec<u8>),
}

impl Text {
    /// Reads `value`, which must be a string or a `Uint8Array`; `what` names the function in
    /// the error message.
    ///
    /// # Errors
    /// `INVALID_OPTION` when `value` is neither.
    pub fn from_js(value: &JsValue, what: &str) -> Result<Text> {
        if let Some(text) = value.as_string() {
            Ok(Text::Str(text))
        } else if let Some(bytes) = value.dyn_ref::<js_sys::Uint8Array>() {
            Ok(Text::Bytes(bytes.to_vec()))
        } else {
            Err(Error::new(
                ErrorCode::InvalidOption,
                format!("{what} expects a string or a Uint8Array"),
            ))
        }
    }

    /// The text as `&str`.
    ///
    /// # Errors
    /// `INVALID_UTF8`, with the offset of the first invalid byte, when bytes are not UTF-8.
    pub fn as_str(&self) -> Result<&str> {
        match self {
            Text::Str(text) => Ok(text),
            Text::Bytes(bytes) => std::str::from_utf8(bytes).map_err(|e| {
                Error::new(ErrorCode::InvalidUtf8, "input is not valid UTF-8")
                    .with_offset(e.valid_up_to() as u64)
            }),
        }
    }
}

/// Converts `value` to a plain JSON-compatible JS value (objects, arrays, strings, numbers,
/// booleans, `null`).
///
/// # Errors
/// `INVALID_JSON` if the value has no JSON-compatible form (e.g. an integer beyond 2^53).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue> {
    value
        .serialize(&Serializer::json_compatible())
        .map_err(|e| {
            Error::new(
                ErrorCode::InvalidJson,
                format!("value has no JSON-compatible JavaScript form: {e}"),
            )
        })
}
