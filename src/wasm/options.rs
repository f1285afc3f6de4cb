//! Option bags in: plain JS objects read into the core's option types, rejecting unknown keys
//! so that a typo (`maxEventByte`) is an error, not a silent default.

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::assembler::{AssemblerOptions, Protocol};
use crate::codec::{Format, Limits};
use crate::{Error, ErrorCode, Result};

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidOption, message)
}

/// The own enumerable keys of an options object (`undefined`/`null` → none).
fn keys(value: &JsValue, what: &str) -> Result<Vec<String>> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    let object = value
        .dyn_ref::<Object>()
        .filter(|_| value.is_object())
        .ok_or_else(|| invalid(format!("{what} options must be an object")))?;
    Ok(Object::keys(object)
        .iter()
        .filter_map(|k| k.as_string())
        .collect())
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Reads `{ protocol?, strict?, maxEventBytes?, format? }` for `StreamAssembler`.
///
/// # Errors
/// `INVALID_OPTION` naming the key, for an unknown key or a value of the wrong type.
pub fn assembler_options(value: &JsValue) -> Result<AssemblerOptions> {
    let mut options = AssemblerOptions::new();
    for key in keys(value, "StreamAssembler")? {
        let v = get(value, &key);
        if v.is_undefined() {
            continue;
        }
        options = match key.as_str() {
            "protocol" => match v.as_string().as_deref() {
                Some("auto") => options.with_protocol(None),
                Some(name) => match Protocol::from_name(name) {
                    Some(p) => options.with_protocol(Some(p)),
                    None => return Err(invalid(format!(
                        "protocol must be \"auto\", \"agent-api\", \"ag-ui\", \"openai-responses\" or \"a2a\", not \"{name}\""
                    )).with_field("protocol")),
                },
                None => return Err(invalid("protocol must be a string".into()).with_field("protocol")),
            },
            "strict" => match v.as_bool() {
                Some(b) => options.with_strict(b),
                None => return Err(invalid("strict must be a boolean".into()).with_field("strict")),
            },
            "maxEventBytes" => {
                let limit = v
                    .as_f64()
                    .filter(|n| n.fract() == 0.0 && *n >= 1.0 && *n <= 4_294_967_295.0)
                    .ok_or_else(|| {
                        invalid("maxEventBytes must be a positive integer".into())
                            .with_field("maxEventBytes")
                    })?;
                // Checked above: a whole number in 1..=u32::MAX.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let limits = Limits::new().with_max_event_bytes(limit as usize)?;
                options.with_limits(limits)
            }
            "format" => match v.as_string().as_deref() {
                Some("auto") => options.with_format(Format::Auto),
                Some("sse") => options.with_format(Format::Sse),
                Some("ndjson") => options.with_format(Format::Ndjson),
                _ => return Err(invalid(
                    "format must be \"auto\", \"sse\" or \"ndjson\"".into(),
                ).with_field("format")),
            },
            other => {
                return Err(invalid(format!("unknown StreamAssembler option \"{other}\"")).with_field(other))
            }
        };
    }
    Ok(options)
}
