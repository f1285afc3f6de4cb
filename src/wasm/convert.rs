//! Conversions between JS values and Rust, in one place.
//!
//! Values in: JSON text ([`Text`]), builder values ([`ValueIn`]: a string or a plain object) and
//! plain objects as JSON maps ([`json_object`]).
//!
//! Values out are plain JSON-compatible objects (no class instances, nothing to free): maps
//! become plain objects with their keys in order, `None` becomes `null` (never dropped), and
//! numbers become JS numbers.

use serde::Serialize;
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
/// booleans, `null`): what `JSON.parse` gives for the value's JSON text, which is how it is
/// made. Object keys keep their order, and an integer beyond 2^53 becomes the nearest double,
/// as in any JS JSON reader. One JSON text crossing the boundary needs no conversion code in
/// wasm and is faster than building the value from Rust call by call, except for large strings
/// ([`to_js_large`]).
///
/// # Errors
/// `INVALID_JSON` if the value cannot be written as JSON (a map with non-string keys).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue> {
    let text = serde_json::to_string(value).map_err(|e| {
        Error::new(
            ErrorCode::InvalidJson,
            format!("value has no JSON form: {e}"),
        )
    })?;
    js_sys::JSON::parse(&text)
        .map_err(|_| Error::new(ErrorCode::InvalidJson, "value has no JSON form".to_owned()))
}

/// As [`to_js`], for values holding large strings (a snapshot's accumulated text): the full
/// build passes each string as is instead of escaping it into JSON text and parsing it back
/// (20% faster on `snapshot()` per chunk, bench/README.md), and falls back to [`to_js`] for what
/// that cannot represent (an integer beyond 2^53), so both give the same value. The lite build,
/// sized first, always uses [`to_js`].
///
/// # Errors
/// As [`to_js`].
pub fn to_js_large<T: Serialize + ?Sized>(value: &T) -> Result<JsValue> {
    #[cfg(feature = "full")]
    if let Ok(js) = value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()) {
        return Ok(js);
    }
    to_js(value)
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
