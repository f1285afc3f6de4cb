//! Reads the interrupts of `rb.interrupt(interrupts)`, the pause of a run for a person.

use serde_json::{Map, Value};

use super::options::{only_keys, opt_object, opt_string, Bag};
use crate::protocol::{JsonMap, JsonValue};
use crate::{Error, ErrorCode, Result};

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidOption, message)
}

/// The most interrupts one pause may carry.
pub const MAX_INTERRUPTS: usize = 64;

/// Reads the interrupts of `rb.interrupt(interrupts)`: none (one `input_required` interrupt),
/// one object or a list of them, each `{id?, reason?, message?, toolCallId?, responseSchema?,
/// expiresAt?, metadata?}` (AG-UI's interrupt; `reason` defaults to `input_required`).
///
/// # Errors
/// `INVALID_OPTION` naming the key of a value of the wrong type or an unknown key, for a list
/// that is empty, holds no object, or has more than [`MAX_INTERRUPTS`].
pub fn interrupts(text: Option<&str>) -> Result<Vec<JsonMap>> {
    const WHAT: &str = "interrupt()";
    let value = match text {
        None => Value::Null,
        Some(text) => {
            let JsonValue(value) = serde_json::from_str(text)
                .map_err(|e| invalid(format!("{WHAT}: no JSON form: {e}")))?;
            value
        }
    };
    let list = match value {
        Value::Null => vec![Value::Object(Map::new())],
        Value::Array(list) if list.is_empty() => {
            return Err(invalid(format!("{WHAT} needs at least one interrupt")));
        }
        Value::Array(list) if list.len() > MAX_INTERRUPTS => {
            return Err(invalid(format!(
                "{WHAT} takes at most {MAX_INTERRUPTS} interrupts"
            )));
        }
        Value::Array(list) => list,
        other => vec![other],
    };
    list.into_iter()
        .map(|v| {
            let Value::Object(map) = v else {
                return Err(invalid(format!("{WHAT}: each interrupt must be an object")));
            };
            let bag = Bag::parse(Some(&Value::Object(map).to_string()), WHAT)?;
            only_keys(
                &bag,
                &[
                    "id",
                    "reason",
                    "message",
                    "toolCallId",
                    "responseSchema",
                    "expiresAt",
                    "metadata",
                ],
                WHAT,
            )?;
            if opt_string(&bag, "id", WHAT)?.is_some_and(|id| id.is_empty()) {
                return Err(invalid(format!("{WHAT}: id must not be empty")).with_field("id"));
            }
            let mut out = JsonMap::new();
            for key in ["id", "reason", "message", "toolCallId", "expiresAt"] {
                if let Some(s) = opt_string(&bag, key, WHAT)? {
                    out.insert(key.to_owned(), Value::String(s));
                }
            }
            out.entry("reason".to_owned())
                .or_insert_with(|| Value::String("input_required".to_owned()));
            for key in ["responseSchema", "metadata"] {
                if let Some(m) = opt_object(&bag, key, WHAT)? {
                    out.insert(key.to_owned(), Value::Object(m));
                }
            }
            Ok(out)
        })
        .collect()
}
