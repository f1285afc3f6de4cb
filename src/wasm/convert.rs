//! Conversions between JS values and Rust, in one place.
//!
//! Values in never reach wasm as JS objects: the package's JS layer (`pkg-template/values.js`)
//! reads every option bag and builder value inside a `try`, checks it (plain data, no cycles, at
//! most [`MAX_DEPTH`](crate::depth::MAX_DEPTH) levels) and passes its JSON text, which is read
//! here ([`json_map`], [`json_value`]). A JS exception thrown while a value is read (a throwing
//! getter, a `Proxy` trap) thus never unwinds through wasm frames. Text arguments arrive as a
//! string or the bytes of a `Uint8Array` ([`Text`]), read without running JS code.
//!
//! Values out are plain JSON-compatible objects (no class instances, nothing to free): maps
//! become plain objects with their keys in order, `None` becomes `null` (never dropped), and
//! numbers become JS numbers; a `"__proto__"` key is an own property, as `JSON.parse` makes it.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

use crate::depth::{check_depth, MAX_DEPTH};
use crate::protocol::{JsonMap, JsonValue};
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

/// A request read by `read` from `json` (JSON text as a string or UTF-8 bytes; `what` names the
/// export in errors), as the plain object `JSON.parse` would make of it: the shape of every
/// request-reading export (`parseRequest`, `a2aRequest`, `responsesRequest`, `agUiRequest`).
///
/// # Errors
/// `INVALID_UTF8` for bytes that are not UTF-8, and whatever `read` refuses.
pub fn read_request(
    json: &JsValue,
    what: &str,
    read: impl FnOnce(&str) -> Result<crate::protocol::AgentRequest>,
) -> std::result::Result<JsValue, JsValue> {
    let text = Text::from_js(json, what)?;
    let request = read(text.as_str()?)?;
    Ok(to_js(&request)?)
}

/// As [`to_js`], for values holding large strings (a snapshot's accumulated text): the full
/// build passes each string as is instead of escaping it into JSON text and parsing it back
/// (faster on `snapshot()` per chunk: bench/README.md, "Measurements behind code decisions"),
/// and falls back to [`to_js`] for what
/// that cannot represent: an integer beyond 2^53, and a `"__proto__"` key, which that path would
/// set by assignment (replacing the object's prototype) where `JSON.parse` defines an own
/// property. Both give the same value. The lite build, sized first, always uses [`to_js`].
///
/// # Errors
/// As [`to_js`].
pub fn to_js_large(value: &Value) -> Result<JsValue> {
    // Not with `lite`'s numbers kept as text: serde-wasm-bindgen would write their private form.
    #[cfg(all(feature = "client", not(feature = "lite")))]
    if !has_proto_key(value) {
        if let Ok(js) = value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()) {
            return Ok(js);
        }
    }
    to_js(value)
}

/// Whether any object in `value` has the key `"__proto__"`. Iterative, and it looks at keys
/// only, so it costs little next to building the JS value.
#[cfg(all(feature = "client", not(feature = "lite")))]
fn has_proto_key(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if map.contains_key("__proto__") {
                    return true;
                }
                stack.extend(map.values().filter(|v| is_container(v)));
            }
            Value::Array(items) => stack.extend(items.iter().filter(|v| is_container(v))),
            _ => {}
        }
    }
    false
}

#[cfg(all(feature = "client", not(feature = "lite")))]
fn is_container(value: &Value) -> bool {
    matches!(value, Value::Object(_) | Value::Array(_))
}

/// Reads JSON text made by the JS layer as a value nested at most
/// [`MAX_DEPTH`](crate::depth::MAX_DEPTH) levels; `what` names the argument in the error message.
///
/// # Errors
/// `INVALID_OPTION` for text that is not JSON or a value nested too deep.
pub fn json_value(text: &str, what: &str) -> Result<Value> {
    let JsonValue(value) = serde_json::from_str(text).map_err(|e| {
        let message = if e.to_string().starts_with("recursion limit exceeded") {
            format!("{what} is nested deeper than {MAX_DEPTH} levels")
        } else {
            format!("{what}: the value has no JSON form: {e}")
        };
        Error::new(ErrorCode::InvalidOption, message)
    })?;
    check_depth(&value, ErrorCode::InvalidOption, what)?;
    Ok(value)
}

/// As [`json_value`], for a value that must be an object (a data payload, usage).
///
/// # Errors
/// As [`json_value`], and `INVALID_OPTION` when the value is not an object.
pub fn json_map(text: &str, what: &str) -> Result<JsonMap> {
    match json_value(text, what)? {
        Value::Object(map) => Ok(map),
        _ => Err(Error::new(
            ErrorCode::InvalidOption,
            format!("{what} expects a string or a plain object"),
        )),
    }
}
