//! Reading a JSON value ([`serde_json::Value`]) with agentwire's own visitor.
//!
//! It builds the same `Value` as serde_json's `Deserialize` impl (in `lite`, an object of the
//! input keyed by serde_json's private number token stays an object). In the `lite` build, where
//! serde_json hands numbers over as text (`arbitrary_precision`), it also gives each number the
//! form the `full` build gives it ([`from_text`](super::number::from_text)); and serde_json's own
//! visitor would link its wrong-type error path, which prints floats with core's `Display` for
//! `f64` (~7 KB gzip of wasm), where this one never reaches it.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// A JSON value read by [`ValueVisitor`]; `.0` is the value.
pub(crate) struct JsonValue(pub(crate) Value);

impl<'de> Deserialize<'de> for JsonValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor).map(JsonValue)
    }
}

/// Reads the rest of a JSON array whose elements `access` yields.
pub(crate) fn value_from_seq<'de, A: SeqAccess<'de>>(access: A) -> Result<Value, A::Error> {
    ValueVisitor.visit_seq(access)
}

/// Reads the rest of a JSON object whose entries `access` yields.
pub(crate) fn value_from_map<'de, A: MapAccess<'de>>(access: A) -> Result<Value, A::Error> {
    ValueVisitor.visit_map(access)
}

/// The key under which serde_json's `arbitrary_precision` hands a number over as a one-entry
/// map holding its text.
#[cfg(feature = "lite")]
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Reads the value of the map entry just keyed `key` (`first`: the map's first key): `Ok(value)`,
/// or `Err(text)` when the map is serde_json's stand-in for a number (lite only: its first key is
/// [`NUMBER_TOKEN`] and its text comes as an owned `String`, which a string read from JSON text
/// never is; an object of the input with that key stays an object).
pub(crate) fn entry_value<'de, A: MapAccess<'de>>(
    access: &mut A,
    key: &str,
    first: bool,
) -> Result<Result<Value, String>, A::Error> {
    #[cfg(feature = "lite")]
    if first && key == NUMBER_TOKEN {
        return number_text(access).map(|read| match read {
            Ok(text) => Err(text),
            Err(value) => Ok(value),
        });
    }
    #[cfg(not(feature = "lite"))]
    let _ = (key, first);
    access
        .next_value::<JsonValue>()
        .map(|JsonValue(value)| Ok(value))
}

/// [`entry_value`] for a [`NUMBER_TOKEN`] key: `Ok(text)` for serde_json's number stand-in,
/// `Err(value)` otherwise.
#[cfg(feature = "lite")]
fn number_text<'de, A: MapAccess<'de>>(access: &mut A) -> Result<Result<String, Value>, A::Error> {
    struct TextOrValue;
    impl<'de> Visitor<'de> for TextOrValue {
        type Value = Result<String, Value>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(Ok(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            ValueVisitor.visit_str(v).map(Err)
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            ValueVisitor.visit_bool(v).map(Err)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            ValueVisitor.visit_i64(v).map(Err)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            ValueVisitor.visit_u64(v).map(Err)
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            ValueVisitor.visit_f64(v).map(Err)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Err(Value::Null))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, access: A) -> Result<Self::Value, A::Error> {
            ValueVisitor.visit_seq(access).map(Err)
        }
        fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<Self::Value, A::Error> {
            ValueVisitor.visit_map(access).map(Err)
        }
    }
    struct Seed;
    impl<'de> de::DeserializeSeed<'de> for Seed {
        type Value = Result<String, Value>;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(TextOrValue)
        }
    }
    access.next_value_seed(Seed)
}

/// A number given as text, in the form the `full` build reads it (lite); an error when it
/// overflows a double, as `full` reports it.
fn number<E: de::Error>(text: &str) -> Result<Value, E> {
    #[cfg(feature = "lite")]
    {
        super::number::from_text(text)
            .map(Value::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }
    #[cfg(not(feature = "lite"))]
    {
        text.parse::<Number>().map(Value::Number).map_err(E::custom)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    // Reading a `Value` of the lite build (whose numbers may be wider than 64 bits) as a value.
    #[cfg(feature = "lite")]
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        number(&v.to_string())
    }
    #[cfg(feature = "lite")]
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        number(&v.to_string())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(access.size_hint().unwrap_or(0).min(4096));
        while let Some(JsonValue(item)) = access.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            match entry_value(&mut access, &key, map.is_empty())? {
                Ok(value) => {
                    map.insert(key, value);
                }
                Err(text) => return number(&text),
            }
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_serde_json_reads() {
        // Numbers compared by value (`json_eq`): the lite build gives them the full build's
        // forms, which serde_json with `arbitrary_precision` does not (`-0`, a float in the full
        // build, is checked in `number`'s tests).
        for json in [
            r#"{"a":[1,-2,2.5,"x",null,true,{"b":{}}],"c":1E2,"a":3}"#,
            r#"[18446744073709551615,-9223372036854775808,123456789012345678901234,0.1]"#,
            r#""\u00e9\ud83d\ude00""#,
            "1E+2",
        ] {
            let ours = serde_json::from_str::<JsonValue>(json).map(|v| v.0);
            let theirs = serde_json::from_str::<Value>(json);
            match (ours, theirs) {
                (Ok(a), Ok(b)) => assert!(super::super::json_eq(&a, &b), "{json}: {a} vs {b}"),
                (a, b) => panic!("{json}: ours {a:?}, serde_json {b:?}"),
            }
        }
        // A literal that overflows a double is invalid JSON in both builds.
        assert!(serde_json::from_str::<JsonValue>(r#"{"c":1e400}"#).is_err());
    }

    #[test]
    fn an_object_keyed_by_serde_jsons_number_token_stays_an_object() {
        // (serde_json's own `Value` gets these wrong under `arbitrary_precision`.)
        const TOKEN: &str = "$serde_json::private::Number";
        for (json, keys) in [
            (r#"{"a":{"$serde_json::private::Number":"7"}}"#, vec!["a"]),
            (
                r#"{"$serde_json::private::Number":"1","b":2}"#,
                vec![TOKEN, "b"],
            ),
            (r#"{"$serde_json::private::Number":"abc"}"#, vec![TOKEN]),
            (
                r#"{"$serde_json::private::Number":{"x":[1.5]}}"#,
                vec![TOKEN],
            ),
        ] {
            let ours = serde_json::from_str::<JsonValue>(json).map(|v| v.0);
            let got = ours.as_ref().ok().and_then(Value::as_object);
            assert_eq!(
                got.map(|m| m.keys().map(String::as_str).collect::<Vec<_>>()),
                Some(keys)
            );
        }
        let nested =
            serde_json::from_str::<JsonValue>(r#"{"a":{"$serde_json::private::Number":"7"}}"#);
        let inner = nested.map(|v| v.0["a"][TOKEN].clone()).unwrap_or_default();
        assert_eq!(inner, Value::String("7".to_owned()));
    }

    #[test]
    fn events_and_requests_that_are_not_objects_or_overflow_are_invalid_json_in_both_builds() {
        use crate::ErrorCode;
        for json in ["1.5", "-0", "1e3", "99999999999999999999", "1e400", "7"] {
            let code = crate::protocol::parse_event(json)
                .map(|_| ())
                .map_err(|e| e.code());
            assert_eq!(code, Err(ErrorCode::InvalidJson), "{json}");
        }
        let request = r#"{"input":[],"temperature":1e400}"#;
        let code = crate::protocol::parse_request(request)
            .map(|_| ())
            .map_err(|e| e.code());
        assert_eq!(code, Err(ErrorCode::InvalidJson));
    }
}
