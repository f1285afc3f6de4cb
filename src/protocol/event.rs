//! One event of a `/process` stream, [`parse_event`], and the status methods the reference's
//! `Event` base class gives every event.

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::content::{Content, Tag};
use super::entries::Entries;
use super::enums::RunStatus;
use super::json::{
    to_pydantic_string, to_python_json_string, JsonMap, JsonOptions, Wire, WireSerialize,
};
use super::message::Message;
use super::response::AgentResponse;
use super::tools::ErrorInfo;
use super::validate::{Ctx, Path};
use super::value::JsonValue;
use crate::{Error, ErrorCode, Result};

/// The bare `{"error": "..."}` object the reference's HTTP layer sends (with HTTP 200) when a
/// request fails before the run starts (§5.2). It has no `object`, `status` or
/// `sequence_number`.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerError {
    /// The error text (`str(exception)`); a non-string `error` value is kept as its JSON text.
    pub error: String,
    /// Other keys (custom endpoints add `error_type` and `message`), in input order.
    pub extra: JsonMap,
}

impl ServerError {
    /// A bare error object.
    pub fn new(error: impl Into<String>) -> Self {
        ServerError {
            error: error.into(),
            extra: JsonMap::new(),
        }
    }

    /// Serialises like the reference: Python `json.dumps` (`", "`/`": "` separators, non-ASCII
    /// escaped as `\uXXXX`), e.g. `{"error": "Task None:None is already in RUNNING state."}`.
    pub fn to_json(&self) -> String {
        to_python_json_string(&Wire(self, JsonOptions::new()))
    }
}

impl WireSerialize for ServerError {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("error", &self.error)?;
        for (k, v) in &self.extra {
            if opts.omits_nulls() && v.is_null() {
                continue;
            }
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// One event of an Agent API stream, dispatched on its `object` key like the reference's client.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// `object: "response"`.
    Response(AgentResponse),
    /// `object: "message"`.
    Message(Message),
    /// `object: "content"`.
    Content(Content),
    /// The bare `{"error": "..."}` object of the HTTP layer.
    ServerError(ServerError),
    /// Any other JSON object with an `object` key, kept verbatim.
    Other(JsonMap),
}

/// Parses one event payload (the text after `data: `).
///
/// Errors: invalid JSON or a non-object → `INVALID_JSON`; a known event that fails validation →
/// `PROTOCOL_VIOLATION` with [`Error::field`] naming the field (`content.0.text`); an object with
/// neither `object` nor `error` → `PROTOCOL_VIOLATION`.
///
/// A lone surrogate escape (`"\ud800"`) reads as U+FFFD ([`parse_repairing`]).
///
/// [`parse_repairing`]: super::parse_repairing
pub fn parse_event(json: &str) -> Result<Event> {
    super::parse_repairing(json, parse_event_text)
}

/// [`parse_event`] without the repair (not inlined: `parse_repairing` calls it twice).
#[inline(never)]
fn parse_event_text(json: &str) -> Result<Event> {
    let mut de = serde_json::Deserializer::from_str(json);
    let entries = read_entries(&mut de, json)?;
    Event::from_entries(entries)
}

/// [`parse_event`] over bytes (must be UTF-8).
pub fn parse_event_slice(json: &[u8]) -> Result<Event> {
    let text = std::str::from_utf8(json).map_err(|e| {
        Error::new(
            ErrorCode::InvalidUtf8,
            format!("event payload is not valid UTF-8: {e}"),
        )
    })?;
    parse_event(text)
}

fn read_entries<'de>(
    de: &mut serde_json::Deserializer<serde_json::de::StrRead<'de>>,
    json: &'de str,
) -> Result<Entries<'de>> {
    let invalid = |e: serde_json::Error| {
        let what = if e.is_data() {
            match serde_json::from_str::<JsonValue>(json).map(|v| v.0) {
                Ok(v) => format!("an event must be a JSON object, not {}", kind(&v)),
                Err(e) => format!("event payload is not valid JSON: {e}"),
            }
        } else {
            format!("event payload is not valid JSON: {e}")
        };
        Error::new(ErrorCode::InvalidJson, what)
    };
    let entries = Entries::deserialize(&mut *de).map_err(invalid)?;
    de.end().map_err(invalid)?;
    Ok(entries)
}

impl Event {
    /// Dispatches an already parsed JSON value (see [`parse_event`]).
    pub fn from_value(v: Value) -> Result<Self> {
        let Value::Object(map) = v else {
            return Err(Error::new(
                ErrorCode::InvalidJson,
                format!("an event must be a JSON object, not {}", kind(&v)),
            ));
        };
        Event::from_map(map)
    }

    /// Dispatch of the fast path: entries borrowed from the input.
    fn from_entries(entries: Entries<'_>) -> Result<Self> {
        let ctx = Ctx::EVENT;
        let root = Path::ROOT;
        match entries.get("object") {
            Some(Value::String(o)) if o == "content" => {
                let tag = Tag::of(entries.get("type"));
                Content::from_entries(tag, entries.0, &root, &ctx).map(Event::Content)
            }
            Some(_) | None => Event::from_map(entries.into_map()),
        }
    }

    fn from_map(map: JsonMap) -> Result<Self> {
        let ctx = Ctx::EVENT;
        let root = Path::ROOT;
        match map.get("object") {
            Some(Value::String(o)) => match o.as_str() {
                "response" => AgentResponse::from_map(map, &root, &ctx).map(Event::Response),
                "message" => Message::from_map(map, &root, &ctx).map(Event::Message),
                "content" => Content::from_map(map, &root, &ctx).map(Event::Content),
                _ => Ok(Event::Other(map)),
            },
            Some(_) => Err(ctx.err(&root.key("object"), "Input should be a valid string")),
            None => {
                if !map.contains_key("error") {
                    return Err(Error::new(
                        ErrorCode::ProtocolViolation,
                        "event has neither an `object` nor an `error` key",
                    )
                    .with_field("object"));
                }
                let mut error = String::new();
                let mut extra = JsonMap::new();
                for (k, v) in map {
                    if k == "error" {
                        error = match v {
                            Value::String(s) => s,
                            other @ (Value::Null
                            | Value::Bool(_)
                            | Value::Number(_)
                            | Value::Array(_)
                            | Value::Object(_)) => other.to_string(),
                        };
                    } else {
                        extra.insert(k, v);
                    }
                }
                Ok(Event::ServerError(ServerError { error, extra }))
            }
        }
    }

    /// Serialises like the reference (`model_dump_json()`; Python `json.dumps` for
    /// [`Event::ServerError`]).
    pub fn to_json(&self) -> String {
        self.to_json_with(JsonOptions::new())
    }

    /// Serialises with options (e.g. [`JsonOptions::omit_nulls`]).
    pub fn to_json_with(&self, opts: JsonOptions) -> String {
        match self {
            Event::ServerError(e) => to_python_json_string(&Wire(e, opts)),
            Event::Response(_) | Event::Message(_) | Event::Content(_) | Event::Other(_) => {
                to_pydantic_string(&Wire(self, opts))
            }
        }
    }

    /// The `sequence_number`, if the event has one.
    pub fn sequence_number(&self) -> Option<i64> {
        match self {
            Event::Response(r) => r.sequence_number,
            Event::Message(m) => m.sequence_number,
            Event::Content(c) => c.sequence_number,
            Event::ServerError(_) => None,
            Event::Other(m) => m.get("sequence_number").and_then(Value::as_i64),
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl WireSerialize for Event {
    fn serialize_wire<S: Serializer>(&self, s: S, opts: JsonOptions) -> Result<S::Ok, S::Error> {
        match self {
            Event::Response(r) => r.serialize_wire(s, opts),
            Event::Message(m) => m.serialize_wire(s, opts),
            Event::Content(c) => c.serialize_wire(s, opts),
            Event::ServerError(e) => e.serialize_wire(s, opts),
            Event::Other(map) => map.serialize(s),
        }
    }
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.serialize_wire(serializer, JsonOptions::new())
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let JsonValue(v) = JsonValue::deserialize(deserializer)?;
        Event::from_value(v).map_err(serde::de::Error::custom)
    }
}

impl From<AgentResponse> for Event {
    fn from(r: AgentResponse) -> Self {
        Event::Response(r)
    }
}

impl From<Message> for Event {
    fn from(m: Message) -> Self {
        Event::Message(m)
    }
}

impl From<Content> for Event {
    fn from(c: Content) -> Self {
        Event::Content(c)
    }
}

macro_rules! status_methods {
    ($ty:ty, $wrap:expr, { $($extra:item)* }) => {
        impl $ty {
            /// `Event.created()`: status `created`.
            pub fn created(&mut self) -> &mut Self {
                self.status = $wrap(RunStatus::Created);
                self
            }

            /// `Event.in_progress()`: status `in_progress`.
            pub fn in_progress(&mut self) -> &mut Self {
                self.status = $wrap(RunStatus::InProgress);
                self
            }

            /// `Event.failed(error)`: status `failed` and `error` set.
            pub fn failed(&mut self, error: ErrorInfo) -> &mut Self {
                self.status = $wrap(RunStatus::Failed);
                self.error = Some(error);
                self
            }

            /// `Event.rejected()`: status `rejected`.
            pub fn rejected(&mut self) -> &mut Self {
                self.status = $wrap(RunStatus::Rejected);
                self
            }

            /// `Event.canceled()`: status `canceled`.
            pub fn canceled(&mut self) -> &mut Self {
                self.status = $wrap(RunStatus::Canceled);
                self
            }

            $($extra)*
        }
    };
}

status_methods!(Content, Some, {
    /// `Event.completed()`: status `completed`.
    pub fn completed(&mut self) -> &mut Self {
        self.status = Some(RunStatus::Completed);
        self
    }
});

status_methods!(Message, std::convert::identity, {
    /// `Event.completed()`: status `completed`.
    pub fn completed(&mut self) -> &mut Self {
        self.status = RunStatus::Completed;
        self
    }
});

// `AgentResponse::completed(now)` lives in `response.rs`: it also sets `completed_at`.
status_methods!(AgentResponse, std::convert::identity, {});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatch() {
        let e = parse_event(r#"{"sequence_number":2,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"m","text":"Hi"}"#).unwrap();
        assert!(matches!(e, Event::Content(_)));
        assert_eq!(e.sequence_number(), Some(2));
        let e = parse_event(r#"{"error": "boom \u00e9"}"#).unwrap();
        assert_eq!(e, Event::ServerError(ServerError::new("boom é")));
        assert_eq!(e.to_json(), r#"{"error": "boom \u00e9"}"#);
        let e = parse_event(r#"{"object":"thing","x":1}"#).unwrap();
        assert_eq!(e.to_json(), r#"{"object":"thing","x":1}"#);
        assert_eq!(
            parse_event("[1]").unwrap_err().code(),
            ErrorCode::InvalidJson
        );
        assert_eq!(parse_event("{").unwrap_err().code(), ErrorCode::InvalidJson);
        let e = parse_event(r#"{"object":"message","role":"bot"}"#).unwrap_err();
        assert_eq!(e.code(), ErrorCode::ProtocolViolation);
        assert_eq!(e.field(), Some("role"));
        let e = parse_event(r#"{"object":"content","type":"text","text":5}"#).unwrap_err();
        assert_eq!(e.field(), Some("text"));
        assert_eq!(
            parse_event(r#"{"x":1}"#).unwrap_err().code(),
            ErrorCode::ProtocolViolation
        );
    }

    #[test]
    fn status_methods_chain() {
        let mut m = Message::with_id("m");
        m.in_progress();
        assert_eq!(m.status, RunStatus::InProgress);
        let mut r = AgentResponse::with_id("r", 0);
        r.failed(ErrorInfo::new("E", "boom"));
        assert_eq!(r.status, RunStatus::Failed);
        assert_eq!(r.error.as_ref().map(|e| e.code.as_str()), Some("E"));
        let mut c = Content::text("x");
        c.completed().canceled();
        assert_eq!(c.status, Some(RunStatus::Canceled));
    }
}
