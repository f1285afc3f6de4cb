//! The Agent API model of AgentScope Runtime.
//!
//! STUB: a throwaway stand-in with exactly the contract of the real module (`parse_request`,
//! `parse_event`, both returning `serde::Serialize` types), so that the wasm face, the package
//! and its tests can be built before the real model lands. It implements only what the package
//! tests touch (top-level request defaults, `input` required, `n` in 1..=5); it is replaced
//! wholesale at merge.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::{Error, ErrorCode, Result};

/// A validated Agent API request, with defaults filled in as the reference's `model_dump` gives.
// STUB: wraps the JSON value; the real type is a struct.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct AgentRequest(Value);

/// One Agent API event (`response`, `message` or `content`).
// STUB: wraps the JSON value; the real type is an enum.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Event(Value);

/// Top-level request fields after `input`, in the reference's order, with their defaults.
// STUB
const REQUEST_DEFAULTS: [(&str, i64); 14] = [
    ("stream", -1),
    ("id", 0),
    ("model", 0),
    ("top_p", 0),
    ("temperature", 0),
    ("frequency_penalty", 0),
    ("presence_penalty", 0),
    ("max_tokens", 0),
    ("stop", 0),
    ("n", 1),
    ("seed", 0),
    ("tools", 0),
    ("session_id", 0),
    ("user_id", 0),
];

fn parse_json(text: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| Error::new(ErrorCode::InvalidJson, e.to_string()))
}

/// Parses and validates an `AgentRequest` from JSON text.
///
/// # Errors
/// `INVALID_JSON` for malformed JSON; `INVALID_REQUEST` (with the field) for a failed validation.
// STUB
pub fn parse_request(text: &str) -> Result<AgentRequest> {
    let Value::Object(mut map) = parse_json(text)? else {
        return Err(Error::new(
            ErrorCode::InvalidRequest,
            "a request must be a JSON object",
        ));
    };
    let mut out = Map::new();
    match map.shift_remove("input") {
        Some(input @ Value::Array(_)) => out.insert("input".into(), input),
        Some(_) => {
            return Err(
                Error::new(ErrorCode::InvalidRequest, "input: should be a valid list")
                    .with_field("input"),
            )
        }
        None => {
            return Err(
                Error::new(ErrorCode::InvalidRequest, "input: field required").with_field("input"),
            )
        }
    };
    for (key, default) in REQUEST_DEFAULTS {
        let value = map.shift_remove(key).unwrap_or(match default {
            -1 => Value::Bool(true),
            0 => Value::Null,
            n => Value::from(n),
        });
        out.insert(key.into(), value);
    }
    if let Some(n) = out.get("n").and_then(Value::as_i64) {
        if !(1..=5).contains(&n) {
            return Err(
                Error::new(ErrorCode::InvalidRequest, "n: should be between 1 and 5")
                    .with_field("n"),
            );
        }
    }
    out.extend(map);
    Ok(AgentRequest(Value::Object(out)))
}

/// Parses one Agent API event from JSON text.
///
/// # Errors
/// `INVALID_JSON` for malformed JSON or a value that is not an event object.
// STUB
pub fn parse_event(text: &str) -> Result<Event> {
    let value = parse_json(text)?;
    match value.get("object") {
        Some(Value::String(_)) => Ok(Event(value)),
        _ => Err(Error::new(
            ErrorCode::InvalidJson,
            "an event needs a string `object` field",
        )
        .with_field("object")),
    }
}
