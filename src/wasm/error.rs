//! Errors cross to JavaScript as real `Error` objects with a stable `code`.

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use crate::Error;

/// The `name` of every error agentwire throws.
pub const ERROR_NAME: &str = "AgentwireError";

/// Builds the thrown value: a `js_sys::Error` whose `message` is the error's text (naming the
/// byte offset once when known), `name` is `"AgentwireError"`, `code` is the stable
/// [`crate::ErrorCode::as_str`] string, and `field` / `offset` are set when the error has them.
impl From<Error> for JsValue {
    fn from(error: Error) -> JsValue {
        let js = js_sys::Error::new(&message(&error));
        js.set_name(ERROR_NAME);
        set(&js, "code", &JsValue::from_str(error.code().as_str()));
        if let Some(field) = error.field() {
            set(&js, "field", &JsValue::from_str(field));
        }
        if let Some(offset) = error.offset() {
            // Offsets are byte positions in one stream: far below 2^53, exact as a JS number.
            #[allow(clippy::cast_precision_loss)]
            set(&js, "offset", &JsValue::from_f64(offset as f64));
        }
        js.into()
    }
}

/// The error's text, with " at byte N" appended (as `Display` does) only when the text does not
/// already say where (`EVENT_TOO_LARGE`: "The event starting at byte N …"; the core's messages
/// name a position as "at byte N").
fn message(error: &Error) -> String {
    // A window scan, not `str::contains`: that links a substring searcher into the lite module
    // (~0.4 KB gzip) for this one use.
    let says_where = error
        .message()
        .as_bytes()
        .windows(8)
        .any(|w| w == b"at byte ");
    if error.offset().is_some() && !says_where {
        error.to_string()
    } else {
        error.message().to_owned()
    }
}

fn set(target: &js_sys::Error, key: &str, value: &JsValue) {
    // `Reflect.set` on a fresh, ordinary, extensible Error object cannot fail; if it ever did,
    // the error would still be thrown, only without this property.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}
