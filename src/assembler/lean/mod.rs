//! A one-pass, mostly borrowing read of an Agent API event, for the hot path (content deltas).
//!
//! `protocol::parse_event` builds a full `serde_json::Value` first; for the thousands of small
//! text deltas of a stream that is most of the cost of assembling. [`LeanEvent`] reads the keys
//! a content event has straight from the JSON text, borrowing strings without escapes, and keeps
//! every other key as a `Value` so nothing is lost. Anything that is not a well-formed content
//! event is handed back to `protocol::parse_event` by the caller.

mod scan;

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

/// A string that borrows from the input when it has no escapes.
#[derive(Debug)]
pub(crate) struct Str<'a>(pub(crate) Cow<'a, str>);

impl<'de> Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// `sequence_number` as found: a number, a numeric string (the pre-0.1.3 wire), or absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct SeqNo(pub(crate) Option<i64>);

impl<'de> Deserialize<'de> for SeqNo {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SeqNo;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a sequence number")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<SeqNo, E> {
                Ok(SeqNo(Some(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<SeqNo, E> {
                Ok(SeqNo(i64::try_from(v).ok()))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<SeqNo, E> {
                Ok(SeqNo(None))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<SeqNo, E> {
                Ok(SeqNo(v.trim().parse().ok()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<SeqNo, E> {
                Ok(SeqNo(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<SeqNo, E> {
                Ok(SeqNo(None))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<SeqNo, A::Error> {
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(SeqNo(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<SeqNo, A::Error> {
                while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(SeqNo(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// The fields of an event that the fast path reads; every other key is in `rest`, except
/// `"error": null`, which says nothing (the reference writes it into every event).
#[derive(Debug, Default)]
pub(crate) struct LeanEvent<'a> {
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
pub(crate) struct LeanReader {
    template: scan::Template,
}

impl LeanReader {
    /// Reads one event payload; `None` when it is not a JSON object (the full path reports why).
    pub(crate) fn read<'a>(&mut self, json: &'a str) -> Option<LeanEvent<'a>> {
        scan::scan_with(json, &mut self.template).or_else(|| serde_json::from_str(json).ok())
    }
}

/// An optional string: `null` or a string; anything else marks the event irregular.
fn opt_str<'de, A: MapAccess<'de>>(
    map: &mut A,
    irregular: &mut bool,
) -> Result<Option<Cow<'de, str>>, A::Error> {
    match map.next_value::<Option<StrOrOther<'de>>>()? {
        None => Ok(None),
        Some(StrOrOther::Str(s)) => Ok(Some(s)),
        Some(StrOrOther::Other) => {
            *irregular = true;
            Ok(None)
        }
    }
}

/// A string, or a note that the value was something else.
enum StrOrOther<'a> {
    Str(Cow<'a, str>),
    Other,
}

impl<'de> Deserialize<'de> for StrOrOther<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StrOrOther<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(StrOrOther::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(StrOrOther::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(StrOrOther::Str(Cow::Owned(v)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(StrOrOther::Other)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(StrOrOther::Other)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(StrOrOther::Other)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(StrOrOther::Other)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(StrOrOther::Other)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(StrOrOther::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(StrOrOther::Other)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for LeanEvent<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LeanEvent<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an event object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LeanEvent<'de>, A::Error> {
                let mut ev = LeanEvent::default();
                let mut seen = 0u16;
                while let Some(Str(key)) = map.next_key::<Str<'de>>()? {
                    let bit = match key.as_ref() {
                        "sequence_number" => {
                            ev.sequence_number = map.next_value()?;
                            1
                        }
                        "object" => {
                            ev.object = opt_str(&mut map, &mut ev.irregular)?;
                            2
                        }
                        "status" => {
                            ev.status = opt_str(&mut map, &mut ev.irregular)?;
                            4
                        }
                        "type" => {
                            ev.content_type = opt_str(&mut map, &mut ev.irregular)?;
                            8
                        }
                        "index" => {
                            match map.next_value::<Value>()? {
                                Value::Null => ev.index = None,
                                Value::Number(n) => match n.as_i64() {
                                    Some(i) => ev.index = Some(i),
                                    None => ev.irregular = true,
                                },
                                _ => ev.irregular = true,
                            }
                            16
                        }
                        "delta" => {
                            match map.next_value::<Value>()? {
                                Value::Null => ev.delta = None,
                                Value::Bool(b) => ev.delta = Some(b),
                                _ => ev.irregular = true,
                            }
                            32
                        }
                        "msg_id" => {
                            ev.msg_id = opt_str(&mut map, &mut ev.irregular)?;
                            64
                        }
                        "text" => {
                            ev.text = opt_str(&mut map, &mut ev.irregular)?;
                            128
                        }
                        _ => {
                            let value: Value = map.next_value()?;
                            if !(key == "error" && value.is_null()) {
                                ev.rest.push((key.into_owned(), value));
                            }
                            0
                        }
                    };
                    if seen & bit != 0 {
                        ev.irregular = true;
                    }
                    seen |= bit;
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
        let ev = LeanReader::default().read(json).unwrap();
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
        let ev = LeanReader::default()
            .read(r#"{"text":"a\nb","index":"0","sequence_number":"7"}"#)
            .unwrap();
        assert_eq!(ev.text.as_deref(), Some("a\nb"));
        assert!(ev.irregular);
        assert_eq!(ev.sequence_number, SeqNo(Some(7)));
        let dup = LeanReader::default()
            .read(r#"{"text":"a","text":"b"}"#)
            .unwrap();
        assert!(dup.irregular);
        assert!(LeanReader::default().read("[1]").is_none());
        assert!(LeanReader::default().read("{").is_none());
    }
}
