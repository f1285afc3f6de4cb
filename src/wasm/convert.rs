//! Conversions between JS values and Rust, in one place.
//!
//! Values in: JSON text ([`Text`]), builder values ([`ValueIn`]: a string or a plain object) and
//! plain objects as JSON maps ([`json_object`]).
//!
//! Values out are plain JSON-compatible objects (no class instances, nothing to free): maps
//! become plain objects with their keys in order, `None` becomes `null` (never dropped), and
//! numbers become JS numbers.

use serde::Serialize;
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::{JsCast, JsValue};

use crate::builder::ContentValue;
use crate::protocol::JsonMap;
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

/// A `delta()` / `set()` argument: a JS string or a plain object, owned.
#[derive(Debug)]
pub enum ValueIn {
    /// A string.
    Text(String),
    /// A plain object, as a JSON map (keys in insertion order).
    Fields(JsonMap),
}

impl ValueIn {
    /// Reads a string or a plain object; `what` names the method in the error message.
    ///
    /// # Errors
    /// `INVALID_OPTION` for anything else (numbers, arrays, class instances, `null`, …) and for
    /// objects holding values with no JSON form.
    pub fn from_js(value: &JsValue, what: &str) -> Result<ValueIn> {
        if let Some(text) = value.as_string() {
            return Ok(ValueIn::Text(text));
        }
        json_object(value, what).map(ValueIn::Fields)
    }

    /// The builder's view of the value; a string is moved into `text`, which the view borrows.
    pub fn into_content_value(self, text: &mut String) -> ContentValue<'_> {
        match self {
            ValueIn::Text(t) => {
                *text = t;
                ContentValue::Text(text)
            }
            ValueIn::Fields(map) => ContentValue::Fields(map),
        }
    }
}

/// Whether `value` is a plain object: `{…}`, `Object.create(null)`, not an array, a class
/// instance, a `Map`, a `Date`, ….
fn is_plain_object(value: &JsValue) -> bool {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return false;
    }
    let Some(object) = value.dyn_ref::<js_sys::Object>() else {
        return false;
    };
    // `{…}` has `Object.prototype` (of any realm), whose own prototype is null; a class
    // instance, a `Map` or a `Date` has one more link in its chain.
    let proto = js_sys::Object::get_prototype_of(object);
    proto.is_null() || js_sys::Object::get_prototype_of(&proto).is_null()
}

/// Reads a plain JS object as a JSON map, keys in insertion order; `what` names the argument in
/// the error message.
///
/// # Errors
/// `INVALID_OPTION` when `value` is not a plain object or holds a value with no JSON form
/// (a `BigInt`, a symbol, a function).
pub fn json_object(value: &JsValue, what: &str) -> Result<JsonMap> {
    if !is_plain_object(value) {
        return Err(Error::new(
            ErrorCode::InvalidOption,
            format!("{what} expects a string or a plain object"),
        ));
    }
    serde_wasm_bindgen::from_value::<JsonMap>(value.clone()).map_err(|e| {
        Error::new(
            ErrorCode::InvalidOption,
            format!("{what}: the object has no JSON form: {e}"),
        )
    })
}

/// Encodes any JSON-compatible JS value as compact JSON text (what `JSON.stringify` gives for
/// plain data).
///
/// # Errors
/// `INVALID_OPTION` for a value with no JSON form.
pub fn json_text(value: &JsValue, what: &str) -> Result<String> {
    let parsed: serde_json::Value = serde_wasm_bindgen::from_value(value.clone()).map_err(|e| {
        Error::new(
            ErrorCode::InvalidOption,
            format!("{what}: the value has no JSON form: {e}"),
        )
    })?;
    serde_json::to_string(&parsed).map_err(|e| {
        Error::new(
            ErrorCode::InvalidOption,
            format!("{what}: the value has no JSON form: {e}"),
        )
    })
}
