//! A one-pass, mostly borrowing read of an Agent API event, for the hot path (content deltas).
//!
//! `protocol::parse_event` builds a full `serde_json::Value` first; for the thousands of small
//! text deltas of a stream that is most of the cost of assembling. [`FastEvent`] reads the keys
//! a content event has straight from the JSON text, borrowing strings without escapes, and keeps
//! every other key as a `Value` so nothing is lost. Anything that is not a well-formed content
//! event is handed back to `protocol::parse_event` by the caller.

mod scan;

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::protocol::{value_from_map, value_from_seq, Key};

/// `sequence_number` as found: a number, a numeric string (the pre-0.1.3 wire), or absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct SeqNo(pub(crate) Option<i64>);

/// The fields of an event that the fast path reads; every other key is in `rest`, except
/// `"error": null`, which says nothing (the reference writes it into every event).
#[derive(Debug, Default)]
pub(crate) struct FastEvent<'a> {
    pub(crate) sequence_number: SeqNo,
    pub(crate) object: Option<Cow<'a, str>>,
    pub(crate) status: Option<Cow<'a, str>>,
    pub(crate) content_type: Option<Cow<'a, str>>,
    pub(crate) index: Option<i64>,
    pub(crate) delta: Option<bool>,
    pub(crate) msg_id: Option<Cow<'a, str>>,
    pub(crate) text: Option<Cow<'a, str>>,
    /// Whether a key above appeared more than once or with an unexpected JSON type: the
    /// caller then takes the full path, which reports the problem precisely.
    pub(crate) irregular: bool,
    /// Every other key, in input order.
    pub(crate) rest: Vec<(String, Value)>,
}

/// Reads events one after another, remembering the shape of the last text delta
/// ([`scan::Template`]) to read the next ones faster.
#[derive(Debug, Default)]
pub(crate) struct FastReader {
    template: scan::Template,
}

impl FastReader {
    /// Reads one content event; `None` when the payload is not a JSON object (the full path
    /// reports why) or names an `object` other than `content` (the full path reads it).
    pub(crate) fn read<'a>(&mut self, json: &'a str) -> Option<FastEvent<'a>> {
        scan::scan_with(json, &mut self.template).or_else(|| serde_json::from_str(json).ok())
    }
}

/// One value of an event as read, by the hand-written reader or by serde_json: the scalars the
/// fast path uses, or any other JSON value, kept whole.
pub(crate) enum Field<'a> {
    Str(Cow<'a, str>),
    Int(i64),
    /// An integer beyond `i64`.
    Big(u64),
    Bool(bool),
    Null,
    /// A fraction, an array or an object.
    Other(Value),
}

impl<'a> FastEvent<'a> {
    /// Stores one key's value. `seen` holds the keys read so far, to notice a duplicate (which
    /// makes the event irregular). Returns `false` for an event that names an `object` other
    /// than `content`: the caller stops reading it (the full path reads it).
    pub(crate) fn take(&mut self, key: &str, value: Field<'a>, seen: &mut u16) -> bool {
        let bit = match key {
            "sequence_number" => {
                // An integer or null; anything else (a number beyond `i64`, a string, a
                // fraction) is the general path's to validate.
                match value {
                    Field::Int(n) => self.sequence_number = SeqNo(Some(n)),
                    Field::Null => self.sequence_number = SeqNo(None),
                    _ => self.irregular = true,
                }
                1
            }
            "object" => {
                if matches!(&value, Field::Str(s) if s != "content") {
                    return false;
                }
                self.object = self.opt_str(value);
                2
            }
            "status" => {
                self.status = self.opt_str(value);
                4
            }
            "type" => {
                self.content_type = self.opt_str(value);
                8
            }
            "index" => {
                match value {
                    Field::Null => self.index = None,
                    Field::Int(n) => self.index = Some(n),
                    _ => self.irregular = true,
                }
                16
            }
            "delta" => {
                match value {
                    Field::Null => self.delta = None,
                    Field::Bool(b) => self.delta = Some(b),
                    _ => self.irregular = true,
                }
                32
            }
            "msg_id" => {
                self.msg_id = self.opt_str(value);
                64
            }
            "text" => {
                self.text = self.opt_str(value);
                128
            }
            "error" if matches!(value, Field::Null) => 0,
            _ => {
                let value = match value {
                    Field::Str(s) => Value::String(s.into_owned()),
                    Field::Int(n) => Value::from(n),
                    Field::Big(n) => Value::from(n),
                    Field::Bool(b) => Value::Bool(b),
                    Field::Null => Value::Null,
                    Field::Other(v) => v,
                };
                self.rest.push((key.to_owned(), value));
                0
            }
        };
        if *seen & bit != 0 {
            self.irregular = true;
        }
        *seen |= bit;
        true
    }

    /// `null` or a string; anything else marks the event irregular.
    fn opt_str(&mut self, value: Field<'a>) -> Option<Cow<'a, str>> {
        match value {
            Field::Str(s) => Some(s),
            Field::Null => None,
            _ => {
                self.irregular = true;
                None
            }
        }
    }
}

impl<'de> Deserialize<'de> for Field<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Field<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Field::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Field::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Field::Str(Cow::Owned(v)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Field::Null)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Field::Bool(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Field::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(i64::try_from(v).map_or(Field::Big(v), Field::Int))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Field::Other(
                    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
                ))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, a: A) -> Result<Self::Value, A::Error> {
                value_from_seq(a).map(Field::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Self::Value, A::Error> {
                value_from_map(a).map(Field::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// serde_json's reading of an event, for the events the hand-written reader gives up on
/// (nested values, fractions, signs). Fails for an event that names another `object`.
impl<'de> Deserialize<'de> for FastEvent<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FastEvent<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an event object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FastEvent<'de>, A::Error> {
                let mut ev = FastEvent::default();
                let mut seen = 0u16;
                while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
                    if !ev.take(&key, map.next_value()?, &mut seen) {
                        return Err(de::Error::custom("not a content event"));
                    }
                }
                Ok(ev)
            }
            // `deserialize_any` plus these keeps serde_json's `invalid_type` (and with it
            // core's float formatting) out of the wasm; see `protocol::entries`.
            crate::protocol::reject_non_objects!();
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_reference_delta_borrowing_its_strings() {
        let json = r#"{"sequence_number":3,"object":"content","status":"in_progress","error":null,"type":"text","index":0,"delta":true,"msg_id":"msg_1","text":"Hi"}"#;
        let ev = FastReader::default().read(json).unwrap();
        assert_eq!(ev.sequence_number, SeqNo(Some(3)));
        assert_eq!(ev.object.as_deref(), Some("content"));
        assert!(matches!(ev.text, Some(Cow::Borrowed("Hi"))));
        assert_eq!(ev.index, Some(0));
        assert_eq!(ev.delta, Some(true));
        assert!(ev.rest.is_empty(), "`error: null` is dropped");
        assert!(!ev.irregular);
    }

    #[test]
    fn escapes_and_odd_types_are_handled() {
        let ev = FastReader::default()
            .read(r#"{"text":"a\nb","index":"0","sequence_number":"7"}"#)
            .unwrap();
        assert_eq!(ev.text.as_deref(), Some("a\nb"));
        assert!(ev.irregular);
        // A string sequence number is the general path's to validate.
        assert_eq!(ev.sequence_number, SeqNo(None));
        for odd in ["18446744073709551615", "1.5", "true", "\"7\""] {
            let json = format!(r#"{{"text":"a","sequence_number":{odd}}}"#);
            let ev = FastReader::default().read(&json).unwrap();
            assert!(ev.irregular, "{odd}");
        }
        let dup = FastReader::default()
            .read(r#"{"text":"a","text":"b"}"#)
            .unwrap();
        assert!(dup.irregular);
        assert!(FastReader::default().read("[1]").is_none());
        // Another object: declined, flat or not, so that the full path reads it once.
        for other in [
            r#"{"sequence_number":1,"object":"message","status":"in_progress","id":"m1"}"#,
            r#"{"sequence_number":1,"object":"message","content":[{"type":"text"}],"id":"m1"}"#,
            r#"{"sequence_number":1,"object":"response","output":[],"usage":{"n":1.5}}"#,
        ] {
            assert!(FastReader::default().read(other).is_none(), "{other}");
        }
        let content =
            r#"{"object":"content","type":"data","index":0,"data":{"a":[1,-2.5]},"msg_id":"m1"}"#;
        let ev = FastReader::default().read(content).unwrap();
        assert_eq!(
            ev.rest,
            vec![("data".to_owned(), serde_json::json!({"a":[1,-2.5]}))]
        );
        assert!(FastReader::default().read("{").is_none());
    }
}
